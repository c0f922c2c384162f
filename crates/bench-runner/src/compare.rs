//! One workload under two schedulers: the comparison table (`comparison.csv`: scheduler,
//! queue, metric, value) and its charts, one grouped bar chart per metric with a bar per
//! scheduler for every queue, PNG and SVG, the schedulers in the legend.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::axes::{Axis, cartesian};
use crate::plot::frame::{LegendEntry, Mark, hatch, legend_right, text_style, titled};
use crate::plot::heatmap::capitalised;
use crate::plot::labels;
use crate::plot::ticks::value_label;
use crate::plot::{Chart, DrawError, PlotError, de, save, series_color};
use crate::report_html::{Block, Page, cell, charts_of, command_line, file_text};
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

/// A grouped bar chart: for each category one bar per series, each bar labelled with its
/// value; a missing value is a hatched stub marked `n/a`, never a bar of height zero.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// Chart title.
    pub title: String,
    /// What the bars are, under the title.
    pub subtitle: String,
    /// x axis description.
    pub x_label: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// The groups, left to right.
    pub categories: Vec<String>,
    /// `(legend entry, one value per category)`; NaN is a missing value.
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
        let m = labels::metric(metric);
        BarChart {
            title: format!(
                "{} per queue: {}",
                capitalised(&m.name),
                schedulers.join(" vs ")
            ),
            subtitle: "one run per scheduler on the same workload and seed".to_string(),
            x_label: "queue".into(),
            y_label: m.axis(),
            categories,
            series,
        }
    }
}

impl Chart for BarChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let missing = self
            .series
            .iter()
            .flat_map(|s| &s.1)
            .any(|v| !v.is_finite());
        let mut subtitle = self.subtitle.clone();
        if missing {
            subtitle += "; hatched n/a: no value";
        }
        let body = titled(root, &self.title, &subtitle)?;
        let entries: Vec<LegendEntry> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, (name, _))| LegendEntry::new(name, series_color(i), Mark::Block))
            .collect();
        let area = legend_right(&body, "scheduler", &entries)?;
        let values = self.series.iter().flat_map(|s| &s.1).copied();
        let hi = values.filter(|v| v.is_finite()).fold(0.0f64, f64::max);
        // Room above the tallest bar for its value.
        let y1 = if hi > 0.0 { hi * 1.12 } else { 1.0 };
        let n = self.categories.len().max(1) as f64;
        let x = Axis::at(
            (-0.5, n - 0.5),
            self.categories
                .iter()
                .enumerate()
                .map(|(i, c)| (i as f64, c.clone()))
                .collect(),
            &self.x_label,
        );
        let y = Axis::numeric(0.0, y1, 8, &self.y_label);
        let mut chart = cartesian(&area, &x, &y)?;
        let k = self.series.len().max(1) as f64;
        let width = 0.8 / k;
        let above = Pos::new(HPos::Center, VPos::Bottom);
        let base = root.get_base_pixel();
        for (i, (_, vals)) in self.series.iter().enumerate() {
            let c = series_color(i);
            for (x, &v) in vals.iter().enumerate() {
                let left = x as f64 - 0.4 + i as f64 * width;
                let mid = left + width / 2.0;
                let top = if v.is_finite() {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(left, 0.0), (left + width, v)],
                            c.filled(),
                        )))
                        .map_err(de)?;
                    // A zero bar still shows as a line on the axis.
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            vec![(left, 0.0), (left + width, 0.0)],
                            c.stroke_width(3),
                        )))
                        .map_err(de)?;
                    v
                } else {
                    let stub = y1 * 0.06;
                    let a = chart.backend_coord(&(left, stub));
                    let b = chart.backend_coord(&(left + width, 0.0));
                    let rel = |p: (i32, i32)| (p.0 - base.0, p.1 - base.1);
                    hatch(root, rel(a), rel(b), c)?;
                    stub
                };
                let label = if v.is_finite() {
                    value_label(v)
                } else {
                    "n/a".to_string()
                };
                let style = text_style().pos(above);
                let (px, py) = chart.backend_coord(&(mid, top));
                root.draw_text(&label, &style, (px - base.0, py - base.1 - 3))
                    .map_err(de)?;
            }
        }
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

