//! More of TestFairScheduler's scheduling scenarios, each written anew as an allocation file,
//! a trace and a scenario, with the numbers Hadoop's test asserts. `hadoop_tests.rs` holds
//! the first ones; the table in docs/testing.md maps every test method to its test here
//! (checked by `hadoop_table.rs`).
//!
//! Hadoop's tests call the scheduler by hand: one `update()`, then node heartbeats one at a
//! time, each assigning one container (assignmultiple off). fairsim runs the same clusters
//! on its clock; nodes beat in index order, and the asserted counts are read off the order
//! of allocations, so they do not depend on when each heartbeat falls.

mod common;

use common::apps::app;
use common::outcomes::{allocated, first_allocations, metric, run_recorded, run_sampled};
use common::scenarios::fair_scenario;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{Decision, DecisionKind, MemoryRecorder};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];
/// Tasks that outlive every test run.
const LONG: u64 = 1_000_000;

fn allocations(rec: &MemoryRecorder) -> Vec<Decision> {
    allocated(rec).copied().collect()
}

/// Containers per app among the first `n` allocations.
fn counts_after(rec: &MemoryRecorder, n: usize, apps: usize) -> Vec<usize> {
    let mut c = vec![0; apps];
    for d in allocations(rec).iter().take(n) {
        c[d.app as usize] += 1;
    }
    c
}

#[test]
fn empty_queue_name_is_rejected() {
    // testEmptyQueueName: an app submitted to "" is refused and nothing runs.
    for s in ERAS {
        let sc = fair_scenario(
            s,
            "<allocations/>",
            1,
            Resource::new(8 * GB, 8),
            vec![app(0, "", "user1", 1, GB, 1, LONG)],
            60_000,
        );
        let (rec, sum) = run_recorded(&sc);
        assert_eq!(metric(&sum, "apps_rejected"), 1.0, "{s}");
        assert!(allocations(&rec).is_empty(), "{s}");
    }
}

#[test]
fn assign_container_fifo_leaf_beside_fair_parent() {
    // testAssignContainer: two nodes of 8 GB; root holds a fifo leaf and a fair parent with
    // two children; four apps of 4 × 1 GB: fifo app1 and app4, fairChild1 app2, fairChild2
    // app3. Every 4 containers: 2 to the fifo leaf (app1 until it is full, then app4) and 1
    // to each fair child.
    let xml = r#"<allocations>
      <queue name="fifo"><schedulingPolicy>fifo</schedulingPolicy></queue>
      <queue name="fairParent"><queue name="fairChild1"/><queue name="fairChild2"/></queue>
    </allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "fifo", "user1", 4, GB, 1, LONG),
            app(0, "fairParent.fairChild1", "user1", 4, GB, 1, LONG),
            app(0, "fairParent.fairChild2", "user1", 4, GB, 1, LONG),
            app(0, "fifo", "user1", 4, GB, 1, LONG),
        ];
        let (rec, _) = run_recorded(&fair_scenario(
            s,
            xml,
            2,
            Resource::new(8 * GB, 8),
            apps,
            60_000,
        ));
        // After 4, 8, 12 and 16 containers: (app1, app2, app3, app4).
        let want = [[2, 1, 1, 0], [4, 2, 2, 0], [4, 3, 3, 2], [4, 4, 4, 4]];
        for (k, w) in want.iter().enumerate() {
            assert_eq!(
                counts_after(&rec, 4 * (k + 1), 4),
                w.to_vec(),
                "{s} after {} containers",
                4 * (k + 1)
            );
        }
    }
}

