//! A sweep's `report.html`: its charts, a table of every point (mean and 95% interval of the
//! charted metrics over the seeds), the sweep file, the base scenario and the command.

use std::path::{Path, PathBuf};

use crate::plot::labels;
use crate::plot::ticks::value_label;
use crate::report_html::{Block, Page, charts_of, command_line};
use crate::sweep::Spec;
use crate::sweep::output::{RUNS_CSV, RunsTable, SummaryOptions, detail_dir};

/// The SVG charts in `dir`, by name.
fn svgs_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|f| f.extension().is_some_and(|e| e == "svg"));
    files.sort();
    Ok(files)
}

/// `mean [lo, hi]`, or the mean alone without an interval.
fn mean_and_interval(m: &crate::stats::Moments) -> String {
    match m.ci95 {
        Some((lo, hi)) => format!(
            "{} [{}, {}]",
            value_label(m.mean),
            value_label(lo),
            value_label(hi)
        ),
        None => value_label(m.mean),
    }
}

/// The report of the complete sweep `spec` written into `out`.
pub fn sweep_page(spec: &Spec, out: &Path) -> Result<Page, crate::sweep::SweepError> {
    let io = |e: std::io::Error| crate::sweep::SweepError::Io {
        path: out.to_path_buf(),
        source: e,
    };
    let table = RunsTable::read(&out.join(RUNS_CSV), Some(spec.axes.len()))?;
    let mut metrics: Vec<String> = Vec::new();
    for m in spec
        .charts
        .metric
        .iter()
        .chain(&spec.charts.lines_metrics)
        .chain(table.metrics.first())
    {
        if !metrics.contains(m) && table.metric_index(m).is_some() {
            metrics.push(m.clone());
        }
    }
    let opts = SummaryOptions::from(&spec.charts);
    let summary = table.summary_with(&opts);
    let mut header: Vec<String> = table.axes.iter().map(|a| labels::param(a)).collect();
    header.push("runs in the means".into());
    header.push("stalled runs".into());
    for m in &metrics {
        let axis = labels::metric(m).axis();
        header.push(format!("{axis}: mean [95% interval]"));
        if opts.baseline.is_some() {
            header.push(format!("{axis}: paired difference from the baseline"));
        }
    }
    let rows = summary
        .iter()
        .map(|p| {
            let mut row = p.axis_values.clone();
            row.push(p.n.to_string());
            row.push(p.stalled.to_string());
            for m in &metrics {
                let i = table.metric_index(m).expect("checked above");
                row.push(mean_and_interval(&p.moments[i]));
                if let Some(d) = &p.diffs {
                    row.push(mean_and_interval(&d[i]));
                }
            }
            row
        })
        .collect();
    let stalled_policy = if opts.exclude_stalled {
        "Stalled runs are left out of the means (the sweep file asks so)."
    } else {
        "Stalled runs count in the means, their metrics censored at the run's end."
    };
    let baseline = match &opts.baseline {
        Some(b) => format!(
            " Paired differences are against the baseline point ({}), seed for seed.",
            b.join(", ")
        ),
        None => String::new(),
    };
    let stalled_where = match crate::sweep::stalls::stalled_line(&table.stalled_points()) {
        Some(line) => format!(" {}.", crate::plot::heatmap::capitalised(&line)),
        None => " No run stalled.".to_string(),
    };
    let mut charts = charts_of(&svgs_in(out).map_err(io)?).map_err(io)?;
    let run_dir = detail_dir(out, spec.charts.run);
    for (name, svg) in charts_of(&svgs_in(&run_dir).map_err(io)?).map_err(io)? {
        charts.push((format!("run {}: {name}", spec.charts.run), svg));
    }
    let blocks = vec![
        Block::Para(format!(
            "{} runs: {} points × {} seeds. Every run's metrics are in runs.csv, the summary of every metric in summary.csv.{stalled_where} {stalled_policy}{baseline}",
            table.rows.len(),
            summary.len(),
            spec.seeds.len()
        )),
        Block::Heading("Charts".into()),
        Block::Charts(charts),
        Block::Heading("Points".into()),
        Block::Table {
            caption: "Each point over its seeds".into(),
            header,
            rows,
        },
        Block::Heading("How it was made".into()),
        Block::Pre {
            caption: "Command".into(),
            text: command_line(),
        },
        Block::Pre {
            caption: format!("Sweep file ({})", spec.file.display()),
            text: crate::report_html::file_text(&spec.file),
        },
        Block::Pre {
            caption: format!("Base scenario ({})", spec.base_path.display()),
            text: spec.base_text.clone(),
        },
    ];
    Ok(Page {
        title: format!("fairsim sweep: {}", spec.name),
        blocks,
    })
}
