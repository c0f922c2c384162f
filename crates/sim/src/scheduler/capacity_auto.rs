//! Hadoop 3.3's auto-created leaf queues in a run: a queue mapping that names a leaf of a
//! parent with `auto-create-child-queue.enabled` creates it at submission
//! (`CapacityScheduler.autoCreateLeafQueue`, `ManagedParentQueue.addChildQueue`) with the
//! parent's template, and the management policy (`capacity::auto_queues`) gives each leaf
//! the template's capacity or 0 when it is made and, when the ResourceManager runs
//! `QueueManagementDynamicEditPolicy` (`input::monitor_policies`), at every run of the
//! policy, at the first update tick of each of its monitoring intervals; without it a leaf
//! keeps what it was given when made. A leaf made at 0 keeps the template's maximum
//! capacity, so it may still run on what others leave idle. Leaves are never removed (the
//! legacy policy only deactivates them).

use crate::capacity::auto_queues::{AutoTemplate, ManagedParent, resolve};
use crate::capacity::config::CapacityForm;
use crate::scheduler::Sched;
use crate::tree::{QueueId, QueueTree};

/// The policy's state of every managed parent, and when it last ran.
#[derive(Debug, Clone, Default)]
pub(crate) struct AutoQueues {
    /// One entry per parent that creates leaves, in the tree's order.
    pub parents: Vec<ManagedParent>,
    /// The time of the policy's last run.
    pub last_run: Option<u64>,
    /// The policy's monitoring interval, when the ResourceManager runs it.
    pub interval_ms: Option<u64>,
}

impl AutoQueues {
    /// The managed parents of `tree`, none of them with a leaf yet; `interval_ms` is the
    /// management policy's interval when its monitor runs.
    pub(crate) fn of(tree: &QueueTree, interval_ms: Option<u64>) -> AutoQueues {
        let parents = (tree.queues.iter().enumerate())
            .filter(|(_, q)| q.cs.auto_create.is_some())
            .map(|(i, _)| ManagedParent::new(QueueId(i as u32)))
            .collect();
        AutoQueues {
            parents,
            last_run: None,
            interval_ms,
        }
    }
}

impl Sched<'_, '_> {
    /// The parent that creates leaves named `name` in a queue mapping (its path, or its
    /// short name as Hadoop 3.3's mappings write it).
    pub(crate) fn cs_managed_parent(&self, name: &str) -> Option<QueueId> {
        let cs = self.capacity.as_ref()?;
        cs.auto.parents.iter().map(|p| p.parent).find(|&p| {
            let full = &self.w.tree.get(p).name;
            full == name || full.rsplit('.').next() == Some(name)
        })
    }

