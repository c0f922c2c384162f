//! The sink the engine pushes results into ([`Recorder`]), and the recorders fairsim ships:
//! [`NullRecorder`], [`MemoryRecorder`] (for tests) and [`FileRecorder`] (the run's output
//! directory).
//!
//! The engine never writes files itself. [`FileRecorder`] keeps everything in memory and
//! writes each file atomically at the end (a temporary file in the same directory, then a
//! rename), so a failed run never leaves a half-written result.

use crate::app::{AppRecord, Locality};
use crate::metrics::RunSummary;
use crate::time::SimTime;
use fairsim_core::Resource;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What the scheduler decided on a heartbeat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionKind {
    /// A container was allocated at this locality.
    Allocated(Locality),
    /// The node was reserved for the app.
    Reserved,
    /// The app's reservation on the node was released.
    Unreserved,
}

/// One scheduling decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// When.
    pub time: SimTime,
    /// Node index.
    pub node: u32,
    /// App index.
    pub app: u32,
    /// Request priority.
    pub priority: i32,
    /// Container size.
    pub size: Resource,
    /// What happened.
    pub kind: DecisionKind,
}

/// One queue at one sample time (a row of `queues.csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct QueueSample {
    /// Full queue name.
    pub queue: String,
    /// Allocated resources.
    pub usage: Resource,
    /// Demand (usage + outstanding requests, capped at maxResources), as of the last update.
    pub demand: Resource,
    /// Configured minShare.
    pub min_share: Resource,
    /// Steady fair share.
    pub steady_fair_share: Resource,
    /// Instantaneous fair share, as of the last update.
    pub fair_share: Resource,
    /// Demand-capped max-min share (the "ideal" share of the metrics).
    pub ideal_share: Resource,
    /// Runnable apps in the queue's subtree.
    pub running_apps: u32,
    /// Apps waiting on maxRunningApps in the subtree.
    pub pending_apps: u32,
}

/// Errors a recorder reports.
#[derive(Debug, thiserror::Error)]
pub enum RecorderError {
    /// Writing an output file failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// The sink of a run. Every method has an empty default.
pub trait Recorder {
    /// A decision on a heartbeat (allocation, reservation, release of a reservation).
    fn decision(&mut self, _d: &Decision) {}
    /// Whether [`Recorder::queue_samples`] is wanted (sampling costs a pass over the queues).
    fn wants_samples(&self) -> bool {
        false
    }
    /// All queues at a sample time.
    fn queue_samples(&mut self, _t: SimTime, _rows: &[QueueSample]) {}
    /// All apps, by index, at the end of the run.
    fn apps(&mut self, _apps: &[AppRecord]) {}
    /// The run's metrics; the last call of a run.
    fn finish(&mut self, _summary: &RunSummary) -> Result<(), RecorderError> {
        Ok(())
    }
}

/// Records nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NullRecorder;

impl Recorder for NullRecorder {}

/// Keeps everything in memory (tests, comparisons).
#[derive(Debug, Default, Clone)]
pub struct MemoryRecorder {
    /// Every decision, in order.
    pub decisions: Vec<Decision>,
    /// Every sample.
    pub samples: Vec<(SimTime, Vec<QueueSample>)>,
    /// The apps at the end.
    pub apps: Vec<AppRecord>,
    /// The summary.
    pub summary: Option<RunSummary>,
    /// Whether to take samples.
    pub sample: bool,
}

impl Recorder for MemoryRecorder {
    fn decision(&mut self, d: &Decision) {
        self.decisions.push(*d);
    }
    fn wants_samples(&self) -> bool {
        self.sample
    }
    fn queue_samples(&mut self, t: SimTime, rows: &[QueueSample]) {
        self.samples.push((t, rows.to_vec()));
    }
    fn apps(&mut self, apps: &[AppRecord]) {
        self.apps = apps.to_vec();
    }
    fn finish(&mut self, summary: &RunSummary) -> Result<(), RecorderError> {
        self.summary = Some(summary.clone());
        Ok(())
    }
}

/// Writes `apps.csv`, `queues.csv`, `summary.json` and `summary.csv` into a directory.
///
/// `apps.csv` columns: `app_index,app,queue,user,arrival_ms,first_container_ms,finish_ms,wait_ms,
/// runtime_ms,jct_ms,recorded_start_ms,recorded_finish_ms,recorded_runtime_ms,slowdown,
/// containers,preempted_containers,lost_work_ms,status`
/// (times empty when the event did not happen; preemption columns count killed containers and
/// the work they lost; status is `finished`, `unfinished` or `rejected: <reason>`).
///
/// `queues.csv` columns: `time_ms,queue,usage_mb,usage_vcores,demand_mb,demand_vcores,
/// min_share_mb,min_share_vcores,steady_fair_share_mb,steady_fair_share_vcores,
/// fair_share_mb,fair_share_vcores,ideal_share_mb,ideal_share_vcores,running_apps,
/// pending_apps`.
///
/// `summary.csv` is `metric,value`, one row per metric, in the order of
/// [`RunSummary::metrics`]; `summary.json` holds the same as an object plus run counters.
#[derive(Debug)]
pub struct FileRecorder {
    dir: PathBuf,
    queues: String,
    apps: String,
}

impl FileRecorder {
    /// A recorder writing into `dir` (created if missing, at the end of the run).
    pub fn new(dir: impl Into<PathBuf>) -> FileRecorder {
        FileRecorder {
            dir: dir.into(),
            queues: String::from(
                "time_ms,queue,usage_mb,usage_vcores,demand_mb,demand_vcores,min_share_mb,\
                 min_share_vcores,steady_fair_share_mb,steady_fair_share_vcores,fair_share_mb,\
                 fair_share_vcores,ideal_share_mb,ideal_share_vcores,running_apps,pending_apps\n",
            ),
            apps: String::new(),
        }
    }
}

fn opt(v: Option<u64>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed,
/// then renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RecorderError> {
    let err = |source| RecorderError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let file_name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err)
}

