//! The books both schedulers keep as they decide: usage summed up the tree, the ordered sets
//! of queues and apps, outstanding-request counts, apps' demands marked for the update, the
//! leaves' metric terms, closed apps' records, and a node's heartbeat.

use crate::app::AppPhase;
use crate::scheduler::Sched;
use crate::scheduler::fair::queue_shares::starved_fair;
use crate::tree::QueueId;
use fairsim_core::Resource;

/// What both schedulers keep between events beside the world they share: the update
/// thread's queue loads and shares (it runs under either scheduler, and the metrics read its
/// shares), the leaves whose apps' shares are due, its scratch, and the count of leaves a
/// descent could serve.
#[derive(Default)]
pub(crate) struct Books {
    /// Scratch buffers of the update thread, kept to avoid allocating on every tick.
    pub share_scratch: Vec<fairsim_core::Schedulable>,
    pub reorder_scratch: Vec<u32>,
    /// Queues re-keyed at this update (their demand or activity changed).
    pub changed_scratch: Vec<u32>,
    /// The update thread's queue loads and the sums behind them (rebuilt when queues are
    /// created or the cluster changes).
    pub queue_shares: crate::scheduler::fair::queue_shares::QueueShares,
    /// Scratch of the queue-level update.
    pub share_work: crate::scheduler::fair::queue_shares::ShareWork,
    /// Leaves whose apps' shares may need computing at the next update (see
    /// `Sched::mark_app_shares`).
    pub app_share_leaves: Vec<u32>,
    /// Leaves with an outstanding request that a descent could serve (see
    /// `Sched::refresh_open`).
    pub open_leaves: u64,
}

/// A leaf's contribution to the metrics, as `metrics_refresh_leaf` stores it in `LeafAcc`.
struct LeafTerms {
    starved_min: bool,
    starved_fair: bool,
    active: bool,
    x: f64,
    dev: f64,
}

impl Sched<'_, '_> {
    /// Recomputes name ranks and rebuilds every parent's ordered set (after queues change).
    pub(crate) fn rerank_queues(&mut self) {
        self.reset_queue_shares();
        let names: Vec<&str> = self.w.tree.queues.iter().map(|q| q.name.as_str()).collect();
        let ranks = crate::state::world::java_ranks(&names);
        for (i, (q, r)) in self.w.queues.iter_mut().zip(ranks).enumerate() {
            q.name_rank = r;
            // Every parent's set is emptied: no queue is in one.
            q.in_parent_set = false;
            if !self.w.tree.queues[i].is_leaf {
                q.ordered.clear();
            }
        }
        for i in 1..self.w.queues.len() {
            self.w.requeue(QueueId(i as u32));
        }
    }

    /// Arms `node` in the heartbeat clock while it holds a reservation or resources kept for
    /// an app (its heartbeat may act even when no other node's can), disarms it otherwise.
    #[inline]
    pub(crate) fn rearm(&mut self, node: u32) {
        let n = node as usize;
        let armed = self.w.cluster.nodes[n].reservation.is_some()
            || !self.held_for(n).is_empty()
            || self.w.cluster.nodes[n].state == crate::cluster::NodeState::Decommissioning;
        let clock = self.cx.events.clock_mut();
        if armed {
            clock.arm(node);
        } else {
            clock.disarm(node);
        }
    }

    /// Marks app `a`'s demand for recomputation at the next update (its usage or requests
    /// changed).
    #[inline]
    pub(crate) fn demand_changed(&mut self, a: u32) {
        self.recheck_reserved_by(a);
        let app = &mut self.w.apps[a as usize];
        if !app.demand_dirty {
            app.demand_dirty = true;
            self.w.dirty_apps.push(a);
        }
    }

