//! Nodes joining and leaving during a run (`[[cluster.events]]`, docs/cluster.md), in both
//! schedulers:
//! * **add** (`FairScheduler.addNode`, `CapacityScheduler.addNode`): the node's capability
//!   joins the cluster resource; steady fair shares, resolved min/max shares, the
//!   comparators (DRF reads the cluster resource) and the largest node follow; the node
//!   beats from its join time on.
//! * **lose** (`removeNode`): each running container completes as lost (Hadoop's
//!   `LOST_CONTAINER` status, exit code ABORTED) and its task is asked again, as the AM asks
//!   for a lost task attempt again; a lost AM fails its attempt (see [`Sched::fail_attempt`]);
//!   the node's reservation is released; the cluster shrinks.
//! * **decommission**: hadoop-3.3's graceful decommissioning. At each heartbeat of a
//!   decommissioning node (`AbstractYarnScheduler.nodeUpdate`) its capability is set to what
//!   it runs, so it takes no new container and the cluster shrinks as its containers
//!   finish; at the first heartbeat with no container left it leaves. hadoop-2.7 has no
//!   graceful path (`RMNodeImpl` turns a decommission into a removal), so there it is a
//!   loss.

use crate::app::{AM_PRIORITY, AppPhase};
use crate::cluster::{NodeId, NodeState};
use crate::scheduler::Sched;
use crate::topology::events::NodeEventKind;
use crate::tree::QueueId;
use fairsim_core::{Comparator, Resource, Semantics};

/// What `max_allowed` reads as the largest node when no node is in the cluster: Hadoop then
/// answers the configured maximum allocation (`ClusterNodeTracker` with no node).
const NO_NODE: Resource = Resource::new(i64::MAX, i64::MAX);

impl Sched<'_, '_> {
    /// Event `e` of `[[cluster.events]]` happens now.
    pub(crate) fn on_node_event(&mut self, e: u32) {
        let sc = self.w.sc;
        let ev = &sc.cluster.events.events[e as usize];
        self.cx.node_events_left -= 1;
        self.cx.progress += 1;
        self.wake_all_parked();
        for &n in &ev.nodes {
            match (ev.kind, self.w.semantics) {
                (NodeEventKind::Add, _) => {
                    self.w.cluster.join(NodeId(n));
                    self.cx.events.clock_mut().node_joined(n, self.cx.current);
                }
                (NodeEventKind::Lose, _) | (NodeEventKind::Decommission, Semantics::Hadoop27) => {
                    self.remove_node(n)
                }
                (NodeEventKind::Decommission, Semantics::Hadoop33) => {
                    self.w.cluster.nodes[n as usize].state = NodeState::Decommissioning;
                    // It must beat to shrink and leave, even while no other node need.
                    self.rearm(n);
                }
            }
        }
        self.cluster_changed();
    }

    /// A decommissioning node's heartbeat, before scheduling: its capability becomes what it
    /// runs (completions of this millisecond are reported already); with nothing running it
    /// leaves. True when it left.
    pub(crate) fn decommissioning_beat(&mut self, node: u32) -> bool {
        let n = node as usize;
        if self.w.cluster.nodes[n].n_containers == 0 {
            self.remove_node(node);
            self.cluster_changed();
            return true;
        }
        let allocated = self.w.cluster.nodes[n].allocated;
        if self.w.cluster.nodes[n].capacity != allocated {
            self.w.cluster.resize(NodeId(node), allocated);
            self.cluster_changed();
        }
        false
    }

    /// `removeNode`: kills what runs on `node`, releases its reservation, takes it out. A
    /// node that already left (a decommissioning node lost after it drained, or in 2.7,
    /// where decommissioning removed it at once) is not in the cluster: nothing happens, as
    /// Hadoop's `removeNode` returns for a node it does not track.
    fn remove_node(&mut self, node: u32) {
        if !self.w.cluster.nodes[node as usize].is_live() {
            return;
        }
        let mut on_node: Vec<(u64, u32)> = self
            .w
            .containers
            .iter()
            .enumerate()
            .filter(|(_, c)| c.live && c.node == node)
            .map(|(slot, c)| (c.id, slot as u32))
            .collect();
        on_node.sort_unstable();
        // Tasks first (each asked again), then the AMs, whose failed attempts take their
        // apps' remaining containers with them.
        for &(_, slot) in &on_node {
            if !self.w.containers[slot as usize].is_am {
                self.kill_task(slot, true);
            }
        }
        for &(_, slot) in &on_node {
            let c = self.w.containers[slot as usize];
            if c.live && c.is_am {
                self.fail_attempt(c.app);
            }
        }
        self.unreserve(node);
        self.release_holds(node);
        self.w.cluster.leave(NodeId(node));
        self.cx.events.clock_mut().node_left(node, self.cx.current);
        self.cx.events.clock_mut().disarm(node);
    }

