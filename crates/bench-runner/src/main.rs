//! The `fairsim` command line: glue over fairsim-core, fairsim-sim and the sweep library.

mod alloc_cmd;
mod check_capacity;
mod check_cmd;
mod convert_cmd;
mod export_cmd;
mod import_cmd;
mod input;
mod site_cmd;
mod snapshot;
mod snapshot_cmd;
mod trace_cmd;
mod validate_cmd;

use clap::{Parser, Subcommand};
use fairsim_bench_runner::merge_cmd::{MergeArgs, run_merge};
use fairsim_bench_runner::output_guard::{OutputGuard, check_out_dir};
use fairsim_bench_runner::plan::{PlanArgs, run_plan};
use fairsim_bench_runner::plot_cmd::{PlotArgs, run_plot};
use fairsim_bench_runner::sim_runner::SimRunner;
use fairsim_bench_runner::staging::Staged;
use fairsim_bench_runner::sweep::fake::FakeRunner;
use fairsim_bench_runner::sweep_cmd::{SweepArgs, run_sweep};
use fairsim_bench_runner::{CliError, RunOne};
use fairsim_core::Semantics;
use snapshot_cmd::{CapArg, RoundingArg, SharesOptions, SnapshotFormat};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// fairsim: a deterministic simulator of Hadoop YARN's Fair Scheduler.
///
/// Exit codes: 0 success, 1 a failure of the machine (I/O), 2 bad input or usage, 130 interrupted (Ctrl-C,
/// SIGTERM or SIGHUP: nothing is written to --out).
#[derive(Parser)]
#[command(name = "fairsim", version)]
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
    /// Resolution of the PNG charts, dots per inch: 96 draws them 1024 x 720 pixels, 192
    /// twice as wide and high, for print. The SVG charts are the same drawing at any size.
    #[arg(long, global = true, default_value_t = 96, value_parser = clap::value_parser!(u32).range(48..=600))]
    dpi: u32,
}

