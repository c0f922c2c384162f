//! The update thread's queue level is kept up to date with what changed (touched leaves,
//! their ancestors, the parents whose split changed): over random trees of many leaves
//! (fair, DRF and FIFO parents, weights including 0, min and max shares, nested parents, a
//! queue created by placement during the run) in both eras, every update's loads, fair
//! shares and ideal shares equal `roll_up` and `fair_shares` over the whole tree
//! (`check_invariants` compares them at every tick and fails the run on a difference).

use fairsim_core::{Policy, Resource, Semantics};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec};
use fairsim_sim::{SimTime, run};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestRunner};

/// One leaf: parent slot (0 = root), weight, min share (GB), max share (GB).
type GenLeaf = (usize, f32, Option<i64>, Option<i64>);
/// One app: arrival (ms), leaf, tasks, size (GB), duration (ms).
type GenApp = (u64, usize, u32, i64, u64);

#[derive(Debug, Clone)]
struct Case {
    parents: Vec<Policy>,
    leaves: Vec<GenLeaf>,
    apps: Vec<GenApp>,
    era33: bool,
    created: bool,
}

fn case() -> impl Strategy<Value = Case> {
    let policy = prop::sample::select(vec![Policy::Fair, Policy::Fair, Policy::Drf, Policy::Fifo]);
    let leaf = (
        0usize..4,
        prop::sample::select(vec![1.0f32, 1.0, 2.0, 3.0, 0.5, 0.0]),
        prop::option::weighted(0.2, 1i64..6),
        prop::option::weighted(0.2, 1i64..12),
    );
    let app = (0u64..40_000, 0usize..200, 1u32..6, 1i64..3, 500u64..12_000);
    (
        prop::collection::vec(policy, 1..4),
        prop::collection::vec(leaf, 30..90),
        prop::collection::vec(app, 20..160),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(parents, leaves, apps, era33, created)| Case {
            parents,
            leaves,
            apps,
            era33,
            created,
        })
}

fn build(c: &Case) -> Scenario {
    let mut tree = QueueTree::with_root();
    let parents: Vec<QueueId> = c
        .parents
        .iter()
        .enumerate()
        .map(|(k, &policy)| {
            let p = tree.add_queue(QueueId::ROOT, &format!("p{k}"), false);
            tree.get_mut(p).policy = policy;
            p
        })
        .collect();
    let mut names = Vec::new();
    for (k, &(slot, weight, min, max)) in c.leaves.iter().enumerate() {
        let parent = match slot {
            0 => QueueId::ROOT,
            s => parents[(s - 1) % parents.len()],
        };
        let q = tree.add_queue(parent, &format!("l{k}"), true);
        let conf = tree.get_mut(q);
        conf.weight = weight;
        conf.max_am_share = -1.0;
        if let Some(gb) = min {
            conf.min_resources = ResourceSpec::Absolute(Resource::new(gb * 1024, gb));
        }
        if let Some(gb) = max {
            conf.max_resources = ResourceSpec::Absolute(Resource::new(gb * 1024, 2 * gb));
        }
        names.push(conf.name.clone());
    }
    let mut apps: Vec<AppSpec> = c
        .apps
        .iter()
        .enumerate()
        .map(|(k, &(t, leaf, n, gb, d))| AppSpec {
            name: format!("a{k}"),
            arrival: SimTime(t),
            // Some apps name a queue that does not exist yet: placement creates it.
            queue: if c.created && k % 17 == 5 {
                "root.made".into()
            } else {
                names[leaf % names.len()].clone()
            },
            user: "u".into(),
            am: None,
            stages: vec![vec![TaskGroup {
                count: n,
                size: Resource::new(gb * 1024, 1),
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
        name: "many_leaves".into(),
        path: None,
        cluster: ClusterSpec {
            nodes: 6,
            racks: 2,
            node_memory_mb: 8192,
            node_vcores: 8,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf {
            semantics: if c.era33 {
                Semantics::Hadoop33
            } else {
                Semantics::Hadoop27
            },
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

#[test]
fn kept_queue_shares_equal_the_whole_tree_computation() {
    let mut runner = TestRunner::new(Config {
        cases: 48,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(0x0001_eafe),
        failure_persistence: None,
        ..Config::default()
    });
    let wide = std::cell::Cell::new(0u32);
    runner
        .run(&case(), |c| {
            let sc = build(&c);
            let mut rec = MemoryRecorder::default();
            let summary =
                run(&sc, 1, 0, &mut rec).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(summary.assignments > 0);
            // Enough apps at once under one parent for the share search's planned sums.
            let mut per_leaf = std::collections::BTreeSet::new();
            for &(_, leaf, ..) in &c.apps {
                per_leaf.insert(leaf % c.leaves.len());
            }
            wide.set(wide.get() + u32::from(per_leaf.len() >= 40));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(wide.get() >= 10, "too few cases with many busy leaves");
}
