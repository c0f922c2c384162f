//! Which containers preemption takes, in each era.
//!
//! Hadoop 2.7 (§6.1, `FairScheduler.preemptResources`, `FSParentQueue`/`FSLeafQueue`/
//! `FSAppAttempt.preemptContainer`): warned containers first, then victims chosen one at a
//! time from the root down: at each parent the child that is greatest under the parent's
//! comparator, at a leaf only if its usage is over its fair share by the parent's policy,
//! then the greatest app under the leaf's comparator, and in the app the live, not yet
//! marked container with the numerically largest priority, ties to the newest container.
//! A container is warned first and killed at a later round once it was warned more than
//! `waitTimeBeforeKill` ago.
//!
//! # Which of equals is the victim (2.7)
//! Hadoop finds the greatest child by scanning the parent's `childQueues` list (the leaf's
//! `runnableApps`) and keeping the first element that no later one compares strictly greater
//! than. These are the lists `assignContainer` sorts in place, so the scan follows the order
//! the last descent's sort left ([`Snapshot27::lists`]). The order decides only between
//! elements the comparator does not order strictly: where it is a strict total order the
//! scan keeps the unique greatest element whatever the order. That is the case of every 2.7
//! run whose lists do not remember their history (`scheduler::fair::sort_history`): the fair
//! comparator with positive weights orders by (needy, ratio, start time, name) and FIFO by
//! (start time, name), names are distinct (queues' full names, apps' ids), and no ratio is
//! NaN. The others (DRF's ties, which no name breaks; NaN ratios of weight 0) are the runs
//! whose lists the descent keeps exactly as Hadoop does; there the victim among equals is the
//! first in the list (`tests/victim_list_order.rs`; the property test
//! `fs27_victims_do_not_depend_on_list_order_under_a_strict_order` checks the rest).
//!
//! Hadoop 3.x (§6.2, `FSPreemptionThread`): for each container a starved app asks for, the
//! nodes the request may run on are searched for a set of preemptable containers that makes
//! the request fit; non-AM containers come first; the set with the fewest AM containers wins.
//!
//! # Deterministic container order (3.x)
//! Hadoop iterates a node's containers in the order of a `HashMap` keyed by container id, which
//! depends on the JVM's hashing. fairsim uses ascending container id as that iteration order:
//! non-AM containers are then examined newest first (Hadoop examines them in reverse
//! iteration order) and AM containers oldest first, after all non-AM ones.

use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Calculator, Comparator, Policy, Resource, Schedulable, Semantics};
use std::cmp::Ordering;
use std::collections::BTreeSet;

/// A live container as preemption sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContainerView {
    /// Container id (larger is newer).
    pub id: u64,
    /// Request priority it was allocated at (smaller number = more urgent).
    pub priority: i32,
    /// Allocated resource.
    pub size: Resource,
    /// When it was marked for preemption (the app's preemption map), if it was.
    pub marked_at: Option<u64>,
    /// The app's ApplicationMaster container.
    pub is_am: bool,
}

/// An application as the 2.7 victim search sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct AppView {
    /// Its leaf queue.
    pub leaf: QueueId,
    /// Its comparator view; `usage` is the current consumption (marked containers included).
    pub sched: Schedulable,
    /// Its live containers.
    pub containers: Vec<ContainerView>,
}

/// A queue as the 2.7 victim search sees it (usage is summed from its apps).
#[derive(Debug, Clone, PartialEq)]
pub struct QueueView {
    /// Comparator view: name, weight, min share, demand (usage is recomputed).
    pub sched: Schedulable,
    /// Instantaneous fair share.
    pub fair_share: Resource,
}

/// The scheduler's state at one preemption round (Hadoop 2.7).
#[derive(Debug, Clone)]
pub struct Snapshot27<'t> {
    /// The queue tree (policies, children order).
    pub tree: &'t QueueTree,
    /// Era of the comparators.
    pub semantics: Semantics,
    /// Cluster size.
    pub cluster: Resource,
    /// One view per queue of `tree`.
    pub queues: Vec<QueueView>,
    /// Runnable apps.
    pub apps: Vec<AppView>,
    /// The lists Hadoop scans, by queue index, in the order the last descent's sort left
    /// them: a parent's children (queue ids, `childQueues`), a leaf's runnable apps (indices
    /// into `apps`, `runnableApps`). `None`: the tree's children in configuration order and
    /// the apps in the order of `apps`.
    pub lists: Option<Vec<Vec<u32>>>,
}

impl Snapshot27<'_> {
    /// Parent `q`'s children in the order Hadoop scans them.
    fn children(&self, q: QueueId) -> Vec<QueueId> {
        match &self.lists {
            Some(lists) => lists[q.idx()].iter().map(|&c| QueueId(c)).collect(),
            None => self.tree.get(q).children.clone(),
        }
    }

    /// Leaf `q`'s runnable apps (indices into `apps`) in the order Hadoop scans them.
    fn leaf_apps(&self, q: QueueId) -> Vec<usize> {
        match &self.lists {
            Some(lists) => lists[q.idx()].iter().map(|&a| a as usize).collect(),
            None => (0..self.apps.len())
                .filter(|&i| self.apps[i].leaf == q)
                .collect(),
        }
    }
}

