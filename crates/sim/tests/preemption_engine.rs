//! Preemption through the whole simulator, both eras: 8 nodes of 1024 MB; `root.a` fills
//! the cluster at t = 0 with long tasks; `root.b` asks for 8 containers at t = 20 s.

mod common;

use common::apps::long_tasks;
use common::outcomes::{allocation_times, metric, run_recorded};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::run;
use fairsim_sim::scenario::{Scenario, SchedulerConf, Workload};

const C: i64 = 1024;

fn scenario(semantics: Semantics, preemption: bool, b_queue: &str) -> Scenario {
    let xml = format!(
        r#"<allocations>
  <queue name="a"/>
  <queue name="b">{b_queue}</queue>
</allocations>"#
    );
    let apps = vec![long_tasks(0, "a", 8), long_tasks(20_000, "b", 8)];
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            preemption,
            ..SchedulerConf::default()
        },
        end_ms: Some(150_000),
        ..trace_scenario(
            "preempt",
            fair_tree(&xml, semantics),
            8,
            Resource::new(C, 1),
            apps,
        )
    }
}

const MIN_SHARE: &str = "<minResources>4096 mb, 4 vcores</minResources><minSharePreemptionTimeout>10</minSharePreemptionTimeout>";

#[test]
fn hadoop27_min_share_regained_within_timeout_two_intervals_and_kill_wait() {
    let sc = scenario(Semantics::Hadoop27, true, MIN_SHARE);
    let (rec, s) = run_recorded(&sc);
    let b = allocation_times(&rec, 1);
    assert_eq!(b.len(), 4, "b gets its min share and no more: {b:?}");
    // Warned at the 35 s check, killed at the 55 s check, handed out at the freed nodes'
    // next heartbeats (nodes 4-7 beat at 500, 625, 750, 875 ms past the second).
    assert_eq!(b, vec![55_500, 55_625, 55_750, 55_875]);
    assert!(b[3] <= 20_000 + 500 + 10_000 + 2 * 5000 + 15_000 + 1000);
    assert_eq!(metric(&s, "preempted_containers.root.a"), 4.0);
    assert_eq!(metric(&s, "preempted_containers.root.b"), 0.0);
    // Four tasks started in the first second lost about 54-55 s each.
    let lost = metric(&s, "lost_container_s.root.a");
    assert!((4.0 * 54.0..=4.0 * 55.0).contains(&lost), "{lost}");
    // a asked again for its killed tasks: 8 + 4 allocations, never more than 8 live.
    assert_eq!(allocation_times(&rec, 0).len(), 8);
    assert!(metric(&s, "min_share_reached_s_p50.root.b") > 35.0);
}

#[test]
fn hadoop33_min_share_regained_within_timeout_and_kill_wait() {
    let sc = scenario(Semantics::Hadoop33, true, MIN_SHARE);
    let (rec, s) = run_recorded(&sc);
    let b = allocation_times(&rec, 1);
    // Chosen at the 29.5 s update (10 s after the leaf's last unstarved update), killed
    // exactly 15 s later, and the held nodes (0-3) offer themselves to b first.
    assert_eq!(b, vec![45_000, 45_125, 45_250, 45_375]);
    assert!(b[3] <= 20_000 + 500 + 10_000 + 15_000 + 1000);
    assert_eq!(metric(&s, "preempted_containers.root.a"), 4.0);
}

/// Hadoop 3.3, `b` and `c` (min share 2 containers each, 10 s timeout) starved at the same
/// update: one pass searches for both, the second search reading what the first chose.
#[test]
fn hadoop33_two_apps_starved_at_one_update_share_one_pass() {
    let min_2 = "<minResources>2048 mb, 2 vcores</minResources><minSharePreemptionTimeout>10</minSharePreemptionTimeout>";
    let xml = format!(
        r#"<allocations>
  <queue name="a"/>
  <queue name="b">{min_2}</queue>
  <queue name="c">{min_2}</queue>
</allocations>"#
    );
    let mut sc = scenario(Semantics::Hadoop33, true, "");
    sc.tree = fair_tree(&xml, Semantics::Hadoop33);
    sc.workload = Workload::Trace(vec![
        long_tasks(0, "a", 8),
        long_tasks(20_000, "b", 8),
        long_tasks(20_000, "c", 8),
    ]);
    let (rec, s) = run_recorded(&sc);
    // At the 29.5 s update c is searched first and takes a down to 3 containers, the
    // fewest that keep a at its fair share (8192 / 3 = 2730 MB; 2 would be below); b's
    // search then finds every one of a's containers left protected (a search reading a
    // copy without c's marks would see a at 8 containers and take the other 3). The 5,
    // on nodes 0-4, are killed 15 s later, at 44.5 s, and each node hands its hold to c at
    // its first beat from then (node i beats i x 125 ms past the second: node 4 at once).
    assert_eq!(
        allocation_times(&rec, 2),
        vec![44_500, 45_000, 45_125, 45_250, 45_375]
    );
    assert!(allocation_times(&rec, 1).iter().all(|&t| t > 45_375));
    assert_eq!(metric(&s, "preempted_containers.root.a"), 5.0);
}

