//! The seed documents' claims about which queue is served first (seed 003: the Capacity
//! Scheduler takes the least-used queue, the Fair Scheduler the neediest; seed 004: cases
//! 1-3 of the comparator), checked on running queues: each queue runs an app holding
//! containers of 1024 MB and asking for more, and one free container is offered as a node
//! heartbeat would offer it.

use fairsim_core::{Calculator, Comparator, Policy, Resource, Schedulable, Semantics};
use fairsim_sim::capacity::Capacities;
use fairsim_sim::capacity::ordering::pick_leaf;
use fairsim_sim::tree::{QueueConf, QueueId, QueueTree, ResourceSpec, SchedulerKind};

const C: i64 = 1024;

/// A leaf with running containers and pending requests (both in containers of 1024 MB).
#[derive(Clone, Copy)]
struct Running {
    running: i64,
    pending: i64,
    min_share: i64,
    weight: f32,
    capacity_percent: f64,
}

fn leaf(running: i64, pending: i64) -> Running {
    Running {
        running,
        pending,
        min_share: 0,
        weight: 1.0,
        capacity_percent: 0.0,
    }
}

fn tree(kind: SchedulerKind, leaves: &[Running]) -> QueueTree {
    let mut root = QueueConf::new("root", None);
    root.is_leaf = false;
    root.capacity_percent = Some(100.0);
    let mut queues = vec![root];
    for (i, l) in leaves.iter().enumerate() {
        let mut q = QueueConf::new(format!("root.q{}", i + 1), Some(QueueId::ROOT));
        q.min_resources = ResourceSpec::Absolute(Resource::new(l.min_share * C, 0));
        q.weight = l.weight;
        q.capacity_percent = Some(l.capacity_percent);
        q.maximum_capacity_percent = Some(100.0);
        queues.push(q);
        queues[0].children.push(QueueId(i as u32 + 1));
    }
    QueueTree {
        queues,
        user_max_apps: Default::default(),
        user_max_apps_default: None,
        placement: Vec::new(),
        scheduler: kind,
        resource_calculator: Calculator::MemoryOnly,
        new_queue_defaults: Default::default(),
    }
}

/// The leaf (1-based) the Fair Scheduler (2.7, fair policy at root) offers the container to:
/// the first in the root comparator's order among leaves with pending requests.
fn fair_pick(leaves: &[Running]) -> usize {
    let cluster = Resource::new(100 * C, 100);
    let cmp = Comparator::new(Semantics::Hadoop27, Policy::Fair, cluster);
    let t = tree(SchedulerKind::Fair, leaves);
    let scheds: Vec<(usize, Schedulable)> = leaves
        .iter()
        .enumerate()
        .filter(|(_, l)| l.pending > 0)
        .map(|(i, l)| {
            let usage = Resource::new(l.running * C, l.running);
            (
                i + 1,
                Schedulable {
                    usage,
                    demand: Resource::new((l.running + l.pending) * C, l.running + l.pending),
                    min_share: Resource::new(l.min_share * C, 0),
                    weight: l.weight,
                    ..Schedulable::new(t.queues[i + 1].name.clone())
                },
            )
        })
        .collect();
    let mut best = &scheds[0];
    for s in &scheds[1..] {
        if cmp.compare(&s.1, &best.1).is_lt() {
            best = s;
        }
    }
    best.0
}

/// The leaf (1-based) the Capacity Scheduler offers the container to on a cluster of
/// `cluster_containers`.
fn capacity_pick(leaves: &[Running], cluster_containers: i64) -> usize {
    let cluster = Resource::new(cluster_containers * C, cluster_containers);
    let t = tree(SchedulerKind::Capacity, leaves);
    let caps = Capacities::of(&t);
    let mut usage: Vec<Resource> = std::iter::once(Resource::ZERO)
        .chain(
            leaves
                .iter()
                .map(|l| Resource::new(l.running * C, l.running)),
        )
        .collect();
    usage[0] = usage[1..]
        .iter()
        .fold(Resource::ZERO, |a, &u| a.saturating_add(u));
    let pending: Vec<i64> = std::iter::once(0)
        .chain(leaves.iter().map(|l| l.pending))
        .collect();
    let got = pick_leaf(
        &t,
        &caps,
        cluster,
        &usage,
        Resource::new(C, 1),
        QueueId::ROOT,
        &mut |q| pending[q.idx()] > 0,
    );
    got.expect("some queue takes it").idx()
}

#[test]
fn seed004_case1_one_needy_queue_is_served_first() {
    // Demand 4, min share 2; usage 1 (needy) vs 2 (not needy).
    let q1 = Running {
        min_share: 2,
        ..leaf(1, 3)
    };
    let q2 = Running {
        min_share: 2,
        ..leaf(2, 2)
    };
    assert_eq!(fair_pick(&[q1, q2]), 1);
    assert_eq!(fair_pick(&[q2, q1]), 2, "whatever the order of the queues");
}

#[test]
fn seed004_case2_neither_needy_smaller_usage_over_weight_first() {
    // Demand 4, min 2, usage 2 each; weights 0.2 and 0.5: 2/0.2 = 10 vs 2/0.5 = 4.
    let q1 = Running {
        min_share: 2,
        weight: 0.2,
        ..leaf(2, 2)
    };
    let q2 = Running {
        min_share: 2,
        weight: 0.5,
        ..leaf(2, 2)
    };
    assert_eq!(fair_pick(&[q1, q2]), 2);
}

#[test]
fn seed004_case3_both_needy_smaller_min_share_ratio_first() {
    // Demand 4, min shares 2 and 3, usage 1 each: 1/2 vs 1/3.
    let q1 = Running {
        min_share: 2,
        ..leaf(1, 3)
    };
    let q2 = Running {
        min_share: 3,
        ..leaf(1, 3)
    };
    assert_eq!(fair_pick(&[q1, q2]), 2);
}

#[test]
fn capacity_serves_the_least_used_queue_fair_serves_the_needy_one() {
    // Cluster of 10 containers. q1: capacity 20% (2 containers), 1 running → used 0.5 of
    // its guarantee; q2: capacity 80% (8), 2 running → 0.25. Fair: q1 has min share 2 and is
    // needy (1 < 2); q2 has min share 1 and is not (2 ≥ 1).
    let q1 = Running {
        min_share: 2,
        capacity_percent: 20.0,
        ..leaf(1, 5)
    };
    let q2 = Running {
        min_share: 1,
        capacity_percent: 80.0,
        ..leaf(2, 5)
    };
    assert_eq!(capacity_pick(&[q1, q2], 10), 2, "least used capacity first");
    assert_eq!(fair_pick(&[q1, q2]), 1, "the needy queue first");
}

#[test]
fn capacity_least_used_follows_usage_as_it_changes() {
    // Equal capacities: the queue using less of its guarantee is offered the container;
    // with ties, the queue path decides.
    let q = |running| Running {
        capacity_percent: 50.0,
        ..leaf(running, 3)
    };
    assert_eq!(capacity_pick(&[q(3), q(1)], 10), 2);
    assert_eq!(capacity_pick(&[q(1), q(3)], 10), 1);
    assert_eq!(capacity_pick(&[q(2), q(2)], 10), 1);
}
