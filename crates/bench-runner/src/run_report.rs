//! `fairsim run`'s own picture of a run: the charts (each leaf queue's usage against its
//! instantaneous and steady fair shares with demand; wait and completion-time distributions
//! per queue; Jain's index and utilisation over time) and a short headline in place of every
//! metric.
//!
//! The engine pushes into a [`Tee`]: the run's usual files go to the file recorder, while
//! [`RunTrace`] keeps what the charts need in compact form: at most [`MAX_SAMPLES`] sample
//! times (every other one is dropped when full, so a long run keeps an even spread) of four
//! numbers per leaf queue and three for the cluster, and 24 bytes per admitted app.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use fairsim_sim::engine::submission_check::RejectKind;
use fairsim_sim::recorder::{QueueSample, Recorder, RecorderError};
use fairsim_sim::{RunSummary, Scenario, SimTime};

use crate::plot::PlotError;
use crate::plot::cdf::Cdf;
use crate::plot::run::RunCharts;
use crate::plot::ticks::value_label;
use crate::plot::timeseries::{RunEnd, jain_index};
use crate::plot::usage::{QueuePanel, leaves};
use crate::report_html::{Block, Page, cell, charts_of, scenario_blocks};

/// The most sample times a run's charts keep (the scenario checks' memory estimate counts
/// these).
pub const MAX_SAMPLES: usize = fairsim_sim::scenario_checks::CHART_SAMPLE_TIMES as usize;

/// One leaf queue at one kept sample time, memory in MB: what its usage panel draws.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct LeafPoint {
    usage: f64,
    demand: f64,
    steady: f64,
    fair: f64,
}

/// What the whole cluster's charts need at one kept sample time, summed over the leaves.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Totals {
    /// Jain's index of usage / ideal share over the leaves with an ideal share (`None`
    /// when no leaf has one or every usage is 0).
    jain: Option<f64>,
    /// Memory used, MB.
    memory: f64,
    /// Vcores used.
    vcores: f64,
}

/// What the charts of one run need, kept while it runs: per leaf queue only the four lines
/// of its panel, and per sample time the cluster's totals (32 bytes a leaf and 32 a time).
#[derive(Debug, Clone, Default)]
pub struct RunTrace {
    /// The leaf queues in the order samples first named them (a queue created when an app
    /// is placed joins at the first sample after).
    leaves: Vec<String>,
    /// Each leaf's position in a sample's rows.
    leaf_rows: Vec<usize>,
    /// The number of rows `leaf_rows` was found in (it changes when queues are created).
    rows_seen: usize,
    times: Vec<f64>,
    /// `points[k][l]`: leaf `l` at `times[k]`; shorter than `leaves` at times before a leaf
    /// was created (it had nothing then).
    points: Vec<Box<[LeafPoint]>>,
    totals: Vec<Totals>,
    /// Keep one sample in `stride`.
    stride: u64,
    seen: u64,
    /// Every admitted app's queue, wait and completion time, in the order apps closed.
    apps: Vec<AppPoint>,
    /// The queue names [`AppPoint::queue`] indexes, in first-seen order.
    app_queues: Vec<String>,
    /// The run's end as its summary gives it, once finished.
    end: Option<RunEnd>,
    /// Apps rejected at submission, by kind: how many, and the first (name and reason).
    rejected: BTreeMap<RejectKind, (u64, String)>,
}

/// What the wait and completion-time charts need of one admitted app: 24 bytes, no name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct AppPoint {
    /// Index into [`RunTrace::app_queues`].
    queue: u32,
    /// Arrival to first container, ms; [`NEVER`] when it never started.
    wait_ms: u64,
    /// Arrival to finish, ms; [`NEVER`] when it never finished.
    jct_ms: u64,
}

/// An [`AppPoint`] time that never came.
const NEVER: u64 = u64::MAX;

