//! Hadoop SLS JSON traces (`sls-jobs.json`): a stream of job objects, `//` comments allowed,
//! read one object at a time in a single pass (linear in the file's size).
//!
//! Read per job: `job.start.ms` (arrival; default 0), `job.end.ms` (the recorded finish,
//! optional), `job.queue.name` (default `default`), `job.user` (default `default`), `job.id`,
//! `job.count` (replicas, at least 1), `am.memory-mb`/`am.vcores` (default: the AM size of
//! [`SlsDefaults`]; every SLS job is managed) and `job.tasks`. Per task group: `count`
//! (at least 1, as SLS reads it), `container.memory-mb` / `container.vcores` (default: the
//! container size of [`SlsDefaults`]), `container.duration.ms` or `duration.ms` or
//! `container.end.ms − container.start.ms`, `container.priority` (default 20),
//! `container.type` (`map`: stage 0; `reduce`: stage 1), `container.host` (a locality hint).
//! A cluster header object (`num.nodes`, `num.racks`) is skipped. Groups of a job at one
//! priority run at the size of the first (SLS asks a priority's containers as one request
//! of the first one's size): a group asking another size is given that size, with a warning
//! naming both groups' lines.
//!
//! Read but not modelled, named in one warning with counts: `am.type` other than
//! `mapreduce`, `job.label.expression`, `container.execution.type` other than `GUARANTEED`,
//! `container.allocation.id`, `container.request.delay`, other resource types (`am.X`,
//! `container.X`), `container.type` other than map or reduce, and unknown keys.
//!
//! A file that is not an SLS job trace (a Rumen history, a SYNTH file, a nodes file, an
//! array) is refused with what it looks like. Unlike the native CSV, SLS traces need not be
//! sorted: jobs are stably sorted by `job.start.ms`.

use super::budget::{AppCost, Budget, Exceeded};
use super::json_stream::{Next, ObjectStream};
use super::{Ignored, SlsDefaults, TraceRead, WorkloadError, looks_like};
use crate::app::{AppSpec, Recorded, TaskGroup};
use crate::limits::limit;
use crate::time::SimTime;
use fairsim_core::Resource;
use serde_json::{Map, Value};
use std::io::BufRead;
use std::path::Path;

/// Reads an SLS JSON trace from `path`.
pub fn read_sls_trace(path: &Path, defaults: SlsDefaults) -> Result<TraceRead, WorkloadError> {
    read_sls_trace_within(path, defaults, &mut Budget::default())
}

/// [`read_sls_trace`] for a run that already holds `budget` (the traces read before this
/// one); the file's apps are added to it.
pub fn read_sls_trace_within(
    path: &Path,
    defaults: SlsDefaults,
    budget: &mut Budget,
) -> Result<TraceRead, WorkloadError> {
    parse_sls_within(path, super::open(path)?, defaults, budget)
}

/// Parses an SLS JSON trace from `reader` (`name` is for messages).
pub fn parse_sls<R: BufRead>(
    name: &Path,
    reader: R,
    defaults: SlsDefaults,
) -> Result<TraceRead, WorkloadError> {
    parse_sls_within(name, reader, defaults, &mut Budget::default())
}

