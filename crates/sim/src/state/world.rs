//! The state the engine and the schedulers share: the scenario, the cluster and its
//! containers, the apps and users, the queue tree and each queue's runtime state, and the
//! metrics' integrals that follow usage. The engine owns one [`World`]; a scheduler borrows
//! it for each event it handles.

use crate::app::{AppPhase, AppRecord, AppSpec, RequestTable};
use crate::cluster::Cluster;
use crate::metrics::{Integrals, LeafAcc, Metered};
use crate::scenario::Scenario;
use crate::time::SimTime;
use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Comparator, OrderKey, Resource, Schedulable, Semantics};
use std::collections::{BTreeMap, BTreeSet};

/// A running or finished container.
///
/// One cache line: a completion's first read is its slot, cold after minutes of simulated
/// time, and the engine prefetches it one event ahead (`engine::Simulation::process`); a
/// slot over two lines left the second, where its `live` flag was, to miss.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(align(64))]
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
    /// When preemption marked it (warned in 2.7, chosen in 3.x), or [`NOT_MARKED`]: an
    /// `Option` would take the slot past one cache line.
    marked: u64,
}

const _: () = assert!(std::mem::size_of::<Container>() == 64);

/// `Container::marked` of a container preemption has not marked.
const NOT_MARKED: u64 = u64::MAX;

impl Container {
    /// A container started at `start`, not marked by preemption.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        app: u32,
        node: u32,
        size: Resource,
        is_am: bool,
        id: u64,
        priority: i32,
        start: SimTime,
        duration_ms: u64,
    ) -> Container {
        Container {
            app,
            node,
            size,
            is_am,
            live: true,
            id,
            priority,
            start,
            duration_ms,
            marked: NOT_MARKED,
        }
    }

    /// When preemption marked it (warned in 2.7, chosen in 3.x), if it did.
    pub fn marked_at(&self) -> Option<u64> {
        (self.marked != NOT_MARKED).then_some(self.marked)
    }

    /// Preemption marks it at `now` (simulated times stay far below [`NOT_MARKED`]).
    pub fn mark(&mut self, now: u64) {
        debug_assert!(now != NOT_MARKED);
        self.marked = now;
    }
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
    /// Incremental ordering: children (parent) or pending runnable apps (leaf; in a Hadoop
    /// 3.3 Fair run only those with pending demand, see `Sched::reorder_app`).
    pub ordered: BTreeSet<(OrderKey, u32, u32)>,
    /// Incremental ordering: this queue is in its parent's `ordered` (under `key`): a queue
    /// left out is not searched for there at each change of its usage.
    pub in_parent_set: bool,
    /// Leaf, incremental ordering: pending runnable apps whose AM is not running yet (held
    /// apart so that a descent skips them all at once when maxAMShare blocks every one).
    pub am_waiting: BTreeSet<(OrderKey, u32, u32)>,
    /// Leaf: AM sizes of the apps in `am_waiting`, with counts.
    pub am_sizes: BTreeMap<(i64, i64), u32>,
    pub acc: LeafAcc,
    /// Leaf: the runnable apps' fair shares must be recomputed at the next update (the
    /// runnable set, a weight or the leaf's fair share changed).
    pub app_shares_dirty: bool,
    /// In `FairState::app_share_leaves`.
    pub app_shares_listed: bool,
    /// Leaf: counted in `FairState::open_leaves` (see `Sched::refresh_open`).
    pub open: bool,
    /// Leaf: Σ demand of its runnable and waiting apps, as of the last update.
    pub app_demand: Resource,
    /// Leaf, Hadoop 3.3 Fair Scheduler: runnable apps with an outstanding request that its
    /// `fetchAppsWithDemand` keeps (see [`AppState::offered_33`]).
    pub offered: u32,
}

