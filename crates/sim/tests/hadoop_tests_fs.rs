//! More of TestFairScheduler's scheduling scenarios, each written anew as an allocation file,
//! a trace and a scenario, with the numbers Hadoop's test asserts. `hadoop_tests.rs` holds
//! the first ones; the table in docs/semantics.md maps every test method to its test here
//! (checked by `hadoop_table.rs`).
//!
//! Hadoop's tests call the scheduler by hand: one `update()`, then node heartbeats one at a
//! time, each assigning one container (assignmultiple off). fairsim runs the same clusters
//! on its clock; nodes beat in index order, and the asserted counts are read off the order
//! of allocations, so they do not depend on when each heartbeat falls.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{Decision, DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::{RunSummary, SimTime, run};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];
/// Tasks that outlive every test run.
const LONG: u64 = 1_000_000;

/// An unmanaged app (no AM container) of `count` tasks of `mb` MB / `vcores` vcores.
fn app(arrival: u64, queue: &str, user: &str, count: u32, mb: i64, vcores: i64) -> AppSpec {
    AppSpec {
        name: format!("app-{arrival}-{queue}-{user}"),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: user.into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(mb, vcores),
            duration_ms: LONG,
            priority: 1,
            hosts: vec![],
            relax_locality: true,
        }]],
        recorded: None,
    }
}

/// `nodes` identical nodes on one rack, read like a scenario's `[cluster]` table.
fn cluster(nodes: u32, node: Resource) -> ClusterSpec {
    toml::from_str(&format!(
        "nodes = {nodes}\nnode_memory_mb = {}\nnode_vcores = {}",
        node.memory_mb, node.vcores
    ))
    .expect("a valid cluster table")
}

fn scenario(
    semantics: Semantics,
    xml: &str,
    nodes: u32,
    node: Resource,
    apps: Vec<AppSpec>,
) -> Scenario {
    let tree = parse_fair_scheduler_xml(xml, "fair-scheduler.xml", semantics)
        .expect("valid allocation file")
        .tree;
    Scenario {
        name: "hadoop-test".into(),
        path: None,
        cluster: cluster(nodes, node),
        scheduler: SchedulerConf {
            semantics,
            ..SchedulerConf::default()
        },
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: Some(60_000),
        sample_interval_ms: 0,
        check_invariants: true,
    }
}

fn run_rec(sc: &Scenario) -> (MemoryRecorder, RunSummary) {
    let mut rec = MemoryRecorder::default();
    let sum = run(sc, 1, 0, &mut rec).expect("runs");
    (rec, sum)
}

fn allocations(rec: &MemoryRecorder) -> Vec<Decision> {
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .copied()
        .collect()
}

/// Containers per app among the first `n` allocations.
fn counts_after(rec: &MemoryRecorder, n: usize, apps: usize) -> Vec<usize> {
    let mut c = vec![0; apps];
    for d in allocations(rec).iter().take(n) {
        c[d.app as usize] += 1;
    }
    c
}

fn metric(s: &RunSummary, name: &str) -> f64 {
    s.metrics
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .1
}

#[test]
fn empty_queue_name_is_rejected() {
    // testEmptyQueueName: an app submitted to "" is refused and nothing runs.
    for s in ERAS {
        let sc = scenario(
            s,
            "<allocations/>",
            1,
            Resource::new(8 * GB, 8),
            vec![app(0, "", "user1", 1, GB, 1)],
        );
        let (rec, sum) = run_rec(&sc);
        assert_eq!(metric(&sum, "apps_rejected"), 1.0, "{s}");
        assert!(allocations(&rec).is_empty(), "{s}");
    }
}

