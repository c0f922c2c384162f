//! Why apps waited (`scheduler::explain`): one tiny scenario per cause, worked by hand, in
//! both eras and both schedulers where the cause exists; the YARN-2026 situation; the
//! diagnosis of a stalled run; and a property test that an app's causes sum exactly to its
//! wait and that explaining changes no decision.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::scenarios::{fair_scenario, trace_scenario};
use common::trees::{GenApp, GenTree, build_apps, build_tree, tree};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::explain::{Cause, ExplainReport, StarvationKind, WaitKind};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::{RunSummary, run};
use proptest::prelude::*;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// `sc` run with explain on: the summary, the apps' records and the report.
fn explained(sc: &Scenario) -> (RunSummary, MemoryRecorder, ExplainReport) {
    let sc = Scenario {
        explain: true,
        ..sc.clone()
    };
    let mut rec = MemoryRecorder::default();
    let summary = run(&sc, 1, 0, &mut rec).expect("runs");
    let report = rec.explain.clone().expect("an explained run reports");
    (summary, rec, report)
}

/// An app with a 1 GB AM and `tasks` tasks of 1 GB that outlive the run.
fn managed(arrival: u64, queue: &str, user: &str, tasks: u32) -> AppSpec {
    AppSpec {
        am: Some(Resource::new(GB, 1)),
        name: format!("{queue}-{user}-{arrival}"),
        ..one_stage(arrival, queue, user, tasks, Resource::new(GB, 1), LONG_MS)
    }
}

/// A maximum-am-resource-percent no AM limit here reaches, for the Capacity Scheduler tests
/// whose subject is another cause: unmanaged apps are charged the minimum allocation when
/// their leaf activates them, as Hadoop charges them.
const AM_LIMIT_LIFTED: (&str, &str) = ("maximum-am-resource-percent", "10");

/// An unmanaged app of `tasks` tasks of 1 GB that outlive the run.
fn unmanaged(arrival: u64, queue: &str, user: &str, tasks: u32) -> AppSpec {
    AppSpec {
        name: format!("{queue}-{user}-{arrival}"),
        ..one_stage(arrival, queue, user, tasks, Resource::new(GB, 1), LONG_MS)
    }
}

/// App `i`'s first-container wait per cause, ms.
fn am_ms(r: &ExplainReport, i: usize, c: Cause) -> u64 {
    r.apps[i].causes.am_ms[c.index()]
}

/// App `i`'s task-pending time per cause, ms.
fn tasks_ms(r: &ExplainReport, i: usize, c: Cause) -> u64 {
    r.apps[i].causes.tasks_ms[c.index()]
}

#[test]
fn fair_am_limit_holds_an_am_above_max_am_share_of_the_fair_share() {
    // root.A, the only queue, has the whole 8 GB node as its fair share, and maxAMShare 0.1
    // allows 819 MB of AMs (2.7: 8192 × 0.1 truncated; 3.3: rounded up, 820), so a 1 GB AM
    // never runs: its whole wait, 30 s − 1 s, is the AM limit's.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"><maxAMShare>0.1</maxAMShare></queue>\
                   </allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(8 * GB, 8),
            vec![managed(1_000, "root.A", "u", 1)],
            30_000,
        );
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 0, Cause::AmLimit), 29_000, "{era:?}");
        assert_eq!(r.apps[0].causes.am_total(), 29_000, "{era:?}");
        assert_eq!(r.apps[0].causes.first, Some(Cause::AmLimit));
        assert_eq!(r.apps[0].causes.dominant, Some(Cause::AmLimit));
    }
}

#[test]
fn capacity_am_limit_holds_a_second_am_above_the_queues_am_resource_limit() {
    // One queue on 8 GB, maximum-am-resource-percent 0.1: an AM limit of 8192 × 0.1 rounded
    // up to the minimum allocation, 1024 MB. The first app is activated (a leaf with none
    // activated takes one whatever the limit); the second, submitted at 2 s, would bring AMs
    // to 2 GB: it is not activated and waits to the end, 28 s, for the AM limit.
    for era in ERAS {
        let props = [
            ("root.queues", "default"),
            ("root.default.capacity", "100"),
            ("maximum-am-resource-percent", "0.1"),
        ];
        let sc = Scenario {
            end_ms: Some(30_000),
            ..common::capacity::scenario(
                era,
                &props,
                1,
                Resource::new(8 * GB, 8),
                vec![
                    managed(0, "default", "u1", 1),
                    managed(2_000, "default", "u2", 1),
                ],
            )
        };
        let (_, rec, r) = explained(&sc);
        assert!(rec.apps[0].first_container.is_some(), "{era:?}");
        assert_eq!(am_ms(&r, 1, Cause::AmLimit), 28_000, "{era:?}");
        assert_eq!(r.apps[1].causes.am_total(), 28_000, "{era:?}");
    }
}

#[test]
fn max_running_apps_of_a_queue_keeps_the_second_app_not_runnable() {
    // maxRunningApps 1 on root.A: the app submitted at 1 s is not runnable while the first,
    // whose task outlives the run, runs: 29 s of max_running_apps_queue.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"><maxRunningApps>1</maxRunningApps></queue>\
                   </allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(8 * GB, 8),
            vec![
                unmanaged(0, "root.A", "u", 1),
                unmanaged(1_000, "root.A", "v", 1),
            ],
            30_000,
        );
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 1, Cause::MaxRunningAppsQueue), 29_000, "{era:?}");
        assert_eq!(r.apps[1].causes.am_total(), 29_000, "{era:?}");
    }
}

