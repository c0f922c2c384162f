//! Which runnable apps of a Capacity leaf are *activated*, the only ones its node offers
//! reach (`LeafQueue.activateApplications`, both eras).
//!
//! An app added to its leaf (it became runnable: submitted, or let run by
//! `max-parallel-apps`) is pending. Activation walks the leaf's pending apps in submission
//! order; an app whose AM resource would take the AMs of the leaf's activated apps over the
//! queue's AM limit, or its user's over the user's AM limit (`capacity::am_limits`), stays
//! pending and the walk goes on to the next one; the others are activated, their AM
//! resource charged to the leaf's and the user's AM usage at once, before their AM
//! container exists. While no app of the leaf is activated (Hadoop 3.3: or its activated
//! apps charge nothing) the limits are not enforced, so one app always starts. The charge
//! is released when the app leaves the leaf. An app without an AM container is charged the
//! minimum allocation, as Hadoop charges an unmanaged AM.
//!
//! Activation runs where Hadoop runs it: when an app is added (Hadoop 3.3: only on a
//! non-empty cluster) or removed, and for every leaf when the cluster resource changes
//! (`updateClusterResource`, after each leaf's current limit is set from its parent's, top
//! down). The limits are computed once per walk from the leaf's state then: the current
//! limit last recorded (the cluster update's, or the last node offer that reached one of the
//! leaf's activated apps, `computeUserLimitAndSetHeadroom`) and the number of users with
//! asks, activated or not (Hadoop's active-users count follows apps' asks, posted by the RM
//! for the AM before activation: an app being added asks nothing yet, so it does not count).
//!
//! An app whose AM attempt fails leaves and joins again (`node_events`): its charge is
//! released and the pending apps walked, then the new attempt is pending in its submission
//! place and walked for, so an app held by the AM limit may take the failed attempt's room.

use crate::capacity::am_limits::{AmLimitInput, am_fits};
use crate::capacity::limits::{child_limit, round_down};
use crate::scheduler::Sched;
use crate::tree::QueueId;
use fairsim_core::{Resource, Semantics};
use std::collections::{BTreeMap, BTreeSet};

/// The activation state of every leaf and app.
#[derive(Debug, Clone, Default)]
pub(crate) struct Activation {
    /// By queue index (parents stay empty).
    leaves: Vec<LeafActivation>,
    /// By app index: activated.
    active: Vec<bool>,
}

/// One leaf's activation state.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LeafActivation {
    /// Added, not yet activated, by app index (submission order).
    pub pending: BTreeSet<u32>,
    /// Activated apps.
    pub active: u32,
    /// What the activated apps' AMs are charged (`queueUsage.getAMUsed`).
    pub am_used: Resource,
    /// The same per user (`User.getConsumedAMResources`); users charged nothing are absent.
    pub user_am_used: BTreeMap<u32, Resource>,
    /// The limit the leaf was last held to (`queueResourceLimitsInfo`).
    pub current_limit: Resource,
}

impl Activation {
    /// Whether app `a` is activated.
    pub(crate) fn is_active(&self, a: u32) -> bool {
        self.active.get(a as usize).copied().unwrap_or(false)
    }

    /// Leaf `q`'s state, if it has any yet.
    pub(crate) fn leaf(&self, q: QueueId) -> Option<&LeafActivation> {
        self.leaves.get(q.idx())
    }

    fn leaf_mut(&mut self, q: QueueId) -> &mut LeafActivation {
        if self.leaves.len() <= q.idx() {
            self.leaves.resize_with(q.idx() + 1, Default::default);
        }
        &mut self.leaves[q.idx()]
    }

    fn set_active(&mut self, a: u32, on: bool) {
        if self.active.len() <= a as usize {
            self.active.resize(a as usize + 1, false);
        }
        self.active[a as usize] = on;
    }
}

impl Sched<'_, '_> {
    /// The AM resource app `a` is charged at activation.
    pub(crate) fn cs_am_resource(&self, a: u32) -> Resource {
        self.w.specs[a as usize].am.unwrap_or(Resource::new(
            self.w.sc.scheduler.minimum_allocation_mb.max(1),
            self.w.sc.scheduler.minimum_allocation_vcores.max(1),
        ))
    }

    /// Whether app `a` is activated (true for every app under the Fair Scheduler).
    pub(crate) fn cs_is_active(&self, a: u32) -> bool {
        self.capacity
            .as_deref()
            .is_none_or(|cs| cs.activation.is_active(a))
    }

