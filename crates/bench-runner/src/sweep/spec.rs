//! The sweep file: its schema, and its validation against the base scenario with file, line and key in errors.
//!
//! ```toml
//! name = "weight-vs-minshare"         # optional, default: the sweep file's stem
//! base = "scenario.toml"              # relative to the sweep file
//! seeds = { count = 20, base = 1 }    # or a list: seeds = [1, 7, 42]
//! metric = "jain"                     # optional: the metric the heatmap and line charts show
//!
//! [[axis]]
//! path = "queues.etl.weight"          # a dotted path into the scenario; `a.b[2].c` indexes arrays
//! values = [1.0, 2.0, 4.0]
//!
//! [[axis]]
//! path = "queues.etl.minshare"
//! range = { from = 0, to = 4096, step = 1024 }
//!
//! [charts]                            # optional
//! heatmap = ["queues.etl.weight", "queues.etl.minshare"]
//! lines = { x = "queues.etl.weight", metrics = ["jain", "etl_wait_p95_s"] }
//! run = 0                             # run whose time series and per-app records are charted
//! ```

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::param_path::{ParamPath, type_name};

/// Largest number of values a `range` may expand to.
const MAX_RANGE_VALUES: usize = 100_000;
/// Most seeds a sweep may list or count.
pub const MAX_SEEDS: u64 = 1_000_000;
/// Most runs (axis points times seeds) a sweep may have.
pub const MAX_RUNS: u64 = 10_000_000;

/// An invalid sweep or scenario file. Its message names the file, the line (when known) and the key.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Read {
        /// The file, as given.
        file: String,
        /// Why reading failed.
        source: std::io::Error,
    },
    /// The file was read but is malformed or inconsistent.
    #[error("{}", invalid_message(file, *line, key.as_deref(), message))]
    Invalid {
        /// The file, as given.
        file: String,
        /// One-based line of the offending text, when known.
        line: Option<usize>,
        /// The key (or axis path) at fault, when there is one.
        key: Option<String>,
        /// What is wrong, lowercase.
        message: String,
    },
}

fn invalid_message(file: &str, line: Option<usize>, key: Option<&str>, message: &str) -> String {
    let mut s = file.to_string();
    if let Some(line) = line {
        s += &format!(":{line}");
    }
    if let Some(key) = key {
        s += &format!(": key `{key}`");
    }
    s + ": " + message
}

impl SpecError {
    /// The one-based line the error points at, if any.
    pub fn line(&self) -> Option<usize> {
        match self {
            SpecError::Read { .. } => None,
            SpecError::Invalid { line, .. } => *line,
        }
    }
}

/// One axis of a sweep: a parameter path and the values it takes, already checked against the base scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The dotted path as written in the sweep file.
    pub path: String,
    /// The parsed path.
    pub param: ParamPath,
    /// The values, in the order given; integers meant for a float parameter are already floats.
    pub values: Vec<toml::Value>,
    /// The sweep file's line of each value (of the `range` for a range).
    pub lines: Vec<usize>,
}

/// A metric the sweep file names, with where it names it.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedMetric {
    /// The metric's name (`wait_s_p95.root.A`).
    pub name: String,
    /// The key naming it (`metric`, `charts.lines.metrics`, `baseline`).
    pub key: &'static str,
    /// The sweep file's line.
    pub line: usize,
}

/// What the charts of a sweep show. Stored in `sweep.json` so that `fairsim plot` redraws the same charts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChartSpec {
    /// The main metric (heatmap, default line chart); `None` means the runner's first metric.
    pub metric: Option<String>,
    /// The heatmap's x and y axes; `None` means the first two axes.
    pub heatmap: Option<(String, String)>,
    /// The line charts' x axis; `None` means the first axis.
    pub lines_x: Option<String>,
    /// One line chart per metric listed; empty means the main metric only.
    pub lines_metrics: Vec<String>,
    /// The run whose time series and per-app records are kept and charted.
    pub run: u64,
    /// Leave stalled runs out of the summary's means and the charts (`stalled_runs =
    /// "exclude"`); by default they count.
    #[serde(default)]
    pub exclude_stalled: bool,
    /// The baseline point's axis values as CSV cells (`baseline = { path = value, .. }`):
    /// summary.csv adds every point's paired difference against it.
    #[serde(default)]
    pub baseline: Option<Vec<String>>,
}

