//! The queue tree every scheduler works over: one [`QueueConf`] per queue, root first, in
//! pre-order, with each queue's resolved settings (inheritance already applied).
//!
//! Built from a `fair-scheduler.xml` (or a `capacity-scheduler.xml`) by the allocation-file
//! readers; read by the share computation and the simulator.

pub use crate::model::cs_settings::OrderingPolicy;
use fairsim_core::share::{ShareCap, ShareKind, policy_shares};
use fairsim_core::{Calculator, Policy, Resource, Schedulable, Semantics};
use std::collections::BTreeMap;

/// Index of a queue in [`QueueTree::queues`]; the root is `QueueId(0)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QueueId(pub u32);

impl QueueId {
    /// The root queue.
    pub const ROOT: QueueId = QueueId(0);
    /// As an index into per-queue vectors.
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// A resource limit as written in an allocation file: absolute, or a percentage of the
/// cluster resolved when shares are computed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ResourceSpec {
    /// Fixed memory and vcores.
    Absolute(Resource),
    /// Percent of the cluster's memory and vcores (0-100 each).
    Percent {
        /// Percent of cluster memory.
        memory: f64,
        /// Percent of cluster vcores.
        vcores: f64,
    },
}

impl ResourceSpec {
    /// The limit for a cluster of size `cluster` (percentages truncate, as Hadoop 3.0/3.1's
    /// `ConfigurableResource` does).
    pub fn resolve(&self, cluster: Resource) -> Resource {
        match *self {
            ResourceSpec::Absolute(r) => r,
            ResourceSpec::Percent { memory, vcores } => Resource::new(
                (cluster.memory_mb as f64 * memory / 100.0) as i64,
                (cluster.vcores as f64 * vcores / 100.0) as i64,
            ),
        }
    }
}

/// One queue's resolved configuration (Hadoop's `FSQueue` settings from `AllocationConfiguration`).
#[derive(Debug, Clone, PartialEq)]
pub struct QueueConf {
    /// Full name, `root.a.b`.
    pub name: String,
    /// Parent queue (`None` for root).
    pub parent: Option<QueueId>,
    /// Children in file order.
    pub children: Vec<QueueId>,
    /// A leaf holds apps; a parent holds queues (`type="parent"` makes a childless parent).
    pub is_leaf: bool,
    /// `weight` (float32, default 1).
    pub weight: f32,
    /// `minResources` (default 0).
    pub min_resources: ResourceSpec,
    /// `maxResources` (default unbounded).
    pub max_resources: ResourceSpec,
    /// Hadoop 3's `FSQueue.getMaxShare`: the max share is raised to the min share where it is
    /// below it (set by the hadoop-3.3 reader; 2.7 uses the raw max).
    pub max_raised_to_min: bool,
    /// `maxChildResources`: the max of dynamically created children.
    pub max_child_resources: Option<ResourceSpec>,
    /// `maxRunningApps` (or `queueMaxAppsDefault`); `None` is unlimited.
    pub max_running_apps: Option<u32>,
    /// `maxAMShare` (leaf only; default 0.5; -1 disables).
    pub max_am_share: f32,
    /// `schedulingPolicy` (default `defaultQueueSchedulingPolicy`, else fair).
    pub policy: Policy,
    /// `minSharePreemptionTimeout` in ms, inherited; `None` is never.
    pub min_share_preemption_timeout_ms: Option<u64>,
    /// `fairSharePreemptionTimeout` in ms, inherited; `None` is never.
    pub fair_share_preemption_timeout_ms: Option<u64>,
    /// `fairSharePreemptionThreshold` in [0, 1], inherited (default 0.5).
    pub fair_share_preemption_threshold: f32,
    /// `allowPreemptionFrom`, inherited (default true).
    pub allow_preemption_from: bool,
    /// Capacity Scheduler only: `capacity` as a percent of the parent.
    pub capacity_percent: Option<f64>,
    /// Capacity Scheduler only: `maximum-capacity` as a percent of the parent.
    pub maximum_capacity_percent: Option<f64>,
    /// Capacity Scheduler only: `user-limit-factor`.
    pub user_limit_factor: Option<f64>,
    /// Capacity Scheduler only: `minimum-user-limit-percent`, a Java float as Hadoop 3
    /// reads it (Hadoop 2.7 reads an int; the reader refuses a decimal in that era).
    pub minimum_user_limit_percent: Option<f32>,
    /// The queue is part of the configuration, as a placement rule that may not create
    /// queues requires: named in the allocation file (true for queues built by hand), not
    /// made at run time by a placement rule, and not the `root.default` that YARN adds when
    /// the file does not name it (Hadoop 2.7's `configuredQueues`, Hadoop 3.3's
    /// `FSPlacementRule.configuredQueue`: a queue that is not dynamic).
    pub configured: bool,
    /// `reservation`: the queue accepts reservations (YARN stores it as a parent of
    /// reservation queues; fairsim keeps it a leaf and does not model reservations).
    pub reservable: bool,
    /// Capacity Scheduler only: `ordering-policy` of a leaf.
    pub ordering_policy: Option<OrderingPolicy>,
    /// Capacity Scheduler only: `maximum-am-resource-percent`, as the fraction YARN reads
    /// (0.1 means 10%).
    pub maximum_am_resource_fraction: Option<f64>,
    /// Capacity Scheduler only: the forms and limits Hadoop 3 reads beyond the 2.x
    /// percentages (weights, absolute resources, application limits, state).
    pub cs: crate::model::cs_settings::CsQueueSettings,
}

