//! Parking of reserved nodes whose heartbeats change nothing (both eras of the Fair
//! Scheduler).
//!
//! A node reserved for a container that does not fit its free space does nothing on its
//! heartbeat while the reservation stays valid (`FSAppAttempt.assignReservedContainer`
//! fails early when the reserved container will not fit; `attemptScheduling` then assigns
//! nothing else on a reserved node): it reads the reservation, the node's free space and
//! capacity, the reserving app's request at the reserved priority
//! (`Sched::has_container_for_node`, which in Hadoop 3.3 also reads the app's queues
//! against maxResources) and its queues' usage against maxResources, and writes nothing, not
//! even a missed-opportunity count. Hadoop 3.3 first hands out what preemption holds on the
//! node (`assignPreemptedContainers`): a node is parked only while nothing is held on it, and
//! a hold added wakes it (`Sched::preempt_for_app_33`). Hadoop 3.3's check
//! (`isValidReservation`) also reads maxAMShare for an app whose AM is not running, which
//! moves with its leaf's fair share, so such a reservation is not parked. So after such a
//! heartbeat the node is parked (`HeartbeatClock::park`): its beats are skipped while that
//! predicate (`Sched::idle_reserved`) holds. Every change of an input it reads
//! re-evaluates it:
//! - a container on the node is released (completion, preemption, loss with its failed
//!   attempt): its free space grows (`Sched::recheck_node`);
//! - the reserving app's requests change (`Sched::demand_changed`): an allocation
//!   elsewhere, a new stage, a task asked for again, its AM lost or running
//!   (`Sched::recheck_reserved_by`);
//! - the reservation is released (`Sched::unreserve`), a 3.3 hold is added, the
//!   reserving app finishes (its requests are dropped), a node event (capacity, nodes
//!   joining or leaving): these wake the node outright.
//!
//! A re-check is made at the end of the event that made the change
//! (`Sched::settle_parked`), on the state the event leaves: a trigger fires in the
//! middle of a change (a release before the queues' usage is settled, a failed attempt
//! before its asks are replaced), and nothing else happens before the node's next beat,
//! which comes after the event: a later event at the same time is another event, whose
//! changes are re-checked at its own end. A node whose predicate still holds stays parked
//! (its unelided beat would read the same no-op: e.g. a 2.7 app that reserved many nodes
//! and got a container elsewhere, still asking for more at the reserved priority); one
//! whose predicate fails is woken.
//!
//! An app's requests change at every container it gets or gives back: re-checking each of
//! its parked nodes every time would cost changes × nodes, where waking them cost each node
//! once (a woken node is not parked again before its next beat). So the app's asks are read
//! first (`Sched::asks_keep_parked`): while, at each priority it holds parked
//! reservations at, containers are still asked for, may relax and keep the reserved size,
//! no node's verdict can move and the re-check costs one look at those asks; when at each
//! of those priorities nothing is asked any more or the size moved (mostly an app served
//! elsewhere: `Sched::asks_wake_all`), every node's check would fail before reading the
//! node, and each is woken unread; otherwise its nodes are re-checked one by one. A node
//! whose ask's size differs from its reserved size is not parked.
//!
//! Allocation on the node needs its own heartbeat, so its free space cannot shrink while it
//! is parked. maxResources is not watched: a node is parked only when every queue from the
//! app's leaf to root could hold every node's capacity over again plus the reserved size
//! (usage, made of containers on nodes, never exceeds the nodes' capacity), so the check
//! cannot fail until a node event, which wakes every parked node. Waking only marks the node
//! unparked: its next beat is the first after the current event, exactly the first
//! heartbeat whose outcome an unelided run could see differ from a no-op. Under continuous
//! scheduling (which assigns on nodes outside heartbeats), with heartbeats = "every" and for
//! the Capacity Scheduler nothing is parked.

use crate::cluster::NodeState;
use crate::scheduler::Sched;
use fairsim_core::{Resource, Semantics};

/// The parked nodes, and the inputs of their heartbeats touched during the current event.
///
/// A reservation is parked and woken about once per reserving heartbeat: each app's list is
/// found by index and each node's place in it is kept, so that both are a few vector writes.
#[derive(Debug, Default)]
pub(crate) struct ParkedNodes {
    /// Parked nodes, over every app.
    n_nodes: usize,
    /// Per app: 1 + the index of its entry in `lists`, or 0 while it has no parked node.
    list_of: Vec<u32>,
    /// Per reserving app with parked nodes: those nodes, and its reservations on them
    /// (entries of apps whose last node woke are empty, listed in `free_lists`).
    lists: Vec<AppParked>,
    free_lists: Vec<u32>,
    /// The nodes of an app being woken whole (kept for its allocation).
    waking: Vec<u32>,
    /// Per node parked: its index in its app's `nodes`.
    slot: Vec<u32>,
    /// Apps whose requests changed during the current event.
    apps_touched: Vec<u32>,
    /// Parked nodes released on during the current event.
    nodes_touched: Vec<u32>,
}