#[test]
fn simple_container_allocation_normalises_the_ask_to_the_minimum() {
    // testSimpleContainerAllocation: an ask of 512 MB / 2 vcores is normalised to the
    // minimum allocation, 1024 MB; queue1 then uses 1024 MB and 2 vcores. Hadoop's second
    // node (512 MB) can hold no normalised container; it is left out, so the one node of
    // 1024 MB is all the cluster can give and the second container never runs.
    for s in ERAS {
        let sc = fair_scenario(
            s,
            "<allocations/>",
            1,
            Resource::new(GB, 4),
            vec![app(0, "queue1", "user1", 2, 512, 2, LONG)],
            60_000,
        );
        let (rec, _) = run_recorded(&sc);
        let got = allocations(&rec);
        assert_eq!(got.len(), 1, "{s}");
        assert_eq!(got[0].size, Resource::new(GB, 2), "{s}");
    }
}

#[test]
fn dynamic_max_assign_gives_half_the_free_node_per_heartbeat() {
    // testDynamicMaxAssign (Hadoop 3 only): assignmultiple with dynamic max-assign on a node
    // of 8 GB / 8 vcores and 12 asks of 1 GB: whatever maxAssign says, a heartbeat assigns
    // until half the free resources are gone: 5, then 2, then 1 container.
    let mut sc = fair_scenario(
        Semantics::Hadoop33,
        "<allocations/>",
        1,
        Resource::new(8 * GB, 8),
        vec![app(0, "root.default", "user", 12, GB, 1, LONG)],
        60_000,
    );
    sc.scheduler.assignmultiple = true;
    sc.scheduler.dynamic_max_assign = true;
    sc.scheduler.max_assign = 2;
    let (rec, _) = run_recorded(&sc);
    let mut per_heartbeat: Vec<(u64, usize)> = vec![];
    for d in allocations(&rec) {
        match per_heartbeat.last_mut() {
            Some((t, n)) if *t == d.time.0 => *n += 1,
            _ => per_heartbeat.push((d.time.0, 1)),
        }
    }
    let counts: Vec<usize> = per_heartbeat.iter().map(|&(_, n)| n).collect();
    assert_eq!(counts, vec![5, 2, 1]);
}

#[test]
fn child_max_resources_caps_each_created_child() {
    // testChildMaxResources (Hadoop 3 only; the part before the file is reloaded): parent
    // queueA with maxChildResources 2048 MB / 2 vcores; apps of 8 × 1 GB in the children
    // queueA.queueB and queueA.queueC, created at submission, run 2 containers each.
    let xml = r#"<allocations><queue name="queueA" type="parent">
      <maxChildResources>2048mb,2vcores</maxChildResources></queue></allocations>"#;
    let apps = vec![
        app(0, "queueA.queueB", "user1", 8, GB, 1, LONG),
        app(0, "queueA.queueC", "user1", 8, GB, 1, LONG),
    ];
    let (rec, _) = run_recorded(&fair_scenario(
        Semantics::Hadoop33,
        xml,
        1,
        Resource::new(8 * GB, 8),
        apps,
        60_000,
    ));
    assert_eq!(counts_after(&rec, usize::MAX, 2), vec![2, 2]);
}

/// An app with an AM container of `am_mb` MB / 1 vcore and `count` tasks of 1 GB running
/// `duration_ms` each.
fn managed(arrival: u64, queue: &str, am_mb: i64, count: u32, duration_ms: u64) -> AppSpec {
    let mut a = app(arrival, queue, "user1", count, GB, 1, LONG);
    a.am = Some(Resource::new(am_mb, 1));
    a.stages[0][0].duration_ms = duration_ms;
    a
}

