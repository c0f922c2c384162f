//! Where the Capacity Scheduler offers a node (§8): at each parent the child with the least
//! used capacity (used ÷ guaranteed, by the resource calculator; ties by queue path), depth
//! first, skipping a queue that the container would push over its maximum capacity; inside
//! a leaf the apps in FIFO order (application id) or by the fair ordering policy.

use super::Capacities;
use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Calculator, Resource, stable_sort_by};

/// Used capacity: `used ÷ guaranteed` with the calculator's `divide` (memory only: a
/// ratio of memory; dominant: dominant share of `used` ÷ dominant share of `guaranteed`).
///
/// A queue with zero guarantee has used capacity 0 when it uses nothing and +∞ otherwise
/// (fairsim's rule where Hadoop would divide by zero), so it is served after every queue
/// with a guarantee once it holds anything.
pub fn used_capacity(
    calc: Calculator,
    cluster: Resource,
    used: Resource,
    guaranteed: Resource,
) -> f64 {
    let share = |r: Resource| match calc {
        Calculator::MemoryOnly => r.memory_mb as f64,
        Calculator::Dominant => {
            let m = ratio(r.memory_mb, cluster.memory_mb);
            let v = ratio(r.vcores, cluster.vcores);
            m.max(v)
        }
    };
    let (u, g) = (share(used), share(guaranteed));
    if g <= 0.0 {
        return if u <= 0.0 { 0.0 } else { f64::INFINITY };
    }
    u / g
}

