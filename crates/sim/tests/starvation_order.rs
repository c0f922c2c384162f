//! Hadoop 3.3's starvation check (`FSLeafQueue.updateStarvedApps`) visits a leaf's apps in the
//! order of the `TreeSet` that `fetchAppsWithDemand(false)` builds: the runnable apps with
//! pending demand that are due for a check, added in the order they became runnable, under
//! the leaf policy's comparator. The fair-share pass stops at the first app without
//! fair-share starvation, so where the comparator is not transitive (DRF with NaN ratios)
//! the tree's order decides which apps are starved at all.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::{allocation_times, metric, run_recorded};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::scenario::{Heartbeats, Ordering};

/// One DRF leaf `a`; fair-share preemption (threshold 1, timeout 1 s) from the same leaf.
const XML: &str = r#"<allocations>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <queue name="a">
    <fairSharePreemptionThreshold>1</fairSharePreemptionThreshold>
    <fairSharePreemptionTimeout>1</fairSharePreemptionTimeout>
  </queue>
</allocations>"#;

/// One node of 4096 MB / 4 vcores beating every 1000 ms, updates every 500 ms,
/// sizebasedweight on, a minimum allocation of 0 MB, preemption on (utilization threshold
/// 0, waitTimeBeforeKill 0, so a starved app is checked again 0 + 4 + 10 = 14 s after a
/// preemption for it), one container per heartbeat.
/// * `x` at 0: six tasks of 1024 MB / 1 vcore; it fills the node at 0, 1000, 2000 and 3000
///   and asks for two more. At the 1000 ms update it is alone (fair share 4096 MB, usage
///   1024 for 1 s): starved, nothing to take, so it is next checked at 15000.
/// * `z` at 4000: four tasks of 0 MB / 1 vcore. Its demand is 0 MB / 4 vcores, so its
///   weight is log2(1 + 0) = 0; no vcore is free, it holds nothing, and DRF divides its
///   shares by its weight: 0 / 0 = NaN on both resources. It ties with every app on shares
///   and is ordered against each by start time. Its fair share is 0: never starved.
/// * `y` at 5000: six tasks as x's. x and y have equal weights log2(6145) and equal demands
///   (6144 MB / 6 vcores), so each one's fair share is 2048 MB / 2 vcores.
///
/// From 5000 to 14500 the set holds z and y (x is not due): z first by start time, no
/// starvation, and the pass stops before y in either order. At 15000 x is due again, and
/// the comparator has a cycle: x before z (start 0 < 4000), z before y (4000 < 5000), y
/// before x on shares (0 against 1 / 12.585 on memory, the dominant resource of both).
/// Hadoop's set is built from [x, z, y]: x the root, z to its right, y to its left, no
/// rotation; it iterates [y, x, z]. A stable sort of the list keeps [x, z, y] (z not
/// before x, y not before z: one ascending run).
/// * In the tree's order y comes first: usage 0 below its 2048 MB share for 10 s, starved
///   for 2048 MB / 2 vcores; x (4096 ≥ its 2048) stops the pass. Two of x's containers are
///   preempted (x keeps its share), killed at once, and y gets both at the node's beat at
///   15000.
/// * In the sorted list's order x comes first and stops the pass: nothing is preempted.
fn scenario() -> fairsim_sim::scenario::Scenario {
    let apps = vec![
        one_stage(0, "a", "u", 6, Resource::new(GB, 1), LONG_MS),
        one_stage(4000, "a", "u", 4, Resource::new(0, 1), LONG_MS),
        one_stage(5000, "a", "u", 6, Resource::new(GB, 1), LONG_MS),
    ];
    let tree = fair_tree(XML, Semantics::Hadoop33);
    let mut sc = trace_scenario("starvation-order", tree, 1, Resource::new(4 * GB, 4), apps);
    sc.scheduler.semantics = Semantics::Hadoop33;
    sc.scheduler.sizebasedweight = true;
    sc.scheduler.minimum_allocation_mb = 0;
    sc.scheduler.preemption = true;
    sc.scheduler.preemption_utilization_threshold = 0.0;
    sc.scheduler.wait_before_kill_ms = 0;
    sc.end_ms = Some(20_000);
    sc
}

#[test]
fn the_starvation_check_follows_the_tree_sets_order() {
    for ordering in [Ordering::Naive, Ordering::Incremental] {
        for heartbeats in [Heartbeats::Every, Heartbeats::Elided] {
            let mut sc = scenario();
            sc.scheduler.ordering = ordering;
            sc.scheduler.heartbeats = heartbeats;
            let (rec, s) = run_recorded(&sc);
            let label = format!("{ordering:?} {heartbeats:?}");
            assert_eq!(
                allocation_times(&rec, 0),
                vec![0, 1000, 2000, 3000],
                "{label}"
            );
            assert!(allocation_times(&rec, 1).is_empty(), "{label}");
            assert_eq!(metric(&s, "preempted_containers.root.a"), 2.0, "{label}");
            assert_eq!(allocation_times(&rec, 2), vec![15000, 15000], "{label}");
        }
    }
}
