//! `ProportionalCapacityPreemptionPolicy` (Hadoop 2.x, §8): the ideal assignment of each
//! queue, how much to take back from each, which containers, and when to kill them.
//!
//! Each round (every `monitoring_interval`): root's ideal is the cluster; at every parent
//! the parent's ideal is split among its children as a fixpoint (`computeFixpointAllocation`):
//! each child first keeps min(current, guaranteed); then the unassigned rest is offered,
//! most under-served first (ideal ÷ guaranteed), in proportion to the guarantees of the
//! children still asking (normalized over them), each child accepting at most what it still
//! wants (current + pending) and what its maximum capacity allows; satisfied children leave,
//! until nothing is left or nobody asks. Children with zero guarantee share the leftover
//! uniformly afterwards. What exceeds the ideal is to be preempted, scaled down when the
//! level's total exceeds `total_preemption_per_round` × cluster.
//!
//! Victims (`getContainersToPreempt`): only from leaves whose usage exceeds guaranteed ×
//! (1 + `max_ignored_over_capacity`); the amount is the queue's share × the
//! `natural_termination_factor`; apps latest-submitted first; inside an app the largest
//! priority number first, ties newest container; AM containers skipped and taken last, and
//! only while the queue's skipped AM resources exceed its AM limit. A container selected in
//! successive rounds is killed once it was first selected more than `max_wait_before_kill`
//! ago.

use super::Capacities;
use crate::tree::{QueueId, QueueTree};
use fairsim_core::{Calculator, Resource};
use std::collections::BTreeMap;

/// `yarn.resourcemanager.monitor.capacity.preemption.*` settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PcppConfig {
    /// `monitoring_interval` in ms (3000).
    pub monitoring_interval_ms: u64,
    /// `max_wait_before_kill` in ms (15000).
    pub max_wait_before_kill_ms: u64,
    /// `total_preemption_per_round` (0.1).
    pub total_preemption_per_round: f64,
    /// `max_ignored_over_capacity` (0.1).
    pub max_ignored_over_capacity: f64,
    /// `natural_termination_factor` (0.2).
    pub natural_termination_factor: f64,
}

impl Default for PcppConfig {
    fn default() -> Self {
        PcppConfig {
            monitoring_interval_ms: 3000,
            max_wait_before_kill_ms: 15000,
            total_preemption_per_round: 0.1,
            max_ignored_over_capacity: 0.1,
            natural_termination_factor: 0.2,
        }
    }
}

/// One queue in a round (Hadoop's `TempQueue`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TempQueue {
    /// Guaranteed resource (absolute capacity × cluster).
    pub guaranteed: Resource,
    /// Maximum resource (absolute maximum capacity × cluster).
    pub maximum: Resource,
    /// Current usage.
    pub current: Resource,
    /// Outstanding requests.
    pub pending: Resource,
    /// The ideal assignment.
    pub ideal: Resource,
    /// What to take back.
    pub to_be_preempted: Resource,
}

/// Builds the round's queues from per-queue `current` and `pending` (leaf values; parents
/// are summed here).
pub fn temp_queues(
    tree: &QueueTree,
    caps: &Capacities,
    cluster: Resource,
    leaf_current: &[Resource],
    leaf_pending: &[Resource],
) -> Vec<TempQueue> {
    let n = tree.len();
    let mut qs: Vec<TempQueue> = (0..n)
        .map(|i| {
            let id = QueueId(i as u32);
            TempQueue {
                guaranteed: caps.guaranteed(id, cluster),
                maximum: caps.maximum(id, cluster),
                ..TempQueue::default()
            }
        })
        .collect();
    for i in (0..n).rev() {
        if tree.queues[i].is_leaf {
            qs[i].current = leaf_current[i];
            qs[i].pending = leaf_pending[i];
        }
        if let Some(p) = tree.queues[i].parent {
            let (c, pe) = (qs[i].current, qs[i].pending);
            qs[p.idx()].current = qs[p.idx()].current.saturating_add(c);
            qs[p.idx()].pending = qs[p.idx()].pending.saturating_add(pe);
        }
    }
    qs
}

fn mul_ceil(r: Resource, by: f64) -> Resource {
    Resource::new(
        (r.memory_mb as f64 * by).ceil() as i64,
        (r.vcores as f64 * by).ceil() as i64,
    )
}

fn mul_trunc(r: Resource, by: f64) -> Resource {
    Resource::new(
        (r.memory_mb as f64 * by) as i64,
        (r.vcores as f64 * by) as i64,
    )
}

