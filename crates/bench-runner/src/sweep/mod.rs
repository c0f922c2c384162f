//! Parameter sweeps: axes crossed with seeds, run in parallel through a [`RunOne`] runner, written as CSV.
//!
//! `spec` reads the sweep file, `plan` numbers the runs, `exec` runs them on rayon, `resume` journals finished
//! runs, `shard` splits a sweep across machines, `merge` joins shards, `output` writes the result files.

pub mod charts;
pub mod check;
pub mod decimal;
pub mod detail;
pub mod exec;
pub mod fake;
pub mod headline;
pub mod merge;
pub mod output;
pub mod param_path;
pub mod plan;
pub mod resume;
pub mod shard;
pub mod spec;
pub mod stalls;

use std::path::{Path, PathBuf};

use crate::plot::PlotError;

pub use shard::Shard;
pub use spec::{Spec, SpecError};

/// One simulation, as a sweep sees it. Implemented by the simulator's adapter and by test runners.
pub trait RunOne: Sync {
    /// Runs one scenario (a TOML document after axis values were applied) with one seed; returns ordered
    /// (metric name, value) pairs. Every run of a sweep must return the same names in the same order.
    ///
    /// `scenario_dir` is the directory relative paths inside the scenario (allocation file, trace) resolve
    /// against. `run_index` is the run's place in the sweep, for deriving the run's random stream.
    fn run_one(
        &self,
        scenario: &toml::Value,
        scenario_dir: &Path,
        seed: u64,
        run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError>;

    /// Like [`RunOne::run_one`], and also writes the run's detail files into `detail_dir`
    /// (created by the runner): `queues.csv` and `apps.csv` with at least the columns
    /// `time_ms,queue,usage_mb,fair_share_mb` and `app,queue,wait_ms,jct_ms`, which the
    /// sweep's run charts are drawn from ([`detail::DetailSeries`]). The sweep calls this for
    /// the one run it charts in detail; the default writes nothing. A runner writes the files
    /// as the run goes rather than holding them: they can be large.
    fn run_detailed(
        &self,
        scenario: &toml::Value,
        scenario_dir: &Path,
        seed: u64,
        run_index: u64,
        detail_dir: &Path,
    ) -> Result<Vec<(String, f64)>, RunError> {
        let _ = detail_dir;
        self.run_one(scenario, scenario_dir, seed, run_index)
    }

    /// Why a run that stalled stalled: one sentence per group of its unfinished apps (what
    /// they wait for and what would unblock them), as `fairsim run` prints them. The sweep
    /// asks it of its first stalled run, after the others, so that its terminal line says
    /// why and not only where. The default knows nothing.
    fn stall_words(
        &self,
        scenario: &toml::Value,
        scenario_dir: &Path,
        seed: u64,
        run_index: u64,
    ) -> Vec<String> {
        let _ = (scenario, scenario_dir, seed, run_index);
        Vec::new()
    }

    /// Checks, without running it, that a sweep point's scenario can run and reports each of
    /// `metrics`. The sweep calls this for every point before the first run, so a bad axis value
    /// or metric name fails the sweep before any work or file. The default accepts everything.
    fn check_point(
        &self,
        _scenario: &toml::Value,
        _scenario_dir: &Path,
        _metrics: &[&str],
    ) -> Result<(), PointError> {
        Ok(())
    }
}

/// Why a sweep point cannot run, found before any run.
#[derive(Debug, Clone, PartialEq)]
pub enum PointError {
    /// The point's scenario is invalid.
    Scenario(String),
    /// `metrics[index]` is not a metric the point reports.
    Metric {
        /// Its index in the list given to [`RunOne::check_point`].
        index: usize,
        /// Why, lowercase.
        message: String,
    },
}

/// A run's time series (queue usage and fair share) and per-app records, held in memory by
/// runners that make them up (the fake runner) and written with [`output::write_detail`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunDetail {
    /// Queue samples, by time then queue.
    pub queues: Vec<QueueSample>,
    /// One record per finished app.
    pub apps: Vec<AppRecord>,
}

/// One queue at one instant.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueSample {
    /// Simulated time, seconds.
    pub time_s: f64,
    /// Queue name (e.g. `root.etl`).
    pub queue: String,
    /// Memory the queue uses, MB.
    pub usage_mb: f64,
    /// The queue's instantaneous fair share of memory, MB.
    pub fair_share_mb: f64,
}

/// One finished app.
#[derive(Debug, Clone, PartialEq)]
pub struct AppRecord {
    /// App id.
    pub app: String,
    /// Leaf queue the app ran in.
    pub queue: String,
    /// Arrival to first container, seconds.
    pub wait_s: f64,
    /// Arrival to finish (job completion time), seconds.
    pub completion_s: f64,
}

/// A run failed inside the runner.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct RunError {
    /// What went wrong, lowercase.
    pub message: String,
}

impl RunError {
    /// A run error with this message.
    pub fn new(message: impl Into<String>) -> RunError {
        RunError {
            message: message.into(),
        }
    }
}

/// One finished run, as journaled and as joined in index order.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// The run's index.
    pub run_index: u64,
    /// The run's seed.
    pub seed: u64,
    /// Ordered (metric name, value) pairs.
    pub metrics: Vec<(String, f64)>,
}

