//! Starvation: when a queue or an app counts as starved, and for how much, in each era.
//!
//! Hadoop 2.7 (§6.1) keeps two clocks per leaf queue (`lastTimeAtMinShare`,
//! `lastTimeAtFairShareThreshold`, in `FSLeafQueue`) and turns them into one amount to
//! preempt per leaf (`FairScheduler.resToPreempt`), always with the memory-only calculator.
//! Hadoop 3.x (§6.2) keeps the fair-share clock per app (`FSAppAttempt.fairShareStarvation`)
//! and the min-share clock per leaf (`FSLeafQueue.minShareStarvation`), compares with the
//! leaf policy's calculator, and hands the queue's min-share starvation to its apps
//! (`updateStarvedAppsMinshare`), u − p quirk included.

use fairsim_core::{Calculator, Resource};
use std::collections::BTreeSet;

/// Hadoop's `Resources.multiply` on a resource: each component times `by`, truncated.
pub fn multiply_trunc(r: Resource, by: f64) -> Resource {
    Resource::new(
        (r.memory_mb as f64 * by) as i64,
        (r.vcores as f64 * by) as i64,
    )
}

/// `Resources.subtractFromNonNegative`: `a − b` with every component clamped at 0.
pub fn sub_non_negative(a: Resource, b: Resource) -> Resource {
    let d = a.saturating_sub(b);
    Resource::new(d.memory_mb.max(0), d.vcores.max(0))
}

/// True when both components are zero (`Resources.isNone`).
pub fn is_none(r: Resource) -> bool {
    r == Resource::ZERO
}

/// Elapsed time `now − since` against a timeout that may be "never" (`None`, Hadoop's
/// `Long.MAX_VALUE`): 2.7's test is strictly greater than the timeout.
fn elapsed_over(now: u64, since: u64, timeout: Option<u64>) -> bool {
    match timeout {
        Some(t) => now.saturating_sub(since) > t,
        None => false,
    }
}

// ---- Hadoop 2.7 -------------------------------------------------------------------------

/// What a Hadoop 2.7 leaf's starvation depends on, read at one update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LeafLoad27 {
    /// Current usage (`getResourceUsage`).
    pub usage: Resource,
    /// Demand (usage plus outstanding requests, capped at maxResources).
    pub demand: Resource,
    /// Configured min share (`minResources`).
    pub min_share: Resource,
    /// Instantaneous fair share.
    pub fair_share: Resource,
    /// `fairSharePreemptionThreshold` (float, default 0.5).
    pub threshold: f32,
    /// `minSharePreemptionTimeout` in ms (`None`: never).
    pub min_share_timeout_ms: Option<u64>,
    /// `fairSharePreemptionTimeout` in ms (`None`: never).
    pub fair_share_timeout_ms: Option<u64>,
}

impl LeafLoad27 {
    /// A leaf with no min share, timeouts "never" and the default threshold 0.5.
    pub fn new(usage: Resource, demand: Resource, fair_share: Resource) -> LeafLoad27 {
        LeafLoad27 {
            usage,
            demand,
            min_share: Resource::ZERO,
            fair_share,
            threshold: 0.5,
            min_share_timeout_ms: None,
            fair_share_timeout_ms: None,
        }
    }

    fn is_starved(&self, share: Resource) -> bool {
        let c = Calculator::MemoryOnly;
        // The calculator ignores the cluster size when it compares memory only.
        let desired = c.min(Resource::ZERO, share, self.demand);
        c.less_than(Resource::ZERO, self.usage, desired)
    }

    /// `isStarvedForMinShare`: usage < min(minShare, demand), memory only.
    pub fn starved_for_min_share(&self) -> bool {
        self.is_starved(self.min_share)
    }

    /// `isStarvedForFairShare`: usage < min(fairShare × threshold truncated, demand).
    pub fn starved_for_fair_share(&self) -> bool {
        self.is_starved(multiply_trunc(self.fair_share, self.threshold as f64))
    }
}