/// A container named by its app (index into the snapshot's apps) and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContainerRef {
    /// App index.
    pub app: u32,
    /// Container id.
    pub id: u64,
}

/// What a preemption round decides for one container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Mark it now (the AM is told; it keeps running).
    Warn(ContainerRef),
    /// Kill it now (it was warned more than `waitTimeBeforeKill` ago).
    Kill(ContainerRef),
}

/// Whether `usage` is over `fair_share` by `policy` (`checkIfUsageOverFairShare`): memory
/// strictly greater for fair (and FIFO), any component greater for DRF.
pub fn usage_over_fair_share(policy: Policy, usage: Resource, fair_share: Resource) -> bool {
    match policy {
        Policy::Drf => !usage.fits_in(fair_share),
        Policy::Fair | Policy::Fifo => usage.memory_mb > fair_share.memory_mb,
    }
}

/// Hadoop 2.7's preemption state: the time of the last check and the warned containers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Preemptor27 {
    /// `lastPreemptCheckTime` (starts at 0).
    pub last_check_ms: u64,
    /// `warnedContainers`, in the order they were warned.
    pub warned: Vec<ContainerRef>,
}

impl Preemptor27 {
    /// A fresh state.
    pub fn new() -> Preemptor27 {
        Preemptor27::default()
    }

    /// The interval gate of `preemptTasksIfNecessary`: false while fewer than `interval_ms`
    /// passed since the last check; otherwise records `now` and returns true.
    pub fn interval_due(&mut self, now: u64, interval_ms: u64) -> bool {
        if now.saturating_sub(self.last_check_ms) < interval_ms {
            return false;
        }
        self.last_check_ms = now;
        true
    }

    /// `preemptResources(toPreempt)` at `now`: returns the containers to warn and to kill.
    /// The caller records warnings as `marked_at = now` and kills containers (their work is
    /// lost and asked for again).
    pub fn preempt_resources(
        &mut self,
        now: u64,
        wait_before_kill_ms: u64,
        snap: &Snapshot27<'_>,
        to_preempt: Resource,
    ) -> Vec<Decision> {
        let mut out = Vec::new();
        if to_preempt == Resource::ZERO {
            return out;
        }
        let mut remaining = to_preempt;
        let positive = |r: Resource| r.memory_mb > 0;
        // Already-warned containers: still live and something left to preempt → warn or
        // kill and count; otherwise forget them.
        let warned = std::mem::take(&mut self.warned);
        for c in warned {
            let live = find(snap, c);
            match live {
                Some(view) if positive(remaining) => {
                    if let Some(d) = warn_or_kill(now, wait_before_kill_ms, c, view) {
                        out.push(d);
                    }
                    remaining = remaining.saturating_sub(view.size);
                    self.warned.push(c);
                }
                _ => {}
            }
        }
        let mut round = Round::new(snap);
        while positive(remaining) {
            let Some(c) = round.pick(QueueId::ROOT) else {
                break;
            };
            let view = find(snap, c).expect("picked from the snapshot");
            if let Some(d) = warn_or_kill(now, wait_before_kill_ms, c, view) {
                out.push(d);
            }
            round.mark(c, view.size);
            self.warned.push(c);
            remaining = remaining.saturating_sub(view.size);
        }
        out
    }
}

fn find(snap: &Snapshot27<'_>, c: ContainerRef) -> Option<ContainerView> {
    snap.apps
        .get(c.app as usize)?
        .containers
        .iter()
        .find(|v| v.id == c.id)
        .copied()
}

fn warn_or_kill(now: u64, wait: u64, c: ContainerRef, v: ContainerView) -> Option<Decision> {
    match v.marked_at {
        Some(t) if t.saturating_add(wait) < now => Some(Decision::Kill(c)),
        Some(_) => None,
        None => Some(Decision::Warn(c)),
    }
}

/// One round's view: usage as Hadoop's comparators see it during `preemptResources`
/// (current consumption minus everything marked, in earlier rounds or in this one).
struct Round<'s, 't> {
    snap: &'s Snapshot27<'t>,
    app_usage: Vec<Resource>,
    queue_usage: Vec<Resource>,
    newly: BTreeSet<ContainerRef>,
}

