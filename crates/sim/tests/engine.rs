//! End-to-end conformance cases through the whole simulator (hadoop-semantics.md §9).

mod common;

use common::apps::one_stage;
use common::outcomes::{containers_per_app, run_sampled};
use common::scenarios::trace_scenario;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::Scenario;
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec};
use fairsim_sim::{SimTime, run};

fn app(arrival: u64, queue: &str, user: &str, count: u32, mb: i64, dur: u64) -> AppSpec {
    one_stage(arrival, queue, user, count, Resource::new(mb, 1), dur)
}

fn low_max_tree() -> QueueTree {
    let mut t = QueueTree::with_root();
    let a = t.add_queue(QueueId::ROOT, "A", true);
    let b = t.add_queue(QueueId::ROOT, "B", true);
    t.get_mut(a).weight = 0.75;
    t.get_mut(a).max_resources = ResourceSpec::Absolute(Resource::new(1024, 1));
    t.get_mut(b).weight = 0.25;
    t.get_mut(b).max_resources = ResourceSpec::Absolute(Resource::new(3072, 3));
    t
}

fn low_max(semantics: Semantics) -> Vec<usize> {
    let apps = vec![
        app(0, "A", "u", 2, 1024, 1_000_000),
        app(0, "B", "u", 4, 1024, 1_000_000),
    ];
    let mut sc = trace_scenario("t", low_max_tree(), 1, Resource::new(8192, 8), apps);
    sc.scheduler.semantics = semantics;
    // Six heartbeats: at 0, 1000, ..., 5000 ms.
    sc.end_ms = Some(5_500);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    containers_per_app(&rec, 2)
}

#[test]
fn low_max_resources_hadoop33_after_six_heartbeats_a1_b3() {
    assert_eq!(low_max(Semantics::Hadoop33), vec![1, 3]);
}

#[test]
fn low_max_resources_hadoop27_overshoots_by_one_container() {
    // 2.7 checks only current usage against maxResources: each queue ends one container over.
    assert_eq!(low_max(Semantics::Hadoop27), vec![2, 4]);
}

fn kinds(rec: &MemoryRecorder) -> Vec<(u64, u32, u32, DecisionKind)> {
    rec.decisions
        .iter()
        .map(|d| (d.time.0, d.node, d.app, d.kind))
        .collect()
}

fn two_queue_tree(names: &[&str]) -> QueueTree {
    let mut t = QueueTree::with_root();
    for n in names {
        t.add_queue(QueueId::ROOT, n, true);
    }
    t
}

#[test]
fn reservation_is_made_fulfilled_and_released_at_the_next_heartbeat() {
    use DecisionKind::*;
    use fairsim_sim::app::Locality::OffSwitch;
    let apps = vec![
        app(0, "queue1", "u", 2, 1024, 1500),
        app(600, "queue2", "u", 1, 1024, 100),
    ];
    let sc = trace_scenario(
        "t",
        two_queue_tree(&["queue1", "queue2"]),
        2,
        Resource::new(1024, 4),
        apps,
    );
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    assert_eq!(
        kinds(&rec)[..6],
        [
            (0, 0, 0, Allocated(OffSwitch)),
            (500, 1, 0, Allocated(OffSwitch)),
            (1000, 0, 1, Reserved),
            (1500, 1, 1, Reserved),
            (2000, 0, 1, Unreserved),
            (2000, 0, 1, Allocated(OffSwitch)),
        ]
    );
    // Node 1's reservation is no longer needed: released at its next heartbeat.
    assert_eq!(kinds(&rec)[6], (2500, 1, 1, Unreserved));
}

fn local_app(arrival: u64, host: &str) -> AppSpec {
    let mut a = app(arrival, "q", "u", 1, 1024, 1000);
    a.stages[0][0].hosts = vec![host.into()];
    a
}

fn delay_scenario(semantics: Semantics, apps: Vec<AppSpec>) -> Scenario {
    let mut sc = trace_scenario(
        "t",
        two_queue_tree(&["q"]),
        10,
        Resource::new(8192, 8),
        apps,
    );
    sc.cluster.racks = 2;
    sc.scheduler.semantics = semantics;
    sc.scheduler.locality_threshold_node = 0.5;
    sc.scheduler.locality_threshold_rack = 0.6;
    // Whole-node containers of 8 vcores are within the maximum allocation.
    sc.scheduler.maximum_allocation_vcores = 8;
    sc
}

