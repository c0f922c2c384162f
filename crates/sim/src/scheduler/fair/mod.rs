//! The Fair Scheduler as methods on the simulation state: app submission and placement
//! ([`placement`]), maxRunningApps ([`running`]), the update thread ([`update`],
//! [`queue_shares`], apps' shares on demand in [`app_shares`]) and the heartbeat assignment
//! ([`assign`]), preemption in either era ([`preempt`]). This file holds the app life
//! cycle: arrival, requests, container completion, stages and removal.

pub mod app_shares;
pub mod assign;
pub mod continuous;
pub mod full_nodes;
pub mod missed_offers;
pub mod parking;
pub mod placement;
pub mod preempt;
pub mod queue_shares;
pub mod repeat_reserve;
pub mod running;
pub mod sort_history;
pub mod update;
pub mod victim_views;

use crate::app::{AM_PRIORITY, AppPhase};
use crate::event::Event;
use crate::scheduler::Sched;
use crate::state::world::Container;
use crate::time::SimTime;
use crate::tree::SchedulerKind;

/// The Fair Scheduler of a run: what both schedulers keep, and its own state (with its
/// era's preemption).
pub(crate) struct FairScheduler {
    /// What both schedulers keep (`scheduler::books::Books`).
    pub books: crate::scheduler::books::Books,
    /// The Fair Scheduler's own state.
    pub state: FairState,
}

impl FairScheduler {
    /// The Fair Scheduler `sc` configures on `n_nodes` nodes.
    pub(crate) fn new(sc: &crate::scenario::Scenario, n_nodes: usize) -> FairScheduler {
        FairScheduler {
            books: Default::default(),
            state: FairState {
                sorted_history: sort_history::lists_keep_history(sc),
                tree_sets: sort_history::descents_build_tree_sets(sc),
                held_for: vec![Vec::new(); n_nodes],
                ..Default::default()
            },
        }
    }
}

/// The Fair Scheduler's own state, beside what both schedulers keep (the update thread's
/// books, `scheduler::books::Books`) and the world they share (cluster, containers, apps,
/// users, queues): how its descents sort, the nodes it parks or skips, continuous
/// scheduling, and its preemption with Hadoop 3.x's holds.
#[derive(Default)]
pub(crate) struct FairState {
    /// Sorted lists remember their history: every descent sorts them as Hadoop 2.7 does
    /// (`scheduler::fair::sort_history`).
    pub sorted_history: bool,
    /// Each descent builds Hadoop 3.3's `TreeSet` of children or apps
    /// (`scheduler::fair::sort_history`).
    pub tree_sets: bool,
    /// Preemption: off, or the era's (`scheduler::fair::preempt`).
    pub preempt: preempt::FairPreempt,
    /// Hadoop 3.x: the apps each node holds preempted resources for, in the order their
    /// holds began (`FSSchedulerNode.resourcesPreemptedForApp`, a `LinkedHashMap`); the
    /// amounts are in the preemption state.
    pub held_for: Vec<Vec<u32>>,
    /// Continuous scheduling, when on (`scheduler::fair::continuous`).
    pub continuous: Option<continuous::Continuous>,
    /// Parked nodes by reserving app, and the inputs of their heartbeats the current event
    /// touched (`scheduler::fair::parking`).
    pub parked: parking::ParkedNodes,
    /// Hadoop 3.3: what decides whether a full node's beat changes nothing, and the nodes
    /// reserved per app (`scheduler::fair::full_nodes`).
    pub full_nodes: full_nodes::FullNodes,
    /// Hadoop 3.3 with delay scheduling on: the full nodes' beats skipped since the last
    /// event, whose missed opportunities are still to count (`scheduler::fair::missed_offers`).
    pub skipped_offers: missed_offers::SkippedOffers,
    /// The last descent that reserved, which the next beat may repeat
    /// (`scheduler::fair::repeat_reserve`).
    pub repeat_reserve: repeat_reserve::RepeatReserve,
}

/// The Fair Scheduler's own state, read where both schedulers decide: a node's holds, which
/// the Capacity Scheduler never makes.
impl Sched<'_, '_> {
    /// The apps `node` holds preempted resources for (none under the Capacity Scheduler).
    #[inline]
    pub(crate) fn held_for(&self, node: usize) -> &[u32] {
        match &self.fair {
            Some(f) => &f.held_for[node],
            None => &[],
        }
    }

    /// The nodes app `a` holds reserved, as the Fair Scheduler counts them (the Capacity
    /// Scheduler keeps its own books: `capacity::reservations`).
    #[inline]
    pub(crate) fn reserved_by(&self, a: u32) -> u32 {
        self.fair
            .as_ref()
            .map_or(0, |f| f.full_nodes.reserved_by(a))
    }

