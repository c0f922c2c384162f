//! Hadoop's scheduling tests that add and remove nodes while they run, each written anew with
//! `[[cluster.events]]` (docs/testing.md's table names them). Heartbeats every 1000 ms;
//! the `n` initial nodes beat at phases `i × 1000 / n`, a node added at `t` beats at `t + k ×
//! 1000`; one container per heartbeat unless said.
//!
//! Hadoop's tests start with no node and add the first ones by hand; a fairsim cluster starts
//! with its nodes, so the nodes a test adds before anything is scheduled are the initial ones.

mod common;

use common::apps::app;
use common::outcomes::{metric, placed, run_sampled};
use common::scenarios::fair_tree;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::topology::NodeSpec;
use fairsim_sim::topology::events::{NodeEvent, NodeEventKind, NodeEvents};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];
/// Tasks that outlive every test run.
const LONG: u64 = 1_000_000;

fn node(name: &str, rack: &str, mb: i64, vcores: i64) -> NodeSpec {
    NodeSpec {
        name: name.into(),
        rack: rack.into(),
        capacity: Resource::new(mb, vcores),
    }
}

/// `initial` nodes, then `added` nodes joining at the given times, and removals:
/// `(time, kind, node index)` (indices count the initial nodes first, then the added ones).
fn scenario(
    semantics: Semantics,
    initial: Vec<NodeSpec>,
    added: Vec<(NodeSpec, u64)>,
    removals: Vec<(u64, NodeEventKind, u32)>,
    apps: Vec<AppSpec>,
) -> Scenario {
    let tree = fair_tree("<allocations/>", semantics);
    let n0 = initial.len() as u32;
    let mut events: Vec<NodeEvent> = added
        .iter()
        .enumerate()
        .map(|(i, (_, t))| NodeEvent {
            at_ms: *t,
            kind: NodeEventKind::Add,
            nodes: vec![n0 + i as u32],
        })
        .chain(removals.iter().map(|&(t, kind, n)| NodeEvent {
            at_ms: t,
            kind,
            nodes: vec![n],
        }))
        .collect();
    events.sort_by_key(|e| e.at_ms);
    let cluster = ClusterSpec {
        nodes: n0,
        racks: 1,
        node_memory_mb: initial[0].capacity.memory_mb,
        node_vcores: initial[0].capacity.vcores,
        layout: initial,
        events: NodeEvents {
            events,
            added: added.into_iter().map(|(n, _)| n).collect(),
        },
    };
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            // Hadoop 3's test base sets the reservation threshold multiple to 0.09.
            reservation_threshold_increment_multiple: 0.09,
            ..SchedulerConf::default()
        },
        end_ms: Some(30_000),
        sample_interval_ms: 250,
        check_invariants: true,
        ..Scenario::new("hadoop-test", cluster, tree, Workload::Trace(apps))
    }
}

/// Memory reserved after every decision up to and including time `t` (root's reservedMB).
fn reserved_mb_at(rec: &MemoryRecorder, t: u64) -> i64 {
    rec.decisions
        .iter()
        .filter(|d| d.time.0 <= t)
        .map(|d| match d.kind {
            DecisionKind::Reserved => d.size.memory_mb,
            DecisionKind::Unreserved => -d.size.memory_mb,
            _ => 0,
        })
        .sum()
}

/// Root's row (steady share = the cluster resource; usage) in the sample at `t`.
fn root_at(rec: &MemoryRecorder, t: u64) -> (Resource, Resource) {
    rec.samples
        .iter()
        .find(|(at, _)| at.0 == t)
        .map(|(_, rows)| (rows[0].steady_fair_share, rows[0].usage))
        .unwrap_or_else(|| panic!("no sample at {t}"))
}

/// Memory used by queue `q` in the sample at `t`.
fn usage_at(rec: &MemoryRecorder, q: &str, t: u64) -> i64 {
    rec.samples
        .iter()
        .find(|(at, _)| at.0 == t)
        .and_then(|(_, rows)| rows.iter().find(|r| r.queue == q))
        .map(|r| r.usage.memory_mb)
        .unwrap_or_else(|| panic!("no sample of {q} at {t}"))
}

