//! [`FileRecorder`]: a run's output directory, streamed.
//!
//! Rows go to disk as the engine produces them, so memory does not grow with the run: queue
//! samples to a temporary `queues.csv` in the output directory through a buffered writer, app
//! rows to a temporary `apps.csv` in index order as their turn comes ([`AppRows`] holds back
//! the rows that close before an earlier app, and spills them past a bound). Nothing
//! reaches its final name before the run succeeded: [`Recorder::finish`] renames the finished
//! files into place, and a recorder dropped without a successful finish (the run failed, or
//! panicked) removes its temporary files and the directories it created.

use super::app_rows::{AppRows, WINDOW_BYTES};
use super::{CsvField, QueueSample, Recorder, RecorderError, csv_field, fmt_f64, write_atomic};
use crate::app::AppRecord;
use crate::metrics::RunSummary;
use crate::time::SimTime;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The header of `apps.csv`.
pub const APPS_HEADER: &str = "app_index,app,queue,user,arrival_ms,first_container_ms,finish_ms,\
     wait_ms,runtime_ms,jct_ms,recorded_start_ms,recorded_finish_ms,recorded_runtime_ms,\
     slowdown,containers,preempted_containers,lost_work_ms,status\n";

/// The header of `queues.csv`.
pub const QUEUES_HEADER: &str = "time_ms,queue,usage_mb,usage_vcores,demand_mb,demand_vcores,\
     min_share_mb,min_share_vcores,steady_fair_share_mb,steady_fair_share_vcores,fair_share_mb,\
     fair_share_vcores,ideal_share_mb,ideal_share_vcores,running_apps,pending_apps\n";

/// Writes `apps.csv`, `queues.csv`, `summary.json` and `summary.csv` into a directory.
///
/// `apps.csv` columns: `app_index,app,queue,user,arrival_ms,first_container_ms,finish_ms,wait_ms,
/// runtime_ms,jct_ms,recorded_start_ms,recorded_finish_ms,recorded_runtime_ms,slowdown,
/// containers,preempted_containers,lost_work_ms,status`, one row per app by index
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
///
/// Memory: a buffer per file and the rows waiting for an earlier app to close, at most
/// 64 MiB; past that 12 bytes per app (where its row lies in a spill file) and the rows
/// themselves on disk.
#[derive(Debug)]
pub struct FileRecorder {
    dir: PathBuf,
    /// `explain.csv`, `explain_timeline.csv` and `starvation.csv`, when the run explained
    /// its waits: written with the summary.
    explain: Option<[String; 3]>,
    open: Option<Open>,
    /// The first write error; reported by `finish`.
    error: Option<RecorderError>,
    /// Whether `finish` succeeded (then nothing is cleaned up).
    done: bool,
}

/// The files being written, created at the first row.
#[derive(Debug)]
struct Open {
    /// Directories this recorder created, outermost first.
    created: Vec<PathBuf>,
    queues_tmp: PathBuf,
    queues: BufWriter<File>,
    apps_tmp: PathBuf,
    rows_tmp: PathBuf,
    /// Taken by `finish`.
    apps: Option<AppRows<BufWriter<File>>>,
    /// A reused buffer for one `apps.csv` row.
    row: String,
}

/// A temporary name beside `name` in `dir`, unique in this process.
fn temp_path(dir: &Path, name: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()))
}

/// Creates `dir` and its missing ancestors; returns the ones it created, outermost first.
fn create_dirs(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut missing = Vec::new();
    let mut d = Some(dir);
    while let Some(p) = d {
        if p.as_os_str().is_empty() || p.exists() {
            break;
        }
        missing.push(p.to_path_buf());
        d = p.parent();
    }
    std::fs::create_dir_all(dir)?;
    missing.reverse();
    Ok(missing)
}

