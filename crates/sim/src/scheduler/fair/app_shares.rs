//! Apps' instantaneous fair shares within their leaf, computed when a decision reads them
//! instead of at every update tick.
//!
//! Hadoop's update thread recomputes every leaf's apps' shares at every tick. Only Hadoop
//! 3.x decisions read them: the starvation check (`FSAppAttempt.isStarved`, read by the
//! reservation rules and by the hand-out of preempted resources) and the preemption pass
//! (`FSLeafQueue.updateStarvedApps`, then the victim search). Hadoop 2.7's preemption reads
//! only queues' shares. So fairsim computes a leaf's app shares at the moment one is read,
//! exactly as the last tick would have computed them:
//!
//! * their inputs are the leaf's fair share and its runnable apps' weights, which change only
//!   at a tick, and the leaf's runnable apps, which also change between ticks;
//! * a change of the first two lists the leaf (`mark_app_shares`); at the tick a listed leaf
//!   with runnable apps becomes *due* (what the tick used to compute);
//! * a due leaf is computed before a share of it is read (`app_shares`) and
//!   before its runnable apps change or are reordered, over the apps the tick saw (the
//!   change then lists it for the next tick, as before);
//! * so between the tick and the computation no input changed: the result is the tick's.
//!
//! The cycle watch compares whole states, apps' shares included, in the runs where they were
//! kept at every tick (preemption on, or Hadoop 3.x): at the ticks where it may take a
//! fingerprint every due leaf is computed, so that it sees the states it saw before.

use crate::scheduler::Sched;
use crate::tree::QueueId;
use fairsim_core::Semantics;

/// Which leaves' app shares are due (see the module docs). Kept in the queue-share state.
#[derive(Clone, Default)]
pub(crate) struct DueAppShares {
    /// Leaves made due, in the order they were; an entry whose flag is down was computed.
    list: Vec<u32>,
    /// Per queue: due.
    flag: Vec<bool>,
    /// Compute every due leaf at the tick, as before the shares were computed on demand
    /// (tests compare the two).
    pub(crate) every_tick: bool,
}

/// The due leaves only: where the cycle watch takes a fingerprint there are none, whatever
/// the list's history.
impl std::fmt::Debug for DueAppShares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.list.iter().filter(|&&i| self.flag[i as usize]))
            .finish()
    }
}

impl Sched<'_, '_> {
    /// Whether a decision reads apps' instantaneous fair shares: Hadoop 3.x's Fair
    /// Scheduler (its starvation check and its preemption).
    pub(crate) fn app_shares_read(&self) -> bool {
        self.w.semantics == Semantics::Hadoop33 && self.capacity.is_none()
    }

    /// Whether apps' fair shares were kept up to date at every tick before they were
    /// computed on demand (preemption on, or Hadoop 3.x): they are part of the state the
    /// cycle watch compares.
    pub(crate) fn app_shares_kept(&self) -> bool {
        self.preempts() || self.w.semantics != Semantics::Hadoop27
    }

    /// At the end of an update tick: the listed leaves whose inputs changed become due, and
    /// every due leaf is computed where the cycle watch may take a fingerprint next (every
    /// app arrived, the watch on) or when asked to compute at every tick.
    pub(crate) fn app_shares_at_tick(&mut self) {
        if !self.app_shares_kept() {
            return;
        }
        let listed = std::mem::take(&mut self.books.app_share_leaves);
        for &i in &listed {
            let i = i as usize;
            self.w.queues[i].app_shares_listed = false;
            // A listed leaf without runnable apps keeps its flag and leaves the list: an app
            // becoming runnable lists it again.
            if !self.w.tree.queues[i].is_leaf
                || self.w.queues[i].runnable_apps.is_empty()
                || !self.w.queues[i].app_shares_dirty
            {
                continue;
            }
            self.w.queues[i].app_shares_dirty = false;
            let due = &mut self.books.queue_shares.due;
            if due.flag.len() <= i {
                due.flag.resize(self.w.queues.len().max(i + 1), false);
            }
            if !due.flag[i] {
                due.flag[i] = true;
                due.list.push(i as u32);
            }
        }
        self.books.app_share_leaves = listed;
        self.books.app_share_leaves.clear();
        let watched = self.cycles_watched && self.cx.n_arrived >= self.w.apps.len();
        if watched || self.books.queue_shares.due.every_tick {
            self.all_app_shares();
        }
    }

    /// Computes leaf `leaf`'s apps' fair shares if they are due: before one of them is read,
    /// and before the leaf's runnable apps change or are reordered.
    pub(crate) fn app_shares(&mut self, leaf: QueueId) {
        let i = leaf.idx();
        if !self
            .books
            .queue_shares
            .due
            .flag
            .get(i)
            .copied()
            .unwrap_or(false)
        {
            return;
        }
        self.books.queue_shares.due.flag[i] = false;
        let mut list = std::mem::take(&mut self.books.share_scratch);
        self.leaf_app_shares(i, &mut list);
        self.books.share_scratch = list;
    }

    /// Computes every due leaf's apps' fair shares (before a pass that may read any app's).
    pub(crate) fn all_app_shares(&mut self) {
        let due = std::mem::take(&mut self.books.queue_shares.due.list);
        for &i in &due {
            self.app_shares(QueueId(i));
        }
        self.books.queue_shares.due.list = due;
        self.books.queue_shares.due.list.clear();
    }

    /// Tests: compute apps' fair shares at every tick (`true`), as before they were computed
    /// on demand, to compare the two.
    pub(crate) fn app_shares_every_tick(&mut self, on: bool) {
        self.books.queue_shares.due.every_tick = on;
    }
}