#[test]
fn delay_scheduling_relaxes_to_rack_local_on_the_sixth_opportunity() {
    // Wants node4 (rack 0); arrives after node4's heartbeat. Opportunities 1-5 on rack 1
    // stay NODE_LOCAL (5 is not > 10 × 0.5); the 6th, on node0 (rack 0), relaxes to RACK_LOCAL.
    let sc = delay_scenario(Semantics::Hadoop27, vec![local_app(450, "node4")]);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    let first = rec.decisions[0];
    assert_eq!((first.time.0, first.node), (1000, 0));
    assert_eq!(
        first.kind,
        DecisionKind::Allocated(fairsim_sim::app::Locality::RackLocal)
    );
}

#[test]
fn delay_scheduling_relaxes_to_off_switch_on_the_seventh_rack_opportunity() {
    // Rack 0 is full (a whole-node app on nodes 0-4). The wanted app relaxes to RACK_LOCAL
    // at node0 (1000 ms) but nothing fits; six more opportunities stay RACK_LOCAL; the 7th
    // (node7 at 1700 ms) relaxes to OFF_SWITCH and allocates there.
    let mut big = app(0, "q", "big", 5, 8192, 1_000_000);
    big.stages[0][0].size = Resource::new(8192, 8);
    let sc = delay_scenario(Semantics::Hadoop33, vec![big, local_app(450, "node4")]);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    let d = rec.decisions.iter().find(|d| d.app == 1).unwrap();
    assert_eq!((d.time.0, d.node), (1700, 7));
    assert_eq!(
        d.kind,
        DecisionKind::Allocated(fairsim_sim::app::Locality::OffSwitch)
    );
}

fn running_tree(parent_max: Option<u32>, leaf1_max: Option<u32>) -> QueueTree {
    let mut t = QueueTree::with_root();
    let q1 = t.add_queue(QueueId::ROOT, "queue1", false);
    let l1 = t.add_queue(q1, "leaf1", true);
    t.add_queue(q1, "leaf2", true);
    t.get_mut(q1).max_running_apps = parent_max;
    t.get_mut(l1).max_running_apps = leaf1_max;
    t
}

fn run_apps(tree: QueueTree, apps: Vec<AppSpec>) -> Vec<fairsim_sim::app::AppRecord> {
    let sc = trace_scenario("t", tree, 4, Resource::new(8192, 8), apps);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    rec.apps
}

#[test]
fn max_running_apps_removal_frees_a_cousin_queue() {
    let apps = vec![
        app(0, "queue1.leaf1", "u", 1, 1024, 5_000),
        app(10, "queue1.leaf2", "u", 1, 1024, 60_000),
        app(20, "queue1.leaf2", "u", 1, 1024, 60_000),
    ];
    let r = run_apps(running_tree(Some(2), None), apps);
    let app1_end = r[0].finish.unwrap();
    assert!(r[1].first_container.unwrap() < app1_end);
    assert!(r[2].first_container.unwrap() >= app1_end);
    assert!(r.iter().all(|a| a.finish.is_some()));
}

#[test]
fn max_running_apps_removal_frees_only_one_of_three_waiting() {
    let apps = vec![
        app(0, "queue1.leaf1", "u", 1, 1024, 5_000),
        app(10, "queue1.leaf2", "u", 1, 1024, 60_000),
        app(20, "queue1.leaf2", "u", 1, 1024, 60_000),
        app(30, "queue1.leaf2", "u", 1, 1024, 60_000),
    ];
    let r = run_apps(running_tree(Some(2), None), apps);
    let app1_end = r[0].finish.unwrap();
    assert!(r[2].first_container.unwrap() >= app1_end);
    // The third leaf2 app waits for a leaf2 app to finish.
    assert!(r[3].first_container.unwrap() >= r[1].finish.unwrap());
}

#[test]
fn max_running_apps_user_and_queue_limits() {
    // leaf1 max 2, user1 max 1.
    let mut tree = running_tree(None, Some(2));
    tree.user_max_apps.insert("user1".into(), 1);
    let apps = vec![
        app(0, "queue1.leaf1", "user1", 1, 1024, 5_000),
        app(10, "queue1.leaf1", "user2", 1, 1024, 60_000),
        app(20, "queue1.leaf1", "user3", 1, 1024, 60_000),
        app(30, "queue1.leaf2", "user1", 1, 1024, 60_000),
    ];
    let r = run_apps(tree, apps);
    let end = r[0].finish.unwrap();
    assert!(r[1].first_container.unwrap() < end);
    // user3's app (leaf1 full) and user1's leaf2 app (user at limit) wait, then both run.
    assert!(r[2].first_container.unwrap() >= end);
    assert!(r[3].first_container.unwrap() >= end);
}

