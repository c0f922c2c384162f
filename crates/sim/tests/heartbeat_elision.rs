//! Heartbeat elision is exact: over random scenarios in both eras, with and without
//! preemption, reservations (containers larger than a node's free space), delay scheduling
//! (locality hints with thresholds on), assignmultiple, maxAMShare and maxResources, asks
//! kept to their hosts (relaxLocality off), continuous scheduling with time-based delays,
//! AM launch and heartbeat timing, and nodes added, lost and decommissioned during the run,
//! the
//! elided engine (incremental or naive ordering) makes the same decisions, in the same order
//! and at the same times, as the engine processing every heartbeat with naive ordering, and
//! reports the same metrics and app records. The same for Capacity Scheduler runs with
//! containers of mixed sizes, whose nodes are reserved, served and released, with
//! reservations-continue-look-all-nodes on and off.
//!
//! Also end to end: a saturated cluster's leaves settle at their fair shares with elision
//! on.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::{AppSpec, Locality, TaskGroup};
use fairsim_sim::recorder::{Decision, DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Heartbeats, Ordering, Scenario, SchedulerConf, Workload};
use fairsim_sim::topology::NodeSpec;
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec};
use fairsim_sim::{Counters, SimTime, Simulation, run};
use proptest::prelude::*;

mod common;
use common::generator;
use proptest::test_runner::{Config, TestRunner};

/// One generated app: arrival, queue, tasks, task size (512 MB units), duration, AM, a
/// second stage, a preferred host.
type GenApp = (u64, usize, u32, i64, u64, bool, bool, Option<u32>);

#[derive(Debug, Clone)]
struct Case {
    nodes: u32,
    racks: u32,
    heartbeat_ms: u64,
    weights: Vec<f32>,
    max_q0: Option<i64>,
    max_am_share: f32,
    apps: Vec<GenApp>,
    multiple: bool,
    era33: bool,
    preemption: bool,
    locality: bool,
    naive: bool,
    /// Bits: 1 strict locality, 2 continuous scheduling, 4 AM timing.
    extras: u8,
    /// Node events: (time, kind 0 add / 1 lose / 2 decommission, which node).
    node_events: Vec<(u64, u8, u32)>,
}

fn case() -> impl Strategy<Value = Case> {
    let app = (
        0u64..30_000,
        0usize..4,
        1u32..10,
        1i64..7,
        100u64..15_000,
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0u32..6),
    );
    (
        (
            1u32..6,
            1u32..3,
            prop::sample::select(vec![1000u64, 250, 40]),
        ),
        prop::collection::vec(prop::sample::select(vec![0.5f32, 1.0, 2.0, 3.0]), 1..4),
        prop::option::of(1i64..6),
        prop::sample::select(vec![-1.0f32, 0.5, 0.2]),
        prop::collection::vec(app, 1..24),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        (any::<bool>(), 0u8..8),
        prop::collection::vec((0u64..40_000, 0u8..3, 0u32..8), 0..4),
    )
        .prop_map(
            |(
                (nodes, racks, heartbeat_ms),
                weights,
                max_q0,
                max_am_share,
                apps,
                (multiple, era33, preemption, locality),
                (naive, extras),
                node_events,
            )| Case {
                nodes,
                racks,
                heartbeat_ms,
                weights,
                max_q0,
                max_am_share,
                apps,
                multiple,
                era33,
                preemption,
                locality,
                naive,
                extras,
                node_events,
            },
        )
}

