//! The files a sweep writes: `runs.csv`, `summary.csv`, `sweep.json` and the per-run detail CSVs.
//!
//! `runs.csv`: `run_index`, one column per axis (named by its path), `seed`, one column per metric.
//! `summary.csv`: one row per axis point in run order: the axis values, `n` (runs in the means), `stalled_runs`,
//! then for each metric `M` the columns `M_mean`, `M_sd`, `M_ci95_lo`, `M_ci95_hi` (empty when fewer than two
//! values), and with a baseline point `M_diff_mean`, `M_diff_ci95_lo`, `M_diff_ci95_hi` (the paired difference
//! against the baseline, seed for seed). Intervals are Student t intervals of the mean clipped to the metric's
//! valid range (the catalogue's). Floats are written by [`fmt_f64`], so the same runs always give the same bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::results::{copy_atomic, fmt_f64, parse_f64, write_atomic};
use crate::stats::{Moments, describe};

use super::spec::ChartSpec;
use super::{RunDetail, SweepError};

/// File name of the per-run table.
pub const RUNS_CSV: &str = "runs.csv";
/// File name of the per-point summary.
pub const SUMMARY_CSV: &str = "summary.csv";
/// File name of the sweep's description (axes, fingerprint, chart choices).
pub const MANIFEST: &str = "sweep.json";

/// The directory holding run `run_index`'s detail files (`queues.csv`, `apps.csv`).
pub fn detail_dir(out: &Path, run_index: u64) -> PathBuf {
    out.join(format!("run-{run_index}"))
}

/// What a sweep directory is: written beside the CSVs, read by `plot` and `merge`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The sweep's name.
    pub name: String,
    /// The plan's fingerprint: shards merge only with shards of the same fingerprint.
    pub fingerprint: String,
    /// Total runs in the (unsharded) sweep.
    pub n_runs: u64,
    /// Axis paths, in column order.
    pub axes: Vec<String>,
    /// Chart choices.
    pub charts: ChartSpec,
}

impl Manifest {
    /// Reads `DIR/sweep.json`.
    pub fn read(dir: &Path) -> Result<Manifest, SweepError> {
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|source| SweepError::Read {
            path: path.clone(),
            source,
        })?;
        let manifest: Manifest = serde_json::from_str(&text).map_err(|e| {
            let message = e.to_string();
            let message = message
                .rfind(" at line ")
                .map_or(message.as_str(), |i| &message[..i]);
            SweepError::CsvAt {
                path: path.clone(),
                line: e.line() as u64,
                message: format!(
                    "{message}: not a sweep.json fairsim wrote (truncated or edited?)"
                ),
            }
        })?;
        // A chart on an axis the sweep lacks could only fail once drawing begins.
        let charts = &manifest.charts;
        let named = charts.heatmap.iter().flat_map(|(x, y)| [x, y]);
        for a in named.chain(&charts.lines_x) {
            if !manifest.axes.contains(a) {
                return Err(edited(
                    &path,
                    &text,
                    a,
                    format!(
                        "the charts name `{a}`, which is not an axis of the sweep ({})",
                        manifest.axes.join(", ")
                    ),
                ));
            }
        }
        Ok(manifest)
    }

    /// Refuses chart choices of `DIR/sweep.json` naming a metric that `table` (its runs) lacks.
    pub fn check_metrics(&self, dir: &Path, table: &RunsTable) -> Result<(), SweepError> {
        if table.rows.is_empty() || table.metrics.is_empty() {
            return Ok(());
        }
        let charts = &self.charts;
        let Some(m) = charts
            .metric
            .iter()
            .chain(&charts.lines_metrics)
            .find(|m| table.metric_index(m).is_none())
        else {
            return Ok(());
        };
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        Err(edited(
            &path,
            &text,
            m,
            format!("the charts name metric `{m}`, which is not among the runs' metrics"),
        ))
    }

    /// Writes `DIR/sweep.json` atomically.
    pub fn write(&self, dir: &Path) -> Result<(), SweepError> {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        write_file(&dir.join(MANIFEST), text.as_bytes())
    }
}

