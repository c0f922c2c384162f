//! The quiescence test under the Capacity Scheduler: a run waiting on node-locality-delay or
//! the off-switch wait (missed scheduling opportunities, counted at every offer) is not
//! stalled, while one whose offers can no longer change anything is.
//!
//! Random Capacity Scheduler scenarios with locality hints (hosts of the cluster and hosts
//! no node is, asks kept to their hosts, AM limits) are run to their end; every run found
//! stalled is run again with the quiescence test and the cycle watch off, well past the
//! stall: it decides nothing more and no app finishes later.

mod common;

use common::generator;
use common::scenarios::{capacity_tree, capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{ClusterSpec, Scenario};
use fairsim_sim::workload::SlsDefaults;
use fairsim_sim::workload::rumen::{RumenOptions, read_rumen_traces};
use fairsim_sim::{RunSummary, SimTime, Simulation, run};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::path::Path;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// Hadoop's SLS test `capacity-scheduler.xml`: sls_queue_1 and sls_queue_2 at 25 %,
/// sls_queue_3 at 50 %, each with a maximum of 100 %.
fn sls_capacity_xml() -> String {
    capacity_xml(&[
        ("root.queues", "sls_queue_1,sls_queue_2,sls_queue_3"),
        ("root.sls_queue_1.capacity", "25"),
        ("root.sls_queue_1.maximum-capacity", "100"),
        ("root.sls_queue_2.capacity", "25"),
        ("root.sls_queue_2.maximum-capacity", "100"),
        ("root.sls_queue_3.capacity", "50"),
        ("root.sls_queue_3.maximum-capacity", "100"),
    ])
}

/// `apps` on `nodes` SLS nodes (10 GB, 10 vcores: `yarn.sls.nm.*`'s defaults) under the SLS
/// capacity-scheduler.xml in `semantics`.
fn sls_scenario(semantics: Semantics, nodes: u32, apps: Vec<AppSpec>) -> Scenario {
    let mut sc = trace_scenario(
        "cs-locality",
        capacity_tree(&sls_capacity_xml()),
        nodes,
        Resource::new(10_240, 10),
        apps,
    );
    sc.scheduler.semantics = semantics;
    sc
}

/// A job of `count` 1 GB tasks of 20 s with a 1 GB AM, arriving at `arrival`, each task
/// preferring a host of four that no node of the cluster is.
fn job_on_unknown_hosts(name: &str, arrival: u64, count: u32) -> AppSpec {
    AppSpec {
        name: name.into(),
        arrival: SimTime(arrival),
        queue: "sls_queue_1".into(),
        user: "u".into(),
        am: Some(Resource::new(1024, 1)),
        stages: vec![
            (0..count)
                .map(|i| TaskGroup {
                    count: 1,
                    size: Resource::new(1024, 1),
                    duration_ms: 20_000,
                    priority: 10,
                    hosts: vec![format!("h{}.example.com", i % 4)],
                    relax_locality: true,
                })
                .collect(),
        ],
        recorded: None,
    }
}

fn finishes(sc: &Scenario) -> (RunSummary, Vec<Option<SimTime>>) {
    let mut rec = MemoryRecorder::default();
    let s = run(sc, 1, 0, &mut rec).expect("runs");
    (s, rec.apps.iter().map(|a| a.finish).collect())
}

#[test]
fn tasks_waiting_on_the_locality_delay_are_not_a_stall() {
    // One job of 20 tasks whose hosts name no node, on 4 nodes: every task waits for the
    // off-switch delay (20 asks × a wait factor of 1: more than 20 missed offers in 2.7, 4
    // in 3.3), counted one offer per node heartbeat. Before, with only the AM running and
    // every app arrived, the run was declared stalled at 1.5 s; one more app arriving at
    // 100 s kept it going, and the job finished. Now it finishes alone, at the same time.
    for s in ERAS {
        let alone = sls_scenario(s, 4, vec![job_on_unknown_hosts("job", 0, 20)]);
        let (summary, finish) = finishes(&alone);
        assert_eq!(summary.stalled_at, None, "{s}");
        assert_eq!(summary.get("apps_finished"), Some(1.0), "{s}");
        let with_later = sls_scenario(
            s,
            4,
            vec![
                job_on_unknown_hosts("job", 0, 20),
                job_on_unknown_hosts("later", 100_000, 1),
            ],
        );
        let (_, finish_with) = finishes(&with_later);
        assert_eq!(finish[0], finish_with[0], "{s}");
    }
}

/// The two jobs of `tests/data/traces/rumen-sls-sample-shape.json`, as SLS reads them in
/// `semantics`.
fn rumen_sample(semantics: Semantics) -> Vec<AppSpec> {
    let p =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/traces/rumen-sls-sample-shape.json");
    read_rumen_traces(
        &[p],
        RumenOptions {
            defaults: SlsDefaults::default(),
            semantics,
        },
    )
    .expect("a valid Rumen history")
    .apps
}

#[test]
fn hadoops_rumen_sample_finishes_both_jobs_under_the_capacity_scheduler() {
    // `rumen-sls-sample-shape.json` has the shape of hadoop-sls's 2jobs2min-rumen-jh.json:
    // two TeraGen jobs of 96 maps each, submitted 105 s apart at the sample's recorded
    // times, every map on a host (a2115 to a2118.smile.com) no node of these clusters is.
    // Before, the second job stalled on 4, 12 and 20 nodes in both eras.
    for s in ERAS {
        for nodes in [4u32, 12, 20] {
            let sc = sls_scenario(s, nodes, rumen_sample(s));
            let (summary, finish) = finishes(&sc);
            assert_eq!(summary.stalled_at, None, "{s} on {nodes} nodes");
            assert_eq!(
                summary.get("apps_finished"),
                Some(2.0),
                "{s} on {nodes} nodes"
            );
            assert!(finish.iter().all(Option::is_some), "{s} on {nodes} nodes");
        }
    }
}

/// Arrival, queue, tasks, size (512 MB units), duration, AM, hosts (an index past the
/// cluster's nodes names a host no node is) and whether the ask is kept to them.
type GenApp = (u64, usize, u32, i64, u64, bool, Vec<u32>, bool);

/// What a generated scenario is made of.
#[derive(Debug, Clone)]
struct Case {
    era33: bool,
    nodes: u32,
    racks: u32,
    node_locality_delay: i32,
    am_percent: f32,
    queues: usize,
    apps: Vec<GenApp>,
}

fn case() -> impl Strategy<Value = Case> {
    let app = (
        0u64..20_000,
        0usize..3,
        1u32..25,
        1i64..6,
        100u64..15_000,
        any::<bool>(),
        prop::collection::vec(0u32..9, 0..4),
        prop::bool::weighted(0.15),
    );
    (
        any::<bool>(),
        1u32..7,
        1u32..3,
        prop::sample::select(vec![-1i32, 0, 2, 5, 40]),
        prop::sample::select(vec![0.1f32, 0.5, 1.0]),
        1usize..4,
        prop::collection::vec(app, 1..6),
    )
        .prop_map(
            |(era33, nodes, racks, node_locality_delay, am_percent, queues, apps)| Case {
                era33,
                nodes,
                racks: racks.min(nodes),
                node_locality_delay,
                am_percent,
                queues,
                apps,
            },
        )
}

fn build(c: &Case) -> Scenario {
    let names: Vec<String> = (0..c.queues).map(|i| format!("q{i}")).collect();
    let mut props: Vec<(String, String)> = vec![("root.queues".into(), names.join(","))];
    let mut left = 100;
    for (i, q) in names.iter().enumerate() {
        let share = if i + 1 == c.queues {
            left
        } else {
            100 / c.queues
        };
        left -= share;
        props.push((format!("root.{q}.capacity"), share.to_string()));
        props.push((format!("root.{q}.maximum-capacity"), "100".into()));
    }
    props.push((
        "maximum-am-resource-percent".into(),
        format!("{}", c.am_percent),
    ));
    let refs: Vec<(&str, &str)> = props
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let tree = capacity_tree(&capacity_xml(&refs));
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, (t, q, n, units, d, am, hosts, strict))| {
            let hosts: Vec<String> = hosts
                .iter()
                .map(|&h| {
                    if h < c.nodes {
                        format!("node{h}")
                    } else {
                        format!("ghost{h}.example.com")
                    }
                })
                .collect();
            AppSpec {
                name: format!("a{k}"),
                arrival: SimTime(*t),
                queue: format!("q{}", q % c.queues),
                user: format!("u{}", k % 2),
                am: am.then_some(Resource::new(512, 1)),
                stages: vec![vec![TaskGroup {
                    count: *n,
                    size: Resource::new(units * 512, 1),
                    duration_ms: *d,
                    priority: 10,
                    // A strict ask needs a host (fairsim refuses one without).
                    relax_locality: !*strict || hosts.is_empty(),
                    hosts,
                }]],
                recorded: None,
            }
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    let mut sc = trace_scenario("cs-quiescence", tree, c.nodes, Resource::new(4096, 4), apps);
    sc.cluster = ClusterSpec {
        racks: c.racks,
        ..ClusterSpec::uniform(c.nodes, c.racks, Resource::new(4096, 4))
    };
    sc.scheduler.semantics = common::generator::era(c.era33);
    sc.scheduler.node_locality_delay = c.node_locality_delay;
    sc
}

#[test]
fn a_stalled_capacity_run_changes_nothing_afterwards() {
    let mut runner = TestRunner::new(generator::fixed_config(300, 0x10ca_1e55));
    // Stalled runs checked; runs that finished every app although some task waited on a
    // host no node is.
    let seen = std::cell::RefCell::new((0u32, 0u32));
    runner
        .run(&case(), |c| {
            let sc = build(&c);
            let mut rec = MemoryRecorder::default();
            let s = run(&sc, 1, 0, &mut rec).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let ghosts = c.apps.iter().any(|a| a.6.iter().any(|&h| h >= c.nodes));
            if s.stalled_at.is_none() {
                prop_assert_eq!(s.get("apps_unfinished"), Some(0.0));
                seen.borrow_mut().1 += u32::from(ghosts);
                return Ok(());
            }
            prop_assert_eq!(s.cycle_from, None, "no preemption: no cycle");
            let at = s.stalled_at.unwrap_or(SimTime::ZERO);
            // Far enough for every delay to run out many times over: each heartbeat offers
            // every node once, and no delay exceeds the tasks or the nodes.
            let mut longer = sc.clone();
            longer.end_ms = Some(at.0 + 400_000);
            let mut on = MemoryRecorder::default();
            let mut sim = Simulation::new(&longer, 1, 0, &mut on)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            sim.watch_stalls(false);
            sim.watch_cycles(false);
            let end = sim
                .run_to_end()
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            drop(sim);
            prop_assert_eq!(end.stalled_at, None);
            prop_assert_eq!(end.end, SimTime(at.0 + 400_000));
            // The same decisions, none after the stall, and no app finishing later.
            prop_assert_eq!(&on.decisions, &rec.decisions);
            let f = |r: &MemoryRecorder| r.apps.iter().map(|a| a.finish).collect::<Vec<_>>();
            prop_assert_eq!(f(&on), f(&rec));
            seen.borrow_mut().0 += 1;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let (stalled, waited) = seen.into_inner();
    assert!(stalled >= 20, "too few stalled runs checked: {stalled}");
    assert!(
        waited >= 50,
        "too few runs waiting on absent hosts: {waited}"
    );
}