impl<'s, 't> Round<'s, 't> {
    fn new(snap: &'s Snapshot27<'t>) -> Self {
        let app_usage: Vec<Resource> = snap
            .apps
            .iter()
            .map(|a| {
                a.containers
                    .iter()
                    .filter(|c| c.marked_at.is_some())
                    .fold(a.sched.usage, |u, c| u.saturating_sub(c.size))
            })
            .collect();
        let mut queue_usage = vec![Resource::ZERO; snap.tree.len()];
        for (a, u) in snap.apps.iter().zip(&app_usage) {
            let mut q = Some(a.leaf);
            while let Some(id) = q {
                queue_usage[id.idx()] = queue_usage[id.idx()].saturating_add(*u);
                q = snap.tree.get(id).parent;
            }
        }
        Round {
            snap,
            app_usage,
            queue_usage,
            newly: BTreeSet::new(),
        }
    }

    fn mark(&mut self, c: ContainerRef, size: Resource) {
        self.newly.insert(c);
        let a = &self.snap.apps[c.app as usize];
        self.app_usage[c.app as usize] = self.app_usage[c.app as usize].saturating_sub(size);
        let mut q = Some(a.leaf);
        while let Some(id) = q {
            self.queue_usage[id.idx()] = self.queue_usage[id.idx()].saturating_sub(size);
            q = self.snap.tree.get(id).parent;
        }
    }

    fn queue_sched(&self, q: QueueId) -> Schedulable {
        let mut s = self.snap.queues[q.idx()].sched.clone();
        s.usage = self.queue_usage[q.idx()];
        s
    }

    fn comparator(&self, q: QueueId) -> Comparator {
        Comparator::new(
            self.snap.semantics,
            self.snap.tree.get(q).policy,
            self.snap.cluster,
        )
    }

    /// The container `preemptContainer` returns from queue `q`, if any.
    fn pick(&self, q: QueueId) -> Option<ContainerRef> {
        let conf = self.snap.tree.get(q);
        if !conf.is_leaf {
            let cmp = self.comparator(q);
            let mut best: Option<(QueueId, Schedulable)> = None;
            for child in self.snap.children(q) {
                let s = self.queue_sched(child);
                let replace = match &best {
                    None => true,
                    Some((_, b)) => cmp.compare(&s, b) == Ordering::Greater,
                };
                if replace {
                    best = Some((child, s));
                }
            }
            return best.and_then(|(child, _)| self.pick(child));
        }
        // Leaf: only if over its fair share by the parent's policy.
        let parent_policy = conf
            .parent
            .map(|p| self.snap.tree.get(p).policy)
            .unwrap_or(conf.policy);
        let fair = self.snap.queues[q.idx()].fair_share;
        if !usage_over_fair_share(parent_policy, self.queue_usage[q.idx()], fair) {
            return None;
        }
        let cmp = self.comparator(q);
        let mut best: Option<(usize, Schedulable)> = None;
        for i in self.snap.leaf_apps(q) {
            let mut s = self.snap.apps[i].sched.clone();
            s.usage = self.app_usage[i];
            let replace = match &best {
                None => true,
                Some((_, b)) => cmp.compare(&s, b) == Ordering::Greater,
            };
            if replace {
                best = Some((i, s));
            }
        }
        let (app, _) = best?;
        self.pick_in_app(app as u32)
    }

    /// Inside an app: the unmarked container with the largest priority number, ties to the
    /// newest id.
    fn pick_in_app(&self, app: u32) -> Option<ContainerRef> {
        self.snap.apps[app as usize]
            .containers
            .iter()
            .filter(|c| {
                c.marked_at.is_none() && !self.newly.contains(&ContainerRef { app, id: c.id })
            })
            .max_by_key(|c| (c.priority, c.id))
            .map(|c| ContainerRef { app, id: c.id })
    }
}

// ---- Hadoop 3.x -------------------------------------------------------------------------

/// A node as the 3.x victim search sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeView {
    /// Unallocated resource.
    pub unallocated: Resource,
    /// Its reservation (the reserved container's size, or zero).
    pub reserved: Resource,
    /// What it holds for starved apps: the resources already chosen for preemption on it
    /// for them and not yet handed back, whether the chosen containers still run or not
    /// (`FSSchedulerNode.totalResourcesPreempted`).
    pub held: Resource,
    /// Its live containers.
    pub containers: Vec<NodeContainer>,
}

/// A container on a node (3.x search).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeContainer {
    /// Owning app (index into the owners).
    pub app: u32,
    /// Container id.
    pub id: u64,
    /// Allocated resource.
    pub size: Resource,
    /// ApplicationMaster container.
    pub is_am: bool,
}

/// A container's owner (3.x: `FSAppAttempt.canContainerBePreempted` reads these).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OwnerView {
    /// Current usage.
    pub usage: Resource,
    /// The app's fair share.
    pub fair_share: Resource,
    /// Resources of its containers already marked for preemption.
    pub to_be_preempted: Resource,
    /// Its queue allows preemption (`allowPreemptionFrom`, inherited).
    pub preemptable: bool,
    /// Its leaf policy's calculator.
    pub calc: Calculator,
}

