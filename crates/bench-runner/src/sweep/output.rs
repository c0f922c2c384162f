//! The files a sweep writes: `runs.csv`, `summary.csv`, `sweep.json` and the per-run detail CSVs.
//!
//! `runs.csv`: `run_index`, one column per axis (named by its path), `seed`, one column per metric.
//! `summary.csv`: one row per axis point in run order: the axis values, `n`, then for each metric `M` the columns
//! `M_mean`, `M_sd`, `M_ci95_lo`, `M_ci95_hi` (empty when `n < 2`). Floats are written by [`fmt_f64`], so the
//! same runs always give the same bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::results::{fmt_f64, parse_f64, write_atomic};
use crate::stats::{Moments, describe};

use super::spec::ChartSpec;
use super::{AppRecord, QueueSample, RunDetail, SweepError};

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
        let text = std::fs::read_to_string(&path).map_err(|source| SweepError::Io {
            path: path.clone(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| SweepError::Csv {
            path,
            message: e.to_string(),
        })
    }

    /// Writes `DIR/sweep.json` atomically.
    pub fn write(&self, dir: &Path) -> Result<(), SweepError> {
        let mut text = serde_json::to_string_pretty(self).expect("a manifest serialises");
        text.push('\n');
        write_file(&dir.join(MANIFEST), text.as_bytes())
    }
}

