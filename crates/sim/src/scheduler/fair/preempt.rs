//! The Fair Scheduler's preemption, from the update tick: the era's preemption pass
//! (`crate::preemption`), and what it decides applied.
//!
//! * hadoop-2.7: the leaf clocks move before the update (with the previous update's demand
//!   and fair share, as Hadoop's `update()` does), then every `preemption_interval_ms`
//!   containers are warned and, at a later check, killed.
//! * hadoop-3.3: after the update starved apps are identified; the preemption thread is run
//!   to completion at once: chosen containers get a kill event `wait_before_kill_ms` later
//!   and their nodes are held for the starved app, which the node offers first (and which
//!   Hadoop 3.x's reservation rules read, `may_reserve_33`).
//!
//! A killed container (`scheduler::kill`) is released at once, its task is asked for again
//! (same size, priority and run time, without its locality hints) and the time it ran is
//! counted as lost work. AM containers are never chosen (fairsim does not model restarting
//! an attempt; Hadoop takes them last).

use crate::app::AppPhase;
use crate::event::Event;
use crate::preemption::round::{Fs27, Fs33, Leaf33};
use crate::preemption::starvation::{AppLoad33, LeafCtx33, LeafLoad27, sub_non_negative};
use crate::preemption::starved_asks::{Level, LevelAsk, PriorityAsks, starved_requests_33};
use crate::preemption::victims::{
    AppView, ContainerRef, ContainerView, Decision, QueueView, Search33, Snapshot27,
};
use crate::scheduler::Outcome;
use crate::scheduler::Sched;
use crate::scheduler::fair::FairState;
use crate::scheduler::fair::victim_views::PassViews;
use crate::tree::QueueId;
use fairsim_core::{Resource, Semantics, tree_set_order};
use std::collections::BTreeMap;

/// The Fair Scheduler's preemption state: off, or its era's.
#[derive(Debug, Clone, Default)]
pub(crate) enum FairPreempt {
    /// Preemption is off.
    #[default]
    Off,
    /// Hadoop 2.7.
    Fs27(Box<Fs27>),
    /// Hadoop 3.3.
    Fs33 {
        /// Starvation state.
        fs: Box<Fs33>,
        /// Marked containers.
        search: Search33,
    },
}

/// The preemption state of the Fair Scheduler at work, borrowed apart from the rest of the
/// `Sched` (none under the Capacity Scheduler).
fn preempt_of<'f>(fair: &'f mut Option<&mut FairState>) -> Option<&'f mut FairPreempt> {
    fair.as_deref_mut().map(|f| &mut f.preempt)
}

impl Sched<'_, '_> {
    /// The Fair Scheduler's preemption state (none under the Capacity Scheduler).
    #[inline]
    pub(crate) fn fair_preempt(&self) -> Option<&FairPreempt> {
        self.fair.as_deref().map(|f| &f.preempt)
    }

    /// Sets up the preemption state for the scenario's era, once the apps are read.
    pub(crate) fn init_preemption(&mut self) {
        if !self.w.sc.scheduler.preemption {
            return;
        }
        let n_q = self.w.tree.len();
        let state = match self.w.semantics {
            Semantics::Hadoop27 => FairPreempt::Fs27(Box::new(Fs27::new(n_q, 0))),
            Semantics::Hadoop33 => FairPreempt::Fs33 {
                fs: Box::new(Fs33::new(n_q, self.w.apps.len(), 0)),
                search: Search33::default(),
            },
        };
        if let Some(p) = preempt_of(&mut self.fair) {
            *p = state;
        }
    }

    /// Queue `q` was created at run time (by a placement rule): the preemption state grows
    /// to cover it. Its starvation clocks start now, as a new `FSLeafQueue` starts them at
    /// construction.
    pub(crate) fn preempt_queue_added(&mut self, q: QueueId) {
        let now = self.cx.now.0;
        match preempt_of(&mut self.fair) {
            None | Some(FairPreempt::Off) => {}
            Some(FairPreempt::Fs27(fs)) => fs.queue_added(q, now),
            Some(FairPreempt::Fs33 { fs, .. }) => fs.queue_added(q, now),
        }
    }

