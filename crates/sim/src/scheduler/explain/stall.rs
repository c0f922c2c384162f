//! A stalled run's diagnosis: its unfinished apps classified once, at the stall, grouped by
//! queue and cause, each group said in a sentence with the numbers that hold it and what
//! would unblock it. Always on: it costs one pass over the unfinished apps, once.

use super::Pass;
use crate::app::AppPhase;
use crate::explain::{Cause, StallGroup};
use crate::scheduler::Sched;
use crate::tree::QueueId;
use fairsim_core::Resource;
use std::collections::BTreeMap;

/// `r` in words: memory in GB when whole, else MB, and vcores.
fn res(r: Resource) -> String {
    let mem = if r.memory_mb >= 1024 && r.memory_mb % 1024 == 0 {
        format!("{} GB", r.memory_mb / 1024)
    } else {
        format!("{} MB", r.memory_mb)
    };
    format!("{mem} and {} vcores", r.vcores)
}

/// `r`'s memory in words.
fn mem(r: Resource) -> String {
    if r.memory_mb >= 1024 && r.memory_mb % 1024 == 0 {
        format!("{} GB", r.memory_mb / 1024)
    } else {
        format!("{} MB", r.memory_mb)
    }
}

impl Sched<'_, '_> {
    /// The diagnosis of the unfinished apps, by queue name then cause.
    pub(crate) fn stall_diagnosis(&self) -> Vec<StallGroup> {
        let mut pass = Pass::new(self.w.queues.len());
        // (leaf, cause) -> (apps, waiting for their first container, the first of them).
        let mut groups: BTreeMap<(String, Cause), (u64, u64, u32)> = BTreeMap::new();
        for (i, app) in self.w.apps.iter().enumerate() {
            if !matches!(app.phase, AppPhase::Runnable | AppPhase::Waiting) {
                continue;
            }
            let a = i as u32;
            let cause = self.wait_cause(a, &mut pass);
            let name = self.w.tree.get(app.queue).name.clone();
            let e = groups.entry((name, cause)).or_insert((0, 0, a));
            e.0 += 1;
            e.1 += u64::from(app.first_container.is_none());
        }
        groups
            .into_iter()
            .map(|((queue, cause), (apps, waiting_for_am, first))| {
                let words = self.stall_words(&queue, cause, apps, waiting_for_am, first);
                StallGroup {
                    queue,
                    cause,
                    apps,
                    waiting_for_am,
                    words,
                }
            })
            .collect()
    }

