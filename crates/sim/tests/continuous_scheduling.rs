//! Continuous scheduling (`[scheduler] continuous_scheduling`) through the whole simulator:
//! passes over the nodes sorted by free memory, Hadoop 2.7's heartbeats that schedule only
//! when they report completions, and time-based delay scheduling per era, with the numbers of
//! TestContinuousScheduling and TestFairScheduler's continuous-scheduling cases.
//!
//! Nodes heartbeat every 1000 ms: with two nodes `node0` beats at 0, 1000, … and `node1` at
//! 500, 1500, …; passes run every 5 ms (Hadoop's default sleep), after the heartbeats of
//! their millisecond.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::{parse_capacity_scheduler_xml, parse_fair_scheduler_xml};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{Decision, DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Heartbeats, Scenario, SchedulerConf, Workload};
use fairsim_sim::{SimTime, run};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// An unmanaged app with one group of `count` tasks of `mb` MB.
fn app(arrival: u64, count: u32, mb: i64, duration_ms: u64, hosts: &[&str]) -> AppSpec {
    AppSpec {
        name: format!("app-{arrival}-{duration_ms}"),
        arrival: SimTime(arrival),
        queue: "default".into(),
        user: "u".into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(mb, 1),
            duration_ms,
            priority: 1,
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
            relax_locality: true,
        }]],
        recorded: None,
    }
}

const ONE_QUEUE: &str = "<allocations><queue name=\"default\"/></allocations>";

fn scenario(
    semantics: Semantics,
    racks: u32,
    node_mb: i64,
    conf: SchedulerConf,
    apps: Vec<AppSpec>,
) -> Scenario {
    scenario_with(ONE_QUEUE, semantics, racks, node_mb, conf, apps)
}