    /// An app was submitted (Hadoop 3.x starts its fair-share clock).
    pub(crate) fn preempt_app_submitted(&mut self, a: u32) {
        let now = self.cx.now.0;
        if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
            fs.app_submitted(a, now);
        }
    }

    fn leaf_loads_27(&self) -> Vec<(QueueId, LeafLoad27)> {
        (self.w.tree.leaves())
            .map(|q| (q, self.leaf_load_27(q)))
            .collect()
    }

    fn leaf_load_27(&self, q: QueueId) -> LeafLoad27 {
        let (st, conf) = (&self.w.queues[q.idx()], self.w.tree.get(q));
        LeafLoad27 {
            usage: st.usage,
            demand: st.demand,
            min_share: st.min_share,
            fair_share: self.fair_share_of(q),
            threshold: conf.fair_share_preemption_threshold,
            min_share_timeout_ms: conf.min_share_preemption_timeout_ms,
            fair_share_timeout_ms: conf.fair_share_preemption_timeout_ms,
        }
    }

    /// Before the update: Hadoop 2.7 moves the starvation clocks. A leaf using at least
    /// its demand's memory is starved in neither sense (either share is compared with the
    /// smaller of it and the demand, memory only): its clocks move without its load read.
    pub(crate) fn before_update(&mut self) {
        if !matches!(self.fair_preempt(), Some(FairPreempt::Fs27(_))) {
            return;
        }
        let (mut loads, mut sated) = (Vec::new(), Vec::new());
        for q in self.w.tree.leaves() {
            let st = &self.w.queues[q.idx()];
            if st.usage.memory_mb >= st.demand.memory_mb {
                sated.push(q);
            } else {
                loads.push((q, self.leaf_load_27(q)));
            }
        }
        let now = self.cx.now.0;
        if let Some(FairPreempt::Fs27(fs)) = preempt_of(&mut self.fair) {
            fs.update_clocks(now, &loads);
            fs.not_starved(now, &sated);
        }
    }

    /// After the update: the era's preemption pass.
    pub(crate) fn after_update(&mut self) {
        match self.fair_preempt() {
            None | Some(FairPreempt::Off) => {}
            Some(FairPreempt::Fs27(_)) => self.preempt_27(),
            Some(FairPreempt::Fs33 { .. }) => self.preempt_33(),
        }
    }

    fn allocated(&self) -> Resource {
        self.w.queues[0].usage
    }

    fn preempt_27(&mut self) {
        let conf = self.w.sc.scheduler.preemption_config();
        let now = self.cx.now.0;
        if !conf.should_attempt(self.w.cluster.total, self.allocated()) {
            return;
        }
        {
            let Some(FairPreempt::Fs27(fs)) = preempt_of(&mut self.fair) else {
                return;
            };
            if !fs.preemptor.interval_due(now, conf.interval_ms) {
                return;
            }
        }
        // Read once the interval is due (most ticks it is not): the loads read nothing of
        // the preemptor.
        let loads = self.leaf_loads_27();
        let total = {
            let Some(FairPreempt::Fs27(fs)) = preempt_of(&mut self.fair) else {
                return;
            };
            fs.res_to_preempt(now, &loads)
        };
        if total.memory_mb <= 0 {
            return;
        }
        // The snapshot: runnable apps with their live non-AM containers.
        let mut by_app: BTreeMap<u32, Vec<(u32, ContainerView)>> = BTreeMap::new();
        for (slot, c) in self.w.containers.iter().enumerate() {
            if c.live && !c.is_am {
                by_app.entry(c.app).or_default().push((
                    slot as u32,
                    ContainerView {
                        id: c.id,
                        priority: c.priority,
                        size: c.size,
                        marked_at: c.marked_at(),
                        is_am: false,
                    },
                ));
            }
        }
        let runnable: Vec<u32> = (0..self.w.apps.len() as u32)
            .filter(|&a| self.w.apps[a as usize].phase == AppPhase::Runnable)
            .collect();
        let mut slot_of: BTreeMap<(u32, u64), u32> = BTreeMap::new();
        let apps: Vec<AppView> = runnable
            .iter()
            .enumerate()
            .map(|(k, &a)| {
                let cs = by_app.remove(&a).unwrap_or_default();
                for (slot, v) in &cs {
                    slot_of.insert((k as u32, v.id), *slot);
                }
                let st = &self.w.apps[a as usize];
                AppView {
                    leaf: st.queue,
                    sched: st.sched.clone(),
                    containers: cs.into_iter().map(|(_, v)| v).collect(),
                }
            })
            .collect();
        // The lists Hadoop scans for the victim, as the last descent left them: children by
        // queue id, runnable apps by their index in the snapshot.
        let mut index_of = vec![u32::MAX; self.w.apps.len()];
        for (k, &a) in runnable.iter().enumerate() {
            index_of[a as usize] = k as u32;
        }
        let lists: Vec<Vec<u32>> = self
            .w
            .queues
            .iter()
            .enumerate()
            .map(|(i, q)| {
                if self.w.tree.queues[i].is_leaf {
                    q.runnable_apps
                        .iter()
                        .map(|&a| index_of[a as usize])
                        .filter(|&k| k != u32::MAX)
                        .collect()
                } else {
                    q.child_list.clone()
                }
            })
            .collect();
        debug_assert!(
            self.w
                .queues
                .iter()
                .flat_map(|q| &q.runnable_apps)
                .all(|&a| index_of[a as usize] != u32::MAX),
            "a leaf lists an app that is not runnable"
        );
        let snap = Snapshot27 {
            lists: Some(lists),
            tree: &self.w.tree,
            semantics: self.w.semantics,
            cluster: self.w.cluster.total,
            queues: self
                .w
                .queues
                .iter()
                .enumerate()
                .map(|(i, q)| QueueView {
                    sched: q.sched.clone(),
                    fair_share: self.fair_share_of(QueueId(i as u32)),
                })
                .collect(),
            apps,
        };
        let live = self.live_slots_by_id();
        let decisions = {
            let Some(FairPreempt::Fs27(fs)) = preempt_of(&mut self.fair) else {
                return;
            };
            // The warned list names apps by simulation index; the snapshot by its own.
            let warned: Vec<ContainerRef> = fs
                .preemptor
                .warned
                .iter()
                .filter_map(|c| {
                    let slot = *live.get(&c.id)?;
                    let cont = &self.w.containers[slot as usize];
                    let k = runnable.iter().position(|&a| a == cont.app)?;
                    Some(ContainerRef {
                        app: k as u32,
                        id: c.id,
                    })
                })
                .collect();
            fs.preemptor.warned = warned;
            let d = fs
                .preemptor
                .preempt_resources(now, conf.wait_before_kill_ms, &snap, total);
            // Store the warned list by app index of the simulation.
            fs.preemptor.warned = fs
                .preemptor
                .warned
                .iter()
                .map(|c| ContainerRef {
                    app: runnable[c.app as usize],
                    id: c.id,
                })
                .collect();
            d
        };
        for d in decisions {
            let (c, kill) = match d {
                Decision::Warn(c) => (c, false),
                Decision::Kill(c) => (c, true),
            };
            let Some(&slot) = slot_of.get(&(c.app, c.id)) else {
                continue;
            };
            if kill {
                self.kill_container(slot);
            } else {
                self.w.containers[slot as usize].mark(now);
            }
        }
    }

    fn live_slots_by_id(&self) -> BTreeMap<u64, u32> {
        self.w
            .containers
            .iter()
            .enumerate()
            .filter(|(_, c)| c.live)
            .map(|(s, c)| (c.id, s as u32))
            .collect()
    }

    fn preempt_33(&mut self) {
        let conf = self.w.sc.scheduler.preemption_config();
        let now = self.cx.now.0;
        let cluster = self.w.cluster.total;
        if !conf.should_attempt(cluster, self.allocated()) {
            return;
        }
        // Apps' fair shares are read here for the leaves with apps to check, each computed
        // just before (`app_shares`), and by the victim search over every app, which computes
        // the rest at the pass's first search: a leaf without such apps (most leaves of a large
        // tree at most ticks) costs no share computation.
        let mut leaves: Vec<Leaf33> = Vec::new();
        let n_q = self.w.tree.queues.len();
        for q in (0..n_q as u32).map(QueueId) {
            if !self.w.tree.get(q).is_leaf {
                continue;
            }
            // `fetchAppsWithDemand(false)`: the runnable apps with pending demand (the
            // descent's filter, read right after the update) that are due for a starvation
            // check, added in list order to a `TreeSet` under the leaf's comparator. Where
            // the comparator is a strict total order that is the sorted order; where it is
            // not (DRF with NaN ratios) the tree's shape decides, and the fair-share pass
            // stops at the first app without starvation (`tests/starvation_order.rs`).
            let due = |a: u32| match self.fair_preempt() {
                Some(FairPreempt::Fs33 { fs, .. }) => fs.apps[a as usize].should_check(now),
                _ => true,
            };
            let candidates: Vec<u32> = self.w.queues[q.idx()]
                .runnable_apps
                .iter()
                .copied()
                .filter(|&a| self.has_pending_demand_33(a) && due(a))
                .collect();
            if !candidates.is_empty() {
                self.app_shares(q);
            }
            let (st, qc) = (&self.w.queues[q.idx()], self.w.tree.get(q));
            let cmp = st.comparator;
            let apps = tree_set_order(&candidates, |&x, &y| {
                cmp.compare(
                    &self.w.apps[x as usize].sched,
                    &self.w.apps[y as usize].sched,
                )
            });
            leaves.push(Leaf33 {
                queue: q,
                ctx: LeafCtx33 {
                    calc: qc.policy.calculator(),
                    cluster,
                    threshold: qc.fair_share_preemption_threshold,
                    fair_share_timeout_ms: qc.fair_share_preemption_timeout_ms,
                    min_share_timeout_ms: qc.min_share_preemption_timeout_ms,
                    min_share: st.min_share,
                    demand: st.demand,
                    usage: st.usage,
                },
                apps: apps
                    .into_iter()
                    .map(|a| {
                        let app = &self.w.apps[a as usize];
                        (
                            a,
                            AppLoad33 {
                                usage: app.usage,
                                demand: app.demand,
                                fair_share: self.w.app_fair_shares[a as usize],
                            },
                        )
                    })
                    .collect(),
            });
        }
        if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
            fs.update(now, &leaves);
        }
        // The victim search's views, copied at the pass's first search and kept by the
        // searches after it (`victim_views.rs`).
        let mut views: Option<PassViews> = None;
        loop {
            let (app, starvation) = {
                let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) else {
                    return;
                };
                let Some(app) = fs.take_starved() else {
                    break;
                };
                (app, fs.apps[app as usize].starvation())
            };
            self.preempt_for_app_33(app, starvation, now, &mut views);
            if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
                fs.preemption_triggered(app, now, &conf);
            }
        }
    }

    fn preempt_for_app_33(
        &mut self,
        app: u32,
        starvation: Resource,
        now: u64,
        views: &mut Option<PassViews>,
    ) {
        let conf = self.w.sc.scheduler.preemption_config();
        let cluster = self.w.cluster.total;
        let requests = starved_requests_33(starvation, &self.priority_asks(app), |r| {
            self.w
                .cluster
                .nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| n.rack == r && n.is_live())
                .map(|(i, _)| i as u32)
                .collect()
        });
        if requests.is_empty() {
            return;
        }
        if views.is_none() {
            // The search reads the fair share of every app owning a container it may take.
            self.all_app_shares();
            *views = Some(self.victim_views());
        }
        let Some(views) = views.as_mut() else {
            return;
        };
        #[cfg(debug_assertions)]
        self.check_pass_views(views);
        let sets = {
            let Some(FairPreempt::Fs33 { search, .. }) = preempt_of(&mut self.fair) else {
                return;
            };
            search.for_app(&requests, &mut views.nodes, &mut views.owners, cluster)
        };
        for set in sets {
            let n = set.node as usize;
            let freed = set
                .containers
                .iter()
                .fold(Resource::ZERO, |acc, c| acc.saturating_add(c.size));
            // `addContainersForPreemption`: the app's entry on the node grows (it is added
            // at the end of the node's list the first time).
            if freed != Resource::ZERO {
                if let Some(f) = &mut self.fair
                    && !f.held_for[n].contains(&app)
                {
                    f.held_for[n].push(app);
                }
                if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
                    let held = fs.preempted_on_node.entry((set.node, app)).or_default();
                    *held = held.saturating_add(freed);
                }
                // A parked reserved node beats again: its heartbeat now hands out the hold.
                self.wake_node(set.node);
                self.cx.events.clock_mut().arm(set.node);
            }
            for c in set.containers {
                let slot = views.slot(set.node, c.id);
                self.w.containers[slot as usize].mark(now);
                let at = self.cx.now.plus(conf.wait_before_kill_ms);
                self.cx.events.push(
                    at,
                    Event::ContainerKilled {
                        container: slot,
                        id: c.id,
                    },
                );
            }
        }
    }

    /// App `app`'s requests as Hadoop holds them per priority: one per named node, one per
    /// rack, the ANY request (those with containers left; Hadoop drops a request at zero).
    /// A node or rack the node tracker holds no node for (a hinted host or rack outside the
    /// cluster, a node not live) is [`Level::Absent`], under its own name.
    fn priority_asks(&self, app: u32) -> Vec<PriorityAsks> {
        let cluster = &self.w.cluster;
        let unknown = &self.w.unknown_hints;
        let mut rack_live = vec![false; cluster.racks.len()];
        for n in cluster.nodes.iter().filter(|n| n.is_live()) {
            rack_live[n.rack as usize] = true;
        }
        let rack_name = |name: &str| {
            if name.starts_with('/') {
                name.to_string()
            } else {
                format!("/{name}")
            }
        };
        self.w.apps[app as usize]
            .requests
            .by_priority
            .iter()
            .map(|p| {
                let nodes = p.nodes.iter().filter(|(_, c)| **c > 0).map(|(&n, &count)| {
                    let (name, level) = match cluster.nodes.get(n as usize) {
                        Some(node) if node.is_live() => (
                            node.name.clone(),
                            Level::Node {
                                node: n,
                                rack: node.rack,
                            },
                        ),
                        Some(node) => (node.name.clone(), Level::Absent),
                        None => (
                            unknown.hosts[n as usize - cluster.nodes.len()].clone(),
                            Level::Absent,
                        ),
                    };
                    LevelAsk { name, level, count }
                });
                let racks = p.racks.iter().filter(|(_, c)| **c > 0).map(|(&r, &count)| {
                    let (name, level) = match cluster.racks.get(r as usize) {
                        Some(name) if rack_live[r as usize] => (rack_name(name), Level::Rack(r)),
                        Some(name) => (rack_name(name), Level::Absent),
                        None => (
                            rack_name(&unknown.racks[r as usize - cluster.racks.len()]),
                            Level::Absent,
                        ),
                    };
                    LevelAsk { name, level, count }
                });
                let any = (p.any > 0).then(|| LevelAsk {
                    name: "*".into(),
                    level: Level::Any,
                    count: p.any,
                });
                PriorityAsks {
                    size: p.size,
                    relax_locality: p.relax_locality,
                    asks: nodes.chain(racks).chain(any).collect(),
                }
            })
            .collect()
    }

    /// What `node` holds for `app` (zero when it holds nothing for it).
    fn held_on_node(&self, node: u32, app: u32) -> Resource {
        match self.fair_preempt() {
            Some(FairPreempt::Fs33 { fs, .. }) => fs
                .preempted_on_node
                .get(&(node, app))
                .copied()
                .unwrap_or(Resource::ZERO),
            _ => Resource::ZERO,
        }
    }

    /// Everything `node` holds for starved apps (`FSSchedulerNode.totalResourcesPreempted`).
    pub(crate) fn held_total(&self, node: u32) -> Resource {
        (self.held_for(node as usize).iter()).fold(Resource::ZERO, |acc, &app| {
            acc.saturating_add(self.held_on_node(node, app))
        })
    }

    /// Ends `node`'s hold for `app`.
    fn release_hold(&mut self, node: u32, app: u32) {
        if let Some(f) = &mut self.fair {
            f.held_for[node as usize].retain(|&a| a != app);
        }
        if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
            fs.preempted_on_node.remove(&(node, app));
        }
    }

    /// Ends every hold kept for app `a` (its attempt left the scheduler); the nodes that
    /// held them are re-checked, their space being free for others now.
    pub(crate) fn release_holds_for(&mut self, a: u32) {
        let n_nodes = self.fair.as_ref().map_or(0, |f| f.held_for.len());
        for n in 0..n_nodes as u32 {
            if self.held_for(n as usize).contains(&a) {
                self.release_hold(n, a);
                self.recheck_node(n);
            }
        }
    }

    /// Ends every hold of `node` (it left the cluster).
    pub(crate) fn release_holds(&mut self, node: u32) {
        let held = (self.fair.as_mut()).map(|f| std::mem::take(&mut f.held_for[node as usize]));
        for app in held.unwrap_or_default() {
            self.release_hold(node, app);
        }
    }

    /// `FSSchedulerNode.allocateContainer`: a container of `size` for `app` on `node`, by
    /// whatever path, covers that much of the node's hold for the app (component-wise, at
    /// most the amount); a hold covered in full ends.
    pub(crate) fn hold_served(&mut self, node: u32, app: u32, size: Resource) {
        if !self.held_for(node as usize).contains(&app) {
            return;
        }
        let left = sub_non_negative(self.held_on_node(node, app), size);
        let covered = left == Resource::ZERO;
        if covered {
            self.release_hold(node, app);
        } else if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
            fs.preempted_on_node.insert((node, app), left);
        }
        // The cycle watch: an amount was read, and whether it was found covered (see cycle.rs).
        if let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair) {
            fs.hold_allocations += 1;
            if covered {
                *fs.holds_covered.entry((node, app)).or_default() += 1;
            }
        }
    }

    /// Hadoop 3.x's `FSAppAttempt.isStarved`, as checked at this moment: usage below the
    /// app's fair share by the single-type comparison of its queue's policy, or a min-share
    /// starvation handed down by the last starvation check (preemption on only).
    pub(crate) fn is_starved_33(&mut self, app: u32) -> bool {
        debug_assert!(self.app_shares_read(), "apps' fair shares are not computed");
        self.app_shares(self.w.apps[app as usize].queue);
        let a = &self.w.apps[app as usize];
        let calc = self.w.tree.get(a.queue).policy.calculator();
        let min_share_starved = match self.fair_preempt() {
            Some(FairPreempt::Fs33 { fs, .. }) => {
                fs.apps[app as usize].min_share_starvation != Resource::ZERO
            }
            _ => false,
        };
        min_share_starved
            || calc.less_than_single_type(
                self.w.cluster.total,
                a.usage,
                self.w.app_fair_shares[app as usize],
            )
    }

    /// Hadoop 3.x's `FairScheduler.assignPreemptedContainers`, first in a node update: each
    /// app the node holds preempted resources for, oldest hold first, gets containers on it
    /// until its amount is covered or an offer gives nothing (or a reservation). A hold ends
    /// when it is covered or when its app is gone or no longer starved
    /// (`FSSchedulerNode.cleanupPreemptionList`).
    pub(crate) fn offer_held_node(&mut self, node: u32) {
        let n = node as usize;
        // `cleanupPreemptionList`: holds of apps gone or no longer starved end.
        for app in self.held_for(n).to_vec() {
            let gone = self.w.apps[app as usize].phase != AppPhase::Runnable;
            if gone || !self.is_starved_33(app) {
                self.release_hold(node, app);
            }
        }
        // `assignPreemptedContainers` walks a copy of the list, oldest hold first; each
        // allocation also lowers the hold itself (`hold_served`).
        let holds: Vec<(u32, Resource)> = self
            .held_for(n)
            .iter()
            .map(|&app| (app, self.held_on_node(node, app)))
            .collect();
        for (app, mut left) in holds {
            while left != Resource::ZERO && self.w.apps[app as usize].phase == AppPhase::Runnable {
                match self.assign_app(app, node, None) {
                    Outcome::Allocated(r) => {
                        left = sub_non_negative(left, r);
                        if left == Resource::ZERO
                            && let Some(FairPreempt::Fs33 { fs, .. }) = preempt_of(&mut self.fair)
                        {
                            *fs.holds_covered.entry((node, app)).or_default() += 1;
                        }
                    }
                    _ => break,
                }
            }
        }
    }

    /// Hadoop 3.x's reservation rules (`FSAppAttempt.isReservable` and `reserve`): the app
    /// is starved as checked at this moment (`isStarved`: usage below its fair share by
    /// the single-type comparison, or a min-share starvation handed down by the last
    /// starvation check, which only runs with preemption on), the container is at least
    /// the reservation threshold (`yarn.scheduler.reservation-threshold.increment-multiple`
    /// × the 1024 MB / 1 vcore increment allocation), the node does not hold preempted
    /// resources for the app, and for a rack-local or off-switch request the app holds
    /// fewer reservations in the rack (or cluster) than ceil(nodes × `reservable_nodes`),
    /// the product in Java float as `reservationExceedsThreshold` computes it.
    pub(crate) fn may_reserve_33(
        &mut self,
        app: u32,
        size: Resource,
        node: u32,
        locality: crate::app::Locality,
    ) -> bool {
        if !self.is_starved_33(app) {
            return false;
        }
        let calc = self
            .w
            .tree
            .get(self.w.apps[app as usize].queue)
            .policy
            .calculator();
        let cluster = self.w.cluster.total;
        if calc.less_than(cluster, size, self.reservation_threshold_33()) {
            return false;
        }
        if self.held_for(node as usize).contains(&app) {
            return false;
        }
        let rack = self.w.cluster.nodes[node as usize].rack;
        let (held, nodes) = match locality {
            crate::app::Locality::NodeLocal => return true,
            crate::app::Locality::RackLocal => (
                self.reserved_in_rack(app, rack) as usize,
                self.w.cluster.live_in_rack(rack),
            ),
            crate::app::Locality::OffSwitch => {
                (self.reserved_by(app) as usize, self.w.cluster.live as usize)
            }
        };
        (held as u64) < self.reservable_nodes_cap(nodes as u64)
    }

    /// The smallest container Hadoop 3.x reserves a node for
    /// (`yarn.scheduler.reservation-threshold.increment-multiple` × the increment allocation).
    pub(crate) fn reservation_threshold_33(&self) -> Resource {
        let conf = &self.w.sc.scheduler;
        let multiple = conf.reservation_threshold_increment_multiple;
        Resource::new(
            (conf.increment_allocation_mb as f64 * multiple) as i64,
            (conf.increment_allocation_vcores as f64 * multiple) as i64,
        )
    }

    /// How many of `nodes` nodes an app may hold reservations on: ceil(nodes ×
    /// `reservable_nodes`), the product in Java float as `reservationExceedsThreshold`
    /// computes it.
    pub(crate) fn reservable_nodes_cap(&self, nodes: u64) -> u64 {
        (nodes as f32 * self.w.sc.scheduler.reservable_nodes).ceil() as u64
    }
}
