//! The scheduler's part of the state fingerprint the engine's cycle watch compares
//! (`engine::cycle`): its own state relative to now, written by the scheduler so that the
//! engine names none of its fields.

use crate::app::Locality;
use crate::capacity::ideal::PcppState;
use crate::preemption::round::{Fs27, Fs33};
use crate::preemption::starvation::{AppStarvation33, LeafStarvation27, LeafStarvation33};
use crate::preemption::victims::{HeldReads, Preemptor27, Search33};
use crate::scheduler::books::Books;
use crate::scheduler::capacity_preempt::ProportionalPreemption;
use crate::scheduler::fair::FairState;
use crate::scheduler::{Preemption, Sched};
use fairsim_core::Resource;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The scheduler's part of a fingerprint.
pub(crate) struct OwnPrint {
    /// Every queue's fair share as the scheduler gives it.
    pub fair_shares: Vec<Resource>,
    /// The Capacity Scheduler runs (its missed opportunities and leaf orders are read
    /// against its own bounds).
    pub capacity: bool,
    /// The apps each node holds preempted resources for (Hadoop 3.x).
    pub nodes: String,
    /// The update thread's kept sums, the leaves due an app-share update, and continuous
    /// scheduling's last report.
    pub update: String,
    /// Preemption's clocks, warnings, starvation and selections.
    pub preemption: String,
    /// The amounts Hadoop 3.x preemption holds on nodes, apart from the state.
    pub held: String,
    /// The Fair Scheduler's count of missed opportunities past which every count acts
    /// alike (delay scheduling's node and rack thresholds × the nodes), 0 with it off.
    fair_bound: u64,
    /// The wait past which time-based delay scheduling reads every wait alike (continuous
    /// scheduling's delays), none with it off.
    time_delay_bound: Option<u64>,
}

impl OwnPrint {
    /// The most of app `spec`'s missed opportunities the scheduler reads, on `n_nodes`
    /// nodes: every count above it acts alike.
    pub(crate) fn opportunity_bound(&self, spec: &crate::app::AppSpec, n_nodes: u64) -> u64 {
        if !self.capacity {
            return self.fair_bound;
        }
        // Compared with the node-locality delay (at most the node count) and with asks (at
        // most the app's tasks), as f32: exact below 2^24.
        let tasks: u64 = (spec.stages.iter().flatten())
            .map(|g| u64::from(g.count))
            .sum::<u64>()
            + 1;
        let b = 2 * n_nodes.max(tasks) + 2;
        if b < 1 << 24 { b } else { u64::MAX }
    }

    /// Request `p`'s missed opportunities as the scheduler reads them, `bound` being its
    /// app's [`OwnPrint::opportunity_bound`]: the Fair Scheduler reads none once the request
    /// is relaxed to off-switch.
    pub(crate) fn opportunities_read(&self, p: &crate::app::PriorityRequests, bound: u64) -> u64 {
        let off_switch = p.allowed == Some(Locality::OffSwitch) && !self.capacity;
        u64::from(p.opportunities).min(if off_switch { 0 } else { bound })
    }

    /// The wait since a request's level changed (or since its app started), as time-based
    /// delay scheduling reads it: only against the delays.
    pub(crate) fn delay_age_read(&self, age: u64) -> u64 {
        self.time_delay_bound.map_or(0, |d| age.min(d))
    }
}

/// What Hadoop 3.x preemption holds, as the cycle watch compares it: the allocations made
/// against holds, when each hold was last found covered, and the amounts held per node and
/// app.
pub(crate) type Holds = (
    u64,
    BTreeMap<(u32, u32), u64>,
    BTreeMap<(u32, u32), Resource>,
    HeldReads,
);

