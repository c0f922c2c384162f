//! Issue-by-issue fidelity checks through the whole simulator: each test is a small
//! allocation file, a trace and a scenario whose outcome YARN's code decides (the Hadoop
//! class and method are named in docs/semantics.md and docs/preemption.md).

mod common;

use common::apps::{LONG_MS, one_stage};
use common::outcomes::{allocation_times, metric};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::run;
use fairsim_sim::scenario::{Scenario, SchedulerConf, Workload};

const C: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

fn app(arrival: u64, queue: &str, count: u32, mb: i64) -> AppSpec {
    one_stage(arrival, queue, "u", count, Resource::new(mb, 1), LONG_MS)
}

/// `nodes` nodes of `node_mb` MB and as many vcores as GB.
fn scenario(
    semantics: Semantics,
    preemption: bool,
    xml: &str,
    nodes: u32,
    node_mb: i64,
    apps: Vec<AppSpec>,
) -> Scenario {
    let node = Resource::new(node_mb, node_mb / C);
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            preemption,
            ..SchedulerConf::default()
        },
        end_ms: Some(120_000),
        ..trace_scenario("fidelity", fair_tree(xml, semantics), nodes, node, apps)
    }
}

// Item 1: preemption state covers queues made by placement rules.

#[test]
fn preemption_with_a_queue_created_at_run_time_takes_back_its_share() {
    // `root.late` does not exist in the file; the default placement creates it at 20 s. Its
    // fair share (half the cluster, from the default fair-share timeout below) is taken
    // back from `root.a`.
    let xml = r#"<allocations>
  <queue name="a"/>
  <defaultFairSharePreemptionTimeout>5</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
</allocations>"#;
    for semantics in ERAS {
        let apps = vec![app(0, "a", 8, C), app(20_000, "late", 8, C)];
        let sc = scenario(semantics, true, xml, 8, C, apps);
        let mut rec = MemoryRecorder::default();
        let s = run(&sc, 1, 0, &mut rec).expect("runs");
        assert_eq!(
            metric(&s, "preempted_containers.root.a"),
            4.0,
            "{semantics}"
        );
        assert_eq!(allocation_times(&rec, 1).len(), 4, "{semantics}");
    }
}

#[test]
fn capacity_preemption_with_an_app_for_an_unknown_queue_does_not_panic() {
    let text = r#"<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
<property><name>yarn.scheduler.capacity.root.a.user-limit-factor</name><value>2</value></property>
</configuration>"#;
    let tree = fairsim_sim::alloc::parse_capacity_scheduler_xml(text, "capacity-scheduler.xml")
        .expect("valid file")
        .tree;
    for semantics in ERAS {
        let mut sc = scenario(semantics, true, "<allocations/>", 8, C, vec![]);
        sc.tree = tree.clone();
        sc.workload = Workload::Trace(vec![
            app(0, "a", 8, C),
            app(10_000, "elsewhere", 4, C),
            app(20_000, "b", 4, C),
        ]);
        let mut rec = MemoryRecorder::default();
        let s = run(&sc, 1, 0, &mut rec).expect("runs");
        // The Capacity Scheduler rejects the app for a queue the file does not have; a
        // (user-limit-factor 2) took the whole cluster, and the monitor runs to the end and
        // reclaims containers for b.
        assert!(
            rec.apps[1]
                .rejected
                .as_deref()
                .is_some_and(|r| r.contains("unknown queue: elsewhere")),
            "{semantics}"
        );
        assert!(allocation_times(&rec, 2).len() >= 3, "{semantics}");
        assert!(metric(&s, "preempted_containers") >= 3.0, "{semantics}");
        assert_eq!(
            metric(&s, "preempted_containers.root.b"),
            0.0,
            "{semantics}"
        );
    }
}

// Item 6: a queue created at run time takes the file's defaults for queues it does not name.

#[test]
fn a_queue_created_at_run_time_takes_queue_max_apps_default() {
    // Two apps of one task each in `root.late`, which the file does not name: the second
    // waits for the first (queueMaxAppsDefault 1), in both eras. Root sets its own limit
    // (the default would otherwise apply to root too).
    let xml = r#"<allocations><queueMaxAppsDefault>1</queueMaxAppsDefault>
  <queue name="root"><maxRunningApps>10</maxRunningApps><queue name="a"/></queue>
</allocations>"#;
    for semantics in ERAS {
        let mut first = app(0, "late", 1, C);
        first.stages[0][0].duration_ms = 10_000;
        let apps = vec![first, app(1_000, "late", 1, C)];
        let sc = scenario(semantics, false, xml, 4, C, apps);
        let mut rec = MemoryRecorder::default();
        run(&sc, 1, 0, &mut rec).expect("runs");
        let second = allocation_times(&rec, 1);
        assert_eq!(second.len(), 1, "{semantics}");
        assert!(second[0] >= 10_000, "{semantics}: {second:?}");
    }
}