/// Which scheduler an allocation file configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SchedulerKind {
    /// `fair-scheduler.xml`.
    #[default]
    Fair,
    /// `capacity-scheduler.xml`.
    Capacity,
}

impl QueueConf {
    /// The max share on `cluster`: `maxResources` resolved, raised componentwise to the min
    /// share when [`QueueConf::max_raised_to_min`] (Hadoop 3's `FSQueue.getMaxShare`).
    pub fn max_share(&self, cluster: Resource) -> Resource {
        let max = self.max_resources.resolve(cluster);
        if self.max_raised_to_min {
            max.component_max(self.min_resources.resolve(cluster))
        } else {
            max
        }
    }

    /// A queue with YARN's defaults.
    pub fn new(name: impl Into<String>, parent: Option<QueueId>) -> QueueConf {
        QueueConf {
            name: name.into(),
            parent,
            children: Vec::new(),
            is_leaf: true,
            weight: 1.0,
            min_resources: ResourceSpec::Absolute(Resource::ZERO),
            max_resources: ResourceSpec::Absolute(Resource::UNBOUNDED),
            max_raised_to_min: false,
            max_child_resources: None,
            max_running_apps: None,
            max_am_share: 0.5,
            policy: Policy::Fair,
            min_share_preemption_timeout_ms: None,
            fair_share_preemption_timeout_ms: None,
            fair_share_preemption_threshold: 0.5,
            allow_preemption_from: true,
            capacity_percent: None,
            maximum_capacity_percent: None,
            user_limit_factor: None,
            minimum_user_limit_percent: None,
            configured: true,
            reservable: false,
            ordering_policy: None,
            maximum_am_resource_fraction: None,
            cs: Default::default(),
        }
    }
}

/// One rule of `queuePlacementPolicy`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlacementRule {
    /// `specified`: the queue named at submission ("default" continues).
    Specified {
        /// `create` attribute (default true).
        create: bool,
    },
    /// `user`: a queue named after the user.
    User {
        /// `create` attribute.
        create: bool,
    },
    /// `primaryGroup`: a queue named after the user's primary group.
    PrimaryGroup {
        /// `create` attribute.
        create: bool,
    },
    /// `secondaryGroupExistingQueue`.
    SecondaryGroupExistingQueue {
        /// `create` attribute.
        create: bool,
    },
    /// `nestedUserQueue`: a user queue under the queue the nested rule picks.
    NestedUserQueue {
        /// `create` attribute.
        create: bool,
        /// The nested rule.
        inner: Box<PlacementRule>,
    },
    /// `default`: the named queue (default `root.default`).
    Default {
        /// Target queue.
        queue: String,
        /// `create` attribute.
        create: bool,
    },
    /// `reject`.
    Reject,
    /// Capacity Scheduler: one `yarn.scheduler.capacity.queue-mappings` entry, `u:` (a user,
    /// or `%user`) or `g:` (a group); the queue may be `%user` or `%primary_group`.
    CapacityMapping {
        /// `g:` (else `u:`).
        group: bool,
        /// User or group name.
        source: String,
        /// Target leaf name.
        queue: String,
        /// `queue-mappings-override.enable`: map apps that named a queue too.
        override_named: bool,
    },
}

/// The whole allocation: queues plus scheduler-wide settings from the file.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueTree {
    /// All queues, root first, pre-order.
    pub queues: Vec<QueueConf>,
    /// `user` elements' `maxRunningApps`.
    pub user_max_apps: BTreeMap<String, u32>,
    /// `userMaxAppsDefault`; `None` is unlimited.
    pub user_max_apps_default: Option<u32>,
    /// `queuePlacementPolicy` (YARN's default when the file has none).
    pub placement: Vec<PlacementRule>,
    /// The scheduler the file configures.
    pub scheduler: SchedulerKind,
    /// Capacity Scheduler: `yarn.scheduler.capacity.resource-calculator` (memory only by
    /// default). The Fair Scheduler's queues compare by their policy instead.
    pub resource_calculator: Calculator,
    /// What a queue created at run time (by a placement rule) takes from the file.
    pub new_queue_defaults: NewQueueDefaults,
}