    /// Leaf `short` of managed parent `parent`, created with the parent's template when it
    /// does not exist yet; `Err` with the reason Hadoop refuses to create it.
    pub(crate) fn cs_auto_leaf(&mut self, parent: QueueId, short: &str) -> Result<QueueId, String> {
        let tree = &self.w.tree;
        let parent_name = tree.get(parent).name.clone();
        if let Some(&c) = (tree.get(parent).children.iter())
            .find(|&&c| tree.get(c).name.rsplit('.').next() == Some(short))
        {
            return Ok(c);
        }
        let Some(t) = self.cs_template(parent) else {
            return Err(format!("{parent_name} does not create leaf queues"));
        };
        let Some(cs) = self.capacity.as_ref() else {
            return Err("the Capacity Scheduler's state is missing".into());
        };
        if short.is_empty() || short.contains('.') {
            return Err(format!(
                "cannot auto-create leaf queue `{short}` under {parent_name}: a queue name \
                 with a period or no name is not modelled"
            ));
        }
        if cs.short_names.contains_key(short) {
            return Err(format!(
                "cannot auto-create leaf queue {parent_name}.{short}: a queue named {short} \
                 exists elsewhere in the tree, which is not modelled"
            ));
        }
        let n_children = tree.get(parent).children.len() as i64;
        if n_children >= t.max_queues {
            return Err(format!(
                "cannot auto-create leaf queue {parent_name}.{short}: {parent_name} holds \
                 {n_children} leaf queues, its auto-create-child-queue.max-queues {}",
                t.max_queues
            ));
        }
        let parent_abs = cs.caps.absolute[parent.idx()] as f32;
        let template_abs = t.absolute(parent_abs);
        if t.fail_on_exceeding {
            let mut sum = 0.0f32;
            for c in &tree.get(parent).children {
                sum += cs.caps.absolute[c.idx()] as f32;
            }
            if template_abs + sum > parent_abs {
                return Err(format!(
                    "cannot auto-create leaf queue {parent_name}.{short}: its leaves' \
                     capacities have reached {parent_name}'s guaranteed capacity \
                     (auto-create-child-queue.fail-on-exceeding-parent-capacity)"
                ));
            }
        }
        let parent_conf = tree.get(parent);
        let (system_apps, stopped, continue_looking) = (
            parent_conf.cs.system_maximum_applications,
            parent_conf.cs.stopped,
            parent_conf.cs.continue_looking,
        );
        let q = self.w.tree.add_queue(parent, short, true);
        {
            let c = self.w.tree.get_mut(q);
            c.configured = false;
            set_capacity(c, &t, false);
            c.maximum_capacity_percent = Some(t.maximum_capacity_percent);
            c.user_limit_factor = Some(t.user_limit_factor);
            c.minimum_user_limit_percent = Some(t.minimum_user_limit_percent);
            c.ordering_policy = Some(t.ordering_policy);
            c.maximum_am_resource_fraction = Some(t.am_fraction);
            c.cs.size_based_weight = t.size_based_weight;
            c.cs.system_maximum_applications = system_apps;
            c.cs.stopped = stopped;
            c.cs.continue_looking = continue_looking;
            // The leaf is built with the template's capacities and only then set to what
            // the policy gives it: its application limit stays the template's.
            c.cs.maximum_applications = Some(
                t.maximum_applications
                    .unwrap_or((system_apps as f32 * template_abs) as i32),
            );
        }
        let name = self.w.tree.get(q).name.clone();
        self.w.queue_ids.insert(name, q);
        let state = self.w.new_queue_state(q);
        self.w.queues.push(state);
        self.w.queues[parent.idx()].child_list.push(q.0);
        let active = match self.capacity.as_mut() {
            Some(cs) => {
                cs.short_names.insert(short.to_string(), q);
                (cs.auto.parents.iter_mut())
                    .find(|p| p.parent == parent)
                    .is_some_and(|p| p.admit(q, parent_abs, template_abs))
            }
            None => false,
        };
        if active {
            set_capacity(self.w.tree.get_mut(q), &t, true);
        }
        self.cs_capacities_changed();
        Ok(q)
    }

    /// The management policy's run, at the first update tick of each monitoring interval.
    pub(crate) fn cs_manage_auto_queues(&mut self) {
        let now = self.cx.now.0;
        let Some(cs) = self.capacity.as_mut() else {
            return;
        };
        let Some(interval) = cs.auto.interval_ms else {
            return;
        };
        if cs.auto.parents.is_empty()
            || (cs.auto.last_run).is_some_and(|t| now < t.saturating_add(interval))
        {
            return;
        }
        cs.auto.last_run = Some(now);
        let mut changed = false;
        for i in 0..cs.auto.parents.len() {
            let parent = cs.auto.parents[i].parent;
            let Some(t) = template_of(self.w, parent) else {
                continue;
            };
            let parent_abs = cs.caps.absolute[parent.idx()] as f32;
            let template_abs = t.absolute(parent_abs);
            let apps = managed_apps(self.w, &cs.auto.parents[i]);
            let queues = &self.w.queues;
            let held = |q: QueueId| queues[q.idx()].runnable + queues[q.idx()].waiting;
            let ch = cs.auto.parents[i].run(parent_abs, template_abs, &apps, held);
            for q in &ch.deactivated {
                set_capacity(self.w.tree.get_mut(*q), &t, false);
            }
            for q in &ch.activated {
                set_capacity(self.w.tree.get_mut(*q), &t, true);
            }
            changed |= !(ch.activated.is_empty() && ch.deactivated.is_empty());
        }
        if changed {
            self.cs_capacities_changed();
        }
    }

