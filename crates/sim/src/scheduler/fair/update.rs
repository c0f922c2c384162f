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
use crate::scheduler::Sched;
use crate::tree::QueueId;
use fairsim_core::share::{hadoop_shares_counted, policy_shares};
use fairsim_core::{
    AppWeight, Policy, Resource, Schedulable, Semantics, ShareCap, ShareItem, ShareKind,
};

impl Sched<'_, '_> {
    /// One run of the update thread.
    pub(crate) fn update(&mut self) {
        let all_levels = self.w.semantics == Semantics::Hadoop27;
        let weight = AppWeight {
            semantics: self.w.semantics,
            size_based: self.w.sc.scheduler.sizebasedweight,
            booster: self.w.sc.scheduler.booster,
        };
        let n_q = self.w.queues.len();
        // App demands change only when an app's usage or requests change, and weights only
        // with its demand (sizebasedweight) or its age (booster): only apps marked since the
        // last tick are recomputed (every submitted, unfinished app when a booster is on), and
        // each leaf keeps the sum of its runnable and waiting apps' demands up to date.
        if self.w.sc.scheduler.booster.is_some() {
            for i in 0..n_q {
                let q = &self.w.queues[i];
                for &a in q.runnable_apps.iter().chain(&q.waiting_apps) {
                    if !self.w.apps[a as usize].demand_dirty {
                        self.w.apps[a as usize].demand_dirty = true;
                        self.w.dirty_apps.push(a);
                    }
                }
            }
        }
        let mut reorder = std::mem::take(&mut self.books.reorder_scratch);
        reorder.clear();
        let dirty = std::mem::take(&mut self.w.dirty_apps);
        for &a in &dirty {
            let app = &mut self.w.apps[a as usize];
            app.demand_dirty = false;
            let runnable = match app.phase {
                AppPhase::Runnable => true,
                AppPhase::Waiting => false,
                _ => continue,
            };
            let demand = app
                .usage
                .saturating_add(app.requests.outstanding(all_levels));
            let age = self.cx.now.since(self.w.specs[a as usize].arrival);
            let w = weight.weight(demand.memory_mb, 1, age);
            let leaf = app.queue;
            let q = &mut self.w.queues[leaf.idx()];
            q.app_demand = q
                .app_demand
                .saturating_sub(app.demand)
                .saturating_add(demand);
            let reweighted = app.sched.weight != w;
            if runnable && (app.sched.demand != demand || reweighted) {
                reorder.push(a);
            }
            app.demand = demand;
            app.sched.demand = demand;
            self.w.set_app_weight(a as usize, w);
            if runnable && reweighted {
                self.mark_app_shares(leaf);
            }
            self.touch_leaf(leaf);
        }
        self.w.dirty_apps = dirty;
        self.w.dirty_apps.clear();
        // Loads and shares of the queues where something changed (`queue_shares`).
        let mut work = std::mem::take(&mut self.books.share_work);
        let changed = self.refresh_queue_shares(&mut work);
        self.books.share_work = work;
        let mut keyed = std::mem::take(&mut self.books.changed_scratch);
        keyed.clear();
        for &i in &changed {
            let load = self.books.queue_shares.load(i as usize);
            let q = &mut self.w.queues[i as usize];
            // A queue's ordering key reads its demand and activity (usage changes re-key it
            // when they happen); its metrics read its demand and both shares.
            if q.sched.demand != load.demand || q.sched.active != load.active {
                keyed.push(i);
            }
            q.demand = load.demand;
            q.sched.demand = load.demand;
            q.sched.active = load.active;
        }
        // Leaf apps' instantaneous shares: due from this tick where their inputs changed,
        // computed when a decision reads them (`app_shares`).
        self.app_shares_at_tick();
        // Queue keys depend on demand and activity: re-key the queues where they changed.
        for &i in &keyed {
            if i != 0 {
                self.w.requeue(QueueId(i));
            }
        }
        // Apps' keys change here only through demand and weight (usage changes re-key an app
        // when they happen).
        for &a in &reorder {
            self.reorder_app(a);
        }
        self.books.reorder_scratch = reorder;
        self.books.changed_scratch = keyed;
        // A leaf's metrics read its usage (refreshed when it changes), demand and shares:
        // refreshed where these changed, in queue order (the deviation's running maximum
        // reads the partial sums in that order).
        // A leaf whose terms stay as they are is skipped (most leaves of a parent split
        // again, whose fair share moved but not across the starvation threshold).
        for &i in &changed {
            if self.w.tree.queues[i as usize].is_leaf && !self.metrics_unchanged(QueueId(i)) {
                self.metrics_refresh_leaf(QueueId(i));
            }
        }
        self.w.metrics_resum(self.cx.now.0);
        if self.w.sc.check_invariants && self.books.queue_shares.mismatch.is_none() {
            self.books.queue_shares.mismatch = self.leaf_terms_mismatch();
        }
    }

    /// The first leaf whose held metric terms differ from those its usage, demand and shares
    /// give now, if one does (checked with `check_invariants` after each update: the
    /// leaves refreshed incrementally, those whose load changed and those whose starvation
    /// flag flipped with their class's share, must be all that needed it).
    fn leaf_terms_mismatch(&self) -> Option<String> {
        (0..self.w.queues.len() as u32)
            .map(QueueId)
            .filter(|&q| self.w.tree.get(q).is_leaf)
            .find(|&q| !self.metrics_unchanged(q))
            .map(|q| {
                format!(
                    "leaf {}: held metric terms differ from its state's",
                    self.w.tree.get(q).name
                )
            })
    }

