//! Where the Capacity Scheduler puts a submitted app (`CapacityScheduler.addApplication`):
//! the queue named in the submission, looked up by its leaf name (both eras: leaf names are
//! unique in a capacity-scheduler.xml) or, in the hadoop-3.3 era, by its full path. An
//! unknown queue (`default` when no leaf has that name, an empty name, a full path in 2.7)
//! or a parent queue (`root`, any inner queue) rejects the app with YARN's reason. Queues
//! are never created. `yarn.scheduler.capacity.queue-mappings` (`u:user:queue`,
//! `g:group:queue`, `%user` and `%primary_group`) first replace `default`, or any name with
//! `queue-mappings-override.enable`.

use crate::scheduler::Sched;
use crate::tree::{PlacementRule, QueueId, QueueTree};
use fairsim_core::Semantics;
use std::collections::BTreeMap;

/// Each short queue name (the last part of its path) → the first queue of `tree` with it,
/// in the tree's order: what a scan of the queues by short name would find first.
pub(crate) fn short_names(tree: &QueueTree) -> BTreeMap<String, QueueId> {
    let mut index = BTreeMap::new();
    for (i, q) in tree.queues.iter().enumerate() {
        let short = q.name.rsplit('.').next().unwrap_or(&q.name);
        index.entry(short.to_string()).or_insert(QueueId(i as u32));
    }
    index
}

impl Sched<'_, '_> {
    /// The leaf queue for an app submitted to `requested` by `user`; `Err` with the reason
    /// when the Capacity Scheduler rejects it.
    pub(crate) fn cs_place(&mut self, requested: &str, user: &str) -> Result<QueueId, String> {
        let mapped = self.cs_mapped_queue(requested, user);
        // Hadoop 3.3: `parent.leaf` names a leaf a managed parent creates if it is missing.
        if let Some((parent, leaf)) = mapped.as_deref().and_then(|m| m.rsplit_once('.'))
            && let Some(p) = self.cs_managed_parent(parent)
        {
            let q = self.cs_auto_leaf(p, leaf)?;
            return self.cs_accepts(q, user).map(|()| q);
        }
        let requested = mapped.as_deref().unwrap_or(requested);
        // The first queue in the tree's order whose short name, or (3.3) full path, is the
        // requested one.
        let by_short = (self.capacity.as_ref())
            .and_then(|cs| cs.short_names.get(requested))
            .copied();
        let by_path = match self.w.semantics {
            Semantics::Hadoop33 => self.w.queue_ids.get(requested).copied(),
            Semantics::Hadoop27 => None,
        };
        let found = match (by_short, by_path) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        match found {
            None => Err(format!(
                "submitted by user {user} to unknown queue: {requested}"
            )),
            Some(q) if !self.w.tree.get(q).is_leaf => Err(format!(
                "submitted by user {user} to non-leaf queue: {requested}"
            )),
            Some(q) => self.cs_accepts(q, user).map(|()| q),
        }
    }

    /// `LeafQueue.validateSubmitApplication`: a STOPPED queue (or one under a STOPPED
    /// parent) accepts nothing; a leaf holding `maxApplications` apps (waiting or running),
    /// or `maxApplicationsPerUser` of this user's, rejects the submission
    /// (`capacity::app_limits`).
    fn cs_accepts(&self, leaf: QueueId, user: &str) -> Result<(), String> {
        let conf = self.w.tree.get(leaf);
        if conf.cs.stopped {
            return Err(format!(
                "queue {} is STOPPED: it accepts no application",
                conf.name
            ));
        }
        let absolute = self
            .capacity
            .as_ref()
            .map_or(0.0, |c| c.caps.absolute[leaf.idx()]);
        let (max_apps, max_per_user) = crate::capacity::app_limits::max_applications(
            self.w.semantics,
            &conf.cs,
            absolute,
            conf.minimum_user_limit_percent.unwrap_or(100.0),
            conf.user_limit_factor.unwrap_or(1.0),
        );
        let qs = &self.w.queues[leaf.idx()];
        let held = i64::from(qs.runnable) + i64::from(qs.waiting);
        if held >= max_apps {
            return Err(format!(
                "queue {} already has {held} applications, its maximum-applications {max_apps}",
                conf.name
            ));
        }
        let of_user = self.w.user_index.get(user).map_or(0, |&uid| {
            qs.runnable_apps
                .iter()
                .chain(&qs.waiting_apps)
                .filter(|&&a| self.w.apps[a as usize].user == uid)
                .count() as i64
        });
        if of_user >= max_per_user {
            return Err(format!(
                "queue {} already has {of_user} applications from user {user}, its per-user \
                 maximum {max_per_user}",
                conf.name
            ));
        }
        Ok(())
    }

    /// The first `queue-mappings` entry that matches the user (`u:`) or one of the user's
    /// groups (`g:`, primary first), when it applies: Hadoop 2.7's
    /// `CapacityScheduler.getMappedQueue` maps an app submitted to `default`, or any app
    /// with `queue-mappings-override.enable`; Hadoop 3.3's `UserGroupMappingPlacementRule`
    /// also one submitted to the mapped leaf's own name. A target `parent.%user` (3.3)
    /// names the user's leaf under a parent that creates it.
    fn cs_mapped_queue(&self, requested: &str, user: &str) -> Option<String> {
        let groups = &self.w.sc.scheduler.groups;
        let leaf = |q: &str| match q {
            "%user" => user.to_string(),
            "%primary_group" => groups.primary(user).to_string(),
            _ => q.to_string(),
        };
        let target = |q: &str| match q.rsplit_once('.') {
            Some((parent, l)) => format!("{parent}.{}", leaf(l)),
            None => leaf(q),
        };
        let found = self.w.tree.placement.iter().find_map(|rule| {
            let PlacementRule::CapacityMapping {
                group,
                source,
                queue,
                override_named,
            } = rule
            else {
                return None;
            };
            let matches = if !group {
                source == "%user" || source == user
            } else {
                groups.primary(user) == source || groups.secondary(user).iter().any(|g| g == source)
            };
            matches.then(|| (target(queue), *override_named))
        })?;
        let (mapped, override_named) = found;
        let mapped_leaf = mapped.rsplit('.').next().unwrap_or(&mapped);
        let applies = requested == "default"
            || override_named
            || (self.w.semantics == Semantics::Hadoop33 && requested == mapped_leaf);
        applies.then_some(mapped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capacity::testing::tree;

    #[test]
    fn short_names_map_to_the_first_queue_in_tree_order() {
        // root.x is a parent and root.y.x a leaf: a scan by short name finds root.x (id 1)
        // first, so `x` names the parent (and is refused as a non-leaf queue).
        let t = tree(&[
            ("root", None, 100.0, 100.0),
            ("root.x", Some(0), 50.0, 100.0),
            ("root.x.a", Some(1), 100.0, 100.0),
            ("root.y", Some(0), 50.0, 100.0),
            ("root.y.x", Some(3), 100.0, 100.0),
        ]);
        let index = short_names(&t);
        assert_eq!(index.get("x"), Some(&QueueId(1)));
        assert_eq!(index.get("a"), Some(&QueueId(2)));
        assert_eq!(index.get("root"), Some(&QueueId(0)));
        assert_eq!(index.len(), 5 - 1);
    }
}
