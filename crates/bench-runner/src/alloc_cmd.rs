//! `fairsim shares` and `fairsim validate`: the allocation-file readers on the command line.
//!
//! Both return a [`CmdError`] whose [`CmdError::exit_code`] is 2 for bad input (a refused
//! file, an unknown queue in a demand file) and 1 for an I/O failure; nothing here panics on
//! input.

use clap::{Args, ValueEnum};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::{AllocError, LoadedAlloc, Missing, load_any_file_by_kind, parse_resource};
use fairsim_sim::tree::{QueueId, QueueTree, ResourceSpec, SchedulerKind};
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How `shares` prints its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum OutputFormat {
    /// An indented tree with percentages, for people.
    #[default]
    Table,
    /// One row per queue; unbounded maxima are empty fields (pandas reads them as NaN).
    Csv,
    /// An object with a `queues` array; unbounded maxima are `null`.
    Json,
}

/// Arguments of `fairsim shares`.
#[derive(Debug, Clone, Args)]
pub struct SharesArgs {
    /// The fair-scheduler.xml to read.
    #[arg(long)]
    pub alloc: PathBuf,
    /// Cluster size, e.g. "10240 mb, 10 vcores" or "memory-mb=10240, vcores=10".
    #[arg(long)]
    pub cluster: String,
    /// CSV of leaf demands with the header `queue,memory_mb,vcores`; a leaf with a row is
    /// active. Without it every leaf is active with zero demand.
    #[arg(long)]
    pub demand: Option<PathBuf>,
    /// Which Hadoop era's rules to follow.
    #[arg(long, default_value = "hadoop-2.7", value_parser = parse_semantics)]
    pub semantics: Semantics,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Table)]
    pub format: OutputFormat,
}

/// Arguments of `fairsim validate`.
#[derive(Debug, Clone, Args)]
pub struct ValidateArgs {
    /// A scenario (.toml), fair-scheduler.xml, capacity-scheduler.xml, yarn-site.xml or
    /// sls-runner.xml (told apart by the extension, the root element and, for a
    /// `<configuration>`, whether it names `yarn.scheduler.capacity.root.queues`, sets other
    /// `yarn.scheduler.capacity.root.*` properties or is named capacity-scheduler.xml); a
    /// JSON file is refused, saying what it looks like.
    pub file: PathBuf,
    /// Which Hadoop era's rules to follow [default: hadoop-2.7 for a fair-scheduler.xml or a
    /// yarn-site.xml, hadoop-3.3 for a capacity-scheduler.xml, whose weight and absolute
    /// forms hadoop-2.7 refuses]; refused with a scenario, which sets its own.
    #[arg(long, value_parser = parse_semantics)]
    pub semantics: Option<Semantics>,
}

impl ValidateArgs {
    /// The era to read a fair-scheduler.xml or a yarn-site.xml as.
    pub fn era(&self) -> Semantics {
        self.semantics.unwrap_or(Semantics::Hadoop27)
    }

    /// The era to read a capacity-scheduler.xml as.
    pub fn capacity_era(&self) -> Semantics {
        self.semantics.unwrap_or(Semantics::Hadoop33)
    }
}

fn parse_semantics(s: &str) -> Result<Semantics, String> {
    s.parse()
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CmdError {
    /// The input is wrong (exit code 2).
    #[error("{0}")]
    BadInput(String),
    /// Reading or writing failed (exit code 1).
    #[error("{0}")]
    Io(String),
}

impl CmdError {
    /// The process exit code: 2 for bad input, 1 for I/O failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            CmdError::BadInput(_) => 2,
            CmdError::Io(_) => 1,
        }
    }
}

impl From<AllocError> for CmdError {
    /// Every allocation-file error is bad input, a file that cannot be read included: the
    /// user named it.
    fn from(e: AllocError) -> Self {
        CmdError::BadInput(e.to_string())
    }
}

fn write_failed(e: std::io::Error) -> CmdError {
    CmdError::Io(format!("cannot write the output: {e}"))
}

/// One queue's line of the `shares` answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareRow {
    /// Full queue name.
    pub queue: String,
    /// Depth below root (root is 0).
    pub depth: usize,
    /// Weight.
    pub weight: f32,
    /// minResources resolved against the cluster.
    pub min: Resource,
    /// maxResources resolved against the cluster (a component of `i64::MAX` is unbounded).
    pub max: Resource,
    /// Demand, capped by maxResources and summed up the tree.
    pub demand: Resource,
    /// Steady fair share (all queues).
    pub steady: Resource,
    /// Instantaneous fair share (active queues only).
    pub fair: Resource,
}