    /// The sentence of one group, whose first app is `first`.
    fn stall_words(&self, queue: &str, cause: Cause, n: u64, for_am: u64, first: u32) -> String {
        let app = &self.w.apps[first as usize];
        let leaf = app.queue;
        let qs = &self.w.queues[leaf.idx()];
        let conf = self.w.tree.get(leaf);
        let cs = self.capacity.is_some();
        let ask = self
            .first_ask(first)
            .map(|p| p.size)
            .unwrap_or(Resource::ZERO);
        let who = match (n, for_am) {
            (1, 1) => format!("1 app of {queue} waiting for its AM"),
            (1, _) => format!("1 app of {queue} waiting for task containers"),
            (n, f) if f == n => format!("{n} apps of {queue} waiting for their AMs"),
            (n, 0) => format!("{n} apps of {queue} waiting for task containers"),
            (n, f) => format!("{n} apps of {queue} ({f} waiting for their AMs)"),
        };
        match cause {
            Cause::AmLimit if cs => format!(
                "{who}: the queue has not activated them: its AM limit (maximum-am-resource-percent \
                 {} of the larger of its capacity and the limit it was last held to) is {}, the \
                 activated apps' AMs are charged {}, a user's AM limit is {}, and the next AM \
                 needs {}; raise maximum-am-resource-percent, the queue's capacity or its \
                 user limits",
                conf.maximum_am_resource_fraction.unwrap_or(0.1),
                mem(self.cs_queue_am_limit(leaf)),
                mem(self.cs_am_charged(leaf)),
                mem(self.cs_user_am_limit(leaf)),
                mem(self.cs_am_resource(first))
            ),
            Cause::AmLimit => {
                let fair = self.fair_share_of(leaf);
                format!(
                    "{who}: maxAMShare refuses their AMs: the queue's fair share is {}, \
                     maxAMShare {} of it allows {} of AMs, AMs running hold {} and the next AM \
                     needs {}; raise maxAMShare (-1 turns the check off), or the queue's weight \
                     or minResources so its fair share grows",
                    mem(fair),
                    conf.max_am_share,
                    mem(Resource::new(
                        (fair.memory_mb as f64 * f64::from(conf.max_am_share.min(1.0))) as i64,
                        0
                    )),
                    mem(qs.am_usage),
                    mem(ask)
                )
            }
            Cause::QueueMax => {
                let (q, used, max) = self.full_queue_on_path(leaf, ask);
                let setting = if cs {
                    "maximum-capacity"
                } else {
                    "maxResources"
                };
                format!(
                    "{who}: {q} is at its {setting}: it holds {} of {} and the next ask needs {}; \
                     raise {q}'s {setting}",
                    res(used),
                    res(max),
                    res(ask)
                )
            }
            Cause::UserLimit => {
                let (used, cap) = self.cs_user_usage_and_limit(first, ask);
                format!(
                    "{who}: the user is at its user limit in the queue: it holds {} of a limit \
                     of {} and the next ask needs {}; raise user-limit-factor or \
                     minimum-user-limit-percent",
                    res(used),
                    res(cap),
                    res(ask)
                )
            }
            Cause::MaxRunningAppsUser
            | Cause::MaxRunningAppsQueue
            | Cause::MaxRunningAppsParent => {
                let setting = if cs {
                    "max-parallel-apps"
                } else {
                    "maxRunningApps"
                };
                let (whom, limit) = match cause {
                    Cause::MaxRunningAppsUser => {
                        let u = &self.w.users[app.user as usize];
                        ("their user".to_string(), u.max_running)
                    }
                    Cause::MaxRunningAppsQueue => (queue.to_string(), qs.max_running),
                    _ => {
                        let mut q = conf.parent;
                        let mut found = ("a parent queue".to_string(), 0);
                        while let Some(id) = q {
                            let p = &self.w.queues[id.idx()];
                            if p.runnable >= p.max_running {
                                found = (self.w.tree.get(id).name.clone(), p.max_running);
                                break;
                            }
                            q = self.w.tree.get(id).parent;
                        }
                        found
                    }
                };
                format!(
                    "{who}: not runnable, {whom} is at its {setting} of {limit} and the apps \
                     running there cannot finish; raise {whom}'s {setting}"
                )
            }
            Cause::NoRoom | Cause::BehindInOrder => self.no_room_words(&who, ask),
            Cause::NodeReserved => self.reserved_words(&who, ask),
            Cause::PreemptionOff
            | Cause::PreemptionTimeout
            | Cause::AbovePreemptionThreshold
            | Cause::PreemptionUnderWay => {
                let fair = if cs {
                    self.capacity.as_ref().map_or(Resource::ZERO, |c| {
                        c.caps.guaranteed(leaf, self.w.cluster.total)
                    })
                } else {
                    self.fair_share_of(leaf)
                };
                let share = if cs {
                    "guaranteed capacity"
                } else {
                    "fair share"
                };
                let tail = match cause {
                    Cause::PreemptionOff if !self.preempts() => {
                        "preemption is off; turn it on to take resources back from queues over \
                         their share"
                            .to_string()
                    }
                    Cause::PreemptionOff => {
                        "its preemption timeouts are unset; set fairSharePreemptionTimeout or \
                         minSharePreemptionTimeout"
                            .to_string()
                    }
                    Cause::AbovePreemptionThreshold => format!(
                        "it holds more than fairSharePreemptionThreshold {} of its fair share, so \
                         it never counts as starved and preemption never acts for it; raise the \
                         threshold",
                        conf.fair_share_preemption_threshold
                    ),
                    Cause::PreemptionTimeout => {
                        "its preemption timeout has not passed yet".to_string()
                    }
                    _ => "preemption acts for it but frees nothing it can use".to_string(),
                };
                format!(
                    "{who}: the cluster has no room for their {} asks and the queue holds {} of \
                     its {share} of {}; {tail}",
                    mem(ask),
                    mem(qs.usage),
                    mem(fair)
                )
            }
            Cause::LocalityDelay => format!(
                "{who}: nodes have room but delay scheduling waits for the nodes or racks they \
                 asked for; lower the locality thresholds or node-locality-delay"
            ),
            Cause::NextOffer => format!(
                "{who}: nothing the scheduler checks holds them back, yet no offer serves them"
            ),
        }
    }

