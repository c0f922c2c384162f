//! `fairsim import`: a cluster's ResourceManager logs into a native CSV trace with the times
//! the cluster recorded (docs/import.md).

use crate::input::json_fault;
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
    /// Saved REST responses of a Fair or Capacity Scheduler cluster (scheduler, nodes, apps)
    /// and its allocation file into a scenario directory that starts from the cluster's
    /// state: scenario.toml with the running nodes (capability = used + available), the
    /// allocation file, open-apps.csv (the open apps, arriving at 0), start.csv (the running
    /// apps' containers on their nodes, held for --remaining) and, for the Fair Scheduler,
    /// demand.csv (for `fairsim shares --alloc`).
    Rm(RmArgs),
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
        ImportWhat::Rm(a) => rm(a),
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

#[derive(Debug, Args)]
struct RmArgs {
    /// Saved /ws/v1/cluster/scheduler response (JSON).
    #[arg(long)]
    scheduler: PathBuf,
    /// Saved /ws/v1/cluster/nodes response (JSON).
    #[arg(long)]
    nodes: PathBuf,
    /// Saved /ws/v1/cluster/apps?states=RUNNING,ACCEPTED response (JSON).
    #[arg(long)]
    apps: PathBuf,
    /// The cluster's fair-scheduler.xml or capacity-scheduler.xml (the REST output carries
    /// no weights nor every setting).
    #[arg(long)]
    alloc: PathBuf,
    /// The cluster's Hadoop era.
    #[arg(long, default_value = "hadoop-3.3", value_parser = |s: &str| s.parse::<fairsim_core::Semantics>())]
    semantics: fairsim_core::Semantics,
    /// How long each open app's containers run from the snapshot: `fixed:MS`, `elapsed`
    /// (as long as the app has run) or `exp:MEAN_MS` (an exponential draw per container
    /// group, from --seed). The REST API gives no remaining run times, so the assumption is
    /// the caller's (docs/import.md).
    #[arg(long, value_parser = |s: &str| s.parse::<fairsim_sim::import::rm_bundle::Remaining>())]
    remaining: fairsim_sim::import::rm_bundle::Remaining,
    /// Seed of `exp:` draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output directory: scenario.toml, the allocation file, open-apps.csv, start.csv,
    /// demand.csv.
    #[arg(long)]
    out: PathBuf,
}

fn read_json(p: &PathBuf) -> Result<serde_json::Value, CliError> {
    let file = p.display().to_string();
    let text = std::fs::read_to_string(p).map_err(|e| CliError::Input(format!("{file}: {e}")))?;
    fairsim_sim::import::rm_scheduler::parse_json(&text, &file).map_err(CliError::Input)
}