#[test]
fn scheduler_root_queue_metrics() {
    // testSchedulerRootQueueMetrics: node1 (1024 MB) runs queue1's 1024 MB container (at 0);
    // queue2's app (arriving at 100) reserves node1 at its beat at 1000: reserved 1024 MB.
    // node2 (1024 MB) joins at 1500 and beats then: queue2's container goes there, the old
    // reservation stays (1024 MB) until node1's beat at 2000 releases it (0 MB).
    for s in ERAS {
        let sc = scenario(
            s,
            vec![node("node1", "rack1", GB, 1)],
            vec![(node("node2", "rack1", GB, 1), 1500)],
            vec![],
            vec![
                app(0, "queue1", "user1", 1, GB, 1, LONG),
                app(100, "queue2", "user1", 1, GB, 1, LONG),
            ],
        );
        let (rec, _) = run_sampled(&sc);
        assert_eq!(reserved_mb_at(&rec, 1000), 1024, "{s}");
        assert_eq!(placed(&rec), vec![(0, 0, 0), (1500, 1, 1)], "{s}");
        assert_eq!(reserved_mb_at(&rec, 1500), 1024, "{s}");
        assert_eq!(reserved_mb_at(&rec, 2000), 0, "{s}");
        assert_eq!(usage_at(&rec, "root.queue2", 1500), 1024, "{s}");
    }
}

#[test]
fn remove_node_updates_root_queue_metrics() {
    // testRemoveNodeUpdatesRootQueueMetrics: root's available resource (the cluster minus
    // what runs) is 1024 MB / 4 vcores with the node, through update ticks, and 0 / 0 after
    // it is removed (at 2000), through update ticks. (The test's first check, 0 before any
    // node joins, has no counterpart: a fairsim cluster starts with its nodes.)
    for s in ERAS {
        let sc = scenario(
            s,
            vec![node("node1", "rack1", GB, 4)],
            vec![],
            vec![(2000, NodeEventKind::Lose, 0)],
            // An app that asks for more than the node keeps the run (and its samples) going.
            vec![app(0, "queue1", "user1", 1, 2 * GB, 1, LONG)],
        );
        let (rec, _) = run_sampled(&sc);
        for t in [0, 750, 1750] {
            let (cluster, used) = root_at(&rec, t);
            assert_eq!(
                cluster.saturating_sub(used),
                Resource::new(1024, 4),
                "{s} {t}"
            );
        }
        for t in [2000, 2750, 5000] {
            let (cluster, used) = root_at(&rec, t);
            assert_eq!(cluster.saturating_sub(used), Resource::ZERO, "{s} {t}");
        }
    }
}

#[test]
fn scheduling_on_removed_node() {
    // testSchedulingOnRemovedNode: an app asks for 1024 MB / 8 vcores; the one node (8 GB, 8
    // vcores) is removed before it is offered (at 0, before its first beat): nothing is ever
    // allocated on it. With no node left the run stalls.
    for s in ERAS {
        let mut sc = scenario(
            s,
            vec![node("node1", "rack1", 8 * GB, 8)],
            vec![],
            vec![(0, NodeEventKind::Lose, 0)],
            vec![app(0, "queue1", "user1", 1, GB, 8, LONG)],
        );
        sc.scheduler.maximum_allocation_vcores = 8;
        sc.end_ms = None;
        let (rec, sum) = run_sampled(&sc);
        assert!(placed(&rec).is_empty(), "{s}");
        assert_eq!(metric(&sum, "stalled"), 1.0, "{s}");
    }
}

#[test]
fn completed_container_on_removed_node() {
    // testCompletedContainerOnRemovedNode (3.3): a 1024 MB container, asked for the node
    // itself, runs on the 2048 MB node (allocated at 0); the node is removed (at 500); the
    // container's completion, queued for 5000, comes for a node that is gone and changes
    // nothing (the engine's invariants hold at every event).
    let mut a = app(0, "queue1", "user1", 1, GB, 1, LONG);
    a.stages[0][0].hosts = vec!["node1".into()];
    a.stages[0][0].relax_locality = false;
    a.stages[0][0].duration_ms = 5000;
    let sc = scenario(
        Semantics::Hadoop33,
        vec![node("node1", "rack1", 2 * GB, 2)],
        vec![],
        vec![(500, NodeEventKind::Lose, 0)],
        vec![a],
    );
    let (rec, sum) = run_sampled(&sc);
    assert_eq!(placed(&rec), vec![(0, 0, 0)]);
    assert_eq!(metric(&sum, "node_lost_containers"), 1.0);
    assert_eq!(usage_at(&rec, "root.queue1", 250), 1024);
    assert_eq!(usage_at(&rec, "root.queue1", 500), 0);
    assert_eq!(usage_at(&rec, "root.queue1", 5000), 0);
}

