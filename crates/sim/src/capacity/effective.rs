//! Each queue's effective capacities on a cluster, as Hadoop 3.3 derives them top-down
//! (`ParentQueue.updateClusterResource`, `calculateEffectiveResourcesAndCapacity`,
//! `deriveCapacityFromAbsoluteConfigurations`), recomputed whenever the cluster changes.
//!
//! * Percentage: absolute capacity = parent's × capacity; absolute maximum = parent's ×
//!   maximum-capacity; effective minimum and maximum = cluster × each, truncated per
//!   component (`Resources.multiply`).
//! * Weight: the queue's weight over the sum of its siblings' weights (a 0 % sibling counts
//!   0; a sum of 0 leaves every normalized weight 0), in Java floats, takes the place of the
//!   percentage.
//! * Absolute: the configured minimum resources of the siblings are summed; when the
//!   parent's effective minimum (the cluster at the root, unless it is empty) is below that
//!   sum by the calculator, each resource is scaled by `parent ÷ sum` (a Java float per
//!   resource, for every resource whose sum is not 0, so a resource with room scales *up*),
//!   each child's `(long)(configured × ratio)` in float arithmetic. The effective maximum is
//!   the smaller, by the calculator, of the queue's configured maximum (else the parent's
//!   limit) and the parent's limit, where the parent's limit is the parent's configured
//!   maximum, or else the effective maximum of the parent's own parent (the cluster at the
//!   root). The absolute capacities are then the effective resources divided by the cluster
//!   (`Resources.divide`: memory alone for the default calculator, the dominant share for
//!   the dominant one).

use super::config::CapacityForm;
use super::{Capacities, scale};
use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Calculator, Resource};

/// The effective capacities of every queue of `tree` on `cluster`.
pub fn effective(tree: &QueueTree, cluster: Resource) -> Capacities {
    let n = tree.len();
    let calc = tree.resource_calculator;
    let mut c = Capacities {
        absolute: vec![1.0; n],
        absolute_max: vec![1.0; n],
        min: vec![cluster; n],
        max: vec![cluster; n],
        cluster,
    };
    for (i, q) in tree.queues.iter().enumerate() {
        if q.children.is_empty() {
            continue;
        }
        let parent = QueueId(i as u32);
        children_of(tree, calc, cluster, parent, &mut c);
    }
    c
}

fn children_of(
    tree: &QueueTree,
    calc: Calculator,
    cluster: Resource,
    parent: QueueId,
    c: &mut Capacities,
) {
    let p = parent.idx();
    let kids = &tree.get(parent).children;
    let weight_sum: f32 = kids
        .iter()
        .map(|k| match tree.get(*k).cs.form {
            CapacityForm::Weight(w) => w.max(0.0),
            _ => 0.0,
        })
        .sum();
    let configured_sum = kids
        .iter()
        .fold(Resource::ZERO, |s, k| match tree.get(*k).cs.form {
            CapacityForm::Absolute(r) => s.saturating_add(r),
            _ => s,
        });
    // The root scales against the cluster only when the cluster is not empty.
    let parent_min = c.min[p];
    let scaled = if tree.get(parent).parent.is_none() {
        cluster != Resource::ZERO && calc.less_than(cluster, cluster, configured_sum)
    } else {
        calc.less_than(cluster, parent_min, configured_sum)
    };
    let ratio = |num: i64, den: i64| -> Option<f32> {
        (scaled && den != 0).then(|| num as f32 / den as f32)
    };
    let ratios = (
        ratio(parent_min.memory_mb, configured_sum.memory_mb),
        ratio(parent_min.vcores, configured_sum.vcores),
    );
    // The parent's limit its absolute children's maxima are held to.
    let parent_conf = tree.get(parent);
    let parent_limit = match (parent_conf.cs.maximum_resource, parent_conf.parent) {
        (Some(m), Some(_)) => m,
        (None, Some(gp)) => c.max[gp.idx()],
        (_, None) => cluster,
    };
    for &k in kids {
        let q = tree.get(k);
        let i = k.idx();
        let max_fraction = match q.maximum_capacity_percent {
            Some(m) if m >= 0.0 => m / 100.0,
            _ => 1.0,
        };
        match q.cs.form {
            CapacityForm::Absolute(configured) => {
                let norm = |v: i64, r: Option<f32>| match r {
                    Some(r) => (v as f32 * r) as i64,
                    None => v,
                };
                let min = Resource::new(
                    norm(configured.memory_mb, ratios.0),
                    norm(configured.vcores, ratios.1),
                );
                let own = q.cs.maximum_resource.unwrap_or(parent_limit);
                let max = calc.min(cluster, own, parent_limit);
                c.min[i] = min;
                c.max[i] = max;
                c.absolute[i] = divide(calc, cluster, min);
                c.absolute_max[i] = divide(calc, cluster, max);
            }
            form => {
                let share = match form {
                    CapacityForm::Weight(w) if weight_sum > 1e-6 => f64::from(w / weight_sum),
                    CapacityForm::Weight(_) => 0.0,
                    _ => q.capacity_percent.unwrap_or(0.0) / 100.0,
                };
                c.absolute[i] = share * c.absolute[p];
                c.absolute_max[i] = max_fraction * c.absolute_max[p];
                c.min[i] = scale(cluster, c.absolute[i]);
                c.max[i] = scale(cluster, c.absolute_max[i]);
            }
        }
    }
}