/// A Hadoop 2.7 leaf's two starvation clocks (ms of simulated time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafStarvation27 {
    /// The last update at which the leaf was not starved for its min share.
    pub last_time_at_min_share: u64,
    /// The last update at which the leaf was not below threshold × fair share.
    pub last_time_at_fair_share_threshold: u64,
}

impl LeafStarvation27 {
    /// Clocks of a queue created at `now` (Hadoop starts both at the creation time).
    pub fn new(now: u64) -> LeafStarvation27 {
        LeafStarvation27 {
            last_time_at_min_share: now,
            last_time_at_fair_share_threshold: now,
        }
    }

    /// `updateStarvationStats`, run for every leaf at the start of each update: a clock is
    /// moved to `now` whenever the leaf is not starved in its sense.
    pub fn update(&mut self, now: u64, load: &LeafLoad27) {
        if !load.starved_for_min_share() {
            self.last_time_at_min_share = now;
        }
        if !load.starved_for_fair_share() {
            self.last_time_at_fair_share_threshold = now;
        }
    }
}

/// `resToPreempt` for one leaf: max(dueToMinShare, dueToFairShare) with the memory-only
/// calculator, where each part is max(0, min(share, demand) − usage) once its clock is
/// older than its timeout (strictly), and the fair-share part aims at the **full** fair
/// share, not threshold × share. The vcores component may be negative, as in Hadoop.
pub fn res_to_preempt_27(now: u64, clocks: &LeafStarvation27, load: &LeafLoad27) -> Resource {
    let c = Calculator::MemoryOnly;
    let z = Resource::ZERO;
    let due = |share: Resource| {
        let target = c.min(z, share, load.demand);
        c.max(z, Resource::ZERO, target.saturating_sub(load.usage))
    };
    let min_part = if elapsed_over(
        now,
        clocks.last_time_at_min_share,
        load.min_share_timeout_ms,
    ) {
        due(load.min_share)
    } else {
        Resource::ZERO
    };
    let fair_part = if elapsed_over(
        now,
        clocks.last_time_at_fair_share_threshold,
        load.fair_share_timeout_ms,
    ) {
        due(load.fair_share)
    } else {
        Resource::ZERO
    };
    c.max(z, min_part, fair_part)
}

// ---- Hadoop 3.x -------------------------------------------------------------------------

/// What a Hadoop 3.x app's starvation depends on, read at one update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AppLoad33 {
    /// Current usage.
    pub usage: Resource,
    /// Demand (usage plus outstanding requests).
    pub demand: Resource,
    /// The app's instantaneous fair share within its leaf.
    pub fair_share: Resource,
}

impl AppLoad33 {
    /// `getPendingDemand` clamped at 0. Hadoop's is a plain demand − usage, whose components
    /// may be negative (usage grown past the demand of the last update); its one reader here,
    /// `updateStarvedAppsMinShare`, subtracts the fair-share starvation (never negative) with
    /// `subtractFromNonNegative`, and max(0, max(0, x) − y) = max(0, x − y) for y ≥ 0, so the
    /// clamp changes nothing. Which apps have pending demand at all is decided on the plain
    /// difference (`Sched::has_pending_demand_33`).
    pub fn pending_demand(&self) -> Resource {
        sub_non_negative(self.demand, self.usage)
    }
}

/// A Hadoop 3.x app's starvation state (`FSAppAttempt` fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppStarvation33 {
    /// Last update at which the app was not below threshold × fair share.
    pub last_time_at_fair_share: u64,
    /// Fair-share starvation from the last update.
    pub fair_share_starvation: Resource,
    /// Min-share starvation handed down by the leaf at the last update.
    pub min_share_starvation: Resource,
    /// The app is not checked for starvation before this time (after a preemption for it).
    pub next_starvation_check: u64,
}

