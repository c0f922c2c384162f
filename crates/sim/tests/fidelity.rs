//! Issue-by-issue fidelity checks through the whole simulator: each test is a small
//! allocation file, a trace and a scenario whose outcome YARN's code decides (the Hadoop
//! class and method are named in docs/semantics.md and docs/preemption.md).

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::{RunSummary, SimTime, run};

const C: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

fn app(arrival: u64, queue: &str, count: u32, mb: i64) -> AppSpec {
    AppSpec {
        name: format!("{queue}-{arrival}"),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: "u".into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(mb, 1),
            duration_ms: 1_000_000,
            priority: 1,
            hosts: vec![],
        }]],
        recorded: None,
    }
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
    let tree = parse_fair_scheduler_xml(xml, "fair-scheduler.xml", semantics)
        .expect("valid allocation file")
        .tree;
    Scenario {
        name: "fidelity".into(),
        path: None,
        cluster: ClusterSpec {
            nodes,
            racks: 1,
            node_memory_mb: node_mb,
            node_vcores: node_mb / C,
        },
        scheduler: SchedulerConf {
            semantics,
            preemption,
            ..SchedulerConf::default()
        },
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: Some(120_000),
        sample_interval_ms: 0,
        check_invariants: true,
    }
}

fn allocation_times(rec: &MemoryRecorder, a: u32) -> Vec<u64> {
    rec.decisions
        .iter()
        .filter(|d| d.app == a && matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| d.time.0)
        .collect()
}

fn metric(summary: &RunSummary, name: &str) -> f64 {
    summary
        .metrics
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .1
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
        // The monitor runs to the end and reclaims containers for b (whatever the scheduler
        // made of the app submitted to a queue the file does not have).
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
