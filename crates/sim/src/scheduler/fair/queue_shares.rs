//! The update thread's queue level, kept up to date with what changed instead of
//! recomputed over every queue: each queue's load (demand capped at its max share, summed up
//! the tree; active when it or a descendant has runnable apps), its instantaneous fair share
//! (capped by max shares, as Hadoop's `computeShares`) and its demand-capped ("ideal") share.
//!
//! The results are exactly those of `QueueTree::roll_up` and `QueueTree::fair_shares` over
//! the whole tree:
//! * a parent's demand is the saturating sum of its children's capped demands; the
//!   children's demands are non-negative, so it is their exact sum (kept in `i128` and
//!   moved by the change of one child) capped at `Long.MAX_VALUE`;
//! * a parent's split of its share reads only its share and its children's weights, min and
//!   max shares, activity and (ideal shares) demands, so only parents where one of these
//!   changed are split again, top-down (a parent's id is below its children's);
//! * under the fair and DRF policies an inactive child's instantaneous share is fixed at 0
//!   and adds nothing to the search's totals, whose sums do not depend on the order of the
//!   items (see `fairsim_core::share`), so a split over the active children alone gives
//!   every active child the share the split over all children gives it. A FIFO parent
//!   (Hadoop allows none, but fairsim keeps the rule) is split over all its children.
//!
//! A tick then costs the touched leaves, their ancestors and the active children of the
//! parents split again, never the idle queues. The whole state is rebuilt from scratch when
//! the queue count or the cluster changes.

use crate::engine::Simulation;
use crate::tree::{QueueId, QueueLoad};
use fairsim_core::share::policy_shares;
use fairsim_core::{Policy, Resource, Schedulable, ShareCap, ShareKind};
use std::collections::BTreeSet;

/// The queue level's state between two runs of the update thread.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueueShares {
    /// The cluster and queue count the state was built for (`None` or another value: built
    /// again at the next update).
    built_for: Option<(Resource, usize)>,
    /// Each queue's load as the share computations read it (usage is not read: zero).
    loads: Vec<QueueLoad>,
    /// Each queue's min share on the cluster.
    min: Vec<Resource>,
    /// Each queue's max share on the cluster.
    max: Vec<Resource>,
    /// Each queue's weight (copied from the tree: a split reads one per child, and the
    /// tree's entries are large).
    weight: Vec<f32>,
    /// Each queue's place in the tree: (a leaf, has children), copied for the same reason.
    shape: Vec<(bool, bool)>,
    /// Parents: the exact sum of their children's capped demands (memory, vcores).
    child_demand: Vec<[i128; 2]>,
    /// Parents: their active children as `(class, id)`, ascending: children of one
    /// configuration (weight, min and max share) are listed together, so the share search
    /// sums them as one run (`fairsim_core::share`); the order of the items changes no share
    /// under the fair and DRF policies.
    active_children: Vec<BTreeSet<(u32, u32)>>,
    /// Each queue's configuration class among its siblings (equal for equal weight, min and
    /// max share).
    class: Vec<u32>,
    /// Leaves whose demand sum or runnable count changed since the last update.
    touched: Vec<u32>,
    is_touched: Vec<bool>,
    /// With `check_invariants`: the first update whose state differed from a computation
    /// over the whole tree, and how.
    pub(crate) mismatch: Option<String>,
    /// Leaves whose apps' fair shares are due (`app_shares`).
    pub(crate) due: super::app_shares::DueAppShares,
}

/// What one update changed at the queue level (scratch, reused between ticks).
#[derive(Debug, Default)]
pub(crate) struct ShareWork {
    /// Queues whose load or shares changed, once each.
    changed: Vec<u32>,
    is_changed: Vec<bool>,
    /// Parents to split again (instantaneous, ideal).
    fair_dirty: BTreeSet<u32>,
    ideal_dirty: BTreeSet<u32>,
    list: Vec<Schedulable>,
    ids: Vec<u32>,
}

impl ShareWork {
    fn mark(&mut self, q: u32) {
        let i = q as usize;
        if self.is_changed.len() <= i {
            self.is_changed.resize(i + 1, false);
        }
        if !self.is_changed[i] {
            self.is_changed[i] = true;
            self.changed.push(q);
        }
    }
}

