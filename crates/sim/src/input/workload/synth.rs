//! SLS SYNTH generator files (`syn.json`, SLS's `--tracetype=SYNTH`): workloads chosen by
//! weight, each with a queue, job classes chosen by weight and time buckets of arrivals;
//! per job class, task counts, run times, memory and vcores as distributions given by mean
//! and standard deviation, for maps and reduces separately. Drawn as SLS's
//! `SynthTraceJobProducer` and `SynthJob` draw them, from the run's seeded stream, so the
//! same seed gives the same jobs (the file's `rand_seed` is not used).
//!
//! Per job: a workload by `workload_weight`; an arrival from `time_distribution` (a bucket by
//! `weight`, then uniform whole seconds from its `time` to the next bucket's); a job class
//! by `class_weight`; for each task type, a count, a memory size (at least 1024 MB) and a
//! vcore count (at least 1) per job, and a run time per task. Jobs are named
//! `<class_name>_<NNNNNN>` in arrival order; arrivals are shifted as SLS shifts them (see
//! [`SynthSpec::generate`]).
//!
//! A sample is `{"val": v}` (constant), `{"val": mean, "std": sd}` (log-normal with that
//! mean and standard deviation, SLS's default; `"dist": "NORM"` for a normal), or
//! `{"discrete": [...], "weights": [...]}`. The older flat fields (`mtasks_avg`,
//! `mtasks_stddev`, `mtime_avg`, `map_max_memory_avg`, …) are log-normal samples with
//! priorities 20 (maps) and 10 (reduces). A standard deviation of 0 means mean / 6, as in
//! SLS. Every mistake is refused with the line and the field's path.

use super::synthetic::uniform;
use super::{SlsDefaults, WorkloadError};
use crate::app::{AppSpec, TaskGroup};
use crate::time::SimTime;
use fairsim_core::Resource;
use rand_chacha::ChaCha8Rng;
use serde::de::{Error as _, IgnoredAny};
use serde::{Deserialize, Deserializer};
use std::path::Path;

/// Largest `num_jobs` accepted (docs/limits.md).
pub const MAX_JOBS: u64 = crate::limits::MAX_APPS;
pub use crate::limits::{MAX_EXPECTED_TASKS, MAX_TASKS_PER_DRAW};

const WEIGHTS: &str = "workload_weight, class_weight, time_distribution and discrete weights";

/// How a SYNTH task's `time` is read: SLS's code runs it as milliseconds; its documentation
/// and the file comments call it seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskTimeUnit {
    /// Milliseconds, as SLS's code runs it.
    #[default]
    Ms,
    /// Seconds, as SLS's documentation says.
    S,
}

/// A parsed SYNTH file, ready to draw jobs from.
#[derive(Debug, Clone, PartialEq)]
pub struct SynthSpec {
    num_jobs: u64,
    /// The file and the line of `num_jobs`, for a run whose draws pass a limit.
    source: (std::path::PathBuf, u64),
    workloads: Vec<Workload>,
    defaults: SlsDefaults,
    time_unit: TaskTimeUnit,
    /// What the file holds that fairsim does not model.
    pub warnings: Vec<String>,
}

/// One value SLS draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Sample {
    /// Always this value.
    Const(f64),
    /// Log-normal with these log-space parameters.
    LogNormal {
        /// Mean of the log.
        mu: f64,
        /// Standard deviation of the log.
        sigma: f64,
        /// The mean it was given.
        mean: f64,
    },
    /// Normal.
    Normal {
        /// Mean.
        mean: f64,
        /// Standard deviation.
        std: f64,
    },
    /// One of these values, by weight.
    Discrete {
        /// Values.
        values: Vec<f64>,
        /// Weights (sum > 0).
        weights: Vec<f64>,
    },
}

/// Φ(z), the standard normal distribution function, from the complementary error function
/// (Chebyshev fit of Numerical Recipes' `erfcc`, relative error below 1.2e-7 everywhere).
fn normal_cdf(z: f64) -> f64 {
    let x = -z / std::f64::consts::SQRT_2;
    let a = x.abs();
    let t = 1.0 / (1.0 + 0.5 * a);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * (-a * a + poly).exp();
    0.5 * if x >= 0.0 { erfc } else { 2.0 - erfc }
}

/// E[max(X − a, 0)] for X normal with `mean` and `std` > 0.
fn normal_excess(mean: f64, std: f64, a: f64) -> f64 {
    let d = (mean - a) / std;
    let density = (-0.5 * d * d).exp() / (std::f64::consts::TAU).sqrt();
    ((mean - a) * normal_cdf(d) + std * density).max(0.0)
}

fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u1, u2) = (uniform(rng), uniform(rng));
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// The index `SynthUtils.getWeighted` picks: the first whose running sum exceeds
/// `u × total`.
fn weighted(weights: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let total: f64 = weights.iter().sum();
    let r = uniform(rng) * total;
    let mut cur = 0.0;
    for (i, w) in weights.iter().enumerate() {
        cur += w;
        if cur > r {
            return i;
        }
    }
    weights.len() - 1
}

impl Sample {
    /// A distribution with this mean and standard deviation, as `SynthUtils` builds it.
    fn dist(mean: f64, std: f64, normal: bool) -> Result<Sample, String> {
        let row = crate::limits::limit("sls synth", "val and std of a distribution");
        row.check_float(mean).map_err(|m| format!("val {m}"))?;
        row.check_float(std).map_err(|m| format!("std {m}"))?;
        // SLS fails on a mean of 0 (it builds no distribution); 0 is what was meant.
        if mean == 0.0 {
            return Ok(Sample::Const(0.0));
        }
        let std = if std == 0.0 { mean / 6.0 } else { std };
        if normal {
            return Ok(Sample::Normal { mean, std });
        }
        let sigma2 = (std * std / (mean * mean)).ln_1p();
        Ok(Sample::LogNormal {
            mu: mean.ln() - 0.5 * sigma2,
            sigma: sigma2.sqrt(),
            mean,
        })
    }