    /// The queue on `leaf`'s path that is at its maximum for `ask`, with its usage and
    /// maximum.
    fn full_queue_on_path(&self, leaf: QueueId, ask: Resource) -> (String, Resource, Resource) {
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &self.w.queues[id.idx()];
            let full = if self.capacity.is_some() {
                !self.cs_queue_open(id, ask)
            } else {
                !qs.usage.fits_in(qs.max_share)
                    || (self.w.semantics == fairsim_core::Semantics::Hadoop33
                        && !qs.usage.saturating_add(ask).fits_in(qs.max_share))
            };
            if full {
                let max = match self.capacity.as_ref() {
                    Some(cs) => cs.caps.maximum(id, self.w.cluster.total),
                    None => qs.max_share,
                };
                return (self.w.tree.get(id).name.clone(), qs.usage, max);
            }
            q = self.w.tree.get(id).parent;
        }
        let qs = &self.w.queues[leaf.idx()];
        (self.w.tree.get(leaf).name.clone(), qs.usage, qs.max_share)
    }

    /// Why the nodes with room for `ask` serve no one in a stalled run: who reserved them,
    /// and why those apps cannot use them.
    fn reserved_words(&self, who: &str, ask: Resource) -> String {
        let fit = self.container_fit();
        let mut pass = Pass::new(self.w.queues.len());
        // Reserving queue -> (nodes, why its apps cannot use them).
        let mut by_queue: BTreeMap<String, (u64, Cause)> = BTreeMap::new();
        for n in self.w.cluster.nodes.iter().filter(|n| n.is_live()) {
            let Some(r) = n.reservation else { continue };
            if !fit.fits_in(ask, n.available()) {
                continue;
            }
            let q = self
                .w
                .tree
                .get(self.w.apps[r.app as usize].queue)
                .name
                .clone();
            let why = self.wait_cause(r.app, &mut pass);
            let e = by_queue.entry(q).or_insert((0, why));
            e.0 += 1;
        }
        let holders: Vec<String> = by_queue
            .iter()
            .map(|(q, (k, why))| {
                let reason = match why {
                    Cause::AmLimit => format!(
                        "{q}'s apps, whose AMs its AM limit refuses (Hadoop keeps a node \
                         reserved for an AM ask, and the AM check refuses it there)"
                    ),
                    Cause::QueueMax => format!("{q}'s apps, at {q}'s maximum"),
                    c => format!("{q}'s apps, themselves waiting ({})", c.name()),
                };
                format!("{k} node{} for {reason}", if *k == 1 { "" } else { "s" })
            })
            .collect();
        let fix: Vec<String> = by_queue
            .iter()
            .filter(|(_, (_, why))| *why == Cause::AmLimit)
            .map(|(q, _)| q.clone())
            .collect();
        let setting = if self.capacity.is_some() {
            "maximum-am-resource-percent"
        } else {
            "maxAMShare"
        };
        let unblock = if fix.is_empty() {
            "release what holds the reserving apps".to_string()
        } else {
            format!(
                "raise the {setting} of {} (or its weight, so its fair share grows)",
                fix.join(", ")
            )
        };
        format!(
            "{who}: every node with room for their {} asks is reserved for an app that cannot \
             use it: {}; {unblock}",
            res(ask),
            holders.join("; ")
        )
    }

    /// Why no node takes an ask of `ask` in a stalled run: what holds the cluster.
    fn no_room_words(&self, who: &str, ask: Resource) -> String {
        let mut am = (0u64, Resource::ZERO);
        let mut tasks = (0u64, Resource::ZERO);
        for c in self.w.containers.iter().filter(|c| c.live) {
            let e = if c.is_am { &mut am } else { &mut tasks };
            e.0 += 1;
            e.1 = e.1.saturating_add(c.size);
        }
        let total = self.w.cluster.total;
        let most_free = self
            .w
            .cluster
            .nodes
            .iter()
            .filter(|n| n.is_live())
            .map(|n| n.available())
            .fold(Resource::ZERO, |m, r| {
                Resource::new(m.memory_mb.max(r.memory_mb), m.vcores.max(r.vcores))
            });
        let limit = if self.capacity.is_some() {
            "maximum-am-resource-percent"
        } else {
            "maxAMShare"
        };
        if tasks.0 == 0 && am.0 > 0 {
            let held = if am.0 == 1 {
                format!(
                    "the one container running in the cluster's {} is an AM",
                    res(total)
                )
            } else {
                format!(
                    "every container running in the cluster's {} is one of {} AMs",
                    res(total),
                    am.0
                )
            };
            format!(
                "{who}: no node has room for their {} asks (the most free on a node is {}): \
                 {held} ({}) waiting for task containers that cannot start; limit the room AMs \
                 may take with {limit} (its memory-only check lets AMs take every vcore), or add \
                 nodes",
                res(ask),
                res(most_free),
                res(am.1)
            )
        } else {
            let count =
                |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
            format!(
                "{who}: no node has room for their {} asks (the most free on a node is {}): {} \
                 {} and {} {} that never finish; add nodes or make the asks smaller",
                res(ask),
                res(most_free),
                count(am.0, "AM holds", "AMs hold"),
                res(am.1),
                count(tasks.0, "task container holds", "task containers hold"),
                res(tasks.1)
            )
        }
    }
}