#[test]
fn max_running_apps_of_a_user_is_checked_before_the_queue() {
    // userMaxAppsDefault 1: the same user's second app waits for its user, 29 s.
    for era in ERAS {
        let xml = "<allocations><userMaxAppsDefault>1</userMaxAppsDefault>\
                   <queue name=\"A\"/></allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(8 * GB, 8),
            vec![
                unmanaged(0, "root.A", "u", 1),
                unmanaged(1_000, "root.A", "u", 1),
            ],
            30_000,
        );
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 1, Cause::MaxRunningAppsUser), 29_000, "{era:?}");
    }
}

#[test]
fn fair_max_resources_holds_a_queue_at_its_maximum() {
    // root.A's maxResources is 2 GB. The first app asks for three 1 GB tasks: Hadoop 2.7 gives
    // the third while usage (2 GB) still fits (one container over), 3.3 stops at 2 GB. Either
    // way (one container a heartbeat) the app submitted at 5 s finds A at its maximum for the
    // rest of the run: 25 s.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"><maxResources>2048 mb, 8 vcores</maxResources>\
                   </queue><queue name=\"B\"/></allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(8 * GB, 8),
            vec![
                unmanaged(0, "root.A", "u", 3),
                unmanaged(5_000, "root.A", "v", 1),
            ],
            30_000,
        );
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 1, Cause::QueueMax), 25_000, "{era:?}");
        assert_eq!(r.apps[1].causes.am_total(), 25_000, "{era:?}");
    }
}

#[test]
fn capacity_maximum_capacity_holds_a_queue_at_its_maximum() {
    // A: capacity and maximum-capacity 50% of 8 GB = 4 GB, filled by the first app's four
    // tasks (one a heartbeat; its fifth waits). The second user's app, at 5 s, finds A
    // closed: 25 s.
    for era in ERAS {
        let props = [
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.a.maximum-capacity", "50"),
            ("root.a.user-limit-factor", "2"),
            ("root.b.capacity", "50"),
            AM_LIMIT_LIFTED,
        ];
        let sc = Scenario {
            end_ms: Some(30_000),
            ..common::capacity::scenario(
                era,
                &props,
                1,
                Resource::new(8 * GB, 8),
                vec![unmanaged(0, "a", "u1", 5), unmanaged(5_000, "a", "u2", 1)],
            )
        };
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 1, Cause::QueueMax), 25_000, "{era:?}");
        assert_eq!(r.apps[1].causes.am_total(), 25_000, "{era:?}");
    }
}

#[test]
fn the_head_of_the_order_waits_for_room_and_the_next_app_waits_behind_it() {
    // One 2 GB node, filled by the first app's two 10 s tasks (one a heartbeat, at 0 s and
    // 1 s). The apps submitted at 3 s and 4 s (one task each) wait for room; the fair policy
    // orders them by start time (equal usage), so the first heads the order (no_room) and the
    // second is behind it until the first takes the room freed at 10 s, then heads it until
    // 11 s. No queue holds more than its fair share, so preemption says nothing.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"/></allocations>";
        let apps = vec![
            one_stage(0, "root.A", "u", 2, Resource::new(GB, 1), 10_000),
            one_stage(3_000, "root.A", "u", 1, Resource::new(GB, 1), 10_000),
            one_stage(4_000, "root.A", "u", 1, Resource::new(GB, 1), 10_000),
        ];
        let sc = fair_scenario(era, xml, 1, Resource::new(2 * GB, 2), apps, 60_000);
        let (_, rec, r) = explained(&sc);
        let w1 = rec.apps[1].wait_ms().expect("started");
        let w2 = rec.apps[2].wait_ms().expect("started");
        assert_eq!(r.apps[1].causes.am_total(), w1);
        assert_eq!(r.apps[2].causes.am_total(), w2);
        assert_eq!(r.apps[1].causes.first, Some(Cause::NoRoom), "{era:?}");
        assert_eq!(r.apps[1].causes.dominant, Some(Cause::NoRoom), "{era:?}");
        assert_eq!(
            r.apps[2].causes.first,
            Some(Cause::BehindInOrder),
            "{era:?}"
        );
        assert_eq!(
            r.apps[2].causes.dominant,
            Some(Cause::BehindInOrder),
            "{era:?}"
        );
        assert_eq!(am_ms(&r, 1, Cause::NoRoom), 7_000, "{era:?}");
        assert_eq!(w1, 7_000, "{era:?}");
        assert_eq!(am_ms(&r, 2, Cause::BehindInOrder), 6_000, "{era:?}");
        // From 10 s it heads the order. The update tick at 10 s sees the room the first
        // task freed before the heartbeat gives it to the other app (reserved for it in 2.7,
        // a next offer in 3.3); the tick at 10.5 s sees it taken.
        assert_eq!(am_ms(&r, 2, Cause::NoRoom), 500, "{era:?}");
        assert_eq!(
            am_ms(&r, 2, Cause::NodeReserved) + am_ms(&r, 2, Cause::NextOffer),
            500,
            "{era:?}"
        );
        assert_eq!(w2, 7_000, "{era:?}");
    }
}

/// YARN-2026: on 40 GB, root.B of weight 9 holds 38 GB, 95% of the cluster; root.A of
/// weight 1 has a fair share of 4 GB, asks for four 1 GB tasks and gets the 2 GB left (one a
/// heartbeat, at 40 s and 41 s): exactly half its fair share, not below
/// fairSharePreemptionThreshold (0.5) × 4 GB, so it is never starved and preemption, on with
/// 1 s timeouts, never acts for it. Hadoop 3.x judges the app: its fair share in A is A's,
/// the same numbers.
fn yarn_2026(era: Semantics, preemption: bool, b_tasks: u32) -> Scenario {
    let xml = "<allocations><defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>\
               <defaultMinSharePreemptionTimeout>1</defaultMinSharePreemptionTimeout>\
               <queue name=\"A\"><weight>1</weight></queue>\
               <queue name=\"B\"><weight>9</weight></queue></allocations>";
    let sc = fair_scenario(
        era,
        xml,
        1,
        Resource::new(40 * GB, 40),
        vec![
            unmanaged(0, "root.B", "b", b_tasks),
            unmanaged(40_000, "root.A", "a", 4),
        ],
        80_000,
    );
    Scenario {
        scheduler: SchedulerConf {
            preemption,
            ..sc.scheduler.clone()
        },
        ..sc
    }
}