impl AppStarvation33 {
    /// State of an app submitted at `now`.
    pub fn new(now: u64) -> AppStarvation33 {
        AppStarvation33 {
            last_time_at_fair_share: now,
            fair_share_starvation: Resource::ZERO,
            min_share_starvation: Resource::ZERO,
            next_starvation_check: 0,
        }
    }

    /// Total starvation: fair-share plus min-share (`getStarvation`).
    pub fn starvation(&self) -> Resource {
        self.fair_share_starvation
            .saturating_add(self.min_share_starvation)
    }

    /// `shouldCheckForStarvation`: `now` has reached the next check time.
    pub fn should_check(&self, now: u64) -> bool {
        now >= self.next_starvation_check
    }

    /// `preemptionTriggered`: leave the app alone for `delay_ms`.
    pub fn preemption_triggered(&mut self, now: u64, delay_ms: u64) {
        self.next_starvation_check = now.saturating_add(delay_ms);
    }
}

/// The leaf settings and totals the 3.x starvation rules read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LeafCtx33 {
    /// The leaf policy's calculator (fair/FIFO: memory only; DRF: dominant).
    pub calc: Calculator,
    /// Cluster size (for the dominant calculator).
    pub cluster: Resource,
    /// `fairSharePreemptionThreshold`.
    pub threshold: f32,
    /// `fairSharePreemptionTimeout` in ms (`None`: never).
    pub fair_share_timeout_ms: Option<u64>,
    /// `minSharePreemptionTimeout` in ms (`None`: never).
    pub min_share_timeout_ms: Option<u64>,
    /// The leaf's min share.
    pub min_share: Resource,
    /// The leaf's demand.
    pub demand: Resource,
    /// The leaf's usage.
    pub usage: Resource,
}

/// `fairShareStarvation` of one app: starved when usage is strictly below
/// componentwise-min(fair share × threshold, demand) by the policy's calculator; the clock
/// resets whenever not starved; the amount counts only once starved for at least the
/// timeout (3.x's test is `now − last < timeout` → zero, so equality already counts).
pub fn fair_share_starvation_33(
    now: u64,
    ctx: &LeafCtx33,
    app: &AppLoad33,
    st: &mut AppStarvation33,
) -> Resource {
    let threshold = multiply_trunc(app.fair_share, ctx.threshold as f64);
    let fair_demand = threshold.component_min(app.demand);
    // `isUsageBelowShare`: the single-type comparison (dominant shares alone for DRF).
    let starved = ctx
        .calc
        .less_than_single_type(ctx.cluster, app.usage, fair_demand);
    if !starved {
        st.last_time_at_fair_share = now;
    }
    let long_enough = match ctx.fair_share_timeout_ms {
        Some(t) => now.saturating_sub(st.last_time_at_fair_share) >= t,
        None => false,
    };
    st.fair_share_starvation = if starved && long_enough {
        sub_non_negative(fair_demand, app.usage)
    } else {
        Resource::ZERO
    };
    st.fair_share_starvation
}

/// A Hadoop 3.x leaf's min-share clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafStarvation33 {
    /// Last update at which the leaf had no min-share starvation.
    pub last_time_at_min_share: u64,
}

impl LeafStarvation33 {
    /// Clock of a queue created at `now`.
    pub fn new(now: u64) -> LeafStarvation33 {
        LeafStarvation33 {
            last_time_at_min_share: now,
        }
    }

    /// `minShareStarvation`: min(minShare, demand) by the policy's calculator, minus usage
    /// (clamped at 0 per component); exactly zero resets the clock; starvation younger than
    /// the timeout counts as zero.
    pub fn min_share_starvation(&mut self, now: u64, ctx: &LeafCtx33) -> Resource {
        let desired = ctx.calc.min(ctx.cluster, ctx.min_share, ctx.demand);
        let starvation = sub_non_negative(desired, ctx.usage);
        if is_none(starvation) {
            self.last_time_at_min_share = now;
            return starvation;
        }
        let long_enough = match ctx.min_share_timeout_ms {
            Some(t) => now.saturating_sub(self.last_time_at_min_share) >= t,
            None => false,
        };
        if long_enough {
            starvation
        } else {
            Resource::ZERO
        }
    }
}

