//! The Capacity Scheduler's application-master limits, per era: what a leaf's activated
//! apps' AMs may hold in all and per user (`LeafQueue.getAMResourceLimit` and
//! `getUserAMResourceLimit` in Hadoop 2.7; `calculateAndGetAMResourceLimitPerPartition` and
//! `getUserAMResourceLimitPerPartition` in 3.3), and the AM capacity the proportional
//! preemption monitor keeps (`ProportionalCapacityPreemptionPolicy` in 2.7,
//! `FifoCandidatesSelector` in 3.3).
//!
//! ```text
//! guaranteed  (2.7) = multiplyAndNormalizeUp(cluster, absoluteCapacity, minAlloc)
//! guaranteed  (3.3) = the leaf's effective capacity (getEffectiveCapacity)
//! queue AM limit    = multiplyAndNormalizeUp(max(guaranteed, currentLimit), amPercent, minAlloc)
//! user share        = max(minimumUserLimitPercent / 100, 1 / max(activeUsers, 1))   (floats)
//! user AM limit     = multiplyAndNormalizeUp(guaranteed, amPercent × userShare × userLimitFactor, minAlloc)
//!                     3.3: capped at the queue AM limit; a factor of −1 drops the user share
//! monitor's AM cap  = (cluster × absoluteCapacity) × amPercent, each product truncated
//! ```
//!
//! `currentLimit` is the limit the leaf was last held to (`queueResourceLimitsInfo`): its
//! maximum capacity, or less when its parent hands it less, as the last cluster-resource
//! update or the last node offer that reached an app of the leaf computed it. So a leaf may
//! start AMs up to its share of its maximum while its siblings are idle, and fewer as they
//! take their capacity back.
//!
//! `multiplyAndNormalizeUp` rounds the product to the nearest integer with the default
//! (memory-only) calculator, whose result has memory alone (1 vcore when memory is
//! positive, as `Resources.createResource(memory)` makes it), and up (`Math.ceil`) per
//! component with the dominant one; then up to a multiple of the minimum allocation. 2.7
//! narrows the products to a Java int, 3.3 to a long. The percentages are Java floats.

use fairsim_core::{Calculator, Resource, Semantics};

/// `Resources.multiplyAndNormalizeUp(calc, r, by, step)` of `era` (see the module text).
pub fn multiply_and_normalize_up(
    era: Semantics,
    calc: Calculator,
    r: Resource,
    by: f64,
    step: Resource,
) -> Resource {
    let narrow = |x: f64| match era {
        // `(int)` and `(long)` of a double saturate, as Rust's `as` does.
        Semantics::Hadoop27 => x as i32 as i64,
        Semantics::Hadoop33 => x as i64,
    };
    let round_up = |v: i64, s: i64| {
        if s <= 0 {
            v
        } else {
            (v + s - 1).div_euclid(s) * s
        }
    };
    match calc {
        Calculator::MemoryOnly => {
            let memory = round_up(narrow(r.memory_mb as f64 * by + 0.5), step.memory_mb);
            Resource::new(memory, i64::from(memory > 0))
        }
        Calculator::Dominant => Resource::new(
            round_up(narrow((r.memory_mb as f64 * by).ceil()), step.memory_mb),
            round_up(narrow((r.vcores as f64 * by).ceil()), step.vcores),
        ),
    }
}

/// What a leaf's AM limits are computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AmLimitInput {
    /// The era.
    pub semantics: Semantics,
    /// The calculator (`yarn.scheduler.capacity.resource-calculator`).
    pub calc: Calculator,
    /// The cluster.
    pub cluster: Resource,
    /// The leaf's absolute capacity (fraction of the cluster), read by Hadoop 2.7.
    pub absolute_capacity: f64,
    /// The leaf's effective capacity, read by Hadoop 3.3.
    pub effective_capacity: Resource,
    /// The limit the leaf was last held to (see the module text).
    pub current_limit: Resource,
    /// `maximum-am-resource-percent`, a fraction (a Java float).
    pub am_fraction: f32,
    /// `minimum-user-limit-percent` (a Java float; 2.7's int is exact in it).
    pub minimum_user_limit_percent: f32,
    /// `user-limit-factor` (a Java float).
    pub user_limit_factor: f32,
    /// `yarn.scheduler.minimum-allocation-*`.
    pub minimum_allocation: Resource,
}

