//! Hadoop 3.3: the heartbeat of a node too full for every ask, while no app may reserve,
//! changes nothing and is skipped (`scheduler::fair::full_nodes`), with the same decisions
//! and metrics as a run processing every heartbeat.
//!
//! Two 4096 MB / 4 vcore nodes beating every 1000 ms at phases 0 (node 0) and 500 (node
//! 1); update ticks every 500 ms; one container per heartbeat; one fair leaf, maxAMShare
//! off; count-based delay scheduling off (the default). The reservation threshold is
//! 2 x 1024 MB (increment allocation x its default multiple); at most ceil(2 x 0.05) = 1
//! node may be reserved per app off-switch. At the same instant arrivals, completions and
//! the update tick come before heartbeats.

mod common;

use common::apps::{GB, one_stage};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{Heartbeats, Ordering, Scenario};
use fairsim_sim::{Counters, Simulation};

/// Every container here is placed off-switch (no locality asked).
const PLACED: DecisionKind = DecisionKind::Allocated(fairsim_sim::app::Locality::OffSwitch);

/// App 0 (at 0): two tasks of `big_mb` MB / 1 vcore for 5,000 ms, one per node, so each
/// node keeps 4096 - `big_mb` MB free until 5,000 (node 0) and 5,500 (node 1). App 1 (at
/// 600): one task of `small_mb` MB for 10,000 ms. The run ends at 8,000.
fn scenario(
    semantics: Semantics,
    (big_mb, small_mb): (i64, i64),
    heartbeats: Heartbeats,
    ordering: Ordering,
) -> Scenario {
    let xml = "<allocations><queue name=\"a\"><maxAMShare>-1</maxAMShare></queue></allocations>";
    let apps = vec![
        one_stage(0, "a", "u", 2, Resource::new(big_mb, 1), 5_000),
        one_stage(600, "a", "u", 1, Resource::new(small_mb, 1), 10_000),
    ];
    let mut sc = trace_scenario(
        "full-nodes",
        fair_tree(xml, semantics),
        2,
        Resource::new(4 * GB, 4),
        apps,
    );
    sc.scheduler.semantics = semantics;
    sc.scheduler.update_interval_ms = 500;
    sc.scheduler.heartbeats = heartbeats;
    sc.scheduler.ordering = ordering;
    sc.end_ms = Some(8_000);
    sc
}

type Decided = Vec<(u64, u32, u32, DecisionKind)>;

/// `(time, node, app, kind)` of every decision, and the counters.
fn run(sc: &Scenario) -> (Decided, Vec<(String, u64)>, Counters) {
    let mut rec = MemoryRecorder::default();
    let mut sim = Simulation::new(sc, 1, 0, &mut rec).expect("valid");
    let summary = sim.run_to_end().expect("runs");
    let counters = sim.counters();
    drop(sim);
    let decided = rec
        .decisions
        .iter()
        .map(|d| (d.time.0, d.node, d.app, d.kind))
        .collect();
    let metrics = summary
        .metrics
        .iter()
        .map(|(k, v)| (k.clone(), v.to_bits()))
        .collect();
    (decided, metrics, counters)
}

/// The decisions and counters of the elided run, after checking that both orderings
/// decide and measure as the unelided, naive run, and that processed + elided beats make
/// its count.
fn elided_against_every(big_mb: i64, small_mb: i64) -> (Decided, Counters) {
    let (want, want_metrics, every) = run(&scenario(
        Semantics::Hadoop33,
        (big_mb, small_mb),
        Heartbeats::Every,
        Ordering::Naive,
    ));
    let mut out = None;
    for ordering in [Ordering::Incremental, Ordering::Naive] {
        let (got, metrics, c) = run(&scenario(
            Semantics::Hadoop33,
            (big_mb, small_mb),
            Heartbeats::Elided,
            ordering,
        ));
        assert_eq!(got, want, "{ordering:?}");
        assert_eq!(metrics, want_metrics, "{ordering:?}");
        assert_eq!(c.heartbeats + c.heartbeats_elided, every.heartbeats);
        out = Some((got, c));
    }
    out.expect("two orderings ran")
}

#[test]
fn a_starved_app_at_its_reservation_cap_leaves_the_other_full_node_idle() {
    // App 0's 3 GB tasks leave 1 GB free on each node.
    // 0: tick (app 0 demand 6 GB), node 0 places task 1.
    // 500: tick, node 1 places task 2 (pending demand 3 GB). App 0 asks nothing more.
    // 600: app 1 arrives; no update has seen it (demand 0): its leaf offers nothing.
    // 1000: tick, app 1 demand 2 GB, its app share 2 GB (the leaf's 8 GB split by demand,
    //   6 + 2 GB), usage 0: starved. Node 0: 2 GB does not fit 1 GB; 2 GB reaches the
    //   threshold and app 1 holds 0 < 1 reservations: node 0 reserved (and parked, the
    //   reserved 2 GB not fitting).
    // 1500, 2500, 3500, 4500 (node 1): 2 GB does not fit 1 GB, and app 1, still starved,
    //   holds 1 reservation, the cap: nothing. These four beats are skipped.
    // 5000: task 1 ends on node 0 (4 GB free), which wakes; its beat turns the reservation
    //   into app 1's container (unreserved, then allocated). No app asks any more: every
    //   later beat is elided as before.
    let (decided, c) = elided_against_every(3 * GB, 2 * GB);
    assert_eq!(
        decided,
        vec![
            (0, 0, 0, PLACED),
            (500, 1, 0, PLACED),
            (1000, 0, 1, DecisionKind::Reserved),
            (5000, 0, 1, DecisionKind::Unreserved),
            (5000, 0, 1, PLACED),
        ]
    );
    assert_eq!(c.full_beats_skipped, 4);
    // Processed: 0, 500, 1000 and 5000.
    assert_eq!(c.heartbeats, 4);
}

#[test]
fn an_ask_below_the_reservation_threshold_leaves_both_full_nodes_idle() {
    // App 0's 3.5 GB tasks leave 512 MB free on each node; app 1 asks 1 GB, below the
    // 2 GB threshold: it never reserves. From the tick at 1000 (app 1 offered) every beat
    // until node 0's task ends is a no-op: 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500
    // (eight, skipped). 5000: node 0 has 4 GB free and places app 1's task; node 1 (task 2
    // ends at 5500) is not offered again, as nothing is asked.
    let (decided, c) = elided_against_every(3 * GB + 512, GB);
    assert_eq!(
        decided,
        vec![(0, 0, 0, PLACED), (500, 1, 0, PLACED), (5000, 0, 1, PLACED),]
    );
    assert_eq!(c.full_beats_skipped, 8);
    assert_eq!(c.heartbeats, 3);
}

#[test]
fn hadoop27_reserves_the_full_node_instead() {
    // The second scenario in 2.7, whose leaf offers every runnable app and which reserves
    // any container that does not fit the free space: node 0's beat at 1000 (the first
    // after app 1 arrives) reserves it for app 1's 1 GB task, and node 1's at 1500 too.
    // No full node stays unreserved: nothing is skipped.
    let sc = scenario(
        Semantics::Hadoop27,
        (3 * GB + 512, GB),
        Heartbeats::Elided,
        Ordering::Incremental,
    );
    let (decided, _, c) = run(&sc);
    assert_eq!(c.full_beats_skipped, 0);
    assert_eq!(
        decided[2..4],
        [
            (1000, 0, 1, DecisionKind::Reserved),
            (1500, 1, 1, DecisionKind::Reserved)
        ]
    );
}