/// The calculator's `divide(a, b)`: memory ratio, or dominant share ratio.
fn divide(calc: Calculator, cluster: Resource, a: Resource, b: Resource) -> f64 {
    super::ordering::used_capacity(calc, cluster, a, b)
}

/// Computes `ideal` and `to_be_preempted` of every queue (root first, pre-order).
pub fn compute_ideal(
    tree: &QueueTree,
    calc: Calculator,
    cluster: Resource,
    conf: &PcppConfig,
    qs: &mut [TempQueue],
) {
    let total_allowed = mul_trunc(cluster, conf.total_preemption_per_round);
    qs[0].ideal = qs[0].guaranteed;
    for (i, q) in tree.queues.iter().enumerate() {
        if q.children.is_empty() {
            continue;
        }
        let kids: Vec<usize> = q.children.iter().map(|c| c.idx()).collect();
        distribute(calc, cluster, qs, &kids, qs[i].ideal, total_allowed);
    }
}

/// `computeIdealResourceDistribution` for the children `kids` of a parent whose ideal is
/// `total`.
fn distribute(
    calc: Calculator,
    cluster: Resource,
    qs: &mut [TempQueue],
    kids: &[usize],
    total: Resource,
    total_allowed: Resource,
) {
    let mut unassigned = total;
    let (nonzero, zero): (Vec<usize>, Vec<usize>) = kids
        .iter()
        .partition(|&&k| calc.greater_than(cluster, qs[k].guaranteed, Resource::ZERO));
    fixpoint(calc, cluster, qs, &nonzero, &mut unassigned, false);
    if !zero.is_empty() && calc.greater_than(cluster, unassigned, Resource::ZERO) {
        fixpoint(calc, cluster, qs, &zero, &mut unassigned, true);
    }
    let mut needed = Resource::ZERO;
    for &k in kids {
        if calc.greater_than(cluster, qs[k].current, qs[k].ideal) {
            needed = needed.saturating_add(qs[k].current.saturating_sub(qs[k].ideal));
        }
    }
    let scaling = if calc.greater_than(cluster, needed, total_allowed) {
        divide(calc, cluster, total_allowed, needed)
    } else {
        1.0
    };
    for &k in kids {
        let q = &mut qs[k];
        q.to_be_preempted = if calc.greater_than(cluster, q.current, q.ideal) {
            mul_trunc(q.current.saturating_sub(q.ideal), scaling)
        } else {
            Resource::ZERO
        };
    }
}

/// `computeFixpointAllocation` over `set`.
fn fixpoint(
    calc: Calculator,
    cluster: Resource,
    qs: &mut [TempQueue],
    set: &[usize],
    unassigned: &mut Resource,
    ignore_guarantee: bool,
) {
    let mut wanting: Vec<usize> = Vec::new();
    for &k in set {
        let q = &mut qs[k];
        q.ideal = if calc.greater_than(cluster, q.current, q.guaranteed) {
            q.guaranteed
        } else {
            q.current
        };
        *unassigned = unassigned.saturating_sub(q.ideal);
        if calc.less_than(cluster, q.ideal, q.current.saturating_add(q.pending)) {
            wanting.push(k);
        }
    }
    let pct = |q: &TempQueue| {
        if calc.greater_than(cluster, q.guaranteed, Resource::ZERO) {
            divide(calc, cluster, q.ideal, q.guaranteed)
        } else {
            f64::from(i32::MAX)
        }
    };
    while !wanting.is_empty() && calc.greater_than(cluster, *unassigned, Resource::ZERO) {
        // Normalized guarantees over every queue still asking.
        let active: Resource = wanting
            .iter()
            .fold(Resource::ZERO, |s, &k| s.saturating_add(qs[k].guaranteed));
        let n_wanting = wanting.len() as f64;
        let norm = |q: &TempQueue| {
            if ignore_guarantee {
                1.0 / n_wanting
            } else {
                divide(calc, cluster, q.guaranteed, active)
            }
        };
        // The most under-served queues (all with the smallest ideal ÷ guaranteed).
        let min = wanting
            .iter()
            .map(|&k| pct(&qs[k]))
            .fold(f64::INFINITY, f64::min);
        let (served, rest): (Vec<usize>, Vec<usize>) =
            wanting.iter().partition(|&&k| pct(&qs[k]) == min);
        wanting = rest;
        let mut assigned = Resource::ZERO;
        for k in served {
            let avail = mul_ceil(*unassigned, norm(&qs[k]));
            let q = &mut qs[k];
            let headroom = q
                .maximum
                .saturating_sub(q.ideal)
                .component_max(Resource::ZERO);
            let want = q.current.saturating_add(q.pending).saturating_sub(q.ideal);
            let accepted = calc.min(cluster, headroom, calc.min(cluster, avail, want));
            q.ideal = q.ideal.saturating_add(accepted);
            if calc.greater_than(cluster, accepted, Resource::ZERO) {
                wanting.push(k);
            }
            assigned = assigned.saturating_add(accepted);
        }
        wanting.sort_unstable();
        *unassigned = unassigned.saturating_sub(assigned);
    }
}

