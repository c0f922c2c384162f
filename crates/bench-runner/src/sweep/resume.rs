//! The journal that makes `--resume` work: one line per finished run, appended and synced before the next.
//!
//! The first line names the sweep (`{"fingerprint": ..., "n_runs": ...}`); each later line is one finished run
//! with its metrics written as text by [`fmt_f64`], so that they read back bit for bit. A process killed mid-write
//! leaves at most one torn last line, which reading ignores.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::results::{fmt_f64, parse_f64, write_atomic};

use super::{RunRecord, SweepError, io_err};

#[derive(Serialize, Deserialize)]
struct Header {
    fingerprint: String,
    n_runs: u64,
}

#[derive(Serialize, Deserialize)]
struct Line {
    run: u64,
    seed: u64,
    metrics: Vec<(String, String)>,
}

/// An open journal, safe to append to from many threads.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<File>,
}

impl Journal {
    /// Opens the journal at `path` for the sweep identified by `fingerprint`.
    ///
    /// With `resume`, the runs an earlier invocation finished are read back and returned (a journal of another
    /// sweep is an error); without it, any old journal is discarded. Either way the file is rewritten cleanly
    /// before appending, so a torn line from a killed process never merges with a new one.
    pub fn open(
        path: &Path,
        fingerprint: &str,
        n_runs: u64,
        resume: bool,
    ) -> Result<(Journal, Vec<RunRecord>), SweepError> {
        let mut done = BTreeMap::new();
        if resume && path.exists() {
            let text = std::fs::read_to_string(path).map_err(io_err(path))?;
            let mut lines = text.lines();
            let header: Option<Header> = lines.next().and_then(|l| serde_json::from_str(l).ok());
            match header {
                Some(h) if h.fingerprint == fingerprint && h.n_runs == n_runs => {}
                _ => {
                    return Err(SweepError::Inconsistent(format!(
                        "{}: journal of a different sweep; remove it or run without --resume",
                        path.display()
                    )));
                }
            }
            for line in lines {
                if let Some(record) = parse_line(line).filter(|r| r.run_index < n_runs) {
                    done.entry(record.run_index).or_insert(record);
                }
            }
        }
        let done: Vec<RunRecord> = done.into_values().collect();
        let header = serde_json::to_string(&Header {
            fingerprint: fingerprint.to_string(),
            n_runs,
        })
        .expect("a header serialises");
        let mut text = header + "\n";
        for record in &done {
            text += &format_line(record);
        }
        write_atomic(path, text.as_bytes()).map_err(io_err(path))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io_err(path))?;
        Ok((
            Journal {
                path: path.to_path_buf(),
                file: Mutex::new(file),
            },
            done,
        ))
    }

    /// Appends one finished run and syncs it to disk before returning.
    pub fn append(&self, record: &RunRecord) -> Result<(), SweepError> {
        let line = format_line(record);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .map_err(io_err(&self.path))?;
        file.sync_data().map_err(io_err(&self.path))
    }

    /// Deletes the journal once the sweep's final files are written.
    pub fn remove(self) -> Result<(), SweepError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(io_err(&self.path))
    }
}

fn format_line(record: &RunRecord) -> String {
    let line = Line {
        run: record.run_index,
        seed: record.seed,
        metrics: record
            .metrics
            .iter()
            .map(|(k, v)| (k.clone(), fmt_f64(*v)))
            .collect(),
    };
    serde_json::to_string(&line).expect("a journal line serialises") + "\n"
}

fn parse_line(line: &str) -> Option<RunRecord> {
    let line: Line = serde_json::from_str(line).ok()?;
    let metrics: Option<Vec<(String, f64)>> = line
        .metrics
        .into_iter()
        .map(|(k, v)| parse_f64(&v).map(|v| (k, v)))
        .collect();
    Some(RunRecord {
        run_index: line.run,
        seed: line.seed,
        metrics: metrics?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(i: u64) -> RunRecord {
        RunRecord {
            run_index: i,
            seed: i + 1,
            metrics: vec![("m".into(), 1.0 / (i as f64 + 3.0))],
        }
    }

    #[test]
    fn resume_reads_back_finished_runs_and_skips_a_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let (j, done) = Journal::open(&path, "f", 10, true).unwrap();
        assert!(done.is_empty());
        j.append(&record(3)).unwrap();
        j.append(&record(1)).unwrap();
        drop(j);
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"run\":5,\"seed\":6,\"metr").unwrap();
        drop(f);
        let (j, done) = Journal::open(&path, "f", 10, true).unwrap();
        assert_eq!(done, vec![record(1), record(3)]);
        j.append(&record(5)).unwrap();
        drop(j);
        let (_, done) = Journal::open(&path, "f", 10, true).unwrap();
        assert_eq!(done, vec![record(1), record(3), record(5)]);
        let err = Journal::open(&path, "other", 10, true).unwrap_err();
        assert!(err.to_string().contains("different sweep"), "{err}");
        let (_, done) = Journal::open(&path, "other", 10, false).unwrap();
        assert!(done.is_empty());
    }
}
