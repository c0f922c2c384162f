//! Workloads: the apps a run submits, from a native CSV trace ([`csv`]), a Hadoop SLS JSON
//! trace ([`sls`]) or a seeded synthetic generator ([`synthetic`]).

pub mod csv;
pub mod sls;
pub mod synthetic;

use std::path::PathBuf;

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