#[test]
fn a_queue_created_at_run_time_takes_queue_max_resources_default_in_hadoop33_only() {
    // queueMaxResourcesDefault exists from Hadoop 3 on: the created queue stops at 2 GB in
    // 3.3; 2.7 does not read the element and the queue fills the cluster. Root sets its own
    // max (the default would otherwise apply to root too).
    let xml = r#"<allocations><queueMaxResourcesDefault>2048 mb, 2 vcores</queueMaxResourcesDefault>
  <queue name="root"><maxResources>65536 mb, 64 vcores</maxResources><queue name="a"/></queue>
</allocations>"#;
    for (semantics, want) in [(Semantics::Hadoop27, 8), (Semantics::Hadoop33, 2)] {
        let sc = scenario(semantics, false, xml, 8, C, vec![app(0, "late", 8, C)]);
        let mut rec = MemoryRecorder::default();
        run(&sc, 1, 0, &mut rec).expect("runs");
        assert_eq!(allocation_times(&rec, 0).len(), want, "{semantics}");
    }
}

#[test]
fn a_queue_created_at_run_time_takes_the_default_scheduling_policy() {
    // defaultQueueSchedulingPolicy fifo (2.7 allows it; 3.3 refuses it as a default): the
    // earlier app of the created queue takes every free node before the later one gets any,
    // where fair would split the nodes freed at 10 s between them.
    let xml = "<allocations><defaultQueueSchedulingPolicy>fifo</defaultQueueSchedulingPolicy></allocations>";
    let mut short = app(0, "late", 4, C);
    short.stages[0][0].duration_ms = 10_000;
    let mut early = app(1_000, "late", 8, C);
    early.stages[0][0].duration_ms = 10_000;
    let apps = vec![short, early, app(2_000, "late", 8, C)];
    let sc = scenario(Semantics::Hadoop27, false, xml, 4, C, apps);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    let (b, c) = (allocation_times(&rec, 1), allocation_times(&rec, 2));
    // b's 8 tasks run in two waves of 4 (10 s and 20 s); c starts only after b's last.
    assert_eq!(b.len(), 8);
    assert!(c.iter().all(|&t| t >= 30_000), "{b:?} {c:?}");
}

// Item 2: Hadoop 3 reserves for an app starved as checked when the node is offered.

fn reservations(rec: &MemoryRecorder, a: u32) -> Vec<(u64, u32)> {
    rec.decisions
        .iter()
        .filter(|d| d.app == a && d.kind == DecisionKind::Reserved)
        .map(|d| (d.time.0, d.node))
        .collect()
}

/// Two 4 GB nodes; `a` runs `8 - b_small` tasks of 1 GB from t = 0; at 10 s one app of `b`
/// asks for `b_small` tasks of 1 GB (priority 1), which take the free space, and one
/// `b_mb` container (priority 2), which cannot fit. Returns b's reservations.
fn reservation_run(preemption: bool, b_mb: i64, b_small: u32, multiple: f64) -> Vec<(u64, u32)> {
    let xml = r#"<allocations><queue name="a"/><queue name="b"/></allocations>"#;
    let mut b = app(10_000, "b", b_small, C);
    let mut big = b.stages[0][0].clone();
    big.count = 1;
    big.size = Resource::new(b_mb, 1);
    big.priority = 2;
    b.stages[0].push(big);
    if b_small == 0 {
        b.stages[0].remove(0);
    }
    let apps = vec![app(0, "a", 8 - b_small, C), b];
    let mut sc = scenario(Semantics::Hadoop33, preemption, xml, 2, 4 * C, apps);
    sc.scheduler.reservation_threshold_increment_multiple = multiple;
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    reservations(&rec, 1)
}

#[test]
fn hadoop33_reserves_for_an_app_below_its_fair_share_with_preemption_off() {
    // b's 4 GB container: b uses nothing, its fair share is 4 GB: starved, a node is
    // reserved at its first heartbeat after 10 s although preemption is off.
    let res = reservation_run(false, 4 * C, 0, 2.0);
    assert_eq!(res.len(), 1, "{res:?}");
    assert!((10_000..11_000).contains(&res[0].0), "{res:?}");
}

