//! The per-leaf metrics `fairsim compare --seeds` reports beside waits and preemptions:
//! `share_deviation.<queue>` (the leaf's term of `deviation_mean`) and
//! `am_limit_blocks.<queue>` (apps whose AM the leaf's AM limit would not take when they
//! became runnable), under both schedulers and both eras.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::{metric, run_recorded};
use common::scenarios::{capacity_xml, fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_any_xml;
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{Scenario, SchedulerConf};
use fairsim_sim::tree::QueueTree;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

fn with_era(era: Semantics, end_ms: u64, sc: Scenario) -> Scenario {
    Scenario {
        scheduler: SchedulerConf {
            semantics: era,
            ..SchedulerConf::default()
        },
        end_ms: Some(end_ms),
        ..sc
    }
}

fn two_fair_leaves(era: Semantics, max_am_share: &str) -> QueueTree {
    fair_tree(
        &format!(
            "<allocations><queueMaxAMShareDefault>{max_am_share}</queueMaxAMShareDefault>\
             <queue name=\"a\"/><queue name=\"b\"/></allocations>"
        ),
        era,
    )
}

fn capacity_leaves(era: Semantics, am_percent: &str) -> QueueTree {
    let xml = capacity_xml(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.a.maximum-capacity", "100"),
        ("root.b.maximum-capacity", "100"),
        ("root.a.user-limit-factor", "2"),
        ("root.b.user-limit-factor", "2"),
        ("maximum-am-resource-percent", am_percent),
    ]);
    parse_any_xml(&xml, "capacity-scheduler.xml", era)
        .expect("valid file")
        .tree
}

/// A managed app: an AM of `am_gb`, then `tasks` tasks of 1 GB that outlive the run.
fn managed(arrival: u64, queue: &str, am_gb: i64, tasks: u32) -> AppSpec {
    AppSpec {
        am: Some(Resource::new(am_gb * GB, 1)),
        ..one_stage(arrival, queue, "u", tasks, Resource::new(GB, 1), LONG_MS)
    }
}

/// b's app takes the whole 4 GB node at 0 s with tasks that outlive the run; a's asks from
/// 100 s and, with no preemption, gets nothing. From the first update after 100 s (at
/// 100 s or 100.5 s) both ideal shares are 2 GB: a holds 2 GB less than its ideal, b 2 GB
/// more. Over 200 s of a 4 GB cluster a's deviation is 2048 × (100,000 or 99,500) /
/// (4096 × 200,000) = 0.25 or 0.24875; b's is the same plus what its ramp to 4 GB in the
/// first seconds adds (under 4 heartbeats of 4 GB: at most 0.02). Before 100 s a has no
/// demand, so no ideal share, and deviates by nothing. The leaves' terms sum to
/// deviation_mean.
#[test]
fn share_deviation_is_each_leafs_term_of_the_mean() {
    for era in ERAS {
        let apps = vec![
            one_stage(0, "b", "u", 4, Resource::new(GB, 1), LONG_MS),
            one_stage(100_000, "a", "u", 4, Resource::new(GB, 1), LONG_MS),
        ];
        let tree = two_fair_leaves(era, "-1");
        let sc = with_era(
            era,
            200_000,
            trace_scenario("deviation", tree, 1, Resource::new(4 * GB, 4), apps),
        );
        let (_, summary) = run_recorded(&sc);
        let a = metric(&summary, "share_deviation.root.a");
        let b = metric(&summary, "share_deviation.root.b");
        assert!((0.24875..=0.25).contains(&a), "{era}: a {a}");
        assert!((0.24875..=0.27).contains(&b), "{era}: b {b}");
        let mean = metric(&summary, "deviation_mean");
        let default = metric(&summary, "share_deviation.root.default");
        assert_eq!(default, 0.0);
        assert!(
            (a + b + default - mean).abs() <= 1e-12,
            "{era}: {a} + {b} vs {mean}"
        );
    }
}

