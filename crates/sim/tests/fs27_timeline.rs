//! Hadoop 2.7 preemption over time, on a fixed two-queue load, through the pure pieces the
//! simulator's update tick calls (`Fs27`): clocks at each 500 ms update, a check every
//! preemption interval, warn, kill after the wait, the freed resource handed out at the
//! next 1 s heartbeat by the root's comparator.
//!
//! Cluster: 8 × 1024 MB. `root.a` fills it at t = 0 with tasks that never end; `root.b`
//! asks for 8 containers at t = 20 s. Killed tasks are asked for again.

use fairsim_core::{Comparator, Policy, Resource, Schedulable, Semantics, ShareCap, ShareKind};
use fairsim_sim::preemption::PreemptionConfig;
use fairsim_sim::preemption::round::Fs27;
use fairsim_sim::preemption::starvation::LeafLoad27;
use fairsim_sim::preemption::victims::{AppView, ContainerView, Decision, QueueView, Snapshot27};
use fairsim_sim::tree::{QueueConf, QueueId, QueueLoad, QueueTree, SchedulerKind};

const C: i64 = 1024;
const CLUSTER: Resource = Resource::new(8 * C, 8);

struct Setup {
    preemption: bool,
    b_min_share: i64,
    min_timeout_ms: Option<u64>,
    fair_timeout_ms: Option<u64>,
}

struct App {
    leaf: QueueId,
    arrival: u64,
    pending: i64,
    containers: Vec<ContainerView>,
}

struct Trace {
    /// (time ms, usage of a, usage of b) after each step.
    usage: Vec<(u64, i64, i64)>,
    warned: Vec<(u64, u64)>,
    killed: Vec<(u64, u64)>,
    lost_ms: u64,
}

fn tree(s: &Setup) -> QueueTree {
    let mut root = QueueConf::new("root", None);
    root.is_leaf = false;
    root.children = vec![QueueId(1), QueueId(2)];
    let mut a = QueueConf::new("root.a", Some(QueueId::ROOT));
    let mut b = QueueConf::new("root.b", Some(QueueId::ROOT));
    b.min_resources = fairsim_sim::tree::ResourceSpec::Absolute(Resource::new(s.b_min_share, 0));
    for q in [&mut a, &mut b] {
        q.min_share_preemption_timeout_ms = s.min_timeout_ms;
        q.fair_share_preemption_timeout_ms = s.fair_timeout_ms;
    }
    QueueTree {
        queues: vec![root, a, b],
        user_max_apps: Default::default(),
        user_max_apps_default: None,
        placement: Vec::new(),
        scheduler: SchedulerKind::Fair,
        resource_calculator: fairsim_core::Calculator::MemoryOnly,
        new_queue_defaults: Default::default(),
    }
}

fn usage(app: &App) -> i64 {
    app.containers.len() as i64 * C
}