/// One request of a starved app to make room for (`getStarvedResourceRequests`).
#[derive(Debug, Clone, PartialEq)]
pub struct StarvedRequest {
    /// Container size.
    pub size: Resource,
    /// How many containers of that size.
    pub count: u32,
    /// Nodes it may run on (`None`: any node).
    pub nodes: Option<Vec<u32>>,
    /// Whether the request may relax locality.
    pub relax_locality: bool,
}

/// The requests that cover `starvation`: for each `(size, count)` in request order,
/// floor(remaining / size) by memory (the scheduler's default calculator), at most
/// `count`, subtracted from what remains; stops when nothing remains.
pub fn starved_requests(starvation: Resource, asks: &[(Resource, u32)]) -> Vec<(Resource, u32)> {
    let mut pending = starvation;
    let mut out = Vec::new();
    for &(size, count) in asks {
        if pending == Resource::ZERO {
            break;
        }
        if size.memory_mb <= 0 {
            continue;
        }
        let fit = (pending.memory_mb as f64 / size.memory_mb as f64).floor() as i64;
        let n = fit.min(count as i64);
        if n <= 0 {
            continue;
        }
        out.push((size, n as u32));
        let taken = Resource::new(size.memory_mb * n, size.vcores * n);
        pending = super::starvation::sub_non_negative(pending, taken);
    }
    out
}

/// A chosen set of containers on one node.
#[derive(Debug, Clone, PartialEq)]
pub struct PreemptableSet {
    /// The node.
    pub node: u32,
    /// The containers, in the order they were examined.
    pub containers: Vec<NodeContainer>,
    /// How many of them are AM containers.
    pub n_am: u32,
}

/// Mutable state of one 3.x victim search: containers marked so far, and how often it read
/// a node's held amount in a way a larger amount would change.
#[derive(Debug, Clone, Default)]
pub struct Search33 {
    /// Container ids already marked (in earlier searches or this one).
    pub marked: BTreeSet<u64>,
    /// Reads of nodes holding something for starved apps ([`HeldReads`]).
    pub held_reads: std::cell::Cell<HeldReads>,
}

/// Counts of the search's reads of nodes that hold something for starved apps. A read
/// starts from the node's unallocated less its reservation and holds, clamped at zero per
/// resource, adds the containers it takes and stops at the first that make the request fit.
/// A larger held amount only lowers the start, so it changes the read's answer only where the
/// read stopped on a fit that needed the start in some resource (the containers taken
/// alone fall short of the request there); a read that found no fit finds none from a lower
/// start. The cycle watch reads these to know whether two states that differ only in held
/// amounts look alike to the search (see `engine/cycle`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeldReads {
    /// Reads of a held node that stopped on a fit needing the start's memory.
    pub memory: u64,
    /// Reads of a held node that stopped on a fit needing the start's vcores.
    pub vcores: u64,
    /// Every read of a held node (a smaller held amount may change any of them).
    pub any: u64,
}

impl Search33 {
    /// Containers on `node` to examine, in fairsim's deterministic stand-in for Hadoop's
    /// order (see the module docs): non-AM by descending id, then AM by ascending id.
    fn order(node: &NodeView) -> Vec<NodeContainer> {
        let mut non_am: Vec<NodeContainer> = node
            .containers
            .iter()
            .filter(|c| !c.is_am)
            .copied()
            .collect();
        non_am.sort_by_key(|c| std::cmp::Reverse(c.id));
        let mut am: Vec<NodeContainer> = node
            .containers
            .iter()
            .filter(|c| c.is_am)
            .copied()
            .collect();
        am.sort_by_key(|c| c.id);
        non_am.extend(am);
        non_am
    }