/// The nodes parked for one app, in no particular order, and the priorities and sizes of
/// their reservations.
#[derive(Debug, Default)]
struct AppParked {
    nodes: Vec<u32>,
    at: Vec<ParkedAt>,
}

/// Reservations of one app at one priority and size, on `nodes` parked nodes.
#[derive(Debug, Clone, Copy)]
struct ParkedAt {
    priority: i32,
    size: Resource,
    nodes: u32,
}

impl ParkedNodes {
    /// Adds `node`, not parked, reserved for `app` at `priority` for `size`.
    fn insert(&mut self, app: u32, node: u32, priority: i32, size: Resource) {
        let n = node as usize;
        if self.slot.len() <= n {
            self.slot.resize(n + 1, 0);
        }
        let a = app as usize;
        if self.list_of.len() <= a {
            self.list_of.resize(a + 1, 0);
        }
        if self.list_of[a] == 0 {
            let entry = self.free_lists.pop().unwrap_or_else(|| {
                self.lists.push(AppParked::default());
                (self.lists.len() - 1) as u32
            });
            self.list_of[a] = entry + 1;
        }
        let parked = &mut self.lists[self.list_of[a] as usize - 1];
        self.slot[n] = parked.nodes.len() as u32;
        parked.nodes.push(node);
        self.n_nodes += 1;
        match parked
            .at
            .iter_mut()
            .find(|k| k.priority == priority && k.size == size)
        {
            Some(k) => k.nodes += 1,
            None => parked.at.push(ParkedAt {
                priority,
                size,
                nodes: 1,
            }),
        }
    }

    /// Removes `node`, parked, reserved for `app` at `priority` for `size`.
    fn remove(&mut self, app: u32, node: u32, priority: i32, size: Resource) {
        let entry = self.list_of.get(app as usize).map_or(0, |&e| e as usize);
        let Some(parked) = entry.checked_sub(1).and_then(|e| self.lists.get_mut(e)) else {
            debug_assert!(false, "node {node} parked for app {app}, which has none");
            return;
        };
        let i = self.slot[node as usize] as usize;
        debug_assert_eq!(parked.nodes.get(i), Some(&node));
        parked.nodes.swap_remove(i);
        if let Some(&moved) = parked.nodes.get(i) {
            self.slot[moved as usize] = i as u32;
        }
        self.n_nodes -= 1;
        if let Some(k) = parked
            .at
            .iter()
            .position(|k| k.priority == priority && k.size == size)
        {
            parked.at[k].nodes -= 1;
            if parked.at[k].nodes == 0 {
                parked.at.swap_remove(k);
            }
        }
        if parked.nodes.is_empty() {
            debug_assert!(parked.at.is_empty());
            self.list_of[app as usize] = 0;
            self.free_lists.push(entry as u32 - 1);
        }
    }

    /// Removes every node parked for `app` at once, into `out` (cleared first), in no
    /// particular order: what [`ParkedNodes::remove`] of each would leave, without finding
    /// each node's place in the app's list and counts.
    fn take_app(&mut self, app: u32, out: &mut Vec<u32>) {
        out.clear();
        let entry = self.list_of.get(app as usize).map_or(0, |&e| e as usize);
        let Some(parked) = entry.checked_sub(1).and_then(|e| self.lists.get_mut(e)) else {
            return;
        };
        out.extend_from_slice(&parked.nodes);
        parked.nodes.clear();
        parked.at.clear();
        self.n_nodes -= out.len();
        self.list_of[app as usize] = 0;
        self.free_lists.push(entry as u32 - 1);
    }

    /// App `app`'s parked nodes and reservations, if it has any.
    fn of(&self, app: u32) -> Option<&AppParked> {
        let entry = *self.list_of.get(app as usize)?;
        entry.checked_sub(1).map(|e| &self.lists[e as usize])
    }

    /// The nodes parked for `app`, in no particular order.
    fn of_app(&self, app: u32) -> &[u32] {
        self.of(app).map_or(&[], |p| &p.nodes)
    }
}