#[test]
fn yarn_2026_is_above_the_fair_share_preemption_threshold() {
    for era in ERAS {
        let (summary, rec, r) = explained(&yarn_2026(era, true, 38));
        assert_eq!(summary.get("preempted_containers"), Some(0.0), "{era:?}");
        let first = rec.apps[1].first_container.expect("started").0;
        assert_eq!(first, 40_000, "{era:?}");
        // [40 s, 41 s): the node has room for the second task (next offer); from 41 s to the
        // end A holds 2 GB of its 4 GB and waits above the threshold, seen from the update
        // tick after that allocation (41.5 s: a wait that goes on is classified at ticks).
        assert_eq!(tasks_ms(&r, 1, Cause::NextOffer), 1_500, "{era:?}");
        assert_eq!(
            tasks_ms(&r, 1, Cause::AbovePreemptionThreshold),
            38_500,
            "{era:?}"
        );
        assert_eq!(r.apps[1].causes.tasks_total(), 40_000, "{era:?}");
    }
}

#[test]
fn a_queue_below_its_fair_share_without_preemption_says_preemption_is_off() {
    // As YARN-2026 with preemption off and B holding 39 GB: A gets the last 1 GB at 40 s and
    // holds 1 GB of its 4 GB fair share to the end, with B over its 36 GB.
    for era in ERAS {
        let (_, rec, r) = explained(&yarn_2026(era, false, 39));
        let first = rec.apps[1].first_container.expect("started").0;
        assert_eq!(first, 40_000, "{era:?}");
        assert_eq!(tasks_ms(&r, 1, Cause::PreemptionOff), 40_000, "{era:?}");
    }
}

#[test]
fn a_starved_queue_waits_for_its_preemption_timeout() {
    // As YARN-2026 with B holding 39 GB: A holds 1 GB, below half its 4 GB fair share, so it
    // is starved (3.x: the app, whose fair share is A's); the fair-share preemption timeout
    // (100 s) outlasts the run, so from its first container to the end (40 s) it waits for it.
    for era in ERAS {
        let xml = "<allocations><defaultFairSharePreemptionTimeout>100</defaultFairSharePreemptionTimeout>\
                   <queue name=\"A\"><weight>1</weight></queue>\
                   <queue name=\"B\"><weight>9</weight></queue></allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(40 * GB, 40),
            vec![
                unmanaged(0, "root.B", "b", 39),
                unmanaged(40_000, "root.A", "a", 4),
            ],
            80_000,
        );
        let sc = Scenario {
            scheduler: SchedulerConf {
                preemption: true,
                ..sc.scheduler.clone()
            },
            ..sc
        };
        let (summary, rec, r) = explained(&sc);
        assert_eq!(summary.get("preempted_containers"), Some(0.0), "{era:?}");
        assert_eq!(rec.apps[1].first_container.map(|t| t.0), Some(40_000));
        assert_eq!(tasks_ms(&r, 1, Cause::PreemptionTimeout), 40_000, "{era:?}");
    }
}

#[test]
fn a_starved_queue_past_its_timeout_waits_while_preemption_acts() {
    // The same with a 5 s timeout: the wait is first the timeout's, then preemption's, which
    // takes containers from B.
    for era in ERAS {
        let xml = "<allocations><defaultFairSharePreemptionTimeout>5</defaultFairSharePreemptionTimeout>\
                   <queue name=\"A\"><weight>1</weight></queue>\
                   <queue name=\"B\"><weight>9</weight></queue></allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(40 * GB, 40),
            vec![
                unmanaged(0, "root.B", "b", 39),
                unmanaged(40_000, "root.A", "a", 4),
            ],
            80_000,
        );
        let sc = Scenario {
            scheduler: SchedulerConf {
                preemption: true,
                ..sc.scheduler.clone()
            },
            ..sc
        };
        let (summary, _, r) = explained(&sc);
        assert!(summary.get("preempted_containers") > Some(0.0), "{era:?}");
        let causes: Vec<Cause> = r.apps[1]
            .stretches
            .iter()
            .filter(|s| s.kind == WaitKind::Tasks)
            .map(|s| s.cause)
            .collect();
        let timeout = causes.iter().position(|&c| c == Cause::PreemptionTimeout);
        let acting = causes.iter().position(|&c| c == Cause::PreemptionUnderWay);
        assert!(
            matches!((timeout, acting), (Some(t), Some(u)) if t < u),
            "{era:?}: {causes:?}"
        );
        // The timeout runs 5 s from the first update that saw A starved (40 s), seen at the
        // update tick after it: 5 s and at most one tick.
        let t = tasks_ms(&r, 1, Cause::PreemptionTimeout);
        assert!((5_000..=5_500).contains(&t), "{era:?}: {t}");
    }
}

#[test]
fn max_running_apps_of_a_parent_holds_an_app_of_another_leaf() {
    // root.P allows one running app over its leaves A and B: B's app at 1 s waits 29 s.
    for era in ERAS {
        let xml = "<allocations><queue name=\"P\"><maxRunningApps>1</maxRunningApps>\
                   <queue name=\"A\"/><queue name=\"B\"/></queue></allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(8 * GB, 8),
            vec![
                unmanaged(0, "root.P.A", "u", 1),
                unmanaged(1_000, "root.P.B", "v", 1),
            ],
            30_000,
        );
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 1, Cause::MaxRunningAppsParent), 29_000, "{era:?}");
    }
}