fn scenario_with(
    xml: &str,
    semantics: Semantics,
    racks: u32,
    node_mb: i64,
    conf: SchedulerConf,
    apps: Vec<AppSpec>,
) -> Scenario {
    let tree = parse_fair_scheduler_xml(xml, "fair-scheduler.xml", semantics)
        .expect("valid allocation file")
        .tree;
    Scenario {
        name: "continuous".into(),
        path: None,
        cluster: ClusterSpec {
            nodes: 2,
            racks,
            node_memory_mb: node_mb,
            node_vcores: 8,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf { semantics, ..conf },
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: Some(60_000),
        sample_interval_ms: 0,
        check_invariants: true,
        explain: false,
        start: None,
        recorded: None,
    }
}

fn continuous() -> SchedulerConf {
    SchedulerConf {
        continuous_scheduling: true,
        ..SchedulerConf::default()
    }
}

/// `conf` with update ticks every 100 ms.
fn ticks_every_100(conf: SchedulerConf) -> SchedulerConf {
    SchedulerConf {
        update_interval_ms: 100,
        ..conf
    }
}

fn decisions(sc: &Scenario) -> Vec<Decision> {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    rec.decisions
}

/// `(time, node)` of app `a`'s allocations.
fn placements(sc: &Scenario, a: u32) -> Vec<(u64, u32)> {
    decisions(sc)
        .iter()
        .filter(|d| d.app == a && matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| (d.time.0, d.node))
        .collect()
}

#[test]
fn a_pass_places_two_containers_on_two_nodes_at_once() {
    // testSortedNodes / testBasic: two 8 GB nodes, an ask of two 1 GB containers at 100 ms.
    // The pass at 100 ms offers both nodes: one container each, at once. With heartbeats
    // alone they come at node1's beat (500 ms) and node0's (1000 ms). Hadoop 3.3 offers a
    // node only to apps whose demand an update has seen (`fetchAppsWithDemand`; Hadoop's
    // test waits for its update thread in `checkAppConsumption`): update ticks every 100 ms
    // here put one at the arrival, before the pass of that millisecond.
    for s in ERAS {
        let apps = || vec![app(100, 2, GB, 30_000, &[])];
        let on = scenario(s, 1, 8 * GB, ticks_every_100(continuous()), apps());
        assert_eq!(placements(&on, 0), vec![(100, 0), (100, 1)], "{s}");
        let off = scenario(s, 1, 8 * GB, SchedulerConf::default(), apps());
        assert_eq!(placements(&off, 0), vec![(500, 1), (1000, 0)], "{s}");
    }
}

#[test]
fn a_pass_offers_the_emptiest_node_first() {
    // testContinuousScheduling: a first ask (100 ms) takes node0 (equal free memory: index
    // order); a second ask (200 ms) goes to node1, now the emptiest (8 GB against 7 GB),
    // though node0 could hold it too: the two containers land on two nodes. Update ticks
    // every 100 ms (see above) let 3.3 offer each ask at its arrival.
    for s in ERAS {
        let sc = scenario(
            s,
            1,
            8 * GB,
            ticks_every_100(continuous()),
            vec![app(100, 1, GB, 30_000, &[]), app(200, 1, GB, 30_000, &[])],
        );
        assert_eq!(placements(&sc, 0), vec![(100, 0)], "{s}");
        assert_eq!(placements(&sc, 1), vec![(200, 1)], "{s}");
    }
}

#[test]
fn hadoop27_heartbeats_schedule_only_when_they_report_completions() {
    // node0 and node1 of 1 GB. app0 holds node0 until its heartbeat at 5000 ms; app1 arrives
    // at 100 ms while node1 is free. A long sleep (10 s) leaves 10,000 ms as the next pass.
    // In 2.7 node1's heartbeats report no completion and schedule nothing; node0's at
    // 5000 ms reports app0's and schedules app1 there. In 3.3 every heartbeat schedules:
    // node1's at 500 ms.
    let conf = SchedulerConf {
        continuous_scheduling_sleep_ms: 10_000,
        ..continuous()
    };
    let apps = || {
        vec![
            app(0, 1, GB, 5_000, &["node0"]),
            app(100, 1, GB, 1_000, &[]),
        ]
    };
    let s27 = scenario(Semantics::Hadoop27, 1, GB, conf.clone(), apps());
    assert_eq!(placements(&s27, 1), vec![(5_000, 0)]);
    let s33 = scenario(Semantics::Hadoop33, 1, GB, conf, apps());
    assert_eq!(placements(&s33, 1), vec![(500, 1)]);
}

#[test]
fn time_based_delay_relaxes_from_the_start_in_hadoop27_and_from_the_first_look_in_hadoop33() {
    // node0 (rack0) and node1 (rack1) of 1 GB, locality delays of 3000 ms, a user running
    // two apps at most. app0 holds node0 until 5000 ms, app1 holds node1 until 20,500 ms.
    // app2 arrives at 100 ms asking for node1 and becomes runnable when app0 ends, at node0's
    // heartbeat of 5000 ms, which first offers it a node.
    // 2.7 measures the wait from the app's start: at the pass of 5000 ms 4900 ms have passed,
    // so it relaxes to rack-local there; 3000 ms later (8005 ms, the first pass past the
    // delay) to off-switch, and takes node0.
    // 3.3 starts the clock at the first offer (5000 ms; testFairSchedulerContinuousSchedulingInitTime):
    // rack-local at 8005 ms, off-switch and node0 at 11,010 ms (node0's heartbeat at
    // 11,000 ms is 2995 ms after the change, not past the delay).
    // Without continuous scheduling (count-based delay off) app2 takes node0 at 5000 ms.
    let xml = "<allocations><user name=\"u\"><maxRunningApps>2</maxRunningApps></user>\
               </allocations>";
    let conf = SchedulerConf {
        locality_delay_node_ms: 3_000,
        locality_delay_rack_ms: 3_000,
        ..continuous()
    };
    let apps = || {
        vec![
            app(0, 1, GB, 5_000, &[]),
            app(0, 1, GB, 20_000, &[]),
            app(100, 1, GB, 1_000, &["node1"]),
        ]
    };
    let sc = |s, conf: &SchedulerConf| scenario_with(xml, s, 2, GB, conf.clone(), apps());
    let got = |s, conf: &SchedulerConf| placements(&sc(s, conf), 2);
    assert_eq!(got(Semantics::Hadoop27, &conf), vec![(8_005, 0)]);
    assert_eq!(got(Semantics::Hadoop33, &conf), vec![(11_010, 0)]);
    for s in ERAS {
        assert_eq!(got(s, &SchedulerConf::default()), vec![(5_000, 0)], "{s}");
        // The blockers: app0 on node0, app1 on node1, both at 0 ms.
        let run = sc(s, &conf);
        assert_eq!(placements(&run, 0), vec![(0, 0)], "{s}");
        assert_eq!(placements(&run, 1), vec![(0, 1)], "{s}");
    }
}

#[test]
fn elided_and_every_heartbeat_make_the_same_decisions_with_continuous_scheduling() {
    // Heartbeat elision stays exact with passes running: a mixed workload, both eras, with
    // and without time-based delays.
    let apps = || {
        (0..12u64)
            .map(|k| {
                let hosts: &[&str] = match k % 3 {
                    0 => &[],
                    1 => &["node0"],
                    _ => &["node1"],
                };
                app(k * 700, 1 + (k % 4) as u32, GB, 2_000 + 900 * k, hosts)
            })
            .collect::<Vec<_>>()
    };
    for s in ERAS {
        for delay in [-1, 1_500] {
            let conf = |heartbeats| SchedulerConf {
                heartbeats,
                locality_delay_node_ms: delay,
                locality_delay_rack_ms: delay,
                continuous_scheduling_sleep_ms: 50,
                ..continuous()
            };
            let elided = decisions(&scenario(s, 2, 4 * GB, conf(Heartbeats::Elided), apps()));
            let every = decisions(&scenario(s, 2, 4 * GB, conf(Heartbeats::Every), apps()));
            assert!(elided.len() > 20, "{s}: {}", elided.len());
            assert_eq!(elided, every, "{s} delay {delay}");
        }
    }
}

#[test]
fn continuous_scheduling_with_the_capacity_scheduler_is_refused() {
    let xml = "<configuration><property><name>yarn.scheduler.capacity.root.queues</name>\
               <value>default</value></property><property>\
               <name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value>\
               </property></configuration>";
    let tree = parse_capacity_scheduler_xml(xml, "capacity-scheduler.xml")
        .expect("valid file")
        .tree;
    let mut sc = scenario(Semantics::Hadoop27, 1, GB, continuous(), vec![]);
    sc.tree = tree;
    let mut rec = MemoryRecorder::default();
    let err = run(&sc, 1, 0, &mut rec).expect_err("refused").to_string();
    assert!(
        err.contains("continuous_scheduling is a Fair Scheduler setting"),
        "{err}"
    );
}
