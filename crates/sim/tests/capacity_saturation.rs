//! The Capacity Scheduler saturated end to end, on random two-level trees in both eras,
//! against an independent model.
//!
//! Each tree has two to four parents under the root and one to three leaves under each, with
//! random capacities (at least 5 %, summing to 100 at each level), maximum capacities,
//! user-limit-factors and one to three users per leaf; about one leaf in five is idle. Every
//! user of an active leaf runs one app of short (20 s) 1 GB tasks, more than it can ever
//! hold, so containers finish and are handed out again all run long.
//!
//! The model fills the cluster one container at a time, top-down: each parent (the root
//! first) gives the container to the child with the least used capacity (containers held ÷
//! guaranteed MB; ties by name) that is below its cap. A leaf's cap is the smaller of its
//! maximum capacity and its users' limits (each user is served while not above
//! roundUp(floor(queue capacity × factor)), so holds one container more); a parent's is the
//! smaller of its maximum capacity and its leaves' caps summed. The queue capacity behind the
//! user limit is each era's: 2.7 rounds cluster × absolute capacity to the nearest MB and up
//! to the minimum allocation, 3.3 truncates it (at least the minimum allocation). It shares
//! no code with the simulator.
//!
//! Every leaf's mean usage over the second half of the run must be within 2 containers of
//! the model, and no queue may hold more than its maximum capacity in any sample.

mod common;

