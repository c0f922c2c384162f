//! Scheduling scenarios of Hadoop's own Fair Scheduler test classes, each written anew as an
//! allocation file, a trace and a scenario, with the outcome Hadoop's test asserts. The
//! table in docs/testing.md maps every test method of those classes to a test here (or
//! elsewhere), or says why it cannot be expressed.

mod common;

use common::apps::app;
use common::outcomes::{allocation_times, first_allocations, metric, run_recorded};
use common::scenarios::fair_scenario;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::Scenario;
use fairsim_sim::{RunSummary, run};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

// TestMaxRunningAppsEnforcer. Apps hold one long task on a large cluster; "runnable" shows
// as getting that task; a removal is the short app1 finishing at 10 s.

const LONG: u64 = 1_000_000;

fn runnability(semantics: Semantics, xml: &str, apps: Vec<AppSpec>) -> Vec<Option<u64>> {
    let n = apps.len();
    let sc = fair_scenario(semantics, xml, 16, Resource::new(8 * GB, 8), apps, 300_000);
    first_allocations(&run_recorded(&sc).0, n)
}

#[test]
fn max_running_apps_remove_does_not_enable_any_app() {
    // testRemoveDoesNotEnableAnyApp: root 2, queue1 1, queue2 1; app1 in queue1, two in
    // queue2. app1 leaving frees root but queue2 stays full: the third app still waits.
    let xml = r#"<allocations><queue name="root"><maxRunningApps>2</maxRunningApps>
      <queue name="queue1"><maxRunningApps>1</maxRunningApps></queue>
      <queue name="queue2"><maxRunningApps>1</maxRunningApps></queue></queue></allocations>"#;
    for s in ERAS {
        let got = runnability(
            s,
            xml,
            vec![
                app(0, "queue1", "user", 1, GB, 1, 10_000),
                app(1, "queue2", "user", 1, GB, 1, LONG),
                app(2, "queue2", "user", 1, GB, 1, LONG),
            ],
        );
        assert!(got[0].is_some() && got[1].is_some(), "{s}");
        assert_eq!(got[2], None, "{s}: {got:?}");
    }
}