impl RunTrace {
    fn app(&mut self, a: &fairsim_sim::app::AppRecord) {
        if let Some(reason) = &a.rejected {
            let kind = self.rejected.entry(RejectKind::of(reason));
            kind.or_insert_with(|| (0, format!("{}: {reason}", a.name)))
                .0 += 1;
            return;
        }
        let queue = match self.app_queues.iter().rposition(|q| *q == a.queue) {
            Some(i) => i,
            None => {
                self.app_queues.push(a.queue.clone());
                self.app_queues.len() - 1
            }
        } as u32;
        self.apps.push(AppPoint {
            queue,
            wait_ms: a.wait_ms().unwrap_or(NEVER),
            jct_ms: a.jct_ms().unwrap_or(NEVER),
        });
    }

    /// `(queue, seconds)` of every admitted app for a CDF, `None` when the time never came.
    fn app_seconds(
        &self,
        ms: fn(&AppPoint) -> u64,
    ) -> impl Iterator<Item = (String, Option<f64>)> + '_ {
        self.apps.iter().map(move |a| {
            let v = ms(a);
            let secs = (v != NEVER).then(|| v as f64 / 1000.0);
            (self.app_queues[a.queue as usize].clone(), secs)
        })
    }

    /// The leaf queues the charts show, in the order samples first named them.
    pub fn leaves(&self) -> &[String] {
        &self.leaves
    }

    /// One line per kind of rejection at submission (how many, and the first app's reason),
    /// so that a run whose apps were refused says why where its counts are read.
    pub fn rejection_lines(&self) -> String {
        let mut s = String::new();
        for (kind, (n, first)) in &self.rejected {
            let _ = writeln!(
                s,
                "  rejected: {n} ({}), e.g. {first}; each app's reason is apps.csv's status",
                kind.describe()
            );
        }
        s
    }

    /// Finds each known leaf's row in `rows` again when the queues changed, adding the new
    /// leaves after the known ones (a queue is created, never removed, and a leaf stays one).
    fn find_leaves(&mut self, rows: &[QueueSample]) {
        if rows.len() == self.rows_seen {
            return;
        }
        self.rows_seen = rows.len();
        for q in leaves(rows.iter().map(|r| r.queue.as_str())) {
            if !self.leaves.iter().any(|l| l == q) {
                self.leaves.push(q.to_string());
            }
        }
        self.leaf_rows = self
            .leaves
            .iter()
            .map(|q| rows.iter().position(|r| r.queue == *q).expect("a queue"))
            .collect();
    }

    fn sample(&mut self, t: SimTime, rows: &[QueueSample]) {
        if self.stride == 0 {
            self.stride = 1;
        }
        self.seen += 1;
        if !(self.seen - 1).is_multiple_of(self.stride) {
            return;
        }
        self.find_leaves(rows);
        let leaf_rows = || self.leaf_rows.iter().map(|&i| &rows[i]);
        self.times.push(t.secs_f64());
        self.points.push(
            leaf_rows()
                .map(|r| LeafPoint {
                    usage: r.usage.memory_mb as f64,
                    demand: r.demand.memory_mb as f64,
                    steady: r.steady_fair_share.memory_mb as f64,
                    fair: r.fair_share.memory_mb as f64,
                })
                .collect(),
        );
        // As the `jain_index` metric takes it, here at sample times rather than between events.
        let xs: Vec<f64> = leaf_rows()
            .filter(|r| r.ideal_share.memory_mb > 0)
            .map(|r| r.usage.memory_mb as f64 / r.ideal_share.memory_mb as f64)
            .collect();
        self.totals.push(Totals {
            jain: jain_index(&xs),
            memory: leaf_rows().map(|r| r.usage.memory_mb as f64).sum(),
            vcores: leaf_rows().map(|r| r.usage.vcores as f64).sum(),
        });
        if self.times.len() >= MAX_SAMPLES {
            keep_even(&mut self.times);
            keep_even(&mut self.points);
            keep_even(&mut self.totals);
            self.stride *= 2;
        }
    }

    fn panels(&self) -> Vec<QueuePanel> {
        self.leaves
            .iter()
            .enumerate()
            .map(|(l, q)| {
                // Before the leaf existed it held, asked and was given nothing.
                let col = |f: fn(&LeafPoint) -> f64| {
                    self.points
                        .iter()
                        .map(|r| r.get(l).map_or(0.0, f))
                        .collect()
                };
                QueuePanel {
                    queue: q.clone(),
                    times: self.times.clone(),
                    usage: col(|p| p.usage),
                    fair_share: col(|p| p.fair),
                    steady_fair_share: Some(col(|p| p.steady)),
                    demand: Some(col(|p| p.demand)),
                }
            })
            .collect()
    }

    /// What the run's charts draw, for a cluster of `memory_mb` and `vcores`.
    pub fn charts(&self, memory_mb: f64, vcores: f64) -> RunCharts {
        let chartable = !self.times.is_empty();
        RunCharts {
            panels: if chartable { self.panels() } else { Vec::new() },
            jain: self.jain(),
            jain_share: "ideal share".to_string(),
            utilisation: Some(self.utilisation(memory_mb, vcores)),
            end: self.end,
            waits: Cdf::per_queue(self.app_seconds(|a| a.wait_ms)),
            completions: Cdf::per_queue(self.app_seconds(|a| a.jct_ms)),
        }
    }

    /// Jain's index of usage / ideal share over the leaves with an ideal share, at the
    /// times it is defined.
    fn jain(&self) -> Vec<(f64, f64)> {
        self.times
            .iter()
            .zip(&self.totals)
            .filter_map(|(&t, s)| s.jain.map(|j| (t, j)))
            .collect()
    }

    fn utilisation(&self, memory_mb: f64, vcores: f64) -> Vec<(f64, f64, f64)> {
        self.times
            .iter()
            .zip(&self.totals)
            .map(|(&t, s)| (t, s.memory / memory_mb.max(1.0), s.vcores / vcores.max(1.0)))
            .collect()
    }
}

