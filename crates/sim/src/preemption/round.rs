//! One preemption pass per update, composed from the era's pieces, as the simulator's
//! update tick calls it.
//!
//! Hadoop 2.7's update thread runs `update()` (which first moves the starvation clocks, then
//! recomputes demands and fair shares) and then `preemptTasksIfNecessary()`; [`Fs27`] holds
//! the state both need. Hadoop 3.x's update identifies starved apps ([`Fs33::update`]) and a
//! separate thread preempts for them one at a time; fairsim runs that thread to completion
//! right after the update ([`Fs33::take_starved`]), since it only waits on the update's lock.

use super::PreemptionConfig;
use super::starvation::{
    AppLoad33, AppStarvation33, LeafCtx33, LeafLoad27, LeafStarvation27, LeafStarvation33,
    StarvedApps, res_to_preempt_27, update_starved_apps_33,
};
use super::victims::{Decision, Preemptor27, Snapshot27};
use crate::tree::QueueId;
use fairsim_core::Resource;
use std::collections::BTreeMap;

/// Hadoop 2.7's preemption state: one pair of clocks per queue and the preemptor.
#[derive(Debug, Clone, PartialEq)]
pub struct Fs27 {
    /// Starvation clocks, indexed by queue id (only leaves are used).
    pub clocks: Vec<LeafStarvation27>,
    /// Last check time and warned containers.
    pub preemptor: Preemptor27,
}

impl Fs27 {
    /// State for `n_queues` queues created at `now`.
    pub fn new(n_queues: usize, now: u64) -> Fs27 {
        Fs27 {
            clocks: vec![LeafStarvation27::new(now); n_queues],
            preemptor: Preemptor27::new(),
        }
    }

    /// Queue `q`, created at `now`, gets clocks started now.
    pub fn queue_added(&mut self, q: QueueId, now: u64) {
        if self.clocks.len() <= q.idx() {
            self.clocks.resize(q.idx() + 1, LeafStarvation27::new(now));
        }
    }

    /// `updateStarvationStats`: at the start of an update, with the loads and fair shares
    /// as the previous update left them.
    pub fn update_clocks(&mut self, now: u64, leaves: &[(QueueId, LeafLoad27)]) {
        for (q, load) in leaves {
            self.clocks[q.idx()].update(now, load);
        }
    }

    /// `updateStarvationStats` for leaves starved in neither sense: both clocks move to
    /// `now`.
    pub fn not_starved(&mut self, now: u64, leaves: &[QueueId]) {
        for q in leaves {
            let c = &mut self.clocks[q.idx()];
            c.last_time_at_min_share = now;
            c.last_time_at_fair_share_threshold = now;
        }
    }

    /// The sum over leaves of `resToPreempt` at `now`.
    pub fn res_to_preempt(&self, now: u64, leaves: &[(QueueId, LeafLoad27)]) -> Resource {
        leaves.iter().fold(Resource::ZERO, |acc, (q, load)| {
            acc.saturating_add(res_to_preempt_27(now, &self.clocks[q.idx()], load))
        })
    }

    /// `preemptTasksIfNecessary` after an update: nothing unless preemption is on, the
    /// cluster is above the utilization threshold and a preemption interval has passed;
    /// then the containers to warn and to kill.
    pub fn preempt_if_necessary(
        &mut self,
        now: u64,
        conf: &PreemptionConfig,
        allocated: Resource,
        leaves: &[(QueueId, LeafLoad27)],
        snap: &Snapshot27<'_>,
    ) -> Vec<Decision> {
        if !conf.should_attempt(snap.cluster, allocated) {
            return Vec::new();
        }
        if !self.preemptor.interval_due(now, conf.interval_ms) {
            return Vec::new();
        }
        let total = self.res_to_preempt(now, leaves);
        if total.memory_mb <= 0 {
            return Vec::new();
        }
        self.preemptor
            .preempt_resources(now, conf.wait_before_kill_ms, snap, total)
    }
}

