//! The Capacity Scheduler on a node heartbeat (Hadoop 2.x `CapacityScheduler`,
//! `ParentQueue.assignContainers`, `LeafQueue.assignContainers`), on the same simulation
//! state as the Fair Scheduler; selected when the allocation file is a
//! capacity-scheduler.xml.
//!
//! * The node is offered down the tree, least used capacity first, depth first
//!   (`capacity::ordering::children_by_use`). Each queue is held to the limit its parent
//!   hands it and to its own maximum (`capacity::limits`, per era): a parent the offer would
//!   take over its limit is passed over; in 2.7 an ask that would take its leaf over ends the
//!   leaf's turn; in 3.3 a leaf at its limit is passed over, an ask above its headroom ends
//!   the leaf's turn and the headroom is taken off the limits of its later siblings.
//! * In a leaf, its activated apps (`capacity_activation`: an app whose AM would take the
//!   leaf's or its user's AMs over their AM limit is kept pending, offered nothing) in FIFO
//!   order (submission) or by the fair ordering policy; an app whose user is above the user
//!   limit is skipped (users with asks are active whether their apps are activated or not).
//!   The limit the leaf is held to is recorded for the AM limit of its next activation.
//! * In an app, its priorities with requests, most urgent first: a scheduling opportunity is
//!   counted, the allowed locality comes from `capacity::locality` (node-locality-delay). A
//!   priority whose ask its relaxLocality keeps off the node is skipped, its opportunity not
//!   counted, and the next priority tried (2.7's skipped assignment, 3.3's
//!   `PRIORITY_SKIPPED`); any other outcome ends the app's turn (Hadoop does not assign out
//!   of priority order otherwise: a locality delay not run out, an ask larger than the node,
//!   the user limit in 2.7, a container that neither fits nor may reserve).
//! * The root keeps assigning on the node until nothing fits, an off-switch container was
//!   assigned (one off-switch assignment per heartbeat) or the node was reserved.
//! * Reservations (`capacity_reserve`): an ask that does not fit the node it is offered, at a
//!   locality its delay allows, reserves the node; reservations count as used in the queue,
//!   its ancestors and the user; a reserved node serves its reservation first and takes
//!   nothing else while reserved (Hadoop 3.3: nothing else on that heartbeat at all).
//!   `reservations-continue-look-all-nodes` (on by default) decides whether an app's
//!   reservations may be given back to make room under a limit or for a node with room.
//! * Every resource comparison uses the configured calculator (`resource-calculator`): the
//!   default one fits containers on memory alone, so vcores may be overcommitted.
//!
//! Not modelled: node labels, 3.x priority- and partition-aware queue ordering. Queue states
//! and `maximum-applications` act at submission (`capacity_placement`), `max-parallel-apps`
//! through the runnable-apps limits the Fair Scheduler's `maxRunningApps` also uses.

use crate::app::Locality;
use crate::capacity::Capacities;
use crate::capacity::limits::{child_limit, fits_headroom, queue_open, round_down, subtract};
use crate::capacity::locality::{
    LocalityAsk, allowed_locality, opportunities_to_open, resets_opportunities,
};
use crate::capacity::ordering::{AppOrder, children_by_use, sort_fair, sort_fifo};
use crate::capacity::user_limit::{UserLimitInput, user_limit, user_may_allocate};
use crate::scheduler::Sched;
use crate::tree::{OrderingPolicy, QueueId};
use fairsim_core::{Calculator, Resource, Semantics};