/// The end of a run from its summary's metrics.
fn run_end(summary: &RunSummary) -> RunEnd {
    let get = |m: &str| {
        summary
            .metrics
            .iter()
            .find(|(k, _)| k == m)
            .map_or(f64::NAN, |(_, v)| *v)
    };
    RunEnd {
        sim_time_s: get("sim_time_s"),
        makespan_s: get("makespan_s"),
        util_memory: get("util_memory"),
        util_vcores: get("util_vcores"),
    }
}

/// Keeps the elements at even positions (the first, third, ...).
fn keep_even<T>(v: &mut Vec<T>) {
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        i % 2 == 1
    });
}

/// Passes everything to `inner` and keeps a [`RunTrace`].
pub struct Tee<'a> {
    /// The recorder writing the run's files.
    pub inner: &'a mut dyn Recorder,
    /// What the charts need.
    pub trace: RunTrace,
    /// A replay run's recorded times, joined with the run's apps as they close; its
    /// figures join the summary's metrics before `inner` writes them.
    pub replay: Option<ReplayTee>,
    /// Why apps waited, when the run explained it (the report's section).
    pub explained: Option<fairsim_sim::explain::ExplainReport>,
}

/// The recorded side of a replay run and what the join made of it.
pub struct ReplayTee {
    /// `recorded.csv`'s text, checked before the run.
    pub recorded: String,
    /// Its name in messages.
    pub name: String,
    /// The scenario's `am_launch_delay_ms`.
    pub am_launch_delay_ms: i64,
    /// The run's apps as they closed.
    pub apps: Vec<fairsim_sim::import::replay::RunApp>,
    /// The join, and the summary with its metrics, once the run finished.
    pub result: Option<(fairsim_sim::import::replay::Replay, RunSummary)>,
}

impl ReplayTee {
    /// Reads `path` and checks it joins (its columns and numbers), before any run.
    pub fn open(path: &Path, am_launch_delay_ms: i64) -> Result<ReplayTee, crate::CliError> {
        let name = path.display().to_string();
        let recorded = std::fs::read_to_string(path)
            .map_err(|e| crate::CliError::Input(format!("{name}: {e}")))?;
        fairsim_sim::import::replay::replay_apps(recorded.as_bytes(), &name, &[], 0)
            .map_err(crate::CliError::Input)?;
        Ok(ReplayTee {
            recorded,
            name,
            am_launch_delay_ms,
            apps: Vec::new(),
            result: None,
        })
    }
}

