//! The state the engine and the schedulers share: the scenario, the cluster and its
//! containers, the apps and users, the queue tree and each queue's runtime state, and the
//! metrics' integrals that follow usage. The engine owns one [`World`]; a scheduler borrows
//! it for each event it handles.

use crate::app::{AppPhase, AppSpec, RequestTable};
use crate::cluster::Cluster;
use crate::metrics::{Integrals, LeafAcc, Metered};
use crate::scenario::Scenario;
use crate::time::SimTime;
use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Comparator, OrderKey, Resource, Schedulable, Semantics};
use std::collections::{BTreeMap, BTreeSet};

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

/// What every part of a run reads and the schedulers change: the cluster, containers, apps,
/// users and queues.
pub(crate) struct World<'a> {
    pub(crate) sc: &'a Scenario,
    pub(crate) semantics: Semantics,
    pub(crate) cluster: Cluster,
    pub(crate) tree: QueueTree,
    pub(crate) specs: Vec<AppSpec>,
    pub(crate) apps: Vec<AppState>,
    pub(crate) queues: Vec<QueueState>,
    pub(crate) users: Vec<UserState>,
    pub(crate) user_index: BTreeMap<String, u32>,
    pub(crate) containers: Vec<Container>,
    pub(crate) free_slots: Vec<u32>,
    /// Next container id.
    pub(crate) next_container_id: u64,
    /// Largest capability of a node in the cluster, per resource (follows node events).
    pub(crate) largest_node: Resource,
    /// Apps whose demand must be recomputed at the next update.
    pub(crate) dirty_apps: Vec<u32>,
    /// Every queue's full name → its id (placement looks names up on every arrival).
    pub(crate) queue_ids: BTreeMap<String, QueueId>,
    pub(crate) integrals: Integrals,
    /// Leaves counted in Jain's index (an ideal share above 0), ascending, with their
    /// terms: the metric sums are rebuilt over them alone.
    pub(crate) metered: Metered,
    /// Incremental ordering: queues and apps kept in ordered sets as their keys change.
    pub(crate) incremental: bool,
    /// Hosts and racks the apps' hints name that no node has (their request indices follow
    /// the cluster's).
    pub(crate) unknown_hints: crate::host_hints::UnknownNames,
}