#[test]
fn max_running_apps_remove_enables_app_on_cousin_queue() {
    // testRemoveEnablesAppOnCousinQueue: queue1 allows 2 over leaf1 and leaf2.
    let xml = r#"<allocations><queue name="queue1"><maxRunningApps>2</maxRunningApps>
      <queue name="subqueue1"><queue name="leaf1"/></queue>
      <queue name="subqueue2"><queue name="leaf2"/></queue></queue></allocations>"#;
    for s in ERAS {
        let got = runnability(
            s,
            xml,
            vec![
                app(0, "queue1.subqueue1.leaf1", "user", 1, GB, 1, 10_000),
                app(1, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
                app(2, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
            ],
        );
        let third = got[2].expect("runs once app1 leaves");
        assert!((10_000..12_000).contains(&third), "{s}: {got:?}");
    }
}

#[test]
fn max_running_apps_remove_enables_one_by_queue_one_by_user() {
    // testRemoveEnablesOneByQueueOneByUser: leaf1 allows 2, user1 allows 1. app1 (user1)
    // leaving lets both the leaf1 app of user3 and the leaf2 app of user1 run.
    let xml = r#"<allocations><queue name="queue1">
      <queue name="leaf1"><maxRunningApps>2</maxRunningApps></queue><queue name="leaf2"/></queue>
      <user name="user1"><maxRunningApps>1</maxRunningApps></user></allocations>"#;
    for s in ERAS {
        let got = runnability(
            s,
            xml,
            vec![
                app(0, "queue1.leaf1", "user1", 1, GB, 1, 10_000),
                app(1, "queue1.leaf1", "user2", 1, GB, 1, LONG),
                app(2, "queue1.leaf1", "user3", 1, GB, 1, LONG),
                app(3, "queue1.leaf2", "user1", 1, GB, 1, LONG),
            ],
        );
        assert!(got[1].is_some_and(|t| t < 10_000), "{s}: {got:?}");
        for k in [2, 3] {
            let t = got[k].expect("runnable after the removal");
            assert!((10_000..12_000).contains(&t), "{s}: {got:?}");
        }
    }
}

#[test]
fn max_running_apps_remove_enabling_ordered_by_start_time() {
    // testRemoveEnablingOrderedByStartTime: queue1 allows 2; after app1 leaves, the waiting
    // app that started first (leaf2's, at 2 ms) runs, not leaf1's later one (at 20 ms).
    let xml = r#"<allocations><queue name="queue1"><maxRunningApps>2</maxRunningApps>
      <queue name="subqueue1"><queue name="leaf1"/></queue>
      <queue name="subqueue2"><queue name="leaf2"/></queue></queue></allocations>"#;
    for s in ERAS {
        let got = runnability(
            s,
            xml,
            vec![
                app(0, "queue1.subqueue1.leaf1", "user", 1, GB, 1, 10_000),
                app(1, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
                app(2, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
                app(20, "queue1.subqueue1.leaf1", "user", 1, GB, 1, LONG),
            ],
        );
        assert!(
            got[2].is_some_and(|t| (10_000..12_000).contains(&t)),
            "{s}: {got:?}"
        );
        assert_eq!(got[3], None, "{s}: {got:?}");
    }
}

#[test]
fn max_running_apps_multiple_apps_waiting_on_cousin_queue() {
    // testMultipleAppsWaitingOnCousinQueue: one removal frees one slot: of the two waiting
    // leaf2 apps, one runs.
    let xml = r#"<allocations><queue name="queue1"><maxRunningApps>2</maxRunningApps>
      <queue name="subqueue1"><queue name="leaf1"/></queue>
      <queue name="subqueue2"><queue name="leaf2"/></queue></queue></allocations>"#;
    for s in ERAS {
        let got = runnability(
            s,
            xml,
            vec![
                app(0, "queue1.subqueue1.leaf1", "user", 1, GB, 1, 10_000),
                app(1, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
                app(2, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
                app(3, "queue1.subqueue2.leaf2", "user", 1, GB, 1, LONG),
            ],
        );
        assert!(
            got[2].is_some_and(|t| (10_000..12_000).contains(&t)),
            "{s}: {got:?}"
        );
        assert_eq!(got[3], None, "{s}: {got:?}");
    }
}

// TestFairSchedulerPreemption (the Hadoop 3 class): two nodes of 4 GB and 12 vcores; a greedy
// app takes the cluster with 8 containers of 1 GB / 1 vcore; a starving app then asks for 4
// containers of 2 GB / 2 vcores in another queue; preemption on, utilization threshold 0,
// waitTimeBeforeKill 0. Four modes: min-share (children min 4 GB, 4 vcores, timeout 0) or
// fair-share (threshold 1, timeout 0) preemption, with fair or DRF queues.

fn preemption_xml(fair_share: bool, drf: bool) -> String {
    let preempt = if fair_share {
        "<fairSharePreemptionThreshold>1</fairSharePreemptionThreshold><fairSharePreemptionTimeout>0</fairSharePreemptionTimeout>"
    } else {
        "<minSharePreemptionTimeout>0</minSharePreemptionTimeout>"
    };
    let child = if fair_share {
        ""
    } else {
        "<minResources>4096mb,4vcores</minResources>"
    };
    let policy = if drf {
        "<defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>"
    } else {
        ""
    };
    format!(
        r#"<allocations>
  <queue name="preemptable">{preempt}<queue name="child-1">{child}</queue><queue name="child-2">{child}</queue></queue>
  <queue name="preemptable-sibling">{preempt}</queue>
  <queue name="nonpreemptable"><allowPreemptionFrom>false</allowPreemptionFrom>{preempt}<queue name="child-1">{child}</queue><queue name="child-2">{child}</queue></queue>
  {policy}
</allocations>"#
    )
}

/// Greedy app in `greedy_q` at 0, starving apps (4 × 2 GB) in `starving` at the given
/// times; returns the greedy app's live containers at the end and each starving app's.
fn preemption_case(
    fair_share: bool,
    drf: bool,
    greedy_q: &str,
    starving: &[(u64, &str)],
) -> (i64, Vec<usize>) {
    let xml = preemption_xml(fair_share, drf);
    let mut apps = vec![app(0, greedy_q, "default", 8, GB, 1, LONG)];
    for (t, q) in starving {
        apps.push(app(*t, q, "default", 4, 2 * GB, 2, LONG));
    }
    let mut sc = fair_scenario(
        Semantics::Hadoop33,
        &xml,
        2,
        Resource::new(4 * GB, 12),
        apps,
        300_000,
    );
    sc.scheduler.preemption = true;
    sc.scheduler.preemption_utilization_threshold = 0.0;
    sc.scheduler.wait_before_kill_ms = 0;
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).expect("runs");
    let greedy_leaf = format!("root.{greedy_q}");
    let live = allocation_times(&rec, 0).len() as i64
        - metric(&s, &format!("preempted_containers.{greedy_leaf}")) as i64;
    let got = (1..=starving.len() as u32)
        .map(|a| allocation_times(&rec, a).len())
        .collect();
    (live, got)
}

const MODES: [(bool, bool); 4] = [(false, false), (false, true), (true, false), (true, true)];

#[test]
fn preemption_within_same_leaf_queue() {
    // testPreemptionWithinSameLeafQueue: fair-share preemption splits the leaf (greedy keeps
    // 4, the starving app gets 2 of 2 GB); a min share does not preempt inside its queue.
    for (fs, drf) in MODES {
        let (live, got) = preemption_case(
            fs,
            drf,
            "preemptable.child-1",
            &[(10_000, "preemptable.child-1")],
        );
        if fs {
            assert_eq!((live, got[0]), (4, 2), "fair-share drf={drf}");
        } else {
            assert_eq!((live, got[0]), (8, 0), "min-share drf={drf}");
        }
    }
}

#[test]
fn preemption_between_two_sibling_leaf_queues() {
    // testPreemptionBetweenTwoSiblingLeafQueues.
    for (fs, drf) in MODES {
        let (live, got) = preemption_case(
            fs,
            drf,
            "preemptable.child-1",
            &[(10_000, "preemptable.child-2")],
        );
        assert_eq!((live, got[0]), (4, 2), "fair-share={fs} drf={drf}");
    }
}

#[test]
fn preemption_between_non_sibling_queues() {
    // testPreemptionBetweenNonSiblingQueues: from a preemptable queue for a queue under a
    // parent that does not allow preemption from itself.
    for (fs, drf) in MODES {
        let (live, got) = preemption_case(
            fs,
            drf,
            "preemptable.child-1",
            &[(10_000, "nonpreemptable.child-1")],
        );
        assert_eq!((live, got[0]), (4, 2), "fair-share={fs} drf={drf}");
    }
}

#[test]
fn no_preemption_from_disallowed_queue() {
    // testNoPreemptionFromDisallowedQueue.
    for (fs, drf) in MODES {
        let (live, got) = preemption_case(
            fs,
            drf,
            "nonpreemptable.child-1",
            &[(10_000, "preemptable.child-1")],
        );
        assert_eq!((live, got[0]), (8, 0), "fair-share={fs} drf={drf}");
    }
}

#[test]
fn preemption_between_sibling_queues_with_parent_at_fair_share() {
    // testPreemptionBetweenSiblingQueuesWithParentAtFairShare (fair-share modes only): the
    // parent's sibling takes half (greedy keeps 4), then the child's sibling takes one more
    // 2 GB container's worth (greedy keeps 2, the second starving app gets 1).
    for drf in [false, true] {
        let (live, got) = preemption_case(
            true,
            drf,
            "preemptable.child-1",
            &[
                (10_000, "preemptable-sibling"),
                (100_000, "preemptable.child-2"),
            ],
        );
        assert_eq!((live, got[0], got[1]), (2, 2, 1), "drf={drf}");
    }
}

// TestAppRunnability.

fn placed_leaves(semantics: Semantics, xml: &str, apps: Vec<AppSpec>) -> (Vec<usize>, RunSummary) {
    let n = apps.len();
    let sc = fair_scenario(semantics, xml, 4, Resource::new(8 * GB, 8), apps, 300_000);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).expect("runs");
    (
        (0..n as u32)
            .map(|a| allocation_times(&rec, a).len())
            .collect(),
        s,
    )
}

fn apps_in(s: &RunSummary, leaf: &str) -> f64 {
    metric(s, &format!("apps_finished.{leaf}"))
}

#[test]
fn user_as_default_queue_places_in_the_users_queue() {
    // testUserAsDefaultQueue / testAppAdditionAndRemoval: an app of user1 asking for
    // "default" lands in root.user1 (created), none in root.default.
    for s in ERAS {
        let (got, sum) = placed_leaves(
            s,
            "<allocations/>",
            vec![app(0, "default", "user1", 1, GB, 1, 5_000)],
        );
        assert_eq!(got, vec![1], "{s}");
        assert_eq!(apps_in(&sum, "root.user1"), 1.0, "{s}");
        assert_eq!(apps_in(&sum, "root.default"), 0.0, "{s}");
    }
}

#[test]
fn undeclared_pools_not_allowed_go_to_default() {
    // testDontAllowUndeclaredPools: allow-undeclared-pools=false gives Hadoop's policy
    // specified(create=false), user(create=false), default: jerry's apps go to jerry, others
    // to default.
    let xml = r#"<allocations><queue name="jerry"/><queue name="default"/>
      <queuePlacementPolicy><rule name="specified" create="false"/><rule name="user" create="false"/><rule name="default"/></queuePlacementPolicy>
    </allocations>"#;
    for s in ERAS {
        let (_, sum) = placed_leaves(
            s,
            xml,
            vec![
                app(0, "jerry", "someuser", 1, GB, 1, 5_000),
                app(1, "default", "someuser", 1, GB, 1, 5_000),
                app(2, "someuser", "someuser", 1, GB, 1, 5_000),
                app(3, "default", "jerry", 1, GB, 1, 5_000),
            ],
        );
        assert_eq!(apps_in(&sum, "root.jerry"), 2.0, "{s}");
        assert_eq!(apps_in(&sum, "root.default"), 2.0, "{s}");
    }
}

// TestFairScheduler (the heartbeat-level cases; one node unless stated, one container per
// heartbeat as Hadoop's tests configure, tasks that outlive the test).

/// Apps in the order of their first `n` allocations.
fn allocation_order(rec: &MemoryRecorder, n: usize) -> Vec<u32> {
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .take(n)
        .map(|d| d.app)
        .collect()
}

fn run_rec(sc: &Scenario) -> MemoryRecorder {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    rec
}

#[test]
fn fifo_within_queue() {
    // testFifoWithinQueue: a fifo leaf gives both containers of the earlier app before the
    // later app gets one.
    let xml = r#"<allocations><queue name="queue1"><schedulingPolicy>fifo</schedulingPolicy></queue></allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "queue1", "user1", 2, GB, 1, LONG),
            app(1, "queue1", "user1", 2, GB, 1, LONG),
        ];
        let rec = run_rec(&fair_scenario(
            s,
            xml,
            1,
            Resource::new(3 * GB, 3),
            apps,
            300_000,
        ));
        assert_eq!(allocation_order(&rec, 3), vec![0, 0, 1], "{s}");
    }
}

#[test]
fn max_assign_limits_containers_per_heartbeat() {
    // testMaxAssign: with assignmultiple, maxAssign 2 gives 2 containers per heartbeat;
    // -1 gives all 8 at once (3.3 with dynamic max-assign off, as the test's setting).
    for s in ERAS {
        for (max_assign, want) in [(2, 2), (-1, 8)] {
            let mut sc = fair_scenario(
                s,
                "<allocations/>",
                1,
                Resource::new(16 * GB, 16),
                vec![app(0, "default", "user", 8, GB, 1, LONG)],
                300_000,
            );
            sc.scheduler.assignmultiple = true;
            sc.scheduler.max_assign = max_assign;
            sc.scheduler.dynamic_max_assign = false;
            let rec = run_rec(&sc);
            let times = allocation_times(&rec, 0);
            let first = times.iter().filter(|&&t| t == times[0]).count();
            assert_eq!(first, want, "{s} max_assign={max_assign}");
        }
    }
}

#[test]
fn max_assign_with_zero_memory_containers() {
    // testMaxAssignWithZeroMemoryContainers: the Fair Scheduler accepts a minimum allocation
    // of 0 MB, so asks of 0 MB and 1 vcore stay 0 MB (max(0, 0) rounded up to the 1024 MB
    // step is 0) and only vcores bound a node of 16384 MB / 16 vcores. With assignmultiple,
    // maxAssign 2 gives 2 containers at the first heartbeat; -1 gives all 8 at once (Hadoop's
    // test changes maxAssign between two heartbeats; here each setting is its own run).
    for s in ERAS {
        for (max_assign, want) in [(2, 2), (-1, 8)] {
            let mut sc = fair_scenario(
                s,
                "<allocations/>",
                1,
                Resource::new(16 * GB, 16),
                vec![app(0, "default", "user", 8, 0, 1, LONG)],
                300_000,
            );
            sc.scheduler.minimum_allocation_mb = 0;
            sc.scheduler.assignmultiple = true;
            sc.scheduler.max_assign = max_assign;
            sc.scheduler.dynamic_max_assign = false;
            let rec = run_rec(&sc);
            let sizes: Vec<Resource> = rec
                .decisions
                .iter()
                .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
                .map(|d| d.size)
                .collect();
            assert_eq!(
                sizes,
                vec![Resource::new(0, 1); 8],
                "{s} max_assign={max_assign}"
            );
            let times = allocation_times(&rec, 0);
            let first = times.iter().filter(|&&t| t == times[0]).count();
            assert_eq!(first, want, "{s} max_assign={max_assign}");
        }
    }
}

#[test]
fn no_more_cpu_on_node() {
    // testNoMoreCpuOnNode: a node of 2048 MB and 1 vcore holds one (1024 MB, 1 vcore)
    // container, never two.
    for s in ERAS {
        let rec = run_rec(&fair_scenario(
            s,
            "<allocations/>",
            1,
            Resource::new(2 * GB, 1),
            vec![app(0, "default", "user1", 2, GB, 1, LONG)],
            300_000,
        ));
        assert_eq!(allocation_times(&rec, 0).len(), 1, "{s}");
    }
}

#[test]
fn basic_drf_assignment() {
    // testBasicDRFAssignment: node (8192 MB, 5 vcores), a DRF leaf; app1 asks (2048, 1),
    // app2 (1024, 2): app1, app2, then app1 again (dominant share 25% against 40%). The test
    // sets the leaf's policy in code; a file needs a DRF root for 3.3 to accept a DRF child
    // (one active queue, so the root's policy decides nothing here).
    let xml = r#"<allocations><queue name="root"><schedulingPolicy>drf</schedulingPolicy>
      <queue name="queue1"><schedulingPolicy>drf</schedulingPolicy></queue></queue></allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "queue1", "user1", 2, 2 * GB, 1, LONG),
            app(1, "queue1", "user1", 2, GB, 2, LONG),
        ];
        let rec = run_rec(&fair_scenario(
            s,
            xml,
            1,
            Resource::new(8 * GB, 5),
            apps,
            300_000,
        ));
        assert_eq!(allocation_order(&rec, 3), vec![0, 1, 0], "{s}");
    }
}

