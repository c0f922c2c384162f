//! Where the Capacity Scheduler puts a submitted app (`CapacityScheduler.addApplication`):
//! the queue named in the submission, looked up by its leaf name (both eras: leaf names are
//! unique in a capacity-scheduler.xml) or, in the hadoop-3.3 era, by its full path. An
//! unknown queue (`default` when no leaf has that name, an empty name, a full path in 2.7)
//! or a parent queue (`root`, any inner queue) rejects the app with YARN's reason. Queues
//! are never created.

use crate::engine::Simulation;
use crate::tree::QueueId;
use fairsim_core::Semantics;

impl Simulation<'_> {
    /// The leaf queue for an app submitted to `requested` by `user`; `Err` with the reason
    /// when the Capacity Scheduler rejects it.
    pub(crate) fn cs_place(&self, requested: &str, user: &str) -> Result<QueueId, String> {
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
}
