//! The simulation: one [`Simulation`] owns the world (cluster, containers, apps, queues),
//! the run's context (clock, event queue, recorder, counters), the scheduler's own state,
//! and the engine's watches. [`run`] is the entry point.
//!
//! `step()` pops one event, makes one `match` and hands the event to the scheduler, lent the
//! world and the context (`scheduler::Sched`); the engine reads none of the scheduler's
//! fields, it asks (`Sched::offers_may_act`, `Sched::delay_settled`, `Sched::own_print`...).
//!
//! # Heartbeat elision
//!
//! Heartbeats come from a clock (`heartbeat`), not from queued events. A heartbeat of a node
//! holding no reservation and no resources kept for an app changes nothing when the
//! scheduler's own first check of a descent fails (`Sched::offers_may_act`: for the
//! Fair Scheduler, the root queue has no outstanding request or is over its maxResources),
//! or, in Hadoop 2.7, when every leaf with an outstanding request is AM-blocked (each of its
//! pending apps waits for an AM that maxAMShare refuses: the descent returns nothing there
//! and changes nothing that is read; `Sched::refresh_open`).
//! While that holds only *armed* nodes (reserved or holding resources for an app) beat;
//! when it stops holding, every node beats again from the first heartbeat after the current
//! event, exactly the heartbeat an unelided run would process next. Completed containers are
//! reported by their own events, which do not depend on heartbeats.
//! Besides, in the Fair Scheduler a node reserved for a container that does not fit it is
//! *parked* while its heartbeats can change nothing, even when every other node beats, and
//! woken by whatever could change its outcome (`scheduler::fair::parking`). In Hadoop 3.3
//! the beat of an unarmed node whose free space fits no ask, while no app may reserve, is
//! skipped as it comes up (`scheduler::fair::full_nodes`); with count-based delay
//! scheduling on, the missed scheduling opportunities of the beats skipped are counted
//! before the next event is processed (`scheduler::fair::missed_offers`).
//! Under the Capacity Scheduler the asks of an app its leaf has not activated (held by an AM
//! limit) count as outstanding, as Hadoop's pending resources count them, so such beats are
//! processed and give the app nothing; activation itself runs on events (an app added or
//! removed, the cluster changed), never on a beat, so no elided beat could have activated one.
//! `[scheduler] heartbeats = "every"` processes every heartbeat (the property test compares
//! both, decision for decision). Update ticks that can change nothing are jumped over in the
//! same way (`idle_ticks`).

//! # Quiescence
//!
//! A run without `end_ms` ends when every app finished or was rejected, or when no future
//! event can change anything while apps are still unfinished (the run has *stalled*). YARN
//! hangs in such states too; fairsim stops and reports the unfinished apps
//! ([`RunSummary::stalled_at`], `apps_unfinished`). Examples: AM containers that hold every
//! vcore of the cluster while each waits for a task container (the fair policy's maxAMShare
//! check compares memory only), or an AM larger than maxAMShare × its queue's fair share
//! with nothing running that could free or move resources.
//!
//! The test, at each update tick: no task container is running (no completion pending), every
//! app has arrived, and no request can still change its delay-scheduling path (thresholds
//! off, no node or rack request, already relaxed to off-switch, or never offered). Then
//! demands, usage and fair shares cannot change until a decision is made, and a heartbeat's
//! outcome depends only on them. Progress is any decision, arrival, completion or change of a
//! request's allowed locality level, and under the Capacity Scheduler any missed scheduling
//! opportunity that counts toward a locality delay not yet run out (node-locality-delay, the
//! off-switch wait; `capacity::locality::opportunities_to_open`): such an offer opens a level
//! to a later one, while past the delays an offer changes nothing that is read. The first tick that sees this with no progress since
//! starts a watch; when a later tick at least one heartbeat
//! interval after it sees no progress either, every node has been offered to every app with
//! those fixed inputs and nothing came of it, so nothing ever will. With `end_ms` the run
//! still ends at `end_ms` with `stalled_at` recording when it stalled, but the update ticks and
//! heartbeats stop there: they could change nothing (YARN's keep coming), and a far `end_ms`
//! would otherwise cost millions of idle events. Samples still come, and the time integrals
//! are exact between events, so every output is the one the idle events would have given.
//! When the run is found stalled, its unfinished apps are classified once
//! (`scheduler::explain::stall`): `RunSummary::stall_diagnosis` says what each group waits for.
//!
//! # Cycles
//!
//! Progress that undoes itself (a container killed by preemption before it ends and asked
//! for again, reservations made and released) can go on forever with every app arrived and
//! none finishing. At an update tick after a whole tick interval of decisions with no
//! arrival and no completion, the engine compares its whole state, relative to now, with
//! the states seen since the last arrival or completion (`cycle`). An equal one means the run
//! repeats from then on and no app can ever finish: the run stops at once, with or without
//! `end_ms`, `stalled_at` now and [`RunSummary::cycle_from`] the time of the earlier state.

pub(crate) mod cycle;
pub(crate) mod idle_ticks;
pub mod submission_check;
mod warm_start;

// The event queue and heartbeat clock keep their paths under the engine.
pub use crate::events::{event, event_key, heartbeat, radix_queue};

