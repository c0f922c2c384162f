//! The `fairsim` command line.
//!
//! Minimal wiring of the sweep, merge and plot subcommands; the simulator's runner is plugged in here once it
//! exists. The hidden `--fake-runner` flag runs sweeps on the deterministic test runner.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use fairsim_bench_runner::plot::{PlotArgs, run_plot};
use fairsim_bench_runner::sweep::fake::FakeRunner;
use fairsim_bench_runner::sweep::{MergeArgs, SweepArgs, run_merge, run_sweep};
use fairsim_bench_runner::{CliError, RunError, RunOne};

#[derive(Parser)]
#[command(
    name = "fairsim",
    version,
    about = "A deterministic simulator of Hadoop YARN's Fair Scheduler"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Run sweeps on the deterministic fake runner (for tests).
    #[arg(long, global = true, hide = true)]
    fake_runner: bool,
    /// Sleep per fake run, milliseconds.
    #[arg(long, global = true, hide = true, default_value_t = 0)]
    fake_sleep_ms: u64,
    /// Random draws per fake run.
    #[arg(long, global = true, hide = true, default_value_t = 0)]
    fake_work: u64,
}

#[derive(Subcommand)]
enum Command {
    /// Run a parameter sweep over many seeds.
    Sweep(SweepArgs),
    /// Join the shard outputs of a sweep.
    Merge(MergeArgs),
    /// Redraw a sweep's charts from its CSV files.
    Plot(PlotArgs),
}

/// Stands in for the simulator until it is linked into this binary.
struct Unlinked;

impl RunOne for Unlinked {
    fn run_one(
        &self,
        _: &toml::Value,
        _: &Path,
        _: u64,
        _: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        Err(RunError::new("the simulator is not linked into this build"))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let fake = FakeRunner {
        work: cli.fake_work,
        sleep: Duration::from_millis(cli.fake_sleep_ms),
        fail_run: None,
    };
    let runner: &dyn RunOne = if cli.fake_runner { &fake } else { &Unlinked };
    let result: Result<(), CliError> = match &cli.command {
        Command::Sweep(args) => run_sweep(args, runner),
        Command::Merge(args) => run_merge(args),
        Command::Plot(args) => run_plot(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fairsim: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
