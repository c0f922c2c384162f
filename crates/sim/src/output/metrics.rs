//! Run metrics, computed as exact time integrals between events (never from samples).
//!
//! Between two events every quantity is constant, so each integral adds `value × dt` when
//! the clock moves. Per-leaf quantities are integrated lazily (flushed when the leaf
//! changes); cluster-wide sums (Jain's index terms, deviation) are kept up to date
//! incrementally and integrated at every event.
//!
//! Definitions (memory unless stated):
//! - `jain_index`: time average, over the time when at least one leaf is active (ideal share
//!   > 0), of Jain's index of `usage / ideal share` over active leaves.
//! - `deviation_mean`: time average of `Σ |usage − ideal share| / cluster memory` over leaves;
//!   `deviation_max`: its maximum. `share_deviation.<queue>`: one leaf's term of
//!   `deviation_mean` (the leaves' sum to it).
//! - `am_limit_blocks.<queue>`: apps whose AM the leaf's AM limit would not take when they
//!   became runnable (maxAMShare; the Capacity Scheduler's queue and user AM limits, which
//!   keep the app from being activated).
//! - `starved_min_s.<queue>`: time with `usage < min(minShare, demand)`;
//!   `starved_fair_s.<queue>`: time with `usage < threshold × fair share`
//!   (fairSharePreemptionThreshold).
//! - `util_memory`, `util_vcores`: allocated resource-time / (capacity × makespan window).
//! - `wait_s_pN`, `jct_s_pN`, `slowdown_pN` (N = 50, 95, 99): censored percentiles (nearest
//!   rank) over every accepted app, overall, and per queue as `wait_s_p50.<queue>`; slowdown is
//!   bounded (`max(1, jct / max(alone, 10 s))`). The method and every metric's unit and range
//!   are in [`crate::catalogue`].

use crate::app::AppRecord;
use crate::time::SimTime;

/// The result of one run: metrics as an ordered list of `(name, value)` plus counters.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunSummary {
    /// Metrics in a fixed order (the order of `summary.csv`).
    pub metrics: Vec<(String, f64)>,
    /// Events processed.
    pub events: u64,
    /// Containers allocated.
    pub assignments: u64,
    /// Simulated time at the end.
    pub end: SimTime,
    /// When the run stalled: apps unfinished and no future event able to change anything
    /// (see `engine`'s module docs). `None` when every app finished or was rejected.
    pub stalled_at: Option<SimTime>,
    /// When the run stopped because its state at `stalled_at` repeats the state at this
    /// earlier time with no app finishing between them (a preemption or reservation cycle;
    /// see `cycle`): the run would loop forever.
    pub cycle_from: Option<SimTime>,
    /// When stalled: what the unfinished apps wait for, by queue and cause, in words
    /// (`scheduler::explain::stall`).
    pub stall_diagnosis: Vec<crate::explain::StallGroup>,
    /// Apps of the workload submitted after the run ended (`end_ms`): not in the run, so in
    /// no count, percentile or `apps.csv` row.
    pub apps_not_arrived: u64,
}

impl RunSummary {
    /// The value of metric `name`.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.metrics.iter().find(|(k, _)| k == name).map(|p| p.1)
    }

    /// As a JSON object (`metrics` in order, then counters). Deterministic.
    pub fn to_json(&self) -> String {
        let mut m = serde_json::Map::new();
        for (k, v) in &self.metrics {
            let val = serde_json::Number::from_f64(*v)
                .map(serde_json::Value::Number)
                .unwrap_or(serde_json::Value::Null);
            m.insert(k.clone(), val);
        }
        let mut top = serde_json::Map::new();
        top.insert("events".into(), self.events.into());
        top.insert("assignments".into(), self.assignments.into());
        top.insert("end_ms".into(), self.end.0.into());
        if let Some(t) = self.stalled_at {
            top.insert("stalled_at_ms".into(), t.0.into());
        }
        if let Some(t) = self.cycle_from {
            top.insert("cycle_from_ms".into(), t.0.into());
        }
        if !self.stall_diagnosis.is_empty() {
            let groups: Vec<serde_json::Value> = self
                .stall_diagnosis
                .iter()
                .map(|g| {
                    serde_json::json!({
                        "queue": g.queue,
                        "cause": g.cause.name(),
                        "apps": g.apps,
                        "waiting_for_am": g.waiting_for_am,
                        "words": g.words,
                    })
                })
                .collect();
            top.insert("stall_diagnosis".into(), groups.into());
        }
        if self.apps_not_arrived > 0 {
            top.insert("apps_not_arrived".into(), self.apps_not_arrived.into());
        }
        top.insert("metrics".into(), serde_json::Value::Object(m));
        let mut s = serde_json::to_string_pretty(&serde_json::Value::Object(top))
            .unwrap_or_else(|_| "{}".into());
        s.push('\n');
        s
    }
}