/// The file's defaults for queues it does not name, as YARN applies them to a queue a
/// placement rule creates (`AllocationConfiguration` getters with no entry for the queue).
#[derive(Debug, Clone, PartialEq)]
pub struct NewQueueDefaults {
    /// `defaultQueueSchedulingPolicy` (parents keep fair when it is fifo).
    pub policy: Policy,
    /// `queueMaxAppsDefault`.
    pub max_running_apps: Option<u32>,
    /// `queueMaxAMShareDefault`.
    pub max_am_share: f32,
    /// `queueMaxResourcesDefault` (hadoop-3.3 only; the parent's `maxChildResources`
    /// wins over it).
    pub max_resources: Option<ResourceSpec>,
}

impl Default for NewQueueDefaults {
    fn default() -> Self {
        NewQueueDefaults {
            policy: Policy::Fair,
            max_running_apps: None,
            max_am_share: 0.5,
            max_resources: None,
        }
    }
}

/// Per-queue inputs to a share computation.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QueueLoad {
    /// Demand (usage + pending), before the max-share cap.
    pub demand: Resource,
    /// Current usage.
    pub usage: Resource,
    /// Has runnable apps (leaves) or an active child (parents).
    pub active: bool,
}

impl QueueTree {
    /// The queue named `name` (full name).
    pub fn find(&self, name: &str) -> Option<QueueId> {
        self.queues
            .iter()
            .position(|q| q.name == name)
            .map(|i| QueueId(i as u32))
    }

    /// The queue with id `id`.
    pub fn get(&self, id: QueueId) -> &QueueConf {
        &self.queues[id.idx()]
    }

    /// The leaves, in the tree's order.
    pub fn leaves(&self) -> impl Iterator<Item = QueueId> + '_ {
        (self.queues.iter().enumerate())
            .filter(|(_, q)| q.is_leaf)
            .map(|(i, _)| QueueId(i as u32))
    }

    /// Number of queues.
    pub fn len(&self) -> usize {
        self.queues.len()
    }

    /// True when the tree has no queue (never for a loaded file: root always exists).
    pub fn is_empty(&self) -> bool {
        self.queues.is_empty()
    }

    /// Fair shares of every queue, top-down with each parent's policy: root gets the whole
    /// cluster, each parent splits its own share among its children.
    ///
    /// `loads` has one entry per queue (leaf demands are summed up the tree by the caller or
    /// by [`QueueTree::roll_up`]). For instantaneous shares inactive queues get 0.
    pub fn fair_shares(
        &self,
        semantics: Semantics,
        kind: ShareKind,
        cluster: Resource,
        loads: &[QueueLoad],
        cap: ShareCap,
    ) -> Vec<Resource> {
        assert_eq!(loads.len(), self.queues.len(), "one load per queue");
        let mut shares = vec![Resource::ZERO; self.queues.len()];
        if self.queues.is_empty() {
            return shares;
        }
        shares[0] = cluster;
        // Pre-order: a parent's share is known before its children are split.
        for (i, q) in self.queues.iter().enumerate() {
            if q.children.is_empty() {
                continue;
            }
            let list: Vec<Schedulable> = q
                .children
                .iter()
                .map(|&c| {
                    let cq = self.get(c);
                    let load = &loads[c.idx()];
                    let max = cq.max_share(cluster);
                    // The share computation never reads names: none is copied.
                    Schedulable {
                        name: String::new(),
                        weight: cq.weight,
                        start_time_ms: 0,
                        min_share: cq.min_resources.resolve(cluster),
                        max_share: max,
                        demand: load.demand.component_min(max),
                        usage: load.usage,
                        active: load.active,
                    }
                })
                .collect();
            let split = policy_shares(semantics, q.policy, kind, &list, shares[i], cap);
            for (&c, s) in q.children.iter().zip(split) {
                shares[c.idx()] = s;
            }
        }
        shares
    }

    /// Loads for a set of leaf demands: a leaf with a demand is active; every other leaf is
    /// inactive with zero demand; parents are rolled up with [`QueueTree::roll_up`].
    pub fn loads_from_demands(
        &self,
        cluster: Resource,
        demands: &[(QueueId, Resource)],
    ) -> Vec<QueueLoad> {
        let mut loads = vec![QueueLoad::default(); self.queues.len()];
        for &(id, demand) in demands {
            let l = &mut loads[id.idx()];
            l.demand = l.demand.saturating_add(demand);
            l.active = true;
        }
        self.roll_up(cluster, &mut loads);
        loads
    }

    /// Steady and instantaneous fair shares of every queue (YARN's max-share cap), as
    /// `fairsim shares --alloc` reports them.
    pub fn steady_and_fair_shares(
        &self,
        semantics: Semantics,
        cluster: Resource,
        loads: &[QueueLoad],
    ) -> (Vec<Resource>, Vec<Resource>) {
        let steady = self.fair_shares(
            semantics,
            ShareKind::Steady,
            cluster,
            loads,
            ShareCap::MaxShare,
        );
        let fair = self.fair_shares(
            semantics,
            ShareKind::Instantaneous,
            cluster,
            loads,
            ShareCap::MaxShare,
        );
        (steady, fair)
    }

    /// Depth of a queue: 0 for root.
    pub fn depth(&self, id: QueueId) -> usize {
        let mut d = 0;
        let mut cur = self.get(id).parent;
        while let Some(p) = cur {
            d += 1;
            cur = self.get(p).parent;
        }
        d
    }

    /// Sums leaf loads up the tree: a parent's demand and usage are its children's sums
    /// (demand capped at each queue's max share), active if any child is.
    pub fn roll_up(&self, cluster: Resource, leaf_loads: &mut [QueueLoad]) {
        for i in (1..self.queues.len()).rev() {
            let q = &self.queues[i];
            let max = q.max_share(cluster);
            leaf_loads[i].demand = leaf_loads[i].demand.component_min(max);
            if let Some(p) = q.parent {
                let child = leaf_loads[i];
                let parent = &mut leaf_loads[p.idx()];
                parent.demand = parent.demand.saturating_add(child.demand);
                parent.usage = parent.usage.saturating_add(child.usage);
                parent.active |= child.active;
            }
        }
        if let Some(root) = leaf_loads.first_mut() {
            let max = self.queues[0].max_share(cluster);
            root.demand = root.demand.component_min(max);
        }
    }
}