    /// The instantaneous shares of leaf `i`'s runnable apps.
    pub(crate) fn leaf_app_shares(&mut self, i: usize, list: &mut Vec<Schedulable>) {
        let policy = self.w.tree.queues[i].policy;
        if policy != Policy::Fifo && self.leaf_app_shares_by_class(i, policy) {
            #[cfg(debug_assertions)]
            {
                let by_class: Vec<_> = (self.w.queues[i].runnable_apps.iter())
                    .map(|&a| self.w.app_fair_shares[a as usize])
                    .collect();
                self.leaf_app_shares_listed(i, list);
                let listed: Vec<_> = (self.w.queues[i].runnable_apps.iter())
                    .map(|&a| self.w.app_fair_shares[a as usize])
                    .collect();
                debug_assert_eq!(by_class, listed, "leaf {i}: app shares by class");
            }
            return;
        }
        self.leaf_app_shares_listed(i, list);
    }

    /// [`Sched::leaf_app_shares`] under the fair and DRF policies while the leaf's runnable
    /// apps fall in few classes alike in everything the share search reads (weight, min
    /// and max share, activity: an app's min and max share and activity are Hadoop's
    /// constants, so its weight alone sets its class, and without sizebasedweight every app
    /// of a leaf is usually alike): one search over the classes with their counts
    /// (`hadoop_shares_counted`, whose shares are the list's, item by item), each app then
    /// given its class's share. The search over a whole leaf (hundreds of apps at every
    /// tick where a starvation check reads a share) is what a Hadoop 3.3 reservation's check
    /// cost. It reads and writes the apps' weights and shares kept apart from their records
    /// (`World::app_weights`, `World::app_fair_shares`). False, with nothing written, when
    /// there are more classes than a few.
    fn leaf_app_shares_by_class(&mut self, i: usize, policy: Policy) -> bool {
        const MOST: usize = 8;
        let mut classes: Vec<(u32, u64)> = Vec::with_capacity(MOST);
        let n = self.w.queues[i].runnable_apps.len();
        let mut class_of: Vec<u8> = Vec::with_capacity(n);
        for &a in &self.w.queues[i].runnable_apps {
            // Weights compared bit for bit: the search reads the float as it is.
            let class = self.w.app_weights[a as usize].to_bits();
            #[cfg(debug_assertions)]
            {
                let s = &self.w.apps[a as usize].sched;
                debug_assert_eq!(class, s.weight.to_bits(), "app {a}: weight's copy");
                let constant = fairsim_core::Schedulable::new("");
                debug_assert!(
                    s.min_share == constant.min_share
                        && s.max_share == constant.max_share
                        && s.active == constant.active,
                    "app {a}: an app's min and max share and activity are constants"
                );
            }
            let c = match classes.iter().position(|(k, _)| *k == class) {
                Some(c) => {
                    classes[c].1 += 1;
                    c
                }
                None if classes.len() == MOST => return false,
                None => {
                    classes.push((class, 1));
                    classes.len() - 1
                }
            };
            class_of.push(c as u8);
        }
        let total = self.fair_share_of(QueueId(i as u32));
        let mut shares = vec![Resource::ZERO; classes.len()];
        // The fair policy computes memory only (vcores stay 0, as in Hadoop); DRF both.
        let types: &[bool] = if policy == Policy::Drf {
            &[true, false]
        } else {
            &[true]
        };
        let constant = fairsim_core::Schedulable::new("");
        let mut entries = Vec::with_capacity(classes.len());
        for &memory in types {
            let pick = |r: Resource| if memory { r.memory_mb } else { r.vcores };
            entries.clear();
            entries.extend(classes.iter().map(|&(w, count)| {
                let item = ShareItem {
                    weight: f32::from_bits(w),
                    min: pick(constant.min_share),
                    max: pick(constant.max_share),
                    active: constant.active,
                };
                (item, count)
            }));
            let got = hadoop_shares_counted(
                self.w.semantics,
                ShareKind::Instantaneous,
                &entries,
                pick(total),
            );
            for (s, v) in shares.iter_mut().zip(got) {
                if memory {
                    s.memory_mb = v;
                } else {
                    s.vcores = v;
                }
            }
        }
        let w = &mut *self.w;
        for (&a, &c) in w.queues[i].runnable_apps.iter().zip(&class_of) {
            w.app_fair_shares[a as usize] = shares[c as usize];
        }
        true
    }

    /// [`Sched::leaf_app_shares`] item by item, as Hadoop's list.
    fn leaf_app_shares_listed(&mut self, i: usize, list: &mut Vec<Schedulable>) {
        let apps = &self.w.queues[i].runnable_apps;
        list.truncate(apps.len());
        // The share computation reads weights, min and max shares, demand, activity and
        // start times, never names: the list is filled without copying them.
        for (k, &a) in apps.iter().enumerate() {
            let sched = &self.w.apps[a as usize].sched;
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
        let policy = self.w.tree.queues[i].policy;
        let split = policy_shares(
            self.w.semantics,
            policy,
            ShareKind::Instantaneous,
            list,
            self.fair_share_of(QueueId(i as u32)),
            ShareCap::MaxShare,
        );
        for (k, s) in split.into_iter().enumerate() {
            let a = self.w.queues[i].runnable_apps[k];
            self.w.app_fair_shares[a as usize] = s;
        }
    }
}