fn parse_sls_within<R: BufRead>(
    name: &Path,
    reader: R,
    defaults: SlsDefaults,
    budget: &mut Budget,
) -> Result<TraceRead, WorkloadError> {
    let mut stream = ObjectStream::with_comments(reader);
    let mut apps: Vec<AppSpec> = Vec::new();
    let mut ignored = Ignored::default();
    let mut size_warnings = Vec::new();
    let perr = |line: u64, field: &str, message: String| WorkloadError::Parse {
        path: name.to_path_buf(),
        line,
        field: field.to_string(),
        message,
    };
    let io = |e: std::io::Error| WorkloadError::Io {
        path: name.to_path_buf(),
        source: e,
    };
    loop {
        let line = match stream.next_start().map_err(io)? {
            Next::End => break,
            Next::Object(line) => line,
            Next::Other(b'[', line) => {
                return Err(perr(
                    line,
                    "json",
                    "this is a JSON array; an SLS job trace is a stream of job objects \
                     (`{...} {...}`), read with `sls = ...`"
                        .into(),
                ));
            }
            Next::Other(b, line) => {
                return Err(perr(
                    line,
                    "json",
                    format!(
                        "expected a job object, found `{}`",
                        char::from(b).escape_default()
                    ),
                ));
            }
        };
        let obj: Map<String, Value> = stream
            .read()
            .map_err(|e| perr(e.line, &e.field, e.message))?;
        if !obj.contains_key("job.tasks") && obj.contains_key("num.nodes") {
            continue;
        }
        if !obj.keys().any(|k| k.starts_with("job.")) {
            let what = looks_like(obj.keys().map(String::as_str))
                .unwrap_or("an object without any `job.` key");
            return Err(perr(
                line,
                "json",
                format!("not an SLS job trace: this looks like {what}"),
            ));
        }
        let clashes = read_job(&obj, defaults, &mut ignored, budget, &mut apps)
            .map_err(|(field, message)| perr(stream.field_line(&field), &field, message))?;
        for c in clashes {
            size_warnings.push(c.warning(name, &stream));
        }
    }
    apps.sort_by_key(|a| a.arrival);
    let mut warnings: Vec<String> = ignored
        .warning(name, "fields fairsim does not model, ignored")
        .into_iter()
        .collect();
    warnings.extend(size_warnings);
    Ok(TraceRead { apps, warnings })
}

/// A task group asking another size at a priority an earlier group of its job asks at.
struct SizeClash {
    /// The later group's index in `job.tasks`, and the size it asks.
    task: usize,
    asked: Resource,
    /// The earlier group's index, and the size both run at.
    first: usize,
    runs: Resource,
    priority: i32,
}

impl SizeClash {
    fn warning<R>(&self, name: &Path, stream: &ObjectStream<R>) -> String {
        let key = if self.asked.memory_mb != self.runs.memory_mb {
            "container.memory-mb"
        } else {
            "container.vcores"
        };
        let field = format!("job.tasks[{}].{key}", self.task);
        let first = format!("job.tasks[{}]", self.first);
        format!(
            "{}:{}: {field}: {} MB, {} vcores at priority {} run as {} MB, {} vcores, the size {first} (line {}) asks at that priority: SLS asks a priority's tasks as one request of its first size (YARN keeps one ask per priority); give the group another container.priority to keep its size",
            name.display(),
            stream.field_line(&field),
            self.asked.memory_mb,
            self.asked.vcores,
            self.priority,
            self.runs.memory_mb,
            self.runs.vcores,
            stream.field_line(&first),
        )
    }
}

type FieldError = (String, String);

/// Largest `job.count` accepted (each replica is a separate app).
pub const MAX_JOB_COUNT: i64 = 1_000_000;

/// An integer field (SLS reads numbers from their text, so `"5000"` is 5000), read exactly
/// and checked against its row of the limits table (docs/limits.md).
fn int(o: &Map<String, Value>, key: &str, default: i64) -> Result<i64, FieldError> {
    let bad = |v: &dyn std::fmt::Display| (key.to_string(), format!("`{v}` is not an integer"));
    let v: i128 = match o.get(key) {
        None => return Ok(default),
        Some(Value::Number(n)) => exact_int(n).ok_or_else(|| bad(n))?,
        Some(Value::String(s)) => s.trim().parse::<i128>().map_err(|_| bad(s))?,
        Some(other) => return Err(bad(other)),
    };
    limit("sls trace", key)
        .check_int(v)
        .map(|v| v as i64)
        .map_err(|m| (key.to_string(), m))
}