/// Continuous scheduling after a node is removed (TestContinuousScheduling.testWithNodeRemoved
/// in 3.3, TestFairScheduler.testContinuousSchedulingWithNodeRemoved in 2.7): two 8 GB
/// nodes, node1 removed at 100 (one node left); an app arriving at 200 asks for two 1024 MB
/// containers, which the continuous passes (every 500 ms from 0) place on node2 alone, at
/// the passes of 500 and 1000 (one container per node per pass without assignmultiple).
#[test]
fn continuous_scheduling_with_node_removed() {
    for s in ERAS {
        let mut sc = scenario(
            s,
            vec![
                node("node1", "rack1", 8 * GB, 8),
                node("node2", "rack1", 8 * GB, 8),
            ],
            vec![],
            vec![(100, NodeEventKind::Lose, 0)],
            vec![app(200, "queue1", "user1", 2, GB, 1, LONG)],
        );
        sc.scheduler.continuous_scheduling = true;
        sc.scheduler.continuous_scheduling_sleep_ms = 500;
        sc.scheduler.heartbeat_ms = 100_000;
        let (rec, _) = run_sampled(&sc);
        let nodes: Vec<u32> = placed(&rec).iter().map(|a| a.1).collect();
        assert_eq!(nodes, vec![1, 1], "{s}");
        let times: Vec<u64> = placed(&rec).iter().map(|a| a.0).collect();
        assert_eq!(times, vec![500, 1000], "{s}");
    }
}

#[test]
fn off_switch_app_reservation_threshold() {
    // testOffSwitchAppReservationThreshold (3.3), reservable-nodes 0.5: three 3072 MB nodes
    // (beats at 0, 333, 666) each run a 2048 MB container of queue1. An app arriving at 700
    // asks 2048 MB off-switch: it reserves node1 (1000) and node2 (1333); at node3 (1666)
    // it holds 2 = ceil(3 × 0.5) reservations and reserves no more. node4 (3072 MB) joins at
    // 1800 and beats then: the app runs there, queue1 uses 8192 MB. The next beats of node1
    // (2000) and node2 (2333) release the two reservations: 0 left.
    let mut sc = scenario(
        Semantics::Hadoop33,
        vec![
            node("node1", "rack1", 3 * GB, 4),
            node("node2", "rack1", 3 * GB, 4),
            node("node3", "rack1", 3 * GB, 4),
        ],
        vec![(node("node4", "rack1", 3 * GB, 4), 1800)],
        vec![],
        vec![
            app(0, "queue1", "user1", 1, 2 * GB, 1, LONG),
            app(0, "queue1", "user1", 1, 2 * GB, 1, LONG),
            app(0, "queue1", "user1", 1, 2 * GB, 1, LONG),
            app(700, "queue1", "user1", 1, 2 * GB, 1, LONG),
        ],
    );
    sc.scheduler.reservable_nodes = 0.5;
    let (rec, _) = run_sampled(&sc);
    let reservations = |t: u64| reserved_mb_at(&rec, t) / (2 * GB);
    assert_eq!(reservations(1000), 1);
    assert_eq!(reservations(1333), 2);
    assert_eq!(reservations(1666), 2);
    assert_eq!(placed(&rec)[3], (1800, 3, 3));
    assert_eq!(usage_at(&rec, "root.queue1", 2000), 8192);
    assert_eq!(reservations(2000), 1);
    assert_eq!(reservations(2333), 0);
    // With the default ratio (0.05: ceil(3 × 0.05) = 1) the app holds one reservation only.
    sc.scheduler.reservable_nodes = 0.05;
    let (rec, _) = run_sampled(&sc);
    assert_eq!(reserved_mb_at(&rec, 1666) / (2 * GB), 1);
}

