//! Hadoop 3.x holds what preemption frees on a node per app (`FSSchedulerNode`'s
//! `resourcesPreemptedForApp`, an insertion-ordered map): two starved apps whose containers
//! are preempted on the same node each keep their hold, and the node update hands the
//! freed resources to them oldest hold first (`assignPreemptedContainers`) before any other
//! queue is offered the node.

mod common;

use common::apps::{GB, long_tasks};
use common::outcomes::run_allocations;
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::SimTime;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

/// A Hadoop 3.3 run with preemption on: `nodes` nodes of `node` each, the allocation file
/// `xml`, `apps`, cut at `end_ms`.
fn holds_scenario(
    name: &str,
    xml: &str,
    nodes: u32,
    node: Resource,
    apps: Vec<fairsim_sim::app::AppSpec>,
    end_ms: u64,
) -> Scenario {
    Scenario {
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop33,
            preemption: true,
            ..SchedulerConf::default()
        },
        end_ms: Some(end_ms),
        ..trace_scenario(name, fair_tree(xml, Semantics::Hadoop33), nodes, node, apps)
    }
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
    let apps = vec![
        long_tasks(0, "big", 4),
        long_tasks(20_000, "x", 1),
        long_tasks(20_000, "y", 1),
        long_tasks(25_000, "w", 1),
    ];
    let sc = holds_scenario("holds", xml, 1, Resource::new(4 * GB, 4), apps, 100_000);
    let big = [(0, 0), (1000, 0), (2000, 0), (3000, 0)];
    let mut expected = big.to_vec();
    expected.extend([(36_000, 2), (36_000, 1)]);
    assert_eq!(run_allocations(&sc), expected);
}

/// The run of [`a_hold_not_yet_handed_back_is_not_free_to_the_next_search`]: its
/// allocations, and the containers preempted.
fn held_search_run() -> (Vec<(u64, u32)>, f64) {
    let xml = r#"<allocations>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="big"/>
  <queue name="x"><fairSharePreemptionTimeout>1</fairSharePreemptionTimeout></queue>
  <queue name="y"><fairSharePreemptionTimeout>7</fairSharePreemptionTimeout></queue>
</allocations>"#;
    let apps = vec![
        long_tasks(0, "big", 10),
        long_tasks(31_000, "x", 1),
        common::apps::app(40_500, "y", "u", 1, 2 * GB, 1, common::apps::LONG_MS),
    ];
    let mut sc = holds_scenario(
        "held-search",
        xml,
        1,
        Resource::new(10 * GB, 10),
        apps,
        150_000,
    );
    sc.scheduler.heartbeat_ms = 3_000;
    sc.scheduler.reservation_threshold_increment_multiple = 3.0;
    let (rec, summary) = common::outcomes::run_recorded(&sc);
    (
        common::outcomes::allocations(&rec),
        summary.get("preempted_containers").unwrap_or(0.0),
    )
}

#[test]
fn a_hold_not_yet_handed_back_is_not_free_to_the_next_search() {
    // Hadoop 3.3's victim search starts on a node from its unallocated resources less its
    // reservation and everything it holds for starved apps (`getTotalReserved`), and a hold
    // lasts until the node's update hands it out, after its container is killed.
    // One 10 GB / 10 vcore node beating every 3 s: `big` fills it with ten 1 GB tasks, one a
    // beat (0 to 27,000 ms). `x` asks 1 GB at 31,000 and is starved 1 s later: at 32,000 the
    // thread takes big's newest task, killed at 47,000; the node holds that 1 GB for x until
    // its beat at 48,000. `y` asks one 2 GB container at 40,500 (below the reservation
    // threshold of 3 x 1 GB, so it never reserves) and its 7 s timeout runs out at 47,500,
    // between the kill and the beat: the node's 1 GB unallocated is all held for x, so the
    // search starts from nothing and takes two of big's tasks for y (three preempted in
    // all), killed at 62,500 and handed to y at the 63,000 beat. A search that took the
    // held gigabyte for free space took one task, left y 1 GB it cannot use (big took it
    // back at 63,000), and y waited for its next check: 102,000, four preempted.
    let (allocations, preempted) = held_search_run();
    let big: Vec<(u64, u32)> = (0..10).map(|k| (k * 3_000, 0)).collect();
    assert_eq!(allocations[..10], big[..]);
    assert_eq!(allocations[10..], [(48_000, 1), (63_000, 2)]);
    assert_eq!(preempted, 3.0);
}

