//! The simulation: one [`Simulation`] owns the clock, the event queue, the cluster, the
//! queues and apps, and pushes results into a [`Recorder`]. [`run`] is the entry point.
//!
//! `step()` pops one event and makes one `match`; the Fair Scheduler's work lives in
//! `scheduler::fair` as methods on the same state (update thread, heartbeat assignment,
//! maxRunningApps enforcement).
//!
//! # Heartbeat elision
//!
//! Heartbeats come from a clock (`heartbeat`), not from queued events. A heartbeat of a node
//! holding no reservation and no resources kept for an app changes nothing when the
//! scheduler's own first check of a descent fails (`Simulation::offers_may_act`: for the
//! Fair Scheduler, the root queue has no outstanding request or is over its maxResources),
//! or, in Hadoop 2.7, when every leaf with an outstanding request is AM-blocked (each of its
//! pending apps waits for an AM that maxAMShare refuses: the descent returns nothing there
//! and changes nothing that is read; `Simulation::refresh_open`).
//! While that holds only *armed* nodes (reserved or holding resources for an app) beat;
//! when it stops holding, every node beats again from the first heartbeat after the current
//! event, exactly the heartbeat an unelided run would process next. Completed containers are
//! reported by their own events, which do not depend on heartbeats.
//! Besides, in the Fair Scheduler a node reserved for a container that does not fit it is
//! *parked* while its heartbeats can change nothing, even when every other node beats, and
//! woken by whatever could change its outcome (`scheduler::fair::parking`). In Hadoop 3.3
//! the beat of an unarmed node whose free space fits no ask, while no app may reserve, is
//! skipped as it comes up (`scheduler::fair::full_nodes`).
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

pub(crate) mod bit_set;
pub(crate) mod cycle;
pub mod event;
pub mod event_key;
pub mod heartbeat;
pub(crate) mod idle_ticks;
pub mod radix_queue;

use crate::app::{AppPhase, AppRecord, AppSpec, RequestTable};
use crate::cluster::Cluster;
use crate::event::{Event, EventKey, EventQueue};
use crate::heartbeat::HeartbeatClock;
use crate::metrics::{AppOutcome, Integrals, LeafAcc, RunSummary, app_metrics};
use crate::recorder::{QueueSample, Recorder};
use crate::scenario::{Ordering, Scenario};
use crate::scheduler::fair::queue_shares::starved_fair;
use crate::time::SimTime;
use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Comparator, OrderKey, Resource, Schedulable, Semantics};
use std::collections::{BTreeMap, BTreeSet};

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

/// A running or finished container.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Container {
    pub app: u32,
    pub node: u32,
    pub size: Resource,
    pub is_am: bool,
    pub live: bool,
    /// Container id: allocation order, from 1 (larger is newer).
    pub id: u64,
    /// Request priority it was allocated at.
    pub priority: i32,
    /// When it started. Read only for the work a kill loses (an output): the cycle
    /// fingerprint leaves it out (see `cycle`).
    pub start: SimTime,
    /// Run time of its task (asked for again if the container is killed).
    pub duration_ms: u64,
    /// When preemption marked it (warned in 2.7, chosen in 3.x), if it did.
    pub marked_at: Option<u64>,
}

/// Per-queue scheduler state (Hadoop's `FSQueue` runtime fields).
#[derive(Debug, Clone)]
pub(crate) struct QueueState {
    pub usage: Resource,
    pub demand: Resource,
    pub fair_share: Resource,
    pub steady_share: Resource,
    pub ideal_share: Resource,
    pub min_share: Resource,
    pub max_share: Resource,
    pub am_usage: Resource,
    /// Runnable apps in the subtree.
    pub runnable: u32,
    /// Waiting (non-runnable) apps in the subtree.
    pub waiting: u32,
    pub max_running: u32,
    /// Outstanding containers of runnable apps in the subtree.
    pub pending: u64,
    /// Leaf: runnable apps in the order they became runnable (naive ordering sorts this).
    pub runnable_apps: Vec<u32>,
    /// Leaf: apps held back by maxRunningApps, by arrival.
    pub waiting_apps: Vec<u32>,
    pub sched: Schedulable,
    pub key: OrderKey,
    pub name_rank: u32,
    /// Comparator of this queue's policy (orders its children or apps).
    pub comparator: Comparator,
    /// Parent: children in the order Hadoop's list keeps them (naive ordering).
    pub child_list: Vec<u32>,
    /// Incremental ordering: children (parent) or pending runnable apps (leaf).
    pub ordered: BTreeSet<(OrderKey, u32, u32)>,
    /// Leaf, incremental ordering: pending runnable apps whose AM is not running yet (held
    /// apart so that a descent skips them all at once when maxAMShare blocks every one).
    pub am_waiting: BTreeSet<(OrderKey, u32, u32)>,
    /// Leaf: AM sizes of the apps in `am_waiting`, with counts.
    pub am_sizes: BTreeMap<(i64, i64), u32>,
    pub acc: LeafAcc,
    /// Leaf: the runnable apps' fair shares must be recomputed at the next update (the
    /// runnable set, a weight or the leaf's fair share changed).
    pub app_shares_dirty: bool,
    /// In `Simulation::app_share_leaves`.
    pub app_shares_listed: bool,
    /// Leaf: counted in `Simulation::open_leaves` (see `Simulation::refresh_open`).
    pub open: bool,
    /// Leaf: Σ demand of its runnable and waiting apps, as of the last update.
    pub app_demand: Resource,
    /// Leaf, Hadoop 3.3 Fair Scheduler: runnable apps with an outstanding request that its
    /// `fetchAppsWithDemand` keeps (see [`AppState::offered_33`]).
    pub offered: u32,
}