    /// `identifyContainersToPreemptOnNode`: the first prefix of preemptable containers that
    /// makes `request` fit in the node's free-but-not-reserved resource, or `None` (also when
    /// it would need `max_am` or more AM containers).
    pub fn on_node(
        &self,
        request: Resource,
        node_idx: u32,
        node: &NodeView,
        owners: &[OwnerView],
        cluster: Resource,
        max_am: u32,
    ) -> Option<PreemptableSet> {
        let mut set = PreemptableSet {
            node: node_idx,
            containers: Vec::new(),
            n_am: 0,
        };
        // `getTotalReserved`: the reservation plus everything held for starved apps.
        let mut potential = super::starvation::sub_non_negative(
            node.unallocated,
            node.reserved.saturating_add(node.held),
        );
        let held = node.held != Resource::ZERO;
        if held {
            let mut reads = self.held_reads.get();
            reads.any += 1;
            self.held_reads.set(reads);
        }
        let mut taken = Resource::ZERO;
        let mut picked_per_app: Vec<(u32, Resource)> = Vec::new();
        for c in Self::order(node) {
            if self.marked.contains(&c.id) {
                continue;
            }
            let o = &owners[c.app as usize];
            let already = picked_per_app
                .iter()
                .find(|(a, _)| *a == c.app)
                .map(|(_, r)| *r)
                .unwrap_or(Resource::ZERO);
            let after = o
                .usage
                .saturating_sub(o.to_be_preempted)
                .saturating_sub(c.size)
                .saturating_sub(already);
            // `canContainerBePreempted`: `isUsageBelowShare`, the single-type comparison.
            let allowed =
                o.preemptable && !o.calc.less_than_single_type(cluster, after, o.fair_share);
            if allowed {
                if c.is_am {
                    set.n_am += 1;
                    if set.n_am >= max_am {
                        return None;
                    }
                }
                set.containers.push(c);
                match picked_per_app.iter_mut().find(|(a, _)| *a == c.app) {
                    Some((_, r)) => *r = r.saturating_add(c.size),
                    None => picked_per_app.push((c.app, c.size)),
                }
                potential = potential.saturating_add(c.size);
                taken = taken.saturating_add(c.size);
            }
            if request.fits_in(potential) {
                if held {
                    let mut reads = self.held_reads.get();
                    reads.memory += u64::from(request.memory_mb > taken.memory_mb);
                    reads.vcores += u64::from(request.vcores > taken.vcores);
                    self.held_reads.set(reads);
                }
                return Some(set);
            }
        }
        None
    }

    /// `identifyContainersToPreemptForOneContainer`: over `candidates` in order, keep the
    /// first set found and then only sets with strictly fewer AM containers; stop at a set
    /// with none.
    pub fn best_on_nodes(
        &self,
        request: Resource,
        candidates: &[u32],
        nodes: &[NodeView],
        owners: &[OwnerView],
        cluster: Resource,
    ) -> Option<PreemptableSet> {
        let mut best: Option<PreemptableSet> = None;
        let mut max_am = u32::MAX;
        for &n in candidates {
            if let Some(set) = self.on_node(request, n, &nodes[n as usize], owners, cluster, max_am)
            {
                max_am = set.n_am;
                best = Some(set);
                if max_am == 0 {
                    break;
                }
            }
        }
        best
    }

