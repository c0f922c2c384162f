//! `fairsim export rm`: a Fair Scheduler run's queue state at one sample time written as the
//! ResourceManager's `/ws/v1/cluster/scheduler` response (Hadoop 3.3's JSON), so that `fairsim
//! check rm` and `fairsim import rm` can be tried on a cluster whose every number is known.
//!
//! The response carries what the run recorded in `queues.csv` at that time: each queue's
//! usage, demand, min share, steady and instantaneous fair shares, runnable and waiting apps.
//! The root's cluster resource is its steady fair share (the Fair Scheduler sets the root's
//! steady share to the cluster). A leaf's `numActiveApps` is its runnable apps, the RM's
//! `isActive` test. Nodes and apps are not written: a run's outputs do not say which node
//! holds what.

use clap::{Args, Subcommand};
use fairsim_bench_runner::CliError;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::tree::{QueueTree, SchedulerKind};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `fairsim export ...`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    what: ExportWhat,
}

#[derive(Debug, Subcommand)]
enum ExportWhat {
    /// A Fair Scheduler run's queues at one sample time (queues.csv) as a ResourceManager
    /// /ws/v1/cluster/scheduler response in Hadoop 3.3's JSON: usage, demand, min share,
    /// steady and instantaneous fair shares and active apps per queue, for `fairsim check
    /// rm` against the allocation file the run used.
    Rm(RmExportArgs),
}

#[derive(Debug, Args)]
struct RmExportArgs {
    /// The directory `fairsim run` wrote (its queues.csv is read).
    run: PathBuf,
    /// The run's fair-scheduler.xml (gives the tree: which queues are leaves).
    #[arg(long)]
    alloc: PathBuf,
    /// The sample time in ms (one of queues.csv's `time_ms`); the last sample when not given.
    #[arg(long)]
    at: Option<u64>,
    /// Where to write the response (JSON).
    #[arg(long)]
    out: PathBuf,
    /// The run's Hadoop era (how the allocation file is read).
    #[arg(long, default_value = "hadoop-3.3", value_parser = |s: &str| s.parse::<Semantics>())]
    semantics: Semantics,
}

/// Runs `fairsim export`.
pub fn run(args: &ExportArgs) -> Result<String, CliError> {
    match &args.what {
        ExportWhat::Rm(a) => export_rm(a),
    }
}

/// One queue's row of queues.csv, in the columns the response needs.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    queue: String,
    usage: Resource,
    demand: Resource,
    min_share: Resource,
    steady: Resource,
    fair: Resource,
    running_apps: i64,
    pending_apps: i64,
}

const COLUMNS: [&str; 16] = [
    "time_ms",
    "queue",
    "usage_mb",
    "usage_vcores",
    "demand_mb",
    "demand_vcores",
    "min_share_mb",
    "min_share_vcores",
    "steady_fair_share_mb",
    "steady_fair_share_vcores",
    "fair_share_mb",
    "fair_share_vcores",
    "ideal_share_mb",
    "ideal_share_vcores",
    "running_apps",
    "pending_apps",
];