use crate::app::AppPhase;
use crate::cluster::Cluster;
use crate::event::{Event, EventKey, EventQueue};
use crate::heartbeat::HeartbeatClock;
use crate::metrics::{AppOutcome, Integrals, RunSummary, app_metrics, metric_name};
use crate::recorder::{QueueSample, Recorder};
use crate::scenario::{Ordering, Scenario};
use crate::time::SimTime;
use crate::tree::QueueId;
use fairsim_core::{Resource, Schedulable};
use std::collections::BTreeMap;

pub use crate::events::ctx::Counters;
pub(crate) use crate::events::ctx::Ctx;
use crate::scheduler::{Sched, Scheduler};
pub(crate) use crate::state::world::{AppState, QueueState, World, java_ranks};

/// Errors of a run.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The scenario cannot run (e.g. an empty cluster).
    #[error("invalid scenario: {0}")]
    Invalid(String),
    /// The recorder failed to write its outputs.
    #[error(transparent)]
    Recorder(#[from] crate::recorder::RecorderError),
    /// An internal invariant broke (only checked with `check_invariants`).
    #[error("invariant violated at {time}: {message}")]
    Invariant {
        /// When.
        time: SimTime,
        /// What.
        message: String,
    },
}

/// The whole state of one run.
pub struct Simulation<'a> {
    /// The state the schedulers share with the engine.
    pub(crate) w: World<'a>,
    /// The run's clock, events and outputs, lent to the scheduler with the world.
    pub(crate) cx: Ctx<'a>,
    /// The schedulers' own state, lent to them with the world and the context.
    pub(crate) scheduler: Scheduler,
    /// Quiescence watch: the first update tick after the last progress, and the progress then.
    pub(crate) quiet: Option<(SimTime, u64)>,
    /// The quiescence test is off ([`Simulation::watch_stalls`]).
    pub(crate) stalls_off: bool,
    /// Every update tick is processed, idle or not ([`Simulation::skip_idle_ticks`]).
    pub(crate) idle_ticks_kept: bool,
    /// When stalled by a cycle: the time of the earlier, equal state (see "Cycles").
    pub(crate) cycle_from: Option<SimTime>,
    /// Containers that completed (not killed).
    pub(crate) completions: u64,
    /// Repeated states (see "Cycles").
    pub(crate) cycle: crate::cycle::CycleWatch,
    /// `queues.csv` rows written so far, and why the run was stopped when its next sample
    /// would pass [`crate::limits::MAX_QUEUE_ROWS`] (a run without `end_ms` is bounded only
    /// as it goes).
    pub(crate) queue_rows: u64,
    pub(crate) over_limit: Option<String>,
    /// What the unfinished apps wait for, found once when the run stalls.
    pub(crate) stall: Option<Vec<crate::explain::StallGroup>>,
}

/// The nodes `[[cluster.events]]` add, with their join times.
fn joining_nodes(sc: &Scenario) -> Vec<(crate::topology::NodeSpec, u64)> {
    let ev = &sc.cluster.events;
    let first = sc.cluster.node_specs().len();
    let mut out: Vec<(crate::topology::NodeSpec, u64)> =
        ev.added.iter().map(|s| (s.clone(), 0)).collect();
    for e in &ev.events {
        if e.kind == crate::topology::events::NodeEventKind::Add {
            for &n in &e.nodes {
                out[n as usize - first].1 = e.at_ms;
            }
        }
    }
    out
}

/// Runs `scenario` with base `seed` and `run_index`, pushing results into `recorder`.
pub fn run(
    scenario: &Scenario,
    seed: u64,
    run_index: u64,
    recorder: &mut dyn Recorder,
) -> Result<RunSummary, SimError> {
    let mut sim = Simulation::new(scenario, seed, run_index, recorder)?;
    sim.run_to_end()
}

/// [`run`], calling `progress(now, horizon)` every few hundred thousand events: simulated
/// time so far against `end_ms`, or the last arrival when the run has no end time (a run
/// goes on past it until its apps finish). For a progress bar; results are the same.
pub fn run_with_progress(
    scenario: &Scenario,
    seed: u64,
    run_index: u64,
    recorder: &mut dyn Recorder,
    progress: &mut dyn FnMut(SimTime, SimTime),
) -> Result<RunSummary, SimError> {
    let mut sim = Simulation::new(scenario, seed, run_index, recorder)?;
    sim.run_observed(progress)
}