/// The Capacity Scheduler's own state, beside the state both schedulers share: every
/// queue's absolute capacities, each short queue name's first queue in the tree's order
/// (placement looks leaves up by short name), and its scheduling monitors' state.
#[derive(Debug, Clone)]
pub(crate) struct CapacityState {
    /// Shared so that an offer holds them while it changes the rest (a clone is a count).
    pub caps: std::sync::Arc<crate::capacity::Capacities>,
    pub short_names: std::collections::BTreeMap<String, crate::tree::QueueId>,
    /// Hadoop 3.3's auto-created leaf queues (`capacity_auto`).
    pub auto: crate::scheduler::capacity_auto::AutoQueues,
    /// The proportional preemption monitor, when it runs (`capacity_preempt`).
    pub monitor: Option<crate::scheduler::capacity_preempt::ProportionalPreemption>,
    /// What the nodes' reservations charge to queues and apps (`capacity_reserve`).
    pub reserved: crate::capacity::reservations::Reservations,
    /// Which apps of each leaf are activated, and what their AMs are charged
    /// (`capacity_activation`).
    pub activation: crate::scheduler::capacity_activation::Activation,
    /// What each user holds in each leaf, containers and reservations (`capacity::user_held`).
    pub held: crate::capacity::user_held::UserHeld,
    /// The lists a leaf's offer fills, kept for the next offer (an offer allocates nothing).
    pub scratch: OfferScratch,
}

/// What a leaf's offer lists, emptied at each offer (`Sched::cs_assign_leaf`).
#[derive(Debug, Clone, Default)]
pub(crate) struct OfferScratch {
    /// The apps offered the node, in the leaf's ordering policy.
    apps: Vec<u32>,
    /// The leaf's active users, sorted.
    users: Vec<u32>,
    /// The apps as the ordering policy sees them.
    views: Vec<AppOrder>,
    /// Each (user, ask size)'s holding and user limit, computed once per offer.
    user_caps: Vec<((u32, Resource), (Resource, Resource))>,
    /// The priorities with asks of the app the offer has reached.
    asked: Vec<usize>,
}

/// The Capacity Scheduler of a run: what both schedulers keep, and its own state (with its
/// preemption monitor).
pub(crate) struct CapacityScheduler {
    /// What both schedulers keep (`scheduler::books::Books`).
    pub books: crate::scheduler::books::Books,
    /// The Capacity Scheduler's own state.
    pub state: CapacityState,
}

impl CapacityScheduler {
    /// The Capacity Scheduler `sc` configures on a cluster of `cluster` resources.
    pub(crate) fn new(sc: &crate::scenario::Scenario, cluster: Resource) -> CapacityScheduler {
        let tree = &sc.tree;
        let started = sc.scheduler.monitors();
        let queue_management = started
            .queue_management
            .then_some(sc.scheduler.queue_management_interval_ms);
        CapacityScheduler {
            books: Default::default(),
            state: CapacityState {
                caps: std::sync::Arc::new(Capacities::at(tree, cluster)),
                short_names: crate::scheduler::capacity_placement::short_names(tree),
                auto: crate::scheduler::capacity_auto::AutoQueues::of(tree, queue_management),
                monitor: started.preemption.then(Default::default),
                reserved: Default::default(),
                activation: Default::default(),
                held: Default::default(),
                scratch: Default::default(),
            },
        }
    }
}

impl Sched<'_, '_> {
    /// At the start: metrics read a queue's min share as "what it is owed", its guarantee.
    pub(crate) fn cs_start_guarantees(&mut self) {
        let Some(cs) = self.capacity.as_deref() else {
            return;
        };
        for (i, q) in self.w.queues.iter_mut().enumerate() {
            q.min_share = cs.caps.guaranteed(QueueId(i as u32), self.w.cluster.total);
        }
    }
}

/// What offering a node to a queue came to.
enum Offer {
    /// A container was assigned, at this locality.
    Assigned(Locality),
    /// The node was reserved: the heartbeat assigns nothing more.
    Reserved,
    /// Hadoop 3.3: skipped for the queue limit (`SkippedType.QUEUE_LIMIT`), leaving this
    /// headroom unused (a leaf's headroom, or what a parent's children left blocked).
    QueueLimit(Resource),
    /// Nothing assigned for any other reason.
    Nothing,
}