#[test]
fn capacity_user_limit_holds_a_users_second_app() {
    // user-limit-factor 0.25 of an 8 GB queue: a user limit of 2 GB, reached by the user's
    // first app before 5 s; the same user's second app, at 5 s, waits to the end, 25 s.
    for era in ERAS {
        let props = [
            ("root.queues", "default"),
            ("root.default.capacity", "100"),
            ("root.default.user-limit-factor", "0.25"),
            AM_LIMIT_LIFTED,
        ];
        let sc = Scenario {
            end_ms: Some(30_000),
            ..common::capacity::scenario(
                era,
                &props,
                1,
                Resource::new(8 * GB, 8),
                vec![
                    unmanaged(0, "default", "u", 6),
                    unmanaged(5_000, "default", "u", 1),
                ],
            )
        };
        let (_, _, r) = explained(&sc);
        assert_eq!(am_ms(&r, 1, Cause::UserLimit), 25_000, "{era:?}");
    }
}

#[test]
fn delay_scheduling_holds_an_ask_for_a_full_node_while_another_has_room() {
    // Two 2 GB nodes in one rack, beating together. The first app's two tasks must run on
    // node1 (relaxLocality off) and fill it; the second app, at 5 s, prefers node1 too.
    // node0 has room, but with both thresholds at 1.0 the ask stays node-local until it has
    // missed more than 2 offers (nodes × threshold). Both nodes' offers count (node1 fits the
    // ask by capacity): at 5 s node0 (1) and node1 (2), at 6 s node0 (3 > 2): it relaxes to
    // rack-local and takes node0. Its whole wait, 1 s, is delay scheduling's.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"/></allocations>";
        let first = fills_node1("root.A");
        let mut second = unmanaged(5_000, "root.A", "v", 1);
        second.stages[0][0].hosts = vec!["node1".into()];
        let sc = fair_scenario(
            era,
            xml,
            2,
            Resource::new(2 * GB, 2),
            vec![first, second],
            30_000,
        );
        let sc = Scenario {
            scheduler: SchedulerConf {
                locality_threshold_node: 1.0,
                locality_threshold_rack: 1.0,
                ..sc.scheduler.clone()
            },
            ..sc
        };
        let (_, rec, r) = explained(&sc);
        let wait = rec.apps[1].wait_ms().expect("started");
        assert_eq!(am_ms(&r, 1, Cause::LocalityDelay), wait, "{era:?}");
        assert_eq!(wait, 1_000, "{era:?}");
    }
}

#[test]
fn capacity_the_head_of_the_fifo_order_waits_for_room_and_the_next_waits_behind() {
    // The Fair test's shape under the Capacity Scheduler, three users (each within the user
    // limit, the queue's 2 GB): the first user's two tasks take the 2 GB node at 0 s and 1 s
    // (one off-switch container a heartbeat) and end at 10 s and 11 s. FIFO serves the app of
    // 3 s first: no room until 10 s. The app of 4 s is behind it until then; the tick at 10 s
    // sees the freed room (a next offer, taken by the other app at that heartbeat), the tick
    // at 10.5 s no room, until 11 s.
    for era in ERAS {
        let apps = vec![
            one_stage(0, "default", "u", 2, Resource::new(GB, 1), 10_000),
            one_stage(3_000, "default", "v", 1, Resource::new(GB, 1), 10_000),
            one_stage(4_000, "default", "w", 1, Resource::new(GB, 1), 10_000),
        ];
        let sc = one_default_leaf(era, 1, Resource::new(2 * GB, 2), apps, 60_000);
        let (_, rec, r) = explained(&sc);
        assert_eq!(rec.apps[1].wait_ms(), Some(7_000), "{era:?}");
        assert_eq!(am_ms(&r, 1, Cause::NoRoom), 7_000, "{era:?}");
        assert_eq!(rec.apps[2].wait_ms(), Some(7_000), "{era:?}");
        assert_eq!(am_ms(&r, 2, Cause::BehindInOrder), 6_000, "{era:?}");
        assert_eq!(am_ms(&r, 2, Cause::NextOffer), 500, "{era:?}");
        assert_eq!(am_ms(&r, 2, Cause::NoRoom), 500, "{era:?}");
    }
}

#[test]
fn a_starvation_episode_is_attributed_to_its_apps_causes() {
    // root.A's minResources is 4 GB; root.B holds 39 of the 40 GB when A's app (four 1 GB
    // tasks) comes at 40 s and takes the last 1 GB: A is below min(min share, demand) = 4 GB
    // from the tick at 40 s to the end (80 s), one episode, never ended. Its fair share is
    // its demand, 4 GB (weights 1:9 would give it 4 GB of the 40, and it asks no more), and
    // at most 1 GB is under half of it (the default threshold, 0.5): one fair-share episode,
    // the same. Its one app waited for tasks all that time, the cluster full, A below its
    // share, B over its own, and preemption off: 40 s of preemption_off in each.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"><weight>1</weight>\
                   <minResources>4096 mb, 4 vcores</minResources></queue>\
                   <queue name=\"B\"><weight>9</weight></queue></allocations>";
        let sc = fair_scenario(
            era,
            xml,
            1,
            Resource::new(40 * GB, 40),
            vec![
                unmanaged(0, "root.B", "b", 39),
                unmanaged(40_000, "root.A", "a", 4),
            ],
            80_000,
        );
        let (_, _, r) = explained(&sc);
        let a: Vec<_> = r
            .starvation
            .iter()
            .filter(|e| e.queue == "root.A")
            .collect();
        let kinds: Vec<_> = a.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, StarvationKind::ALL, "{era:?}: {:?}", r.starvation);
        for e in &a {
            assert_eq!((e.from_ms, e.to_ms, e.ended), (40_000, 80_000, false));
            assert_eq!(e.causes_ms[Cause::PreemptionOff.index()], 40_000, "{era:?}");
            assert_eq!(e.causes_ms.iter().sum::<u64>(), 40_000, "{era:?}");
        }
        // B ramps up alone first: its fair share is its demand, 39 GB, and it takes one 1 GB
        // container per heartbeat of the node (every second from 0 s), so it is under half
        // of it, 19.5 GB, until it holds 20 containers; the first update tick to see that is
        // at 19.5 s. Its app waited those 19.5 s for nothing but the next offer.
        let b: Vec<_> = r
            .starvation
            .iter()
            .filter(|e| e.queue == "root.B")
            .collect();
        assert_eq!(b.len(), 1, "{era:?}: {:?}", r.starvation);
        assert_eq!(b[0].kind, StarvationKind::FairShare);
        assert_eq!((b[0].from_ms, b[0].to_ms, b[0].ended), (0, 19_500, true));
        assert_eq!(b[0].causes_ms[Cause::NextOffer.index()], 19_500, "{era:?}");
        let csv = r.starvation_csv();
        for kind in ["min_share", "fair_share"] {
            let row = format!("root.A,{kind},40000,80000,false,preemption_off,");
            assert!(csv.lines().any(|l| l.starts_with(&row)), "{csv}");
        }
    }
}

