//! A sweep's charts from its tables: the heatmap and line charts of `runs.csv` and the
//! charted run's charts from its files. The chart types live in `plot`, which knows nothing
//! of sweeps; this module turns the sweep's tables into them.

use std::path::{Path, PathBuf};

use super::detail::{DetailSeries, run_end};
use super::output::{RunsTable, detail_dir};
use super::spec::ChartSpec;
use crate::plot::heatmap::{Heatmap, axis_values, capitalised};
use crate::plot::lines::{LineChart, MAX_SERIES, Series, prefers_log};
use crate::plot::{PlotError, file_stem, heatmap, labels, lines, save, seeds_phrase};
use crate::results::parse_f64;

impl Heatmap {
    /// The mean of `metric` over all runs at each (`x`, `y`) pair (other axes and seeds averaged).
    pub fn from_table(
        table: &RunsTable,
        metric: &str,
        x: &str,
        y: &str,
    ) -> Result<Heatmap, PlotError> {
        let axis = |p: &str| {
            table
                .axis_index(p)
                .ok_or_else(|| PlotError::Input(format!("`{p}` is not an axis")))
        };
        let (xi, yi) = (axis(x)?, axis(y)?);
        let mi = table
            .metric_index(metric)
            .ok_or_else(|| PlotError::Input(format!("no metric `{metric}`")))?;
        let x_values = axis_values(table.rows.iter().map(|r| r.axis_values[xi].clone()));
        let y_values = axis_values(table.rows.iter().map(|r| r.axis_values[yi].clone()));
        let mut values = vec![vec![Vec::<f64>::new(); x_values.len()]; y_values.len()];
        let mut stalled = vec![vec![0usize; x_values.len()]; y_values.len()];
        for r in &table.rows {
            let cx = x_values.iter().position(|v| *v == r.axis_values[xi]);
            let cy = y_values.iter().position(|v| *v == r.axis_values[yi]);
            let (Some(cx), Some(cy)) = (cx, cy) else {
                continue;
            };
            if table.stalled(r) {
                stalled[cy][cx] += 1;
            }
            let v = r.metrics[mi];
            if v.is_finite() {
                values[cy][cx].push(v);
            }
        }
        let counts: Vec<usize> = values
            .iter()
            .flatten()
            .map(Vec::len)
            .filter(|&n| n > 0)
            .collect();
        // The exact mean, as summary.csv gives: a cell reads as its point's mean does.
        let cells = values
            .iter()
            .map(|row| {
                row.iter()
                    .map(|xs| (!xs.is_empty()).then(|| crate::stats::mean(xs)))
                    .collect()
            })
            .collect();
        let m = labels::metric(metric);
        let others = if table.axes.len() > 2 {
            " and the other axes"
        } else {
            ""
        };
        Ok(Heatmap {
            title: format!(
                "{} by {} and {}",
                capitalised(&m.name),
                labels::param_short(x),
                labels::param_short(y)
            ),
            subtitle: format!("each cell: mean over {}{others}", seeds_phrase(&counts)),
            x_label: labels::param(x),
            y_label: labels::param(y),
            value_label: m.axis(),
            x_values,
            y_values,
            cells,
            stalled,
        })
    }
}