/// Steady and instantaneous shares of every queue, in tree pre-order.
pub fn compute_shares(
    tree: &QueueTree,
    semantics: Semantics,
    cluster: Resource,
    demands: Option<&[(QueueId, Resource)]>,
) -> Vec<ShareRow> {
    let loads = match demands {
        Some(d) => tree.loads_from_demands(cluster, d),
        None => {
            let all: Vec<_> = (0..tree.len())
                .map(|i| QueueId(i as u32))
                .filter(|&id| tree.get(id).is_leaf)
                .map(|id| (id, Resource::ZERO))
                .collect();
            tree.loads_from_demands(cluster, &all)
        }
    };
    let (steady, fair) = tree.steady_and_fair_shares(semantics, cluster, &loads);
    tree.queues
        .iter()
        .enumerate()
        .map(|(i, q)| ShareRow {
            queue: q.name.clone(),
            depth: tree.depth(QueueId(i as u32)),
            weight: q.weight,
            min: q.min_resources.resolve(cluster),
            max: q.max_share(cluster),
            demand: loads[i].demand,
            steady: steady[i],
            fair: fair[i],
        })
        .collect()
}

/// Runs `fairsim shares`, writing the answer to `out` and warnings to `err`.
pub fn run_shares(
    args: &SharesArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), CmdError> {
    let cluster = parse_cluster(&args.cluster, args.semantics)?;
    // A capacity-scheduler.xml is refused below, whichever era would read it.
    let loaded = load_any_file_by_kind(&args.alloc, args.semantics, Semantics::Hadoop33)?;
    print_warnings(&loaded, err)?;
    if loaded.tree.scheduler != SchedulerKind::Fair {
        return Err(CmdError::BadInput(format!(
            "{}: shares needs a fair-scheduler.xml; this is a capacity-scheduler.xml",
            args.alloc.display()
        )));
    }
    let demands = match &args.demand {
        Some(path) => Some(read_demands(path, &loaded.tree, args.semantics)?),
        None => None,
    };
    let rows = compute_shares(&loaded.tree, args.semantics, cluster, demands.as_deref());
    match args.format {
        OutputFormat::Table => write_table(&rows, cluster, args.semantics, out),
        OutputFormat::Csv => write_csv(&rows, out),
        OutputFormat::Json => write_json(&rows, cluster, args.semantics, out),
    }
}

/// The cluster size: any absolute resource string, each value within `semantics`' range.
fn parse_cluster(text: &str, semantics: Semantics) -> Result<Resource, CmdError> {
    match parse_resource(text, Semantics::Hadoop33, Missing::Zero) {
        Ok(ResourceSpec::Absolute(r)) => {
            let limit = semantics.resource_max();
            for (name, v) in [("memory", r.memory_mb), ("vcores", r.vcores)] {
                if v > limit {
                    return Err(CmdError::BadInput(format!(
                        "--cluster \"{text}\": {name} {v} exceeds {semantics}'s 32-bit int range (max {limit})"
                    )));
                }
            }
            Ok(r)
        }
        Ok(ResourceSpec::Percent { .. }) => Err(CmdError::BadInput(
            "--cluster must be absolute, e.g. \"10240 mb, 10 vcores\"".into(),
        )),
        Err(m) => Err(CmdError::BadInput(format!("--cluster \"{text}\": {m}"))),
    }
}

fn print_warnings(loaded: &LoadedAlloc, err: &mut dyn Write) -> Result<(), CmdError> {
    for w in &loaded.warnings {
        writeln!(err, "warning: {w}").map_err(write_failed)?;
    }
    Ok(())
}