#[test]
fn a_stalled_run_says_what_its_apps_wait_for_and_what_would_unblock_them() {
    // The AM-limit scenario without an end: the run stalls, and says why in numbers.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"><maxAMShare>0.1</maxAMShare></queue>\
                   </allocations>";
        let sc = Scenario {
            end_ms: None,
            ..fair_scenario(
                era,
                xml,
                1,
                Resource::new(8 * GB, 8),
                vec![managed(1_000, "root.A", "u", 1)],
                30_000,
            )
        };
        let mut rec = MemoryRecorder::default();
        let summary = run(&sc, 1, 0, &mut rec).expect("runs");
        assert!(summary.stalled_at.is_some());
        let g = &summary.stall_diagnosis;
        assert_eq!(g.len(), 1, "{g:?}");
        assert_eq!(g[0].cause, Cause::AmLimit);
        assert_eq!(g[0].queue, "root.A");
        assert!(
            g[0].words.starts_with(
                "1 app of root.A waiting for its AM: maxAMShare refuses their AMs: the queue's \
                 fair share is 8 GB, maxAMShare 0.1 of it allows 819 MB of AMs, AMs running \
                 hold 0 MB and the next AM needs 1 GB; raise maxAMShare"
            ),
            "{}",
            g[0].words
        );
        assert!(summary.to_json().contains("\"stall_diagnosis\""));
    }
}

#[test]
fn a_stall_of_ams_holding_every_vcore_names_the_ams() {
    // Two managed apps on a 4 GB / 2-vcore node, maxAMShare off: the two AMs take both
    // vcores and their tasks can never start.
    for era in ERAS {
        let xml =
            "<allocations><queue name=\"A\"><maxAMShare>-1</maxAMShare></queue></allocations>";
        let sc = Scenario {
            end_ms: None,
            ..fair_scenario(
                era,
                xml,
                1,
                Resource::new(4 * GB, 2),
                vec![managed(0, "root.A", "u", 1), managed(0, "root.A", "v", 1)],
                30_000,
            )
        };
        let mut rec = MemoryRecorder::default();
        let summary = run(&sc, 1, 0, &mut rec).expect("runs");
        assert!(summary.stalled_at.is_some(), "{era:?}");
        let words: Vec<&str> = summary
            .stall_diagnosis
            .iter()
            .map(|g| g.words.as_str())
            .collect();
        assert!(
            words.iter().any(|w| w.contains(
                "every container running in the cluster's 4 GB and 2 vcores is one of 2 AMs (2 GB \
                 and 2 vcores) waiting for task containers that cannot start"
            )),
            "{era:?}: {words:?}"
        );
    }
}

#[derive(Debug, Clone)]
struct Case {
    nodes: u32,
    tree: GenTree,
    apps: Vec<GenApp>,
    era33: bool,
    preemption: bool,
    end_ms: Option<u64>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..4,
        tree(0..1, 1..4, false),
        prop::collection::vec(
            (
                0u64..20_000,
                0usize..4,
                1u32..8,
                1i64..5,
                100u64..20_000,
                any::<bool>(),
            ),
            1..16,
        ),
        any::<bool>(),
        any::<bool>(),
        prop::option::of(5_000u64..60_000),
    )
        .prop_map(|(nodes, tree, apps, era33, preemption, end_ms)| Case {
            nodes,
            tree,
            apps,
            era33,
            preemption,
            end_ms,
        })
}

fn build(c: &Case) -> Scenario {
    let (tree, names) = build_tree(&c.tree);
    let apps = build_apps(&c.apps, &names, 512, |_| None);
    Scenario {
        scheduler: SchedulerConf {
            semantics: common::generator::era(c.era33),
            preemption: c.preemption,
            ..SchedulerConf::default()
        },
        end_ms: c.end_ms,
        ..trace_scenario("p", tree, c.nodes, Resource::new(4096, 4), apps)
    }
}

