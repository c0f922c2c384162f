//! Hadoop 3.x preemption over time, on a fixed two-queue load, through the pure pieces the
//! simulator's update tick calls (`Fs33`, `Search33`): starved apps identified after each
//! 500 ms update, containers found node by node, killed exactly `waitTimeBeforeKill` later,
//! the freed node given first to the starved app at its next 1 s heartbeat.
//!
//! Cluster: 8 nodes of 1024 MB. `root.a` fills it at t = 0 with tasks that never end;
//! `root.b` asks for 8 containers at t = 20 s. One app per queue, so an app's fair share is
//! its queue's. Killed tasks are asked for again.

use fairsim_core::{
    Calculator, Comparator, Policy, Resource, Schedulable, Semantics, ShareCap, ShareKind,
};
use fairsim_sim::preemption::PreemptionConfig;
use fairsim_sim::preemption::round::{Fs33, Leaf33};
use fairsim_sim::preemption::starvation::{AppLoad33, LeafCtx33};
use fairsim_sim::preemption::victims::{
    NodeContainer, NodeView, OwnerView, Search33, StarvedRequest, starved_requests,
};
use fairsim_sim::tree::{QueueConf, QueueId, QueueLoad, QueueTree, ResourceSpec, SchedulerKind};

const C: i64 = 1024;
const N: usize = 8;
const CLUSTER: Resource = Resource::new(N as i64 * C, N as i64);

struct Setup {
    preemption: bool,
    b_min_share: i64,
    min_timeout_ms: Option<u64>,
    fair_timeout_ms: Option<u64>,
    threshold: f32,
    b_pending: i64,
}

struct App {
    leaf: QueueId,
    arrival: u64,
    pending: i64,
}

struct Trace {
    usage: Vec<(u64, i64, i64)>,
    /// (time marked, container id)
    marked: Vec<(u64, u64)>,
    killed: Vec<(u64, u64)>,
}

fn tree(s: &Setup) -> QueueTree {
    let mut root = QueueConf::new("root", None);
    root.is_leaf = false;
    root.children = vec![QueueId(1), QueueId(2)];
    let mut a = QueueConf::new("root.a", Some(QueueId::ROOT));
    let mut b = QueueConf::new("root.b", Some(QueueId::ROOT));
    b.min_resources = ResourceSpec::Absolute(Resource::new(s.b_min_share, 1));
    for q in [&mut a, &mut b] {
        q.min_share_preemption_timeout_ms = s.min_timeout_ms;
        q.fair_share_preemption_timeout_ms = s.fair_timeout_ms;
        q.fair_share_preemption_threshold = s.threshold;
    }
    QueueTree {
        queues: vec![root, a, b],
        user_max_apps: Default::default(),
        user_max_apps_default: None,
        placement: Vec::new(),
        scheduler: SchedulerKind::Fair,
        resource_calculator: Calculator::MemoryOnly,
        new_queue_defaults: Default::default(),
    }
}

