//! The Capacity Scheduler's policy math (`hadoop-semantics.md` §8), as pure functions.
//!
//! * [`Capacities`]: each queue's guaranteed and maximum capacity as absolute fractions of
//!   the cluster (`absoluteCapacity = capacity × parent's`, `absoluteMaximumCapacity =
//!   maximum-capacity × parent's`) and as resources, on a given cluster ([`effective`]:
//!   percentages, weights and absolute resources as Hadoop 3.3 derives them).
//! * [`am_limits`]: a leaf's AM limits, in all and per user, per era, and the AM resources
//!   the preemption monitor spares.
//! * [`app_limits`]: maximum-applications per leaf and per user.
//! * [`auto_queues`]: Hadoop 3.3's auto-created leaf queues and the capacities their
//!   management policy gives them.
//! * [`config`]: the forms of `capacity` and `maximum-capacity` and which mixes siblings
//!   may use.
//! * [`user_limit`]: `LeafQueue.computeUserLimit` of Hadoop 2.x (3.x's active-users limit
//!   and queue capacity per era).
//! * [`limits`]: the limit each queue is held to on a node offer, per era.
//! * [`ordering`]: least-used child first, FIFO or fair ordering of apps in a leaf, and the
//!   maximum-capacity gate.
//! * [`locality`]: delay scheduling (node-locality-delay).
//! * [`reservations`]: what reservations charge to queues and apps, and
//!   `shouldAllocOrReserveNewContainer`.
//! * [`user_held`]: what each user holds in each leaf, kept as it changes.
//! * [`ideal`]: `ProportionalCapacityPreemptionPolicy`'s ideal assignment and victim choice.

pub mod am_limits;
pub mod app_limits;
pub mod auto_queues;
pub mod config;
pub mod effective;
pub mod ideal;
pub mod limits;
pub mod locality;
pub mod ordering;
pub mod reservations;
pub mod user_held;
pub mod user_limit;

use crate::tree::{QueueId, QueueTree};
use fairsim_core::Resource;

/// Absolute guaranteed and maximum capacities of every queue of a capacity tree, and the
/// effective resources they come to on the cluster they were computed for.
#[derive(Debug, Clone, PartialEq)]
pub struct Capacities {
    /// Guaranteed fraction of the cluster (root: 1).
    pub absolute: Vec<f64>,
    /// Maximum fraction of the cluster (root: 1).
    pub absolute_max: Vec<f64>,
    /// Effective minimum resource on [`Capacities::cluster`].
    pub min: Vec<Resource>,
    /// Effective maximum resource on [`Capacities::cluster`].
    pub max: Vec<Resource>,
    /// The cluster the effective resources were computed for.
    pub cluster: Resource,
}

impl Capacities {
    /// The capacities of `tree` with no cluster yet: fractions from percentages and weights
    /// (absolute resources come to 0 until [`Capacities::at`] is given a cluster).
    pub fn of(tree: &QueueTree) -> Capacities {
        effective::effective(tree, Resource::ZERO)
    }

    /// The capacities of `tree` on `cluster`, as Hadoop 3.3 derives them when the cluster
    /// resource changes.
    pub fn at(tree: &QueueTree, cluster: Resource) -> Capacities {
        effective::effective(tree, cluster)
    }

    /// Guaranteed resource of `q` on `cluster`: the effective minimum when `cluster` is the
    /// one computed for, else each component × the fraction, truncated.
    pub fn guaranteed(&self, q: QueueId, cluster: Resource) -> Resource {
        if cluster == self.cluster {
            return self.min[q.idx()];
        }
        scale(cluster, self.absolute[q.idx()])
    }

    /// Maximum resource of `q` on `cluster` (as [`Capacities::guaranteed`]).
    pub fn maximum(&self, q: QueueId, cluster: Resource) -> Resource {
        if cluster == self.cluster {
            return self.max[q.idx()];
        }
        scale(cluster, self.absolute_max[q.idx()])
    }

    /// A queue's own maximum in `era` (`limits::queue_max`): Hadoop 2.7 rounds
    /// `cluster × absoluteMaximum` down to the minimum allocation; Hadoop 3.3 reads the
    /// effective maximum resource.
    pub fn own_max(
        &self,
        era: fairsim_core::Semantics,
        calc: fairsim_core::Calculator,
        q: QueueId,
        cluster: Resource,
        min_alloc: Resource,
    ) -> Resource {
        match era {
            fairsim_core::Semantics::Hadoop27 => {
                limits::queue_max(era, calc, cluster, self.absolute_max[q.idx()], min_alloc)
            }
            fairsim_core::Semantics::Hadoop33 => self.maximum(q, cluster),
        }
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
