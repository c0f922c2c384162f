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
//!   `deviation_max`: its maximum.
//! - `starved_min_s.<queue>`: time with `usage < min(minShare, demand)`;
//!   `starved_fair_s.<queue>`: time with `usage < threshold × fair share`
//!   (fairSharePreemptionThreshold).
//! - `util_memory`, `util_vcores`: allocated resource-time / (capacity × makespan window).
//! - `wait_s_pN`, `jct_s_pN`, `slowdown_pN` (N = 50, 95, 99): percentiles (nearest rank) over
//!   finished apps, overall, and per queue as `wait_s_p50.<queue>`; slowdown is bounded
//!   (`max(1, jct / max(alone, 10 s))`).

use crate::app::AppRecord;
use crate::time::SimTime;
use std::collections::BTreeMap;

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
}

/// Cluster-wide integrals.
#[derive(Debug, Clone, Default)]
pub struct Integrals {
    /// Time of the last advance.
    pub last: u64,
    /// Allocated memory now.
    pub used_mb: i64,
    /// Allocated vcores now.
    pub used_vcores: i64,
    /// ∫ used memory dt (MB·ms).
    pub mem_ms: f64,
    /// ∫ used vcores dt.
    pub vcore_ms: f64,
    /// Σ x over active leaves.
    pub sum_x: f64,
    /// Σ x² over active leaves.
    pub sum_x2: f64,
    /// Active leaves.
    pub n_active: u32,
    /// ∫ Jain dt over time with n_active > 0.
    pub jain_ms: f64,
    /// Time with n_active > 0.
    pub active_ms: u64,
    /// Σ |usage − ideal| now (MB).
    pub dev_sum: f64,
    /// ∫ dev_sum dt.
    pub dev_ms: f64,
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

    /// Integrates the current state up to `t`.
    pub fn advance(&mut self, t: u64) {
        if t <= self.last {
            return;
        }
        let dt = (t - self.last) as f64;
        self.mem_ms += self.used_mb as f64 * dt;
        self.vcore_ms += self.used_vcores as f64 * dt;
        if self.n_active > 0 {
            self.jain_ms += self.jain_now() * dt;
            self.active_ms += t - self.last;
        }
        self.dev_ms += self.dev_sum * dt;
        self.last = t;
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
    for p in [50.0, 95.0, 99.0] {
        let name = match queue {
            Some(q) => format!("{metric}_p{}.{q}", p as u32),
            None => format!("{metric}_p{}", p as u32),
        };
        out.push((name, percentile(&v, p)));
    }
}

/// Wait, JCT and slowdown percentiles, overall and per queue (queues in name order).
pub fn app_metrics(out: &mut Vec<(String, f64)>, apps: &[AppRecord]) {
    let finished: Vec<&AppRecord> = apps.iter().filter(|a| a.finish.is_some()).collect();
    let collect = |sel: &dyn Fn(&AppRecord) -> bool| {
        let f: Vec<&&AppRecord> = finished.iter().filter(|a| sel(a)).collect();
        (
            f.iter()
                .filter_map(|a| a.wait_ms())
                .map(|x| x as f64 / 1000.0)
                .collect::<Vec<_>>(),
            f.iter()
                .filter_map(|a| a.jct_ms())
                .map(|x| x as f64 / 1000.0)
                .collect::<Vec<_>>(),
            f.iter().filter_map(|a| a.slowdown()).collect::<Vec<_>>(),
        )
    };
    let (w, j, s) = collect(&|_| true);
    push_percentiles(out, "wait_s", None, w);
    push_percentiles(out, "jct_s", None, j);
    push_percentiles(out, "slowdown", None, s);
    let mut queues: BTreeMap<&str, ()> = BTreeMap::new();
    for a in &finished {
        queues.insert(&a.queue, ());
    }
    for q in queues.keys() {
        let (w, j, s) = collect(&|a: &AppRecord| a.queue == *q);
        push_percentiles(out, "wait_s", Some(q), w);
        push_percentiles(out, "jct_s", Some(q), j);
        push_percentiles(out, "slowdown", Some(q), s);
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
        };
        let mut m = Vec::new();
        app_metrics(&mut m, &[rec]);
        let names: Vec<&str> = m.iter().map(|(k, _)| k.as_str()).collect();
        assert!(names.contains(&"wait_s_p50"));
        assert!(names.contains(&"wait_s_p50.root.q"));
        assert!(names.contains(&"jct_s_p99.root.q"));
        assert!(names.contains(&"slowdown_p95.root.q"));
        assert!(!names.iter().any(|n| n.starts_with("wait_s.")));
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
        assert_eq!(i.mem_ms, 100.0 * 10.0 + 50.0 * 20.0);
    }
}