/// A sweep.json whose `name` (a chart's axis or metric) does not fit the sweep, at the line
/// that names it.
fn edited(path: &Path, text: &str, name: &str, message: String) -> SweepError {
    let quoted = serde_json::to_string(name).expect("a string serialises");
    let line = text
        .lines()
        .position(|l| l.contains(&quoted))
        .map_or(1, |i| i as u64 + 1);
    SweepError::CsvAt {
        path: path.to_path_buf(),
        line,
        message: format!("{message}: not a sweep.json fairsim wrote (edited?)"),
    }
}

/// Writes a file atomically, mapping the error to [`SweepError::Io`].
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SweepError> {
    write_atomic(path, bytes).map_err(|source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Copies a file atomically, streaming it (a run's detail files can be large), mapping the
/// error to [`SweepError::Io`].
pub fn copy_file(from: &Path, to: &Path) -> Result<(), SweepError> {
    copy_atomic(from, to).map_err(|source| SweepError::Io {
        path: to.to_path_buf(),
        source,
    })
}

/// One row of `runs.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    /// The run's index in the sweep.
    pub run_index: u64,
    /// The axis values, as CSV cells.
    pub axis_values: Vec<String>,
    /// The run's seed.
    pub seed: u64,
    /// The metric values, in the table's metric order.
    pub metrics: Vec<f64>,
}

/// The contents of `runs.csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct RunsTable {
    /// Axis paths.
    pub axes: Vec<String>,
    /// Metric names.
    pub metrics: Vec<String>,
    /// Rows, by increasing run index.
    pub rows: Vec<RunRow>,
}

/// Summary of one axis point: its values and, per metric, the moments over its seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct PointSummary {
    /// The axis values, as CSV cells.
    pub axis_values: Vec<String>,
    /// Runs counted in the means (all runs, or the runs that did not stall).
    pub n: usize,
    /// Runs of the point that stalled (metric `stalled` = 1).
    pub stalled: usize,
    /// One entry per metric, in the table's metric order.
    pub moments: Vec<Moments>,
    /// With a baseline point: per metric, the moments of the paired differences (this point
    /// minus the baseline, seed for seed).
    pub diffs: Option<Vec<Moments>>,
}

/// How a sweep's summary treats stalled runs and which point it compares against.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SummaryOptions {
    /// Leave stalled runs out of the means (the default keeps them: their censored metrics
    /// count every app, and leaving them out would favour settings that stall).
    pub exclude_stalled: bool,
    /// The baseline point's axis values, as CSV cells.
    pub baseline: Option<Vec<String>>,
}

impl From<&ChartSpec> for SummaryOptions {
    fn from(c: &ChartSpec) -> SummaryOptions {
        SummaryOptions {
            exclude_stalled: c.exclude_stalled,
            baseline: c.baseline.clone(),
        }
    }
}

/// The valid range of a metric's values and of differences of two of them (unbounded for
/// metrics outside the catalogue).
fn ranges(metric: &str) -> ((f64, f64), (f64, f64)) {
    match fairsim_sim::catalogue::lookup(metric) {
        Some(r) => {
            let (lo, hi) = (r.metric.min, r.metric.max);
            ((lo, hi), (lo - hi, hi - lo))
        }
        None => (
            (f64::NEG_INFINITY, f64::INFINITY),
            (f64::NEG_INFINITY, f64::INFINITY),
        ),
    }
}

/// Moments of the values that exist (a queue without apps has no percentile), the interval
/// clipped to `range`.
fn describe_in(xs: impl Iterator<Item = f64>, range: (f64, f64)) -> Moments {
    let xs: Vec<f64> = xs.filter(|x| !x.is_nan()).collect();
    let mut m = describe(&xs);
    m.ci95 = m
        .ci95
        .map(|(lo, hi)| (lo.clamp(range.0, range.1), hi.clamp(range.0, range.1)));
    m
}

fn csv_writer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new())
}