#[test]
fn queue_max_am_share_admits_two_one_gb_ams_of_a_2048_mb_limit() {
    // testQueueMaxAMShare: one node of 20 GB; queue1 has maxAMShare 0.2 and, with
    // root.default active beside it, a fair share of 10 GB: an AM limit of 2048 MB. Two AMs
    // of 1 GB run; the third waits until the first app leaves; an AM of 2 GB waits until no
    // other AM runs in the queue.
    let xml =
        r#"<allocations><queue name="queue1"><maxAMShare>0.2</maxAMShare></queue></allocations>"#;
    // One container per heartbeat (one a second): app1's AM goes at the second heartbeat,
    // app2's at the third.
    let apps = || {
        vec![
            app(0, "root.default", "user1", 1, GB, 1, LONG),
            managed(10, "queue1", GB, 1, 5_000),
            managed(20, "queue1", GB, 1, 20_000),
            managed(30, "queue1", GB, 1, 20_000),
            managed(40, "queue1", 2 * GB, 1, 1_000),
        ]
    };
    for s in ERAS {
        let (rec, _) = run_recorded(&fair_scenario(
            s,
            xml,
            1,
            Resource::new(20 * GB, 20),
            apps(),
            60_000,
        ));
        let first = first_allocations(&rec, 5);
        let (a1, a2) = (first[1].expect("app1 runs"), first[2].expect("app2 runs"));
        assert!(a1 <= 1_000 && a2 <= 2_000, "{s}: {first:?}");
        let a3 = first[3].expect("app3 runs once app1 leaves");
        assert!(a3 >= a1 + 5_000, "{s}: app3 waits for app1: {first:?}");
        let a4 = first[4].expect("the 2 GB AM runs once app2 and app3 leave");
        assert!(
            a4 >= a3 + 20_000,
            "{s}: the 2 GB AM waits for both: {first:?}"
        );
        // The default maxAMShare (0.5 of 10 GB) lets app3 in at once: the wait above is the
        // 0.2.
        let (rec, _) = run_recorded(&fair_scenario(
            s,
            "<allocations><queue name=\"queue1\"/></allocations>",
            1,
            Resource::new(20 * GB, 20),
            apps(),
            60_000,
        ));
        let first = first_allocations(&rec, 5);
        assert!(first[3].is_some_and(|t| t <= 3_000), "{s}: {first:?}");
    }
}

#[test]
fn request_am_resource_in_zero_fair_share_queue() {
    // testRequestAMResourceInZeroFairShareQueue (Hadoop 3 only): node 8 GB / 20 vcores.
    // queue1 has weight 0 and maxResources 4096 MB, so its AM limit is max share × 0.5 =
    // 2048 MB: a 3 GB AM never runs, a 2 GB AM does. queue3's weight 0.000001 gives it a
    // fair share of 0, and its 1 GB AM still runs.
    let xml = r#"<allocations>
      <queue name="queue1"><weight>0.0</weight><maxResources>4096mb,10vcores</maxResources><maxAMShare>0.5</maxAMShare></queue>
      <queue name="queue2"><weight>2.0</weight></queue>
      <queue name="queue3"><weight>0.000001</weight></queue>
    </allocations>"#;
    let apps = vec![
        app(0, "root.queue2", "user2", 1, GB, 1, LONG),
        managed(10, "root.queue1", 3 * GB, 0, 1_000),
        managed(20, "root.queue1", 2 * GB, 0, 1_000),
        managed(30, "root.queue3", GB, 0, 1_000),
    ];
    let (rec, _) = run_recorded(&fair_scenario(
        Semantics::Hadoop33,
        xml,
        1,
        Resource::new(8 * GB, 20),
        apps,
        60_000,
    ));
    let first = first_allocations(&rec, 4);
    assert_eq!(first[1], None, "the 3 GB AM exceeds 2048 MB: {first:?}");
    assert!(first[2].is_some() && first[3].is_some(), "{first:?}");
}

#[test]
fn multiple_nodes_single_rack_request() {
    // testMultipleNodesSingleRackRequest: two nodes of 1 GB on one rack; one app asks for
    // two containers on node1, node2 or a third host on another rack. node1's heartbeat
    // gives the first, node-local; node2's the second.
    for s in ERAS {
        let mut a = app(0, "queue1", "user1", 2, GB, 1, LONG);
        a.stages[0][0].hosts = vec!["node0".into(), "node1".into(), "node2".into()];
        let (rec, _) = run_recorded(&fair_scenario(
            s,
            "<allocations/>",
            2,
            Resource::new(GB, 1),
            vec![a],
            60_000,
        ));
        let got: Vec<(u32, DecisionKind)> =
            allocations(&rec).iter().map(|d| (d.node, d.kind)).collect();
        assert_eq!(got.len(), 2, "{s}: {got:?}");
        assert_eq!(got[0].0, 0, "{s}: node1 first: {got:?}");
        assert_eq!(got[1].0, 1, "{s}: then node2: {got:?}");
        assert!(
            allocations(&rec)[1].time.0 < 1_000,
            "{s}: in the first round"
        );
    }
}