impl Sched<'_, '_> {
    fn minimum_allocation(&self) -> Resource {
        Resource::new(
            self.w.sc.scheduler.minimum_allocation_mb.max(1),
            self.w.sc.scheduler.minimum_allocation_vcores.max(1),
        )
    }

    /// How a container is fitted to a node's free resources: the Fair Scheduler fits every
    /// resource (`Resources.fitsIn`); the Capacity Scheduler by its calculator
    /// (`computeAvailableContainers`), memory alone by default, so vcores may overcommit.
    pub(crate) fn container_fit(&self) -> Calculator {
        match self.capacity {
            Some(_) => self.w.tree.resource_calculator,
            None => Calculator::Dominant,
        }
    }

    /// One heartbeat of `node` under the Capacity Scheduler.
    pub(crate) fn cs_attempt_scheduling(&mut self, node: u32) {
        let n = node as usize;
        // A reserved node serves its reservation first; it takes nothing else while
        // reserved, nor in Hadoop 3.3 on this heartbeat at all (`capacity_reserve`).
        if self.w.cluster.nodes[n].reservation.is_some() && !self.cs_serve_reservation(node) {
            return;
        }
        let min_alloc = self.minimum_allocation();
        let calc = self.w.tree.resource_calculator;
        // `allocateContainersToNode` starts when the minimum allocation fits the node
        // (`computeAvailableContainers`); the root keeps assigning while the node's
        // available resource is at least the minimum by the calculator's order
        // (`ParentQueue.canAssign`; the same test for the memory-only calculator).
        if !calc.fits_in(min_alloc, self.w.cluster.nodes[n].available()) {
            return;
        }
        loop {
            let available = self.w.cluster.nodes[n].available();
            if calc.less_than(self.w.cluster.total, available, min_alloc) {
                return;
            }
            let Some(caps) = self
                .capacity
                .as_ref()
                .map(|cs| std::sync::Arc::clone(&cs.caps))
            else {
                return;
            };
            // The root is handed the cluster (`new ResourceLimits(clusterResource)`).
            let cluster = self.w.cluster.total;
            match self.cs_offer(QueueId::ROOT, cluster, node, &caps) {
                Offer::Assigned(Locality::OffSwitch)
                | Offer::Reserved
                | Offer::QueueLimit(_)
                | Offer::Nothing => {
                    return;
                }
                Offer::Assigned(_) => {}
            }
        }
    }

