//! Assignment on a node heartbeat (Hadoop's `attemptScheduling` and the `assignContainer`
//! chain of `FSParentQueue`, `FSLeafQueue` and `FSAppAttempt`).
//!
//! * Reservation first (Hadoop 2.7): a node reserved for an app is kept for it while the app
//!   still asks at that priority and the reserved size fits its queues' maxResources; the
//!   reservation becomes an allocation once the size fits the node, and while it is kept
//!   nothing else is assigned on the node. A reservation the app no longer needs is released
//!   at the node's next heartbeat (testSimpleContainerReservation).
//! * Then the loop: one container per descent from root; continue only with
//!   `assignmultiple`, up to `max_assign` (2.7, and 3.3 with dynamic max-assign off), or
//!   while the resources assigned in this heartbeat fit half of the node's unallocated
//!   resource before the loop (3.3 dynamic max-assign, the default).
//! * Descent: a queue whose usage does not fit its maxResources, or a reserved node, gets
//!   nothing; children are offered the node in the parent policy's order; a leaf offers it
//!   to runnable apps in the leaf policy's order; the first non-empty result wins. Queues and
//!   apps with no outstanding request are skipped (they could only return nothing).
//! * Hadoop 3.3's leaf offers the node only to apps whose pending demand is not none
//!   (`FSLeafQueue.fetchAppsWithDemand`): the demand of the last update minus the usage now
//!   (`Sched::has_pending_demand_33`). Requests made since the last update wait for
//!   the next one; an app whose usage fell since (a completion) is offered and finds nothing
//!   unless it asked again; usage grown past the last demand (a second stage of larger
//!   containers) gives a negative component, which is not none. 2.7 has no such filter.
//! * Inside an app: priorities ascending; the AM-share gate; count-based delay scheduling;
//!   node-local, rack-local then off-switch as in `FSAppAttempt.assignContainer`; the first
//!   priority that reaches a "try" returns its result.
//! * Hadoop 3.x: before the reservation, a node holding preempted resources offers them to
//!   the app they were preempted for (`scheduler::fair::preempt::offer_held_node`).
//! * A container that does not fit the node: 2.7 reserves the node unless that would push
//!   the queue or an ancestor over maxResources. 3.3 reserves only for apps starved as
//!   checked at that moment (below their fair share, or handed a min-share starvation), for
//!   containers of at least the reservation threshold, not on a node holding preempted
//!   resources for the app, and within the reservable-nodes ratio (`reservable_nodes`, 0.05
//!   by default) for rack-local and off-switch requests (`scheduler::fair::preempt::may_reserve_33`).
//! * maxResources: 2.7 checks only that current usage fits (one-container overshoot);
//!   3.3 also requires usage + container to fit the leaf and every ancestor.

use crate::app::Locality;
use crate::cluster::Reservation;
use crate::recorder::{Decision, DecisionKind};
use crate::scheduler::Outcome;
use crate::scheduler::Sched;
use crate::state::world::Container;
use crate::tree::QueueId;
use fairsim_core::{Policy, Resource, Semantics, stable_sort_by, tree_set_order};
use std::ops::Bound;