#[derive(Subcommand)]
enum Command {
    /// Fair shares: of each schedulable of a snapshot, or of every queue of an allocation file.
    ///
    /// With a SNAPSHOT (JSON): {"semantics": "hadoop-2.7"|"hadoop-3.3", "policy":
    /// "fair"|"drf"|"fifo", "kind": "instantaneous"|"steady", "cluster": {"memory_mb",
    /// "vcores"}, "schedulables": [{"name", "weight", "start_time_ms", "min_share",
    /// "max_share", "demand", "usage", "active"}]}; see README.md for the defaults.
    ///
    /// With --alloc FILE --cluster SIZE [--demand CSV]: steady and instantaneous fair shares of
    /// every queue of a fair-scheduler.xml, root and parents included, in tree order.
    Shares {
        /// Snapshot file, or `-` for standard input (not with --alloc).
        #[arg(required_unless_present = "alloc", conflicts_with = "alloc")]
        snapshot: Option<String>,
        /// A fair-scheduler.xml to compute every queue's shares for. --cluster, --demand and
        /// --semantics go with it only; --rounding and --cap with a SNAPSHOT only (exit 2
        /// otherwise).
        #[arg(long, requires = "cluster")]
        alloc: Option<PathBuf>,
        /// With --alloc: cluster size, e.g. "10240 mb, 10 vcores" or "memory-mb=10240, vcores=10".
        #[arg(long, allow_hyphen_values = true)]
        cluster: Option<String>,
        /// With --alloc: CSV of leaf demands, header `queue,memory_mb,vcores`; a leaf with a
        /// row is active. Without it every leaf is active with zero demand.
        #[arg(long)]
        demand: Option<PathBuf>,
        /// With --alloc: which Hadoop era's rules to follow (a snapshot names its own).
        #[arg(long, value_parser = parse_semantics)]
        semantics: Option<Semantics>,
        /// Output: table; csv (--alloc); json; jsonl (snapshots: one per input line, one
        /// answer per output line, in input order).
        #[arg(long, value_enum, default_value = "table")]
        format: ShareFormat,
        /// Snapshots: Hadoop's integer arithmetic, or the exact real-valued answer [default:
        /// hadoop].
        #[arg(long, value_enum)]
        rounding: Option<RoundingArg>,
        /// Snapshots: what caps a share, the max share (YARN) or also the demand [default:
        /// max-share].
        #[arg(long, value_enum)]
        cap: Option<CapArg>,
    },
    /// Simulate a scenario once: write apps.csv, queues.csv, summary.json and summary.csv, draw
    /// the run's charts (usage against fair share per queue, wait and completion-time
    /// distributions, Jain's index and utilisation over time; PNG and SVG) and print a
    /// headline (apps finished, unfinished and rejected, stalled or not, utilisation, Jain's
    /// index, p50 and p95 wait per queue). Every metric is in summary.csv.
    Run {
        /// The scenario file (TOML); see README.md for its schema.
        scenario: PathBuf,
        /// Base seed of the run's random stream (synthetic workloads).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Run index: 0 for a single run; a sweep's run index (with its seed and the sweep
        /// point's scenario) reproduces that run of the sweep exactly.
        #[arg(long, default_value_t = 0)]
        run_index: u64,
        /// Output directory (default: `results/NAME`, NAME being the scenario's name).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Attribute every app's wait to causes: explain.csv, explain_timeline.csv,
        /// starvation.csv and a "why apps waited" section in report.html (docs/explain.md;
        /// the scenario's `[outputs] explain = true` does the same).
        #[arg(long)]
        explain: bool,
    },
    /// Say why an app, or every app of a queue, waited: a timeline in words from a run
    /// directory written with `fairsim run --explain` (docs/explain.md).
    Explain {
        /// The run's output directory (its explain.csv and explain_timeline.csv).
        run_dir: PathBuf,
        /// The app: its index (apps.csv's app_index) or its name.
        #[arg(long, conflicts_with = "queue", required_unless_present = "queue")]
        app: Option<String>,
        /// The leaf queue (full name, e.g. root.A).
        #[arg(long)]
        queue: Option<String>,
    },
    /// Write the apps a scenario's workload submits (a trace, an SLS SYNTH file or the
    /// synthetic generator, drawn for --seed) as a native CSV trace
    /// (docs/traces.md), to inspect, edit and run with `csv = ...`, or to join with a run's
    /// apps.csv by `app`.
    Trace {
        /// The scenario file (TOML).
        scenario: PathBuf,
        /// Seed of the workload's random stream (as `fairsim run --seed`).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The CSV file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Run the same workload under several schedulers (one scenario file each) and write
    /// `comparison.csv` plus one chart per metric (PNG and SVG), each run's files in a
    /// sub-directory.
    Compare {
        /// Scenario files (TOML), e.g. one with a fair-scheduler.xml and one with a
        /// capacity-scheduler.xml.
        #[arg(required = true, num_args = 2..)]
        scenarios: Vec<PathBuf>,
        /// Base seed of the runs' random streams (synthetic workloads).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seeds to run each scenario with (seed, seed + 1, …): above 1, each scenario after
        /// the first is compared with it queue by queue over the paired seeds (p50 and p95
        /// wait, preemptions, time below the guarantee, lost work, share deviation, apps held
        /// back by the AM limit: means and the change with its 95% interval), printed and
        /// written to regression.csv and report.html.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
        seeds: u64,
        /// Output directory.
        #[arg(long, default_value = "results/compare")]
        out: PathBuf,
    },
    /// Convert a fair-scheduler.xml into the capacity-scheduler.xml Hadoop 3's `yarn fs2cs`
    /// writes for it (docs/allocation-files.md, "Converting"): weight mode (`2w`) by default,
    /// or percentages. The result is read back as a capacity-scheduler.xml before it is
    /// written; what the converter does not convert goes to stderr.
    Convert {
        /// The fair-scheduler.xml.
        file: PathBuf,
        /// The capacity-scheduler.xml to write.
        #[arg(long)]
        out: PathBuf,
        /// Write percentages (`--percentage` of fs2cs) instead of weights.
        #[arg(long)]
        percentage: bool,
        /// The era the fair-scheduler.xml is read in.
        #[arg(long, value_parser = parse_semantics, default_value = "hadoop-3.3")]
        semantics: Semantics,
    },
    /// Check a scenario (.toml), an allocation file (fair-scheduler.xml or
    /// capacity-scheduler.xml, whose queue tree is printed) or a yarn-site.xml /
    /// sls-runner.xml (every property fairsim reads, with file and line, and every one it
    /// does not model, with the reason); a scenario naming `scheduler.yarn_site` prints the
    /// same list, each value's effective source included, and warns about the apps of its
    /// workload (seed 1) that a run would reject at submission (unknown or parent queue,
    /// malformed name, ask above the maximum allocation) and about the queues submission
    /// would create, with the placement rule that creates each. Warnings go to stderr, errors
    /// exit with code 2.
    Validate(alloc_cmd::ValidateArgs),
    /// Run a parameter sweep: a base scenario crossed with axes and seeds, in parallel.
    Sweep(SweepArgs),
    /// Join the shard outputs of a sweep into the files an unsharded sweep writes.
    Merge(MergeArgs),
    /// Redraw a sweep's charts from its CSV files.
    Plot(PlotArgs),
    /// Capacity planning: the smallest node count, node size, min share, max share or weight
    /// meeting every service-level objective, per workload growth step (bisection over the
    /// range, checked at the answer's neighbours). Writes plan.csv, answer.json and a chart
    /// per objective; prints the answer in one sentence. See docs/planning.md.
    Plan(PlanArgs),
    /// Bring a cluster in: its ResourceManager's logs as a trace with the times it recorded
    /// (docs/import.md).
    Import(import_cmd::ImportArgs),
    /// Check fairsim against a cluster: a replay of its logs against its recorded times
    /// (docs/import.md).
    Check(check_cmd::CheckArgs),
    /// A run's state written as a cluster would report it: `export rm` writes a Fair
    /// Scheduler run's queues at one sample time as the ResourceManager's
    /// /ws/v1/cluster/scheduler response, for `fairsim check rm` (docs/import.md).
    Export(export_cmd::ExportArgs),
    /// The order in which the policy offers resources, with the reason for each place.
    Rank {
        /// Snapshot file, or `-` for standard input.
        snapshot: String,
        /// Output: a table, one JSON answer, or JSON lines (one snapshot per input line).
        #[arg(long, value_enum, default_value = "table")]
        format: SnapshotFormat,
    },
}

/// Output formats of `fairsim shares`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ShareFormat {
    /// A table for people.
    Table,
    /// CSV, one row per queue (with --alloc).
    Csv,
    /// One JSON answer.
    Json,
    /// JSON lines: one snapshot per input line, one answer per output line.
    Jsonl,
}