    /// The distribution's mean.
    fn mean(&self) -> f64 {
        match self {
            Sample::Const(v) => *v,
            Sample::LogNormal { mean, .. } | Sample::Normal { mean, .. } => *mean,
            Sample::Discrete { values, weights } => {
                let total: f64 = weights.iter().sum();
                values.iter().zip(weights).map(|(v, w)| v * w).sum::<f64>() / total
            }
        }
    }

    /// The mean of a task count drawn from it as a job draws one: rounded, then cut to
    /// `0..=cap`. Not the distribution's own mean: a normal of mean 1 and deviation 10^6
    /// draws about 400,000 tasks on average once its negative half counts as 0, and a
    /// discrete list's large values count in full whatever its small ones are. Continuous
    /// distributions are taken unrounded (rounding half up moves a spread-out mean by
    /// nothing that matters to a limit).
    fn count_mean(&self, cap: f64) -> f64 {
        let cut = |v: f64| ((v + 0.5).floor()).clamp(0.0, cap);
        match self {
            Sample::Const(v) => cut(*v),
            Sample::Discrete { values, weights } => {
                let total: f64 = weights.iter().sum();
                values
                    .iter()
                    .zip(weights)
                    .map(|(v, w)| cut(*v) * w)
                    .sum::<f64>()
                    / total
            }
            Sample::Normal { mean, std } => {
                normal_excess(*mean, *std, 0.0) - normal_excess(*mean, *std, cap)
            }
            Sample::LogNormal { mu, sigma, mean } => {
                if *sigma == 0.0 {
                    return mean.min(cap);
                }
                // E[min(X, cap)] = E[X] - E[max(X - cap, 0)], the latter in closed form.
                let l = cap.ln();
                let excess = mean * normal_cdf((mu + sigma * sigma - l) / sigma)
                    - cap * normal_cdf((mu - l) / sigma);
                (mean - excess.max(0.0)).clamp(0.0, cap)
            }
        }
    }

    /// One draw.
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> f64 {
        match self {
            Sample::Const(v) => *v,
            Sample::LogNormal { mu, sigma, .. } => (mu + sigma * standard_normal(rng)).exp(),
            Sample::Normal { mean, std } => mean + std * standard_normal(rng),
            Sample::Discrete { values, weights } => values[weighted(weights, rng)],
        }
    }

    /// One draw rounded as Java's `Math.round` (half up).
    fn draw_round(&self, rng: &mut ChaCha8Rng) -> f64 {
        (self.draw(rng) + 0.5).floor()
    }
}

#[derive(Deserialize)]
struct RawSample {
    val: Option<f64>,
    std: Option<f64>,
    dist: Option<String>,
    discrete: Option<Vec<serde_json::Value>>,
    weights: Option<Vec<f64>>,
}

impl<'de> Deserialize<'de> for Sample {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawSample::deserialize(d)?;
        let err = |m: &dyn std::fmt::Display| D::Error::custom(m);
        match (raw.val, raw.std) {
            (Some(v), None) => {
                if raw.dist.is_some() || raw.discrete.is_some() || raw.weights.is_some() {
                    return Err(err(
                        &"a constant (`val` alone) takes no `dist`, `discrete` or `weights`",
                    ));
                }
                if !v.is_finite() {
                    return Err(err(&"`val` must be finite"));
                }
                // As the `val` of a distribution is: a negative count, time or size is a
                // mistake, not a draw of 0.
                crate::limits::limit("sls synth", "val and std of a distribution")
                    .check_float(v)
                    .map_err(|m| err(&format!("val {m}")))?;
                Ok(Sample::Const(v))
            }
            (Some(v), Some(s)) => {
                if raw.discrete.is_some() || raw.weights.is_some() {
                    return Err(err(
                        &"a distribution (`val`, `std`) takes no `discrete` or `weights`",
                    ));
                }
                let normal = match raw.dist.as_deref() {
                    None | Some("LOGNORM") => false,
                    Some("NORM") => true,
                    Some(other) => {
                        return Err(err(&format!(
                            "`dist` is `{other}`; expected LOGNORM or NORM"
                        )));
                    }
                };
                Sample::dist(v, s, normal).map_err(|m| err(&m))
            }
            (None, Some(_)) => Err(err(&"`std` without `val`")),
            (None, None) => {
                let Some(discrete) = raw.discrete else {
                    return Err(err(&"give `val` (and `std`) or `discrete`"));
                };
                let values = discrete
                    .iter()
                    .map(|v| {
                        match v {
                            serde_json::Value::Number(n) => n.as_f64(),
                            serde_json::Value::String(s) => s.trim().parse::<f64>().ok(),
                            _ => None,
                        }
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| err(&format!("discrete value `{v}` is not a number")))
                    })
                    .collect::<Result<Vec<f64>, _>>()?;
                let row = crate::limits::limit("sls synth", "discrete values of a distribution");
                for v in &values {
                    row.check_float(*v)
                        .map_err(|m| err(&format!("discrete value {m}")))?;
                }
                let weights = raw.weights.unwrap_or_else(|| vec![1.0; values.len()]);
                if values.is_empty() || weights.len() != values.len() {
                    return Err(err(
                        &"`discrete` needs values, and as many `weights` as values",
                    ));
                }
                check_weights(&weights).map_err(|m| err(&m))?;
                Ok(Sample::Discrete { values, weights })
            }
        }
    }
}