impl Sched<'_, '_> {
    /// Hadoop's `attemptScheduling` for `node`.
    pub(crate) fn attempt_scheduling(&mut self, node: u32) {
        if self.capacity.is_some() {
            self.cs_attempt_scheduling(node);
            return;
        }
        let n = node as usize;
        // Hadoop 3.x: preempted resources on this node go first to the app they were freed
        // for, before the node's reservation is looked at.
        let holds = !self.held_for(n).is_empty();
        if holds {
            self.offer_held_node(node);
        }
        let mut released = None;
        if let Some(res) = self.w.cluster.nodes[n].reservation {
            let app = res.app;
            let idx = self.w.apps[app as usize]
                .requests
                .by_priority
                .iter()
                .position(|p| p.priority == res.priority);
            // 3.3's `isValidReservation` also drops a reservation whose app is held by
            // maxAMShare (its leaf's fair share may have fallen since it reserved).
            let valid = idx.is_some_and(|i| self.has_container_for_node(app, i, node))
                && self.fits_in_max_share(self.w.apps[app as usize].queue, res.size)
                && !(self.w.semantics == Semantics::Hadoop33 && self.over_am_share_limit_33(app));
            if !valid {
                self.unreserve(node);
                released = Some(app);
            } else {
                if res.size.fits_in(self.w.cluster.nodes[n].available()) {
                    self.assign_app(app, node, Some(res.priority));
                }
                return;
            }
        }
        // Reservation churn: the descent the last beat made, repeated when it provably
        // reads the same (`scheduler::fair::repeat_reserve`).
        let repeats = !holds && self.reserve_repeats();
        if repeats {
            if self.repeat_reservation(node, released) {
                return;
            }
            self.begin_descent();
        }
        let conf = &self.w.sc.scheduler;
        let (multiple, max_assign) = (conf.assignmultiple, conf.max_assign);
        let dynamic = self.w.semantics == Semantics::Hadoop33 && conf.dynamic_max_assign;
        let avail = self.w.cluster.nodes[n].available();
        // Read only under 3.3's dynamic max-assign (two divisions saved on every descent).
        let half = if dynamic {
            Resource::new(avail.memory_mb / 2, avail.vcores / 2)
        } else {
            Resource::ZERO
        };
        let mut count = 0i64;
        let mut assigned = Resource::ZERO;
        while self.w.cluster.nodes[n].reservation.is_none() {
            match self.assign_queue(QueueId::ROOT, node) {
                Outcome::Nothing => break,
                Outcome::Reserved => {
                    if repeats && count == 0 {
                        self.remember_reservation(node, avail);
                    }
                    count += 1;
                }
                Outcome::Allocated(r) => {
                    count += 1;
                    assigned = assigned.saturating_add(r);
                }
            }
            if !multiple {
                break;
            }
            if dynamic {
                if !assigned.fits_in(half) {
                    break;
                }
            } else if max_assign > 0 && count >= max_assign as i64 {
                break;
            }
        }
    }

    /// The next entry of an ordered set after `cursor`.
    fn next_in_order(&self, q: QueueId, cursor: Option<OrderEntry>) -> Option<u32> {
        first_after(&self.w.queues[q.idx()].ordered, cursor).map(|e| e.2)
    }

    fn entry_of_queue(&self, c: u32) -> OrderEntry {
        let qs = &self.w.queues[c as usize];
        (qs.key, qs.name_rank, c)
    }

    fn entry_of_app(&self, a: u32) -> OrderEntry {
        let ap = &self.w.apps[a as usize];
        (ap.key, ap.name_rank, a)
    }

    /// Whether a heartbeat of a node holding no reservation and no resources kept for an app
    /// can change anything: the first check of the descent from root passes (the Capacity
    /// Scheduler offers a node only to leaves with outstanding requests). When it fails such
    /// a heartbeat is elided (see `engine`'s "Heartbeat elision").
    #[inline]
    pub(crate) fn offers_may_act(&self) -> bool {
        if self.capacity.is_some() {
            return self.w.queues[QueueId::ROOT.idx()].pending > 0;
        }
        if self.sorted_history() {
            // Every heartbeat whose root precheck passes sorts lists that remember it.
            return self.precheck_passes(QueueId::ROOT);
        }
        self.queue_may_take(QueueId::ROOT) && self.books.open_leaves > 0
    }

    /// Recounts leaf `leaf` in `open_leaves`: it is open while it has an outstanding request
    /// and, in a Hadoop 2.7 run, it is not *AM-blocked*: every
    /// app with an outstanding request waits for its AM and maxAMShare refuses the smallest
    /// of these AMs ([`Sched::am_gate_closed`], which is false while delay scheduling
    /// reads the offers an app counts). An AM-blocked leaf gives nothing to any node and
    /// changes no state that is read (2.7's gate reads only the leaf's fair share, AM usage
    /// and maxAMShare), so while every leaf with a request is AM-blocked a heartbeat of an
    /// unarmed node is elided. In a Hadoop 3.3 run a leaf is open only while one of these
    /// apps also has pending demand (`AppState::offered_33`): the others are left out of
    /// the descent (`fetchAppsWithDemand`), and those it keeps without an outstanding request
    /// write nothing (`FSAppAttempt.assignContainer` skips every priority with nothing
    /// asked before it counts an offer), so a leaf without such an app gives nothing and
    /// changes nothing until an update tick, an allocation or a release moves an app's
    /// pending demand. Called wherever these inputs change: the leaf's outstanding count,
    /// its ordered sets (which every change of an app's usage, requests or demand
    /// re-keys), its AM usage and its fair share.
    pub(crate) fn refresh_open(&mut self, leaf: QueueId) {
        let qs = &self.w.queues[leaf.idx()];
        let open = qs.pending > 0
            && !(self.w.semantics == Semantics::Hadoop27
                && self.capacity.is_none()
                && qs.ordered.is_empty()
                && self.am_gate_closed(leaf))
            && (!self.filters_apps_with_demand() || qs.offered > 0);
        let q = &mut self.w.queues[leaf.idx()];
        if q.open != open {
            q.open = open;
            if open {
                self.books.open_leaves += 1;
            } else {
                self.books.open_leaves -= 1;
            }
            // A parent's ordered set holds its open leaves only (`World::requeue`).
            self.w.requeue(leaf);
        }
        self.class_member_gated(leaf);
    }

