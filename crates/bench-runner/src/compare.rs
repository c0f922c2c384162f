//! One workload under two schedulers: the comparison table (`comparison.csv`: scheduler,
//! queue, metric, value) and its charts, one grouped bar chart per metric with a bar per
//! scheduler for every queue, PNG and SVG, the schedulers in the legend.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::plot::axes::{Axis, cartesian};
use crate::plot::frame::{LegendEntry, Mark, TEXT_SIZE, legend_right, text_style, titled, wrap};
use crate::plot::heatmap::capitalised;
use crate::plot::labels;
use crate::plot::names::short_names;
use crate::plot::ticks::value_label;
use crate::plot::usage::leaves;
use crate::plot::{Chart, DrawError, MAX_SERIES, PlotError, de, save, series_color};
use crate::report_html::{Block, Page, cell, charts_of, command_line, scenario_blocks};
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

/// One horizontal bar per queue and scheduler, the value written at its end with the number
/// of apps behind it; a missing value is the text `n/a` with no bar, never a bar of length
/// zero. Leaf queues only; beyond [`MAX_SERIES`] of them, those with the largest values.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    /// Chart title.
    pub title: String,
    /// What the bars are, under the title.
    pub subtitle: String,
    /// The description of the category axis.
    pub x_label: String,
    /// The description of the value axis, with unit.
    pub y_label: String,
    /// The queues, top to bottom (full names).
    pub categories: Vec<String>,
    /// `(legend entry, one value per category)`; NaN is a missing value.
    pub series: Vec<(String, Vec<f64>)>,
    /// Apps behind each value (percentiles), per series and category, when known.
    pub counts: Vec<Vec<Option<u64>>>,
    /// When the metric is 0 for every leaf queue under every scheduler: the one line drawn
    /// in the plot instead of bars (no categories, no legend), since rows of 0 would read as
    /// a ranking of the queues.
    pub all_zero: Option<String>,
}

/// Metrics that count a queue's apps: what percentiles are taken over, not charted.
const COUNTS: &[&str] = &["apps", "apps_finished", "apps_never_started"];

/// The apps a percentile of `metric` is taken over: finished apps for completion-time
/// metrics, started apps for waits; `None` for other metrics.
fn sample_size(rows: &[ComparisonRow], metric: &str, scheduler: &str, queue: &str) -> Option<u64> {
    let get = |m: &str| {
        rows.iter()
            .find(|r| r.metric == m && r.scheduler == scheduler && r.queue == queue)
            .map(|r| r.value)
    };
    let n = if metric.starts_with("jct_") || metric.starts_with("slowdown_") {
        get("apps_finished")?
    } else if metric.starts_with("wait_") {
        get("apps")? - get("apps_never_started")?
    } else {
        return None;
    };
    (n.is_finite() && n >= 0.0).then_some(n as u64)
}