    /// Offers `node` to queue `q`, held to `limit` by its parent (`ParentQueue.assignContainers`
    /// and `assignContainersToChildQueues`; `LeafQueue.assignContainers` for a leaf).
    fn cs_offer(&mut self, q: QueueId, limit: Resource, node: u32, caps: &Capacities) -> Offer {
        if self.w.queues[q.idx()].pending == 0 {
            return Offer::Nothing;
        }
        let era = self.w.sc.scheduler.semantics;
        let calc = self.w.tree.resource_calculator;
        let cluster = self.w.cluster.total;
        let min_alloc = self.minimum_allocation();
        let own_max = caps.own_max(era, calc, q, cluster, min_alloc);
        let current = calc.min(cluster, own_max, limit);
        if self.w.tree.get(q).is_leaf {
            return self.cs_assign_leaf(q, node, current);
        }
        // Reservations count as used; a parent holding some may still be offered the node
        // when it would be within its limit without them (`canAssignToThisQueue` with the
        // queue's reserved resources as what could be unreserved), if its reservations may
        // be given back (reservations-continue-look-all-nodes).
        let used = self.cs_used(q);
        let reserved = subtract(used, self.w.queues[q.idx()].usage);
        let open = queue_open(era, calc, cluster, used, min_alloc, current)
            || (self.w.tree.get(q).cs.continue_looking
                && calc.greater_than(cluster, reserved, Resource::ZERO)
                && match era {
                    Semantics::Hadoop27 => calc.less_than(
                        cluster,
                        subtract(used.saturating_add(min_alloc), reserved),
                        current,
                    ),
                    Semantics::Hadoop33 => {
                        calc.less_than(cluster, subtract(used, reserved), current)
                    }
                });
        if !open {
            return Offer::Nothing;
        }
        let usage = self.cs_used_all();
        let kids = children_by_use(&self.w.tree, caps, cluster, &usage, q);
        let mut blocked = Resource::ZERO;
        let mut skipped_for_limit = false;
        for c in kids {
            let c_max = caps.own_max(era, calc, c, cluster, min_alloc);
            let c_limit = child_limit(
                calc,
                cluster,
                subtract(limit, blocked),
                used,
                usage[c.idx()],
                c_max,
                min_alloc,
            );
            match self.cs_offer(c, c_limit, node, caps) {
                Offer::Assigned(loc) => return Offer::Assigned(loc),
                Offer::Reserved => return Offer::Reserved,
                // Only Hadoop 3.3's leaves report a queue-limit skip.
                Offer::QueueLimit(headroom) => {
                    skipped_for_limit = true;
                    blocked = blocked.saturating_add(calc.max(cluster, headroom, Resource::ZERO));
                }
                Offer::Nothing => {}
            }
        }
        if skipped_for_limit {
            Offer::QueueLimit(blocked)
        } else {
            Offer::Nothing
        }
    }

    /// What the user of app `a` holds in `leaf` (reservations included), and its user limit
    /// for an ask of `size` (`LeafQueue.canAssignToUser` compares them), the leaf's active
    /// users (sorted) holding `active_usage` in it.
    pub(crate) fn cs_user_cap(
        &self,
        leaf: QueueId,
        a: u32,
        size: Resource,
        active_users: &[u32],
        active_usage: Resource,
    ) -> (Resource, Resource) {
        let cluster = self.w.cluster.total;
        let calc = self.w.tree.resource_calculator;
        let era = self.w.sc.scheduler.semantics;
        let conf = self.w.tree.get(leaf);
        let Some(caps) = self.capacity.as_ref().map(|cs| &cs.caps) else {
            return (Resource::ZERO, cluster);
        };
        // Reservations count in the queue's and the user's used resources.
        let queue_usage = self.cs_used(leaf);
        let user = self.w.apps[a as usize].user;
        let user_usage = self.cs_user_held(leaf, user);
        // Hadoop 2.7 computes the limit with the ask being placed; from 2.8 on
        // (`UsersManager.computeUserLimit` in 3.x) with the minimum allocation, so the
        // limit grows one container at a time whatever the ask.
        let required = match self.w.sc.scheduler.semantics {
            Semantics::Hadoop27 => size,
            Semantics::Hadoop33 => self.minimum_allocation(),
        };
        // Hadoop 3.x divides what the active users hold (`totalResUsageForActiveUsers`)
        // among them, Hadoop 2.x the current capacity.
        let active_users_usage = match self.w.sc.scheduler.semantics {
            Semantics::Hadoop27 => None,
            Semantics::Hadoop33 => Some(active_usage),
        };
        let user_cap = user_limit(&UserLimitInput {
            semantics: era,
            calc,
            cluster,
            absolute_capacity: caps.absolute[leaf.idx()],
            required,
            queue_usage,
            active_users: active_users.len() as u32,
            active_users_usage,
            minimum_user_limit_percent: conf.minimum_user_limit_percent.unwrap_or(100.0),
            user_limit_factor: conf.user_limit_factor.unwrap_or(1.0),
            minimum_allocation: self.minimum_allocation(),
            effective_capacity: Some(caps.guaranteed(leaf, cluster)),
            effective_maximum: Some(caps.maximum(leaf, cluster)),
        });
        (user_usage, user_cap)
    }