    /// What leaf `leaf`'s AM limits are computed from now.
    fn cs_am_input(&self, leaf: QueueId) -> Option<AmLimitInput> {
        let cs = self.capacity.as_deref()?;
        let conf = self.w.tree.get(leaf);
        let cluster = self.w.cluster.total;
        let minimum_allocation = Resource::new(
            self.w.sc.scheduler.minimum_allocation_mb.max(1),
            self.w.sc.scheduler.minimum_allocation_vcores.max(1),
        );
        Some(AmLimitInput {
            semantics: self.w.sc.scheduler.semantics,
            calc: self.w.tree.resource_calculator,
            cluster,
            absolute_capacity: cs.caps.absolute[leaf.idx()],
            effective_capacity: cs.caps.guaranteed(leaf, cluster),
            current_limit: cs
                .activation
                .leaf(leaf)
                .map_or(Resource::ZERO, |l| l.current_limit),
            am_fraction: conf.maximum_am_resource_fraction.unwrap_or(0.1) as f32,
            minimum_user_limit_percent: conf.minimum_user_limit_percent.unwrap_or(100.0),
            user_limit_factor: conf.user_limit_factor.unwrap_or(1.0) as f32,
            minimum_allocation,
        })
    }

    /// Leaf `leaf`'s queue AM limit now (zero under the Fair Scheduler).
    pub(crate) fn cs_queue_am_limit(&self, leaf: QueueId) -> Resource {
        self.cs_am_input(leaf)
            .map_or(Resource::ZERO, |i| i.queue_limit())
    }

    /// What leaf `leaf`'s activated apps' AMs are charged.
    pub(crate) fn cs_am_charged(&self, leaf: QueueId) -> Resource {
        self.capacity
            .as_deref()
            .and_then(|cs| cs.activation.leaf(leaf))
            .map_or(Resource::ZERO, |l| l.am_used)
    }

    /// Leaf `leaf`'s user AM limit now (zero under the Fair Scheduler).
    pub(crate) fn cs_user_am_limit(&self, leaf: QueueId) -> Resource {
        let users = self.cs_active_user_count(leaf, None);
        self.cs_am_input(leaf)
            .map_or(Resource::ZERO, |i| i.user_limit(users))
    }

    /// The users of leaf `leaf` with an app that asks, `fresh` (an app being added, which
    /// asks nothing yet in Hadoop) left out.
    fn cs_active_user_count(&self, leaf: QueueId, fresh: Option<u32>) -> u32 {
        let mut users: Vec<u32> = self.w.queues[leaf.idx()]
            .runnable_apps
            .iter()
            .filter(|&&x| Some(x) != fresh && self.w.apps[x as usize].requests.pending > 0)
            .map(|&x| self.w.apps[x as usize].user)
            .collect();
        users.sort_unstable();
        users.dedup();
        users.len() as u32
    }

    /// Runnable app `a` joins its leaf: pending, then activated if the limits allow.
    pub(crate) fn cs_app_added(&mut self, a: u32) {
        let leaf = self.w.apps[a as usize].queue;
        let Some(cs) = self.capacity.as_deref_mut() else {
            return;
        };
        cs.activation.leaf_mut(leaf).pending.insert(a);
        // Hadoop 3.3 activates nothing while the cluster is empty.
        let era = self.w.sc.scheduler.semantics;
        if era == Semantics::Hadoop27 || self.w.cluster.total != Resource::ZERO {
            self.cs_activate(leaf, Some(a));
        }
    }

    /// Runnable app `a` leaves its leaf: its AM charge is released (if it was activated),
    /// then the leaf's pending apps are looked at again.
    pub(crate) fn cs_app_removed(&mut self, a: u32) {
        let leaf = self.w.apps[a as usize].queue;
        let user = self.w.apps[a as usize].user;
        let am = self.cs_am_resource(a);
        let Some(cs) = self.capacity.as_deref_mut() else {
            return;
        };
        let was_active = cs.activation.is_active(a);
        cs.activation.set_active(a, false);
        let l = cs.activation.leaf_mut(leaf);
        if was_active {
            l.active -= 1;
            l.am_used = l.am_used.saturating_sub(am);
            if let Some(u) = l.user_am_used.get_mut(&user) {
                *u = u.saturating_sub(am);
                if *u == Resource::ZERO {
                    l.user_am_used.remove(&user);
                }
            }
        } else {
            l.pending.remove(&a);
        }
        self.cs_activate(leaf, None);
    }