impl Recorder for FileRecorder {
    fn wants_samples(&self) -> bool {
        true
    }

    fn queue_samples(&mut self, t: SimTime, rows: &[QueueSample]) {
        for r in rows {
            let _ = writeln!(
                self.queues,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                t.0,
                csv_field(&r.queue),
                r.usage.memory_mb,
                r.usage.vcores,
                r.demand.memory_mb,
                r.demand.vcores,
                r.min_share.memory_mb,
                r.min_share.vcores,
                r.steady_fair_share.memory_mb,
                r.steady_fair_share.vcores,
                r.fair_share.memory_mb,
                r.fair_share.vcores,
                r.ideal_share.memory_mb,
                r.ideal_share.vcores,
                r.running_apps,
                r.pending_apps
            );
        }
    }

    fn apps(&mut self, apps: &[AppRecord]) {
        let mut s = String::from(
            "app_index,app,queue,user,arrival_ms,first_container_ms,finish_ms,wait_ms,runtime_ms,\
             jct_ms,recorded_start_ms,recorded_finish_ms,recorded_runtime_ms,slowdown,\
             containers,preempted_containers,lost_work_ms,status\n",
        );
        for a in apps {
            let runtime = match (a.first_container, a.finish) {
                (Some(f), Some(e)) => Some(e.since(f)),
                _ => None,
            };
            let status = match (&a.rejected, a.finish) {
                (Some(r), _) => format!("rejected: {r}"),
                (None, Some(_)) => "finished".to_string(),
                (None, None) => "unfinished".to_string(),
            };
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                a.index,
                csv_field(&a.name),
                csv_field(&a.queue),
                csv_field(&a.user),
                a.arrival.0,
                opt(a.first_container.map(|t| t.0)),
                opt(a.finish.map(|t| t.0)),
                opt(a.wait_ms()),
                opt(runtime),
                opt(a.jct_ms()),
                opt(a.recorded.map(|r| r.start_ms)),
                opt(a.recorded.map(|r| r.finish_ms)),
                opt(a.recorded.map(|r| r.runtime_ms())),
                a.slowdown().map(|x| format!("{x:.6}")).unwrap_or_default(),
                a.containers,
                a.preempted_containers,
                a.lost_work_ms,
                csv_field(&status)
            );
        }
        self.apps = s;
    }

    fn finish(&mut self, summary: &RunSummary) -> Result<(), RecorderError> {
        std::fs::create_dir_all(&self.dir).map_err(|source| RecorderError::Io {
            path: self.dir.clone(),
            source,
        })?;
        let mut csv = String::from("metric,value\n");
        for (k, v) in &summary.metrics {
            let _ = writeln!(csv, "{},{}", csv_field(k), fmt_f64(*v));
        }
        write_atomic(&self.dir.join("apps.csv"), self.apps.as_bytes())?;
        write_atomic(&self.dir.join("queues.csv"), self.queues.as_bytes())?;
        write_atomic(&self.dir.join("summary.csv"), csv.as_bytes())?;
        write_atomic(&self.dir.join("summary.json"), summary.to_json().as_bytes())?;
        Ok(())
    }
}

/// Formats a metric: integers without a fraction, others with up to 9 decimals; NaN empty.
pub fn fmt_f64(v: f64) -> String {
    if v.is_nan() {
        String::new()
    } else if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.9}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