/// Reads a demand CSV (`queue,memory_mb,vcores`, header required), each value within
/// `semantics`' range.
pub fn read_demands(
    path: &Path,
    tree: &QueueTree,
    semantics: Semantics,
) -> Result<Vec<(QueueId, Resource)>, CmdError> {
    let label = path.display().to_string();
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(csv::Trim::All)
        .from_path(path)
        .map_err(|e| CmdError::BadInput(format!("{label}: cannot read: {e}")))?;
    let headers = rdr.headers().map_err(|e| csv_error(&label, e))?.clone();
    let col = |name: &str| -> Result<usize, CmdError> {
        headers.iter().position(|h| h == name).ok_or_else(|| {
            CmdError::BadInput(format!(
                "{label}:1: the header must name the columns queue,memory_mb,vcores (missing {name})"
            ))
        })
    };
    let (qc, mc, vc) = (col("queue")?, col("memory_mb")?, col("vcores")?);
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| csv_error(&label, e))?;
        let line = rec.position().map_or(0, |p| p.line());
        let field = |i: usize| rec.get(i).unwrap_or("");
        let name = field(qc);
        let full = if name == "root" || name.starts_with("root.") {
            name.to_string()
        } else {
            format!("root.{name}")
        };
        let bad = |column: &str, msg: String| {
            CmdError::BadInput(format!("{label}:{line}: column {column}: {msg}"))
        };
        let id = tree
            .find(&full)
            .ok_or_else(|| bad("queue", format!("unknown queue {full}")))?;
        if !tree.get(id).is_leaf {
            return Err(bad(
                "queue",
                format!("{full} is a parent queue; demands belong to leaves"),
            ));
        }
        let num = |i: usize, column: &str| -> Result<i64, CmdError> {
            let v = field(i)
                .parse::<i64>()
                .ok()
                .filter(|v| *v >= 0)
                .ok_or_else(|| {
                    bad(
                        column,
                        format!("\"{}\" is not a non-negative integer", field(i)),
                    )
                })?;
            let limit = semantics.resource_max();
            if v > limit {
                return Err(bad(
                    column,
                    format!("{v} exceeds {semantics}'s 32-bit int range (max {limit})"),
                ));
            }
            Ok(v)
        };
        out.push((id, Resource::new(num(mc, "memory_mb")?, num(vc, "vcores")?)));
    }
    Ok(out)
}

fn csv_error(label: &str, e: csv::Error) -> CmdError {
    let line = e.position().map_or(0, |p| p.line());
    match e.kind() {
        csv::ErrorKind::Io(_) => CmdError::BadInput(format!("{label}: cannot read: {e}")),
        _ => CmdError::BadInput(format!("{label}:{line}: {e}")),
    }
}

/// A resource component for CSV: empty when unbounded.
fn bounded(v: i64) -> String {
    if v == i64::MAX {
        String::new()
    } else {
        v.to_string()
    }
}

fn write_csv(rows: &[ShareRow], out: &mut dyn Write) -> Result<(), CmdError> {
    let mut w = csv::Writer::from_writer(out);
    let io = |e: csv::Error| CmdError::Io(format!("cannot write the output: {e}"));
    w.write_record([
        "queue",
        "weight",
        "min_memory_mb",
        "min_vcores",
        "max_memory_mb",
        "max_vcores",
        "demand_memory_mb",
        "demand_vcores",
        "steady_memory_mb",
        "steady_vcores",
        "fair_memory_mb",
        "fair_vcores",
    ])
    .map_err(io)?;
    for r in rows {
        w.write_record([
            r.queue.clone(),
            r.weight.to_string(),
            r.min.memory_mb.to_string(),
            r.min.vcores.to_string(),
            bounded(r.max.memory_mb),
            bounded(r.max.vcores),
            r.demand.memory_mb.to_string(),
            r.demand.vcores.to_string(),
            r.steady.memory_mb.to_string(),
            r.steady.vcores.to_string(),
            r.fair.memory_mb.to_string(),
            r.fair.vcores.to_string(),
        ])
        .map_err(io)?;
    }
    w.flush().map_err(write_failed)
}

fn write_json(
    rows: &[ShareRow],
    cluster: Resource,
    semantics: Semantics,
    out: &mut dyn Write,
) -> Result<(), CmdError> {
    let opt = |v: i64| {
        if v == i64::MAX {
            serde_json::Value::Null
        } else {
            json!(v)
        }
    };
    let queues: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "queue": r.queue,
                "weight": r.weight,
                "min_memory_mb": r.min.memory_mb,
                "min_vcores": r.min.vcores,
                "max_memory_mb": opt(r.max.memory_mb),
                "max_vcores": opt(r.max.vcores),
                "demand_memory_mb": r.demand.memory_mb,
                "demand_vcores": r.demand.vcores,
                "steady_memory_mb": r.steady.memory_mb,
                "steady_vcores": r.steady.vcores,
                "fair_memory_mb": r.fair.memory_mb,
                "fair_vcores": r.fair.vcores,
            })
        })
        .collect();
    let doc = json!({
        "semantics": semantics.name(),
        "cluster": { "memory_mb": cluster.memory_mb, "vcores": cluster.vcores },
        "queues": queues,
    });
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(|e| CmdError::Io(e.to_string()))?;
    writeln!(out).map_err(write_failed)
}