/// Per-leaf lazy accumulators.
#[derive(Debug, Clone, Default)]
pub struct LeafAcc {
    /// Time of the last flush.
    pub last: u64,
    /// Below min(minShare, demand) since `last`.
    pub starved_min: bool,
    /// Below threshold × fair share since `last`.
    pub starved_fair: bool,
    /// Total ms starved (min share).
    pub starved_min_ms: u64,
    /// Total ms starved (fair share).
    pub starved_fair_ms: u64,
    /// Episodes of min-share starvation.
    pub starved_min_episodes: u64,
    /// Start of the current min-share starvation episode.
    pub starved_min_since: u64,
    /// Lengths of the finished episodes: time to reach min(min share, demand) after
    /// falling below it (Capacity Scheduler: the guaranteed capacity), ms.
    pub min_share_reached_ms: Vec<u64>,
    /// Contribution to the global sums: active, x, |usage − ideal|.
    pub active: bool,
    /// usage / ideal.
    pub x: f64,
    /// |usage − ideal| in MB.
    pub dev: f64,
    /// ∫ |usage − ideal| dt up to `last` (MB·ms): the leaf's part of `deviation_mean`.
    pub dev_ms: i128,
    /// Apps whose AM the leaf's AM limit would not take when they became runnable.
    pub am_limit_blocks: u64,
}

/// The leaves Jain's index counts, ascending, with each leaf's term `x = usage / ideal`
/// (a copy of `LeafAcc::x`): the index's sums are rebuilt over them at every update, in
/// queue order, so the same set and terms give the same bits whatever came before. The
/// terms sit in one dense array by queue, which the rebuild reads in order instead of each
/// leaf's whole state.
#[derive(Debug, Clone, Default)]
pub struct Metered {
    /// Counted leaves, ascending.
    ids: Vec<u32>,
    /// Per queue: its term (read for counted leaves only).
    x: Vec<f64>,
}

impl Metered {
    /// Counts leaf `leaf` (not counted yet).
    #[inline]
    pub fn insert(&mut self, leaf: u32) {
        if let Err(at) = self.ids.binary_search(&leaf) {
            self.ids.insert(at, leaf);
        }
    }

    /// Stops counting leaf `leaf`.
    #[inline]
    pub fn remove(&mut self, leaf: u32) {
        if let Ok(at) = self.ids.binary_search(&leaf) {
            self.ids.remove(at);
        }
    }

    /// Leaf `leaf`'s term from now on.
    #[inline]
    pub fn set_x(&mut self, leaf: u32, x: f64) {
        let i = leaf as usize;
        if self.x.len() <= i {
            self.x.resize(i + 1, 0.0);
        }
        self.x[i] = x;
    }

    /// The counted leaves' terms, in queue order.
    pub fn terms(&self) -> impl Iterator<Item = f64> + '_ {
        self.ids.iter().map(|&i| self.x[i as usize])
    }
}