/// Errors of sweeps, merges and result files.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// The sweep file is invalid.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A run failed.
    #[error("run {run_index} (seed {seed}, {point}): {source}")]
    Run {
        /// The run's index.
        run_index: u64,
        /// The run's seed.
        seed: u64,
        /// The run's axis values, `path=value` joined by commas.
        point: String,
        /// The runner's error.
        source: RunError,
    },
    /// An input file (a sweep's outputs read back by `merge` or `plot`) cannot be read: bad
    /// input, exit code 2.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A results file is malformed.
    #[error("{}: {message}", path.display())]
    Csv {
        /// The file involved.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A cell of a results file is malformed.
    #[error("{}:{line}: {message}", path.display())]
    CsvAt {
        /// The file involved.
        path: PathBuf,
        /// Its line.
        line: u64,
        /// The column, the value and what is wrong.
        message: String,
    },
    /// Runs, shards or journals that do not fit together.
    #[error("{0}")]
    Inconsistent(String),
    /// Shard outputs given to `merge` that do not make one sweep (another sweep, a shard
    /// missing or given twice, runs missing or repeated): bad input, exit code 2.
    #[error("{0}")]
    Shards(String),
    /// Charts could not be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
}

/// Maps an I/O error on `path` to [`SweepError::Io`].
pub(crate) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SweepError + '_ {
    move |source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The most worker threads a sweep starts (docs/limits.md): each holds a run in memory.
pub const MAX_JOBS: usize = 1024;

/// A `--jobs` value: a thread count from 1 to [`MAX_JOBS`].
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_JOBS).contains(&n) => Ok(n),
        _ => Err(format!("`{s}` is not a thread count from 1 to {MAX_JOBS}")),
    }
}

/// Runs a loaded sweep into `out`; returns a one-line account of what was done.
pub fn sweep_into(
    spec: &Spec,
    runner: &dyn RunOne,
    out: &Path,
    jobs: Option<usize>,
    shard: Option<Shard>,
    resume: bool,
) -> Result<String, SweepError> {
    let plan = plan::Plan::new(spec);
    check::check_points(spec, runner)?;
    std::fs::create_dir_all(out).map_err(|source| SweepError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let manifest = output::Manifest {
        name: spec.name.clone(),
        fingerprint: plan.fingerprint.clone(),
        n_runs: plan.n_runs(),
        axes: spec.axes.iter().map(|a| a.path.clone()).collect(),
        charts: spec.charts.clone(),
    };
    manifest.write(out)?;
    let journal_name = shard.map_or_else(|| "journal.jsonl".to_string(), |s| s.journal_file());
    let in_shard = |i: u64| shard.is_none_or(|s| s.contains(i));
    let (journal, done) = resume::Journal::open(
        &out.join(journal_name),
        &plan.fingerprint,
        plan.n_runs(),
        resume,
    )?;
    let done: Vec<RunRecord> = done.into_iter().filter(|r| in_shard(r.run_index)).collect();
    let done_set: std::collections::BTreeSet<u64> = done.iter().map(|r| r.run_index).collect();
    let pending: Vec<u64> = (0..plan.n_runs())
        .filter(|&i| in_shard(i) && !done_set.contains(&i))
        .collect();
    let scenario_dir = spec.base_path.parent().unwrap_or(Path::new(""));
    let ctx = exec::Context {
        plan: &plan,
        base: &spec.base,
        scenario_dir,
        runner,
        journal: Some(&journal),
        detail: Some((spec.charts.run, out)),
    };
    let fresh = exec::execute(&ctx, &pending, jobs, done.len() as u64)?;
    let n_fresh = fresh.len();
    let mut records = done;
    records.extend(fresh);
    records.sort_by_key(|r| r.run_index);
    let table = exec::table(&plan, &records)?;
    let n = table.rows.len();
    if let Some(s) = shard {
        output::write_file(&out.join(s.runs_file()), &table.to_csv())?;
    } else {
        write_final(out, &table, &spec.charts)?;
    }
    journal.remove()?;
    let mut said = format!(
        "{n} runs ({n_fresh} run now, {} resumed) written to {}",
        n - n_fresh,
        out.display()
    );
    if let Some(line) = stalls::stalled_line(&table.stalled_points()) {
        said = format!("{said}\n{line}");
        if let Some(row) = table.rows.iter().find(|r| table.stalled(r)) {
            let scenario = plan.scenario(&spec.base, row.run_index);
            let words = runner.stall_words(&scenario, scenario_dir, row.seed, row.run_index);
            let point = stalls::point_words(&table.axes, &row.axis_values);
            if let Some(why) = stalls::why_lines(&point, row.seed, &words) {
                said = format!("{said}\n{why}");
            }
        }
    }
    Ok(said)
}

/// Writes `runs.csv`, `summary.csv` and the charts of a complete sweep.
pub(crate) fn write_final(
    out: &Path,
    table: &output::RunsTable,
    charts: &spec::ChartSpec,
) -> Result<(), SweepError> {
    output::write_file(&out.join(output::RUNS_CSV), &table.to_csv())?;
    let opts = output::SummaryOptions::from(charts);
    output::write_file(&out.join(output::SUMMARY_CSV), &table.summary_csv(&opts))?;
    if charts.exclude_stalled {
        charts::draw_sweep(out, &table.without_stalled(), charts)?;
    } else {
        charts::draw_sweep(out, table, charts)?;
    }
    Ok(())
}

impl From<SweepError> for PlotError {
    fn from(e: SweepError) -> PlotError {
        PlotError::Input(e.to_string())
    }
}