/// A JSON number as an exact integer: integers as written, floats only when whole
/// (`1e12`), so that range checks see the value instead of a failed conversion.
fn exact_int(n: &serde_json::Number) -> Option<i128> {
    if let Some(v) = n.as_i64() {
        return Some(v.into());
    }
    if let Some(v) = n.as_u64() {
        return Some(v.into());
    }
    n.as_f64()
        .filter(|f| f.fract() == 0.0 && f.abs() < 1e36)
        .map(|f| f as i128)
}

fn text(o: &Map<String, Value>, key: &str, default: &str) -> Result<String, FieldError> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(default.to_string()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Number(n)) => Ok(n.to_string()),
        Some(other) => Err((key.to_string(), format!("`{other}` is not a string"))),
    }
}

const JOB_KEYS: [&str; 11] = [
    "job.start.ms",
    "job.end.ms",
    "job.queue.name",
    "job.user",
    "job.id",
    "job.count",
    "job.tasks",
    "am.memory-mb",
    "am.vcores",
    "num.nodes",
    "num.racks",
];

const TASK_KEYS: [&str; 10] = [
    "count",
    "container.host",
    "container.start.ms",
    "container.end.ms",
    "container.duration.ms",
    "duration.ms",
    "container.priority",
    "container.type",
    "container.memory-mb",
    "container.vcores",
];

fn note_unmodelled_job_keys(obj: &Map<String, Value>, ignored: &mut Ignored) {
    for (k, v) in obj {
        if JOB_KEYS.contains(&k.as_str()) {
            continue;
        }
        match k.as_str() {
            "am.type" => {
                if v.as_str() != Some("mapreduce") {
                    ignored.add("am.type other than mapreduce (run as mapreduce)");
                }
            }
            "job.label.expression" => ignored.add("job.label.expression (node labels)"),
            k if k.starts_with("am.") => ignored.add(format!("{k} (resource type)")),
            k => ignored.add(format!("unknown job key `{k}`")),
        }
    }
}

fn note_unmodelled_task_keys(t: &Map<String, Value>, ignored: &mut Ignored) {
    for (k, v) in t {
        if TASK_KEYS.contains(&k.as_str()) {
            continue;
        }
        match k.as_str() {
            // Every fairsim container is guaranteed.
            "container.execution.type" if v.as_str() == Some("GUARANTEED") => {}
            "container.execution.type" => {
                ignored.add("container.execution.type other than GUARANTEED (run as guaranteed)")
            }
            "container.allocation.id" | "container.request.delay" => ignored.add(k.clone()),
            k if k.starts_with("container.") => ignored.add(format!("{k} (resource type)")),
            k => ignored.add(format!("unknown task key `{k}`")),
        }
    }
}