impl Recorder for Tee<'_> {
    fn decision(&mut self, d: &fairsim_sim::recorder::Decision) {
        self.inner.decision(d);
    }
    fn wants_samples(&self) -> bool {
        true
    }
    fn queue_samples(&mut self, t: SimTime, rows: &[QueueSample]) {
        if self.inner.wants_samples() {
            self.inner.queue_samples(t, rows);
        }
        self.trace.sample(t, rows);
    }
    fn wants_apps(&self) -> bool {
        true
    }
    fn app(&mut self, record: &fairsim_sim::app::AppRecord) {
        if self.inner.wants_apps() {
            self.inner.app(record);
        }
        self.trace.app(record);
        if let Some(r) = self.replay.as_mut() {
            let ms = |v: Option<u64>| v.map(|v| v as i64);
            r.apps.push((
                record.name.clone(),
                record.queue.clone(),
                ms(record.wait_ms()),
                ms(record.jct_ms()),
            ));
        }
    }
    fn explain(&mut self, report: &fairsim_sim::explain::ExplainReport) {
        self.inner.explain(report);
        self.explained = Some(report.clone());
    }
    fn finish(&mut self, summary: &RunSummary) -> Result<(), RecorderError> {
        self.trace.end = Some(run_end(summary));
        let Some(r) = self.replay.as_mut() else {
            return self.inner.finish(summary);
        };
        // The recorded file was checked before the run: the join cannot fail on it.
        let Ok(joined) = fairsim_sim::import::replay::replay_apps(
            r.recorded.as_bytes(),
            &r.name,
            &r.apps,
            r.am_launch_delay_ms,
        ) else {
            return self.inner.finish(summary);
        };
        let mut with = summary.clone();
        with.metrics
            .extend(fairsim_sim::import::replay::replay_metrics(&joined));
        let done = self.inner.finish(&with);
        r.result = Some((joined, with));
        done
    }
}

/// Draws the run's charts into `dir` (`usage`, `wait-cdf`, `completion-cdf`, `jain`,
/// `utilisation`, each `.png` and `.svg`); `which` names the run in titles.
pub fn draw_run_charts(
    trace: &RunTrace,
    scenario: &Scenario,
    which: &str,
    dir: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let total = scenario.cluster.total();
    trace
        .charts(total.memory_mb as f64, total.vcores as f64)
        .draw(which, dir)
}

/// The most leaf queues the headline lists; the others are named by count.
pub const HEADLINE_QUEUES: usize = 12;

/// `known` (the charts' leaves, in their order) followed by every other leaf the summary
/// reports (`apps.<leaf>`), so that no leaf the run had is missing from the headline.
pub fn leaves_of(summary: &RunSummary, known: &[String]) -> Vec<String> {
    let mut out = known.to_vec();
    for (k, _) in &summary.metrics {
        if let Some(q) = k.strip_prefix("apps.")
            && !out.iter().any(|l| l == q)
        {
            out.push(q.to_string());
        }
    }
    out
}

