//! The plan file: its schema, and its validation (against the base scenario, at both ends of the range and at
//! every growth step) before anything runs. Errors name the file, the line and the key; see `docs/planning.md`.

use std::ops::Range;
use std::path::{Path, PathBuf};

use fairsim_sim::catalogue::Scope;
use serde::Deserialize;
use toml::Spanned;

use crate::sweep::plan::Fnv1a;
use crate::sweep::spec::{Locator, MAX_RUNS, SpecError, full_queue_name, parse_seeds, read};

/// Most growth steps a plan may have.
pub const MAX_GROWTH_STEPS: usize = 100;
/// Largest growth factor (arrival-rate multiplier).
pub const MAX_GROWTH: f64 = 100.0;

use super::growth::{apply_growth, check_growth};
use super::node_list::NodeList;
use super::objective::{Comparison, Objective};
use super::search::Mode;
use super::variable::{Grid, Variable, VariableKind, queue_key};

/// A validated plan file with its base scenario.
#[derive(Debug, Clone)]
pub struct PlanSpec {
    /// The plan file, as given.
    pub file: PathBuf,
    /// The plan's name (default output directory `results/<name>/`).
    pub name: String,
    /// The base scenario file, resolved against the plan file's directory.
    pub base_path: PathBuf,
    /// The base scenario.
    pub base: toml::Value,
    /// Seeds every candidate runs with (the same seeds for every candidate).
    pub seeds: Vec<u64>,
    /// Confidence level of the one-sided bound, in (0.5, 1).
    pub confidence: f64,
    /// Arrival-rate multipliers, one answer each; `[1.0]` when the file gives none.
    pub growth: Vec<f64>,
    /// How the grid is searched.
    pub mode: Mode,
    /// Whether a run that leaves apps unfinished fails every objective of its candidate (`unfinished_apps =
    /// "fail"`, the default) or only objectives its unfinished apps make untrustworthy (`"allow"`).
    pub require_finished: bool,
    /// The decision variable.
    pub variable: Variable,
    /// The objectives, in file order.
    pub objectives: Vec<Objective>,
    /// Identifies the plan's runs (plan file and base scenario): a journal of another plan is never resumed.
    pub fingerprint: String,
    /// The one-based line of each objective, for errors found after running.
    pub objective_lines: Vec<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlan {
    name: Option<String>,
    base: Spanned<String>,
    seeds: Option<Spanned<toml::Value>>,
    confidence: Option<Spanned<toml::Value>>,
    growth: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    search: Option<Spanned<String>>,
    unfinished_apps: Option<Spanned<String>>,
    variable: Spanned<RawVariable>,
    #[serde(default)]
    objective: Vec<Spanned<RawObjective>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariable {
    kind: Spanned<String>,
    queue: Option<Spanned<String>>,
    from: Spanned<toml::Value>,
    to: Spanned<toml::Value>,
    step: Option<Spanned<toml::Value>>,
    resolution: Option<Spanned<toml::Value>>,
    template: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawObjective {
    metric: Spanned<String>,
    queue: Option<Spanned<String>>,
    at_most: Option<Spanned<toml::Value>>,
    at_least: Option<Spanned<toml::Value>>,
    equal: Option<Spanned<toml::Value>>,
}

fn number(loc: &Locator<'_>, v: &Spanned<toml::Value>, key: &str) -> Result<f64, SpecError> {
    let x = match v.get_ref() {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        other => {
            let msg = format!("expected a number, got {other}");
            return Err(loc.err(Some(v.span()), Some(key), msg));
        }
    };
    if !x.is_finite() {
        return Err(loc.err(Some(v.span()), Some(key), "expected a finite number"));
    }
    Ok(x)
}

fn integer(loc: &Locator<'_>, v: &Spanned<toml::Value>, key: &str) -> Result<i64, SpecError> {
    v.get_ref().as_integer().ok_or_else(|| {
        let msg = format!("expected an integer, got {}", v.get_ref());
        loc.err(Some(v.span()), Some(key), msg)
    })
}

impl PlanSpec {
    /// Reads and validates a plan file and the base scenario it names.
    pub fn load(file: &Path) -> Result<PlanSpec, SpecError> {
        let text = read(file)?;
        let loc = Locator::new(file.display().to_string(), &text);
        let raw: RawPlan = toml::from_str(&text).map_err(|e| loc.toml_err(&e))?;

        let base_path = file
            .parent()
            .unwrap_or(Path::new(""))
            .join(raw.base.get_ref());
        let base_text = fairsim_sim::limits::read_text_file(&base_path).map_err(|e| {
            let msg = format!("cannot read base scenario {}: {e}", base_path.display());
            loc.err(Some(raw.base.span()), Some("base"), msg)
        })?;
        let scenario = fairsim_sim::scenario::parse_scenario(&base_text, &base_path)
            .map_err(|e| loc.err(Some(raw.base.span()), Some("base"), e))?;
        let base_loc = Locator::new(base_path.display().to_string(), &base_text);
        let base = toml::Value::Table(
            toml::from_str::<toml::Table>(&base_text).map_err(|e| base_loc.toml_err(&e))?,
        );
        let queue_exists = |q: &str| scenario.tree.find(q).is_some();
        let is_leaf = |q: &str| {
            scenario
                .tree
                .find(q)
                .is_some_and(|id| scenario.tree.get(id).is_leaf)
        };

        let seeds = match &raw.seeds {
            None => vec![1],
            Some(s) => parse_seeds(&loc, s)?,
        };
        let confidence = match &raw.confidence {
            None => 0.95,
            Some(c) => {
                let x = number(&loc, c, "confidence")?;
                if !(x > 0.5 && x < 1.0) {
                    let msg = format!("confidence must be above 0.5 and below 1, got {x}");
                    return Err(loc.err(Some(c.span()), Some("confidence"), msg));
                }
                x
            }
        };
        let mode = match raw
            .search
            .as_ref()
            .map(|s| (s.get_ref().as_str(), s.span()))
        {
            None | Some(("bisect", _)) => Mode::Bisect,
            Some(("full", _)) => Mode::Full,
            Some((other, span)) => {
                let msg = format!("unknown search `{other}`, expected `bisect` or `full`");
                return Err(loc.err(Some(span), Some("search"), msg));
            }
        };

        let require_finished = match raw
            .unfinished_apps
            .as_ref()
            .map(|s| (s.get_ref().as_str(), s.span()))
        {
            None | Some(("fail", _)) => true,
            Some(("allow", _)) => false,
            Some((other, span)) => {
                let msg = format!("unknown value `{other}`, expected `fail` or `allow`");
                return Err(loc.err(Some(span), Some("unfinished_apps"), msg));
            }
        };

        let mut variable = parse_variable(&loc, raw.variable.get_ref(), &base, &queue_exists)?;
        variable
            .check_cluster_form(&base, &base_text, &base_path.display().to_string())
            .map_err(|m| {
                let span = raw.variable.get_ref().kind.span();
                loc.err(Some(span), Some("variable.kind"), m)
            })?;
        variable.node_list = node_list(&loc, raw.variable.get_ref(), &variable, &base, &scenario)?;

        let growth = match &raw.growth {
            None => vec![1.0],
            Some(g) => {
                let mut factors = Vec::new();
                for v in g.get_ref() {
                    let x = number(&loc, v, "growth")?;
                    if x <= 0.0 || x > MAX_GROWTH {
                        let msg = format!(
                            "growth factors must be positive and at most {MAX_GROWTH}, got {x}"
                        );
                        return Err(loc.err(Some(v.span()), Some("growth"), msg));
                    }
                    factors.push(x);
                }
                if factors.is_empty() {
                    return Err(loc.err(Some(g.span()), Some("growth"), "empty growth list"));
                }
                if factors.len() > MAX_GROWTH_STEPS {
                    let msg = format!(
                        "{} growth steps exceed the limit of {MAX_GROWTH_STEPS}",
                        factors.len()
                    );
                    return Err(loc.err(Some(g.span()), Some("growth"), msg));
                }
                if factors.iter().any(|&f| f != 1.0) {
                    check_growth(&base).map_err(|m| loc.err(Some(g.span()), Some("growth"), m))?;
                }
                factors
            }
        };

        if mode == Mode::Full {
            let runs = u128::from(variable.grid.len()) * seeds.len() as u128 * growth.len() as u128;
            if runs > u128::from(MAX_RUNS) {
                let msg = format!(
                    "a full search needs {runs} runs ({} values x {} seeds x {} growth steps), above the limit of \
                     {MAX_RUNS}: use `bisect` or a coarser `step`",
                    variable.grid.len(),
                    seeds.len(),
                    growth.len()
                );
                let span = raw.search.as_ref().map(Spanned::span);
                return Err(loc.err(span, Some("search"), msg));
            }
        }
        if raw.objective.is_empty() {
            return Err(loc.err(
                None,
                Some("objective"),
                "a plan needs at least one [[objective]]",
            ));
        }
        let mut objectives: Vec<Objective> = Vec::new();
        let mut objective_lines = Vec::new();
        for o in &raw.objective {
            let objective = parse_objective(&loc, o.get_ref(), &queue_exists, &is_leaf)?;
            let span = o.get_ref().metric.span();
            if let Some(prev) = objectives
                .iter()
                .position(|p| p.column() == objective.column())
            {
                let msg = format!(
                    "`{}` already has an objective (line {}); give a metric and queue once",
                    objective.label(),
                    objective_lines[prev]
                );
                return Err(loc.err(Some(span), Some("objective.metric"), msg));
            }
            objective_lines.push(loc.line_of(span));
            objectives.push(objective);
        }

        // Every scenario the plan can run is valid at the range's ends, at every growth step.
        let var_span = raw.variable.get_ref();
        for (i, span, key) in [
            (0, var_span.from.span(), "variable.from"),
            (variable.grid.len() - 1, var_span.to.span(), "variable.to"),
        ] {
            for &g in &growth {
                let mut s = variable.apply(&base, i);
                apply_growth(&mut s, g);
                let checked = check_scenario(&s, &base_path).and_then(|nodes| {
                    variable
                        .check_effect(&nodes, i)
                        .map_err(|m| format!("{}: {m}", base_path.display()))
                });
                checked.map_err(|e| {
                    let msg = format!(
                        "the base scenario with {} = {}{} is invalid: {e}",
                        variable.column(),
                        variable.grid.cell(i),
                        if g == 1.0 {
                            String::new()
                        } else {
                            format!(" at growth {g}")
                        }
                    );
                    loc.err(Some(span.clone()), Some(key), msg)
                })?;
            }
        }

        let mut h = Fnv1a::default();
        h.write(b"fairsim plan\0");
        h.write(text.as_bytes());
        h.write(b"\0base\0");
        h.write(base_text.as_bytes());
        loc.check_name(raw.name.as_deref())?;
        let name = raw.name.clone().unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "plan".to_string())
        });
        Ok(PlanSpec {
            file: file.to_path_buf(),
            name,
            base_path,
            base,
            seeds,
            confidence,
            growth,
            mode,
            require_finished,
            variable,
            objectives,
            fingerprint: format!("{:016x}", h.0),
            objective_lines,
        })
    }
}