fn run(s: &Setup, end_ms: u64) -> Trace {
    let tree = tree(s);
    let conf = PreemptionConfig {
        enabled: s.preemption,
        ..PreemptionConfig::default()
    };
    let mut apps = vec![
        App {
            leaf: QueueId(1),
            arrival: 0,
            pending: 8,
            containers: Vec::new(),
        },
        App {
            leaf: QueueId(2),
            arrival: 20_000,
            pending: 8,
            containers: Vec::new(),
        },
    ];
    let mut fs = Fs27::new(tree.len(), 0);
    let mut next_id = 1u64;
    let mut trace = Trace {
        usage: Vec::new(),
        warned: Vec::new(),
        killed: Vec::new(),
        lost_ms: 0,
    };
    let mut shares = vec![Resource::ZERO; tree.len()];
    let mut prev_demand = vec![Resource::ZERO; tree.len()];
    let mut starts: std::collections::BTreeMap<u64, u64> = Default::default();
    let mut t = 0;
    while t <= end_ms {
        let present = |a: &App| a.arrival <= t;
        // Leaf loads. Hadoop moves the clocks at the start of an update, with live usage
        // but the demand and fair share the previous update computed.
        let leaf_load = |apps: &[App], q: QueueId, fair: Resource, stale: Option<Resource>| {
            let (mut u, mut d) = (0, 0);
            for a in apps.iter().filter(|a| a.leaf == q && present(a)) {
                u += usage(a);
                d += usage(a) + a.pending * C;
            }
            let d = stale.map_or(d, |r| r.memory_mb);
            let conf = tree.get(q);
            let min = match conf.min_resources {
                fairsim_sim::tree::ResourceSpec::Absolute(r) => r,
                _ => Resource::ZERO,
            };
            LeafLoad27 {
                usage: Resource::new(u, 0),
                demand: Resource::new(d, 0),
                min_share: min,
                fair_share: fair,
                threshold: conf.fair_share_preemption_threshold,
                min_share_timeout_ms: conf.min_share_preemption_timeout_ms,
                fair_share_timeout_ms: conf.fair_share_preemption_timeout_ms,
            }
        };
        let leaves_before: Vec<(QueueId, LeafLoad27)> = [QueueId(1), QueueId(2)]
            .iter()
            .map(|&q| {
                (
                    q,
                    leaf_load(&apps, q, shares[q.idx()], Some(prev_demand[q.idx()])),
                )
            })
            .collect();
        fs.update_clocks(t, &leaves_before);
        let leaves_live: Vec<(QueueId, LeafLoad27)> = [QueueId(1), QueueId(2)]
            .iter()
            .map(|&q| (q, leaf_load(&apps, q, shares[q.idx()], None)))
            .collect();
        // Recompute fair shares (instantaneous, 2.7).
        let mut loads = vec![QueueLoad::default(); tree.len()];
        for (q, l) in &leaves_live {
            loads[q.idx()] = QueueLoad {
                demand: l.demand,
                usage: l.usage,
                active: l.demand.memory_mb > 0,
            };
        }
        tree.roll_up(CLUSTER, &mut loads);
        shares = tree.fair_shares(
            Semantics::Hadoop27,
            ShareKind::Instantaneous,
            CLUSTER,
            &loads,
            ShareCap::MaxShare,
        );
        let leaves: Vec<(QueueId, LeafLoad27)> = [QueueId(1), QueueId(2)]
            .iter()
            .map(|&q| (q, leaf_load(&apps, q, shares[q.idx()], None)))
            .collect();
        for (q, l) in &leaves {
            prev_demand[q.idx()] = l.demand;
        }
        // Preemption after the update.
        let allocated: i64 = apps.iter().map(usage).sum();
        let snap = Snapshot27 {
            tree: &tree,
            semantics: Semantics::Hadoop27,
            cluster: CLUSTER,
            queues: (0..tree.len())
                .map(|i| QueueView {
                    sched: Schedulable {
                        demand: loads[i].demand,
                        min_share: leaves
                            .iter()
                            .find(|(q, _)| q.idx() == i)
                            .map_or(Resource::ZERO, |(_, l)| l.min_share),
                        ..Schedulable::new(tree.queues[i].name.clone())
                    },
                    fair_share: shares[i],
                })
                .collect(),
            apps: apps
                .iter()
                .enumerate()
                .map(|(i, a)| AppView {
                    leaf: a.leaf,
                    sched: Schedulable {
                        usage: Resource::new(usage(a), 0),
                        demand: Resource::new(usage(a) + a.pending * C, 0),
                        start_time_ms: a.arrival as i64,
                        ..Schedulable::new(format!("app_{i}"))
                    },
                    containers: a.containers.clone(),
                })
                .collect(),
            lists: None,
        };
        let decisions =
            fs.preempt_if_necessary(t, &conf, Resource::new(allocated, 0), &leaves, &snap);
        for d in decisions {
            match d {
                Decision::Warn(c) => {
                    trace.warned.push((t, c.id));
                    let app = &mut apps[c.app as usize];
                    let v = app
                        .containers
                        .iter_mut()
                        .find(|v| v.id == c.id)
                        .expect("live");
                    v.marked_at = Some(t);
                }
                Decision::Kill(c) => {
                    trace.killed.push((t, c.id));
                    let app = &mut apps[c.app as usize];
                    app.containers.retain(|v| v.id != c.id);
                    app.pending += 1;
                    trace.lost_ms += t - starts[&c.id];
                }
            }
        }
        // Heartbeats once a second: free containers go one at a time to the queue the
        // root's comparator puts first among those with pending requests.
        if t % 1000 == 0 {
            let cmp = Comparator::new(Semantics::Hadoop27, Policy::Fair, CLUSTER);
            loop {
                let used: i64 = apps.iter().map(usage).sum();
                if used + C > CLUSTER.memory_mb {
                    break;
                }
                let mut best: Option<(usize, Schedulable)> = None;
                for (i, a) in apps.iter().enumerate() {
                    if !present(a) || a.pending == 0 {
                        continue;
                    }
                    let l = leaf_load(&apps, a.leaf, shares[a.leaf.idx()], None);
                    let s = Schedulable {
                        usage: l.usage,
                        demand: l.demand,
                        min_share: l.min_share,
                        ..Schedulable::new(tree.get(a.leaf).name.clone())
                    };
                    if best
                        .as_ref()
                        .is_none_or(|(_, b)| cmp.compare(&s, b).is_lt())
                    {
                        best = Some((i, s));
                    }
                }
                let Some((i, _)) = best else { break };
                let app = &mut apps[i];
                app.pending -= 1;
                app.containers.push(ContainerView {
                    id: next_id,
                    priority: 10,
                    size: Resource::new(C, 1),
                    marked_at: None,
                    is_am: false,
                });
                starts.insert(next_id, t);
                next_id += 1;
            }
        }
        trace.usage.push((t, usage(&apps[0]), usage(&apps[1])));
        t += 500;
    }
    trace
}