fn percent(part: i64, whole: i64) -> String {
    if whole <= 0 {
        "-".into()
    } else {
        format!("{:.1}%", part as f64 * 100.0 / whole as f64)
    }
}

fn res(r: Resource) -> String {
    let c = |v: i64| {
        if v == i64::MAX {
            "inf".to_string()
        } else {
            v.to_string()
        }
    };
    format!("{}/{}", c(r.memory_mb), c(r.vcores))
}

fn write_table(
    rows: &[ShareRow],
    cluster: Resource,
    semantics: Semantics,
    out: &mut dyn Write,
) -> Result<(), CmdError> {
    let w = rows
        .iter()
        .map(|r| 2 * r.depth + short(&r.queue).len())
        .max()
        .unwrap_or(4)
        .max(5);
    let mut s = format!(
        "cluster {} MB, {} vcores; {}; resources as MB/vcores, % of cluster memory\n",
        cluster.memory_mb, cluster.vcores, semantics
    );
    s.push_str(&format!(
        "{:<w$}  {:>7}  {:>12}  {:>16}  {:>12}  {:>12} {:>7}  {:>12} {:>7}\n",
        "queue", "weight", "min", "max", "demand", "steady", "", "fair", ""
    ));
    for r in rows {
        let name = format!("{}{}", "  ".repeat(r.depth), short(&r.queue));
        s.push_str(&format!(
            "{:<w$}  {:>7}  {:>12}  {:>16}  {:>12}  {:>12} {:>7}  {:>12} {:>7}\n",
            name,
            r.weight,
            res(r.min),
            res(r.max),
            res(r.demand),
            res(r.steady),
            percent(r.steady.memory_mb, cluster.memory_mb),
            res(r.fair),
            percent(r.fair.memory_mb, cluster.memory_mb),
        ));
    }
    out.write_all(s.as_bytes()).map_err(write_failed)
}

