//! `am_limit_blocks.<queue>`: the apps of a leaf whose AM its AM limit would not take when
//! they became runnable, so that they wait for room before they start. The limit is the one
//! each scheduler holds AMs to:
//!
//! * Fair Scheduler: maxAMShare of the leaf's fair share (`FSLeafQueue.canRunAppAM`, per era;
//!   in hadoop-2.7 a leaf with no fair share yet, before the update after it becomes active,
//!   takes no AM, so its first app counts too);
//! * Capacity Scheduler: the app is not activated when it joins its leaf (its AM would take
//!   the AMs charged in the leaf over the queue's AM limit, or its user's over the user's
//!   AM limit: `capacity_activation`), so it waits for an activation to be offered nodes.
//!
//! The check is made once, on the state when the app becomes runnable (its submission, or
//! the finish that frees a running-apps slot), not at node offers: offers that change
//! nothing are skipped by the engine, and the count is the same whichever are.

use super::Sched;

impl Sched<'_, '_> {
    /// Counts runnable app `a` in its leaf's `am_limit_blocks` when the AM limit would not
    /// take its AM now.
    pub(crate) fn count_am_limit_block(&mut self, a: u32) {
        let leaf = self.w.apps[a as usize].queue;
        let refused = if self.capacity.is_some() {
            !self.cs_is_active(a)
        } else {
            let Some(am) = self.w.specs[a as usize].am else {
                return;
            };
            !self.can_run_am(leaf, am)
        };
        if refused {
            self.w.queues[leaf.idx()].acc.am_limit_blocks += 1;
        }
    }
}
