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
//! Under the fair and DRF policies a child's instantaneous share with the max-share cap
//! reads only its weight, min and max share (its configuration) and the ratio the search
//! finds: alike active children get the same share. So a parent keeps its active children
//! grouped by configuration class (`ClassShares`), is split over one entry per class with
//! its count (`fairsim_core::share::policy_shares_counted`), and keeps one share per class. A
//! leaf under such a parent reads its fair share through its class
//! (`Sched::fair_share_of`); nothing is written per leaf when a class's share moves.
//! What depends on a leaf's fair share follows from a scan of the class's compact member
//! list: the leaves whose fair-share starvation flag (`usage < threshold × fair share`)
//! flips are refreshed like leaves whose load changed, the leaves whose open state reads
//! the AM gate (Hadoop 2.7, see `refresh_open`) are recounted, and, where apps' shares are
//! kept (`app_shares`), the members' apps' shares are marked. Child parents of a class are
//! still given their share one by one (they split it in turn). The scan reads a compact
//! list of the class's active leaves. Keeping them ordered by usage instead would answer
//! the flips in O(log n) but cost two ordered-set updates at every allocation and release:
//! in the 10,000-leaf benchmark run usages change 4.7M times, against about 42M sequential
//! member reads over all the scans (about 850 per split of root).
//!
//! The demand-capped ("ideal") split of a fair or DRF parent usually ends with every active
//! child at its max, min(max share, demand), where the search is skipped
//! (`fairsim_core::share::AtMaxSums`). The parent keeps the sums that tell so as children's
//! loads change; while its last split ended so and the sums still tell so, only the
//! children whose load changed are given their share (their fixed share or their max), the
//! others keep theirs.
//!
//! A tick then costs the touched leaves, their ancestors, the classes of the parents split
//! again and a scan of the members of the classes whose share moved, never the idle queues.
//! The whole state is rebuilt from scratch when the queue count or the cluster changes.

use crate::scheduler::Sched;
use crate::tree::{QueueId, QueueLoad};
use fairsim_core::share::{
    AtMaxSums, ItemClass, ShareItem, policy_shares, policy_shares_counted, share_at_max,
};
use fairsim_core::{Policy, Resource, Schedulable, ShareCap, ShareKind};
use std::collections::BTreeSet;

/// Whether a leaf's usage is below its fair-share starvation threshold (the metric's
/// `starved_fair`): `usage < threshold × fair share`, in doubles, memory only.
pub(crate) fn starved_fair(usage_mb: i64, threshold: f64, fair_mb: i64) -> bool {
    (usage_mb as f64) < threshold * fair_mb as f64
}

/// An active leaf of a class, with what a move of the class's share reads of it.
#[derive(Debug, Clone, Copy)]
struct Member {
    leaf: u32,
    /// The leaf's memory usage (kept by `add_usage`).
    usage_mb: i64,
    /// Its fairSharePreemptionThreshold.
    threshold: f64,
    /// Its open state reads the AM gate, hence its fair share (see `refresh_open`).
    gated: bool,
}

/// A parent's active children of one configuration class.
#[derive(Debug, Clone, Default)]
struct ClassSlot {
    /// The class's weight, min and max share (`count` unused: the members are counted).
    conf: Option<ItemClass>,
    /// The instantaneous share of each active child of the class, from the parent's last
    /// split (meaningless while the class has none).
    share: Resource,
    /// Active leaves, in no particular order.
    leaves: Vec<Member>,
    /// How many of them are `gated`: a move of the share reads the others only for their
    /// fair starvation.
    gated: u32,
    /// Active child parents, in no particular order.
    inner: Vec<u32>,
}