#[test]
fn causes_sum_to_each_apps_wait_and_explaining_changes_no_decision() {
    let config = common::generator::fixed_config(48, 31);
    let mut runner = proptest::test_runner::TestRunner::new(config);
    runner
        .run(&case(), |c| {
            let sc = build(&c);
            let mut plain = MemoryRecorder::default();
            let s_plain =
                run(&sc, 1, 0, &mut plain).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let (s, rec, r) = explained(&sc);
            prop_assert_eq!(&plain.decisions, &rec.decisions);
            // Explaining adds its own metrics, one per cause, and changes no other.
            let mut s_rest = s.clone();
            s_rest
                .metrics
                .retain(|(n, _)| !n.starts_with("wait_cause_"));
            prop_assert_eq!(s_plain.to_json(), s_rest.to_json());
            let by_cause: f64 = s
                .metrics
                .iter()
                .filter(|(n, _)| n.starts_with("wait_cause_"))
                .map(|(_, v)| v)
                .sum();
            prop_assert_eq!(s.metrics.len() - s_rest.metrics.len(), Cause::ALL.len());
            if r.apps.is_empty() {
                // Every app arrives after a cut `end_ms`: a mean over no app is undefined,
                // as the run's other means over apps are, never a zero wait.
                prop_assert!(by_cause.is_nan(), "{}", by_cause);
            } else {
                let mean_wait = r.apps.iter().map(|a| a.causes.am_total()).sum::<u64>() as f64
                    / 1000.0
                    / r.apps.len() as f64;
                prop_assert!((by_cause - mean_wait).abs() <= 1e-9 * mean_wait.max(1.0));
            }
            prop_assert_eq!(r.apps.len(), rec.apps.len());
            let end = s.end.0;
            for (row, app) in r.apps.iter().zip(rec.apps.iter()) {
                prop_assert_eq!(row.index, app.index);
                if app.rejected.is_some() {
                    prop_assert_eq!(row.causes.am_total(), 0);
                    continue;
                }
                // Started: exactly apps.csv's wait_ms; never started: to the end of the run.
                let wait = app.wait_ms().unwrap_or(end - app.arrival.0);
                prop_assert_eq!(row.causes.am_total(), wait, "app {}", app.index);
                // Stretches never overlap within a kind and stay within the run.
                for kind in [WaitKind::Am, WaitKind::Tasks] {
                    let mut last = 0;
                    for st in row.stretches.iter().filter(|s| s.kind == kind) {
                        prop_assert!(st.from_ms >= last && st.to_ms > st.from_ms);
                        prop_assert!(st.to_ms <= end);
                        last = st.to_ms;
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn explain_csv_columns_sum_to_wait_ms() {
    // explain.csv as written: wait_ms equals the sum of the wait_ms.<cause> columns.
    let (_, _, r) = explained(&yarn_2026(Semantics::Hadoop27, true, 38));
    let csv = r.explain_csv();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 7 + 2 * Cause::ALL.len());
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let wait: u64 = f[3].parse().unwrap();
        let tasks: u64 = f[4].parse().unwrap();
        let sum = |from: usize| -> u64 {
            f[from..from + Cause::ALL.len()]
                .iter()
                .map(|v| v.parse::<u64>().unwrap())
                .sum()
        };
        assert_eq!(sum(7), wait, "{line}");
        assert_eq!(sum(7 + Cause::ALL.len()), tasks, "{line}");
    }
    let _ = ClusterSpec::default();
    let _ = Workload::Trace(vec![]);
}

#[test]
fn capacity_delay_scheduling_holds_an_ask_until_it_may_go_off_switch() {
    // The Fair test's shape under the Capacity Scheduler, two 2 GB nodes in one rack: the
    // first app's two tasks must run on node1 (relaxLocality off) and fill it; the second,
    // at 5 s, prefers node1 (a host, a rack and an ANY request). A full node is offered to
    // no app, so only node0's beats count. The rack step needs more than min(2 nodes,
    // node-locality-delay 40) = 2 missed offers; the off-switch step more than 1 container
    // x min(2 requests / 2 nodes, 1) = 1 (3.3 caps it at the 2 nodes as well). node0's beat
    // at 5 s is the first missed offer, its beat at 6 s the second: the container goes
    // off-switch on node0 at 6 s. Its whole wait, 1 s, is delay scheduling's.
    for era in ERAS {
        let first = fills_node1("default");
        let mut second = unmanaged(5_000, "default", "v", 1);
        second.stages[0][0].hosts = vec!["node1".into()];
        let apps = vec![first, second];
        let sc = one_default_leaf(era, 2, Resource::new(2 * GB, 2), apps, 30_000);
        assert_eq!(sc.scheduler.node_locality_delay, 40, "Hadoop's default");
        let (_, rec, r) = explained(&sc);
        let wait = rec.apps[1].wait_ms().expect("started");
        assert_eq!(wait, 1_000, "{era:?}");
        assert_eq!(am_ms(&r, 1, Cause::LocalityDelay), wait, "{era:?}");
    }
}

#[test]
fn capacity_max_parallel_apps_keeps_the_second_app_pending() {
    // Hadoop 3.3's max-parallel-apps (2.7 has none): a leaf running at most one app. The
    // first app's one task takes the 2 GB node at 0 s and ends at 10 s, and the app with it;
    // the second app, submitted at 1 s, is not runnable until then and gets the node at the
    // heartbeat of 10 s: 9 s of waiting, all for the queue's limit.
    let props = [
        ("root.queues", "default"),
        ("root.default.capacity", "100"),
        ("root.default.max-parallel-apps", "1"),
    ];
    let apps = vec![
        one_stage(0, "default", "u", 1, Resource::new(GB, 1), 10_000),
        one_stage(1_000, "default", "v", 1, Resource::new(GB, 1), 10_000),
    ];
    let sc = Scenario {
        end_ms: Some(60_000),
        ..common::capacity::scenario(
            Semantics::Hadoop33,
            &props,
            1,
            Resource::new(2 * GB, 2),
            apps,
        )
    };
    let (_, rec, r) = explained(&sc);
    assert_eq!(rec.apps[1].wait_ms(), Some(9_000));
    assert_eq!(am_ms(&r, 1, Cause::MaxRunningAppsQueue), 9_000);
}

#[test]
fn capacity_a_queue_below_its_guarantee_waits_on_preemption() {
    // Two leaves of 50% on one 4 GB node: a's app takes the whole node at 0 s with tasks
    // that outlive the run (a may grow to its maximum, 100%); b's app, at 5 s, asks for 1 GB
    // with b at 0 of its 2 GB guarantee while a holds 2 GB over its own. Without the
    // preemption monitor nothing will make room: its 25 s to the end are `preemption_off`.
    for era in ERAS {
        let props = [
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.a.maximum-capacity", "100"),
            ("root.a.user-limit-factor", "2"),
            ("root.b.capacity", "50"),
        ];
        let apps = vec![unmanaged(0, "a", "u", 4), unmanaged(5_000, "b", "v", 1)];
        let sc = Scenario {
            end_ms: Some(30_000),
            ..common::capacity::scenario(era, &props, 1, Resource::new(4 * GB, 4), apps)
        };
        let (_, rec, r) = explained(&sc);
        assert_eq!(rec.apps[0].wait_ms(), Some(0), "{era:?}");
        assert_eq!(rec.apps[1].wait_ms(), None, "{era:?}: b never starts");
        assert_eq!(am_ms(&r, 1, Cause::PreemptionOff), 25_000, "{era:?}");
        let total: u64 = r.apps[1].causes.am_ms.iter().sum();
        assert_eq!(total, 25_000, "{era:?}");
    }
}

#[test]
fn capacity_preemption_under_way_until_the_monitor_kills() {
    // The same queues with the preemption monitor on (Hadoop's defaults: a round every 3 s,
    // a marked container killed once it was marked more than 15 s ago). The first round
    // after b's arrival, at 6 s, marks one of a's containers; at 21 s it was marked 15 s
    // ago, not more (Hadoop's test is strict), so the round of 24 s kills it and b takes the
    // freed 1 GB at that heartbeat: 19 s of waiting, all while preemption acts.
    let props = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.a.maximum-capacity", "100"),
        ("root.a.user-limit-factor", "2"),
        ("root.b.capacity", "50"),
    ];
    for era in ERAS {
        let apps = vec![unmanaged(0, "a", "u", 4), unmanaged(5_000, "b", "v", 1)];
        let sc = common::capacity::scenario(era, &props, 1, Resource::new(4 * GB, 4), apps);
        let sc = Scenario {
            end_ms: Some(60_000),
            scheduler: SchedulerConf {
                preemption: true,
                ..sc.scheduler.clone()
            },
            ..sc
        };
        assert_eq!(sc.scheduler.monitoring_interval_ms, 3_000);
        assert_eq!(sc.scheduler.max_wait_before_kill_ms, 15_000);
        let (_, rec, r) = explained(&sc);
        assert_eq!(rec.apps[1].wait_ms(), Some(19_000), "{era:?}");
        assert_eq!(am_ms(&r, 1, Cause::PreemptionUnderWay), 19_000, "{era:?}");
    }
}

#[test]
fn a_node_reserved_for_another_app_holds_an_ask_that_fits_it() {
    // One 4 GB node. The first app's three 1 GB tasks take it at 0, 1 and 2 s (one
    // container a heartbeat) and outlive the run, leaving 1 GB. At 5 s an app asks for 2 GB,
    // which does not fit, and the node is reserved for it: Hadoop 2.7 reserves whatever
    // does not fit; Hadoop 3.3 (`isReservable`) because the app is starved (its usage, 0,
    // is below its fair share of the queue) and 2 GB is at least the reservation threshold
    // (2 x the 1 GB increment); both keep the reservation, the app staying as it is. At 6 s
    // an app asks for 1 GB, which fits, but a reserved node is offered to the app it is
    // reserved for alone: its 24 s to the end of the run are `node_reserved`, and the 2 GB
    // app, heading the order with no node able to hold its ask, waits 25 s on `no_room`.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"/></allocations>";
        let apps = vec![
            unmanaged(0, "root.A", "u", 3),
            one_stage(5_000, "root.A", "v", 1, Resource::new(2 * GB, 1), LONG_MS),
            unmanaged(6_000, "root.A", "w", 1),
        ];
        let sc = fair_scenario(era, xml, 1, Resource::new(4 * GB, 4), apps, 30_000);
        let (summary, rec, r) = explained(&sc);
        assert_eq!(rec.apps[2].wait_ms(), None, "{era:?}: never started");
        assert_eq!(am_ms(&r, 2, Cause::NodeReserved), 24_000, "{era:?}");
        assert_eq!(
            r.apps[2].causes.am_ms.iter().sum::<u64>(),
            24_000,
            "{era:?}"
        );
        assert_eq!(am_ms(&r, 1, Cause::NoRoom), 25_000, "{era:?}");
        assert_eq!(
            r.apps[1].causes.am_ms.iter().sum::<u64>(),
            25_000,
            "{era:?}"
        );
        // The run's metrics: per cause, the mean over its three apps (the first waited 0 s).
        let metric = |c: Cause| {
            summary
                .metrics
                .iter()
                .find(|(n, _)| *n == format!("wait_cause_{}_s", c.name()))
                .map(|(_, v)| *v)
        };
        assert_eq!(metric(Cause::NodeReserved), Some(8.0), "{era:?}");
        assert_eq!(metric(Cause::NoRoom), Some(25.0 / 3.0), "{era:?}");
        let all: f64 = Cause::ALL.iter().filter_map(|&c| metric(c)).sum();
        assert_eq!(all, 8.0 + 25.0 / 3.0, "{era:?}: the other causes are 0");
        // Without explain the run reports none of them.
        let plain = run(&sc, 1, 0, &mut MemoryRecorder::default()).expect("runs");
        assert!(
            plain
                .metrics
                .iter()
                .all(|(n, _)| !n.starts_with("wait_cause_")),
            "{era:?}"
        );
    }
}

#[test]
fn capacity_max_parallel_apps_of_a_user_and_of_a_parent() {
    // Hadoop 3.3's user.max-parallel-apps and a parent's max-parallel-apps, in the shape of
    // the queue test: the first app's one task takes the 2 GB node at 0 s and ends at 10 s
    // with its app; the second, submitted at 1 s, is not runnable until then (the user's
    // limit: both apps are u's; the parent's: root runs at most one app over its two
    // leaves), and gets the node at the heartbeat of 10 s: 9 s for that limit.
    let user = [
        ("root.queues", "default"),
        ("root.default.capacity", "100"),
        ("user.max-parallel-apps", "1"),
    ];
    let parent = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.a.maximum-capacity", "100"),
        ("root.b.capacity", "50"),
        ("root.b.maximum-capacity", "100"),
        ("root.max-parallel-apps", "1"),
    ];
    /// The properties, the two apps' leaves and users, and the cause.
    type Case<'a> = (&'a [(&'a str, &'a str)], [&'a str; 2], [&'a str; 2], Cause);
    let cases: [Case; 2] = [
        (
            &user,
            ["default", "default"],
            ["u", "u"],
            Cause::MaxRunningAppsUser,
        ),
        (&parent, ["a", "b"], ["u", "v"], Cause::MaxRunningAppsParent),
    ];
    for (props, queues, users, cause) in cases {
        let apps = vec![
            one_stage(0, queues[0], users[0], 1, Resource::new(GB, 1), 10_000),
            one_stage(1_000, queues[1], users[1], 1, Resource::new(GB, 1), 10_000),
        ];
        let sc = Scenario {
            end_ms: Some(60_000),
            ..common::capacity::scenario(
                Semantics::Hadoop33,
                props,
                1,
                Resource::new(2 * GB, 2),
                apps,
            )
        };
        let (_, rec, r) = explained(&sc);
        assert_eq!(rec.apps[1].wait_ms(), Some(9_000), "{cause:?}");
        assert_eq!(am_ms(&r, 1, cause), 9_000, "{cause:?}");
    }
}