    /// A queue's own precondition for taking a node (besides the node not being reserved):
    /// usage within maxResources and an outstanding request below it.
    fn queue_may_take(&self, q: QueueId) -> bool {
        let qs = &self.w.queues[q.idx()];
        qs.usage.fits_in(qs.max_share) && qs.pending > 0
    }

    /// The usage half of Hadoop's `assignContainerPreCheck`: usage within maxResources.
    fn precheck_passes(&self, q: QueueId) -> bool {
        let qs = &self.w.queues[q.idx()];
        qs.usage.fits_in(qs.max_share)
    }

    /// `FSParentQueue`/`FSLeafQueue.assignContainer`.
    fn assign_queue(&mut self, q: QueueId, node: u32) -> Outcome {
        if self.w.cluster.nodes[node as usize].reservation.is_some() {
            return Outcome::Nothing;
        }
        if self.sorted_history() {
            // Hadoop's own precheck only: a queue with nothing to ask still sorts its list.
            if !self.precheck_passes(q) {
                return Outcome::Nothing;
            }
            return self.assign_queue_sorted(q, node);
        }
        if !self.queue_may_take(q) {
            return Outcome::Nothing;
        }
        if self.fair.as_ref().is_some_and(|f| f.tree_sets) {
            return self.assign_queue_tree_set(q, node);
        }
        let leaf = self.w.tree.get(q).is_leaf;
        if self.w.incremental && leaf {
            return self.assign_leaf_incremental(q, node);
        }
        if self.w.incremental {
            let mut cursor = None;
            while let Some(x) = self.next_in_order(q, cursor) {
                let r = if leaf {
                    cursor = Some(self.entry_of_app(x));
                    self.assign_app(x, node, None)
                } else {
                    cursor = Some(self.entry_of_queue(x));
                    self.assign_queue(QueueId(x), node)
                };
                if r != Outcome::Nothing {
                    return r;
                }
            }
            return Outcome::Nothing;
        }
        self.assign_queue_sorted(q, node)
    }

    /// The naive descent below `q`: sort the persistent list in place with the comparator, as
    /// Hadoop does, and offer the node in that order. Hadoop 2.7 sorts with
    /// `Collections.sort`, a stable merge sort, which `stable_sort_by` replays; a Hadoop 3.3
    /// run gets here only when its comparators order strictly (fair and FIFO end on the
    /// name), where the `TreeSet` it builds iterates in the sorted order.
    fn assign_queue_sorted(&mut self, q: QueueId, node: u32) -> Outcome {
        let leaf = self.w.tree.get(q).is_leaf;
        let cmp = self.w.queues[q.idx()].comparator;
        let order: Vec<u32> = if leaf {
            // A FIFO leaf's app shares read the list's order (the first of equal start
            // times takes all): computed over the order the tick saw.
            if self.w.tree.get(q).policy == Policy::Fifo {
                self.app_shares(q);
            }
            let mut list = std::mem::take(&mut self.w.queues[q.idx()].runnable_apps);
            let apps = &self.w.apps;
            stable_sort_by(&mut list, |&x, &y| {
                cmp.compare(&apps[x as usize].sched, &apps[y as usize].sched)
            });
            self.w.queues[q.idx()].runnable_apps = list.clone();
            list
        } else {
            let mut list = std::mem::take(&mut self.w.queues[q.idx()].child_list);
            let queues = &self.w.queues;
            stable_sort_by(&mut list, |&x, &y| {
                cmp.compare(&queues[x as usize].sched, &queues[y as usize].sched)
            });
            self.w.queues[q.idx()].child_list = list.clone();
            list
        };
        self.offer_in_order(&order, leaf, node)
    }

