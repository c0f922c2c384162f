//! Queue placement (`queuePlacementPolicy`, Hadoop's `QueuePlacementPolicy`).
//!
//! An empty submitted queue name, or one starting or ending with a period, rejects the app
//! before any rule runs (`FairScheduler.addApplication`, both eras). Rules are tried in
//! order. Groups come from the scenario's `users` file (`crate::groups`); without it a
//! user's primary group is the user's name and there are no secondary groups, so
//! `secondaryGroupExistingQueue` continues.
//! A queue created by a rule is a new leaf under its parent with the settings YARN gives a
//! queue the file does not name (`QueueTree::add_queue`: the file's defaults, the parent's
//! `maxChildResources` and preemption settings); missing intermediate queues are created as
//! parents. The preemption state grows to cover it. An app placed on a parent queue, or left unplaced by every rule, is
//! rejected and counted in the outputs (`apps_rejected`, `status` in apps.csv).

use crate::scheduler::Sched;
use crate::tree::{PlacementRule, QueueId};
use fairsim_core::Semantics;

impl Sched<'_, '_> {
    /// The leaf queue for an app submitted to `requested` by `user`, creating it if a rule
    /// allows; `Err` with the reason when the app is rejected.
    pub(crate) fn place(&mut self, requested: &str, user: &str) -> Result<QueueId, String> {
        self.place_with_rule(requested, user).map(|(q, _)| q)
    }

    /// [`Sched::place`], with the rule that placed the app (for `fairsim validate`'s
    /// account of the queues submission creates).
    pub(crate) fn place_with_rule(
        &mut self,
        requested: &str,
        user: &str,
    ) -> Result<(QueueId, PlacementRule), String> {
        // FairScheduler.addApplication checks the name before any rule runs.
        if requested.is_empty() {
            return Err(format!("submitted by user {user} with an empty queue name"));
        }
        if requested.starts_with('.') || requested.ends_with('.') {
            return Err(format!(
                "submitted by user {user} with an illegal queue name {requested}: it cannot start or end with a period"
            ));
        }
        // Hadoop 3 refuses a queue name with leading or trailing whitespace (the queue
        // manager's name check, non-breaking spaces included) and trims the user name its
        // rules build queues from (TestFairScheduler's testQueueNameWithTrailingSpace and
        // testUserAsDefaultQueueWithLeadingTrailingSpaceUserName).
        let user = if self.w.semantics == Semantics::Hadoop33 {
            if requested.trim() != requested {
                return Err(format!(
                    "submitted by user {user} with an illegal queue name `{requested}`: it has leading or trailing whitespace"
                ));
            }
            user.trim()
        } else {
            user
        };
        let rules = if self.w.tree.placement.is_empty() {
            vec![
                PlacementRule::Specified { create: true },
                PlacementRule::User { create: true },
            ]
        } else {
            self.w.tree.placement.clone()
        };
        for rule in &rules {
            match self.apply_rule(rule, requested, user)? {
                Some(q) => return Ok((q, rule.clone())),
                None => continue,
            }
        }
        Err(format!(
            "no placement rule assigned a queue to `{requested}` for user `{user}`"
        ))
    }

    fn qualified(name: &str) -> String {
        if name == "root" || name.starts_with("root.") {
            name.to_string()
        } else {
            format!("root.{name}")
        }
    }

    fn apply_rule(
        &mut self,
        rule: &PlacementRule,
        requested: &str,
        user: &str,
    ) -> Result<Option<QueueId>, String> {
        let user_q = user.replace('.', "_dot_");
        let (name, create) = match rule {
            PlacementRule::Specified { create } => {
                let r = requested.trim();
                if r.is_empty() || r == "default" {
                    return Ok(None);
                }
                if r.starts_with('.') || r.ends_with('.') {
                    return Err(format!("queue name `{r}` starts or ends with a dot"));
                }
                (Self::qualified(r), *create)
            }
            PlacementRule::User { create } => (format!("root.{user_q}"), *create),
            PlacementRule::PrimaryGroup { create } => {
                (format!("root.{}", self.primary_group_queue(user)), *create)
            }
            PlacementRule::SecondaryGroupExistingQueue { .. } => {
                match self.secondary_group_queue(user) {
                    Some(q) => (q, false),
                    None => return Ok(None),
                }
            }
            PlacementRule::NestedUserQueue { create, inner } => {
                let Some(parent) = self.rule_target(inner, requested, user) else {
                    return Ok(None);
                };
                // The nested rule answers as it would alone: one that may create names its
                // queue whether or not it exists (the parent is then made with the user's
                // queue under it), one that may not names only a configured queue.
                let inner_creates = Self::rule_creates(inner);
                match self.find_queue(&parent) {
                    None if !inner_creates => return Ok(None),
                    None => {}
                    Some(p) if !(inner_creates || self.w.tree.get(p).configured) => {
                        return Ok(None);
                    }
                    // A leaf as the parent: Hadoop 3.3's user rule passes on any leaf the
                    // parent rule names (`UserPlacementRule.getPlacementForApp`); 2.7's
                    // `NestedUserQueue` passes only on a configured leaf and names the
                    // user's queue under a leaf made at run time, which cannot be created:
                    // the app is rejected (`create_leaf`), as 2.7's `getLeafQueue` returns
                    // null ("is not a leaf queue").
                    Some(p)
                        if self.w.tree.get(p).is_leaf
                            && (self.w.semantics == Semantics::Hadoop33
                                || self.w.tree.get(p).configured) =>
                    {
                        return Ok(None);
                    }
                    Some(_) => {}
                }
                (format!("{parent}.{user_q}"), *create)
            }
            PlacementRule::Default { queue, create } => (Self::qualified(queue), *create),
            PlacementRule::Reject => return Err("rejected by the placement policy".into()),
            // Capacity Scheduler mappings never reach the Fair Scheduler's rules.
            PlacementRule::CapacityMapping { .. } => return Ok(None),
        };
        match self.find_queue(&name) {
            // A rule that may not create takes only a configured queue and otherwise
            // passes to the next rule (Hadoop 2.7 `QueuePlacementRule.assignAppToQueue`,
            // Hadoop 3.3 `FSPlacementRule.configuredQueue`): a queue made at run time, or
            // the root.default the file does not name, is not one.
            Some(q) if !create && !self.w.tree.get(q).configured => Ok(None),
            Some(q) if self.w.tree.get(q).is_leaf => Ok(Some(q)),
            Some(_) => Err(format!("`{name}` is a parent queue, not a leaf")),
            None if create => self.create_leaf(&name).map(Some),
            None => Ok(None),
        }
    }