/// `Resources.divide(calc, cluster, r, cluster)`: the share of the cluster `r` is (0 on an
/// empty cluster, where Hadoop would divide by zero).
fn divide(calc: Calculator, cluster: Resource, r: Resource) -> f64 {
    let share = |a: i64, b: i64| if b <= 0 { 0.0 } else { a as f32 / b as f32 };
    let s = match calc {
        Calculator::MemoryOnly => share(r.memory_mb, cluster.memory_mb),
        Calculator::Dominant => {
            share(r.memory_mb, cluster.memory_mb).max(share(r.vcores, cluster.vcores))
        }
    };
    f64::from(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capacity::testing::tree;

    const GB: i64 = 1024;

    fn absolute(t: &mut QueueTree, q: u32, min: Resource, max: Option<Resource>) {
        let c = &mut t.queues[q as usize].cs;
        c.form = CapacityForm::Absolute(min);
        c.maximum_resource = max;
    }

    /// TestAbsoluteResourceConfiguration's simple configuration (queue D a plain leaf):
    /// A [100 GB, 10] max [200 GB, 30], B [50 GB, 10] max [150 GB, 30], C and D [25 GB, 5]
    /// max [150 GB, 20]; their minima sum to [200 GB, 30].
    fn simple() -> QueueTree {
        let mut t = tree(&[
            ("root", None, 100.0, 100.0),
            ("root.queueA", Some(0), 0.0, 100.0),
            ("root.queueB", Some(0), 0.0, 100.0),
            ("root.queueC", Some(0), 0.0, 100.0),
            ("root.queueD", Some(0), 0.0, 100.0),
        ]);
        let r = Resource::new;
        absolute(&mut t, 1, r(100 * GB, 10), Some(r(200 * GB, 30)));
        absolute(&mut t, 2, r(50 * GB, 10), Some(r(150 * GB, 30)));
        absolute(&mut t, 3, r(25 * GB, 5), Some(r(150 * GB, 20)));
        absolute(&mut t, 4, r(25 * GB, 5), Some(r(150 * GB, 20)));
        t
    }

    #[test]
    fn absolute_minima_fit_a_large_cluster_as_configured() {
        // testEffectiveMinMaxResourceConfigurartionPerQueue: one 250 GB, 40-vcore node.
        let c = effective(&simple(), Resource::new(250 * GB, 40));
        assert_eq!(c.min[1], Resource::new(100 * GB, 10));
        assert_eq!(c.max[1], Resource::new(200 * GB, 30));
        assert_eq!(c.min[2], Resource::new(50 * GB, 10));
        assert_eq!(c.max[3], Resource::new(150 * GB, 20));
        // 102400 / 256000.
        assert!((c.absolute[1] - 0.4).abs() < 1e-6);
    }

    #[test]
    fn absolute_minima_shrink_with_the_cluster() {
        // testEffectiveResourceAfterReducingClusterResource: 125 GB and 20 vcores left.
        // Memory ratio 128000 / 204800 = 0.625, vcores 20 / 30: A 64000 MB, 6 vcores;
        // B 32000, 6; C 16000, 3; every maximum the cluster (128000 < 153600 by memory).
        let c = effective(&simple(), Resource::new(125 * GB, 20));
        assert_eq!(c.min[1], Resource::new(64_000, 6));
        assert_eq!(c.min[2], Resource::new(32_000, 6));
        assert_eq!(c.min[3], Resource::new(16_000, 3));
        for q in 1..=4 {
            assert_eq!(c.max[q], Resource::new(128_000, 20));
        }
    }

    #[test]
    fn a_child_without_its_own_maximum_takes_its_parents() {
        // testEffectiveResourceAfterIncreasingClusterResource's complex tree on 250 GB, 40:
        // A [100 GB, 10] max [200 GB, 30] with A1, A2 [50 GB, 5] and no maximum of their own.
        let mut t = tree(&[
            ("root", None, 100.0, 100.0),
            ("root.queueA", Some(0), 0.0, 100.0),
            ("root.queueA.queueA1", Some(1), 0.0, 100.0),
            ("root.queueA.queueA2", Some(1), 0.0, 100.0),
        ]);
        let r = Resource::new;
        absolute(&mut t, 1, r(100 * GB, 10), Some(r(200 * GB, 30)));
        absolute(&mut t, 2, r(50 * GB, 5), None);
        absolute(&mut t, 3, r(50 * GB, 5), None);
        let c = effective(&t, r(250 * GB, 40));
        assert_eq!(c.min[2], r(50 * GB, 5));
        assert_eq!(c.max[2], r(200 * GB, 30));
        assert!((c.absolute[1] - 0.4).abs() < 1e-6);
        assert!((c.absolute_max[1] - 0.8).abs() < 1e-6);
    }

    #[test]
    fn weights_normalize_among_siblings() {
        // testZeroWeightAndZeroPercentSiblingsAccepted: a 0 %, b 2w, c 1w, d 0w.
        let mut t = tree(&[
            ("root", None, 100.0, 100.0),
            ("root.a", Some(0), 0.0, 100.0),
            ("root.b", Some(0), 0.0, 100.0),
            ("root.c", Some(0), 0.0, 100.0),
            ("root.d", Some(0), 0.0, 100.0),
        ]);
        t.queues[2].cs.form = CapacityForm::Weight(2.0);
        t.queues[3].cs.form = CapacityForm::Weight(1.0);
        t.queues[4].cs.form = CapacityForm::Weight(0.0);
        let c = effective(&t, Resource::new(30 * GB, 30));
        assert_eq!(c.absolute[1], 0.0);
        assert!((c.absolute[2] - 2.0 / 3.0).abs() < 1e-6);
        assert!((c.absolute[3] - 1.0 / 3.0).abs() < 1e-6);
        assert_eq!(c.absolute[4], 0.0);
        assert_eq!(c.min[2].memory_mb, 20 * GB);
    }
}