impl BarChart {
    /// The chart of `metric` from `rows`: leaf queues in first-seen order, schedulers likewise.
    pub fn for_metric(rows: &[ComparisonRow], metric: &str) -> BarChart {
        let mut queues: Vec<&str> = Vec::new();
        let mut schedulers: Vec<String> = Vec::new();
        for r in rows
            .iter()
            .filter(|r| r.metric == metric && r.queue != "all")
        {
            if !queues.contains(&r.queue.as_str()) {
                queues.push(&r.queue);
            }
            if !schedulers.contains(&r.scheduler) {
                schedulers.push(r.scheduler.clone());
            }
        }
        let mut categories: Vec<String> = leaves(queues.into_iter())
            .into_iter()
            .map(str::to_string)
            .collect();
        let value = |s: &str, q: &str| {
            rows.iter()
                .find(|r| r.metric == metric && r.scheduler == s && r.queue == q)
                .map_or(f64::NAN, |r| r.value)
        };
        // A leaf no app was submitted to under any scheduler has nothing to compare.
        let apps = |q: &String| {
            rows.iter()
                .filter(|r| r.metric == "apps" && &r.queue == q)
                .map(|r| r.value)
                .fold(None, |m: Option<f64>, v| Some(m.unwrap_or(0.0).max(v)))
        };
        let n_leaves = categories.len();
        categories.retain(|q| apps(q) != Some(0.0));
        let mut note = match n_leaves - categories.len() {
            0 => String::new(),
            1 => "; 1 leaf queue without apps left out".to_string(),
            k => format!("; {k} leaf queues without apps left out"),
        };
        let n_all = categories.len();
        // All zeros is an answer ("nothing was preempted"), not a ranking: say so rather than
        // let ten rows of 0 read as the queues that matter.
        let all_zero = n_all > 0
            && categories
                .iter()
                .all(|q| schedulers.iter().all(|s| value(s, q) == 0.0));
        let m = labels::metric(metric);
        let all_zero = all_zero.then(|| {
            let unit = match m.unit.as_str() {
                "" | "count" => String::new(),
                u => format!(" {u}"),
            };
            let queues = match n_all {
                1 => "the one leaf queue".to_string(),
                n => format!("all {n} leaf queues"),
            };
            let under = match schedulers.as_slice() {
                [one] => one.clone(),
                [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
                [] => String::new(),
            };
            format!(
                "{}: 0{unit} for {queues} under {under}",
                capitalised(&m.name)
            )
        });
        if all_zero.is_some() {
            categories.clear();
        } else if n_all > MAX_SERIES {
            let largest = |q: &String| {
                schedulers
                    .iter()
                    .map(|s| value(s, q))
                    .filter(|v| v.is_finite())
                    .fold(f64::NEG_INFINITY, f64::max)
            };
            let mut order: Vec<usize> = (0..n_all).collect();
            order.sort_by(|&a, &b| {
                largest(&categories[b])
                    .total_cmp(&largest(&categories[a]))
                    .then(a.cmp(&b))
            });
            let mut keep = order[..MAX_SERIES].to_vec();
            keep.sort_unstable();
            categories = keep.into_iter().map(|i| categories[i].clone()).collect();
            note += &format!(
                "; the {MAX_SERIES} of {n_all} leaf queues with the largest values, every queue in comparison.csv and report.html"
            );
        }
        let series = schedulers
            .iter()
            .map(|s| (s.clone(), categories.iter().map(|q| value(s, q)).collect()))
            .collect();
        let counts: Vec<Vec<Option<u64>>> = schedulers
            .iter()
            .map(|s| {
                categories
                    .iter()
                    .map(|q| sample_size(rows, metric, s, q))
                    .collect()
            })
            .collect();
        let n_note = if counts.iter().flatten().any(Option::is_some) {
            "; n: apps behind the percentile"
        } else {
            ""
        };
        BarChart {
            title: format!(
                "{} per queue: {}",
                capitalised(&m.name),
                schedulers.join(" vs ")
            ),
            subtitle: format!("one run per scheduler on the same workload and seed{n_note}{note}"),
            x_label: "queue".into(),
            y_label: m.axis(),
            categories,
            series,
            counts,
            all_zero,
        }
    }
}

impl Chart for BarChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let body = titled(root, &self.title, &self.subtitle)?;
        if let Some(line) = &self.all_zero {
            let style = text_style().pos(Pos::new(HPos::Center, VPos::Center));
            let (w, h) = body.dim_in_pixel();
            let lines = wrap(&body, line, &style, w.saturating_sub(80))?;
            let line_h = TEXT_SIZE as i32 + 6;
            let top = h as i32 / 2 - line_h * (lines.len() as i32 - 1) / 2;
            for (k, l) in lines.iter().enumerate() {
                body.draw_text(l, &style, (w as i32 / 2, top + k as i32 * line_h))
                    .map_err(de)?;
            }
            return Ok(());
        }
        let entries: Vec<LegendEntry> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, (name, _))| LegendEntry::new(name, series_color(i), Mark::Block))
            .collect();
        let area = legend_right(&body, "scheduler", &entries)?;
        let values = self.series.iter().flat_map(|s| &s.1).copied();
        let hi = values.filter(|v| v.is_finite()).fold(0.0f64, f64::max);
        // Room right of the longest bar for its value and count.
        let x1 = if hi > 0.0 { hi * 1.35 } else { 1.0 };
        let n = self.categories.len().max(1);
        let short = short_names(&self.categories);
        // The first queue at the top.
        let row_y = |i: usize| (n - 1 - i) as f64;
        let cat_axis = Axis::at(
            (-0.5, n as f64 - 0.5),
            short
                .iter()
                .enumerate()
                .map(|(i, c)| (row_y(i), c.clone()))
                .collect(),
            "",
        );
        let mut val_axis = Axis::numeric(0.0, x1, 8, &self.y_label);
        if hi == 0.0 {
            // Nothing to scale: a single tick at 0, not fractions of a count.
            val_axis.ticks = vec![0.0];
            val_axis.labels = vec!["0".into()];
        }
        let mut chart = cartesian(&area, &val_axis, &cat_axis)?;
        let k = self.series.len().max(1) as f64;
        let height = 0.8 / k;
        let right = Pos::new(HPos::Left, VPos::Center);
        let base = root.get_base_pixel();
        for (i, (_, vals)) in self.series.iter().enumerate() {
            let c = series_color(i);
            for (q, &v) in vals.iter().enumerate() {
                // The first scheduler's bar uppermost within its queue's band.
                let top = row_y(q) + 0.4 - i as f64 * height;
                let mid = top - height / 2.0;
                let end = if v.is_finite() {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(0.0, top - height), (v, top)],
                            c.filled(),
                        )))
                        .map_err(de)?;
                    v
                } else {
                    0.0
                };
                let mut label = if v.is_finite() {
                    value_label(v)
                } else {
                    "n/a".to_string()
                };
                if let Some(n) = self.counts.get(i).and_then(|c| c.get(q)).copied().flatten() {
                    label += &format!(" (n={n})");
                }
                let style = text_style().pos(right);
                let (px, py) = chart.backend_coord(&(end, mid));
                root.draw_text(&label, &style, (px - base.0 + 4, py - base.1))
                    .map_err(de)?;
            }
        }
        Ok(())
    }

    fn tooltips(&self) -> Vec<(String, String)> {
        short_names(&self.categories)
            .into_iter()
            .zip(self.categories.iter().cloned())
            .filter(|(a, b)| a != b)
            .collect()
    }
}