impl Sched<'_, '_> {
    /// The scheduler's state relative to now; `live_ids` are the live containers' ids,
    /// ascending (a container is written as its rank among them).
    pub(crate) fn own_print(&self, live_ids: &[u64]) -> OwnPrint {
        let Books {
            share_scratch: _,
            reorder_scratch: _,
            changed_scratch: _,
            queue_shares,
            share_work: _,
            app_share_leaves,
            open_leaves: _,
        } = &*self.books;
        // The Capacity Scheduler holds nothing for apps and has no continuous scheduling.
        let (held_for, continuous) = match self.fair.as_deref() {
            Some(FairState {
                sorted_history: _,
                tree_sets: _,
                // Written below with the other preemptions.
                preempt: _,
                held_for,
                // The clock's parked nodes are written with its armed ones, below.
                parked: _,
                // The floor is forgotten after every event; the reservation counts follow
                // the nodes' reservations, written with the cluster.
                full_nodes: _,
                // Counted before every event, so empty when a fingerprint is taken.
                skipped_offers: _,
                // A descent remembered for the next event only; repeating it writes what
                // the descent would.
                repeat_reserve: _,
                continuous,
            }) => (&held_for[..], continuous.as_ref()),
            None => (&[][..], None),
        };
        let now = self.cx.now.0;
        let (tree, apps, containers) = (&self.w.tree, &self.w.apps, &self.w.containers);
        let conf = &self.w.sc.scheduler;
        let age = |t: u64| now.saturating_sub(t);
        let rel_id = |id: u64| live_ids.binary_search(&id).map_or(u64::MAX, |r| r as u64);
        let fair_shares = (0..self.w.queues.len())
            .map(|i| self.fair_share_of(crate::tree::QueueId(i as u32)))
            .collect();
        let update = format!(
            "{queue_shares:?} {app_share_leaves:?} {:?} {} {}",
            continuous.map(|c| c.reported_at(now)),
            self.cs_auto_print(),
            self.cs_activation_print()
        );
        let mut s = String::new();
        let mut held = String::new();
        // Missed opportunities are read only in comparisons with a bound: beyond it every
        // count acts alike.
        let n_nodes = self.w.cluster.nodes.len() as u64;
        let fair_bound = {
            let t = conf
                .locality_threshold_node
                .min(1.0)
                .max(conf.locality_threshold_rack.min(1.0));
            if conf.locality_threshold_node < 0.0 || conf.locality_threshold_rack < 0.0 {
                0
            } else {
                (n_nodes as f64 * t).floor() as u64 + 1
            }
        };
        let time_delay_bound = (conf.locality_delay_node_ms >= 0
            && conf.locality_delay_rack_ms >= 0)
            .then(|| conf.locality_delay_node_ms.max(conf.locality_delay_rack_ms) as u64 + 1);
        let clamp = |t: u64, timeout: Option<u64>| {
            // Read only as "older than the timeout".
            timeout.map_or(0, |to| age(t).min(to.saturating_add(1)))
        };
        let leaf = |i: usize| tree.get(crate::tree::QueueId(i as u32));
        match self.preemption() {
            Preemption::Off => s.push_str("off"),
            Preemption::Fs27(fs) => {
                let Fs27 { clocks, preemptor } = fs;
                for (i, c) in clocks.iter().enumerate() {
                    let LeafStarvation27 {
                        last_time_at_min_share,
                        last_time_at_fair_share_threshold,
                    } = *c;
                    let q = leaf(i);
                    let _ = write!(
                        s,
                        "{} {};",
                        clamp(last_time_at_min_share, q.min_share_preemption_timeout_ms),
                        clamp(
                            last_time_at_fair_share_threshold,
                            q.fair_share_preemption_timeout_ms
                        )
                    );
                }
                let Preemptor27 {
                    last_check_ms,
                    warned,
                } = preemptor;
                // Warned containers no longer live are dropped before the list is read.
                let warned: Vec<(u32, u64)> = warned
                    .iter()
                    .filter(|c| live_ids.binary_search(&c.id).is_ok())
                    .map(|c| (c.app, rel_id(c.id)))
                    .collect();
                let _ = write!(
                    s,
                    "w{warned:?} {}",
                    age(*last_check_ms).min(conf.preemption_interval_ms)
                );
            }
            Preemption::Fs33 { fs, search } => {
                let Fs33 {
                    leaves,
                    apps: starvation,
                    starved,
                    preempted_on_node,
                    hold_allocations: _,
                    holds_covered: _,
                } = fs;
                for (i, l) in leaves.iter().enumerate() {
                    let LeafStarvation33 {
                        last_time_at_min_share,
                    } = *l;
                    let t = clamp(
                        last_time_at_min_share,
                        leaf(i).min_share_preemption_timeout_ms,
                    );
                    let _ = write!(s, "{t};");
                }
                for (i, a) in starvation.iter().enumerate() {
                    let AppStarvation33 {
                        last_time_at_fair_share,
                        fair_share_starvation,
                        min_share_starvation,
                        next_starvation_check,
                    } = *a;
                    let q = tree.get(apps[i].queue);
                    let t = clamp(last_time_at_fair_share, q.fair_share_preemption_timeout_ms);
                    let _ = write!(
                        s,
                        "{t} {fair_share_starvation:?} {min_share_starvation:?} {};",
                        next_starvation_check.saturating_sub(now)
                    );
                }
                // Only membership of live containers is ever asked.
                // The read counts are the cycle watch's, compared outside the fingerprint.
                let Search33 {
                    marked,
                    held_reads: _,
                } = search;
                let marked: Vec<u64> = containers
                    .iter()
                    .filter(|c| c.live && marked.contains(&c.id))
                    .map(|c| rel_id(c.id))
                    .collect();
                let held_nodes: Vec<&(u32, u32)> = preempted_on_node.keys().collect();
                let _ = write!(s, "{starved:?} {held_nodes:?} {marked:?}");
                held = format!("{preempted_on_node:?}");
            }
            Preemption::Capacity(ProportionalPreemption { state, last_round }) => {
                let PcppState { preempted } = state;
                // Entries of dead containers are never looked up again (they age out).
                let selected: Vec<(u64, u64)> = containers
                    .iter()
                    .filter(|c| c.live)
                    .filter_map(|c| preempted.get(&c.id).map(|&t| (rel_id(c.id), age(t))))
                    .collect();
                let interval = conf.pcpp_config().monitoring_interval_ms;
                let _ = write!(
                    s,
                    "{selected:?} {:?}",
                    last_round.map(|t| age(t).min(interval))
                );
            }
        }
        OwnPrint {
            fair_shares,
            capacity: self.capacity.is_some(),
            // The Capacity Scheduler's re-reservation counts are read by
            // `shouldAllocOrReserveNewContainer`, so they are state while they can still
            // change its answer (the charges follow the nodes' reservations).
            nodes: match self.capacity.as_deref() {
                Some(cs) => format!(
                    "{:?}",
                    cs.reserved
                        .iter()
                        .map(|(&a, r)| (
                            a,
                            r.by_priority
                                .iter()
                                .map(|(&p, x)| (p, self.cs_re_reservations_read(a, p, x)))
                                .collect::<Vec<_>>()
                        ))
                        .collect::<Vec<_>>()
                ),
                None => format!("{held_for:?}"),
            },
            update,
            preemption: s,
            held,
            fair_bound,
            time_delay_bound,
        }
    }

    /// What Hadoop 3.x preemption holds (nothing under any other preemption).
    pub(crate) fn preemption_holds(&self) -> Holds {
        match self.preemption() {
            Preemption::Fs33 { fs, search } => (
                fs.hold_allocations,
                fs.holds_covered.clone(),
                fs.preempted_on_node.clone(),
                search.held_reads.get(),
            ),
            _ => (0, BTreeMap::new(), BTreeMap::new(), HeldReads::default()),
        }
    }
}
