//! Rumen job histories (`job-history.json`, SLS's `--input-rumen`): concatenated JSON job
//! objects as Rumen's TraceBuilder writes them, streamed one job at a time, read as SLS reads
//! them (`SLSRunner.startAMFromRumenTraces`).
//!
//! Per job: `jobID` (the app's name), `user` (default `default`), `queue` (default
//! `default`), `submitTime` (arrival), `finishTime` (the recorded finish), `mapTasks` and
//! `reduceTasks`. Each task becomes one container sized by [`SlsDefaults`] (Rumen carries no
//! request sizes; SLS uses `yarn.sls.container.*`), running for its **last** attempt's
//! `finishTime − startTime`, with that attempt's `hostName` (`/rack/host`) as its locality
//! hint. Maps are stage 0 and reduces stage 1 (reduces ask when the maps are done); their
//! priorities are SLS's: maps 10 and reduces 20 for `hadoop-2.7`, maps 20 and reduces 10
//! for `hadoop-3.3`. Every job has an AM of the [`SlsDefaults`] AM size.
//!
//! Times are shifted so the first job of the first file arrives at 0 (a job submitted
//! earlier arrives at 0, as in SLS). A task without attempts is skipped, as SLS 2.7 does
//! (SLS 3.x drops the whole job); both are counted in one warning.

use super::json_stream::{Next, ObjectStream};
use super::{Ignored, SlsDefaults, TraceRead, WorkloadError, looks_like};
use crate::app::{AppSpec, Recorded, TaskGroup};
use crate::limits::limit;
use crate::time::SimTime;
use fairsim_core::Semantics;
use serde::Deserialize;
use serde::de::IgnoredAny;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// How SLS turns a Rumen job into containers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RumenOptions {
    /// Container and AM sizes.
    pub defaults: SlsDefaults,
    /// The era, for the map and reduce priorities.
    pub semantics: Semantics,
}

impl RumenOptions {
    /// (map, reduce) request priorities of SLS for this era.
    pub fn priorities(&self) -> (i32, i32) {
        match self.semantics {
            Semantics::Hadoop27 => (10, 20),
            Semantics::Hadoop33 => (20, 10),
        }
    }
}

#[derive(Deserialize)]
struct LoggedJob {
    #[serde(rename = "jobID")]
    job_id: Option<String>,
    user: Option<String>,
    queue: Option<String>,
    #[serde(rename = "submitTime")]
    submit_time: Option<i64>,
    #[serde(rename = "finishTime")]
    finish_time: Option<i64>,
    #[serde(rename = "mapTasks")]
    map_tasks: Option<Vec<LoggedTask>>,
    #[serde(rename = "reduceTasks")]
    reduce_tasks: Option<Vec<LoggedTask>>,
    // Keys of the other SLS inputs, to say what a wrong file looks like.
    #[serde(rename = "job.tasks")]
    sls_tasks: Option<IgnoredAny>,
    #[serde(rename = "job.start.ms")]
    sls_start: Option<IgnoredAny>,
    workloads: Option<IgnoredAny>,
    num_jobs: Option<IgnoredAny>,
    rack: Option<IgnoredAny>,
    nodes: Option<IgnoredAny>,
}

#[derive(Deserialize)]
struct LoggedTask {
    attempts: Option<Vec<LoggedAttempt>>,
}

#[derive(Deserialize)]
struct LoggedAttempt {
    #[serde(rename = "hostName")]
    host_name: Option<String>,
    #[serde(rename = "startTime")]
    start_time: Option<i64>,
    #[serde(rename = "finishTime")]
    finish_time: Option<i64>,
}

/// Reads Rumen files as one workload: the first job of the first file sets time 0. A
/// gzip-compressed file (`job-trace.json.gz`, as Rumen's TraceBuilder can write it) is
/// decompressed as it streams; lines then count in the decompressed text.
pub fn read_rumen_traces(
    paths: &[PathBuf],
    opts: RumenOptions,
) -> Result<TraceRead, WorkloadError> {
    let mut reader = RumenReader::new(opts);
    for p in paths {
        let mut file = super::open(p)?;
        let gzip = file
            .fill_buf()
            .map_err(|source| WorkloadError::Io {
                path: p.clone(),
                source,
            })?
            .starts_with(&[0x1f, 0x8b]);
        if gzip {
            let unzipped = flate2::bufread::MultiGzDecoder::new(file);
            reader.read(p, std::io::BufReader::with_capacity(1 << 16, unzipped))?;
        } else {
            reader.read(p, file)?;
        }
    }
    Ok(reader.finish())
}