fn first_time_b_reaches(trace: &Trace, mb: i64) -> Option<u64> {
    trace
        .usage
        .iter()
        .find(|(_, _, b)| *b >= mb)
        .map(|(t, _, _)| *t)
}

#[test]
fn a_queue_below_its_min_share_gets_it_back_within_the_bound() {
    let s = Setup {
        preemption: true,
        b_min_share: 4 * C,
        min_timeout_ms: Some(10_000),
        fair_timeout_ms: None,
    };
    let trace = run(&s, 120_000);
    // b asks at 20 s; the update at 20.0 s still sees its old demand (0), so its clocks
    // move to 20.0 s and it is starved from 20.5 s. Checks run every 5 s; the first with
    // more than 10 s of starvation is at 35 s: 4 containers are warned. They are killed at
    // the first check strictly more than 15 s later (55 s) and handed to b at that
    // second's heartbeat.
    let warn_times: Vec<u64> = trace.warned.iter().map(|w| w.0).collect();
    assert_eq!(warn_times, vec![35_000; 4]);
    let kill_times: Vec<u64> = trace.killed.iter().map(|k| k.0).collect();
    assert_eq!(kill_times, vec![55_000; 4]);
    let reached = first_time_b_reaches(&trace, 4 * C).expect("b reaches its min share");
    assert_eq!(reached, 55_000);
    // Bound: arrival + one update interval + timeout + 2 × preemption interval (the phase of
    // the checks, and the strict kill test) + wait before kill + one heartbeat.
    let bound = 20_000 + 500 + 10_000 + 2 * 5000 + 15_000 + 1000;
    assert!(reached <= bound);
    // The min share only: b stays at 4 containers, a keeps the rest.
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (4 * C, 4 * C));
    // Four containers lost 55 s of work each (started at 0, killed at 55 s).
    assert_eq!(trace.lost_ms, 4 * 55_000);
}

#[test]
fn preemption_takes_a_queue_down_to_its_fair_share_never_below() {
    // Fair-share preemption only: b's fair share is 4 of 8 containers.
    let s = Setup {
        preemption: true,
        b_min_share: 0,
        min_timeout_ms: None,
        fair_timeout_ms: Some(5000),
    };
    let trace = run(&s, 180_000);
    for &(t, a, _) in &trace.usage {
        if t > 20_000 {
            assert!(a >= 4 * C, "a below its fair share at {t}: {a}");
        }
    }
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (4 * C, 4 * C));
    assert_eq!(trace.killed.len(), 4);
}

#[test]
fn nothing_is_preempted_when_preemption_is_off() {
    let s = Setup {
        preemption: false,
        b_min_share: 4 * C,
        min_timeout_ms: Some(1000),
        fair_timeout_ms: Some(1000),
    };
    let trace = run(&s, 120_000);
    assert!(trace.warned.is_empty() && trace.killed.is_empty());
    assert!(trace.usage.iter().all(|&(_, a, b)| a == 8 * C && b == 0));
}

#[test]
fn min_share_and_fair_share_timeouts_act_separately() {
    // Min share 1 container after 10 s; fair share (4) only after 60 s.
    let s = Setup {
        preemption: true,
        b_min_share: C,
        min_timeout_ms: Some(10_000),
        fair_timeout_ms: Some(60_000),
    };
    let trace = run(&s, 200_000);
    // Min-share round: one container (the newest, id 8) warned at 35 s, killed at 55 s.
    assert_eq!(trace.warned[0], (35_000, 8));
    assert_eq!(first_time_b_reaches(&trace, C), Some(55_000));
    // b stays below 0.5 × its fair share of 4096, so its fair-share clock last moved at
    // 20.0 s: the first check with more than 60 s of starvation is at 85 s. Until then b
    // keeps its one container.
    let at = |t: u64| {
        trace
            .usage
            .iter()
            .find(|s| s.0 == t)
            .map(|s| s.2)
            .expect("sample")
    };
    assert_eq!(at(84_500), C);
    // The fair-share round targets the full fair share: 3 more, warned at 85 s, killed at
    // 105 s.
    let fair_warns: Vec<u64> = trace
        .warned
        .iter()
        .map(|w| w.0)
        .filter(|&t| t > 35_000)
        .collect();
    assert_eq!(fair_warns, vec![85_000; 3]);
    assert_eq!(first_time_b_reaches(&trace, 4 * C), Some(105_000));
}

#[test]
fn fair_share_preemption_waits_for_usage_below_the_threshold() {
    // The min-share round gives b 2 containers at 55 s = 0.5 × its fair share of 4: from
    // then on b is not starved for fair share (the test is strictly below), so its 40 s
    // fair-share timeout never runs out and b stays at 2.
    let s = Setup {
        preemption: true,
        b_min_share: 2 * C,
        min_timeout_ms: Some(10_000),
        fair_timeout_ms: Some(40_000),
    };
    let trace = run(&s, 200_000);
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (6 * C, 2 * C));
    assert_eq!(trace.killed.len(), 2);
}