impl PlanSpec {
    /// The confidence level as a percentage, `95%` (to six decimals, so `0.95` never prints as `94.99999999999999%`).
    pub fn confidence_percent(&self) -> String {
        format!(
            "{}%",
            crate::results::fmt_f64((self.confidence * 100.0 * 1e6).round() / 1e6)
        )
    }
}

/// For a `nodes` variable, how its values resize the base's node list (`None` for `nodes = N`),
/// refusing a `template` elsewhere and a range starting below the nodes that must stay (those
/// the start state holds containers on or an event names; `plan::node_list`).
fn node_list(
    loc: &Locator<'_>,
    raw: &RawVariable,
    variable: &Variable,
    base: &toml::Value,
    scenario: &fairsim_sim::scenario::Scenario,
) -> Result<Option<NodeList>, SpecError> {
    let template = raw.template.as_ref();
    if variable.kind != VariableKind::Nodes {
        if let Some(t) = template {
            let msg = "`template` chooses the node a `nodes` variable adds copies of";
            return Err(loc.err(Some(t.span()), Some("variable.template"), msg));
        }
        return Ok(None);
    }
    let cluster = base
        .get("cluster")
        .cloned()
        .unwrap_or(toml::Value::Integer(0));
    let stay = super::node_list::nodes_that_stay(scenario);
    let from = variable.grid.as_f64(0) as usize;
    let from_err = |m: String| loc.err(Some(raw.from.span()), Some("variable.from"), m);
    if cluster.get("nodes").is_some_and(toml::Value::is_array) {
        let list = NodeList::new(&cluster, &stay, template.map(|t| t.get_ref().as_str())).map_err(
            |m| {
                let span = template.map_or(raw.kind.span(), Spanned::span);
                loc.err(Some(span), Some("variable.template"), m)
            },
        )?;
        if from < list.smallest() {
            let how = "a `nodes` variable removes the list's last nodes, but never one the \
                       start state holds containers on or an event names";
            return Err(from_err(super::node_list::below_smallest(
                from,
                list.smallest(),
                &stay,
                how,
            )));
        }
        return Ok(Some(list));
    }
    if let Some(t) = template {
        let msg = "`nodes = N` gives identical nodes node0.. and a `nodes` variable sets N; \
                   a template chooses the node added copies are like in a [[cluster.nodes]] list";
        return Err(loc.err(Some(t.span()), Some("variable.template"), msg));
    }
    // `nodes = N` names its nodes node0..node{N-1}: a smaller N drops the last ones.
    let initial = scenario.cluster.node_specs();
    let smallest = initial
        .iter()
        .rposition(|n| stay.iter().any(|(s, _)| *s == n.name))
        .map_or(1, |i| i + 1);
    if from < smallest {
        let how = format!(
            "`nodes = N` names its nodes node0..node{{N-1}}, and node{} must stay",
            smallest - 1
        );
        let last: Vec<(String, String)> = stay
            .iter()
            .filter(|(n, _)| *n == format!("node{}", smallest - 1))
            .cloned()
            .collect();
        return Err(from_err(super::node_list::below_smallest(
            from, smallest, &last, &how,
        )));
    }
    Ok(None)
}

