//! Where the Capacity Scheduler puts a submitted app (`CapacityScheduler.addApplication`):
//! the queue named in the submission, looked up by its leaf name (both eras: leaf names are
//! unique in a capacity-scheduler.xml) or, in the hadoop-3.3 era, by its full path. An
//! unknown queue (`default` when no leaf has that name, an empty name, a full path in 2.7)
//! or a parent queue (`root`, any inner queue) rejects the app with YARN's reason. Queues
//! are never created. `yarn.scheduler.capacity.queue-mappings` (`u:user:queue`,
//! `g:group:queue`, `%user` and `%primary_group`) first replace `default`, or any name with
//! `queue-mappings-override.enable`.

use crate::engine::Simulation;
use crate::tree::{PlacementRule, QueueId};
use fairsim_core::Semantics;

impl Simulation<'_> {
    /// The leaf queue for an app submitted to `requested` by `user`; `Err` with the reason
    /// when the Capacity Scheduler rejects it.
    pub(crate) fn cs_place(&self, requested: &str, user: &str) -> Result<QueueId, String> {
        let mapped = self.cs_mapped_queue(requested, user);
        let requested = mapped.as_deref().unwrap_or(requested);
        let by_full_path = self.semantics == Semantics::Hadoop33;
        let found = self.tree.queues.iter().position(|q| {
            let short = q.name.rsplit('.').next().unwrap_or(&q.name);
            short == requested || (by_full_path && q.name == requested)
        });
        match found {
            None => Err(format!(
                "submitted by user {user} to unknown queue: {requested}"
            )),
            Some(i) if !self.tree.queues[i].is_leaf => Err(format!(
                "submitted by user {user} to non-leaf queue: {requested}"
            )),
            Some(i) => Ok(QueueId(i as u32)),
        }
    }

    /// `CapacityScheduler.getMappedQueue`: the first `queue-mappings` entry that matches the
    /// user (`u:`) or one of the user's groups (`g:`, primary first); used when the app was
    /// submitted to `default`, or always with `queue-mappings-override.enable`.
    fn cs_mapped_queue(&self, requested: &str, user: &str) -> Option<String> {
        let groups = &self.sc.scheduler.groups;
        for rule in &self.tree.placement {
            let PlacementRule::CapacityMapping {
                group,
                source,
                queue,
                override_named,
            } = rule
            else {
                continue;
            };
            if requested != "default" && !override_named {
                return None;
            }
            let target = |q: &str| match q {
                "%user" => user.to_string(),
                "%primary_group" => groups.primary(user).to_string(),
                _ => q.to_string(),
            };
            if !group {
                if source == "%user" || source == user {
                    return Some(target(queue));
                }
            } else if groups.primary(user) == source
                || groups.secondary(user).iter().any(|g| g == source)
            {
                return Some(target(queue));
            }
        }
        None
    }
}
