//! AM launch and heartbeat timing (`am_launch_delay_ms`, `am_heartbeat_ms`) through the
//! whole simulator, as Hadoop's SLS models an ApplicationMaster: off by default, on it delays
//! an app's asks to its AM's beats and its tasks' starts to the beat that hears of them.
//!
//! One 8 GB node heartbeating at 0, 1000, 2000, … ms (one container per heartbeat); the app
//! arrives at 300 ms, so its AM beats at 300, 1300, 2300, … ms.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{Decision, DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Heartbeats, Scenario, SchedulerConf, Workload};
use fairsim_sim::{SimTime, run};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

fn group(duration_ms: u64, priority: i32) -> Vec<TaskGroup> {
    vec![TaskGroup {
        count: 1,
        size: Resource::new(GB, 1),
        duration_ms,
        priority,
        hosts: vec![],
        relax_locality: true,
    }]
}

/// A managed app (1 GB AM) arriving at `arrival` with one task per stage.
fn app(arrival: u64, stages: &[u64]) -> AppSpec {
    AppSpec {
        name: format!("app-{arrival}"),
        arrival: SimTime(arrival),
        queue: "default".into(),
        user: "u".into(),
        am: Some(Resource::new(GB, 1)),
        stages: stages
            .iter()
            .enumerate()
            .map(|(k, &d)| group(d, 20 - 10 * k as i32))
            .collect(),
        recorded: None,
    }
}

fn scenario(s: Semantics, conf: SchedulerConf, apps: Vec<AppSpec>) -> Scenario {
    let tree = parse_fair_scheduler_xml(
        "<allocations><queue name=\"default\"/></allocations>",
        "fair-scheduler.xml",
        s,
    )
    .expect("valid allocation file")
    .tree;
    Scenario {
        name: "am-timing".into(),
        path: None,
        cluster: ClusterSpec {
            nodes: 1,
            racks: 1,
            node_memory_mb: 8 * GB,
            node_vcores: 8,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf {
            semantics: s,
            ..conf
        },
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: None,
        sample_interval_ms: 0,
        check_invariants: true,
        explain: false,
        start: None,
        recorded: None,
    }
}

fn timed() -> SchedulerConf {
    SchedulerConf {
        am_launch_delay_ms: 2_000,
        am_heartbeat_ms: 1_000,
        ..SchedulerConf::default()
    }
}

/// Allocation times of app 0's containers (the AM first) and its finish.
fn timeline(sc: &Scenario) -> (Vec<u64>, Option<u64>, Vec<Decision>) {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    let allocated = rec
        .decisions
        .iter()
        .filter(|d| d.app == 0 && matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| d.time.0)
        .collect();
    let finish = rec.apps.first().and_then(|r| r.finish).map(|t| t.0);
    (allocated, finish, rec.decisions)
}

#[test]
fn first_task_waits_for_the_launch_delay_and_the_next_am_heartbeat() {
    // AM allocated at the 1000 ms heartbeat, registered at 3000 ms, asks at its 3300 ms beat;
    // the task is allocated at the 4000 ms heartbeat, heard of (and started) at 4300 ms, runs
    // 10 s to 14,300 ms, is reported at the 15,000 ms heartbeat and heard of at 15,300 ms,
    // when the app ends. Off: the task is allocated at 2000 ms and the app ends at 12,000 ms.
    for s in ERAS {
        let (allocated, finish, _) = timeline(&scenario(s, timed(), vec![app(300, &[10_000])]));
        assert_eq!(allocated, vec![1_000, 4_000], "{s}");
        assert_eq!(finish, Some(15_300), "{s}");
        let off = SchedulerConf::default();
        let (allocated, finish, _) = timeline(&scenario(s, off, vec![app(300, &[10_000])]));
        assert_eq!(allocated, vec![1_000, 2_000], "{s}");
        assert_eq!(finish, Some(12_000), "{s}");
    }
}

#[test]
fn reduces_are_asked_at_the_am_heartbeat_after_the_last_map_is_reported() {
    // Maps: asked 3300, allocated 4000, run 4300–9300, reported 10,000, heard 10,300 ms, when
    // the reduce is asked; allocated 11,000, runs 11,300–12,300, reported 13,000, heard and
    // the app ends at 13,300 ms.
    for s in ERAS {
        let sc = scenario(s, timed(), vec![app(300, &[5_000, 1_000])]);
        let (allocated, finish, _) = timeline(&sc);
        assert_eq!(allocated, vec![1_000, 4_000, 11_000], "{s}");
        assert_eq!(finish, Some(13_300), "{s}");
    }
}

#[test]
fn a_launch_delay_without_heartbeats_asks_at_registration() {
    // Registered at 3000 ms and asking then, after that millisecond's node heartbeat: the
    // task is allocated at the 4000 ms heartbeat and runs from there (10 s, reported at
    // 14,000 ms, when the app ends).
    let conf = SchedulerConf {
        am_heartbeat_ms: 0,
        ..timed()
    };
    for s in ERAS {
        let sc = scenario(s, conf.clone(), vec![app(300, &[10_000])]);
        let (allocated, finish, _) = timeline(&sc);
        assert_eq!(allocated, vec![1_000, 4_000], "{s}");
        assert_eq!(finish, Some(14_000), "{s}");
    }
}

#[test]
fn elided_and_every_heartbeat_agree_with_am_timing() {
    let apps = || {
        (0..10u64)
            .map(|k| app(k * 1_700, &[3_000 + 500 * k, 1_000]))
            .collect::<Vec<_>>()
    };
    for s in ERAS {
        let conf = |heartbeats| SchedulerConf {
            heartbeats,
            ..timed()
        };
        let (_, _, elided) = timeline(&scenario(s, conf(Heartbeats::Elided), apps()));
        let (_, _, every) = timeline(&scenario(s, conf(Heartbeats::Every), apps()));
        assert!(elided.len() >= 30, "{s}: {}", elided.len());
        assert_eq!(elided, every, "{s}");
    }
}