/// Cluster-wide integrals.
///
/// Integer quantities are integrated exactly in integers; Jain's index, a float, is
/// integrated per stretch of constant value (one product per stretch). So the integrals do
/// not depend on how many events (e.g. heartbeats that changed nothing) fall inside a
/// stretch: an elided and an unelided run give the same bits. For the same reason they are
/// advanced only where what they integrate is about to change (usage, the cluster's
/// capacity, a leaf's metric terms, the sums rebuilt) and before they are read at the
/// end, not at every event: most events (a reservation's beat, a beat that found nothing)
/// change none of it.
#[derive(Debug, Clone, Default)]
pub struct Integrals {
    /// Time of the last advance.
    pub last: u64,
    /// Allocated memory now.
    pub used_mb: i64,
    /// Allocated vcores now.
    pub used_vcores: i64,
    /// ∫ used memory dt (MB·ms).
    pub mem_ms: i128,
    /// ∫ used vcores dt.
    pub vcore_ms: i128,
    /// The cluster's capacity now (it changes with node events).
    pub capacity: fairsim_core::Resource,
    /// ∫ capacity memory dt (MB·ms).
    pub capacity_mem_ms: i128,
    /// ∫ capacity vcores dt.
    pub capacity_vcore_ms: i128,
    /// The largest memory capacity the cluster had.
    pub capacity_max_mb: i64,
    /// Σ x over active leaves.
    pub sum_x: f64,
    /// Σ x² over active leaves.
    pub sum_x2: f64,
    /// Active leaves.
    pub n_active: u32,
    /// ∫ Jain dt over time with n_active > 0, up to the open stretch.
    pub jain_ms: f64,
    /// The open stretch of constant Jain index: its value and length (ms).
    jain_stretch: Option<(f64, u64)>,
    /// Time with n_active > 0.
    pub active_ms: u64,
    /// Σ |usage − ideal| now (MB; integer-valued).
    pub dev_sum: f64,
    /// ∫ dev_sum dt.
    pub dev_ms: i128,
    /// max of dev_sum.
    pub dev_max: f64,
}

impl Integrals {
    /// Jain's index of the current active leaves (1 when all usages are 0).
    pub fn jain_now(&self) -> f64 {
        if self.n_active == 0 || self.sum_x2 <= 0.0 {
            1.0
        } else {
            (self.sum_x * self.sum_x / (self.n_active as f64 * self.sum_x2)).min(1.0)
        }
    }

    /// The cluster's capacity from now on.
    pub fn set_capacity(&mut self, capacity: fairsim_core::Resource) {
        self.capacity = capacity;
        self.capacity_max_mb = self.capacity_max_mb.max(capacity.memory_mb);
    }

    /// Integrates the current state up to `t`.
    pub fn advance(&mut self, t: u64) {
        if t <= self.last {
            return;
        }
        let dt = t - self.last;
        self.mem_ms += self.used_mb as i128 * dt as i128;
        self.vcore_ms += self.used_vcores as i128 * dt as i128;
        self.capacity_mem_ms += self.capacity.memory_mb as i128 * dt as i128;
        self.capacity_vcore_ms += self.capacity.vcores as i128 * dt as i128;
        if self.n_active > 0 {
            let j = self.jain_now();
            match &mut self.jain_stretch {
                Some((v, len)) if v.to_bits() == j.to_bits() => *len += dt,
                open => {
                    if let Some((v, len)) = open.take() {
                        self.jain_ms += v * len as f64;
                    }
                    *open = Some((j, dt));
                }
            }
            self.active_ms += dt;
        }
        // `dev_sum` is whole megabytes (exact in a double): through i64, the conversion is one
        // instruction rather than a call, with the same value.
        self.dev_ms += i128::from(self.dev_sum as i64) * i128::from(dt);
        self.last = t;
    }

    /// ∫ Jain dt including the open stretch.
    pub fn jain_total_ms(&self) -> f64 {
        match self.jain_stretch {
            Some((v, len)) => self.jain_ms + v * len as f64,
            None => self.jain_ms,
        }
    }
}

/// Nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// `<metric>_p50`, `_p95`, `_p99`, followed by `.<queue>` for a queue's own percentiles (the
/// same form as `starved_min_s.<queue>`: metric first, then the queue).
pub(crate) fn push_percentiles(
    out: &mut Vec<(String, f64)>,
    metric: &str,
    queue: Option<&str>,
    mut v: Vec<f64>,
) {
    v.sort_by(f64::total_cmp);
    for (p, suffix) in [(50.0, "_p50"), (95.0, "_p95"), (99.0, "_p99")] {
        let name = match queue {
            Some(q) => [metric, suffix, ".", q].concat(),
            None => [metric, suffix].concat(),
        };
        out.push((name, percentile(&v, p)));
    }
}

/// What the summary needs of one app: a few numbers, no names (an [`AppRecord`] without its
/// strings, its queue as a position among the leaves the summary reports).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppOutcome {
    /// Position of the app's queue (the record's `queue`) in the leaves passed to
    /// [`app_metrics`]; `None` when it is none of them.
    pub leaf: Option<u32>,
    /// Submission.
    pub arrival: SimTime,
    /// First container.
    pub first_container: Option<SimTime>,
    /// Last container released.
    pub finish: Option<SimTime>,
    /// Run time alone on an empty cluster, in ms.
    pub alone_ms: u64,
    /// Rejected at submission.
    pub rejected: bool,
    /// The trace's recorded run time, when it has one.
    pub recorded_runtime_ms: Option<u64>,
}

impl AppOutcome {
    /// The outcome of `a`, its queue looked up among `leaves` by name.
    pub fn of(a: &AppRecord, leaves: &[&str]) -> AppOutcome {
        AppOutcome {
            leaf: leaves.iter().position(|q| *q == a.queue).map(|i| i as u32),
            arrival: a.arrival,
            first_container: a.first_container,
            finish: a.finish,
            alone_ms: a.alone_ms,
            rejected: a.rejected.is_some(),
            recorded_runtime_ms: a.recorded.map(|r| r.runtime_ms()),
        }
    }

    /// Accepted but never started by the end (an app that finished without a container
    /// started as it finished).
    pub fn never_started(&self) -> bool {
        !self.rejected && self.wait_ms().is_none()
    }

    /// As [`AppRecord::wait_ms`]: an app that finished without a container waited for
    /// nothing.
    fn wait_ms(&self) -> Option<u64> {
        self.first_container
            .or(self.finish)
            .map(|f| f.since(self.arrival))
    }

    fn jct_ms(&self) -> Option<u64> {
        self.finish.map(|f| f.since(self.arrival))
    }

    /// As [`AppRecord::runtime_ratio`].
    fn runtime_ratio(&self) -> Option<f64> {
        let recorded = self.recorded_runtime_ms?;
        let jct = self.jct_ms()?;
        (recorded > 0).then(|| jct as f64 / recorded as f64)
    }
}

/// One app's wait, completion time and slowdown as the percentiles see them: exact when the
/// event happened, otherwise censored at the run's end (`true` marks a censored value).
#[derive(Debug, Clone, Copy)]
struct Observed {
    wait: (f64, bool),
    jct: (f64, bool),
    slowdown: (f64, bool),
}

fn observe(a: &AppOutcome, end: SimTime) -> Observed {
    let secs = |ms: u64| ms as f64 / 1000.0;
    let so_far = end.since(a.arrival);
    let wait = match a.wait_ms() {
        Some(w) => (secs(w), false),
        None => (secs(so_far), true),
    };
    let (jct_ms, censored) = match a.jct_ms() {
        Some(j) => (j, false),
        None => (so_far, true),
    };
    let slowdown = (jct_ms as f64 / a.alone_ms.max(10_000) as f64).max(1.0);
    Observed {
        wait,
        jct: (secs(jct_ms), censored),
        slowdown: (slowdown, censored),
    }
}

