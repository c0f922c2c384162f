//! `relaxLocality = false` through the whole simulator: an ask kept to its hosts waits for
//! them while other nodes are free, in both eras of the Fair Scheduler and in the Capacity
//! Scheduler; and the native CSV trace carries the flag into a run.
//!
//! Two nodes of 1024 MB in one rack, heartbeats every 1000 ms: `node0` beats at 0, 1000, …,
//! `node1` at 500, 1500, ….

mod common;

use common::apps::{GB, one_stage};
use common::outcomes::nodes_allocated_to;
use common::scenarios::{capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::run;
use fairsim_sim::scenario::{Scenario, SchedulerConf};
use fairsim_sim::tree::QueueTree;
use fairsim_sim::workload::csv::parse_csv_trace;
use std::path::Path;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// An unmanaged app with one task of 1 GB on `host`.
fn app(arrival: u64, host: &str, relax_locality: bool, duration_ms: u64) -> AppSpec {
    let mut app = one_stage(
        arrival,
        "default",
        "u",
        1,
        Resource::new(GB, 1),
        duration_ms,
    );
    app.name = format!("app-{arrival}");
    app.stages[0][0].hosts = vec![host.into()];
    app.stages[0][0].relax_locality = relax_locality;
    app
}

/// The one leaf `default`, in the Fair Scheduler's file.
fn fair_tree(semantics: Semantics) -> QueueTree {
    common::scenarios::fair_tree(
        "<allocations><queue name=\"default\"/></allocations>",
        semantics,
    )
}

/// The one leaf `default`, in the Capacity Scheduler's file.
fn capacity_tree() -> QueueTree {
    common::scenarios::capacity_tree(&capacity_xml(&[
        ("root.queues", "default"),
        ("root.default.capacity", "100"),
        // Both unmanaged apps activated (Hadoop charges each the minimum allocation).
        ("maximum-am-resource-percent", "10"),
    ]))
}

/// Two nodes of one 1 GB container each.
fn scenario(semantics: Semantics, tree: QueueTree, apps: Vec<AppSpec>) -> Scenario {
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            ..SchedulerConf::default()
        },
        end_ms: Some(60_000),
        ..trace_scenario("strict-locality", tree, 2, Resource::new(GB, 1), apps)
    }
}

/// `(time, node)` of app `a`'s allocations, and the nodes it reserved.
fn placements(sc: &Scenario, a: u32) -> (Vec<(u64, u32)>, Vec<u32>) {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    let mine = rec.decisions.iter().filter(|d| d.app == a);
    let allocated = mine
        .clone()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| (d.time.0, d.node))
        .collect();
    let reserved = mine
        .filter(|d| d.kind == DecisionKind::Reserved)
        .map(|d| d.node)
        .collect();
    (allocated, reserved)
}

#[test]
fn strict_ask_on_an_idle_cluster_waits_for_its_host_heartbeat() {
    // testStrictLocality: node and rack requests on node0, rack and ANY not relaxing. node1's
    // heartbeat (500 ms) gives nothing and reserves nothing; node0's (1000 ms) allocates.
    // Relaxed, the same ask goes off-switch on node1 at 500 ms.
    for s in ERAS {
        let strict = scenario(s, fair_tree(s), vec![app(100, "node0", false, 1000)]);
        assert_eq!(placements(&strict, 0), (vec![(1000, 0)], vec![]), "{s}");
        let relaxed = scenario(s, fair_tree(s), vec![app(100, "node0", true, 1000)]);
        assert_eq!(placements(&relaxed, 0).0, vec![(500, 1)], "{s}");
    }
}

#[test]
fn strict_ask_waits_for_its_busy_host_while_another_node_is_free() {
    // app0 holds node0 from 0 to 10 s; app1 (arriving at 100 ms) may run on node0 only.
    // node1 stays free and is offered every second, yet app1 starts when node0 frees, at
    // its heartbeat of 10 s. Relaxed, app1 runs on node1 at 500 ms.
    for s in ERAS {
        let apps = |relax| {
            vec![
                app(0, "node0", true, 10_000),
                app(100, "node0", relax, 1000),
            ]
        };
        let strict = scenario(s, fair_tree(s), apps(false));
        let (allocated, reserved) = placements(&strict, 1);
        assert_eq!(allocated, vec![(10_000, 0)], "{s}");
        // A node-local ask that does not fit may reserve its own host (2.7 always; 3.3 only
        // when starved), never another node.
        assert!(reserved.iter().all(|&n| n == 0), "{s}: {reserved:?}");
        let relaxed = scenario(s, fair_tree(s), apps(true));
        assert_eq!(placements(&relaxed, 1).0, vec![(500, 1)], "{s}");
    }
}

/// The Capacity Scheduler tries an app's next priority when the offer skips one: an ask its
/// relaxLocality keeps off the node (2.7's `assignContainersOnNode` returns
/// `SKIP_ASSIGNMENT` and the priority loop goes on, the offer not counted; 3.3's allocator
/// `PRIORITY_SKIPPED`). app0 holds node0 from 0 to 10 s; app1 (at 100 ms) asks one 1 GB
/// container at priority 1 kept to node0 and one at priority 2 anywhere. node1's beat at
/// 500 ms skips priority 1 and gives priority 2 its container there; priority 1 waits for
/// node0, which it gets when app0's task ends at 10 s. Before, the app's turn ended at its
/// first priority with asks, and node1 stayed idle until then.
#[test]
fn capacity_scheduler_tries_the_next_priority_when_one_is_kept_off_the_node() {
    for s in ERAS {
        let apps = |relax: bool| {
            let mut second = app(100, "node0", relax, 1000);
            let mut anywhere = second.stages[0][0].clone();
            anywhere.priority = 2;
            anywhere.hosts = vec![];
            anywhere.relax_locality = true;
            second.stages[0].push(anywhere);
            vec![app(0, "node0", true, 10_000), second]
        };
        let strict = scenario(s, capacity_tree(), apps(false));
        let (allocated, _) = placements(&strict, 1);
        assert_eq!(allocated, vec![(500, 1), (10_000, 0)], "{s}");
    }
}