impl LineChart {
    /// `metric` over axis `x`, one line per combination of the other axes' values, from the table's summary.
    pub fn from_table(table: &RunsTable, metric: &str, x: &str) -> Result<LineChart, PlotError> {
        let xi = table
            .axis_index(x)
            .ok_or_else(|| PlotError::Input(format!("`{x}` is not an axis")))?;
        let mi = table
            .metric_index(metric)
            .ok_or_else(|| PlotError::Input(format!("no metric `{metric}`")))?;
        let summary = table.summary();
        let mut categories: Vec<String> = Vec::new();
        for p in &summary {
            if !categories.contains(&p.axis_values[xi]) {
                categories.push(p.axis_values[xi].clone());
            }
        }
        let numeric = categories
            .iter()
            .all(|c| parse_f64(c).is_some_and(f64::is_finite));
        let mut sorted: Vec<f64> = if numeric {
            categories.iter().filter_map(|c| parse_f64(c)).collect()
        } else {
            Vec::new()
        };
        sorted.sort_by(f64::total_cmp);
        let log_x = numeric && prefers_log(&sorted);
        let x_of = |cell: &str| {
            if numeric {
                let v = parse_f64(cell).expect("checked numeric");
                if log_x { v.log10() } else { v }
            } else {
                categories.iter().position(|c| c == cell).expect("seen") as f64
            }
        };
        let x_ticks = categories.iter().map(|c| (x_of(c), c.clone())).collect();
        let m = labels::metric(metric);
        let mut series: Vec<Series> = Vec::new();
        let mut dropped = 0;
        let mut counts = Vec::new();
        for p in &summary {
            // With one other axis the legend's heading names it and entries give its values.
            let others: Vec<String> = (0..table.axes.len())
                .filter(|&i| i != xi)
                .map(|i| {
                    if table.axes.len() == 2 {
                        labels::value_with_unit(&table.axes[i], &p.axis_values[i])
                    } else {
                        labels::param_value(&table.axes[i], &p.axis_values[i])
                    }
                })
                .collect();
            let name = if others.is_empty() {
                "mean".to_string()
            } else {
                others.join(", ")
            };
            let mo = p.moments[mi];
            counts.push(mo.n);
            let band = mo.ci95.map(|(lo, hi)| (m.clamp(lo), m.clamp(hi)));
            let point = (x_of(&p.axis_values[xi]), mo.mean, band);
            let stalled: Vec<f64> = (p.stalled > 0).then_some(point.0).into_iter().collect();
            match series.iter().position(|s| s.name == name) {
                Some(i) => {
                    series[i].points.push(point);
                    series[i].stalled_x.extend(stalled);
                }
                None if series.len() < MAX_SERIES => series.push(Series {
                    name,
                    points: vec![point],
                    stalled_x: stalled,
                }),
                None => dropped += 1,
            }
        }
        for s in &mut series {
            s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let mut title = format!(
            "{} against {}",
            capitalised(&m.name),
            labels::param_short(x)
        );
        if dropped > 0 {
            title += &format!(", first {MAX_SERIES} lines");
        }
        let bound = match (m.min, m.max) {
            (Some(lo), Some(hi)) => format!(", cut to {lo} to {hi}"),
            (Some(lo), None) => format!(", cut at {lo}"),
            _ => String::new(),
        };
        let mut x_label = labels::param(x);
        if log_x {
            x_label += ", log scale";
        }
        Ok(LineChart {
            title,
            subtitle: format!(
                "mean over {}, band: 95% interval of the mean{bound}",
                seeds_phrase(&counts)
            ),
            x_label,
            y_label: m.axis(),
            x_ticks,
            log_x,
            legend_heading: match table.axes.len() {
                1 => String::new(),
                2 => labels::param_short(&table.axes[1 - xi]),
                _ => "lines".to_string(),
            },
            series,
            y_bounds: (m.min, m.max),
        })
    }
}

/// What a sweep chart's means make of stalled runs, for its subtitle: left out (as the sweep
/// file asked), or how many are in, their metrics censored at the run's end.
fn stalled_note(table: &RunsTable, excluded: bool) -> String {
    if excluded {
        return "; stalled runs left out".to_string();
    }
    match table.rows.iter().filter(|r| table.stalled(r)).count() {
        0 => String::new(),
        1 => "; 1 stalled run included (censored values)".to_string(),
        k => format!("; {k} stalled runs included (censored values)"),
    }
}

/// Draws every chart of a sweep directory from its tables: the heatmap and line charts of the chosen metrics,
/// and, when the charted run's detail CSVs are present, its usage, Jain's index and CDF charts.
/// Returns the files written.
pub fn draw_sweep(
    dir: &Path,
    table: &RunsTable,
    charts: &ChartSpec,
) -> Result<Vec<PathBuf>, PlotError> {
    let mut written = Vec::new();
    if !table.rows.is_empty() && !table.metrics.is_empty() {
        let known = |m: &str| {
            table.metric_index(m).map(|_| ()).ok_or_else(|| {
                PlotError::Input(format!(
                    "metric `{m}` is not among the runs' metrics: {}",
                    table.metrics.join(", ")
                ))
            })
        };
        let metric = charts
            .metric
            .clone()
            .unwrap_or_else(|| table.metrics[0].clone());
        known(&metric)?;
        let heat_axes = charts
            .heatmap
            .clone()
            .or_else(|| match table.axes.as_slice() {
                [x, y, ..] => Some((x.clone(), y.clone())),
                _ => None,
            });
        if let Some((x, y)) = heat_axes {
            let mut chart = heatmap::Heatmap::from_table(table, &metric, &x, &y)?;
            chart.subtitle += &stalled_note(table, charts.exclude_stalled);
            written.extend(save(
                &chart,
                &dir.join(format!("heatmap-{}", file_stem(&metric))),
            )?);
        }
        if let Some(x) = charts
            .lines_x
            .clone()
            .or_else(|| table.axes.first().cloned())
        {
            let metrics = if charts.lines_metrics.is_empty() {
                vec![metric.clone()]
            } else {
                charts.lines_metrics.clone()
            };
            for m in &metrics {
                known(m)?;
                let mut chart = lines::LineChart::from_table(table, m, &x)?;
                chart.subtitle += &stalled_note(table, charts.exclude_stalled);
                written.extend(save(&chart, &dir.join(format!("lines-{}", file_stem(m))))?);
            }
        }
    }
    let run_dir = detail_dir(dir, charts.run);
    if run_dir.is_dir() {
        // Streamed into compact series: the run's files may be far larger than memory.
        let detail = DetailSeries::read(&run_dir).map_err(|e| PlotError::Input(e.to_string()))?;
        let end = run_end(&run_dir);
        written.extend(
            detail
                .charts(end)
                .draw(&charted_run_name(table, charts.run), &run_dir)?,
        );
    }
    Ok(written)
}

/// The charted run as its charts' titles name it: its point's values and its seed.
fn charted_run_name(table: &RunsTable, run: u64) -> String {
    match table.rows.iter().find(|r| r.run_index == run) {
        Some(r) => {
            let point: Vec<String> = table
                .axes
                .iter()
                .zip(&r.axis_values)
                .map(|(a, v)| labels::param_value(a, v))
                .collect();
            format!("sweep run {run}: {}, seed {}", point.join(", "), r.seed)
        }
        None => format!("sweep run {run}"),
    }
}