#[test]
fn hadoop33_does_not_reserve_for_an_app_at_its_fair_share() {
    // b's app already holds 4 of the 8 GB (its fair share): not below it, not starved, no
    // reservation for its 2 GB container (with preemption off there is no min-share
    // starvation either).
    let res = reservation_run(false, 2 * C, 4, 2.0);
    assert!(res.is_empty(), "{res:?}");
    // The same container with the app below its share (3 of 4 GB) reserves.
    let res = reservation_run(false, 2 * C, 3, 2.0);
    assert_eq!(res.len(), 1, "{res:?}");
}

#[test]
fn hadoop33_reservation_threshold_is_configurable() {
    // A 4 GB container reserves with the default multiple (2 × 1024 MB) and with 4, not
    // with 5 (5120 MB).
    assert_eq!(reservation_run(false, 4 * C, 0, 4.0).len(), 1);
    assert!(reservation_run(false, 4 * C, 0, 5.0).is_empty());
}

// Item 3: Hadoop 3 first hands a node's preempted resources to the app they were preempted
// for, then serves the node's reservation.

#[test]
fn hadoop33_preempted_resources_go_to_their_app_before_a_reservation() {
    // a fills two 4 GB nodes; b (min share 1 GB, timeout 1 s) asks 1 GB at 20 s and gets a
    // container of a preempted for it; c asks 4 GB at 22 s and, below its fair share,
    // reserves the node being freed. When the kill frees 1 GB there, b takes it although
    // c's reservation (which cannot fit) is on the node.
    let xml = r#"<allocations>
  <queue name="a"/>
  <queue name="b"><minResources>1024 mb, 1 vcores</minResources><minSharePreemptionTimeout>1</minSharePreemptionTimeout></queue>
  <queue name="c"/>
</allocations>"#;
    let apps = vec![
        app(0, "a", 8, C),
        app(20_000, "b", 1, C),
        app(22_000, "c", 1, 4 * C),
    ];
    let sc = scenario(Semantics::Hadoop33, true, xml, 2, 4 * C, apps);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).expect("runs");
    let killed_node = rec
        .decisions
        .iter()
        .find(|d| d.kind == DecisionKind::Reserved && d.app == 2)
        .map(|d| d.node);
    let b = allocation_times(&rec, 1);
    assert!(killed_node.is_some(), "c reserves a node");
    assert_eq!(metric(&s, "preempted_containers.root.a"), 1.0);
    assert_eq!(b.len(), 1, "b gets the freed 1 GB");
    // Chosen at the 21 s update, killed 15 s later, handed to b at that node's heartbeat.
    assert!((36_000..37_000).contains(&b[0]), "{b:?}");
}

// Item 4: Hadoop 3's DRF preemption decides "below fair share" by the dominant share alone.

#[test]
fn hadoop33_drf_preemption_takes_an_app_down_to_its_dominant_fair_share() {
    // Eight nodes of 1 GB and 2 vcores (8 GB, 16 vcores); a's app runs 8 tasks of 1 GB and
    // 1 vcore: usage (8 GB, 8 vcores), dominant share 100%. b arrives and the DRF shares
    // give each queue (4 GB, 8 vcores): dominant share 50%. Taking a's fourth container
    // leaves (4 GB, 4 vcores), dominant share 50%: not below the fair share by the
    // single-type comparison (vcores are 25% against 50%, which the two-type comparison
    // would call below), so four containers go to b.
    let xml = r#"<allocations>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <defaultFairSharePreemptionTimeout>5</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="a"/><queue name="b"/>
</allocations>"#;
    let apps = vec![app(0, "a", 8, C), app(20_000, "b", 8, C)];
    let mut sc = scenario(Semantics::Hadoop33, true, xml, 8, C, apps);
    sc.cluster.node_vcores = 2;
    sc.end_ms = Some(200_000);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).expect("runs");
    assert_eq!(metric(&s, "preempted_containers.root.a"), 4.0);
    assert_eq!(allocation_times(&rec, 1).len(), 4);
}

// Item 5: Hadoop 3's getMaxShare raises a max share below the min share to the min share.

const MAX_BELOW_MIN: &str = r#"<allocations>
  <queue name="a"><minResources>4096 mb, 4 vcores</minResources><maxResources>2048 mb, 2 vcores</maxResources></queue>
  <queue name="b"/>
</allocations>"#;

