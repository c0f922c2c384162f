//! End-to-end conformance cases through the whole simulator (hadoop-semantics.md §9).

use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec};
use fairsim_sim::{SimTime, run};

fn scenario(nodes: u32, node: Resource, tree: QueueTree, apps: Vec<AppSpec>) -> Scenario {
    Scenario {
        name: "t".into(),
        path: None,
        cluster: ClusterSpec {
            nodes,
            racks: 1,
            node_memory_mb: node.memory_mb,
            node_vcores: node.vcores,
        },
        scheduler: SchedulerConf::default(),
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: None,
        sample_interval_ms: 0,
        check_invariants: true,
    }
}

fn app(arrival: u64, queue: &str, user: &str, count: u32, mb: i64, dur: u64) -> AppSpec {
    AppSpec {
        name: format!("{queue}-{arrival}"),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: user.into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(mb, 1),
            duration_ms: dur,
            priority: 1,
            hosts: vec![],
        }]],
    }
}

/// Containers allocated per app after the run (or until `end_ms`).
fn allocations(rec: &MemoryRecorder, n_apps: usize) -> Vec<usize> {
    let mut v = vec![0; n_apps];
    for d in &rec.decisions {
        if matches!(d.kind, DecisionKind::Allocated(_)) {
            v[d.app as usize] += 1;
        }
    }
    v
}

fn low_max_tree() -> QueueTree {
    let mut t = QueueTree::with_root();
    let a = t.add_queue(QueueId::ROOT, "A", true);
    let b = t.add_queue(QueueId::ROOT, "B", true);
    t.get_mut(a).weight = 0.75;
    t.get_mut(a).max_resources = ResourceSpec::Absolute(Resource::new(1024, 1));
    t.get_mut(b).weight = 0.25;
    t.get_mut(b).max_resources = ResourceSpec::Absolute(Resource::new(3072, 3));
    t
}

fn low_max(semantics: Semantics) -> Vec<usize> {
    let apps = vec![
        app(0, "A", "u", 2, 1024, 1_000_000),
        app(0, "B", "u", 4, 1024, 1_000_000),
    ];
    let mut sc = scenario(1, Resource::new(8192, 8), low_max_tree(), apps);
    sc.scheduler.semantics = semantics;
    // Six heartbeats: at 0, 1000, ..., 5000 ms.
    sc.end_ms = Some(5_500);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    allocations(&rec, 2)
}

#[test]
fn low_max_resources_hadoop33_after_six_heartbeats_a1_b3() {
    assert_eq!(low_max(Semantics::Hadoop33), vec![1, 3]);
}

#[test]
fn low_max_resources_hadoop27_overshoots_by_one_container() {
    // 2.7 checks only current usage against maxResources: each queue ends one container over.
    assert_eq!(low_max(Semantics::Hadoop27), vec![2, 4]);
}
