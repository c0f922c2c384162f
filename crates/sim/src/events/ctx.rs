//! What a scheduler may do to the run besides changing the world: read the clock, push the
//! events its decisions cause, hand decisions and closed apps to the recorder, and count.
//! The engine owns one [`Ctx`] and lends it with the world for each event.

use crate::event::{EventKey, EventQueue};
use crate::recorder::Recorder;
use crate::state::world::World;
use crate::time::SimTime;

/// Run counters, for benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Events popped.
    pub events: u64,
    /// Heartbeats processed.
    pub heartbeats: u64,
    /// Heartbeats elided: those an unelided run would have processed by now (beats of
    /// nodes in the cluster, before the run stalled), minus the processed ones.
    pub heartbeats_elided: u64,
    /// Containers allocated.
    pub assignments: u64,
    /// Reservations made.
    pub reservations: u64,
    /// Reservations released (turned into a container, dropped as no longer valid, or
    /// released with their app or node).
    pub unreservations: u64,
    /// Containers killed by preemption.
    pub preempted: u64,
    /// Containers lost with their node (`[[cluster.events]]`).
    pub lost: u64,
    /// Parked nodes re-checked after an input of their heartbeat changed and kept parked,
    /// their heartbeat still changing nothing (`scheduler::fair::parking`).
    pub kept_parked: u64,
    /// Hadoop 3.3: beats of unarmed nodes skipped as they came up, their free space fitting
    /// no ask while no app may reserve (`scheduler::fair::full_nodes`; counted in
    /// `heartbeats_elided` too).
    pub full_beats_skipped: u64,
    /// Update ticks that provably changed nothing, jumped over rather than processed
    /// (`idle_ticks`; counted in `events` too).
    pub ticks_skipped: u64,
    /// Reservations made by repeating the descent of the beat before rather than descending
    /// (`scheduler::fair::repeat_reserve`; counted in `reservations` too).
    pub reservations_repeated: u64,
}

/// The run's clock, event queue, recorder and counters.
pub(crate) struct Ctx<'a> {
    pub(crate) now: SimTime,
    pub(crate) current: EventKey,
    pub(crate) events: EventQueue,
    pub(crate) recorder: &'a mut dyn Recorder,
    pub(crate) counters: Counters,
    /// Elide heartbeats that cannot change anything (see "Heartbeat elision").
    pub(crate) elide: bool,
    /// `[[cluster.events]]` not processed yet (their events are queued).
    pub(crate) node_events_left: usize,
    pub(crate) n_closed: usize,
    /// Per app: its record went to the recorder (once per app: the streaming `apps.csv`
    /// writer cannot take a second row for an index it wrote).
    pub(crate) recorded: Vec<bool>,
    pub(crate) first_arrival: Option<SimTime>,
    pub(crate) last_finish: SimTime,
    /// Task containers whose completion event is pending, and pending AM heartbeats: events
    /// that change state whatever the scheduler decides.
    pub(crate) in_flight: u64,
    /// Apps whose arrival has been processed.
    pub(crate) n_arrived: usize,
    /// Decisions, arrivals, completions and locality-level changes so far: anything that can
    /// change a later decision.
    pub(crate) progress: u64,
    /// When the run was found stalled (see the module docs).
    pub(crate) stalled_at: Option<SimTime>,
    /// With `explain` on: every app's wait attributed to causes (`scheduler::explain`).
    pub(crate) explain: Option<Box<crate::explain::WaitBook>>,
}

impl Ctx<'_> {
    /// Hands app `i`'s record to the recorder, when it wants records: when it closes
    /// (finished or rejected: nothing in its record changes after that) and at the end of the
    /// run for the apps still open. Only the first call of an app records it.
    pub(crate) fn record_app(&mut self, w: &World<'_>, i: usize) {
        debug_assert!(!self.recorded[i], "app {i} recorded twice");
        if std::mem::replace(&mut self.recorded[i], true) {
            return;
        }
        if self.recorder.wants_apps() {
            let record = w.app_record(i);
            self.recorder.app(&record);
        }
    }
}
