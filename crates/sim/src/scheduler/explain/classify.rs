//! The cause a runnable app waits for, read off the state the scheduler decides on, in the
//! order its own decision path checks it.
//!
//! Fair Scheduler (both eras): the descent's precheck (a queue on the path over its
//! maxResources), the AM gate (maxAMShare; `isOverAMShareLimit` in 3.3, the check after the
//! offer is counted in 2.7), 3.3's `fitsInMaxShare` with the ask added, then the nodes:
//! none with room (preemption, or the order, says who gets freed room), only reserved ones,
//! none where delay scheduling allows the ask yet; else the next offer.
//! Capacity Scheduler: the AM limit (`activateApplications` runs before any offer), the
//! queue limits up the tree (maximum-capacity), the user limit, then the nodes as above.

use super::Pass;
use crate::app::{Locality, PriorityRequests};
use crate::capacity::limits::{fits_headroom, queue_open, subtract};
use crate::capacity::ordering::children_by_use;
use crate::explain::Cause;
use crate::preemption::starvation::{LeafLoad27, multiply_trunc};
use crate::scheduler::{Preemption, Sched};
use crate::tree::QueueId;
use fairsim_core::{Resource, Semantics};

/// What a preemption timeout says of a starved queue or app at `now`.
fn timeout_cause(timeout_ms: Option<u64>, last_not_starved: u64, now: u64) -> Cause {
    match timeout_ms {
        None => Cause::PreemptionOff,
        Some(t) if now.saturating_sub(last_not_starved) > t => Cause::PreemptionUnderWay,
        Some(_) => Cause::PreemptionTimeout,
    }
}

/// An ask relaxLocality keeps to the nodes or racks it names.
fn strict(ask: &PriorityRequests) -> bool {
    !ask.relax_locality && ask.has_local_requests()
}

/// The strongest of two preemption verdicts: acting beats waiting beats never.
fn stronger(a: Cause, b: Cause) -> Cause {
    let rank = |c: Cause| match c {
        Cause::PreemptionUnderWay => 3,
        Cause::PreemptionTimeout => 2,
        Cause::PreemptionOff => 1,
        _ => 0,
    };
    if rank(b) > rank(a) { b } else { a }
}

impl Sched<'_, '_> {
    /// The first priority of app `a` with containers asked (what the next offer serves).
    pub(crate) fn first_ask(&self, a: u32) -> Option<&PriorityRequests> {
        self.asks(a).next()
    }

    /// The priorities of app `a` with containers asked, most urgent first.
    fn asks(&self, a: u32) -> impl Iterator<Item = &PriorityRequests> {
        self.w.apps[a as usize]
            .requests
            .by_priority
            .iter()
            .filter(|p| p.any > 0)
    }

    /// App `a`'s cause read over its asking priorities in order: `cause` says what one
    /// priority waits for and whether the node it waits for passes it over to the next.
    /// The first priority served at the next offer makes the app's cause `next_offer`;
    /// otherwise the first priority's cause stands.
    fn priorities_cause(
        &self,
        a: u32,
        pass: &mut Pass,
        cause: impl Fn(&Self, &PriorityRequests, &mut Pass) -> (Cause, bool),
    ) -> Cause {
        let mut first = None;
        for ask in self.asks(a) {
            let (c, passed_over) = cause(self, ask, pass);
            if c == Cause::NextOffer {
                return c;
            }
            first.get_or_insert(c);
            if !passed_over {
                break;
            }
        }
        first.unwrap_or(Cause::NextOffer)
    }

    /// A runnable app's cause under the Fair Scheduler.
    ///
    /// Hadoop offers a node to an app's priorities in order (`FSAppAttempt.assignContainer`)
    /// and passes a priority over, to the next, when the node cannot take its ask
    /// (`hasContainerForNode`: relaxLocality keeps it to other nodes; in 3.3 also its queues'
    /// maxResources) or delay scheduling does not let it take the node yet; any other outcome
    /// ends the app's turn. So an app whose first asking priority is passed over waits for
    /// what its next one waits for when that one is served at the next offer, and otherwise
    /// for what its first one waits for.
    pub(super) fn fair_wait_cause(&self, a: u32, pass: &mut Pass) -> Cause {
        let leaf = self.w.apps[a as usize].queue;
        if self.first_ask(a).is_none() {
            return Cause::NextOffer;
        }
        // The descent's precheck: every queue on the path within its maxResources.
        if self.path_over_max(leaf) {
            return Cause::QueueMax;
        }
        self.priorities_cause(a, pass, |s, ask, pass| s.fair_priority_cause(a, ask, pass))
    }