/// The same identity under the Capacity Scheduler, whose runs have ideal shares too: two
/// leaves saturated at different times.
#[test]
fn capacity_leaves_sum_to_the_mean_deviation() {
    for era in ERAS {
        let apps = vec![
            one_stage(0, "a", "u", 8, Resource::new(GB, 1), 30_000),
            one_stage(5_000, "b", "v", 8, Resource::new(GB, 1), 20_000),
        ];
        let tree = capacity_leaves(era, "0.1");
        let sc = with_era(
            era,
            120_000,
            trace_scenario("cs-deviation", tree, 1, Resource::new(8 * GB, 8), apps),
        );
        let (_, summary) = run_recorded(&sc);
        let a = metric(&summary, "share_deviation.root.a");
        let b = metric(&summary, "share_deviation.root.b");
        let mean = metric(&summary, "deviation_mean");
        assert!(a > 0.0 && b > 0.0, "{era}: {a} {b}");
        assert!((a + b - mean).abs() <= 1e-12, "{era}: {a} + {b} vs {mean}");
    }
}

/// Capacity Scheduler, one 10 GB node, leaf a at 50 % with a maximum of 100 %, one user,
/// user-limit-factor 2; b's app comes last, so a's current limit stays the whole node. a's AM
/// limit is 10 % of the larger of its 5 GB guarantee and that 10 GB: 1,024 MB, and its
/// user's 5,120 × 0.1 × 1 × 2 = 1,024 MB. The first app's 1 GB AM is activated (no app is
/// yet); the apps arriving at 10 s (1 GB AM) and 20 s (2 GB) would bring AMs to 2 and 3 GB:
/// two blocks. At 0.25 both limits are 2,560 MB rounded up to 3,072: the second app's 2 GB
/// fits, the third's 4 GB does not: one block. b's lone app is never blocked.
#[test]
fn capacity_am_limit_blocks_count_apps_waiting_for_am_room() {
    for era in ERAS {
        for (percent, blocked) in [("0.1", 2.0), ("0.25", 1.0)] {
            let apps = vec![
                managed(0, "a", 1, 1),
                managed(10_000, "a", 1, 1),
                managed(20_000, "a", 2, 1),
                managed(30_000, "b", 1, 1),
            ];
            let tree = capacity_leaves(era, percent);
            let sc = with_era(
                era,
                60_000,
                trace_scenario("cs-am", tree, 1, Resource::new(10 * GB, 10), apps),
            );
            let (_, summary) = run_recorded(&sc);
            assert_eq!(
                metric(&summary, "am_limit_blocks.root.a"),
                blocked,
                "{era} {percent}"
            );
            assert_eq!(metric(&summary, "am_limit_blocks.root.b"), 0.0);
        }
    }
}

/// Fair Scheduler, one 10 GB node, maxAMShare 0.5, leaf a alone active: its fair share is
/// the cluster, its AM limit 5 GB. Apps with 2 GB AMs arrive at 1.25 s, 10 s, 20 s and 30 s,
/// each with one 1 GB task: the first two AMs (4 GB) fit, the third and fourth (6 GB) do
/// not: two blocks in hadoop-3.3. Hadoop 2.7 computes the limit from the fair share alone,
/// which an idle leaf has not been given before the update after its first app arrives: the
/// first app counts too (three). With maxAMShare −1 nothing is blocked.
#[test]
fn fair_am_limit_blocks_count_apps_maxamshare_holds_back() {
    for (era, blocked) in [(Semantics::Hadoop27, 3.0), (Semantics::Hadoop33, 2.0)] {
        for (share, want) in [("0.5", blocked), ("-1", 0.0)] {
            let apps = vec![
                managed(1_250, "a", 2, 1),
                managed(10_000, "a", 2, 1),
                managed(20_000, "a", 2, 1),
                managed(30_000, "a", 2, 1),
            ];
            let tree = two_fair_leaves(era, share);
            let sc = with_era(
                era,
                60_000,
                trace_scenario("fs-am", tree, 1, Resource::new(10 * GB, 10), apps),
            );
            let (_, summary) = run_recorded(&sc);
            assert_eq!(
                metric(&summary, "am_limit_blocks.root.a"),
                want,
                "{era} maxAMShare {share}"
            );
        }
    }
}