fn run(s: &Setup, end_ms: u64) -> Trace {
    let tree = tree(s);
    let conf = PreemptionConfig {
        enabled: s.preemption,
        ..PreemptionConfig::default()
    }
    .with_heartbeat(1000);
    let mut apps = [
        App {
            leaf: QueueId(1),
            arrival: 0,
            pending: 8,
        },
        App {
            leaf: QueueId(2),
            arrival: 20_000,
            pending: s.b_pending,
        },
    ];
    // One container slot per node: (app, id, start) or free.
    let mut nodes: Vec<Option<(u32, u64)>> = vec![None; N];
    // Node → app the preempted resources there are held for.
    let mut held_for: Vec<Option<u32>> = vec![None; N];
    let mut kills: Vec<(u64, u64)> = Vec::new(); // (time, container id)
    let mut fs = Fs33::new(tree.len(), apps.len(), 0);
    let mut search = Search33::default();
    let mut next_id = 1u64;
    let mut trace = Trace {
        usage: Vec::new(),
        marked: Vec::new(),
        killed: Vec::new(),
    };
    let mut t = 0;
    let app_usage = |nodes: &[Option<(u32, u64)>], a: u32| {
        nodes
            .iter()
            .filter(|n| n.is_some_and(|(x, _)| x == a))
            .count() as i64
            * C
    };
    while t <= end_ms {
        if t == 20_000 {
            fs.app_submitted(1, t);
        }
        // Kill timers due now.
        for &(kt, id) in kills.iter().filter(|k| k.0 == t) {
            for slot in nodes.iter_mut() {
                if let Some((a, cid)) = *slot
                    && cid == id
                {
                    *slot = None;
                    apps[a as usize].pending += 1;
                    trace.killed.push((kt, id));
                }
            }
        }
        // Update: demand, shares (one app per leaf: app share = leaf share).
        let mut loads = vec![QueueLoad::default(); tree.len()];
        for (i, a) in apps.iter().enumerate() {
            if a.arrival <= t {
                let u = app_usage(&nodes, i as u32);
                loads[a.leaf.idx()] = QueueLoad {
                    usage: Resource::new(u, u / C),
                    demand: Resource::new(u + a.pending * C, u / C + a.pending),
                    active: true,
                };
            }
        }
        tree.roll_up(CLUSTER, &mut loads);
        let shares = tree.fair_shares(
            Semantics::Hadoop33,
            ShareKind::Instantaneous,
            CLUSTER,
            &loads,
            ShareCap::MaxShare,
        );
        let allocated = loads[0].usage;
        if conf.should_attempt(CLUSTER, allocated) {
            // Every leaf takes part at every update, with or without apps (an empty leaf's
            // min-share clock keeps moving).
            let leaves: Vec<Leaf33> = apps
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let q = tree.get(a.leaf);
                    let l = loads[a.leaf.idx()];
                    let load = AppLoad33 {
                        usage: l.usage,
                        demand: l.demand,
                        fair_share: shares[a.leaf.idx()],
                    };
                    Leaf33 {
                        queue: a.leaf,
                        ctx: LeafCtx33 {
                            calc: Calculator::MemoryOnly,
                            cluster: CLUSTER,
                            threshold: q.fair_share_preemption_threshold,
                            fair_share_timeout_ms: q.fair_share_preemption_timeout_ms,
                            min_share_timeout_ms: q.min_share_preemption_timeout_ms,
                            min_share: match q.min_resources {
                                ResourceSpec::Absolute(r) => r,
                                _ => Resource::ZERO,
                            },
                            demand: l.demand,
                            usage: l.usage,
                        },
                        apps: if a.arrival > t || load.pending_demand() == Resource::ZERO {
                            vec![]
                        } else {
                            vec![(i as u32, load)]
                        },
                    }
                })
                .collect();
            fs.update(t, &leaves);
            // The preemption thread, run to completion.
            while let Some(app) = fs.take_starved() {
                let starvation = fs.apps[app as usize].starvation();
                let asks = [(Resource::new(C, 1), apps[app as usize].pending as u32)];
                let requests: Vec<StarvedRequest> = starved_requests(starvation, &asks)
                    .into_iter()
                    .map(|(size, count)| StarvedRequest {
                        size,
                        count,
                        nodes: None,
                        relax_locality: true,
                    })
                    .collect();
                let mut views: Vec<NodeView> = nodes
                    .iter()
                    .enumerate()
                    .map(|(n, slot)| NodeView {
                        unallocated: if slot.is_some() {
                            Resource::ZERO
                        } else {
                            Resource::new(C, 1)
                        },
                        reserved: Resource::ZERO,
                        held: if held_for[n].is_some() {
                            Resource::new(C, 1)
                        } else {
                            Resource::ZERO
                        },
                        containers: slot
                            .iter()
                            .map(|&(a, id)| NodeContainer {
                                app: a,
                                id,
                                size: Resource::new(C, 1),
                                is_am: false,
                            })
                            .collect(),
                    })
                    .collect();
                let mut owners: Vec<OwnerView> = apps
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        let marked = nodes
                            .iter()
                            .filter(|n| {
                                n.is_some_and(|(x, id)| {
                                    x == i as u32 && search.marked.contains(&id)
                                })
                            })
                            .count() as i64;
                        OwnerView {
                            usage: Resource::new(app_usage(&nodes, i as u32), 0),
                            fair_share: shares[a.leaf.idx()],
                            to_be_preempted: Resource::new(marked * C, 0),
                            preemptable: tree.get(a.leaf).allow_preemption_from,
                            calc: Calculator::MemoryOnly,
                        }
                    })
                    .collect();
                for set in search.for_app(&requests, &mut views, &mut owners, CLUSTER) {
                    held_for[set.node as usize] = Some(app);
                    for c in set.containers {
                        trace.marked.push((t, c.id));
                        kills.push((t + conf.wait_before_kill_ms, c.id));
                    }
                }
                fs.preemption_triggered(app, t, &conf);
            }
        }
        // Heartbeats once a second: a node held for a starved app goes to it first; other
        // free nodes to the queue the root's comparator puts first.
        if t % 1000 == 0 {
            let cmp = Comparator::new(Semantics::Hadoop33, Policy::Fair, CLUSTER);
            for n in 0..N {
                if nodes[n].is_some() {
                    continue;
                }
                let pick = match held_for[n].take() {
                    Some(a) if apps[a as usize].pending > 0 => Some(a),
                    _ => {
                        let mut best: Option<(u32, Schedulable)> = None;
                        for (i, a) in apps.iter().enumerate() {
                            if a.arrival > t || a.pending == 0 {
                                continue;
                            }
                            let u = app_usage(&nodes, i as u32);
                            let sch = Schedulable {
                                usage: Resource::new(u, 0),
                                demand: Resource::new(u + a.pending * C, 0),
                                min_share: match tree.get(a.leaf).min_resources {
                                    ResourceSpec::Absolute(r) => r,
                                    _ => Resource::ZERO,
                                },
                                ..Schedulable::new(tree.get(a.leaf).name.clone())
                            };
                            if best
                                .as_ref()
                                .is_none_or(|(_, b)| cmp.compare(&sch, b).is_lt())
                            {
                                best = Some((i as u32, sch));
                            }
                        }
                        best.map(|b| b.0)
                    }
                };
                if let Some(a) = pick {
                    apps[a as usize].pending -= 1;
                    nodes[n] = Some((a, next_id));
                    next_id += 1;
                }
            }
        }
        trace
            .usage
            .push((t, app_usage(&nodes, 0), app_usage(&nodes, 1)));
        t += 500;
    }
    trace
}