    /// The nodes of rack `rack` app `a` holds reserved (kept in Hadoop 3.3 only).
    #[inline]
    pub(crate) fn reserved_in_rack(&self, a: u32, rack: u32) -> u32 {
        self.fair
            .as_ref()
            .map_or(0, |f| f.full_nodes.reserved_in_rack(a, rack))
    }

    /// App `a` reserved a node (`delta` 1) or gave one up (-1); `rack` is the node's rack
    /// when the per-rack counts are kept.
    #[inline]
    pub(crate) fn count_reservation(&mut self, a: u32, rack: Option<u32>, delta: i32) {
        if let Some(f) = &mut self.fair {
            f.full_nodes.count_reservation(a, rack, delta);
        }
    }

    /// Whether the Fair Scheduler's sorted lists remember their history.
    #[inline]
    pub(crate) fn sorted_history(&self) -> bool {
        self.fair.as_ref().is_some_and(|f| f.sorted_history)
    }
}

impl Sched<'_, '_> {
    /// An app is submitted: placed in a queue (or rejected), made runnable or held back by
    /// maxRunningApps, and its first requests are made.
    pub(crate) fn on_app_arrived(&mut self, a: u32) {
        let i = a as usize;
        if self.cx.first_arrival.is_none() {
            self.cx.first_arrival = Some(self.cx.now);
        }
        if let Err(msg) = self.admit(a) {
            self.reject(a, msg);
            return;
        }
        let spec = &self.w.specs[i];
        let (queue_name, user) = (spec.queue.clone(), spec.user.clone());
        let placed = if self.w.tree.scheduler == SchedulerKind::Capacity {
            self.cs_place(&queue_name, &user)
        } else {
            self.place(&queue_name, &user)
        };
        let leaf = match placed {
            Ok(q) => q,
            Err(msg) => {
                self.reject(a, msg);
                return;
            }
        };
        let uid = self.user_id(&user);
        {
            let app = &mut self.w.apps[i];
            app.queue = leaf;
            app.user = uid;
        }
        // An unmanaged app that asks for no container has nothing to wait for or run, as
        // YARN allocates nothing for an ask of zero containers: it finishes as it is
        // submitted, never runnable, so it holds no place in its queue.
        if self.w.specs[i].am.is_none()
            && self.w.specs[i]
                .stages
                .iter()
                .flatten()
                .all(|g| g.count == 0)
        {
            self.finish_app(a);
            return;
        }
        // First requests: the AM, or the first stage of an unmanaged app.
        if let Some(am) = self.w.specs[i].am {
            self.w.apps[i]
                .requests
                .add(AM_PRIORITY, am, 1, 0, Vec::new(), Vec::new(), true);
        } else {
            self.start_stage(a, 0);
        }
        self.submit(a);
        self.preempt_app_submitted(a);
    }

    fn reject(&mut self, a: u32, msg: String) {
        let app = &mut self.w.apps[a as usize];
        app.phase = AppPhase::Rejected;
        app.rejected = Some(msg);
        // Nothing reads a rejected app's locality hints (resolved for every app when the run
        // starts): release them, as a finished app's are.
        app.hints = Vec::new();
        self.cx.n_closed += 1;
        self.cx.record_app(self.w, a as usize);
    }

    /// Adds the requests of stage `stage` of app `a` (or finishes the app if it has no more
    /// stages). Counts toward pending only if the app is runnable.
    pub(crate) fn start_stage(&mut self, a: u32, stage: usize) {
        let i = a as usize;
        let mut stage = stage;
        loop {
            if stage >= self.w.specs[i].stages.len() {
                self.finish_app(a);
                return;
            }
            let n: u64 = self.w.specs[i].stages[stage]
                .iter()
                .map(|g| g.count as u64)
                .sum();
            if n > 0 {
                break;
            }
            stage += 1;
        }
        let before = self.w.apps[i].requests.pending;
        let groups = self.w.specs[i].stages[stage].clone();
        let app = &mut self.w.apps[i];
        app.stage = stage;
        for (g, group) in groups.iter().enumerate() {
            let (nodes, racks) = app
                .hints
                .get(stage)
                .map_or_else(Default::default, |groups| groups[g].clone());
            app.requests.add_strict(
                group.priority,
                group.size,
                group.count,
                group.duration_ms,
                nodes,
                racks,
                false,
                group.relax_locality,
            );
            app.stage_remaining += group.count as u64;
        }
        self.demand_changed(a);
        let delta = (self.w.apps[i].requests.pending - before) as i64;
        if self.w.apps[i].phase == AppPhase::Runnable {
            self.pending_changed(a, delta);
            self.reorder_app(a);
        }
    }