/// A first app whose two 1 GB tasks must run on node1 (relaxLocality off): they fill a
/// 2 GB node1.
fn fills_node1(queue: &str) -> AppSpec {
    let mut first = unmanaged(0, queue, "u", 2);
    first.stages[0][0].hosts = vec!["node1".into()];
    first.stages[0][0].relax_locality = false;
    first
}

/// The Capacity Scheduler's one leaf, `default`, at 100 % with the AM limit lifted, on
/// `nodes` nodes of `node`, run to `end_ms`.
fn one_default_leaf(
    era: Semantics,
    nodes: u32,
    node: Resource,
    apps: Vec<AppSpec>,
    end_ms: u64,
) -> Scenario {
    let props = [
        ("root.queues", "default"),
        ("root.default.capacity", "100"),
        AM_LIMIT_LIFTED,
    ];
    Scenario {
        end_ms: Some(end_ms),
        ..common::capacity::scenario(era, &props, nodes, node, apps)
    }
}

/// [`fills_node1`]'s app, and a second app's two asks at 5.1 s: one container at priority 10 on node1 only, one at
/// priority 20 anywhere.
fn strict_first_then_anywhere(queue: &str) -> Vec<AppSpec> {
    let first = fills_node1(queue);
    let mut second = unmanaged(5_100, queue, "v", 1);
    let mut strict = second.stages[0][0].clone();
    strict.priority = 10;
    strict.hosts = vec!["node1".into()];
    strict.relax_locality = false;
    second.stages[0][0].priority = 20;
    second.stages[0].insert(0, strict);
    vec![first, second]
}

