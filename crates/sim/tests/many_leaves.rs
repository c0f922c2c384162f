//! The update thread's queue level is kept up to date with what changed (touched leaves,
//! their ancestors, the parents whose split changed): over random trees of many leaves
//! (fair, DRF and FIFO parents, weights including 0, min and max shares, nested parents, a
//! queue created by placement during the run) in both eras, every update's loads, fair
//! shares and ideal shares equal `roll_up` and `fair_shares` over the whole tree
//! (`check_invariants` compares them at every tick and fails the run on a difference), and
//! naive and incremental ordering make the same decisions (with weight 0 or DRF in Hadoop
//! 2.7 both sort the persisted lists as Hadoop does: `scheduler::fair::sort_history`).

mod common;

use common::trees::{GenApp, GenTree, build_apps, build_tree, tree};
use fairsim_core::Resource;
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::run;
use fairsim_sim::scenario::{ClusterSpec, Ordering, Scenario, SchedulerConf};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

#[derive(Debug, Clone)]
struct Case {
    tree: GenTree,
    apps: Vec<GenApp>,
    era33: bool,
    created: bool,
}

fn case() -> impl Strategy<Value = Case> {
    let app = (
        0u64..40_000,
        0usize..200,
        1u32..6,
        1i64..3,
        500u64..12_000,
        Just(false),
    );
    (
        tree(1..4, 30..90, true),
        prop::collection::vec(app, 20..160),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(tree, apps, era33, created)| Case {
            tree,
            apps,
            era33,
            created,
        })
}

fn build(c: &Case, ordering: Ordering) -> Scenario {
    let (mut tree, names) = build_tree(&c.tree);
    for q in tree.queues.iter_mut().filter(|q| q.is_leaf) {
        q.max_am_share = -1.0;
    }
    // Some apps name a queue that does not exist yet: placement creates it.
    let apps = build_apps(&c.apps, &names, 1024, |k| {
        (c.created && k % 17 == 5).then(|| "root.made".to_string())
    });
    Scenario {
        scheduler: SchedulerConf {
            semantics: common::generator::era(c.era33),
            ordering,
            ..SchedulerConf::default()
        },
        end_ms: Some(120_000),
        ..common::scenarios::cluster_scenario(
            "many_leaves",
            tree,
            ClusterSpec::uniform(6, 2, Resource::new(8192, 8)),
            apps,
        )
    }
}

#[test]
fn kept_queue_shares_equal_the_whole_tree_computation() {
    let mut runner = TestRunner::new(common::generator::fixed_config(48, 0x0001_eafe));
    let wide = std::cell::Cell::new(0u32);
    let weight_zero = std::cell::Cell::new(0u32);
    runner
        .run(&case(), |c| {
            let mut naive = MemoryRecorder::default();
            let mut incremental = MemoryRecorder::default();
            let summary = run(&build(&c, Ordering::Incremental), 1, 0, &mut incremental)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            run(&build(&c, Ordering::Naive), 1, 0, &mut naive)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert!(summary.assignments > 0);
            prop_assert_eq!(&naive.decisions, &incremental.decisions);
            // Enough apps at once under one parent for the share search's planned sums.
            let mut per_leaf = std::collections::BTreeSet::new();
            for &(_, leaf, ..) in &c.apps {
                per_leaf.insert(leaf % c.tree.leaves.len());
            }
            wide.set(wide.get() + u32::from(per_leaf.len() >= 40));
            let zero = c.tree.leaves.iter().any(|l| l.1 == 0.0);
            weight_zero.set(weight_zero.get() + u32::from(zero && !c.era33));
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(wide.get() >= 10, "too few cases with many busy leaves");
    assert!(
        weight_zero.get() >= 10,
        "too few hadoop-2.7 cases with a weight-0 leaf"
    );
}