// TestFairSchedulerPreemption (Hadoop 3): the class's cluster, queues and greedy app are
// those of `hadoop_tests.rs`; here the starving app asks for larger containers.

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

#[test]
fn app_not_preempted_below_fair_share() {
    // testAppNotPreemptedBelowFairShare, in the class's four modes (min-share or fair-share
    // preemption, fair or DRF queues): two nodes of 4 GB / 12 vcores; the greedy app holds 8
    // containers of 1 GB in child-1; an app in child-2 asks for 4 containers of 3 GB /
    // 3 vcores. Preemption takes 3 of the greedy app's containers, not 4: a fourth would put
    // it below its fair share. The greedy app keeps 5, the starving app gets 1.
    for fair_share in [false, true] {
        for drf in [false, true] {
            let xml = preemption_xml(fair_share, drf);
            let apps = vec![
                app(0, "preemptable.child-1", "default", 8, GB, 1, LONG),
                app(10_000, "preemptable.child-2", "default", 4, 3 * GB, 3, LONG),
            ];
            let mut sc = fair_scenario(
                Semantics::Hadoop33,
                &xml,
                2,
                Resource::new(4 * GB, 12),
                apps,
                60_000,
            );
            sc.scheduler.preemption = true;
            sc.scheduler.preemption_utilization_threshold = 0.0;
            sc.scheduler.wait_before_kill_ms = 0;
            let (rec, sum) = run_recorded(&sc);
            let got = counts_after(&rec, usize::MAX, 2);
            let preempted = metric(&sum, "preempted_containers.root.preemptable.child-1") as usize;
            assert_eq!(
                (got[0] - preempted, got[1]),
                (5, 1),
                "fair-share={fair_share} drf={drf}: allocations {got:?}, preempted {preempted}"
            );
        }
    }
}

#[test]
fn fair_share_and_weights_in_nested_user_queue_rule() {
    // testFairShareAndWeightsInNestedUserQueueRule: policy nestedUserQueue(specified,
    // create=false) then default; parent parentq (min 1024 MB). user1 and user2 submit to
    // root.parentq and get root.parentq.user1 and root.parentq.user2, created with weight 1;
    // user3 submits to root.default. On one 16 GB node each user queue's fair share and
    // steady fair share is a quarter of the node, 4096 MB.
    let xml = r#"<allocations>
      <queue name="parentq" type="parent"><minResources>1024mb,0vcores</minResources></queue>
      <queuePlacementPolicy>
        <rule name="nestedUserQueue"><rule name="specified" create="false"/></rule>
        <rule name="default"/>
      </queuePlacementPolicy></allocations>"#;
    for s in ERAS {
        let apps = vec![
            app(0, "root.parentq", "user1", 10, GB, 1, LONG),
            app(0, "root.parentq", "user2", 10, GB, 1, LONG),
            app(0, "root.default", "user3", 10, GB, 1, LONG),
        ];
        let mut sc = fair_scenario(s, xml, 1, Resource::new(16 * GB, 16), apps, 60_000);
        sc.sample_interval_ms = 5_000;
        let (rec, _) = run_sampled(&sc);
        let (_, last) = rec.samples.last().expect("samples");
        for user in ["user1", "user2"] {
            let q = format!("root.parentq.{user}");
            let sample = last
                .iter()
                .find(|x| x.queue == q)
                .unwrap_or_else(|| panic!("{s}: no queue {q}"));
            assert_eq!(
                (
                    sample.fair_share.memory_mb,
                    sample.steady_fair_share.memory_mb
                ),
                (4 * GB, 4 * GB),
                "{s}: {q}"
            );
        }
    }
}

