//! The update thread (Hadoop's `FairScheduler.update`, every `update_interval_ms`):
//! recompute app demands and weights, queue demands bottom-up (capped at maxResources),
//! instantaneous fair shares top-down (inactive queues get 0), each leaf's runnable apps'
//! shares, the demand-capped "ideal" shares used by the metrics, and the ordering keys that
//! depend on demand or weight.
//!
//! App demand is usage plus outstanding requests: Hadoop 2.7 counts the requests at every
//! locality level (node, rack and ANY), Hadoop 3.3 only ANY. Leaf demand sums runnable and
//! waiting apps. Weights follow `fairsim_core::AppWeight` (sizebasedweight, booster).

use crate::app::AppPhase;
use crate::engine::Simulation;
use crate::scheduler::preempt::PreemptState;
use crate::tree::{QueueId, QueueLoad};
use fairsim_core::share::policy_shares;
use fairsim_core::{AppWeight, Schedulable, Semantics, ShareCap, ShareKind};

impl Simulation<'_> {
    /// Whether anything reads apps' instantaneous fair shares: preemption and Hadoop 3.x's
    /// reservation check (`is_starved_33`). In a 2.7 run without preemption they are not
    /// computed at all (no decision, metric or output depends on them).
    pub(crate) fn app_shares_read(&self) -> bool {
        !matches!(self.preempt, PreemptState::Off) || self.semantics != Semantics::Hadoop27
    }

    /// One run of the update thread.
    pub(crate) fn update(&mut self) {
        let all_levels = self.semantics == Semantics::Hadoop27;
        let weight = AppWeight {
            semantics: self.semantics,
            size_based: self.sc.scheduler.sizebasedweight,
            booster: self.sc.scheduler.booster,
        };
        let n_q = self.queues.len();
        let mut loads = vec![QueueLoad::default(); n_q];
        // App demands change only when an app's usage or requests change, and weights only
        // with its demand (sizebasedweight) or its age (booster): only apps marked since the
        // last tick are recomputed (every submitted, unfinished app when a booster is on), and
        // each leaf keeps the sum of its runnable and waiting apps' demands up to date.
        if self.sc.scheduler.booster.is_some() {
            for i in 0..n_q {
                let q = &self.queues[i];
                for &a in q.runnable_apps.iter().chain(&q.waiting_apps) {
                    if !self.apps[a as usize].demand_dirty {
                        self.apps[a as usize].demand_dirty = true;
                        self.dirty_apps.push(a);
                    }
                }
            }
        }
        let mut reorder = std::mem::take(&mut self.reorder_scratch);
        reorder.clear();
        let dirty = std::mem::take(&mut self.dirty_apps);
        for &a in &dirty {
            let app = &mut self.apps[a as usize];
            app.demand_dirty = false;
            let runnable = match app.phase {
                AppPhase::Runnable => true,
                AppPhase::Waiting => false,
                _ => continue,
            };
            let demand = app
                .usage
                .saturating_add(app.requests.outstanding(all_levels));
            let age = self.now.since(self.specs[a as usize].arrival);
            let w = weight.weight(demand.memory_mb, 1, age);
            let q = &mut self.queues[app.queue.idx()];
            q.app_demand = q
                .app_demand
                .saturating_sub(app.demand)
                .saturating_add(demand);
            if runnable && (app.sched.demand != demand || app.sched.weight != w) {
                q.app_shares_dirty |= app.sched.weight != w;
                reorder.push(a);
            }
            app.demand = demand;
            app.sched.demand = demand;
            app.sched.weight = w;
        }
        self.dirty_apps = dirty;
        self.dirty_apps.clear();
        for (i, l) in loads.iter_mut().enumerate() {
            if self.tree.queues[i].is_leaf {
                l.demand = self.queues[i].app_demand;
            }
        }
        for (i, l) in loads.iter_mut().enumerate() {
            let q = &self.queues[i];
            l.usage = q.usage;
            l.active = self.tree.queues[i].is_leaf && q.runnable > 0;
        }
        self.tree.roll_up(self.cluster.total, &mut loads);
        let cluster = self.cluster.total;
        // Capped by max shares only, the queues' fair shares depend on which queues are
        // active (weights, min and max shares and the cluster are fixed; demand and usage are
        // not read): they are recomputed only when the set of active queues changes.
        let active: Vec<bool> = loads.iter().map(|l| l.active).collect();
        let shares = match &self.queue_share_cache {
            Some((a, s)) if *a == active => s.clone(),
            _ => {
                let s = self.tree.fair_shares(
                    self.semantics,
                    ShareKind::Instantaneous,
                    cluster,
                    &loads,
                    ShareCap::MaxShare,
                );
                self.queue_share_cache = Some((active, s.clone()));
                s
            }
        };
        // The demand-capped shares read only demands and activity (never usage): recomputed
        // only when one of these changed since the last tick.
        let mut cache = std::mem::take(&mut self.ideal_cache);
        let same = cache.loads.len() == n_q
            && cache
                .loads
                .iter()
                .zip(&loads)
                .all(|(&(d, a), l)| d == l.demand && a == l.active);
        if !same {
            cache.loads.clear();
            cache
                .loads
                .extend(loads.iter().map(|l| (l.demand, l.active)));
            cache.shares = self.tree.fair_shares(
                self.semantics,
                ShareKind::Instantaneous,
                cluster,
                &loads,
                ShareCap::Demand,
            );
        }
        let ideal = &cache.shares;
        let mut changed = std::mem::take(&mut self.changed_scratch);
        changed.clear();
        for i in 0..n_q {
            let q = &mut self.queues[i];
            // A queue's ordering key reads its demand and activity (usage changes re-key it
            // when they happen); its metrics read its demand and both shares.
            let keyed = q.sched.demand != loads[i].demand || q.sched.active != loads[i].active;
            let metered = keyed || q.fair_share != shares[i] || q.ideal_share != ideal[i];
            q.demand = loads[i].demand;
            q.app_shares_dirty |= q.fair_share != shares[i];
            q.fair_share = shares[i];
            q.ideal_share = ideal[i];
            q.sched.demand = q.demand;
            q.sched.active = loads[i].active;
            if keyed || metered {
                changed.push((i as u32, keyed));
            }
        }
        self.ideal_cache = cache;
        // Leaf apps' instantaneous shares: their inputs are the leaf's fair share and its
        // runnable apps' weights (apps have no min share and no max share), so a leaf is
        // recomputed only when one of these changed, and only in runs that read them.
        let shares_read = self.app_shares_read();
        let mut list = std::mem::take(&mut self.share_scratch);
        for i in 0..n_q {
            if !shares_read
                || !self.tree.queues[i].is_leaf
                || self.queues[i].runnable_apps.is_empty()
                || !self.queues[i].app_shares_dirty
            {
                continue;
            }
            self.queues[i].app_shares_dirty = false;
            let apps = &self.queues[i].runnable_apps;
            list.truncate(apps.len());
            // The share computation reads weights, min and max shares, demand, activity and
            // start times, never names: the list is filled without copying them.
            for (k, &a) in apps.iter().enumerate() {
                let sched = &self.apps[a as usize].sched;
                if k == list.len() {
                    list.push(Schedulable::new(String::new()));
                }
                let slot = &mut list[k];
                slot.weight = sched.weight;
                slot.start_time_ms = sched.start_time_ms;
                slot.min_share = sched.min_share;
                slot.max_share = sched.max_share;
                slot.demand = sched.demand;
                slot.usage = sched.usage;
                slot.active = sched.active;
            }
            let policy = self.tree.queues[i].policy;
            let split = policy_shares(
                self.semantics,
                policy,
                ShareKind::Instantaneous,
                &list,
                self.queues[i].fair_share,
                ShareCap::MaxShare,
            );
            for (k, s) in split.into_iter().enumerate() {
                let a = self.queues[i].runnable_apps[k];
                self.apps[a as usize].fair_share = s;
            }
        }
        self.share_scratch = list;
        // Queue keys depend on demand and activity: re-key the queues where they changed.
        for &(i, keyed) in &changed {
            if keyed && i != 0 {
                self.requeue(QueueId(i));
            }
        }
        // Apps' keys change here only through demand and weight (usage changes re-key an app
        // when they happen).
        for &a in &reorder {
            self.reorder_app(a);
        }
        self.reorder_scratch = reorder;
        for i in 0..n_q {
            if self.tree.queues[i].is_leaf {
                self.metrics_refresh_leaf(QueueId(i as u32));
            }
        }
        self.changed_scratch = changed;
        self.metrics_resum();
    }
}

/// The update thread's demand-capped shares and the (demand, active) of every queue they
/// were computed for.
#[derive(Debug, Clone, Default)]
pub(crate) struct IdealCache {
    loads: Vec<(fairsim_core::Resource, bool)>,
    shares: Vec<fairsim_core::Resource>,
}