fn parse_semantics(s: &str) -> Result<Semantics, String> {
    s.parse()
}

/// Which of `fairsim shares`' flags were given.
struct SharesFlags {
    alloc: bool,
    cluster: bool,
    demand: bool,
    semantics: bool,
    rounding: bool,
    cap: bool,
}

/// `fairsim shares` answers a snapshot or an allocation file, and each has its own flags: a
/// flag of the other kind would be ignored, so it is refused (exit 2) saying what goes with
/// what.
fn check_shares_flags(f: &SharesFlags) -> Result<(), CliError> {
    // "--a goes", "--a and --b go", "--a, --b and --c go"; empty when none was given.
    let named = |flags: &[(bool, &str)]| -> String {
        let given: Vec<&str> = flags
            .iter()
            .filter(|(given, _)| *given)
            .map(|(_, name)| *name)
            .collect();
        match given.as_slice() {
            [] => String::new(),
            [one] => format!("{one} goes"),
            [rest @ .., last] => format!("{} and {last} go", rest.join(", ")),
        }
    };
    if f.alloc {
        let stray = named(&[(f.rounding, "--rounding"), (f.cap, "--cap")]);
        if !stray.is_empty() {
            return Err(CliError::Input(format!(
                "{stray} with a SNAPSHOT, not with --alloc (an allocation file's shares use \
                 Hadoop's arithmetic, capped by max shares)"
            )));
        }
    } else {
        let stray = named(&[
            (f.cluster, "--cluster"),
            (f.demand, "--demand"),
            (f.semantics, "--semantics"),
        ]);
        if !stray.is_empty() {
            return Err(CliError::Input(format!(
                "{stray} with --alloc FILE, not with a SNAPSHOT (a snapshot names its own \
                 cluster, demands and semantics)"
            )));
        }
    }
    Ok(())
}

