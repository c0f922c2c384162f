//! Idle update ticks jumped over are exact: over random scenarios with long idle gaps between
//! arrivals and containers far longer than the update interval, in both eras, with and
//! without preemption, the booster, sampling, delay scheduling, continuous scheduling, AM
//! timing, elided heartbeats and `end_ms`, the engine that skips idle ticks makes the same
//! decisions at the same times, writes the same samples and app records and the same
//! summary (events included) as the engine that processes every tick.
//!
//! Also: a container of the longest duration a trace may give, with nothing else going on,
//! costs a handful of ticks, not one per update interval.

use fairsim_core::{Booster, Resource};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{Heartbeats, Scenario, SchedulerConf};
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec};
use fairsim_sim::{Counters, RunSummary, SimTime, Simulation};
use proptest::prelude::*;

mod common;
use common::generator;
use common::scenarios::{capacity_tree, capacity_xml};
use proptest::test_runner::TestRunner;

/// One generated app: arrival, queue, tasks, task size (512 MB units), duration, AM, a
/// second stage, a preferred host.
type GenApp = (u64, usize, u32, i64, u64, bool, bool, Option<u32>);

#[derive(Debug, Clone)]
struct Case {
    nodes: u32,
    heartbeat_ms: u64,
    weights: Vec<f32>,
    apps: Vec<GenApp>,
    era33: bool,
    preemption: bool,
    booster: bool,
    locality: bool,
    elided: bool,
    /// Bits: 1 AM timing, 1 and 2 continuous scheduling, 4 a cycle watch off, 8 a stall
    /// watch off.
    extras: u8,
    sample_ms: u64,
    end_ms: Option<u64>,
    /// The Capacity Scheduler over the same queues (capacities split evenly; the Fair-only
    /// knobs off).
    capacity: bool,
}

fn case() -> impl Strategy<Value = Case> {
    // Arrivals and durations spread over up to a few simulated hours, so most runs have gaps
    // of thousands of update intervals with a container running or an app still to come.
    let app = (
        prop::sample::select(vec![0u64, 1_000, 250_000, 2_000_000]),
        0usize..3,
        1u32..5,
        1i64..7,
        prop::sample::select(vec![300u64, 4_000, 120_000, 3_000_001]),
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0u32..4),
    );
    (
        // Heartbeats slower than the update thread leave ticks between them with requests
        // outstanding.
        (
            1u32..4,
            prop::sample::select(vec![1000u64, 333, 1000, 333, 7_000, 90_000]),
        ),
        prop::collection::vec(prop::sample::select(vec![0.5f32, 1.0, 3.0]), 1..3),
        prop::collection::vec(app, 1..7),
        // Preemption, the booster, heartbeats every beat and continuous scheduling rule the
        // skip out: each on in a quarter of the cases.
        (
            any::<bool>(),
            prop::bool::weighted(0.25),
            prop::bool::weighted(0.25),
            any::<bool>(),
        ),
        (prop::bool::weighted(0.75), 0u8..16),
        prop::sample::select(vec![0u64, 7_000, 600_000]),
        prop::option::of(prop::sample::select(vec![1_500_000u64, 8_000_000])),
        prop::bool::weighted(0.3),
    )
        .prop_map(
            |(
                (nodes, heartbeat_ms),
                weights,
                apps,
                (era33, preemption, booster, locality),
                (elided, extras),
                sample_ms,
                end_ms,
                capacity,
            )| Case {
                nodes,
                heartbeat_ms,
                weights,
                apps,
                era33,
                preemption,
                booster,
                locality,
                elided,
                extras,
                sample_ms,
                end_ms,
                capacity,
            },
        )
}