/// `FSLeafQueue.updateStarvedApps` for one leaf at `now`.
///
/// `apps` are the leaf's apps with non-zero pending demand that are due for a starvation
/// check, **in the order of the leaf's `TreeSet` of them**; `states` is parallel to `apps`.
/// Returns the indices (into `apps`) of the apps Hadoop hands to the starved-app queue, in
/// order:
/// 1. fair-share starvation, app by app, stopping at the first app with none (later apps'
///    clocks are not touched, as in Hadoop);
/// 2. the leaf's min-share starvation minus the total fair-share starvation is handed out:
///    each app takes u = pending demand − own fair-share starvation; when u exceeds what is
///    left (p) the app's min-share starvation is set to **u − p** (Hadoop's arithmetic) and
///    nothing is left; every later app's min-share starvation is reset to zero.
pub fn update_starved_apps_33(
    now: u64,
    ctx: &LeafCtx33,
    leaf: &mut LeafStarvation33,
    apps: &[AppLoad33],
    states: &mut [AppStarvation33],
) -> Vec<usize> {
    assert_eq!(apps.len(), states.len(), "one state per app");
    let mut starved = Vec::new();
    let mut fair_total = Resource::ZERO;
    for (i, app) in apps.iter().enumerate() {
        let s = fair_share_starvation_33(now, ctx, app, &mut states[i]);
        if is_none(s) {
            break;
        }
        starved.push(i);
        fair_total = fair_total.saturating_add(s);
    }
    let min_starvation = sub_non_negative(leaf.min_share_starvation(now, ctx), fair_total);
    let mut pending = min_starvation;
    for (i, app) in apps.iter().enumerate() {
        if is_none(pending) {
            states[i].min_share_starvation = Resource::ZERO;
            continue;
        }
        let mut u = sub_non_negative(app.pending_demand(), states[i].fair_share_starvation);
        if ctx.calc.greater_than(ctx.cluster, u, pending) {
            u = sub_non_negative(u, pending);
            pending = Resource::ZERO;
        } else {
            pending = sub_non_negative(pending, u);
        }
        states[i].min_share_starvation = u;
        if !starved.contains(&i) {
            starved.push(i);
        }
    }
    starved
}

/// Hadoop 3.x's queue of starved apps (`FSStarvedApps`): a `java.util.PriorityQueue`
/// whose comparator puts `a` before `b` when a's starvation fits in b's (otherwise after),
/// reproduced with Java's sift-up/sift-down steps so the order, even where that comparator
/// is inconsistent, is Hadoop's for the same sequence of insertions. An app already queued
/// is not queued again.
#[derive(Debug, Clone, Default)]
pub struct StarvedApps {
    heap: Vec<u32>,
    queued: BTreeSet<u32>,
}

impl StarvedApps {
    /// An empty queue.
    pub fn new() -> StarvedApps {
        StarvedApps::default()
    }