/// Writes a file atomically, mapping the error to [`SweepError::Io`].
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), SweepError> {
    write_atomic(path, bytes).map_err(|source| SweepError::Io {
        path: path.to_path_buf(),
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
    /// One entry per metric, in the table's metric order.
    pub moments: Vec<Moments>,
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
        let bytes = std::fs::read(path).map_err(|source| SweepError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(bytes.as_slice());
        let header: Vec<String> = r
            .headers()
            .map_err(|e| csv_error(path, e))?
            .iter()
            .map(String::from)
            .collect();
        let n_axes = match n_axes {
            Some(n) => n,
            None => header
                .iter()
                .skip(1)
                .position(|h| h == "seed")
                .ok_or_else(|| csv_error(path, "no `seed` column"))?,
        };
        if header.len() < n_axes + 2 || header[0] != "run_index" || header[n_axes + 1] != "seed" {
            return Err(csv_error(
                path,
                "expected columns run_index, the axes, seed, then the metrics",
            ));
        }
        let axes = header[1..=n_axes].to_vec();
        let metrics = header[n_axes + 2..].to_vec();
        let mut rows = Vec::new();
        for (line, record) in r.records().enumerate() {
            let record = record.map_err(|e| csv_error(path, e))?;
            let bad = |what: &str| csv_error(path, format!("line {}: bad {what}", line + 2));
            let run_index = record[0].parse().map_err(|_| bad("run_index"))?;
            let seed = record[n_axes + 1].parse().map_err(|_| bad("seed"))?;
            let axis_values = (1..=n_axes).map(|i| record[i].to_string()).collect();
            let metrics = (n_axes + 2..record.len())
                .map(|i| parse_f64(&record[i]).ok_or_else(|| bad(&header[i])))
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

    /// Groups rows by axis point, in the order points first appear, and describes each metric.
    pub fn summary(&self) -> Vec<PointSummary> {
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
        order
            .into_iter()
            .map(|key| {
                let rows = &groups[key];
                let moments = (0..self.metrics.len())
                    .map(|m| describe(&rows.iter().map(|r| r.metrics[m]).collect::<Vec<_>>()))
                    .collect();
                PointSummary {
                    axis_values: key.to_vec(),
                    moments,
                }
            })
            .collect()
    }

    /// The `summary.csv` bytes.
    pub fn summary_csv(&self) -> Vec<u8> {
        let mut w = csv_writer();
        let mut header = self.axes.clone();
        header.push("n".to_string());
        for m in &self.metrics {
            for suffix in ["mean", "sd", "ci95_lo", "ci95_hi"] {
                header.push(format!("{m}_{suffix}"));
            }
        }
        w.write_record(&header)
            .expect("writing to memory cannot fail");
        let opt = |x: Option<f64>| x.map(fmt_f64).unwrap_or_default();
        for point in self.summary() {
            let mut record = point.axis_values.clone();
            record.push(point.moments.first().map_or(0, |m| m.n).to_string());
            for m in &point.moments {
                record.push(fmt_f64(m.mean));
                record.push(opt(m.sd));
                record.push(opt(m.ci95.map(|c| c.0)));
                record.push(opt(m.ci95.map(|c| c.1)));
            }
            w.write_record(&record)
                .expect("writing to memory cannot fail");
        }
        finish(w)
    }
}

/// Writes run detail files into `dir` (`queues.csv` when there are queue samples, `apps.csv` when there are apps).
pub fn write_detail(dir: &Path, detail: &RunDetail) -> Result<(), SweepError> {
    std::fs::create_dir_all(dir).map_err(|source| SweepError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    if !detail.queues.is_empty() {
        let mut w = csv_writer();
        w.write_record(["time_s", "queue", "usage_mb", "fair_share_mb"])
            .expect("in memory");
        for s in &detail.queues {
            let rec = [
                fmt_f64(s.time_s),
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
        w.write_record(["app", "queue", "wait_s", "completion_s"])
            .expect("in memory");
        for a in &detail.apps {
            let rec = [
                a.app.clone(),
                a.queue.clone(),
                fmt_f64(a.wait_s),
                fmt_f64(a.completion_s),
            ];
            w.write_record(&rec).expect("in memory");
        }
        write_file(&dir.join("apps.csv"), &finish(w))?;
    }
    Ok(())
}

/// Reads the detail files in `dir`, if present. Columns are found by name, so files with more columns
/// (such as a full `queues.csv` of `fairsim run`) also work.
pub fn read_detail(dir: &Path) -> Result<RunDetail, SweepError> {
    let mut detail = RunDetail::default();
    let queues = dir.join("queues.csv");
    if queues.exists() {
        for row in read_columns(&queues, &["time_s", "queue", "usage_mb", "fair_share_mb"])? {
            let num = |i: usize| {
                parse_f64(&row[i])
                    .ok_or_else(|| csv_error(&queues, format!("bad number `{}`", row[i])))
            };
            detail.queues.push(QueueSample {
                time_s: num(0)?,
                queue: row[1].clone(),
                usage_mb: num(2)?,
                fair_share_mb: num(3)?,
            });
        }
    }
    let apps = dir.join("apps.csv");
    if apps.exists() {
        for row in read_columns(&apps, &["app", "queue", "wait_s", "completion_s"])? {
            let num = |i: usize| {
                parse_f64(&row[i])
                    .ok_or_else(|| csv_error(&apps, format!("bad number `{}`", row[i])))
            };
            detail.apps.push(AppRecord {
                app: row[0].clone(),
                queue: row[1].clone(),
                wait_s: num(2)?,
                completion_s: num(3)?,
            });
        }
    }
    Ok(detail)
}

/// Reads the named columns of a CSV file, in the order asked.
fn read_columns(path: &Path, names: &[&str]) -> Result<Vec<Vec<String>>, SweepError> {
    let bytes = std::fs::read(path).map_err(|source| SweepError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let header = r.headers().map_err(|e| csv_error(path, e))?.clone();
    let idx: Vec<usize> = names
        .iter()
        .map(|n| {
            header
                .iter()
                .position(|h| h == *n)
                .ok_or_else(|| csv_error(path, format!("no `{n}` column")))
        })
        .collect::<Result<_, _>>()?;
    r.records()
        .map(|rec| {
            let rec = rec.map_err(|e| csv_error(path, e))?;
            Ok(idx
                .iter()
                .map(|&i| rec.get(i).unwrap_or("").to_string())
                .collect())
        })
        .collect()
}