/// The initial nodes of scenario `s`, or why it is invalid.
fn check_scenario(
    s: &toml::Value,
    base_path: &Path,
) -> Result<Vec<fairsim_sim::topology::NodeSpec>, String> {
    let text = toml::to_string(s).map_err(|e| e.to_string())?;
    fairsim_sim::scenario::parse_scenario(&text, base_path)
        .map(|sc| sc.cluster.node_specs().into_owned())
        .map_err(|e| crate::sim_runner::point_error_message(&e, base_path))
}

fn parse_variable(
    loc: &Locator<'_>,
    raw: &RawVariable,
    base: &toml::Value,
    queue_exists: &dyn Fn(&str) -> bool,
) -> Result<Variable, SpecError> {
    let kind = VariableKind::parse(raw.kind.get_ref()).ok_or_else(|| {
        let names: Vec<&str> = VariableKind::ALL.iter().map(|(n, _)| *n).collect();
        let msg = format!(
            "unknown variable kind `{}`, expected one of {}",
            raw.kind.get_ref(),
            names.join(", ")
        );
        loc.err(Some(raw.kind.span()), Some("variable.kind"), msg)
    })?;
    let (queue, queue_key) = match (&raw.queue, kind.needs_queue()) {
        (Some(q), true) => {
            let full = full_queue_name(q.get_ref());
            if !queue_exists(&full) {
                let msg = format!("no queue `{full}` in the base scenario's allocation file");
                return Err(loc.err(Some(q.span()), Some("variable.queue"), msg));
            }
            if base.get("queues").is_some_and(|v| !v.is_table()) {
                let msg = "the base scenario's `queues` is not a table";
                return Err(loc.err(Some(q.span()), Some("variable.queue"), msg));
            }
            let key = queue_key(base, &full);
            (Some(full), Some(key))
        }
        (None, true) => {
            let msg = format!("a `{}` variable needs a `queue`", kind.name());
            return Err(loc.err(Some(raw.kind.span()), Some("variable.queue"), msg));
        }
        (Some(q), false) => {
            let msg = format!("a `{}` variable belongs to no queue", kind.name());
            return Err(loc.err(Some(q.span()), Some("variable.queue"), msg));
        }
        (None, false) => (None, None),
    };
    let range_err = |span: Range<usize>, key: &str, m: String| loc.err(Some(span), Some(key), m);
    let grid = if kind.is_real() {
        if let Some(s) = &raw.step {
            let msg = "a real variable is searched to a `resolution`, not a `step`";
            return Err(loc.err(Some(s.span()), Some("variable.step"), msg));
        }
        let Some(res) = &raw.resolution else {
            let msg = format!(
                "a `{}` variable needs a `resolution` (e.g. 0.01)",
                kind.name()
            );
            return Err(loc.err(Some(raw.kind.span()), Some("variable.resolution"), msg));
        };
        let from = number(loc, &raw.from, "variable.from")?;
        let to = number(loc, &raw.to, "variable.to")?;
        let resolution = number(loc, res, "variable.resolution")?;
        Grid::real(from, to, resolution)
            .map_err(|m| range_err(raw.from.span().start..res.span().end, "variable", m))?
    } else {
        if let Some(r) = &raw.resolution {
            let msg = "an integer variable is searched exactly; use `step` (default 1)";
            return Err(loc.err(Some(r.span()), Some("variable.resolution"), msg));
        }
        let from = integer(loc, &raw.from, "variable.from")?;
        let to = integer(loc, &raw.to, "variable.to")?;
        let step = match &raw.step {
            Some(s) => integer(loc, s, "variable.step")?,
            None => 1,
        };
        Grid::int(from, to, step)
            .map_err(|m| range_err(raw.from.span().start..raw.to.span().end, "variable", m))?
    };
    if grid.as_f64(0) < kind.minimum() {
        let msg = format!(
            "`from` must be at least {} for `{}`",
            kind.minimum(),
            kind.name()
        );
        return Err(loc.err(Some(raw.from.span()), Some("variable.from"), msg));
    }
    Ok(Variable {
        kind,
        queue,
        queue_key,
        grid,
        node_list: None,
    })
}