impl Sched<'_, '_> {
    /// After `node`'s heartbeat: parks it when it is a reserved node whose heartbeats
    /// change nothing until an input is touched (see the module docs).
    pub(crate) fn park_if_idle(&mut self, node: u32) {
        // A beat that repeated the last reserving descent parks as the beats before it did
        // (`scheduler::fair::repeat_reserve`).
        let idle = match self.repeated_park(node) {
            Some(parks) => {
                debug_assert_eq!(parks, self.idle_reserved(node).is_some(), "node {node}");
                parks
            }
            None => {
                let parks = self.idle_reserved(node).is_some();
                self.note_park(node, parks);
                parks
            }
        };
        if idle && let Some(r) = self.w.cluster.nodes[node as usize].reservation {
            // Parked once: its beats are skipped until it is woken.
            if !self.cx.events.clock().is_node_parked(node) {
                self.cx.events.clock_mut().park(node);
                if let Some(f) = &mut self.fair {
                    f.parked.insert(r.app, node, r.priority, r.size);
                }
            }
        }
    }

    /// The app `node` is reserved for, when the node's next heartbeat would change nothing
    /// (nor any later one until an input of it changes: see the module docs).
    fn idle_reserved(&self, node: u32) -> Option<u32> {
        if !self.cx.elide || self.capacity.is_some() || self.continuous_on() {
            return None;
        }
        let n = node as usize;
        let nd = &self.w.cluster.nodes[n];
        if nd.state != NodeState::Running || !self.held_for(n).is_empty() {
            return None;
        }
        let res = nd.reservation?;
        if res.size.fits_in(nd.available()) {
            return None;
        }
        let a = res.app;
        // 3.3 also drops the reservation of an app whose AM maxAMShare refuses, which reads
        // its leaf's fair share and AM usage: such a reservation is not parked.
        if self.w.semantics == Semantics::Hadoop33 && self.waits_for_am(a) {
            return None;
        }
        let idx = self.w.apps[a as usize]
            .requests
            .by_priority
            .iter()
            .position(|p| p.priority == res.priority)?;
        // An ask whose size moved away from the reserved one (a later stage at the same
        // priority) is not parked, so that `asks_keep_parked` may compare sizes.
        if self.w.apps[a as usize].requests.by_priority[idx].size != res.size
            || !self.has_container_for_node(a, idx, node)
        {
            return None;
        }
        let n_nodes = self.w.cluster.nodes.len() as i64;
        let most = Resource::new(
            self.w.largest_node.memory_mb.saturating_mul(n_nodes),
            self.w.largest_node.vcores.saturating_mul(n_nodes),
        )
        .saturating_add(res.size);
        let mut q = Some(self.w.apps[a as usize].queue);
        while let Some(id) = q {
            if !most.fits_in(self.w.queues[id.idx()].max_share) {
                return None;
            }
            q = self.w.tree.get(id).parent;
        }
        Some(a)
    }

    /// Whether app `a`'s asks still keep every node parked for it parked, whatever the node:
    /// at each priority it holds parked reservations at, containers are still asked for,
    /// may relax (so every node passes the locality conditions) and keep the reserved size
    /// (so the size against each node's capacity, and in 3.3 against maxResources, reads as
    /// when the node was parked); in 3.3 its AM still runs. The rest of
    /// [`Sched::idle_reserved`] reads the node, the reservation and maxResources,
    /// which the app's requests do not move.
    fn asks_keep_parked(&self, a: u32, at: &[ParkedAt]) -> bool {
        if self.w.semantics == Semantics::Hadoop33 && self.waits_for_am(a) {
            return false;
        }
        let asks = &self.w.apps[a as usize].requests.by_priority;
        at.iter().all(|k| {
            asks.iter().any(|p| {
                p.priority == k.priority && p.size == k.size && p.any > 0 && p.relax_locality
            })
        })
    }

    /// Whether app `a`'s asks wake every node parked for it, whatever the node: at each
    /// priority it holds parked reservations at, nothing is asked any more or the ask's size
    /// moved from the reserved one (`Sched::idle_reserved` then fails before it reads the
    /// node), or in 3.3 its AM no longer runs.
    fn asks_wake_all(&self, a: u32, at: &[ParkedAt]) -> bool {
        if self.w.semantics == Semantics::Hadoop33 && self.waits_for_am(a) {
            return true;
        }
        let asks = &self.w.apps[a as usize].requests.by_priority;
        at.iter().all(|k| {
            asks.iter()
                .find(|p| p.priority == k.priority)
                .is_none_or(|p| p.size != k.size || p.any == 0)
        })
    }

    /// A container on `node` was released: if the node is parked, whether its heartbeat
    /// now acts is decided at the end of the event ([`Sched::settle_parked`]).
    pub(crate) fn recheck_node(&mut self, node: u32) {
        if let Some(f) = &mut self.fair
            && f.parked.n_nodes > 0
            && self.cx.events.clock().is_node_parked(node)
        {
            f.parked.nodes_touched.push(node);
        }
    }

