//! The Capacity Scheduler's reservations (Hadoop's `CapacityScheduler.allocateContainersToNode`
//! / `allocateFromReservedContainer`, `LeafQueue.assignReservedContainer` in 2.x,
//! `RegularContainerAllocator.assignContainer` and `FiCaSchedulerApp.reserve` / `unreserve`).
//!
//! * A container that does not fit the node it is offered (at a locality its delay allows)
//!   reserves the node when `shouldAllocOrReserveNewContainer` says the app should take a new
//!   container or reservation (`capacity::reservations::should_alloc_or_reserve`) and the app
//!   would not first have to give a reservation back to stay within its queue or user limit.
//!   The reservation is charged to the leaf and its ancestors as used, and to the user.
//! * A reserved node's heartbeat serves its reservation first: released if the app no longer
//!   asks at that priority; allocated if the container fits now (the charge becomes the
//!   allocation's; no queue or user limit is checked again); otherwise kept and counted as a
//!   re-reservation. Hadoop 2.7 then schedules the rest of the node when it is no longer
//!   reserved; Hadoop 3.3 assigns nothing else on that heartbeat.
//! * `reservations-continue-look-all-nodes` on (the default): a container that fits a node
//!   but whose app should not take a new one, or whose queue or user is over its limit only
//!   by the app's reservations, is allocated after releasing one of the app's reservations
//!   at that priority large enough (`findNodeToUnreserve`); without such a reservation the
//!   app is passed over.
//! * Off (both eras alike, read per queue as Hadoop's queues read it): a priority whose
//!   `shouldAllocOrReserveNewContainer` says no is skipped before anything else is checked
//!   for it; the queue, parent and user checks and 3.3's headroom count no reservation as
//!   givable; a container that fits is allocated and one that does not is reserved, no
//!   reservation given back for it.
//! * A finished app's reservations are released at once (`doneApplicationAttempt`), as are a
//!   failed attempt's and a lost node's (the shared `Sched::unreserve`).

use crate::app::Locality;
use crate::capacity::locality::{LocalityAsk, allowed_locality, resets_opportunities};
use crate::capacity::reservations::{ratio, should_alloc_or_reserve};
use crate::cluster::Reservation;
use crate::scheduler::Sched;
use crate::tree::QueueId;
use fairsim_core::{Resource, Semantics};

impl Sched<'_, '_> {
    /// Queue `q`'s used resources as the Capacity Scheduler counts them: its containers and
    /// the reservations charged to it.
    pub(crate) fn cs_used(&self, q: QueueId) -> Resource {
        let usage = self.w.queues[q.idx()].usage;
        match self.capacity.as_deref() {
            Some(cs) => usage.saturating_add(cs.reserved.queue(q)),
            None => usage,
        }
    }

    /// Every queue's used resources as [`Sched::cs_used`] counts them, by queue index.
    pub(crate) fn cs_used_all(&self) -> Vec<Resource> {
        let mut used: Vec<Resource> = self.w.queues.iter().map(|x| x.usage).collect();
        if let Some(cs) = self.capacity.as_deref()
            && !cs.reserved.is_empty()
        {
            for (i, u) in used.iter_mut().enumerate() {
                *u = u.saturating_add(cs.reserved.queue(QueueId(i as u32)));
            }
        }
        used
    }

    /// Whether any app of `leaf` holds a reservation (so that per-app reads can be skipped
    /// when none does).
    pub(crate) fn cs_leaf_holds_reservations(&self, leaf: QueueId) -> bool {
        self.capacity
            .as_deref()
            .is_some_and(|cs| cs.reserved.queue(leaf) != Resource::ZERO)
    }

    /// App `a`'s user holds `delta` more (`grows`) or less in its leaf: a container or a
    /// reservation of the app came or went (`capacity::user_held`).
    #[inline]
    pub(crate) fn cs_user_holds(&mut self, a: u32, delta: Resource, grows: bool) {
        // The Fair Scheduler's allocations and releases pass here too: nothing read for them.
        let Some(cs) = self.capacity.as_deref_mut() else {
            return;
        };
        let app = &self.w.apps[a as usize];
        if grows {
            cs.held.add(app.queue, app.user, delta);
        } else {
            cs.held.sub(app.queue, app.user, delta);
        }
    }

    /// The resources app `a` holds reserved (`getCurrentReservation`).
    pub(crate) fn cs_app_reserved(&self, a: u32) -> Resource {
        self.capacity
            .as_deref()
            .map_or(Resource::ZERO, |cs| cs.reserved.app(a))
    }

    /// `leaf` and its ancestors up to root: the queues a reservation in `leaf` is charged to.
    fn charge_path(&self, leaf: QueueId) -> Vec<QueueId> {
        let mut path = Vec::new();
        let mut q = Some(leaf);
        while let Some(id) = q {
            path.push(id);
            q = self.w.tree.get(id).parent;
        }
        path
    }