/// One leaf of a Hadoop 3.x update: its settings and totals, and its apps with pending
/// demand that are due for a check, in the order of the leaf's `TreeSet` of them (as app
/// indices with their loads).
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf33 {
    /// The leaf.
    pub queue: QueueId,
    /// Settings and totals.
    pub ctx: LeafCtx33,
    /// `(app index, load)` in the set's order, pending demand non-zero.
    pub apps: Vec<(u32, AppLoad33)>,
}

/// Hadoop 3.x's preemption state: leaf clocks, per-app starvation and the starved-app queue.
#[derive(Debug, Clone)]
pub struct Fs33 {
    /// Min-share clocks by queue id.
    pub leaves: Vec<LeafStarvation33>,
    /// Starvation state by app index.
    pub apps: Vec<AppStarvation33>,
    /// Apps waiting for the preemption thread.
    pub starved: StarvedApps,
    /// Resources preempted on a node for an app, not yet handed back
    /// (`FSSchedulerNode.resourcesPreemptedForApp`), by (node index, app index); never zero.
    pub preempted_on_node: BTreeMap<(u32, u32), Resource>,
    /// Containers handed out from held resources so far (`assignPreemptedContainers`): the
    /// cycle watch reads it to know that no amount above was read between two states.
    pub hold_allocations: u64,
    /// Times each (node, app) hold above was found covered (brought to zero by a container
    /// handed out): the only reads whose answer a larger amount could change (see cycle.rs).
    pub holds_covered: BTreeMap<(u32, u32), u64>,
}

impl Fs33 {
    /// State for `n_queues` queues and `n_apps` apps at `now`.
    pub fn new(n_queues: usize, n_apps: usize, now: u64) -> Fs33 {
        Fs33 {
            leaves: vec![LeafStarvation33::new(now); n_queues],
            apps: vec![AppStarvation33::new(now); n_apps],
            starved: StarvedApps::new(),
            preempted_on_node: BTreeMap::new(),
            hold_allocations: 0,
            holds_covered: BTreeMap::new(),
        }
    }

    /// Queue `q`, created at `now`, gets a min-share clock started now.
    pub fn queue_added(&mut self, q: QueueId, now: u64) {
        if self.leaves.len() <= q.idx() {
            self.leaves.resize(q.idx() + 1, LeafStarvation33::new(now));
        }
    }

    /// Resets an app's state when it is submitted at `now`.
    pub fn app_submitted(&mut self, app: u32, now: u64) {
        self.apps[app as usize] = AppStarvation33::new(now);
    }

    /// After an update (when preemption should be attempted): every leaf identifies its
    /// starved apps, which join the starved-app queue. Apps not due for a check are skipped
    /// (the simulator hands over only due ones, having built the leaf's set of them).
    pub fn update(&mut self, now: u64, leaves: &[Leaf33]) {
        for leaf in leaves {
            let due: Vec<&(u32, AppLoad33)> = leaf
                .apps
                .iter()
                .filter(|(a, _)| self.apps[*a as usize].should_check(now))
                .collect();
            let loads: Vec<AppLoad33> = due.iter().map(|(_, l)| *l).collect();
            let mut states: Vec<AppStarvation33> =
                due.iter().map(|(a, _)| self.apps[*a as usize]).collect();
            let picked = update_starved_apps_33(
                now,
                &leaf.ctx,
                &mut self.leaves[leaf.queue.idx()],
                &loads,
                &mut states,
            );
            for ((a, _), st) in due.iter().zip(&states) {
                self.apps[*a as usize] = *st;
            }
            let apps = &self.apps;
            let starvation = |x: u32| apps[x as usize].starvation();
            for i in picked {
                self.starved.add(due[i].0, &starvation);
            }
        }
    }

    /// The next starved app for the preemption thread, if any.
    pub fn take_starved(&mut self) -> Option<u32> {
        let apps = &self.apps;
        let starvation = |x: u32| apps[x as usize].starvation();
        self.starved.take(&starvation)
    }

    /// After the thread handled `app` at `now`: not checked again for the re-check delay.
    pub fn preemption_triggered(&mut self, app: u32, now: u64, conf: &PreemptionConfig) {
        self.apps[app as usize].preemption_triggered(now, conf.starvation_recheck_delay_ms());
    }
}