#[test]
fn hadoop33_raises_a_max_share_below_the_min_share_and_says_so() {
    // 8 nodes of 1 GB; a asks for 8 containers alone. 3.3 caps a at max(2 GB, 4 GB) = 4 GB;
    // 2.7 keeps the 2 GB max and, checking only that usage fits before each container,
    // overshoots it by one container (3 GB).
    for (semantics, want) in [(Semantics::Hadoop27, 3), (Semantics::Hadoop33, 4)] {
        let sc = scenario(
            semantics,
            false,
            MAX_BELOW_MIN,
            8,
            C,
            vec![app(0, "a", 8, C)],
        );
        let mut rec = MemoryRecorder::default();
        run(&sc, 1, 0, &mut rec).expect("runs");
        assert_eq!(allocation_times(&rec, 0).len(), want, "{semantics}");
    }
    let warning = |semantics| {
        parse_fair_scheduler_xml(MAX_BELOW_MIN, "fair-scheduler.xml", semantics)
            .expect("valid")
            .warnings
            .iter()
            .map(|w| w.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(warning(Semantics::Hadoop33).contains("raises the max to the min"));
    assert!(warning(Semantics::Hadoop27).contains("keeps the max"));
}

#[test]
fn hadoop33_max_share_raised_to_min_feeds_the_fair_shares() {
    // Steady fair shares of 8 GB between a (min 4 GB, max 2 GB) and b: 2.7 caps a at its
    // 2 GB max; 3.3 gives it its 4 GB min.
    use fairsim_core::share::ShareKind;
    use fairsim_sim::tree::QueueLoad;
    for (semantics, want) in [(Semantics::Hadoop27, 2048), (Semantics::Hadoop33, 4096)] {
        let tree = parse_fair_scheduler_xml(MAX_BELOW_MIN, "fair-scheduler.xml", semantics)
            .expect("valid")
            .tree;
        let cluster = Resource::new(8 * C, 8);
        let loads = vec![QueueLoad::default(); tree.len()];
        let shares = tree.fair_shares(
            semantics,
            ShareKind::Steady,
            cluster,
            &loads,
            fairsim_core::share::ShareCap::MaxShare,
        );
        let a = tree.find("root.a").expect("a");
        assert_eq!(shares[a.idx()].memory_mb, want, "{semantics}");
        assert_eq!(
            tree.get(a).max_share(cluster).memory_mb,
            want,
            "{semantics}"
        );
    }
}

// Item 9: Hadoop 3.3 validates placement rules as the placement framework does since
// YARN-8967.

/// The shape of Hadoop's test resource fair-scheduler-invalidplacementrules.xml (written
/// anew): DRF queues, a `users` parent, and specified / nestedUserQueue under
/// default(users) / default.
const NESTED_BEFORE_DEFAULT: &str = r#"<allocations>
  <queue name="root">
    <schedulingPolicy>drf</schedulingPolicy>
    <queue name="default"><schedulingPolicy>drf</schedulingPolicy></queue>
    <queue name="users" type="parent">
      <schedulingPolicy>drf</schedulingPolicy>
      <queue name="joe"><maxResources>8192 mb, 4 vcores</maxResources><weight>2.0</weight></queue>
    </queue>
  </queue>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <queuePlacementPolicy>
    <rule name="specified" create="true"/>
    <rule name="nestedUserQueue" create="true">
      <rule name="default" create="true" queue="users"/>
    </rule>
    <rule name="default"/>
  </queuePlacementPolicy>
</allocations>"#;

#[test]
fn nested_user_queue_before_default_loads_in_hadoop27_and_is_refused_in_hadoop33() {
    let tree = parse_fair_scheduler_xml(NESTED_BEFORE_DEFAULT, "f.xml", Semantics::Hadoop27)
        .expect("2.7 accepts it")
        .tree;
    // 2.7 places a user without a specified queue under root.users.
    let sc = Scenario {
        tree,
        ..scenario(Semantics::Hadoop27, false, "<allocations/>", 2, C, vec![])
    };
    let mut a = app(0, "default", 1, C);
    a.user = "alice".into();
    let sc = Scenario {
        workload: Workload::Trace(vec![a]),
        ..sc
    };
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).expect("runs");
    assert_eq!(allocation_times(&rec, 0).len(), 1);
    assert!(
        s.metrics
            .iter()
            .any(|(n, _)| n.ends_with("root.users.alice"))
    );
    let err = parse_fair_scheduler_xml(NESTED_BEFORE_DEFAULT, "f.xml", Semantics::Hadoop33)
        .expect_err("3.3 refuses it")
        .to_string();
    assert!(err.contains("can never be reached"), "{err}");
    assert!(err.contains("nestedUserQueue"), "{err}");
    assert!(err.contains("f.xml"), "{err}");
}
