//! Errors at the command line's edge and their exit codes.

use std::path::PathBuf;

use crate::plot::PlotError;
use crate::sweep::SweepError;
use crate::sweep::spec::SpecError;

/// An error that ends a `fairsim` subcommand; [`CliError::exit_code`] says how the process exits.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The sweep file (or the scenario it names) is invalid: exit code 2.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// Bad command-line input, such as a malformed `--shard`: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// Bad input (a malformed snapshot or allocation file, a missing field): exit code 2.
    #[error("{0}")]
    Input(String),
    /// A failure of the machine, already described (a file that cannot be read): exit code 1.
    #[error("{0}")]
    Failed(String),
    /// A check found fairsim's numbers and a cluster's apart (the comparison is already on
    /// standard output): exit code 1.
    #[error("{message}")]
    Differs {
        /// The comparison, for standard output.
        report: String,
        /// The verdict, for standard error.
        message: String,
    },
    /// Running the sweep failed: exit code 1.
    #[error(transparent)]
    Sweep(#[from] SweepError),
    /// Drawing a chart failed: exit code 1.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// Reading or writing a file failed: exit code 1.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory involved.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl CliError {
    /// The process exit code for this error: 2 for invalid input, 1 for failures while running.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Spec(_) | CliError::Usage(_) | CliError::Input(_) => 2,
            CliError::Sweep(
                SweepError::Spec(_)
                | SweepError::Read { .. }
                | SweepError::Csv { .. }
                | SweepError::CsvAt { .. }
                | SweepError::Shards(_),
            ) => 2,
            CliError::Sweep(_)
            | CliError::Plot(_)
            | CliError::Io { .. }
            | CliError::Failed(_)
            | CliError::Differs { .. } => 1,
        }
    }
}
