//! Loads a generated fair-scheduler.xml of 10,000 queues and computes its steady and
//! instantaneous fair shares, printing the time of each step (median of several runs) and
//! checking the result, so the benchmark is also a correctness test.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::tree::QueueId;
use std::time::{Duration, Instant};

const PARENTS: usize = 100;
const LEAVES_PER_PARENT: usize = 99;
const RUNS: usize = 7;

/// 100 parents of 99 leaves each: 10,000 configured queues (plus root and root.default).
fn generate() -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<allocations>\n");
    for p in 0..PARENTS {
        s.push_str(&format!(
            "  <queue name=\"p{p}\">\n    <weight>{}</weight>\n    <maxResources>{} mb, {} vcores</maxResources>\n",
            1 + p % 3,
            1_000_000 + p * 1000,
            1000 + p
        ));
        for l in 0..LEAVES_PER_PARENT {
            s.push_str(&format!(
                "    <queue name=\"l{l}\"><weight>{}</weight><minResources>{} mb, 1 vcores</minResources><schedulingPolicy>{}</schedulingPolicy></queue>\n",
                0.5 + (l % 4) as f64 * 0.5,
                (l % 5) * 64,
                if l % 2 == 0 { "fair" } else { "fifo" }
            ));
        }
        s.push_str("  </queue>\n");
    }
    s.push_str("</allocations>\n");
    s
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let xml = generate();
    let cluster = Resource::new(100 * 1024 * 1024, 100_000);
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let (mut load_t, mut share_t) = (Vec::new(), Vec::new());
        let mut checksum = 0i64;
        for _ in 0..RUNS {
            let t0 = Instant::now();
            let loaded = parse_fair_scheduler_xml(&xml, "generated.xml", semantics)
                .expect("generated file loads");
            let t1 = Instant::now();
            let tree = &loaded.tree;
            let demands: Vec<_> = (0..tree.len())
                .map(|i| QueueId(i as u32))
                .filter(|&id| tree.get(id).is_leaf && id.0 % 2 == 0)
                .map(|id| (id, Resource::new(4096, 4)))
                .collect();
            let loads = tree.loads_from_demands(cluster, &demands);
            let (steady, fair) = tree.steady_and_fair_shares(semantics, cluster, &loads);
            let t2 = Instant::now();
            load_t.push(t1 - t0);
            share_t.push(t2 - t1);
            assert_eq!(tree.len(), PARENTS * (LEAVES_PER_PARENT + 1) + 2);
            // Shares of root's children split the cluster (truncation may add a few MB).
            let root_children: i64 = tree
                .get(QueueId::ROOT)
                .children
                .iter()
                .map(|c| steady[c.idx()].memory_mb)
                .sum();
            assert!(
                (root_children - cluster.memory_mb).abs() <= 1024,
                "{root_children}"
            );
            checksum = steady.iter().chain(&fair).map(|r| r.memory_mb).sum();
        }
        println!(
            "alloc_bench {semantics}: {} queues, {} KiB of xml: load {:.2} ms, steady+instantaneous shares {:.2} ms (median of {RUNS}); checksum {checksum}",
            PARENTS * (LEAVES_PER_PARENT + 1) + 2,
            xml.len() / 1024,
            median(load_t).as_secs_f64() * 1e3,
            median(share_t).as_secs_f64() * 1e3,
        );
    }
}