/// One 4 GB node that `big` fills with two 2 GB tasks; `x` asks one 1 GB task at 20 s and
/// is starved after its 1 s timeout (threshold 1.0, fair share 2 GB, usage 0); the
/// preemption thread takes one of big's 2 GB containers for it, larger than its 1 GB
/// starvation. `w`, when given, asks 1 GB at 25 s with a timeout that never runs out.
fn partial_hold_scenario(with_w: bool) -> Scenario {
    let xml = r#"<allocations>
  <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="big"/><queue name="x"/>
  <queue name="w"><fairSharePreemptionTimeout>1000</fairSharePreemptionTimeout></queue>
</allocations>"#;
    let mut apps = vec![
        common::apps::one_stage(
            0,
            "big",
            "u",
            2,
            Resource::new(2 * GB, 1),
            common::apps::LONG_MS,
        ),
        long_tasks(20_000, "x", 1),
    ];
    if with_w {
        apps.push(long_tasks(25_000, "w", 1));
    }
    holds_scenario(
        "partial-hold",
        xml,
        1,
        Resource::new(4 * GB, 4),
        apps,
        100_000,
    )
}

/// Hadoop's `TestFSSchedulerNode.testPartialReservedPreemption` in a run: a container
/// preempted for an app that needs less than it frees. The node's update after the kill
/// (36 s) gives x its 1 GB out of the 2 GB held for it, and x asks nothing more, so the
/// hand-out stops there (`assignPreemptedContainers` stops at an offer that gives nothing).
/// The other GB is the node's unallocated space like any other: with nobody else asking it
/// stays free (big's preempted task asks 2 GB again), and `w`, asking 1 GB, gets it in the
/// same update's descent, the hold not keeping it from other apps
/// (`FSAppAttempt.assignContainer` reads the node's unallocated resource).
#[test]
fn a_hold_larger_than_the_starvation_gives_the_app_what_it_asks_and_frees_the_rest() {
    let big = [(0, 0), (1000, 0)];
    let mut alone = big.to_vec();
    alone.push((36_000, 1));
    assert_eq!(run_allocations(&partial_hold_scenario(false)), alone);
    let mut with_w = alone.clone();
    with_w.push((36_000, 2));
    assert_eq!(run_allocations(&partial_hold_scenario(true)), with_w);
}

/// Hadoop's `TestFSSchedulerNode.testPreemptionToCompletedApp` in a run: an app a container
/// was preempted for finishes, served elsewhere, before the container is killed. Two 4 GB
/// nodes, beating at 0 and 500 ms past each second; queue `big` holds two apps, one filling
/// node 0 with four long 1 GB tasks, the other node 1 with four 1 GB tasks of 24 s. `x`
/// asks one 1 GB task of 1 s at 20 s and is starved after its 1 s timeout: the preemption
/// thread marks one of node 0's containers for it (killed 15 s later, at 36 s, whatever
/// happened meanwhile). Node 1's first GB freed (24.5 s) serves x, which finishes at
/// 25.5 s. Node 0's next update drops x's hold (`cleanupPreemptionList`: the app is
/// stopped), and the GB the kill frees at 36 s goes to the task it killed, asked again, at
/// node 0's update then: nothing is kept for the finished app.
#[test]
fn a_hold_for_an_app_that_finished_before_the_kill_frees_to_others() {
    let xml = r#"<allocations>
  <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="big"/><queue name="x"/>
</allocations>"#;
    let gb = Resource::new(GB, 1);
    let apps = vec![
        common::apps::one_stage(0, "big", "u", 4, gb, common::apps::LONG_MS),
        common::apps::one_stage(0, "big", "v", 4, gb, 24_000),
        common::apps::one_stage(20_000, "x", "u", 1, gb, 1_000),
    ];
    let sc = holds_scenario(
        "finished-hold",
        xml,
        2,
        Resource::new(4 * GB, 4),
        apps,
        100_000,
    );
    let (rec, summary) = common::outcomes::run_recorded(&sc);
    // (time, node, app)
    let mut expected = vec![];
    for k in 0..4 {
        expected.push((k * 1000, 0, 0));
        expected.push((k * 1000 + 500, 1, 1));
    }
    expected.extend([(24_500, 1, 2), (36_000, 0, 0)]);
    assert_eq!(common::outcomes::placed(&rec), expected);
    assert_eq!(summary.get("preempted_containers"), Some(1.0));
    assert_eq!(rec.apps[2].finish, Some(SimTime(25_500)));
}