/// Refuses a task entry whose mean count or time is beyond the limits (docs/limits.md): its
/// draws would all be cut, or hold the run for centuries of simulated time.
fn check_task_means(t: &TaskDef) -> Result<(), String> {
    let count = t.count.mean();
    if count > MAX_TASKS_PER_DRAW {
        return Err(format!(
            "{} task count: a mean of {} tasks is above the limit of {MAX_TASKS_PER_DRAW} per job (docs/limits.md)",
            t.kind,
            readable(count)
        ));
    }
    let time = t.time.mean();
    let max_time = crate::limits::MAX_TIME_MS as f64;
    if time > max_time {
        return Err(format!(
            "{} task time: a mean of {} is above the limit of {max_time} ms (docs/limits.md)",
            t.kind,
            readable(time)
        ));
    }
    // Container sizes go into the trace as its rows' `memory_mb` and `vcores`: a Java int.
    let max_size = crate::limits::JAVA_INT_MAX as f64;
    for (what, mean) in [("memory", t.memory.mean()), ("vcores", t.vcores.mean())] {
        if mean > max_size {
            return Err(format!(
                "{} task {what}: a mean of {} is above the limit of {max_size} (Hadoop 2.7 keeps it in a Java int; docs/limits.md)",
                t.kind,
                readable(mean)
            ));
        }
    }
    Ok(())
}