#[test]
fn reservation_threshold_gates_reservations() {
    // testReservationThresholdGatesReservations (Hadoop 3 only), up to the node it adds:
    // DRF queues, a reservation threshold of 2 × the increment allocation (2048 MB,
    // 2 vcores), one node of 4096 MB / 4 vcores held whole by queue1. In queue2 an ask of
    // 1024 MB / 1 vcore is below the threshold and reserves nothing; one of 1024 MB /
    // 3 vcores is above it in vcores and reserves the node.
    let xml = r#"<allocations><defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy></allocations>"#;
    let apps = vec![
        app(0, "queue1", "user1", 1, 4 * GB, 4, LONG),
        app(100, "queue2", "user1", 1, GB, 1, LONG),
        app(5_000, "queue2", "user1", 1, GB, 3, LONG),
    ];
    let mut sc = fair_scenario(
        Semantics::Hadoop33,
        xml,
        1,
        Resource::new(4 * GB, 4),
        apps,
        60_000,
    );
    sc.scheduler.reservation_threshold_increment_multiple = 2.0;
    let (rec, _) = run_recorded(&sc);
    let reserved = |a: u32| {
        rec.decisions
            .iter()
            .filter(|d| d.app == a && d.kind == DecisionKind::Reserved)
            .count()
    };
    assert_eq!((reserved(1), reserved(2)), (0, 1));
}

#[test]
fn queue_name_with_trailing_space_is_rejected() {
    // testQueueNameWithTrailingSpace (Hadoop 3 only): "A" is accepted, "A " and "A" with a
    // non-breaking space are rejected, "B.C" is accepted.
    let apps = vec![
        app(0, "A", "user1", 1, GB, 1, LONG),
        app(1, "A ", "user1", 1, GB, 1, LONG),
        app(2, "B.C", "user1", 1, GB, 1, LONG),
        app(3, "A\u{00a0}", "user1", 1, GB, 1, LONG),
    ];
    let (rec, sum) = run_recorded(&fair_scenario(
        Semantics::Hadoop33,
        "<allocations/>",
        1,
        Resource::new(8 * GB, 8),
        apps,
        60_000,
    ));
    assert_eq!(metric(&sum, "apps_rejected"), 2.0);
    assert_eq!(counts_after(&rec, usize::MAX, 4), vec![1, 0, 1, 0]);
}

#[test]
fn user_as_default_queue_trims_the_user_name() {
    // testUserAsDefaultQueueWithLeadingTrailingSpaceUserName (Hadoop 3 only): apps of
    // "  user1", "user1  " and "user1" submitted to default all land in root.user1.
    let apps: Vec<AppSpec> = ["  user1", "user1  ", "user1"]
        .iter()
        .enumerate()
        .map(|(i, user)| {
            let mut a = app(i as u64, "default", user, 1, GB, 1, LONG);
            a.stages[0][0].duration_ms = 1_000;
            a
        })
        .collect();
    let (_, sum) = run_recorded(&fair_scenario(
        Semantics::Hadoop33,
        "<allocations/>",
        1,
        Resource::new(8 * GB, 8),
        apps,
        60_000,
    ));
    assert_eq!(metric(&sum, "apps_rejected"), 0.0);
    assert_eq!(metric(&sum, "apps_finished.root.user1"), 3.0);
}