/// The last component of a queue name.
fn short(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// What a file looks like when it is JSON (its first byte after white space, `//` comments
/// and a byte-order mark is `{` or `[`); `None` for any other file, left to the XML readers.
fn json_file(path: &Path) -> Result<Option<String>, CmdError> {
    use std::io::{BufRead, Read};
    let open = || {
        std::fs::File::open(path)
            .map(std::io::BufReader::new)
            .map_err(|e| CmdError::BadInput(format!("{}: cannot read: {e}", path.display())))
    };
    let mut head = Vec::new();
    open()?
        .take(4096)
        .read_to_end(&mut head)
        .map_err(|e| CmdError::BadInput(format!("{}: cannot read: {e}", path.display())))?;
    let mut head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    // SLS's sample traces open with `//` comments.
    loop {
        head = head.trim_ascii_start();
        match head.strip_prefix(b"//") {
            Some(rest) => {
                head = rest
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(&[][..], |i| &rest[i + 1..]);
            }
            None => break,
        }
    }
    match head.first() {
        Some(b'[') => Ok(Some(
            "a JSON array (fairsim's JSON inputs are objects: SLS traces, Rumen histories, SYNTH \
             and nodes files, snapshots)"
                .into(),
        )),
        Some(b'{') => {
            let reader: Box<dyn BufRead> = Box::new(open()?);
            Ok(Some(
                fairsim_sim::workload::json_looks_like(reader)
                    .map(|w| format!("this looks like {w}"))
                    .unwrap_or_else(|| "an object of no JSON input fairsim reads".into()),
            ))
        }
        _ => Ok(None),
    }
}

/// Refuses a JSON file given to `fairsim validate`, naming what it is.
pub fn refuse_json(args: &ValidateArgs) -> Result<(), CmdError> {
    match json_file(&args.file)? {
        Some(what) => Err(CmdError::BadInput(format!(
            "{}: a JSON file, not one validate reads (a scenario .toml, a fair-scheduler.xml, a \
             capacity-scheduler.xml, a yarn-site.xml or an sls-runner.xml): {what}",
            args.file.display()
        ))),
        None => Ok(()),
    }
}

/// Runs `fairsim validate` on an allocation file: the tree with each queue's key settings
/// to `out`, warnings to `err` (a JSON file and a yarn-site.xml are told apart before, in
/// `validate_cmd`).
pub fn run_validate(
    args: &ValidateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), CmdError> {
    let loaded = load_any_file_by_kind(&args.file, args.era(), args.capacity_era())?;
    print_warnings(&loaded, err)?;
    let t = &loaded.tree;
    let mut s = String::new();
    match t.scheduler {
        SchedulerKind::Fair => s.push_str(&format!(
            "{}: fair-scheduler.xml read as {}, {} queues\n",
            args.file.display(),
            args.era(),
            t.len()
        )),
        SchedulerKind::Capacity => s.push_str(&format!(
            "{}: capacity-scheduler.xml, {} queues, resource calculator {:?}\n",
            args.file.display(),
            t.len(),
            t.resource_calculator
        )),
    }
    let spec = |r: &ResourceSpec| match r {
        ResourceSpec::Absolute(r) => res(*r),
        ResourceSpec::Percent { memory, vcores } => format!("{memory}%/{vcores}%"),
    };
    let ms = |v: Option<u64>| v.map_or("never".to_string(), |v| format!("{}s", v / 1000));
    for (i, q) in t.queues.iter().enumerate() {
        let kind = if q.is_leaf { "leaf" } else { "parent" };
        let indent = "  ".repeat(t.depth(QueueId(i as u32)));
        let mut line = format!("{indent}{} ({kind})", q.name);
        match t.scheduler {
            SchedulerKind::Fair => {
                line.push_str(&format!(
                    " policy={} weight={} min={} max={}",
                    q.policy,
                    q.weight,
                    spec(&q.min_resources),
                    spec(&q.max_resources)
                ));
                if let Some(m) = &q.max_child_resources {
                    line.push_str(&format!(" maxChild={}", spec(m)));
                }
                if let Some(m) = q.max_running_apps {
                    line.push_str(&format!(" maxApps={m}"));
                }
                if q.is_leaf {
                    line.push_str(&format!(" maxAMShare={}", q.max_am_share));
                }
                line.push_str(&format!(
                    " minSharePreemption={} fairSharePreemption={} threshold={}",
                    ms(q.min_share_preemption_timeout_ms),
                    ms(q.fair_share_preemption_timeout_ms),
                    q.fair_share_preemption_threshold
                ));
                if !q.allow_preemption_from {
                    line.push_str(" preemptable=no");
                }
                if q.reservable {
                    line.push_str(" reservable");
                }
            }
            SchedulerKind::Capacity => {
                use fairsim_sim::capacity::config::CapacityForm;
                let f = |v: Option<f64>| v.map_or("-".to_string(), |v| v.to_string());
                let res = |r: fairsim_core::Resource| {
                    format!("[memory={},vcores={}]", r.memory_mb, r.vcores)
                };
                let capacity = match q.cs.form {
                    CapacityForm::Percent => format!("{}%", f(q.capacity_percent)),
                    CapacityForm::Weight(w) => format!("{w}w"),
                    CapacityForm::Absolute(r) => res(r),
                };
                let max = match q.cs.maximum_resource {
                    Some(r) => res(r),
                    None => format!("{}%", f(q.maximum_capacity_percent)),
                };
                line.push_str(&format!(
                    " capacity={} max={} user-limit-factor={} min-user-limit={}% am={}",
                    capacity,
                    max,
                    f(q.user_limit_factor),
                    q.minimum_user_limit_percent.unwrap_or(100.0),
                    f(q.maximum_am_resource_fraction)
                ));
                if let Some(o) = q.ordering_policy {
                    line.push_str(&format!(" ordering={o:?}"));
                }
                if q.cs.size_based_weight {
                    line.push_str(" size-based-weight");
                }
                if let Some(n) = q.cs.maximum_applications {
                    line.push_str(&format!(" maximum-applications={n}"));
                }
                if let Some(n) = q.max_running_apps {
                    line.push_str(&format!(" max-parallel-apps={n}"));
                }
                if q.cs.stopped {
                    line.push_str(" STOPPED");
                }
            }
        }
        s.push_str(&line);
        s.push('\n');
    }
    if t.scheduler == SchedulerKind::Fair {
        s.push_str("placement:");
        for r in &t.placement {
            s.push_str(&format!(" {r:?};"));
        }
        s.push('\n');
        if let Some(d) = t.user_max_apps_default {
            s.push_str(&format!("userMaxAppsDefault={d}\n"));
        }
        for (u, m) in &t.user_max_apps {
            s.push_str(&format!("user {u}: maxRunningApps={m}\n"));
        }
    }
    s.push_str(&format!("ok, {} warning(s)\n", loaded.warnings.len()));
    out.write_all(s.as_bytes()).map_err(write_failed)
}