/// Per-app state (Hadoop's `FSAppAttempt`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct AppState {
    pub phase: AppPhase,
    pub queue: QueueId,
    pub user: u32,
    pub requests: RequestTable,
    pub usage: Resource,
    pub live: u32,
    pub am_running: bool,
    pub am_container: Option<u32>,
    pub stage: usize,
    pub stage_remaining: u64,
    pub first_container: Option<SimTime>,
    pub finish: Option<SimTime>,
    pub containers: u64,
    pub demand: Resource,
    pub fair_share: Resource,
    pub sched: Schedulable,
    pub key: OrderKey,
    pub name_rank: u32,
    pub in_set: bool,
    /// In its leaf's `am_waiting` set rather than `ordered` (when `in_set`).
    pub in_am_set: bool,
    /// Hadoop 3.3 Fair Scheduler: runnable with an outstanding request and a pending demand
    /// that is not none (`Simulation::has_pending_demand_33`), so its leaf's descent may give
    /// it a node; counted in its leaf's `offered`.
    pub offered_33: bool,
    pub rejected: Option<String>,
    /// Usage or requests changed since the last update (listed in `dirty_apps`).
    pub demand_dirty: bool,
    /// Resolved locality hints per stage and group; empty when the app names no host (and
    /// once it closed).
    pub hints: Vec<Vec<(Vec<u32>, Vec<u32>)>>,
    /// Containers of this app killed by preemption.
    pub preempted: u64,
    /// Work lost to preemption: Σ (kill − start) over its killed containers, ms.
    pub lost_work_ms: u64,
    /// Containers of this app lost with their node (or with its failed attempt).
    pub lost: u64,
    /// After its AM was lost: the failed attempt's asks, asked again when the next
    /// attempt's AM runs (`scheduler::node_events`).
    pub stash: Option<RequestTable>,
    /// A stage the app's AM timing asked for while its attempt had failed.
    pub deferred_stage: Option<usize>,
}

impl AppState {
    /// An app not yet arrived: in no queue, asking, holding and running nothing. `sched`
    /// carries its Hadoop name and start time, `name_rank` its place in name order, `hints`
    /// its resolved locality hints (empty when it names no host).
    pub(crate) fn new(
        sched: Schedulable,
        name_rank: u32,
        hints: Vec<Vec<(Vec<u32>, Vec<u32>)>>,
    ) -> AppState {
        AppState {
            phase: AppPhase::Future,
            queue: QueueId::ROOT,
            user: 0,
            requests: RequestTable::default(),
            usage: Resource::ZERO,
            live: 0,
            am_running: false,
            am_container: None,
            stage: 0,
            stage_remaining: 0,
            first_container: None,
            finish: None,
            containers: 0,
            demand: Resource::ZERO,
            fair_share: Resource::ZERO,
            sched,
            key: OrderKey::default(),
            name_rank,
            in_set: false,
            in_am_set: false,
            offered_33: false,
            rejected: None,
            demand_dirty: false,
            hints,
            preempted: 0,
            lost_work_ms: 0,
            lost: 0,
            stash: None,
            deferred_stage: None,
        }
    }
}

/// Per-user maxRunningApps state.
#[derive(Debug, Clone, Default)]
pub(crate) struct UserState {
    pub runnable: u32,
    pub max_running: u32,
    pub waiting: Vec<u32>,
}

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
}

/// The whole state of one run.
pub struct Simulation<'a> {
    pub(crate) sc: &'a Scenario,
    pub(crate) semantics: Semantics,
    pub(crate) now: SimTime,
    pub(crate) current: EventKey,
    pub(crate) events: EventQueue,
    pub(crate) cluster: Cluster,
    pub(crate) tree: QueueTree,
    pub(crate) specs: Vec<AppSpec>,
    pub(crate) apps: Vec<AppState>,
    pub(crate) queues: Vec<QueueState>,
    pub(crate) users: Vec<UserState>,
    pub(crate) user_index: BTreeMap<String, u32>,
    pub(crate) containers: Vec<Container>,
    pub(crate) free_slots: Vec<u32>,
    pub(crate) recorder: &'a mut dyn Recorder,
    pub(crate) counters: Counters,
    /// Elide heartbeats that cannot change anything (see "Heartbeat elision").
    pub(crate) elide: bool,
    /// Largest capability of a node in the cluster, per resource (follows node events).
    pub(crate) largest_node: Resource,
    /// `[[cluster.events]]` not processed yet (their events are queued).
    pub(crate) node_events_left: usize,
    pub(crate) n_closed: usize,
    /// Per app: its record went to the recorder (once per app: the streaming `apps.csv`
    /// writer cannot take a second row for an index it wrote).
    pub(crate) recorded: Vec<bool>,
    pub(crate) integrals: Integrals,
    pub(crate) incremental: bool,
    pub(crate) first_arrival: Option<SimTime>,
    pub(crate) last_finish: SimTime,
    /// Next container id.
    pub(crate) next_container_id: u64,
    /// Preemption state of the configured scheduler and era.
    pub(crate) preempt: crate::scheduler::preempt::PreemptState,
    /// The Capacity Scheduler's own state, when the tree is a capacity tree
    /// (`scheduler::capacity::CapacityState`).
    pub(crate) capacity: Option<crate::scheduler::capacity::CapacityState>,
    /// Task containers whose completion event is pending, and pending AM heartbeats: events
    /// that change state whatever the scheduler decides.
    pub(crate) in_flight: u64,
    /// Apps whose arrival has been processed.
    pub(crate) n_arrived: usize,
    /// Decisions, arrivals, completions and locality-level changes so far: anything that can
    /// change a later decision.
    pub(crate) progress: u64,
    /// Quiescence watch: the first update tick after the last progress, and the progress then.
    pub(crate) quiet: Option<(SimTime, u64)>,
    /// When the run was found stalled (see the module docs).
    pub(crate) stalled_at: Option<SimTime>,
    /// The quiescence test is off ([`Simulation::watch_stalls`]).
    pub(crate) stalls_off: bool,
    /// Every update tick is processed, idle or not ([`Simulation::skip_idle_ticks`]).
    pub(crate) idle_ticks_kept: bool,
    /// When stalled by a cycle: the time of the earlier, equal state (see "Cycles").
    pub(crate) cycle_from: Option<SimTime>,
    /// Apps whose demand must be recomputed at the next update.
    pub(crate) dirty_apps: Vec<u32>,
    /// Every queue's full name → its id (placement looks names up on every arrival).
    pub(crate) queue_ids: BTreeMap<String, QueueId>,
    /// Leaves counted in Jain's index (an ideal share above 0), ascending, with their
    /// terms: the metric sums are rebuilt over them alone.
    pub(crate) metered: crate::metrics::Metered,
    /// Containers that completed (not killed).
    pub(crate) completions: u64,
    /// Repeated states (see "Cycles").
    pub(crate) cycle: crate::cycle::CycleWatch,
    /// Hosts and racks the apps' hints name that no node has (their request indices follow
    /// the cluster's).
    pub(crate) unknown_hints: crate::host_hints::UnknownNames,
    /// `queues.csv` rows written so far, and why the run was stopped when its next sample
    /// would pass [`crate::limits::MAX_QUEUE_ROWS`] (a run without `end_ms` is bounded only
    /// as it goes).
    pub(crate) queue_rows: u64,
    pub(crate) over_limit: Option<String>,
    /// The Fair Scheduler's own state (`scheduler::fair::FairState`).
    pub(crate) fair: crate::scheduler::fair::FairState,
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