#[test]
fn container_reservation_attempt_exceeding_queue_max() {
    // testContainerReservationAttemptExceedingQueueMax: one node of 3072 MB / 5 vcores;
    // queue1 may hold 2048 MB, queue2 2048 MB. queue1 takes 2048 MB and queue2 1024 MB: the
    // node is full. A second queue1 app asking 1024 MB fits neither the node nor queue1's
    // max (2048 + 1024 > 2048): it gets no reservation, in either era. With queue1's max at
    // 3072 MB the same ask reserves the node (2.7 always, 3.3 because the app is below its
    // fair share), so the refusal is the max's.
    let xml = |max_mb: i64| {
        format!(
            "<allocations><queue name=\"root\"><queue name=\"queue1\">\
             <maxResources>{max_mb}mb,5vcores</maxResources></queue><queue name=\"queue2\">\
             <maxResources>2048mb,10vcores</maxResources></queue></queue></allocations>"
        )
    };
    let apps = || {
        vec![
            app(0, "queue1", "user1", 1, 2 * GB, 1, LONG),
            app(10, "queue2", "user2", 1, GB, 1, LONG),
            app(20, "queue1", "user1", 1, GB, 1, LONG),
        ]
    };
    for s in ERAS {
        let reserved = |rec: &MemoryRecorder| {
            rec.decisions
                .iter()
                .filter(|d| d.app == 2 && d.kind == DecisionKind::Reserved)
                .count()
        };
        let sc = |max_mb, multiple: Option<f64>| {
            let mut sc =
                fair_scenario(s, &xml(max_mb), 1, Resource::new(3 * GB, 5), apps(), 60_000);
            if let Some(m) = multiple {
                sc.scheduler.reservation_threshold_increment_multiple = m;
            }
            sc
        };
        for (max_mb, multiple, want) in
            [(2048, None, 0), (2048, Some(1.0), 0), (3072, Some(1.0), 1)]
        {
            let (rec, _) = run_recorded(&sc(max_mb, multiple));
            assert_eq!(counts_after(&rec, 3, 3), vec![1, 1, 0], "{s}");
            assert_eq!(
                reserved(&rec),
                want,
                "{s}: max {max_mb} MB, threshold × {multiple:?}"
            );
        }
    }
}

#[test]
fn compute_max_am_resource_of_zero_weight_queues() {
    // testComputeMaxAMResource (Hadoop 3 only): one node of 20 GB / 20 vcores, DRF queues,
    // maxAMShare 0.5. A queue of weight 0 has a fair share of 0, so its AM limit is
    // min(max share, available) × 0.5, rounded up:
    // - with maxResources 4096 MB / 4 vcores, 2048 MB / 2 vcores: a 2 GB AM runs, and a
    //   second AM of 1 GB does not while the first holds the limit (2048 + 1024 > 2048);
    // - without a max, the available resource: with a 4 GB container of another queue
    //   running, (20480 − 4096) × 0.5 = 8192 MB and ⌈19 × 0.5⌉ = 10 vcores. An 8 GB AM runs,
    //   a 9 GB one never does (a limit of the max share, 20 GB × 0.5, would let it run).
    // A queue of non-zero weight uses its fair share × maxAMShare, pinned by
    // `queue_max_am_share_admits_two_one_gb_ams_of_a_2048_mb_limit`.
    let xml = r#"<allocations>
      <queue name="queueFSZeroWithMax"><weight>0</weight><maxAMShare>0.5</maxAMShare><maxResources>4096 mb 4 vcores</maxResources></queue>
      <queue name="queueFSZeroWithAVL"><weight>0.0</weight><maxAMShare>0.5</maxAMShare></queue>
      <queue name="busy"/>
      <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
    </allocations>"#;
    let node = Resource::new(20 * GB, 20);
    let s = Semantics::Hadoop33;
    let (rec, _) = run_recorded(&fair_scenario(
        s,
        xml,
        1,
        node,
        vec![
            managed(0, "queueFSZeroWithMax", 2 * GB, 1, LONG),
            managed(10, "queueFSZeroWithMax", GB, 1, LONG),
        ],
        60_000,
    ));
    let first = first_allocations(&rec, 2);
    assert!(first[0].is_some(), "the 2 GB AM fits 2048 MB: {first:?}");
    assert_eq!(
        first[1], None,
        "2048 + 1024 MB is over the limit: {first:?}"
    );
    for (am_gb, runs) in [(8, true), (9, false)] {
        let (rec, _) = run_recorded(&fair_scenario(
            s,
            xml,
            1,
            node,
            vec![
                app(0, "busy", "user2", 1, 4 * GB, 1, LONG),
                managed(10, "queueFSZeroWithAVL", am_gb * GB, 1, LONG),
            ],
            60_000,
        ));
        let first = first_allocations(&rec, 2);
        assert_eq!(first[1].is_some(), runs, "a {am_gb} GB AM: {first:?}");
    }
}