fn build(c: &Case) -> Scenario {
    let mut tree = QueueTree::with_root();
    for (i, w) in c.weights.iter().enumerate() {
        let q = tree.add_queue(QueueId::ROOT, &format!("q{i}"), true);
        let conf = tree.get_mut(q);
        conf.weight = *w;
        conf.min_share_preemption_timeout_ms = Some(2_000);
        conf.fair_share_preemption_timeout_ms = Some(3_000);
        if i == 0 {
            conf.min_resources = ResourceSpec::Absolute(Resource::new(2048, 2));
        }
    }
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, &(t, q, n, units, d, am, two, host))| {
            let hosts: Vec<String> = host
                .filter(|&h| h < c.nodes)
                .map(|h| vec![format!("node{h}")])
                .unwrap_or_default();
            let group = |priority: i32, count: u32| TaskGroup {
                count,
                size: Resource::new(units * 512, 1),
                duration_ms: d,
                priority,
                hosts: hosts.clone(),
                relax_locality: true,
            };
            let mut stages = vec![vec![group(10, n)]];
            if two {
                stages.push(vec![group(20, 1 + n / 3)]);
            }
            AppSpec {
                name: format!("a{k}"),
                arrival: SimTime(t),
                queue: format!("q{}", q % c.weights.len()),
                user: "u".into(),
                am: am.then_some(Resource::new(512, 1)),
                stages,
                recorded: None,
            }
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    let (tree, fair) = if c.capacity {
        (capacity_queues(c.weights.len()), false)
    } else {
        (tree, true)
    };
    let threshold = if c.locality && fair { 0.5 } else { -1.0 };
    Scenario {
        scheduler: SchedulerConf {
            semantics: common::generator::era(c.era33),
            heartbeat_ms: c.heartbeat_ms,
            locality_threshold_node: threshold,
            locality_threshold_rack: threshold,
            preemption: c.preemption,
            wait_before_kill_ms: 1_500,
            wait_before_next_starvation_check_ms: 2_000,
            preemption_interval_ms: 1_000,
            preemption_utilization_threshold: 0.5,
            booster: (c.booster && fair).then_some(Booster {
                factor: 3.0,
                duration_ms: 300_000,
                when: Default::default(),
            }),
            heartbeats: if c.elided {
                Heartbeats::Elided
            } else {
                Heartbeats::Every
            },
            continuous_scheduling: fair && c.extras & 1 != 0 && c.extras & 2 != 0,
            continuous_scheduling_sleep_ms: 700,
            locality_delay_node_ms: if c.locality && fair { 700 } else { -1 },
            locality_delay_rack_ms: if c.locality && fair { 700 } else { -1 },
            am_launch_delay_ms: if c.extras & 1 != 0 { 600 } else { 0 },
            am_heartbeat_ms: if c.extras & 1 != 0 { 300 } else { 0 },
            ..SchedulerConf::default()
        },
        // A run with its cycle or stall watch off may never end by itself (the watches are
        // what stop a stalled or cycling run without an end): it gets one.
        end_ms: c.end_ms.or((c.extras & 12 != 0).then_some(8_000_000)),
        sample_interval_ms: c.sample_ms,
        ..common::scenarios::trace_scenario(
            "idle-ticks",
            tree,
            c.nodes,
            Resource::new(4096, 4),
            apps,
        )
    }
}

/// A Capacity Scheduler tree of `n` leaves `q0`.. under root, capacities split evenly.
fn capacity_queues(n: usize) -> QueueTree {
    let names: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
    let mut props = vec![("root.queues".to_string(), names.join(","))];
    let mut left = 100;
    for (i, q) in names.iter().enumerate() {
        let share = if i + 1 == n { left } else { 100 / n };
        left -= share;
        props.push((format!("root.{q}.capacity"), share.to_string()));
    }
    let refs: Vec<(&str, &str)> = props
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    capacity_tree(&capacity_xml(&refs))
}

/// Runs `c`, idle ticks skipped or not: the recorder, the summary and the counters.
fn run(c: &Case, skip: bool) -> Result<(MemoryRecorder, RunSummary, Counters), TestCaseError> {
    let sc = build(c);
    let fail = |e: fairsim_sim::SimError| TestCaseError::fail(e.to_string());
    let mut rec = MemoryRecorder {
        sample: c.sample_ms > 0,
        ..MemoryRecorder::default()
    };
    let (summary, counters) = {
        let mut sim = Simulation::new(&sc, 1, 0, &mut rec).map_err(fail)?;
        sim.skip_idle_ticks(skip);
        sim.watch_cycles(c.extras & 4 == 0);
        sim.watch_stalls(c.extras & 8 == 0);
        let summary = sim.run_to_end().map_err(fail)?;
        (summary, sim.counters())
    };
    Ok((rec, summary, counters))
}

