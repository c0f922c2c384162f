//! The Capacity Scheduler over time on a fixed load, through the pure pieces the simulator
//! uses: least-used queue first with the maximum-capacity gate and the user limit at every
//! 1 s heartbeat, and `ProportionalCapacityPreemptionPolicy` every 3 s when enabled.
//!
//! Cluster: 10 × 1024 MB. `root.a` (capacity 50%, maximum 80%, user-limit-factor 2) asks
//! for 10 containers at t = 0 with tasks that never end; `root.b` (50%) asks for 10 at
//! t = 20 s. Killed tasks are asked for again.

use fairsim_core::Resource;
use fairsim_sim::alloc::parse_capacity_scheduler_xml;
use fairsim_sim::capacity::Capacities;
use fairsim_sim::capacity::ideal::{
    CsApp, CsContainer, CsDecision, PcppConfig, PcppState, compute_ideal, leaf_victims, temp_queues,
};
use fairsim_sim::capacity::ordering::pick_leaf;
use fairsim_sim::capacity::user_limit::{UserLimitInput, user_limit, user_may_allocate};
use fairsim_sim::tree::{QueueId, QueueTree};

const C: i64 = 1024;
const N: i64 = 10;

fn file() -> QueueTree {
    let props = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.a.maximum-capacity", "80"),
        ("root.a.user-limit-factor", "2"),
        ("root.b.capacity", "50"),
    ];
    let mut text = String::from("<configuration>\n");
    for (n, v) in props {
        text.push_str(&format!(
            "<property><name>yarn.scheduler.capacity.{n}</name><value>{v}</value></property>\n"
        ));
    }
    text.push_str("</configuration>\n");
    parse_capacity_scheduler_xml(&text, "capacity-scheduler.xml")
        .expect("valid file")
        .tree
}

struct App {
    leaf: QueueId,
    arrival: u64,
    pending: i64,
    containers: Vec<CsContainer>,
}

struct Trace {
    usage: Vec<(u64, i64, i64)>,
    killed: Vec<u64>,
}