/// Fair shares kept per configuration class at the parents under the fair and DRF policies
/// (see the module docs). Derived from the loads, classes and usages: left out of the cycle
/// watch's text, whose states it cannot tell apart.
#[derive(Clone, Default)]
pub(crate) struct ClassShares {
    /// Per parent split by class (fair or DRF policy): one slot per class; empty otherwise.
    slots: Vec<Vec<ClassSlot>>,
    /// Per queue: a leaf whose fair share is read through its parent's class.
    by_class: Vec<bool>,
    /// Per queue: its parent (`u32::MAX` for root).
    parent: Vec<u32>,
    /// Per leaf read by class: its place in its slot's `leaves` while active.
    pos: Vec<u32>,
}

impl std::fmt::Debug for ClassShares {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClassShares")
    }
}

const NOWHERE: u32 = u32::MAX;

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
    /// With `check_invariants`: the first update whose state (shares, class members, leaves'
    /// held metric terms) differed from a computation over the whole tree, and how.
    pub(crate) mismatch: Option<String>,
    /// Leaves whose apps' fair shares are due (`app_shares`).
    pub(crate) due: super::app_shares::DueAppShares,
    /// Fair shares by configuration class.
    by_class: ClassShares,
    /// Fair and DRF parents: the at-max sums of their active children's ideal-split items,
    /// memory and vcores, and whether their last ideal split gave every active child its
    /// share at max.
    ideal_sums: Vec<[AtMaxSums; 2]>,
    ideal_at_max: Vec<bool>,
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
    /// A split by class: the classes with active children, and their slots.
    classes: Vec<ItemClass>,
    slots: Vec<u32>,
    /// Members whose open state or apps' shares follow a class's move.
    gated: Vec<u32>,
    marked: Vec<u32>,
    /// Children whose load changed, as (parent, child).
    moved: Vec<(u32, u32)>,
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
    /// Nothing is marked for the next update: it would rebuild nothing and change no load.
    pub(crate) fn nothing_touched(&self) -> bool {
        self.built_for.is_some() && self.touched.is_empty()
    }

    /// Forgets the state (built again at the next update, after queues or the cluster
    /// changed), except which leaves' app shares are due: those are still owed.
    fn reset(&mut self) {
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

/// Queue `q`'s item of one type (0 memory, 1 vcores) in its parent's ideal split with load
/// `load` (as `policy_shares` makes it with the demand cap).
fn ideal_item(s: &QueueShares, q: usize, load: QueueLoad, k: usize) -> ShareItem {
    let of = |r: Resource| if k == 0 { r.memory_mb } else { r.vcores };
    ShareItem {
        weight: s.weight[q],
        min: of(s.min[q]),
        max: of(s.max[q]).min(of(load.demand)),
        active: load.active,
    }
}

fn capped_sum(sum: [i128; 2], max: Resource) -> Resource {
    let clamp = |v: i128| v.min(i64::MAX as i128) as i64;
    Resource::new(clamp(sum[0]), clamp(sum[1])).component_min(max)
}

impl Sched<'_, '_> {
    /// Queue `q`'s instantaneous fair share: through its parent's class for a leaf under a
    /// parent split by class (0 while inactive), as stored otherwise.
    #[inline]
    pub(crate) fn fair_share_of(&self, q: QueueId) -> Resource {
        let s = &self.books.queue_shares;
        let c = &s.by_class;
        if !c.by_class.get(q.idx()).copied().unwrap_or(false) {
            return self.w.queues[q.idx()].fair_share;
        }
        if !s.loads[q.idx()].active {
            return Resource::ZERO;
        }
        c.slots[c.parent[q.idx()] as usize][s.class[q.idx()] as usize].share
    }

    /// Forgets the queue-level state (built again at the next update, after queues or the
    /// cluster changed); fair shares read by class are stored in their queues first.
    pub(crate) fn reset_queue_shares(&mut self) {
        self.store_class_shares();
        self.books.queue_shares.reset();
    }

    /// Stores every fair share read by class in its queue (before the class state goes).
    fn store_class_shares(&mut self) {
        let n = self
            .books
            .queue_shares
            .by_class
            .by_class
            .len()
            .min(self.w.queues.len());
        for i in 0..n {
            if self.books.queue_shares.by_class.by_class[i] {
                self.w.queues[i].fair_share = self.fair_share_of(QueueId(i as u32));
            }
        }
    }

    /// Whether leaf `leaf`'s open state reads the AM gate, hence its fair share (see
    /// `refresh_open`).
    pub(crate) fn open_reads_fair_share(&self, leaf: QueueId) -> bool {
        let q = &self.w.queues[leaf.idx()];
        q.pending > 0
            && self.w.semantics == fairsim_core::Semantics::Hadoop27
            && self.capacity.is_none()
            && q.ordered.is_empty()
    }

    /// The class slot of leaf `leaf` and its member's place in it, when it is an active leaf
    /// read by class.
    #[inline]
    fn member_slot_mut(&mut self, leaf: QueueId) -> Option<(&mut ClassSlot, usize)> {
        let s = &mut self.books.queue_shares;
        let c = &mut s.by_class;
        let pos = *c.pos.get(leaf.idx())?;
        if pos == NOWHERE {
            return None;
        }
        let slot = &mut c.slots[c.parent[leaf.idx()] as usize][s.class[leaf.idx()] as usize];
        Some((slot, pos as usize))
    }

    /// The member entry of leaf `leaf`, when it is an active leaf read by class.
    #[inline]
    fn member_mut(&mut self, leaf: QueueId) -> Option<&mut Member> {
        self.member_slot_mut(leaf)
            .map(|(slot, pos)| &mut slot.leaves[pos])
    }

    /// Leaf `leaf`'s usage changed: its class member follows.
    #[inline]
    pub(crate) fn class_member_usage(&mut self, leaf: QueueId) {
        let usage = self.w.queues[leaf.idx()].usage.memory_mb;
        if let Some(m) = self.member_mut(leaf) {
            m.usage_mb = usage;
        }
    }

    /// Leaf `leaf`'s open state may have started or stopped reading its fair share.
    #[inline]
    pub(crate) fn class_member_gated(&mut self, leaf: QueueId) {
        let gated = self.open_reads_fair_share(leaf);
        let Some((slot, pos)) = self.member_slot_mut(leaf) else {
            return;
        };
        let m = &mut slot.leaves[pos];
        if m.gated != gated {
            m.gated = gated;
            if gated {
                slot.gated += 1;
            } else {
                slot.gated -= 1;
            }
        }
    }

    /// Child `q` of parent `p` became active or inactive: it joins or leaves its class.
    fn class_membership(&mut self, p: QueueId, q: QueueId, active: bool) {
        let is_leaf = self.books.queue_shares.by_class.by_class[q.idx()];
        let threshold = self.w.tree.get(q).fair_share_preemption_threshold as f64;
        let member = Member {
            leaf: q.0,
            usage_mb: self.w.queues[q.idx()].usage.memory_mb,
            threshold,
            gated: self.open_reads_fair_share(q),
        };
        let s = &mut self.books.queue_shares;
        let c = &mut s.by_class;
        let slot = &mut c.slots[p.idx()][s.class[q.idx()] as usize];
        match (is_leaf, active) {
            (true, true) => {
                c.pos[q.idx()] = slot.leaves.len() as u32;
                slot.gated += u32::from(member.gated);
                slot.leaves.push(member);
            }
            (true, false) => {
                let at = std::mem::replace(&mut c.pos[q.idx()], NOWHERE) as usize;
                slot.gated -= u32::from(slot.leaves.swap_remove(at).gated);
                if let Some(moved) = slot.leaves.get(at) {
                    c.pos[moved.leaf as usize] = at as u32;
                }
            }
            (false, true) => slot.inner.push(q.0),
            (false, false) => slot.inner.retain(|&x| x != q.0),
        }
    }

    /// Leaf `leaf`'s fair share, read by class, moved: what reads it follows.
    fn class_leaf_moved(&mut self, leaf: QueueId, work: &mut ShareWork) {
        self.mark_app_shares(leaf);
        self.refresh_open(leaf);
        work.mark(leaf.0);
    }

    /// Leaf `leaf`'s demand sum or runnable count changed: its load is looked at in the next
    /// update.
    pub(crate) fn touch_leaf(&mut self, leaf: QueueId) {
        let s = &mut self.books.queue_shares;
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
        let key = (self.w.cluster.total, self.w.queues.len());
        if self.books.queue_shares.built_for != Some(key) {
            self.rebuild_queue_shares();
            return (0..self.w.queues.len() as u32).collect();
        }
        let touched = std::mem::take(&mut self.books.queue_shares.touched);
        for &l in &touched {
            self.books.queue_shares.is_touched[l as usize] = false;
            let q = &self.w.queues[l as usize];
            let load = QueueLoad {
                demand: q
                    .app_demand
                    .component_min(self.books.queue_shares.max[l as usize]),
                usage: Resource::ZERO,
                active: q.runnable > 0,
            };
            self.set_load(QueueId(l), load, work);
        }
        self.books.queue_shares.touched = touched;
        self.books.queue_shares.touched.clear();
        while let Some(p) = work.fair_dirty.pop_first() {
            self.split(QueueId(p), ShareCap::MaxShare, work);
        }
        while let Some(p) = work.ideal_dirty.pop_first() {
            self.split(QueueId(p), ShareCap::Demand, work);
        }
        work.moved.clear();
        let mut changed = std::mem::take(&mut work.changed);
        for &q in &changed {
            work.is_changed[q as usize] = false;
        }
        changed.sort_unstable();
        if self.w.sc.check_invariants && self.books.queue_shares.mismatch.is_none() {
            self.books.queue_shares.mismatch = self.queue_shares_mismatch();
        }
        changed
    }

    /// How the kept loads and shares differ from `roll_up` and `fair_shares` over the whole
    /// tree, if they do (checked with `check_invariants`).
    fn queue_shares_mismatch(&self) -> Option<String> {
        let (loads, fair, ideal) = self.whole_tree_shares();
        let shares = (0..self.w.queues.len()).find_map(|i| {
            let (kept, q) = (self.books.queue_shares.loads[i], &self.w.queues[i]);
            let fair_now = self.fair_share_of(QueueId(i as u32));
            let differs = kept.demand != loads[i].demand
                || kept.active != loads[i].active
                || fair_now != fair[i]
                || q.ideal_share != ideal[i];
            differs.then(|| {
                format!(
                    "queue {}: kept {:?} fair {:?} ideal {:?}, whole tree {:?} fair {:?} ideal {:?}",
                    self.w.tree.queues[i].name,
                    kept,
                    fair_now,
                    q.ideal_share,
                    loads[i],
                    fair[i],
                    ideal[i]
                )
            })
        });
        shares.or_else(|| self.class_members_mismatch())
    }

    /// How the class members differ from the leaves they stand for, if they do: every
    /// active leaf read by class is a member of its class, with its usage, threshold and
    /// gate as they are.
    fn class_members_mismatch(&self) -> Option<String> {
        let c = &self.books.queue_shares.by_class;
        let counts = c.slots.iter().flatten().find_map(|slot| {
            let gated = slot.leaves.iter().filter(|m| m.gated).count();
            (gated != slot.gated as usize)
                .then(|| format!("a class counts {} gated members, not {gated}", slot.gated))
        });
        if counts.is_some() {
            return counts;
        }
        (0..self.w.queues.len()).find_map(|i| {
            if !c.by_class[i] {
                return None;
            }
            let q = QueueId(i as u32);
            let active = self.books.queue_shares.loads[i].active;
            let pos = c.pos[i];
            let slot = &c.slots[c.parent[i] as usize][self.books.queue_shares.class[i] as usize];
            let member = (pos != NOWHERE)
                .then(|| slot.leaves.get(pos as usize))
                .flatten();
            let expected = active.then(|| {
                (
                    q.0,
                    self.w.queues[i].usage.memory_mb,
                    (self.w.tree.queues[i].fair_share_preemption_threshold as f64).to_bits(),
                    self.open_reads_fair_share(q),
                )
            });
            let kept = member.map(|m| (m.leaf, m.usage_mb, m.threshold.to_bits(), m.gated));
            (kept != expected).then(|| {
                format!(
                    "queue {}: class member {kept:?}, expected {expected:?}",
                    self.w.tree.queues[i].name
                )
            })
        })
    }

    /// Loads (usage left at zero), fair shares and ideal shares computed over the whole tree.
    fn whole_tree_shares(&self) -> (Vec<QueueLoad>, Vec<Resource>, Vec<Resource>) {
        let cluster = self.w.cluster.total;
        let mut loads = vec![QueueLoad::default(); self.w.queues.len()];
        for (i, l) in loads.iter_mut().enumerate() {
            if self.w.tree.queues[i].is_leaf {
                l.demand = self.w.queues[i].app_demand;
                l.active = self.w.queues[i].runnable > 0;
            }
        }
        self.w.tree.roll_up(cluster, &mut loads);
        let shares = |cap| {
            self.w.tree.fair_shares(
                self.w.semantics,
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
            let s = &mut self.books.queue_shares;
            let old = s.loads[q.idx()];
            if old == load {
                return;
            }
            s.loads[q.idx()] = load;
            work.mark(q.0);
            let Some(p) = self.w.tree.get(q).parent else {
                return;
            };
            let sum = &mut s.child_demand[p.idx()];
            sum[0] += load.demand.memory_mb as i128 - old.demand.memory_mb as i128;
            sum[1] += load.demand.vcores as i128 - old.demand.vcores as i128;
            if !s.by_class.slots[p.idx()].is_empty() {
                for k in 0..2 {
                    let semantics = self.w.semantics;
                    let s = &mut self.books.queue_shares;
                    for (l, sign) in [(old, -1), (load, 1)] {
                        if l.active {
                            let item = ideal_item(s, q.idx(), l, k);
                            s.ideal_sums[p.idx()][k].add(
                                semantics,
                                ShareKind::Instantaneous,
                                &item,
                                sign,
                            );
                        }
                    }
                }
                work.moved.push((p.0, q.0));
            }
            let s = &mut self.books.queue_shares;
            if old.active != load.active {
                if load.active {
                    s.active_children[p.idx()].insert((s.class[q.idx()], q.0));
                } else {
                    s.active_children[p.idx()].remove(&(s.class[q.idx()], q.0));
                }
                work.fair_dirty.insert(p.0);
                let by_class = !s.by_class.slots[p.idx()].is_empty();
                if by_class {
                    self.class_membership(p, q, load.active);
                }
                // An inactive queue's instantaneous shares are 0 under the fair and DRF
                // policies; a FIFO parent's split sets them. A leaf read by class reads its
                // class's share from now on (set by the split to come), or 0.
                if self.books.queue_shares.by_class.by_class[q.idx()] {
                    self.class_leaf_moved(q, work);
                }
                if !load.active && by_class {
                    if !self.books.queue_shares.by_class.by_class[q.idx()] {
                        self.set_fair(q, Resource::ZERO, work);
                    }
                    self.set_ideal(q, Resource::ZERO, work);
                }
            }
            work.ideal_dirty.insert(p.0);
            let s = &self.books.queue_shares;
            load = QueueLoad {
                demand: capped_sum(s.child_demand[p.idx()], s.max[p.idx()]),
                usage: Resource::ZERO,
                active: !s.active_children[p.idx()].is_empty(),
            };
            q = p;
        }
    }

    fn set_fair(&mut self, q: QueueId, share: Resource, work: &mut ShareWork) {
        if self.w.queues[q.idx()].fair_share == share {
            return;
        }
        self.w.queues[q.idx()].fair_share = share;
        self.mark_app_shares(q);
        let (leaf, parent) = self.books.queue_shares.shape[q.idx()];
        if leaf {
            self.refresh_open(q);
        }
        work.mark(q.0);
        if parent {
            work.fair_dirty.insert(q.0);
        }
    }

    fn set_ideal(&mut self, q: QueueId, share: Resource, work: &mut ShareWork) {
        if self.w.queues[q.idx()].ideal_share == share {
            return;
        }
        self.w.queues[q.idx()].ideal_share = share;
        work.mark(q.0);
        if self.books.queue_shares.shape[q.idx()].1 {
            work.ideal_dirty.insert(q.0);
        }
    }

    /// Splits parent `p`'s share (instantaneous or ideal, by `cap`) among its children.
    fn split(&mut self, p: QueueId, cap: ShareCap, work: &mut ShareWork) {
        let by_class = !self.books.queue_shares.by_class.slots[p.idx()].is_empty();
        if cap == ShareCap::MaxShare && by_class {
            self.split_by_class(p, work);
            return;
        }
        let at_max = by_class && self.ideal_every_max_reached(p);
        if at_max && self.books.queue_shares.ideal_at_max[p.idx()] {
            self.ideal_moved_children(p, work);
            return;
        }
        if by_class {
            self.books.queue_shares.ideal_at_max[p.idx()] = at_max;
        }
        let conf = self.w.tree.get(p);
        let s = &self.books.queue_shares;
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
            ShareCap::MaxShare => self.w.queues[p.idx()].fair_share,
            ShareCap::Demand => self.w.queues[p.idx()].ideal_share,
        };
        let split = policy_shares(
            self.w.semantics,
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

    /// Whether fair or DRF parent `p`'s ideal split, over its active children, gives each its
    /// share at max (every type the policy computes).
    fn ideal_every_max_reached(&self, p: QueueId) -> bool {
        let total = self.w.queues[p.idx()].ideal_share;
        let sums = &self.books.queue_shares.ideal_sums[p.idx()];
        // The types the policy computes: memory, and under DRF vcores.
        let drf = self.w.tree.get(p).policy == Policy::Drf;
        sums[0].every_max_reached(self.w.semantics, total.memory_mb)
            && (!drf || sums[1].every_max_reached(self.w.semantics, total.vcores))
    }

    /// Parent `p`'s ideal split ends, as its last did, with every active child at its share
    /// at max: the children whose load changed get theirs (those that left were given 0).
    fn ideal_moved_children(&mut self, p: QueueId, work: &mut ShareWork) {
        let drf = self.w.tree.get(p).policy == Policy::Drf;
        for i in 0..work.moved.len() {
            let (pp, c) = work.moved[i];
            let load = self.books.queue_shares.loads[c as usize];
            if pp != p.0 || !load.active {
                continue;
            }
            let at = |k| {
                let item = ideal_item(&self.books.queue_shares, c as usize, load, k);
                share_at_max(self.w.semantics, ShareKind::Instantaneous, &item)
            };
            // Under the fair policy vcores are not computed: 0, as `policy_shares` leaves them.
            let share = Resource::new(at(0), if drf { at(1) } else { 0 });
            self.set_ideal(QueueId(c), share, work);
        }
    }

    /// Splits parent `p`'s instantaneous share among its active children by class: one
    /// share per class with active children; where it moved, the class's leaves follow
    /// (see the module docs). Child parents are given their class's share one by one.
    fn split_by_class(&mut self, p: QueueId, work: &mut ShareWork) {
        let policy = self.w.tree.get(p).policy;
        work.classes.clear();
        work.slots.clear();
        for (k, slot) in self.books.queue_shares.by_class.slots[p.idx()]
            .iter()
            .enumerate()
        {
            let count = (slot.leaves.len() + slot.inner.len()) as u64;
            if let (Some(conf), true) = (slot.conf, count > 0) {
                work.classes.push(ItemClass { count, ..conf });
                work.slots.push(k as u32);
            }
        }
        let total = self.w.queues[p.idx()].fair_share;
        let Some(shares) = policy_shares_counted(
            self.w.semantics,
            policy,
            ShareKind::Instantaneous,
            &work.classes,
            total,
        ) else {
            return;
        };
        let kept = self.app_shares_kept();
        let slots = std::mem::take(&mut work.slots);
        for (&k, share) in slots.iter().zip(shares) {
            let slot = &mut self.books.queue_shares.by_class.slots[p.idx()][k as usize];
            let old = std::mem::replace(&mut slot.share, share);
            if old != share {
                work.gated.clear();
                work.marked.clear();
                let (was_mb, is_mb) = (old.memory_mb, share.memory_mb);
                let flips = |m: &Member| {
                    starved_fair(m.usage_mb, m.threshold, was_mb)
                        != starved_fair(m.usage_mb, m.threshold, is_mb)
                };
                // A leaf whose fair starvation flips has its metric terms refreshed with the
                // leaves whose load changed. Mostly none flips (at 10,000 leaves a share
                // moves at nearly every tick): one pass without a branch per leaf finds out.
                if was_mb != is_mb && slot.leaves.iter().fold(false, |any, m| any | flips(m)) {
                    for m in slot.leaves.iter().filter(|m| flips(m)) {
                        work.mark(m.leaf);
                    }
                }
                if slot.gated > 0 {
                    work.gated
                        .extend(slot.leaves.iter().filter(|m| m.gated).map(|m| m.leaf));
                }
                if kept {
                    work.marked.extend(slot.leaves.iter().map(|m| m.leaf));
                }
                for i in 0..work.gated.len() {
                    self.refresh_open(QueueId(work.gated[i]));
                }
                for i in 0..work.marked.len() {
                    self.mark_app_shares(QueueId(work.marked[i]));
                }
            }
            let slot = &self.books.queue_shares.by_class.slots[p.idx()][k as usize];
            for i in 0..slot.inner.len() {
                let c = self.books.queue_shares.by_class.slots[p.idx()][k as usize].inner[i];
                self.set_fair(QueueId(c), share, work);
            }
        }
        work.slots = slots;
    }

    /// Builds the whole state from scratch, as `roll_up` and `fair_shares` over the tree.
    fn rebuild_queue_shares(&mut self) {
        self.store_class_shares();
        self.books.queue_shares.by_class = ClassShares::default();
        let cluster = self.w.cluster.total;
        let n = self.w.queues.len();
        let (loads, fair, ideal) = self.whole_tree_shares();
        for i in 0..n {
            if self.w.queues[i].fair_share != fair[i] {
                self.w.queues[i].fair_share = fair[i];
                self.mark_app_shares(QueueId(i as u32));
                if self.w.tree.queues[i].is_leaf {
                    self.refresh_open(QueueId(i as u32));
                }
            }
            self.w.queues[i].ideal_share = ideal[i];
        }
        let min: Vec<Resource> = (0..n)
            .map(|i| self.w.tree.queues[i].min_resources.resolve(cluster))
            .collect();
        let max: Vec<Resource> = (0..n)
            .map(|i| self.w.tree.queues[i].max_share(cluster))
            .collect();
        let class = self.config_classes(&min, &max);
        let mut child_demand = vec![[0i128; 2]; n];
        let mut active_children = vec![BTreeSet::new(); n];
        for (i, q) in self.w.tree.queues.iter().enumerate().skip(1) {
            if let Some(p) = q.parent {
                let d = loads[i].demand;
                child_demand[p.idx()][0] += d.memory_mb as i128;
                child_demand[p.idx()][1] += d.vcores as i128;
                if loads[i].active {
                    active_children[p.idx()].insert((class[i], i as u32));
                }
            }
        }
        let by_class = self.class_shares(&class, &loads, &fair, &min, &max);
        let ideal_sums = vec![[AtMaxSums::default(); 2]; n];
        let ideal_at_max = vec![false; n];
        self.books.queue_shares = QueueShares {
            built_for: Some((cluster, n)),
            min,
            max,
            weight: self.w.tree.queues.iter().map(|q| q.weight).collect(),
            shape: self
                .w
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
            mismatch: self.books.queue_shares.mismatch.take(),
            due: std::mem::take(&mut self.books.queue_shares.due),
            by_class,
            ideal_sums,
            ideal_at_max,
        };
        // The at-max sums of every fair or DRF parent's active children; a parent whose
        // whole-tree split just gave each its share at max starts on the short way.
        for i in 1..n {
            let load = self.books.queue_shares.loads[i];
            let Some(p) = self.w.tree.queues[i].parent else {
                continue;
            };
            if !load.active || self.books.queue_shares.by_class.slots[p.idx()].is_empty() {
                continue;
            }
            for k in 0..2 {
                let item = ideal_item(&self.books.queue_shares, i, load, k);
                self.books.queue_shares.ideal_sums[p.idx()][k].add(
                    self.w.semantics,
                    ShareKind::Instantaneous,
                    &item,
                    1,
                );
            }
        }
        for p in 0..n {
            if !self.books.queue_shares.by_class.slots[p].is_empty() {
                self.books.queue_shares.ideal_at_max[p] =
                    self.ideal_every_max_reached(QueueId(p as u32));
            }
        }
    }

    /// The class state of a tree whose shares were just computed over the whole of it: every
    /// fair or DRF parent's children by class, the active ones as members.
    fn class_shares(
        &self,
        class: &[u32],
        loads: &[QueueLoad],
        fair: &[Resource],
        min: &[Resource],
        max: &[Resource],
    ) -> ClassShares {
        let n = self.w.queues.len();
        let mut out = ClassShares {
            slots: vec![Vec::new(); n],
            by_class: vec![false; n],
            parent: (self.w.tree.queues.iter())
                .map(|q| q.parent.map_or(NOWHERE, |p| p.0))
                .collect(),
            pos: vec![NOWHERE; n],
        };
        for (p, conf) in self.w.tree.queues.iter().enumerate() {
            if conf.children.is_empty() || conf.policy == Policy::Fifo {
                continue;
            }
            let classes = conf.children.iter().map(|c| class[c.idx()] + 1).max();
            let mut slots = vec![ClassSlot::default(); classes.unwrap_or(0) as usize];
            for &c in &conf.children {
                let i = c.idx();
                let slot = &mut slots[class[i] as usize];
                slot.conf = Some(ItemClass {
                    weight: self.w.tree.queues[i].weight,
                    min_share: min[i],
                    max_share: max[i],
                    count: 0,
                });
                let leaf = self.w.tree.queues[i].is_leaf;
                out.by_class[i] = leaf;
                if !loads[i].active {
                    continue;
                }
                debug_assert!(
                    slot.leaves.is_empty() && slot.inner.is_empty() || slot.share == fair[i],
                    "alike children share alike"
                );
                slot.share = fair[i];
                if leaf {
                    out.pos[i] = slot.leaves.len() as u32;
                    let gated = self.open_reads_fair_share(c);
                    slot.gated += u32::from(gated);
                    slot.leaves.push(Member {
                        leaf: c.0,
                        usage_mb: self.w.queues[i].usage.memory_mb,
                        threshold: self.w.tree.queues[i].fair_share_preemption_threshold as f64,
                        gated,
                    });
                } else {
                    slot.inner.push(c.0);
                }
            }
            out.slots[p] = slots;
        }
        out
    }

    /// Each queue's class among its siblings: the rank of its (weight, min, max) among the
    /// distinct ones of its parent's children, in the order of these keys.
    fn config_classes(&self, min: &[Resource], max: &[Resource]) -> Vec<u32> {
        let mut class = vec![0u32; self.w.tree.queues.len()];
        let mut keyed = Vec::new();
        for conf in &self.w.tree.queues {
            keyed.clear();
            keyed.extend(conf.children.iter().map(|&c| {
                let (lo, hi) = (min[c.idx()], max[c.idx()]);
                let w = self.w.tree.queues[c.idx()].weight.to_bits();
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
        let q = &mut self.w.queues[leaf.idx()];
        q.app_shares_dirty = true;
        if !q.app_shares_listed {
            q.app_shares_listed = true;
            self.books.app_share_leaves.push(leaf.0);
        }
    }
}
