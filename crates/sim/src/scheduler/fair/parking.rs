//! Parking of reserved nodes whose heartbeats change nothing (both eras of the Fair
//! Scheduler).
//!
//! A node reserved for a container that does not fit its free space does nothing on its
//! heartbeat while the reservation stays valid (`FSAppAttempt.assignReservedContainer`
//! fails early when the reserved container will not fit; `attemptScheduling` then assigns
//! nothing else on a reserved node): it reads the reservation, the node's free space and
//! capacity, the reserving app's request at the reserved priority
//! (`Simulation::has_container_for_node`, which in Hadoop 3.3 also reads the app's queues
//! against maxResources) and its queues' usage against maxResources, and writes nothing, not
//! even a missed-opportunity count. Hadoop 3.3 first hands out what preemption holds on the
//! node (`assignPreemptedContainers`): a node is parked only while nothing is held on it, and
//! a hold added wakes it (`Simulation::preempt_for_app_33`). Hadoop 3.3's check
//! (`isValidReservation`) also reads maxAMShare for an app whose AM is not running, which
//! moves with its leaf's fair share, so such a reservation is not parked. So after such a heartbeat the node
//! is parked (`HeartbeatClock::park`): its beats are skipped until one of those inputs
//! changes:
//! - a container on the node is released (completion, preemption, loss with its node or
//!   with its failed attempt): its free space grows;
//! - the reserving app's requests change (`Simulation::demand_changed`, or it finishes);
//! - the reservation is released (`Simulation::unreserve`);
//! - a node event (capacity, nodes joining or leaving).
//!
//! Allocation on the node needs its own heartbeat, so its free space cannot shrink while it
//! is parked. maxResources is not watched: a node is parked only when every queue from the
//! app's leaf to root could hold every node's capacity over again plus the reserved size
//! (usage, made of containers on nodes, never exceeds the nodes' capacity), so the check
//! cannot fail until a node event, which wakes every parked node. Waking only marks the node
//! unparked: its next beat is the first after the current event, exactly the first
//! heartbeat whose outcome an unelided run could see differ. Under continuous scheduling
//! (which assigns on nodes outside heartbeats), with heartbeats = "every" and for the
//! Capacity Scheduler nothing is parked.

use crate::cluster::NodeState;
use crate::engine::Simulation;
use fairsim_core::{Resource, Semantics};

impl Simulation<'_> {
    /// After `node`'s heartbeat: parks it when it is a reserved node whose heartbeats
    /// change nothing until an input is touched (see the module docs).
    pub(crate) fn park_if_idle(&mut self, node: u32) {
        if !self.elide || self.capacity.is_some() || self.continuous_on() {
            return;
        }
        let n = node as usize;
        let nd = &self.cluster.nodes[n];
        if nd.state != NodeState::Running || !self.held_for[n].is_empty() {
            return;
        }
        let Some(res) = nd.reservation else {
            return;
        };
        if res.size.fits_in(nd.available()) {
            return;
        }
        let a = res.app;
        // 3.3 also drops the reservation of an app whose AM maxAMShare refuses, which reads
        // its leaf's fair share and AM usage: such a reservation is not parked.
        if self.semantics == Semantics::Hadoop33 && self.waits_for_am(a) {
            return;
        }
        let Some(idx) = self.apps[a as usize]
            .requests
            .by_priority
            .iter()
            .position(|p| p.priority == res.priority)
        else {
            return;
        };
        if !self.has_container_for_node(a, idx, node) {
            return;
        }
        let n_nodes = self.cluster.nodes.len() as i64;
        let most = Resource::new(
            self.largest_node.memory_mb.saturating_mul(n_nodes),
            self.largest_node.vcores.saturating_mul(n_nodes),
        )
        .saturating_add(res.size);
        let mut q = Some(self.apps[a as usize].queue);
        while let Some(id) = q {
            if !most.fits_in(self.queues[id.idx()].max_share) {
                return;
            }
            q = self.tree.get(id).parent;
        }
        self.events.clock_mut().park(node);
        self.parked.insert((a, node));
    }

    /// Unparks `node` if it is parked (an input of its heartbeat changed).
    pub(crate) fn wake_node(&mut self, node: u32) {
        if self.parked.is_empty() || !self.events.clock_mut().unpark(node) {
            return;
        }
        // A parked node keeps its reservation: only its own heartbeat or `unreserve` (which
        // wakes it first) changes it.
        let res = self.cluster.nodes[node as usize].reservation;
        debug_assert!(res.is_some(), "parked node {node} without a reservation");
        if let Some(r) = res {
            self.parked.remove(&(r.app, node));
        }
        self.rearm(node);
    }

    /// Unparks the nodes reserved for app `a` (its requests changed).
    pub(crate) fn wake_reserved_by(&mut self, a: u32) {
        if self.parked.is_empty() {
            return;
        }
        let nodes: Vec<u32> = self
            .parked
            .range((a, 0)..=(a, u32::MAX))
            .map(|&(_, n)| n)
            .collect();
        for n in nodes {
            self.wake_node(n);
        }
    }

    /// Unparks every parked node (a node event).
    pub(crate) fn wake_all_parked(&mut self) {
        let nodes: Vec<u32> = self.parked.iter().map(|&(_, n)| n).collect();
        for n in nodes {
            self.wake_node(n);
        }
    }
}