fn ratio(a: i64, b: i64) -> f64 {
    if b <= 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Whether `used + required` stays within `maximum` by the calculator (`canAssignToThisQueue`).
pub fn fits_maximum(
    calc: Calculator,
    cluster: Resource,
    used: Resource,
    required: Resource,
    maximum: Resource,
) -> bool {
    !calc.greater_than(cluster, used.saturating_add(required), maximum)
}

/// `children` of a parent sorted least used first (ties by full queue name).
pub fn children_by_use(
    tree: &QueueTree,
    caps: &Capacities,
    cluster: Resource,
    usage: &[Resource],
    parent: QueueId,
) -> Vec<QueueId> {
    let calc = tree.resource_calculator;
    let mut kids = tree.get(parent).children.clone();
    let key =
        |q: QueueId| used_capacity(calc, cluster, usage[q.idx()], caps.guaranteed(q, cluster));
    stable_sort_by(&mut kids, |&a, &b| {
        key(a)
            .total_cmp(&key(b))
            .then_with(|| tree.get(a).name.cmp(&tree.get(b).name))
    });
    kids
}

/// Depth-first descent from `from`: the first leaf, visiting least-used children first,
/// for which the container fits every maximum capacity on the way and `accepts(leaf)`
/// holds (the leaf has an app that can use the node).
pub fn pick_leaf(
    tree: &QueueTree,
    caps: &Capacities,
    cluster: Resource,
    usage: &[Resource],
    required: Resource,
    from: QueueId,
    accepts: &mut dyn FnMut(QueueId) -> bool,
) -> Option<QueueId> {
    leaf_order(tree, caps, cluster, usage, required, from)
        .into_iter()
        .find(|&q| accepts(q))
}

/// Every leaf under `from` in the order a node offer visits them (least-used children
/// first, depth first), leaving out subtrees the container would push over a maximum
/// capacity. Offering the node to each in turn until one takes it is [`pick_leaf`].
pub fn leaf_order(
    tree: &QueueTree,
    caps: &Capacities,
    cluster: Resource,
    usage: &[Resource],
    required: Resource,
    from: QueueId,
) -> Vec<QueueId> {
    let calc = tree.resource_calculator;
    let mut out = Vec::new();
    // Explicit stack, children pushed in reverse so the least used is visited first.
    let mut stack = vec![from];
    while let Some(q) = stack.pop() {
        if !fits_maximum(
            calc,
            cluster,
            usage[q.idx()],
            required,
            caps.maximum(q, cluster),
        ) {
            continue;
        }
        if tree.get(q).is_leaf {
            out.push(q);
            continue;
        }
        let kids = children_by_use(tree, caps, cluster, usage, q);
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// An application as a leaf's ordering policy sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AppOrder {
    /// Application id (submission order).
    pub id: u64,
    /// Used memory in MB.
    pub used_mb: i64,
    /// Demand in MB (for size-based weight).
    pub demand_mb: i64,
}

/// The FIFO ordering policy, `apps` sorted in place: by application id (unique: the order
/// is total).
pub fn sort_fifo(apps: &mut [AppOrder]) {
    apps.sort_unstable_by_key(|a| a.id);
}

/// The fair ordering policy, `apps` sorted in place: ascending used memory (divided by
/// log2(1 + demand MB) with `enable-size-based-weight`), ties by application id (unique: the
/// order is total).
pub fn sort_fair(apps: &mut [AppOrder], size_based_weight: bool) {
    apps.sort_unstable_by(|a, b| fair_cmp(a, b, size_based_weight));
}

/// The fair ordering policy's comparison of two apps.
fn fair_cmp(a: &AppOrder, b: &AppOrder, size_based_weight: bool) -> std::cmp::Ordering {
    let magnitude = |a: &AppOrder| {
        let used = a.used_mb as f64;
        if size_based_weight {
            let w = (1.0 + a.demand_mb as f64).log2();
            if w > 0.0 { used / w } else { used }
        } else {
            used
        }
    };
    magnitude(a).total_cmp(&magnitude(b)).then(a.id.cmp(&b.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capacity::testing::tree;

    fn mb(m: i64) -> Resource {
        Resource::new(m, 0)
    }

    #[test]
    fn least_used_child_first_ties_by_path() {
        let t = tree(&[
            ("root", None, 100.0, 100.0),
            ("root.b", Some(0), 50.0, 100.0),
            ("root.a", Some(0), 30.0, 100.0),
            ("root.c", Some(0), 20.0, 100.0),
        ]);
        let caps = Capacities::of(&t);
        let cluster = mb(10_000);
        // b: 2500/5000 = 0.5; a: 1500/3000 = 0.5; c: 1500/2000 = 0.75.
        let usage = vec![mb(5500), mb(2500), mb(1500), mb(1500)];
        let order = children_by_use(&t, &caps, cluster, &usage, QueueId::ROOT);
        assert_eq!(order, vec![QueueId(2), QueueId(1), QueueId(3)]);
    }

    #[test]
    fn a_queue_at_its_maximum_capacity_gets_nothing_more() {
        let t = tree(&[
            ("root", None, 100.0, 100.0),
            ("root.a", Some(0), 50.0, 60.0),
            ("root.b", Some(0), 50.0, 100.0),
        ]);
        let caps = Capacities::of(&t);
        let cluster = mb(10_000);
        // a is least used relative to b? a: 6000/5000 = 1.2, b: 0 → b first anyway; make b
        // refuse so only a could take it: a is at its max 6000.
        let usage = vec![mb(6000), mb(6000), mb(0)];
        let got = pick_leaf(
            &t,
            &caps,
            cluster,
            &usage,
            mb(1000),
            QueueId::ROOT,
            &mut |q| q == QueueId(1),
        );
        assert_eq!(got, None);
        // Below its max by exactly one container: it fits.
        let usage = vec![mb(5000), mb(5000), mb(0)];
        let got = pick_leaf(
            &t,
            &caps,
            cluster,
            &usage,
            mb(1000),
            QueueId::ROOT,
            &mut |q| q == QueueId(1),
        );
        assert_eq!(got, Some(QueueId(1)));
    }

    #[test]
    fn dominant_used_capacity() {
        let cl = Resource::new(100, 10);
        // used: 10% memory, 50% vcores → 0.5; guaranteed 50% / 20% → 0.5 → ratio 1.
        let u = used_capacity(
            Calculator::Dominant,
            cl,
            Resource::new(10, 5),
            Resource::new(50, 2),
        );
        assert_eq!(u, 1.0);
        assert_eq!(used_capacity(Calculator::MemoryOnly, cl, mb(0), mb(0)), 0.0);
        assert_eq!(
            used_capacity(Calculator::MemoryOnly, cl, mb(1), mb(0)),
            f64::INFINITY
        );
    }

    #[test]
    fn fifo_by_app_id_and_fair_by_usage() {
        let apps = [
            AppOrder {
                id: 7,
                used_mb: 0,
                demand_mb: 100,
            },
            AppOrder {
                id: 3,
                used_mb: 4096,
                demand_mb: 100,
            },
            AppOrder {
                id: 5,
                used_mb: 1024,
                demand_mb: 100_000,
            },
        ];
        let tied = [
            AppOrder {
                id: 9,
                used_mb: 1024,
                demand_mb: 1,
            },
            AppOrder {
                id: 2,
                used_mb: 1024,
                demand_mb: 1,
            },
        ];
        // Size-based: 4096 / log2(1 + 65535) = 256 beats 1024 / log2(1 + 1) = 1024.
        let sized = [
            AppOrder {
                id: 1,
                used_mb: 1024,
                demand_mb: 1,
            },
            AppOrder {
                id: 2,
                used_mb: 4096,
                demand_mb: 65_535,
            },
        ];
        let ids = |v: &[AppOrder]| v.iter().map(|a| a.id).collect::<Vec<_>>();
        let mut v = apps.to_vec();
        sort_fifo(&mut v);
        assert_eq!(ids(&v), [3, 5, 7]);
        sort_fair(&mut v, false);
        assert_eq!(ids(&v), [7, 5, 3]);
        let mut v = tied.to_vec();
        sort_fair(&mut v, false);
        assert_eq!(ids(&v), [2, 9]);
        let mut v = sized.to_vec();
        sort_fair(&mut v, true);
        assert_eq!(ids(&v), [2, 1]);
    }
}