    /// A container's completion is reported: release it; advance or finish its app.
    #[inline]
    pub(crate) fn on_container_finished(&mut self, slot: u32) {
        let c = self.w.containers[slot as usize];
        self.release_container(slot);
        if c.is_am {
            return;
        }
        let a = c.app;
        let app = &mut self.w.apps[a as usize];
        app.stage_remaining -= 1;
        if app.stage_remaining == 0 && app.requests.pending == 0 {
            let next = app.stage + 1;
            self.stage_done(a, next);
        }
    }

    /// Frees a container's resources on its node, app and queues.
    #[inline]
    pub(crate) fn release_container(&mut self, slot: u32) {
        let c = self.take_back_container(slot);
        self.w.free_slots.push(slot);
        let leaf = self.w.apps[c.app as usize].queue;
        self.demand_changed(c.app);
        self.add_usage(leaf, c.size, -1);
        self.reorder_app(c.app);
    }

    /// Marks the live container in `slot` dead and takes its size back from its node (which
    /// wakes) and its app; returns it. The caller settles the app's demand, its queues and its
    /// order, and whether the slot is reused.
    #[inline]
    pub(crate) fn take_back_container(&mut self, slot: u32) -> Container {
        let c = self.w.containers[slot as usize];
        debug_assert!(c.live);
        self.recheck_node(c.node);
        self.w.containers[slot as usize].live = false;
        let node = &mut self.w.cluster.nodes[c.node as usize];
        node.allocated = node.allocated.saturating_sub(c.size);
        node.n_containers -= 1;
        let app = &mut self.w.apps[c.app as usize];
        app.usage = app.usage.saturating_sub(c.size);
        app.sched.usage = app.usage;
        app.live -= 1;
        self.cs_user_holds(c.app, c.size, false);
        c
    }

    /// The app's last task finished: release its AM, leave the queue, let waiting apps run.
    pub(crate) fn finish_app(&mut self, a: u32) {
        let i = a as usize;
        self.wake_reserved_by(a);
        // The Capacity Scheduler releases a finished app's reservations at once
        // (`doneApplicationAttempt`); the Fair Scheduler's go at their nodes' next beats.
        self.cs_release_reservations_of(a);
        if let Some(slot) = self.w.apps[i].am_container.take() {
            self.release_container(slot);
        }
        let leaf = self.w.apps[i].queue;
        let was_runnable = self.w.apps[i].phase == AppPhase::Runnable;
        if self.w.apps[i].am_running
            && let Some(am) = self.w.specs[i].am
        {
            let q = &mut self.w.queues[leaf.idx()];
            q.am_usage = q.am_usage.saturating_sub(am);
            self.refresh_open(leaf);
        }
        let pending = self.w.apps[i].requests.pending;
        if was_runnable && pending > 0 {
            self.pending_changed(a, -(pending as i64));
        }
        // It leaves its leaf's lists: its demand leaves the leaf's sum.
        let q = &mut self.w.queues[leaf.idx()];
        q.app_demand = q.app_demand.saturating_sub(self.w.apps[i].demand);
        self.touch_leaf(leaf);
        self.w.apps[i].phase = AppPhase::Finished;
        self.w.apps[i].finish = Some(self.cx.now);
        self.cx.last_finish = self.cx.now;
        self.cx.n_closed += 1;
        self.reorder_app(a);
        if was_runnable {
            self.on_runnable_app_removed(a);
        }
        // Nothing reads a finished app's requests or hints again: release them, so memory
        // follows the live apps, not the finished ones.
        let app = &mut self.w.apps[i];
        app.requests = crate::app::RequestTable::default();
        app.hints = Vec::new();
        self.cx.record_app(self.w, i);
    }

    /// Schedules the report of a container that ends at `end` on `node`: the node's first
    /// heartbeat at or after the end (a NodeManager reports completions on heartbeats).
    pub(crate) fn schedule_completion(&mut self, slot: u32, node: u32, end: SimTime) {
        let t = self
            .w
            .cluster
            .heartbeat_at_or_after(crate::cluster::NodeId(node), end);
        self.cx.in_flight += 1;
        let app = self.w.containers[slot as usize].app;
        self.cx.events.push(
            t,
            Event::ContainerFinished {
                container: slot,
                app,
            },
        );
    }
}