impl FileRecorder {
    /// A recorder writing into `dir` (created if missing, at the first row).
    pub fn new(dir: impl Into<PathBuf>) -> FileRecorder {
        FileRecorder {
            dir: dir.into(),
            explain: None,
            open: None,
            error: None,
            done: false,
        }
    }

    fn io_error(path: &Path) -> impl FnOnce(io::Error) -> RecorderError + '_ {
        move |source| RecorderError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The open files, created on first use; `None` once writing failed.
    fn files(&mut self) -> Option<&mut Open> {
        if self.error.is_some() {
            return None;
        }
        if self.open.is_none() {
            match self.create() {
                Ok(open) => self.open = Some(open),
                Err(e) => {
                    self.error = Some(e);
                    return None;
                }
            }
        }
        self.open.as_mut()
    }

    fn create(&self) -> Result<Open, RecorderError> {
        let created = create_dirs(&self.dir).map_err(Self::io_error(&self.dir))?;
        let queues_tmp = temp_path(&self.dir, "queues.csv");
        let apps_tmp = temp_path(&self.dir, "apps.csv");
        let rows_tmp = temp_path(&self.dir, "apps.csv.rows");
        let opened = (|| {
            let mut queues = BufWriter::with_capacity(1 << 16, File::create(&queues_tmp)?);
            queues.write_all(QUEUES_HEADER.as_bytes())?;
            let mut apps = BufWriter::with_capacity(1 << 16, File::create(&apps_tmp)?);
            apps.write_all(APPS_HEADER.as_bytes())?;
            Ok((queues, AppRows::new(apps, &rows_tmp, WINDOW_BYTES)))
        })();
        match opened {
            Ok((queues, apps)) => Ok(Open {
                created,
                queues_tmp,
                queues,
                apps_tmp,
                rows_tmp,
                apps: Some(apps),
                row: String::new(),
            }),
            Err(e) => {
                remove_leftovers(&[&queues_tmp, &apps_tmp, &rows_tmp], &created);
                Err(Self::io_error(&self.dir)(e))
            }
        }
    }

    fn fail(&mut self, path: PathBuf, source: io::Error) {
        if self.error.is_none() {
            self.error = Some(RecorderError::Io { path, source });
        }
    }

    /// Renames the finished files into place and writes the summaries.
    fn commit(&mut self, summary: &RunSummary) -> Result<(), RecorderError> {
        self.files();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let open = self
            .open
            .as_mut()
            .expect("files are open when no error was recorded");
        let apps_path = self.dir.join("apps.csv");
        let apps_tmp = open.apps_tmp.clone();
        let apps = open
            .apps
            .take()
            .expect("the app rows are taken once, by a successful finish");
        let written = (|| {
            let w = apps.finish()?;
            let f = w.into_inner().map_err(io::IntoInnerError::into_error)?;
            f.sync_all()?;
            std::fs::rename(&apps_tmp, &apps_path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&apps_tmp);
            let _ = std::fs::remove_file(&open.rows_tmp);
            return Err(Self::io_error(&apps_path)(e));
        }
        let queues_path = self.dir.join("queues.csv");
        let queues_tmp = open.queues_tmp.clone();
        let flushed = (|| {
            open.queues.flush()?;
            open.queues.get_ref().sync_all()?;
            std::fs::rename(&queues_tmp, &queues_path)
        })();
        flushed.map_err(Self::io_error(&queues_path))?;
        let mut csv = String::from("metric,value\n");
        for (k, v) in &summary.metrics {
            let _ = writeln!(csv, "{},{}", csv_field(k), fmt_f64(*v));
        }
        if let Some(files) = self.explain.take() {
            for (name, text) in ["explain.csv", "explain_timeline.csv", "starvation.csv"]
                .iter()
                .zip(files.iter())
            {
                write_atomic(&self.dir.join(name), text.as_bytes())?;
            }
        }
        write_atomic(&self.dir.join("summary.csv"), csv.as_bytes())?;
        write_atomic(&self.dir.join("summary.json"), summary.to_json().as_bytes())?;
        Ok(())
    }
}

/// Removes `files` and then the directories in `created` (innermost first) that are empty.
fn remove_leftovers(files: &[&Path], created: &[PathBuf]) {
    for f in files {
        let _ = std::fs::remove_file(f);
    }
    for d in created.iter().rev() {
        // Only an empty directory goes: anything else in it is not ours.
        let _ = std::fs::remove_dir(d);
    }
}

impl Drop for FileRecorder {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        if let Some(open) = self.open.take() {
            let Open {
                created,
                queues_tmp,
                queues,
                apps_tmp,
                rows_tmp,
                apps,
                ..
            } = open;
            drop((queues, apps));
            remove_leftovers(&[&queues_tmp, &apps_tmp, &rows_tmp], &created);
        }
    }
}