impl QueueShares {
    /// Forgets the state (built again at the next update, after queues or the cluster
    /// changed), except which leaves' app shares are due: those are still owed.
    pub(crate) fn reset(&mut self) {
        let due = std::mem::take(&mut self.due);
        *self = QueueShares {
            due,
            ..QueueShares::default()
        };
    }

    /// The load of queue `q` as of the last update.
    pub(crate) fn load(&self, q: usize) -> QueueLoad {
        self.loads[q]
    }
}

fn capped_sum(sum: [i128; 2], max: Resource) -> Resource {
    let clamp = |v: i128| v.min(i64::MAX as i128) as i64;
    Resource::new(clamp(sum[0]), clamp(sum[1])).component_min(max)
}

impl Simulation<'_> {
    /// Leaf `leaf`'s demand sum or runnable count changed: its load is looked at in the next
    /// update.
    pub(crate) fn touch_leaf(&mut self, leaf: QueueId) {
        let s = &mut self.queue_shares;
        if let Some(flag) = s.is_touched.get_mut(leaf.idx())
            && !*flag
        {
            *flag = true;
            s.touched.push(leaf.0);
        }
    }

    /// Brings every queue's load, fair share and ideal share up to date (see the module
    /// docs); returns the queues where one of them changed, ascending.
    pub(crate) fn refresh_queue_shares(&mut self, work: &mut ShareWork) -> Vec<u32> {
        work.changed.clear();
        let key = (self.cluster.total, self.queues.len());
        if self.queue_shares.built_for != Some(key) {
            self.rebuild_queue_shares();
            return (0..self.queues.len() as u32).collect();
        }
        let touched = std::mem::take(&mut self.queue_shares.touched);
        for &l in &touched {
            self.queue_shares.is_touched[l as usize] = false;
            let q = &self.queues[l as usize];
            let load = QueueLoad {
                demand: q
                    .app_demand
                    .component_min(self.queue_shares.max[l as usize]),
                usage: Resource::ZERO,
                active: q.runnable > 0,
            };
            self.set_load(QueueId(l), load, work);
        }
        self.queue_shares.touched = touched;
        self.queue_shares.touched.clear();
        while let Some(p) = work.fair_dirty.pop_first() {
            self.split(QueueId(p), ShareCap::MaxShare, work);
        }
        while let Some(p) = work.ideal_dirty.pop_first() {
            self.split(QueueId(p), ShareCap::Demand, work);
        }
        let mut changed = std::mem::take(&mut work.changed);
        for &q in &changed {
            work.is_changed[q as usize] = false;
        }
        changed.sort_unstable();
        if self.sc.check_invariants && self.queue_shares.mismatch.is_none() {
            self.queue_shares.mismatch = self.queue_shares_mismatch();
        }
        changed
    }

    /// How the kept loads and shares differ from `roll_up` and `fair_shares` over the whole
    /// tree, if they do (checked with `check_invariants`).
    fn queue_shares_mismatch(&self) -> Option<String> {
        let (loads, fair, ideal) = self.whole_tree_shares();
        (0..self.queues.len()).find_map(|i| {
            let (kept, q) = (self.queue_shares.loads[i], &self.queues[i]);
            let differs = kept.demand != loads[i].demand
                || kept.active != loads[i].active
                || q.fair_share != fair[i]
                || q.ideal_share != ideal[i];
            differs.then(|| {
                format!(
                    "queue {}: kept {:?} fair {:?} ideal {:?}, whole tree {:?} fair {:?} ideal {:?}",
                    self.tree.queues[i].name,
                    kept,
                    q.fair_share,
                    q.ideal_share,
                    loads[i],
                    fair[i],
                    ideal[i]
                )
            })
        })
    }

    /// Loads (usage left at zero), fair shares and ideal shares computed over the whole tree.
    fn whole_tree_shares(&self) -> (Vec<QueueLoad>, Vec<Resource>, Vec<Resource>) {
        let cluster = self.cluster.total;
        let mut loads = vec![QueueLoad::default(); self.queues.len()];
        for (i, l) in loads.iter_mut().enumerate() {
            if self.tree.queues[i].is_leaf {
                l.demand = self.queues[i].app_demand;
                l.active = self.queues[i].runnable > 0;
            }
        }
        self.tree.roll_up(cluster, &mut loads);
        let shares = |cap| {
            self.tree.fair_shares(
                self.semantics,
                ShareKind::Instantaneous,
                cluster,
                &loads,
                cap,
            )
        };
        let (fair, ideal) = (shares(ShareCap::MaxShare), shares(ShareCap::Demand));
        (loads, fair, ideal)
    }

    /// Sets `q`'s load and carries the change up to its ancestors.
    fn set_load(&mut self, mut q: QueueId, mut load: QueueLoad, work: &mut ShareWork) {
        loop {
            let s = &mut self.queue_shares;
            let old = s.loads[q.idx()];
            if old == load {
                return;
            }
            s.loads[q.idx()] = load;
            work.mark(q.0);
            let Some(p) = self.tree.get(q).parent else {
                return;
            };
            let sum = &mut s.child_demand[p.idx()];
            sum[0] += load.demand.memory_mb as i128 - old.demand.memory_mb as i128;
            sum[1] += load.demand.vcores as i128 - old.demand.vcores as i128;
            if old.active != load.active {
                if load.active {
                    s.active_children[p.idx()].insert((s.class[q.idx()], q.0));
                } else {
                    s.active_children[p.idx()].remove(&(s.class[q.idx()], q.0));
                }
                work.fair_dirty.insert(p.0);
                // An inactive queue's instantaneous shares are 0 under the fair and DRF
                // policies; a FIFO parent's split sets them.
                if !load.active && self.tree.get(p).policy != Policy::Fifo {
                    self.set_fair(q, Resource::ZERO, work);
                    self.set_ideal(q, Resource::ZERO, work);
                }
            }
            work.ideal_dirty.insert(p.0);
            let s = &self.queue_shares;
            load = QueueLoad {
                demand: capped_sum(s.child_demand[p.idx()], s.max[p.idx()]),
                usage: Resource::ZERO,
                active: !s.active_children[p.idx()].is_empty(),
            };
            q = p;
        }
    }

    fn set_fair(&mut self, q: QueueId, share: Resource, work: &mut ShareWork) {
        if self.queues[q.idx()].fair_share == share {
            return;
        }
        self.queues[q.idx()].fair_share = share;
        self.mark_app_shares(q);
        let (leaf, parent) = self.queue_shares.shape[q.idx()];
        if leaf {
            self.refresh_open(q);
        }
        work.mark(q.0);
        if parent {
            work.fair_dirty.insert(q.0);
        }
    }

    fn set_ideal(&mut self, q: QueueId, share: Resource, work: &mut ShareWork) {
        if self.queues[q.idx()].ideal_share == share {
            return;
        }
        self.queues[q.idx()].ideal_share = share;
        work.mark(q.0);
        if self.queue_shares.shape[q.idx()].1 {
            work.ideal_dirty.insert(q.0);
        }
    }

    /// Splits parent `p`'s share (instantaneous or ideal, by `cap`) among its children.
    fn split(&mut self, p: QueueId, cap: ShareCap, work: &mut ShareWork) {
        let conf = self.tree.get(p);
        let s = &self.queue_shares;
        work.ids.clear();
        if conf.policy == Policy::Fifo {
            work.ids.extend(conf.children.iter().map(|c| c.0));
        } else {
            work.ids
                .extend(s.active_children[p.idx()].iter().map(|&(_, c)| c));
        }
        work.list.truncate(work.ids.len());
        for (k, &c) in work.ids.iter().enumerate() {
            if k == work.list.len() {
                work.list.push(Schedulable::new(String::new()));
            }
            let load = s.loads[c as usize];
            let item = &mut work.list[k];
            item.weight = s.weight[c as usize];
            item.start_time_ms = 0;
            item.min_share = s.min[c as usize];
            item.max_share = s.max[c as usize];
            item.demand = load.demand;
            item.usage = Resource::ZERO;
            item.active = load.active;
        }
        let total = match cap {
            ShareCap::MaxShare => self.queues[p.idx()].fair_share,
            ShareCap::Demand => self.queues[p.idx()].ideal_share,
        };
        let split = policy_shares(
            self.semantics,
            conf.policy,
            ShareKind::Instantaneous,
            &work.list,
            total,
            cap,
        );
        let ids = std::mem::take(&mut work.ids);
        for (&c, share) in ids.iter().zip(split) {
            match cap {
                ShareCap::MaxShare => self.set_fair(QueueId(c), share, work),
                ShareCap::Demand => self.set_ideal(QueueId(c), share, work),
            }
        }
        work.ids = ids;
    }

    /// Builds the whole state from scratch, as `roll_up` and `fair_shares` over the tree.
    fn rebuild_queue_shares(&mut self) {
        let cluster = self.cluster.total;
        let n = self.queues.len();
        let (loads, fair, ideal) = self.whole_tree_shares();
        for i in 0..n {
            if self.queues[i].fair_share != fair[i] {
                self.queues[i].fair_share = fair[i];
                self.mark_app_shares(QueueId(i as u32));
                if self.tree.queues[i].is_leaf {
                    self.refresh_open(QueueId(i as u32));
                }
            }
            self.queues[i].ideal_share = ideal[i];
        }
        let min: Vec<Resource> = (0..n)
            .map(|i| self.tree.queues[i].min_resources.resolve(cluster))
            .collect();
        let max: Vec<Resource> = (0..n)
            .map(|i| self.tree.queues[i].max_share(cluster))
            .collect();
        let class = self.config_classes(&min, &max);
        let mut child_demand = vec![[0i128; 2]; n];
        let mut active_children = vec![BTreeSet::new(); n];
        for (i, q) in self.tree.queues.iter().enumerate().skip(1) {
            if let Some(p) = q.parent {
                let d = loads[i].demand;
                child_demand[p.idx()][0] += d.memory_mb as i128;
                child_demand[p.idx()][1] += d.vcores as i128;
                if loads[i].active {
                    active_children[p.idx()].insert((class[i], i as u32));
                }
            }
        }
        self.queue_shares = QueueShares {
            built_for: Some((cluster, n)),
            min,
            max,
            weight: self.tree.queues.iter().map(|q| q.weight).collect(),
            shape: self
                .tree
                .queues
                .iter()
                .map(|q| (q.is_leaf, !q.children.is_empty()))
                .collect(),
            class,
            loads,
            child_demand,
            active_children,
            touched: Vec::new(),
            is_touched: vec![false; n],
            mismatch: self.queue_shares.mismatch.take(),
            due: std::mem::take(&mut self.queue_shares.due),
        };
    }

    /// Each queue's class among its siblings: the rank of its (weight, min, max) among the
    /// distinct ones of its parent's children, in the order of these keys.
    fn config_classes(&self, min: &[Resource], max: &[Resource]) -> Vec<u32> {
        let mut class = vec![0u32; self.tree.queues.len()];
        let mut keyed = Vec::new();
        for conf in &self.tree.queues {
            keyed.clear();
            keyed.extend(conf.children.iter().map(|&c| {
                let (lo, hi) = (min[c.idx()], max[c.idx()]);
                let w = self.tree.queues[c.idx()].weight.to_bits();
                ((w, lo.memory_mb, lo.vcores, hi.memory_mb, hi.vcores), c.0)
            }));
            keyed.sort_unstable();
            let mut rank = 0u32;
            for k in 0..keyed.len() {
                if k > 0 && keyed[k].0 != keyed[k - 1].0 {
                    rank += 1;
                }
                class[keyed[k].1 as usize] = rank;
            }
        }
        class
    }

    /// Leaf `leaf`'s runnable apps' shares must be computed again (its runnable set, an
    /// app's weight or its fair share changed): flagged, and listed for the next update.
    pub(crate) fn mark_app_shares(&mut self, leaf: QueueId) {
        let q = &mut self.queues[leaf.idx()];
        q.app_shares_dirty = true;
        if !q.app_shares_listed {
            q.app_shares_listed = true;
            self.app_share_leaves.push(leaf.0);
        }
    }
}