    /// Offers `node` to the apps of `leaf`, whose current limit is `limit` (the smaller of its
    /// own maximum and what its parent hands it).
    fn cs_assign_leaf(&mut self, leaf: QueueId, node: u32, limit: Resource) -> Offer {
        let Some(cs) = self.capacity.as_deref_mut() else {
            return Offer::Nothing;
        };
        let mut scratch = std::mem::take(&mut cs.scratch);
        let offer = self.cs_offer_to_apps(leaf, node, limit, &mut scratch);
        if let Some(cs) = self.capacity.as_deref_mut() {
            cs.scratch = scratch;
        }
        offer
    }

    /// `apps` (the leaf's activated apps with asks, given in any order) in `leaf`'s ordering
    /// policy (fifo, or fair with its size-based weight).
    pub(crate) fn cs_sort_apps(
        &self,
        leaf: QueueId,
        apps: &mut Vec<u32>,
        views: &mut Vec<AppOrder>,
    ) {
        let conf = self.w.tree.get(leaf);
        views.clear();
        views.extend(apps.iter().map(|&a| {
            let app = &self.w.apps[a as usize];
            AppOrder {
                id: u64::from(a),
                used_mb: app.usage.memory_mb,
                demand_mb: app.demand.memory_mb,
            }
        }));
        match conf.ordering_policy.unwrap_or_default() {
            OrderingPolicy::Fifo => sort_fifo(views),
            OrderingPolicy::Fair => sort_fair(views, conf.cs.size_based_weight),
        }
        apps.clear();
        apps.extend(views.iter().map(|v| v.id as u32));
    }