#[test]
fn basic_drf_with_queues() {
    // testBasicDRFWithQueues: node (8192, 7), DRF root and queue1; app1 (3072, 1) and app2
    // (2048, 2) in queue1, app3 (1024, 2) in queue2: app1, app3, app3, app2.
    let xml = r#"<allocations><queue name="root"><schedulingPolicy>drf</schedulingPolicy>
      <queue name="queue1"><schedulingPolicy>drf</schedulingPolicy></queue><queue name="queue2"/></queue></allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "queue1", "user1", 2, 3 * GB, 1, LONG),
            app(1, "queue1", "user1", 2, 2 * GB, 2, LONG),
            app(2, "queue2", "user1", 2, GB, 2, LONG),
        ];
        let rec = run_rec(&fair_scenario(
            s,
            xml,
            1,
            Resource::new(8 * GB, 7),
            apps,
            300_000,
        ));
        assert_eq!(allocation_order(&rec, 4), vec![0, 2, 2, 1], "{s}");
    }
}

#[test]
fn multiple_containers_waiting_for_reservation() {
    // testMultipleContainersWaitingForReservation: one 1024 MB node held by queue1; queue2's
    // and queue3's apps ask for 1024 MB: queue2's reserves the node, queue3's gets nothing.
    // Hadoop 3's test base sets the reservation threshold multiple to 0.09.
    for s in ERAS {
        let apps = vec![
            app(0, "queue1", "user1", 1, GB, 1, LONG),
            app(1, "queue2", "user2", 1, GB, 1, LONG),
            app(2, "queue3", "user3", 1, GB, 1, LONG),
        ];
        let mut sc = fair_scenario(s, "<allocations/>", 1, Resource::new(GB, 1), apps, 300_000);
        sc.scheduler.reservation_threshold_increment_multiple = 0.09;
        let rec = run_rec(&sc);
        let reserved = |a: u32| {
            rec.decisions
                .iter()
                .filter(|d| d.app == a && d.kind == DecisionKind::Reserved)
                .count()
        };
        assert_eq!((reserved(1), reserved(2)), (1, 0), "{s}");
    }
}