#[test]
fn queue_max_am_share_default() {
    // testQueueMaxAMShareDefault (Hadoop 3): one node of 8192 MB / 10 vcores, maximum
    // allocation 6 vcores, fair policy; queue2 has maxAMShare 0.4, queue3 maxResources
    // 10240 MB / 4 vcores, the rest the default 0.5. queue3, queue4 and queue5 each run a
    // 1 GB task. Fair shares split the cluster among active queues whatever their demand:
    // - queue1's 1 GB AM: 4 active queues, fair share 2048, limit 1024: it runs;
    // - queue2's 1 GB AM: 5 active queues, fair share 8192 / 5 (1638 or 1639 after Hadoop's
    //   share search; its test says 1639), limit ⌈0.4 × it⌉ = 656: it never runs;
    // - queue3 (queue2 gone, 4 active): its fair share has no vcores (the fair policy splits
    //   memory only), so the vcore limit is min(max share 4, available 10 − 5 = 5) × 0.5 = 2:
    //   AMs of 1024 MB with 6 or 5 vcores never run, one with 2 vcores does (memory limit
    //   ⌈2048 × 0.5⌉ = 1024).
    let xml = r#"<allocations>
      <queue name="queue1"/><queue name="queue2"><maxAMShare>0.4</maxAMShare></queue>
      <queue name="queue3"><maxResources>10240 mb 4 vcores</maxResources></queue>
      <queue name="queue4"/><queue name="queue5"/>
      <defaultQueueSchedulingPolicy>fair</defaultQueueSchedulingPolicy>
    </allocations>"#;
    let busy = || {
        vec![
            app(0, "queue3", "user1", 1, GB, 1, LONG),
            app(1_000, "queue4", "user1", 1, GB, 1, LONG),
            app(2_000, "queue5", "user1", 1, GB, 1, LONG),
            managed(3_000, "queue1", GB, 1, LONG),
        ]
    };
    let sc = |apps| {
        let mut sc = fair_scenario(
            Semantics::Hadoop33,
            xml,
            1,
            Resource::new(8 * GB, 10),
            apps,
            60_000,
        );
        sc.scheduler.maximum_allocation_vcores = 6;
        sc
    };
    let mut apps = busy();
    apps.push(managed(10_000, "queue2", GB, 1, LONG));
    let (rec, _) = run_recorded(&sc(apps));
    let first = first_allocations(&rec, 5);
    assert!(first[3].is_some(), "queue1's AM runs: {first:?}");
    assert_eq!(first[4], None, "queue2's AM is over 656 MB: {first:?}");
    for (vcores, runs) in [(6, false), (5, false), (2, true)] {
        let mut am = managed(10_000, "queue3", GB, 1, LONG);
        am.am = Some(Resource::new(GB, vcores));
        let mut apps = busy();
        apps.push(am);
        let (rec, _) = run_recorded(&sc(apps));
        let first = first_allocations(&rec, 5);
        assert!(first[3].is_some(), "{first:?}");
        assert_eq!(
            first[4].is_some(),
            runs,
            "an AM of {vcores} vcores: {first:?}"
        );
    }
}

