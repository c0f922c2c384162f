//! What a run counts: an app submitted after the run's end is not in the run (no count, no
//! percentile, no `apps.csv` row), and apps that ask for nothing (a task group of zero
//! containers, an unmanaged app without tasks) finish and are recorded once.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::scenarios::{capacity_tree, capacity_xml, fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::scenario::{Scenario, Workload};
use fairsim_sim::workload::{SlsDefaults, sls::parse_sls};
use fairsim_sim::{FileRecorder, MemoryRecorder, RunSummary, SimTime, run};
use std::path::Path;

/// An SLS trace of `n` one-task jobs, job `i` submitted at `i` seconds into `sls_queue_1`
/// or `sls_queue_2` (alternately), each task running 10 s on any host.
fn sls_jobs(n: u32) -> Vec<AppSpec> {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            "{{ \"job.start.ms\": {}, \"job.queue.name\": \"sls_queue_{}\", \"job.id\": \"job_{i}\",\n\
               \"job.tasks\": [ {{ \"count\": 1, \"duration.ms\": 10000 }} ] }}\n",
            i * 1000,
            1 + i % 2
        ));
    }
    parse_sls(
        Path::new("jobs.json"),
        text.as_bytes(),
        SlsDefaults::default(),
    )
    .expect("a valid SLS trace")
    .apps
}

/// The two SLS queues under the Fair Scheduler on `nodes` nodes of 8 GB, cut at `end_ms`.
fn sls_scenario(apps: Vec<AppSpec>, nodes: u32, end_ms: Option<u64>) -> Scenario {
    let tree = fair_tree(
        "<allocations><queue name=\"sls_queue_1\"/><queue name=\"sls_queue_2\"/></allocations>",
        Semantics::Hadoop27,
    );
    Scenario {
        end_ms,
        ..trace_scenario("cut", tree, nodes, Resource::new(8 * GB, 8), apps)
    }
}

fn get(s: &RunSummary, k: &str) -> f64 {
    s.get(k).unwrap_or_else(|| panic!("no metric {k}"))
}

/// `apps.csv` of a run of `sc` written by the file recorder: its rows without the header.
fn apps_csv(sc: &Scenario) -> (RunSummary, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let mut rec = FileRecorder::new(dir.path());
    let summary = run(sc, 1, 0, &mut rec).unwrap_or_else(|e| panic!("the run fails: {e}"));
    let text = std::fs::read_to_string(dir.path().join("apps.csv")).unwrap();
    let rows = text.lines().skip(1).map(String::from).collect();
    (summary, rows)
}