#[test]
fn user_max_running_apps() {
    // testUserMaxRunningApps: user1 may run one app; its second app waits while the first
    // gets both of its containers.
    let xml = r#"<allocations><user name="user1"><maxRunningApps>1</maxRunningApps></user></allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "queue1", "user1", 2, GB, 1, LONG),
            app(1, "queue1", "user1", 1, GB, 1, LONG),
        ];
        let rec = run_rec(&fair_scenario(
            s,
            xml,
            1,
            Resource::new(8 * GB, 8),
            apps,
            300_000,
        ));
        assert_eq!(
            (
                allocation_times(&rec, 0).len(),
                allocation_times(&rec, 1).len()
            ),
            (2, 0),
            "{s}"
        );
    }
}

#[test]
fn max_running_apps_hierarchical_queues() {
    // testMaxRunningAppsHierarchicalQueues: queue1 allows 3, queue1.sub3 allows 1. Apps at
    // 0 (sub1), 10 ms (sub3), 20 ms (sub2), 30 ms (sub2, over queue1), 40 ms (sub3, over
    // sub3). When the sub3 app leaves, the sub2 app, which came first, runs; the later sub3
    // app still waits.
    let xml = r#"<allocations><queue name="queue1"><maxRunningApps>3</maxRunningApps>
      <queue name="sub1"/><queue name="sub2"/><queue name="sub3"><maxRunningApps>1</maxRunningApps></queue></queue></allocations>"#;
    for s in ERAS {
        let got = runnability(
            s,
            xml,
            vec![
                app(0, "queue1.sub1", "user1", 1, GB, 1, LONG),
                app(10, "queue1.sub3", "user1", 1, GB, 1, 10_000),
                app(20, "queue1.sub2", "user1", 1, GB, 1, LONG),
                app(30, "queue1.sub2", "user1", 1, GB, 1, LONG),
                app(40, "queue1.sub3", "user1", 1, GB, 1, LONG),
            ],
        );
        assert!(got[3].is_some_and(|t| t >= 10_000), "{s}: {got:?}");
        assert_eq!(got[4], None, "{s}: {got:?}");
    }
}