impl<'a> Simulation<'a> {
    /// Builds the initial state: cluster, queues, apps (synthetic ones drawn from the seed
    /// alone; `run_index` is for the scheduler's own randomness, which has none today), and
    /// the first events.
    pub fn new(
        sc: &'a Scenario,
        seed: u64,
        _run_index: u64,
        recorder: &'a mut dyn Recorder,
    ) -> Result<Simulation<'a>, SimError> {
        let conf = &sc.scheduler;
        if sc.tree.is_empty() {
            return Err(SimError::Invalid("the queue tree has no root".into()));
        }
        let joining = joining_nodes(sc);
        let cluster = Cluster::with_joining(&sc.cluster.node_specs(), &joining, conf.heartbeat_ms);
        if cluster.nodes.is_empty() {
            return Err(SimError::Invalid("the cluster has no node".into()));
        }
        // The seed alone: every sweep point replays the same workload per seed.
        let specs = sc.workload.apps(seed).map_err(SimError::Invalid)?;
        if let Some(why) = rows_to_last_arrival(sc, &specs) {
            return Err(SimError::Invalid(why));
        }
        let scheduler = Scheduler::new(sc, &cluster);
        let mut sim = Simulation {
            w: World {
                sc,
                semantics: conf.semantics,
                cluster,
                tree: sc.tree.clone(),
                specs,
                apps: Vec::new(),
                app_fair_shares: Vec::new(),
                app_weights: Vec::new(),
                queues: Vec::new(),
                users: Vec::new(),
                user_index: BTreeMap::new(),
                containers: Vec::new(),
                free_slots: Vec::new(),
                largest_node: Resource::ZERO,
                integrals: Integrals::default(),
                incremental: conf.ordering == Ordering::Incremental,
                next_container_id: 1,
                dirty_apps: Vec::new(),
                metered: Default::default(),
                queue_ids: BTreeMap::new(),
                unknown_hints: Default::default(),
                any_hints: false,
            },
            cx: Ctx {
                now: SimTime::ZERO,
                current: EventKey {
                    time: SimTime::ZERO,
                    rank: 0,
                    tie: 0,
                    seq: 0,
                },
                events: EventQueue::new(),
                recorder,
                counters: Counters::default(),
                elide: conf.heartbeats == crate::scenario::Heartbeats::Elided,
                node_events_left: sc.cluster.events.events.len(),
                n_closed: 0,
                recorded: Vec::new(),
                first_arrival: None,
                last_finish: SimTime::ZERO,
                in_flight: 0,
                n_arrived: 0,
                progress: 0,
                stalled_at: None,
                explain: None,
            },
            quiet: None,
            stalls_off: false,
            idle_ticks_kept: false,
            cycle_from: None,
            completions: 0,
            cycle: Default::default(),
            queue_rows: 0,
            over_limit: None,
            stall: None,
            scheduler,
        };
        sim.init_queues()?;
        sim.init_apps();
        if sc.explain {
            sim.explain(true);
        }
        sim.sched().start_preemption();
        sim.w.largest_node = sim.w.cluster.largest_node().unwrap_or(Resource::ZERO);
        sim.w.integrals.set_capacity(sim.w.cluster.total);
        let arrivals = sim
            .w
            .specs
            .iter()
            .enumerate()
            .map(|(i, a)| (a.arrival, i as u32))
            .collect();
        sim.cx.events = EventQueue::with_sources(arrivals, HeartbeatClock::new(&sim.w.cluster));
        sim.cx.events.push(SimTime::ZERO, Event::UpdateTick);
        sim.sched().start_passes().map_err(SimError::Invalid)?;
        if sc.sample_interval_ms > 0 && sim.cx.recorder.wants_samples() {
            sim.cx.events.push(SimTime::ZERO, Event::Sample);
        }
        if let Some(end) = sc.end_ms {
            sim.cx.events.push(SimTime(end), Event::End);
        }
        for (i, e) in sc.cluster.events.events.iter().enumerate() {
            sim.cx
                .events
                .push(SimTime(e.at_ms), Event::NodeChange { event: i as u32 });
        }
        warm_start::apply(&mut sim)?;
        Ok(sim)
    }

    /// The scheduler at work, lent the world and the context.
    #[inline]
    pub(crate) fn sched(&mut self) -> Sched<'_, 'a> {
        self.scheduler
            .lend(&mut self.w, &mut self.cx, !self.cycle.off)
    }

    fn init_queues(&mut self) -> Result<(), SimError> {
        self.w.queues = (0..self.w.tree.len())
            .map(|i| self.w.new_queue_state(QueueId(i as u32)))
            .collect();
        self.w.queue_ids = (self.w.tree.queues.iter().enumerate())
            .map(|(i, q)| (q.name.clone(), QueueId(i as u32)))
            .collect();
        // The scheduler's own order and shares of the queues.
        self.sched().start().map_err(SimError::Invalid)
    }

    fn init_apps(&mut self) {
        let names: Vec<String> = (0..self.w.specs.len())
            .map(|i| format!("application_0_{:04}", i + 1))
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let ranks = java_ranks(&refs);
        // Hadoop computes an app's weight from the demand the update thread last set, 0 until
        // its first update: with sizebasedweight log2(1 + 0) = 0 (a NaN ratio in 2.7, the
        // zero-weight rule in 3.3), times the booster of a new app.
        let first_weight = fairsim_core::AppWeight {
            semantics: self.w.semantics,
            size_based: self.w.sc.scheduler.sizebasedweight,
            booster: self.w.sc.scheduler.booster,
        }
        .weight(0, 1, 0);
        self.w.apps = Vec::with_capacity(self.w.specs.len());
        self.cx.recorded = vec![false; self.w.specs.len()];
        let mut resolver = crate::host_hints::HintResolver::new(&self.w.cluster);
        for (i, name) in names.into_iter().enumerate() {
            let spec = &self.w.specs[i];
            // An app that names no host holds no hints at all (an empty list reads as "no
            // hosts" for every group): three allocations fewer per app, which a day of a
            // million synthetic apps pays up front.
            let hints = if spec.stages.iter().flatten().all(|g| g.hosts.is_empty()) {
                Vec::new()
            } else {
                spec.stages
                    .iter()
                    .map(|s| s.iter().map(|g| resolver.resolve(&g.hosts)).collect())
                    .collect()
            };
            self.w.any_hints |= !hints.is_empty();
            let mut sched = Schedulable::new(name);
            sched.start_time_ms = spec.arrival.0 as i64;
            sched.weight = first_weight;
            self.w.apps.push(AppState::new(sched, ranks[i], hints));
            self.w.app_fair_shares.push(Resource::ZERO);
            self.w.app_weights.push(first_weight);
        }
        self.w.unknown_hints = resolver.into_unknown();
    }

    /// Processes events until the end; returns the summary after the recorder finished.
    pub fn run_to_end(&mut self) -> Result<RunSummary, SimError> {
        self.run_observed(&mut |_, _| {})
    }

    /// The simulated time a run is expected to reach: `end_ms`, or the last arrival.
    pub fn horizon(&self) -> SimTime {
        match self.w.sc.end_ms {
            Some(end) => SimTime(end),
            None => self
                .w
                .specs
                .iter()
                .map(|a| a.arrival)
                .max()
                .unwrap_or(SimTime::ZERO),
        }
    }

    /// [`Simulation::run_to_end`], reporting progress (see [`run_with_progress`]).
    pub fn run_observed(
        &mut self,
        progress: &mut dyn FnMut(SimTime, SimTime),
    ) -> Result<RunSummary, SimError> {
        self.process(progress, u64::MAX)?;
        self.finish()
    }

    /// Whether the run stops at a repeated state (on by default; see "Cycles"). Tests turn
    /// it off to check that a run it stopped would indeed have gone on forever.
    pub fn watch_cycles(&mut self, on: bool) {
        self.cycle.off = !on;
    }

    /// Whether every app's wait is attributed to causes (`scheduler::explain`; the
    /// scenario's `[outputs] explain`): the recorder gets [`crate::explain::ExplainReport`]
    /// before the summary. Call before the run starts.
    pub fn explain(&mut self, on: bool) {
        self.cx.explain = on.then(|| Box::new(crate::explain::WaitBook::new(self.w.apps.len())));
        if on {
            // The apps a warm start submitted are looked at with the first event.
            for i in 0..self.w.apps.len() {
                if self.w.apps[i].phase != AppPhase::Future {
                    self.sched().explain_touch(i as u32);
                }
            }
        }
    }

    /// Whether the quiescence test runs (on by default; see "Quiescence"). Tests turn it off
    /// to check that nothing changes after a time the test found the run stalled: the run
    /// then goes on, beating and ticking, until its apps finish or `end_ms`.
    pub fn watch_stalls(&mut self, on: bool) {
        self.stalls_off = !on;
    }

    /// Whether update ticks that can change nothing are jumped over (on by default; see
    /// "Idle update ticks"). Tests turn it off to compare every output with the run that
    /// processes every tick.
    pub fn skip_idle_ticks(&mut self, on: bool) {
        self.idle_ticks_kept = !on;
    }

    /// Tests: compute apps' fair shares at every tick (`true`), as before they were computed
    /// on demand, to compare the two.
    #[doc(hidden)]
    pub fn app_shares_every_tick(&mut self, on: bool) {
        self.sched().app_shares_every_tick(on);
    }

    /// Tests: every app's delay-scheduling state, per priority its missed scheduling
    /// opportunities and allowed locality level, to compare runs.
    #[doc(hidden)]
    pub fn delay_state(&self) -> Vec<Vec<(i32, u32, Option<crate::app::Locality>)>> {
        self.w
            .apps
            .iter()
            .map(|a| {
                let by_priority = a.requests.by_priority.iter();
                by_priority
                    .map(|p| (p.priority, p.opportunities, p.allowed))
                    .collect()
            })
            .collect()
    }

    /// Processes at most `max_events` events: the summary when the run ended within them,
    /// `None` (and no call to the recorder's `apps` or `finish`) when it did not. For tests
    /// that prove every run ends within a bound.
    pub fn run_capped(&mut self, max_events: u64) -> Result<Option<RunSummary>, SimError> {
        if self.process(&mut |_, _| {}, max_events)? {
            self.finish().map(Some)
        } else {
            Ok(None)
        }
    }

    /// The event loop: true when the run ended, false when `max_events` came first.
    fn process(
        &mut self,
        progress: &mut dyn FnMut(SimTime, SimTime),
        max_events: u64,
    ) -> Result<bool, SimError> {
        // A power of two: one mask test per event.
        const EVERY: u64 = 1 << 18;
        let horizon = self.horizon();
        // The completion last read ahead: between two completions come many beats, and
        // prefetching the same slot again at each of them only costs. Nor is the queue read
        // again while it has not changed (most beats push and pop nothing in it).
        let mut prefetched = u32::MAX;
        let mut read_at = None;
        loop {
            if self.cx.counters.events & (EVERY - 1) == 0 {
                progress(self.cx.now, horizon);
            }
            if self.cx.counters.events >= max_events {
                return Ok(false);
            }
            // A stalled run beats no more (see "Quiescence").
            let every_node = self.every_node_beats();
            // A skipped beat changes nothing the test reads: the next pop sees the same state.
            let mut skipped = false;
            let popped = loop {
                match self.cx.events.pop(every_node) {
                    Some((_, Event::NodeHeartbeat { node }))
                        if self.sched().beat_changes_nothing(node) =>
                    {
                        self.cx.counters.full_beats_skipped += 1;
                        skipped = true;
                    }
                    p => break p,
                }
            };
            // Their missed scheduling opportunities, before anything can read them.
            if skipped {
                self.sched().count_skipped_offers();
            }
            let Some((key, event)) = popped else {
                break;
            };
            // A completion's container slot and app were last written minutes of simulated
            // time ago and are cold: fetching the next ones while this event runs hides most
            // of those misses.
            let version = Some(self.cx.events.queued_version());
            if read_at != version
                && let Some(Event::ContainerFinished { container, app }) =
                    self.cx.events.next_queued()
                && container != prefetched
            {
                prefetched = container;
                prefetch_index::prefetch_index(&self.w.containers, container as usize);
                prefetch_index::prefetch_index(&self.w.apps, app as usize);
                prefetch_index::prefetch_index(&self.w.specs, app as usize);
            }
            read_at = version;
            self.cx.now = key.time;
            self.cx.current = key;
            self.cx.counters.events += 1;
            let tick = matches!(event, Event::UpdateTick);
            let stop = self.step(event);
            self.sched().after_event();
            if self.cx.explain.is_some() {
                self.sched().explain_after_event(tick);
            }
            if self.cx.stalled_at.is_some() {
                self.cx.events.clock_mut().stalled_at(key);
                if self.stall.is_none() {
                    self.stall = Some(self.sched().stall_diagnosis());
                }
            }
            if self.w.sc.check_invariants {
                self.check_invariants()?;
            }
            if stop {
                break;
            }
        }
        progress(self.cx.now, horizon);
        if let Some(why) = self.over_limit.take() {
            return Err(SimError::Invalid(why));
        }
        Ok(true)
    }

    /// Why the sample due now may not be written: its rows would pass the limit of a run's
    /// `queues.csv` (checked in advance from `end_ms` or a trace's last arrival, and here as
    /// the run goes, for runs whose end only the simulation finds).
    fn rows_over_limit(&mut self) -> Option<String> {
        let rows = self.queue_rows.saturating_add(self.w.queues.len() as u64);
        if rows <= crate::limits::MAX_QUEUE_ROWS {
            self.queue_rows = rows;
            return None;
        }
        let file = self
            .w
            .sc
            .path
            .as_ref()
            .map_or(String::new(), |p| format!("{}: ", p.display()));
        Some(format!(
            "{file}outputs.sample_interval_ms: the sample at {} ms would write queues.csv row {} \
             ({} queues every {} ms): the limit is {} million rows (docs/limits.md); set \
             end_ms or a longer sample interval",
            self.cx.now.0,
            rows,
            self.w.queues.len(),
            self.w.sc.sample_interval_ms,
            crate::limits::MAX_QUEUE_ROWS / 1_000_000
        ))
    }

    /// Handles one event; true when the run must stop.
    fn step(&mut self, event: Event) -> bool {
        match event {
            Event::ContainerFinished { container, .. } => {
                self.cx.in_flight -= 1;
                // A killed container's completion may still be queued: its slot is dead.
                if self.w.containers[container as usize].live {
                    self.cx.progress += 1;
                    self.completions += 1;
                    self.sched().on_completion(container);
                }
            }
            Event::ContainerKilled { container, id } => {
                let c = self.w.containers[container as usize];
                if c.live && c.id == id {
                    self.cx.progress += 1;
                    self.sched().kill_container(container);
                }
            }
            Event::NodeChange { event } => self.sched().on_node_event(event),
            Event::AppArrived { app } => {
                self.cx.n_arrived += 1;
                self.cx.progress += 1;
                self.sched().on_app_arrived(app);
            }
            Event::UpdateTick => {
                self.sched().on_update();
                if self.stalled() {
                    self.cx.stalled_at.get_or_insert(self.cx.now);
                    if self.w.sc.end_ms.is_none() {
                        return true;
                    }
                }
                // A state seen before, with nothing finished since: it repeats forever.
                if self.cx.stalled_at.is_none() {
                    match self.repeats() {
                        Some(crate::cycle::Repeat::Cycle(from)) => {
                            self.cx.stalled_at = Some(self.cx.now);
                            self.cycle_from = Some(from);
                            return true;
                        }
                        Some(crate::cycle::Repeat::Frozen) => {
                            self.cx.stalled_at = Some(self.cx.now);
                            if self.w.sc.end_ms.is_none() {
                                return true;
                            }
                        }
                        None => {}
                    }
                }
                // Once stalled nothing can change: the update thread and the heartbeats
                // stop, and only samples and the end remain (see "Quiescence").
                if !self.drained() && self.cx.stalled_at.is_none() {
                    let next = self.next_tick();
                    self.cx.events.push(next, Event::UpdateTick);
                }
            }
            Event::NodeHeartbeat { node } if self.cx.stalled_at.is_none() => {
                self.sched().on_heartbeat(node)
            }
            Event::NodeHeartbeat { node } => self.cx.events.clock_mut().disarm(node),
            Event::ContinuousPass => self.sched().continuous_pass(),
            Event::AmHeartbeat { app, stage } => self.sched().on_am_heartbeat(app, stage),
            Event::Sample => {
                if let Some(why) = self.rows_over_limit() {
                    self.over_limit = Some(why);
                    return true;
                }
                self.sample();
                if !self.drained() {
                    let next = self.cx.now.plus(self.w.sc.sample_interval_ms);
                    self.cx.events.push(next, Event::Sample);
                }
            }
            Event::End => return true,
        }
        if self.drained() && self.w.sc.end_ms.is_none() {
            return true;
        }
        false
    }

    /// Every app arrived and finished (or was rejected).
    pub(crate) fn drained(&self) -> bool {
        self.cx.n_closed == self.w.apps.len()
    }

    /// Whether every node's heartbeat is due next, or only armed nodes' (see "Heartbeat
    /// elision"). A stalled run beats no more (see "Quiescence").
    #[inline]
    pub(crate) fn every_node_beats(&mut self) -> bool {
        self.cx.stalled_at.is_none() && (!self.cx.elide || self.sched().offers_may_act())
    }

    /// Called at each update tick: true when apps are unfinished and no future event can
    /// change anything (see "Quiescence" in the module docs).
    fn stalled(&mut self) -> bool {
        if self.stalls_off
            || self.drained()
            || self.cx.in_flight > 0
            || self.cx.n_arrived < self.w.apps.len()
            || self.cx.node_events_left > 0
            || !self.sched().delay_settled()
        {
            self.quiet = None;
            return false;
        }
        match self.quiet {
            Some((since, progress)) if progress == self.cx.progress => {
                self.cx.now.since(since) >= self.sched().offer_window_ms()
            }
            _ => {
                self.quiet = Some((self.cx.now, self.cx.progress));
                false
            }
        }
    }

    fn sample(&mut self) {
        let shares: Vec<Resource> = {
            let sched = self.sched();
            (0..sched.w.queues.len())
                .map(|i| sched.fair_share_of(QueueId(i as u32)))
                .collect()
        };
        let rows: Vec<QueueSample> = self
            .w
            .queues
            .iter()
            .enumerate()
            .map(|(i, q)| QueueSample {
                queue: self.w.tree.queues[i].name.clone(),
                usage: q.usage,
                demand: q.demand,
                min_share: q.min_share,
                steady_fair_share: q.steady_share,
                fair_share: shares[i],
                ideal_share: q.ideal_share,
                running_apps: q.runnable,
                pending_apps: q.waiting,
            })
            .collect();
        self.cx.recorder.queue_samples(self.cx.now, &rows);
    }

    /// The outcome of every app in the run for the summary, its queue a position in `leaves`
    /// (see [`AppOutcome`]). An app not submitted by the end is not in the run.
    fn app_outcomes(&self, leaves: &[&str]) -> Vec<AppOutcome> {
        let position: BTreeMap<&str, u32> = leaves
            .iter()
            .enumerate()
            .map(|(i, q)| (*q, i as u32))
            .collect();
        (0..self.w.apps.len())
            .filter(|&i| self.w.apps[i].phase != AppPhase::Future)
            .map(|i| {
                let (a, spec) = (&self.w.apps[i], &self.w.specs[i]);
                AppOutcome {
                    leaf: position.get(self.w.record_queue(i)).copied(),
                    arrival: spec.arrival,
                    first_container: a.first_container,
                    finish: a.finish,
                    alone_ms: spec.alone_ms(),
                    rejected: a.rejected.is_some(),
                    recorded_runtime_ms: spec.recorded.map(|r| r.runtime_ms()),
                }
            })
            .collect()
    }

    fn finish(&mut self) -> Result<RunSummary, SimError> {
        // The integrals run to the last event (they are advanced only where what they
        // integrate changes: `Integrals`).
        self.w.integrals.advance(self.cx.now.0);
        let leaves: Vec<QueueId> = (0..self.w.queues.len())
            .map(|i| QueueId(i as u32))
            .filter(|&q| self.w.tree.get(q).is_leaf)
            .collect();
        for &l in &leaves {
            self.sched().metrics_refresh_leaf(l);
        }
        // The apps still open get their records now, by index; an app not submitted by the
        // end is not in the run and has none.
        for i in 0..self.w.apps.len() {
            if !self.cx.recorded[i] && self.w.apps[i].phase != AppPhase::Future {
                self.cx.record_app(&self.w, i);
            }
        }
        let mut by_name: Vec<&QueueId> = leaves.iter().collect();
        by_name.sort_by(|a, b| self.w.tree.get(**a).name.cmp(&self.w.tree.get(**b).name));
        let leaf_names: Vec<&str> = by_name
            .iter()
            .map(|l| self.w.tree.get(**l).name.as_str())
            .collect();
        let outcomes = self.app_outcomes(&leaf_names);
        let mut m: Vec<(String, f64)> = Vec::new();
        let start = self.cx.first_arrival.unwrap_or(SimTime::ZERO);
        let ig = &self.w.integrals;
        let finished = outcomes.iter().filter(|r| r.finish.is_some()).count();
        let rejected = outcomes.iter().filter(|r| r.rejected).count();
        let makespan_ms = self.cx.last_finish.since(start);
        m.push(("apps".into(), outcomes.len() as f64));
        m.push(("apps_finished".into(), finished as f64));
        m.push(("apps_rejected".into(), rejected as f64));
        m.push((
            "apps_unfinished".into(),
            (outcomes.len() - finished - rejected) as f64,
        ));
        m.push((
            "apps_never_started".into(),
            outcomes.iter().filter(|r| r.never_started()).count() as f64,
        ));
        m.push((
            "stalled".into(),
            if self.cx.stalled_at.is_some() {
                1.0
            } else {
                0.0
            },
        ));
        m.push(("sim_time_s".into(), self.cx.now.secs_f64()));
        m.push(("makespan_s".into(), makespan_ms as f64 / 1000.0));
        m.push((
            "throughput_apps_per_hour".into(),
            if makespan_ms > 0 {
                finished as f64 * 3_600_000.0 / makespan_ms as f64
            } else {
                0.0
            },
        ));
        // Over the capacity integrated in time (nodes join and leave). Without node events
        // it is the constant capacity times the time: the same correctly rounded quotient as
        // capacity × window. A run of no time divides by the capacity alone.
        let over_capacity = |used: i128, cap_ms: i128, cap_now: i64| {
            let cap = if self.cx.now.0 == 0 {
                cap_now as f64
            } else {
                cap_ms as f64
            };
            if cap > 0.0 { used as f64 / cap } else { 0.0 }
        };
        m.push((
            "util_memory".into(),
            over_capacity(ig.mem_ms, ig.capacity_mem_ms, ig.capacity.memory_mb),
        ));
        m.push((
            "util_vcores".into(),
            over_capacity(ig.vcore_ms, ig.capacity_vcore_ms, ig.capacity.vcores),
        ));
        m.push((
            "jain_index".into(),
            if ig.active_ms > 0 {
                ig.jain_total_ms() / ig.active_ms as f64
            } else {
                1.0
            },
        ));
        m.push((
            "deviation_mean".into(),
            over_capacity(ig.dev_ms, ig.capacity_mem_ms, ig.capacity.memory_mb),
        ));
        m.push((
            "deviation_max".into(),
            if ig.capacity_max_mb > 0 {
                ig.dev_max / ig.capacity_max_mb as f64
            } else {
                0.0
            },
        ));
        m.push(("containers".into(), self.cx.counters.assignments as f64));
        m.push(("reservations".into(), self.cx.counters.reservations as f64));
        m.push((
            "preempted_containers".into(),
            self.cx.counters.preempted as f64,
        ));
        m.push((
            "lost_container_s".into(),
            self.w.apps.iter().map(|a| a.lost_work_ms).sum::<u64>() as f64 / 1000.0,
        ));
        m.push(("node_lost_containers".into(), self.cx.counters.lost as f64));
        // Preempted containers and lost work per leaf, in one pass over the apps.
        let mut lost_by_leaf = vec![(0u64, 0u64); self.w.queues.len()];
        for a in self.w.apps.iter().filter(|a| a.phase != AppPhase::Future) {
            let e = &mut lost_by_leaf[a.queue.idx()];
            *e = (e.0 + a.preempted, e.1 + a.lost_work_ms);
        }
        for &&l in &by_name {
            let name = &self.w.tree.get(l).name;
            let acc = &self.w.queues[l.idx()].acc;
            m.push((
                metric_name("starved_min_s", name),
                acc.starved_min_ms as f64 / 1000.0,
            ));
            m.push((
                metric_name("starved_min_episodes", name),
                acc.starved_min_episodes as f64,
            ));
            m.push((
                metric_name("starved_fair_s", name),
                acc.starved_fair_ms as f64 / 1000.0,
            ));
            let (n, lost) = lost_by_leaf[l.idx()];
            m.push((metric_name("preempted_containers", name), n as f64));
            m.push((metric_name("lost_container_s", name), lost as f64 / 1000.0));
            m.push((
                metric_name("share_deviation", name),
                over_capacity(acc.dev_ms, ig.capacity_mem_ms, ig.capacity.memory_mb),
            ));
            m.push((
                metric_name("am_limit_blocks", name),
                acc.am_limit_blocks as f64,
            ));
            let mut reached: Vec<f64> = acc
                .min_share_reached_ms
                .iter()
                .map(|&ms| ms as f64 / 1000.0)
                .collect();
            // An episode still open at the end counts with the time waited so far.
            if acc.starved_min && self.cx.now.0 > acc.starved_min_since {
                reached.push((self.cx.now.0 - acc.starved_min_since) as f64 / 1000.0);
            }
            // Every run reports the same metrics (sweeps need it): a queue that never fell
            // below its min share waited 0 s.
            let reached = if reached.is_empty() {
                vec![0.0]
            } else {
                reached
            };
            crate::metrics::push_percentiles(&mut m, "min_share_reached_s", Some(name), reached);
        }
        app_metrics(&mut m, &outcomes, self.cx.now, &leaf_names);
        crate::metrics::runtime_ratio_metrics(&mut m, &outcomes);
        if let Some(mut book) = self.cx.explain.take() {
            book.close_all(self.cx.now.0);
            let report = crate::scheduler::explain::report(&self.w, &book, self.cx.now.0);
            report.push_wait_cause_metrics(&mut m);
            self.cx.recorder.explain(&report);
        }
        let summary = RunSummary {
            stall_diagnosis: self.stall.take().unwrap_or_default(),
            metrics: m,
            events: self.cx.counters.events,
            assignments: self.cx.counters.assignments,
            end: self.cx.now,
            stalled_at: self.cx.stalled_at,
            cycle_from: self.cycle_from,
            apps_not_arrived: (self.w.apps.len() - self.cx.n_arrived) as u64,
        };
        self.cx.recorder.finish(&summary)?;
        Ok(summary)
    }

    /// The run's counters so far.
    pub fn counters(&self) -> Counters {
        let due = self.cx.events.clock().beats_due(self.cx.current);
        Counters {
            heartbeats_elided: due.saturating_sub(self.cx.counters.heartbeats),
            ..self.cx.counters
        }
    }

    /// Checks: no node over capacity, node allocation = Σ its containers, queue usage = Σ
    /// its apps' containers, app usage = Σ its containers.
    pub fn check_invariants(&mut self) -> Result<(), SimError> {
        let now = self.cx.now;
        let fail = |message: String| SimError::Invariant { time: now, message };
        let mut node_sum = vec![Resource::ZERO; self.w.cluster.nodes.len()];
        let mut app_sum = vec![Resource::ZERO; self.w.apps.len()];
        for c in self.w.containers.iter().filter(|c| c.live) {
            node_sum[c.node as usize] = node_sum[c.node as usize].saturating_add(c.size);
            app_sum[c.app as usize] = app_sum[c.app as usize].saturating_add(c.size);
        }
        let node_fit = self.sched().container_fit();
        for (i, n) in self.w.cluster.nodes.iter().enumerate() {
            if !node_fit.fits_in(n.allocated, n.capacity) {
                return Err(fail(format!("node {i} over capacity: {:?}", n.allocated)));
            }
            if n.allocated != node_sum[i] {
                return Err(fail(format!("node {i} allocation != its containers")));
            }
        }
        let mut q_sum = vec![Resource::ZERO; self.w.queues.len()];
        for (i, a) in self.w.apps.iter().enumerate() {
            if a.usage != app_sum[i] {
                return Err(fail(format!("app {i} usage != its containers")));
            }
            let mut q = Some(a.queue);
            if matches!(a.phase, AppPhase::Future | AppPhase::Rejected) {
                continue;
            }
            while let Some(id) = q {
                q_sum[id.idx()] = q_sum[id.idx()].saturating_add(a.usage);
                q = self.w.tree.get(id).parent;
            }
        }
        for (i, q) in self.w.queues.iter().enumerate() {
            if q.usage != q_sum[i] {
                return Err(fail(format!(
                    "queue {} usage {:?} != containers {:?}",
                    self.w.tree.queues[i].name, q.usage, q_sum[i]
                )));
            }
        }
        // What the scheduler keeps beside the world.
        self.sched().check_invariants().map_err(fail)
    }
}