/// The rows of `queues.csv` at time `at` (the last time when `None`).
fn read_sample(path: &Path, at: Option<u64>) -> Result<(u64, Vec<Row>), CliError> {
    let file = path.display().to_string();
    let mut rd = csv::ReaderBuilder::new()
        .from_path(path)
        .map_err(|e| CliError::Input(format!("{file}: {e}")))?;
    let headers = rd
        .headers()
        .map_err(|e| CliError::Input(format!("{file}: {e}")))?
        .clone();
    let index: Vec<usize> = COLUMNS
        .iter()
        .map(|c| {
            headers.iter().position(|h| h == *c).ok_or_else(|| {
                CliError::Input(format!(
                    "{file}:{}: no `{c}` column: not the queues.csv of a fairsim run",
                    headers.position().map_or(1, csv::Position::line)
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    let mut times: Vec<u64> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut current: Option<u64> = None;
    for (i, rec) in rd.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| CliError::Input(format!("{file}:{line}: {e}")))?;
        let int = |k: usize| -> Result<i64, CliError> {
            let cell = rec.get(index[k]).unwrap_or("");
            let v = cell.parse::<i64>().map_err(|_| {
                CliError::Input(format!(
                    "{file}:{line}: {}: `{cell}` is not a whole number",
                    COLUMNS[k]
                ))
            })?;
            // Resources and app counts are never negative in a run's queues.csv, and the
            // RM's response (and `check rm`) takes none.
            if k > 0 && v < 0 {
                return Err(CliError::Input(format!(
                    "{file}:{line}: {}: {v} is out of range: the limit is 0 to {}",
                    COLUMNS[k],
                    i64::MAX
                )));
            }
            Ok(v)
        };
        let t = u64::try_from(int(0)?)
            .map_err(|_| CliError::Input(format!("{file}:{line}: time_ms: a negative time")))?;
        if current != Some(t) {
            if current.is_some_and(|c| t < c) {
                return Err(CliError::Input(format!(
                    "{file}:{line}: time_ms {t} goes back from {}",
                    current.unwrap_or(0)
                )));
            }
            current = Some(t);
            times.push(t);
            // Keep only the wanted time's rows (the last time's when none is asked).
            if at.is_none() || at == Some(t) {
                rows.clear();
            }
        }
        if at.is_some_and(|a| a != t) {
            continue;
        }
        let res =
            |m: usize| -> Result<Resource, CliError> { Ok(Resource::new(int(m)?, int(m + 1)?)) };
        rows.push(Row {
            queue: rec.get(index[1]).unwrap_or("").to_string(),
            usage: res(2)?,
            demand: res(4)?,
            min_share: res(6)?,
            steady: res(8)?,
            fair: res(10)?,
            running_apps: int(14)?,
            pending_apps: int(15)?,
        });
    }
    let Some(&last) = times.last() else {
        return Err(CliError::Input(format!("{file}: no samples")));
    };
    let t = at.unwrap_or(last);
    if !times.contains(&t) {
        let near = times
            .iter()
            .min_by_key(|&&x| x.abs_diff(t))
            .copied()
            .unwrap_or(last);
        return Err(CliError::Input(format!(
            "--at {t}: no sample at {t} ms in {file} (samples from {} to {last} ms; the nearest \
             is {near})",
            times[0]
        )));
    }
    Ok((t, rows))
}

fn resource(r: Resource) -> Value {
    json!({ "memory": r.memory_mb, "vCores": r.vcores })
}

/// The response's queue object for queue `name` and its children.
fn queue_json(name: &str, tree: &QueueTree, rows: &BTreeMap<&str, &Row>) -> Value {
    let row = rows[name];
    let id = tree.find(name).expect("checked against the tree");
    let q = tree.get(id);
    let mut v = json!({
        "queueName": name,
        "minResources": resource(row.min_share),
        "usedResources": resource(row.usage),
        "demandResources": resource(row.demand),
        "steadyFairResources": resource(row.steady),
        "fairResources": resource(row.fair),
        "schedulingPolicy": q.policy.to_string(),
    });
    if q.children.is_empty() {
        v["type"] = json!("fairSchedulerLeafQueueInfo");
        v["numActiveApps"] = json!(row.running_apps);
        v["numPendingApps"] = json!(row.pending_apps);
    } else {
        let children: Vec<Value> = q
            .children
            .iter()
            .map(|&c| queue_json(&tree.get(c).name, tree, rows))
            .collect();
        v["childQueues"] = json!({ "queue": children });
    }
    v
}

fn export_rm(a: &RmExportArgs) -> Result<String, CliError> {
    let loaded = fairsim_sim::alloc::load_any_file(&a.alloc, a.semantics)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let tree = &loaded.tree;
    let alloc = a.alloc.display();
    if tree.scheduler != SchedulerKind::Fair {
        return Err(CliError::Input(format!(
            "{alloc} is a capacity-scheduler.xml: `export rm` writes the Fair Scheduler's response"
        )));
    }
    let path = a.run.join("queues.csv");
    let (t, rows) = read_sample(&path, a.at)?;
    let by_name: BTreeMap<&str, &Row> = rows.iter().map(|r| (r.queue.as_str(), r)).collect();
    let file = path.display();
    for r in &rows {
        if tree.find(&r.queue).is_none() {
            return Err(CliError::Input(format!(
                "{file}: queue `{}` is not in {alloc}: give the allocation file the run used",
                r.queue
            )));
        }
    }
    for q in &tree.queues {
        if !by_name.contains_key(q.name.as_str()) {
            return Err(CliError::Input(format!(
                "{file}: queue `{}` of {alloc} has no row at {t} ms: give the allocation file \
                 the run used (queues created at submission are not exported)",
                q.name
            )));
        }
    }
    let root = &by_name["root"];
    let mut root_json = queue_json("root", tree, &by_name);
    root_json["clusterResources"] = resource(root.steady);
    let response = json!({
        "scheduler": { "schedulerInfo": { "type": "fairScheduler", "rootQueue": root_json } }
    });
    let text = serde_json::to_string_pretty(&response).expect("a JSON value prints") + "\n";
    fairsim_bench_runner::results::write_atomic(&a.out, text.as_bytes())
        .map_err(|e| CliError::Input(format!("{}: {e}", a.out.display())))?;
    Ok(format!(
        "wrote {}: {} queues at {t} ms, cluster {} MB, {} vcores\n",
        a.out.display(),
        rows.len(),
        root.steady.memory_mb,
        root.steady.vcores
    ))
}