/// A number as a person reads it: plain up to 10^15, in exponent form above.
fn readable(x: f64) -> String {
    if x.abs() < 1e15 {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

fn check_weights(weights: &[f64]) -> Result<(), String> {
    for w in weights {
        crate::limits::limit("sls synth", WEIGHTS).check_float(*w)?;
    }
    if weights.iter().sum::<f64>() <= 0.0 {
        return Err("the weights sum to 0: nothing can be chosen".into());
    }
    Ok(())
}

#[derive(Debug, Clone, PartialEq)]
struct TaskDef {
    kind: String,
    count: Sample,
    time: Sample,
    memory: Sample,
    vcores: Sample,
    priority: i32,
}

#[derive(Deserialize)]
struct RawTaskDef {
    #[serde(rename = "type")]
    kind: String,
    count: Sample,
    time: Sample,
    max_memory: Sample,
    max_vcores: Sample,
    #[serde(default)]
    priority: i32,
    execution_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
struct JobClass {
    name: String,
    user: String,
    weight: f64,
    tasks: Vec<TaskDef>,
    unmodelled: Vec<&'static str>,
}

fn weight<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let w = f64::deserialize(d)?;
    crate::limits::limit("sls synth", WEIGHTS)
        .check_float(w)
        .map_err(|m| D::Error::custom(format!("weight {m}")))
}

#[derive(Deserialize)]
struct RawJobClass {
    class_name: Option<String>,
    user_name: Option<String>,
    #[serde(deserialize_with = "weight")]
    class_weight: f64,
    #[serde(rename = "type")]
    kind: Option<String>,
    reservation: Option<Sample>,
    deadline_factor: Option<IgnoredAny>,
    duration: Option<IgnoredAny>,
    params: Option<IgnoredAny>,
    tasks: Option<Vec<RawTaskDef>>,
    #[serde(default)]
    chance_of_reservation: f64,
    #[serde(default)]
    mtasks_avg: f64,
    #[serde(default)]
    mtasks_stddev: f64,
    #[serde(default)]
    rtasks_avg: f64,
    #[serde(default)]
    rtasks_stddev: f64,
    #[serde(default)]
    mtime_avg: f64,
    #[serde(default)]
    mtime_stddev: f64,
    #[serde(default)]
    rtime_avg: f64,
    #[serde(default)]
    rtime_stddev: f64,
    #[serde(default)]
    map_max_memory_avg: f64,
    #[serde(default)]
    map_max_memory_stddev: f64,
    #[serde(default)]
    reduce_max_memory_avg: f64,
    #[serde(default)]
    reduce_max_memory_stddev: f64,
    #[serde(default)]
    map_max_vcores_avg: f64,
    #[serde(default)]
    map_max_vcores_stddev: f64,
    #[serde(default)]
    reduce_max_vcores_avg: f64,
    #[serde(default)]
    reduce_max_vcores_stddev: f64,
    map_execution_type: Option<String>,
    reduce_execution_type: Option<String>,
}

impl<'de> Deserialize<'de> for JobClass {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = RawJobClass::deserialize(d)?;
        let _ = (&r.deadline_factor, &r.duration, &r.params);
        let mut unmodelled = Vec::new();
        if r.kind.as_deref().is_some_and(|k| k != "mapreduce") {
            unmodelled.push("job type other than mapreduce (run as mapreduce)");
        }
        let reserves = r.chance_of_reservation > 0.0
            || r.reservation
                .as_ref()
                .is_some_and(|s| *s != Sample::Const(0.0));
        if reserves {
            unmodelled.push("reservations and deadlines");
        }
        let not_guaranteed = |t: &Option<String>| t.as_deref().is_some_and(|t| t != "GUARANTEED");
        let tasks = match r.tasks {
            Some(ts) => {
                let mut out = Vec::new();
                for t in ts {
                    if not_guaranteed(&t.execution_type) {
                        unmodelled.push("execution types other than GUARANTEED");
                    }
                    if t.kind != "map" && t.kind != "reduce" {
                        unmodelled.push("task types other than map and reduce (run as maps)");
                    }
                    out.push(TaskDef {
                        kind: t.kind,
                        count: t.count,
                        time: t.time,
                        memory: t.max_memory,
                        vcores: t.max_vcores,
                        priority: t.priority,
                    });
                }
                out
            }
            None => {
                if not_guaranteed(&r.map_execution_type) || not_guaranteed(&r.reduce_execution_type)
                {
                    unmodelled.push("execution types other than GUARANTEED");
                }
                let s = |m: f64, sd: f64, what: &str| {
                    Sample::dist(m, sd, false).map_err(|e| D::Error::custom(format!("{what}: {e}")))
                };
                vec![
                    TaskDef {
                        kind: "map".into(),
                        count: s(r.mtasks_avg, r.mtasks_stddev, "mtasks")?,
                        time: s(r.mtime_avg, r.mtime_stddev, "mtime")?,
                        memory: s(
                            r.map_max_memory_avg,
                            r.map_max_memory_stddev,
                            "map_max_memory",
                        )?,
                        vcores: s(
                            r.map_max_vcores_avg,
                            r.map_max_vcores_stddev,
                            "map_max_vcores",
                        )?,
                        priority: 20,
                    },
                    TaskDef {
                        kind: "reduce".into(),
                        count: s(r.rtasks_avg, r.rtasks_stddev, "rtasks")?,
                        time: s(r.rtime_avg, r.rtime_stddev, "rtime")?,
                        memory: s(
                            r.reduce_max_memory_avg,
                            r.reduce_max_memory_stddev,
                            "reduce_max_memory",
                        )?,
                        vcores: s(
                            r.reduce_max_vcores_avg,
                            r.reduce_max_vcores_stddev,
                            "reduce_max_vcores",
                        )?,
                        priority: 10,
                    },
                ]
            }
        };
        for t in &tasks {
            check_task_means(t).map_err(D::Error::custom)?;
        }
        Ok(JobClass {
            name: r.class_name.unwrap_or_else(|| "job".into()),
            user: r.user_name.unwrap_or_else(|| "default".into()),
            weight: r.class_weight,
            tasks,
            unmodelled,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct TimeSample {
    #[serde(deserialize_with = "bucket_time")]
    time: u32,
    #[serde(deserialize_with = "weight")]
    weight: f64,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
struct Workload {
    #[serde(deserialize_with = "weight")]
    workload_weight: f64,
    queue_name: String,
    #[serde(deserialize_with = "job_classes")]
    job_classes: Vec<JobClass>,
    #[serde(deserialize_with = "time_distribution")]
    time_distribution: Vec<TimeSample>,
}

fn job_classes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<JobClass>, D::Error> {
    let v = Vec::<JobClass>::deserialize(d)?;
    check_weights(&v.iter().map(|c| c.weight).collect::<Vec<_>>())
        .map_err(|e| D::Error::custom(format!("class_weight: {e}")))?;
    Ok(v)
}

fn time_distribution<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<TimeSample>, D::Error> {
    let v = Vec::<TimeSample>::deserialize(d)?;
    check_weights(&v.iter().map(|c| c.weight).collect::<Vec<_>>())
        .map_err(|e| D::Error::custom(format!("weight: {e}")))?;
    Ok(v)
}

fn workloads<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Workload>, D::Error> {
    let v = Vec::<Workload>::deserialize(d)?;
    check_weights(&v.iter().map(|c| c.workload_weight).collect::<Vec<_>>())
        .map_err(|e| D::Error::custom(format!("workload_weight: {e}")))?;
    Ok(v)
}

fn bucket_time<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let t = u32::deserialize(d)?;
    crate::limits::limit("sls synth", "time_distribution[*].time (s)")
        .check_int(t.into())
        .map_err(D::Error::custom)?;
    Ok(t)
}

fn num_jobs<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    let n = u64::deserialize(d)?;
    crate::limits::limit("sls synth", "num_jobs")
        .check_int(n.into())
        .map_err(D::Error::custom)?;
    Ok(n)
}

#[derive(Deserialize)]
struct RawTrace {
    #[serde(deserialize_with = "num_jobs")]
    num_jobs: u64,
    #[serde(deserialize_with = "workloads")]
    workloads: Vec<Workload>,
    num_nodes: Option<IgnoredAny>,
    nodes_per_rack: Option<IgnoredAny>,
    rand_seed: Option<IgnoredAny>,
    // Keys of the other SLS inputs, to say what a wrong file looks like.
    #[serde(rename = "jobID")]
    rumen: Option<IgnoredAny>,
    #[serde(rename = "job.tasks")]
    sls: Option<IgnoredAny>,
    #[serde(rename = "job.start.ms")]
    sls_start: Option<IgnoredAny>,
    rack: Option<IgnoredAny>,
}

/// Reads a SYNTH file from `path`.
pub fn read_synth(
    path: &Path,
    defaults: SlsDefaults,
    time_unit: TaskTimeUnit,
) -> Result<SynthSpec, WorkloadError> {
    let text = crate::limits::read_text_file(path).map_err(|source| WorkloadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_synth(path, text.as_bytes(), defaults, time_unit)
}

/// Parses a SYNTH file's bytes (`name` is for messages).
pub fn parse_synth(
    name: &Path,
    bytes: &[u8],
    defaults: SlsDefaults,
    time_unit: TaskTimeUnit,
) -> Result<SynthSpec, WorkloadError> {
    // A byte-order mark, as editors on Windows write one, is not part of the JSON (Jackson
    // skips it when it reads bytes).
    let bytes = bytes
        .strip_prefix(super::json_stream::UTF8_BOM)
        .unwrap_or(bytes);
    let perr = |line: u64, field: String, message: String| WorkloadError::Parse {
        path: name.to_path_buf(),
        line,
        field,
        message,
    };
    // Say what another SLS input looks like before complaining about missing keys. SLS job
    // traces, Rumen histories and nodes files are streams of objects (with `//` comments in
    // SLS's samples): their first object tells.
    let mut first = super::json_stream::ObjectStream::with_comments(bytes);
    if let Ok(super::json_stream::Next::Object(line)) = first.next_start()
        && let Ok(m) = first.read::<serde_json::Map<String, serde_json::Value>>()
        && !m.contains_key("workloads")
        // Keys of SYNTH's own never tell it to read the file with `synth =`, which it does.
        && let Some(what) = super::looks_like(
            m.keys()
                .map(String::as_str)
                .filter(|k| !matches!(*k, "num_jobs" | "job_classes" | "rand_seed")),
        )
    {
        return Err(perr(
            line,
            "json".into(),
            format!("not an SLS SYNTH file: this looks like {what}"),
        ));
    }
    let json_err = |path: String, inner: serde_json::Error| {
        let msg = inner.to_string();
        let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]);
        if path.is_empty() || path == "." {
            return perr(inner.line() as u64, "json".into(), msg.to_string());
        }
        // A value checked once read (a weight, a sum of weights, a missing field) is
        // reported where serde stands, after it: name the line of its key instead.
        let line = match inner.classify() {
            serde_json::error::Category::Data => crate::json_lines::value_line(bytes, 1, &path),
            _ => inner.line() as u64,
        };
        perr(line, path, msg.to_string())
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let raw: RawTrace = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        json_err(path, e.into_inner())
    })?;
    de.end().map_err(|e| json_err(String::new(), e))?;
    let _ = (&raw.rumen, &raw.sls, &raw.sls_start, &raw.rack);
    let expected = raw.num_jobs as f64 * mean_tasks_per_job(&raw.workloads);
    if expected > MAX_EXPECTED_TASKS {
        return Err(perr(
            crate::json_lines::value_line(bytes, 1, "num_jobs"),
            "num_jobs".into(),
            format!(
                "{} jobs would draw about {expected:.0} tasks: the limit is {MAX_EXPECTED_TASKS} tasks in a run (docs/limits.md)",
                raw.num_jobs
            ),
        ));
    }
    let mut notes: Vec<&str> = Vec::new();
    if raw.num_nodes.is_some() || raw.nodes_per_rack.is_some() {
        notes.push("num_nodes and nodes_per_rack (the cluster is the scenario's)");
    }
    if raw.rand_seed.is_some() {
        notes.push("rand_seed (jobs are drawn from the run's seed)");
    }
    for w in &raw.workloads {
        for c in &w.job_classes {
            notes.extend(c.unmodelled.iter().copied());
        }
    }
    notes.push("task host hints (SLS draws them from its node map's order)");
    notes.sort_unstable();
    notes.dedup();
    let warnings = vec![format!(
        "{}: SYNTH fields fairsim does not model, ignored: {}",
        name.display(),
        notes.join(", ")
    )];
    Ok(SynthSpec {
        num_jobs: raw.num_jobs,
        source: (
            name.to_path_buf(),
            crate::json_lines::value_line(bytes, 1, "num_jobs"),
        ),
        workloads: raw.workloads,
        defaults,
        time_unit,
        warnings,
    })
}

/// The mean number of tasks of one job, over the workload and class weights.
fn mean_tasks_per_job(workloads: &[Workload]) -> f64 {
    let share = |w: f64, total: f64| if total > 0.0 { w / total } else { 0.0 };
    let wl_total: f64 = workloads.iter().map(|w| w.workload_weight).sum();
    workloads
        .iter()
        .map(|w| {
            let class_total: f64 = w.job_classes.iter().map(|c| c.weight).sum();
            let tasks: f64 = w
                .job_classes
                .iter()
                .map(|c| {
                    let per_class: f64 = c
                        .tasks
                        .iter()
                        .map(|t| t.count.count_mean(MAX_TASKS_PER_DRAW))
                        .sum();
                    share(c.weight, class_total) * per_class
                })
                .sum();
            share(w.workload_weight, wl_total) * tasks
        })
        .sum()
}

impl SynthSpec {
    /// The number of jobs a run draws (for the run's memory estimate).
    pub fn jobs(&self) -> u64 {
        self.num_jobs
    }

    /// The number of tasks a run is expected to draw.
    pub fn expected_tasks(&self) -> f64 {
        self.num_jobs as f64 * mean_tasks_per_job(&self.workloads)
    }

    /// Bytes a run is expected to hold for the jobs it draws (the expected tasks each a
    /// group of their own, as tasks of drawn run times are).
    pub fn expected_bytes(&self) -> u64 {
        let groups = self.expected_tasks() * super::budget::BYTES_PER_GROUP as f64;
        self.num_jobs
            .saturating_mul(super::budget::BYTES_PER_APP)
            .saturating_add(groups.min(u64::MAX as f64) as u64)
    }

    /// Draws the jobs of one run, sorted by arrival, as SLS does: for each of `num_jobs`, a
    /// workload, an arrival and a job class by weight, then its tasks. Arrivals are then
    /// shifted as SLS shifts them: the first job with a non-zero submission time becomes
    /// time 0 for it and every later job (so jobs at 0 before it stay at 0).
    ///
    /// The file was checked for the tasks it draws on average; the tasks actually drawn are
    /// counted as each count is drawn, before its tasks are made, and a run whose draws
    /// would pass the memory or container limit of a run is refused (naming the file, the
    /// line of `num_jobs` and the limit) rather than drawn without bound.
    pub fn generate(&self, rng: &mut ChaCha8Rng) -> Result<Vec<AppSpec>, String> {
        let mut budget = super::budget::Budget::default();
        let refuse = |e: super::budget::Exceeded| {
            format!(
                "{}:{}: num_jobs: the tasks this run's seed draws pass a limit: {e}",
                self.source.0.display(),
                self.source.1
            )
        };
        let wl_weights: Vec<f64> = self.workloads.iter().map(|w| w.workload_weight).collect();
        let mut jobs: Vec<(u64, AppSpec)> = Vec::with_capacity(self.num_jobs as usize);
        for _ in 0..self.num_jobs {
            budget
                .admit(1, super::budget::AppCost::new())
                .map_err(refuse)?;
            let wl = &self.workloads[weighted(&wl_weights, rng)];
            let submit_ms = submission_s(&wl.time_distribution, rng) * 1000;
            let cw: Vec<f64> = wl.job_classes.iter().map(|c| c.weight).collect();
            let class = &wl.job_classes[weighted(&cw, rng)];
            let mut stages: Vec<Vec<TaskGroup>> = vec![Vec::new()];
            for t in &class.tasks {
                let n = t.count.draw_round(rng).clamp(0.0, MAX_TASKS_PER_DRAW) as u32;
                // At most a group per task: priced before they are drawn.
                budget
                    .add(super::budget::AppCost {
                        containers: n.into(),
                        bytes: u64::from(n) * super::budget::BYTES_PER_GROUP,
                    })
                    .map_err(refuse)?;
                // A draw in the tail is cut to a Java int, as the trace's rows hold it.
                let max_size = crate::limits::JAVA_INT_MAX as f64;
                let mb = t.memory.draw_round(rng).max(1024.0).min(max_size) as i64;
                let vc = t.vcores.draw_round(rng).max(1.0).min(max_size) as i64;
                let stage = usize::from(t.kind == "reduce");
                if stages.len() <= stage {
                    stages.resize(stage + 1, Vec::new());
                }
                let group = &mut stages[stage];
                for _ in 0..n {
                    let time = t.time.draw_round(rng).max(0.0);
                    let ms = match self.time_unit {
                        TaskTimeUnit::Ms => time,
                        TaskTimeUnit::S => time * 1000.0,
                    }
                    .min(crate::limits::MAX_TIME_MS as f64) as u64;
                    // Tasks in a row with the same size and time are one group.
                    match group.last_mut() {
                        Some(g)
                            if g.duration_ms == ms
                                && g.size == Resource::new(mb, vc)
                                && g.priority == t.priority =>
                        {
                            g.count += 1
                        }
                        _ => group.push(TaskGroup {
                            count: 1,
                            size: Resource::new(mb, vc),
                            duration_ms: ms,
                            priority: t.priority,
                            hosts: Vec::new(),
                            relax_locality: true,
                        }),
                    }
                }
            }
            jobs.push((
                submit_ms,
                AppSpec {
                    name: class.name.clone(),
                    arrival: SimTime(0),
                    queue: wl.queue_name.clone(),
                    user: class.user.clone(),
                    am: Some(self.defaults.am),
                    stages,
                    recorded: None,
                },
            ));
        }
        jobs.sort_by_key(|(t, _)| *t);
        let mut baseline = 0u64;
        Ok(jobs
            .into_iter()
            .enumerate()
            .map(|(i, (t, mut app))| {
                if baseline == 0 {
                    baseline = t;
                }
                app.arrival = SimTime(t.saturating_sub(baseline));
                app.name = format!("{}_{i:06}", app.name);
                app
            })
            .collect())
    }
}

/// A submission time in seconds: a bucket by weight, then uniform whole seconds up to the
/// next bucket's time (`Workload.generateSubmissionTime`).
fn submission_s(buckets: &[TimeSample], rng: &mut ChaCha8Rng) -> u64 {
    let w: Vec<f64> = buckets.iter().map(|b| b.weight).collect();
    let i = weighted(&w, rng);
    let start = buckets[i].time as u64;
    let end = buckets.get(i + 1).map_or(start, |b| b.time as u64);
    let range = end.saturating_sub(start);
    if range > 0 {
        start + ((uniform(rng) * range as f64) as u64).min(range - 1)
    } else {
        start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::synthetic::run_rng;

    fn parse(text: &str) -> Result<SynthSpec, WorkloadError> {
        parse_synth(
            Path::new("syn.json"),
            text.as_bytes(),
            SlsDefaults::default(),
            TaskTimeUnit::Ms,
        )
    }

    #[test]
    fn lognormal_keeps_the_mean_and_standard_deviation() {
        let s = Sample::dist(10.0, 2.0, false).unwrap();
        let mut rng = run_rng(7, 0);
        let n = 200_000;
        let xs: Vec<f64> = (0..n).map(|_| s.draw(&mut rng)).collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        assert!((mean - 10.0).abs() < 0.05, "{mean}");
        assert!((var.sqrt() - 2.0).abs() < 0.05, "{}", var.sqrt());
        // A standard deviation of 0 is mean / 6, as in SLS.
        assert_eq!(
            Sample::dist(6.0, 0.0, true).unwrap(),
            Sample::Normal {
                mean: 6.0,
                std: 1.0
            }
        );
    }

    #[test]
    fn weighted_choice_follows_the_weights() {
        let mut rng = run_rng(3, 0);
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[weighted(&[1.0, 0.0, 2.0], &mut rng)] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!(
            (counts[2] as f64 / counts[0] as f64 - 2.0).abs() < 0.1,
            "{counts:?}"
        );
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped() {
        // The same mistake with a byte-order mark before it: the mark is not the error, and
        // the line of the bad weight stays 5.
        let text = "\u{feff}{\n \"num_jobs\": 2,\n \"workloads\": [ {\n  \"workload_weight\": 1, \"queue_name\": \"q\",\n  \"job_classes\": [ { \"class_weight\": -1 } ],\n  \"time_distribution\": [ {\"time\": 0, \"weight\": 1} ] } ] }";
        let e = parse(text).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "syn.json:5: workloads[0].job_classes[0].class_weight: weight -1 is out of range"
            ),
            "{e}"
        );
    }

    #[test]
    fn mistakes_name_line_and_path() {
        let text = "{\n \"num_jobs\": 2,\n \"workloads\": [ {\n  \"workload_weight\": 1, \"queue_name\": \"q\",\n  \"job_classes\": [ { \"class_weight\": -1 } ],\n  \"time_distribution\": [ {\"time\": 0, \"weight\": 1} ] } ] }";
        let e = parse(text).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "syn.json:5: workloads[0].job_classes[0].class_weight: weight -1 is out of range"
            ),
            "{e}"
        );
        let text = r#"{ "num_jobs": 1, "workloads": [ { "workload_weight": 1, "queue_name": "q",
  "job_classes": [ { "class_weight": 1, "tasks": [ { "type": "map", "count": {"val": 2, "std": 1, "dist": "UNIFORM"},
     "time": {"val": 1}, "max_memory": {"val": 1}, "max_vcores": {"val": 1} } ] } ],
  "time_distribution": [ {"time": 0, "weight": 0} ] } ] }"#;
        let e = parse(text).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "syn.json:2: workloads[0].job_classes[0].tasks[0].count: `dist` is `UNIFORM`"
            ),
            "{e}"
        );
        // Weights that sum to 0 are found at the end of the list: the line is the key's.
        let text = "{ \"num_jobs\": 1, \"workloads\": [ { \"workload_weight\": 1, \"queue_name\": \"q\",\n\
            \"job_classes\": [ { \"class_weight\": 1 } ],\n\
            \"time_distribution\": [\n {\"time\": 0, \"weight\": 0},\n {\"time\": 5, \"weight\": 0}\n] } ] }";
        let e = parse(text).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "syn.json:3: workloads[0].time_distribution: weight: the weights sum to 0"
            ),
            "{e}"
        );
        let e = parse("{\"job.start.ms\": 0, \"job.tasks\": []}")
            .unwrap_err()
            .to_string();
        assert!(e.contains("looks like an SLS JSON job trace"), "{e}");
    }

    #[test]
    fn a_stream_of_sls_or_rumen_jobs_is_named_for_what_it_is() {
        // SLS's sample traces: several job objects, `//` comments between them.
        let sls = "// two jobs\n{\"job.start.ms\": 0, \"job.tasks\": []}\n{\"job.start.ms\": 5, \"job.tasks\": []}\n";
        let e = parse(sls).unwrap_err().to_string();
        assert_eq!(
            e,
            "syn.json:2: json: not an SLS SYNTH file: this looks like an SLS JSON job trace (read it with `sls = ...` in [workload])"
        );
        let rumen = "{\"jobID\": \"job_1\", \"submitTime\": 1, \"mapTasks\": []}\n{\"jobID\": \"job_2\", \"submitTime\": 2}\n";
        let e = parse(rumen).unwrap_err().to_string();
        assert_eq!(
            e,
            "syn.json:1: json: not an SLS SYNTH file: this looks like a Rumen job history (read it with `rumen = ...` in [workload])"
        );
    }

    /// A flat job class with these map and reduce means, in a file of `jobs` jobs.
    fn flat(jobs: u64, mtasks: &str, rtasks: &str, mtime: &str) -> String {
        format!(
            "{{\n \"num_jobs\": {jobs},\n \"workloads\": [ {{\n  \"workload_weight\": 1, \"queue_name\": \"q\",\n  \"job_classes\": [\n   {{ \"class_weight\": 1, \"mtasks_avg\": {mtasks}, \"rtasks_avg\": {rtasks}, \"mtime_avg\": {mtime}, \"rtime_avg\": 10 }},\n   {{ \"class_weight\": 3, \"mtasks_avg\": 1, \"rtasks_avg\": 1, \"mtime_avg\": 1, \"rtime_avg\": 1 }}\n  ],\n  \"time_distribution\": [ {{\"time\": 0, \"weight\": 1}} ] }} ] }}"
        )
    }

    #[test]
    fn task_means_and_expected_tasks_are_within_the_limits() {
        // Means of 4 and 2 tasks in a class of weight 1 and 2 tasks in one of weight 3.
        let spec = parse(&flat(100, "4", "2", "60")).unwrap();
        assert!((spec.expected_tasks() - 100.0 * (6.0 / 4.0 + 2.0 * 3.0 / 4.0)).abs() < 1e-6);
        // A mean of 2.7e98 reduces (once accepted, and cut per draw) is refused on its class.
        let e = parse(&flat(90, "5", "2.7e98", "60"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "syn.json:6: workloads[0].job_classes[0]: reduce task count: a mean of 2.7"
            ),
            "{e}"
        );
        assert!(
            e.contains("e98 tasks is above the limit of 1000000 per job"),
            "{e}"
        );
        let e = parse(&flat(1, "5", "2", "1e15")).unwrap_err().to_string();
        assert!(
            e.contains("map task time: a mean of 1e15 is above the limit of 315576000000 ms"),
            "{e}"
        );
        // 40 million jobs of 3 tasks on average: each mean is fine, the run is not.
        let e = parse(&flat(9_000_000, "1000", "1", "1"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("syn.json:2: num_jobs: 9000000 jobs would draw about"),
            "{e}"
        );
        assert!(e.contains("the limit is 20000000 tasks in a run"), "{e}");
    }

    #[test]
    fn container_sizes_stay_in_a_java_int() {
        // The trace's rows hold memory and vcores in a Java int: a mean above it was drawn
        // and clamped to i64::MAX, a trace `fairsim trace` wrote and its CSV reader refused.
        let sized = |memory: &str| {
            format!(
                "{{ \"num_jobs\": 20,\n \"workloads\": [ {{ \"workload_weight\": 1, \"queue_name\": \"q\",\n  \"job_classes\": [ {{ \"class_weight\": 1, \"tasks\": [ {{ \"type\": \"map\",\n   \"count\": {{\"val\": 2}},\n   \"time\": {{\"val\": 1000}}, \"max_memory\": {memory}, \"max_vcores\": {{\"val\": 1}} }} ] }} ],\n  \"time_distribution\": [ {{\"time\": 0, \"weight\": 1}} ] }} ] }}"
            )
        };
        let e = parse(&sized("{\"val\": 18446744073709551616}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(
                "map task memory: a mean of 1.8446744073709552e19 is above the limit of 2147483647"
            ),
            "{e}"
        );
        // A mean within it whose draws reach past it: each draw is cut to it.
        let spec = parse(&sized("{\"val\": 2000000000, \"std\": 1e12}")).unwrap();
        let apps = spec.generate(&mut run_rng(1, 0)).unwrap();
        let sizes: Vec<i64> = apps
            .iter()
            .flat_map(|a| a.stages.iter().flatten().map(|g| g.size.memory_mb))
            .collect();
        assert!(sizes.contains(&(i32::MAX as i64)), "{sizes:?}");
        assert!(sizes.iter().all(|&m| m <= i32::MAX as i64), "{sizes:?}");
    }

    /// The text of a one-job-class file of `jobs` jobs whose map count is `count`.
    fn counted(jobs: u64, count: &str) -> String {
        format!(
            "{{ \"num_jobs\": {jobs},\n \"workloads\": [ {{ \"workload_weight\": 1, \"queue_name\": \"q\",\n  \"job_classes\": [ {{ \"class_weight\": 1, \"tasks\": [ {{ \"type\": \"map\",\n   \"count\": {count},\n   \"time\": {{\"val\": 1000}}, \"max_memory\": {{\"val\": 1024}}, \"max_vcores\": {{\"val\": 1}} }} ] }} ],\n  \"time_distribution\": [ {{\"time\": 0, \"weight\": 1}} ] }} ] }}"
        )
    }

    #[test]
    fn counts_are_bounded_by_what_a_draw_can_give_not_by_the_nominal_mean() {
        // A normal of mean 1 and deviation 10^6 draws max(0, X) tasks: E = σ/√(2π) = 398,942
        // (the cut at 10^6 takes off 83,315 more: 315,627). 100 jobs: 3.2e7, refused; its
        // nominal mean (1 task a job) let it through to draw ~3e7 tasks.
        let normal = Sample::dist(1.0, 1e6, true).unwrap();
        let m = normal.count_mean(MAX_TASKS_PER_DRAW);
        assert!((m - 315_627.0).abs() < 5.0, "{m}");
        let e = parse(&counted(
            100,
            r#"{"val": 1, "std": 1000000, "dist": "NORM"}"#,
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("syn.json:1: num_jobs: 100 jobs would draw about 3156")
                && e.contains("the limit is 20000000 tasks in a run"),
            "{e}"
        );
        // A discrete list counts each value as drawn (cut to 0..=10^6): [0, 10^6] is 500,000
        // a job on average, whatever its nominal mean.
        let d = Sample::Discrete {
            values: vec![0.0, 1e6],
            weights: vec![1.0, 1.0],
        };
        assert_eq!(d.count_mean(MAX_TASKS_PER_DRAW), 500_000.0);
        assert!(parse(&counted(41, r#"{"discrete": [0, 1000000]}"#)).is_err());
        assert!(parse(&counted(40, r#"{"discrete": [0, 1000000]}"#)).is_ok());
        // Negative values are refused as `val` and `std` are, not drawn as 0 tasks.
        let e = parse(&counted(1, r#"{"val": -5}"#))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("syn.json:4: workloads[0].job_classes[0].tasks[0].count: val -5 is out of range: the limit is a finite number from 0 to 1e300"),
            "{e}"
        );
        let e = parse(&counted(1, r#"{"discrete": [-1000000, 1000000]}"#))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("discrete value -1000000 is out of range: the limit is a finite number from 0 to 1e300"),
            "{e}"
        );
        // A log-normal's own mean bounds its cut one.
        let ln = Sample::dist(1e6, 1e7, false).unwrap();
        let m = ln.count_mean(MAX_TASKS_PER_DRAW);
        assert!(m > 0.0 && m < 1e6, "{m}");
    }

    #[test]
    fn draws_past_the_memory_of_a_run_are_refused_before_their_tasks_are_made() {
        // Checked on average, a file can still draw far more: 45 entries of 10^6 tasks in one
        // job would hold 45e6 x 384 B = 16.1 GiB. The 45th count is refused before its tasks
        // are made (the file is built by hand: its parse would refuse it on average).
        let mut spec = parse(&counted(1, r#"{"val": 1}"#)).unwrap();
        let class = &mut spec.workloads[0].job_classes[0];
        let mut entry = class.tasks[0].clone();
        entry.count = Sample::Const(1e6);
        class.tasks = vec![entry; 45];
        let e = spec.generate(&mut run_rng(1, 0)).unwrap_err();
        assert_eq!(
            e,
            "syn.json:1: num_jobs: the tasks this run's seed draws pass a limit: the apps would \
             hold about 16.1 GiB in a run: the limit is 16 GiB (docs/limits.md)"
        );
    }
}