    /// Whether the policy's next run would change a leaf (an update tick is then not idle).
    pub(crate) fn cs_auto_queues_pending(&self) -> bool {
        let Some(cs) = self.capacity.as_ref() else {
            return false;
        };
        if cs.auto.interval_ms.is_none() {
            return false;
        }
        cs.auto.parents.iter().any(|p| {
            let Some(t) = &template_of(self.w, p.parent) else {
                return false;
            };
            let abs = cs.caps.absolute[p.parent.idx()] as f32;
            let apps = managed_apps(self.w, p);
            let queues = &self.w.queues;
            p.would_change(abs, t.absolute(abs), &apps, |q| {
                queues[q.idx()].runnable + queues[q.idx()].waiting
            })
        })
    }

    /// The policy's part of the cycle fingerprint: which leaves are active, and how long
    /// ago it last ran, capped at the interval (past it every age acts alike).
    pub(crate) fn cs_auto_print(&self) -> String {
        let Some(cs) = self.capacity.as_ref() else {
            return String::new();
        };
        if cs.auto.parents.is_empty() {
            return String::new();
        }
        let interval = cs.auto.interval_ms.unwrap_or(0);
        let age = (cs.auto.last_run).map(|t| self.cx.now.0.saturating_sub(t).min(interval));
        let active: Vec<&Vec<(QueueId, bool)>> =
            cs.auto.parents.iter().map(|p| &p.leaves).collect();
        format!("{active:?} {age:?}")
    }

    /// Capacities derived again after a leaf's capacity changed, with each queue's
    /// guarantee (what the metrics read as its min share).
    fn cs_capacities_changed(&mut self) {
        let cluster = self.w.cluster.total;
        let Some(cs) = self.capacity.as_mut() else {
            return;
        };
        cs.caps = std::sync::Arc::new(crate::capacity::Capacities::at(&self.w.tree, cluster));
        for (i, qs) in self.w.queues.iter_mut().enumerate() {
            qs.min_share = cs.caps.guaranteed(QueueId(i as u32), cluster);
        }
        self.rerank_queues();
        self.w.compute_steady_shares();
    }
}

impl Sched<'_, '_> {
    /// `parent`'s leaf template, its absolute resources (if any) turned into percentages on
    /// the cluster of now.
    fn cs_template(&self, parent: QueueId) -> Option<AutoTemplate> {
        template_of(self.w, parent)
    }
}

/// An auto-created leaf given the template's capacity (`active`) or 0, a percentage of its
/// parent (an absolute template's already turned into one by `resolve`).
fn set_capacity(c: &mut crate::tree::QueueConf, t: &AutoTemplate, active: bool) {
    c.capacity_percent = Some(if active { t.capacity_percent } else { 0.0 });
}

fn template_of(w: &crate::state::world::World<'_>, parent: QueueId) -> Option<AutoTemplate> {
    let q = w.tree.get(parent);
    let t = q.cs.auto_create.as_ref()?;
    let min = match q.cs.form {
        CapacityForm::Absolute(r) => r,
        _ => fairsim_core::Resource::ZERO,
    };
    Some(resolve(
        t,
        w.tree.resource_calculator,
        w.cluster.total,
        min,
        q.cs.maximum_resource,
    ))
}

/// The leaf of each application of the leaves `parent` created, waiting or running, in
/// submission order (`getAllApplications` sorted by submit time; equal times in
/// application order). Leaves configured beside them are left out: how Hadoop's policy
/// treats those is not modelled (the reader warns).
fn managed_apps(w: &crate::state::world::World<'_>, parent: &ManagedParent) -> Vec<QueueId> {
    let mut apps: Vec<(u64, u32, QueueId)> = Vec::new();
    for &(c, _) in &parent.leaves {
        let qs = &w.queues[c.idx()];
        for &a in qs.runnable_apps.iter().chain(&qs.waiting_apps) {
            apps.push((w.specs[a as usize].arrival.0, a, c));
        }
    }
    apps.sort_unstable();
    apps.into_iter().map(|(_, _, q)| q).collect()
}