    /// `identifyContainersToPreempt` for one starved app: for every container of every
    /// request, the best set on the request's nodes (and, for a relaxable node- or
    /// rack-specific request whose best set holds AM containers, a better one elsewhere);
    /// chosen containers are marked and their owners' `to_be_preempted` grows. Returns the
    /// sets in the order chosen.
    pub fn for_app(
        &mut self,
        requests: &[StarvedRequest],
        nodes: &mut [NodeView],
        owners: &mut [OwnerView],
        cluster: Resource,
    ) -> Vec<PreemptableSet> {
        let all: Vec<u32> = (0..nodes.len() as u32).collect();
        let mut out = Vec::new();
        for rr in requests {
            let candidates: Vec<u32> = rr.nodes.clone().unwrap_or_else(|| all.clone());
            for _ in 0..rr.count {
                let mut best = self.best_on_nodes(rr.size, &candidates, nodes, owners, cluster);
                if rr.relax_locality
                    && rr.nodes.is_some()
                    && best.as_ref().is_some_and(|b| b.n_am > 0)
                {
                    let rest: Vec<u32> = all
                        .iter()
                        .copied()
                        .filter(|n| !candidates.contains(n))
                        .collect();
                    let current_am = best.as_ref().map_or(u32::MAX, |b| b.n_am);
                    if let Some(spare) = self.best_on_nodes(rr.size, &rest, nodes, owners, cluster)
                        && spare.n_am < current_am
                    {
                        best = Some(spare);
                    }
                }
                if let Some(set) = best {
                    for c in &set.containers {
                        self.marked.insert(c.id);
                        let o = &mut owners[c.app as usize];
                        o.to_be_preempted = o.to_be_preempted.saturating_add(c.size);
                        // `addContainersForPreemption`: the node holds it for the app.
                        let n = &mut nodes[set.node as usize];
                        n.held = n.held.saturating_add(c.size);
                    }
                    if !set.containers.is_empty() {
                        out.push(set);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{QueueConf, QueueTree, SchedulerKind};

    fn mb(m: i64) -> Resource {
        Resource::new(m, 0)
    }

    /// root → {a, b} (fair).
    fn tree_ab() -> QueueTree {
        let mut root = QueueConf::new("root", None);
        root.is_leaf = false;
        root.children = vec![QueueId(1), QueueId(2)];
        QueueTree {
            queues: vec![
                root,
                QueueConf::new("root.a", Some(QueueId::ROOT)),
                QueueConf::new("root.b", Some(QueueId::ROOT)),
            ],
            user_max_apps: Default::default(),
            user_max_apps_default: None,
            placement: Vec::new(),
            scheduler: SchedulerKind::Fair,
            resource_calculator: Calculator::MemoryOnly,
            new_queue_defaults: Default::default(),
        }
    }

    fn qview(name: &str, demand: i64, fair: i64) -> QueueView {
        QueueView {
            sched: Schedulable {
                demand: mb(demand),
                ..Schedulable::new(name)
            },
            fair_share: mb(fair),
        }
    }

    fn app(leaf: u32, name: &str, start: i64, containers: &[(u64, i32, i64)]) -> AppView {
        let cs: Vec<ContainerView> = containers
            .iter()
            .map(|&(id, priority, m)| ContainerView {
                id,
                priority,
                size: mb(m),
                marked_at: None,
                is_am: false,
            })
            .collect();
        let usage = cs
            .iter()
            .fold(Resource::ZERO, |u, c| u.saturating_add(c.size));
        AppView {
            leaf: QueueId(leaf),
            sched: Schedulable {
                usage,
                demand: usage,
                start_time_ms: start,
                ..Schedulable::new(name)
            },
            containers: cs,
        }
    }

    fn snapshot(tree: &QueueTree, apps: Vec<AppView>, fair_a: i64, fair_b: i64) -> Snapshot27<'_> {
        Snapshot27 {
            tree,
            semantics: Semantics::Hadoop27,
            cluster: mb(8192),
            queues: vec![
                qview("root", 8192, 8192),
                qview("root.a", 8192, fair_a),
                qview("root.b", 4096, fair_b),
            ],
            apps,
            lists: None,
        }
    }

    fn ids(d: &[Decision]) -> Vec<(char, u32, u64)> {
        d.iter()
            .map(|d| match *d {
                Decision::Warn(c) => ('w', c.app, c.id),
                Decision::Kill(c) => ('k', c.app, c.id),
            })
            .collect()
    }

    #[test]
    fn takes_from_the_most_over_share_queue_least_urgent_newest_container_first() {
        let tree = tree_ab();
        // a uses 8 × 1024 with fair share 4096; b uses nothing.
        let a0 = app(
            1,
            "app_1",
            0,
            &[(1, 0, 1024), (2, 10, 1024), (3, 10, 1024), (4, 1, 1024)],
        );
        let a1 = app(
            1,
            "app_2",
            5,
            &[(5, 1, 1024), (6, 1, 1024), (7, 1, 1024), (8, 1, 1024)],
        );
        let snap = snapshot(&tree, vec![a0, a1], 4096, 4096);
        let mut p = Preemptor27::new();
        let d = p.preempt_resources(10_000, 15_000, &snap, mb(3072));
        // Equal usage: the later start is greater → app_2 first (8 is the newest), then
        // app_1 (now bigger): priority 10, newest id 3; then app_2 again.
        assert_eq!(ids(&d), vec![('w', 1, 8), ('w', 0, 3), ('w', 1, 7)]);
        assert_eq!(p.warned.len(), 3);
    }

    #[test]
    fn among_equals_the_first_in_the_leafs_list_is_the_victim() {
        // Leaf a under DRF: two apps holding 2 x 1024 MB each, started together, compare 0
        // (DRF has no name tie-break), so the scan keeps the first of its list.
        let mut tree = tree_ab();
        tree.queues[1].policy = Policy::Drf;
        let apps = || {
            vec![
                app(1, "app_1", 0, &[(1, 1, 1024), (2, 1, 1024)]),
                app(1, "app_2", 0, &[(3, 1, 1024), (4, 1, 1024)]),
            ]
        };
        let take_one = |tree: &QueueTree, lists: Option<Vec<Vec<u32>>>| {
            let snap = Snapshot27 {
                lists,
                ..snapshot(tree, apps(), 0, 8192)
            };
            ids(&Preemptor27::new().preempt_resources(0, 15_000, &snap, mb(1024)))
        };
        // In submission order app_1 (index 0) is kept: its newest container, 2.
        assert_eq!(take_one(&tree, None), vec![('w', 0, 2)]);
        // The list as a sort left it, [app_2, app_1]: app_2's newest, 4.
        let lists = vec![vec![1, 2], vec![1, 0], vec![]];
        assert_eq!(take_one(&tree, Some(lists)), vec![('w', 1, 4)]);
        // Under the fair policy the name breaks the tie (app_2 is greater): any order.
        tree.queues[1].policy = Policy::Fair;
        assert_eq!(take_one(&tree, None), vec![('w', 1, 4)]);
        let lists = vec![vec![2, 1], vec![1, 0], vec![]];
        assert_eq!(take_one(&tree, Some(lists)), vec![('w', 1, 4)]);
    }

    #[test]
    fn never_takes_a_queue_below_its_fair_share() {
        let tree = tree_ab();
        let a0 = app(
            1,
            "app_1",
            0,
            &[
                (1, 0, 1024),
                (2, 0, 1024),
                (3, 0, 1024),
                (4, 0, 1024),
                (5, 0, 1024),
                (6, 0, 1024),
            ],
        );
        let b0 = app(2, "app_2", 0, &[(7, 0, 1024)]);
        let snap = snapshot(&tree, vec![a0, b0], 4096, 4096);
        let mut p = Preemptor27::new();
        // Asks for far more than a's 2048 over its share: only 2 containers are taken.
        let d = p.preempt_resources(1, 15_000, &snap, mb(6000));
        assert_eq!(ids(&d), vec![('w', 0, 6), ('w', 0, 5)]);
    }

    #[test]
    fn warned_containers_are_killed_after_the_wait_at_a_later_round() {
        let tree = tree_ab();
        let mut a0 = app(
            1,
            "app_1",
            0,
            &[
                (1, 0, 1024),
                (2, 0, 1024),
                (3, 0, 1024),
                (4, 0, 1024),
                (5, 0, 1024),
                (6, 0, 1024),
            ],
        );
        let snap = snapshot(&tree, vec![a0.clone()], 4096, 4096);
        let mut p = Preemptor27::new();
        assert_eq!(
            ids(&p.preempt_resources(0, 15_000, &snap, mb(1024))),
            vec![('w', 0, 6)]
        );
        a0.containers[5].marked_at = Some(0);
        let snap = snapshot(&tree, vec![a0.clone()], 4096, 4096);
        // At 15 s the wait is not yet exceeded (strictly): no action, and the warned
        // container still counts against what is needed, so nothing new is marked.
        assert!(
            p.preempt_resources(15_000, 15_000, &snap, mb(1024))
                .is_empty()
        );
        assert_eq!(
            ids(&p.preempt_resources(15_001, 15_000, &snap, mb(1024))),
            vec![('k', 0, 6)]
        );
        // Marked resources are subtracted from the usage the comparators see: a is at
        // 5120 as seen, still over 4096, so a second container is warned.
        let d = p.preempt_resources(20_000, 15_000, &snap, mb(3072));
        assert_eq!(ids(&d), vec![('k', 0, 6), ('w', 0, 5)]);
    }

    #[test]
    fn interval_gate() {
        let mut p = Preemptor27::new();
        assert!(!p.interval_due(4999, 5000));
        assert!(p.interval_due(5000, 5000));
        assert!(!p.interval_due(9999, 5000));
        assert!(p.interval_due(10_000, 5000));
    }

    #[test]
    fn drf_over_share_is_any_component() {
        assert!(usage_over_fair_share(
            Policy::Drf,
            Resource::new(1, 5),
            Resource::new(10, 4)
        ));
        assert!(!usage_over_fair_share(
            Policy::Fair,
            Resource::new(1, 5),
            Resource::new(10, 4)
        ));
    }

    fn owner(usage: i64, fair: i64) -> OwnerView {
        OwnerView {
            usage: mb(usage),
            fair_share: mb(fair),
            to_be_preempted: Resource::ZERO,
            preemptable: true,
            calc: Calculator::MemoryOnly,
        }
    }

    fn nc(app: u32, id: u64, m: i64, is_am: bool) -> NodeContainer {
        NodeContainer {
            app,
            id,
            size: mb(m),
            is_am,
        }
    }

    #[test]
    fn starved_requests_cover_the_starvation() {
        let asks = [(mb(2048), 1), (mb(1024), 10), (mb(4096), 3)];
        assert_eq!(
            starved_requests(mb(5000), &asks),
            vec![(mb(2048), 1), (mb(1024), 2)]
        );
    }

    #[test]
    fn node_search_prefers_non_am_and_keeps_owners_at_fair_share() {
        // Node 0: an AM and a task of app 0; node 1: two tasks of app 0.
        let mut nodes = vec![
            NodeView {
                unallocated: mb(0),
                reserved: mb(0),
                held: mb(0),
                containers: vec![nc(0, 1, 1024, true), nc(0, 2, 1024, false)],
            },
            NodeView {
                unallocated: mb(0),
                reserved: mb(0),
                held: mb(0),
                containers: vec![nc(0, 3, 1024, false), nc(0, 4, 1024, false)],
            },
        ];
        let mut owners = vec![owner(4096, 2048)];
        let mut s = Search33::default();
        let req = StarvedRequest {
            size: mb(2048),
            count: 1,
            nodes: None,
            relax_locality: true,
        };
        let sets = s.for_app(
            std::slice::from_ref(&req),
            &mut nodes,
            &mut owners,
            mb(8192),
        );
        // Node 0 would need its AM; node 1 has none → node 1 wins, newest first.
        assert_eq!(sets.len(), 1);
        assert_eq!(sets[0].node, 1);
        assert_eq!(sets[0].n_am, 0);
        let got: Vec<u64> = sets[0].containers.iter().map(|c| c.id).collect();
        assert_eq!(got, vec![4, 3]);
        assert_eq!(owners[0].to_be_preempted, mb(2048));
        // The owner is now at its fair share (4096 − 2048): nothing more may be taken.
        let sets = s.for_app(&[req], &mut nodes, &mut owners, mb(8192));
        assert!(sets.is_empty());
    }

    #[test]
    fn a_later_search_reads_the_marks_of_an_earlier_one() {
        // Node 0: 1024 MB free and two tasks of app 0 (ids 1, 2); node 1: two more (3, 4).
        let mut nodes = vec![
            NodeView {
                unallocated: mb(1024),
                reserved: mb(0),
                held: mb(0),
                containers: vec![nc(0, 1, 1024, false), nc(0, 2, 1024, false)],
            },
            NodeView {
                unallocated: mb(0),
                reserved: mb(0),
                held: mb(0),
                containers: vec![nc(0, 3, 1024, false), nc(0, 4, 1024, false)],
            },
        ];
        let mut owners = vec![owner(4096, 0)];
        let mut s = Search33::default();
        let req = StarvedRequest {
            size: mb(2048),
            count: 1,
            nodes: None,
            relax_locality: true,
        };
        let ids = |sets: &[PreemptableSet]| -> Vec<(u32, Vec<u64>)> {
            (sets.iter())
                .map(|s| (s.node, s.containers.iter().map(|c| c.id).collect()))
                .collect()
        };
        // The first starved app: node 0's free 1024 MB and its newest task.
        let first = s.for_app(
            std::slice::from_ref(&req),
            &mut nodes,
            &mut owners,
            mb(8192),
        );
        assert_eq!(ids(&first), vec![(0, vec![2])]);
        // Node 0 holds its free 1024 MB and task 2 back now; app 0 gives up 1024 MB.
        assert_eq!(nodes[0].held, mb(1024));
        assert_eq!(owners[0].to_be_preempted, mb(1024));
        // A second starved app: task 1 alone makes no 2048 MB on node 0; node 1's two do.
        let (mut stale, mut stale_search) = (nodes.clone(), s.clone());
        let second = s.for_app(
            std::slice::from_ref(&req),
            &mut nodes,
            &mut owners,
            mb(8192),
        );
        assert_eq!(ids(&second), vec![(1, vec![4, 3])]);
        // Views that missed node 0's hold would count its free space twice.
        stale[0].held = mb(0);
        let wrong = stale_search.for_app(&[req], &mut stale, &mut owners, mb(8192));
        assert_eq!(ids(&wrong), vec![(0, vec![1])]);
    }

    #[test]
    fn node_search_respects_allow_preemption_from() {
        let mut nodes = vec![NodeView {
            unallocated: mb(1024),
            reserved: mb(0),
            held: mb(0),
            containers: vec![nc(0, 1, 1024, false), nc(1, 2, 1024, false)],
        }];
        let mut owners = vec![owner(8192, 0), owner(8192, 0)];
        owners[1].preemptable = false;
        let mut s = Search33::default();
        let req = StarvedRequest {
            size: mb(2048),
            count: 1,
            nodes: None,
            relax_locality: true,
        };
        let sets = s.for_app(&[req], &mut nodes, &mut owners, mb(8192));
        // The 1024 free plus app 0's container: app 1's (newer) container is skipped.
        assert_eq!(sets[0].containers, vec![nc(0, 1, 1024, false)]);
    }

    #[test]
    fn reads_of_held_nodes_count_the_fits_that_needed_the_start() {
        let owners = vec![owner(8192, 0)];
        let s = Search33::default();
        let node = |free: i64, held: i64| NodeView {
            unallocated: mb(free),
            reserved: mb(0),
            held: mb(held),
            containers: vec![nc(0, 1, 1024, false), nc(0, 2, 1024, false)],
        };
        // 2048 free, 1024 held: the search starts at 1024 and one task makes 2048; the fit
        // needed the start's memory, so a larger hold could change it.
        assert!(
            s.on_node(mb(2048), 0, &node(2048, 1024), &owners, mb(8192), u32::MAX)
                .is_some()
        );
        let after_first = s.held_reads.get();
        assert_eq!((after_first.memory, after_first.any), (1, 1));
        // 1024 free, 4096 held: the start is 0 and two tasks make the fit on their own.
        let set = s.on_node(mb(2048), 0, &node(1024, 4096), &owners, mb(8192), u32::MAX);
        assert_eq!(set.map(|x| x.containers.len()), Some(2));
        assert_eq!(s.held_reads.get().memory, 1);
        // No fit at all (3 GB asked, 2 GB to take, nothing to start from): no answer to change.
        assert!(
            s.on_node(mb(3072), 0, &node(0, 1024), &owners, mb(8192), u32::MAX)
                .is_none()
        );
        // A node holding nothing is not counted.
        assert!(
            s.on_node(mb(2048), 0, &node(2048, 0), &owners, mb(8192), u32::MAX)
                .is_some()
        );
        let reads = s.held_reads.get();
        assert_eq!((reads.memory, reads.vcores, reads.any), (1, 0, 3));
    }
}
