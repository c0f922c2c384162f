//! Hadoop 3.3's leaf offers a node only to the runnable apps whose pending demand is not
//! none (`FSLeafQueue.fetchAppsWithDemand`), where pending demand is the demand the update
//! thread last computed minus the app's usage now (`FSAppAttempt.getPendingDemand`, a plain
//! subtraction; `Resources.isNone` is equality with 0 in every component). Requests made
//! since the last update are not offered anything until the next one; usage grown past the
//! last demand makes a negative component, which is not none. Hadoop 2.7's leaf offers the
//! node to every runnable app (`FSLeafQueue.assignContainer` iterates the sorted list).
//!
//! Four 4096 MB / 4 vcore nodes beating every 1000 ms at phases 0, 250, 500 and 750; update
//! ticks every 500 ms; one container per heartbeat; maxAMShare off, so the AM gate refuses
//! nothing. At the same instant arrivals, completions and the update tick come before
//! heartbeats. Every case runs in both orderings and both heartbeat modes, under the fair
//! and the DRF policy (3.3's DRF descent builds a fresh `TreeSet` of the filtered apps).

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::{placed, run_recorded};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::Simulation;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{Heartbeats, Ordering, Scenario};

fn scenario(semantics: Semantics, policy: &str, apps: Vec<AppSpec>) -> Scenario {
    let xml = format!(
        "<allocations><defaultQueueSchedulingPolicy>{policy}</defaultQueueSchedulingPolicy>\
         <queue name=\"a\"><maxAMShare>-1</maxAMShare></queue></allocations>"
    );
    let mut sc = trace_scenario(
        "apps-with-demand",
        fair_tree(&xml, semantics),
        4,
        Resource::new(4 * GB, 4),
        apps,
    );
    sc.scheduler.semantics = semantics;
    sc.end_ms = Some(4_000);
    sc
}

/// `(time, node, app)` of every allocation of a run of `sc`.
fn node_allocations(sc: &Scenario) -> Vec<(u64, u32, u32)> {
    placed(&run_recorded(sc).0)
}

/// [`node_allocations`] with update ticks every `update_ms`, the same in each ordering,
/// heartbeat mode and policy (asserted).
fn decisions(semantics: Semantics, apps: &[AppSpec], update_ms: u64) -> Vec<(u64, u32, u32)> {
    let mut seen: Option<Vec<(u64, u32, u32)>> = None;
    for policy in ["fair", "drf"] {
        for ordering in [Ordering::Naive, Ordering::Incremental] {
            for heartbeats in [Heartbeats::Every, Heartbeats::Elided] {
                let mut sc = scenario(semantics, policy, apps.to_vec());
                sc.scheduler.ordering = ordering;
                sc.scheduler.heartbeats = heartbeats;
                sc.scheduler.update_interval_ms = update_ms;
                let got = node_allocations(&sc);
                match &seen {
                    None => seen = Some(got),
                    Some(s) => assert_eq!(s, &got, "{policy} {ordering:?} {heartbeats:?}"),
                }
            }
        }
    }
    seen.unwrap_or_default()
}

/// A managed app arriving at 600 (100 ms after the tick at 500) with a 1 GB AM and three
/// 1 GB tasks that run past the end.
fn late_arrival() -> Vec<AppSpec> {
    let mut app = one_stage(600, "a", "u", 3, Resource::new(GB, 1), LONG_MS);
    app.am = Some(Resource::new(GB, 1));
    vec![app]
}

#[test]
fn hadoop33_offers_nothing_to_requests_made_since_the_last_update() {
    // 600: the app arrives; its demand is still 0 (no update has seen it).
    // 750 (node 3): pending demand 0 - 0 = none: not offered.
    // 1000: tick, demand = AM 1024 MB / 1; node 0 (after the tick) places the AM. The AM
    //   asks for its three tasks at once; usage 1024/1 = demand: pending none again.
    // 1250 (node 1): none: nothing.
    // 1500: tick, demand = 1024 + 3 x 1024 = 4096 MB / 4, pending 3072/3; node 2: task 1.
    // 1750 (node 3): pending 2048/2: task 2.
    // 2000: tick, demand = usage 3072 + one outstanding 1024 = 4096 (unchanged); node 0
    //   (4096 - 1024 free): task 3.
    assert_eq!(
        decisions(Semantics::Hadoop33, &late_arrival(), 500),
        vec![(1000, 0, 0), (1500, 2, 0), (1750, 3, 0), (2000, 0, 0)]
    );
}

