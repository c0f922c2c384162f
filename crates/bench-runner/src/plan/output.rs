//! What a plan writes: `plan.csv` (every candidate evaluated), `answer.json` (one answer per growth step), one
//! chart per objective, and the answer sentences printed on stdout. Files are written atomically.

use std::path::Path;

use serde_json::{Value, json};

use crate::results::{fmt_f64, write_atomic};
use crate::sweep::SweepError;

use super::objective::{Comparison, Why, with_unit};
use super::spec::PlanSpec;
use super::{Binding, PlanResult, StepResult, chart};

/// The candidates file.
pub const PLAN_CSV: &str = "plan.csv";
/// The answers file.
pub const ANSWER_JSON: &str = "answer.json";

/// Writes `plan.csv`, `answer.json` and the charts into `out`.
pub fn write_all(spec: &PlanSpec, result: &PlanResult, out: &Path) -> Result<(), SweepError> {
    write(&out.join(PLAN_CSV), plan_csv(spec, result).as_bytes())?;
    let answer = serde_json::to_string_pretty(&answer_json(spec, result))
        .expect("an answer serialises")
        + "\n";
    write(&out.join(ANSWER_JSON), answer.as_bytes())?;
    chart::draw_all(spec, result, out)?;
    Ok(())
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), SweepError> {
    write_atomic(path, bytes).map_err(|source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn cell(x: Option<f64>) -> String {
    x.map(fmt_f64).unwrap_or_default()
}

/// `plan.csv`: one row per candidate (growth step, then variable value): how many of its runs stalled or left
/// apps unfinished, then for every objective each seed's value of its metric, their mean, the value compared
/// with the bound, whether the objective held and why not; then whether the candidate is feasible.
pub fn plan_csv(spec: &PlanSpec, result: &PlanResult) -> String {
    let n = spec.seeds.len();
    let mut header = vec![
        "growth".to_string(),
        spec.variable.column(),
        "stalled_runs".to_string(),
        "unfinished_runs".to_string(),
    ];
    for o in &spec.objectives {
        let c = o.column();
        for s in &spec.seeds {
            header.push(format!("{c}_seed{s}"));
        }
        header.push(format!("{c}_mean"));
        header.push(format!("{c}_bound"));
        header.push(format!("{c}_held"));
        header.push(format!("{c}_why"));
    }
    header.push("feasible".into());
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).expect("writing to memory");
    for c in &result.candidates {
        let mut row = vec![
            fmt_f64(spec.growth[c.growth_idx]),
            spec.variable.grid.cell(c.index),
            c.stalled_seeds.len().to_string(),
            c.unfinished_runs.to_string(),
        ];
        for (obs, v) in c.observations.iter().zip(&c.verdicts) {
            row.extend(obs.iter().map(|o| cell(o.value)));
            row.push(cell(v.mean.is_finite().then_some(v.mean)));
            row.push(cell(v.value.is_finite().then_some(v.value)));
            row.push(v.held.to_string());
            row.push(v.why.map(|w| w.text(n)).unwrap_or_default());
        }
        row.push(c.feasible.to_string());
        w.write_record(&row).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 text")
}

/// A grid value as a JSON number (an integer for integer variables).
fn value_json(spec: &PlanSpec, i: u64) -> Value {
    match spec.variable.grid.value(i) {
        toml::Value::Integer(n) => json!(n),
        _ => json!(spec.variable.grid.as_f64(i)),
    }
}

fn finite(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

fn step_json(spec: &PlanSpec, result: &PlanResult, g: usize, step: &StepResult) -> Value {
    let o = &step.outcome;
    let n = spec.seeds.len();
    let intervals: Vec<Value> = o
        .feasible_intervals
        .iter()
        .map(|&(a, b)| json!([value_json(spec, a), value_json(spec, b)]))
        .collect();
    let objective_at = |i: u64, which: usize| {
        let c = result.candidate(g, i).expect("answers are evaluated");
        let (obj, v) = (&spec.objectives[which], &c.verdicts[which]);
        json!({
            "metric": obj.metric,
            "queue": obj.queue,
            "comparison": obj.comparison.key(),
            "bound": obj.bound,
            "mean": finite(v.mean),
            "value": finite(v.value),
            "margin": finite(v.margin),
            "held": v.held,
            "why": v.why.map(|w| w.text(n)),
        })
    };
    let binding = o
        .answer
        .map(|a| match result.binding(spec, g).expect("an answer") {
            Binding::Objective(i) => objective_at(a, i),
            Binding::Runs(below) => json!({
                "runs": true,
                "at": value_json(spec, below),
                "why": runs_why(spec, result.candidate(g, below).expect("evaluated")),
            }),
        });
    let best_seen = step.best_seen.map(|b| {
        let c = result.candidate(g, b).expect("best values are evaluated");
        json!({
            "value": value_json(spec, b),
            "objectives_held": c.verdicts.iter().filter(|v| v.held).count(),
            "closest_objective": objective_at(b, c.closest(spec)),
        })
    });
    let stalled: Vec<Value> = result
        .stalled_runs()
        .into_iter()
        .filter(|r| r.0 == g)
        .map(|(_, i, seed)| json!({ "value": value_json(spec, i), "seed": seed }))
        .collect();
    json!({
        "growth": step.growth,
        "status": if o.answer.is_some() { "feasible" } else { "infeasible in range" },
        "value": o.answer.map(|a| value_json(spec, a)),
        "monotone": o.monotone,
        "feasible_intervals": intervals,
        "binding": binding,
        "best_seen": best_seen,
        "candidates_evaluated": result.candidates.iter().filter(|c| c.growth_idx == g).count(),
        "stalled_runs": stalled,
        "sentence": sentence(spec, result, g, step),
    })
}

/// Why a candidate's runs fail it: `3 of 5 runs stalled`, or `2 of 5 runs left apps unfinished`.
fn runs_why(spec: &PlanSpec, c: &super::Candidate) -> String {
    let n = spec.seeds.len();
    if c.stalled_seeds.is_empty() {
        Why::Unfinished(c.unfinished_runs).text(n)
    } else {
        Why::Stalled(c.stalled_seeds.len()).text(n)
    }
}

/// `answer.json`: the plan, how it was searched and tested, and one answer per growth step.
pub fn answer_json(spec: &PlanSpec, result: &PlanResult) -> Value {
    let v = &spec.variable;
    let objectives: Vec<Value> = spec
        .objectives
        .iter()
        .map(|o| {
            json!({
                "metric": o.metric,
                "queue": o.queue,
                "comparison": o.comparison.key(),
                "bound": o.bound,
            })
        })
        .collect();
    let answers: Vec<Value> = result
        .steps
        .iter()
        .enumerate()
        .map(|(g, s)| step_json(spec, result, g, s))
        .collect();
    json!({
        "plan": spec.name,
        "variable": {
            "kind": v.kind.name(),
            "queue": v.queue,
            "column": v.column(),
            "path": v.path(),
            "from": value_json(spec, 0),
            "to": value_json(spec, v.grid.len() - 1),
            "values_in_range": v.grid.len(),
            "added_nodes_like": v.node_list.as_ref().filter(|l| l.adds_copies()).map(|l| {
                let t = &l.template;
                serde_json::json!({
                    "node": t.name,
                    "memory_mb": t.capacity.memory_mb,
                    "vcores": t.capacity.vcores,
                    "rack": t.rack,
                    "named": format!("{}0, {}1, ...", l.added_prefix, l.added_prefix),
                    "base_nodes": l.base_count(),
                })
            }),
        },
        "search": match spec.mode {
            super::Mode::Bisect => "bisect",
            super::Mode::Full => "full",
        },
        "seeds": spec.seeds,
        "confidence": spec.confidence,
        "test": "one-sided Student-t confidence bound of the mean over the seeds (at_most: upper bound <= bound; at_least: lower bound >= bound); equal: every seed equals the bound; a stalled run fails every objective, as does a run with unfinished apps unless unfinished_apps is allow; a censored percentile (a lower bound) never shows that an at_most or equal objective holds; a metric of finished apps only fails with unfinished apps",
        "unfinished_apps": if spec.require_finished { "fail" } else { "allow" },
        "objectives": objectives,
        "runs": result.runs,
        "full_sweep_runs": result.full_sweep_runs,
        "answers": answers,
    })
}

/// The confidence as a percentage, `95%`, or `on 1 seed` when there is nothing to be confident over.
fn how_sure(spec: &PlanSpec) -> String {
    if spec.seeds.len() < 2 {
        "on 1 seed".into()
    } else {
        format!(
            "at {} over {} seeds",
            spec.confidence_percent(),
            spec.seeds.len()
        )
    }
}

/// The answer of growth step `g` in one sentence.
pub fn sentence(spec: &PlanSpec, result: &PlanResult, g: usize, step: &StepResult) -> String {
    let v = &spec.variable;
    let prefix = if spec.growth.len() > 1 || spec.growth[0] != 1.0 {
        format!("at {}x arrivals: ", fmt_f64(step.growth))
    } else {
        String::new()
    };
    let o = &step.outcome;
    let n = spec.seeds.len();
    let describe = |c: &super::Candidate, which: usize| {
        let (obj, verdict) = (&spec.objectives[which], &c.verdicts[which]);
        let value = || with_unit(&obj.metric, verdict.value);
        let bound = with_unit(&obj.metric, obj.bound);
        match verdict.why {
            None if obj.comparison == Comparison::Equal => {
                format!("{} = {bound} on every seed", obj.label())
            }
            None => format!(
                "{} = {} {} {bound} {}",
                obj.label(),
                value(),
                obj.comparison.symbol(),
                how_sure(spec)
            ),
            Some(Why::Missed) => format!(
                "{} = {} vs {bound} {}",
                obj.label(),
                value(),
                how_sure(spec)
            ),
            Some(w @ Why::NotReported(_)) => format!("{} {}", obj.label(), w.text(n)),
            Some(w @ (Why::Stalled(_) | Why::Unfinished(_))) => w.text(n),
            Some(w @ Why::LowerBound(_)) => format!(
                "{} is at least {} vs {bound} ({})",
                obj.label(),
                value(),
                w.text(n)
            ),
            Some(w @ Why::FinishedOnly(_)) => {
                format!("{} = {} vs {bound} ({})", obj.label(), value(), w.text(n))
            }
        }
    };
    let mut s = match (o.answer, step.best_seen) {
        (Some(a), _) => {
            let c = result.candidate(g, a).expect("answers are evaluated");
            let binding = match result.binding(spec, g).expect("an answer") {
                Binding::Objective(i) => describe(c, i),
                Binding::Runs(below) => format!(
                    "at {}, {}",
                    v.describe(below),
                    runs_why(spec, result.candidate(g, below).expect("evaluated"))
                ),
            };
            format!(
                "{prefix}smallest {} meeting all objectives: {} (binding: {binding})",
                v.subject(),
                v.describe_answer(a),
            )
        }
        (None, Some(b)) => {
            let c = result.candidate(g, b).expect("best values are evaluated");
            format!(
                "{prefix}infeasible in range: no {} from {} to {} meets all objectives; best seen: {} (closest: {})",
                v.subject(),
                v.describe(0),
                v.describe(v.grid.len() - 1),
                v.describe(b),
                describe(c, c.closest(spec))
            )
        }
        (None, None) => format!("{prefix}infeasible in range: nothing was evaluated"),
    };
    if !o.monotone {
        let intervals: Vec<String> = o
            .feasible_intervals
            .iter()
            .map(|&(a, b)| format!("[{}, {}]", v.grid.cell(a), v.grid.cell(b)))
            .collect();
        s += &format!(
            "; not monotone in {} over the evaluated points: feasible on {}",
            v.column(),
            intervals.join(", ")
        );
    }
    s
}

/// Every candidate with stalled runs, named `node_memory_mb=1024` (with its growth step when the plan has
/// several), with the seeds that stalled there.
pub fn stalled_points(spec: &PlanSpec, result: &PlanResult) -> Vec<(String, Vec<u64>)> {
    let growth = spec.growth.len() > 1 || spec.growth[0] != 1.0;
    result
        .candidates
        .iter()
        .filter(|c| !c.stalled_seeds.is_empty())
        .map(|c| {
            let mut point = format!(
                "{}={}",
                spec.variable.column(),
                spec.variable.grid.cell(c.index)
            );
            if growth {
                point += &format!(" at {}x arrivals", fmt_f64(spec.growth[c.growth_idx]));
            }
            (point, c.stalled_seeds.clone())
        })
        .collect()
}

/// One sentence per growth step.
pub fn sentences(spec: &PlanSpec, result: &PlanResult) -> Vec<String> {
    result
        .steps
        .iter()
        .enumerate()
        .map(|(g, s)| sentence(spec, result, g, s))
        .collect()
}
