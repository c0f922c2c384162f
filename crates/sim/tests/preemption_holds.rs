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
use fairsim_sim::scenario::{Scenario, SchedulerConf};

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
    let sc = Scenario {
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop33,
            preemption: true,
            ..SchedulerConf::default()
        },
        end_ms: Some(100_000),
        ..trace_scenario(
            "holds",
            fair_tree(xml, Semantics::Hadoop33),
            1,
            Resource::new(4 * GB, 4),
            apps,
        )
    };
    let big = [(0, 0), (1000, 0), (2000, 0), (3000, 0)];
    let mut expected = big.to_vec();
    expected.extend([(36_000, 2), (36_000, 1)]);
    assert_eq!(run_allocations(&sc), expected);
}