/// Reads one job (and its replicas) into `apps`; answers the groups whose size gave way to
/// an earlier group's at their priority.
fn read_job(
    obj: &Map<String, Value>,
    defaults: SlsDefaults,
    ignored: &mut Ignored,
    budget: &mut Budget,
    apps: &mut Vec<AppSpec>,
) -> Result<Vec<SizeClash>, FieldError> {
    let index = apps.len();
    note_unmodelled_job_keys(obj, ignored);
    let arrival = int(obj, "job.start.ms", 0)? as u64;
    let recorded = match obj.get("job.end.ms") {
        None => None,
        Some(_) => {
            let end = int(obj, "job.end.ms", 0)? as u64;
            if end < arrival {
                return Err((
                    "job.end.ms".into(),
                    format!("time goes backwards: end {end} before job.start.ms {arrival}"),
                ));
            }
            Some(Recorded {
                start_ms: arrival,
                finish_ms: end,
            })
        }
    };
    let replicas = int(obj, "job.count", 1)?.max(1);
    if replicas > MAX_JOB_COUNT {
        return Err((
            "job.count".into(),
            format!("{replicas} replicas is above the limit of {MAX_JOB_COUNT}"),
        ));
    }
    let am = Resource::new(
        int(obj, "am.memory-mb", defaults.am.memory_mb)?,
        int(obj, "am.vcores", defaults.am.vcores)?,
    );
    let mut stages: Vec<Vec<TaskGroup>> = vec![Vec::new()];
    // Each group's index in `job.tasks`, stage by stage, for messages.
    let mut task_index: Vec<Vec<usize>> = vec![Vec::new()];
    if let Some(tasks) = obj.get("job.tasks") {
        let Some(tasks) = tasks.as_array() else {
            return Err(("job.tasks".into(), "expected a list of task objects".into()));
        };
        for (i, t) in tasks.iter().enumerate() {
            let Some(t) = t.as_object() else {
                return Err((format!("job.tasks[{i}]"), "expected a task object".into()));
            };
            let (stage, group) = read_task(t, defaults, ignored)
                .map_err(|(f, m)| (format!("job.tasks[{i}].{f}"), m))?;
            if stages.len() <= stage {
                stages.resize(stage + 1, Vec::new());
                task_index.resize(stage + 1, Vec::new());
            }
            stages[stage].push(group);
            task_index[stage].push(i);
        }
    }
    let clashes = one_size_per_priority(&mut stages, &task_index);
    // Every replica is priced before the first is made: a million copies of a long task
    // list would otherwise exhaust memory before any limit is read.
    budget
        .admit(replicas as u64, AppCost::of(stages.iter().flatten()))
        .map_err(|e| {
            let field = match e {
                Exceeded::Apps(_) => "job.count",
                _ if replicas > 1 => "job.count",
                _ => "job.tasks",
            };
            let per_job = if replicas > 1 {
                format!("{replicas} replicas of this job: ")
            } else {
                String::new()
            };
            (field.to_string(), format!("{per_job}{e}"))
        })?;
    let base = text(obj, "job.id", &format!("job_{index}"))?;
    let queue = text(obj, "job.queue.name", "default")?;
    let user = text(obj, "job.user", "default")?;
    for r in 0..replicas {
        apps.push(AppSpec {
            name: if replicas > 1 {
                format!("{base}_{r}")
            } else {
                base.clone()
            },
            arrival: SimTime(arrival),
            queue: queue.clone(),
            user: user.clone(),
            am: Some(am),
            stages: stages.clone(),
            recorded,
        });
    }
    Ok(clashes)
}

/// Gives every group the size the first group of its priority asks (stages in order, groups
/// in file order: the order the app asks them): SLS's AM simulator packs the containers of
/// a priority into one request made with the first container's resource, so the rest run
/// at that size. Answers the groups changed.
fn one_size_per_priority(
    stages: &mut [Vec<TaskGroup>],
    task_index: &[Vec<usize>],
) -> Vec<SizeClash> {
    let mut first: Vec<(i32, Resource, usize)> = Vec::new();
    let mut clashes = Vec::new();
    for (groups, indices) in stages.iter_mut().zip(task_index) {
        for (g, &task) in groups.iter_mut().zip(indices) {
            match first.iter().find(|(p, _, _)| *p == g.priority) {
                None => first.push((g.priority, g.size, task)),
                Some(&(priority, runs, first_task)) if runs != g.size => {
                    clashes.push(SizeClash {
                        task,
                        asked: g.size,
                        first: first_task,
                        runs,
                        priority,
                    });
                    g.size = runs;
                }
                Some(_) => {}
            }
        }
    }
    clashes
}