#[test]
fn usage_converges_to_instantaneous_fair_share_within_one_container() {
    let mut tree = QueueTree::with_root();
    for (n, w) in [("a", 1.0), ("b", 2.0), ("c", 1.0)] {
        let q = tree.add_queue(QueueId::ROOT, n, true);
        tree.get_mut(q).weight = w;
    }
    let apps = ["a", "b", "c"]
        .iter()
        .map(|q| app(0, q, "u", 2_000, 256, 5_000))
        .collect();
    let mut sc = trace_scenario("t", tree, 10, Resource::new(8192, 64), apps);
    sc.scheduler.assignmultiple = true;
    sc.end_ms = Some(60_000);
    sc.sample_interval_ms = 1_000;
    sc.check_invariants = false;
    let (rec, _) = run_sampled(&sc);
    let (_, rows) = rec.samples.last().unwrap();
    for r in rows
        .iter()
        .filter(|r| r.queue != "root" && r.queue != "root.default")
    {
        assert!(
            (r.usage.memory_mb - r.fair_share.memory_mb).abs() <= 256,
            "{}: usage {} vs fair share {}",
            r.queue,
            r.usage.memory_mb,
            r.fair_share.memory_mb
        );
    }
}

#[test]
fn container_above_the_maximum_allocation_rejects_the_app() {
    let apps = vec![
        app(0, "q", "u", 1, 16_384, 100),
        app(0, "q", "u", 1, 1024, 100),
    ];
    let sc = trace_scenario("t", two_queue_tree(&["q"]), 2, Resource::new(8192, 8), apps);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).unwrap();
    let reason = rec.apps[0].rejected.as_deref().unwrap();
    assert!(
        reason.contains("16384 MB") && reason.contains("maximum allocation 8192 MB"),
        "{reason}"
    );
    assert!(rec.apps[1].finish.is_some());
    assert_eq!(s.get("apps_rejected"), Some(1.0));
}

#[test]
fn unknown_queue_without_a_creating_rule_is_rejected() {
    let mut tree = two_queue_tree(&["q"]);
    tree.placement = vec![fairsim_sim::tree::PlacementRule::Specified { create: false }];
    let apps = vec![
        app(0, "nosuch", "u", 1, 1024, 100),
        app(0, "q", "u", 1, 1024, 100),
    ];
    let sc = trace_scenario("t", tree, 2, Resource::new(8192, 8), apps);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).unwrap();
    assert!(
        rec.apps[0]
            .rejected
            .as_deref()
            .unwrap()
            .contains("no placement rule")
    );
    assert_eq!(s.get("apps_rejected"), Some(1.0));
    assert!(rec.apps[1].finish.is_some());
}

#[test]
fn default_placement_creates_the_specified_queue() {
    let apps = vec![app(0, "fresh", "u", 1, 1024, 100)];
    let mut sc = trace_scenario("t", two_queue_tree(&["q"]), 1, Resource::new(8192, 8), apps);
    sc.end_ms = Some(10_000);
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).unwrap();
    assert_eq!(rec.apps[0].queue, "root.fresh");
    assert!(rec.apps[0].finish.is_some());
}

/// Lets 512 MB containers keep their size (YARN's default minimum and increment round them
/// up to 1024 MB).
fn half_gb_allocations(sc: &mut Scenario) {
    sc.scheduler.minimum_allocation_mb = 512;
    sc.scheduler.increment_allocation_mb = 512;
}

fn managed(arrival: u64, queue: &str, count: u32, mb: i64) -> AppSpec {
    AppSpec {
        am: Some(Resource::new(512, 1)),
        ..app(arrival, queue, "u", count, mb, 10_000)
    }
}

