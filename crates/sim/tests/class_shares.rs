//! Fair shares kept per configuration class at a parent (`queue_shares`): a leaf reads its
//! class's share, and a move of that share refreshes only the leaves whose fair-share
//! starvation flips, recounts the leaves whose open state reads the AM gate and marks the
//! apps' shares where they are kept. Over random trees (fair, DRF and FIFO parents, classes
//! of alike leaves, per-leaf starvation thresholds, maxAMShare, preemption on and off) in
//! both eras, `check_invariants` compares at every tick each queue's fair share with the
//! computation over the whole tree and each leaf's held metric terms (starvation flags,
//! Jain and deviation terms) with the terms its usage and shares give, bit for bit.

mod common;

use fairsim_core::{Policy, Resource};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::run;
use fairsim_sim::scenario::Scenario;
use fairsim_sim::tree::{QueueId, QueueTree};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn app(k: usize, arrival: u64, queue: &str, tasks: u32, mb: i64, am: bool, ms: u64) -> AppSpec {
    let mut app = common::apps::one_stage(arrival, queue, "u", tasks, Resource::new(mb, 1), ms);
    app.name = format!("a{k}");
    app.am = am.then(|| Resource::new(1024, 1));
    app.stages[0][0].priority = 10;
    app
}

fn scenario(tree: QueueTree, apps: Vec<AppSpec>, nodes: u32, node_mb: i64) -> Scenario {
    Scenario {
        end_ms: Some(60_000),
        ..common::scenarios::trace_scenario(
            "class_shares",
            tree,
            nodes,
            Resource::new(node_mb, 12),
            apps,
        )
    }
}

/// Two alike leaves (weight 1, no min or max share: one class) on a 12,288 MB node, the
/// default threshold 0.5. `a` arrives at 250 ms with one 4,096 MB task of 100 s: active
/// from the tick at 500 ms with the whole cluster as its share, so starved (4,096 <
/// 0.5 × 12,288 = 6,144). `b` arrives at 20,250 ms with one 1,024 MB task: from the tick
/// at 20,500 ms the class's share is 6,144 MB, which `a` does not fall below half of
/// (4,096 >= 3,072): `a`'s flag flips with its class's share alone, its usage and load
/// unchanged, so starved 20,500 - 500 = 20.0 s (60 s if the move were missed); `b` (1,024
/// < 3,072) from 20,500 ms to the end at 60,000 ms, 39.5 s.
#[test]
fn a_class_share_move_flips_a_leafs_fair_share_starvation() {
    let mut tree = QueueTree::with_root();
    for name in ["a", "b"] {
        let q = tree.add_queue(QueueId::ROOT, name, true);
        tree.get_mut(q).max_am_share = -1.0;
    }
    let apps = vec![
        app(0, 250, "root.a", 1, 4096, false, 100_000),
        app(1, 20_250, "root.b", 1, 1024, false, 100_000),
    ];
    let sc = scenario(tree, apps, 1, 12_288);
    let s = run(&sc, 1, 0, &mut MemoryRecorder::default()).expect("the run succeeds");
    assert_eq!(s.get("starved_fair_s.root.a"), Some(20.0));
    assert_eq!(s.get("starved_fair_s.root.b"), Some(39.5));
}

/// One leaf: parent slot (0 = root), weight, max share (GB), threshold, maxAMShare.
type GenLeaf = (usize, f32, Option<i64>, f32, f32);
/// One app: arrival (ms), leaf, tasks, size (GB), with an AM, duration (ms).
type GenApp = (u64, usize, u32, i64, bool, u64);

#[derive(Debug, Clone)]
struct Case {
    parents: Vec<Policy>,
    leaves: Vec<GenLeaf>,
    apps: Vec<GenApp>,
    era33: bool,
    preemption: bool,
}

fn case() -> impl Strategy<Value = Case> {
    let policy = prop::sample::select(vec![Policy::Fair, Policy::Fair, Policy::Drf, Policy::Fifo]);
    let leaf = (
        0usize..3,
        prop::sample::select(vec![1.0f32, 1.0, 1.0, 2.0, 0.5]),
        prop::option::weighted(0.15, 2i64..10),
        prop::sample::select(vec![0.5f32, 0.5, 0.0, 0.3, 0.8, 1.0]),
        prop::sample::select(vec![-1.0f32, 0.5, 0.1]),
    );
    let app = (
        0u64..30_000,
        0usize..100,
        1u32..6,
        1i64..3,
        any::<bool>(),
        500u64..15_000,
    );
    (
        prop::collection::vec(policy, 1..3),
        prop::collection::vec(leaf, 10..60),
        prop::collection::vec(app, 10..120),
        any::<bool>(),
        prop::bool::weighted(0.3),
    )
        .prop_map(|(parents, leaves, apps, era33, preemption)| Case {
            parents,
            leaves,
            apps,
            era33,
            preemption,
        })
}

fn build(c: &Case) -> Scenario {
    let mut tree = QueueTree::with_root();
    let parents: Vec<QueueId> = (c.parents.iter().enumerate())
        .map(|(k, &policy)| {
            let p = tree.add_queue(QueueId::ROOT, &format!("p{k}"), false);
            tree.get_mut(p).policy = policy;
            p
        })
        .collect();
    let mut names = Vec::new();
    for (k, &(slot, weight, max, threshold, am_share)) in c.leaves.iter().enumerate() {
        let parent = match slot {
            0 => QueueId::ROOT,
            s => parents[(s - 1) % parents.len()],
        };
        let q = tree.add_queue(parent, &format!("l{k}"), true);
        let conf = tree.get_mut(q);
        conf.weight = weight;
        conf.max_am_share = am_share;
        conf.fair_share_preemption_threshold = threshold;
        if let Some(gb) = max {
            conf.max_resources =
                fairsim_sim::tree::ResourceSpec::Absolute(Resource::new(gb * 1024, 2 * gb));
        }
        names.push(conf.name.clone());
    }
    let mut apps: Vec<AppSpec> = (c.apps.iter().enumerate())
        .map(|(k, &(t, leaf, n, gb, am, d))| {
            app(k, t, &names[leaf % names.len()], n, gb * 1024, am, d)
        })
        .collect();
    apps.sort_by_key(|a| a.arrival);
    let mut sc = scenario(tree, apps, 5, 8192);
    sc.cluster.racks = 2;
    sc.scheduler.semantics = common::generator::era(c.era33);
    sc.scheduler.preemption = c.preemption;
    sc
}

#[test]
fn class_shares_and_leaf_terms_equal_the_direct_computation() {
    let mut runner = TestRunner::new(common::generator::fixed_config(40, 0x0c1a_55e5));
    runner
        .run(&case(), |c| {
            let sc = build(&c);
            let summary = run(&sc, 1, 0, &mut MemoryRecorder::default())
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(summary.assignments > 0);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
}