/// Parses one Rumen job history from `reader` (`name` is for messages).
pub fn parse_rumen<R: BufRead>(
    name: &Path,
    reader: R,
    opts: RumenOptions,
) -> Result<TraceRead, WorkloadError> {
    let mut r = RumenReader::new(opts);
    r.read(name, reader)?;
    Ok(r.finish())
}

struct RumenReader {
    opts: RumenOptions,
    baseline: Option<i64>,
    apps: Vec<AppSpec>,
    /// What the apps of every file read so far cost a run.
    budget: super::budget::Budget,
    ignored: Vec<(PathBuf, Ignored)>,
}

impl RumenReader {
    fn new(opts: RumenOptions) -> Self {
        RumenReader {
            opts,
            baseline: None,
            apps: Vec::new(),
            budget: Default::default(),
            ignored: Vec::new(),
        }
    }

    fn finish(mut self) -> TraceRead {
        self.apps.sort_by_key(|a| a.arrival);
        let warnings = self
            .ignored
            .iter()
            .filter_map(|(p, i)| i.warning(p, "read as SLS reads it"))
            .collect();
        TraceRead {
            apps: self.apps,
            warnings,
        }
    }

    fn read<R: BufRead>(&mut self, name: &Path, reader: R) -> Result<(), WorkloadError> {
        let perr = |line: u64, field: &str, message: String| WorkloadError::Parse {
            path: name.to_path_buf(),
            line,
            field: field.to_string(),
            message,
        };
        let mut stream = ObjectStream::new(reader);
        let mut ignored = Ignored::default();
        loop {
            match stream.next_start().map_err(|source| WorkloadError::Io {
                path: name.to_path_buf(),
                source,
            })? {
                Next::End => break,
                Next::Object(_) => {}
                Next::Other(b, line) => {
                    return Err(perr(
                        line,
                        "json",
                        format!(
                            "expected a Rumen job object, found `{}`",
                            char::from(b).escape_default()
                        ),
                    ));
                }
            };
            let job: LoggedJob = stream
                .read()
                .map_err(|e| perr(e.line, &e.field, e.message))?;
            self.job(job, &mut ignored)
                .map_err(|(field, message)| perr(stream.field_line(&field), &field, message))?;
        }
        self.ignored.push((name.to_path_buf(), ignored));
        Ok(())
    }