#[test]
fn apps_submitted_after_the_end_are_not_in_the_run() {
    // 5,000 jobs, one a second, cut at 60 s: 61 were submitted (at 0 s to 60 s inclusive:
    // the end comes after everything else of its millisecond). Before, the run counted all
    // 5,000: "4996 unfinished (4937 never started)".
    let sc = sls_scenario(sls_jobs(5_000), 1, Some(60_000));
    let (summary, rows) = apps_csv(&sc);
    assert_eq!(get(&summary, "apps"), 61.0);
    assert_eq!(summary.apps_not_arrived, 5_000 - 61);
    assert!(
        summary.to_json().contains("\"apps_not_arrived\": 4939"),
        "{}",
        summary.to_json()
    );
    let finished = get(&summary, "apps_finished");
    let unfinished = get(&summary, "apps_unfinished");
    assert_eq!(finished + unfinished + get(&summary, "apps_rejected"), 61.0);
    assert!(get(&summary, "apps_never_started") <= unfinished);
    // Per queue: 31 jobs of queue 1 (even seconds 0 to 60) and 30 of queue 2.
    assert_eq!(get(&summary, "apps.root.sls_queue_1"), 31.0);
    assert_eq!(get(&summary, "apps.root.sls_queue_2"), 30.0);
    for q in ["root.sls_queue_1", "root.sls_queue_2"] {
        let n = get(&summary, &format!("apps.{q}"));
        let parts = get(&summary, &format!("apps_finished.{q}"))
            + get(&summary, &format!("apps_unfinished.{q}"))
            + get(&summary, &format!("apps_rejected.{q}"));
        assert_eq!(n, parts, "{q}");
    }
    // apps.csv: one row per submitted app, in index order.
    assert_eq!(rows.len(), 61);
    let indices: Vec<u32> = rows
        .iter()
        .map(|r| r.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(indices, (0..61).collect::<Vec<u32>>());
    // The same through the memory recorder.
    let mut mem = MemoryRecorder::default();
    run(&sc, 1, 0, &mut mem).unwrap();
    assert_eq!(mem.apps.len(), 61);
    assert!(mem.apps.iter().all(|a| a.arrival <= SimTime(60_000)));
}

#[test]
fn a_run_without_an_end_counts_every_app() {
    let sc = sls_scenario(sls_jobs(30), 4, None);
    let (summary, rows) = apps_csv(&sc);
    assert_eq!(get(&summary, "apps"), 30.0);
    assert_eq!(get(&summary, "apps_finished"), 30.0);
    assert_eq!(summary.apps_not_arrived, 0);
    assert!(!summary.to_json().contains("apps_not_arrived"));
    assert_eq!(rows.len(), 30);
}

/// TestLeafQueue's queue `a` (8.5 %, maximum 100 %) and its siblings, as
/// `hadoop_tests_capacity.rs` builds them, with testUserLimits' user limits.
fn user_limits_scenario(apps: Vec<AppSpec>) -> Scenario {
    let xml = capacity_xml(&[
        ("root.queues", "a,b,c,d,e"),
        ("root.a.capacity", "8.5"),
        ("root.a.maximum-capacity", "100"),
        ("root.b.capacity", "80"),
        ("root.c.capacity", "1.5"),
        ("root.d.capacity", "9"),
        ("root.e.capacity", "1"),
        ("root.a.minimum-user-limit-percent", "50"),
        ("root.a.user-limit-factor", "2"),
    ]);
    let mut sc = trace_scenario(
        "user-limits",
        capacity_tree(&xml),
        2,
        Resource::new(8 * GB, 16),
        apps,
    );
    sc.scheduler.semantics = Semantics::Hadoop33;
    sc.end_ms = Some(60_000);
    sc
}

#[test]
fn a_task_group_of_zero_containers_asks_for_nothing() {
    // testUserLimits submits an app of user_1 whose ask is zero containers; YARN allocates
    // nothing for it. The app (unmanaged, as TestLeafQueue's) has nothing to run: it
    // finishes as it is submitted, and the others are served as without it. Before, the run
    // ended with "app 2's apps.csv row came after it was written".
    let app = |arrival, user: &str, count, mb| AppSpec {
        name: format!("{user}-{arrival}"),
        ..one_stage(arrival, "a", user, count, Resource::new(mb, 1), LONG_MS)
    };
    let with_zero = vec![
        app(0, "user_0", 2, 3 * GB),
        app(1, "user_1", 2, GB),
        app(2, "user_1", 0, GB),
    ];
    let (summary, rows) = apps_csv(&user_limits_scenario(with_zero.clone()));
    assert_eq!(rows.len(), 3);
    assert!(
        rows[2].starts_with("2,user_1-2,root.a,user_1,2,,2,0,0,0,,,,1.000000,0,0,0,finished"),
        "{}",
        rows[2]
    );
    assert_eq!(get(&summary, "apps_finished"), 1.0);
    assert_eq!(get(&summary, "apps_never_started"), 0.0);
    // The same allocations as without the empty app.
    let allocs = |apps: Vec<AppSpec>| {
        let mut rec = MemoryRecorder::default();
        run(&user_limits_scenario(apps), 1, 0, &mut rec).unwrap();
        rec.decisions
            .iter()
            .map(|d| (d.time, d.app, d.size))
            .collect::<Vec<_>>()
    };
    assert_eq!(allocs(with_zero.clone()), allocs(with_zero[..2].to_vec()));
}

/// An app of the native CSV's shapes: `am` or unmanaged, stages of `counts` tasks.
fn shaped(i: u32, am: bool, counts: &[&[u32]]) -> AppSpec {
    AppSpec {
        name: format!("app{i}"),
        arrival: SimTime(u64::from(i) * 500),
        queue: "default".into(),
        user: "u".into(),
        am: am.then_some(Resource::new(GB, 1)),
        stages: counts
            .iter()
            .map(|s| {
                s.iter()
                    .map(|&count| TaskGroup {
                        count,
                        size: Resource::new(GB, 1),
                        duration_ms: 2_000,
                        priority: 10,
                        hosts: vec![],
                        relax_locality: true,
                    })
                    .collect()
            })
            .collect(),
        recorded: None,
    }
}

#[test]
fn apps_that_ask_for_nothing_finish_and_are_recorded_once() {
    // An unmanaged app with no task at all (one group of zero containers, as the CSV writes
    // it), one whose first stage is empty, a managed one with only an empty group, and
    // ordinary apps around them; under both schedulers and with maxRunningApps holding apps
    // back.
    let apps = vec![
        shaped(0, true, &[&[2]]),
        shaped(1, false, &[&[0]]),
        shaped(2, false, &[&[0], &[2]]),
        shaped(3, true, &[&[0]]),
        shaped(4, false, &[&[1, 0]]),
        shaped(5, false, &[]),
        shaped(6, true, &[&[1]]),
    ];
    let fair = fair_tree(
        "<allocations><queue name=\"default\"/>\
         <user name=\"u\"><maxRunningApps>1</maxRunningApps></user></allocations>",
        Semantics::Hadoop33,
    );
    let capacity = capacity_tree(&capacity_xml(&[
        ("root.queues", "default"),
        ("root.default.capacity", "100"),
    ]));
    for tree in [fair, capacity] {
        let sc = Scenario {
            workload: Workload::Trace(apps.clone()),
            ..trace_scenario("empty", tree, 2, Resource::new(8 * GB, 8), vec![])
        };
        let (summary, rows) = apps_csv(&sc);
        assert_eq!(rows.len(), 7);
        assert_eq!(get(&summary, "apps_finished"), 7.0, "{rows:?}");
        for i in [1usize, 5] {
            let arrival = i * 500;
            // Submitted, finished at once, no container: wait, run time and jct 0.
            assert!(
                rows[i].starts_with(&format!("{i},app{i},"))
                    && rows[i].contains(&format!(",u,{arrival},,{arrival},0,0,0,"))
                    && rows[i].ends_with(",0,0,0,finished"),
                "{}",
                rows[i]
            );
        }
    }
}

/// Random native-CSV-shaped workloads (managed or not, stages of task groups of 0 to 3
/// containers, some apps asking for nothing), under both schedulers, cut or not: every run
/// writes its files, with one `apps.csv` row per app submitted by the end, by index.
#[test]
fn every_random_workload_writes_one_row_per_app_in_the_run() {
    use proptest::prelude::*;
    let app = (
        any::<bool>(),
        prop::collection::vec(prop::collection::vec(0u32..4, 1..3), 0..3),
    );
    let case = (
        prop::collection::vec(app, 1..10),
        any::<bool>(),
        prop::option::of(0u64..6_000),
    );
    let mut runner =
        proptest::test_runner::TestRunner::new(common::generator::fixed_config(200, 0x0c5f_0a99));
    let with_empty = std::cell::Cell::new(0u32);
    runner
        .run(&case, |(apps, capacity, end_ms)| {
            let apps: Vec<AppSpec> = apps
                .iter()
                .enumerate()
                .map(|(i, (am, stages))| {
                    let counts: Vec<&[u32]> = stages.iter().map(Vec::as_slice).collect();
                    shaped(i as u32, *am, &counts)
                })
                .collect();
            let empty = apps
                .iter()
                .any(|a| a.am.is_none() && a.stages.iter().flatten().all(|g| g.count == 0));
            with_empty.set(with_empty.get() + u32::from(empty));
            let tree = if capacity {
                capacity_tree(&capacity_xml(&[
                    ("root.queues", "default"),
                    ("root.default.capacity", "100"),
                ]))
            } else {
                fair_tree("<allocations/>", Semantics::Hadoop27)
            };
            let arrived = apps
                .iter()
                .filter(|a| end_ms.is_none_or(|e| a.arrival.0 <= e))
                .count();
            let sc = Scenario {
                end_ms,
                workload: Workload::Trace(apps),
                ..trace_scenario("random", tree, 2, Resource::new(4 * GB, 4), vec![])
            };
            let (summary, rows) = apps_csv(&sc);
            prop_assert_eq!(rows.len(), arrived);
            prop_assert_eq!(get(&summary, "apps"), arrived as f64);
            let indices: Vec<usize> = rows
                .iter()
                .map(|r| {
                    r.split(',')
                        .next()
                        .unwrap_or("")
                        .parse()
                        .unwrap_or(usize::MAX)
                })
                .collect();
            prop_assert_eq!(indices, (0..arrived).collect::<Vec<_>>());
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let with_empty = with_empty.get();
    assert!(
        with_empty >= 20,
        "too few workloads with an empty app: {with_empty}"
    );
}