fn run(preemption: bool, end_ms: u64) -> Trace {
    let tree = file();
    let caps = Capacities::of(&tree);
    let cluster = Resource::new(N * C, N);
    let a = tree.find("root.a").expect("a");
    let b = tree.find("root.b").expect("b");
    let mut apps = [
        App {
            leaf: a,
            arrival: 0,
            pending: 10,
            containers: Vec::new(),
        },
        App {
            leaf: b,
            arrival: 20_000,
            pending: 10,
            containers: Vec::new(),
        },
    ];
    let conf = PcppConfig::default();
    let mut pcpp = PcppState::default();
    let mut next_id = 1;
    let mut trace = Trace {
        usage: Vec::new(),
        killed: Vec::new(),
    };
    let calc = tree.resource_calculator;
    let mut t = 0;
    while t <= end_ms {
        let used = |apps: &[App], q: QueueId| -> Resource {
            apps.iter()
                .filter(|x| x.leaf == q)
                .fold(Resource::ZERO, |s, x| {
                    s.saturating_add(Resource::new(
                        x.containers.len() as i64 * C,
                        x.containers.len() as i64,
                    ))
                })
        };
        if preemption && t % conf.monitoring_interval_ms == 0 {
            let mut cur = vec![Resource::ZERO; tree.len()];
            let mut pen = vec![Resource::ZERO; tree.len()];
            for q in [a, b] {
                cur[q.idx()] = used(&apps, q);
                let p: i64 = apps
                    .iter()
                    .filter(|x| x.leaf == q && x.arrival <= t)
                    .map(|x| x.pending)
                    .sum();
                pen[q.idx()] = Resource::new(p * C, p);
            }
            let mut qs = temp_queues(&tree, &caps, cluster, &cur, &pen);
            compute_ideal(&tree, calc, cluster, &conf, &mut qs);
            let mut selected = Vec::new();
            for q in [a, b] {
                let leaf_apps: Vec<CsApp> = apps
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.leaf == q)
                    .map(|(i, x)| CsApp {
                        id: i as u64 + 1,
                        containers: x.containers.clone(),
                        ..CsApp::default()
                    })
                    .collect();
                selected.extend(leaf_victims(
                    calc,
                    cluster,
                    &conf,
                    &qs[q.idx()],
                    &leaf_apps,
                    Resource::ZERO,
                ));
            }
            for d in pcpp.round(t, &conf, &selected) {
                if let CsDecision::Kill(id) = d {
                    for x in apps.iter_mut() {
                        if x.containers.iter().any(|c| c.id == id) {
                            x.containers.retain(|c| c.id != id);
                            x.pending += 1;
                        }
                    }
                    trace.killed.push(t);
                }
            }
        }
        // Heartbeats: free containers one at a time, least-used queue first.
        loop {
            let total: i64 = apps.iter().map(|x| x.containers.len() as i64).sum();
            if total >= N {
                break;
            }
            let mut usage = vec![Resource::ZERO; tree.len()];
            for q in [a, b] {
                usage[q.idx()] = used(&apps, q);
            }
            usage[0] = usage[a.idx()].saturating_add(usage[b.idx()]);
            let wants = |q: QueueId| {
                apps.iter().any(|x| {
                    if x.leaf != q || x.arrival > t || x.pending == 0 {
                        return false;
                    }
                    // One user per queue: the user limit of §8 with defaults from the file.
                    let conf = tree.get(q);
                    let input = UserLimitInput {
                        semantics: fairsim_core::Semantics::Hadoop27,
                        calc,
                        cluster,
                        absolute_capacity: caps.absolute[q.idx()],
                        required: Resource::new(C, 1),
                        queue_usage: usage[q.idx()],
                        active_users: 1,
                        active_users_usage: None,
                        minimum_user_limit_percent: conf
                            .minimum_user_limit_percent
                            .unwrap_or(100.0),
                        user_limit_factor: conf.user_limit_factor.unwrap_or(1.0),
                        minimum_allocation: Resource::new(C, 1),
                        effective_capacity: None,
                        effective_maximum: None,
                    };
                    user_may_allocate(calc, cluster, usage[q.idx()], user_limit(&input))
                })
            };
            let mut wants = wants;
            let Some(q) = pick_leaf(
                &tree,
                &caps,
                cluster,
                &usage,
                Resource::new(C, 1),
                QueueId::ROOT,
                &mut wants,
            ) else {
                break;
            };
            let x = apps
                .iter_mut()
                .find(|x| x.leaf == q && x.arrival <= t && x.pending > 0)
                .expect("a wanting app");
            x.pending -= 1;
            x.containers.push(CsContainer {
                id: next_id,
                priority: 10,
                size: Resource::new(C, 1),
                is_am: false,
            });
            next_id += 1;
        }
        trace.usage.push((
            t,
            apps[0].containers.len() as i64,
            apps[1].containers.len() as i64,
        ));
        t += 1000;
    }
    trace
}

fn at(trace: &Trace, t: u64) -> (i64, i64) {
    let s = trace.usage.iter().find(|s| s.0 == t).expect("sample");
    (s.1, s.2)
}

#[test]
fn elastic_sharing_stops_at_maximum_capacity() {
    let trace = run(false, 60_000);
    // a alone: past its 5 guaranteed, up to its 80% maximum; the last 2 containers stay
    // idle although a still asks: a queue at its maximum capacity gets nothing more.
    assert_eq!(at(&trace, 0), (8, 0));
    assert_eq!(at(&trace, 19_000), (8, 0));
    // b arrives and takes the idle 2; without preemption a keeps 8.
    assert_eq!(at(&trace, 20_000), (8, 2));
    assert_eq!(at(&trace, 60_000), (8, 2));
    assert!(trace.killed.is_empty());
}

#[test]
fn preemption_reclaims_the_guarantee_and_never_goes_below_it() {
    let trace = run(true, 200_000);
    assert_eq!(at(&trace, 19_000), (8, 0));
    let last = trace.usage.last().expect("samples");
    assert_eq!((last.1, last.2), (5, 5), "each back at its guarantee");
    assert_eq!(trace.killed.len(), 3);
    for &(t, a, _) in &trace.usage {
        assert!(a >= 5, "a below its guarantee at {t}");
    }
    // With the defaults one container is taken per round (10% of the cluster, damped by
    // 0.2), first selected at 21 s and killed at the first round more than 15 s later.
    assert_eq!(trace.killed[0], 39_000);
}