fn build(c: &Case, heartbeats: Heartbeats) -> Scenario {
    let mut tree = QueueTree::with_root();
    for (i, w) in c.weights.iter().enumerate() {
        let q = tree.add_queue(QueueId::ROOT, &format!("q{i}"), true);
        let conf = tree.get_mut(q);
        conf.weight = *w;
        conf.max_am_share = c.max_am_share;
        conf.min_share_preemption_timeout_ms = Some(2_000);
        conf.fair_share_preemption_timeout_ms = Some(3_000);
        if i == 0 {
            conf.min_resources = ResourceSpec::Absolute(Resource::new(2048, 2));
            if let Some(gb) = c.max_q0 {
                conf.max_resources = ResourceSpec::Absolute(Resource::new(gb * 1024, 64));
            }
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
            let strict = c.extras & 1 != 0 && !hosts.is_empty();
            let group = |priority: i32, count: u32| TaskGroup {
                count,
                size: Resource::new(units * 512, 1),
                duration_ms: d,
                priority,
                hosts: hosts.clone(),
                relax_locality: !strict,
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
    let threshold = if c.locality { 0.5 } else { -1.0 };
    Scenario {
        scheduler: SchedulerConf {
            semantics: common::generator::era(c.era33),
            assignmultiple: c.multiple,
            heartbeat_ms: c.heartbeat_ms,
            locality_threshold_node: threshold,
            locality_threshold_rack: threshold,
            preemption: c.preemption,
            wait_before_kill_ms: 1_500,
            wait_before_next_starvation_check_ms: 2_000,
            preemption_interval_ms: 1_000,
            preemption_utilization_threshold: 0.5,
            ordering: common::generator::ordering(c.naive),
            heartbeats,
            continuous_scheduling: c.extras & 2 != 0,
            continuous_scheduling_sleep_ms: 40,
            locality_delay_node_ms: if c.locality { 700 } else { -1 },
            locality_delay_rack_ms: if c.locality { 700 } else { -1 },
            am_launch_delay_ms: if c.extras & 4 != 0 { 600 } else { 0 },
            am_heartbeat_ms: if c.extras & 4 != 0 { 300 } else { 0 },
            ..SchedulerConf::default()
        },
        // Preemption can take a container back, again and again, from an app that needs it
        // to finish (YARN loops too): a bounded horizon.
        end_ms: Some(240_000),
        ..common::scenarios::cluster_scenario(
            "elision",
            tree,
            ClusterSpec {
                events: generator::node_events(c.nodes, &c.node_events),
                ..ClusterSpec::uniform(c.nodes, c.racks, Resource::new(4096, 4))
            },
            apps,
        )
    }
}

fn config(cases: u32) -> Config {
    generator::fixed_config(cases, 0x00e1_1de5)
}

/// Cases of each property test: 160, or `FAIRSIM_ELISION_CASES` (docs/testing.md records the
/// largest count run clean).
fn cases() -> u32 {
    std::env::var("FAIRSIM_ELISION_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(160)
}

/// Every app's missed scheduling opportunities and allowed level, per priority.
type DelayState = Vec<Vec<(i32, u32, Option<Locality>)>>;

/// Runs `sc` to its end: the summary, the counters and the delay-scheduling state.
fn run_counted(
    sc: &Scenario,
    rec: &mut MemoryRecorder,
) -> Result<(fairsim_sim::RunSummary, fairsim_sim::Counters, DelayState), TestCaseError> {
    let fail = |e: fairsim_sim::SimError| TestCaseError::fail(e.to_string());
    let mut sim = Simulation::new(sc, 1, 0, rec).map_err(fail)?;
    let summary = sim.run_to_end().map_err(fail)?;
    Ok((summary, sim.counters(), sim.delay_state()))
}

#[test]
fn elided_and_unelided_engines_decide_identically() {
    let mut runner = TestRunner::new(config(cases()));
    let seen = std::cell::RefCell::new([0u32; 9]);
    runner
        .run(&case(), |c| {
            let mut a = MemoryRecorder::default();
            let mut b = MemoryRecorder::default();
            let (sa, ca, da) = run_counted(&build(&c, Heartbeats::Elided), &mut a)?;
            // The reference: every heartbeat, and Hadoop's re-sorting (naive ordering).
            let mut reference = build(&c, Heartbeats::Every);
            reference.scheduler.ordering = Ordering::Naive;
            let (sb, cb, db) = run_counted(&reference, &mut b)?;
            // Count-based delay scheduling reads the missed opportunities: every elided
            // beat left them as processing it would have.
            if c.locality && c.extras & 2 == 0 {
                prop_assert_eq!(da, db);
            }
            // The beats counted as elided are exactly those the reference processed and the
            // elided run did not.
            prop_assert_eq!(cb.heartbeats_elided, 0);
            prop_assert_eq!(ca.heartbeats + ca.heartbeats_elided, cb.heartbeats);
            prop_assert_eq!(&a.decisions, &b.decisions);
            // Bit for bit (NaN percentiles of runs where no app finished included).
            let bits = |m: &[(String, f64)]| -> Vec<(String, u64)> {
                m.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect()
            };
            prop_assert_eq!(bits(&sa.metrics), bits(&sb.metrics));
            prop_assert_eq!(sa.assignments, sb.assignments);
            prop_assert_eq!(sa.end, sb.end);
            prop_assert_eq!(sa.stalled_at, sb.stalled_at);
            prop_assert_eq!(&a.apps, &b.apps);
            prop_assert!(sa.events <= sb.events);

            let kinds = &a.decisions;
            let mut seen = seen.borrow_mut();
            seen[0] += kinds.iter().any(|d| d.kind == DecisionKind::Reserved) as u32;
            seen[1] += (sa.get("preempted_containers").unwrap_or(0.0) > 0.0) as u32;
            seen[2] += kinds.iter().any(|d| {
                d.kind == DecisionKind::Allocated(fairsim_sim::app::Locality::NodeLocal)
                    && c.locality
            }) as u32;
            seen[3] += (sa.events < sb.events) as u32;
            seen[4] += (sa.get("node_lost_containers").unwrap_or(0.0) > 0.0) as u32;
            // Hadoop 2.7 reservations: the nodes parked while reserved (without continuous
            // scheduling, which parks nothing).
            seen[5] += (!c.era33
                && c.extras & 2 == 0
                && kinds.iter().any(|d| d.kind == DecisionKind::Reserved))
                as u32;
            // Hadoop 3.3 reservations (made for starved apps, so with preemption on), whose
            // nodes are parked too.
            seen[6] += (c.era33
                && c.extras & 2 == 0
                && kinds.iter().any(|d| d.kind == DecisionKind::Reserved))
                as u32;
            // A parked node whose input changed (its app's requests, a release on it) and
            // whose heartbeat still changed nothing, so it stayed parked.
            seen[7] += (ca.kept_parked > 0) as u32;
            // Hadoop 3.3: a full node's beat skipped, no ask fitting it and no app able to
            // reserve.
            seen[8] += (ca.full_beats_skipped > 0) as u32;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // The generator reaches the states elision must handle.
    let seen = seen.into_inner();
    assert!(seen[0] > 5, "too few cases with reservations: {seen:?}");
    assert!(seen[1] > 5, "too few cases with preemption: {seen:?}");
    assert!(seen[2] > 5, "too few cases with delay scheduling: {seen:?}");
    assert!(
        seen[3] > 50,
        "too few cases with elided heartbeats: {seen:?}"
    );
    assert!(seen[4] > 5, "too few cases with lost containers: {seen:?}");
    assert!(
        seen[5] > 5,
        "too few Hadoop 2.7 cases with reservations: {seen:?}"
    );
    assert!(
        seen[6] > 5,
        "too few Hadoop 3.3 cases with reservations: {seen:?}"
    );
    assert!(
        seen[7] > 5,
        "too few cases with parked nodes re-checked and kept parked: {seen:?}"
    );
    assert!(
        seen[8] > 5,
        "too few Hadoop 3.3 cases with full nodes' beats skipped: {seen:?}"
    );
}

/// One generated app of a churn case: arrival, leaf, tasks, task size (GB), duration, AM,
/// a preferred host.
type ChurnApp = (u64, usize, u32, i64, u64, bool, Option<u32>);

/// A cluster kept full by many small apps, each asking a few containers of the reservation
/// threshold or more: in Hadoop 3.3 each starved app reserves full nodes up to its
/// reservable-nodes cap, is served elsewhere and releases them, and the next starved app
/// reserves them again (the churn of `scheduler::fair::full_nodes`); in 2.7 every full node
/// is reserved by the neediest app. Delay scheduling off, so full nodes' beats may be
/// skipped.
#[derive(Debug, Clone)]
struct ChurnCase {
    nodes: u32,
    racks: u32,
    weights: Vec<f32>,
    reservable_nodes: f32,
    apps: Vec<ChurnApp>,
    era33: bool,
    preemption: bool,
    multiple: bool,
    naive: bool,
    /// Apps keep their preferred hosts; without any, reserving beats may repeat the descent
    /// before them (`scheduler::fair::repeat_reserve`).
    hints: bool,
}

fn churn_case() -> impl Strategy<Value = ChurnCase> {
    let app = (
        0u64..20_000,
        0usize..4,
        1u32..6,
        1i64..4,
        500u64..8_000,
        any::<bool>(),
        prop::option::of(0u32..24),
    );
    (
        (6u32..24, 1u32..4),
        prop::collection::vec(prop::sample::select(vec![1.0f32, 2.0, 3.0]), 2..5),
        prop::sample::select(vec![0.05f32, 0.1, 0.2]),
        prop::collection::vec(app, 12..48),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        any::<bool>(),
    )
        .prop_map(
            |(
                (nodes, racks),
                weights,
                reservable_nodes,
                apps,
                (era33, preemption, multiple, naive),
                hints,
            )| {
                ChurnCase {
                    nodes,
                    racks,
                    weights,
                    reservable_nodes,
                    apps,
                    era33,
                    preemption,
                    multiple,
                    naive,
                    hints,
                }
            },
        )
}

fn build_churn(c: &ChurnCase, heartbeats: Heartbeats) -> Scenario {
    let mut tree = QueueTree::with_root();
    for (i, w) in c.weights.iter().enumerate() {
        let q = tree.add_queue(QueueId::ROOT, &format!("q{i}"), true);
        let conf = tree.get_mut(q);
        conf.weight = *w;
        conf.min_share_preemption_timeout_ms = Some(1_000);
        conf.fair_share_preemption_timeout_ms = Some(2_000);
        if i == 0 {
            conf.min_resources = ResourceSpec::Absolute(Resource::new(4096, 4));
        }
    }
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, &(t, q, n, gb, d, am, host))| AppSpec {
            name: format!("a{k}"),
            arrival: SimTime(t),
            queue: format!("q{}", q % c.weights.len()),
            user: "u".into(),
            am: am.then_some(Resource::new(1024, 1)),
            stages: vec![vec![TaskGroup {
                count: n,
                size: Resource::new(gb * 1024, 1),
                duration_ms: d,
                priority: 10,
                hosts: host
                    .filter(|&h| c.hints && h < c.nodes)
                    .map(|h| vec![format!("node{h}")])
                    .unwrap_or_default(),
                relax_locality: true,
            }]],
            recorded: None,
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    Scenario {
        scheduler: SchedulerConf {
            semantics: common::generator::era(c.era33),
            assignmultiple: c.multiple,
            reservable_nodes: c.reservable_nodes,
            preemption: c.preemption,
            wait_before_kill_ms: 1_000,
            wait_before_next_starvation_check_ms: 1_000,
            preemption_interval_ms: 1_000,
            preemption_utilization_threshold: 0.5,
            ordering: common::generator::ordering(c.naive),
            heartbeats,
            ..SchedulerConf::default()
        },
        end_ms: Some(120_000),
        ..common::scenarios::cluster_scenario(
            "churn",
            tree,
            ClusterSpec::uniform(c.nodes, c.racks, Resource::new(4096, 4)),
            apps,
        )
    }
}

/// The most nodes reserved at once for one app, and how many apps reserved any.
fn reservation_peaks(decisions: &[Decision]) -> (u32, usize) {
    let mut held: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut most = 0;
    for d in decisions {
        match d.kind {
            DecisionKind::Reserved => {
                let n = held.entry(d.app).or_insert(0);
                *n += 1;
                most = most.max(*n);
            }
            DecisionKind::Unreserved => {
                if let Some(n) = held.get_mut(&d.app) {
                    *n = n.saturating_sub(1);
                }
            }
            _ => {}
        }
    }
    (most, held.len())
}

/// Reservation churn is elided exactly: the elided engine (incremental or naive) decides,
/// measures and records apps as the engine processing every heartbeat with naive ordering,
/// in both eras, with the reservable-nodes cap binding (an app holding its cap of nodes
/// while others reserve), full nodes' beats skipped, and reserving descents repeated.
#[test]
fn reservation_churn_is_elided_exactly() {
    let mut runner = TestRunner::new(generator::fixed_config(cases() / 2, 0x00c4_0433));
    let seen = std::cell::RefCell::new([0u32; 6]);
    runner
        .run(&churn_case(), |c| {
            let mut a = MemoryRecorder::default();
            let mut b = MemoryRecorder::default();
            let (sa, ca, da) = run_counted(&build_churn(&c, Heartbeats::Elided), &mut a)?;
            let mut reference = build_churn(&c, Heartbeats::Every);
            reference.scheduler.ordering = Ordering::Naive;
            let (sb, cb, db) = run_counted(&reference, &mut b)?;
            prop_assert_eq!(ca.heartbeats + ca.heartbeats_elided, cb.heartbeats);
            prop_assert_eq!(&a.decisions, &b.decisions);
            prop_assert_eq!(&da, &db);
            let bits = |m: &[(String, f64)]| -> Vec<(String, u64)> {
                m.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect()
            };
            prop_assert_eq!(bits(&sa.metrics), bits(&sb.metrics));
            prop_assert_eq!(sa.end, sb.end);
            prop_assert_eq!(&a.apps, &b.apps);
            prop_assert_eq!(ca.reservations, cb.reservations);
            prop_assert_eq!(ca.unreservations, cb.unreservations);

            let (most, reserving) = reservation_peaks(&a.decisions);
            // Off-switch cap: ceil(nodes x ratio) in Java float.
            let cap = (c.nodes as f32 * c.reservable_nodes).ceil() as u32;
            let mut seen = seen.borrow_mut();
            seen[0] += (c.era33 && most >= cap && reserving >= 3 && ca.reservations >= 10) as u32;
            seen[1] += (c.era33 && ca.full_beats_skipped > 0 && ca.reservations >= 10) as u32;
            seen[2] += (!c.era33 && ca.reservations >= 10) as u32;
            seen[3] += (c.era33 && c.preemption && ca.reservations > 0) as u32;
            seen[4] += (c.era33 && ca.reservations_repeated > 0) as u32;
            seen[5] += (!c.era33 && ca.reservations_repeated > 0) as u32;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = seen.into_inner();
    assert!(
        seen[0] > 5,
        "too few 3.3 cases where apps churn through reservations at their cap: {seen:?}"
    );
    assert!(
        seen[1] > 5,
        "too few 3.3 churn cases with full nodes' beats skipped: {seen:?}"
    );
    assert!(seen[2] > 5, "too few 2.7 churn cases: {seen:?}");
    assert!(
        seen[3] > 3,
        "too few 3.3 churn cases with preemption on: {seen:?}"
    );
    assert!(
        seen[4] > 3 && seen[5] > 3,
        "too few churn cases with reservations repeated (3.3, 2.7): {seen:?}"
    );
}

/// One app of the delay-scheduling case: arrival, leaf, tasks, task size (512 MB units; a
/// small node holds 8), duration, AM, a second stage, what its first stage names (0
/// nothing, 1 a node, 2 a rack only, 3 a host no node has, 4 a node kept to, relaxLocality
/// off) and which.
type DelayApp = (u64, usize, u32, i64, u64, bool, bool, u8, u32);

/// Full nodes with count-based delay scheduling on: nodes of 4 GB and, the last
/// `big_nodes`, 8 GB (asks that fit only those count offers on them only), apps asking for
/// nodes, racks or anywhere, thresholds that bind (a few nodes' worth of missed offers).
#[derive(Debug, Clone)]
struct DelayCase {
    nodes: u32,
    racks: u32,
    big_nodes: u32,
    thresholds: (f64, f64),
    era33: bool,
    naive: bool,
    multiple: bool,
    preemption: bool,
    apps: Vec<DelayApp>,
}

fn delay_case() -> impl Strategy<Value = DelayCase> {
    let app = (
        0u64..20_000,
        0usize..3,
        1u32..12,
        2i64..14,
        1_000u64..40_000,
        any::<bool>(),
        any::<bool>(),
        0u8..5,
        0u32..8,
    );
    (
        (2u32..7, 1u32..3, 0u32..3),
        (
            prop::sample::select(vec![0.0, 0.25, 0.5, 1.0]),
            prop::sample::select(vec![0.0, 0.5, 1.0]),
        ),
        (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        prop::collection::vec(app, 2..12),
    )
        .prop_map(
            |(
                (nodes, racks, big_nodes),
                thresholds,
                (era33, naive, multiple, preemption),
                apps,
            )| {
                DelayCase {
                    nodes,
                    racks,
                    big_nodes: big_nodes.min(nodes - 1),
                    thresholds,
                    era33,
                    naive,
                    multiple,
                    preemption,
                    apps,
                }
            },
        )
}

fn build_delay(c: &DelayCase, heartbeats: Heartbeats) -> Scenario {
    let mut tree = QueueTree::with_root();
    for (i, w) in [1.0f32, 2.0, 3.0].iter().enumerate() {
        let q = tree.add_queue(QueueId::ROOT, &format!("q{i}"), true);
        let conf = tree.get_mut(q);
        conf.weight = *w;
        conf.min_share_preemption_timeout_ms = Some(2_000);
        conf.fair_share_preemption_timeout_ms = Some(3_000);
    }
    let racks = c.racks.min(c.nodes);
    let layout: Vec<NodeSpec> = (0..c.nodes)
        .map(|i| NodeSpec {
            name: format!("node{i}"),
            rack: format!("rack{}", i * racks / c.nodes),
            capacity: if i >= c.nodes - c.big_nodes {
                Resource::new(8192, 8)
            } else {
                Resource::new(4096, 4)
            },
        })
        .collect();
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, &(t, q, n, units, d, am, two, names, which))| {
            let hosts: Vec<String> = match names {
                1 | 4 => vec![format!("node{}", which % c.nodes)],
                2 => vec![format!("/rack{}/elsewhere", which % racks)],
                3 => vec![format!("elsewhere{which}")],
                _ => vec![],
            };
            let group = |priority: i32, count: u32, hosts: Vec<String>| TaskGroup {
                count,
                size: Resource::new(units * 512, 1),
                duration_ms: d,
                priority,
                relax_locality: names != 4 || hosts.is_empty(),
                hosts,
            };
            let mut stages = vec![vec![group(10, n, hosts)]];
            if two {
                // Asking anywhere, at a later priority.
                stages.push(vec![group(20, 1 + n / 2, vec![])]);
            }
            AppSpec {
                name: format!("a{k}"),
                arrival: SimTime(t),
                queue: format!("q{q}"),
                user: "u".into(),
                am: am.then_some(Resource::new(1024, 1)),
                stages,
                recorded: None,
            }
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    Scenario {
        scheduler: SchedulerConf {
            semantics: common::generator::era(c.era33),
            assignmultiple: c.multiple,
            locality_threshold_node: c.thresholds.0,
            locality_threshold_rack: c.thresholds.1,
            preemption: c.preemption,
            wait_before_kill_ms: 1_500,
            wait_before_next_starvation_check_ms: 2_000,
            preemption_interval_ms: 1_000,
            ordering: common::generator::ordering(c.naive),
            heartbeats,
            ..SchedulerConf::default()
        },
        end_ms: Some(200_000),
        ..common::scenarios::cluster_scenario(
            "delay-full-nodes",
            tree,
            ClusterSpec {
                nodes: c.nodes,
                racks,
                node_memory_mb: 4096,
                node_vcores: 4,
                layout,
                events: Default::default(),
            },
            apps,
        )
    }
}

/// Hadoop 3.3 skips the beats of full nodes with count-based delay scheduling on, counting
/// their missed opportunities in bulk before the next event (`scheduler::fair::missed_offers`):
/// the decisions, metrics and app records are the unelided engine's, and so is every app's
/// count and allowed level at the end, in both eras (2.7 skips none of them: it reserves).
#[test]
fn full_nodes_with_delay_scheduling_count_skipped_offers_exactly() {
    let mut runner = TestRunner::new(generator::fixed_config(cases(), 0x0de1_a733));
    let seen = std::cell::RefCell::new([0u32; 5]);
    runner
        .run(&delay_case(), |c| {
            let mut a = MemoryRecorder::default();
            let mut b = MemoryRecorder::default();
            let (sa, ca, da) = run_counted(&build_delay(&c, Heartbeats::Elided), &mut a)?;
            let mut reference = build_delay(&c, Heartbeats::Every);
            reference.scheduler.ordering = Ordering::Naive;
            let (sb, cb, db) = run_counted(&reference, &mut b)?;
            prop_assert_eq!(ca.heartbeats + ca.heartbeats_elided, cb.heartbeats);
            prop_assert_eq!(&a.decisions, &b.decisions);
            let bits = |m: &[(String, f64)]| -> Vec<(String, u64)> {
                m.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect()
            };
            prop_assert_eq!(bits(&sa.metrics), bits(&sb.metrics));
            prop_assert_eq!(sa.end, sb.end);
            prop_assert_eq!(sa.stalled_at, sb.stalled_at);
            prop_assert_eq!(sa.cycle_from, sb.cycle_from);
            prop_assert_eq!(&a.apps, &b.apps);
            prop_assert_eq!(&da, &db);

            let mut seen = seen.borrow_mut();
            let skipped = ca.full_beats_skipped > 0;
            seen[0] += skipped as u32;
            // A level relaxed past node-local while beats were skipped.
            seen[1] += (skipped
                && da
                    .iter()
                    .flatten()
                    .any(|p| matches!(p.2, Some(Locality::RackLocal | Locality::OffSwitch))))
                as u32;
            let placed = |l: Locality| {
                a.decisions
                    .iter()
                    .any(|d| d.kind == DecisionKind::Allocated(l))
            };
            seen[2] += (skipped && placed(Locality::NodeLocal)) as u32;
            seen[3] += (skipped && placed(Locality::RackLocal)) as u32;
            seen[4] +=
                (!c.era33 && a.decisions.iter().any(|d| d.kind == DecisionKind::Reserved)) as u32;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = seen.into_inner();
    assert!(
        seen[0] > 20,
        "too few cases with full nodes' beats skipped: {seen:?}"
    );
    assert!(seen[1] > 10, "too few cases with levels relaxed: {seen:?}");
    assert!(seen[2] > 5, "too few node-local placements: {seen:?}");
    assert!(seen[3] > 5, "too few rack-local placements: {seen:?}");
    assert!(
        seen[4] > 5,
        "too few Hadoop 2.7 cases with reservations: {seen:?}"
    );
}

/// Three weighted leaves, each with far more work than the cluster holds, Hadoop 3.3: after
/// the ramp-up every leaf holds its fair share (weights 1:2:3 of 48 GB → 8, 16, 24 GB) on
/// average within one container, with elision on, and the elided and unelided runs sample
/// the same queue states. (Hadoop 2.7 does not settle there: a full node is reserved by the
/// neediest app at every heartbeat, as a reservation does not raise its usage, so the app
/// most below its share collects many reservations at once; YARN-4270 limited that in 2.8.)
#[test]
fn a_saturated_cluster_settles_at_fair_shares_with_elision() {
    let mut tree = QueueTree::with_root();
    let mut apps = Vec::new();
    for (i, w) in [1.0f32, 2.0, 3.0].iter().enumerate() {
        let q = tree.add_queue(QueueId::ROOT, &format!("q{i}"), true);
        tree.get_mut(q).weight = *w;
        for (k, secs) in [11u64, 13, 17, 19, 23].into_iter().enumerate() {
            apps.push(AppSpec {
                name: format!("a{i}.{k}"),
                arrival: SimTime(0),
                queue: format!("q{i}"),
                user: "u".into(),
                am: None,
                stages: vec![vec![TaskGroup {
                    count: 400,
                    size: Resource::new(1024, 1),
                    duration_ms: secs * 1000,
                    priority: 10,
                    hosts: vec![],
                    relax_locality: true,
                }]],
                recorded: None,
            });
        }
    }
    let sc = |heartbeats| Scenario {
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop33,
            heartbeats,
            ..SchedulerConf::default()
        },
        end_ms: Some(600_000),
        sample_interval_ms: 1_000,
        check_invariants: false,
        ..common::scenarios::cluster_scenario(
            "saturated",
            tree.clone(),
            ClusterSpec::uniform(12, 2, Resource::new(4096, 8)),
            apps.clone(),
        )
    };
    let sampling = || MemoryRecorder {
        sample: true,
        ..MemoryRecorder::default()
    };
    let (elided, mut rec) = (sc(Heartbeats::Elided), sampling());
    let mut sim = Simulation::new(&elided, 1, 0, &mut rec).expect("the scenario builds");
    let summary = sim.run_to_end().expect("the scenario runs");
    let counters = sim.counters();
    drop(sim);
    let mut every = sampling();
    run(&sc(Heartbeats::Every), 1, 0, &mut every).expect("the scenario runs");
    assert_eq!(rec.samples, every.samples);
    assert_eq!(rec.decisions, every.decisions);
    assert!(summary.assignments > 1_000);
    let settled: Vec<_> = rec.samples.iter().filter(|(t, _)| t.0 >= 120_000).collect();
    for (k, want_gb) in [8i64, 16, 24].into_iter().enumerate() {
        let mean = settled
            .iter()
            .map(|(_, rows)| rows[k + 1].usage.memory_mb as f64)
            .sum::<f64>()
            / settled.len() as f64;
        assert!(
            (mean - (want_gb * 1024) as f64).abs() <= 1024.0,
            "q{k} holds {mean:.0} MB on average, fair share {want_gb} GB"
        );
    }
    // 12 nodes beat every second; only node 0 (phase 0) beats at 600 s, before the end.
    assert_eq!(
        counters.heartbeats + counters.heartbeats_elided,
        12 * 600 + 1
    );
}

/// One 4 GB node; app0 (at 0) runs one 3 GB task for 100 s, app1 (at 500 ms) asks for one
/// 2 GB task of 10 s; Hadoop 2.7.
fn reserved_node_scenario(heartbeats: Heartbeats) -> Scenario {
    let mut tree = QueueTree::with_root();
    tree.add_queue(QueueId::ROOT, "q", true);
    let app = |name: &str, arrival: u64, mb: i64, duration_ms: u64| AppSpec {
        name: name.into(),
        arrival: SimTime(arrival),
        queue: "root.q".into(),
        user: "u".into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count: 1,
            size: Resource::new(mb, 1),
            duration_ms,
            priority: 10,
            hosts: vec![],
            relax_locality: true,
        }]],
        recorded: None,
    };
    Scenario {
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop27,
            heartbeats,
            ..SchedulerConf::default()
        },
        ..common::scenarios::trace_scenario(
            "reserved-node",
            tree,
            1,
            Resource::new(4096, 4),
            vec![app("a0", 0, 3072, 100_000), app("a1", 500, 2048, 10_000)],
        )
    }
}

/// End time, counters and decisions of `make(Elided)`'s run, then of `make(Every)`'s.
fn elided_and_every(
    make: impl Fn(Heartbeats) -> Scenario,
) -> (Vec<SimTime>, Vec<Counters>, Vec<Vec<Decision>>) {
    let (mut ends, mut counters, mut decisions) = (Vec::new(), Vec::new(), Vec::new());
    for hb in [Heartbeats::Elided, Heartbeats::Every] {
        let sc = make(hb);
        let mut rec = MemoryRecorder::default();
        let mut sim = Simulation::new(&sc, 1, 0, &mut rec).expect("valid");
        ends.push(sim.run_to_end().expect("runs").end);
        counters.push(sim.counters());
        drop(sim);
        decisions.push(rec.decisions);
    }
    (ends, counters, decisions)
}

#[test]
fn a_hadoop27_reserved_node_is_parked_until_its_container_ends() {
    // Heartbeat at 0: app0 gets 3 GB. At 1,000: app1's 2 GB does not fit the 1 GB left, the
    // node is reserved for it, and parked. app0's task ends at 100,000 (reported at that
    // heartbeat, before it): the release wakes the node, whose beat at 100,000 turns the
    // reservation into app1's container; app1 ends at 110,000 and the run with it. Processed:
    // the beats at 0, 1,000 and 100,000 (after that nothing is asked: global elision); an
    // unelided run processes 0 to 109,000, 110 beats, so 107 are elided. Before parking, the
    // reserved node beat every second from 2,000 to 99,000 as well: 101 processed.
    let (ends, counters, decisions) = elided_and_every(reserved_node_scenario);
    assert_eq!(ends, vec![SimTime(110_000); 2]);
    let counts: Vec<(u64, u64)> = counters
        .iter()
        .map(|c| (c.heartbeats, c.heartbeats_elided))
        .collect();
    assert_eq!(counts, vec![(3, 107), (110, 0)]);
    assert_eq!(decisions[0], decisions[1]);
    let got: Vec<(u64, u32, DecisionKind)> = decisions[0]
        .iter()
        .map(|d| (d.time.0, d.app, d.kind))
        .collect();
    let off = DecisionKind::Allocated(fairsim_sim::app::Locality::OffSwitch);
    assert_eq!(
        got,
        vec![
            (0, 0, off),
            (1_000, 1, DecisionKind::Reserved),
            // The reservation becomes the container.
            (100_000, 1, DecisionKind::Unreserved),
            (100_000, 1, off)
        ]
    );
}

/// Two runs found frozen (Hadoop 3.3, continuous scheduling, delay scheduling, a reserved
/// node that never fits): every engine (heartbeats elided or not, incremental or naive
/// ordering) must stop at the same tick. The naive runs used to stop one tick later: a
/// descent re-sorted a list (the root's children in the first, the leaf's apps in the
/// second) whose keys had changed at the last progress, with no decision, so the state one
/// heartbeat interval later differed in the list's order only, an order no later sort reads
/// (the comparator orders them totally). Frozen at the tick after the last progress plus one
/// heartbeat interval. Since Hadoop 3.3 offers nodes only to apps with pending demand as of
/// the last update (`fetchAppsWithDemand`) the first case has app 0 ask 3072 MB tasks (with
/// 1536 MB every app now finishes) and freezes at 45,000; the second freezes at 20,500.
#[test]
fn naive_and_incremental_runs_are_found_frozen_at_the_same_tick() {
    let first = Case {
        nodes: 2,
        racks: 1,
        heartbeat_ms: 1000,
        weights: vec![0.5, 0.5],
        max_q0: Some(3),
        max_am_share: -1.0,
        apps: vec![
            (10829, 2, 1, 6, 100, true, false, None),
            (3481, 1, 3, 5, 5320, true, true, None),
            (9100, 1, 3, 3, 7801, true, false, None),
            (100, 0, 3, 3, 2501, true, false, None),
            (10501, 2, 3, 3, 1001, false, true, Some(1)),
        ],
        multiple: false,
        era33: true,
        preemption: false,
        locality: true,
        naive: false,
        extras: 7,
        node_events: vec![],
    };
    let second = Case {
        weights: vec![0.5],
        max_q0: None,
        apps: vec![
            (501, 0, 4, 5, 6441, true, false, None),
            (1001, 0, 1, 3, 1001, true, true, None),
            (1001, 0, 2, 3, 3001, false, false, Some(0)),
            (1001, 0, 1, 5, 100, true, false, None),
            (8501, 0, 1, 3, 100, false, false, None),
            (8501, 0, 1, 3, 100, false, false, None),
            (19001, 0, 1, 3, 100, false, false, None),
        ],
        extras: 3,
        node_events: vec![(8001, 2, 2)],
        ..first.clone()
    };
    for (c, frozen_at) in [(first, 45_000), (second, 20_500)] {
        for hb in [Heartbeats::Elided, Heartbeats::Every] {
            for ordering in [Ordering::Incremental, Ordering::Naive] {
                let mut sc = build(&c, hb);
                sc.scheduler.ordering = ordering;
                let s = run(&sc, 1, 0, &mut MemoryRecorder::default()).expect("runs");
                assert_eq!(
                    (s.stalled_at, s.cycle_from),
                    (Some(SimTime(frozen_at)), None),
                    "{hb:?} {ordering:?}"
                );
            }
        }
    }
}

/// Three 4 GB nodes in one rack (heartbeats every second at phases 0, 333 and 666 ms), one
/// leaf, Hadoop 2.7: app0 (at 0) runs two 3 GB tasks of 10 s, app1 (at 700 ms) three 2 GB
/// tasks of 20 s.
fn reserving_app_scenario(heartbeats: Heartbeats) -> Scenario {
    let mut sc = reserved_node_scenario(heartbeats);
    sc.name = "reserving-app".into();
    sc.cluster.nodes = 3;
    let app = |name: &str, arrival: u64, count: u32, mb: i64, duration_ms: u64| AppSpec {
        name: name.into(),
        arrival: SimTime(arrival),
        queue: "root.q".into(),
        user: "u".into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(mb, 1),
            duration_ms,
            priority: 10,
            hosts: vec![],
            relax_locality: true,
        }]],
        recorded: None,
    };
    sc.workload = Workload::Trace(vec![
        app("a0", 0, 2, 3072, 10_000),
        app("a1", 700, 3, 2048, 20_000),
    ]);
    sc
}

#[test]
fn a_hadoop27_app_served_elsewhere_leaves_its_reserved_nodes_parked() {
    // app0's tasks go to node0 (beat at 0) and node1 (333), leaving 1 GB on each. app1's
    // 2 GB does not fit 1 GB: node0 is reserved for it at 1,000 and node1 at 1,333, both
    // parked. node2 (empty) gives app1 a container at 1,666 and another at 2,666 (2 GB
    // left), then is reserved at 3,666 (0 left). Each of those two containers changes
    // app1's requests (3 -> 2 -> 1): node0 and node1 are re-checked and stay parked, their
    // container still not fitting 1 GB with tasks still asked for (4 re-checks kept).
    // Before, each change woke both, whose beats at 2,000 and 2,333, then 3,000 and 3,333,
    // did nothing: 4 more beats processed.
    // app0's task on node0 ends at 10,000 (reported before that beat): node0 has 4 GB, it
    // wakes and its beat turns the reservation into app1's last container, app1 asking for
    // nothing more wakes node1 and node2, whose beats at 10,333 and 10,666 drop their
    // reservations. app1's tasks end at 21,666, 22,666 and 30,000, the run with them.
    // Processed: 0, 333, 1,000, 1,333, 1,666, 2,666, 3,666, 10,000, 10,333 and 10,666
    // (at 666 nothing is asked: global elision) = 10. Unelided: every beat before the
    // completion at 30,000 (which ends the run ahead of node0's beat then): 30 per node,
    // 90, so 80 elided.
    let (ends, counters, decisions) = elided_and_every(reserving_app_scenario);
    assert_eq!(ends, vec![SimTime(30_000); 2]);
    let counts: Vec<(u64, u64, u64)> = counters
        .iter()
        .map(|c| (c.heartbeats, c.heartbeats_elided, c.kept_parked))
        .collect();
    assert_eq!(counts, vec![(10, 80, 4), (90, 0, 0)]);
    assert_eq!(decisions[0], decisions[1]);
    let got: Vec<(u64, u32, u32, DecisionKind)> = decisions[0]
        .iter()
        .map(|d| (d.time.0, d.node, d.app, d.kind))
        .collect();
    let off = DecisionKind::Allocated(fairsim_sim::app::Locality::OffSwitch);
    let (reserved, unreserved) = (DecisionKind::Reserved, DecisionKind::Unreserved);
    assert_eq!(
        got,
        vec![
            (0, 0, 0, off),
            (333, 1, 0, off),
            (1_000, 0, 1, reserved),
            (1_333, 1, 1, reserved),
            (1_666, 2, 1, off),
            (2_666, 2, 1, off),
            (3_666, 2, 1, reserved),
            (10_000, 0, 1, unreserved),
            (10_000, 0, 1, off),
            (10_333, 1, 1, unreserved),
            (10_666, 2, 1, unreserved),
        ]
    );
}

/// One generated app of a Capacity Scheduler case: arrival, leaf, user, tasks, task size
/// (512 MB units), duration, AM, a larger second stage, a preferred host.
type CsApp = (u64, usize, u8, u32, i64, u64, bool, bool, Option<u32>);

/// A Capacity Scheduler run with containers of mixed sizes on small nodes, so that asks often
/// do not fit a node's free space and reserve it.
#[derive(Debug, Clone)]
struct CsCase {
    nodes: u32,
    heartbeat_ms: u64,
    /// Leaves' capacities (summing to 100) and maximum capacities.
    leaves: Vec<(u32, u32)>,
    user_limit_factor: f32,
    apps: Vec<CsApp>,
    era33: bool,
    locality_delay: bool,
    node_events: Vec<(u64, u8, u32)>,
}

fn cs_case() -> impl Strategy<Value = CsCase> {
    let app = (
        0u64..20_000,
        0usize..3,
        0u8..3,
        1u32..8,
        1i64..9,
        100u64..12_000,
        any::<bool>(),
        any::<bool>(),
        prop::option::of(0u32..5),
    );
    (
        (1u32..5, prop::sample::select(vec![1000u64, 300])),
        prop::sample::select(vec![
            vec![(100u32, 100u32)],
            vec![(50, 100), (50, 60)],
            vec![(30, 50), (30, 100), (40, 40)],
        ]),
        prop::sample::select(vec![1.0f32, 2.0]),
        prop::collection::vec(app, 1..16),
        (any::<bool>(), any::<bool>()),
        prop::collection::vec((0u64..30_000, 0u8..3, 0u32..6), 0..3),
    )
        .prop_map(
            |((nodes, heartbeat_ms), leaves, ulf, apps, (era33, locality_delay), node_events)| {
                CsCase {
                    nodes,
                    heartbeat_ms,
                    leaves,
                    user_limit_factor: ulf,
                    apps,
                    era33,
                    locality_delay,
                    node_events,
                }
            },
        )
}

fn build_cs(c: &CsCase, heartbeats: Heartbeats) -> Scenario {
    build_cs_looking(c, heartbeats, true)
}

/// [`build_cs`] with `reservations-continue-look-all-nodes` set to `continue_looking` (left
/// to its default when true).
fn build_cs_looking(c: &CsCase, heartbeats: Heartbeats, continue_looking: bool) -> Scenario {
    let names: Vec<String> = (0..c.leaves.len()).map(|i| format!("q{i}")).collect();
    let mut props: Vec<(String, String)> = vec![("root.queues".into(), names.join(","))];
    if !continue_looking {
        props.push((
            "reservations-continue-look-all-nodes".into(),
            "false".into(),
        ));
    }
    for (i, &(cap, max)) in c.leaves.iter().enumerate() {
        props.push((format!("root.q{i}.capacity"), cap.to_string()));
        props.push((format!("root.q{i}.maximum-capacity"), max.to_string()));
        props.push((
            format!("root.q{i}.user-limit-factor"),
            c.user_limit_factor.to_string(),
        ));
    }
    let refs: Vec<(&str, &str)> = props
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let era = common::generator::era(c.era33);
    let tree = common::capacity::load(era, &refs)
        .unwrap_or_else(|e| panic!("{e}"))
        .tree;
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, &(t, q, user, n, units, d, am, two, host))| {
            let hosts: Vec<String> = host
                .filter(|&h| h < c.nodes)
                .map(|h| vec![format!("node{h}")])
                .unwrap_or_default();
            let group = |priority: i32, count: u32, units: i64| TaskGroup {
                count,
                size: Resource::new(units * 512, 1),
                duration_ms: d,
                priority,
                hosts: hosts.clone(),
                relax_locality: true,
            };
            let mut stages = vec![vec![group(10, n, units)]];
            if two {
                stages.push(vec![group(20, 1 + n / 3, (units + 3).min(8))]);
            }
            AppSpec {
                name: format!("a{k}"),
                arrival: SimTime(t),
                queue: format!("q{}", q % c.leaves.len()),
                user: format!("u{user}"),
                am: am.then_some(Resource::new(512, 1)),
                stages,
                recorded: None,
            }
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    Scenario {
        scheduler: SchedulerConf {
            semantics: era,
            heartbeat_ms: c.heartbeat_ms,
            node_locality_delay: if c.locality_delay { 2 } else { -1 },
            heartbeats,
            ..SchedulerConf::default()
        },
        end_ms: Some(120_000),
        ..common::scenarios::cluster_scenario(
            "elision-capacity",
            tree,
            ClusterSpec {
                events: generator::node_events(c.nodes, &c.node_events),
                ..ClusterSpec::uniform(c.nodes, 1, Resource::new(4096, 4))
            },
            apps,
        )
    }
}

/// Capacity Scheduler runs with containers of mixed sizes (reservations made, served,
/// re-reserved, given back for a node with room and released when no longer asked for;
/// nodes added, lost and decommissioned; apps held by the AM limits and activated as others
/// finish or nodes join), in both eras: the elided engine decides exactly as the engine
/// processing every heartbeat.
#[test]
fn capacity_runs_with_mixed_sizes_are_elided_exactly() {
    let mut runner = TestRunner::new(generator::fixed_config(cases(), 0x00c5_5e5e));
    let seen = std::cell::RefCell::new([0u32; 5]);
    runner
        .run(&cs_case(), |c| {
            let mut a = MemoryRecorder::default();
            let mut b = MemoryRecorder::default();
            let (sa, ca, da) = run_counted(&build_cs(&c, Heartbeats::Elided), &mut a)?;
            let (sb, cb, db) = run_counted(&build_cs(&c, Heartbeats::Every), &mut b)?;
            prop_assert_eq!(da, db);
            prop_assert_eq!(cb.heartbeats_elided, 0);
            prop_assert_eq!(ca.heartbeats + ca.heartbeats_elided, cb.heartbeats);
            prop_assert_eq!(&a.decisions, &b.decisions);
            let bits = |m: &[(String, f64)]| -> Vec<(String, u64)> {
                m.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect()
            };
            prop_assert_eq!(bits(&sa.metrics), bits(&sb.metrics));
            prop_assert_eq!(sa.end, sb.end);
            prop_assert_eq!(sa.stalled_at, sb.stalled_at);
            prop_assert_eq!(&a.apps, &b.apps);
            let mut seen = seen.borrow_mut();
            let has = |k: DecisionKind| a.decisions.iter().any(|d| d.kind == k);
            seen[0] += (!c.era33 && has(DecisionKind::Reserved)) as u32;
            seen[1] += (c.era33 && has(DecisionKind::Reserved)) as u32;
            seen[2] += has(DecisionKind::Unreserved) as u32;
            seen[3] += (ca.heartbeats_elided > 0) as u32;
            seen[4] += sa
                .metrics
                .iter()
                .any(|(k, v)| k.starts_with("am_limit_blocks.") && *v > 0.0)
                as u32;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = seen.into_inner();
    let enough = cases() / 20;
    assert!(
        seen[0] > enough,
        "too few Hadoop 2.7 cases with reservations: {seen:?}"
    );
    assert!(
        seen[1] > enough,
        "too few Hadoop 3.3 cases with reservations: {seen:?}"
    );
    assert!(
        seen[2] > enough,
        "too few cases with reservations released: {seen:?}"
    );
    assert!(
        seen[3] > enough,
        "too few cases with elided heartbeats: {seen:?}"
    );
    assert!(
        seen[4] > enough,
        "too few cases with apps held by an AM limit: {seen:?}"
    );
}

/// The same runs with reservations-continue-look-all-nodes off (no reservation counted as
/// room or given back; a priority whose app holds as many reservations as it should is
/// skipped until re-reservations allow another): the elided engine decides exactly as the
/// engine processing every heartbeat, and in each era enough cases decide otherwise than
/// with the switch on.
#[test]
fn capacity_runs_without_continue_looking_are_elided_exactly() {
    let mut runner = TestRunner::new(generator::fixed_config(cases(), 0x00c5_1007));
    let seen = std::cell::RefCell::new([0u32; 3]);
    runner
        .run(&cs_case(), |c| {
            let mut a = MemoryRecorder::default();
            let mut b = MemoryRecorder::default();
            let mut on = MemoryRecorder::default();
            let (sa, ca, da) =
                run_counted(&build_cs_looking(&c, Heartbeats::Elided, false), &mut a)?;
            let (sb, cb, db) =
                run_counted(&build_cs_looking(&c, Heartbeats::Every, false), &mut b)?;
            run_counted(&build_cs(&c, Heartbeats::Elided), &mut on)?;
            prop_assert_eq!(da, db);
            prop_assert_eq!(ca.heartbeats + ca.heartbeats_elided, cb.heartbeats);
            prop_assert_eq!(&a.decisions, &b.decisions);
            let bits = |m: &[(String, f64)]| -> Vec<(String, u64)> {
                m.iter().map(|(k, v)| (k.clone(), v.to_bits())).collect()
            };
            prop_assert_eq!(bits(&sa.metrics), bits(&sb.metrics));
            prop_assert_eq!(sa.end, sb.end);
            prop_assert_eq!(sa.stalled_at, sb.stalled_at);
            prop_assert_eq!(&a.apps, &b.apps);
            let mut seen = seen.borrow_mut();
            let differs = a.decisions != on.decisions;
            seen[0] += (!c.era33 && differs) as u32;
            seen[1] += (c.era33 && differs) as u32;
            seen[2] += (ca.heartbeats_elided > 0) as u32;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let seen = seen.into_inner();
    let enough = cases() / 20;
    assert!(
        seen[0] > enough && seen[1] > enough,
        "too few cases the switch changes, by era: {seen:?}"
    );
    assert!(
        seen[2] > enough,
        "too few cases with elided heartbeats: {seen:?}"
    );
}

/// A 3.3 churn case (found at case 400-odd of `reservation_churn_is_elided_exactly`) where
/// full nodes' beats are skipped with delay scheduling off: the skipped offers count no
/// missed opportunity, so the engine processing every beat must not count them either
/// (nothing reads the count while delay scheduling is off). It counted them, and the two
/// engines' counts differed (12 against 16 for the first app's tasks) with the same
/// decisions.
#[test]
fn skipped_full_node_beats_and_processed_ones_leave_the_same_counts_with_delay_off() {
    let c = ChurnCase {
        nodes: 6,
        racks: 1,
        weights: vec![3.0, 3.0],
        reservable_nodes: 0.05,
        apps: vec![
            (3001, 1, 1, 3, 500, true, None),
            (1, 2, 5, 2, 4001, true, None),
            (1501, 1, 2, 3, 5001, false, None),
            (9001, 0, 1, 1, 500, true, None),
            (10001, 1, 1, 3, 4001, false, None),
            (7001, 2, 2, 1, 1001, true, None),
            (501, 1, 5, 3, 3001, true, Some(5)),
            (1501, 1, 4, 2, 1001, true, None),
            (8745, 1, 1, 1, 500, false, None),
            (8745, 1, 1, 1, 500, true, None),
            (1213, 0, 3, 1, 6001, true, None),
            (9001, 0, 1, 1, 500, true, None),
            (15501, 2, 2, 2, 6001, false, None),
            (8745, 1, 1, 1, 500, true, None),
            (9001, 0, 1, 1, 500, false, None),
            (1103, 0, 1, 1, 5001, false, None),
            (1001, 0, 1, 3, 500, true, None),
            (501, 1, 5, 2, 2001, true, None),
            (3001, 1, 1, 2, 6001, true, None),
            (7091, 2, 2, 3, 1001, false, None),
            (7001, 0, 3, 3, 6001, false, None),
            (1103, 2, 1, 3, 4001, false, None),
        ],
        era33: true,
        preemption: false,
        multiple: false,
        naive: false,
        hints: true,
    };
    let mut a = MemoryRecorder::default();
    let mut b = MemoryRecorder::default();
    let (_, ca, da) = run_counted(&build_churn(&c, Heartbeats::Elided), &mut a).expect("runs");
    let mut reference = build_churn(&c, Heartbeats::Every);
    reference.scheduler.ordering = Ordering::Naive;
    let (_, _, db) = run_counted(&reference, &mut b).expect("runs");
    assert!(ca.full_beats_skipped > 0, "full nodes' beats are skipped");
    assert_eq!(a.decisions, b.decisions);
    assert_eq!(da, db);
}
