//! One workload under two schedulers: the comparison table (`comparison.csv`: scheduler,
//! queue, metric, value) and its charts, one grouped bar chart per metric with a bar per
//! scheduler for every queue, PNG and SVG, the schedulers in the legend.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::plot::{
    Chart, DrawError, PlotError, de, draw_legend, label_font, metric_label, padded, save,
    series_color, title_font,
};
use crate::results::write_atomic;

/// One cell of the comparison: a metric of one queue (or `all`) under one scheduler.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ComparisonRow {
    /// Scheduler label, e.g. `fair` or `capacity`.
    pub scheduler: String,
    /// Full queue name, or `all` for whole-run metrics.
    pub queue: String,
    /// Metric name (as in `summary.csv`).
    pub metric: String,
    /// Its value.
    pub value: f64,
}

/// Writes `rows` as `comparison.csv` at `path` (atomically).
pub fn write_rows(path: &Path, rows: &[ComparisonRow]) -> Result<(), PlotError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)
            .map_err(|e| PlotError::Input(format!("{}: {e}", path.display())))?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| PlotError::Input(format!("{}: {e}", path.display())))?;
    write_atomic(path, &bytes).map_err(|source| PlotError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a `comparison.csv`.
pub fn read_rows(path: &Path) -> Result<Vec<ComparisonRow>, PlotError> {
    let mut r = csv::Reader::from_path(path)
        .map_err(|e| PlotError::Input(format!("{}: {e}", path.display())))?;
    r.deserialize()
        .map(|row| row.map_err(|e| PlotError::Input(format!("{}: {e}", path.display()))))
        .collect()
}

/// A grouped bar chart: for each category one bar per series.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// Chart title.
    pub title: String,
    /// x axis description.
    pub x_label: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// The groups, left to right.
    pub categories: Vec<String>,
    /// `(legend entry, one value per category)`; NaN leaves a gap.
    pub series: Vec<(String, Vec<f64>)>,
}

impl BarChart {
    /// The chart of `metric` from `rows`: queues in first-seen order, schedulers likewise.
    pub fn for_metric(rows: &[ComparisonRow], metric: &str) -> BarChart {
        let mut categories: Vec<String> = Vec::new();
        let mut schedulers: Vec<String> = Vec::new();
        for r in rows.iter().filter(|r| r.metric == metric) {
            if !categories.contains(&r.queue) {
                categories.push(r.queue.clone());
            }
            if !schedulers.contains(&r.scheduler) {
                schedulers.push(r.scheduler.clone());
            }
        }
        let series = schedulers
            .iter()
            .map(|s| {
                let values = categories
                    .iter()
                    .map(|q| {
                        rows.iter()
                            .find(|r| r.metric == metric && &r.scheduler == s && &r.queue == q)
                            .map_or(f64::NAN, |r| r.value)
                    })
                    .collect();
                (s.clone(), values)
            })
            .collect();
        BarChart {
            title: format!("{metric}: {} compared", schedulers.join(" vs ")),
            x_label: "queue".into(),
            y_label: comparison_label(metric),
            categories,
            series,
        }
    }
}

/// The axis label of a comparison metric: percentile suffixes keep the base's unit, counts
/// are containers.
fn comparison_label(metric: &str) -> String {
    let base = ["_p50", "_p95", "_p99"]
        .iter()
        .find_map(|p| metric.strip_suffix(p))
        .unwrap_or(metric);
    if base.ends_with("_containers") {
        return format!("{metric} (containers)");
    }
    let with_unit = metric_label(base);
    with_unit.replacen(base, metric, 1)
}

impl Chart for BarChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let values = self.series.iter().flat_map(|s| &s.1).copied();
        let hi = values.filter(|v| v.is_finite()).fold(0.0f64, f64::max);
        let (_, y1) = padded(0.0, hi);
        let n = self.categories.len().max(1) as f64;
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(-0.5..n - 0.5, 0.0..y1)
            .map_err(de)?;
        let categories = self.categories.clone();
        let x_fmt = move |v: &f64| {
            if (v - v.round()).abs() < 1e-9 && *v >= 0.0 {
                categories
                    .get(v.round() as usize)
                    .cloned()
                    .unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_labels(self.categories.len() * 2 + 1)
            .x_label_formatter(&x_fmt)
            .axis_desc_style(label_font())
            .label_style(label_font())
            .draw()
            .map_err(de)?;
        let k = self.series.len().max(1) as f64;
        let width = 0.8 / k;
        for (i, (name, vals)) in self.series.iter().enumerate() {
            let c = series_color(i);
            let left = |x: usize| x as f64 - 0.4 + i as f64 * width;
            chart
                .draw_series(vals.iter().enumerate().filter(|(_, v)| v.is_finite()).map(
                    |(x, &v)| Rectangle::new([(left(x), 0.0), (left(x) + width, v)], c.filled()),
                ))
                .map_err(de)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 16, y + 6)], c.filled()));
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    }
}

/// Draws one chart per metric of `rows` into `out_dir` as `compare-<metric>.png/.svg`.
pub fn draw_all(rows: &[ComparisonRow], out_dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let mut metrics: Vec<&str> = Vec::new();
    for r in rows {
        if !metrics.contains(&r.metric.as_str()) {
            metrics.push(&r.metric);
        }
    }
    let mut out = Vec::new();
    for m in metrics {
        let chart = BarChart::for_metric(rows, m);
        let stem: String = m
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        out.extend(save(&chart, &out_dir.join(format!("compare-{stem}")))?);
    }
    Ok(out)
}