    /// App `a`'s AM container was lost: its attempt fails. YARN does not count an attempt
    /// failed by a lost node (exit status ABORTED) against `yarn.resourcemanager.am.max-attempts`,
    /// so a new attempt always follows: the attempt's other containers are killed (MapReduce
    /// does not keep containers across attempts), its outstanding asks die with it, and the
    /// new attempt asks for an AM. When that AM runs, the asks come back: every task not
    /// finished yet (MapReduce's job recovery keeps the finished ones), including those just
    /// killed. Under the Fair Scheduler the failed attempt leaves the scheduler and a new one
    /// joins ([`Sched::replace_attempt`]); under the Capacity Scheduler the app keeps its
    /// place in its leaf's order (by application, not attempt), and its activation is given
    /// up and asked for again, as the attempt leaves its leaf and the new one joins.
    pub(crate) fn fail_attempt(&mut self, a: u32) {
        let i = a as usize;
        let Some(am_slot) = self.w.apps[i].am_container.take() else {
            return;
        };
        let c = self.w.containers[am_slot as usize];
        self.recheck_node(c.node);
        self.w.containers[am_slot as usize].live = false;
        let node = &mut self.w.cluster.nodes[c.node as usize];
        node.allocated = node.allocated.saturating_sub(c.size);
        node.n_containers -= 1;
        let leaf = self.w.apps[i].queue;
        {
            let app = &mut self.w.apps[i];
            app.usage = app.usage.saturating_sub(c.size);
            app.sched.usage = app.usage;
            app.live -= 1;
            app.lost += 1;
            app.am_running = false;
        }
        self.cx.counters.lost += 1;
        self.cs_user_holds(a, c.size, false);
        self.add_usage(leaf, c.size, -1);
        let q = &mut self.w.queues[leaf.idx()];
        q.am_usage = q.am_usage.saturating_sub(c.size);
        self.refresh_open(leaf);
        let mut others: Vec<(u64, u32)> = self
            .w
            .containers
            .iter()
            .enumerate()
            .filter(|(_, o)| o.live && o.app == a)
            .map(|(slot, o)| (o.id, slot as u32))
            .collect();
        others.sort_unstable();
        for (_, slot) in others {
            self.kill_task(slot, true);
        }
        let runnable = self.w.apps[i].phase == AppPhase::Runnable;
        let pending = self.w.apps[i].requests.pending;
        if runnable && pending > 0 {
            self.pending_changed(a, -(pending as i64));
        }
        let mut asks = std::mem::take(&mut self.w.apps[i].requests);
        // The new attempt asks them afresh: no missed opportunities, no relaxed level.
        asks.forget_delay_state();
        self.w.apps[i].stash = Some(asks);
        if self.capacity.is_none() {
            self.replace_attempt(a);
            return;
        }
        // The Capacity Scheduler's `doneApplicationAttempt`: the attempt's reservations are
        // released, then its leaf's `removeApplicationAttempt` frees its AM charge and
        // activates what the freed room lets in; the new attempt joins as a pending app
        // (`addApplicationAttempt`), in its submission place, activated if the limits allow.
        self.cs_release_reservations_of(a);
        if runnable {
            self.cs_app_removed(a);
            self.cs_app_added(a);
            // Counted as a submitted app is (the Fair Scheduler's new attempt is submitted).
            self.count_am_limit_block(a);
        }
        if let Some(am) = self.w.specs[i].am {
            self.w.apps[i]
                .requests
                .add(AM_PRIORITY, am, 1, 0, Vec::new(), Vec::new(), true);
            if runnable {
                self.pending_changed(a, 1);
            }
        }
        self.demand_changed(a);
        self.reorder_app(a);
    }