    /// App `a`'s requests changed: whether the heartbeats of the nodes parked for it now
    /// act is decided at the end of the event ([`Sched::settle_parked`]).
    pub(crate) fn recheck_reserved_by(&mut self, a: u32) {
        if let Some(f) = &mut self.fair
            && f.parked.of(a).is_some()
        {
            f.parked.apps_touched.push(a);
        }
    }

    /// The end of an event: each parked node one of whose inputs the event changed is woken
    /// unless its heartbeat still changes nothing, read on the state the event leaves (every
    /// later change is another event's, re-checked at its end, before the node's next beat).
    /// An app whose asks keep its nodes parked ([`Sched::asks_keep_parked`]) costs
    /// a look at those asks; the others' nodes are checked one by one.
    #[inline]
    pub(crate) fn settle_parked(&mut self) {
        // Most events touch no parked node: that test is inlined into the event loop.
        let Some(f) = &self.fair else {
            return;
        };
        if f.parked.apps_touched.is_empty() && f.parked.nodes_touched.is_empty() {
            return;
        }
        self.settle_touched();
    }

    /// [`Sched::settle_parked`] once an event touched a parked node or its app.
    fn settle_touched(&mut self) {
        let Some(f) = &mut self.fair else {
            return;
        };
        let mut apps = std::mem::take(&mut f.parked.apps_touched);
        let mut nodes = std::mem::take(&mut f.parked.nodes_touched);
        apps.sort_unstable();
        apps.dedup();
        for &a in &apps {
            let Some(parked) = self.fair.as_ref().and_then(|f| f.parked.of(a)) else {
                continue;
            };
            if self.asks_keep_parked(a, &parked.at) {
                self.cx.counters.kept_parked += parked.nodes.len() as u64;
            } else if self.asks_wake_all(a, &parked.at) {
                // Mostly an app served elsewhere: every node it reserved wakes, each
                // unparked without reading it, and the app's list goes at once.
                let mut woken = Vec::new();
                if let Some(f) = self.fair.as_deref_mut() {
                    woken = std::mem::take(&mut f.parked.waking);
                    f.parked.take_app(a, &mut woken);
                }
                for &n in &woken {
                    debug_assert!(self.idle_reserved(n).is_none(), "node {n}");
                    debug_assert_eq!(
                        self.w.cluster.nodes[n as usize].reservation.map(|r| r.app),
                        Some(a)
                    );
                    // Still reserved for `a`, running and holding nothing for an app (as
                    // `idle_reserved` found it when it parked): `Sched::rearm` would arm it.
                    self.cx.events.clock_mut().unpark_armed(n);
                }
                if let Some(f) = self.fair.as_deref_mut() {
                    f.parked.waking = woken;
                }
            } else {
                nodes.extend_from_slice(&parked.nodes);
            }
        }
        nodes.sort_unstable();
        nodes.dedup();
        for &n in &nodes {
            // Woken meanwhile (its reservation released, a hold, a node event).
            if !self.cx.events.clock().is_node_parked(n) {
                continue;
            }
            if self.idle_reserved(n).is_some() {
                self.cx.counters.kept_parked += 1;
            } else {
                self.wake_node(n);
            }
        }
        apps.clear();
        nodes.clear();
        if let Some(f) = &mut self.fair {
            f.parked.apps_touched = apps;
            f.parked.nodes_touched = nodes;
        }
    }

    /// Unparks `node` if it is parked (an input of its heartbeat changed).
    pub(crate) fn wake_node(&mut self, node: u32) {
        let Some(f) = &mut self.fair else {
            return;
        };
        if f.parked.n_nodes == 0 || !self.cx.events.clock_mut().unpark(node) {
            return;
        }
        // A parked node keeps its reservation: only its own heartbeat or `unreserve` (which
        // wakes it first) changes it.
        let res = self.w.cluster.nodes[node as usize].reservation;
        debug_assert!(res.is_some(), "parked node {node} without a reservation");
        if let Some(r) = res {
            f.parked.remove(r.app, node, r.priority, r.size);
        }
        self.rearm(node);
    }

    /// Unparks the nodes reserved for app `a` (it finished).
    pub(crate) fn wake_reserved_by(&mut self, a: u32) {
        let Some(f) = &self.fair else {
            return;
        };
        let nodes = f.parked.of_app(a).to_vec();
        for n in nodes {
            self.wake_node(n);
        }
    }

    /// Unparks every parked node (a node event).
    pub(crate) fn wake_all_parked(&mut self) {
        let Some(f) = &self.fair else {
            return;
        };
        let nodes: Vec<u32> = (f.parked.lists.iter())
            .flat_map(|p| p.nodes.iter().copied())
            .collect();
        for n in nodes {
            self.wake_node(n);
        }
    }
}
