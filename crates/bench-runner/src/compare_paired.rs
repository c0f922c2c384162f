//! `fairsim compare --seeds N`: each scenario after the first against the first (the
//! baseline), queue by queue, over paired seeds. Seed `k` draws the same workload for every
//! scenario, so each seed gives one difference per queue and metric; the table gives both
//! means and the mean difference with its two-sided 95 % Student-t interval (none below two
//! seeds with a value on both sides). A queue is compared when both trees have a leaf of its
//! full name.

use crate::stats::describe;

/// The per-queue metrics compared, when a run reports them.
pub const REGRESSION_METRICS: &[&str] = &[
    "wait_s_p50",
    "wait_s_p95",
    "preempted_containers",
    "starved_min_s",
    "lost_container_s",
    "share_deviation",
    "am_limit_blocks",
];

/// One line of the regression table.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PairedRow {
    /// The scenario compared with the baseline (its label).
    pub scheduler: String,
    /// Full queue name.
    pub queue: String,
    /// Metric name.
    pub metric: String,
    /// Seeds with a value on both sides.
    pub seeds: usize,
    /// Mean over those seeds, baseline.
    pub baseline: f64,
    /// Mean over those seeds, the other scenario.
    pub other: f64,
    /// Mean of other − baseline.
    pub change: f64,
    /// Lower end of the change's 95 % interval (NaN below two seeds).
    pub change_low: f64,
    /// Upper end of the change's 95 % interval (NaN below two seeds).
    pub change_high: f64,
}

/// A run's summary metrics.
pub type Metrics = Vec<(String, f64)>;

fn value(m: &Metrics, name: &str) -> Option<f64> {
    m.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .filter(|v| v.is_finite())
}

/// The table for `other` (labelled `label`) against `baseline`, seed by seed (the two
/// slices are in the same seed order), for each of `queues` and [`REGRESSION_METRICS`].
pub fn paired(
    label: &str,
    baseline: &[Metrics],
    other: &[Metrics],
    queues: &[String],
) -> Vec<PairedRow> {
    let mut rows = Vec::new();
    for q in queues {
        for m in REGRESSION_METRICS {
            let name = format!("{m}.{q}");
            let pairs: Vec<(f64, f64)> = baseline
                .iter()
                .zip(other)
                .filter_map(|(b, o)| Some((value(b, &name)?, value(o, &name)?)))
                .collect();
            if pairs.is_empty() {
                continue;
            }
            let b: Vec<f64> = pairs.iter().map(|p| p.0).collect();
            let o: Vec<f64> = pairs.iter().map(|p| p.1).collect();
            let d: Vec<f64> = pairs.iter().map(|p| p.1 - p.0).collect();
            let diff = describe(&d);
            let (low, high) = diff.ci95.unwrap_or((f64::NAN, f64::NAN));
            rows.push(PairedRow {
                scheduler: label.to_string(),
                queue: q.clone(),
                metric: m.to_string(),
                seeds: pairs.len(),
                baseline: describe(&b).mean,
                other: describe(&o).mean,
                change: diff.mean,
                change_low: low,
                change_high: high,
            });
        }
    }
    rows
}

/// A number as the table shows it: three decimals, `-` for NaN.
pub fn shown(v: f64) -> String {
    if v.is_nan() {
        "-".into()
    } else {
        format!("{v:.3}")
    }
}

/// The table as text for the terminal, one line per row under a header.
pub fn text(baseline: &str, rows: &[PairedRow]) -> String {
    let header = [
        "queue", "metric", "seeds", baseline, "other", "change", "95% low", "95% high",
    ];
    let mut lines: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for r in rows {
        lines.push(vec![
            r.queue.clone(),
            r.metric.clone(),
            r.seeds.to_string(),
            shown(r.baseline),
            format!("{} ({})", shown(r.other), r.scheduler),
            shown(r.change),
            shown(r.change_low),
            shown(r.change_high),
        ]);
    }
    crate::text_table::aligned(&lines, header.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(p95_a: f64, pre_a: f64) -> Metrics {
        vec![
            ("wait_s_p95.root.a".into(), p95_a),
            ("preempted_containers.root.a".into(), pre_a),
            ("wait_s_p50.root.a".into(), f64::NAN),
        ]
    }

    #[test]
    fn differences_are_paired_by_seed() {
        // Baseline p95 10, 20, 30; other 12, 21, 36: differences 2, 1, 6, mean 3, sd
        // sqrt(((−1)² + (−2)² + 3²) / 2) = sqrt(7); t(0.975, 2) = 4.302653: half width
        // 4.302653 × sqrt(7) / sqrt(3) = 6.5723.
        let base = vec![run(10.0, 0.0), run(20.0, 1.0), run(30.0, 2.0)];
        let other = vec![run(12.0, 0.0), run(21.0, 1.0), run(36.0, 2.0)];
        let rows = paired("capacity", &base, &other, &["root.a".to_string()]);
        // p50 is NaN on every seed: no row.
        assert_eq!(rows.len(), 2);
        let p95 = &rows[0];
        assert_eq!((p95.metric.as_str(), p95.seeds), ("wait_s_p95", 3));
        assert_eq!((p95.baseline, p95.other, p95.change), (20.0, 23.0, 3.0));
        assert!((p95.change_low - (3.0 - 6.5723)).abs() < 1e-3, "{p95:?}");
        assert!((p95.change_high - (3.0 + 6.5723)).abs() < 1e-3, "{p95:?}");
        // Equal on every seed: a zero-width interval at 0.
        let pre = &rows[1];
        assert_eq!(
            (pre.change, pre.change_low, pre.change_high),
            (0.0, 0.0, 0.0)
        );
        let t = text("fair", &rows);
        assert!(t.starts_with("queue"), "{t}");
        assert!(t.contains("23.000 (capacity)"), "{t}");
    }
}