    /// What priority `ask` of app `a` waits for under the Fair Scheduler, and whether the
    /// nodes it waits for pass it over to the app's next priority.
    fn fair_priority_cause(
        &self,
        a: u32,
        ask: &PriorityRequests,
        pass: &mut Pass,
    ) -> (Cause, bool) {
        let i = a as usize;
        let leaf = self.w.apps[i].queue;
        if ask.is_am
            && self.waits_for_am(a)
            && let Some(am) = self.w.specs[i].am
            && !self.can_run_am(leaf, am)
        {
            return (Cause::AmLimit, false);
        }
        if self.w.semantics == Semantics::Hadoop33 && !self.fits_in_max_share(leaf, ask.size) {
            return (Cause::QueueMax, true);
        }
        let cause = self.node_cause(a, ask, pass);
        (cause, strict(ask) || cause == Cause::LocalityDelay)
    }

    /// Whether a queue from `leaf` up to the root holds more than its maxResources.
    fn path_over_max(&self, leaf: QueueId) -> bool {
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &self.w.queues[id.idx()];
            if !qs.usage.fits_in(qs.max_share) {
                return true;
            }
            q = self.w.tree.get(id).parent;
        }
        false
    }

    /// What the nodes say of app `a`'s ask, once its queues and limits let it through.
    fn node_cause(&self, a: u32, ask: &PriorityRequests, pass: &mut Pass) -> Cause {
        let strict = strict(ask);
        let room = self.room_for(pass, ask.size);
        // A strict ask may take only its own nodes: room elsewhere is no room for it.
        let usable = |n: &&u32| !strict || ask.node_count(**n).unwrap_or(0) > 0;
        if !room.nodes.iter().any(|n| usable(&n)) {
            return self.full_cluster_cause(a, pass);
        }
        let room = self.room_for(pass, ask.size);
        let free = |n: &&u32| {
            self.w.cluster.nodes[**n as usize]
                .reservation
                .is_none_or(|r| r.app == a)
        };
        // Most asks relax and find a node holding no reservation: no list is made for them.
        let simple = !strict && room.unreserved && !ask.has_local_requests();
        if simple {
            return Cause::NextOffer;
        }
        let unreserved: Vec<u32> = room
            .nodes
            .iter()
            .filter(usable)
            .filter(free)
            .copied()
            .collect();
        if unreserved.is_empty() {
            return Cause::NodeReserved;
        }
        if self.locality_holds(a, ask, &unreserved) {
            return Cause::LocalityDelay;
        }
        Cause::NextOffer
    }

    /// Whether delay scheduling keeps app `a`'s ask off every node in `with_room`: it asks
    /// for nodes or racks, may not yet relax to anywhere, and no node with room is one it
    /// may take at its allowed level.
    fn locality_holds(&self, a: u32, ask: &PriorityRequests, with_room: &[u32]) -> bool {
        if !ask.has_local_requests() {
            return false;
        }
        let allowed = if self.capacity.is_some() {
            self.cs_allowed_level(a, ask)
        } else {
            let conf = &self.w.sc.scheduler;
            if conf.locality_threshold_node < 0.0 || conf.locality_threshold_rack < 0.0 {
                Locality::OffSwitch
            } else {
                ask.allowed.unwrap_or(Locality::NodeLocal)
            }
        };
        if allowed == Locality::OffSwitch && ask.relax_locality {
            return false;
        }
        !with_room.iter().any(|&n| {
            let rack = self.w.cluster.nodes[n as usize].rack;
            ask.node_count(n).unwrap_or(0) > 0
                || (allowed >= Locality::RackLocal
                    && ask.relax_locality
                    && ask.rack_count(rack).unwrap_or(0) > 0)
        })
    }

    /// The Capacity Scheduler's allowed level for an ask that has missed `opportunities`
    /// offers: off-switch once they pass what opens every level (node-locality-delay).
    fn cs_allowed_level(&self, _a: u32, ask: &PriorityRequests) -> Locality {
        let to_open = crate::capacity::locality::opportunities_to_open(
            self.w.sc.scheduler.semantics,
            ask.any,
            (ask.nodes.len() + ask.racks.len()) as u32,
            !ask.relax_locality,
            self.w.cluster.live,
            self.w.sc.scheduler.node_locality_delay,
        );
        if u64::from(ask.opportunities) >= to_open {
            Locality::OffSwitch
        } else {
            Locality::NodeLocal
        }
    }

    /// No node has room for app `a`'s ask: preemption says why it gets none back, or the
    /// order says whether freed room comes to it first.
    fn full_cluster_cause(&self, a: u32, pass: &mut Pass) -> Cause {
        if self.others_over_share(a, pass)
            && let Some(c) = self.preemption_cause(a)
        {
            return c;
        }
        if self.heads_the_order(a, pass) {
            Cause::NoRoom
        } else {
            Cause::BehindInOrder
        }
    }

    /// Whether a leaf other than app `a`'s holds more than its fair share (Capacity: its
    /// guaranteed capacity): only then could preemption give `a` anything.
    fn others_over_share(&self, a: u32, pass: &mut Pass) -> bool {
        let leaf = self.w.apps[a as usize].queue.0;
        let over = pass.over_share.get_or_insert_with(|| {
            let cluster = self.w.cluster.total;
            (0..self.w.queues.len())
                .filter(|&i| self.w.tree.queues[i].is_leaf)
                .filter(|&i| {
                    let q = QueueId(i as u32);
                    let usage = self.w.queues[i].usage;
                    match self.capacity.as_ref() {
                        Some(cs) => self.w.tree.resource_calculator.greater_than(
                            cluster,
                            usage,
                            cs.caps.guaranteed(q, cluster),
                        ),
                        None => usage.memory_mb > self.fair_share_of(q).memory_mb,
                    }
                })
                .map(|i| i as u32)
                .collect()
        });
        over.iter().any(|&q| q != leaf)
    }

    /// With the cluster full: when app `a`'s queue is below its fair share (Capacity: its
    /// guaranteed capacity) or its min share, why preemption does or does not act for it.
    /// `None` when its queue has its share: only the order decides then.
    pub(crate) fn preemption_cause(&self, a: u32) -> Option<Cause> {
        let i = a as usize;
        let leaf = self.w.apps[i].queue;
        let qs = &self.w.queues[leaf.idx()];
        let now = self.cx.now.0;
        if let Some(cs) = self.capacity.as_ref() {
            let calc = self.w.tree.resource_calculator;
            let cluster = self.w.cluster.total;
            let guaranteed = cs.caps.guaranteed(leaf, cluster);
            if !calc.less_than(cluster, qs.usage, guaranteed) {
                return None;
            }
            return Some(match cs.monitor {
                None => Cause::PreemptionOff,
                Some(_) => Cause::PreemptionUnderWay,
            });
        }
        let fair = self.fair_share_of(leaf);
        let below_min = qs.usage.memory_mb < qs.min_share.memory_mb.min(qs.demand.memory_mb);
        let below_fair = qs.usage.memory_mb < fair.memory_mb.min(qs.demand.memory_mb);
        if !below_min && !below_fair {
            return None;
        }
        let conf = self.w.tree.get(leaf);
        match self.preemption() {
            Preemption::Off | Preemption::Capacity(_) => Some(Cause::PreemptionOff),
            Preemption::Fs27(fs) => {
                let load = LeafLoad27 {
                    usage: qs.usage,
                    demand: qs.demand,
                    min_share: qs.min_share,
                    fair_share: fair,
                    threshold: conf.fair_share_preemption_threshold,
                    min_share_timeout_ms: conf.min_share_preemption_timeout_ms,
                    fair_share_timeout_ms: conf.fair_share_preemption_timeout_ms,
                };
                let clocks = fs.clocks.get(leaf.idx()).copied()?;
                let mut verdict = None;
                if load.starved_for_min_share() {
                    verdict = Some(timeout_cause(
                        load.min_share_timeout_ms,
                        clocks.last_time_at_min_share,
                        now,
                    ));
                }
                if load.starved_for_fair_share() {
                    let c = timeout_cause(
                        load.fair_share_timeout_ms,
                        clocks.last_time_at_fair_share_threshold,
                        now,
                    );
                    verdict = Some(verdict.map_or(c, |v| stronger(v, c)));
                }
                match verdict {
                    Some(v) => Some(v),
                    // Below its fair share, not below threshold × fair share: never starved.
                    None if below_fair => Some(Cause::AbovePreemptionThreshold),
                    None => Some(Cause::PreemptionOff),
                }
            }
            Preemption::Fs33 { fs, .. } => {
                let app = &self.w.apps[i];
                let st = fs.apps.get(i)?;
                // Hadoop 3.x judges fair-share starvation per app: usage below threshold ×
                // the app's fair share (capped at its demand), after the timeout.
                let app_fair = self.w.app_fair_shares[i];
                let threshold =
                    multiply_trunc(app_fair, conf.fair_share_preemption_threshold as f64);
                let desired = threshold.memory_mb.min(app.demand.memory_mb);
                if app.usage.memory_mb < desired {
                    return Some(timeout_cause(
                        conf.fair_share_preemption_timeout_ms,
                        st.last_time_at_fair_share,
                        now,
                    ));
                }
                if below_min {
                    let last = fs
                        .leaves
                        .get(leaf.idx())
                        .map_or(now, |l| l.last_time_at_min_share);
                    return Some(timeout_cause(
                        conf.min_share_preemption_timeout_ms,
                        last,
                        now,
                    ));
                }
                if app.usage.memory_mb < app_fair.memory_mb.min(app.demand.memory_mb) {
                    return Some(Cause::AbovePreemptionThreshold);
                }
                None
            }
        }
    }

    /// The Fair Scheduler's head of queue `q`: the child with an outstanding request within
    /// its maxResources, or the runnable app with one, that its policy orders first.
    pub(super) fn fair_head_of(&self, q: QueueId) -> Option<u32> {
        let qs = &self.w.queues[q.idx()];
        let cmp = qs.comparator;
        if self.w.tree.get(q).is_leaf {
            let apps = &self.w.apps;
            qs.runnable_apps
                .iter()
                .copied()
                .filter(|&x| apps[x as usize].requests.pending > 0)
                .reduce(|best, x| {
                    if cmp
                        .compare(&apps[x as usize].sched, &apps[best as usize].sched)
                        .is_lt()
                    {
                        x
                    } else {
                        best
                    }
                })
        } else {
            let queues = &self.w.queues;
            self.w
                .tree
                .get(q)
                .children
                .iter()
                .map(|c| c.0)
                .filter(|&c| {
                    let cs = &queues[c as usize];
                    cs.pending > 0 && cs.usage.fits_in(cs.max_share)
                })
                .reduce(|best, x| {
                    if cmp
                        .compare(&queues[x as usize].sched, &queues[best as usize].sched)
                        .is_lt()
                    {
                        x
                    } else {
                        best
                    }
                })
        }
    }

    /// The Capacity Scheduler's head of queue `q`: the least used child that asks, or the
    /// first app that asks in the leaf's ordering policy.
    pub(super) fn cs_head_of(&self, q: QueueId) -> Option<u32> {
        let cs = self.capacity.as_ref()?;
        let cluster = self.w.cluster.total;
        if self.w.tree.get(q).is_leaf {
            // Only activated apps are offered nodes.
            let mut apps: Vec<u32> = self
                .cs_asking_apps(q)
                .into_iter()
                .filter(|&a| self.cs_is_active(a))
                .collect();
            self.cs_sort_apps(q, &mut apps, &mut Vec::new());
            return apps.first().copied();
        }
        let usage = self.cs_used_all();
        children_by_use(&self.w.tree, &cs.caps, cluster, &usage, q)
            .into_iter()
            .find(|c| self.w.queues[c.idx()].pending > 0)
            .map(|c| c.0)
    }

    /// The runnable apps of Capacity leaf `leaf` with an outstanding request, activated or
    /// not (their users are the leaf's active users).
    fn cs_asking_apps(&self, leaf: QueueId) -> Vec<u32> {
        self.w.queues[leaf.idx()]
            .runnable_apps
            .iter()
            .copied()
            .filter(|&a| self.w.apps[a as usize].requests.pending > 0)
            .collect()
    }

    /// Whether Capacity queue `q`, at its usage, is open to an ask of `size` under its own
    /// maximum (maximum-capacity), as an offer checks it (a leaf with the ask in 2.7, a
    /// parent with the minimum allocation; 3.3 the usage alone, then the leaf's headroom).
    pub(crate) fn cs_queue_open(&self, q: QueueId, size: Resource) -> bool {
        let Some(own_max) = self.cs_own_max(q) else {
            return true;
        };
        let era = self.w.sc.scheduler.semantics;
        let calc = self.w.tree.resource_calculator;
        let cluster = self.w.cluster.total;
        let min_alloc = self.cs_min_alloc();
        // Reservations count as used (the queue's own reservations are not offered back
        // here: the app asking may hold none).
        let used = self.cs_used(q);
        let leaf = self.w.tree.get(q).is_leaf;
        let required = match (era, leaf) {
            (Semantics::Hadoop27, true) => size,
            (Semantics::Hadoop27, false) => min_alloc,
            (Semantics::Hadoop33, _) => Resource::ZERO,
        };
        if !queue_open(era, calc, cluster, used, required, own_max) {
            return false;
        }
        !(era == Semantics::Hadoop33
            && leaf
            && !fits_headroom(calc, cluster, subtract(own_max, used), size))
    }

    /// Whether Capacity queue `q`'s own maximum is the whole cluster.
    fn cs_max_is_cluster(&self, q: QueueId) -> bool {
        let cluster = self.w.cluster.total;
        self.cs_own_max(q).is_some_and(|m| {
            !self
                .w
                .tree
                .resource_calculator
                .less_than(cluster, m, cluster)
        })
    }

    /// The minimum allocation as the Capacity Scheduler's queue checks read it.
    fn cs_min_alloc(&self) -> Resource {
        Resource::new(
            self.w.sc.scheduler.minimum_allocation_mb.max(1),
            self.w.sc.scheduler.minimum_allocation_vcores.max(1),
        )
    }

    /// Capacity queue `q`'s own maximum (maximum-capacity) on the cluster as it is; `None`
    /// under the Fair Scheduler.
    fn cs_own_max(&self, q: QueueId) -> Option<Resource> {
        let cs = self.capacity.as_ref()?;
        Some(cs.caps.own_max(
            self.w.sc.scheduler.semantics,
            self.w.tree.resource_calculator,
            q,
            self.w.cluster.total,
            self.cs_min_alloc(),
        ))
    }

    /// A runnable app's cause under the Capacity Scheduler.
    pub(super) fn cs_wait_cause(&self, a: u32, pass: &mut Pass) -> Cause {
        // An app its leaf has not activated is offered nothing: the queue's or its user's
        // AM limit holds it (`activateApplications` runs before any offer).
        if !self.cs_is_active(a) {
            return Cause::AmLimit;
        }
        if self.first_ask(a).is_none() {
            return Cause::NextOffer;
        }
        // Priorities in order (`RegularContainerAllocator`): one whose ask relaxLocality keeps
        // off the node offered is passed over to the next (2.7's skipped assignment, 3.3's
        // `PRIORITY_SKIPPED`); any other outcome ends the app's turn.
        self.priorities_cause(a, pass, |s, ask, pass| {
            let cause = s.cs_priority_cause(a, ask, pass);
            let passed_over = strict(ask) && !matches!(cause, Cause::QueueMax | Cause::UserLimit);
            (cause, passed_over)
        })
    }

    /// What priority `ask` of app `a` waits for under the Capacity Scheduler.
    fn cs_priority_cause(&self, a: u32, ask: &PriorityRequests, pass: &mut Pass) -> Cause {
        // A queue whose maximum is the whole cluster is closed only when the cluster is
        // full: that is the nodes' story (no room, or behind others), not the queue's.
        let mut q = Some(self.w.apps[a as usize].queue);
        while let Some(id) = q {
            if !self.cs_queue_open(id, ask.size) && !self.cs_max_is_cluster(id) {
                return Cause::QueueMax;
            }
            q = self.w.tree.get(id).parent;
        }
        if !self.cs_user_within_limit(a, ask.size) {
            return Cause::UserLimit;
        }
        self.node_cause(a, ask, pass)
    }

    /// Whether app `a`'s user is within its user limit in its leaf for an ask of `size`,
    /// the leaf's active users being those of its apps that ask.
    pub(crate) fn cs_user_within_limit(&self, a: u32, size: Resource) -> bool {
        let (usage, cap) = self.cs_user_usage_and_limit(a, size);
        crate::capacity::user_limit::user_may_allocate(
            self.w.tree.resource_calculator,
            self.w.cluster.total,
            usage,
            cap,
        )
    }

    /// What app `a`'s user holds in its leaf, and its user limit for an ask of `size`.
    pub(crate) fn cs_user_usage_and_limit(&self, a: u32, size: Resource) -> (Resource, Resource) {
        let leaf = self.w.apps[a as usize].queue;
        let asking = self.cs_asking_apps(leaf);
        let mut users: Vec<u32> = asking
            .iter()
            .map(|&x| self.w.apps[x as usize].user)
            .collect();
        users.sort_unstable();
        users.dedup();
        let active_usage = self.w.queues[leaf.idx()]
            .runnable_apps
            .iter()
            .filter(|&&x| users.binary_search(&self.w.apps[x as usize].user).is_ok())
            .fold(Resource::ZERO, |s, &x| {
                s.saturating_add(self.w.apps[x as usize].usage)
                    .saturating_add(self.cs_app_reserved(x))
            });
        self.cs_user_cap(leaf, a, size, &users, active_usage)
    }
}
