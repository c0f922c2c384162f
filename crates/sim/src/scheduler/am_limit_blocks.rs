//! `am_limit_blocks.<queue>`: the apps of a leaf whose AM its AM limit would not take when
//! they became runnable, so that they wait for room before they start. The limit is the one
//! each scheduler holds AMs to:
//!
//! * Fair Scheduler: maxAMShare of the leaf's fair share (`FSLeafQueue.canRunAppAM`, per era;
//!   in hadoop-2.7 a leaf with no fair share yet, before the update after it becomes active,
//!   takes no AM, so its first app counts too);
//! * Capacity Scheduler: cluster × absolute capacity × maximum-am-resource-percent, with an
//!   AM already running in the leaf (`LeafQueue.activateApplications` starts the first AM
//!   whatever its size).
//!
//! The check is made once, on the state when the app becomes runnable (its submission, or
//! the finish that frees a running-apps slot), not at node offers: offers that change
//! nothing are skipped by the engine, and the count is the same whichever are.

use super::Sched;

impl Sched<'_, '_> {
    /// Counts runnable app `a` in its leaf's `am_limit_blocks` when the AM limit would not
    /// take its AM now.
    pub(crate) fn count_am_limit_block(&mut self, a: u32) {
        let Some(am) = self.w.specs[a as usize].am else {
            return;
        };
        let leaf = self.w.apps[a as usize].queue;
        let refused = match &self.capacity {
            Some(cs) => {
                let cluster = self.w.cluster.total;
                let fraction = self
                    .w
                    .tree
                    .get(leaf)
                    .maximum_am_resource_fraction
                    .unwrap_or(0.1);
                let limit =
                    crate::capacity::scale(cluster, cs.caps.absolute[leaf.idx()] * fraction);
                let am_usage = self.w.queues[leaf.idx()].am_usage;
                am_usage != fairsim_core::Resource::ZERO
                    && self.w.tree.resource_calculator.greater_than(
                        cluster,
                        am_usage.saturating_add(am),
                        limit,
                    )
            }
            None => !self.can_run_am(leaf, am),
        };
        if refused {
            self.w.queues[leaf.idx()].acc.am_limit_blocks += 1;
        }
    }
}