// TestFSAppStarvation (Hadoop 3): two nodes of 4 GB / 4 vcores; an app in root.default
// takes all eight 1 GB / 1 vcore containers; then one app of one 1 GB / 1 vcore container in
// each of no-preemption (fair-share threshold 0), minshare (min 2048 MB / 2 vcores, min-share
// timeout 0, threshold 0), fairshare.child (fair, threshold 1, timeout 0) and drf.child (drf,
// threshold 1, timeout 0); the default policy is drf; the cluster utilization threshold 0.
// Hadoop's test reads the starved apps its mock preemption thread receives (three: minshare,
// fairshare.child, drf.child); here the real preemption thread acts on them: three of the
// default app's containers are preempted (after waitTimeBeforeKill, 15 s) and each starved
// app gets one, while the no-preemption app, never starved, gets none.

const STARVATION_XML: &str = r#"<allocations>
  <queue name="default"/>
  <queue name="no-preemption"><fairSharePreemptionThreshold>0</fairSharePreemptionThreshold></queue>
  <queue name="minshare"><fairSharePreemptionThreshold>0</fairSharePreemptionThreshold><minSharePreemptionTimeout>0</minSharePreemptionTimeout><minResources>2048mb,2vcores</minResources></queue>
  <queue name="fairshare"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold><fairSharePreemptionTimeout>0</fairSharePreemptionTimeout><schedulingPolicy>fair</schedulingPolicy>
    <queue name="child"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold><fairSharePreemptionTimeout>0</fairSharePreemptionTimeout><schedulingPolicy>fair</schedulingPolicy></queue></queue>
  <queue name="drf"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold><fairSharePreemptionTimeout>0</fairSharePreemptionTimeout><schedulingPolicy>drf</schedulingPolicy>
    <queue name="child"><fairSharePreemptionThreshold>1</fairSharePreemptionThreshold><fairSharePreemptionTimeout>0</fairSharePreemptionTimeout><schedulingPolicy>drf</schedulingPolicy></queue></queue>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
</allocations>"#;

/// The starvation cluster with preemption `on` and the utilization `threshold`: containers
/// of the default app preempted, and how many containers each of the four small apps got.
fn starvation_case(on: bool, threshold: f32) -> (f64, Vec<usize>) {
    let mut apps = vec![app(0, "default", "default", 8, GB, 1, LONG)];
    for q in ["no-preemption", "minshare", "fairshare.child", "drf.child"] {
        apps.push(app(10_000, q, "user", 1, GB, 1, LONG));
    }
    let mut sc = fair_scenario(
        Semantics::Hadoop33,
        STARVATION_XML,
        2,
        Resource::new(4 * GB, 4),
        apps,
        60_000,
    );
    sc.scheduler.preemption = on;
    sc.scheduler.preemption_utilization_threshold = threshold;
    let (rec, s) = run_recorded(&sc);
    let got = allocations(&rec);
    let per_app = (1..=4)
        .map(|a| got.iter().filter(|d| d.app == a).count())
        .collect();
    (metric(&s, "preempted_containers.root.default"), per_app)
}

#[test]
fn app_starvation_preemption_enabled() {
    // testPreemptionEnabled: the three apps of the queues that may preempt are starved
    // (minshare for min(2048, its 1024 MB demand), the two children below their fair
    // shares at once, timeout 0); no-preemption's threshold 0 never starves it.
    assert_eq!(starvation_case(true, 0.0), (3.0, vec![0, 1, 1, 1]));
}

#[test]
fn app_starvation_preemption_disabled() {
    // testPreemptionDisabled: no starvation is computed, nothing is preempted.
    assert_eq!(starvation_case(false, 0.0), (0.0, vec![0, 0, 0, 0]));
}

#[test]
fn app_starvation_cluster_utilization_threshold() {
    // testClusterUtilizationThreshold: a threshold of 1.1 is never exceeded (utilization is
    // at most 1), so no app is found starved.
    assert_eq!(starvation_case(true, 1.1), (0.0, vec![0, 0, 0, 0]));
}