fn finish(w: csv::Writer<Vec<u8>>) -> Vec<u8> {
    w.into_inner().expect("writing to memory cannot fail")
}

fn csv_error(path: &Path, message: impl ToString) -> SweepError {
    SweepError::Csv {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

/// A malformed row of a results file, at its line when the reader knows it.
fn csv_row_error(path: &Path, e: csv::Error) -> SweepError {
    match e.position() {
        Some(p) => SweepError::CsvAt {
            path: path.to_path_buf(),
            line: p.line(),
            message: e.to_string(),
        },
        None => csv_error(path, e),
    }
}

impl RunsTable {
    /// The table as `runs.csv` bytes.
    pub fn to_csv(&self) -> Vec<u8> {
        let mut w = csv_writer();
        let mut header = vec!["run_index".to_string()];
        header.extend(self.axes.iter().cloned());
        header.push("seed".to_string());
        header.extend(self.metrics.iter().cloned());
        w.write_record(&header)
            .expect("writing to memory cannot fail");
        for row in &self.rows {
            let mut record = vec![row.run_index.to_string()];
            record.extend(row.axis_values.iter().cloned());
            record.push(row.seed.to_string());
            record.extend(row.metrics.iter().map(|&m| fmt_f64(m)));
            w.write_record(&record)
                .expect("writing to memory cannot fail");
        }
        finish(w)
    }

    /// Reads a runs file. `n_axes` comes from `sweep.json`; without it the axes are the columns before `seed`.
    pub fn read(path: &Path, n_axes: Option<usize>) -> Result<RunsTable, SweepError> {
        let bytes = std::fs::read(path).map_err(|source| SweepError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(bytes.as_slice());
        let header_record = r.headers().map_err(|e| csv_row_error(path, e))?;
        let header_line = header_record.position().map_or(1, csv::Position::line);
        let header: Vec<String> = header_record.iter().map(String::from).collect();
        let header_at = |message: &str| SweepError::CsvAt {
            path: path.to_path_buf(),
            line: header_line,
            message: message.to_string(),
        };
        let n_axes = match n_axes {
            Some(n) => n,
            None => header
                .iter()
                .skip(1)
                .position(|h| h == "seed")
                .ok_or_else(|| header_at("no `seed` column"))?,
        };
        if header.len() < n_axes + 2 || header[0] != "run_index" || header[n_axes + 1] != "seed" {
            return Err(header_at(
                "expected columns run_index, the axes, seed, then the metrics",
            ));
        }
        let axes = header[1..=n_axes].to_vec();
        let metrics = header[n_axes + 2..].to_vec();
        let mut rows = Vec::new();
        for record in r.records() {
            let record = record.map_err(|e| csv_row_error(path, e))?;
            let line = record.position().map_or(0, |p| p.line());
            let bad = |i: usize, what: &str| SweepError::CsvAt {
                path: path.to_path_buf(),
                line,
                message: format!("{}: `{}` is not {what}", header[i], &record[i]),
            };
            let run_index = record[0].parse().map_err(|_| bad(0, "a run index"))?;
            let seed = record[n_axes + 1]
                .parse()
                .map_err(|_| bad(n_axes + 1, "a seed (an integer from 0)"))?;
            let axis_values = (1..=n_axes).map(|i| record[i].to_string()).collect();
            let metrics = (n_axes + 2..record.len())
                .map(|i| parse_f64(&record[i]).ok_or_else(|| bad(i, "a number")))
                .collect::<Result<_, _>>()?;
            rows.push(RunRow {
                run_index,
                axis_values,
                seed,
                metrics,
            });
        }
        Ok(RunsTable {
            axes,
            metrics,
            rows,
        })
    }

    /// Index of a metric column, by name.
    pub fn metric_index(&self, name: &str) -> Option<usize> {
        self.metrics.iter().position(|m| m == name)
    }

    /// Index of an axis column, by path.
    pub fn axis_index(&self, path: &str) -> Option<usize> {
        self.axes.iter().position(|a| a == path)
    }

    /// Whether a row's run stalled.
    pub fn stalled(&self, row: &RunRow) -> bool {
        self.metric_index("stalled")
            .is_some_and(|i| row.metrics[i] == 1.0)
    }

    /// Every point with stalled runs, named `path=value, ...`, with the seeds that stalled there; in run order.
    pub fn stalled_points(&self) -> Vec<(String, Vec<u64>)> {
        let mut out: Vec<(Vec<String>, Vec<u64>)> = Vec::new();
        for row in self.rows.iter().filter(|r| self.stalled(r)) {
            match out.iter_mut().find(|p| p.0 == row.axis_values) {
                Some(p) => p.1.push(row.seed),
                None => out.push((row.axis_values.clone(), vec![row.seed])),
            }
        }
        out.into_iter()
            .map(|(values, seeds)| (super::stalls::point_words(&self.axes, &values), seeds))
            .collect()
    }

    /// Groups rows by axis point, in the order points first appear, and describes each metric
    /// over every run (stalled ones included).
    pub fn summary(&self) -> Vec<PointSummary> {
        self.summary_with(&SummaryOptions::default())
    }

    /// The rows of the table without the stalled runs (what charts show when stalled runs are
    /// left out of the means).
    pub fn without_stalled(&self) -> RunsTable {
        RunsTable {
            axes: self.axes.clone(),
            metrics: self.metrics.clone(),
            rows: self
                .rows
                .iter()
                .filter(|r| !self.stalled(r))
                .cloned()
                .collect(),
        }
    }

    /// Like [`RunsTable::summary`], with stalled runs left out when asked and paired
    /// differences against a baseline point.
    pub fn summary_with(&self, opts: &SummaryOptions) -> Vec<PointSummary> {
        let mut order: Vec<&[String]> = Vec::new();
        let mut groups: HashMap<&[String], Vec<&RunRow>> = HashMap::new();
        for row in &self.rows {
            let key = row.axis_values.as_slice();
            groups.entry(key).or_insert_with(|| {
                order.push(key);
                Vec::new()
            });
            groups.get_mut(key).expect("just inserted").push(row);
        }
        fn used<'r>(t: &RunsTable, opts: &SummaryOptions, rows: &[&'r RunRow]) -> Vec<&'r RunRow> {
            rows.iter()
                .filter(|r| !(opts.exclude_stalled && t.stalled(r)))
                .copied()
                .collect()
        }
        let baseline: Option<Vec<&RunRow>> = opts.baseline.as_ref().map(|b| {
            groups
                .get(b.as_slice())
                .map(|g| used(self, opts, g))
                .unwrap_or_default()
        });
        order
            .into_iter()
            .map(|key| {
                let all = &groups[key];
                let rows = used(self, opts, all);
                let moments = (0..self.metrics.len())
                    .map(|m| {
                        describe_in(
                            rows.iter().map(|r| r.metrics[m]),
                            ranges(&self.metrics[m]).0,
                        )
                    })
                    .collect();
                let diffs = baseline.as_ref().map(|base| {
                    let pairs: Vec<(&RunRow, &RunRow)> = rows
                        .iter()
                        .filter_map(|r| base.iter().find(|b| b.seed == r.seed).map(|b| (*r, *b)))
                        .collect();
                    (0..self.metrics.len())
                        .map(|m| {
                            describe_in(
                                pairs.iter().map(|(r, b)| r.metrics[m] - b.metrics[m]),
                                ranges(&self.metrics[m]).1,
                            )
                        })
                        .collect()
                });
                PointSummary {
                    axis_values: key.to_vec(),
                    n: rows.len(),
                    stalled: all.iter().filter(|r| self.stalled(r)).count(),
                    moments,
                    diffs,
                }
            })
            .collect()
    }

    /// The `summary.csv` bytes.
    pub fn summary_csv(&self, opts: &SummaryOptions) -> Vec<u8> {
        let mut w = csv_writer();
        let mut header = self.axes.clone();
        header.push("n".to_string());
        header.push("stalled_runs".to_string());
        for m in &self.metrics {
            for suffix in ["mean", "sd", "ci95_lo", "ci95_hi"] {
                header.push(format!("{m}_{suffix}"));
            }
            if opts.baseline.is_some() {
                for suffix in ["diff_mean", "diff_ci95_lo", "diff_ci95_hi"] {
                    header.push(format!("{m}_{suffix}"));
                }
            }
        }
        w.write_record(&header)
            .expect("writing to memory cannot fail");
        let opt = |x: Option<f64>| x.map(fmt_f64).unwrap_or_default();
        for point in self.summary_with(opts) {
            let mut record = point.axis_values.clone();
            record.push(point.n.to_string());
            record.push(point.stalled.to_string());
            for (i, m) in point.moments.iter().enumerate() {
                record.push(fmt_f64(m.mean));
                record.push(opt(m.sd));
                record.push(opt(m.ci95.map(|c| c.0)));
                record.push(opt(m.ci95.map(|c| c.1)));
                if let Some(d) = &point.diffs {
                    record.push(fmt_f64(d[i].mean));
                    record.push(opt(d[i].ci95.map(|c| c.0)));
                    record.push(opt(d[i].ci95.map(|c| c.1)));
                }
            }
            w.write_record(&record)
                .expect("writing to memory cannot fail");
        }
        finish(w)
    }
}