#[test]
fn hadoop27_offers_every_runnable_app() {
    // No filter: the AM at the first heartbeat after the arrival (node 3 at 750), its tasks
    // at the next three (node 0 at 1000, node 1 at 1250, node 2 at 1500).
    assert_eq!(
        decisions(Semantics::Hadoop27, &late_arrival(), 500),
        vec![(750, 3, 0), (1000, 0, 0), (1250, 1, 0), (1500, 2, 0)]
    );
}

/// An unmanaged app arriving at 0: one 1 GB task of 2000 ms, then a stage of two 2 GB /
/// 1 vcore tasks.
fn second_stage_larger() -> Vec<AppSpec> {
    let mut app = one_stage(0, "a", "u", 1, Resource::new(GB, 1), 2_000);
    app.stages.push(vec![TaskGroup {
        count: 2,
        size: Resource::new(2 * GB, 1),
        duration_ms: LONG_MS,
        priority: 1,
        hosts: vec![],
        relax_locality: true,
    }]);
    vec![app]
}

#[test]
fn hadoop33_usage_past_the_last_demand_is_not_none() {
    // Update ticks every 300 ms here, so that the completion at 2000 is not on a tick.
    // 0: arrival, tick (demand 1024/1), node 0 places the task (ends at 2000, reported at
    //   node 0's heartbeat at 2000).
    // 1800: the last tick before 2000: demand = usage 1024/1, nothing outstanding.
    // 2000: the task completes (usage 0): the second stage asks 2 x 2048/1. Pending demand
    //   1024/1 - 0: offered, node 0 places task 1; usage 2048/1, pending -1024/0.
    // 2250 (node 1): -1024/0 is not none: task 2 (an implementation that clamped pending
    //   demand at 0 would wait for the tick at 2400 and place it on node 2 at 2500).
    let got = decisions(Semantics::Hadoop33, &second_stage_larger(), 300);
    assert_eq!(got, vec![(0, 0, 0), (2000, 0, 0), (2250, 1, 0)]);
}

/// Heartbeats processed and elided by an elided, incremental run of `apps` under the fair
/// policy, with update ticks every 500 ms.
fn heartbeat_counts(semantics: Semantics, apps: &[AppSpec]) -> (u64, u64) {
    let mut sc = scenario(semantics, "fair", apps.to_vec());
    sc.scheduler.heartbeats = Heartbeats::Elided;
    sc.scheduler.update_interval_ms = 500;
    sc.check_invariants = true;
    let mut rec = MemoryRecorder::default();
    let mut sim = Simulation::new(&sc, 1, 0, &mut rec).expect("valid");
    sim.run_to_end().expect("runs");
    let c = sim.counters();
    (c.heartbeats, c.heartbeats_elided)
}

#[test]
fn hadoop33_elides_heartbeats_while_no_app_has_pending_demand() {
    // The run of `hadoop33_offers_nothing_to_requests_made_since_the_last_update`: a leaf
    // whose asking apps all lack pending demand gives nothing and writes nothing, so only
    // the four heartbeats that place a container are processed (1000, 1500, 1750, 2000);
    // the beats at 750 and 1250, which an ask made since the last update kept processing
    // before, are elided with all the others. An unelided run processes every beat: the
    // two together make exactly its count. Hadoop 2.7 offers the AM at 750 and a task at
    // each beat after: the same four-beat count, at other times.
    let (processed, elided) = heartbeat_counts(Semantics::Hadoop33, &late_arrival());
    assert_eq!(processed, 4);
    let mut every = scenario(Semantics::Hadoop33, "fair", late_arrival());
    every.scheduler.heartbeats = Heartbeats::Every;
    every.scheduler.update_interval_ms = 500;
    let mut rec = MemoryRecorder::default();
    let mut sim = Simulation::new(&every, 1, 0, &mut rec).expect("valid");
    sim.run_to_end().expect("runs");
    assert_eq!(processed + elided, sim.counters().heartbeats);
    assert_eq!(heartbeat_counts(Semantics::Hadoop27, &late_arrival()).0, 4);
}