#[test]
fn queue_names_with_periods() {
    // testQueueuNameWithPeriods: ".A" and "A." are rejected at submission, "A.B" is placed.
    for s in ERAS {
        let apps = vec![
            app(0, ".A", "user1", 1, GB, 1, 5_000),
            app(1, "A.", "user1", 1, GB, 1, 5_000),
            app(2, "A.B", "user1", 1, GB, 1, 5_000),
        ];
        let sc = fair_scenario(
            s,
            "<allocations/>",
            1,
            Resource::new(8 * GB, 8),
            apps,
            300_000,
        );
        let mut rec = MemoryRecorder::default();
        let sum = run(&sc, 1, 0, &mut rec).expect("runs");
        assert_eq!(metric(&sum, "apps_rejected"), 2.0, "{s}");
        assert_eq!(allocation_times(&rec, 2).len(), 1, "{s}");
    }
}

// TestFairSchedulerFairShare: one node of 16 GB (and 10 vcores for DRF); root holds parentA
// (weight 8: childA1-A4), parentB (weight 1: childB1, childB2) and default; each active
// leaf asks for one container. Shares as fractions of the node, with the test's tolerances.

const FAIR_SHARE_TREE: &str = r#"<allocations><queue name="root">
  <queue name="parentA"><weight>8</weight><queue name="childA1"/><queue name="childA2"/><queue name="childA3"/><queue name="childA4"/></queue>
  <queue name="parentB"><weight>1</weight><queue name="childB1"/><queue name="childB2"/></queue>