#[test]
fn assign_container_fifo_leaf_beside_fair_parent() {
    // testAssignContainer: two nodes of 8 GB; root holds a fifo leaf and a fair parent with
    // two children; four apps of 4 × 1 GB: fifo app1 and app4, fairChild1 app2, fairChild2
    // app3. Every 4 containers: 2 to the fifo leaf (app1 until it is full, then app4) and 1
    // to each fair child.
    let xml = r#"<allocations>
      <queue name="fifo"><schedulingPolicy>fifo</schedulingPolicy></queue>
      <queue name="fairParent"><queue name="fairChild1"/><queue name="fairChild2"/></queue>
    </allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "fifo", "user1", 4, GB, 1),
            app(0, "fairParent.fairChild1", "user1", 4, GB, 1),
            app(0, "fairParent.fairChild2", "user1", 4, GB, 1),
            app(0, "fifo", "user1", 4, GB, 1),
        ];
        let (rec, _) = run_rec(&scenario(s, xml, 2, Resource::new(8 * GB, 8), apps));
        // After 4, 8, 12 and 16 containers: (app1, app2, app3, app4).
        let want = [[2, 1, 1, 0], [4, 2, 2, 0], [4, 3, 3, 2], [4, 4, 4, 4]];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(
                counts_after(&rec, 4 * (k + 1), 4),
                w.to_vec(),
                "{s} after {} containers",
                4 * (k + 1)
            );
        }
    }
}

#[test]
fn simple_container_allocation_normalises_the_ask_to_the_minimum() {
    // testSimpleContainerAllocation: an ask of 512 MB / 2 vcores is normalised to the
    // minimum allocation, 1024 MB; queue1 then uses 1024 MB and 2 vcores. Hadoop's second
    // node (512 MB) can hold no normalised container; it is left out, so the one node of
    // 1024 MB is all the cluster can give and the second container never runs.
    for s in ERAS {
        let sc = scenario(
            s,
            "<allocations/>",
            1,
            Resource::new(GB, 4),
            vec![app(0, "queue1", "user1", 2, 512, 2)],
        );
        let (rec, _) = run_rec(&sc);
        let got = allocations(&rec);
        assert_eq!(got.len(), 1, "{s}");
        assert_eq!(got[0].size, Resource::new(GB, 2), "{s}");
    }
}

#[test]
fn dynamic_max_assign_gives_half_the_free_node_per_heartbeat() {
    // testDynamicMaxAssign (Hadoop 3 only): assignmultiple with dynamic max-assign on a node
    // of 8 GB / 8 vcores and 12 asks of 1 GB: whatever maxAssign says, a heartbeat assigns
    // until half the free resources are gone: 5, then 2, then 1 container.
    let mut sc = scenario(
        Semantics::Hadoop33,
        "<allocations/>",
        1,
        Resource::new(8 * GB, 8),
        vec![app(0, "root.default", "user", 12, GB, 1)],
    );
    sc.scheduler.assignmultiple = true;
    sc.scheduler.dynamic_max_assign = true;
    sc.scheduler.max_assign = 2;
    let (rec, _) = run_rec(&sc);
    let mut per_heartbeat: Vec<(u64, usize)> = vec![];
    for d in allocations(&rec) {
        match per_heartbeat.last_mut() {
            Some((t, n)) if *t == d.time.0 => *n += 1,
            _ => per_heartbeat.push((d.time.0, 1)),
        }
    }
    let counts: Vec<usize> = per_heartbeat.iter().map(|&(_, n)| n).collect();
    assert_eq!(counts, vec![5, 2, 1]);
}

#[test]
fn child_max_resources_caps_each_created_child() {
    // testChildMaxResources (Hadoop 3 only; the part before the file is reloaded): parent
    // queueA with maxChildResources 2048 MB / 2 vcores; apps of 8 × 1 GB in the children
    // queueA.queueB and queueA.queueC, created at submission, run 2 containers each.
    let xml = r#"<allocations><queue name="queueA" type="parent">
      <maxChildResources>2048mb,2vcores</maxChildResources></queue></allocations>"#;
    let apps = vec![
        app(0, "queueA.queueB", "user1", 8, GB, 1),
        app(0, "queueA.queueC", "user1", 8, GB, 1),
    ];
    let (rec, _) = run_rec(&scenario(
        Semantics::Hadoop33,
        xml,
        1,
        Resource::new(8 * GB, 8),
        apps,
    ));
    assert_eq!(counts_after(&rec, usize::MAX, 2), vec![2, 2]);
}