/// A container as the victim choice sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CsContainer {
    /// Container id (larger is newer).
    pub id: u64,
    /// Request priority (larger number = less urgent).
    pub priority: i32,
    /// Allocated resource.
    pub size: Resource,
    /// ApplicationMaster container.
    pub is_am: bool,
}

/// An app of a leaf, for the victim choice.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CsApp {
    /// Application id (submission order).
    pub id: u64,
    /// Live containers.
    pub containers: Vec<CsContainer>,
    /// Its reserved containers (the id names the reserved node), given back before any
    /// live container (`preemptFrom`: "first drop reserved containers").
    pub reserved: Vec<CsContainer>,
}

/// What the policy takes from one leaf: reservations to drop at once, and containers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LeafVictims {
    /// Reserved containers dropped (their ids: the reserved nodes).
    pub reservations: Vec<u64>,
    /// Live containers selected, by id.
    pub containers: Vec<u64>,
}

/// `getContainersToPreempt` for one leaf: returns the ids of the containers to preempt.
/// `am_limit` is the AM resource the monitor spares (`am_limits::monitor_am_limit`).
pub fn leaf_victims(
    calc: Calculator,
    cluster: Resource,
    conf: &PcppConfig,
    q: &TempQueue,
    apps: &[CsApp],
    am_limit: Resource,
) -> Vec<u64> {
    leaf_selection(calc, cluster, conf, q, apps, am_limit).containers
}

/// [`leaf_victims`] with the reservations dropped on the way: from each app, latest first,
/// its reservations go before its containers, each counting toward what is to be obtained.
pub fn leaf_selection(
    calc: Calculator,
    cluster: Resource,
    conf: &PcppConfig,
    q: &TempQueue,
    apps: &[CsApp],
    am_limit: Resource,
) -> LeafVictims {
    let mut picked = LeafVictims::default();
    let threshold = mul_trunc(q.guaranteed, 1.0 + conf.max_ignored_over_capacity);
    if !calc.greater_than(cluster, q.current, threshold) {
        return picked;
    }
    let mut to_obtain = mul_trunc(q.to_be_preempted, conf.natural_termination_factor);
    let positive = |r: Resource| calc.greater_than(cluster, r, Resource::ZERO);
    let mut skipped_am: Vec<CsContainer> = Vec::new();
    let mut skipped_am_size = Resource::ZERO;
    let mut order: Vec<&CsApp> = apps.iter().collect();
    order.sort_by_key(|a| std::cmp::Reverse(a.id));
    for app in order {
        if !positive(to_obtain) {
            break;
        }
        for r in &app.reserved {
            if !positive(to_obtain) {
                break;
            }
            picked.reservations.push(r.id);
            to_obtain = to_obtain.saturating_sub(r.size);
        }
        let out = &mut picked.containers;
        let mut cs = app.containers.clone();
        cs.sort_by(|a, b| b.priority.cmp(&a.priority).then(b.id.cmp(&a.id)));
        for c in cs {
            if !positive(to_obtain) {
                break;
            }
            if c.is_am {
                skipped_am_size = skipped_am_size.saturating_add(c.size);
                skipped_am.push(c);
                continue;
            }
            out.push(c.id);
            to_obtain = to_obtain.saturating_sub(c.size);
        }
    }
    for c in skipped_am {
        if !positive(to_obtain) {
            break;
        }
        if !calc.greater_than(cluster, skipped_am_size, am_limit) {
            break;
        }
        picked.containers.push(c.id);
        to_obtain = to_obtain.saturating_sub(c.size);
        skipped_am_size = skipped_am_size.saturating_sub(c.size);
    }
    picked
}

/// What the policy does with a selected container this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsDecision {
    /// Ask the app to give it back (first selection, or not yet waited long enough).
    Preempt(u64),
    /// Kill it: first selected more than `max_wait_before_kill` ago.
    Kill(u64),
}