fn from_cmd(e: alloc_cmd::CmdError) -> CliError {
    if e.exit_code() == 2 {
        CliError::Input(e.to_string())
    } else {
        CliError::Failed(e.to_string())
    }
}

/// Runs an allocation-file command that writes its own answer, buffered so that a failure
/// leaves stdout empty.
fn buffered(
    f: impl FnOnce(&mut Vec<u8>, &mut std::io::StderrLock<'_>) -> Result<(), alloc_cmd::CmdError>,
) -> Result<String, CliError> {
    let mut out = Vec::new();
    f(&mut out, &mut std::io::stderr().lock()).map_err(from_cmd)?;
    String::from_utf8(out).map_err(|e| CliError::Failed(format!("output is not UTF-8: {e}")))
}

fn load_scenario(path: &Path) -> Result<fairsim_sim::Scenario, CliError> {
    // A scenario that cannot be read (missing, unreadable, not UTF-8) is bad input too.
    let scenario = fairsim_sim::load_scenario(path).map_err(|e| CliError::Input(e.to_string()))?;
    for w in &scenario.warnings {
        eprintln!("warning: {w}");
    }
    Ok(scenario)
}

fn run_scenario(
    path: &Path,
    seed: u64,
    run_index: u64,
    out: Option<PathBuf>,
    explain: bool,
) -> Result<String, CliError> {
    let mut scenario = load_scenario(path)?;
    scenario.explain |= explain;
    let out = out.unwrap_or_else(|| PathBuf::from("results").join(&scenario.name));
    let command = fairsim_bench_runner::report_html::command_line();
    // Written beside --out and moved in whole at the end: a failed or killed run leaves no
    // half-written --out (fairsim_bench_runner::staging).
    let (_, text) = Staged::begin(&out, None, false)?
        .run(|s| {
            let (summary, text) = fairsim_bench_runner::run_report::run_with_charts(
                &scenario,
                path,
                seed,
                run_index,
                s.dir(),
                &command,
            )?;
            let staging = s.dir().display().to_string();
            Ok((summary, text.replace(&staging, &out.display().to_string())))
        })
        .map_err(|e| match e {
            CliError::Input(m) => CliError::Input(format!("{}: {m}", path.display())),
            other => other,
        })?;
    Ok(text)
}

/// `fairsim explain`: an app's or a queue's waits in words, from `run_dir`'s explain files.
fn explain_run(run_dir: &Path, app: Option<&str>, queue: Option<&str>) -> Result<String, CliError> {
    use fairsim_bench_runner::why_waited as ww;
    let read = |name: &str| {
        let p = run_dir.join(name);
        std::fs::read_to_string(&p).map_err(|e| {
            CliError::Input(format!(
                "{}: {e} (write it with `fairsim run --explain`)",
                p.display()
            ))
        })
    };
    let explained_name = run_dir.join("explain.csv").display().to_string();
    let timeline_name = run_dir.join("explain_timeline.csv").display().to_string();
    let apps =
        ww::read_explained(&read("explain.csv")?, &explained_name).map_err(CliError::Input)?;
    let rows = ww::read_timeline(&read("explain_timeline.csv")?, &timeline_name)
        .map_err(CliError::Input)?;
    if let Some(q) = queue {
        if !apps.iter().any(|a| a.queue == q) {
            return Err(CliError::Input(format!(
                "{explained_name}: no app ran in queue {q:?}"
            )));
        }
        return Ok(ww::queue_timeline(q, &apps, &rows));
    }
    let wanted = app.unwrap_or_default();
    let found = apps
        .iter()
        .find(|a| a.name == wanted || a.index.to_string() == wanted)
        .ok_or_else(|| {
            CliError::Input(format!(
                "{explained_name}: no app with index or name {wanted:?}"
            ))
        })?;
    Ok(ww::app_timeline(found, &rows))
}

fn run(cli: Cli) -> Result<String, CliError> {
    let fake = FakeRunner {
        work: cli.fake_work,
        sleep: Duration::from_millis(cli.fake_sleep_ms),
        fail_run: None,
    };
    if !cli.fake_runner && (cli.fake_work != 0 || cli.fake_sleep_ms != 0) {
        return Err(CliError::Input(
            "--fake-work and --fake-sleep-ms go with --fake-runner".into(),
        ));
    }
    let runner: &dyn RunOne = if cli.fake_runner { &fake } else { &SimRunner };
    match cli.command {
        Command::Sweep(args) => run_sweep(&args, runner),
        Command::Merge(args) => {
            let out = args.out.clone().unwrap_or_else(|| args.dirs[0].clone());
            check_out_dir(&out)?;
            OutputGuard::new(&out)
                .run(|| run_merge(&args))
                .map(|()| String::new())
        }
        Command::Plot(args) => OutputGuard::new(&args.dir)
            .run(|| run_plot(&args))
            .map(|()| String::new()),
        Command::Plan(args) => run_plan(&args, runner),
        Command::Shares {
            snapshot,
            alloc,
            cluster,
            demand,
            semantics,
            format,
            rounding,
            cap,
        } => {
            check_shares_flags(&SharesFlags {
                alloc: alloc.is_some(),
                cluster: cluster.is_some(),
                demand: demand.is_some(),
                semantics: semantics.is_some(),
                rounding: rounding.is_some(),
                cap: cap.is_some(),
            })?;
            if let Some(alloc) = alloc {
                let format = match format {
                    ShareFormat::Table => alloc_cmd::OutputFormat::Table,
                    ShareFormat::Csv => alloc_cmd::OutputFormat::Csv,
                    ShareFormat::Json => alloc_cmd::OutputFormat::Json,
                    ShareFormat::Jsonl => {
                        return Err(CliError::Input(
                            "--format jsonl is for snapshots; use table, csv or json with --alloc"
                                .into(),
                        ));
                    }
                };
                let args = alloc_cmd::SharesArgs {
                    alloc,
                    cluster: cluster.unwrap_or_default(),
                    demand,
                    semantics: semantics.unwrap_or_default(),
                    format,
                };
                return buffered(|out, err| alloc_cmd::run_shares(&args, out, err));
            }
            let format = match format {
                ShareFormat::Table => SnapshotFormat::Table,
                ShareFormat::Json => SnapshotFormat::Json,
                ShareFormat::Jsonl => SnapshotFormat::Jsonl,
                ShareFormat::Csv => {
                    return Err(CliError::Input(
                        "--format csv is for --alloc; use table, json or jsonl with a snapshot"
                            .into(),
                    ));
                }
            };
            let snapshot = snapshot.unwrap_or_else(|| "-".into());
            snapshot_cmd::shares(
                &snapshot,
                SharesOptions {
                    format,
                    rounding: rounding.unwrap_or(RoundingArg::Hadoop).into(),
                    cap: cap.unwrap_or(CapArg::MaxShare).into(),
                },
            )
        }
        Command::Import(args) => import_cmd::run(&args),
        Command::Check(args) => check_cmd::run(&args),
        Command::Export(args) => export_cmd::run(&args),
        Command::Rank { snapshot, format } => snapshot_cmd::rank_cmd(&snapshot, format),
        Command::Convert {
            file,
            out,
            percentage,
            semantics,
        } => {
            let mode = if percentage {
                fairsim_sim::alloc::fs2cs::Fs2csMode::Percentage
            } else {
                fairsim_sim::alloc::fs2cs::Fs2csMode::Weight
            };
            let (summary, notes) = convert_cmd::fs2cs(&file, semantics, mode, &out)?;
            for n in notes {
                eprintln!("warning: {n}");
            }
            Ok(summary)
        }
        Command::Run {
            scenario,
            seed,
            run_index,
            out,
            explain,
        } => run_scenario(&scenario, seed, run_index, out, explain),
        Command::Explain {
            run_dir,
            app,
            queue,
        } => explain_run(&run_dir, app.as_deref(), queue.as_deref()),
        Command::Trace {
            scenario,
            seed,
            out,
        } => trace_cmd::write_trace(&load_scenario(&scenario)?, seed, &out),
        Command::Compare {
            scenarios,
            seed,
            seeds,
            out,
        } => {
            let loaded = scenarios
                .iter()
                .map(|p| load_scenario(p))
                .collect::<Result<Vec<_>, _>>()?;
            let (files, headline, paired) = Staged::begin(&out, None, false)?.run(|s| {
                let (files, paired) = fairsim_bench_runner::compare::run_compare(
                    &loaded,
                    &scenarios,
                    seed,
                    seeds,
                    s.dir(),
                )?;
                let rows =
                    fairsim_bench_runner::compare::read_rows(&s.dir().join("comparison.csv"))
                        .map_err(|e| CliError::Failed(e.to_string()))?;
                let headline = fairsim_bench_runner::compare::headline_table(&rows);
                Ok((
                    files.iter().map(|f| s.shown(f)).collect::<Vec<_>>(),
                    headline,
                    paired,
                ))
            })?;
            let mut text = headline;
            for f in &files {
                text.push_str(&format!("wrote {}\n", f.display()));
            }
            text.push_str(&paired);
            Ok(text)
        }
        Command::Validate(args) if args.file.extension().is_some_and(|e| e == "toml") => {
            if args.semantics.is_some() {
                return Err(CliError::Input(format!(
                    "{}: --semantics goes with a fair-scheduler.xml or a yarn-site.xml; a \
                     scenario names its era in [scheduler] semantics",
                    args.file.display()
                )));
            }
            let scenario = load_scenario(&args.file)?;
            // The recorded times a run joins are checked before it runs: so here.
            if let Some(p) = &scenario.recorded {
                fairsim_bench_runner::run_report::ReplayTee::open(
                    p,
                    scenario.scheduler.am_launch_delay_ms as i64,
                )
                .map_err(|e| match e {
                    CliError::Input(m) => CliError::Input(format!("{}: {m}", args.file.display())),
                    other => other,
                })?;
            }
            // The apps a run would reject: a warning, not an error (YARN accepts the
            // configuration and rejects the apps one by one).
            let seed = 1;
            let rejections = fairsim_sim::engine::submission_check::rejected_apps(&scenario, seed)
                .map_err(|e| CliError::Input(format!("{}: {e}", args.file.display())))?;
            for line in rejections.warning(seed, 5) {
                eprintln!("warning: {line}");
            }
            for line in rejections.created_warning(seed) {
                eprintln!("warning: {line}");
            }
            let mut text = String::new();
            if let Some(report) = &scenario.scheduler.site {
                for line in report.lines() {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            text.push_str(&format!(
                "{}: ok, scenario `{}`, {} queues, {} nodes\n",
                args.file.display(),
                scenario.name,
                scenario.tree.len(),
                scenario.cluster.nodes
            ));
            Ok(text)
        }
        Command::Validate(args) => buffered(|out, err| validate_cmd::validate(&args, out, err)),
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
    fairsim_bench_runner::staging::clean_up_on_interrupt();
    fairsim_bench_runner::plot::set_png_dpi(cli.dpi);
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
            if let CliError::Differs { report, .. } = &e {
                print!("{report}");
            }
            eprintln!("fairsim: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}
