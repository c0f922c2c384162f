//! maxRunningApps per queue and per user (Hadoop's `MaxRunningAppsEnforcer`).
//!
//! At submission an app is runnable iff its user is below the user limit and its leaf and
//! every ancestor are below their limits; otherwise it waits. When a runnable app leaves,
//! the highest queue on its path that was full (runnable count = limit − 1 after the
//! removal) is found; the waiting lists of all leaves under it that have slack are
//! collected, plus the user's waiting list if the user was at its limit; these lists are
//! walked merged by start time (then app index), making runnable every app that now passes
//! the check, and stopping after as many apps as there are lists.

use crate::app::AppPhase;
use crate::scheduler::Sched;
use crate::tree::QueueId;

impl Sched<'_, '_> {
    /// The id of `user`, created with its limit on first use.
    pub(crate) fn user_id(&mut self, user: &str) -> u32 {
        if let Some(&u) = self.w.user_index.get(user) {
            return u;
        }
        let max = self
            .w
            .tree
            .user_max_apps
            .get(user)
            .copied()
            .or(self.w.tree.user_max_apps_default)
            .unwrap_or(u32::MAX);
        let id = self.w.users.len() as u32;
        self.w.users.push(crate::state::world::UserState {
            runnable: 0,
            max_running: max,
            waiting: Vec::new(),
        });
        self.w.user_index.insert(user.to_string(), id);
        id
    }

    fn can_be_runnable(&self, leaf: QueueId, user: u32) -> bool {
        let u = &self.w.users[user as usize];
        if u.runnable >= u.max_running {
            return false;
        }
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &self.w.queues[id.idx()];
            if qs.runnable >= qs.max_running {
                return false;
            }
            q = self.w.tree.get(id).parent;
        }
        true
    }

    /// A newly placed app: runnable or waiting.
    pub(crate) fn submit(&mut self, a: u32) {
        let (leaf, user) = (self.w.apps[a as usize].queue, self.w.apps[a as usize].user);
        self.demand_changed(a);
        self.explain_touch(a);
        if self.can_be_runnable(leaf, user) {
            self.make_runnable(a);
        } else {
            self.w.apps[a as usize].phase = AppPhase::Waiting;
            self.w.queues[leaf.idx()].waiting_apps.push(a);
            self.w.users[user as usize].waiting.push(a);
            let mut q = Some(leaf);
            while let Some(id) = q {
                self.w.queues[id.idx()].waiting += 1;
                q = self.w.tree.get(id).parent;
            }
        }
    }

    fn make_runnable(&mut self, a: u32) {
        let (leaf, user) = (self.w.apps[a as usize].queue, self.w.apps[a as usize].user);
        self.app_shares(leaf);
        self.w.apps[a as usize].phase = AppPhase::Runnable;
        self.w.users[user as usize].runnable += 1;
        let mut q = Some(leaf);
        while let Some(id) = q {
            self.w.queues[id.idx()].runnable += 1;
            q = self.w.tree.get(id).parent;
        }
        self.w.queues[leaf.idx()].runnable_apps.push(a);
        self.mark_app_shares(leaf);
        self.touch_leaf(leaf);
        let pending = self.w.apps[a as usize].requests.pending;
        self.pending_changed(a, pending as i64);
        self.reorder_app(a);
        self.cs_app_added(a);
        self.count_am_limit_block(a);
    }

    /// Bookkeeping when a runnable app finished, then the release walk.
    pub(crate) fn on_runnable_app_removed(&mut self, a: u32) {
        let (leaf, user) = (self.w.apps[a as usize].queue, self.w.apps[a as usize].user);
        self.app_shares(leaf);
        self.w.users[user as usize].runnable -= 1;
        let mut q = Some(leaf);
        let mut highest: Option<QueueId> = None;
        while let Some(id) = q {
            let qs = &mut self.w.queues[id.idx()];
            qs.runnable -= 1;
            if qs.max_running != u32::MAX && qs.runnable == qs.max_running - 1 {
                highest = Some(id);
            }
            q = self.w.tree.get(id).parent;
        }
        let list = &mut self.w.queues[leaf.idx()].runnable_apps;
        if let Some(pos) = list.iter().position(|&x| x == a) {
            list.remove(pos);
        }
        // The Capacity Scheduler's leaf looks at its pending apps again before the apps
        // the removal lets run join it.
        self.cs_app_removed(a);
        self.mark_app_shares(leaf);
        self.touch_leaf(leaf);
        let mut lists: Vec<Vec<u32>> = Vec::new();
        if let Some(h) = highest {
            self.gather_waiting(h, &mut lists);
        }
        let u = &self.w.users[user as usize];
        if u.max_running != u32::MAX && u.runnable == u.max_running - 1 && !u.waiting.is_empty() {
            lists.push(u.waiting.clone());
        }
        let limit = lists.len();
        if limit == 0 {
            return;
        }
        let mut merged: Vec<u32> = lists.into_iter().flatten().collect();
        // By start time: an app's arrival, or its current attempt's start.
        merged.sort_by_key(|&x| (self.w.apps[x as usize].sched.start_time_ms, x));
        merged.dedup();
        let mut made = 0;
        for x in merged {
            if made >= limit {
                break;
            }
            if self.w.apps[x as usize].phase != AppPhase::Waiting {
                continue;
            }
            let (xl, xu) = (self.w.apps[x as usize].queue, self.w.apps[x as usize].user);
            if !self.can_be_runnable(xl, xu) {
                continue;
            }
            self.w.queues[xl.idx()].waiting_apps.retain(|&y| y != x);
            self.w.users[xu as usize].waiting.retain(|&y| y != x);
            let mut q = Some(xl);
            while let Some(id) = q {
                self.w.queues[id.idx()].waiting -= 1;
                q = self.w.tree.get(id).parent;
            }
            self.make_runnable(x);
            made += 1;
        }
    }

    fn gather_waiting(&self, q: QueueId, out: &mut Vec<Vec<u32>>) {
        let qs = &self.w.queues[q.idx()];
        if qs.runnable >= qs.max_running {
            return;
        }
        if self.w.tree.get(q).is_leaf {
            // Hadoop adds a leaf's list even when it is empty; the count matters.
            out.push(qs.waiting_apps.clone());
        } else {
            for &c in &self.w.tree.get(q).children {
                self.gather_waiting(c, out);
            }
        }
    }
}
