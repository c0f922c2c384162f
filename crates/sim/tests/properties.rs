//! Randomised checks (seeded proptest): naive and incremental ordering make the same
//! decisions event for event, with the invariant checker on after every event.
//!
//! Runs have no end time: each ends when every app finished or when it stalls (apps left
//! that no future event can help, as YARN would hang; see `engine`'s "Quiescence"). Some
//! generated cases do stall: AMs of 512 MB/1 vcore fill every vcore of a one-node cluster
//! (maxAMShare compares memory only under the fair policy) and wait for tasks that can never
//! fit. The test checks that apps are left unfinished only in a run reported as stalled.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{ClusterSpec, Ordering, Scenario, SchedulerConf, Workload};
use fairsim_sim::tree::{QueueId, QueueTree};
use fairsim_sim::{SimTime, run};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

#[derive(Debug, Clone)]
struct Case {
    nodes: u32,
    weights: Vec<f32>,
    apps: Vec<(u64, usize, u32, i64, u64, bool)>,
    multiple: bool,
    sizebased: bool,
    era33: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..5,
        prop::collection::vec(prop::sample::select(vec![0.5f32, 1.0, 2.0, 3.0]), 1..4),
        prop::collection::vec(
            (
                0u64..20_000,
                0usize..4,
                1u32..8,
                1i64..5,
                100u64..20_000,
                any::<bool>(),
            ),
            1..20,
        ),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(nodes, weights, apps, multiple, sizebased, era33)| Case {
            nodes,
            weights,
            apps,
            multiple,
            sizebased,
            era33,
        })
}

fn build(c: &Case, ordering: Ordering) -> Scenario {
    let mut tree = QueueTree::with_root();
    for (i, w) in c.weights.iter().enumerate() {
        let q = tree.add_queue(QueueId::ROOT, &format!("q{i}"), true);
        tree.get_mut(q).weight = *w;
    }
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, &(t, q, n, gb, d, am))| AppSpec {
            name: format!("a{k}"),
            arrival: SimTime(t),
            queue: format!("q{}", q % c.weights.len()),
            user: "u".into(),
            am: am.then_some(Resource::new(512, 1)),
            stages: vec![vec![TaskGroup {
                count: n,
                size: Resource::new(gb * 512, 1),
                duration_ms: d,
                priority: 10,
                hosts: vec![],
                relax_locality: true,
            }]],
            recorded: None,
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    Scenario {
        name: "p".into(),
        path: None,
        cluster: ClusterSpec {
            nodes: c.nodes,
            racks: 1,
            node_memory_mb: 4096,
            node_vcores: 4,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf {
            semantics: if c.era33 {
                Semantics::Hadoop33
            } else {
                Semantics::Hadoop27
            },
            assignmultiple: c.multiple,
            sizebasedweight: c.sizebased,
            ordering,
            ..SchedulerConf::default()
        },
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: None,
        sample_interval_ms: 0,
        check_invariants: true,
    }
}

#[test]
fn naive_and_incremental_ordering_decide_identically_and_keep_invariants() {
    let config = Config {
        cases: 64,
        ..Config::default()
    };
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]);
    let mut runner = TestRunner::new_with_rng(config, rng);
    runner
        .run(&case(), |c| {
            let mut a = MemoryRecorder::default();
            let mut b = MemoryRecorder::default();
            let sa = run(&build(&c, Ordering::Incremental), 1, 0, &mut a)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let sb = run(&build(&c, Ordering::Naive), 1, 0, &mut b)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&a.decisions, &b.decisions);
            let unfinished = sa.get("apps_unfinished").unwrap_or(0.0);
            prop_assert!(unfinished == 0.0 || sa.stalled_at == Some(sa.end));
            // JSON text: a queue without apps has NaN percentiles, which never equal themselves.
            prop_assert_eq!(sa.to_json(), sb.to_json());
            Ok(())
        })
        .unwrap();
}