    /// `shouldAllocOrReserveNewContainer` for priority index `idx` of app `a`.
    pub(crate) fn cs_should_alloc_or_reserve(&self, a: u32, idx: usize) -> bool {
        let p = &self.w.apps[a as usize].requests.by_priority[idx];
        let Some(at) = self
            .capacity
            .as_deref()
            .and_then(|cs| cs.reserved.at(a, p.priority))
        else {
            // Nothing reserved at the priority: yes while anything is asked.
            return p.any > 0;
        };
        let (nf, maf) = self.cs_factors(p.size);
        should_alloc_or_reserve(p.any, at.nodes.len() as u32, at.re_reservations, nf, maf)
    }

    /// Whether re-reservations of a container of `size` add to its app's starvation
    /// allowance (`1 − min(nodeFactor, minimumAllocationFactor)` is positive): otherwise they
    /// never change `shouldAllocOrReserveNewContainer`.
    fn cs_starvation_grows(&self, size: Resource) -> bool {
        let (nf, maf) = self.cs_factors(size);
        1.0f32 - nf.min(maf) > 0.0
    }

    /// App `a`'s re-reservations at `priority` (books `x`) as far as they are read: `None`
    /// once more of them change nothing, because their starvation allowance already covers
    /// every reservation held there (while that count holds, any new reservation or release
    /// resets them) or because they add nothing to it.
    pub(crate) fn cs_re_reservations_read(
        &self,
        a: u32,
        priority: i32,
        x: &crate::capacity::reservations::PriorityReserved,
    ) -> Option<u32> {
        let k = x.nodes.len() as u32;
        let size = x
            .nodes
            .first()
            .and_then(|&n| self.w.cluster.nodes[n as usize].reservation)
            .filter(|r| r.app == a && r.priority == priority)?
            .size;
        if !self.cs_starvation_grows(size) {
            return None;
        }
        // Saturated once one container asked is a yes: a reservation is kept only while its
        // priority asks at least one, and more asked only adds to the answer.
        let (nf, maf) = self.cs_factors(size);
        (!should_alloc_or_reserve(1, k, x.re_reservations, nf, maf)).then_some(x.re_reservations)
    }

    /// The node factor of an ask of `size` and the minimum allocation factor
    /// (`shouldAllocOrReserveNewContainer`'s two ratios).
    fn cs_factors(&self, size: Resource) -> (f32, f32) {
        let calc = self.w.tree.resource_calculator;
        let conf = &self.w.sc.scheduler;
        let max = Resource::new(conf.maximum_allocation_mb, conf.maximum_allocation_vcores);
        let min = Resource::new(
            conf.minimum_allocation_mb.max(1),
            conf.minimum_allocation_vcores.max(1),
        );
        (
            ratio(calc, size, max),
            ratio(calc, max.saturating_sub(min), max),
        )
    }

    /// Reserves `node` for priority index `idx` of app `a` (a new reservation).
    pub(crate) fn cs_reserve(&mut self, a: u32, idx: usize, node: u32) {
        let (size, priority) = {
            let p = &self.w.apps[a as usize].requests.by_priority[idx];
            (p.size, p.priority)
        };
        let path = self.charge_path(self.w.apps[a as usize].queue);
        if let Some(cs) = self.capacity.as_deref_mut() {
            cs.reserved.reserve(a, priority, node, size, &path);
        }
        self.cs_user_holds(a, size, true);
        self.place_reservation(node, a, priority, size);
    }

    /// The Capacity Scheduler's books of reservation `r`, just taken off `node`: its charge
    /// leaves its queues (called by `Sched::unreserve`).
    pub(crate) fn cs_release_books(&mut self, node: u32, r: Reservation) {
        let Some(leaf) = self
            .capacity
            .as_deref()
            .and_then(|cs| cs.reserved.leaf_of(r.app))
        else {
            return;
        };
        let path = self.charge_path(leaf);
        if let Some(cs) = self.capacity.as_deref_mut() {
            cs.reserved.release(r.app, r.priority, node, r.size, &path);
        }
        self.cs_user_holds(r.app, r.size, false);
        self.rearm(node);
    }

    /// Releases every reservation of app `a` (it finished, or its attempt failed).
    pub(crate) fn cs_release_reservations_of(&mut self, a: u32) {
        let nodes = match self.capacity.as_deref() {
            Some(cs) => cs.reserved.nodes_of(a),
            None => return,
        };
        for n in nodes {
            self.unreserve(n);
        }
    }

    /// `getNodeIdToUnreserve`: the first of app `a`'s nodes reserved at `priority` whose
    /// reserved container is at least `need` (by the calculator's `fitsIn`). Hadoop walks a
    /// hash map of node ids; fairsim takes the lowest node index.
    pub(crate) fn cs_node_to_unreserve(
        &self,
        a: u32,
        priority: i32,
        need: Resource,
    ) -> Option<u32> {
        let cs = self.capacity.as_deref()?;
        let calc = self.w.tree.resource_calculator;
        let at = cs.reserved.at(a, priority)?;
        at.nodes.iter().copied().find(|&n| {
            self.w.cluster.nodes[n as usize]
                .reservation
                .is_some_and(|r| calc.fits_in(need, r.size))
        })
    }