    /// The Fair Scheduler's `removeApplicationAttempt` then `addApplicationAttempt` for app
    /// `a`, whose failed attempt holds nothing and asks nothing any more:
    /// * the old attempt's reservations are released and the resources preempted for it are
    ///   no longer kept (they were kept for that `FSAppAttempt`);
    /// * it leaves its leaf: its demand leaves the leaf's sum and, runnable, its slot frees
    ///   (`MaxRunningAppsEnforcer.updateRunnabilityOnAppRemoval` may make a waiting app
    ///   runnable in its place);
    /// * the new `FSAppAttempt` starts now (its start time orders it among its leaf's apps
    ///   and in the waiting lists), with demand, weight and fair share as a new app's until
    ///   the next update (demand 0, so Hadoop 3.3 offers it nothing before then), its 3.3
    ///   starvation clocks started now, and is added as a submitted app is: runnable only
    ///   if the limits allow it now, last in its leaf's list.
    pub(crate) fn replace_attempt(&mut self, a: u32) {
        let i = a as usize;
        // The app's reserved-node count ends the scan once they are all found (and skips it
        // for an app holding none, the usual case).
        let held = self.reserved_by(a) as usize;
        let reserved: Vec<u32> = (0..self.w.cluster.nodes.len() as u32)
            .filter(|&n| {
                self.w.cluster.nodes[n as usize]
                    .reservation
                    .is_some_and(|r| r.app == a)
            })
            .take(held)
            .collect();
        for n in reserved {
            self.unreserve(n);
        }
        self.release_holds_for(a);
        let leaf = self.w.apps[i].queue;
        let q = &mut self.w.queues[leaf.idx()];
        q.app_demand = q.app_demand.saturating_sub(self.w.apps[i].demand);
        self.touch_leaf(leaf);
        let was_runnable = self.w.apps[i].phase == AppPhase::Runnable;
        self.w.apps[i].phase = AppPhase::Future;
        self.reorder_app(a);
        if was_runnable {
            self.on_runnable_app_removed(a);
        }
        let weight = fairsim_core::AppWeight {
            semantics: self.w.semantics,
            size_based: self.w.sc.scheduler.sizebasedweight,
            booster: self.w.sc.scheduler.booster,
        }
        .weight(0, 1, 0);
        let now = self.cx.now.0;
        let app = &mut self.w.apps[i];
        app.demand = Resource::ZERO;
        app.sched.demand = Resource::ZERO;
        app.sched.start_time_ms = now as i64;
        self.w.set_app_weight(i, weight);
        self.w.app_fair_shares[i] = Resource::ZERO;
        let app = &mut self.w.apps[i];
        if let Some(am) = self.w.specs[i].am {
            app.requests
                .add(AM_PRIORITY, am, 1, 0, Vec::new(), Vec::new(), true);
        }
        self.preempt_app_submitted(a);
        self.submit(a);
    }

    /// The AM of a new attempt of app `a` runs: the asks of the failed attempt come back
    /// (and a stage the old AM had heard of while its successor was not running yet).
    /// True when there was a failed attempt.
    pub(crate) fn resume_attempt(&mut self, a: u32) -> bool {
        let i = a as usize;
        let Some(asks) = self.w.apps[i].stash.take() else {
            return false;
        };
        let pending = asks.pending;
        self.w.apps[i].requests = asks;
        if self.w.apps[i].phase == AppPhase::Runnable && pending > 0 {
            self.pending_changed(a, pending as i64);
        }
        self.demand_changed(a);
        self.reorder_app(a);
        if let Some(stage) = self.w.apps[i].deferred_stage.take() {
            self.start_stage(a, stage);
        }
        true
    }

    /// The cluster resource changed: what Hadoop derives from it follows (steady shares as
    /// `addNode`/`removeNode` recompute them, resolved min and max shares, capacities, the
    /// comparators' cluster, the largest node, and the capacity the metrics integrate).
    pub(crate) fn cluster_changed(&mut self) {
        let cluster = self.w.cluster.total;
        // Hadoop 3.3 derives effective capacities (absolute resources above all) anew.
        if let Some(cs) = &mut self.capacity {
            cs.caps = std::sync::Arc::new(crate::capacity::Capacities::at(&self.w.tree, cluster));
        }
        for i in 0..self.w.queues.len() {
            let q = QueueId(i as u32);
            let conf = self.w.tree.get(q);
            let max_share = conf.max_share(cluster);
            let resolved_min = conf.min_resources.resolve(cluster);
            let min_share = match &self.capacity {
                Some(cs) => cs.caps.guaranteed(q, cluster),
                None => resolved_min,
            };
            let comparator = Comparator::new(self.w.semantics, conf.policy, cluster);
            let qs = &mut self.w.queues[i];
            qs.max_share = max_share;
            qs.min_share = min_share;
            qs.sched.min_share = resolved_min;
            qs.sched.max_share = max_share;
            qs.comparator = comparator;
            qs.app_shares_dirty = true;
        }
        self.w.largest_node = self.w.cluster.largest_node().unwrap_or(NO_NODE);
        self.w.integrals.advance(self.cx.now.0);
        self.w.integrals.set_capacity(cluster);
        self.w.compute_steady_shares();
        // Keys read the comparators: every ordered set is built again.
        self.rerank_queues();
        for a in 0..self.w.apps.len() as u32 {
            if self.w.apps[a as usize].asking() {
                self.reorder_app(a);
            }
        }
        for i in 0..self.w.queues.len() {
            if self.w.tree.queues[i].is_leaf {
                self.metrics_refresh_leaf(QueueId(i as u32));
            }
        }
        self.cs_cluster_resource_updated();
    }
}
