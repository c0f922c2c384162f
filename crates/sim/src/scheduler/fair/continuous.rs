//! Continuous scheduling (`[scheduler] continuous_scheduling`, Hadoop's
//! `yarn.scheduler.fair.continuous-scheduling-enabled`), off by default.
//!
//! * A pass (`FairScheduler.continuousSchedulingAttempt`) sorts the nodes by unallocated
//!   memory, most first (`NodeAvailableResourceComparator` over the Fair Scheduler's
//!   memory-only calculator), and runs `attemptScheduling` on every node where the minimum
//!   allocation fits; the thread then sleeps `continuous_scheduling_sleep_ms`. A pass takes
//!   no simulated time, so passes fall at 0, sleep, 2 × sleep, …, after the heartbeats of
//!   their millisecond. Nodes with equal free memory go in index order (Hadoop's order is
//!   its node map's iteration order).
//! * Hadoop 2.7's `nodeUpdate` then schedules on a heartbeat only when the heartbeat
//!   reported completed containers; Hadoop 3.3 (where the feature is deprecated but still
//!   runs) schedules on every heartbeat as well as in the passes.
//! * Delay scheduling becomes time-based (`FSAppAttempt.getAllowedLocalityLevelByTime`,
//!   `locality_delay_node_ms` / `locality_delay_rack_ms`, off when either is negative): a
//!   priority relaxes one level once more than the delay has passed since its level last
//!   changed, or, before that, since the app started (2.7) / since the priority was first
//!   looked at (3.3, which records that time when the level is first set).
//!
//! Heartbeat elision stays exact: a pass is its own event, and an elided heartbeat is one
//! whose descent can do nothing, with or without the pass.

use crate::app::Locality;
use crate::event::Event;
use crate::scheduler::Sched;
use fairsim_core::{Resource, Semantics};

/// Per-run state of continuous scheduling.
#[derive(Debug, Clone)]
pub(crate) struct Continuous {
    /// Per node: the last time a completed container was reported on it (ms).
    completed_at: Vec<Option<u64>>,
}

impl Continuous {
    pub(crate) fn new(n_nodes: usize) -> Continuous {
        Continuous {
            completed_at: vec![None; n_nodes],
        }
    }

    /// Per node, whether it reported a completion at `now`: all a report time is read for
    /// (the cycle fingerprint's view of this state).
    pub(crate) fn reported_at(&self, now: u64) -> Vec<bool> {
        self.completed_at.iter().map(|t| *t == Some(now)).collect()
    }
}

impl Sched<'_, '_> {
    /// Continuous scheduling is on (Fair Scheduler only).
    #[inline]
    pub(crate) fn continuous_on(&self) -> bool {
        self.fair.as_ref().is_some_and(|f| f.continuous.is_some())
    }

    /// The window of the quiescence watch: every node is offered within it, by its
    /// heartbeat or, with continuous scheduling, by a pass.
    pub(crate) fn offer_window_ms(&self) -> u64 {
        let hb = self.w.cluster.heartbeat_ms;
        if self.continuous_on() {
            hb.max(self.w.sc.scheduler.continuous_scheduling_sleep_ms)
        } else {
            hb
        }
    }

    /// A completed container was reported on `node` now.
    #[inline]
    pub(crate) fn note_completion(&mut self, node: u32) {
        let now = self.cx.now.0;
        if let Some(c) = self.fair.as_mut().and_then(|f| f.continuous.as_mut()) {
            c.completed_at[node as usize] = Some(now);
        }
    }

    /// Whether a heartbeat of `node` runs `attemptScheduling` (`FairScheduler.nodeUpdate`).
    #[inline]
    pub(crate) fn heartbeat_schedules(&self, node: u32) -> bool {
        match self.fair.as_ref().and_then(|f| f.continuous.as_ref()) {
            None => true,
            Some(_) if self.w.semantics == Semantics::Hadoop33 => true,
            Some(c) => c.completed_at[node as usize] == Some(self.cx.now.0),
        }
    }

    /// One pass over the nodes, then the next pass after the sleep.
    pub(crate) fn continuous_pass(&mut self) {
        // Once stalled nothing can change (see the engine's "Quiescence").
        if self.cx.stalled_at.is_some() {
            return;
        }
        let armed = |s: &Self| {
            s.w.cluster
                .nodes
                .iter()
                .enumerate()
                .any(|(i, n)| n.reservation.is_some() || !s.held_for(i).is_empty())
        };
        // A pass whose every node offer would return at once is skipped whole.
        if self.offers_may_act() || armed(self) {
            let minimum = Resource::new(
                self.w.sc.scheduler.minimum_allocation_mb,
                self.w.sc.scheduler.minimum_allocation_vcores,
            );
            let nodes = &self.w.cluster.nodes;
            let mut order: Vec<u32> = (0..nodes.len() as u32)
                .filter(|&n| nodes[n as usize].is_live())
                .collect();
            // Stable: equal free memory keeps index order.
            order.sort_by_key(|&n| std::cmp::Reverse(nodes[n as usize].available().memory_mb));
            for node in order {
                if minimum.fits_in(self.w.cluster.nodes[node as usize].available()) {
                    self.attempt_scheduling(node);
                    self.rearm(node);
                }
            }
        }
        if !self.drained() {
            let next = self
                .cx
                .now
                .plus(self.w.sc.scheduler.continuous_scheduling_sleep_ms);
            self.cx.events.push(next, Event::ContinuousPass);
        }
    }

    /// `FSAppAttempt.getAllowedLocalityLevelByTime` for priority index `idx` of app `a`.
    pub(crate) fn allowed_locality_by_time(&mut self, a: u32, idx: usize) -> Locality {
        let conf = &self.w.sc.scheduler;
        let (node_ms, rack_ms) = (conf.locality_delay_node_ms, conf.locality_delay_rack_ms);
        if node_ms < 0 || rack_ms < 0 {
            return Locality::OffSwitch;
        }
        let now = self.cx.now.0;
        let start = self.w.specs[a as usize].arrival.0;
        let era = self.w.semantics;
        let p = &mut self.w.apps[a as usize].requests.by_priority[idx];
        let Some(allowed) = p.allowed else {
            p.allowed = Some(Locality::NodeLocal);
            if era == Semantics::Hadoop33 {
                p.last_scheduled = Some(now);
            }
            // A level change can make a later offer succeed (quiescence watch).
            self.cx.progress += 1;
            return Locality::NodeLocal;
        };
        if allowed == Locality::OffSwitch {
            return allowed;
        }
        let waited = now.saturating_sub(p.last_scheduled.unwrap_or(start));
        let threshold = if allowed == Locality::NodeLocal {
            node_ms
        } else {
            rack_ms
        };
        if waited > threshold as u64 {
            p.allowed = Some(if allowed == Locality::NodeLocal {
                Locality::RackLocal
            } else {
                Locality::OffSwitch
            });
            p.last_scheduled = Some(now);
            p.opportunities = 0;
            self.cx.progress += 1;
        }
        p.allowed.unwrap_or(Locality::OffSwitch)
    }
}