    /// Whether `rule`, nested in a nestedUserQueue, may answer a queue that is not
    /// configured (its `create` flag; secondaryGroupExistingQueue never does).
    fn rule_creates(rule: &PlacementRule) -> bool {
        match rule {
            PlacementRule::Specified { create }
            | PlacementRule::User { create }
            | PlacementRule::PrimaryGroup { create }
            | PlacementRule::Default { create, .. } => *create,
            _ => false,
        }
    }

    /// The queue name a rule would pick, without creating anything (for nestedUserQueue).
    fn rule_target(&self, rule: &PlacementRule, requested: &str, user: &str) -> Option<String> {
        match rule {
            PlacementRule::Specified { .. } => {
                let r = requested.trim();
                (!r.is_empty() && r != "default").then(|| Self::qualified(r))
            }
            PlacementRule::User { .. } => Some(format!("root.{}", user.replace('.', "_dot_"))),
            PlacementRule::PrimaryGroup { .. } => {
                Some(format!("root.{}", self.primary_group_queue(user)))
            }
            PlacementRule::SecondaryGroupExistingQueue { .. } => self.secondary_group_queue(user),
            PlacementRule::Default { queue, .. } => Some(Self::qualified(queue)),
            _ => None,
        }
    }

    /// The user's primary group as a queue name (`.` → `_dot_`, as Hadoop cleans names).
    fn primary_group_queue(&self, user: &str) -> String {
        self.w
            .sc
            .scheduler
            .groups
            .primary(user)
            .replace('.', "_dot_")
    }

    /// `root.G` for the first secondary group G of `user` that is a configured queue (leaf
    /// or parent; queues created at run time and an unnamed root.default do not count).
    fn secondary_group_queue(&self, user: &str) -> Option<String> {
        self.w
            .sc
            .scheduler
            .groups
            .secondary(user)
            .iter()
            .map(|g| format!("root.{}", g.replace('.', "_dot_")))
            .find(|q| {
                self.find_queue(q)
                    .is_some_and(|id| self.w.tree.get(id).configured)
            })
    }

    /// The queue named `name` (full name), as `QueueTree::find` finds it, without a scan.
    fn find_queue(&self, name: &str) -> Option<QueueId> {
        self.w.queue_ids.get(name).copied()
    }

    /// Creates leaf `name` (and missing parents).
    fn create_leaf(&mut self, name: &str) -> Result<QueueId, String> {
        let parts: Vec<&str> = name.split('.').collect();
        let mut cur = QueueId::ROOT;
        let mut path = String::from("root");
        for (k, part) in parts.iter().enumerate().skip(1) {
            if part.is_empty() {
                return Err(format!("queue name `{name}` has an empty part"));
            }
            path.push('.');
            path.push_str(part);
            let last = k == parts.len() - 1;
            cur = match self.find_queue(&path) {
                Some(q) => q,
                None => {
                    if self.w.tree.get(cur).is_leaf && cur != QueueId::ROOT {
                        return Err(format!("cannot create `{path}` under leaf queue"));
                    }
                    let q = self.w.tree.add_queue(cur, part, last);
                    // Made by a rule: dynamic, so no rule that may not create takes it.
                    self.w.tree.get_mut(q).configured = false;
                    self.w.queue_ids.insert(self.w.tree.get(q).name.clone(), q);
                    let state = self.w.new_queue_state(q);
                    self.w.queues.push(state);
                    self.w.queues[cur.idx()].child_list.push(q.0);
                    self.preempt_queue_added(q);
                    q
                }
            };
        }
        self.rerank_queues();
        self.w.compute_steady_shares();
        Ok(cur)
    }
}