fn first_time_b_reaches(trace: &Trace, mb: i64) -> Option<u64> {
    trace.usage.iter().find(|s| s.2 >= mb).map(|s| s.0)
}

#[test]
fn min_share_starved_app_gets_it_back_after_timeout_plus_kill_wait() {
    let s = Setup {
        preemption: true,
        b_min_share: 4 * C,
        min_timeout_ms: Some(10_000),
        fair_timeout_ms: None,
        threshold: 0.5,
        b_pending: 8,
    };
    let trace = run(&s, 120_000);
    // b's leaf last had no min-share starvation at 19.5 s; at 29.5 s it has been starved
    // for the full 10 s (3.x counts from the timeout inclusive): 4 containers are marked,
    // killed by their timers at 44.5 s and given to b at the 45 s heartbeat.
    let marks: Vec<u64> = trace.marked.iter().map(|m| m.0).collect();
    assert_eq!(marks, vec![29_500; 4]);
    let kills: Vec<u64> = trace.killed.iter().map(|k| k.0).collect();
    assert_eq!(kills, vec![44_500; 4]);
    let reached = first_time_b_reaches(&trace, 4 * C).expect("b reaches its min share");
    assert_eq!(reached, 45_000);
    // Bound: arrival + update interval + timeout + wait before kill + heartbeat.
    assert!(reached <= 20_000 + 500 + 10_000 + 15_000 + 1000);
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (4 * C, 4 * C));
}

#[test]
fn never_below_the_owners_fair_share() {
    // b asks for 12 containers with a min share of 4: Hadoop's hand-out sets b's min-share
    // starvation to u − p = 12288 − 4096 = 8192, twice what b lacks; but a's app may only be
    // taken down to its fair share (4 containers): 4 are marked, never more.
    let s = Setup {
        preemption: true,
        b_min_share: 4 * C,
        min_timeout_ms: Some(5000),
        fair_timeout_ms: None,
        threshold: 0.5,
        b_pending: 12,
    };
    let trace = run(&s, 150_000);
    for &(t, a, _) in &trace.usage {
        if t > 20_000 {
            assert!(a >= 4 * C, "a below its fair share at {t}");
        }
    }
    assert_eq!(trace.killed.len(), 4);
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (4 * C, 4 * C));
}

#[test]
fn fair_share_starvation_aims_at_threshold_times_the_share() {
    // No min share; threshold 0.5 of b's 4096: 3.x preempts up to 2048 only.
    let s = Setup {
        preemption: true,
        b_min_share: 0,
        min_timeout_ms: None,
        fair_timeout_ms: Some(5000),
        threshold: 0.5,
        b_pending: 8,
    };
    let trace = run(&s, 150_000);
    // Submitted at 20 s, starved for 5 s at 25 s: 2 marked, killed at 40 s.
    let marks: Vec<u64> = trace.marked.iter().map(|m| m.0).collect();
    assert_eq!(marks, vec![25_000; 2]);
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (6 * C, 2 * C));
}

#[test]
fn nothing_is_preempted_when_preemption_is_off() {
    let s = Setup {
        preemption: false,
        b_min_share: 4 * C,
        min_timeout_ms: Some(1000),
        fair_timeout_ms: Some(1000),
        threshold: 1.0,
        b_pending: 8,
    };
    let trace = run(&s, 100_000);
    assert!(trace.marked.is_empty());
    assert!(trace.usage.iter().all(|&(_, a, b)| a == 8 * C && b == 0));
}