use common::apps::{GB, one_stage};
use common::scenarios::{capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_any_xml;
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

const TREES: u64 = 32;
const RUN_MS: u64 = 300_000;

/// splitmix64: the trees depend on the seed alone.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

#[derive(Debug, Clone)]
struct Queue {
    name: String,
    parent: Option<usize>,
    children: Vec<usize>,
    capacity: u64,
    maximum: u64,
    factor: f64,
    users: u32,
}

/// `n` integer percentages of at least 5 summing to 100.
fn split(rng: &mut Rng, n: usize) -> Vec<u64> {
    let mut parts = vec![5; n];
    for _ in 0..(100 - 5 * n as u64) {
        let i = rng.next() as usize % n;
        parts[i] += 1;
    }
    parts
}

fn random_tree(rng: &mut Rng) -> Vec<Queue> {
    let factors = [0.5, 1.0, 1.5, 2.0, 4.0, 100.0];
    let mut qs = vec![Queue {
        name: "root".into(),
        parent: None,
        children: vec![],
        capacity: 100,
        maximum: 100,
        factor: 1.0,
        users: 0,
    }];
    let n_parents = rng.between(2, 4) as usize;
    for (p, cap) in split(rng, n_parents).into_iter().enumerate() {
        let id = qs.len();
        let maximum = if rng.between(0, 2) == 0 {
            100
        } else {
            rng.between(cap, 100)
        };
        qs.push(Queue {
            name: format!("root.p{p}"),
            parent: Some(0),
            children: vec![],
            capacity: cap,
            maximum,
            factor: 1.0,
            users: 0,
        });
        qs[0].children.push(id);
        let n_leaves = rng.between(1, 3) as usize;
        for (l, lcap) in split(rng, n_leaves).into_iter().enumerate() {
            let lid = qs.len();
            let maximum = if rng.between(0, 2) == 0 {
                100
            } else {
                rng.between(lcap, 100)
            };
            let users = if rng.between(0, 4) == 0 {
                0
            } else {
                rng.between(1, 3) as u32
            };
            qs.push(Queue {
                name: format!("root.p{p}.l{p}x{l}"),
                parent: Some(id),
                children: vec![],
                capacity: lcap,
                maximum,
                factor: factors[rng.next() as usize % factors.len()],
                users,
            });
            qs[id].children.push(lid);
        }
    }
    qs
}

fn props(qs: &[Queue]) -> Vec<(String, String)> {
    let mut out = vec![];
    for q in qs {
        if !q.children.is_empty() {
            let names: Vec<&str> = q
                .children
                .iter()
                .map(|&c| qs[c].name.rsplit('.').next().unwrap())
                .collect();
            out.push((format!("{}.queues", q.name), names.join(",")));
        }
        if q.parent.is_some() {
            out.push((format!("{}.capacity", q.name), q.capacity.to_string()));
            out.push((
                format!("{}.maximum-capacity", q.name),
                q.maximum.to_string(),
            ));
            if q.children.is_empty() {
                out.push((
                    format!("{}.user-limit-factor", q.name),
                    q.factor.to_string(),
                ));
            }
        }
    }
    out
}

/// Absolute capacity and maximum of each queue (fractions of the cluster).
fn absolutes(qs: &[Queue]) -> (Vec<f64>, Vec<f64>) {
    let mut abs = vec![1.0; qs.len()];
    let mut max = vec![1.0; qs.len()];
    for (i, q) in qs.iter().enumerate() {
        if let Some(p) = q.parent {
            abs[i] = abs[p] * q.capacity as f64 / 100.0;
            max[i] = max[p] * q.maximum as f64 / 100.0;
        }
    }
    (abs, max)
}

/// The model: containers each leaf holds in steady state.
fn model(qs: &[Queue], era: Semantics, cluster_mb: i64) -> Vec<i64> {
    let (abs, max) = absolutes(qs);
    let c = cluster_mb as f64;
    let max_containers = |i: usize| (c * max[i]) as i64 / GB;
    let guaranteed = |i: usize| ((c * abs[i]) as i64).max(1);
    let mut cap = vec![0_i64; qs.len()];
    for i in (0..qs.len()).rev() {
        let q = &qs[i];
        cap[i] = if q.children.is_empty() {
            let queue_capacity = match era {
                Semantics::Hadoop27 => {
                    let nearest = (c * abs[i] + 0.5) as i64;
                    (nearest + GB - 1) / GB * GB
                }
                Semantics::Hadoop33 => ((c * abs[i]) as i64).max(GB),
            };
            let limit = ((queue_capacity as f64 * q.factor).floor() as i64 + GB - 1) / GB * GB;
            let users = i64::from(q.users) * (limit / GB + 1);
            users.min(max_containers(i))
        } else {
            let sum: i64 = q.children.iter().map(|&k| cap[k]).sum();
            sum.min(max_containers(i))
        };
    }
    let mut held = vec![0_i64; qs.len()];
    held[0] = cap[0].min(cluster_mb / GB);
    // Top-down: each parent hands out what it holds one container at a time.
    for i in 0..qs.len() {
        let kids = qs[i].children.clone();
        for _ in 0..held[i] {
            let best = kids
                .iter()
                .copied()
                .filter(|&k| held[k] < cap[k])
                .min_by(|&a, &b| {
                    // held_a / g_a against held_b / g_b, exactly.
                    let l = i128::from(held[a] * GB) * i128::from(guaranteed(b));
                    let r = i128::from(held[b] * GB) * i128::from(guaranteed(a));
                    l.cmp(&r).then_with(|| qs[a].name.cmp(&qs[b].name))
                });
            match best {
                Some(k) => held[k] += 1,
                None => break,
            }
        }
    }
    held
}

fn scenario(qs: &[Queue], era: Semantics, nodes: u32) -> Scenario {
    let owned = props(qs);
    let named: Vec<(&str, &str)> = owned
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let tree = parse_any_xml(&capacity_xml(&named), "capacity-scheduler.xml", era)
        .unwrap_or_else(|e| panic!("{e}"))
        .tree;
    let mut apps = vec![];
    for q in qs.iter().filter(|q| q.children.is_empty()) {
        let leaf = q.name.rsplit('.').next().unwrap();
        for u in 0..q.users {
            let mut a = one_stage(
                0,
                leaf,
                &format!("u{u}"),
                5000,
                Resource::new(GB, 1),
                20_000,
            );
            a.name = format!("{leaf}-u{u}");
            apps.push(a);
        }
    }
    let mut sc = Scenario {
        scheduler: SchedulerConf {
            semantics: era,
            heartbeat_ms: 100,
            ..SchedulerConf::default()
        },
        end_ms: Some(RUN_MS),
        ..trace_scenario(
            "capacity-saturation",
            tree,
            nodes,
            Resource::new(8 * GB, 8),
            apps,
        )
    };
    sc.sample_interval_ms = 1000;
    sc.check_invariants = false;
    sc
}

fn run(sc: &Scenario) -> MemoryRecorder {
    let mut rec = MemoryRecorder {
        sample: true,
        ..MemoryRecorder::default()
    };
    fairsim_sim::run(sc, 1, 0, &mut rec).expect("runs");
    rec
}

#[test]
fn saturated_trees_match_the_water_filling_model_in_both_eras() {
    let mut rng = Rng(0x5EED_CA9A_C17E);
    let mut worst = 0.0_f64;
    for t in 0..TREES {
        let qs = random_tree(&mut rng);
        let nodes = rng.between(4, 10) as u32;
        let cluster_mb = i64::from(nodes) * 8 * GB;
        let (_, max) = absolutes(&qs);
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let expected = model(&qs, era, cluster_mb);
            let rec = run(&scenario(&qs, era, nodes));
            let mut sums = vec![0_i64; qs.len()];
            let mut n = 0_i64;
            for (at, rows) in &rec.samples {
                for row in rows {
                    let Some(i) = qs.iter().position(|q| q.name == row.queue) else {
                        continue;
                    };
                    let limit = (cluster_mb as f64 * max[i]) as i64;
                    assert!(
                        row.usage.memory_mb <= limit,
                        "tree {t} {era}: {} holds {} MB at {} ms, above its maximum {limit}\n{qs:#?}",
                        row.queue,
                        row.usage.memory_mb,
                        at.0
                    );
                    if at.0 >= RUN_MS / 2 {
                        sums[i] += row.usage.memory_mb;
                    }
                }
                if at.0 >= RUN_MS / 2 {
                    n += 1;
                }
            }
            assert!(n > 100, "tree {t}: {n} samples");
            for (i, q) in qs.iter().enumerate().filter(|(_, q)| q.children.is_empty()) {
                let mean = sums[i] as f64 / n as f64 / GB as f64;
                let off = (mean - expected[i] as f64).abs();
                worst = worst.max(off);
                assert!(
                    off <= 2.0,
                    "tree {t} {era}: {} holds {mean:.2} containers on average, the model {}\n\
                     model {expected:?}\n{qs:#?}",
                    q.name,
                    expected[i]
                );
            }
        }
    }
    eprintln!(
        "{TREES} trees, both eras: the largest distance from the model is {worst:.3} containers"
    );
}
