//! Workloads: the apps a run submits, from a native CSV trace ([`csv`]), Hadoop SLS inputs
//! (an SLS JSON job trace [`sls`], a Rumen job history [`rumen`], a SYNTH generator file
//! [`synth`]) or fairsim's seeded synthetic generator ([`synthetic`]).
//!
//! Every reader is a function over a name (for messages) and a reader or bytes, so each can
//! be fuzzed on its own; the `read_*` wrappers open the file.

pub mod budget;
pub mod csv;
pub mod json_stream;
pub mod rumen;
pub mod sls;
pub mod synth;
pub mod synthetic;

use crate::app::AppSpec;
use fairsim_core::Resource;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Errors reading a workload. Messages name the file, the line and the column or field.
#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    /// The file cannot be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// File.
        path: PathBuf,
        /// Cause.
        source: std::io::Error,
    },
    /// A malformed row, object or field.
    #[error("{path}:{line}: {field}: {message}")]
    Parse {
        /// File.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// Column (CSV: `column N (name)`) or field name.
        field: String,
        /// What is wrong.
        message: String,
    },
}

/// Apps read from a trace, with the warnings about what was read but not modelled.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TraceRead {
    /// The apps, sorted by arrival (stable).
    pub apps: Vec<AppSpec>,
    /// One line per kind of thing ignored, with counts.
    pub warnings: Vec<String>,
}

/// Container sizes SLS uses where its traces give none (sls-runner.xml:
/// `yarn.sls.container.memory.mb` / `yarn.sls.container.vcores` for tasks,
/// `yarn.sls.am.container.memory` / `yarn.sls.am.container.vcores` for the AM).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlsDefaults {
    /// Task container (default 1024 MB, 1 vcore).
    pub container: Resource,
    /// AM container (default 1024 MB, 1 vcore).
    pub am: Resource,
}

impl Default for SlsDefaults {
    fn default() -> Self {
        SlsDefaults {
            container: Resource::new(1024, 1),
            am: Resource::new(1024, 1),
        }
    }
}

/// What a JSON object with these keys looks like, and the scenario key that reads it; `None`
/// when nothing is recognised.
pub(crate) fn looks_like<'a>(keys: impl IntoIterator<Item = &'a str>) -> Option<&'static str> {
    for k in keys {
        match k {
            "jobID" | "mapTasks" | "reduceTasks" | "submitTime" => {
                return Some("a Rumen job history (read it with `rumen = ...` in [workload])");
            }
            "workloads" | "num_jobs" | "job_classes" | "rand_seed" => {
                return Some(
                    "an SLS SYNTH generator file (read it with `synth = ...` in [workload])",
                );
            }
            "job.tasks" | "job.start.ms" | "job.queue.name" => {
                return Some("an SLS JSON job trace (read it with `sls = ...` in [workload])");
            }
            "rack" | "nodes" => {
                return Some(
                    "an SLS nodes file (a cluster, not jobs: read it with `nodes_file = ...` in [cluster])",
                );
            }
            "schedulables" => {
                return Some(
                    "a fair-share snapshot (read it with `fairsim shares` or `fairsim rank`)",
                );
            }
            _ => {}
        }
    }
    None
}

/// What the JSON text of `reader` looks like, judged by its first top-level object (`//`
/// comments allowed, as in SLS's samples), and the key or command that reads it; `None`
/// when that object is not one of the JSON inputs fairsim reads.
pub fn json_looks_like(reader: impl std::io::BufRead) -> Option<&'static str> {
    let mut stream = json_stream::ObjectStream::with_comments(reader);
    match stream.next_start() {
        Ok(json_stream::Next::Object(_)) => {}
        _ => return None,
    }
    let obj: serde_json::Map<String, serde_json::Value> = stream.read().ok()?;
    looks_like(obj.keys().map(String::as_str))
}

/// Counts of things read but not modelled, reported as one warning.
#[derive(Debug, Default)]
pub(crate) struct Ignored(BTreeMap<String, u64>);

impl Ignored {
    pub(crate) fn add(&mut self, what: impl Into<String>) {
        *self.0.entry(what.into()).or_default() += 1;
    }

    /// `None` when nothing was ignored.
    pub(crate) fn warning(&self, path: &Path, lead: &str) -> Option<String> {
        if self.0.is_empty() {
            return None;
        }
        let items: Vec<String> = self.0.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        Some(format!("{}: {lead}: {}", path.display(), items.join(", ")))
    }
}

pub(crate) fn open(path: &Path) -> Result<std::io::BufReader<std::fs::File>, WorkloadError> {
    std::fs::File::open(path)
        .map(|f| std::io::BufReader::with_capacity(1 << 16, f))
        .map_err(|source| WorkloadError::Io {
            path: path.to_path_buf(),
            source,
        })
}
