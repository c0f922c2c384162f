//! Random queue trees and workloads for the property tests (`properties.rs`,
//! `many_leaves.rs`): parents under root with their policies, leaves under root or a parent
//! with a weight (0 included) and optional min and max shares, and one-stage apps.

use fairsim_core::{Policy, Resource};
use fairsim_sim::SimTime;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec};
use proptest::prelude::*;

/// One leaf: parent slot (0 = root, k = parent k - 1 modulo the parents), weight, min share
/// and max share in GB (the max with two vcores a GB).
pub type GenLeaf = (usize, f32, Option<i64>, Option<i64>);

/// One app: arrival (ms), leaf (modulo the leaves), tasks, size in units, duration (ms),
/// whether it has an AM of 512 MB / 1 vcore.
pub type GenApp = (u64, usize, u32, i64, u64, bool);

/// A generated tree.
#[derive(Debug, Clone)]
pub struct GenTree {
    /// Policies of the parents under root (none: every leaf is root's child).
    pub parents: Vec<Policy>,
    /// The leaves, named `l0`, `l1`, … in order.
    pub leaves: Vec<GenLeaf>,
}

/// Weights the generators draw from: 0 is Hadoop 2.7's NaN ratio.
pub const WEIGHTS: [f32; 6] = [1.0, 1.0, 2.0, 3.0, 0.5, 0.0];

/// `leaves` leaves under `parents` parents (fair twice as often as DRF or FIFO); with
/// `shares`, each leaf has a min share one time in five and a max share as often.
pub fn tree(
    parents: std::ops::Range<usize>,
    leaves: std::ops::Range<usize>,
    shares: bool,
) -> impl Strategy<Value = GenTree> {
    let policy = prop::sample::select(vec![Policy::Fair, Policy::Fair, Policy::Drf, Policy::Fifo]);
    let slots = if parents.end > 1 { 4 } else { 1 };
    let leaf = (
        0usize..slots,
        prop::sample::select(WEIGHTS.to_vec()),
        prop::option::weighted(0.2, 1i64..6),
        prop::option::weighted(0.2, 1i64..12),
    );
    (
        prop::collection::vec(policy, parents),
        prop::collection::vec(leaf, leaves),
    )
        .prop_map(move |(parents, mut leaves)| {
            if !shares {
                for l in &mut leaves {
                    (l.2, l.3) = (None, None);
                }
            }
            GenTree { parents, leaves }
        })
}

/// The tree of `t` (root fair) and its leaves' full names.
pub fn build_tree(t: &GenTree) -> (QueueTree, Vec<String>) {
    let mut tree = QueueTree::with_root();
    let parents: Vec<QueueId> = t
        .parents
        .iter()
        .enumerate()
        .map(|(k, &policy)| {
            let p = tree.add_queue(QueueId::ROOT, &format!("p{k}"), false);
            tree.get_mut(p).policy = policy;
            p
        })
        .collect();
    let mut names = Vec::new();
    for (k, &(slot, weight, min, max)) in t.leaves.iter().enumerate() {
        let parent = if slot == 0 || parents.is_empty() {
            QueueId::ROOT
        } else {
            parents[(slot - 1) % parents.len()]
        };
        let q = tree.add_queue(parent, &format!("l{k}"), true);
        let conf = tree.get_mut(q);
        conf.weight = weight;
        if let Some(gb) = min {
            conf.min_resources = ResourceSpec::Absolute(Resource::new(gb * 1024, gb));
        }
        if let Some(gb) = max {
            conf.max_resources = ResourceSpec::Absolute(Resource::new(gb * 1024, 2 * gb));
        }
        names.push(conf.name.clone());
    }
    (tree, names)
}

/// One-stage apps of `apps` in the leaves `names`, sizes in units of `unit_mb` (one vcore
/// each), at priority 10; `queue` may name another queue for app `k`. Sorted by arrival.
pub fn build_apps(
    apps: &[GenApp],
    names: &[String],
    unit_mb: i64,
    queue: impl Fn(usize) -> Option<String>,
) -> Vec<AppSpec> {
    let mut out: Vec<AppSpec> = apps
        .iter()
        .enumerate()
        .map(|(k, &(t, leaf, n, units, d, am))| AppSpec {
            name: format!("a{k}"),
            arrival: SimTime(t),
            queue: queue(k).unwrap_or_else(|| names[leaf % names.len()].clone()),
            user: "u".into(),
            am: am.then_some(Resource::new(512, 1)),
            stages: vec![vec![TaskGroup {
                count: n,
                size: Resource::new(units * unit_mb, 1),
                duration_ms: d,
                priority: 10,
                hosts: vec![],
                relax_locality: true,
            }]],
            recorded: None,
        })
        .collect();
    out.sort_by_key(|a| a.arrival);
    out
}