/// A few lines saying how the run went: apps finished, unfinished and rejected (and how many
/// arrive after the end, not in the run); whether it stalled; utilisation and Jain's index;
/// p50 and p95 wait per leaf queue with apps (`≥` marks a censored percentile, a lower
/// bound), at most [`HEADLINE_QUEUES`] of them: those with the most apps.
pub fn headline(summary: &RunSummary, leaf_queues: &[String]) -> String {
    let get = |k: &str| summary.get(k);
    let n = |k: &str| get(k).map_or("?".to_string(), |v| format!("{v}"));
    let mut s = String::new();
    let _ = write!(
        s,
        "apps: {} finished, {} unfinished ({} never started), {} rejected, of {}",
        n("apps_finished"),
        n("apps_unfinished"),
        n("apps_never_started"),
        n("apps_rejected"),
        n("apps")
    );
    let _ = match summary.apps_not_arrived {
        0 => writeln!(s),
        k => writeln!(
            s,
            "; {k} more of the workload arrive after the end (end_ms) and are not in the run"
        ),
    };
    let end = summary.end.secs_f64();
    let _ = match (summary.stalled_at, summary.cycle_from) {
        (Some(t), Some(from)) => writeln!(
            s,
            "stalled at {} s: the state of {} s came back with no app finished in between, so \
             the run would repeat it forever (a preemption or reservation cycle; YARN would \
             loop too) and stopped there",
            value_label(t.secs_f64()),
            value_label(from.secs_f64())
        ),
        (Some(t), None) => writeln!(
            s,
            "stalled at {} s: apps unfinished and no future event can help them (YARN would hang)",
            value_label(t.secs_f64())
        ),
        (None, _) => match get("makespan_s") {
            Some(m) => writeln!(
                s,
                "not stalled; makespan {} s of {} s simulated",
                value_label(m),
                value_label(end)
            ),
            None => writeln!(s, "not stalled; simulated {} s", value_label(end)),
        },
    };
    // What each group of unfinished apps waits for, and what would unblock it.
    let groups = &summary.stall_diagnosis;
    for g in groups.iter().take(HEADLINE_QUEUES) {
        let _ = writeln!(s, "  why: {}", g.words);
    }
    if groups.len() > HEADLINE_QUEUES {
        let _ = writeln!(
            s,
            "  why: {} more groups in summary.json's stall_diagnosis",
            groups.len() - HEADLINE_QUEUES
        );
    }
    let v = |k: &str| get(k).map_or("n/a".to_string(), value_label);
    let _ = writeln!(
        s,
        "utilisation: memory {}, vcores {}; Jain's fairness index {}",
        v("util_memory"),
        v("util_vcores"),
        v("jain_index")
    );
    let pct = |k: &str, q: &str| {
        let at_least = get(&format!("{k}_censored.{q}")) == Some(1.0);
        let val = v(&format!("{k}.{q}"));
        if at_least && val != "n/a" {
            format!("≥ {val}")
        } else {
            val
        }
    };
    let width = leaf_queues
        .iter()
        .map(|q| q.chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let _ = writeln!(
        s,
        "wait (s)  {:<width$}  {:>9}  {:>9}",
        "queue", "p50", "p95"
    );
    // A queue no app went to has no percentiles.
    let with_apps: Vec<&String> = leaf_queues
        .iter()
        .filter(|q| get(&format!("wait_s_p50.{q}")).is_some_and(f64::is_finite))
        .collect();
    let shown: Vec<&String> = if with_apps.len() > HEADLINE_QUEUES {
        let apps = |q: &str| get(&format!("apps.{q}")).unwrap_or(0.0);
        let mut order: Vec<usize> = (0..with_apps.len()).collect();
        order.sort_by(|&a, &b| {
            apps(with_apps[b])
                .total_cmp(&apps(with_apps[a]))
                .then(a.cmp(&b))
        });
        let mut keep = order[..HEADLINE_QUEUES].to_vec();
        keep.sort_unstable();
        keep.into_iter().map(|i| with_apps[i]).collect()
    } else {
        with_apps.clone()
    };
    for q in &shown {
        let _ = writeln!(
            s,
            "          {q:<width$}  {:>9}  {:>9}",
            pct("wait_s_p50", q),
            pct("wait_s_p95", q)
        );
    }
    if shown.len() < with_apps.len() {
        let _ = writeln!(
            s,
            "          and {} more leaf queues with apps, fewer apps each (every queue's in summary.csv)",
            with_apps.len() - shown.len()
        );
    }
    s
}

/// The per-queue metrics the report's queue table shows, when the run reports them.
const QUEUE_COLUMNS: &[&str] = &[
    "wait_s_p50",
    "wait_s_p95",
    "jct_s_p50",
    "jct_s_p95",
    "starved_min_s",
    "starved_fair_s",
    "preempted_containers",
];

/// A metric's column heading: its catalogue title and unit.
fn heading(name: &str) -> String {
    crate::plot::labels::metric(name).axis()
}

/// The report's tables: the whole-run metrics, and the main ones per leaf queue.
pub fn metric_tables(summary: &[(String, f64)], leaf_queues: &[String]) -> Vec<Block> {
    let get = |k: &str| summary.iter().find(|m| m.0 == k).map(|m| m.1);
    let flagged = |k: &str| match k.split_once('.') {
        Some((base, q)) => get(&format!("{base}_censored.{q}")) == Some(1.0),
        None => get(&format!("{k}_censored")) == Some(1.0),
    };
    let mut rows = Vec::new();
    for (k, v) in summary {
        if k.contains('.') || k.ends_with("_censored") {
            continue;
        }
        let (title, unit, direction) = match fairsim_sim::catalogue::lookup(k) {
            Some(r) => (
                r.title(),
                r.metric.unit.symbol().to_string(),
                r.metric.direction.as_str().to_string(),
            ),
            None => (k.clone(), String::new(), String::new()),
        };
        rows.push(vec![
            title,
            cell(Some(*v), flagged(k)),
            unit,
            direction,
            k.clone(),
        ]);
    }
    let mut blocks = vec![Block::Table {
        caption: "Whole run (≥: a censored percentile, a lower bound)".to_string(),
        header: [
            "metric",
            "value",
            "unit",
            "direction",
            "name in summary.csv",
        ]
        .map(String::from)
        .to_vec(),
        rows,
    }];
    let columns: Vec<&str> = QUEUE_COLUMNS
        .iter()
        .copied()
        .filter(|c| {
            leaf_queues
                .iter()
                .any(|q| get(&format!("{c}.{q}")).is_some())
        })
        .collect();
    let queue_rows: Vec<Vec<String>> = leaf_queues
        .iter()
        .map(|q| {
            std::iter::once(q.clone())
                .chain(columns.iter().map(|c| {
                    let k = format!("{c}.{q}");
                    cell(get(&k), flagged(&k))
                }))
                .collect()
        })
        .collect();
    if !columns.is_empty() {
        blocks.push(Block::Table {
            caption: "Per leaf queue".to_string(),
            header: std::iter::once("queue".to_string())
                .chain(columns.iter().map(|c| heading(c)))
                .collect(),
            rows: queue_rows,
        });
    }
    blocks
}

/// Runs `scenario` (read from `scenario_path`) into `out`: the usual files, the charts and
/// `report.html` (naming `command`); returns the summary and the headline.
pub fn run_with_charts(
    scenario: &Scenario,
    scenario_path: &Path,
    seed: u64,
    run_index: u64,
    out: &Path,
    command: &str,
) -> Result<(RunSummary, String), crate::CliError> {
    let replay = match &scenario.recorded {
        Some(p) => Some(ReplayTee::open(
            p,
            scenario.scheduler.am_launch_delay_ms as i64,
        )?),
        None => None,
    };
    let mut files = fairsim_sim::FileRecorder::new(out);
    let mut tee = Tee {
        inner: &mut files,
        trace: RunTrace::default(),
        replay,
        explained: None,
    };
    let bar = crate::progress::sim_bar();
    let summary =
        fairsim_sim::run_with_progress(scenario, seed, run_index, &mut tee, &mut |t, h| {
            crate::progress::sim_progress(&bar, t.0, h.0)
        });
    bar.finish_and_clear();
    let summary = summary.map_err(|e| match e {
        fairsim_sim::SimError::Invalid(_) => crate::CliError::Input(e.to_string()),
        _ => crate::CliError::Failed(e.to_string()),
    })?;
    let trace = tee.trace;
    let explained = tee.explained;
    let (summary, replayed) = match tee.replay.and_then(|r| r.result) {
        Some((joined, with)) => (with, Some(joined)),
        None => (summary, None),
    };
    let which = format!("{}, seed {seed}", scenario.name);
    let charts = draw_run_charts(&trace, scenario, &which, out)
        .map_err(|e| crate::CliError::Failed(e.to_string()))?;
    let leaves = leaves_of(&summary, trace.leaves());
    let mut text = headline(&summary, &leaves);
    // Why apps were rejected, under the line that counts them.
    let first_line = text.find('\n').map_or(text.len(), |i| i + 1);
    text.insert_str(first_line, &trace.rejection_lines());
    let failed = |e: std::io::Error| crate::CliError::Failed(format!("{}: {e}", out.display()));
    let mut blocks = vec![Block::Pre {
        caption: "Headline".to_string(),
        text: text.clone(),
    }];
    blocks.push(Block::Heading("Charts".to_string()));
    blocks.push(Block::Charts(charts_of(&charts).map_err(failed)?));
    if let Some(r) = &replayed {
        blocks.push(Block::Heading(
            "Replay against the recorded times".to_string(),
        ));
        let mut text = crate::replay_table::replay_table(r);
        if let Some(gaps) = crate::replay_table::replay_gaps(r) {
            let _ = writeln!(text, "{gaps}");
        }
        blocks.push(Block::Pre {
            caption: format!(
                "Simulated against recorded ({}), from each app's submission; in summary.csv as replay_*",
                scenario
                    .recorded
                    .as_ref()
                    .map_or(String::new(), |p| p.display().to_string())
            ),
            text,
        });
    }
    if let Some(e) = &explained {
        blocks.extend(crate::why_waited::report_blocks(e));
    }
    blocks.push(Block::Heading("Metrics".to_string()));
    blocks.extend(metric_tables(&summary.metrics, &leaves));
    blocks.push(Block::Heading("How it was made".to_string()));
    blocks.push(Block::Pre {
        caption: "Command".to_string(),
        text: command.to_string(),
    });
    blocks.extend(scenario_blocks(scenario_path, "Scenario"));
    let page = Page {
        title: format!(
            "fairsim run: {}, seed {seed}, run index {run_index}",
            scenario.name
        ),
        blocks,
    };
    let report = page.write(out).map_err(failed)?;
    let _ = writeln!(
        text,
        "wrote {}: every metric in summary.csv, {} chart files, {}",
        out.display(),
        charts.len(),
        report.display()
    );
    Ok((summary, text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairsim_core::Resource;

    fn sample(queue: &str, usage: i64) -> QueueSample {
        let r = |m| Resource {
            memory_mb: m,
            vcores: 1,
        };
        QueueSample {
            queue: queue.into(),
            usage: r(usage),
            demand: r(usage),
            min_share: r(0),
            steady_fair_share: r(100),
            fair_share: r(100),
            ideal_share: r(100),
            running_apps: 0,
            pending_apps: 0,
        }
    }

    #[test]
    fn a_long_run_keeps_an_even_spread_of_samples() {
        let mut t = RunTrace::default();
        for k in 0..(3 * MAX_SAMPLES as u64) {
            t.sample(SimTime(k * 1000), &[sample("root", 1), sample("root.a", 1)]);
        }
        assert!(t.times.len() < MAX_SAMPLES && t.times.len() >= MAX_SAMPLES / 2);
        assert_eq!(t.times[0], 0.0);
        let gaps: Vec<f64> = t.times.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(gaps.iter().all(|&g| g == gaps[0]), "even spacing");
        assert_eq!(t.points.len(), t.times.len());
        assert_eq!(t.totals.len(), t.times.len());
        assert_eq!(t.leaves, ["root.a"]);
    }

    #[test]
    fn jain_uses_leaves_with_an_ideal_share() {
        let mut t = RunTrace::default();
        t.sample(
            SimTime(0),
            &[
                sample("root", 150),
                sample("root.a", 100),
                sample("root.b", 50),
            ],
        );
        let j = t.jain();
        // (1 + 0.5)^2 / (2 * (1 + 0.25)) = 0.9
        assert_eq!(j.len(), 1);
        assert!((j[0].1 - 0.9).abs() < 1e-12, "{j:?}");
    }

    /// A queue placement creates during the run (a workload queue the allocation file does
    /// not name) has a panel and a headline line like the others; before, only the leaves of
    /// the first sample did.
    #[test]
    fn a_leaf_created_during_the_run_is_charted_and_in_the_headline() {
        let mut t = RunTrace::default();
        t.sample(SimTime(0), &[sample("root", 10), sample("root.a", 10)]);
        // root.b is created between a and c in the tree's order.
        t.sample(
            SimTime(1000),
            &[
                sample("root", 30),
                sample("root.a", 10),
                sample("root.b", 20),
            ],
        );
        t.sample(
            SimTime(2000),
            &[
                sample("root", 60),
                sample("root.a", 15),
                sample("root.b", 25),
                sample("root.c", 20),
            ],
        );
        assert_eq!(t.leaves(), ["root.a", "root.b", "root.c"]);
        let panels = t.panels();
        assert_eq!(panels[0].usage, [10.0, 10.0, 15.0]);
        assert_eq!(
            panels[1].usage,
            [0.0, 20.0, 25.0],
            "nothing before it existed"
        );
        assert_eq!(panels[2].usage, [0.0, 0.0, 20.0]);
        let chart = crate::plot::usage::UsageChart::new(panels, "r");
        assert!(
            chart.subtitle.contains("3 panels for 3 leaf queues"),
            "{}",
            chart.subtitle
        );
        // A leaf the summary reports that no kept sample named is added after the known ones.
        let metrics = ["root.a", "root.b", "root.c", "root.d"]
            .iter()
            .flat_map(|q| {
                [
                    (format!("apps.{q}"), 1.0),
                    (format!("wait_s_p50.{q}"), 1.0),
                    (format!("wait_s_p95.{q}"), 2.0),
                ]
            })
            .collect();
        let summary = RunSummary {
            metrics,
            ..RunSummary::default()
        };
        let leaves = leaves_of(&summary, t.leaves());
        assert_eq!(leaves, ["root.a", "root.b", "root.c", "root.d"]);
        let h = headline(&summary, &leaves);
        for q in &leaves {
            assert!(h.contains(q.as_str()), "{q}: {h}");
        }
    }

    /// Past [`HEADLINE_QUEUES`] leaves with apps, those with the most apps are listed and the
    /// others counted; apps after the end are said to be out of the run.
    #[test]
    fn the_headline_lists_the_busiest_leaves_and_the_apps_after_the_end() {
        let leaves: Vec<String> = (0..20).map(|i| format!("root.q{i:02}")).collect();
        let mut metrics = vec![("apps".to_string(), 210.0)];
        for (i, q) in leaves.iter().enumerate() {
            metrics.push((format!("apps.{q}"), i as f64 + 1.0));
            metrics.push((format!("wait_s_p50.{q}"), 1.0));
            metrics.push((format!("wait_s_p95.{q}"), 2.0));
        }
        let summary = RunSummary {
            metrics,
            apps_not_arrived: 4939,
            ..RunSummary::default()
        };
        let h = headline(&summary, &leaves);
        assert!(
            h.lines().next().unwrap().ends_with(
                "of 210; 4939 more of the workload arrive after the end (end_ms) and are not in the run"
            ),
            "{h}"
        );
        // q08 to q19 have the most apps.
        for (i, q) in leaves.iter().enumerate() {
            assert_eq!(h.contains(q.as_str()), i >= 8, "{q}: {h}");
        }
        assert!(
            h.contains("and 8 more leaf queues with apps, fewer apps each"),
            "{h}"
        );
    }

    #[test]
    fn the_headline_marks_censored_percentiles_and_stalls() {
        let summary = RunSummary {
            metrics: vec![
                ("apps".into(), 10.0),
                ("apps_finished".into(), 7.0),
                ("apps_unfinished".into(), 3.0),
                ("apps_never_started".into(), 1.0),
                ("apps_rejected".into(), 0.0),
                ("util_memory".into(), 0.8123),
                ("util_vcores".into(), 0.5),
                ("jain_index".into(), 0.93),
                ("wait_s_p50.root.a".into(), 12.25),
                ("wait_s_p50_censored.root.a".into(), 0.0),
                ("wait_s_p95.root.a".into(), 300.0),
                ("wait_s_p95_censored.root.a".into(), 1.0),
            ],
            stalled_at: Some(SimTime(5000)),
            ..RunSummary::default()
        };
        let h = headline(&summary, &["root.a".to_string()]);
        assert!(
            h.contains("7 finished, 3 unfinished (1 never started), 0 rejected, of 10"),
            "{h}"
        );
        assert!(h.contains("stalled at 5 s"), "{h}");
        let cycle = RunSummary {
            cycle_from: Some(SimTime(1500)),
            ..summary.clone()
        };
        let h = headline(&cycle, &["root.a".to_string()]);
        assert!(
            h.contains("stalled at 5 s: the state of 1.5 s came back with no app finished"),
            "{h}"
        );
        assert!(
            h.contains("memory 0.81, vcores 0.5; Jain's fairness index 0.93"),
            "{h}"
        );
        assert!(h.contains("12.2") && h.contains("≥ 300"), "{h}");
        assert!(h.lines().count() <= 6, "a headline, not every metric: {h}");
    }
}
