//! A plan's `report.html`: the answer sentences, the objective charts, a table of every candidate evaluated
//! (per growth step, each objective's compared value and whether it held), the plan file, the base scenario and
//! the command.

use std::path::Path;

use crate::plot::ticks::value_label;
use crate::report_html::{Block, Page, charts_of, command_line, file_text};
use crate::sweep::SweepError;

use super::PlanResult;
use super::output::sentences;
use super::spec::PlanSpec;

/// The report of the finished plan `spec` whose charts are in `out`.
pub fn plan_page(spec: &PlanSpec, result: &PlanResult, out: &Path) -> Result<Page, SweepError> {
    let io = |source: std::io::Error| SweepError::Io {
        path: out.to_path_buf(),
        source,
    };
    let svgs: Vec<_> = spec
        .objectives
        .iter()
        .map(|o| {
            out.join(format!(
                "objective-{}.svg",
                crate::plot::file_stem(&o.column())
            ))
        })
        .collect();
    let charts = charts_of(&svgs).map_err(io)?;
    let mut header = vec!["growth".to_string(), spec.variable.column()];
    for o in &spec.objectives {
        header.push(format!("{} (compared value)", o.formula()));
    }
    header.push("feasible".into());
    let rows = result
        .candidates
        .iter()
        .map(|c| {
            let mut row = vec![
                format!("{}x", crate::results::fmt_f64(spec.growth[c.growth_idx])),
                spec.variable.grid.cell(c.index),
            ];
            for v in &c.verdicts {
                let value = if v.value.is_finite() {
                    value_label(v.value)
                } else {
                    "n/a".into()
                };
                row.push(match v.why {
                    None => format!("{value} held"),
                    Some(w) => format!("{value} failed: {}", w.text(spec.seeds.len())),
                });
            }
            row.push(if c.feasible { "yes" } else { "no" }.into());
            row
        })
        .collect();
    let blocks = vec![
        Block::Pre {
            caption: "Answer".into(),
            text: sentences(spec, result).join("\n"),
        },
        Block::Para(format!(
            "{} candidates evaluated ({} runs of {} seeds) where a full sweep of the range needs {} runs. \
             An objective holds when the one-sided Student-t bound of its mean over the seeds, at {} confidence, \
             is within its bound (an `equal` objective: on every seed). A stalled run fails every objective of its \
             candidate{}; a censored percentile (a lower bound) never shows that an `at_most` objective holds. \
             Every seed's value is in plan.csv, the answers in answer.json.{}",
            result.candidates.len(),
            result.runs,
            spec.seeds.len(),
            result.full_sweep_runs,
            spec.confidence_percent(),
            if spec.require_finished {
                ", as does a run that left apps unfinished"
            } else {
                ""
            },
            match crate::sweep::stalls::stalled_line(&super::output::stalled_points(spec, result)) {
                Some(line) => format!(" {}.", crate::plot::heatmap::capitalised(&line)),
                None => " No run stalled.".into(),
            },
        )),
        Block::Heading("Charts".into()),
        Block::Charts(charts),
        Block::Heading("Candidates".into()),
        Block::Table {
            caption: "Every candidate evaluated, by growth step and value".into(),
            header,
            rows,
        },
        Block::Heading("How it was made".into()),
        Block::Pre {
            caption: "Command".into(),
            text: command_line(),
        },
        Block::Pre {
            caption: format!("Plan file ({})", spec.file.display()),
            text: file_text(&spec.file),
        },
        Block::Pre {
            caption: format!("Base scenario ({})", spec.base_path.display()),
            text: file_text(&spec.base_path),
        },
    ];
    Ok(Page {
        title: format!("fairsim plan: {}", spec.name),
        blocks,
    })
}