</queue><defaultQueueSchedulingPolicy>POLICY</defaultQueueSchedulingPolicy></allocations>"#;

/// A share as fractions of the cluster: (memory, vcores).
type Frac = (f64, f64);

/// Steady and instantaneous shares by leaf, as fractions of the cluster.
fn fair_share_case(
    semantics: Semantics,
    policy: &str,
    cluster: Resource,
    active: &[(&str, i64)],
) -> impl Fn(&str) -> (Frac, Frac) {
    let xml = FAIR_SHARE_TREE.replace("POLICY", policy);
    let tree = parse_fair_scheduler_xml(&xml, "fair-scheduler.xml", semantics)
        .expect("valid")
        .tree;
    let demands: Vec<_> = active
        .iter()
        .map(|(q, mb)| (tree.find(q).expect("leaf"), Resource::new(*mb, 1)))
        .collect();
    let loads = tree.loads_from_demands(cluster, &demands);
    let (steady, fair) = tree.steady_and_fair_shares(semantics, cluster, &loads);
    move |q: &str| {
        let i = tree.find(q).expect("leaf").idx();
        let frac = |r: Resource| {
            (
                r.memory_mb as f64 / cluster.memory_mb as f64,
                r.vcores as f64 / cluster.vcores as f64,
            )
        };
        (frac(steady[i]), frac(fair[i]))
    }
}

