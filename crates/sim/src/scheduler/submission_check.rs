//! Which apps a run would reject at submission, found without running it: every app of the
//! workload (drawn for the seed) goes through the checks `on_app_arrived` makes, in arrival
//! order and at its arrival time: the maximum allocation in force (`admission`), then
//! placement (the Fair Scheduler's rules, creating the queues they create, so later apps see
//! them; the Capacity Scheduler's lookup with `queue-mappings`). `fairsim validate` warns
//! with the result.

use crate::engine::{SimError, Simulation};
use crate::recorder::NullRecorder;
use crate::scenario::Scenario;
use crate::time::SimTime;
use crate::tree::SchedulerKind;
use std::collections::BTreeMap;

/// Why an app is rejected, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RejectKind {
    /// An empty queue name, or one starting or ending with a period.
    BadName,
    /// A queue that does not exist and no rule creates.
    UnknownQueue,
    /// A parent queue.
    ParentQueue,
    /// An ask above the maximum allocation.
    AboveMaximum,
    /// A `reject` placement rule.
    RejectRule,
    /// Any other reason.
    Other,
}

impl RejectKind {
    fn of(reason: &str) -> RejectKind {
        let has = |s: &str| reason.contains(s);
        if has("empty queue name") || has("illegal queue name") || has("starts or ends with") {
            RejectKind::BadName
        } else if has("maximum allocation") {
            RejectKind::AboveMaximum
        } else if has("non-leaf queue") || has("is a parent queue") {
            RejectKind::ParentQueue
        } else if has("unknown queue") || has("no placement rule") {
            RejectKind::UnknownQueue
        } else if has("rejected by the placement policy") {
            RejectKind::RejectRule
        } else {
            RejectKind::Other
        }
    }

    /// The kind as the warning prints it.
    pub fn describe(self) -> &'static str {
        match self {
            RejectKind::BadName => "empty or malformed queue name",
            RejectKind::UnknownQueue => "unknown queue",
            RejectKind::ParentQueue => "parent queue",
            RejectKind::AboveMaximum => "ask above the maximum allocation",
            RejectKind::RejectRule => "reject rule",
            RejectKind::Other => "other",
        }
    }
}

/// The apps a run would reject.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejections {
    /// Apps in the workload.
    pub apps: usize,
    /// Each rejected app's name and reason, in arrival order.
    pub rejected: Vec<(String, String)>,
}

impl Rejections {
    /// How many apps each kind of reason rejects.
    pub fn counts(&self) -> BTreeMap<RejectKind, usize> {
        let mut m = BTreeMap::new();
        for (_, reason) in &self.rejected {
            *m.entry(RejectKind::of(reason)).or_insert(0) += 1;
        }
        m
    }

    /// The warning lines: the count by kind, then the first `first` apps with their reason.
    pub fn warning(&self, seed: u64, first: usize) -> Vec<String> {
        if self.rejected.is_empty() {
            return Vec::new();
        }
        let kinds: Vec<String> = self
            .counts()
            .iter()
            .map(|(k, n)| format!("{n} {}", k.describe()))
            .collect();
        let mut out = vec![format!(
            "{} of {} apps would be rejected at submission (seed {seed}): {}",
            self.rejected.len(),
            self.apps,
            kinds.join(", ")
        )];
        for (name, reason) in self.rejected.iter().take(first) {
            out.push(format!("  app {name}: {reason}"));
        }
        if self.rejected.len() > first {
            out.push(format!("  and {} more", self.rejected.len() - first));
        }
        out
    }
}

/// The apps of `sc`'s workload for `seed` that a run would reject at submission.
pub fn rejected_apps(sc: &Scenario, seed: u64) -> Result<Rejections, SimError> {
    let mut rec = NullRecorder;
    let mut sim = Simulation::new(sc, seed, 0, &mut rec)?;
    let mut order: Vec<u32> = (0..sim.specs.len() as u32).collect();
    order.sort_by_key(|&a| (sim.specs[a as usize].arrival, a));
    let mut rejected = Vec::new();
    for a in order {
        sim.now = SimTime(sim.specs[a as usize].arrival.0);
        let placed = sim.admit(a).and_then(|()| {
            let spec = &sim.specs[a as usize];
            let (queue, user) = (spec.queue.clone(), spec.user.clone());
            if sim.tree.scheduler == SchedulerKind::Capacity {
                sim.cs_place(&queue, &user).map(|_| ())
            } else {
                sim.place(&queue, &user).map(|_| ())
            }
        });
        if let Err(reason) = placed {
            rejected.push((sim.specs[a as usize].name.clone(), reason));
        }
    }
    Ok(Rejections {
        apps: sim.specs.len(),
        rejected,
    })
}