/// Four AMs of 512 MB/1 vcore on one 4096 MB/4 vcore node: maxAMShare (0.5 × 4096 MB, memory
/// only under the fair policy) admits all four, they hold every vcore, and each waits for a
/// task container that can never fit. YARN hangs here; the run stops and says so.
#[test]
fn ams_holding_every_vcore_stall_the_run_with_apps_unfinished() {
    let apps = (0..4).map(|_| managed(0, "q", 2, 1024)).collect();
    let mut sc = trace_scenario("t", two_queue_tree(&["q"]), 1, Resource::new(4096, 4), apps);
    half_gb_allocations(&mut sc);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).unwrap();
    assert_eq!(containers_per_app(&rec, 4), vec![1, 1, 1, 1]);
    assert_eq!(s.get("apps_unfinished"), Some(4.0));
    let stalled = s.stalled_at.expect("the run must report that it stalled");
    assert_eq!(s.end, stalled);
    // Found within a few update ticks of the last decision (the fourth AM at 3 s).
    assert!(stalled <= SimTime(6_000), "{stalled}");
    assert!(s.to_json().contains("\"stalled_at_ms\""));
}

/// An AM above maxAMShare × its queue's fair share never starts (nothing else runs, so the
/// fair share never grows): the run stops at once instead of heartbeating forever.
#[test]
fn am_above_max_am_share_of_the_fair_share_stalls_the_run() {
    let mut tree = two_queue_tree(&["q"]);
    let q = tree.find("root.q").unwrap();
    tree.get_mut(q).max_am_share = 0.1;
    let apps = vec![managed(0, "q", 1, 1024)];
    let sc = trace_scenario("t", tree, 1, Resource::new(4096, 4), apps);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).unwrap();
    assert!(rec.decisions.is_empty());
    assert_eq!(s.get("apps_unfinished"), Some(1.0));
    assert!(s.stalled_at.is_some_and(|t| t <= SimTime(3_000)));
}

/// With `end_ms` a stalled run still goes on to the end (heartbeats keep coming, as in
/// YARN), and reports when it stalled.
#[test]
fn stalled_run_with_an_end_time_runs_to_the_end_and_reports_the_stall() {
    let apps = (0..4).map(|_| managed(0, "q", 2, 1024)).collect();
    let mut sc = trace_scenario("t", two_queue_tree(&["q"]), 1, Resource::new(4096, 4), apps);
    half_gb_allocations(&mut sc);
    sc.end_ms = Some(60_000);
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 1, 0, &mut rec).unwrap();
    assert_eq!(s.end, SimTime(60_000));
    assert!(s.stalled_at.is_some_and(|t| t <= SimTime(6_000)));
}

/// A run that finishes every app is not stalled, even when it idles to `end_ms`.
#[test]
fn finished_run_is_not_stalled() {
    let apps = vec![managed(0, "q", 2, 1024)];
    let mut sc = trace_scenario("t", two_queue_tree(&["q"]), 1, Resource::new(4096, 4), apps);
    half_gb_allocations(&mut sc);
    sc.end_ms = Some(60_000);
    let s = run(&sc, 1, 0, &mut MemoryRecorder::default()).unwrap();
    assert_eq!(s.get("apps_unfinished"), Some(0.0));
    assert_eq!(s.stalled_at, None);
}

/// `run_with_progress` reports simulated time from 0 to the end against the last arrival
/// (the run has no end time), never backwards, and decides exactly as `run`.
#[test]
fn progress_follows_simulated_time_and_changes_nothing() {
    let mut tree = QueueTree::with_root();
    tree.add_queue(QueueId::ROOT, "a", true);
    let apps = (0..40)
        .map(|i| app(i * 5_000, "a", "u", 3, 1024, 20_000))
        .collect();
    let sc = trace_scenario("t", tree, 2, Resource::new(4096, 4), apps);
    let (mut plain, mut observed) = (MemoryRecorder::default(), MemoryRecorder::default());
    let summary = run(&sc, 1, 0, &mut plain).expect("runs");
    let mut seen = Vec::new();
    let observed_summary =
        fairsim_sim::run_with_progress(&sc, 1, 0, &mut observed, &mut |t, h| seen.push((t, h)))
            .expect("runs");
    let bits = |s: &fairsim_sim::RunSummary| -> Vec<u64> {
        s.metrics.iter().map(|(_, v)| v.to_bits()).collect()
    };
    assert_eq!(bits(&summary), bits(&observed_summary));
    assert_eq!(plain.decisions, observed.decisions);
    assert_eq!(seen.first(), Some(&(SimTime(0), SimTime(195_000))));
    assert_eq!(seen.last(), Some(&(summary.end, SimTime(195_000))));
    assert!(summary.end > SimTime(195_000));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
}