impl AmLimitInput {
    /// The leaf's guaranteed resource as the AM limits read it (see the module text).
    pub fn guaranteed(&self) -> Resource {
        match self.semantics {
            Semantics::Hadoop27 => multiply_and_normalize_up(
                self.semantics,
                self.calc,
                self.cluster,
                self.absolute_capacity,
                self.minimum_allocation,
            ),
            Semantics::Hadoop33 => self.effective_capacity,
        }
    }

    /// The queue's AM limit: the AMs of its activated apps together may hold this much.
    pub fn queue_limit(&self) -> Resource {
        let usable = self
            .calc
            .max(self.cluster, self.guaranteed(), self.current_limit);
        multiply_and_normalize_up(
            self.semantics,
            self.calc,
            usable,
            f64::from(self.am_fraction),
            self.minimum_allocation,
        )
    }

    /// The AM limit of each user of the leaf while `active_users` users have apps asking.
    pub fn user_limit(&self, active_users: u32) -> Resource {
        let share = (self.minimum_user_limit_percent / 100.0).max(1.0 / active_users.max(1) as f32);
        let by = match self.semantics {
            Semantics::Hadoop33 if self.user_limit_factor == -1.0 => self.am_fraction,
            _ => self.am_fraction * share * self.user_limit_factor,
        };
        let limit = multiply_and_normalize_up(
            self.semantics,
            self.calc,
            self.guaranteed(),
            f64::from(by),
            self.minimum_allocation,
        );
        match self.semantics {
            Semantics::Hadoop27 => limit,
            Semantics::Hadoop33 => {
                let queue = self.queue_limit();
                if self.calc.less_than(self.cluster, queue, limit) {
                    queue
                } else {
                    limit
                }
            }
        }
    }
}

/// Whether AMs holding `used` may take one more of `am` under `limit`
/// (`Resources.lessThanOrEqual` by the calculator's order).
pub fn am_fits(
    calc: Calculator,
    cluster: Resource,
    used: Resource,
    am: Resource,
    limit: Resource,
) -> bool {
    !calc.greater_than(cluster, used.saturating_add(am), limit)
}