/// `Some(v)` as `v`, `None` as nothing: an empty CSV field.
struct Opt<T>(Option<T>);

impl<T: std::fmt::Display> std::fmt::Display for Opt<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(v) => v.fmt(f),
            None => Ok(()),
        }
    }
}

/// An app's slowdown with six decimals, or nothing.
struct Slowdown(Option<f64>);

impl std::fmt::Display for Slowdown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(x) => write!(f, "{x:.6}"),
            None => Ok(()),
        }
    }
}

/// Appends one app's `apps.csv` row to `s`, formatting every field in place (no string per
/// field: a million-app run writes 18 million of them).
pub(crate) fn app_row(s: &mut String, a: &AppRecord) {
    let _ = write!(
        s,
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},",
        a.index,
        CsvField(&a.name),
        CsvField(&a.queue),
        CsvField(&a.user),
        a.arrival.0,
        Opt(a.first_container.map(|t| t.0)),
        Opt(a.finish.map(|t| t.0)),
        Opt(a.wait_ms()),
        Opt(a.runtime_ms()),
        Opt(a.jct_ms()),
        Opt(a.recorded.map(|r| r.start_ms)),
        Opt(a.recorded.map(|r| r.finish_ms)),
        Opt(a.recorded.map(|r| r.runtime_ms())),
        Slowdown(a.slowdown()),
        a.containers,
        a.preempted_containers,
        a.lost_work_ms,
    );
    let _ = match (&a.rejected, a.finish) {
        (Some(r), _) => writeln!(s, "{}", CsvField(&format!("rejected: {r}"))),
        (None, Some(_)) => writeln!(s, "finished"),
        (None, None) => writeln!(s, "unfinished"),
    };
}

impl Recorder for FileRecorder {
    fn wants_samples(&self) -> bool {
        true
    }

    fn queue_samples(&mut self, t: SimTime, rows: &[QueueSample]) {
        let Some(open) = self.files() else { return };
        let w = &mut open.queues;
        let result = rows.iter().try_for_each(|r| {
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                t.0,
                CsvField(&r.queue),
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
            )
        });
        if let Err(e) = result {
            let path = open.queues_tmp.clone();
            self.fail(path, e);
        }
    }

    fn wants_apps(&self) -> bool {
        true
    }

    fn app(&mut self, record: &AppRecord) {
        let Some(open) = self.files() else { return };
        let Some(apps) = open.apps.as_mut() else {
            return;
        };
        open.row.clear();
        app_row(&mut open.row, record);
        if let Err(e) = apps.push(record.index, open.row.as_bytes()) {
            let path = apps.failed_path(&open.apps_tmp).to_path_buf();
            self.fail(path, e);
        }
    }

    fn explain(&mut self, report: &crate::explain::ExplainReport) {
        self.explain = Some([
            report.explain_csv(),
            report.timeline_csv(),
            report.starvation_csv(),
        ]);
    }

    fn finish(&mut self, summary: &RunSummary) -> Result<(), RecorderError> {
        self.commit(summary)?;
        self.done = true;
        Ok(())
    }
}