fn parse_objective(
    loc: &Locator<'_>,
    raw: &RawObjective,
    queue_exists: &dyn Fn(&str) -> bool,
    is_leaf: &dyn Fn(&str) -> bool,
) -> Result<Objective, SpecError> {
    let metric = raw.metric.get_ref().clone();
    if metric.is_empty() || metric.contains('.') || metric.contains(char::is_whitespace) {
        let msg = format!(
            "malformed metric `{metric}`: give the metric's name (e.g. `wait_s_p95`) and the queue in `queue`"
        );
        return Err(loc.err(Some(raw.metric.span()), Some("objective.metric"), msg));
    }
    let queue = match &raw.queue {
        None => None,
        Some(q) => {
            let full = full_queue_name(q.get_ref());
            if !queue_exists(&full) {
                let msg = format!("no queue `{full}` in the base scenario's allocation file");
                return Err(loc.err(Some(q.span()), Some("objective.queue"), msg));
            }
            if !is_leaf(&full) {
                let msg = format!(
                    "`{full}` is a parent queue: runs report per-queue metrics of leaf queues only"
                );
                return Err(loc.err(Some(q.span()), Some("objective.queue"), msg));
            }
            Some(full)
        }
    };
    let column = match &queue {
        Some(q) => format!("{metric}.{q}"),
        None => metric.clone(),
    };
    if fairsim_sim::catalogue::lookup(&column).is_none() {
        let scope = |m: &fairsim_sim::catalogue::Metric| {
            !matches!(
                (&queue, m.scope),
                (Some(_), Scope::Cluster) | (None, Scope::Queue)
            )
        };
        let known: Vec<&str> = fairsim_sim::catalogue::METRICS
            .iter()
            .filter(|m| scope(m))
            .map(|m| m.name)
            .collect();
        let msg = format!(
            "`{metric}` is not a {} metric of the catalogue (docs/outputs.md); known: {}",
            if queue.is_some() {
                "per-queue"
            } else {
                "cluster"
            },
            known.join(", ")
        );
        return Err(loc.err(Some(raw.metric.span()), Some("objective.metric"), msg));
    }
    let given: Vec<(Comparison, &Spanned<toml::Value>)> = [
        (Comparison::AtMost, &raw.at_most),
        (Comparison::AtLeast, &raw.at_least),
        (Comparison::Equal, &raw.equal),
    ]
    .into_iter()
    .filter_map(|(c, v)| v.as_ref().map(|v| (c, v)))
    .collect();
    let [(comparison, bound)] = given.as_slice() else {
        let msg = "an objective needs exactly one of `at_most`, `at_least` or `equal`";
        return Err(loc.err(Some(raw.metric.span()), Some("objective"), msg));
    };
    let bound_value = number(loc, bound, &format!("objective.{}", comparison.key()))?;
    Ok(Objective {
        metric,
        queue,
        comparison: *comparison,
        bound: bound_value,
    })
}