/// The AM resources the preemption monitor spares in a leaf: the cluster times the leaf's
/// absolute capacity, then times its maximum-am-resource-percent, each product truncated
/// per component (`Resources.multiply`; both factors Java floats).
pub fn monitor_am_limit(cluster: Resource, absolute_capacity: f64, am_fraction: f64) -> Resource {
    let times = |r: Resource, by: f64| {
        Resource::new(
            (r.memory_mb as f64 * by) as i64,
            (r.vcores as f64 * by) as i64,
        )
    };
    let by_capacity = times(cluster, f64::from(absolute_capacity as f32));
    times(by_capacity, f64::from(am_fraction as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: i64 = 1024;

    fn input(era: Semantics, cluster: Resource, absolute: f64) -> AmLimitInput {
        AmLimitInput {
            semantics: era,
            calc: Calculator::MemoryOnly,
            cluster,
            absolute_capacity: absolute,
            effective_capacity: crate::capacity::scale(cluster, absolute),
            current_limit: cluster,
            am_fraction: 0.1,
            minimum_user_limit_percent: 50.0,
            user_limit_factor: 5.0,
            minimum_allocation: Resource::new(GB, 1),
        }
    }

    /// TestApplicationLimits.testAMResourceLimit: queue a at 10 % of 80 GB, maximum 100 %,
    /// user limit 50 %, factor 5: the queue's AM limit is 10 % of the 80 GB it may reach
    /// (8 GB, not 10 % of its 8 GB guarantee); a user's is 8 GB × 0.1 × max(0.5, 1/1) × 5 =
    /// 4 GB with one active user, 2 GB with two.
    #[test]
    fn the_queue_limit_reads_the_current_limit_and_the_user_limit_the_guarantee() {
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let i = input(era, Resource::new(80 * GB, 40), 0.1);
            assert_eq!(i.queue_limit(), Resource::new(8 * GB, 1), "{era:?}");
            assert_eq!(i.user_limit(0), Resource::new(4 * GB, 1), "{era:?}");
            assert_eq!(i.user_limit(1), Resource::new(4 * GB, 1), "{era:?}");
            assert_eq!(i.user_limit(2), Resource::new(2 * GB, 1), "{era:?}");
            // Held to its guarantee (siblings busy), the queue's limit is 10 % of 8 GB,
            // rounded up to the minimum allocation: 1 GB.
            let held = AmLimitInput {
                current_limit: Resource::new(4 * GB, 2),
                ..i
            };
            assert_eq!(held.queue_limit(), Resource::new(GB, 1), "{era:?}");
            // 3.3 caps the user's limit at the queue's; 2.7 does not.
            let user = held.user_limit(1);
            match era {
                Semantics::Hadoop27 => assert_eq!(user, Resource::new(4 * GB, 1)),
                Semantics::Hadoop33 => assert_eq!(user, Resource::new(GB, 1)),
            }
        }
    }

    /// TestApplicationLimits.testLimitsComputation: 100 nodes of 16 GB, queue a at 10 %:
    /// AM limits 160 GB and 80 GB; on 120 nodes 192 GB and 96 GB; with
    /// maximum-am-resource-percent 0.5 on 100 nodes 800 GB and 400 GB. The current limit is
    /// the queue's maximum, the whole cluster.
    #[test]
    fn limits_follow_the_cluster_and_the_percent() {
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let i = input(era, Resource::new(100 * 16 * GB, 100 * 16), 0.1);
            assert_eq!(i.queue_limit().memory_mb, 160 * GB);
            assert_eq!(i.user_limit(0).memory_mb, 80 * GB);
            let grown = input(era, Resource::new(120 * 16 * GB, 120 * 16), 0.1);
            assert_eq!(grown.queue_limit().memory_mb, 192 * GB);
            assert_eq!(grown.user_limit(0).memory_mb, 96 * GB);
            let half = AmLimitInput {
                am_fraction: 0.5,
                ..i
            };
            assert_eq!(half.queue_limit().memory_mb, 800 * GB);
            assert_eq!(half.user_limit(0).memory_mb, 400 * GB);
        }
    }

    #[test]
    fn normalize_up_per_calculator_and_era() {
        let step = Resource::new(GB, 1);
        // 3000 × 0.1 = 300.0000045 (0.1f widened): 300 rounds to 1024; vcores follow memory.
        let r = Resource::new(3000, 3);
        let by = f64::from(0.1f32);
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            assert_eq!(
                multiply_and_normalize_up(era, Calculator::MemoryOnly, r, by, step),
                Resource::new(GB, 1)
            );
            assert_eq!(
                multiply_and_normalize_up(era, Calculator::Dominant, r, by, step),
                Resource::new(GB, 1)
            );
        }
        // Nearest against up: 10 × 0.04 = 0.4 is 0 for the default calculator, 1 MB up for
        // the dominant one (each rounded up to the 1 MB step).
        let one = Resource::new(1, 1);
        let small = Resource::new(10, 10);
        assert_eq!(
            multiply_and_normalize_up(
                Semantics::Hadoop27,
                Calculator::MemoryOnly,
                small,
                0.04,
                one
            ),
            Resource::new(0, 0)
        );
        assert_eq!(
            multiply_and_normalize_up(Semantics::Hadoop27, Calculator::Dominant, small, 0.04, one),
            Resource::new(1, 1)
        );
        // 2.7 narrows to an int: 2^31 MB × 1.0 saturates at 2^31 − 1, 3.3 keeps it.
        let big = Resource::new(1 << 31, 1);
        assert_eq!(
            multiply_and_normalize_up(Semantics::Hadoop27, Calculator::MemoryOnly, big, 1.0, one)
                .memory_mb,
            i64::from(i32::MAX)
        );
        assert_eq!(
            multiply_and_normalize_up(Semantics::Hadoop33, Calculator::MemoryOnly, big, 1.0, one)
                .memory_mb,
            1 << 31
        );
    }

    #[test]
    fn the_monitor_truncates_each_product() {
        // 10,000 MB × 0.3f = 3000.0001 → 3000, × 0.1f → 300; 10 vcores → 3 → 0.
        assert_eq!(
            monitor_am_limit(Resource::new(10_000, 10), 0.3, 0.1),
            Resource::new(300, 0)
        );
        // Truncated twice, 39 MB × 0.1 = 3.9 → 3, × 0.6 = 1.8 → 1; the product truncated
        // once would keep 39 × 0.06 = 2.34 → 2.
        assert_eq!(
            monitor_am_limit(Resource::new(39, 0), 0.1, 0.6).memory_mb,
            1
        );
        assert!(am_fits(
            Calculator::MemoryOnly,
            Resource::new(8 * GB, 8),
            Resource::new(6 * GB, 3),
            Resource::new(2 * GB, 1),
            Resource::new(8 * GB, 1)
        ));
        assert!(!am_fits(
            Calculator::MemoryOnly,
            Resource::new(8 * GB, 8),
            Resource::new(6 * GB, 3),
            Resource::new(3 * GB, 1),
            Resource::new(8 * GB, 1)
        ));
    }
}