    /// A reserved node's heartbeat serves its reservation (see the module text). Returns
    /// whether the heartbeat may go on to schedule the node (Hadoop 2.7, once the node is
    /// no longer reserved).
    pub(crate) fn cs_serve_reservation(&mut self, node: u32) -> bool {
        let n = node as usize;
        let Some(r) = self.w.cluster.nodes[n].reservation else {
            return true;
        };
        let era = self.w.sc.scheduler.semantics;
        let a = r.app;
        let idx = self.w.apps[a as usize]
            .requests
            .by_priority
            .iter()
            .position(|p| p.priority == r.priority && p.any > 0 && p.size == r.size);
        let Some(idx) = idx else {
            // The app no longer asks at that priority: the reservation is excess.
            self.unreserve(node);
            return era == Semantics::Hadoop27;
        };
        let rack = self.w.cluster.nodes[n].rack;
        let ask = {
            let p = &self.w.apps[a as usize].requests.by_priority[idx];
            LocalityAsk {
                on_node: p.node_count(node).unwrap_or(0),
                on_rack: p.rack_count(rack).unwrap_or(0),
                any: p.any,
                location_requests: (p.nodes.len() + p.racks.len()) as u32,
                strict: !p.relax_locality,
            }
        };
        // 3.x counts a scheduling opportunity for the reserved container too
        // (`tryAllocateOnNode`); 2.7's `assignReservedContainer` does not.
        if era == Semantics::Hadoop33 {
            let p = &mut self.w.apps[a as usize].requests.by_priority[idx];
            p.opportunities = p.opportunities.saturating_add(1);
        }
        let missed = u64::from(self.w.apps[a as usize].requests.by_priority[idx].opportunities);
        let delay = self.w.sc.scheduler.node_locality_delay;
        let live = self.w.cluster.live;
        // The locality the container is assigned at: node-local where the app asks for the
        // node, rack-local past the rack delay, else off-switch (allowed at once for a
        // reserved container). An ask kept to its hosts is served on them only.
        let loc = match allowed_locality(era, ask, missed, live, delay) {
            Some(l @ (Locality::NodeLocal | Locality::RackLocal)) => l,
            _ if ask.strict => return false,
            _ => Locality::OffSwitch,
        };
        let calc = self.w.tree.resource_calculator;
        let nd = &self.w.cluster.nodes[n];
        if calc.fits_in(r.size, nd.available())
            && !calc.greater_than(self.w.cluster.total, r.size, nd.capacity)
        {
            if era == Semantics::Hadoop33 && resets_opportunities(loc) {
                self.w.apps[a as usize].requests.by_priority[idx].opportunities = 0;
            }
            // `try_assign` releases the reservation (its charge) and allocates.
            self.try_assign(a, idx, node, loc, true);
            return era == Semantics::Hadoop27;
        }
        // Re-reserved: counted while the count can still change whether the app takes a
        // new container or reservation elsewhere.
        if !self.cs_should_alloc_or_reserve(a, idx) && self.cs_starvation_grows(r.size) {
            self.cx.progress += 1;
        }
        if let Some(cs) = self.capacity.as_deref_mut() {
            cs.reserved.re_reserve(a, r.priority);
        }
        false
    }

    /// The Capacity Scheduler's reservation books agree with the nodes' reservations: each
    /// queue is charged the reservations of the apps under it, each app its own.
    pub(crate) fn cs_reservations_agree(&self) -> Result<(), String> {
        let Some(cs) = self.capacity.as_deref() else {
            return Ok(());
        };
        let mut queue = vec![Resource::ZERO; self.w.queues.len()];
        let mut app = std::collections::BTreeMap::<u32, Resource>::new();
        for n in &self.w.cluster.nodes {
            let Some(r) = n.reservation else { continue };
            let e = app.entry(r.app).or_default();
            *e = e.saturating_add(r.size);
            let mut q = Some(self.w.apps[r.app as usize].queue);
            while let Some(id) = q {
                queue[id.idx()] = queue[id.idx()].saturating_add(r.size);
                q = self.w.tree.get(id).parent;
            }
        }
        for (i, &want) in queue.iter().enumerate() {
            let got = cs.reserved.queue(QueueId(i as u32));
            if got != want {
                return Err(format!(
                    "queue {i} is charged {got:?} reserved, not {want:?}"
                ));
            }
        }
        let books: std::collections::BTreeMap<u32, Resource> =
            cs.reserved.iter().map(|(&a, r)| (a, r.total)).collect();
        if books != app {
            return Err(format!("apps' reservations {books:?}, nodes' {app:?}"));
        }
        Ok(())
    }
}
