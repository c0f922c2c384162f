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
use crate::tree::{QueueId, QueueLoad};
use fairsim_core::share::policy_shares;
use fairsim_core::{AppWeight, Resource, Schedulable, Semantics, ShareCap, ShareKind};

impl Simulation<'_> {
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
        for (i, app) in self.apps.iter_mut().enumerate() {
            if !matches!(app.phase, AppPhase::Runnable | AppPhase::Waiting) {
                continue;
            }
            app.demand = app
                .usage
                .saturating_add(app.requests.outstanding(all_levels));
            let age = self.now.since(self.specs[i].arrival);
            app.sched.demand = app.demand;
            app.sched.weight = weight.weight(app.demand.memory_mb, 1, age);
            let l = &mut loads[app.queue.idx()];
            l.demand = l.demand.saturating_add(app.demand);
        }
        for (i, l) in loads.iter_mut().enumerate() {
            let q = &self.queues[i];
            l.usage = q.usage;
            l.active = self.tree.queues[i].is_leaf && q.runnable > 0;
        }
        self.tree.roll_up(self.cluster.total, &mut loads);
        let cluster = self.cluster.total;
        let shares = self.tree.fair_shares(
            self.semantics,
            ShareKind::Instantaneous,
            cluster,
            &loads,
            ShareCap::MaxShare,
        );
        let ideal = self.tree.fair_shares(
            self.semantics,
            ShareKind::Instantaneous,
            cluster,
            &loads,
            ShareCap::Demand,
        );
        for i in 0..n_q {
            let q = &mut self.queues[i];
            q.demand = loads[i].demand;
            q.fair_share = shares[i];
            q.ideal_share = ideal[i];
            q.sched.demand = q.demand;
            q.sched.active = loads[i].active;
        }
        // Leaf apps' instantaneous shares.
        for i in 0..n_q {
            if !self.tree.queues[i].is_leaf || self.queues[i].runnable_apps.is_empty() {
                continue;
            }
            let list: Vec<Schedulable> = self.queues[i]
                .runnable_apps
                .iter()
                .map(|&a| self.apps[a as usize].sched.clone())
                .collect();
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
        // Keys depend on demand and weight: refresh every order.
        for i in 1..n_q {
            self.requeue(QueueId(i as u32));
        }
        if self.incremental {
            for i in 0..n_q {
                if !self.tree.queues[i].is_leaf {
                    continue;
                }
                let apps = self.queues[i].runnable_apps.clone();
                for a in apps {
                    self.reorder_app(a);
                }
            }
        }
        for i in 0..n_q {
            if self.tree.queues[i].is_leaf {
                self.metrics_refresh_leaf(QueueId(i as u32));
            }
        }
        self.metrics_resum();
        let _ = Resource::ZERO;
    }
}
