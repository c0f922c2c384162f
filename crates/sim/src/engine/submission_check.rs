//! Which apps a run would reject at submission, found without running it: every app of the
//! workload (drawn for the seed) goes through the checks `on_app_arrived` makes, in arrival
//! order and at its arrival time: the maximum allocation in force (`admission`), then
//! placement (the Fair Scheduler's rules, creating the queues they create, so later apps see
//! them; the Capacity Scheduler's lookup with `queue-mappings`). `fairsim validate` warns
//! with the result: the apps rejected, and the queues the rules create, with the rule and
//! the first app that creates each.

use crate::engine::{SimError, Simulation};
use crate::recorder::NullRecorder;
use crate::scenario::Scenario;
use crate::time::SimTime;
use crate::tree::{PlacementRule, SchedulerKind};
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
    /// The Capacity Scheduler's `maximum-applications` of the leaf, or its per-user
    /// maximum, reached (apps waiting or running).
    AppLimit,
    /// A Capacity Scheduler queue (or a parent of it) in state STOPPED.
    Stopped,
    /// A leaf the Capacity Scheduler does not auto-create (the parent's limits or form).
    NotCreated,
    /// Any other reason.
    Other,
}

impl RejectKind {
    /// The kind of a rejection reason as the simulation words it.
    pub fn of(reason: &str) -> RejectKind {
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
        } else if has("maximum-applications") || has("per-user maximum") {
            RejectKind::AppLimit
        } else if has("is STOPPED") {
            RejectKind::Stopped
        } else if has("cannot auto-create") || has("does not create leaf queues") {
            RejectKind::NotCreated
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
            RejectKind::AppLimit => "maximum applications reached",
            RejectKind::Stopped => "stopped queue",
            RejectKind::NotCreated => "queue not auto-created",
            RejectKind::Other => "other",
        }
    }
}

/// The apps a run would reject, and the queues submission would create.
#[derive(Debug, Clone, PartialEq)]
pub struct Rejections {
    /// Apps in the workload.
    pub apps: usize,
    /// Each rejected app's name and reason, in arrival order.
    pub rejected: Vec<(String, String)>,
    /// Queues the placement rules create, in the order they are made.
    pub created: Vec<CreatedQueue>,
}

/// A queue the allocation file does not name that a placement rule creates at submission.
#[derive(Debug, Clone, PartialEq)]
pub struct CreatedQueue {
    /// Full name.
    pub queue: String,
    /// The rule that creates it, as the allocation file writes it.
    pub rule: String,
    /// The first app placed in it, with the queue and user it was submitted with.
    pub app: String,
    /// The queue the app asked for.
    pub requested: String,
    /// The submitting user.
    pub user: String,
    /// How many apps are placed in it (seed's workload).
    pub apps: usize,
}

/// A placement rule as `queuePlacementPolicy` writes it.
fn rule_text(rule: &PlacementRule) -> String {
    let create = |c: &bool| if *c { "" } else { " create=\"false\"" };
    match rule {
        PlacementRule::Specified { create: c } => {
            format!("<rule name=\"specified\"{}/>", create(c))
        }
        PlacementRule::User { create: c } => format!("<rule name=\"user\"{}/>", create(c)),
        PlacementRule::PrimaryGroup { create: c } => {
            format!("<rule name=\"primaryGroup\"{}/>", create(c))
        }
        PlacementRule::SecondaryGroupExistingQueue { .. } => {
            "<rule name=\"secondaryGroupExistingQueue\"/>".into()
        }
        PlacementRule::NestedUserQueue { create: c, inner } => format!(
            "<rule name=\"nestedUserQueue\"{}>{}</rule>",
            create(c),
            rule_text(inner)
        ),
        PlacementRule::Default { queue, create: c } => {
            format!("<rule name=\"default\" queue=\"{queue}\"{}/>", create(c))
        }
        PlacementRule::Reject => "<rule name=\"reject\"/>".into(),
        PlacementRule::CapacityMapping { .. } => "yarn.scheduler.capacity.queue-mappings".into(),
    }
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

    /// The lines saying which queues submission creates, by which rule (empty when none).
    pub fn created_warning(&self, seed: u64) -> Vec<String> {
        if self.created.is_empty() {
            return Vec::new();
        }
        let noun = if self.created.len() == 1 {
            "queue"
        } else {
            "queues"
        };
        let mut out = vec![format!(
            "submission would create {} {noun} the allocation file does not name (seed {seed}): {}",
            self.created.len(),
            self.created
                .iter()
                .map(|c| c.queue.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )];
        for c in &self.created {
            let more = match c.apps {
                1 => String::new(),
                2 => " (and 1 more app)".into(),
                n => format!(" (and {} more apps)", n - 1),
            };
            out.push(format!(
                "  {}: by {} for app {} (queue `{}`, user `{}`){more}",
                c.queue, c.rule, c.app, c.requested, c.user
            ));
        }
        out
    }
}

/// The apps of `sc`'s workload for `seed` that a run would reject at submission.
pub fn rejected_apps(sc: &Scenario, seed: u64) -> Result<Rejections, SimError> {
    let mut rec = NullRecorder;
    let mut sim = Simulation::new(sc, seed, 0, &mut rec)?;
    let mut order: Vec<u32> = (0..sim.w.specs.len() as u32).collect();
    order.sort_by_key(|&a| (sim.w.specs[a as usize].arrival, a));
    let mut rejected = Vec::new();
    let mut created: Vec<CreatedQueue> = Vec::new();
    for a in order {
        sim.cx.now = SimTime(sim.w.specs[a as usize].arrival.0);
        let before = sim.w.tree.len();
        let spec = &sim.w.specs[a as usize];
        let (name, queue, user) = (spec.name.clone(), spec.queue.clone(), spec.user.clone());
        let placed = sim.sched().admit(a).and_then(|()| {
            if sim.w.tree.scheduler == SchedulerKind::Capacity {
                sim.sched().cs_place(&queue, &user).map(|q| (q, None))
            } else {
                sim.sched()
                    .place_with_rule(&queue, &user)
                    .map(|(q, r)| (q, Some(r)))
            }
        });
        match placed {
            Err(reason) => rejected.push((name, reason)),
            Ok((leaf, rule)) => {
                let leaf_name = &sim.w.tree.get(leaf).name;
                if let Some(c) = created.iter_mut().find(|c| &c.queue == leaf_name) {
                    c.apps += 1;
                }
                // Parents made on the way are named by the leaf they were made for.
                if sim.w.tree.len() > before {
                    created.push(CreatedQueue {
                        queue: leaf_name.clone(),
                        rule: rule
                            .as_ref()
                            .map_or_else(|| "the Capacity Scheduler's placement".into(), rule_text),
                        app: name,
                        requested: queue,
                        user,
                        apps: 1,
                    });
                }
            }
        }
    }
    Ok(Rejections {
        apps: sim.w.specs.len(),
        rejected,
        created,
    })
}
