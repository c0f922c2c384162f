//! The `fairsim` command line: glue over fairsim-core and fairsim-sim.

mod error;
mod snapshot;
mod snapshot_cmd;

use clap::{Parser, Subcommand};
use error::CliError;
use snapshot_cmd::{CapArg, RoundingArg, SharesOptions, SnapshotFormat};
use std::io::Write;
use std::process::ExitCode;

/// fairsim: a deterministic simulator of Hadoop YARN's Fair Scheduler.
///
/// Exit codes: 0 success, 1 a failure of the machine (I/O), 2 bad input or usage.
#[derive(Parser)]
#[command(name = "fairsim", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Fair shares of each schedulable of a snapshot, with YARN's computeShares.
    ///
    /// The snapshot is JSON: {"semantics": "hadoop-2.7"|"hadoop-3.3", "policy":
    /// "fair"|"drf"|"fifo", "kind": "instantaneous"|"steady", "cluster": {"memory_mb",
    /// "vcores"}, "schedulables": [{"name", "weight", "start_time_ms", "min_share",
    /// "max_share", "demand", "usage", "active"}]}. See README.md for defaults.
    Shares {
        /// Snapshot file, or `-` for standard input.
        snapshot: String,
        /// Output: a table, one JSON answer, or JSON lines (one snapshot per input line).
        #[arg(long, value_enum, default_value = "table")]
        format: SnapshotFormat,
        /// Hadoop's integer arithmetic, or the exact real-valued answer.
        #[arg(long, value_enum, default_value = "hadoop")]
        rounding: RoundingArg,
        /// What caps a share: the max share (YARN), or also the demand (max-min fairness).
        #[arg(long, value_enum, default_value = "max-share")]
        cap: CapArg,
    },
    /// The order in which the policy offers resources, with the reason for each place.
    Rank {
        /// Snapshot file, or `-` for standard input.
        snapshot: String,
        /// Output: a table, one JSON answer, or JSON lines (one snapshot per input line).
        #[arg(long, value_enum, default_value = "table")]
        format: SnapshotFormat,
    },
}

fn run(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Command::Shares {
            snapshot,
            format,
            rounding,
            cap,
        } => snapshot_cmd::shares(
            &snapshot,
            SharesOptions {
                format,
                rounding: rounding.into(),
                cap: cap.into(),
            },
        ),
        Command::Rank { snapshot, format } => snapshot_cmd::rank_cmd(&snapshot, format),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run(cli) {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(out.as_bytes())
                .and_then(|_| stdout.flush())
            {
                Ok(()) => ExitCode::SUCCESS,
                // A closed pipe (`| head`) is not an error worth a message.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("fairsim: cannot write output: {e}");
                    ExitCode::from(1)
                }
            }
        }
        Err(e) => {
            eprintln!("fairsim: {e}");
            e.exit_code()
        }
    }
}