/// The second app of [`strict_first_then_anywhere`] waited 900 ms for the next offer of
/// node0, then its priority-10 task for room on node1 to the end of the run at 30 s.
fn assert_served_past_the_strict_ask(sc: &Scenario, what: &str) {
    let (_, rec, r) = explained(sc);
    assert_eq!(rec.apps[1].wait_ms(), Some(900), "{what}");
    assert_eq!(am_ms(&r, 1, Cause::NextOffer), 900, "{what}");
    assert_eq!(r.apps[1].causes.am_ms.iter().sum::<u64>(), 900, "{what}");
    assert_eq!(
        tasks_ms(&r, 1, Cause::NoRoom),
        30_000 - 6_000,
        "{what}: {:?}",
        r.apps[1].causes
    );
}

#[test]
fn a_later_priority_that_a_node_can_take_is_served_past_a_strict_ask() {
    // Two 2 GB nodes in one rack, node0 beating at 0 ms of each second and node1 at 500; the
    // first app fills node1. Hadoop tries an app's priorities in order and passes one over
    // when the node cannot take its ask (`hasContainerForNode`): at node1's beat (5.5 s)
    // neither ask fits, at node0's (6 s) priority 10 is passed over and priority 20 takes
    // node0. So the second app waits 900 ms for the next offer of a node with room, not for
    // room on node1 (its first priority's story); its priority-10 task then waits for node1.
    for era in ERAS {
        let xml = "<allocations><queue name=\"A\"/></allocations>";
        let apps = strict_first_then_anywhere("root.A");
        let sc = fair_scenario(era, xml, 2, Resource::new(2 * GB, 2), apps, 30_000);
        assert_served_past_the_strict_ask(&sc, &format!("fair {era:?}"));
    }
}

#[test]
fn capacity_a_later_priority_is_served_past_a_strict_ask() {
    // The Fair test's shape under the Capacity Scheduler: a priority whose ask relaxLocality
    // keeps off the node offered is skipped (2.7's skipped assignment, 3.3's
    // `PRIORITY_SKIPPED`) and the next tried; priority 20 asks anywhere, so node0 takes it
    // at 6 s.
    for era in ERAS {
        let apps = strict_first_then_anywhere("default");
        let sc = one_default_leaf(era, 2, Resource::new(2 * GB, 2), apps, 30_000);
        assert_served_past_the_strict_ask(&sc, &format!("capacity {era:?}"));
    }
}