    /// Number of queued apps.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when no app is queued.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    fn before(starvation: &dyn Fn(u32) -> Resource, a: u32, b: u32) -> bool {
        starvation(a).fits_in(starvation(b))
    }

    /// `addStarvedApp`: queues `app` unless it is already queued. `starvation` gives each
    /// app's current total starvation.
    pub fn add(&mut self, app: u32, starvation: &dyn Fn(u32) -> Resource) {
        if !self.queued.insert(app) {
            return;
        }
        let mut k = self.heap.len();
        self.heap.push(app);
        while k > 0 {
            let parent = (k - 1) / 2;
            let e = self.heap[parent];
            // Java: stop when compare(x, e) >= 0, i.e. when x does not come before e.
            if !Self::before(starvation, app, e) {
                break;
            }
            self.heap[k] = e;
            k = parent;
        }
        self.heap[k] = app;
    }

    /// `take`: removes and returns the head.
    pub fn take(&mut self, starvation: &dyn Fn(u32) -> Resource) -> Option<u32> {
        if self.heap.is_empty() {
            return None;
        }
        let head = self.heap[0];
        let last = self.heap.pop().expect("non-empty");
        let n = self.heap.len();
        if n > 0 {
            let mut k = 0;
            let half = n / 2;
            while k < half {
                let mut child = 2 * k + 1;
                let mut c = self.heap[child];
                let right = child + 1;
                // Java: take the right child when compare(c, right) > 0.
                if right < n && !Self::before(starvation, c, self.heap[right]) {
                    child = right;
                    c = self.heap[child];
                }
                // Java: stop when compare(x, c) <= 0, i.e. when x comes before c.
                if Self::before(starvation, last, c) {
                    break;
                }
                self.heap[k] = c;
                k = child;
            }
            self.heap[k] = last;
        }
        self.queued.remove(&head);
        Some(head)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mb(m: i64) -> Resource {
        Resource::new(m, 0)
    }

    fn leaf(usage: i64, demand: i64, min: i64, fair: i64) -> LeafLoad27 {
        LeafLoad27 {
            min_share: mb(min),
            min_share_timeout_ms: Some(10_000),
            fair_share_timeout_ms: Some(30_000),
            ..LeafLoad27::new(mb(usage), mb(demand), mb(fair))
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config {
            cases: 2_000,
            rng_seed: proptest::test_runner::RngSeed::Fixed(27),
            ..Default::default()
        })]

        /// A leaf using at least its demand's memory is starved in neither sense, whatever
        /// its shares, vcores and threshold (`Fs27::not_starved` moves both clocks without
        /// reading its load), and its clocks move as `update` moves them.
        #[test]
        fn a_leaf_using_its_demand_is_starved_in_neither_sense(
            demand in 0i64..200_000,
            extra in 0i64..50_000,
            vcores in (-5i64..100, -5i64..100),
            min in 0i64..400_000,
            fair in 0i64..400_000,
            threshold in 0.0f32..=1.0,
        ) {
            let load = LeafLoad27 {
                usage: Resource::new(demand + extra, vcores.0),
                demand: Resource::new(demand, vcores.1),
                min_share: Resource::new(min, vcores.1),
                fair_share: Resource::new(fair, vcores.0),
                threshold,
                min_share_timeout_ms: Some(1),
                fair_share_timeout_ms: Some(1),
            };
            proptest::prop_assert!(!load.starved_for_min_share());
            proptest::prop_assert!(!load.starved_for_fair_share());
            let mut clocks = LeafStarvation27::new(5);
            clocks.update(9, &load);
            proptest::prop_assert_eq!(clocks, LeafStarvation27 {
                last_time_at_min_share: 9,
                last_time_at_fair_share_threshold: 9,
            });
        }
    }

    #[test]
    fn min_share_starvation_is_capped_by_demand() {
        // min 4096, demand 2048, usage 2048: min(min, demand) = 2048, not starved.
        assert!(!leaf(2048, 2048, 4096, 8192).starved_for_min_share());
        assert!(leaf(2047, 2048, 4096, 8192).starved_for_min_share());
    }

    #[test]
    fn fair_share_threshold_truncates() {
        // fair 3001 × 0.5 = 1500.5 → 1500: usage 1500 is not starved, 1499 is.
        assert!(!leaf(1500, 9000, 0, 3001).starved_for_fair_share());
        assert!(leaf(1499, 9000, 0, 3001).starved_for_fair_share());
    }

    #[test]
    fn res_to_preempt_waits_strictly_longer_than_each_timeout() {
        let l = leaf(1000, 10_000, 3000, 6000);
        let mut clocks = LeafStarvation27::new(0);
        clocks.update(0, &leaf(5000, 10_000, 3000, 6000)); // not starved at 0
        clocks.update(500, &l); // starved from here on: clocks stay at 0
        assert_eq!(clocks.last_time_at_min_share, 0);
        assert_eq!(res_to_preempt_27(10_000, &clocks, &l), Resource::ZERO);
        // min share part only: min(3000, 10000) − 1000 = 2000.
        assert_eq!(res_to_preempt_27(10_001, &clocks, &l), mb(2000));
        // After 30 s the fair-share part aims at the full fair share: 6000 − 1000 = 5000.
        assert_eq!(res_to_preempt_27(30_000, &clocks, &l), mb(2000));
        assert_eq!(res_to_preempt_27(30_001, &clocks, &l), mb(5000));
    }

    #[test]
    fn min_share_and_fair_share_timeouts_act_separately() {
        // Starved for fair share only (min share 0): the min-share timeout never fires.
        let l = leaf(1000, 10_000, 0, 6000);
        let clocks = LeafStarvation27::new(0);
        assert_eq!(res_to_preempt_27(20_000, &clocks, &l), Resource::ZERO);
        assert_eq!(res_to_preempt_27(30_001, &clocks, &l), mb(5000));
        // Above threshold × fair share (3000) but below min share: only the min part.
        let l = leaf(3500, 10_000, 4000, 6000);
        let mut clocks = LeafStarvation27::new(0);
        clocks.update(0, &l);
        assert_eq!(clocks.last_time_at_fair_share_threshold, 0);
        clocks.update(40_000, &l);
        assert_eq!(clocks.last_time_at_fair_share_threshold, 40_000);
        assert_eq!(clocks.last_time_at_min_share, 0);
        assert_eq!(res_to_preempt_27(40_000, &clocks, &l), mb(500));
    }

    #[test]
    fn never_timeouts_never_preempt() {
        let l = LeafLoad27::new(mb(0), mb(10_000), mb(6000));
        let clocks = LeafStarvation27::new(0);
        assert_eq!(res_to_preempt_27(u64::MAX, &clocks, &l), Resource::ZERO);
    }

    fn ctx(min: i64, demand: i64, usage: i64) -> LeafCtx33 {
        LeafCtx33 {
            calc: Calculator::MemoryOnly,
            cluster: Resource::new(100_000, 100),
            threshold: 0.5,
            fair_share_timeout_ms: Some(5000),
            min_share_timeout_ms: Some(2000),
            min_share: mb(min),
            demand: mb(demand),
            usage: mb(usage),
        }
    }

    fn app(usage: i64, demand: i64, fair: i64) -> AppLoad33 {
        AppLoad33 {
            usage: mb(usage),
            demand: mb(demand),
            fair_share: mb(fair),
        }
    }

    #[test]
    fn app_fair_share_starvation_counts_from_the_timeout_inclusive() {
        let c = ctx(0, 10_000, 0);
        let a = app(1000, 8000, 6000); // threshold 3000, fair demand 3000
        let mut st = AppStarvation33::new(0);
        assert_eq!(
            fair_share_starvation_33(4999, &c, &a, &mut st),
            Resource::ZERO
        );
        assert_eq!(fair_share_starvation_33(5000, &c, &a, &mut st), mb(2000));
        // Demand below threshold caps it: demand 2500 → 2500 − 1000.
        let a = app(1000, 2500, 6000);
        assert_eq!(fair_share_starvation_33(6000, &c, &a, &mut st), mb(1500));
        // At the threshold: not starved, clock resets.
        let a = app(3000, 8000, 6000);
        assert_eq!(
            fair_share_starvation_33(7000, &c, &a, &mut st),
            Resource::ZERO
        );
        assert_eq!(st.last_time_at_fair_share, 7000);
    }

    #[test]
    fn walk_stops_at_the_first_app_without_fair_share_starvation() {
        let c = LeafCtx33 {
            min_share_timeout_ms: None,
            ..ctx(0, 30_000, 0)
        };
        let mut leaf_clock = LeafStarvation33::new(0);
        // Second app is not starved; the third would be but is never looked at.
        let apps = [
            app(0, 8000, 6000),
            app(5000, 8000, 6000),
            app(0, 8000, 6000),
        ];
        let mut st = [AppStarvation33::new(0); 3];
        let out = update_starved_apps_33(10_000, &c, &mut leaf_clock, &apps, &mut st);
        assert_eq!(out, vec![0]);
        assert_eq!(st[0].fair_share_starvation, mb(3000));
        assert_eq!(st[2].fair_share_starvation, Resource::ZERO);
        assert_eq!(
            st[2].last_time_at_fair_share, 0,
            "clock of an unvisited app untouched"
        );
    }

    #[test]
    fn min_share_is_handed_out_with_the_u_minus_p_quirk() {
        // Leaf: min 10000, demand 20000, usage 2000 → min-share starvation 8000.
        let c = LeafCtx33 {
            fair_share_timeout_ms: None,
            ..ctx(10_000, 20_000, 2000)
        };
        let mut leaf_clock = LeafStarvation33::new(0);
        // Pending demands: 3000, 9000, 4000.
        let apps = [app(1000, 4000, 0), app(1000, 10_000, 0), app(0, 4000, 0)];
        let mut st = [AppStarvation33::new(0); 3];
        st[2].min_share_starvation = mb(777); // stale value from an earlier update
        let out = update_starved_apps_33(1999, &c, &mut leaf_clock, &apps, &mut st);
        assert!(out.is_empty(), "younger than the timeout: nothing");
        let out = update_starved_apps_33(2000, &c, &mut leaf_clock, &apps, &mut st);
        assert_eq!(out, vec![0, 1]);
        // App 0 takes u = 3000 (p: 8000 → 5000); app 1: u = 9000 > p = 5000 → u − p = 4000.
        assert_eq!(st[0].min_share_starvation, mb(3000));
        assert_eq!(st[1].min_share_starvation, mb(4000));
        assert_eq!(
            st[2].min_share_starvation,
            Resource::ZERO,
            "reset after p ran out"
        );
    }

    #[test]
    fn fair_share_starvation_is_subtracted_from_the_queue_min_share_starvation() {
        let c = ctx(10_000, 20_000, 2000);
        let mut leaf_clock = LeafStarvation33::new(0);
        // App 0: fair 8000 → threshold 4000, usage 1000 → fair starvation 3000 (pending 7000).
        let apps = [app(1000, 8000, 8000), app(1000, 4000, 0)];
        let mut st = [AppStarvation33::new(0); 2];
        let out = update_starved_apps_33(5000, &c, &mut leaf_clock, &apps, &mut st);
        assert_eq!(out, vec![0, 1]);
        // min-share starvation 8000 − 3000 = 5000 left; app 0: u = 7000 − 3000 = 4000 ≤ 5000.
        assert_eq!(st[0].min_share_starvation, mb(4000));
        // App 1: u = 3000 > p = 1000 → 2000.
        assert_eq!(st[1].min_share_starvation, mb(2000));
        assert_eq!(st[0].starvation(), mb(7000));
    }

    #[test]
    fn starved_apps_take_smaller_starvation_first_and_never_twice() {
        let s = [mb(5000), mb(1000), mb(3000), mb(1000)];
        let f = |a: u32| s[a as usize];
        let mut q = StarvedApps::new();
        for a in [0, 1, 2, 1, 3] {
            q.add(a, &f);
        }
        assert_eq!(q.len(), 4);
        let order: Vec<u32> = std::iter::from_fn(|| q.take(&f)).collect();
        // Java's PriorityQueue with "fits in → before": equal starvations keep heap order.
        assert_eq!(order, vec![3, 1, 2, 0]);
        assert!(q.is_empty());
        q.add(1, &f);
        assert_eq!(q.take(&f), Some(1), "an app can be queued again once taken");
    }
}