/// Draws one chart per metric of `rows` (but the app counts behind the percentiles) into
/// `out_dir` as `compare-<metric>.png/.svg`.
pub fn draw_all(rows: &[ComparisonRow], out_dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let mut metrics: Vec<&str> = Vec::new();
    for r in rows {
        if !metrics.contains(&r.metric.as_str()) && !COUNTS.contains(&r.metric.as_str()) {
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
        blocks.extend(scenario_blocks(path, &format!("Scenario {}", sc.name)));
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

/// Whole-run metrics `compare` prints in the terminal, in this order.
const HEADLINE: &[&str] = &[
    "apps_finished",
    "apps_unfinished",
    "util_memory",
    "jain_index",
    "wait_s_p50",
    "wait_s_p95",
    "jct_s_p50",
    "jct_s_p95",
    "makespan_s",
];

/// The comparison's answer in a few lines: the whole-run headline metrics, a column per
/// scheduler and, for two, the second's difference from the first (same workload and seed,
/// so a paired difference).
pub fn headline_table(rows: &[ComparisonRow]) -> String {
    let mut schedulers: Vec<&str> = Vec::new();
    for r in rows {
        if !schedulers.contains(&r.scheduler.as_str()) {
            schedulers.push(&r.scheduler);
        }
    }
    let value = |s: &str, m: &str| {
        rows.iter()
            .find(|r| r.scheduler == s && r.metric == m && r.queue == "all")
            .map(|r| r.value)
    };
    let mut header = vec!["metric".to_string()];
    header.extend(schedulers.iter().map(|s| s.to_string()));
    let pair = schedulers.len() == 2;
    if pair {
        header.push(format!("{} - {}", schedulers[1], schedulers[0]));
    }
    let mut table = vec![header];
    for m in HEADLINE {
        let vs: Vec<Option<f64>> = schedulers.iter().map(|s| value(s, m)).collect();
        if vs.iter().all(Option::is_none) {
            continue;
        }
        let mut line = vec![labels::metric(m).axis()];
        line.extend(vs.iter().map(|v| v.map_or("-".to_string(), value_label)));
        if pair {
            line.push(match (vs[0], vs[1]) {
                (Some(a), Some(b)) if a.is_finite() && b.is_finite() => {
                    let d = b - a;
                    let sign = if d > 0.0 { "+" } else { "" };
                    format!("{sign}{}", value_label(d))
                }
                _ => "-".to_string(),
            });
        }
        table.push(line);
    }
    crate::text_table::aligned(&table, 1)
}

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
    // The first stalled run's diagnosis, said under the line of where runs stalled.
    let mut first_why: Option<(String, u64, Vec<String>)> = None;
    let words_of = |summary: &fairsim_sim::RunSummary| -> Vec<String> {
        summary
            .stall_diagnosis
            .iter()
            .map(|g| g.words.clone())
            .collect()
    };
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
            first_why.get_or_insert_with(|| (who.clone(), seed, words_of(&summary)));
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
                let who = format!("{label} ({})", sc.name);
                first_why.get_or_insert_with(|| (who.clone(), s, words_of(&more)));
                stalled.push((who, vec![s]));
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
        if let Some((who, seed, words)) = &first_why
            && let Some(why) = crate::sweep::stalls::why_lines(who, *seed, words)
        {
            eprintln!("{why}");
        }
    }
    std::fs::create_dir_all(out)
        .map_err(|e| crate::CliError::Failed(format!("{}: {e}", out.display())))?;
    let csv = out.join("comparison.csv");
    write_rows(&csv, &rows).map_err(|e| crate::CliError::Failed(e.to_string()))?;
    let charted: Vec<ComparisonRow> = rows
        .iter()
        .filter(|r| {
            r.queue != "all"
                && (CHARTED.contains(&r.metric.as_str()) || COUNTS.contains(&r.metric.as_str()))
        })
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
    fn many_queues_keep_the_ten_largest_and_idle_ones_go() {
        // q00 had no app; q01..q12 wait q seconds under fair, each from 4 apps (1 never
        // started): the ten largest, q03..q12, are drawn, n = 3 each.
        let mut rows = vec![
            row("fair", "root.q00", "apps", 0.0),
            row("fair", "root.q00", "wait_s_p95", f64::NAN),
        ];
        for q in 1..=12 {
            let name = format!("root.q{q:02}");
            rows.push(row("fair", &name, "apps", 4.0));
            rows.push(row("fair", &name, "apps_never_started", 1.0));
            rows.push(row("fair", &name, "wait_s_p95", q as f64));
        }
        let chart = BarChart::for_metric(&rows, "wait_s_p95");
        let expected: Vec<String> = (3..=12).map(|q| format!("root.q{q:02}")).collect();
        assert_eq!(chart.categories, expected);
        assert_eq!(chart.counts[0], vec![Some(3); 10]);
        assert!(
            chart
                .subtitle
                .contains("1 leaf queue without apps left out"),
            "{}",
            chart.subtitle
        );
        assert!(
            chart.subtitle.contains("the 10 of 12 leaf queues"),
            "{}",
            chart.subtitle
        );
    }

    #[test]
    fn a_metric_at_zero_everywhere_is_said_to_be_so() {
        let mut rows = Vec::new();
        for q in 1..=12 {
            let name = format!("root.q{q:02}");
            for s in ["fair", "capacity"] {
                rows.push(row(s, &name, "apps", 4.0));
                rows.push(row(s, &name, "preempted_containers", 0.0));
            }
        }
        let chart = BarChart::for_metric(&rows, "preempted_containers");
        // One line instead of rows of 0 (which would read as a ranking), and no bars.
        assert_eq!(
            chart.all_zero.as_deref(),
            Some("Containers preempted: 0 for all 12 leaf queues under fair and capacity")
        );
        assert!(chart.categories.is_empty());
        assert!(
            !chart.subtitle.contains("largest values"),
            "{}",
            chart.subtitle
        );
        // Drawn, the line sits inside the canvas and the chart draws no bar.
        let dir = tempfile::tempdir().expect("temp dir");
        let [_, svg] = crate::plot::save(&chart, &dir.path().join("z")).expect("draw");
        let svg = std::fs::read_to_string(svg).expect("svg");
        assert!(
            svg.contains(
                ">\nContainers preempted: 0 for all 12 leaf queues under fair and capacity\n</text>"
            ),
            "{svg}"
        );
        // The canvas's white background is the one rectangle.
        assert_eq!(svg.matches("<rect").count(), 1, "bars drawn: {svg}");
        // A metric with a unit says it; one scheduler alone is named alone.
        let lost: Vec<ComparisonRow> = ["root.a", "root.b"]
            .iter()
            .flat_map(|q| {
                [
                    row("fair", q, "apps", 2.0),
                    row("fair", q, "lost_container_s", 0.0),
                ]
            })
            .collect();
        let chart = BarChart::for_metric(&lost, "lost_container_s");
        assert_eq!(
            chart.all_zero.as_deref(),
            Some("Work lost to preemption: 0 s for all 2 leaf queues under fair")
        );
        // One non-zero value makes it a ranking again.
        rows.push(row("fair", "root.q07", "preempted_containers", 3.0));
        let rows: Vec<ComparisonRow> = rows
            .into_iter()
            .filter(|r| {
                !(r.queue == "root.q07"
                    && r.scheduler == "fair"
                    && r.value == 0.0
                    && r.metric == "preempted_containers")
            })
            .collect();
        let chart = BarChart::for_metric(&rows, "preempted_containers");
        assert_eq!(chart.all_zero, None);
        assert!(
            chart.subtitle.contains("largest values"),
            "{}",
            chart.subtitle
        );
        assert!(chart.categories.contains(&"root.q07".to_string()));
    }

    #[test]
    fn the_terminal_table_pairs_the_two_schedulers() {
        let rows = vec![
            row("fair", "all", "wait_s_p95", 12.5),
            row("capacity", "all", "wait_s_p95", 20.0),
            row("fair", "all", "jain_index", 0.9),
            row("capacity", "all", "jain_index", 0.75),
            row("fair", "root.a", "wait_s_p95", 99.0),
        ];
        let t = headline_table(&rows);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 3, "{t}");
        assert!(lines[0].ends_with("capacity - fair"), "{t}");
        // 0.75 - 0.9 = -0.15; 20 - 12.5 = +7.5; per-queue rows stay in the files.
        assert!(
            lines[1].starts_with("Jain") && lines[1].ends_with("-0.15"),
            "{t}"
        );
        let cells: Vec<&str> = lines[2].split_whitespace().collect();
        assert_eq!(cells[cells.len() - 3..], ["12.5", "20", "+7.5"], "{t}");
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