/// The comparison's `report.html`: the charts, a table per queue with a column per
/// scheduler, the whole-run metrics side by side, every scenario file and the command.
fn report_page(
    rows: &[ComparisonRow],
    charts: &[PathBuf],
    scenarios: &[fairsim_sim::Scenario],
    sources: &[PathBuf],
    seed: u64,
) -> std::io::Result<Page> {
    let mut schedulers: Vec<&str> = Vec::new();
    for r in rows {
        if !schedulers.contains(&r.scheduler.as_str()) {
            schedulers.push(&r.scheduler);
        }
    }
    let value = |s: &str, q: &str, m: &str| {
        let v = rows
            .iter()
            .find(|r| r.scheduler == s && r.queue == q && r.metric == m)
            .map(|r| r.value);
        let censored = rows.iter().any(|r| {
            r.scheduler == s
                && r.queue == q
                && r.metric == format!("{m}_censored")
                && r.value == 1.0
        });
        cell(v, censored)
    };
    let header = |first: &str| {
        std::iter::once(first.to_string())
            .chain(schedulers.iter().map(|s| s.to_string()))
            .collect::<Vec<_>>()
    };
    let mut queues: Vec<&str> = Vec::new();
    let mut metrics: Vec<&str> = Vec::new();
    for r in rows {
        if r.queue != "all" && !queues.contains(&r.queue.as_str()) {
            queues.push(&r.queue);
        }
        if r.queue == "all"
            && !r.metric.ends_with("_censored")
            && !metrics.contains(&r.metric.as_str())
        {
            metrics.push(&r.metric);
        }
    }
    let mut blocks = vec![
        Block::Para(format!(
            "The same workload under {}, seed {seed}. Each scheduler's own files are in the directory of its name.",
            schedulers.join(" and ")
        )),
        Block::Heading("Charts".into()),
        Block::Charts(charts_of(charts)?),
        Block::Heading("Per queue".into()),
    ];
    for q in &queues {
        blocks.push(Block::Table {
            caption: format!("{q} (≥: a censored percentile, a lower bound)"),
            header: header("metric"),
            rows: CHARTED
                .iter()
                .filter(|m| rows.iter().any(|r| r.queue == *q && r.metric == **m))
                .map(|m| {
                    std::iter::once(labels::metric(m).axis())
                        .chain(schedulers.iter().map(|s| value(s, q, m)))
                        .collect()
                })
                .collect(),
        });
    }
    blocks.push(Block::Heading("Whole run".into()));
    blocks.push(Block::Table {
        caption: "Every whole-run metric".into(),
        header: header("metric"),
        rows: metrics
            .iter()
            .map(|m| {
                std::iter::once(labels::metric(m).axis())
                    .chain(schedulers.iter().map(|s| value(s, "all", m)))
                    .collect()
            })
            .collect(),
    });
    blocks.push(Block::Heading("How it was made".into()));
    blocks.push(Block::Pre {
        caption: "Command".into(),
        text: command_line(),
    });
    for (sc, path) in scenarios.iter().zip(sources) {
        blocks.push(Block::Pre {
            caption: format!("Scenario {} ({})", sc.name, path.display()),
            text: file_text(path),
        });
    }
    Ok(Page {
        title: format!("fairsim compare: {}", schedulers.join(" vs ")),
        blocks,
    })
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
///
/// With `seeds` above 1 each scenario also runs seeds `seed + 1 ..`, without files, and every
/// scenario after the first is compared with the first queue by queue over the paired seeds
/// (`compare_paired`): `regression.csv`, a table in report.html, and the same table returned
/// for the terminal.
pub fn run_compare(
    scenarios: &[fairsim_sim::Scenario],
    sources: &[PathBuf],
    seed: u64,
    seeds: u64,
    out: &Path,
) -> Result<(Vec<PathBuf>, String), crate::CliError> {
    let kind = |s: &fairsim_sim::Scenario| match s.tree.scheduler {
        fairsim_sim::tree::SchedulerKind::Fair => "fair",
        fairsim_sim::tree::SchedulerKind::Capacity => "capacity",
    };
    let mut rows = Vec::new();
    let mut stalled: Vec<(String, Vec<u64>)> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    let mut per_seed: Vec<Vec<crate::compare_paired::Metrics>> = Vec::new();
    for sc in scenarios {
        let mut label = kind(sc).to_string();
        if scenarios.iter().filter(|o| kind(o) == kind(sc)).count() > 1 {
            label = format!("{label}:{}", sc.name);
        }
        let dir = out.join(label.replace(':', "-"));
        let summary = fairsim_sim::run_to_dir(sc, seed, 0, &dir)
            .map_err(|e| crate::CliError::Failed(format!("{}: {e}", sc.name)))?;
        if summary
            .metrics
            .iter()
            .any(|(m, v)| m == "stalled" && *v == 1.0)
        {
            let who = if label.contains(':') {
                label.clone()
            } else {
                format!("{label} ({})", sc.name)
            };
            stalled.push((who, vec![seed]));
        }
        rows.extend(rows_of(&label, &summary.metrics));
        let mut runs = vec![summary.metrics.clone()];
        for k in 1..seeds.max(1) {
            let s = seed.wrapping_add(k);
            let more = fairsim_sim::run(sc, s, 0, &mut fairsim_sim::recorder::NullRecorder)
                .map_err(|e| crate::CliError::Failed(format!("{}: seed {s}: {e}", sc.name)))?;
            if more
                .metrics
                .iter()
                .any(|(m, v)| m == "stalled" && *v == 1.0)
            {
                stalled.push((format!("{label} ({})", sc.name), vec![s]));
            }
            runs.push(more.metrics);
        }
        per_seed.push(runs);
        labels.push(label);
    }
    let paired_rows: Vec<crate::compare_paired::PairedRow> = if seeds > 1 {
        let leaves = |sc: &fairsim_sim::Scenario| -> Vec<String> {
            sc.tree
                .queues
                .iter()
                .filter(|q| q.is_leaf)
                .map(|q| q.name.clone())
                .collect()
        };
        let base_leaves = leaves(&scenarios[0]);
        (1..scenarios.len())
            .flat_map(|i| {
                let other = leaves(&scenarios[i]);
                let shared: Vec<String> = base_leaves
                    .iter()
                    .filter(|q| other.contains(q))
                    .cloned()
                    .collect();
                crate::compare_paired::paired(&labels[i], &per_seed[0], &per_seed[i], &shared)
            })
            .collect()
    } else {
        Vec::new()
    };
    // A stalled run's percentiles are lower bounds and its counts those of survivors: the table puts
    // such a run beside one that finished, so say which it is.
    let stall_line = crate::sweep::stalls::stalled_line(&stalled).map(|l| {
        format!("{l}; its metrics stop at the stall (percentiles marked ≥ are lower bounds)")
    });
    if let Some(line) = &stall_line {
        eprintln!("{line}");
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
    let mut table = String::new();
    if seeds > 1 {
        let path = out.join("regression.csv");
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &paired_rows {
            w.serialize(r)
                .map_err(|e| crate::CliError::Failed(format!("{}: {e}", path.display())))?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| crate::CliError::Failed(format!("{}: {e}", path.display())))?;
        write_atomic(&path, &bytes)
            .map_err(|e| crate::CliError::Failed(format!("{}: {e}", path.display())))?;
        files.push(path);
        table = format!(
            "per queue against {} over seeds {seed} to {} (change: mean of the paired \
             differences, with its 95% interval)\n{}",
            labels[0],
            seed.wrapping_add(seeds - 1),
            crate::compare_paired::text(&labels[0], &paired_rows)
        );
    }
    let charts = draw_all(&charted, out).map_err(|e| crate::CliError::Failed(e.to_string()))?;
    files.extend(charts.iter().cloned());
    let mut page = report_page(&rows, &charts, scenarios, sources, seed)
        .map_err(|e| crate::CliError::Failed(format!("{}: {e}", out.display())))?;
    if !paired_rows.is_empty() {
        use crate::compare_paired::shown;
        page.blocks.insert(
            1,
            Block::Heading(format!("Per queue over {seeds} paired seeds")),
        );
        page.blocks.insert(
            2,
            Block::Table {
                caption: format!(
                    "Each scenario against {}: means over the seeds with a value on both \
                     sides, and the mean paired change with its 95% interval",
                    labels[0]
                ),
                header: [
                    "scheduler",
                    "queue",
                    "metric",
                    "seeds",
                    "baseline",
                    "other",
                    "change",
                    "95% low",
                    "95% high",
                ]
                .iter()
                .map(|h| h.to_string())
                .collect(),
                rows: paired_rows
                    .iter()
                    .map(|r| {
                        vec![
                            r.scheduler.clone(),
                            r.queue.clone(),
                            r.metric.clone(),
                            r.seeds.to_string(),
                            shown(r.baseline),
                            shown(r.other),
                            shown(r.change),
                            shown(r.change_low),
                            shown(r.change_high),
                        ]
                    })
                    .collect(),
            },
        );
    }
    if let Some(line) = stall_line {
        page.blocks.insert(1, Block::Para(capitalised(&line)));
    }
    files.push(
        page.write(out)
            .map_err(|e| crate::CliError::Failed(format!("{}: {e}", out.display())))?,
    );
    Ok((files, table))
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
        let chart = BarChart::for_metric(&[row("fair", "root.a", "wait_s_p95", 2.0)], "wait_s_p95");
        assert_eq!(chart.y_label, "Wait time, p95 (s)");
        assert_eq!(chart.title, "Wait time, p95 per queue: fair");
        assert_eq!(
            labels::metric("preempted_containers").axis(),
            "Containers preempted (count)"
        );
        let files = draw_all(&rows, dir.path()).expect("draw");
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(&files[1]).expect("svg");
        assert!(svg.contains("fair") && svg.contains("capacity"), "legend");
        assert!(std::fs::metadata(&files[0]).expect("png").len() > 1000);
    }
}
