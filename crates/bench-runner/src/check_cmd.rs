//! `fairsim check`: fairsim's numbers beside the ones a real cluster recorded.

use clap::{Args, Subcommand};
use fairsim_bench_runner::CliError;
use fairsim_sim::import::replay::{Errors, replay};
use std::fmt::Write as _;
use std::path::PathBuf;

/// `fairsim check ...`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(subcommand)]
    what: CheckWhat,
}

#[derive(Debug, Subcommand)]
enum CheckWhat {
    /// A run of an imported trace against the times the cluster recorded: wait for the first
    /// container, AM launch delay and completion, recorded and simulated, per queue (median
    /// of each, mean difference and mean absolute difference); --out writes them per app.
    Replay(ReplayArgs),
}

#[derive(Debug, Args)]
struct ReplayArgs {
    /// recorded.csv of `fairsim import logs`.
    #[arg(long)]
    recorded: PathBuf,
    /// apps.csv of a `fairsim run` of the imported trace.
    #[arg(long)]
    apps: PathBuf,
    /// The run's scenario's `am_launch_delay_ms` (an AM runs this long after its container
    /// is allocated; 0 when AM timing is not modelled).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i64).range(0..=315_576_000_000))]
    am_launch_delay_ms: i64,
    /// Write the per-app times here (CSV).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Runs `fairsim check`.
pub fn run(args: &CheckArgs) -> Result<String, CliError> {
    match &args.what {
        CheckWhat::Replay(a) => check_replay(a),
    }
}

fn open(p: &PathBuf) -> Result<std::fs::File, CliError> {
    std::fs::File::open(p).map_err(|e| CliError::Input(format!("{}: {e}", p.display())))
}

fn secs(ms: f64) -> String {
    format!("{:.1}", ms / 1000.0)
}

fn cells(e: &Option<Errors>) -> [String; 4] {
    match e {
        Some(e) => [
            secs(e.recorded_p50 as f64),
            secs(e.simulated_p50 as f64),
            secs(e.bias_ms),
            secs(e.mean_abs_ms),
        ],
        None => std::array::from_fn(|_| "-".to_string()),
    }
}

fn check_replay(a: &ReplayArgs) -> Result<String, CliError> {
    let r = replay(
        open(&a.recorded)?,
        &a.recorded.display().to_string(),
        open(&a.apps)?,
        &a.apps.display().to_string(),
        a.am_launch_delay_ms,
    )
    .map_err(CliError::Input)?;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "seconds: recorded median / simulated median / mean (sim - rec) / mean |sim - rec|"
    );
    let _ = writeln!(
        t,
        "{:<24} {:>6}  {:<30} {:<30} {:<30}",
        "queue", "apps", "wait", "AM launch delay", "completion"
    );
    for q in &r.queues {
        let cols = [&q.wait, &q.am_launch, &q.completion].map(|e| cells(e).join(" / "));
        let _ = writeln!(
            t,
            "{:<24} {:>6}  {:<30} {:<30} {:<30}",
            q.queue, q.apps, cols[0], cols[1], cols[2]
        );
    }
    if r.missing_in_run + r.missing_in_recording + r.unfinished > 0 {
        eprintln!(
            "warning: {} recorded apps not in the run, {} run apps not recorded, {} apps \
             unfinished in the run (left out of completion)",
            r.missing_in_run, r.missing_in_recording, r.unfinished
        );
    }
    if let Some(out) = &a.out {
        let mut w = csv::Writer::from_writer(Vec::new());
        let io = |e: csv::Error| CliError::Failed(e.to_string());
        w.write_record([
            "app",
            "queue",
            "recorded_wait_ms",
            "simulated_wait_ms",
            "recorded_am_launch_ms",
            "simulated_am_launch_ms",
            "recorded_completion_ms",
            "simulated_completion_ms",
        ])
        .map_err(io)?;
        let pair = |p: Option<(i64, i64)>| match p {
            Some((r, s)) => [r.to_string(), s.to_string()],
            None => [String::new(), String::new()],
        };
        for app in &r.apps {
            let [rw, sw] = pair(app.wait);
            let [rl, sl] = pair(app.am_launch);
            let [rc, sc] = pair(app.completion);
            w.write_record([&app.app, &app.queue, &rw, &sw, &rl, &sl, &rc, &sc])
                .map_err(io)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| CliError::Failed(e.to_string()))?;
        fairsim_sim::recorder::write_atomic(out, &bytes)
            .map_err(|e| CliError::Failed(e.to_string()))?;
        let _ = writeln!(t, "wrote {}", out.display());
    }
    Ok(t)
}