    /// [`Sched::cs_assign_leaf`] with its lists.
    fn cs_offer_to_apps(
        &mut self,
        leaf: QueueId,
        node: u32,
        limit: Resource,
        scratch: &mut OfferScratch,
    ) -> Offer {
        let cluster = self.w.cluster.total;
        let calc = self.w.tree.resource_calculator;
        let era = self.w.sc.scheduler.semantics;
        let OfferScratch {
            apps,
            users: active_users,
            views,
            user_caps,
            asked,
        } = scratch;
        // Reservations count as used (`LeafQueue.allocateResource` charges them).
        let queue_usage = self.cs_used(leaf);
        let headroom = subtract(limit, queue_usage);
        // The leaf's runnable apps with asks: its two ordered sets hold exactly those
        // (`reorder_app`), in an order the sorts below do not depend on.
        let q = &self.w.queues[leaf.idx()];
        apps.clear();
        apps.extend((q.ordered.iter().chain(&q.am_waiting)).map(|&(_, _, a)| a));
        #[cfg(debug_assertions)]
        self.cs_check_offer_books(leaf, apps);
        // Users with asks are active whether their apps are activated or not (Hadoop's
        // active users follow the apps' asks); only activated apps are offered the node.
        active_users.clear();
        active_users.extend(apps.iter().map(|&a| self.w.apps[a as usize].user));
        active_users.sort_unstable();
        active_users.dedup();
        apps.retain(|&a| self.cs_is_active(a));
        self.cs_sort_apps(leaf, apps, views);
        // Everything the active users hold in the leaf (their apps without pending asks too),
        // reservations included.
        let any_reserved = self.cs_leaf_holds_reservations(leaf);
        let active_usage = self.cs_active_users_hold(leaf, active_users);
        // The limit the leaf is held to, as the AM limit reads it at the next activation
        // (`computeUserLimitAndSetHeadroom` records it for each app it reaches).
        let held_to = round_down(calc, limit, self.minimum_allocation());
        let n = node as usize;
        let rack = self.w.cluster.nodes[n].rack;
        // Hadoop's getNumClusterNodes: the nodes in the cluster now.
        let n_nodes = self.w.cluster.live;
        // Hadoop 3.3 checks the leaf before its apps (`canAssignToThisQueue`), again for each
        // later app only while the apps checked hold reservations.
        let mut check_queue_33 = era == Semantics::Hadoop33;
        // reservations-continue-look-all-nodes: whether an app's reservations may be given
        // back to make room under a limit or for a node with room. Off, the checks below
        // count none of them as givable, and an app whose
        // `shouldAllocOrReserveNewContainer` says no skips the priority before anything
        // else is checked for it (2.7's `assignContainers`, 3.3's
        // `preCheckForNodeCandidateSet`).
        let continue_looking = self.w.tree.get(leaf).cs.continue_looking;
        user_caps.clear();
        'apps: for &a in apps.iter() {
            let i = a as usize;
            // The app's priorities with asks, most urgent first: the next is tried only when
            // the offer skips one (see `allowed_locality` below).
            asked.clear();
            asked.extend(
                (self.w.apps[i].requests.by_priority.iter().enumerate())
                    .filter(|(_, p)| p.any > 0)
                    .map(|(k, _)| k),
            );
            // 3.3's `ResourceLimits.amountNeededUnreserve` as the app's checks left it.
            let mut app_unreserve = Resource::ZERO;
            for (nth, &idx) in asked.iter().enumerate() {
                let first = nth == 0;
                // 2.7 skips the priority before its queue and user checks (and before the
                // limit is recorded), without counting an opportunity.
                if era == Semantics::Hadoop27
                    && !continue_looking
                    && !self.cs_should_alloc_or_reserve(a, idx)
                {
                    continue;
                }
                // 2.7 records the limit before the queue check, 3.3 after it.
                if era == Semantics::Hadoop27 {
                    self.cs_note_current_limit(leaf, held_to);
                }
                let (size, ask) = {
                    let p = &self.w.apps[i].requests.by_priority[idx];
                    let ask = LocalityAsk {
                        on_node: p.node_count(node).unwrap_or(0),
                        on_rack: p.rack_count(rack).unwrap_or(0),
                        any: p.any,
                        location_requests: (p.nodes.len() + p.racks.len()) as u32,
                        strict: !p.relax_locality,
                    };
                    (p.size, ask)
                };
                // What the app could give back: nothing when reservations are never given
                // back.
                let app_reserved = if any_reserved && continue_looking {
                    self.cs_app_reserved(a)
                } else {
                    Resource::ZERO
                };
                // What must be unreserved before an allocation to keep the queue or the user
                // within its limit (`ResourceLimits.amountNeededUnreserve`, reset for each app):
                // set by a check the app passes only thanks to its reservations.
                let mut needed_unreserve = match era {
                    Semantics::Hadoop27 => Resource::ZERO,
                    Semantics::Hadoop33 => app_unreserve,
                };
                let holds_reserved = calc.greater_than(cluster, app_reserved, Resource::ZERO);
                match era {
                    // Hadoop 2.7: an ask that would take the leaf over its limit ends the leaf's
                    // turn (`return NULL_ASSIGNMENT`), whatever the apps after it ask, unless
                    // the app's reservations could be given back to make room.
                    Semantics::Hadoop27 => {
                        let total = queue_usage.saturating_add(size);
                        if holds_reserved
                            && calc.less_than(cluster, subtract(total, app_reserved), limit)
                        {
                            needed_unreserve = subtract(total, limit);
                        } else if !queue_open(era, calc, cluster, queue_usage, size, limit) {
                            return Offer::Nothing;
                        }
                    }
                    Semantics::Hadoop33 if check_queue_33 && first => {
                        let open =
                            queue_open(era, calc, cluster, queue_usage, Resource::ZERO, limit)
                                || (holds_reserved
                                    && calc.less_than(
                                        cluster,
                                        subtract(queue_usage, app_reserved),
                                        limit,
                                    ));
                        if !open {
                            return Offer::Nothing;
                        }
                        check_queue_33 = holds_reserved;
                    }
                    Semantics::Hadoop33 => {}
                }
                if era == Semantics::Hadoop33 && first {
                    self.cs_note_current_limit(leaf, held_to);
                }
                // 2.7 checks the user at every priority with its ask; 3.3 once per app, before
                // its priorities, with the minimum allocation.
                // Every input of the user limit but the user and the size is the leaf's, and
                // nothing it reads changes before the offer ends: computed once per pair.
                let user = self.w.apps[i].user;
                let (user_usage, user_cap) =
                    match user_caps.iter().find(|(k, _)| *k == (user, size)) {
                        Some(&(_, got)) => got,
                        None => {
                            let got = self.cs_user_cap(leaf, a, size, active_users, active_usage);
                            user_caps.push(((user, size), got));
                            got
                        }
                    };
                if (era == Semantics::Hadoop27 || first)
                    && !user_may_allocate(calc, cluster, user_usage, user_cap)
                {
                    // Over the user limit only by the app's reservations: it may allocate after
                    // giving one back (`canAssignToUser` with reservations-continue-looking).
                    if calc.greater_than(cluster, subtract(user_usage, app_reserved), user_cap) {
                        continue 'apps;
                    }
                    // 2.7 keeps the larger of this and the queue's amount; 3.3's `canAssignToUser`
                    // sets its own (the queue's excess is read from the headroom below).
                    let over = subtract(user_usage, user_cap);
                    needed_unreserve = match era {
                        Semantics::Hadoop27 => calc.max(cluster, needed_unreserve, over),
                        Semantics::Hadoop33 => over,
                    };
                }
                if first {
                    app_unreserve = needed_unreserve;
                }
                // 3.3 skips the priority after the app's queue and user checks, before its
                // headroom check, without counting an opportunity.
                if era == Semantics::Hadoop33
                    && !continue_looking
                    && !self.cs_should_alloc_or_reserve(a, idx)
                {
                    continue;
                }
                // Hadoop 3.3's `checkHeadroom`: an ask above the leaf's headroom plus what the app
                // could unreserve ends the leaf's turn as skipped for its queue limit.
                if era == Semantics::Hadoop33
                    && !fits_headroom(calc, cluster, headroom.saturating_add(app_reserved), size)
                {
                    return Offer::QueueLimit(headroom);
                }
                let semantics = self.w.sc.scheduler.semantics;
                let delay = self.w.sc.scheduler.node_locality_delay;
                let missed = {
                    let p = &mut self.w.apps[i].requests.by_priority[idx];
                    p.opportunities = p.opportunities.saturating_add(1);
                    u64::from(p.opportunities)
                };
                // A missed opportunity below the count that opens every level this ask may take
                // can make a later offer succeed: progress for the quiescence watch (see the
                // engine's module docs). Past it, offers change nothing that is read.
                let to_open = opportunities_to_open(
                    semantics,
                    ask.any,
                    ask.location_requests,
                    ask.strict,
                    n_nodes,
                    delay,
                );
                if missed <= to_open {
                    self.cx.progress += 1;
                }
                let Some(loc) = allowed_locality(semantics, ask, missed, n_nodes, delay) else {
                    // An ask its relaxLocality keeps off this node skips the priority: the offer
                    // is not counted and the app's next priority is tried (2.7's `getSkipped`,
                    // 3.3's `PRIORITY_SKIPPED`); a locality delay not run out ends the app's turn.
                    if ask.strict {
                        let p = &mut self.w.apps[i].requests.by_priority[idx];
                        p.opportunities = p.opportunities.saturating_sub(1);
                        continue;
                    }
                    continue 'apps;
                };
                let nd = &self.w.cluster.nodes[n];
                // An ask larger than the node's total is passed over (`assignContainer`).
                if calc.greater_than(cluster, size, nd.capacity) {
                    continue 'apps;
                }
                // 3.3 adds what the ask exceeds the headroom by to what must be unreserved.
                let need = match era {
                    Semantics::Hadoop27 => needed_unreserve,
                    Semantics::Hadoop33 => {
                        calc.max(cluster, subtract(size, headroom), needed_unreserve)
                    }
                };
                // Only read when reservations may be given back: with them kept, the checks
                // above already held the ask within every limit.
                let need_to_unreserve =
                    continue_looking && calc.greater_than(cluster, need, Resource::ZERO);
                let should = self.cs_should_alloc_or_reserve(a, idx);
                // `computeAvailableContainers(available, ask) > 0`: memory alone for the
                // default calculator, so vcores may be overcommitted.
                if !calc.fits_in(size, nd.available()) {
                    // Reserve the node, unless the app should wait for the reservations it holds
                    // or would have to give one back first.
                    if !should || need_to_unreserve {
                        continue 'apps;
                    }
                    self.cs_reserve(a, idx, node);
                    return Offer::Reserved;
                }
                // Allocated at once when reservations are never given back (`should` holds:
                // a priority where it does not was skipped above).
                if continue_looking && (!should || need_to_unreserve) {
                    // Allocate here only by giving back a reservation of the app at this
                    // priority: one the size of the ask, or of what must be unreserved.
                    let amount = if need_to_unreserve { need } else { size };
                    let priority = self.w.apps[i].requests.by_priority[idx].priority;
                    let Some(other) = self.cs_node_to_unreserve(a, priority, amount) else {
                        continue 'apps;
                    };
                    self.unreserve(other);
                }
                if resets_opportunities(loc) {
                    self.w.apps[i].requests.by_priority[idx].opportunities = 0;
                }
                self.try_assign(a, idx, node, loc, false);
                return Offer::Assigned(loc);
            }
        }
        Offer::Nothing
    }
}

