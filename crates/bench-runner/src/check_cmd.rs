//! `fairsim check`: fairsim's numbers beside the ones a real cluster recorded.

use clap::{Args, Subcommand};
use fairsim_bench_runner::CliError;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::import::replay::replay;
use fairsim_sim::import::rm_capacity::read_capacity;
use fairsim_sim::import::rm_scheduler::{SchedulerType, parse_json, read_fair, scheduler_type};
use fairsim_sim::tree::SchedulerKind;
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
    /// fairsim's numbers for every queue beside the ones the ResourceManager reports in a
    /// saved /ws/v1/cluster/scheduler response: for the Fair Scheduler the steady and
    /// instantaneous fair shares (from the allocation file, the response's cluster size and
    /// its active leaves' demands), for the Capacity Scheduler the absolute capacities,
    /// effective minimum and maximum resources and each leaf's user limit (from the
    /// capacity-scheduler.xml, the cluster and the leaves' usage); exit 0 when every queue
    /// agrees, 1 when any differs, 2 on bad input.
    Rm(RmArgs),
}

#[derive(Debug, Args)]
struct RmArgs {
    /// The saved response of `curl http://RM:8088/ws/v1/cluster/scheduler`.
    #[arg(long)]
    scheduler: PathBuf,
    /// The cluster's fair-scheduler.xml or capacity-scheduler.xml.
    #[arg(long)]
    alloc: PathBuf,
    /// Capacity Scheduler: the cluster's size as MB,VCORES, for responses that do not carry
    /// the root's effective resource (Hadoop 2.x).
    #[arg(long, value_parser = parse_resource)]
    cluster: Option<Resource>,
    /// Capacity Scheduler: yarn.scheduler.minimum-allocation-mb and -vcores as MB,VCORES
    /// (the user limit rounds to it).
    #[arg(long, default_value = "1024,1", value_parser = parse_resource)]
    minimum_allocation: Resource,
    /// The cluster's Hadoop era.
    #[arg(long, default_value = "hadoop-3.3", value_parser = |s: &str| s.parse::<Semantics>())]
    semantics: Semantics,
    /// A share within this many MB (and vcores) of the RM's agrees.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(i64).range(0..=i64::from(i32::MAX)))]
    tolerance: i64,
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

fn parse_resource(s: &str) -> Result<Resource, String> {
    let bad = || format!("`{s}`: give MB,VCORES (two whole numbers up to 2^31-1)");
    let (m, v) = s.split_once(',').ok_or_else(bad)?;
    let n = |x: &str| {
        x.trim()
            .parse::<i64>()
            .ok()
            .filter(|x| (0..=i64::from(i32::MAX)).contains(x))
            .ok_or_else(bad)
    };
    Ok(Resource::new(n(m)?, n(v)?))
}

/// Runs `fairsim check`.
pub fn run(args: &CheckArgs) -> Result<String, CliError> {
    match &args.what {
        CheckWhat::Replay(a) => check_replay(a),
        CheckWhat::Rm(a) => check_rm(a),
    }
}

fn open(p: &PathBuf) -> Result<std::fs::File, CliError> {
    std::fs::File::open(p).map_err(|e| CliError::Input(format!("{}: {e}", p.display())))
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
    let mut t = fairsim_bench_runner::replay_table::replay_table(&r);
    if let Some(gaps) = fairsim_bench_runner::replay_table::replay_gaps(&r) {
        eprintln!("warning: {gaps}");
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

fn res(r: Option<Resource>) -> String {
    r.map_or("-".into(), |r| format!("{}/{}", r.memory_mb, r.vcores))
}

fn check_rm(a: &RmArgs) -> Result<String, CliError> {
    let file = a.scheduler.display().to_string();
    let text = std::fs::read_to_string(&a.scheduler)
        .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
    let json = parse_json(&text, &file).map_err(CliError::Input)?;
    // A fault found once the response is read names its line in the text.
    let fault =
        |f: fairsim_sim::json_lines::JsonFault| CliError::Input(f.at(&file, text.as_bytes()));
    let kind = scheduler_type(&json).map_err(fault)?;
    let loaded = fairsim_sim::alloc::load_any_file(&a.alloc, a.semantics)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let alloc = a.alloc.display();
    match (&kind, loaded.tree.scheduler) {
        (SchedulerType::Fair, SchedulerKind::Fair) => {}
        (SchedulerType::Fair, _) => {
            return Err(CliError::Input(format!(
                "{file} is a Fair Scheduler response but {alloc} is a capacity-scheduler.xml: \
                 give the cluster's fair-scheduler.xml"
            )));
        }
        (SchedulerType::Capacity, SchedulerKind::Fair) => {
            return Err(CliError::Input(format!(
                "{file} is a Capacity Scheduler response but {alloc} is a fair-scheduler.xml: \
                 give the cluster's capacity-scheduler.xml"
            )));
        }
        (SchedulerType::Capacity, _) => {
            let rm = read_capacity(&json).map_err(fault)?;
            return crate::check_capacity::check(
                &rm,
                &file,
                &loaded.tree,
                &crate::check_capacity::CapacityCheck {
                    semantics: a.semantics,
                    cluster: a.cluster,
                    minimum_allocation: a.minimum_allocation,
                    tolerance: a.tolerance,
                },
            );
        }
        (SchedulerType::Other(t), _) => {
            return Err(fault(fairsim_sim::json_lines::JsonFault::new(
                "scheduler.schedulerInfo.type",
                format!("a `{t}` response: `check rm` reads the Fair Scheduler's"),
            )));
        }
    }
    let rm = read_fair(&json).map_err(fault)?;
    let tree = &loaded.tree;
    // Active leaves (the RM's isActive: runnable apps) with their demands.
    let mut demands = Vec::new();
    let mut demand_from_usage = 0;
    for q in rm
        .queues
        .iter()
        .filter(|q| q.leaf && q.active_apps.unwrap_or(0) > 0)
    {
        let Some(id) = tree.find(&q.name) else {
            continue;
        };
        let d = match q.demand {
            Some(d) => d,
            None => {
                demand_from_usage += 1;
                q.used.unwrap_or(Resource::ZERO)
            }
        };
        demands.push((id, d));
    }
    if demand_from_usage > 0 {
        eprintln!(
            "warning: {demand_from_usage} active leaves without demandResources (before Hadoop \
             3.x): their usage taken as their demand"
        );
    }
    let rows = crate::alloc_cmd::compute_shares(tree, a.semantics, rm.cluster, Some(&demands));
    let near = |x: Option<Resource>, y: Resource| {
        x.is_some_and(|x| {
            (x.memory_mb - y.memory_mb).abs() <= a.tolerance
                && (x.vcores - y.vcores).abs() <= a.tolerance
        })
    };
    let diff = |x: Option<Resource>, y: Resource| match x {
        Some(x) => format!("{:+}/{:+}", y.memory_mb - x.memory_mb, y.vcores - x.vcores),
        None => "-".into(),
    };
    let mut t = String::new();
    let _ = writeln!(
        t,
        "cluster {} MB, {} vcores; {}; shares as MB/vcores, RM / fairsim / fairsim - RM",
        rm.cluster.memory_mb, rm.cluster.vcores, a.semantics
    );
    let _ = writeln!(
        t,
        "{:<28} {:<34} {:<34} verdict",
        "queue", "steady fair share", "instantaneous fair share"
    );
    let mut differ = 0;
    for r in &rows {
        let q = rm.queues.iter().find(|q| q.name == r.queue);
        let (steady, fair) = (q.and_then(|q| q.steady), q.and_then(|q| q.fair));
        let verdict = if q.is_none() {
            "not in the RM"
        } else if near(steady, r.steady) && near(fair, r.fair) {
            "agrees"
        } else {
            "differs"
        };
        if verdict != "agrees" {
            differ += 1;
        }
        let cell = |x, y| format!("{} / {} / {}", res(x), res(Some(y)), diff(x, y));
        let _ = writeln!(
            t,
            "{:<28} {:<34} {:<34} {verdict}",
            r.queue,
            cell(steady, r.steady),
            cell(fair, r.fair)
        );
    }
    for q in &rm.queues {
        if tree.find(&q.name).is_none() {
            differ += 1;
            let _ = writeln!(
                t,
                "{:<28} {:<34} {:<34} not in the allocation file",
                q.name,
                res(q.steady),
                res(q.fair)
            );
        }
    }
    let total = rows.len()
        + rm.queues
            .iter()
            .filter(|q| tree.find(&q.name).is_none())
            .count();
    if differ > 0 {
        return Err(CliError::Differs {
            report: t,
            message: format!("{differ} of {total} queues differ from the RM's shares"),
        });
    }
    let _ = writeln!(t, "all {total} queues agree with the RM's shares");
    Ok(t)
}