fn near(x: f64, want: f64, tol: f64) -> bool {
    (x - want).abs() <= tol
}

fn steady_follows_weights(get: &dyn Fn(&str) -> (Frac, Frac)) -> bool {
    (1..=4).all(|i| near(get(&format!("root.parentA.childA{i}")).0.0, 0.2, 0.001))
        && (1..=2).all(|i| near(get(&format!("root.parentB.childB{i}")).0.0, 0.05, 0.001))
}

const NODE16: Resource = Resource::new(16 * GB, 16);

#[test]
fn fair_share_no_apps_running() {
    // testFairShareNoAppsRunning.
    for s in ERAS {
        let get = fair_share_case(s, "fair", NODE16, &[]);
        assert_eq!(get("root.parentA.childA1").1.0, 0.0, "{s}");
        assert_eq!(get("root.parentB.childB1").1.0, 0.0, "{s}");
        assert!(steady_follows_weights(&get), "{s}");
    }
}

#[test]
fn fair_share_one_app_running() {
    // testFairShareOneAppRunning: the only active leaf gets the whole node.
    for s in ERAS {
        let get = fair_share_case(s, "fair", NODE16, &[("root.parentA.childA1", 2 * GB)]);
        assert!(near(get("root.parentA.childA1").1.0, 1.0, 0.001), "{s}");
        assert_eq!(get("root.parentA.childA2").1.0, 0.0, "{s}");
        assert!(steady_follows_weights(&get), "{s}");
    }
}

#[test]
fn fair_share_multiple_active_queues_under_same_parent() {
    // testFairShareMultipleActiveQueuesUnderSameParent: a third each.
    for s in ERAS {
        let active = [
            ("root.parentA.childA1", 2 * GB),
            ("root.parentA.childA2", 2 * GB),
            ("root.parentA.childA3", 2 * GB),
        ];
        let get = fair_share_case(s, "fair", NODE16, &active);
        for (q, _) in active {
            assert!(near(get(q).1.0 * 100.0, 33.0, 0.9), "{s} {q}");
        }
        assert!(steady_follows_weights(&get), "{s}");
    }
}

const DIFFERENT_PARENTS: [(&str, i64); 4] = [
    ("root.parentA.childA1", 2 * GB),
    ("root.parentA.childA2", 3 * GB),
    ("root.parentB.childB1", GB),
    ("root.default", GB),
];

#[test]
fn fair_share_multiple_active_queues_under_different_parent() {
    // testFairShareMultipleActiveQueuesUnderDifferentParent: 40% for each active child of
    // parentA, 10% for parentB's only active child.
    for s in ERAS {
        let get = fair_share_case(s, "fair", NODE16, &DIFFERENT_PARENTS);
        for q in ["root.parentA.childA1", "root.parentA.childA2"] {
            assert!(near(get(q).1.0 * 100.0, 40.0, 0.9), "{s} {q}");
        }
        assert!(
            near(get("root.parentB.childB1").1.0 * 100.0, 10.0, 0.9),
            "{s}"
        );
        assert!(steady_follows_weights(&get), "{s}");
    }
}

#[test]
fn fair_share_resets_to_zero_when_apps_complete() {
    // testFairShareResetsToZeroWhenAppsComplete: 50/50, then the finished leaf gets 0 and the
    // other the whole node.
    for s in ERAS {
        let both = fair_share_case(
            s,
            "fair",
            NODE16,
            &[
                ("root.parentA.childA1", 2 * GB),
                ("root.parentA.childA2", 3 * GB),
            ],
        );
        for q in ["root.parentA.childA1", "root.parentA.childA2"] {
            assert!(near(both(q).1.0 * 100.0, 50.0, 0.9), "{s} {q}");
        }
        let after = fair_share_case(s, "fair", NODE16, &[("root.parentA.childA2", 3 * GB)]);
        assert_eq!(after("root.parentA.childA1").1.0, 0.0, "{s}");
        assert!(near(after("root.parentA.childA2").1.0, 1.0, 0.001), "{s}");
    }
}