/// A validated sweep file together with its base scenario.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The sweep file, as given.
    pub file: PathBuf,
    /// The sweep's name (used for the default output directory).
    pub name: String,
    /// The base scenario file (resolved against the sweep file's directory).
    pub base_path: PathBuf,
    /// The base scenario's text, as read.
    pub base_text: String,
    /// The base scenario.
    pub base: toml::Value,
    /// The axes, in file order; crossed with the first axis varying slowest.
    pub axes: Vec<Axis>,
    /// The seeds every axis point runs with, in order.
    pub seeds: Vec<u64>,
    /// Chart choices.
    pub charts: ChartSpec,
    /// Every metric the sweep file names, checked against the runner before any run.
    pub metrics: Vec<NamedMetric>,
    /// The line of the first axis (or of `base` without axes): where a point's error points.
    pub first_axis_line: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    name: Option<String>,
    base: Spanned<String>,
    seeds: Option<Spanned<toml::Value>>,
    #[serde(default)]
    axis: Vec<Spanned<RawAxis>>,
    metric: Option<Spanned<String>>,
    charts: Option<RawCharts>,
    stalled_runs: Option<Spanned<String>>,
    baseline: Option<Spanned<toml::Table>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAxis {
    path: Spanned<String>,
    values: Option<Spanned<Vec<Spanned<toml::Value>>>>,
    range: Option<Spanned<RawRange>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRange {
    from: toml::Value,
    to: toml::Value,
    step: toml::Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharts {
    heatmap: Option<Spanned<Vec<String>>>,
    lines: Option<Spanned<RawLines>>,
    run: Option<Spanned<u64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLines {
    x: Option<String>,
    #[serde(default)]
    metrics: Vec<String>,
}

/// Builds errors that point into one file's text.
pub(crate) struct Locator<'a> {
    pub(crate) file: String,
    pub(crate) text: &'a str,
    /// Offsets of the text's newlines: a line is a binary search, so an axis of a million
    /// values gets its lines in linear time, not quadratic.
    newlines: Vec<usize>,
}

impl<'a> Locator<'a> {
    pub(crate) fn new(file: String, text: &'a str) -> Locator<'a> {
        let newlines = text.match_indices('\n').map(|(i, _)| i).collect();
        Locator {
            file,
            text,
            newlines,
        }
    }

    /// The 1-based line of the span's start.
    pub(crate) fn line_of(&self, span: Range<usize>) -> usize {
        let end = span.start.min(self.text.len());
        self.newlines.partition_point(|&i| i < end) + 1
    }

    pub(crate) fn err(
        &self,
        span: Option<Range<usize>>,
        key: Option<&str>,
        message: impl fmt::Display,
    ) -> SpecError {
        SpecError::Invalid {
            file: self.file.clone(),
            line: span.map(|s| self.line_of(s)),
            key: key.map(str::to_string),
            message: message.to_string(),
        }
    }

    /// Refuses a `name` that is not one directory name: it becomes the output directory
    /// under `results/`.
    pub(crate) fn check_name(&self, name: Option<&str>) -> Result<(), SpecError> {
        match name.and_then(fairsim_sim::scenario::output_name_problem) {
            Some(problem) => Err(SpecError::Invalid {
                file: self.file.clone(),
                line: Some(fairsim_sim::key_lines::KeyLines::new(self.text).line("name")),
                key: Some("name".into()),
                message: problem,
            }),
            None => Ok(()),
        }
    }

    /// A TOML reader's error, naming the key of the value it refused where one is found. An
    /// integer beyond 64 bits (the TOML reader refuses it before any check of ours) is said
    /// as such, with the limit: seeds 0 to 2^63 - 1, other integers a signed 64-bit range.
    pub(crate) fn toml_err(&self, e: &toml::de::Error) -> SpecError {
        let key = e
            .span()
            .and_then(|s| fairsim_sim::key_lines::key_path_of_value_at(self.text, s.start));
        let literal = e.span().and_then(|s| self.text.get(s)).map(str::trim);
        let too_wide = literal.filter(|l| {
            let digits = l.strip_prefix(['-', '+']).unwrap_or(l).replace('_', "");
            !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
                && l.replace('_', "").parse::<i64>().is_err()
        });
        let message = match (too_wide, &key) {
            (Some(l), Some(k)) if k.starts_with("seeds") => format!(
                "{l} is out of range: the limit is 0 to {} (a seed in a file is a TOML integer)",
                i64::MAX
            ),
            (Some(l), _) => format!(
                "{l} is out of range: a TOML integer is from {} to {}",
                i64::MIN,
                i64::MAX
            ),
            _ => e.message().trim_end().to_string(),
        };
        self.err(e.span(), key.as_deref(), message)
    }
}

pub(crate) fn read(path: &Path) -> Result<String, SpecError> {
    fairsim_sim::limits::read_text_file(path).map_err(|source| SpecError::Read {
        file: path.display().to_string(),
        source,
    })
}

impl Spec {
    /// Reads and validates a sweep file and the base scenario it names.
    pub fn load(file: &Path) -> Result<Spec, SpecError> {
        let text = read(file)?;
        let sweep_dir = file.parent().unwrap_or(Path::new(""));
        let loc = Locator::new(file.display().to_string(), &text);
        let raw: RawSweep = toml::from_str(&text).map_err(|e| loc.toml_err(&e))?;

        let base_path = sweep_dir.join(raw.base.get_ref());
        let base_text = match fairsim_sim::limits::read_text_file(&base_path) {
            Ok(t) => t,
            Err(e) => {
                let msg = format!("cannot read base scenario {}: {e}", base_path.display());
                return Err(loc.err(Some(raw.base.span()), Some("base"), msg));
            }
        };
        let base_loc = Locator::new(base_path.display().to_string(), &base_text);
        let base_table: toml::Table =
            toml::from_str(&base_text).map_err(|e| base_loc.toml_err(&e))?;
        let base = toml::Value::Table(base_table);

        // The queues of the allocation file, read only when an axis names a queue setting the base scenario
        // does not hold; a base scenario that does not load has none here (its error comes with the checks
        // of every point).
        let tree = std::cell::OnceCell::new();
        let queues = |full: &str| {
            tree.get_or_init(|| {
                fairsim_sim::scenario::parse_scenario(&base_text, &base_path)
                    .ok()
                    .map(|s| s.tree)
            })
            .as_ref()
            .is_some_and(|t| t.find(full).is_some())
        };
        let mut axes: Vec<Axis> = Vec::with_capacity(raw.axis.len());
        for raw_axis in &raw.axis {
            let axis = parse_axis(&loc, &base, &queues, raw_axis)?;
            if axes.iter().any(|a| a.param == axis.param) {
                return Err(loc.err(
                    Some(raw_axis.get_ref().path.span()),
                    Some(&axis.path),
                    "axis given twice",
                ));
            }
            axes.push(axis);
        }

        let seeds = match &raw.seeds {
            None => vec![1],
            Some(s) => parse_seeds(&loc, s)?,
        };

        let mut metrics = Vec::new();
        if let Some(m) = &raw.metric {
            metrics.push(NamedMetric {
                name: m.get_ref().clone(),
                key: "metric",
                line: loc.line_of(m.span()),
            });
        }
        let mut charts = ChartSpec {
            metric: raw.metric.as_ref().map(|m| m.get_ref().clone()),
            ..ChartSpec::default()
        };
        let is_axis = |p: &str| axes.iter().any(|a| a.path == p);
        if let Some(c) = &raw.charts {
            if let Some(h) = &c.heatmap {
                let [x, y] = h.get_ref().as_slice() else {
                    return Err(loc.err(
                        Some(h.span()),
                        Some("charts.heatmap"),
                        "expected two axis paths [x, y]",
                    ));
                };
                for p in [x, y] {
                    if !is_axis(p) {
                        return Err(loc.err(
                            Some(h.span()),
                            Some("charts.heatmap"),
                            format!("`{p}` is not an axis"),
                        ));
                    }
                }
                charts.heatmap = Some((x.clone(), y.clone()));
            }
            if let Some(l) = &c.lines {
                if let Some(x) = &l.get_ref().x
                    && !is_axis(x)
                {
                    return Err(loc.err(
                        Some(l.span()),
                        Some("charts.lines.x"),
                        format!("`{x}` is not an axis"),
                    ));
                }
                charts.lines_x = l.get_ref().x.clone();
                charts.lines_metrics = l.get_ref().metrics.clone();
                for m in &charts.lines_metrics {
                    metrics.push(NamedMetric {
                        name: m.clone(),
                        key: "charts.lines.metrics",
                        line: loc.line_of(l.span()),
                    });
                }
            }
            charts.run = c.run.as_ref().map_or(0, |r| *r.get_ref());
        }
        let n_runs = axes
            .iter()
            .try_fold(seeds.len() as u64, |n, a| {
                n.checked_mul(a.values.len() as u64)
            })
            .filter(|&n| n <= MAX_RUNS);
        let Some(n_runs) = n_runs else {
            let sizes: Vec<String> = axes.iter().map(|a| a.values.len().to_string()).collect();
            let msg = format!(
                "too many runs: {} axis values times {} seeds exceed the limit of {MAX_RUNS} runs",
                sizes.join(" x "),
                seeds.len()
            );
            let span = raw.axis.first().map(|a| a.span());
            return Err(loc.err(span, Some("axis"), msg));
        };
        if charts.run >= n_runs {
            let msg = format!(
                "run {} is out of range: the sweep has {n_runs} runs",
                charts.run
            );
            let span = raw
                .charts
                .as_ref()
                .and_then(|c| c.run.as_ref())
                .map(|r| r.span());
            return Err(loc.err(span, Some("charts.run"), msg));
        }

        loc.check_name(raw.name.as_deref())?;
        let name = raw.name.clone().unwrap_or_else(|| {
            file.file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "sweep".to_string())
        });
        if let Some(st) = &raw.stalled_runs {
            charts.exclude_stalled = match st.get_ref().as_str() {
                "include" => false,
                "exclude" => true,
                other => {
                    let msg = format!("expected \"include\" or \"exclude\", found \"{other}\"");
                    return Err(loc.err(Some(st.span()), Some("stalled_runs"), msg));
                }
            };
        }
        if let Some(b) = &raw.baseline {
            charts.baseline = Some(parse_baseline(&loc, &axes, b)?);
        }
        let first_axis_line = match raw.axis.first() {
            Some(a) => loc.line_of(a.get_ref().path.span()),
            None => loc.line_of(raw.base.span()),
        };
        Ok(Spec {
            file: file.to_path_buf(),
            name,
            base_path,
            base_text,
            base,
            axes,
            seeds,
            charts,
            metrics,
            first_axis_line,
        })
    }
}

/// A `[queues.NAME]` setting the scenario may override, with a value of its type.
fn override_template(field: &str) -> Option<toml::Value> {
    use toml::Value::{Float, Integer, String};
    match field {
        "weight" | "max_am_share" => Some(Float(0.0)),
        "min_memory_mb" | "min_vcores" | "max_memory_mb" | "max_vcores" | "max_running_apps" => {
            Some(Integer(0))
        }
        "policy" => Some(String(std::string::String::new())),
        _ => None,
    }
}

/// For a path `queues.NAME.FIELD` the base scenario does not hold: a value of the field's type when NAME is a
/// queue of the allocation file (`queues` tells, given a full name) and FIELD a setting the scenario may
/// override, so an axis varies what the allocation file sets as `fairsim plan` does, writing it under
/// `[queues.NAME]`. `Ok(None)` for any other path; `Err` when the queue is spelt otherwise in the base
/// scenario's `[queues]` (two tables for one queue would fight).
fn queue_setting(
    base: &toml::Value,
    param: &ParamPath,
    queues: &dyn Fn(&str) -> bool,
) -> Result<Option<toml::Value>, String> {
    use super::param_path::Segment::Key;
    let [Key(top), Key(name), Key(field)] = param.0.as_slice() else {
        return Ok(None);
    };
    let Some(template) = override_template(field).filter(|_| top == "queues") else {
        return Ok(None);
    };
    let full = full_queue_name(name);
    if !queues(&full) {
        return Ok(None);
    }
    let table = match base.get("queues") {
        None => None,
        Some(toml::Value::Table(t)) => Some(t),
        Some(_) => return Ok(None),
    };
    if table.is_some_and(|t| t.get(name).is_some_and(|v| !v.is_table())) {
        return Ok(None);
    }
    let short = full.strip_prefix("root.").unwrap_or(&full);
    if let Some(other) = table.and_then(|t| {
        t.keys()
            .find(|k| *k != name && (*k == &full || *k == short))
    }) {
        return Err(format!(
            "the base scenario overrides this queue as [queues.\"{other}\"]: give the path with that spelling, `queues.\"{other}\".{field}`"
        ));
    }
    Ok(Some(template))
}

fn parse_axis(
    loc: &Locator<'_>,
    base: &toml::Value,
    queues: &dyn Fn(&str) -> bool,
    raw: &Spanned<RawAxis>,
) -> Result<Axis, SpecError> {
    let path_span = raw.get_ref().path.span();
    let path = raw.get_ref().path.get_ref().clone();
    let param =
        ParamPath::parse(&path).map_err(|m| loc.err(Some(path_span.clone()), Some(&path), m))?;
    let template;
    let base_value = match param.get(base) {
        Some(v) => v,
        None => match queue_setting(base, &param, queues)
            .map_err(|m| loc.err(Some(path_span.clone()), Some(&path), m))?
        {
            Some(v) => {
                template = v;
                &template
            }
            None => {
                let msg = "unknown parameter path: it does not exist in the base scenario";
                return Err(loc.err(Some(path_span), Some(&path), msg));
            }
        },
    };
    let raw = raw.get_ref();
    let (values, span): (Vec<(toml::Value, Range<usize>)>, Range<usize>) =
        match (&raw.values, &raw.range) {
            (Some(v), None) => (
                v.get_ref()
                    .iter()
                    .map(|x| (x.get_ref().clone(), x.span()))
                    .collect(),
                v.span(),
            ),
            (None, Some(r)) => {
                let values = expand_range(r.get_ref())
                    .map_err(|m| loc.err(Some(r.span()), Some(&path), m))?;
                (
                    values.into_iter().map(|x| (x, r.span())).collect(),
                    r.span(),
                )
            }
            _ => {
                let msg = "an axis needs exactly one of `values` or `range`";
                return Err(loc.err(Some(path_span), Some(&path), msg));
            }
        };
    if values.is_empty() {
        return Err(loc.err(Some(span), Some(&path), "empty axis: it has no values"));
    }
    let mut checked = Vec::with_capacity(values.len());
    let mut lines = Vec::with_capacity(values.len());
    for (value, span) in values {
        lines.push(loc.line_of(span.clone()));
        let value = match (&value, base_value) {
            (toml::Value::Integer(i), toml::Value::Float(_)) => toml::Value::Float(*i as f64),
            _ => value,
        };
        if std::mem::discriminant(&value) != std::mem::discriminant(base_value) {
            let msg = format!(
                "wrong value type: {value} is {} but the base scenario's value {base_value} is {}",
                type_name(&value),
                type_name(base_value)
            );
            return Err(loc.err(Some(span), Some(&path), msg));
        }
        // A value given twice would be two points with the same settings and the same seeds: their
        // runs would pool into one point of twice the runs, a narrower interval from no new data.
        if let Some(first) = checked.iter().position(|v| *v == value) {
            let msg = format!(
                "value {} is listed twice (first at line {}): each value must be distinct",
                super::param_path::value_cell(&value),
                lines[first]
            );
            return Err(loc.err(Some(span), Some(&path), msg));
        }
        checked.push(value);
    }
    Ok(Axis {
        path,
        param,
        values: checked,
        lines,
    })
}

/// The baseline point: one value per axis, each among the axis's values, as CSV cells.
fn parse_baseline(
    loc: &Locator<'_>,
    axes: &[Axis],
    b: &Spanned<toml::Table>,
) -> Result<Vec<String>, SpecError> {
    let bad = |m: String| loc.err(Some(b.span()), Some("baseline"), m);
    if let Some(k) = b
        .get_ref()
        .keys()
        .find(|k| !axes.iter().any(|a| &a.path == *k))
    {
        return Err(bad(format!("`{k}` is not an axis")));
    }
    axes.iter()
        .map(|a| {
            let v = b
                .get_ref()
                .get(&a.path)
                .ok_or_else(|| bad(format!("no value for axis `{}`", a.path)))?;
            let v = match (v, a.values.first()) {
                (toml::Value::Integer(i), Some(toml::Value::Float(_))) => {
                    toml::Value::Float(*i as f64)
                }
                _ => v.clone(),
            };
            if !a.values.contains(&v) {
                return Err(bad(format!("{v} is not a value of axis `{}`", a.path)));
            }
            Ok(super::param_path::value_cell(&v))
        })
        .collect()
}

fn expand_range(r: &RawRange) -> Result<Vec<toml::Value>, String> {
    use toml::Value::{Float, Integer};
    match (&r.from, &r.to, &r.step) {
        (Integer(from), Integer(to), Integer(step)) => {
            if *step <= 0 {
                return Err("range step must be positive".to_string());
            }
            // In i128: `to - from` of two i64 cannot overflow there.
            let n = if to < from {
                0
            } else {
                (i128::from(*to) - i128::from(*from)) / i128::from(*step) + 1
            };
            if n > MAX_RANGE_VALUES as i128 {
                return Err(format!("range has more than {MAX_RANGE_VALUES} values"));
            }
            // Each value lies between `from` and `to`, so it fits in i64; `i * step` alone may not.
            let value = |i: i128| (i128::from(*from) + i * i128::from(*step)) as i64;
            Ok((0..n).map(|i| Integer(value(i))).collect())
        }
        (from, to, step) => {
            let num = |v: &toml::Value| match v {
                Integer(i) => Some(*i as f64),
                Float(f) => Some(*f),
                _ => None,
            };
            let (Some(from), Some(to), Some(step)) = (num(from), num(to), num(step)) else {
                return Err("range `from`, `to` and `step` must be numbers".to_string());
            };
            if step.is_nan() || step <= 0.0 || !from.is_finite() || !to.is_finite() {
                return Err("range step must be positive and the bounds finite".to_string());
            }
            if to < from {
                return Ok(Vec::new());
            }
            // The decimals a person would type: counted and stepped in integers of the inputs'
            // smallest decimal unit, so 0.1 to 0.5 by 0.1 gives 0.3 (not 0.30000000000000004) and
            // includes 0.5 without any tolerance.
            if let Some((n, at)) = super::decimal::grid(from, to, step) {
                if n > MAX_RANGE_VALUES as u128 {
                    return Err(format!("range has more than {MAX_RANGE_VALUES} values"));
                }
                return Ok((0..n).map(|i| Float(at(i))).collect());
            }
            // Inputs with more decimals than that: stepped in floats.
            // A small tolerance so that `to` itself is included despite rounding of the step.
            // Counted in floats and compared before any conversion: a tiny step or a span
            // beyond f64's range (`to - from` infinite) is refused, not wrapped to a count.
            let steps = ((to - from) / step + 1e-9).floor();
            if steps.is_nan() || steps >= MAX_RANGE_VALUES as f64 {
                return Err(format!("range has more than {MAX_RANGE_VALUES} values"));
            }
            let n = steps as usize + 1;
            Ok((0..n).map(|i| Float(from + i as f64 * step)).collect())
        }
    }
}

pub(crate) fn parse_seeds(
    loc: &Locator<'_>,
    seeds: &Spanned<toml::Value>,
) -> Result<Vec<u64>, SpecError> {
    let bad = |m: &str| loc.err(Some(seeds.span()), Some("seeds"), m);
    let bad_key = |k: &str, m: &str| loc.err(Some(seeds.span()), Some(k), m);
    let as_u64 = |v: &toml::Value| v.as_integer().and_then(|i| u64::try_from(i).ok());
    // What a seed may be, for messages naming a bad one.
    let out_of_range = |v: &toml::Value, min: u64, max: u64| {
        format!("{v} is out of range: the limit is {min} to {max}")
    };
    let seed_max = i64::MAX as u64;
    match seeds.get_ref() {
        toml::Value::Array(list) => {
            if list.len() as u64 > MAX_SEEDS {
                return Err(bad(&format!(
                    "{} seeds exceed the limit of {MAX_SEEDS}",
                    list.len()
                )));
            }
            let seeds = list
                .iter()
                .map(|v| as_u64(v).ok_or_else(|| bad(&out_of_range(v, 0, seed_max))))
                .collect::<Result<Vec<u64>, _>>()?;
            if seeds.is_empty() {
                return Err(bad("empty seed list"));
            }
            // A seed listed twice runs the same workload twice at every point: its runs would
            // count twice in every mean and interval, as if they were independent.
            let mut seen = std::collections::BTreeSet::new();
            if let Some(dup) = seeds.iter().find(|s| !seen.insert(**s)) {
                return Err(bad(&format!(
                    "seed {dup} is listed twice: each seed must be distinct"
                )));
            }
            Ok(seeds)
        }
        toml::Value::Table(t) => {
            if let Some(k) = t.keys().find(|k| *k != "count" && *k != "base") {
                return Err(bad(&format!(
                    "unknown key `{k}`, expected `count` and `base`"
                )));
            }
            let count = t
                .get("count")
                .ok_or_else(|| bad_key("seeds.count", "missing: the number of seeds, 1 or more"))?;
            let count = as_u64(count)
                .filter(|c| (1..=MAX_SEEDS).contains(c))
                .ok_or_else(|| bad_key("seeds.count", &out_of_range(count, 1, MAX_SEEDS)))?;
            let base = match t.get("base") {
                None => 1,
                Some(b) => {
                    as_u64(b).ok_or_else(|| bad_key("seeds.base", &out_of_range(b, 0, seed_max)))?
                }
            };
            // base + count - 1 fits in a u64 (base < 2^63, count <= 10^6); checked all the same.
            (0..count)
                .map(|i| {
                    base.checked_add(i).ok_or_else(|| {
                        bad_key(
                            "seeds.base",
                            &format!("{base} + {i} overflows a 64-bit seed"),
                        )
                    })
                })
                .collect()
        }
        _ => Err(bad("expected a list of seeds or { count = N, base = B }")),
    }
}

/// A queue's full name: `etl` and `root.etl` both mean `root.etl`.
pub fn full_queue_name(q: &str) -> String {
    if q == "root" || q.starts_with("root.") {
        q.to_string()
    } else {
        format!("root.{q}")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_is_the_count_of_newlines_before_the_span_plus_one() {
        let text = "a = 1\n\nb = [\n  2,\n  3]\nlast";
        let loc = super::Locator::new("f.toml".into(), text);
        for start in 0..=text.len() + 3 {
            let naive = text[..start.min(text.len())].matches('\n').count() + 1;
            assert_eq!(loc.line_of(start..start), naive, "offset {start}");
        }
    }

    use super::*;

    fn range(from: toml::Value, to: toml::Value, step: toml::Value) -> Vec<toml::Value> {
        expand_range(&RawRange { from, to, step }).unwrap()
    }

    #[test]
    fn ranges_include_their_end() {
        use toml::Value::{Float, Integer};
        assert_eq!(range(Integer(0), Integer(4096), Integer(1024)).len(), 5);
        let f = range(Float(0.1), Float(0.3), Float(0.1));
        assert_eq!(f, [0.1, 0.2, 0.3].map(Float));
        // Stepping in floats gave 0.30000000000000004 and 0.7000000000000001 here.
        assert_eq!(
            range(Float(0.0), Float(1.0), Float(0.1)),
            [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0].map(Float)
        );
        assert!(range(Integer(3), Integer(1), Integer(1)).is_empty());
    }

    #[test]
    fn ranges_too_long_to_count_are_refused_not_wrapped() {
        use toml::Value::{Float, Integer};
        let err = |from, to, step| expand_range(&RawRange { from, to, step }).unwrap_err();
        let too_many = "range has more than 100000 values";
        // 1 / 1e-300 steps: the count does not fit a usize (it once overflowed to 0 values).
        assert_eq!(err(Float(1.0), Float(2.0), Float(1e-300)), too_many);
        // 1e308 - (-1e308) is infinite in f64.
        assert_eq!(err(Float(-1e308), Float(1e308), Float(1.0)), too_many);
        // i64::MAX - i64::MIN overflows i64: (2^64 - 1) / 2^62 + 1 = 4 values in exact
        // arithmetic, found without overflow.
        let wide = range(Integer(i64::MIN), Integer(i64::MAX), Integer(1 << 62));
        assert_eq!(wide, [i64::MIN, -(1i64 << 62), 0, 1 << 62].map(Integer));
        assert_eq!(
            err(Integer(i64::MIN), Integer(i64::MAX), Integer(1)),
            too_many
        );
        // 100000 values is the limit itself: 0..=99999.
        assert_eq!(
            range(Integer(0), Integer(99_999), Integer(1)).len(),
            100_000
        );
        assert_eq!(err(Integer(0), Integer(100_000), Integer(1)), too_many);
        assert_eq!(
            range(Float(0.0), Float(99_999.0), Float(1.0)).len(),
            100_000
        );
        assert_eq!(err(Float(0.0), Float(100_000.0), Float(1.0)), too_many);
    }
}
