//! The `fairsim` command line.

mod alloc_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// A deterministic simulator of Hadoop YARN's Fair Scheduler.
#[derive(Debug, Parser)]
#[command(name = "fairsim", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Steady and instantaneous fair shares of every queue of an allocation file.
    Shares(alloc_cmd::SharesArgs),
    /// Check an allocation file and print its queue tree.
    Validate(alloc_cmd::ValidateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let result = match &cli.command {
        Command::Shares(a) => alloc_cmd::run_shares(a, &mut out, &mut err),
        Command::Validate(a) => alloc_cmd::run_validate(a, &mut out, &mut err),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            use std::io::Write;
            let _ = writeln!(err, "error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
