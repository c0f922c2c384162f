//! Hadoop 2.7 picks a preemption victim by scanning each parent's `childQueues` and the
//! leaf's `runnableApps` and keeping the first element that no later one compares strictly
//! greater than (`FSParentQueue`/`FSLeafQueue.preemptContainer`). Those lists are the ones
//! `assignContainer` sorts in place, so the scan runs in the order the last descent left.
//! Under DRF, which has no name tie-break, two apps with equal shares and start times compare
//! 0, and the one first in that list is the victim.
//!
//! One 3072 MB / 3 vcore node beating every 1000 ms from 0; ticks every 500 ms; assignmultiple
//! on. Leaf `a` (DRF) holds X (app 0: a 1500 ms task at priority 1, a long one at priority 2)
//! and Y (app 1: one long task), both arriving at 0; leaf `b` (min share 2048 MB / 2 vcores,
//! min-share timeout 1 s) gets Z (app 2, three long tasks) at 2500. Every task is 1024 MB /
//! 1 vcore. Preemption checks every 5000 ms; containers are killed at the first check more
//! than 1000 ms after they were warned.

mod common;

use common::apps::{GB, LONG_MS, long_tasks, one_stage};
use common::outcomes::allocation_times;
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::run;
use fairsim_sim::scenario::{Heartbeats, Ordering, Scenario};

const XML: &str = r#"<allocations>
  <queue name="a"><schedulingPolicy>drf</schedulingPolicy></queue>
  <queue name="b"><minResources>2048 mb, 2 vcores</minResources><minSharePreemptionTimeout>1</minSharePreemptionTimeout></queue>
</allocations>"#;

fn scenario() -> Scenario {
    let task = |priority: i32, duration_ms: u64| TaskGroup {
        count: 1,
        size: Resource::new(GB, 1),
        duration_ms,
        priority,
        hosts: vec![],
        relax_locality: true,
    };
    let mut x = one_stage(0, "a", "u", 1, Resource::new(GB, 1), 1_500);
    x.name = "x".into();
    x.stages[0].push(task(2, LONG_MS));
    let mut y: AppSpec = long_tasks(0, "a", 1);
    y.name = "y".into();
    let z = long_tasks(2_500, "b", 3);
    let mut sc = trace_scenario(
        "victim-order",
        fair_tree(XML, Semantics::Hadoop27),
        1,
        Resource::new(3 * GB, 3),
        vec![x, y, z],
    );
    sc.scheduler.semantics = Semantics::Hadoop27;
    sc.scheduler.assignmultiple = true;
    sc.scheduler.preemption = true;
    sc.scheduler.wait_before_kill_ms = 1_000;
    sc.end_ms = Some(12_000);
    sc
}

#[test]
fn hadoop27_takes_the_victim_first_in_the_sorted_list_among_equals() {
    // 0: the tick, then node 0's heartbeat, one descent per container:
    //   a sorts [X, Y] (both 0, equal start: compare 0, stable): X gets its 1500 ms task;
    //   a sorts to [Y, X] (Y's share 0 < X's 1/3): Y gets its task;
    //   a sorts [Y, X] (1/3 each: compare 0, kept): Y asks nothing more, X gets its long task;
    //   a sorts [Y, X] (1/3 < 2/3): nothing asks; the loop ends. The node is full.
    // 2000: X's short task is reported done (X 1024/1, Y 1024/1); every later sort of a
    //   compares them equal and keeps [Y, X].
    // 2500: Z arrives in b. 3000: b is needy (0 < min(2048, demand 3072)) and sorts first:
    //   Z gets the free GB, then reserves the full node for its next task.
    // b's min-share clock last moved at the 2500 tick (the starvation check reads the demand
    //   of the tick before, 0 then). 5000: the first check (every 5000 ms); 2500 ms > 1 s, so
    //   b is owed min(2048, 3072) - 1024 = 1024 MB. Root scans [b, a]: a (not needy) is
    //   greater than needy b; a is over its fair share (2048 > 1024: b's min share takes
    //   2048 of 3072); a scans [Y, X]: X compares 0 with Y, not greater, so Y stays: Y's
    //   container is warned. 10000: 5000 + 1000 < 10000, it is killed.
    // Scanning the apps in submission order instead ([X, Y]) would take X's.
    for ordering in [Ordering::Naive, Ordering::Incremental] {
        for heartbeats in [Heartbeats::Every, Heartbeats::Elided] {
            let mut sc = scenario();
            sc.scheduler.ordering = ordering;
            sc.scheduler.heartbeats = heartbeats;
            let mut rec = MemoryRecorder::default();
            run(&sc, 1, 0, &mut rec).expect("runs");
            let preempted: Vec<(String, u64)> = rec
                .apps
                .iter()
                .map(|a| (a.name.clone(), a.preempted_containers))
                .collect();
            assert_eq!(
                preempted,
                vec![("x".into(), 0), ("y".into(), 1), ("b-2500".into(), 0)],
                "{ordering:?} {heartbeats:?}"
            );
            // Z: its first GB at 3000, then its reservation becomes a container at the
            // heartbeat after the kill at 10000's update.
            assert_eq!(
                allocation_times(&rec, 2),
                vec![3_000, 10_000],
                "{ordering:?} {heartbeats:?}"
            );
        }
    }
}