    /// Adds `delta` to the usage of `leaf` and its ancestors, keeping orders and metrics.
    #[inline]
    pub(crate) fn add_usage(&mut self, leaf: QueueId, delta: Resource, sign: i64) {
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &mut self.w.queues[id.idx()];
            qs.usage = if sign > 0 {
                qs.usage.saturating_add(delta)
            } else {
                qs.usage.saturating_sub(delta)
            };
            qs.sched.usage = qs.usage;
            if id != QueueId::ROOT {
                self.w.requeue(id);
            }
            q = self.w.tree.get(id).parent;
        }
        self.class_member_usage(leaf);
        self.metrics_refresh_leaf(leaf);
        let d = Resource::new(delta.memory_mb * sign, delta.vcores * sign);
        // The leaf's refresh just advanced the integrals to now, before usage moves.
        debug_assert_eq!(self.w.integrals.last, self.cx.now.0);
        self.w.integrals.used_mb += d.memory_mb;
        self.w.integrals.used_vcores += d.vcores;
    }

    /// Re-inserts app `a` in its leaf's ordered sets (present iff runnable with requests,
    /// and in a Hadoop 3.3 Fair run also with pending demand; in `am_waiting` while its AM
    /// is not running, see [`Sched::waits_for_am`]).
    /// Naive ordering keeps the sets too (its descent does not read them): heartbeat
    /// elision reads which apps wait for their AM (`Sched::refresh_open`).
    ///
    /// Hadoop 3.3's descent passes over every app without pending demand
    /// (`fetchAppsWithDemand`): at 10,000 nodes a descent read 2.4 apps to offer the node to
    /// one, each read a miss on the set's entry and on the app's record. Kept out of the
    /// sets, they cost nothing. The key stays that of every runnable app with requests, so
    /// an app's fields read the same whether its leaf holds it or not.
    #[inline]
    pub(crate) fn reorder_app(&mut self, a: u32) {
        let app = &self.w.apps[a as usize];
        let leaf = app.queue;
        let (old, rank, was_in, was_am) = (app.key, app.name_rank, app.in_set, app.in_am_set);
        let asking = app.asking();
        let filters = self.filters_apps_with_demand();
        let offered = asking && filters && self.has_pending_demand_33(a);
        let should = asking && (offered || !filters);
        let to_am = should && self.waits_for_am(a);
        let key = if asking {
            self.w.queues[leaf.idx()].comparator.key(&app.sched)
        } else {
            old
        };
        let am = self.w.specs[a as usize].am.map(|r| (r.memory_mb, r.vcores));
        let q = &mut self.w.queues[leaf.idx()];
        if was_in {
            if was_am {
                q.am_waiting.remove(&(old, rank, a));
                if let Some(size) = am
                    && let Some(n) = q.am_sizes.get_mut(&size)
                {
                    *n -= 1;
                    if *n == 0 {
                        q.am_sizes.remove(&size);
                    }
                }
            } else {
                q.ordered.remove(&(old, rank, a));
            }
        }
        if should {
            if to_am {
                q.am_waiting.insert((key, rank, a));
                if let Some(size) = am {
                    *q.am_sizes.entry(size).or_insert(0) += 1;
                }
            } else {
                q.ordered.insert((key, rank, a));
            }
        }
        let app = &mut self.w.apps[a as usize];
        app.key = key;
        app.in_set = should;
        app.in_am_set = to_am;
        if app.offered_33 != offered {
            app.offered_33 = offered;
            let q = &mut self.w.queues[leaf.idx()];
            if offered {
                q.offered += 1;
            } else {
                q.offered -= 1;
            }
        }
        self.refresh_open(leaf);
    }

    /// Changes the outstanding-request count of runnable app `a` by `delta` up its queues.
    #[inline]
    pub(crate) fn pending_changed(&mut self, a: u32, delta: i64) {
        if delta == 0 {
            return;
        }
        self.explain_touch(a);
        let mut q = Some(self.w.apps[a as usize].queue);
        while let Some(id) = q {
            let p = &mut self.w.queues[id.idx()].pending;
            let was_idle = *p == 0;
            *p = (*p as i64 + delta) as u64;
            if was_idle != (*p == 0) {
                self.w.requeue(id);
            }
            if self.w.tree.get(id).is_leaf {
                self.refresh_open(id);
            }
            q = self.w.tree.get(id).parent;
        }
    }

    /// Leaf `leaf`'s metric terms as its usage, demand and shares give them now.
    #[inline]
    fn leaf_terms(&self, leaf: QueueId) -> LeafTerms {
        let threshold = self.w.tree.get(leaf).fair_share_preemption_threshold as f64;
        let q = &self.w.queues[leaf.idx()];
        let desired = q.min_share.memory_mb.min(q.demand.memory_mb);
        let ideal = q.ideal_share.memory_mb;
        let fair = self.fair_share_of(leaf).memory_mb;
        LeafTerms {
            starved_min: q.usage.memory_mb < desired,
            starved_fair: starved_fair(q.usage.memory_mb, threshold, fair),
            active: ideal > 0,
            x: if ideal > 0 {
                q.usage.memory_mb as f64 / ideal as f64
            } else {
                0.0
            },
            dev: (q.usage.memory_mb - ideal).abs() as f64,
        }
    }

    /// Whether [`Sched::metrics_refresh_leaf`] would leave every metric as it is, given
    /// that Jain's sums are rebuilt ([`World::metrics_resum`]) before anything reads
    /// them: the leaf's terms are those it holds. Its starvation times then accrue at the
    /// same flags whenever they are flushed, and taking out and adding back the same whole
    /// megabytes leaves the deviation's sum, hence its running maximum, as they are.
    pub(crate) fn metrics_unchanged(&self, leaf: QueueId) -> bool {
        let t = self.leaf_terms(leaf);
        let acc = &self.w.queues[leaf.idx()].acc;
        t.starved_min == acc.starved_min
            && t.starved_fair == acc.starved_fair
            && t.active == acc.active
            && t.x.to_bits() == acc.x.to_bits()
            && t.dev.to_bits() == acc.dev.to_bits()
    }

    /// Refreshes the metrics contribution of `leaf` (starvation flags, Jain and deviation
    /// terms) after its usage, demand or shares changed.
    #[inline]
    pub(crate) fn metrics_refresh_leaf(&mut self, leaf: QueueId) {
        let now = self.cx.now.0;
        self.w.integrals.advance(now);
        let t = self.leaf_terms(leaf);
        let q = &mut self.w.queues[leaf.idx()];
        let acc = &mut q.acc;
        let dt = now.saturating_sub(acc.last);
        if acc.starved_min {
            acc.starved_min_ms += dt;
        }
        if acc.starved_fair {
            acc.starved_fair_ms += dt;
        }
        // `dev` is whole megabytes (exact in a double): through i64, the conversion is one
        // instruction rather than a call, with the same value.
        acc.dev_ms += i128::from(acc.dev as i64) * i128::from(dt);
        acc.last = now;
        let starved_min = t.starved_min;
        if starved_min && !acc.starved_min {
            acc.starved_min_episodes += 1;
            acc.starved_min_since = now;
        }
        // Episodes of zero length (a container released and replaced in the same
        // millisecond) are not a wait.
        if !starved_min && acc.starved_min && now > acc.starved_min_since {
            acc.min_share_reached_ms.push(now - acc.starved_min_since);
        }
        acc.starved_min = starved_min;
        acc.starved_fair = t.starved_fair;
        let ig = &mut self.w.integrals;
        if acc.active {
            ig.n_active -= 1;
            ig.sum_x -= acc.x;
            ig.sum_x2 -= acc.x * acc.x;
        }
        ig.dev_sum -= acc.dev;
        if acc.active != t.active {
            if t.active {
                self.w.metered.insert(leaf.0);
            } else {
                self.w.metered.remove(leaf.0);
            }
        }
        self.w.metered.set_x(leaf.0, t.x);
        acc.active = t.active;
        acc.x = t.x;
        acc.dev = t.dev;
        if acc.active {
            ig.n_active += 1;
            ig.sum_x += acc.x;
            ig.sum_x2 += acc.x * acc.x;
        }
        ig.dev_sum += acc.dev;
        if ig.dev_sum > ig.dev_max {
            ig.dev_max = ig.dev_sum;
        }
    }

    /// Every app arrived and finished (or was rejected).
    pub(crate) fn drained(&self) -> bool {
        self.cx.n_closed == self.w.apps.len()
    }

    #[inline]
    pub(crate) fn on_heartbeat(&mut self, node: u32) {
        // A node not in the cluster (yet, or any more) does not beat.
        match self.w.cluster.nodes[node as usize].state {
            crate::cluster::NodeState::Pending | crate::cluster::NodeState::Gone => return,
            crate::cluster::NodeState::Decommissioning => {
                if self.decommissioning_beat(node) {
                    return;
                }
            }
            crate::cluster::NodeState::Running => {}
        }
        self.cx.counters.heartbeats += 1;
        if self.heartbeat_schedules(node) {
            self.attempt_scheduling(node);
        }
        self.rearm(node);
        self.park_if_idle(node);
    }

    /// No outstanding request can still change the path delay scheduling gives it.
    pub(crate) fn delay_settled(&self) -> bool {
        // The Capacity Scheduler's locality waits are counted, not levels: each missed
        // opportunity that can still open a level counts as progress where it is made
        // (`scheduler::capacity`), so its requests never hold the quiescence test back.
        if self.capacity.is_some() {
            return true;
        }
        let conf = &self.w.sc.scheduler;
        let off = if self.continuous_on() {
            conf.locality_delay_node_ms < 0 || conf.locality_delay_rack_ms < 0
        } else {
            conf.locality_threshold_node < 0.0 || conf.locality_threshold_rack < 0.0
        };
        if off {
            return true;
        }
        self.w
            .apps
            .iter()
            .filter(|a| a.phase == AppPhase::Runnable)
            .flat_map(|a| a.requests.by_priority.iter())
            .all(|p| {
                // A request never offered (no level yet) stays so unless a level change,
                // which counts as progress, shows it was offered.
                p.any == 0
                    || !p.has_local_requests()
                    || matches!(p.allowed, None | Some(crate::app::Locality::OffSwitch))
            })
    }

    /// Checks what the scheduler keeps beside the world against the world: the update's
    /// queue shares, the apps each leaf counts as offered, the nodes reserved per app.
    pub(crate) fn check_invariants(&self) -> Result<(), String> {
        if let Some(m) = &self.books.queue_shares.mismatch {
            return Err(format!("the update's queue shares: {m}"));
        }
        // The apps Hadoop 3.3's descent may give a node, counted per leaf (heartbeat
        // elision reads the counts through `refresh_open`).
        // A leaf's ordered sets hold its asking apps, in 3.3 only those offered
        // (`Sched::reorder_app`).
        let mut offered = vec![0u32; self.w.queues.len()];
        let filters = self.filters_apps_with_demand();
        for (i, a) in self.w.apps.iter().enumerate() {
            let is = a.asking() && filters && self.has_pending_demand_33(i as u32);
            if a.offered_33 != is {
                return Err(format!("app {i} offered_33 is {}", a.offered_33));
            }
            if a.in_set != (a.asking() && (is || !filters)) {
                return Err(format!("app {i} in_set is {}", a.in_set));
            }
            if is {
                offered[a.queue.idx()] += 1;
            }
        }
        for (i, q) in self.w.queues.iter().enumerate() {
            if q.offered != offered[i] {
                return Err(format!(
                    "queue {} counts {} apps with pending demand, not {}",
                    self.w.tree.queues[i].name, q.offered, offered[i]
                ));
            }
        }
        // The nodes reserved per app (`scheduler::fair::full_nodes`).
        let mut reserved = vec![0u32; self.w.apps.len()];
        let mut in_rack = std::collections::BTreeMap::<(u32, u32), u32>::new();
        for n in &self.w.cluster.nodes {
            if let Some(r) = n.reservation {
                reserved[r.app as usize] += 1;
                *in_rack.entry((r.app, n.rack)).or_default() += 1;
            }
        }
        if self.capacity.is_some() {
            return self.cs_reservations_agree();
        }
        // Counted per rack in Hadoop 3.3 only (`Sched::rack_counted`).
        let per_rack = self.w.semantics == fairsim_core::Semantics::Hadoop33;
        let counted = self
            .fair
            .as_ref()
            .map_or(0, |f| f.full_nodes.pairs_counted());
        if per_rack && counted != in_rack.len() {
            return Err(format!(
                "{counted} (app, rack) pairs count reservations, not {}",
                in_rack.len()
            ));
        }
        for (&(a, rack), &k) in in_rack.iter().filter(|_| per_rack) {
            if self.reserved_in_rack(a, rack) != k {
                return Err(format!(
                    "app {a} counts {} reserved nodes in rack {rack}, not {k}",
                    self.reserved_in_rack(a, rack)
                ));
            }
        }
        for (a, &k) in reserved.iter().enumerate() {
            if self.reserved_by(a as u32) != k {
                return Err(format!(
                    "app {a} counts {} reserved nodes, not {k}",
                    self.reserved_by(a as u32)
                ));
            }
        }
        Ok(())
    }
}