impl Sched<'_, '_> {
    /// What `user` holds in `leaf` (containers and reservations), as the books keep it.
    fn cs_user_held(&self, leaf: QueueId, user: u32) -> Resource {
        (self.capacity.as_deref()).map_or(Resource::ZERO, |cs| cs.held.of(leaf, user))
    }

    /// What the active users (sorted) of `leaf` hold in it, containers and reservations.
    fn cs_active_users_hold(&self, leaf: QueueId, active_users: &[u32]) -> Resource {
        let Some(cs) = self.capacity.as_deref() else {
            return Resource::ZERO;
        };
        (cs.held.users(leaf).iter())
            .filter(|(u, _)| active_users.binary_search(u).is_ok())
            .fold(Resource::ZERO, |s, &(_, r)| s.saturating_add(r))
    }

    /// Debug builds: the books an offer reads instead of walking the leaf's apps agree with
    /// the walk: the apps with asks, and what each user holds.
    #[cfg(debug_assertions)]
    fn cs_check_offer_books(&self, leaf: QueueId, asking: &[u32]) {
        let runnable = &self.w.queues[leaf.idx()].runnable_apps;
        let mut walked: Vec<u32> = (runnable.iter().copied())
            .filter(|&a| self.w.apps[a as usize].requests.pending > 0)
            .collect();
        walked.sort_unstable();
        let mut kept = asking.to_vec();
        kept.sort_unstable();
        assert_eq!(kept, walked, "leaf {leaf:?}: apps with asks");
        let mut walked = crate::capacity::user_held::UserHeld::default();
        for &x in runnable {
            let app = &self.w.apps[x as usize];
            walked.add(
                leaf,
                app.user,
                app.usage.saturating_add(self.cs_app_reserved(x)),
            );
        }
        let mut by_user = walked.users(leaf).to_vec();
        by_user.retain(|&(_, r)| r != Resource::ZERO);
        let kept = self
            .capacity
            .as_deref()
            .map(|cs| cs.held.users(leaf).to_vec());
        assert_eq!(kept, Some(by_user), "leaf {leaf:?}: what each user holds");
    }
}