    /// `activateApplications` on leaf `leaf` (see the module docs); `fresh` is the app being
    /// added, if any.
    fn cs_activate(&mut self, leaf: QueueId, fresh: Option<u32>) {
        let pending: Vec<u32> = match self
            .capacity
            .as_deref()
            .and_then(|cs| cs.activation.leaf(leaf))
        {
            Some(l) if !l.pending.is_empty() => l.pending.iter().copied().collect(),
            _ => return,
        };
        let Some(input) = self.cs_am_input(leaf) else {
            return;
        };
        let era = self.w.sc.scheduler.semantics;
        let (calc, cluster) = (input.calc, input.cluster);
        let queue_limit = input.queue_limit();
        // Computed when an app first reaches the user check (the active users are counted
        // over the leaf's apps).
        let mut user_limit: Option<Resource> = None;
        let mut activated = Vec::new();
        for a in pending {
            let am = self.cs_am_resource(a);
            let user = self.w.apps[a as usize].user;
            let enforced = self.capacity.as_deref().is_some_and(|cs| {
                cs.activation.leaf(leaf).is_some_and(|l| {
                    l.active >= 1
                        && (era == Semantics::Hadoop27
                            || calc.greater_than(cluster, l.am_used, Resource::ZERO))
                })
            });
            if enforced && user_limit.is_none() {
                user_limit = Some(input.user_limit(self.cs_active_user_count(leaf, fresh)));
            }
            let Some(cs) = self.capacity.as_deref_mut() else {
                return;
            };
            let l = cs.activation.leaf_mut(leaf);
            // The first app always starts (3.3: also while the activated apps charge nothing).
            if enforced && !am_fits(calc, cluster, l.am_used, am, queue_limit) {
                continue;
            }
            let user_used = l.user_am_used.get(&user).copied().unwrap_or_default();
            if let Some(limit) = user_limit.filter(|_| enforced)
                && !am_fits(calc, cluster, user_used, am, limit)
            {
                continue;
            }
            l.pending.remove(&a);
            l.active += 1;
            l.am_used = l.am_used.saturating_add(am);
            l.user_am_used.insert(user, user_used.saturating_add(am));
            cs.activation.set_active(a, true);
            activated.push(a);
        }
        for a in activated {
            self.explain_touch(a);
        }
    }

    /// `updateClusterResource` down the tree: every leaf's current limit is set from the
    /// limit its parent hands it on the new cluster, then its pending apps are looked at
    /// again.
    pub(crate) fn cs_cluster_resource_updated(&mut self) {
        if self.capacity.is_none() {
            return;
        }
        let cluster = self.w.cluster.total;
        let used = self.cs_used_all();
        let mut leaves = Vec::new();
        self.cs_set_current_limits(QueueId::ROOT, cluster, &used, &mut leaves);
        for leaf in leaves {
            self.cs_activate(leaf, None);
        }
    }

    /// Sets the current limit of every leaf under `q`, which its parent handed `limit`.
    fn cs_set_current_limits(
        &mut self,
        q: QueueId,
        limit: Resource,
        used: &[Resource],
        leaves: &mut Vec<QueueId>,
    ) {
        let era = self.w.sc.scheduler.semantics;
        let calc = self.w.tree.resource_calculator;
        let cluster = self.w.cluster.total;
        let min_alloc = Resource::new(
            self.w.sc.scheduler.minimum_allocation_mb.max(1),
            self.w.sc.scheduler.minimum_allocation_vcores.max(1),
        );
        let Some(caps) = self.capacity.as_deref().map(|cs| &cs.caps) else {
            return;
        };
        if self.w.tree.get(q).is_leaf {
            let own = round_down(
                calc,
                caps.own_max(era, calc, q, cluster, min_alloc),
                min_alloc,
            );
            self.cs_note_current_limit(q, calc.min(cluster, own, limit));
            leaves.push(q);
            return;
        }
        let kids: Vec<(QueueId, Resource)> = self
            .w
            .tree
            .get(q)
            .children
            .iter()
            .map(|&c| {
                let c_max = caps.own_max(era, calc, c, cluster, min_alloc);
                let l = child_limit(
                    calc,
                    cluster,
                    limit,
                    used[q.idx()],
                    used[c.idx()],
                    c_max,
                    min_alloc,
                );
                (c, l)
            })
            .collect();
        for (c, l) in kids {
            self.cs_set_current_limits(c, l, used, leaves);
        }
    }

    /// Records the limit leaf `leaf` is held to, as a node offer reaching one of its apps
    /// or a cluster update computes it (read by its next activation).
    pub(crate) fn cs_note_current_limit(&mut self, leaf: QueueId, limit: Resource) {
        if let Some(cs) = self.capacity.as_deref_mut() {
            cs.activation.leaf_mut(leaf).current_limit = limit;
        }
    }

    /// The activation state, for the engine's cycle watch.
    pub(crate) fn cs_activation_print(&self) -> String {
        self.capacity
            .as_deref()
            .map(|cs| format!("{:?}", cs.activation.leaves))
            .unwrap_or_default()
    }
}