#[test]
fn nothing_is_preempted_when_preemption_is_off() {
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let sc = scenario(semantics, false, MIN_SHARE);
        let (rec, s) = run_recorded(&sc);
        assert!(allocation_times(&rec, 1).is_empty(), "{semantics}");
        assert_eq!(metric(&s, "preempted_containers"), 0.0);
    }
}

#[test]
fn fair_share_preemption_takes_a_down_to_its_fair_share_never_below() {
    let fair_only = "<fairSharePreemptionTimeout>5</fairSharePreemptionTimeout><fairSharePreemptionThreshold>1.0</fairSharePreemptionThreshold>";
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let mut sc = scenario(semantics, true, fair_only);
        // a's queue gets the same settings (inherited defaults would be "never").
        let a = sc.tree.find("root.a").expect("a");
        sc.tree.queues[a.idx()].fair_share_preemption_timeout_ms = Some(5000);
        sc.tree.queues[a.idx()].fair_share_preemption_threshold = 1.0;
        let (rec, s) = run_recorded(&sc);
        assert_eq!(
            metric(&s, "preempted_containers.root.a"),
            4.0,
            "{semantics}"
        );
        assert_eq!(allocation_times(&rec, 1).len(), 4, "{semantics}");
    }
}

#[test]
fn min_share_and_fair_share_timeouts_act_separately_in_the_engine() {
    // Min share 1 container after 10 s, fair share (threshold 1.0) only after 60 s.
    let q = "<minResources>1024 mb, 1 vcores</minResources><minSharePreemptionTimeout>10</minSharePreemptionTimeout>\
             <fairSharePreemptionTimeout>60</fairSharePreemptionTimeout><fairSharePreemptionThreshold>1.0</fairSharePreemptionThreshold>";
    let sc = scenario(Semantics::Hadoop27, true, q);
    let (rec, _) = run_recorded(&sc);
    let b = allocation_times(&rec, 1);
    assert_eq!(b.len(), 4, "{b:?}");
    // First the min share (warned 35 s, killed 55 s), then the rest once the fair-share
    // timeout ran out (clock last moved at 20 s: check at 85 s, kill at 105 s).
    assert!((55_000..56_000).contains(&b[0]), "{b:?}");
    assert!((105_000..106_000).contains(&b[1]), "{b:?}");
}

#[test]
fn preemption_runs_are_deterministic() {
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let sc = scenario(semantics, true, MIN_SHARE);
        let once = || {
            let mut rec = MemoryRecorder::default();
            let s = run(&sc, 7, 0, &mut rec).expect("runs");
            (format!("{:?}", rec.decisions), format!("{:?}", s.metrics))
        };
        assert_eq!(once(), once(), "{semantics}");
    }
}

/// Hadoop 3.x reserves only for starved apps, starvation as `FSAppAttempt.isStarved`
/// checks it when the node is offered: a 4096 MB container of `b` (usage 0, below its fair
/// share) on a cluster full of `a`'s 1024 MB tasks.
fn big_container_run(preemption: bool) -> (usize, Vec<u64>) {
    let mut sc = scenario(Semantics::Hadoop33, preemption, MIN_SHARE);
    sc.cluster.nodes = 2;
    sc.cluster.node_memory_mb = 4 * C;
    sc.cluster.node_vcores = 4;
    let mut big = long_tasks(20_000, "b", 1);
    big.stages[0][0].size = Resource::new(4 * C, 1);
    sc.workload = Workload::Trace(vec![long_tasks(0, "a", 8), big]);
    let (rec, _) = run_recorded(&sc);
    let reserved = rec
        .decisions
        .iter()
        .filter(|d| d.app == 1 && d.kind == DecisionKind::Reserved)
        .count();
    (reserved, allocation_times(&rec, 1))
}

#[test]
fn hadoop33_reserves_for_an_app_below_its_fair_share_with_or_without_preemption() {
    let (reserved, got) = big_container_run(false);
    assert_eq!(
        reserved, 1,
        "below its fair share: one node reserved (0.05 of 2 nodes)"
    );
    assert!(got.is_empty(), "nothing frees the node without preemption");
    let (reserved, got) = big_container_run(true);
    assert!(reserved > 0, "starved: a node is reserved");
    assert_eq!(got.len(), 1, "b's container runs once a node is freed");
}

#[test]
fn every_run_reports_the_same_metrics_with_or_without_preemption() {
    let names = |preemption: bool| -> Vec<String> {
        let sc = scenario(Semantics::Hadoop27, preemption, MIN_SHARE);
        let (_, s) = run_recorded(&sc);
        s.metrics.into_iter().map(|(n, _)| n).collect()
    };
    let (off, on) = (names(false), names(true));
    assert_eq!(off, on, "sweeps need one metric set");
    assert!(on.iter().any(|n| n == "min_share_reached_s_p50.root.a"));
    // Without preemption b waits from 20 s to the end (150 s) and is still below.
    let sc = scenario(Semantics::Hadoop27, false, MIN_SHARE);
    let (_, s) = run_recorded(&sc);
    let waited = metric(&s, "min_share_reached_s_p50.root.b");
    assert!((129.0..=130.0).contains(&waited), "{waited}");
}