#[test]
fn capacity_scheduler_keeps_a_strict_ask_on_its_host() {
    // The Capacity Scheduler skips the priority at the rack and off-switch steps; relaxed,
    // the ask goes off-switch once its missed opportunities pass the locality wait factor.
    let apps = |relax| {
        vec![
            app(0, "node0", true, 10_000),
            app(100, "node0", relax, 1000),
        ]
    };
    let strict = scenario(Semantics::Hadoop27, capacity_tree(), apps(false));
    assert_eq!(placements(&strict, 1).0, vec![(10_000, 0)]);
    let relaxed = scenario(Semantics::Hadoop27, capacity_tree(), apps(true));
    let (allocated, _) = placements(&relaxed, 1);
    assert_eq!(allocated.len(), 1);
    assert_eq!(allocated[0].1, 1, "relaxed: {allocated:?}");
    assert!(allocated[0].0 < 10_000, "relaxed: {allocated:?}");
}

#[test]
fn csv_trace_relax_locality_column_reaches_the_scheduler() {
    let text = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,\
                duration_ms,priority,hosts,relax_locality\n\
                blocker,0,default,u,0,0,0,1,1024,1,10000,1,node0,\n\
                strict,100,default,u,0,0,0,1,1024,1,1000,1,node0,false\n";
    let apps = parse_csv_trace(text, Path::new("t.csv")).expect("valid trace");
    for s in ERAS {
        let sc = scenario(s, fair_tree(s), apps.clone());
        assert_eq!(placements(&sc, 1).0, vec![(10_000, 0)], "{s}");
    }
}

#[test]
fn strict_ask_for_a_host_the_cluster_lacks_never_runs_and_the_run_stalls() {
    // YARN keeps such an ask pending for ever; fairsim reports the run stalled.
    for s in ERAS {
        let sc = scenario(s, fair_tree(s), vec![app(0, "node9", false, 1000)]);
        let mut rec = MemoryRecorder::default();
        let summary = run(&sc, 1, 0, &mut rec).expect("runs");
        assert!(summary.stalled_at.is_some(), "{s}");
        assert!(rec.decisions.is_empty(), "{s}");
    }
}

/// `(time, node)` of an app's allocations.
type Placed = Vec<(u64, u32)>;

/// Hadoop 3.3 preemption for a strict ask: three 1 GB nodes in `rack0`; app0 (queue `a`)
/// holds all three from the first heartbeats, app1 (queue `b`, arriving at 1000 ms) asks one
/// 1 GB container on `host` only. Returns `(time, node)` of both apps' allocations.
fn preemption_for_a_strict_ask(host: &str) -> (Placed, Placed) {
    let xml = "<allocations><queue name=\"a\"/><queue name=\"b\"/>\
               <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>\
               <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>\
               </allocations>";
    let tree = common::scenarios::fair_tree(xml, Semantics::Hadoop33);
    let mut greedy = app(0, "node0", true, 100_000);
    greedy.queue = "a".into();
    greedy.stages[0][0].count = 3;
    greedy.stages[0][0].hosts.clear();
    let mut strict = app(1000, host, false, 100_000);
    strict.queue = "b".into();
    let mut sc = scenario(Semantics::Hadoop33, tree, vec![greedy, strict]);
    sc.cluster.nodes = 3;
    sc.scheduler.preemption = true;
    sc.end_ms = Some(120_000);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    (nodes_allocated_to(&rec, 0), nodes_allocated_to(&rec, 1))
}

#[test]
fn hadoop33_preempts_for_a_strict_ask_where_the_request_map_says() {
    // FSAppAttempt.getStarvedResourceRequests takes the first locality level its request map
    // iterates (Java String hashes in 16 buckets): "node2" is bucket 2, "*" 10, "/rack0" 13.
    // So for a strict ask on node2 only node2 is searched: app0's container there is marked
    // at the 2000 ms update (app1 arrived at 1000, starved for the 1 s timeout), killed
    // 15,000 ms later (17,000) and node2's heartbeat (phase 666) gives it to app1 at 17,666.
    // app0's task is asked again and runs when its node0 container ends (100,000).
    let (greedy, strict) = preemption_for_a_strict_ask("node2");
    assert_eq!(strict, vec![(17_666, 2)]);
    assert_eq!(greedy, vec![(0, 0), (333, 1), (666, 2), (100_000, 0)]);
    // "node1" is bucket 13, after "*": ANY is met first and every node is a candidate, as in
    // Hadoop. node0's container goes (first node with a set), app1 cannot use node0 and app0
    // takes it back at its 17,000 heartbeat; app1 is checked again 15 + 4 × 1 + 10 = 29 s
    // later: kills at 46,000, 75,000, 104,000. app1 runs once app0's node1 container ends
    // (100,000, node1's heartbeat at 100,333).
    let (greedy, strict) = preemption_for_a_strict_ask("node1");
    assert_eq!(strict, vec![(100_333, 1)]);
    assert_eq!(
        greedy,
        vec![
            (0, 0),
            (333, 1),
            (666, 2),
            (17_000, 0),
            (46_000, 0),
            (75_000, 0),
            (104_000, 0)
        ]
    );
}