/// Per-app state (Hadoop's `FSAppAttempt`). The fields every allocation and completion
/// touches come first, in declaration order (`repr(C)`): a finished container's app is
/// seldom cached by then, and the default layout spread those fields over every cache line
/// of the record.
#[derive(Debug, Clone, PartialEq)]
#[repr(C)]
pub(crate) struct AppState {
    pub phase: AppPhase,
    pub am_running: bool,
    pub in_set: bool,
    /// In its leaf's `am_waiting` set rather than `ordered` (when `in_set`).
    pub in_am_set: bool,
    /// Hadoop 3.3 Fair Scheduler: runnable with an outstanding request and a pending demand
    /// that is not none (`Sched::has_pending_demand_33`), so its leaf's descent may give
    /// it a node; counted in its leaf's `offered`.
    pub offered_33: bool,
    /// Usage or requests changed since the last update (listed in `dirty_apps`).
    pub demand_dirty: bool,
    pub queue: QueueId,
    pub live: u32,
    pub name_rank: u32,
    pub user: u32,
    pub usage: Resource,
    pub demand: Resource,
    pub stage: usize,
    pub stage_remaining: u64,
    pub containers: u64,
    pub requests: RequestTable,
    pub key: OrderKey,
    pub sched: Schedulable,
    pub am_container: Option<u32>,
    pub first_container: Option<SimTime>,
    pub finish: Option<SimTime>,
    pub rejected: Option<String>,
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
    /// Runnable with an outstanding request: the apps a leaf's ordered sets may hold and
    /// whose keys are kept (`Sched::reorder_app`).
    #[inline]
    pub(crate) fn asking(&self) -> bool {
        self.phase == AppPhase::Runnable && self.requests.pending > 0
    }

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
    /// Per app: its instantaneous fair share within its leaf (Hadoop 3.x reads it). Apart
    /// from the apps' records, as are their weights (a copy of `sched.weight`, both written
    /// by `World::set_app_weight`): a leaf's apps' shares are computed at every update tick
    /// where one is read, over hundreds of apps, and two cache misses per app in their
    /// records were a tenth of a 10,000-node Hadoop 3.3 day. Apps that run together arrived
    /// together, so their entries here are near one another.
    pub(crate) app_fair_shares: Vec<Resource>,
    pub(crate) app_weights: Vec<f32>,
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
    /// Some app of the run names hosts: a request may then ask for particular nodes or
    /// racks (without hints every request asks anywhere and may relax).
    pub(crate) any_hints: bool,
}

impl World<'_> {
    /// Sets app `a`'s weight in its record and in the copy the share search reads
    /// (`app_weights`): the one writer of an app's weight after it is built.
    pub(crate) fn set_app_weight(&mut self, a: usize, weight: f32) {
        self.apps[a].sched.weight = weight;
        self.app_weights[a] = weight;
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
            in_parent_set: false,
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

    /// Re-inserts queue `id` in its parent's ordered set with a fresh key (present iff it has
    /// an outstanding request and, a leaf, is open: `QueueState::open`).
    #[inline]
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
        // never walks idle queues. A leaf that is not open gives nothing and writes nothing
        // that is read when offered a node (`Sched::refresh_open`: in 2.7 every app asking
        // waits for an AM maxAMShare refuses, in 3.3 none has pending demand), so it is left
        // out too; its open state flipping re-queues it.
        let qs = &mut self.queues[id.idx()];
        let wants = qs.pending > 0 && (qs.open || !self.tree.get(id).is_leaf);
        let was_in = std::mem::replace(&mut qs.in_parent_set, wants);
        let set = &mut self.queues[parent.idx()].ordered;
        if was_in {
            let removed = set.remove(&(old, rank, id.0));
            debug_assert!(removed, "queue {} not in its parent's set", id.0);
        }
        if wants {
            set.insert((key, rank, id.0));
        }
    }

    /// Rebuilds Jain's index's sums from scratch (removes floating drift), in queue order
    /// over the leaves it counts (the others add nothing). The deviation's sum is of whole
    /// megabytes, exact in a double: kept as it is.
    pub(crate) fn metrics_resum(&mut self, now: u64) {
        let ig = &mut self.integrals;
        ig.advance(now);
        ig.n_active = 0;
        ig.sum_x = 0.0;
        ig.sum_x2 = 0.0;
        for x in self.metered.terms() {
            ig.n_active += 1;
            ig.sum_x += x;
            ig.sum_x2 += x * x;
        }
    }

    /// The name of the queue app `i`'s record names: where it runs, or the queue it asked
    /// for when it was rejected or not yet submitted.
    pub(crate) fn record_queue(&self, i: usize) -> &str {
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