    /// Hadoop 3.3's descent below `q` where its comparator may not be a total order: a fresh
    /// `TreeSet` of every child (or of the runnable apps with pending demand), added in the
    /// order of lists Hadoop never sorts (`scheduler::fair::sort_history`).
    fn assign_queue_tree_set(&mut self, q: QueueId, node: u32) -> Outcome {
        let leaf = self.w.tree.get(q).is_leaf;
        let cmp = self.w.queues[q.idx()].comparator;
        let order: Vec<u32> = if leaf {
            // Hadoop's set holds the apps with pending demand, asking or not: its shape,
            // and so the order of NaN ties, depends on each of them.
            let with_demand: Vec<u32> = self.w.queues[q.idx()]
                .runnable_apps
                .iter()
                .copied()
                .filter(|&a| self.has_pending_demand_33(a))
                .collect();
            let apps = &self.w.apps;
            tree_set_order(&with_demand, |&x, &y| {
                cmp.compare(&apps[x as usize].sched, &apps[y as usize].sched)
            })
        } else {
            let queues = &self.w.queues;
            tree_set_order(&queues[q.idx()].child_list, |&x, &y| {
                cmp.compare(&queues[x as usize].sched, &queues[y as usize].sched)
            })
        };
        self.offer_in_order(&order, leaf, node)
    }

    /// Offers `node` to the children of a sorted descent in `order` (apps of a leaf, else
    /// queues) until one takes it; apps with nothing to ask, and in 3.3 those without
    /// pending demand, are passed over.
    fn offer_in_order(&mut self, order: &[u32], leaf: bool, node: u32) -> Outcome {
        for &x in order {
            let r = if leaf {
                if self.w.apps[x as usize].requests.pending == 0 || !self.offered_by_leaf(x) {
                    continue;
                }
                self.assign_app(x, node, None)
            } else {
                self.assign_queue(QueueId(x), node)
            };
            if r != Outcome::Nothing {
                return r;
            }
        }
        Outcome::Nothing
    }

    /// A leaf's apps in comparator order (incremental ordering): the merge of `ordered` and
    /// `am_waiting`, the latter skipped whole when maxAMShare refuses every waiting AM
    /// ([`Sched::am_gate_closed`]): `assign_app` would return nothing for each of them.
    fn assign_leaf_incremental(&mut self, q: QueueId, node: u32) -> Outcome {
        // The gate reads the leaf's AM sizes and fair share: only worth it with apps waiting.
        let skip_waiting = self.w.queues[q.idx()].am_waiting.is_empty() || self.am_gate_closed(q);
        let mut cursor: Option<OrderEntry> = None;
        loop {
            let Some(next) = self.next_offered_app(q, cursor, skip_waiting) else {
                return Outcome::Nothing;
            };
            cursor = Some(next);
            let r = self.assign_app(next.2, node, None);
            if r != Outcome::Nothing {
                return r;
            }
        }
    }

