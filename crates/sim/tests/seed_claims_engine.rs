//! Seed 004's cases 1-3 as running queues through the whole simulator (Fair Scheduler,
//! hadoop-2.7): two queues already hold containers and ask for more (demand 4 each); a
//! short "filler" task on the last node ends at 5 s, and the freed node goes to the queue
//! the comparator puts first. (The Capacity Scheduler's least-used-first order is pinned
//! in `capacity_engine.rs`.)

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::{SimTime, run};

const C: i64 = 1024;

fn app(name: &str, arrival: u64, queue: &str, count: u32, duration_ms: u64) -> AppSpec {
    AppSpec {
        name: name.into(),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: "u".into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size: Resource::new(C, 1),
            duration_ms,
            priority: 1,
            hosts: vec![],
            relax_locality: true,
        }]],
        recorded: None,
    }
}

/// Queue (`q1` or `q2`) that gets the node freed at 5 s. `usage` is what each holds
/// (containers), `queues` the allocation-file elements of q1 and q2.
fn served_first(usage: (u32, u32), queues: (&str, &str)) -> String {
    let xml = format!(
        "<allocations><queue name=\"q1\">{}</queue><queue name=\"q2\">{}</queue><queue name=\"f\"/></allocations>",
        queues.0, queues.1
    );
    let tree = parse_fair_scheduler_xml(&xml, "fair-scheduler.xml", Semantics::Hadoop27)
        .expect("valid file")
        .tree;
    let nodes = usage.0 + usage.1 + 1;
    // Holders take one node each at t = 0; at 1 s both queues ask for more, so that each
    // demands 4 containers in all; the filler's node frees at 5 s.
    let apps = vec![
        app("hold1", 0, "q1", usage.0, 1_000_000),
        app("hold2", 0, "q2", usage.1, 1_000_000),
        app("filler", 0, "f", 1, 5000),
        app("more1", 1000, "q1", 4 - usage.0, 1_000_000),
        app("more2", 1000, "q2", 4 - usage.1, 1_000_000),
    ];
    let sc = Scenario {
        name: "seed004".into(),
        path: None,
        cluster: ClusterSpec {
            nodes,
            racks: 1,
            node_memory_mb: C,
            node_vcores: 1,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf::default(),
        tree,
        warnings: vec![],
        workload: Workload::Trace(apps),
        end_ms: Some(20_000),
        sample_interval_ms: 0,
        check_invariants: true,
        explain: false,
        start: None,
        recorded: None,
    };
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    let d = rec
        .decisions
        .iter()
        .find(|d| d.time.0 >= 5000 && matches!(d.kind, DecisionKind::Allocated(_)))
        .expect("the freed node is assigned");
    match d.app {
        3 => "q1".into(),
        4 => "q2".into(),
        other => panic!("app {other} got the node"),
    }
}

const MIN2: &str = "<minResources>2048 mb, 2 vcores</minResources>";
const MIN3: &str = "<minResources>3072 mb, 3 vcores</minResources>";

#[test]
fn case1_the_needy_queue_is_served_first() {
    // min 2 each; usage 1 (needy) vs 2 (not needy) → q1.
    assert_eq!(served_first((1, 2), (MIN2, MIN2)), "q1");
    assert_eq!(served_first((2, 1), (MIN2, MIN2)), "q2");
}

#[test]
fn case2_neither_needy_the_smaller_usage_over_weight_first() {
    // min 2 each, usage 2 each; weights 0.2 and 0.5: 2/0.2 = 10 vs 2/0.5 = 4 → q2.
    let q1 = format!("{MIN2}<weight>0.2</weight>");
    let q2 = format!("{MIN2}<weight>0.5</weight>");
    assert_eq!(served_first((2, 2), (&q1, &q2)), "q2");
}

#[test]
fn case3_both_needy_the_smaller_min_share_ratio_first() {
    // min 2 and 3, usage 1 each: 1/2 vs 1/3 → q2.
    assert_eq!(served_first((1, 1), (MIN2, MIN3)), "q2");
}