/// Cases of the property test: 48, or `FAIRSIM_IDLE_TICK_CASES`.
fn cases() -> u32 {
    std::env::var("FAIRSIM_IDLE_TICK_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48)
}

#[test]
fn skipping_idle_ticks_changes_no_output() {
    let mut runner = TestRunner::new(generator::fixed_config(cases(), 0x1d1e_7105));
    let skipping = std::cell::Cell::new(0u32);
    runner
        .run(&case(), |c| {
            let (a, sa, ca) = run(&c, true)?;
            let (b, sb, cb) = run(&c, false)?;
            prop_assert_eq!(cb.ticks_skipped, 0);
            prop_assert_eq!(&a.decisions, &b.decisions);
            prop_assert_eq!(format!("{:?}", a.samples), format!("{:?}", b.samples));
            prop_assert_eq!(&a.apps, &b.apps);
            // summary.json and summary.csv, events included, byte for byte.
            prop_assert_eq!(sa.to_json(), sb.to_json());
            prop_assert_eq!(
                Counters {
                    ticks_skipped: 0,
                    ..ca
                },
                cb
            );
            skipping.set(skipping.get() + (ca.ticks_skipped > 0) as u32);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // The generator reaches idle gaps the skip applies to.
    let skipping = skipping.get();
    assert!(
        skipping > cases() / 6,
        "too few cases skipping ticks: {skipping}"
    );
}

/// One app with one container of the longest duration a trace may give (about ten years),
/// on one node, sampling off.
fn longest_container(capacity: bool) -> Scenario {
    let c = Case {
        nodes: 1,
        heartbeat_ms: 1000,
        weights: vec![1.0],
        apps: vec![(
            0,
            0,
            1,
            2,
            fairsim_sim::limits::MAX_TIME_MS,
            false,
            false,
            None,
        )],
        era33: false,
        preemption: false,
        booster: false,
        locality: false,
        elided: true,
        extras: 0,
        sample_ms: 0,
        end_ms: None,
        capacity,
    };
    build(&c)
}

#[test]
fn the_longest_container_costs_a_few_ticks() {
    for capacity in [false, true] {
        longest_container_costs_a_few_ticks(capacity);
    }
}

fn longest_container_costs_a_few_ticks(capacity: bool) {
    let sc = longest_container(capacity);
    let mut rec = MemoryRecorder::default();
    let mut sim = Simulation::new(&sc, 1, 0, &mut rec).expect("the scenario builds");
    let summary = sim.run_to_end().expect("the run ends");
    let counters = sim.counters();
    let interval = sc.scheduler.update_interval_ms;
    // The ticks an unskipped run processes: one at 0 and one every interval up to the end.
    let ticks = fairsim_sim::limits::MAX_TIME_MS / interval + 1;
    assert_eq!(summary.end, SimTime(fairsim_sim::limits::MAX_TIME_MS));
    assert!(
        counters.ticks_skipped + 10 > ticks,
        "{} of {ticks} ticks skipped",
        counters.ticks_skipped
    );
    // Every event popped, skipped ticks left out: a handful, not 6.3×10^8.
    let processed = counters.events - counters.ticks_skipped;
    assert!(processed < 20, "{processed} events processed");
    assert_eq!(summary.events, counters.events);
}

/// Requests outstanding between heartbeats as slow as a valid `heartbeat_ms` allows (ten
/// minutes, 1,200 update intervals): the update ticks between beats change nothing and are
/// jumped over.
#[test]
fn requests_waiting_for_the_slowest_heartbeat_cost_a_few_ticks() {
    for capacity in [false, true] {
        for era33 in [false, true] {
            let c = Case {
                nodes: 1,
                heartbeat_ms: fairsim_sim::limits::MAX_HEARTBEAT_MS,
                weights: vec![1.0],
                // Two apps of three one-minute containers each, both at 0: most asks wait for
                // the next beat.
                apps: vec![
                    (0, 0, 3, 2, 60_000, false, false, None),
                    (0, 0, 3, 2, 60_000, false, false, None),
                ],
                era33,
                preemption: false,
                booster: false,
                locality: false,
                elided: true,
                extras: 0,
                sample_ms: 0,
                end_ms: None,
                capacity,
            };
            // That skipping changes nothing is the property test's (whose heartbeats of 7 s
            // and 90 s leave requests waiting across ticks); processing every tick here
            // would take millions of them.
            let (_, summary, counters) = run(&c, true).expect("runs");
            assert_eq!(summary.get("apps_finished"), Some(2.0));
            // Every tick of the run, skipped or not, against those processed: a few per beat.
            let ticks = summary.end.0 / 500 + 1;
            let processed = counters.events - counters.ticks_skipped;
            assert!(
                ticks > 2_000 && processed * 50 < ticks,
                "capacity {capacity}, 3.3 {era33}: {processed} events processed, {ticks} ticks"
            );
        }
    }
}