    /// The first app after `cursor` in leaf `q`'s merged order: the sets hold only apps
    /// their leaf offers nodes to ([`Sched::offered_by_leaf`], `Sched::reorder_app`).
    fn next_offered_app(
        &self,
        q: QueueId,
        cursor: Option<OrderEntry>,
        skip_waiting: bool,
    ) -> Option<OrderEntry> {
        let qs = &self.w.queues[q.idx()];
        let running = first_after(&qs.ordered, cursor);
        let waiting = if skip_waiting {
            None
        } else {
            first_after(&qs.am_waiting, cursor)
        };
        let next = match (running, waiting) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        };
        debug_assert!(next.is_none_or(|e| self.offered_by_leaf(e.2)));
        next
    }

    /// Hadoop 3.3's `FSAppAttempt.getPendingDemand` is not none: the demand the update thread
    /// last computed minus the usage now, a plain subtraction whose components may be
    /// negative, differs from 0 in some component (`Resources.isNone` is equality with 0).
    /// `app.demand` is that demand: only the update thread writes it, and an app not yet seen
    /// by an update has demand 0.
    pub(crate) fn has_pending_demand_33(&self, a: u32) -> bool {
        let app = &self.w.apps[a as usize];
        app.demand.saturating_sub(app.usage) != Resource::ZERO
    }

    /// Hadoop 3.3's Fair Scheduler, whose leaves offer nodes only to apps with pending
    /// demand (`FSLeafQueue.fetchAppsWithDemand`).
    pub(crate) fn filters_apps_with_demand(&self) -> bool {
        self.w.semantics == Semantics::Hadoop33 && self.capacity.is_none()
    }

    /// Whether the leaf of runnable app `a` offers it the node at all: in Hadoop 3.3 only
    /// with pending demand (`FSLeafQueue.fetchAppsWithDemand`); 2.7 offers every runnable app.
    fn offered_by_leaf(&self, a: u32) -> bool {
        self.w.semantics != Semantics::Hadoop33 || self.has_pending_demand_33(a)
    }

    /// App `a` is held by the AM gate of `assign_app` while maxAMShare refuses its AM: it
    /// manages an AM that has no container yet (2.7 checks that the app has no live
    /// container, 3.3 that its AM is not running; an AM is never preempted, so the two
    /// agree).
    pub(crate) fn waits_for_am(&self, a: u32) -> bool {
        let app = &self.w.apps[a as usize];
        self.w.specs[a as usize].am.is_some()
            && match self.w.semantics {
                Semantics::Hadoop27 => app.live == 0,
                Semantics::Hadoop33 => !app.am_running,
            }
    }

    /// Every app of `leaf`'s `am_waiting` set would get nothing from `assign_app` now:
    /// `can_run_am` refuses the smallest of their AMs (it is monotone in the AM's size).
    /// In 2.7 the gate comes after the app counts a scheduling opportunity, so the apps are
    /// skipped only while delay scheduling (the one reader of that count) is off.
    pub(crate) fn am_gate_closed(&self, leaf: QueueId) -> bool {
        let sizes = &self.w.queues[leaf.idx()].am_sizes;
        if sizes.is_empty() {
            return true;
        }
        let conf = &self.w.sc.scheduler;
        if self.w.semantics == Semantics::Hadoop27
            && !self.continuous_on()
            && conf.locality_threshold_node >= 0.0
            && conf.locality_threshold_rack >= 0.0
        {
            return false;
        }
        let smallest = sizes
            .keys()
            .map(|&(m, v)| Resource::new(m, v))
            .reduce(|a, b| Resource::new(a.memory_mb.min(b.memory_mb), a.vcores.min(b.vcores)))
            .unwrap_or(Resource::ZERO);
        !self.can_run_am(leaf, smallest)
    }

    /// Hadoop 3.3's `FSAppAttempt.isOverAMShareLimit`: a managed app whose AM is not running
    /// has nothing pending or may not start its AM under its leaf's maxAMShare.
    pub(crate) fn over_am_share_limit_33(&self, a: u32) -> bool {
        let i = a as usize;
        match self.w.specs[i].am {
            Some(am) if !self.w.apps[i].am_running => {
                self.w.apps[i].requests.pending == 0 || !self.can_run_am(self.w.apps[i].queue, am)
            }
            _ => false,
        }
    }

    /// `FSAppAttempt.hasContainerForNode`: outstanding containers, the relaxLocality
    /// conditions (`PriorityRequests::locality_allows`), and a size that fits the node.
    pub(crate) fn has_container_for_node(&self, a: u32, idx: usize, node: u32) -> bool {
        let p = &self.w.apps[a as usize].requests.by_priority[idx];
        let nd = &self.w.cluster.nodes[node as usize];
        if p.any == 0 || !p.locality_allows(node, nd.rack) {
            return false;
        }
        let cap = nd.capacity;
        match self.w.semantics {
            // DefaultResourceCalculator: memory only.
            Semantics::Hadoop27 => p.size.memory_mb <= cap.memory_mb,
            Semantics::Hadoop33 => {
                p.size.fits_in(cap) && self.fits_in_max_share(self.w.apps[a as usize].queue, p.size)
            }
        }
    }

    /// `FairScheduler.fitsInMaxShare`: usage + `extra` fits maxResources up to root.
    pub(crate) fn fits_in_max_share(&self, leaf: QueueId, extra: Resource) -> bool {
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &self.w.queues[id.idx()];
            if !qs.usage.saturating_add(extra).fits_in(qs.max_share) {
                return false;
            }
            q = self.w.tree.get(id).parent;
        }
        true
    }

    /// `FSLeafQueue.canRunAppAM`.
    pub(crate) fn can_run_am(&self, leaf: QueueId, am: Resource) -> bool {
        let conf = self.w.tree.get(leaf);
        let share = conf.max_am_share;
        if (share - -1.0).abs() < 0.0001 {
            return true;
        }
        let share = share.min(1.0) as f64;
        let qs = &self.w.queues[leaf.idx()];
        let if_run = qs.am_usage.saturating_add(am);
        match self.w.semantics {
            Semantics::Hadoop27 => {
                let fair = self.fair_share_of(leaf);
                let limit = Resource::new(
                    (fair.memory_mb as f64 * share) as i64,
                    (fair.vcores as f64 * share) as i64,
                );
                match conf.policy {
                    Policy::Drf => if_run.fits_in(limit),
                    Policy::Fair | Policy::Fifo => if_run.memory_mb <= limit.memory_mb,
                }
            }
            Semantics::Hadoop33 => {
                let total = self.w.cluster.total;
                let avail = Resource::new(
                    total.memory_mb - self.w.integrals.used_mb,
                    total.vcores - self.w.integrals.used_vcores,
                );
                let mut fs = self.fair_share_of(leaf);
                if fs.memory_mb == 0 {
                    fs.memory_mb = avail.memory_mb.min(qs.max_share.memory_mb);
                }
                if fs.vcores == 0 {
                    fs.vcores = avail.vcores.min(qs.max_share.vcores);
                }
                let limit = Resource::new(
                    (fs.memory_mb as f64 * share).ceil() as i64,
                    (fs.vcores as f64 * share).ceil() as i64,
                );
                if_run.fits_in(limit)
            }
        }
    }

    /// Count-based `getAllowedLocalityLevel` for priority index `idx` of app `a` (time-based
    /// under continuous scheduling).
    pub(crate) fn allowed_locality(&mut self, a: u32, idx: usize) -> Locality {
        if self.continuous_on() {
            return self.allowed_locality_by_time(a, idx);
        }
        let conf = &self.w.sc.scheduler;
        let tn = conf.locality_threshold_node.min(1.0);
        let tr = conf.locality_threshold_rack.min(1.0);
        if tn < 0.0 || tr < 0.0 {
            return Locality::OffSwitch;
        }
        // Hadoop's getNumClusterNodes: the nodes in the cluster now.
        let n_nodes = f64::from(self.w.cluster.live);
        let p = &mut self.w.apps[a as usize].requests.by_priority[idx];
        let Some(allowed) = p.allowed else {
            p.allowed = Some(Locality::NodeLocal);
            // A level change can make a later offer succeed: it counts as progress for the
            // quiescence watch (see the engine's module docs).
            self.cx.progress += 1;
            return Locality::NodeLocal;
        };
        if allowed == Locality::OffSwitch {
            return allowed;
        }
        let threshold = if allowed == Locality::NodeLocal {
            tn
        } else {
            tr
        };
        if p.opportunities as f64 > n_nodes * threshold {
            p.allowed = Some(if allowed == Locality::NodeLocal {
                Locality::RackLocal
            } else {
                Locality::OffSwitch
            });
            p.opportunities = 0;
            self.cx.progress += 1;
        }
        p.allowed.unwrap_or(Locality::OffSwitch)
    }

    /// `FSAppAttempt.assignContainer(node, reserved)`: `reserved` is the reserved priority.
    pub(crate) fn assign_app(&mut self, a: u32, node: u32, reserved: Option<i32>) -> Outcome {
        let i = a as usize;
        let managed_am = self.w.specs[i].am;
        let leaf = self.w.apps[i].queue;
        if self.w.semantics == Semantics::Hadoop33 && self.over_am_share_limit_33(a) {
            return Outcome::Nothing;
        }
        let rack = self.w.cluster.nodes[node as usize].rack;
        let n_prio = self.w.apps[i].requests.by_priority.len();
        for idx in 0..n_prio {
            let prio = self.w.apps[i].requests.by_priority[idx].priority;
            if reserved.is_some_and(|r| r != prio) {
                continue;
            }
            if !self.has_container_for_node(a, idx, node) {
                continue;
            }
            // `addSchedulingOpportunity`: read only by count-based delay scheduling, so with
            // it off the count stays 0 (the elided engine skips beats that would count).
            if self.opportunities_read() {
                self.w.apps[i].requests.by_priority[idx].opportunities += 1;
            }
            if self.w.semantics == Semantics::Hadoop27
                && let Some(am) = managed_am
                && self.w.apps[i].live == 0
                && !self.can_run_am(leaf, am)
            {
                return Outcome::Nothing;
            }
            let allowed = self.allowed_locality(a, idx);
            if let Some(locality) = self.offer_locality(a, idx, node, rack, allowed) {
                return self.try_assign(a, idx, node, locality, reserved.is_some());
            }
        }
        Outcome::Nothing
    }

    /// The locality at which priority `idx` of app `a`, its offer of `node` (on `rack`)
    /// counted and its allowed level `allowed`, tries the node; `None` when it passes the
    /// node on to the next priority.
    pub(crate) fn offer_locality(
        &self,
        a: u32,
        idx: usize,
        node: u32,
        rack: u32,
        allowed: Locality,
    ) -> Option<Locality> {
        let p = &self.w.apps[a as usize].requests.by_priority[idx];
        let rack_c = p.rack_count(rack).unwrap_or(0);
        let node_c = p.node_count(node).unwrap_or(0);
        if rack_c > 0 && node_c > 0 {
            return Some(Locality::NodeLocal);
        }
        // relaxLocality off: a rack request may not relax to the rack (both eras:
        // 2.7 reads the request's flag, 3.3 `canDelayTo`), nor ANY to anywhere.
        if !p.relax_locality && p.rack_count(rack).is_some() {
            return None;
        }
        if rack_c > 0 && allowed >= Locality::RackLocal {
            return Some(Locality::RackLocal);
        }
        if !p.relax_locality {
            return None;
        }
        if p.any > 0 && (!p.has_local_requests() || allowed == Locality::OffSwitch) {
            return Some(Locality::OffSwitch);
        }
        None
    }

    /// Allocate on `node` if the container fits, else reserve (2.7) or nothing.
    pub(crate) fn try_assign(
        &mut self,
        a: u32,
        idx: usize,
        node: u32,
        locality: Locality,
        reserved: bool,
    ) -> Outcome {
        let i = a as usize;
        let n = node as usize;
        let (size, priority) = {
            let p = &self.w.apps[i].requests.by_priority[idx];
            (p.size, p.priority)
        };
        let leaf = self.w.apps[i].queue;
        let fit = self.container_fit();
        if !fit.fits_in(size, self.w.cluster.nodes[n].available()) {
            self.tried_too_big(size);
            let may_reserve = match self.w.semantics {
                Semantics::Hadoop27 => self.fits_in_max_share(leaf, size),
                Semantics::Hadoop33 => {
                    self.fits_in_max_share(leaf, size)
                        && self.may_reserve_33(a, size, node, locality)
                }
            };
            if !may_reserve {
                return Outcome::Nothing;
            }
            // A node reserved again (by a held node's offer or a resized ask) leaves its
            // previous app's count.
            let rack = self.rack_counted(node);
            if let Some(was) = self.w.cluster.nodes[n].reservation {
                self.count_reservation(was.app, rack, -1);
            }
            self.count_reservation(a, rack, 1);
            self.place_reservation(node, a, priority, size);
            return Outcome::Reserved;
        }
        // FSAppAttempt.allocate: raise the allowed level back on a better locality.
        {
            let p = &mut self.w.apps[i].requests.by_priority[idx];
            if let Some(al) = p.allowed
                && ((al == Locality::OffSwitch && locality < Locality::OffSwitch)
                    || (al == Locality::RackLocal && locality == Locality::NodeLocal))
            {
                p.allowed = Some(locality);
            }
        }
        let rack = self.w.cluster.nodes[n].rack;
        let task = self.w.apps[i].requests.take(idx, node, rack, locality);
        if reserved {
            self.unreserve(node);
        }
        let id = self.w.next_container_id;
        self.w.next_container_id += 1;
        let slot = self.w.new_container(Container::new(
            a,
            node,
            size,
            task.is_am,
            id,
            priority,
            self.cx.now,
            task.duration_ms,
        ));
        let nd = &mut self.w.cluster.nodes[n];
        nd.allocated = nd.allocated.saturating_add(size);
        nd.n_containers += 1;
        let now = self.cx.now;
        let app = &mut self.w.apps[i];
        app.usage = app.usage.saturating_add(size);
        app.sched.usage = app.usage;
        app.live += 1;
        app.containers += 1;
        if app.first_container.is_none() {
            app.first_container = Some(now);
        }
        self.cx.counters.assignments += 1;
        self.cs_user_holds(a, size, true);
        self.hold_served(node, a, size);
        self.demand_changed(a);
        self.pending_changed(a, -1);
        self.add_usage(leaf, size, 1);
        self.reorder_app(a);
        self.cx.progress += 1;
        self.cx.recorder.decision(&Decision {
            time: now,
            node,
            app: a,
            priority,
            size,
            kind: DecisionKind::Allocated(locality),
        });
        if task.is_am {
            let app = &mut self.w.apps[i];
            app.am_running = true;
            app.am_container = Some(slot);
            let q = &mut self.w.queues[leaf.idx()];
            q.am_usage = q.am_usage.saturating_add(size);
            self.refresh_open(leaf);
            self.am_allocated(a);
        } else {
            let launch = self.task_launch(a);
            self.schedule_completion(slot, node, launch.plus(task.duration_ms.max(1)));
        }
        Outcome::Allocated(size)
    }

    /// `node`'s rack where reservations are counted per rack (Hadoop 3.3's rack-local
    /// reservable-nodes cap; 2.7 has none).
    pub(crate) fn rack_counted(&self, node: u32) -> Option<u32> {
        (self.w.semantics == Semantics::Hadoop33).then(|| self.w.cluster.nodes[node as usize].rack)
    }

    /// Reserves `node` for app `a`'s ask of `size` at `priority`, in either scheduler (each
    /// keeps its own books first): the node's reservation, its heartbeat armed, the count,
    /// progress for the quiescence watch, and the decision.
    pub(crate) fn place_reservation(&mut self, node: u32, a: u32, priority: i32, size: Resource) {
        self.w.cluster.nodes[node as usize].reservation = Some(Reservation {
            app: a,
            priority,
            size,
        });
        self.cx.events.clock_mut().arm(node);
        self.cx.counters.reservations += 1;
        self.cx.progress += 1;
        self.cx.recorder.decision(&Decision {
            time: self.cx.now,
            node,
            app: a,
            priority,
            size,
            kind: DecisionKind::Reserved,
        });
    }

    /// Releases the reservation held on `node` (under the Capacity Scheduler its charge
    /// leaves its queues too).
    pub(crate) fn unreserve(&mut self, node: u32) {
        self.wake_node(node);
        let rack = self.rack_counted(node);
        if let Some(r) = self.w.cluster.nodes[node as usize].reservation.take() {
            self.count_reservation(r.app, rack, -1);
            self.cs_release_books(node, r);
            self.cx.counters.unreservations += 1;
            self.cx.progress += 1;
            self.cx.recorder.decision(&Decision {
                time: self.cx.now,
                node,
                app: r.app,
                priority: r.priority,
                size: r.size,
                kind: DecisionKind::Unreserved,
            });
        }
    }
}

/// An entry of an incremental ordered set: the app's or queue's key, name rank and id.
type OrderEntry = (fairsim_core::OrderKey, u32, u32);

/// The first entry of an ordered set after `cursor`, or its first entry.
fn first_after(
    set: &std::collections::BTreeSet<OrderEntry>,
    cursor: Option<OrderEntry>,
) -> Option<OrderEntry> {
    match cursor {
        None => set.first().copied(),
        Some(c) => set
            .range((Bound::Excluded(c), Bound::Unbounded))
            .next()
            .copied(),
    }
}