/// Writes run detail files into `dir`: `queues.csv` and `apps.csv` built from the samples and
/// apps with the columns (names and units) of a run's files: `time_ms,queue,usage_mb,fair_share_mb`
/// and `app,queue,wait_ms,jct_ms`.
pub fn write_detail(dir: &Path, detail: &RunDetail) -> Result<(), SweepError> {
    std::fs::create_dir_all(dir).map_err(|source| SweepError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let ms = |s: f64| fmt_f64((s * 1000.0).round());
    if !detail.queues.is_empty() {
        let mut w = csv_writer();
        w.write_record(["time_ms", "queue", "usage_mb", "fair_share_mb"])
            .expect("in memory");
        for s in &detail.queues {
            let rec = [
                ms(s.time_s),
                s.queue.clone(),
                fmt_f64(s.usage_mb),
                fmt_f64(s.fair_share_mb),
            ];
            w.write_record(&rec).expect("in memory");
        }
        write_file(&dir.join("queues.csv"), &finish(w))?;
    }
    if !detail.apps.is_empty() {
        let mut w = csv_writer();
        w.write_record(["app", "queue", "wait_ms", "jct_ms"])
            .expect("in memory");
        for a in &detail.apps {
            let rec = [
                a.app.clone(),
                a.queue.clone(),
                ms(a.wait_s),
                ms(a.completion_s),
            ];
            w.write_record(&rec).expect("in memory");
        }
        write_file(&dir.join("apps.csv"), &finish(w))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    /// Two points (`w` = 1 and 2) over seeds 1..=n; `stalled` marks (point, seed) runs that stalled.
    fn table(metric: &str, values: &[(f64, f64)], stalled: &[(usize, u64)]) -> RunsTable {
        let mut rows = Vec::new();
        for (p, w) in ["1", "2"].iter().enumerate() {
            for (s, v) in values.iter().enumerate() {
                let seed = s as u64 + 1;
                let st = stalled.contains(&(p, seed));
                rows.push(RunRow {
                    run_index: rows.len() as u64,
                    axis_values: vec![w.to_string()],
                    seed,
                    metrics: vec![if p == 0 { v.0 } else { v.1 }, if st { 1.0 } else { 0.0 }],
                });
            }
        }
        RunsTable {
            axes: vec!["w".into()],
            metrics: vec![metric.into(), "stalled".into()],
            rows,
        }
    }

    #[test]
    fn intervals_never_leave_the_metrics_range() {
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let sample = prop::collection::vec((0.0..1.0f64, 0.0..1.0f64), 2..12);
        runner
            .run(&(sample, 0.0..50.0f64), |(values, scale)| {
                // Skewed samples near the bounds: the raw t interval would cross them.
                for (metric, lo, hi, f) in [
                    ("util_memory", 0.0, 1.0, 1.0),
                    ("wait_s_p95", 0.0, f64::INFINITY, scale),
                    ("slowdown_p95", 1.0, f64::INFINITY, scale),
                ] {
                    let vals: Vec<(f64, f64)> = values
                        .iter()
                        .map(|(a, b)| (lo + a * a * a * f, lo + b * b * b * b * f))
                        .collect();
                    let t = table(metric, &vals, &[]);
                    let opts = SummaryOptions {
                        exclude_stalled: false,
                        baseline: Some(vec!["1".into()]),
                    };
                    for p in t.summary_with(&opts) {
                        let m = p.moments[0];
                        if let Some((a, b)) = m.ci95 {
                            prop_assert!(lo <= a && a <= b && b <= hi, "{metric}: [{a}, {b}]");
                        }
                        let d = p.diffs.unwrap()[0];
                        if let Some((a, b)) = d.ci95 {
                            prop_assert!(lo - hi <= a && b <= hi - lo, "{metric} diff: [{a}, {b}]");
                        }
                    }
                }
                Ok(())
            })
            .unwrap();
        // The clip is not idle: a skewed sample's t interval reaches below 0 and is cut at 0.
        let t = table("wait_s_p95", &[(0.0, 0.0), (0.0, 0.0), (9.0, 0.0)], &[]);
        assert_eq!(t.summary()[0].moments[0].ci95.unwrap().0, 0.0);
        assert!(describe(&[0.0, 0.0, 9.0]).ci95.unwrap().0 < 0.0);
    }

    #[test]
    fn stalled_runs_are_counted_and_excluded_only_when_asked() {
        let t = table(
            "wait_s_p50",
            &[(1.0, 10.0), (2.0, 20.0), (3.0, 90.0)],
            &[(1, 3)],
        );
        let included = t.summary();
        assert_eq!((included[1].n, included[1].stalled), (3, 1));
        assert_eq!(included[1].moments[0].mean, 40.0);
        let excluded = t.summary_with(&SummaryOptions {
            exclude_stalled: true,
            baseline: None,
        });
        assert_eq!((excluded[1].n, excluded[1].stalled), (2, 1));
        assert_eq!(excluded[1].moments[0].mean, 15.0);
        assert_eq!((excluded[0].n, excluded[0].stalled), (3, 0));
        let csv = String::from_utf8(t.summary_csv(&SummaryOptions::default())).unwrap();
        let mut lines = csv.lines();
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("w,n,stalled_runs,wait_s_p50_mean,")
        );
        assert!(lines.next().unwrap().starts_with("1,3,0,2,"));
        assert!(lines.next().unwrap().starts_with("2,3,1,40,"));
    }

    #[test]
    fn paired_differences_are_taken_seed_for_seed() {
        // Point 2 is point 1 plus 5 on every seed: the paired difference is exactly 5 with a
        // zero-width interval, although each point's own spread is wide.
        let t = table(
            "jct_s_p50",
            &[(10.0, 15.0), (50.0, 55.0), (90.0, 95.0)],
            &[],
        );
        let opts = SummaryOptions {
            exclude_stalled: false,
            baseline: Some(vec!["1".into()]),
        };
        let s = t.summary_with(&opts);
        let d0 = s[0].diffs.as_ref().unwrap()[0];
        assert_eq!((d0.mean, d0.ci95), (0.0, Some((0.0, 0.0))));
        let d1 = s[1].diffs.as_ref().unwrap()[0];
        assert_eq!((d1.mean, d1.ci95), (5.0, Some((5.0, 5.0))));
        let (lo, hi) = s[1].moments[0].ci95.unwrap();
        assert!(hi - lo > 50.0);
        let csv = String::from_utf8(t.summary_csv(&opts)).unwrap();
        assert!(csv.lines().next().unwrap().contains(
            "jct_s_p50_ci95_hi,jct_s_p50_diff_mean,jct_s_p50_diff_ci95_lo,jct_s_p50_diff_ci95_hi,"
        ));
    }
}
