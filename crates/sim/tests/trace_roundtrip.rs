//! Any workload `fairsim trace` writes reads back as the same apps (seeded property test).

use fairsim_core::Resource;
use fairsim_sim::SimTime;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::workload::csv::{parse_csv_trace, write_csv_trace};
use proptest::prelude::*;
use std::path::Path;

mod common;

fn group() -> impl Strategy<Value = TaskGroup> {
    (
        1u32..50,
        1i64..65_536,
        1i64..16,
        0u64..10_000_000,
        -5i32..30,
        proptest::collection::vec("[a-z0-9./-]{1,12}", 0..3),
    )
        .prop_map(|(count, mb, vc, duration_ms, priority, hosts)| TaskGroup {
            count,
            size: Resource::new(mb, vc),
            duration_ms,
            priority,
            hosts,
            relax_locality: true,
        })
}

fn app() -> impl Strategy<Value = AppSpec> {
    (
        "[a-z_0-9]{1,8}",
        0u64..1_000_000,
        "[a-z]([a-z., \"]{0,8}[a-z])?",
        "[a-z]{1,6}",
        proptest::option::of((1i64..8192, 1i64..4)),
        proptest::collection::vec(proptest::collection::vec(group(), 0..3), 0..3),
    )
        .prop_map(|(name, arrival, queue, user, am, stages)| AppSpec {
            name,
            arrival: SimTime(arrival),
            queue,
            user,
            am: am.map(|(m, v)| Resource::new(m, v)),
            stages,
            recorded: None,
        })
}

/// What the CSV can say of an app: stages up to the last non-empty one (an app with no task
/// at all is one group of zero tasks).
fn as_csv_reads_it(mut a: AppSpec) -> AppSpec {
    while a.stages.last().is_some_and(Vec::is_empty) {
        a.stages.pop();
    }
    if a.stages.is_empty() {
        a.stages = vec![vec![TaskGroup {
            count: 0,
            size: Resource::new(0, 0),
            duration_ms: 0,
            priority: 20,
            hosts: vec![],
            relax_locality: true,
        }]];
    }
    a
}

proptest! {
    // Widened by `FAIRSIM_PROP_SEED` and `FAIRSIM_PROP_SCALE`; its regressions file still replays.
    #![proptest_config(common::generator::widened(ProptestConfig { cases: 200, rng_seed: proptest::test_runner::RngSeed::Fixed(20261123), ..ProptestConfig::default() }))]

    #[test]
    fn written_apps_read_back_the_same(mut apps in proptest::collection::vec(app(), 0..12)) {
        apps.sort_by_key(|a| a.arrival);
        let back = parse_csv_trace(&write_csv_trace(&apps), Path::new("t.csv")).unwrap();
        prop_assert_eq!(back.len(), apps.len());
        for (b, a) in back.iter().zip(&apps) {
            let want = as_csv_reads_it(a.clone());
            let twin = format!("{}~", want.name);
            prop_assert!(b.name == want.name || b.name.starts_with(&twin), "{} for {}", b.name, want.name);
            prop_assert_eq!(&b.stages, &want.stages);
            prop_assert_eq!((b.arrival, &b.queue, &b.user, b.am), (want.arrival, &want.queue, &want.user, want.am));
        }
    }
}
