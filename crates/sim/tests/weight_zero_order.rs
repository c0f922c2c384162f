//! Hadoop 2.7's fair comparator with a weight-0 queue: usage / weight is 0 / 0 = NaN for the
//! queue while it holds nothing, `(int) Math.signum(NaN)` is 0, and the tie goes to the start
//! time (0 for every queue) and the name. The comparator is not transitive, so the order
//! `Collections.sort` leaves in a parent's persisted child list depends on the list's
//! history: on the order it was in, and on every earlier sort. Hadoop sorts the list in every
//! `FSParentQueue.assignContainer` whose precheck passes (usage within maxResources, node not
//! reserved), whether or not anything under it asks. Both orderings and both heartbeat modes
//! reproduce it. One 8 GB node beating at 0, 1000, 2000, …; one container per heartbeat;
//! leaves under parent `p`, whose list starts in file order. Sorts of fewer than 32 elements
//! are Java's binary insertion sort after the first run (ascending, or strictly descending
//! and reversed).

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::allocations;
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::run;
use fairsim_sim::scenario::{Heartbeats, Ordering, Scenario};

/// Parent `p` with leaves a (weight 1), `zero` (weight 0) and c (weight 1), in that order.
fn scenario(zero: &str, c: &str, apps: Vec<AppSpec>) -> Scenario {
    let xml = format!(
        "<allocations><queue name=\"p\"><queue name=\"a\"/>\
         <queue name=\"{zero}\"><weight>0</weight></queue><queue name=\"{c}\"/></queue></allocations>"
    );
    let tree = fair_tree(&xml, Semantics::Hadoop27);
    let mut sc = trace_scenario("weight-zero", tree, 1, Resource::new(8 * GB, 8), apps);
    sc.scheduler.semantics = Semantics::Hadoop27;
    sc.end_ms = Some(9_500);
    sc
}

fn app(arrival: u64, leaf: &str, count: u32, duration_ms: u64) -> AppSpec {
    let mut a = one_stage(
        arrival,
        &format!("p.{leaf}"),
        "u",
        count,
        Resource::new(GB, 1),
        duration_ms,
    );
    a.name = format!("{leaf}-{arrival}");
    a
}

/// `(time, app)` of every allocation in each ordering and heartbeat mode, all equal.
fn decisions(sc: &Scenario) -> Vec<(u64, u32)> {
    let mut seen: Option<Vec<(u64, u32)>> = None;
    for ordering in [Ordering::Naive, Ordering::Incremental] {
        for heartbeats in [Heartbeats::Every, Heartbeats::Elided] {
            let mut s = sc.clone();
            s.scheduler.ordering = ordering;
            s.scheduler.heartbeats = heartbeats;
            s.check_invariants = true;
            let mut rec = MemoryRecorder::default();
            run(&s, 1, 0, &mut rec).expect("runs");
            let got = allocations(&rec);
            match &seen {
                None => seen = Some(got),
                Some(first) => assert_eq!(&got, first, "{ordering:?} {heartbeats:?}"),
            }
        }
    }
    seen.expect("runs")
}

/// Leaves a, b (weight 0, nothing in it: always NaN) and c. a1 (8 tasks) from 0, c1 (8
/// tasks) from 1500. Every sort of [a, b, c] compares b with a (NaN: name, b after a) and c
/// with b (NaN: name, c after b): one ascending run, the list is unchanged, and a is
/// offered the node first at every heartbeat. a1 takes all eight containers (0 … 7000),
/// though from 2000 on c (0 MB / 1) is below a (2048 MB / 1). Ordering keys read NaN as
/// +inf and would put c before a from 2000.
#[test]
fn a_nan_queue_between_two_others_keeps_the_list_order() {
    let sc = scenario(
        "b",
        "c",
        vec![app(0, "a", 8, LONG_MS), app(1500, "c", 8, LONG_MS)],
    );
    let expected: Vec<(u64, u32)> = (0..8).map(|k| (k * 1000, 0)).collect();
    assert_eq!(decisions(&sc), expected);
}

/// Leaves a, m (weight 0) and z: the comparisons by name put a before m before z, while
/// the ratios can put z before a, a cycle. a1 asks two containers (0, 1000), z1 one (2000),
/// m1 one of 1500 ms (3000). At 4000 nothing is asked: m holds 1024 MB (1024 / 0 = +inf),
/// a 2048, z 1024, a consistent order, and Hadoop's sort of [a, m, z] gives [z, a, m]
/// (m after a; z before m, then before a by binary insertion). m1 ends at 4500 (m is NaN
/// again); a2, m2 and z2 ask at 4600. At 5000 the sort of [z, a, m] finds a after z
/// (2048 > 1024) and m after a (name): unchanged, so z2 gets the container. Had the list
/// not been sorted at 4000, [a, m, z] would be one ascending run by names and a2 would get
/// it.
#[test]
fn a_sort_with_nothing_asked_changes_the_next_order() {
    let sc = scenario(
        "m",
        "z",
        vec![
            app(0, "a", 2, LONG_MS),
            app(0, "z", 1, LONG_MS),
            app(2500, "m", 1, 1500),
            app(4600, "a", 1, LONG_MS),
            app(4600, "m", 1, LONG_MS),
            app(4600, "z", 1, LONG_MS),
        ],
    );
    let got = decisions(&sc);
    assert_eq!(
        &got[..5],
        &[(0, 0), (1000, 0), (2000, 1), (3000, 2), (5000, 5)]
    );
}

/// sizebasedweight: an app's weight is log2(1 + demand MB) of the demand the update thread
/// last set, 0 before its first update. One leaf; updates at 0 and 10000 only. x (10 tasks)
/// arrives at 0 and is updated then (weight log2(10241) ≈ 13.3); it holds 2048 MB after the
/// heartbeats at 0 and 1000. y arrives at 1500; at 2000 its weight is still 0:
/// * Hadoop 2.7: y's ratio is 0 / 0 = NaN, a tie, then start time: x (0) before y (1500),
///   so x gets the container (with weight 1, y's 0 / 1 would come first);
/// * Hadoop 3.3: y's demand is 0 and x's is not: the demand step puts x first.
#[test]
fn a_new_app_weighs_nothing_until_its_first_update() {
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let xml = "<allocations><queue name=\"a\"/></allocations>";
        let apps = vec![
            one_stage(0, "a", "u", 10, Resource::new(GB, 1), LONG_MS),
            one_stage(1500, "a", "u", 10, Resource::new(GB, 1), LONG_MS),
        ];
        let mut sc = trace_scenario(
            "first-weight",
            fair_tree(xml, semantics),
            1,
            Resource::new(8 * GB, 8),
            apps,
        );
        sc.scheduler.semantics = semantics;
        sc.scheduler.sizebasedweight = true;
        sc.scheduler.update_interval_ms = 10_000;
        sc.end_ms = Some(2_500);
        assert_eq!(
            decisions(&sc),
            [(0, 0), (1000, 0), (2000, 0)],
            "{semantics:?}"
        );
    }
}
