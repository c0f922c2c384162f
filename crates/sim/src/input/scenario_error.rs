//! The error of reading a scenario: file, line and key of what is wrong.

use crate::workload::WorkloadError;
use std::path::PathBuf;

/// Errors loading a scenario.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// The file cannot be read.
    #[error("{path}: cannot read: {source}")]
    Io {
        /// File.
        path: PathBuf,
        /// Cause.
        source: std::io::Error,
    },
    /// TOML syntax or schema error.
    #[error("{path}:{line}:{column}: {message}")]
    Toml {
        /// File.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong (names the key).
        message: String,
    },
    /// A value is out of range, or names something that does not exist.
    #[error("{path}:{line}: {key}: {message}")]
    Invalid {
        /// File.
        path: PathBuf,
        /// 1-based line of the key (or of its nearest enclosing table).
        line: usize,
        /// Key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// The allocation file is invalid.
    #[error("{0}")]
    Allocation(String),
    /// The workload is invalid.
    #[error(transparent)]
    Workload(#[from] WorkloadError),
    /// The groups file is invalid.
    #[error(transparent)]
    Groups(#[from] crate::groups::GroupsError),
}
