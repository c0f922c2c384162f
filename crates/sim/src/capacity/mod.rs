//! The Capacity Scheduler's policy math (`hadoop-semantics.md` §8), as pure functions.
//!
//! * [`Capacities`]: each queue's guaranteed and maximum capacity as absolute fractions of
//!   the cluster (`absoluteCapacity = capacity × parent's`, `absoluteMaximumCapacity =
//!   maximum-capacity × parent's`) and as resources.
//! * [`user_limit`]: `LeafQueue.computeUserLimit` of Hadoop 2.x (3.x's active-users limit
//!   and queue capacity per era).
//! * [`limits`]: the limit each queue is held to on a node offer, per era.
//! * [`ordering`]: least-used child first, FIFO or fair ordering of apps in a leaf, and the
//!   maximum-capacity gate.
//! * [`locality`]: delay scheduling (node-locality-delay).
//! * [`ideal`]: `ProportionalCapacityPreemptionPolicy`'s ideal assignment and victim choice.

pub mod ideal;
pub mod limits;
pub mod locality;
pub mod ordering;
pub mod user_limit;

use crate::tree::{QueueId, QueueTree};
use fairsim_core::Resource;

/// Absolute guaranteed and maximum capacities of every queue of a capacity tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Capacities {
    /// Guaranteed fraction of the cluster (root: 1).
    pub absolute: Vec<f64>,
    /// Maximum fraction of the cluster (root: 1).
    pub absolute_max: Vec<f64>,
}

impl Capacities {
    /// Resolves `capacity` and `maximum-capacity` (percent of the parent; a missing or
    /// negative maximum means 100) down the tree.
    pub fn of(tree: &QueueTree) -> Capacities {
        let n = tree.len();
        let mut absolute = vec![1.0; n];
        let mut absolute_max = vec![1.0; n];
        for (i, q) in tree.queues.iter().enumerate() {
            let Some(p) = q.parent else { continue };
            let cap = q.capacity_percent.unwrap_or(0.0) / 100.0;
            let max = match q.maximum_capacity_percent {
                Some(m) if m >= 0.0 => m / 100.0,
                _ => 1.0,
            };
            absolute[i] = cap * absolute[p.idx()];
            absolute_max[i] = max * absolute_max[p.idx()];
        }
        Capacities {
            absolute,
            absolute_max,
        }
    }

    /// Guaranteed resource of `q` on `cluster` (each component × the fraction, truncated).
    pub fn guaranteed(&self, q: QueueId, cluster: Resource) -> Resource {
        scale(cluster, self.absolute[q.idx()])
    }

    /// Maximum resource of `q` on `cluster`.
    pub fn maximum(&self, q: QueueId, cluster: Resource) -> Resource {
        scale(cluster, self.absolute_max[q.idx()])
    }
}

/// `r × f` per component, truncated.
pub fn scale(r: Resource, f: f64) -> Resource {
    Resource::new(
        (r.memory_mb as f64 * f) as i64,
        (r.vcores as f64 * f) as i64,
    )
}

#[cfg(test)]
pub(crate) mod testing {
    //! A small capacity tree for the unit tests of this module.
    use crate::tree::{QueueConf, QueueId, QueueTree, SchedulerKind};
    use fairsim_core::Calculator;

    /// `(name, parent index, capacity %, maximum-capacity %)`, root first, pre-order.
    pub fn tree(spec: &[(&str, Option<u32>, f64, f64)]) -> QueueTree {
        let mut queues: Vec<QueueConf> = spec
            .iter()
            .map(|&(name, parent, cap, max)| {
                let mut q = QueueConf::new(name, parent.map(QueueId));
                q.capacity_percent = Some(cap);
                q.maximum_capacity_percent = Some(max);
                q
            })
            .collect();
        for i in 0..queues.len() {
            if let Some(p) = queues[i].parent {
                queues[p.idx()].children.push(QueueId(i as u32));
                queues[p.idx()].is_leaf = false;
            }
        }
        QueueTree {
            queues,
            user_max_apps: Default::default(),
            user_max_apps_default: None,
            placement: Vec::new(),
            scheduler: SchedulerKind::Capacity,
            resource_calculator: Calculator::MemoryOnly,
            new_queue_defaults: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_capacities_multiply_down_the_tree() {
        let t = testing::tree(&[
            ("root", None, 100.0, 100.0),
            ("root.a", Some(0), 40.0, 100.0),
            ("root.a.x", Some(1), 50.0, 50.0),
            ("root.b", Some(0), 60.0, -1.0),
        ]);
        let c = Capacities::of(&t);
        assert_eq!(c.absolute, vec![1.0, 0.4, 0.2, 0.6]);
        assert_eq!(c.absolute_max, vec![1.0, 1.0, 0.5, 1.0]);
        let cluster = Resource::new(10_000, 10);
        assert_eq!(c.guaranteed(QueueId(2), cluster), Resource::new(2000, 2));
        assert_eq!(c.maximum(QueueId(2), cluster), Resource::new(5000, 5));
    }
}