/// Java's `String.compareTo` order of `names`, as ranks.
pub(crate) fn java_ranks(names: &[&str]) -> Vec<u32> {
    let mut idx: Vec<usize> = (0..names.len()).collect();
    idx.sort_by(|&a, &b| {
        names[a]
            .encode_utf16()
            .cmp(names[b].encode_utf16())
            .then(a.cmp(&b))
    });
    let mut ranks = vec![0u32; names.len()];
    for (r, &i) in idx.iter().enumerate() {
        ranks[i] = r as u32;
    }
    ranks
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
        let n_nodes = cluster.nodes.len();
        let mut sim = Simulation {
            sc,
            semantics: conf.semantics,
            now: SimTime::ZERO,
            current: EventKey {
                time: SimTime::ZERO,
                rank: 0,
                tie: 0,
                seq: 0,
            },
            events: EventQueue::new(),
            cluster,
            tree: sc.tree.clone(),
            specs,
            apps: Vec::new(),
            queues: Vec::new(),
            users: Vec::new(),
            user_index: BTreeMap::new(),
            containers: Vec::new(),
            free_slots: Vec::new(),
            recorder,
            counters: Counters::default(),
            elide: conf.heartbeats == crate::scenario::Heartbeats::Elided,
            largest_node: Resource::ZERO,
            node_events_left: sc.cluster.events.events.len(),
            n_closed: 0,
            recorded: Vec::new(),
            integrals: Integrals::default(),
            incremental: conf.ordering == Ordering::Incremental,
            first_arrival: None,
            last_finish: SimTime::ZERO,
            next_container_id: 1,
            preempt: crate::scheduler::preempt::PreemptState::Off,
            capacity: None,
            in_flight: 0,
            n_arrived: 0,
            progress: 0,
            quiet: None,
            stalled_at: None,
            stalls_off: false,
            idle_ticks_kept: false,
            cycle_from: None,
            dirty_apps: Vec::new(),
            metered: Default::default(),
            queue_ids: BTreeMap::new(),
            completions: 0,
            cycle: Default::default(),
            unknown_hints: Default::default(),
            queue_rows: 0,
            over_limit: None,
            fair: crate::scheduler::fair::FairState {
                sorted_history: crate::scheduler::fair::sort_history::lists_keep_history(sc),
                tree_sets: crate::scheduler::fair::sort_history::descents_build_tree_sets(sc),
                held_for: vec![Vec::new(); n_nodes],
                ..Default::default()
            },
        };
        sim.init_queues();
        sim.init_apps();
        sim.init_preemption();
        sim.largest_node = sim.cluster.largest_node().unwrap_or(Resource::ZERO);
        sim.integrals.set_capacity(sim.cluster.total);
        let arrivals = sim
            .specs
            .iter()
            .enumerate()
            .map(|(i, a)| (a.arrival, i as u32))
            .collect();
        sim.events = EventQueue::with_sources(arrivals, HeartbeatClock::new(&sim.cluster));
        sim.events.push(SimTime::ZERO, Event::UpdateTick);
        if conf.continuous_scheduling {
            if sim.capacity.is_some() {
                return Err(SimError::Invalid(
                    "scheduler.continuous_scheduling is a Fair Scheduler setting; the allocation \
                     file is a capacity-scheduler.xml"
                        .into(),
                ));
            }
            sim.fair.continuous =
                Some(crate::scheduler::fair::continuous::Continuous::new(n_nodes));
            sim.events.push(SimTime::ZERO, Event::ContinuousPass);
        }
        if sc.sample_interval_ms > 0 && sim.recorder.wants_samples() {
            sim.events.push(SimTime::ZERO, Event::Sample);
        }
        if let Some(end) = sc.end_ms {
            sim.events.push(SimTime(end), Event::End);
        }
        for (i, e) in sc.cluster.events.events.iter().enumerate() {
            sim.events
                .push(SimTime(e.at_ms), Event::NodeChange { event: i as u32 });
        }
        Ok(sim)
    }

    /// A queue's initial state.
    pub(crate) fn new_queue_state(&self, q: QueueId) -> QueueState {
        let conf = self.tree.get(q);
        let cluster = self.cluster.total;
        let max_share = conf.max_share(cluster);
        let min_share = conf.min_resources.resolve(cluster);
        let mut sched = Schedulable::new(conf.name.clone());
        sched.weight = conf.weight;
        sched.min_share = min_share;
        sched.max_share = max_share;
        sched.active = false;
        QueueState {
            usage: Resource::ZERO,
            demand: Resource::ZERO,
            fair_share: Resource::ZERO,
            steady_share: Resource::ZERO,
            ideal_share: Resource::ZERO,
            min_share,
            max_share,
            am_usage: Resource::ZERO,
            runnable: 0,
            waiting: 0,
            max_running: conf.max_running_apps.unwrap_or(u32::MAX),
            pending: 0,
            runnable_apps: Vec::new(),
            waiting_apps: Vec::new(),
            sched,
            key: OrderKey::default(),
            name_rank: 0,
            comparator: Comparator::new(self.semantics, conf.policy, cluster),
            child_list: conf.children.iter().map(|c| c.0).collect(),
            ordered: BTreeSet::new(),
            am_waiting: BTreeSet::new(),
            am_sizes: BTreeMap::new(),
            acc: LeafAcc::default(),
            app_shares_dirty: false,
            app_shares_listed: false,
            open: false,
            offered: 0,
            app_demand: Resource::ZERO,
        }
    }

    fn init_queues(&mut self) {
        self.queues = (0..self.tree.len())
            .map(|i| self.new_queue_state(QueueId(i as u32)))
            .collect();
        self.queue_ids = (self.tree.queues.iter().enumerate())
            .map(|(i, q)| (q.name.clone(), QueueId(i as u32)))
            .collect();
        self.rerank_queues();
        self.compute_steady_shares();
    }

    /// Recomputes name ranks and rebuilds every parent's ordered set (after queues change).
    pub(crate) fn rerank_queues(&mut self) {
        self.reset_queue_shares();
        let names: Vec<&str> = self.tree.queues.iter().map(|q| q.name.as_str()).collect();
        let ranks = java_ranks(&names);
        for (i, (q, r)) in self.queues.iter_mut().zip(ranks).enumerate() {
            q.name_rank = r;
            if !self.tree.queues[i].is_leaf {
                q.ordered.clear();
            }
        }
        for i in 1..self.queues.len() {
            self.requeue(QueueId(i as u32));
        }
    }

    pub(crate) fn compute_steady_shares(&mut self) {
        let loads: Vec<crate::tree::QueueLoad> = (0..self.queues.len())
            .map(|_| crate::tree::QueueLoad {
                active: true,
                ..Default::default()
            })
            .collect();
        let steady = self.tree.fair_shares(
            self.semantics,
            fairsim_core::ShareKind::Steady,
            self.cluster.total,
            &loads,
            fairsim_core::ShareCap::MaxShare,
        );
        for (q, s) in self.queues.iter_mut().zip(steady) {
            q.steady_share = s;
        }
    }

    fn init_apps(&mut self) {
        let names: Vec<String> = (0..self.specs.len())
            .map(|i| format!("application_0_{:04}", i + 1))
            .collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let ranks = java_ranks(&refs);
        // Hadoop computes an app's weight from the demand the update thread last set, 0 until
        // its first update: with sizebasedweight log2(1 + 0) = 0 (a NaN ratio in 2.7, the
        // zero-weight rule in 3.3), times the booster of a new app.
        let first_weight = fairsim_core::AppWeight {
            semantics: self.semantics,
            size_based: self.sc.scheduler.sizebasedweight,
            booster: self.sc.scheduler.booster,
        }
        .weight(0, 1, 0);
        self.apps = Vec::with_capacity(self.specs.len());
        self.recorded = vec![false; self.specs.len()];
        let mut resolver = crate::host_hints::HintResolver::new(&self.cluster);
        for (i, name) in names.into_iter().enumerate() {
            let spec = &self.specs[i];
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
            let mut sched = Schedulable::new(name);
            sched.start_time_ms = spec.arrival.0 as i64;
            sched.weight = first_weight;
            self.apps.push(AppState::new(sched, ranks[i], hints));
        }
        self.unknown_hints = resolver.into_unknown();
    }

    /// Processes events until the end; returns the summary after the recorder finished.
    pub fn run_to_end(&mut self) -> Result<RunSummary, SimError> {
        self.run_observed(&mut |_, _| {})
    }

    /// The simulated time a run is expected to reach: `end_ms`, or the last arrival.
    pub fn horizon(&self) -> SimTime {
        match self.sc.end_ms {
            Some(end) => SimTime(end),
            None => self
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
        loop {
            if self.counters.events & (EVERY - 1) == 0 {
                progress(self.now, horizon);
            }
            if self.counters.events >= max_events {
                return Ok(false);
            }
            // A stalled run beats no more (see "Quiescence").
            let every_node = self.every_node_beats();
            // A skipped beat changes nothing: the next pop sees the same state.
            let popped = loop {
                match self.events.pop(every_node) {
                    Some((_, Event::NodeHeartbeat { node })) if self.beat_changes_nothing(node) => {
                        self.counters.full_beats_skipped += 1;
                    }
                    p => break p,
                }
            };
            let Some((key, event)) = popped else {
                break;
            };
            self.now = key.time;
            self.current = key;
            self.counters.events += 1;
            self.integrals.advance(self.now.0);
            let stop = self.step(event);
            self.fair.full_nodes.forget();
            self.settle_parked();
            if self.stalled_at.is_some() {
                self.events.clock_mut().stalled_at(key);
            }
            if self.sc.check_invariants {
                self.check_invariants()?;
            }
            if stop {
                break;
            }
        }
        progress(self.now, horizon);
        if let Some(why) = self.over_limit.take() {
            return Err(SimError::Invalid(why));
        }
        Ok(true)
    }

    /// Why the sample due now may not be written: its rows would pass the limit of a run's
    /// `queues.csv` (checked in advance from `end_ms` or a trace's last arrival, and here as
    /// the run goes, for runs whose end only the simulation finds).
    fn rows_over_limit(&mut self) -> Option<String> {
        let rows = self.queue_rows.saturating_add(self.queues.len() as u64);
        if rows <= crate::limits::MAX_QUEUE_ROWS {
            self.queue_rows = rows;
            return None;
        }
        let file = self
            .sc
            .path
            .as_ref()
            .map_or(String::new(), |p| format!("{}: ", p.display()));
        Some(format!(
            "{file}outputs.sample_interval_ms: the sample at {} ms would write queues.csv row {} \
             ({} queues every {} ms): the limit is {} million rows (docs/limits.md); set \
             end_ms or a longer sample interval",
            self.now.0,
            rows,
            self.queues.len(),
            self.sc.sample_interval_ms,
            crate::limits::MAX_QUEUE_ROWS / 1_000_000
        ))
    }

    /// Handles one event; true when the run must stop.
    fn step(&mut self, event: Event) -> bool {
        match event {
            Event::ContainerFinished { container } => {
                self.in_flight -= 1;
                // A killed container's completion may still be queued: its slot is dead.
                if self.containers[container as usize].live {
                    self.progress += 1;
                    self.note_completion(self.containers[container as usize].node);
                    self.completions += 1;
                    self.on_container_finished(container);
                }
            }
            Event::ContainerKilled { container, id } => {
                let c = self.containers[container as usize];
                if c.live && c.id == id {
                    self.progress += 1;
                    self.kill_container(container);
                }
            }
            Event::NodeChange { event } => self.on_node_event(event),
            Event::AppArrived { app } => {
                self.n_arrived += 1;
                self.progress += 1;
                self.on_app_arrived(app);
            }
            Event::UpdateTick => {
                self.before_update();
                self.update();
                self.after_update();
                if self.stalled() {
                    self.stalled_at.get_or_insert(self.now);
                    if self.sc.end_ms.is_none() {
                        return true;
                    }
                }
                // A state seen before, with nothing finished since: it repeats forever.
                if self.stalled_at.is_none() {
                    match self.repeats() {
                        Some(crate::cycle::Repeat::Cycle(from)) => {
                            self.stalled_at = Some(self.now);
                            self.cycle_from = Some(from);
                            return true;
                        }
                        Some(crate::cycle::Repeat::Frozen) => {
                            self.stalled_at = Some(self.now);
                            if self.sc.end_ms.is_none() {
                                return true;
                            }
                        }
                        None => {}
                    }
                }
                // Once stalled nothing can change: the update thread and the heartbeats
                // stop, and only samples and the end remain (see "Quiescence").
                if !self.drained() && self.stalled_at.is_none() {
                    let next = self.next_tick();
                    self.events.push(next, Event::UpdateTick);
                }
            }
            Event::NodeHeartbeat { node } if self.stalled_at.is_none() => self.on_heartbeat(node),
            Event::NodeHeartbeat { node } => self.events.clock_mut().disarm(node),
            Event::ContinuousPass => self.continuous_pass(),
            Event::AmHeartbeat { app, stage } => self.on_am_heartbeat(app, stage),
            Event::Sample => {
                if let Some(why) = self.rows_over_limit() {
                    self.over_limit = Some(why);
                    return true;
                }
                self.sample();
                if !self.drained() {
                    let next = self.now.plus(self.sc.sample_interval_ms);
                    self.events.push(next, Event::Sample);
                }
            }
            Event::End => return true,
        }
        if self.drained() && self.sc.end_ms.is_none() {
            return true;
        }
        false
    }

    /// Whether every node's heartbeat is due next, or only armed nodes' (see "Heartbeat
    /// elision"). A stalled run beats no more (see "Quiescence").
    pub(crate) fn every_node_beats(&self) -> bool {
        self.stalled_at.is_none() && (!self.elide || self.offers_may_act())
    }

    /// Every app arrived and finished (or was rejected).
    pub(crate) fn drained(&self) -> bool {
        self.n_closed == self.apps.len()
    }

    /// Called at each update tick: true when apps are unfinished and no future event can
    /// change anything (see "Quiescence" in the module docs).
    fn stalled(&mut self) -> bool {
        if self.stalls_off
            || self.drained()
            || self.in_flight > 0
            || self.n_arrived < self.apps.len()
            || self.node_events_left > 0
            || !self.delay_settled()
        {
            self.quiet = None;
            return false;
        }
        match self.quiet {
            Some((since, progress)) if progress == self.progress => {
                self.now.since(since) >= self.offer_window_ms()
            }
            _ => {
                self.quiet = Some((self.now, self.progress));
                false
            }
        }
    }

    /// No outstanding request can still change the path delay scheduling gives it.
    fn delay_settled(&self) -> bool {
        let conf = &self.sc.scheduler;
        let off = if self.continuous_on() {
            conf.locality_delay_node_ms < 0 || conf.locality_delay_rack_ms < 0
        } else {
            conf.locality_threshold_node < 0.0 || conf.locality_threshold_rack < 0.0
        };
        if off {
            return true;
        }
        self.apps
            .iter()
            .filter(|a| a.phase == AppPhase::Runnable)
            .flat_map(|a| a.requests.by_priority.iter())
            .all(|p| {
                // A request never offered (no level yet) stays so unless a level change,
                // which counts as progress, shows it was offered.
                p.any == 0
                    || !p.has_local_requests()
                    || matches!(p.allowed, None | Some(crate::app::Locality::OffSwitch))
            })
    }

    fn on_heartbeat(&mut self, node: u32) {
        // A node not in the cluster (yet, or any more) does not beat.
        match self.cluster.nodes[node as usize].state {
            crate::cluster::NodeState::Pending | crate::cluster::NodeState::Gone => return,
            crate::cluster::NodeState::Decommissioning => {
                if self.decommissioning_beat(node) {
                    return;
                }
            }
            crate::cluster::NodeState::Running => {}
        }
        self.counters.heartbeats += 1;
        if self.heartbeat_schedules(node) {
            self.attempt_scheduling(node);
        }
        self.rearm(node);
        self.park_if_idle(node);
    }

    /// Arms `node` in the heartbeat clock while it holds a reservation or resources kept for
    /// an app (its heartbeat may act even when no other node's can), disarms it otherwise.
    pub(crate) fn rearm(&mut self, node: u32) {
        let n = node as usize;
        let clock = self.events.clock_mut();
        if self.cluster.nodes[n].reservation.is_some()
            || !self.fair.held_for[n].is_empty()
            || self.cluster.nodes[n].state == crate::cluster::NodeState::Decommissioning
        {
            clock.arm(node);
        } else {
            clock.disarm(node);
        }
    }

    /// Marks app `a`'s demand for recomputation at the next update (its usage or requests
    /// changed).
    pub(crate) fn demand_changed(&mut self, a: u32) {
        self.recheck_reserved_by(a);
        let app = &mut self.apps[a as usize];
        if !app.demand_dirty {
            app.demand_dirty = true;
            self.dirty_apps.push(a);
        }
    }

    /// A container slot for a new container.
    pub(crate) fn new_container(&mut self, c: Container) -> u32 {
        if let Some(slot) = self.free_slots.pop() {
            self.containers[slot as usize] = c;
            slot
        } else {
            self.containers.push(c);
            (self.containers.len() - 1) as u32
        }
    }

    /// Adds `delta` to the usage of `leaf` and its ancestors, keeping orders and metrics.
    pub(crate) fn add_usage(&mut self, leaf: QueueId, delta: Resource, sign: i64) {
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &mut self.queues[id.idx()];
            qs.usage = if sign > 0 {
                qs.usage.saturating_add(delta)
            } else {
                qs.usage.saturating_sub(delta)
            };
            qs.sched.usage = qs.usage;
            if id != QueueId::ROOT {
                self.requeue(id);
            }
            q = self.tree.get(id).parent;
        }
        self.class_member_usage(leaf);
        self.metrics_refresh_leaf(leaf);
        let d = Resource::new(delta.memory_mb * sign, delta.vcores * sign);
        self.integrals.used_mb += d.memory_mb;
        self.integrals.used_vcores += d.vcores;
    }

    /// Re-inserts queue `id` in its parent's ordered set with a fresh key (present iff it has
    /// an outstanding request).
    pub(crate) fn requeue(&mut self, id: QueueId) {
        if !self.incremental {
            return;
        }
        let Some(parent) = self.tree.get(id).parent else {
            return;
        };
        let (old, rank) = (self.queues[id.idx()].key, self.queues[id.idx()].name_rank);
        let cmp = self.queues[parent.idx()].comparator;
        let key = cmp.key(&self.queues[id.idx()].sched);
        self.queues[id.idx()].key = key;
        // Only queues with an outstanding request are offered nodes (`assign_queue` returns
        // nothing at once for the others): the parent's set holds just those, so a descent
        // never walks idle queues.
        let wants = self.queues[id.idx()].pending > 0;
        let set = &mut self.queues[parent.idx()].ordered;
        set.remove(&(old, rank, id.0));
        if wants {
            set.insert((key, rank, id.0));
        }
    }

    /// Re-inserts app `a` in its leaf's ordered sets (present iff runnable with requests;
    /// in `am_waiting` while its AM is not running, see [`Simulation::waits_for_am`]).
    /// Naive ordering keeps the sets too (its descent does not read them): heartbeat
    /// elision reads which apps wait for their AM (`Simulation::refresh_open`).
    pub(crate) fn reorder_app(&mut self, a: u32) {
        let app = &self.apps[a as usize];
        let leaf = app.queue;
        let (old, rank, was_in, was_am) = (app.key, app.name_rank, app.in_set, app.in_am_set);
        let should = app.phase == AppPhase::Runnable && app.requests.pending > 0;
        let to_am = should && self.waits_for_am(a);
        let key = if should {
            self.queues[leaf.idx()].comparator.key(&app.sched)
        } else {
            old
        };
        let am = self.specs[a as usize].am.map(|r| (r.memory_mb, r.vcores));
        let q = &mut self.queues[leaf.idx()];
        if was_in {
            if was_am {
                q.am_waiting.remove(&(old, rank, a));
                if let Some(size) = am
                    && let Some(n) = q.am_sizes.get_mut(&size)
                {
                    *n -= 1;
                    if *n == 0 {
                        q.am_sizes.remove(&size);
                    }
                }
            } else {
                q.ordered.remove(&(old, rank, a));
            }
        }
        if should {
            if to_am {
                q.am_waiting.insert((key, rank, a));
                if let Some(size) = am {
                    *q.am_sizes.entry(size).or_insert(0) += 1;
                }
            } else {
                q.ordered.insert((key, rank, a));
            }
        }
        let offered = should && self.filters_apps_with_demand() && self.has_pending_demand_33(a);
        let app = &mut self.apps[a as usize];
        app.key = key;
        app.in_set = should;
        app.in_am_set = to_am;
        if app.offered_33 != offered {
            app.offered_33 = offered;
            let q = &mut self.queues[leaf.idx()];
            if offered {
                q.offered += 1;
            } else {
                q.offered -= 1;
            }
        }
        self.refresh_open(leaf);
    }

    /// Changes the outstanding-request count of runnable app `a` by `delta` up its queues.
    pub(crate) fn pending_changed(&mut self, a: u32, delta: i64) {
        if delta == 0 {
            return;
        }
        let mut q = Some(self.apps[a as usize].queue);
        while let Some(id) = q {
            let p = &mut self.queues[id.idx()].pending;
            let was_idle = *p == 0;
            *p = (*p as i64 + delta) as u64;
            if was_idle != (*p == 0) {
                self.requeue(id);
            }
            if self.tree.get(id).is_leaf {
                self.refresh_open(id);
            }
            q = self.tree.get(id).parent;
        }
    }

    /// Leaf `leaf`'s metric terms as its usage, demand and shares give them now.
    fn leaf_terms(&self, leaf: QueueId) -> LeafTerms {
        let threshold = self.tree.get(leaf).fair_share_preemption_threshold as f64;
        let q = &self.queues[leaf.idx()];
        let desired = q.min_share.memory_mb.min(q.demand.memory_mb);
        let ideal = q.ideal_share.memory_mb;
        let fair = self.fair_share_of(leaf).memory_mb;
        LeafTerms {
            starved_min: q.usage.memory_mb < desired,
            starved_fair: starved_fair(q.usage.memory_mb, threshold, fair),
            active: ideal > 0,
            x: if ideal > 0 {
                q.usage.memory_mb as f64 / ideal as f64
            } else {
                0.0
            },
            dev: (q.usage.memory_mb - ideal).abs() as f64,
        }
    }

    /// Whether [`Simulation::metrics_refresh_leaf`] would leave every metric as it is, given
    /// that Jain's sums are rebuilt ([`Simulation::metrics_resum`]) before anything reads
    /// them: the leaf's terms are those it holds. Its starvation times then accrue at the
    /// same flags whenever they are flushed, and taking out and adding back the same whole
    /// megabytes leaves the deviation's sum, hence its running maximum, as they are.
    pub(crate) fn metrics_unchanged(&self, leaf: QueueId) -> bool {
        let t = self.leaf_terms(leaf);
        let acc = &self.queues[leaf.idx()].acc;
        t.starved_min == acc.starved_min
            && t.starved_fair == acc.starved_fair
            && t.active == acc.active
            && t.x.to_bits() == acc.x.to_bits()
            && t.dev.to_bits() == acc.dev.to_bits()
    }

    /// Refreshes the metrics contribution of `leaf` (starvation flags, Jain and deviation
    /// terms) after its usage, demand or shares changed.
    pub(crate) fn metrics_refresh_leaf(&mut self, leaf: QueueId) {
        let now = self.now.0;
        let t = self.leaf_terms(leaf);
        let q = &mut self.queues[leaf.idx()];
        let acc = &mut q.acc;
        let dt = now.saturating_sub(acc.last);
        if acc.starved_min {
            acc.starved_min_ms += dt;
        }
        if acc.starved_fair {
            acc.starved_fair_ms += dt;
        }
        acc.dev_ms += acc.dev as i128 * dt as i128;
        acc.last = now;
        let starved_min = t.starved_min;
        if starved_min && !acc.starved_min {
            acc.starved_min_episodes += 1;
            acc.starved_min_since = now;
        }
        // Episodes of zero length (a container released and replaced in the same
        // millisecond) are not a wait.
        if !starved_min && acc.starved_min && now > acc.starved_min_since {
            acc.min_share_reached_ms.push(now - acc.starved_min_since);
        }
        acc.starved_min = starved_min;
        acc.starved_fair = t.starved_fair;
        let ig = &mut self.integrals;
        if acc.active {
            ig.n_active -= 1;
            ig.sum_x -= acc.x;
            ig.sum_x2 -= acc.x * acc.x;
        }
        ig.dev_sum -= acc.dev;
        if acc.active != t.active {
            if t.active {
                self.metered.insert(leaf.0);
            } else {
                self.metered.remove(leaf.0);
            }
        }
        self.metered.set_x(leaf.0, t.x);
        acc.active = t.active;
        acc.x = t.x;
        acc.dev = t.dev;
        if acc.active {
            ig.n_active += 1;
            ig.sum_x += acc.x;
            ig.sum_x2 += acc.x * acc.x;
        }
        ig.dev_sum += acc.dev;
        if ig.dev_sum > ig.dev_max {
            ig.dev_max = ig.dev_sum;
        }
    }

    /// Rebuilds Jain's index's sums from scratch (removes floating drift), in queue order
    /// over the leaves it counts (the others add nothing). The deviation's sum is of whole
    /// megabytes, exact in a double: kept as it is.
    pub(crate) fn metrics_resum(&mut self) {
        let ig = &mut self.integrals;
        ig.n_active = 0;
        ig.sum_x = 0.0;
        ig.sum_x2 = 0.0;
        for x in self.metered.terms() {
            ig.n_active += 1;
            ig.sum_x += x;
            ig.sum_x2 += x * x;
        }
    }

    fn sample(&mut self) {
        let rows: Vec<QueueSample> = self
            .queues
            .iter()
            .enumerate()
            .map(|(i, q)| QueueSample {
                queue: self.tree.queues[i].name.clone(),
                usage: q.usage,
                demand: q.demand,
                min_share: q.min_share,
                steady_fair_share: q.steady_share,
                fair_share: self.fair_share_of(QueueId(i as u32)),
                ideal_share: q.ideal_share,
                running_apps: q.runnable,
                pending_apps: q.waiting,
            })
            .collect();
        self.recorder.queue_samples(self.now, &rows);
    }

    /// The name of the queue app `i`'s record names: where it runs, or the queue it asked
    /// for when it was rejected or not yet submitted.
    fn record_queue(&self, i: usize) -> &str {
        let a = &self.apps[i];
        if a.phase == AppPhase::Rejected || a.phase == AppPhase::Future {
            &self.specs[i].queue
        } else {
            &self.tree.get(a.queue).name
        }
    }

    /// App `i`'s record as it stands.
    pub(crate) fn app_record(&self, i: usize) -> AppRecord {
        let a = &self.apps[i];
        let spec = &self.specs[i];
        AppRecord {
            index: i as u32,
            name: spec.name.clone(),
            queue: self.record_queue(i).to_string(),
            user: spec.user.clone(),
            arrival: spec.arrival,
            first_container: a.first_container,
            finish: a.finish,
            containers: a.containers,
            alone_ms: spec.alone_ms(),
            rejected: a.rejected.clone(),
            preempted_containers: a.preempted,
            lost_work_ms: a.lost_work_ms,
            recorded: spec.recorded,
        }
    }

    /// Hands app `i`'s record to the recorder, when it wants records: when it closes
    /// (finished or rejected: nothing in its record changes after that) and at the end of the
    /// run for the apps still open. Only the first call of an app records it.
    pub(crate) fn record_app(&mut self, i: usize) {
        debug_assert!(!self.recorded[i], "app {i} recorded twice");
        if std::mem::replace(&mut self.recorded[i], true) {
            return;
        }
        if self.recorder.wants_apps() {
            let record = self.app_record(i);
            self.recorder.app(&record);
        }
    }

    /// The outcome of every app in the run for the summary, its queue a position in `leaves`
    /// (see [`AppOutcome`]). An app not submitted by the end is not in the run.
    fn app_outcomes(&self, leaves: &[&str]) -> Vec<AppOutcome> {
        let position: BTreeMap<&str, u32> = leaves
            .iter()
            .enumerate()
            .map(|(i, q)| (*q, i as u32))
            .collect();
        (0..self.apps.len())
            .filter(|&i| self.apps[i].phase != AppPhase::Future)
            .map(|i| {
                let (a, spec) = (&self.apps[i], &self.specs[i]);
                AppOutcome {
                    leaf: position.get(self.record_queue(i)).copied(),
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
        let leaves: Vec<QueueId> = (0..self.queues.len())
            .map(|i| QueueId(i as u32))
            .filter(|&q| self.tree.get(q).is_leaf)
            .collect();
        for &l in &leaves {
            self.metrics_refresh_leaf(l);
        }
        // The apps still open get their records now, by index; an app not submitted by the
        // end is not in the run and has none.
        for i in 0..self.apps.len() {
            if !self.recorded[i] && self.apps[i].phase != AppPhase::Future {
                self.record_app(i);
            }
        }
        let mut by_name: Vec<&QueueId> = leaves.iter().collect();
        by_name.sort_by(|a, b| self.tree.get(**a).name.cmp(&self.tree.get(**b).name));
        let leaf_names: Vec<&str> = by_name
            .iter()
            .map(|l| self.tree.get(**l).name.as_str())
            .collect();
        let outcomes = self.app_outcomes(&leaf_names);
        let mut m: Vec<(String, f64)> = Vec::new();
        let start = self.first_arrival.unwrap_or(SimTime::ZERO);
        let ig = &self.integrals;
        let finished = outcomes.iter().filter(|r| r.finish.is_some()).count();
        let rejected = outcomes.iter().filter(|r| r.rejected).count();
        let makespan_ms = self.last_finish.since(start);
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
            if self.stalled_at.is_some() { 1.0 } else { 0.0 },
        ));
        m.push(("sim_time_s".into(), self.now.secs_f64()));
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
            let cap = if self.now.0 == 0 {
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
        m.push(("containers".into(), self.counters.assignments as f64));
        m.push(("reservations".into(), self.counters.reservations as f64));
        m.push((
            "preempted_containers".into(),
            self.counters.preempted as f64,
        ));
        m.push((
            "lost_container_s".into(),
            self.apps.iter().map(|a| a.lost_work_ms).sum::<u64>() as f64 / 1000.0,
        ));
        m.push(("node_lost_containers".into(), self.counters.lost as f64));
        // Preempted containers and lost work per leaf, in one pass over the apps.
        let mut lost_by_leaf = vec![(0u64, 0u64); self.queues.len()];
        for a in self.apps.iter().filter(|a| a.phase != AppPhase::Future) {
            let e = &mut lost_by_leaf[a.queue.idx()];
            *e = (e.0 + a.preempted, e.1 + a.lost_work_ms);
        }
        for &&l in &by_name {
            let name = &self.tree.get(l).name;
            let acc = &self.queues[l.idx()].acc;
            m.push((
                format!("starved_min_s.{name}"),
                acc.starved_min_ms as f64 / 1000.0,
            ));
            m.push((
                format!("starved_min_episodes.{name}"),
                acc.starved_min_episodes as f64,
            ));
            m.push((
                format!("starved_fair_s.{name}"),
                acc.starved_fair_ms as f64 / 1000.0,
            ));
            let (n, lost) = lost_by_leaf[l.idx()];
            m.push((format!("preempted_containers.{name}"), n as f64));
            m.push((format!("lost_container_s.{name}"), lost as f64 / 1000.0));
            m.push((
                format!("share_deviation.{name}"),
                over_capacity(acc.dev_ms, ig.capacity_mem_ms, ig.capacity.memory_mb),
            ));
            m.push((
                format!("am_limit_blocks.{name}"),
                acc.am_limit_blocks as f64,
            ));
            let mut reached: Vec<f64> = acc
                .min_share_reached_ms
                .iter()
                .map(|&ms| ms as f64 / 1000.0)
                .collect();
            // An episode still open at the end counts with the time waited so far.
            if acc.starved_min && self.now.0 > acc.starved_min_since {
                reached.push((self.now.0 - acc.starved_min_since) as f64 / 1000.0);
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
        app_metrics(&mut m, &outcomes, self.now, &leaf_names);
        crate::metrics::runtime_ratio_metrics(&mut m, &outcomes);
        let summary = RunSummary {
            metrics: m,
            events: self.counters.events,
            assignments: self.counters.assignments,
            end: self.now,
            stalled_at: self.stalled_at,
            cycle_from: self.cycle_from,
            apps_not_arrived: (self.apps.len() - self.n_arrived) as u64,
        };
        self.recorder.finish(&summary)?;
        Ok(summary)
    }

    /// The run's counters so far.
    pub fn counters(&self) -> Counters {
        let due = self.events.clock().beats_due(self.current);
        Counters {
            heartbeats_elided: due.saturating_sub(self.counters.heartbeats),
            ..self.counters
        }
    }

    /// Checks: no node over capacity, node allocation = Σ its containers, queue usage = Σ
    /// its apps' containers, app usage = Σ its containers.
    pub fn check_invariants(&self) -> Result<(), SimError> {
        let fail = |message: String| SimError::Invariant {
            time: self.now,
            message,
        };
        let mut node_sum = vec![Resource::ZERO; self.cluster.nodes.len()];
        let mut app_sum = vec![Resource::ZERO; self.apps.len()];
        for c in self.containers.iter().filter(|c| c.live) {
            node_sum[c.node as usize] = node_sum[c.node as usize].saturating_add(c.size);
            app_sum[c.app as usize] = app_sum[c.app as usize].saturating_add(c.size);
        }
        let node_fit = self.container_fit();
        for (i, n) in self.cluster.nodes.iter().enumerate() {
            if !node_fit.fits_in(n.allocated, n.capacity) {
                return Err(fail(format!("node {i} over capacity: {:?}", n.allocated)));
            }
            if n.allocated != node_sum[i] {
                return Err(fail(format!("node {i} allocation != its containers")));
            }
        }
        if let Some(m) = &self.fair.queue_shares.mismatch {
            return Err(fail(format!("the update's queue shares: {m}")));
        }
        let mut q_sum = vec![Resource::ZERO; self.queues.len()];
        for (i, a) in self.apps.iter().enumerate() {
            if a.usage != app_sum[i] {
                return Err(fail(format!("app {i} usage != its containers")));
            }
            let mut q = Some(a.queue);
            if matches!(a.phase, AppPhase::Future | AppPhase::Rejected) {
                continue;
            }
            while let Some(id) = q {
                q_sum[id.idx()] = q_sum[id.idx()].saturating_add(a.usage);
                q = self.tree.get(id).parent;
            }
        }
        for (i, q) in self.queues.iter().enumerate() {
            if q.usage != q_sum[i] {
                return Err(fail(format!(
                    "queue {} usage {:?} != containers {:?}",
                    self.tree.queues[i].name, q.usage, q_sum[i]
                )));
            }
        }
        // The apps Hadoop 3.3's descent may give a node, counted per leaf (heartbeat
        // elision reads the counts through `refresh_open`).
        let mut offered = vec![0u32; self.queues.len()];
        for (i, a) in self.apps.iter().enumerate() {
            let is = a.phase == AppPhase::Runnable
                && a.requests.pending > 0
                && self.filters_apps_with_demand()
                && self.has_pending_demand_33(i as u32);
            if a.offered_33 != is {
                return Err(fail(format!("app {i} offered_33 is {}", a.offered_33)));
            }
            if is {
                offered[a.queue.idx()] += 1;
            }
        }
        for (i, q) in self.queues.iter().enumerate() {
            if q.offered != offered[i] {
                return Err(fail(format!(
                    "queue {} counts {} apps with pending demand, not {}",
                    self.tree.queues[i].name, q.offered, offered[i]
                )));
            }
        }
        // The nodes reserved per app (`scheduler::fair::full_nodes`).
        let mut reserved = vec![0u32; self.apps.len()];
        for r in self.cluster.nodes.iter().filter_map(|n| n.reservation) {
            reserved[r.app as usize] += 1;
        }
        for (a, &k) in reserved.iter().enumerate() {
            if self.fair.full_nodes.reserved_by(a as u32) != k {
                return Err(fail(format!(
                    "app {a} counts {} reserved nodes, not {k}",
                    self.fair.full_nodes.reserved_by(a as u32)
                )));
            }
        }
        Ok(())
    }
}

/// A leaf's contribution to the metrics, as `metrics_refresh_leaf` stores it in `LeafAcc`.
struct LeafTerms {
    starved_min: bool,
    starved_fair: bool,
    active: bool,
    x: f64,
    dev: f64,
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