#[test]
fn fair_share_with_drf_multiple_active_queues_under_different_parent() {
    // testFairShareWithDRFMultipleActiveQueuesUnderDifferentParent: memory and vcores both
    // 40% / 10%; steady shares 20% (A) and 5% memory / 10% vcores (B).
    let cluster = Resource::new(16 * GB, 10);
    for s in ERAS {
        let get = fair_share_case(s, "drf", cluster, &DIFFERENT_PARENTS);
        for q in ["root.parentA.childA1", "root.parentA.childA2"] {
            let (_, (m, v)) = get(q);
            assert!(
                near(m * 100.0, 40.0, 0.9) && near(v * 100.0, 40.0, 0.9),
                "{s} {q}"
            );
            let ((sm, sv), _) = get(q);
            assert!(near(sm, 0.2, 0.001) && near(sv, 0.2, 0.001), "{s} {q}");
        }
        let (_, (m, v)) = get("root.parentB.childB1");
        assert!(
            near(m * 100.0, 10.0, 0.9) && near(v * 100.0, 10.0, 0.9),
            "{s}"
        );
        let ((sm, sv), _) = get("root.parentB.childB2");
        assert!(near(sm, 0.05, 0.001) && near(sv, 0.1, 0.001), "{s}");
    }
}

#[test]
fn drf_hierarchical_queues() {
    // testDRFHierarchicalQueues: node (12288, 12); DRF root, queue1 and queue1.subqueue1.
    // app1 (3074, 1) and app2 (1024, 3) in subqueue1, app3 (2048, 2) in subqueue2, app4
    // (1024, 2) in queue2, started 3 ms apart: app1, app4, app4, app3, app3, app2, then
    // every vcore is used.
    let xml = r#"<allocations><queue name="root"><schedulingPolicy>drf</schedulingPolicy>
      <queue name="queue1"><schedulingPolicy>drf</schedulingPolicy>
        <queue name="subqueue1"><schedulingPolicy>drf</schedulingPolicy></queue><queue name="subqueue2"/></queue>
      <queue name="queue2"/></queue></allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "queue1.subqueue1", "user1", 2, 3074, 1, LONG),
            app(3, "queue1.subqueue1", "user1", 2, GB, 3, LONG),
            app(6, "queue1.subqueue2", "user1", 2, 2 * GB, 2, LONG),
            app(9, "queue2", "user1", 2, GB, 2, LONG),
        ];
        let rec = run_rec(&fair_scenario(
            s,
            xml,
            1,
            Resource::new(12 * GB, 12),
            apps,
            300_000,
        ));
        assert_eq!(allocation_order(&rec, 7), vec![0, 3, 3, 2, 2, 1], "{s}");
    }
}

#[test]
fn fair_share_with_min_alloc() {
    // testFairShareWithMinAlloc: on 3072 MB, queueA (min 1024) and queueB (min 2048) both
    // asking 2048 MB get exactly their min shares.
    let xml = r#"<allocations><queue name="queueA"><minResources>1024mb,0vcores</minResources></queue>
      <queue name="queueB"><minResources>2048mb,0vcores</minResources></queue></allocations>"#;
    for s in ERAS {
        let tree = parse_fair_scheduler_xml(xml, "fair-scheduler.xml", s)
            .expect("valid")
            .tree;
        let cluster = Resource::new(3 * GB, 3);
        let (a, b) = (
            tree.find("root.queueA").expect("a"),
            tree.find("root.queueB").expect("b"),
        );
        let loads = tree.loads_from_demands(
            cluster,
            &[(a, Resource::new(2 * GB, 1)), (b, Resource::new(2 * GB, 1))],
        );
        let (_, fair) = tree.steady_and_fair_shares(s, cluster, &loads);
        assert_eq!(
            (fair[a.idx()].memory_mb, fair[b.idx()].memory_mb),
            (GB, 2 * GB),
            "{s}"
        );
    }
}