fn read_task(
    t: &Map<String, Value>,
    defaults: SlsDefaults,
    ignored: &mut Ignored,
) -> Result<(usize, TaskGroup), FieldError> {
    note_unmodelled_task_keys(t, ignored);
    let duration = if t.contains_key("container.duration.ms") {
        int(t, "container.duration.ms", 0)?
    } else if t.contains_key("duration.ms") {
        int(t, "duration.ms", 0)?
    } else {
        let s = int(t, "container.start.ms", 0)?;
        let e = int(t, "container.end.ms", s)?;
        if e < s {
            return Err((
                "container.end.ms".into(),
                format!("time goes backwards: end {e} before start {s}"),
            ));
        }
        e - s
    };
    let stage = match t.get("container.type").and_then(Value::as_str) {
        None | Some("map") => 0,
        Some("reduce") => 1,
        Some(_) => {
            ignored.add("container.type other than map or reduce (run as map)");
            0
        }
    };
    let priority = match t.get("container.priority") {
        None => 20,
        Some(v) => {
            let s = match v {
                Value::String(s) => s.trim().to_string(),
                other => other.to_string(),
            };
            s.parse::<i32>().map_err(|_| {
                (
                    "container.priority".to_string(),
                    format!("`{s}` is not an integer"),
                )
            })?
        }
    };
    // The limit keeps a count inside u32.
    let count = int(t, "count", 1)?.max(1) as u32;
    let hosts = match t.get("container.host") {
        None | Some(Value::Null) => vec![],
        Some(Value::String(h)) if h.trim().is_empty() => vec![],
        Some(Value::String(h)) => vec![h.trim().to_string()],
        Some(other) => {
            return Err((
                "container.host".into(),
                format!("`{other}` is not a host name"),
            ));
        }
    };
    Ok((
        stage,
        TaskGroup {
            count,
            size: Resource::new(
                int(t, "container.memory-mb", defaults.container.memory_mb)?,
                int(t, "container.vcores", defaults.container.vcores)?,
            ),
            duration_ms: duration as u64,
            priority,
            hosts,
            // SLS's AM simulators ask with relaxLocality on.
            relax_locality: true,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TraceRead, WorkloadError> {
        parse_sls(Path::new("j.json"), text.as_bytes(), SlsDefaults::default())
    }

    #[test]
    fn reads_jobs_with_comments_and_sorts() {
        let text = r#"
// a comment
{ "job.start.ms": 5000, "job.queue.name": "sls_queue_1", "job.id": "job_1",
  "job.tasks": [ { "count": 2, "container.duration.ms": 1000, "container.type": "map" },
                 { "container.start.ms": 10, "container.end.ms": 20, "container.type": "reduce" } ] }
{ "job.start.ms": 0, "job.queue.name": "sls_queue_2", "job.tasks": [] }
"#;
        let apps = parse(text).unwrap().apps;
        assert_eq!(apps.len(), 2);
        assert_eq!(apps[0].queue, "sls_queue_2");
        assert_eq!(apps[1].stages[1][0].duration_ms, 10);
    }

    #[test]
    fn bad_field_names_line() {
        let text = "{ \"job.start.ms\": 0, \"job.tasks\": [] }\n\n{ \"job.start.ms\": -5, \"job.tasks\": [] }\n";
        let e = parse(text).unwrap_err().to_string();
        assert_eq!(
            e,
            "j.json:3: job.start.ms: -5 is out of range: the limit is 0 to 315576000000"
        );
    }

    #[test]
    fn a_bad_task_field_names_its_task() {
        let text =
            "{ \"job.start.ms\": 0,\n \"job.tasks\": [ {\"count\": 1}, {\"count\": \"x\"} ] }\n";
        let e = parse(text).unwrap_err().to_string();
        assert_eq!(e, "j.json:2: job.tasks[1].count: `x` is not an integer");
    }

    #[test]
    fn other_files_are_refused_with_what_they_look_like() {
        for (text, says) in [
            ("[ {\"job.start.ms\": 0} ]", "JSON array"),
            ("{\"jobID\": \"job_1\", \"submitTime\": 5}", "`rumen = ...`"),
            ("{\"num_jobs\": 3, \"workloads\": []}", "`synth = ...`"),
            (
                "{\"rack\": \"r1\", \"nodes\": [{\"node\": \"n1\"}]}",
                "SLS nodes file",
            ),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.starts_with("j.json:1: json: "), "{e}");
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn unmodelled_fields_are_one_warning_with_counts() {
        let text = r#"
{ "job.start.ms": 0, "am.type": "stream", "job.label.expression": "gpu", "am.gpu": 1,
  "job.tasks": [ { "container.execution.type": "OPPORTUNISTIC", "container.request.delay": 5 },
                 { "container.execution.type": "GUARANTEED", "container.gpu": 2 } ] }
{ "job.start.ms": 1, "am.type": "mapreduce", "job.tasks": [ { "count": 3 } ] }
"#;
        let r = parse(text).unwrap();
        assert_eq!(
            r.warnings,
            vec![
                "j.json: fields fairsim does not model, ignored: am.gpu (resource type) (1), \
                 am.type other than mapreduce (run as mapreduce) (1), \
                 container.execution.type other than GUARANTEED (run as guaranteed) (1), \
                 container.gpu (resource type) (1), \
                 container.request.delay (1), job.label.expression (node labels) (1)"
                    .to_string()
            ]
        );
        assert_eq!(r.apps[1].stages[0][0].count, 3);
    }

    #[test]
    fn groups_at_one_priority_run_at_the_first_size_with_a_warning() {
        // Maps at priority 20 of 1024 MB then 2048 MB, a reduce at 20 of 3 vcores, and a group
        // at priority 5 of its own size: the second and third run at 1024 MB, 1 vcore.
        let text = r#"{"job.start.ms": 0, "job.id": "j", "job.count": 2,
 "job.tasks": [
  {"container.priority": 20, "container.memory-mb": 1024},
  {"container.priority": 20,
   "container.memory-mb": 2048},
  {"container.priority": 5, "container.memory-mb": 4096},
  {"container.priority": 20, "container.type": "reduce", "container.vcores": 3}]}
"#;
        let r = parse(text).unwrap();
        assert_eq!(r.apps.len(), 2);
        for app in &r.apps {
            let sizes: Vec<Vec<Resource>> = app
                .stages
                .iter()
                .map(|s| s.iter().map(|g| g.size).collect())
                .collect();
            assert_eq!(
                sizes,
                [
                    vec![
                        Resource::new(1024, 1),
                        Resource::new(1024, 1),
                        Resource::new(4096, 1)
                    ],
                    vec![Resource::new(1024, 1)]
                ]
            );
        }
        assert_eq!(
            r.warnings,
            [
                "j.json:5: job.tasks[1].container.memory-mb: 2048 MB, 1 vcores at priority 20 run as 1024 MB, 1 vcores, the size job.tasks[0] (line 3) asks at that priority: SLS asks a priority's tasks as one request of its first size (YARN keeps one ask per priority); give the group another container.priority to keep its size",
                "j.json:7: job.tasks[3].container.vcores: 1024 MB, 3 vcores at priority 20 run as 1024 MB, 1 vcores, the size job.tasks[0] (line 3) asks at that priority: SLS asks a priority's tasks as one request of its first size (YARN keeps one ask per priority); give the group another container.priority to keep its size",
            ]
        );
    }

    #[test]
    fn a_job_count_above_the_limit_is_refused() {
        let e = parse("{ \"job.start.ms\": 0, \"job.count\": 5000000, \"job.tasks\": [] }")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "j.json:1: job.count: 5000000 is out of range: the limit is 0 to 1000000"
        );
    }

    #[test]
    fn job_end_is_kept_as_the_recorded_finish() {
        let r = parse(
            r#"{ "job.start.ms": 1000, "job.end.ms": 61000, "job.tasks": [ {"count": 0} ] }"#,
        )
        .unwrap();
        let rec = r.apps[0].recorded.unwrap();
        assert_eq!(
            (rec.start_ms, rec.finish_ms, rec.runtime_ms()),
            (1000, 61000, 60000)
        );
        // SLS reads `count` as at least 1.
        assert_eq!(r.apps[0].stages[0][0].count, 1);
        let e = parse(r#"{ "job.start.ms": 1000, "job.end.ms": 5, "job.tasks": [] }"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("j.json:1: job.end.ms: time goes backwards"),
            "{e}"
        );
    }
}