fn rm(a: &RmArgs) -> Result<String, CliError> {
    use fairsim_sim::import::rm_bundle::{Remaining, open_apps, read_nodes};
    use fairsim_sim::import::rm_scheduler::{SchedulerType, read_fair, scheduler_type};
    use fairsim_sim::tree::SchedulerKind;
    use std::fmt::Write as _;
    let remaining = match a.remaining {
        Remaining::Exponential { mean_ms, .. } => Remaining::Exponential {
            mean_ms,
            seed: a.seed,
        },
        other => other,
    };
    let sched_file = a.scheduler.display().to_string();
    let sched = read_json(&a.scheduler)?;
    let kind = scheduler_type(&sched).map_err(|f| json_fault(&a.scheduler, f))?;
    let loaded = fairsim_sim::alloc::load_any_file(&a.alloc, a.semantics)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let alloc_shown = a.alloc.display();
    let (cluster, demand) = match (&kind, loaded.tree.scheduler) {
        (SchedulerType::Fair, SchedulerKind::Fair) => {
            let rm_state = read_fair(&sched).map_err(|f| json_fault(&a.scheduler, f))?;
            let mut demand = String::from("queue,memory_mb,vcores\n");
            let mut from_usage = 0;
            for q in rm_state
                .queues
                .iter()
                .filter(|q| q.leaf && q.active_apps.unwrap_or(0) > 0)
            {
                from_usage += usize::from(q.demand.is_none());
                let d = q.demand.or(q.used).unwrap_or(fairsim_core::Resource::ZERO);
                let _ = writeln!(demand, "{},{},{}", q.name, d.memory_mb, d.vcores);
            }
            if from_usage > 0 {
                eprintln!(
                    "warning: {from_usage} active leaves without demandResources (before Hadoop \
                     3.x): demand.csv takes their usage as their demand"
                );
            }
            (Some(rm_state.cluster), Some(demand))
        }
        (SchedulerType::Capacity, SchedulerKind::Capacity) => {
            let rm_state = fairsim_sim::import::rm_capacity::read_capacity(&sched)
                .map_err(|f| json_fault(&a.scheduler, f))?;
            (rm_state.cluster, None)
        }
        _ => {
            return Err(CliError::Input(format!(
                "{sched_file} and {alloc_shown}: a {} response with a {} file: \
                 give the response and the allocation file of the same scheduler \
                 (fairScheduler with fair-scheduler.xml, capacityScheduler with \
                 capacity-scheduler.xml)",
                match &kind {
                    SchedulerType::Fair => "Fair Scheduler".to_string(),
                    SchedulerType::Capacity => "Capacity Scheduler".to_string(),
                    SchedulerType::Other(t) => format!("`{t}`"),
                },
                match loaded.tree.scheduler {
                    SchedulerKind::Fair => "fair-scheduler.xml",
                    _ => "capacity-scheduler.xml",
                }
            )));
        }
    };
    let (nodes, nodes_skipped) =
        read_nodes(&read_json(&a.nodes)?).map_err(|f| json_fault(&a.nodes, f))?;
    if nodes.is_empty() {
        return Err(CliError::Input(format!(
            "{}: no RUNNING node",
            a.nodes.display()
        )));
    }
    let tree = &loaded.tree;
    // A Capacity Scheduler app names its leaf by short name or full path.
    let known = |q: &str| {
        tree.find(q).is_some_and(|id| tree.get(id).is_leaf)
            || (tree.scheduler != SchedulerKind::Fair
                && tree
                    .queues
                    .iter()
                    .any(|c| c.is_leaf && c.name.rsplit('.').next() == Some(q)))
    };
    let open = open_apps(&read_json(&a.apps)?, remaining, &nodes, &known)
        .map_err(|f| json_fault(&a.apps, f))?;
    let alloc_name = a.alloc.file_name().map_or("allocation.xml".into(), |n| {
        n.to_string_lossy().into_owned()
    });
    let mut toml = format!(
        "# Imported from a ResourceManager's REST responses (docs/import.md). Start state: the\n\
         # running apps' containers held on their nodes at 0 ms (start.csv), their pending\n\
         # requests and the accepted apps asked at 0 ms (open-apps.csv); remaining run time:\n\
         # {remaining}.\n\
         name = \"imported\"\n\n[cluster]\n"
    );
    for n in &nodes {
        let _ = write!(
            toml,
            "\n[[cluster.nodes]]\nname = {:?}\nrack = {:?}\nmemory_mb = {}\nvcores = {}\n",
            n.name, n.rack, n.memory_mb, n.vcores
        );
    }
    let _ = write!(
        toml,
        "\n[scheduler]\nsemantics = \"{}\"\n\n[allocation]\nfile = {:?}\n\n[workload]\ncsv = \"open-apps.csv\"\nstart = \"start.csv\"\n",
        a.semantics, alloc_name
    );
    let alloc_bytes = std::fs::read(&a.alloc)
        .map_err(|e| CliError::Input(format!("{}: {e}", a.alloc.display())))?;
    Staged::begin(&a.out, None, false)?.run(|s| {
        let mut files: Vec<(&str, &[u8])> = vec![
            ("scenario.toml", toml.as_bytes()),
            (alloc_name.as_str(), &alloc_bytes),
            ("open-apps.csv", open.trace.as_bytes()),
            ("start.csv", open.start.as_bytes()),
        ];
        if let Some(d) = &demand {
            files.push(("demand.csv", d.as_bytes()));
        }
        for (name, bytes) in files {
            let p = s.dir().join(name);
            std::fs::write(&p, bytes).map_err(|source| CliError::Io { path: p, source })?;
        }
        if nodes_skipped + open.skipped > 0 {
            eprintln!(
                "warning: {nodes_skipped} nodes not RUNNING and {} apps neither RUNNING nor \
                 ACCEPTED left out",
                open.skipped
            );
        }
        for (n, what) in [
            (open.uneven, "apps whose allocation is not a whole multiple of their running containers (sizes truncated)"),
            (open.am_elsewhere, "AMs placed off their amHostHttpAddress node (unknown there, or its usage had no room)"),
            (open.unknown_queue, "running apps in queues the allocation file lacks: they ask again what they hold, placement deciding"),
            (open.am_asks_dropped, "priority-0 asks beyond an app's one AM set aside"),
        ] {
            if n > 0 {
                eprintln!("warning: {n} {what}");
            }
        }
        if open.beyond_usage > 0 {
            eprintln!(
                "warning: {} containers placed past their node's reported usage (the nodes' \
                 and the apps' responses disagree)",
                open.beyond_usage
            );
        }
        Ok(format!(
            "wrote {} ({} nodes, {} open apps, {} of them holding {} containers at the start; \
             remaining run time: {remaining}); cluster {} as the RM reports it\n",
            s.shown(s.dir()).display(),
            nodes.len(),
            open.apps,
            open.warm,
            open.containers,
            cluster.map_or("size not in the response".into(), |c| format!(
                "{} MB, {} vcores",
                c.memory_mb, c.vcores
            )),
        ))
    })
}