    fn job(&mut self, job: LoggedJob, ignored: &mut Ignored) -> Result<(), (String, String)> {
        if job.job_id.is_none() && job.submit_time.is_none() {
            let mut keys = Vec::new();
            for (present, key) in [
                (job.sls_tasks.is_some(), "job.tasks"),
                (job.sls_start.is_some(), "job.start.ms"),
                (job.workloads.is_some(), "workloads"),
                (job.num_jobs.is_some(), "num_jobs"),
                (job.rack.is_some(), "rack"),
                (job.nodes.is_some(), "nodes"),
            ] {
                if present {
                    keys.push(key);
                }
            }
            let what = looks_like(keys).unwrap_or("an object without `jobID` or `submitTime`");
            return Err((
                "json".into(),
                format!("not a Rumen job history: this looks like {what}"),
            ));
        }
        let submit = match job.submit_time {
            Some(t) if t >= 0 => t,
            Some(t) => return Err(("submitTime".into(), format!("{t} is negative"))),
            None => return Err(("submitTime".into(), "missing".into())),
        };
        let check = |key: &str, field: String, v: i64| {
            limit("rumen", key)
                .check_int(v.into())
                .map(|_| ())
                .map_err(|m| (field, m))
        };
        limit("trace (any)", "apps")
            .check_int(self.apps.len() as i128 + 1)
            .map_err(|m| ("jobID".to_string(), format!("apps in all: {m}")))?;
        let baseline = *self.baseline.get_or_insert(submit);
        let arrival = if submit < baseline {
            ignored.add("jobs submitted before the first job, moved to time 0");
            0
        } else {
            check(
                "submitTime (after the first job's)",
                "submitTime".into(),
                submit - baseline,
            )?;
            (submit - baseline) as u64
        };
        let recorded = match job.finish_time {
            Some(f) if f >= 0 => {
                if f < submit {
                    return Err((
                        "finishTime".into(),
                        format!("time goes backwards: {f} before submitTime {submit}"),
                    ));
                }
                check(
                    "finishTime - submitTime (a job)",
                    "finishTime".into(),
                    f - submit,
                )?;
                Some(Recorded {
                    start_ms: arrival,
                    finish_ms: arrival + (f - submit) as u64,
                })
            }
            _ => None,
        };
        let (map_prio, reduce_prio) = self.opts.priorities();
        let mut stages: Vec<Vec<TaskGroup>> = vec![Vec::new()];
        for (key, tasks, prio) in [
            ("mapTasks", job.map_tasks, map_prio),
            ("reduceTasks", job.reduce_tasks, reduce_prio),
        ] {
            let mut groups = Vec::new();
            for (i, task) in tasks.unwrap_or_default().into_iter().enumerate() {
                let attempts = task.attempts.unwrap_or_default();
                let Some(last) = attempts.last() else {
                    ignored.add(format!("{key} without attempts, skipped"));
                    continue;
                };
                let field = |f: &str| format!("{key}[{i}].attempts[{}].{f}", attempts.len() - 1);
                let start = last
                    .start_time
                    .filter(|t| *t >= 0)
                    .ok_or_else(|| (field("startTime"), "missing or negative".into()))?;
                let finish = last
                    .finish_time
                    .filter(|t| *t >= 0)
                    .ok_or_else(|| (field("finishTime"), "missing or negative".into()))?;
                if finish < start {
                    return Err((
                        field("finishTime"),
                        format!("time goes backwards: {finish} before startTime {start}"),
                    ));
                }
                check(
                    "finishTime - startTime (a task attempt)",
                    field("finishTime"),
                    finish - start,
                )?;
                groups.push(TaskGroup {
                    count: 1,
                    size: self.opts.defaults.container,
                    duration_ms: (finish - start) as u64,
                    priority: prio,
                    hosts: last
                        .host_name
                        .as_deref()
                        .map(str::trim)
                        .filter(|h| !h.is_empty())
                        .map(|h| vec![h.to_string()])
                        .unwrap_or_default(),
                    relax_locality: true,
                });
            }
            if key == "mapTasks" {
                stages[0] = groups;
            } else if !groups.is_empty() {
                stages.push(groups);
            }
        }
        self.budget
            .admit(1, super::budget::AppCost::of(stages.iter().flatten()))
            .map_err(|e| ("jobID".to_string(), e.to_string()))?;
        self.apps.push(AppSpec {
            name: job
                .job_id
                .unwrap_or_else(|| format!("job_{}", self.apps.len())),
            arrival: SimTime(arrival),
            queue: job.queue.unwrap_or_else(|| "default".into()),
            user: job.user.unwrap_or_else(|| "default".into()),
            am: Some(self.opts.defaults.am),
            stages,
            recorded,
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, semantics: Semantics) -> Result<TraceRead, WorkloadError> {
        let opts = RumenOptions {
            defaults: SlsDefaults::default(),
            semantics,
        };
        parse_rumen(Path::new("h.json"), text.as_bytes(), opts)
    }

    const TWO_JOBS: &str = r#"{
  "jobID" : "job_1_0001", "user" : "alice", "queue" : "etl",
  "submitTime" : 1000000, "finishTime" : 1090000,
  "mapTasks" : [ {
    "attempts" : [ { "hostName" : "/r1/h1", "startTime" : 1000500, "finishTime" : 1001000 },
                   { "hostName" : "/r1/h2", "startTime" : 1002000, "finishTime" : 1012000 } ]
  }, { "attempts" : [ ] } ],
  "reduceTasks" : [ { "attempts" : [ { "hostName" : "/r2/h3", "startTime" : 1020000, "finishTime" : 1050000 } ] } ]
}
{ "jobID" : "job_1_0002", "submitTime" : 1005000, "mapTasks" : [ ], "reduceTasks" : [ ] }
"#;

    #[test]
    fn last_attempt_sizes_and_hosts_and_times_relative_to_the_first_job() {
        let r = parse(TWO_JOBS, Semantics::Hadoop27).unwrap();
        assert_eq!(r.apps.len(), 2);
        let a = &r.apps[0];
        assert_eq!(
            (a.name.as_str(), a.queue.as_str(), a.user.as_str()),
            ("job_1_0001", "etl", "alice")
        );
        assert_eq!(a.arrival, SimTime(0));
        assert_eq!(a.stages.len(), 2);
        assert_eq!(a.stages[0].len(), 1);
        assert_eq!(a.stages[0][0].duration_ms, 10_000);
        assert_eq!(a.stages[0][0].hosts, vec!["/r1/h2"]);
        assert_eq!(a.stages[0][0].priority, 10);
        assert_eq!(a.stages[1][0].duration_ms, 30_000);
        assert_eq!(a.stages[1][0].priority, 20);
        assert_eq!(a.recorded.unwrap().runtime_ms(), 90_000);
        let b = &r.apps[1];
        assert_eq!(
            (b.arrival, b.user.as_str(), b.queue.as_str()),
            (SimTime(5000), "default", "default")
        );
        assert_eq!(b.recorded, None);
        assert_eq!(
            r.warnings,
            vec![
                "h.json: read as SLS reads it: mapTasks without attempts, skipped (1)".to_string()
            ]
        );
        let r = parse(TWO_JOBS, Semantics::Hadoop33).unwrap();
        assert_eq!(r.apps[0].stages[0][0].priority, 20);
        assert_eq!(r.apps[0].stages[1][0].priority, 10);
    }

    #[test]
    fn mistakes_name_line_and_field() {
        let text = "{ \"jobID\": \"j\", \"submitTime\": 5 }\n{ \"jobID\": \"k\",\n  \"submitTime\": \"soon\" }\n";
        let e = parse(text, Semantics::Hadoop27).unwrap_err().to_string();
        assert!(
            e.starts_with("h.json:3: submitTime: invalid type: string \"soon\""),
            "{e}"
        );
        let text = "{ \"jobID\": \"j\", \"submitTime\": 5,\n \"mapTasks\": [ { \"attempts\": [ { \"startTime\": 9, \"finishTime\": 3 } ] } ] }";
        let e = parse(text, Semantics::Hadoop27).unwrap_err().to_string();
        assert_eq!(
            e,
            "h.json:2: mapTasks[0].attempts[0].finishTime: time goes backwards: 3 before startTime 9"
        );
        // Times are checked against docs/limits.md, on the field's line.
        let text = "{ \"jobID\": \"j\", \"submitTime\": 5 }\n{ \"jobID\": \"k\",\n  \"submitTime\": 400000000000005 }\n";
        let e = parse(text, Semantics::Hadoop27).unwrap_err().to_string();
        assert_eq!(
            e,
            "h.json:3: submitTime: 400000000000000 is out of range: the limit is 0 to 315576000000"
        );
        let text = "{ \"jobID\": \"j\", \"submitTime\": 5,\n \"mapTasks\": [ { \"attempts\": [\n { \"startTime\": 9,\n \"finishTime\": 400000000000009 } ] } ] }";
        let e = parse(text, Semantics::Hadoop27).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "h.json:4: mapTasks[0].attempts[0].finishTime: 400000000000000 is out of range"
            ),
            "{e}"
        );
    }

    #[test]
    fn other_files_are_refused_with_what_they_look_like() {
        let e = parse(
            "{ \"job.start.ms\": 0, \"job.tasks\": [] }",
            Semantics::Hadoop27,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("looks like an SLS JSON job trace (read it with `sls = ...`"),
            "{e}"
        );
        let e = parse("[]", Semantics::Hadoop27).unwrap_err().to_string();
        assert!(
            e.starts_with("h.json:1: json: expected a Rumen job object"),
            "{e}"
        );
    }
}