/// Metrics charted by [`run_compare`] (per queue), when present.
pub const CHARTED: &[&str] = &[
    "wait_s_p50",
    "wait_s_p95",
    "jct_s_p50",
    "starved_min_s",
    "min_share_reached_s_p50",
    "preempted_containers",
    "lost_container_s",
];

/// Splits a summary metric such as `wait_s_p50.root.a` (metric first, then the queue) into
/// (`wait_s_p50`, `root.a`); whole-run metrics give (`name`, `all`).
pub fn split_metric(name: &str) -> (String, String) {
    match name.find(".root") {
        Some(i) => (name[..i].to_string(), name[i + 1..].to_string()),
        None => (name.to_string(), "all".to_string()),
    }
}

/// Rows of one run's summary under the label `scheduler`.
pub fn rows_of(scheduler: &str, metrics: &[(String, f64)]) -> Vec<ComparisonRow> {
    metrics
        .iter()
        .map(|(name, value)| {
            let (metric, queue) = split_metric(name);
            ComparisonRow {
                scheduler: scheduler.to_string(),
                queue,
                metric,
                value: *value,
            }
        })
        .collect()
}

/// `fairsim compare`: runs each scenario (the same workload under different schedulers),
/// writes each run's files under `out/<label>/`, then `out/comparison.csv` and one chart
/// per charted metric. Labels are the scheduler kinds (`fair`, `capacity`), made unique with
/// the scenario name when two scenarios use the same scheduler.
pub fn run_compare(
    scenarios: &[fairsim_sim::Scenario],
    seed: u64,
    out: &Path,
) -> Result<Vec<PathBuf>, crate::CliError> {
    let kind = |s: &fairsim_sim::Scenario| match s.tree.scheduler {
        fairsim_sim::tree::SchedulerKind::Fair => "fair",
        fairsim_sim::tree::SchedulerKind::Capacity => "capacity",
    };
    let mut rows = Vec::new();
    for sc in scenarios {
        let mut label = kind(sc).to_string();
        if scenarios.iter().filter(|o| kind(o) == kind(sc)).count() > 1 {
            label = format!("{label}:{}", sc.name);
        }
        let dir = out.join(label.replace(':', "-"));
        let summary = fairsim_sim::run_to_dir(sc, seed, 0, &dir)
            .map_err(|e| crate::CliError::Failed(format!("{}: {e}", sc.name)))?;
        rows.extend(rows_of(&label, &summary.metrics));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| crate::CliError::Failed(format!("{}: {e}", out.display())))?;
    let csv = out.join("comparison.csv");
    write_rows(&csv, &rows).map_err(|e| crate::CliError::Failed(e.to_string()))?;
    let charted: Vec<ComparisonRow> = rows
        .iter()
        .filter(|r| r.queue != "all" && CHARTED.contains(&r.metric.as_str()))
        .cloned()
        .collect();
    let mut files = vec![csv];
    files.extend(draw_all(&charted, out).map_err(|e| crate::CliError::Failed(e.to_string()))?);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(s: &str, q: &str, m: &str, v: f64) -> ComparisonRow {
        ComparisonRow {
            scheduler: s.into(),
            queue: q.into(),
            metric: m.into(),
            value: v,
        }
    }

    #[test]
    fn metric_names_split_into_metric_and_queue() {
        assert_eq!(
            split_metric("wait_s_p95.root.a.b"),
            ("wait_s_p95".to_string(), "root.a.b".to_string())
        );
        assert_eq!(
            split_metric("preempted_containers.root.b"),
            ("preempted_containers".to_string(), "root.b".to_string())
        );
        assert_eq!(
            split_metric("jain_index"),
            ("jain_index".to_string(), "all".to_string())
        );
    }

    #[test]
    fn rows_round_trip_and_charts_name_both_schedulers() {
        let dir = tempfile::tempdir().expect("temp dir");
        let rows = vec![
            row("fair", "root.a", "wait_p50_s", 3.0),
            row("fair", "root.b", "wait_p50_s", 9.0),
            row("capacity", "root.a", "wait_p50_s", 5.0),
            row("capacity", "root.b", "wait_p50_s", 4.0),
        ];
        let csv = dir.path().join("comparison.csv");
        write_rows(&csv, &rows).expect("write");
        assert_eq!(read_rows(&csv).expect("read"), rows);
        let chart = BarChart::for_metric(&rows, "wait_p50_s");
        assert_eq!(chart.categories, vec!["root.a", "root.b"]);
        assert_eq!(chart.series[1], ("capacity".to_string(), vec![5.0, 4.0]));
        assert_eq!(chart.y_label, "wait_p50_s (s)");
        assert_eq!(comparison_label("wait_s_p95"), "wait_s_p95 (s)");
        assert_eq!(
            comparison_label("preempted_containers"),
            "preempted_containers (containers)"
        );
        let files = draw_all(&rows, dir.path()).expect("draw");
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(&files[1]).expect("svg");
        assert!(svg.contains("fair") && svg.contains("capacity"), "legend");
        assert!(std::fs::metadata(&files[0]).expect("png").len() > 1000);
    }
}
