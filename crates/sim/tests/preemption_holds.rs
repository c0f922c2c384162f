//! Hadoop 3.x holds what preemption frees on a node per app (`FSSchedulerNode`'s
//! `resourcesPreemptedForApp`, an insertion-ordered map): two starved apps whose containers
//! are preempted on the same node each keep their hold, and the node update hands the
//! freed resources to them oldest hold first (`assignPreemptedContainers`) before any other
//! queue is offered the node.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::{SimTime, run};

const GB: i64 = 1024;

fn app(arrival: u64, queue: &str, count: u32) -> AppSpec {
    AppSpec {
        name: format!("{queue}-{arrival}"),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: "u".into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(GB, 1),
            duration_ms: 1_000_000,
            priority: 1,
            hosts: vec![],
            relax_locality: true,
        }]],
        recorded: None,
    }
}

/// `(time, app)` of every allocation.
fn allocations(sc: &Scenario) -> Vec<(u64, u32)> {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| (d.time.0, d.app))
        .collect()
}

#[test]
fn two_apps_preempted_for_on_one_node_each_keep_their_hold() {
    // One 4 GB / 4 vcore node. `big` (app 0) fills it with four 1 GB tasks, one a
    // heartbeat (0 to 3000 ms); `x` (app 1) and `y` (app 2) each ask 1 GB at 20 s and are
    // starved after the 1 s fair-share timeout (threshold 1.0: fair shares of 4096 / 3 =
    // 1365 MB, usage 0). Their starvations are equal, and Hadoop's starved-app queue
    // (`StarvationComparator`, "fits in" first) puts the later-queued y first: the thread
    // takes one of big's containers for y, then one for x, on the only node, which holds
    // 1 GB for y, then 1 GB for x. `w` (app 3) asks 1 GB at 25 s; its own timeout (1000 s)
    // never runs out. The two containers are killed 15 s after they were chosen, and the
    // node's update at 36,000 ms hands 1 GB to y, then 1 GB to x; w gets nothing. With one
    // hold per node, x's hold replaced y's: x took its GB from the hold, w (usage 0, its
    // name before y's) the other in the queue order, and y waited until 65,000 ms.
    let xml = r#"<allocations>
  <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="big"/><queue name="x"/><queue name="y"/>
  <queue name="w"><fairSharePreemptionTimeout>1000</fairSharePreemptionTimeout></queue>
</allocations>"#;
    let tree = parse_fair_scheduler_xml(xml, "fair-scheduler.xml", Semantics::Hadoop33)
        .expect("valid allocation file")
        .tree;
    let sc = Scenario {
        name: "holds".into(),
        path: None,
        cluster: ClusterSpec {
            nodes: 1,
            racks: 1,
            node_memory_mb: 4 * GB,
            node_vcores: 4,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop33,
            preemption: true,
            ..SchedulerConf::default()
        },
        tree,
        warnings: vec![],
        workload: Workload::Trace(vec![
            app(0, "big", 4),
            app(20_000, "x", 1),
            app(20_000, "y", 1),
            app(25_000, "w", 1),
        ]),
        end_ms: Some(100_000),
        sample_interval_ms: 0,
        check_invariants: true,
    };
    let big = [(0, 0), (1000, 0), (2000, 0), (3000, 0)];
    let mut expected = big.to_vec();
    expected.extend([(36_000, 2), (36_000, 1)]);
    assert_eq!(allocations(&sc), expected);
}