impl QueueTree {
    /// A tree holding only `root` (a parent), with YARN's default placement policy.
    pub fn with_root() -> QueueTree {
        let mut root = QueueConf::new("root", None);
        root.is_leaf = false;
        root.max_am_share = -1.0;
        QueueTree {
            queues: vec![root],
            user_max_apps: BTreeMap::new(),
            user_max_apps_default: None,
            placement: vec![
                PlacementRule::Specified { create: true },
                PlacementRule::User { create: true },
            ],
            scheduler: SchedulerKind::Fair,
            resource_calculator: Calculator::MemoryOnly,
            new_queue_defaults: NewQueueDefaults::default(),
        }
    }

    /// Appends a queue named `parent.short` under `parent` (which becomes a parent queue)
    /// and returns its id. Ids stay "parents before children"; a queue added after the tree
    /// was built is appended at the end rather than at its pre-order place.
    ///
    /// The new queue takes what YARN gives a queue the file does not name: the file's
    /// defaults ([`NewQueueDefaults`]), the parent's `maxChildResources` as its max, and the
    /// parent's preemption timeouts, threshold and `allowPreemptionFrom` (Hadoop's
    /// `FSQueue.updatePreemptionVariables` inherits what the file leaves unset).
    pub fn add_queue(&mut self, parent: QueueId, short: &str, is_leaf: bool) -> QueueId {
        let id = QueueId(self.queues.len() as u32);
        let pc = &self.queues[parent.idx()];
        let d = &self.new_queue_defaults;
        let name = format!("{}.{}", pc.name, short);
        let mut q = QueueConf::new(name, Some(parent));
        q.is_leaf = is_leaf;
        q.policy = match d.policy {
            Policy::Fifo if !is_leaf => Policy::Fair,
            p => p,
        };
        q.max_running_apps = d.max_running_apps;
        q.max_am_share = d.max_am_share;
        q.max_raised_to_min = pc.max_raised_to_min;
        if let Some(max) = pc.max_child_resources.or(d.max_resources) {
            q.max_resources = max;
        }
        q.min_share_preemption_timeout_ms = pc.min_share_preemption_timeout_ms;
        q.fair_share_preemption_timeout_ms = pc.fair_share_preemption_timeout_ms;
        q.fair_share_preemption_threshold = pc.fair_share_preemption_threshold;
        q.allow_preemption_from = pc.allow_preemption_from;
        self.queues.push(q);
        let p = &mut self.queues[parent.idx()];
        p.is_leaf = false;
        p.children.push(id);
        id
    }

    /// The queue with id `id`, mutably.
    pub fn get_mut(&mut self, id: QueueId) -> &mut QueueConf {
        &mut self.queues[id.idx()]
    }
}