/// The policy's memory of selected containers (`preempted`: container → first selection).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PcppState {
    /// First selection time per container id.
    pub preempted: BTreeMap<u64, u64>,
}

impl PcppState {
    /// Applies one round's selection at `now`: containers first selected more than
    /// `max_wait_before_kill` ago are killed, the others asked; entries older than twice
    /// the wait are forgotten.
    pub fn round(&mut self, now: u64, conf: &PcppConfig, selected: &[u64]) -> Vec<CsDecision> {
        let wait = conf.max_wait_before_kill_ms;
        let mut out = Vec::with_capacity(selected.len());
        for &c in selected {
            match self.preempted.get(&c) {
                Some(&t) if t.saturating_add(wait) < now => {
                    out.push(CsDecision::Kill(c));
                    self.preempted.remove(&c);
                }
                Some(_) => out.push(CsDecision::Preempt(c)),
                None => {
                    self.preempted.insert(c, now);
                    out.push(CsDecision::Preempt(c));
                }
            }
        }
        self.preempted
            .retain(|_, t| t.saturating_add(2 * wait) >= now);
        out
    }
}

impl crate::settings::SchedulerConf {
    /// The Capacity Scheduler preemption settings of this scenario.
    pub fn pcpp_config(&self) -> PcppConfig {
        PcppConfig {
            monitoring_interval_ms: self.monitoring_interval_ms,
            max_wait_before_kill_ms: self.max_wait_before_kill_ms,
            total_preemption_per_round: self.total_preemption_per_round,
            max_ignored_over_capacity: self.max_ignored_over_capacity,
            natural_termination_factor: self.natural_termination_factor,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capacity::testing::tree;

    fn mb(m: i64) -> Resource {
        Resource::new(m, 0)
    }

    fn run(
        spec: &[(&str, Option<u32>, f64, f64)],
        current: &[i64],
        pending: &[i64],
        cluster: i64,
    ) -> Vec<TempQueue> {
        let t = tree(spec);
        let caps = Capacities::of(&t);
        let cur: Vec<Resource> = current.iter().map(|&m| mb(m)).collect();
        let pen: Vec<Resource> = pending.iter().map(|&m| mb(m)).collect();
        let mut qs = temp_queues(&t, &caps, mb(cluster), &cur, &pen);
        compute_ideal(
            &t,
            Calculator::MemoryOnly,
            mb(cluster),
            &PcppConfig::default(),
            &mut qs,
        );
        qs
    }

    const AB: &[(&str, Option<u32>, f64, f64)] = &[
        ("root", None, 100.0, 100.0),
        ("root.a", Some(0), 50.0, 100.0),
        ("root.b", Some(0), 50.0, 100.0),
    ];

    #[test]
    fn elastic_queue_keeps_what_nobody_else_wants() {
        // a uses 90 of 100 with more pending; b uses 10 and wants nothing more.
        let qs = run(AB, &[0, 90, 10], &[0, 50, 0], 100);
        assert_eq!(qs[1].ideal, mb(90));
        assert_eq!(qs[2].ideal, mb(10));
        assert_eq!(qs[1].to_be_preempted, Resource::ZERO);
    }

    #[test]
    fn a_returning_queue_reclaims_its_guarantee() {
        // a holds 90; b holds 10 and now asks for 40 more: ideal a 50, b 50.
        let qs = run(AB, &[0, 90, 10], &[0, 0, 40], 100);
        assert_eq!(qs[1].ideal, mb(50));
        assert_eq!(qs[2].ideal, mb(50));
        // Needed 40, allowed 10% of 100 = 10: scaled by 0.25.
        assert_eq!(qs[1].to_be_preempted, mb(10));
        let cluster = 100_000;
        let qs = run(AB, &[0, 90_000, 10_000], &[0, 0, 40_000], cluster);
        assert_eq!(qs[1].to_be_preempted, mb(10_000));
    }

    #[test]
    fn spare_is_split_by_normalized_guarantee() {
        // Guarantees 20/30/50 of 1000; all idle except pending everywhere: each gets its
        // guarantee, as the split is proportional.
        let spec: &[(&str, Option<u32>, f64, f64)] = &[
            ("root", None, 100.0, 100.0),
            ("root.a", Some(0), 20.0, 100.0),
            ("root.b", Some(0), 30.0, 100.0),
            ("root.c", Some(0), 50.0, 100.0),
        ];
        let qs = run(spec, &[0, 0, 0, 0], &[0, 1000, 1000, 1000], 1000);
        assert_eq!(
            (qs[1].ideal, qs[2].ideal, qs[3].ideal),
            (mb(200), mb(300), mb(500))
        );
        // c wants only 100: its 400 left over goes to a and b by 2:3 (a 360, b 540 → capped
        // by a's want of 1000? no: 200 + 160 = 360, 300 + 240 = 540).
        let qs = run(spec, &[0, 0, 0, 0], &[0, 1000, 1000, 100], 1000);
        assert_eq!(
            (qs[1].ideal, qs[2].ideal, qs[3].ideal),
            (mb(360), mb(540), mb(100))
        );
    }

    #[test]
    fn maximum_capacity_caps_the_ideal_and_zero_guarantee_gets_leftovers() {
        let spec: &[(&str, Option<u32>, f64, f64)] = &[
            ("root", None, 100.0, 100.0),
            ("root.a", Some(0), 100.0, 60.0),
            ("root.z", Some(0), 0.0, 100.0),
        ];
        let qs = run(spec, &[0, 0, 0], &[0, 1000, 1000], 1000);
        assert_eq!(qs[1].ideal, mb(600));
        assert_eq!(qs[2].ideal, mb(400));
    }

    fn c(id: u64, priority: i32, m: i64, is_am: bool) -> CsContainer {
        CsContainer {
            id,
            priority,
            size: mb(m),
            is_am,
        }
    }

    #[test]
    fn victims_latest_app_first_am_last() {
        let conf = PcppConfig::default();
        let q = TempQueue {
            guaranteed: mb(50_000),
            current: mb(90_000),
            to_be_preempted: mb(20_000),
            ..TempQueue::default()
        };
        let apps = vec![
            CsApp {
                id: 1,
                containers: vec![c(1, 0, 1000, true), c(2, 5, 2000, false)],
                ..CsApp::default()
            },
            CsApp {
                id: 2,
                containers: vec![
                    c(3, 0, 1000, true),
                    c(4, 5, 1000, false),
                    c(5, 5, 500, false),
                ],
                ..CsApp::default()
            },
        ];
        // to obtain 20000 × 0.2 = 4000: app 2 (5, then 4; AM skipped), then app 1 (2; AM
        // skipped) = 3500; AMs only while skipped AM size (2000) is above the AM limit.
        let v = leaf_victims(
            Calculator::MemoryOnly,
            mb(100_000),
            &conf,
            &q,
            &apps,
            mb(5000),
        );
        assert_eq!(v, vec![5, 4, 2]);
        let v = leaf_victims(
            Calculator::MemoryOnly,
            mb(100_000),
            &conf,
            &q,
            &apps,
            mb(1000),
        );
        assert_eq!(v, vec![5, 4, 2, 3]);
        // Within max_ignored_over_capacity (55000 ≤ 50000 × 1.1): nothing.
        let q = TempQueue {
            current: mb(55_000),
            ..q
        };
        assert!(
            leaf_victims(Calculator::MemoryOnly, mb(100_000), &conf, &q, &apps, mb(0)).is_empty()
        );
    }

    #[test]
    fn reservations_are_dropped_before_containers() {
        // An app holding a 3000 MB reservation (on node 9) and two 1000 MB containers, to
        // obtain 20000 × 0.2 = 4000: the reservation first, then one container.
        let conf = PcppConfig::default();
        let q = TempQueue {
            guaranteed: mb(50_000),
            current: mb(90_000),
            to_be_preempted: mb(20_000),
            ..TempQueue::default()
        };
        let apps = vec![CsApp {
            id: 1,
            containers: vec![c(1, 5, 1000, false), c(2, 5, 1000, false)],
            reserved: vec![c(9, 5, 3000, false)],
        }];
        let v = leaf_selection(Calculator::MemoryOnly, mb(100_000), &conf, &q, &apps, mb(0));
        assert_eq!(v.reservations, vec![9]);
        assert_eq!(v.containers, vec![2]);
    }

    #[test]
    fn kill_after_the_wait_in_a_later_round() {
        let conf = PcppConfig::default();
        let mut s = PcppState::default();
        assert_eq!(s.round(0, &conf, &[7]), vec![CsDecision::Preempt(7)]);
        assert_eq!(s.round(15_000, &conf, &[7]), vec![CsDecision::Preempt(7)]);
        assert_eq!(s.round(15_001, &conf, &[7]), vec![CsDecision::Kill(7)]);
        assert!(s.preempted.is_empty());
    }
}
