//! Idle update ticks: the update thread runs every `update_interval_ms`, so a long container
//! with nothing else going on would cost one tick per interval (ten idle years are 6.3×10^8
//! ticks). A tick changes nothing when it recomputes nothing and nothing at it reads the
//! clock; then every tick until the next other event changes nothing either, since nothing
//! else happens in between. Such ticks are jumped over: the next tick processed is the last
//! one of the update thread's grid strictly before the next other event (the tick an
//! unskipped run processes last in that gap), and the ticks skipped count as events, so
//! `summary.json`'s `events` and every other output stay those of the run that processes
//! them all.
//!
//! The test is conservative (a tick after which it holds is itself idle, so the next one
//! would be too):
//! * no app waits to run (it starts at a completion or an arrival, which are events);
//!   outstanding requests may wait, for nothing at a tick reads them unless they were marked
//!   (below): their demand is counted when they are made, and a delay-scheduling level,
//!   an AM or a reservation moves only at a heartbeat, which is an event (with continuous
//!   scheduling, its passes are events too);
//! * nothing is marked for the next update (app demands, queue loads, and app shares where
//!   ticks keep them);
//! * no size-based weight booster (an app's weight reads its age);
//! * preemption off (Hadoop 2.7's starvation clocks are set to now at each tick, and the
//!   preemption passes and the Capacity Scheduler's monitor read the time);
//! * a container is running or an app is still to arrive: the quiescence test then resets
//!   its watch and the cycle watch takes no fingerprint, at each of those ticks alike.

use crate::engine::Simulation;
use crate::time::SimTime;
use crate::tree::QueueId;

impl Simulation<'_> {
    /// When the next update tick is due: one interval on, or, when the tick just processed
    /// was idle, the last tick of the grid before the next other event (the ticks in between
    /// are counted in `events` and `ticks_skipped`).
    pub(crate) fn next_tick(&mut self) -> SimTime {
        let interval = self.w.sc.scheduler.update_interval_ms;
        let next = self.cx.now.plus(interval);
        if interval == 0 || !self.tick_is_idle() {
            return next;
        }
        let every_node = self.every_node_beats();
        let Some(bound) = self.cx.events.next_time(every_node) else {
            return next;
        };
        // Grid ticks strictly before `bound`: now + k × interval for k in 1..=last.
        let last = bound.since(self.cx.now).saturating_sub(1) / interval;
        if last < 2 {
            return next;
        }
        let skipped = last - 1;
        self.cx.counters.events += skipped;
        self.cx.counters.ticks_skipped += skipped;
        SimTime(self.cx.now.0 + last * interval)
    }

    /// Whether the tick just processed changed nothing but could have, and every tick after
    /// it until another event would change nothing either (see the module docs).
    fn tick_is_idle(&mut self) -> bool {
        let root = &self.w.queues[QueueId::ROOT.idx()];
        !self.idle_ticks_kept
            && root.waiting == 0
            && (self.cx.in_flight > 0 || self.cx.n_arrived < self.w.apps.len())
            && self.w.dirty_apps.is_empty()
            && self.sched().update_is_idle()
    }
}
