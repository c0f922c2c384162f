//! The Capacity Scheduler's proportional preemption monitor
//! (`ProportionalCapacityPreemptionPolicy`, `crate::capacity::ideal`), run after the update
//! tick: every `monitoring_interval_ms` the ideal assignment and the victims are computed; a
//! container selected in rounds more than `max_wait_before_kill_ms` apart is killed
//! (`scheduler::kill`). AM containers are never chosen. A leaf's reservations count in its
//! used resources and are given back first, at once (`preemptFrom`).

use crate::app::AppPhase;
use crate::capacity::ideal::{CsApp, CsContainer, CsDecision, PcppState, leaf_selection};
use crate::scheduler::Sched;
use fairsim_core::Resource;
use std::collections::BTreeMap;

/// The monitor's state, when the ResourceManager runs it (`monitor.enable` with the
/// proportional preemption policy listed): chosen when the Capacity Scheduler is made.
#[derive(Debug, Clone, Default)]
pub(crate) struct ProportionalPreemption {
    /// Selected containers and when.
    pub state: PcppState,
    /// Time of the last round.
    pub last_round: Option<u64>,
}

impl Sched<'_, '_> {
    /// The monitor's round, after the update tick: nothing until its monitoring interval
    /// has passed since the last round.
    pub(crate) fn cs_preemption_monitor(&mut self) {
        let pc = self.w.sc.scheduler.pcpp_config();
        let now = self.cx.now.0;
        let Some(cs) = self.capacity.as_deref_mut() else {
            return;
        };
        {
            let Some(ProportionalPreemption { last_round, .. }) = &mut cs.monitor else {
                return;
            };
            if last_round.is_some_and(|t| now < t + pc.monitoring_interval_ms) {
                return;
            }
            *last_round = Some(now);
        }
        let caps = std::sync::Arc::clone(&cs.caps);
        let cluster = self.w.cluster.total;
        let calc = self.w.tree.resource_calculator;
        let n_q = self.w.tree.len();
        let mut current = vec![Resource::ZERO; n_q];
        let mut pending = vec![Resource::ZERO; n_q];
        // A leaf's used resources include its reservations, as Hadoop's queue usage does.
        for (i, a) in self.w.apps.iter().enumerate() {
            if a.phase != AppPhase::Runnable {
                continue;
            }
            let q = a.queue.idx();
            let held = a.usage.saturating_add(cs.reserved.app(i as u32));
            current[q] = current[q].saturating_add(held);
            pending[q] = pending[q].saturating_add(a.requests.outstanding(false));
        }
        let mut qs =
            crate::capacity::ideal::temp_queues(&self.w.tree, &caps, cluster, &current, &pending);
        crate::capacity::ideal::compute_ideal(&self.w.tree, calc, cluster, &pc, &mut qs);
        let mut selected: Vec<u64> = Vec::new();
        let mut slot_of: BTreeMap<u64, u32> = BTreeMap::new();
        // One pass over the containers: per leaf, per app (by submission order).
        let mut by_leaf: BTreeMap<u32, BTreeMap<u32, CsApp>> = BTreeMap::new();
        for (slot, c) in self.w.containers.iter().enumerate() {
            if !c.live {
                continue;
            }
            slot_of.insert(c.id, slot as u32);
            by_leaf
                .entry(self.w.apps[c.app as usize].queue.0)
                .or_default()
                .entry(c.app)
                .or_insert_with(|| CsApp {
                    id: u64::from(c.app) + 1,
                    ..CsApp::default()
                })
                .containers
                .push(CsContainer {
                    id: c.id,
                    priority: c.priority,
                    size: c.size,
                    is_am: c.is_am,
                });
        }
        // Each app's reservations, by node (the reserved container's id here).
        for (&a, books) in cs.reserved.iter() {
            let app = by_leaf
                .entry(books.leaf)
                .or_default()
                .entry(a)
                .or_insert_with(|| CsApp {
                    id: u64::from(a) + 1,
                    ..CsApp::default()
                });
            for p in books.by_priority.values() {
                for &n in &p.nodes {
                    if let Some(r) = self.w.cluster.nodes[n as usize].reservation {
                        app.reserved.push(CsContainer {
                            id: u64::from(n),
                            priority: r.priority,
                            size: r.size,
                            is_am: false,
                        });
                    }
                }
            }
        }
        let mut dropped: Vec<u32> = Vec::new();
        for q in self.w.tree.leaves() {
            let apps = by_leaf.remove(&q.0).unwrap_or_default();
            let apps: Vec<CsApp> = apps.into_values().collect();
            let am_fraction = self
                .w
                .tree
                .get(q)
                .maximum_am_resource_fraction
                .unwrap_or(0.1);
            // The monitor spares AMs up to its own figure, not the scheduler's AM limit.
            let am_limit = crate::capacity::am_limits::monitor_am_limit(
                cluster,
                caps.absolute[q.idx()],
                am_fraction,
            );
            let v = leaf_selection(calc, cluster, &pc, &qs[q.idx()], &apps, am_limit);
            dropped.extend(v.reservations.iter().map(|&n| n as u32));
            // AM containers are never killed (see the module docs).
            selected.extend(v.containers.into_iter().filter(|id| {
                slot_of
                    .get(id)
                    .is_some_and(|&s| !self.w.containers[s as usize].is_am)
            }));
        }
        // Reservations are dropped at once (`KILL_RESERVED_CONTAINER`), not waited on.
        for n in dropped {
            self.unreserve(n);
        }
        let decisions = {
            let Some(ProportionalPreemption { state, .. }) = self
                .capacity
                .as_deref_mut()
                .and_then(|cs| cs.monitor.as_mut())
            else {
                return;
            };
            state.round(now, &pc, &selected)
        };
        for d in decisions {
            match d {
                CsDecision::Kill(id) => {
                    if let Some(&slot) = slot_of.get(&id) {
                        self.kill_container(slot);
                    }
                }
                CsDecision::Preempt(id) => {
                    if let Some(&slot) = slot_of.get(&id) {
                        let c = &mut self.w.containers[slot as usize];
                        if c.marked_at().is_none() {
                            c.mark(now);
                        }
                    }
                }
            }
        }
    }
}
