//! `fairsim import`: a cluster's ResourceManager logs into a native CSV trace with the times
//! the cluster recorded (docs/import.md).

use clap::{Args, Subcommand};
use fairsim_bench_runner::CliError;
use fairsim_bench_runner::staging::Staged;
use fairsim_sim::import::logs::{LogError, LogOptions, import_logs, open_source};
use std::path::PathBuf;

/// `fairsim import ...`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    #[command(subcommand)]
    what: ImportWhat,
}

#[derive(Debug, Subcommand)]
enum ImportWhat {
    /// ResourceManager logs (application summary and audit lines, plain or gzip, any
    /// number of files read together in time order) into DIR/trace.csv (the native CSV
    /// trace) and DIR/recorded.csv (each app's recorded submission, AM allocation, AM launch,
    /// first task and finish, on the trace's clock), for `fairsim check replay`.
    Logs(LogsArgs),
}

#[derive(Debug, Args)]
struct LogsArgs {
    /// Log files: the RM log, its audit log, its summary log, rotated parts, in any order.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output directory.
    #[arg(long)]
    out: PathBuf,
    /// Container run times are rounded to a multiple of this many ms (half up), so alike
    /// containers of an app share a trace row; 1 keeps them exact.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    round_ms: u64,
    /// How long after its summary line an app waits for its containers' release lines, ms.
    #[arg(long, default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(0..=86_400_000))]
    grace_ms: u64,
    /// The logs' wall clock minus UTC in minutes (e.g. 60 for CET); read off the first
    /// summary line when not given.
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(i64).range(-1080..=1080))]
    utc_offset_min: Option<i64>,
    /// Container memory (MB) when an audit line has no RESOURCE (Hadoop 2.7) and the app's
    /// summary no memorySeconds.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(i64).range(0..=i64::from(i32::MAX)))]
    default_memory_mb: i64,
    /// Container vcores in the same case.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(i64).range(0..=i64::from(i32::MAX)))]
    default_vcores: i64,
}

/// Runs `fairsim import`.
pub fn run(args: &ImportArgs) -> Result<String, CliError> {
    match &args.what {
        ImportWhat::Logs(a) => logs(a),
    }
}

fn logs(a: &LogsArgs) -> Result<String, CliError> {
    let opts = LogOptions {
        round_ms: a.round_ms,
        grace_ms: a.grace_ms as i64,
        zone_offset_ms: a.utc_offset_min.map(|m| m * 60_000),
        default_size: (a.default_memory_mb, a.default_vcores),
    };
    let io = |path: &PathBuf| {
        let path = path.clone();
        move |source| CliError::Io { path, source }
    };
    // Every file is opened before anything is written: a missing one is bad input.
    let sources = a
        .files
        .iter()
        .map(|f| open_source(f).map_err(|e| CliError::Input(format!("{}: {e}", f.display()))))
        .collect::<Result<Vec<_>, _>>()?;
    Staged::begin(&a.out, None, false)?.run(|s| {
        let trace_path = s.dir().join("trace.csv");
        let recorded_path = s.dir().join("recorded.csv");
        let spill_path = s.dir().join(".spill");
        let mut spill = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&spill_path)
            .map_err(io(&spill_path))?;
        let mut trace =
            std::io::BufWriter::new(std::fs::File::create(&trace_path).map_err(io(&trace_path))?);
        let mut recorded = std::io::BufWriter::new(
            std::fs::File::create(&recorded_path).map_err(io(&recorded_path))?,
        );
        let report = import_logs(sources, &opts, &mut spill, &mut trace, &mut recorded).map_err(
            |e| match e {
                LogError::Bad { .. } => CliError::Input(e.to_string()),
                LogError::Io { .. } => CliError::Failed(e.to_string()),
            },
        )?;
        drop(spill);
        std::fs::remove_file(&spill_path).map_err(io(&spill_path))?;
        for (w, p) in [(trace, &trace_path), (recorded, &recorded_path)] {
            let f = w.into_inner().map_err(|e| CliError::Io {
                path: p.clone(),
                source: e.into_error(),
            })?;
            f.sync_all().map_err(io(p))?;
        }
        for w in report.warnings() {
            eprintln!("warning: {w}");
        }
        let z = report.zone_offset_ms / 60_000;
        Ok(format!(
            "read {} lines: {} application summaries, {} container lines, {} other audit lines \
             and {} lines of other loggers skipped\n\
             logs' clock UTC{}{:02}:{:02}; time 0 is epoch ms {}\n\
             wrote {} ({} apps, {} containers in {} rows) and {}\n",
            report.lines,
            report.summary_lines,
            report.container_lines,
            report.other_audit_lines,
            report.other_lines,
            if z < 0 { '-' } else { '+' },
            z.abs() / 60,
            z.abs() % 60,
            report.base_epoch_ms,
            s.shown(&trace_path).display(),
            report.apps,
            report.containers,
            report.rows,
            s.shown(&recorded_path).display(),
        ))
    })
}