/// Nearest-rank percentile of `(value, censored)` pairs (see the catalogue's "Percentiles"):
/// the value at rank `ceil(p/100 · n)` after sorting by value, exact values before censored
/// ones at equal values, and whether that value is censored. `(NaN, false)` when empty.
pub fn censored_percentile(sorted: &[(f64, bool)], p: f64) -> (f64, bool) {
    if sorted.is_empty() {
        return (f64::NAN, false);
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// A metric's name in a queue's scope, `metric.queue`. (Built with `format!`, the 25 names of
/// each of 10,000 leaves took 0.27G more instructions.)
pub fn metric_name(metric: &str, queue: &str) -> String {
    [metric, ".", queue].concat()
}

fn push_censored(
    out: &mut Vec<(String, f64)>,
    flags: &mut Vec<(String, f64)>,
    metric: &str,
    queue: Option<&str>,
    mut v: Vec<(f64, bool)>,
) {
    v.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for p in [50u32, 95, 99] {
        let (value, censored) = censored_percentile(&v, f64::from(p));
        let p = match p {
            50 => "_p50",
            95 => "_p95",
            _ => "_p99",
        };
        let (name, flag) = match queue {
            Some(q) => (
                [metric, p, ".", q].concat(),
                [metric, p, "_censored.", q].concat(),
            ),
            None => ([metric, p].concat(), [metric, p, "_censored"].concat()),
        };
        out.push((name, value));
        flags.push((flag, if censored { 1.0 } else { 0.0 }));
    }
}

/// App counts (per queue) and censored wait, JCT and slowdown percentiles, overall and per
/// leaf queue (`leaves` in name order, the positions of [`AppOutcome::leaf`]), each followed by
/// its `_censored` flags. `end` is when the run ended. Apps submitted after it are not in the
/// run: no count or percentile includes them. Rejected apps are left out of the percentiles;
/// every accepted app counts in them, finished or not. The apps' order does not matter.
pub fn app_metrics(
    out: &mut Vec<(String, f64)>,
    apps: &[AppOutcome],
    end: SimTime,
    leaves: &[&str],
) {
    // One pass sorts the apps by leaf, so each queue's scope costs its own apps only.
    let mut by_leaf: Vec<Vec<u32>> = vec![Vec::new(); leaves.len()];
    for (i, a) in apps.iter().enumerate() {
        if let Some(l) = a.leaf {
            by_leaf[l as usize].push(i as u32);
        }
    }
    let scope = |out: &mut Vec<(String, f64)>,
                 queue: Option<&str>,
                 mine: &mut dyn Iterator<Item = &AppOutcome>| {
        let name = |m: &str| match queue {
            Some(q) => metric_name(m, q),
            None => m.to_string(),
        };
        let (mut n, mut finished, mut rejected, mut unfinished, mut never_started) =
            (0u64, 0u64, 0u64, 0u64, 0u64);
        let (mut wait, mut jct, mut slowdown) = (Vec::new(), Vec::new(), Vec::new());
        // An app submitted after the end is not in the run (the engine passes none).
        for a in mine.filter(|a| a.arrival <= end) {
            n += 1;
            finished += u64::from(a.finish.is_some());
            rejected += u64::from(a.rejected);
            unfinished += u64::from(!a.rejected && a.finish.is_none());
            never_started += u64::from(a.never_started());
            if !a.rejected {
                let o = observe(a, end);
                wait.push(o.wait);
                jct.push(o.jct);
                slowdown.push(o.slowdown);
            }
        }
        if queue.is_some() {
            out.push((name("apps"), n as f64));
            out.push((name("apps_finished"), finished as f64));
            out.push((name("apps_rejected"), rejected as f64));
            out.push((name("apps_unfinished"), unfinished as f64));
            out.push((name("apps_never_started"), never_started as f64));
        }
        let mut flags = Vec::new();
        push_censored(out, &mut flags, "wait_s", queue, wait);
        push_censored(out, &mut flags, "jct_s", queue, jct);
        push_censored(out, &mut flags, "slowdown", queue, slowdown);
        out.append(&mut flags);
    };
    scope(out, None, &mut apps.iter());
    for (q, mine) in leaves.iter().zip(&by_leaf) {
        scope(out, Some(q), &mut mine.iter().map(|&i| &apps[i as usize]));
    }
}

/// `runtime_ratio_p50` and `runtime_ratio_p95`: percentiles (nearest rank) of simulated over
/// recorded job run time over the finished apps whose trace recorded their times (Rumen, SLS
/// `job.end.ms`); NaN when there is none.
pub fn runtime_ratio_metrics(out: &mut Vec<(String, f64)>, apps: &[AppOutcome]) {
    let mut ratios: Vec<f64> = apps.iter().filter_map(AppOutcome::runtime_ratio).collect();
    ratios.sort_by(f64::total_cmp);
    for p in [50u32, 95] {
        out.push((
            format!("runtime_ratio_p{p}"),
            percentile(&ratios, f64::from(p)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentile(&v, 50.0), 5.0);
        assert_eq!(percentile(&v, 95.0), 10.0);
        assert!(percentile(&[], 50.0).is_nan());
    }

    #[test]
    fn per_queue_percentiles_are_named_metric_then_queue() {
        let rec = AppRecord {
            index: 0,
            name: "a".into(),
            queue: "root.q".into(),
            user: "u".into(),
            arrival: SimTime(0),
            first_container: Some(SimTime(1_000)),
            finish: Some(SimTime(20_000)),
            containers: 1,
            alone_ms: 10_000,
            rejected: None,
            preempted_containers: 0,
            lost_work_ms: 0,
            recorded: None,
        };
        let mut m = Vec::new();
        let leaves = ["root.q"];
        app_metrics(
            &mut m,
            &[AppOutcome::of(&rec, &leaves)],
            SimTime(30_000),
            &leaves,
        );
        let names: Vec<&str> = m.iter().map(|(k, _)| k.as_str()).collect();
        assert!(names.contains(&"wait_s_p50"));
        assert!(names.contains(&"wait_s_p50.root.q"));
        assert!(names.contains(&"jct_s_p99.root.q"));
        assert!(names.contains(&"slowdown_p95.root.q"));
        assert!(!names.iter().any(|n| n.starts_with("wait_s.")));
    }

    #[test]
    fn runtime_ratio_is_simulated_over_recorded_for_finished_apps_with_times() {
        let rec = |finish: Option<u64>, recorded: Option<(u64, u64)>| AppRecord {
            index: 0,
            name: "a".into(),
            queue: "root.q".into(),
            user: "u".into(),
            arrival: SimTime(1_000),
            first_container: Some(SimTime(2_000)),
            finish: finish.map(SimTime),
            containers: 1,
            alone_ms: 10_000,
            rejected: None,
            preempted_containers: 0,
            lost_work_ms: 0,
            recorded: recorded.map(|(s, f)| crate::app::Recorded {
                start_ms: s,
                finish_ms: f,
            }),
        };
        // jct 9 s against 10 s recorded, 30 s against 10 s; unfinished, unrecorded and a
        // zero recorded run time are left out.
        let apps = [
            rec(Some(10_000), Some((1_000, 11_000))),
            rec(Some(31_000), Some((1_000, 11_000))),
            rec(None, Some((1_000, 11_000))),
            rec(Some(5_000), None),
            rec(Some(5_000), Some((1_000, 1_000))),
        ];
        let mut m = Vec::new();
        let apps: Vec<AppOutcome> = apps.iter().map(|a| AppOutcome::of(a, &[])).collect();
        runtime_ratio_metrics(&mut m, &apps);
        assert_eq!(
            m,
            vec![
                ("runtime_ratio_p50".to_string(), 0.9),
                ("runtime_ratio_p95".to_string(), 3.0)
            ]
        );
        let mut m = Vec::new();
        runtime_ratio_metrics(&mut m, &apps[3..]);
        assert!(m.iter().all(|(_, v)| v.is_nan()));
    }

    #[test]
    fn an_app_that_never_started_counts_with_its_time_so_far() {
        let rec = |i: u32, arrival: u64, first: Option<u64>, finish: Option<u64>| AppRecord {
            index: i,
            name: format!("a{i}"),
            queue: "root.q".into(),
            user: "u".into(),
            arrival: SimTime(arrival),
            first_container: first.map(SimTime),
            finish: finish.map(SimTime),
            containers: 1,
            alone_ms: 10_000,
            rejected: None,
            preempted_containers: 0,
            lost_work_ms: 0,
            recorded: None,
        };
        // Two apps waited 1 s and 2 s; the third never started by 100 s (arrived at 10 s).
        let apps = [
            rec(0, 0, Some(1_000), Some(20_000)),
            rec(1, 0, Some(2_000), Some(30_000)),
            rec(2, 10_000, None, None),
        ];
        let mut m = Vec::new();
        let leaves = ["root.q"];
        let apps: Vec<AppOutcome> = apps.iter().map(|a| AppOutcome::of(a, &leaves)).collect();
        app_metrics(&mut m, &apps, SimTime(100_000), &leaves);
        let get = |k: &str| m.iter().find(|(n, _)| n == k).unwrap().1;
        assert_eq!(get("wait_s_p50"), 2.0);
        assert_eq!(get("wait_s_p50_censored"), 0.0);
        assert_eq!(get("wait_s_p95"), 90.0, "censored at the end: 100 s - 10 s");
        assert_eq!(get("wait_s_p95_censored"), 1.0);
        assert_eq!(get("jct_s_p95.root.q"), 90.0);
        assert_eq!(get("slowdown_p95.root.q"), 9.0);
        assert_eq!(get("apps_never_started.root.q"), 1.0);
        assert_eq!(get("apps_unfinished.root.q"), 1.0);
        assert_eq!(get("apps_finished.root.q"), 2.0);
    }

    /// The counted leaves' terms come in queue order whatever the order they were counted
    /// in, and a leaf no longer counted adds nothing.
    #[test]
    fn metered_terms_are_in_queue_order() {
        let mut m = Metered::default();
        for (leaf, x) in [(9u32, 0.9), (2, 0.2), (5, 0.5), (7, 0.7)] {
            m.insert(leaf);
            m.set_x(leaf, x);
        }
        m.remove(7);
        m.set_x(7, 7.0);
        m.insert(2);
        assert_eq!(m.terms().collect::<Vec<_>>(), vec![0.2, 0.5, 0.9]);
    }

    #[test]
    fn integrals_are_exact_between_events() {
        let mut i = Integrals {
            used_mb: 100,
            ..Integrals::default()
        };
        i.advance(10);
        i.used_mb = 50;
        i.advance(30);
        assert_eq!(i.mem_ms, 100 * 10 + 50 * 20);
    }

    /// A stretch of constant state integrates to the same bits however many events split it
    /// (an elided run processes fewer heartbeats than an unelided one).
    #[test]
    fn integrals_do_not_depend_on_events_inside_a_stretch() {
        let state = |i: &mut Integrals, k: u32| {
            i.used_mb = 1000 + k as i64;
            i.n_active = 3;
            i.sum_x = 0.1 * k as f64 + 0.7;
            i.sum_x2 = 0.37 + 0.01 * k as f64;
            i.dev_sum = 12.0 * k as f64;
        };
        let (mut whole, mut split) = (Integrals::default(), Integrals::default());
        for k in 0..50u32 {
            let (from, to) = (k as u64 * 997, (k as u64 + 1) * 997);
            state(&mut whole, k);
            whole.advance(to);
            state(&mut split, k);
            for t in (from + 1..to).step_by(7) {
                split.advance(t);
            }
            split.advance(to);
        }
        assert_eq!(whole.mem_ms, split.mem_ms);
        assert_eq!(whole.dev_ms, split.dev_ms);
        assert_eq!(whole.active_ms, split.active_ms);
        assert_eq!(
            whole.jain_total_ms().to_bits(),
            split.jain_total_ms().to_bits()
        );
        assert!(whole.jain_total_ms() > 0.0);
    }
}
