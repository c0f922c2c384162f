//! The sink the engine pushes results into ([`Recorder`]), and the recorders fairsim ships:
//! [`NullRecorder`], [`MemoryRecorder`] (for tests) and [`FileRecorder`] (the run's output
//! directory).
//!
//! The engine never writes files itself. [`FileRecorder`] streams rows to temporary files in
//! the output directory as the run produces them and renames them into place when the run
//! succeeds, so a failed run never leaves a half-written result and memory does not grow with
//! the run's samples or finished apps.

mod app_rows;
mod file;

pub use file::{APPS_HEADER, FileRecorder, QUEUES_HEADER};

use crate::app::{AppRecord, Locality};
use crate::metrics::RunSummary;
pub(crate) use crate::output::csv_text::{CsvField, csv_field};
use crate::time::SimTime;
use fairsim_core::Resource;
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
    /// Whether [`Recorder::app`] is wanted (a record costs a copy of the app's names).
    fn wants_apps(&self) -> bool {
        false
    }
    /// One app's record, at most once per app: when it finishes or is rejected, then at the
    /// end of the run for every app still open (unfinished) by index. An app submitted after
    /// the end is not in the run and has no record. So the calls are not in index order and
    /// may skip indices; a recorder that needs that order restores it.
    fn app(&mut self, _record: &AppRecord) {}
    /// With explain on: why every app waited, once, just before [`Recorder::finish`].
    fn explain(&mut self, _report: &crate::explain::ExplainReport) {}
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
    /// Every app's record, by index (sorted by `finish`).
    pub apps: Vec<AppRecord>,
    /// The summary.
    pub summary: Option<RunSummary>,
    /// Whether to take samples.
    pub sample: bool,
    /// Why apps waited, when the run explained it.
    pub explain: Option<crate::explain::ExplainReport>,
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
    fn wants_apps(&self) -> bool {
        true
    }
    fn app(&mut self, record: &AppRecord) {
        self.apps.push(record.clone());
    }
    fn explain(&mut self, report: &crate::explain::ExplainReport) {
        self.explain = Some(report.clone());
    }
    fn finish(&mut self, summary: &RunSummary) -> Result<(), RecorderError> {
        self.apps.sort_by_key(|a| a.index);
        self.summary = Some(summary.clone());
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Simulation;
    use crate::app::{AppSpec, TaskGroup};
    use crate::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
    use std::cell::RefCell;
    use std::rc::Rc;

    /// Keeps the records in the order they came, shared with the test.
    struct Calls(Rc<RefCell<Vec<AppRecord>>>);

    impl Recorder for Calls {
        fn wants_apps(&self) -> bool {
            true
        }
        fn app(&mut self, record: &AppRecord) {
            self.0.borrow_mut().push(record.clone());
        }
    }

    fn app(name: &str, arrival_s: u64, queue: &str, count: u32, mb: i64, secs: u64) -> AppSpec {
        AppSpec {
            name: name.into(),
            arrival: SimTime(arrival_s * 1000),
            queue: queue.into(),
            user: "u".into(),
            am: None,
            stages: vec![vec![TaskGroup {
                count,
                size: Resource::new(mb, 1),
                duration_ms: secs * 1000,
                priority: 1,
                hosts: vec![],
                relax_locality: true,
            }]],
            recorded: None,
        }
    }

    /// Every app's record is handed over once: a finished or rejected app's when it closes,
    /// and it is then what the app's record is at the end of the run (nothing in it changes
    /// after it closes, preemption counters included); the apps still open at the end follow,
    /// by index.
    #[test]
    fn each_app_is_recorded_once_when_it_closes_as_it_ends_the_run() {
        let xml = "<allocations><queue name=\"a\"/><queue name=\"b\">\
                   <minResources>4096 mb, 4 vcores</minResources>\
                   <minSharePreemptionTimeout>10</minSharePreemptionTimeout></queue></allocations>";
        let tree = crate::alloc::parse_fair_scheduler_xml(
            xml,
            "fair-scheduler.xml",
            fairsim_core::Semantics::Hadoop27,
        )
        .unwrap()
        .tree;
        // 8 nodes of 1024 MB. `a0` fills them for 60 s; `b1` comes at 5 s, is starved of its
        // min share (4096 MB) for 10 s, and 2.7 warns 4 of a0's containers and kills them
        // 15 s later (about 30 s): b1 runs then for 20 s, a0's re-asked tasks after it, so a0
        // finishes after b1 with its preemption counted; `c2` asks for more than a node and is
        // rejected; `d3` is still running at the end (150 s) and `e4` arrives after it.
        let apps = vec![
            app("a0", 0, "a", 8, 1024, 60),
            app("b1", 5, "b", 4, 1024, 20),
            app("c2", 6, "a", 1, 100_000, 1),
            {
                let mut d3 = app("d3", 100, "a", 1, 1024, 1000);
                d3.stages[0][0].hosts = vec!["node1".into()];
                d3
            },
            app("e4", 200, "a", 1, 1024, 1),
        ];
        let cluster = ClusterSpec::uniform(8, 1, Resource::new(1024, 1));
        let sc = Scenario {
            scheduler: SchedulerConf {
                preemption: true,
                ..SchedulerConf::default()
            },
            end_ms: Some(150_000),
            check_invariants: true,
            ..Scenario::new("records", cluster, tree, Workload::Trace(apps))
        };
        let calls = Rc::new(RefCell::new(Vec::new()));
        let mut rec = Calls(calls.clone());
        let mut sim = Simulation::new(&sc, 1, 0, &mut rec).unwrap();
        sim.run_to_end().unwrap();
        let got = calls.borrow();
        let order: Vec<u32> = got.iter().map(|r| r.index).collect();
        // c2 is rejected on arrival, b1 finishes before a0; d3 is open at the end; e4
        // arrives after it, so it is not in the run and has no record.
        assert_eq!(order, [2, 1, 0, 3]);
        for r in got.iter() {
            assert_eq!(*r, sim.w.app_record(r.index as usize), "app {}", r.index);
        }
        assert!(got[0].rejected.is_some());
        let a0 = &got[2];
        assert!(
            a0.finish.is_some() && a0.preempted_containers == 4,
            "{a0:?}"
        );
        assert!(got[3].finish.is_none());
        // What a closed app held while it ran is released when it closes: its request table
        // and its locality hints (resolved per stage and task group when the run starts, so
        // an app still to run or running has one entry per group when it names a host, d3
        // here, and none when it names none, e4).
        for (i, a) in sim.w.apps.iter().enumerate() {
            let closed = a.finish.is_some() || a.rejected.is_some();
            let names_hosts = i == 3;
            assert_eq!(
                a.hints.is_empty(),
                closed || !names_hosts,
                "app {i}'s hints"
            );
            if closed {
                assert_eq!(a.requests, crate::app::RequestTable::default(), "app {i}");
            }
        }
    }
}