/// Why a run without `end_ms` is refused before it starts: sampling every queue up to the
/// last arrival of its drawn workload (a synthetic or SYNTH workload, whose arrivals exist
/// only once drawn; a trace's are checked when the scenario is read) would pass
/// [`crate::limits::MAX_QUEUE_ROWS`] `queues.csv` rows. The run writes at least that many.
fn rows_to_last_arrival(sc: &Scenario, specs: &[crate::app::AppSpec]) -> Option<String> {
    if sc.end_ms.is_some() || sc.sample_interval_ms == 0 {
        return None;
    }
    let last = specs.iter().map(|a| a.arrival.0).max()?;
    let rows = (last / sc.sample_interval_ms + 1).saturating_mul(sc.tree.len() as u64);
    if rows <= crate::limits::MAX_QUEUE_ROWS {
        return None;
    }
    let file = sc
        .path
        .as_ref()
        .map_or(String::new(), |p| format!("{}: ", p.display()));
    Some(format!(
        "{file}outputs.sample_interval_ms: the workload drawn for this seed has its last arrival \
         at {last} ms, so a run without end_ms would write at least {:.1} million queues.csv \
         rows ({} queues every {} ms): the limit is {} million (docs/limits.md); set end_ms or \
         a longer sample interval",
        rows as f64 / 1e6,
        sc.tree.len(),
        sc.sample_interval_ms,
        crate::limits::MAX_QUEUE_ROWS / 1_000_000
    ))
}