#[test]
fn rack_local_reservations_count_against_the_racks_cap() {
    // Hadoop 3.3's reservable-nodes cap for a rack-local ask reads the app's reservations in
    // the node's rack against ceil(live nodes of the rack × ratio), an off-switch one its
    // reservations in the cluster against ceil(live nodes × ratio). Ratio 0.5; rack1 holds
    // node1..node4 (cap ceil(4 × 0.5) = 2), rack2 node5; the cluster cap is ceil(5 × 0.5) = 3.
    // Five 3072 MB nodes (beats at 0, 200, 400, 600, 800) each run one 2048 MB container of
    // queue1. An app arriving at 900 asks one 2048 MB container on node1 (so on rack1 too):
    // node1 (1000) reserves node-locally, no cap; node2 (1200) rack-locally with 1 in rack1;
    // node3 (1400) and node4 (1600) would make 3 in rack1: nothing; node5 (1800) is in rack2,
    // off-switch, with 2 in the cluster: reserved. node5 joining rack1 instead would make
    // rack1's cap ceil(5 × 0.5) = 3, so node3 reserves and node4 and node5, rack-local with
    // 3 in rack1, do not.
    for (rack5, want) in [("rack2", vec![0u32, 1, 4]), ("rack1", vec![0, 1, 2])] {
        let mut target = app(900, "queue1", "user2", 1, 2 * GB, 1, LONG);
        target.stages[0][0].hosts = vec!["node1".into()];
        let mut sc = scenario(
            Semantics::Hadoop33,
            vec![
                node("node1", "rack1", 3 * GB, 4),
                node("node2", "rack1", 3 * GB, 4),
                node("node3", "rack1", 3 * GB, 4),
                node("node4", "rack1", 3 * GB, 4),
                node("node5", rack5, 3 * GB, 4),
            ],
            vec![],
            vec![],
            (0..5)
                .map(|_| app(0, "queue1", "user1", 1, 2 * GB, 1, LONG))
                .chain([target])
                .collect(),
        );
        sc.scheduler.reservable_nodes = 0.5;
        sc.end_ms = Some(1_900);
        let (rec, _) = run_sampled(&sc);
        let reserved: Vec<u32> = rec
            .decisions
            .iter()
            .filter(|d| d.kind == DecisionKind::Reserved)
            .map(|d| d.node)
            .collect();
        assert_eq!(reserved, want, "node5 in {rack5}");
        assert_eq!(placed(&rec).len(), 5, "node5 in {rack5}");
    }
}

#[test]
fn reservation_threshold_with_assign_multiple() {
    // testReservationThresholdWithAssignMultiple (3.3): reservable-nodes 0, assignmultiple on
    // without dynamic max-assign. Two 4096 MB / 4 vcore nodes; an app asks ten 1024 MB
    // containers: node1's beat places four, node2's four (8192 MB), and the app, holding 0 =
    // ceil(2 × 0) reservations allowed, reserves nothing for the other two. With the default
    // ratio (ceil(2 × 0.05) = 1) it reserves a node.
    let mut sc = scenario(
        Semantics::Hadoop33,
        vec![
            node("node1", "rack1", 4 * GB, 4),
            node("node2", "rack1", 4 * GB, 4),
        ],
        vec![],
        vec![],
        vec![app(0, "queue1", "user1", 10, GB, 1, LONG)],
    );
    sc.scheduler.assignmultiple = true;
    sc.scheduler.dynamic_max_assign = false;
    sc.scheduler.reservable_nodes = 0.0;
    let (rec, _) = run_sampled(&sc);
    assert_eq!(usage_at(&rec, "root.queue1", 500), 8192);
    assert_eq!(reserved_mb_at(&rec, 30_000), 0);
    assert!(
        !rec.decisions
            .iter()
            .any(|d| d.kind == DecisionKind::Reserved)
    );
    sc.scheduler.reservable_nodes = 0.05;
    let (rec, _) = run_sampled(&sc);
    assert!(
        rec.decisions
            .iter()
            .any(|d| d.kind == DecisionKind::Reserved)
    );
}

#[test]
fn resource_update_decommissioning_node() {
    // testResourceUpdateDecommissioningNode (3.3): an 8 GB / 4 vcore node running nothing
    // starts decommissioning (at 500); at its next heartbeat (1000) its resource becomes what
    // it runs, 0 MB / 0 vcores, and nothing can be placed there: the cluster it forms is 0 / 0
    // (fairsim's node, empty, leaves at that heartbeat). An app arriving at 600 gets nothing.
    let sc = scenario(
        Semantics::Hadoop33,
        vec![node("host_0", "default-rack", 8 * GB, 4)],
        vec![],
        vec![(500, NodeEventKind::Decommission, 0)],
        vec![app(600, "queue1", "user1", 1, GB, 1, LONG)],
    );
    let (rec, _) = run_sampled(&sc);
    assert_eq!(root_at(&rec, 750).0, Resource::new(8 * GB, 4));
    assert_eq!(root_at(&rec, 1000).0, Resource::ZERO);
    assert!(placed(&rec).is_empty());
}
