//! Hadoop SLS JSON traces (`sls-jobs.json`): a stream of job objects, `//` comments allowed.
//!
//! Read per job: `job.start.ms` (arrival; default 0), `job.queue.name` (default `default`),
//! `job.user` (default `default`), `job.id`, `job.count` (replicas, default 1),
//! `am.memory-mb`/`am.vcores` (default 1024 MB / 1 vcore; every SLS job is managed) and
//! `job.tasks`. Per task group: `count` (default 1), `container.memory-mb` (default 1024),
//! `container.vcores` (default 1), `container.duration.ms` or `duration.ms` or
//! `container.end.ms − container.start.ms`, `container.priority` (default 20),
//! `container.type` (`map`: stage 0; `reduce`: stage 1), `container.host` (a locality hint).
//! A cluster header object (`num.nodes`, `num.racks`) is skipped; other keys are ignored.
//!
//! Unlike the native CSV, SLS traces need not be sorted: jobs are stably sorted by
//! `job.start.ms`. A negative or non-integer time is an error naming the line.

use super::WorkloadError;
use crate::app::{AppSpec, TaskGroup};
use crate::time::SimTime;
use fairsim_core::Resource;
use serde_json::Value;
use std::path::Path;

/// Reads an SLS JSON trace from `path`.
pub fn read_sls_trace(path: &Path) -> Result<Vec<AppSpec>, WorkloadError> {
    let text = std::fs::read_to_string(path).map_err(|source| WorkloadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_sls_trace(&text, path)
}

/// Blanks `//` comments outside strings, keeping offsets (and so line numbers) intact.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_str = false;
    let mut escaped = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_str {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if c == '/' && chars.peek() == Some(&'/') {
            out.push(' ');
            for d in chars.by_ref() {
                if d == '\n' {
                    out.push('\n');
                    break;
                }
                out.push(if d.is_ascii() { ' ' } else { d });
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses SLS JSON trace text (`path` is for messages).
pub fn parse_sls_trace(text: &str, path: &Path) -> Result<Vec<AppSpec>, WorkloadError> {
    let clean = strip_comments(text);
    let line_of = |offset: usize| clean[..offset.min(clean.len())].matches('\n').count() as u64 + 1;
    let stream = serde_json::Deserializer::from_str(&clean).into_iter::<Value>();
    let mut apps: Vec<AppSpec> = Vec::new();
    let mut stream = stream;
    loop {
        let start = stream.byte_offset();
        let Some(item) = stream.next() else { break };
        let v = item.map_err(|e| WorkloadError::Parse {
            path: path.to_path_buf(),
            line: e.line() as u64,
            field: "json".into(),
            message: e.to_string(),
        })?;
        // The object's own line: skip leading whitespace from `start`.
        let skip = clean[start..].len() - clean[start..].trim_start().len();
        let line = line_of(start + skip);
        let perr = |field: &str, message: String| WorkloadError::Parse {
            path: path.to_path_buf(),
            line,
            field: field.to_string(),
            message,
        };
        let Some(obj) = v.as_object() else {
            return Err(perr("json", "expected a job object".into()));
        };
        if !obj.contains_key("job.tasks") && obj.contains_key("num.nodes") {
            continue;
        }
        let int = |o: &serde_json::Map<String, Value>, key: &str, default: i64| match o.get(key) {
            None => Ok(default),
            Some(Value::Number(n)) => n
                .as_i64()
                .filter(|x| *x >= 0)
                .ok_or_else(|| perr(key, format!("`{n}` is not a non-negative integer"))),
            Some(Value::String(s)) => s
                .trim()
                .parse::<i64>()
                .ok()
                .filter(|x| *x >= 0)
                .ok_or_else(|| perr(key, format!("`{s}` is not a non-negative integer"))),
            Some(other) => Err(perr(key, format!("`{other}` is not an integer"))),
        };
        let string = |key: &str, default: &str| {
            obj.get(key)
                .and_then(Value::as_str)
                .unwrap_or(default)
                .to_string()
        };
        let arrival = int(obj, "job.start.ms", 0)? as u64;
        let replicas = int(obj, "job.count", 1)?.max(1);
        let am = Resource::new(int(obj, "am.memory-mb", 1024)?, int(obj, "am.vcores", 1)?);
        let mut stages: Vec<Vec<TaskGroup>> = vec![Vec::new()];
        if let Some(tasks) = obj.get("job.tasks") {
            let Some(tasks) = tasks.as_array() else {
                return Err(perr("job.tasks", "expected a list".into()));
            };
            for t in tasks {
                let Some(t) = t.as_object() else {
                    return Err(perr("job.tasks", "expected task objects".into()));
                };
                let duration = if t.contains_key("container.duration.ms") {
                    int(t, "container.duration.ms", 0)?
                } else if t.contains_key("duration.ms") {
                    int(t, "duration.ms", 0)?
                } else {
                    let s = int(t, "container.start.ms", 0)?;
                    let e = int(t, "container.end.ms", s)?;
                    if e < s {
                        return Err(perr(
                            "container.end.ms",
                            format!("time goes backwards: end {e} before start {s}"),
                        ));
                    }
                    e - s
                };
                let stage = match t.get("container.type").and_then(Value::as_str) {
                    Some("reduce") => 1,
                    _ => 0,
                };
                if stages.len() <= stage {
                    stages.resize(stage + 1, Vec::new());
                }
                let prio = match t.get("container.priority") {
                    None => 20,
                    Some(Value::Number(n)) => n
                        .as_i64()
                        .ok_or_else(|| perr("container.priority", format!("`{n}`")))?,
                    Some(other) => {
                        return Err(perr("container.priority", format!("`{other}`")));
                    }
                };
                stages[stage].push(TaskGroup {
                    count: int(t, "count", 1)? as u32,
                    size: Resource::new(
                        int(t, "container.memory-mb", 1024)?,
                        int(t, "container.vcores", 1)?,
                    ),
                    duration_ms: duration as u64,
                    priority: prio as i32,
                    hosts: t
                        .get("container.host")
                        .and_then(Value::as_str)
                        .map(|h| vec![h.to_string()])
                        .unwrap_or_default(),
                });
            }
        }
        let base = string("job.id", &format!("job_{}", apps.len()));
        for r in 0..replicas {
            apps.push(AppSpec {
                name: if replicas > 1 {
                    format!("{base}_{r}")
                } else {
                    base.clone()
                },
                arrival: SimTime(arrival),
                queue: string("job.queue.name", "default"),
                user: string("job.user", "default"),
                am: Some(am),
                stages: stages.clone(),
            });
        }
    }
    apps.sort_by_key(|a| a.arrival);
    Ok(apps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_jobs_with_comments_and_sorts() {
        let text = r#"
// a comment
{ "job.start.ms": 5000, "job.queue.name": "sls_queue_1", "job.id": "job_1",
  "job.tasks": [ { "count": 2, "container.duration.ms": 1000, "container.type": "map" },
                 { "container.start.ms": 10, "container.end.ms": 20, "container.type": "reduce" } ] }
{ "job.start.ms": 0, "job.queue.name": "sls_queue_2", "job.tasks": [] }
"#;
        let apps = parse_sls_trace(text, Path::new("j.json")).unwrap();
        assert_eq!(apps.len(), 2);
        assert_eq!(apps[0].queue, "sls_queue_2");
        assert_eq!(apps[1].stages[1][0].duration_ms, 10);
    }

    #[test]
    fn bad_field_names_line() {
        let text = "{ \"job.start.ms\": 0, \"job.tasks\": [] }\n\n{ \"job.start.ms\": -5, \"job.tasks\": [] }\n";
        let e = parse_sls_trace(text, Path::new("j.json"))
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "j.json:3: job.start.ms: `-5` is not a non-negative integer"
        );
    }
}
