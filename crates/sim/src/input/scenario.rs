//! Scenario files (TOML): cluster, scheduler options, allocation file, workload, end time and
//! outputs. [`load_scenario`] reads and validates one; errors name the file, line and key.
//!
//! ```toml
//! name = "example"                  # optional; default: the file stem
//! end_ms = 3600000                  # optional; default: run until every app finished
//!
//! [cluster]                         # one of: nodes = N, [[cluster.nodes]], nodes_file
//! nodes = 100                       # N identical nodes node0.. (see `topology`)
//! racks = 4                         # default 1
//! node_memory_mb = 8192             # required with nodes = N; else the default node size
//! node_vcores = 8
//! # [[cluster.nodes]]               # prefix = "big" / name = "h1", count, rack, memory_mb, vcores
//! # nodes_file = "nodes.json"       # an SLS nodes file (docs/cluster.md)
//! # [[cluster.events]]              # at_ms, kind = "add" | "decommission" | "lose", node(s)
//!
//! [scheduler]                       # every key optional
//! semantics = "hadoop-2.7"          # or "hadoop-3.3"
//! assignmultiple = false            # yarn.scheduler.fair.assignmultiple
//! max_assign = -1                   # yarn.scheduler.fair.max.assign
//! dynamic_max_assign = true         # 3.3 only: yarn.scheduler.fair.dynamic.max.assign
//! sizebasedweight = false
//! booster = { factor = 3.0, duration_ms = 300000, when = "first" }   # or omit
//! ordering = "incremental"          # or "naive" (re-sort as Hadoop does)
//! heartbeats = "elided"             # or "every" (process heartbeats that change nothing)
//! update_interval_ms = 500
//! heartbeat_ms = 1000
//! locality_threshold_node = -1.0    # count-based delay scheduling, off when negative
//! locality_threshold_rack = -1.0
//! preemption = false                # fair: yarn.scheduler.fair.preemption; capacity: the
//!                                   # scheduling monitors (...scheduler.monitor.enable)
//! monitor_policies = "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy"
//!                                   # capacity: the monitors' list (...monitor.policies)
//! queue_management_interval_ms = 1500   # capacity, hadoop-3.3: QueueManagementDynamicEditPolicy
//! preemption_utilization_threshold = 0.8
//! preemption_interval_ms = 5000     # hadoop-2.7 only
//! wait_before_kill_ms = 15000
//! wait_before_next_starvation_check_ms = 10000   # hadoop-3.3 only
//! monitoring_interval_ms = 3000     # capacity: yarn.resourcemanager.monitor.capacity.preemption.*
//! max_wait_before_kill_ms = 15000
//! total_preemption_per_round = 0.1
//! max_ignored_over_capacity = 0.1
//! natural_termination_factor = 0.2
//! node_locality_delay = 40          # capacity: yarn.scheduler.capacity.node-locality-delay
//! minimum_allocation_mb = 1024       # yarn.scheduler.minimum-allocation-mb
//! minimum_allocation_vcores = 1
//! maximum_allocation_mb = 8192       # yarn.scheduler.maximum-allocation-mb (asks above: rejected)
//! maximum_allocation_vcores = 4
//! increment_allocation_mb = 1024     # Fair Scheduler: yarn.scheduler.increment-allocation-mb
//! increment_allocation_vcores = 1
//! max_allocation_wait_ms = 10000     # yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms
//! users = "groups.csv"              # users' groups for placement (docs/allocation-files.md)
//! reservation_threshold_increment_multiple = 2.0   # 3.3: yarn.scheduler.reservation-threshold.increment-multiple
//! reservable_nodes = 0.05           # 3.3: yarn.scheduler.fair.reservable-nodes
//! yarn_site = "yarn-site.xml"       # or a list, later files winning: yarn-site.xml and
//!                                   # sls-runner.xml knobs under these keys (crate::yarn_site)
//!
//! [allocation]
//! file = "fair-scheduler.xml"       # relative to the scenario file; a
//!                                   # capacity-scheduler.xml selects the Capacity Scheduler;
//!                                   # optional with `yarn_site` (YARN's own choice)
//!
//! [queues."root.etl"]               # optional overrides of the allocation file, per queue
//! weight = 2.0                      # (full name, or the name under root); sweeps vary these
//! min_memory_mb = 4096              # minResources memory (and min_vcores)
//! max_memory_mb = 65536             # maxResources memory (and max_vcores)
//! max_running_apps = 10
//! max_am_share = 0.5
//! policy = "drf"                    # fair, drf or fifo (fifo on leaves only)
//!
//! [workload]                        # exactly one of: csv, sls, rumen, synth, synthetic
//! csv = "trace.csv"                 # native CSV trace (docs/traces.md)
//! # sls = "sls-jobs.json"           # Hadoop SLS JSON trace (or a list of files)
//! # rumen = "job-history.json"      # Rumen job history (or a list of files)
//! # synth = "syn.json"              # SLS SYNTH generator, drawn from the run's seed
//! # synth_task_time_unit = "ms"     # SYNTH task `time`: "ms" (SLS's code) or "s" (its docs)
//! # sls_container_memory_mb = 1024  # SLS's yarn.sls.container.* and yarn.sls.am.container.*
//! # sls_am_memory_mb = 1024         # (and _vcores): sizes where SLS and Rumen traces give none
//! # [workload.synthetic] ...        # see workload::synthetic::SyntheticSpec
//!
//! [outputs]
//! sample_interval_ms = 10000        # queues.csv sampling; 0 disables
//! explain = false                   # why apps waited: explain.csv (docs/explain.md)
//! ```

use crate::app::AppSpec;
use crate::key_lines::KeyLines;
use crate::limits::limit;
use crate::scenario_checks;
use crate::tree::QueueTree;
use crate::tree::{QueueId, ResourceSpec};
use crate::workload::synthetic::SyntheticSpec;
use crate::workload::{SlsDefaults, TraceRead, WorkloadError, csv::read_csv_trace};
use fairsim_core::{Policy, Resource, Semantics};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use crate::scenario_error::ScenarioError;
pub use crate::settings::{Heartbeats, Ordering, SchedulerConf};
pub use crate::topology::ClusterSpec;

/// Where the apps come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Workload {
    /// Apps read from a trace at load time.
    Trace(Vec<AppSpec>),
    /// Apps drawn per run from the seed.
    Synthetic(SyntheticSpec),
    /// Apps drawn per run from the seed by an SLS SYNTH file.
    Synth(crate::workload::synth::SynthSpec),
}

impl Workload {
    /// The apps of a run with seed `seed` (a trace's apps whatever the seed). The run index
    /// plays no part: every point of a sweep replays the same workload per seed. An error
    /// names the file, line and limit a SYNTH file's draws for this seed would pass.
    pub fn apps(&self, seed: u64) -> Result<Vec<AppSpec>, String> {
        let rng = || crate::workload::synthetic::workload_rng(seed);
        match self {
            Workload::Trace(apps) => Ok(apps.clone()),
            Workload::Synthetic(spec) => Ok(spec.generate(&mut rng())),
            Workload::Synth(spec) => spec.generate(&mut rng()),
        }
    }
}

/// A loaded, validated scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Name (for outputs).
    pub name: String,
    /// The file it came from, if any.
    pub path: Option<PathBuf>,
    /// Cluster shape.
    pub cluster: ClusterSpec,
    /// Scheduler options.
    pub scheduler: SchedulerConf,
    /// Queues from the allocation file.
    pub tree: QueueTree,
    /// Warnings from the allocation file.
    pub warnings: Vec<String>,
    /// The workload.
    pub workload: Workload,
    /// Stop time; `None` runs until every app finished.
    pub end_ms: Option<u64>,
    /// `queues.csv` sampling interval (0: off).
    pub sample_interval_ms: u64,
    /// Check the engine's invariants after every event (tests; slow).
    pub check_invariants: bool,
    /// Attribute every app's wait to causes and write `explain.csv`, `explain_timeline.csv`
    /// and `starvation.csv` (`[outputs] explain`, or `fairsim run --explain`).
    pub explain: bool,
    /// Containers the trace's apps already hold when the run begins (`[workload] start`).
    pub start: Option<crate::start_state::StartState>,
    /// The times the cluster recorded for the trace's apps (`[workload] recorded`, the
    /// `recorded.csv` of `fairsim import logs`): a run's report sets its own beside them.
    pub recorded: Option<PathBuf>,
}

impl Scenario {
    /// `workload` on `cluster` under `tree`, built in code rather than read from a file: the
    /// scheduler's defaults, no warnings, no end time (the run goes until every app finished),
    /// no `queues.csv` sampling and no invariant checks. Callers set the other fields with
    /// struct update syntax.
    pub fn new(name: &str, cluster: ClusterSpec, tree: QueueTree, workload: Workload) -> Scenario {
        Scenario {
            name: name.into(),
            path: None,
            cluster,
            scheduler: SchedulerConf::default(),
            tree,
            warnings: vec![],
            workload,
            end_ms: None,
            sample_interval_ms: 0,
            check_invariants: false,
            explain: false,
            start: None,
            recorded: None,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Option<String>,
    end_ms: Option<u64>,
    cluster: crate::topology::RawCluster,
    #[serde(default)]
    scheduler: SchedulerConf,
    allocation: Option<RawAllocation>,
    #[serde(default)]
    queues: BTreeMap<String, QueueOverride>,
    workload: RawWorkload,
    #[serde(default)]
    outputs: RawOutputs,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAllocation {
    file: PathBuf,
}

/// Settings that replace the allocation file's for one queue.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueueOverride {
    weight: Option<f64>,
    min_memory_mb: Option<i64>,
    min_vcores: Option<i64>,
    max_memory_mb: Option<i64>,
    max_vcores: Option<i64>,
    max_running_apps: Option<u32>,
    max_am_share: Option<f64>,
    policy: Option<String>,
}

/// Applies `[queues.NAME]` overrides to the tree loaded from the allocation file. A min above
/// the max is a warning naming the override's line (`at` gives `file:line: key`), as the
/// allocation file's reader warns about its own; memory and vcores stay in a Java int under
/// hadoop-2.7, as its allocation file's reader refuses larger ones.
fn apply_overrides(
    tree: &mut QueueTree,
    overrides: &BTreeMap<String, QueueOverride>,
    semantics: Semantics,
    invalid: &dyn Fn(&str, &str) -> ScenarioError,
    at: &dyn Fn(&str) -> String,
    warnings: &mut Vec<String>,
) -> Result<(), ScenarioError> {
    for (name, o) in overrides {
        let key = |field: &str| format!("queues.\"{name}\".{field}");
        let full = if name == "root" || name.starts_with("root.") {
            name.clone()
        } else {
            format!("root.{name}")
        };
        let id: QueueId = tree.find(&full).ok_or_else(|| {
            invalid(
                &format!("queues.\"{name}\""),
                "no such queue in the allocation file",
            )
        })?;
        let q = tree.get_mut(id);
        let check = |field: &str, v: f64| {
            limit("scenario", &format!("queues.*.{field}"))
                .check_float(v)
                .map_err(|m| invalid(&key(field), &m))
        };
        if let Some(w) = o.weight {
            q.weight = check("weight", w)? as f32;
        }
        let absolute = |spec: ResourceSpec, field: &str| match spec {
            ResourceSpec::Absolute(r) => Ok(r),
            ResourceSpec::Percent { .. } => Err(invalid(
                &key(field),
                "the allocation file gives a percentage here; override both components of it",
            )),
        };
        for (field, mem, vcores, slot) in [
            ("min_memory_mb", o.min_memory_mb, o.min_vcores, 0),
            ("max_memory_mb", o.max_memory_mb, o.max_vcores, 1),
        ] {
            if mem.is_none() && vcores.is_none() {
                continue;
            }
            if mem.is_some_and(|v| v < 0) || vcores.is_some_and(|v| v < 0) {
                return Err(invalid(&key(field), "must not be negative"));
            }
            if semantics == Semantics::Hadoop27 {
                let vcores_field = field.replace("memory_mb", "vcores");
                for (name, v) in [(field, mem), (vcores_field.as_str(), vcores)] {
                    if let Some(v) = v {
                        limit("scenario", &format!("queues.*.{name}"))
                            .check_int(v.into())
                            .map_err(|m| {
                                invalid(
                                    &key(name),
                                    &format!("{m} (hadoop-2.7 keeps it in a Java int, as its allocation file's reader does)"),
                                )
                            })?;
                    }
                }
            }
            let spec = if slot == 0 {
                &mut q.min_resources
            } else {
                &mut q.max_resources
            };
            let current = match (mem, vcores) {
                (Some(m), Some(v)) => Resource::new(m, v),
                _ => {
                    let r = absolute(*spec, field)?;
                    Resource::new(mem.unwrap_or(r.memory_mb), vcores.unwrap_or(r.vcores))
                }
            };
            *spec = ResourceSpec::Absolute(current);
        }
        let given = |f: &str| match f {
            "min_memory_mb" => o.min_memory_mb.is_some(),
            "min_vcores" => o.min_vcores.is_some(),
            "max_memory_mb" => o.max_memory_mb.is_some(),
            _ => o.max_vcores.is_some(),
        };
        if let (ResourceSpec::Absolute(min), ResourceSpec::Absolute(max)) =
            (q.min_resources, q.max_resources)
            && !min.fits_in(max)
            && ["min_memory_mb", "min_vcores", "max_memory_mb", "max_vcores"]
                .iter()
                .any(|f| given(f))
        {
            // Blame the max where the scenario wrote one, else the min it raised.
            let field = ["max_memory_mb", "max_vcores", "min_memory_mb", "min_vcores"]
                .into_iter()
                .find(|f| given(f))
                .expect("an override was given");
            let what = if q.max_raised_to_min {
                format!(
                    "the max ({} MB, {} vcores) is below the min ({} MB, {} vcores) of {}: hadoop-3.3 raises the max to the min (FSQueue.getMaxShare), giving {} MB, {} vcores",
                    max.memory_mb,
                    max.vcores,
                    min.memory_mb,
                    min.vcores,
                    q.name,
                    max.memory_mb.max(min.memory_mb),
                    max.vcores.max(min.vcores)
                )
            } else {
                format!(
                    "the min ({} MB, {} vcores) of {} does not fit in its max ({} MB, {} vcores) (yarn only logs this; hadoop-2.7 keeps the max)",
                    min.memory_mb, min.vcores, q.name, max.memory_mb, max.vcores
                )
            };
            warnings.push(format!("{}: {what}", at(&key(field))));
        }
        if let Some(n) = o.max_running_apps {
            check("max_running_apps", n as f64)?;
            q.max_running_apps = Some(n);
        }
        if let Some(share) = o.max_am_share {
            if !q.is_leaf {
                return Err(invalid(
                    &key("max_am_share"),
                    "only leaf queues have a maxAMShare",
                ));
            }
            if share < 0.0 && share != -1.0 {
                return Err(invalid(
                    &key("max_am_share"),
                    &format!("{share} is out of range: a fraction from 0, or -1 to disable"),
                ));
            }
            q.max_am_share = check("max_am_share", share)?.min(1.0) as f32;
        }
        if let Some(p) = &o.policy {
            let policy: Policy = p.parse().map_err(|m: String| invalid(&key("policy"), &m))?;
            if policy == Policy::Fifo && !q.is_leaf {
                return Err(invalid(
                    &key("policy"),
                    "fifo is allowed on leaf queues only",
                ));
            }
            q.policy = policy;
        }
    }
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorkload {
    csv: Option<PathBuf>,
    start: Option<PathBuf>,
    recorded: Option<PathBuf>,
    sls: Option<OneOrMany>,
    rumen: Option<OneOrMany>,
    synth: Option<PathBuf>,
    #[serde(default)]
    synth_task_time_unit: crate::workload::synth::TaskTimeUnit,
    synthetic: Option<SyntheticSpec>,
    sls_container_memory_mb: Option<i64>,
    sls_container_vcores: Option<i64>,
    sls_am_memory_mb: Option<i64>,
    sls_am_vcores: Option<i64>,
}

/// One file or a list of files (SLS reads several traces into one run).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(PathBuf),
    Many(Vec<PathBuf>),
}

impl OneOrMany {
    fn paths(&self, base: &Path) -> Vec<PathBuf> {
        match self {
            OneOrMany::One(p) => vec![base.join(p)],
            OneOrMany::Many(ps) => ps.iter().map(|p| base.join(p)).collect(),
        }
    }
}

impl RawWorkload {
    fn sls_defaults(
        &self,
        invalid: &dyn Fn(&str, &str) -> ScenarioError,
    ) -> Result<SlsDefaults, ScenarioError> {
        let d = SlsDefaults::default();
        let mut out = d;
        for (key, value, slot) in [
            (
                "workload.sls_container_memory_mb",
                self.sls_container_memory_mb,
                &mut out.container.memory_mb,
            ),
            (
                "workload.sls_container_vcores",
                self.sls_container_vcores,
                &mut out.container.vcores,
            ),
            (
                "workload.sls_am_memory_mb",
                self.sls_am_memory_mb,
                &mut out.am.memory_mb,
            ),
            (
                "workload.sls_am_vcores",
                self.sls_am_vcores,
                &mut out.am.vcores,
            ),
        ] {
            if let Some(v) = value {
                limit("scenario", key)
                    .check_int(v.into())
                    .map_err(|m| invalid(key, &m))?;
                *slot = v;
            }
        }
        Ok(out)
    }
}

/// Reads the trace files of a scenario's `[workload]` (several files of one kind are one
/// workload, stably sorted by arrival).
fn read_traces(
    paths: &[PathBuf],
    mut read: impl FnMut(&Path) -> Result<TraceRead, WorkloadError>,
) -> Result<TraceRead, WorkloadError> {
    let mut all = TraceRead::default();
    for p in paths {
        let r = read(p)?;
        all.apps.extend(r.apps);
        all.warnings.extend(r.warnings);
    }
    all.apps.sort_by_key(|a| a.arrival);
    Ok(all)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RawOutputs {
    sample_interval_ms: u64,
    explain: bool,
}

impl Default for RawOutputs {
    fn default() -> Self {
        RawOutputs {
            sample_interval_ms: 10_000,
            explain: false,
        }
    }
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
    (line, column)
}

/// YARN refuses to start with a minimum allocation above the maximum (the ResourceManager's
/// `validateConfigs`); a zero increment has no meaning. `given` says whether a key was set
/// (in the scenario or a yarn-site file): the error blames the maximum when it was set, else
/// the minimum, so that it names the file and line a person wrote rather than a default.
fn check_allocation_settings(
    conf: &SchedulerConf,
    given: &dyn Fn(&str) -> bool,
    invalid: &dyn Fn(&str, &str) -> ScenarioError,
) -> Result<(), ScenarioError> {
    for (unit, min, max, inc) in [
        (
            "mb",
            conf.minimum_allocation_mb,
            conf.maximum_allocation_mb,
            conf.increment_allocation_mb,
        ),
        (
            "vcores",
            conf.minimum_allocation_vcores,
            conf.maximum_allocation_vcores,
            conf.increment_allocation_vcores,
        ),
    ] {
        // The Fair Scheduler's validateConf accepts a minimum of 0 (the limits table keeps it
        // at 0 or more); the Capacity Scheduler refuses it, checked once the file is read
        // (`scenario_checks::check_nodes_register`).
        let max_key = format!("scheduler.maximum_allocation_{unit}");
        let min_key = format!("scheduler.minimum_allocation_{unit}");
        if max < min && (given(&max_key) || !given(&min_key)) {
            return Err(invalid(
                &max_key,
                &format!("{max} is below the minimum allocation {min}"),
            ));
        }
        if max < min {
            return Err(invalid(
                &min_key,
                &format!(
                    "{min} is above the maximum allocation {max} (the default of \
                     maximum_allocation_{unit}): YARN's ResourceManager refuses to start"
                ),
            ));
        }
        if inc <= 0 {
            return Err(invalid(
                &format!("scheduler.increment_allocation_{unit}"),
                "must be at least 1",
            ));
        }
    }
    Ok(())
}

/// Why `name` cannot name an output directory (`results/NAME`), if it cannot: it must be
/// one directory name, so that outputs stay under `results/` (`..`, `/tmp/x` or `a/b` would
/// write elsewhere, an empty name into `results/` itself). Scenario, sweep and plan names.
pub fn output_name_problem(name: &str) -> Option<String> {
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.contains(['/', '\\', '\0'])
        || name.len() > 255;
    bad.then(|| {
        format!(
            "{name:?} is not a directory name: outputs go to results/NAME, so a name is 1 to 255 bytes without '/', '\\' or NUL and is not '.' or '..' (give --out to write elsewhere)"
        )
    })
}

/// Refuses, at the key that names it, a file of the scenario that cannot be opened (missing,
/// a directory, unreadable): its reader would name the file alone, not the scenario line
/// that asked for it.
fn check_named_files(
    raw: &RawScenario,
    base: &Path,
    invalid: &dyn Fn(&str, &str) -> ScenarioError,
) -> Result<(), ScenarioError> {
    let w = &raw.workload;
    let one = |key: &'static str, p: Option<&Path>| p.map(|p| vec![(key, base.join(p))]);
    let many = |key: &'static str, files: Option<&OneOrMany>| {
        files.map(|f| f.paths(base).into_iter().map(|p| (key, p)).collect())
    };
    let named: Vec<Vec<(&str, PathBuf)>> = [
        one(
            "allocation.file",
            raw.allocation.as_ref().map(|a| a.file.as_path()),
        ),
        raw.scheduler.yarn_site.as_ref().map(|f| {
            f.paths(base)
                .into_iter()
                .map(|p| ("scheduler.yarn_site", p))
                .collect()
        }),
        one("scheduler.users", raw.scheduler.users.as_deref()),
        one("cluster.nodes_file", raw.cluster.nodes_file()),
        one("workload.csv", w.csv.as_deref()),
        one("workload.start", w.start.as_deref()),
        one("workload.recorded", w.recorded.as_deref()),
        one("workload.synth", w.synth.as_deref()),
        many("workload.sls", w.sls.as_ref()),
        many("workload.rumen", w.rumen.as_ref()),
    ]
    .into_iter()
    .flatten()
    .collect();
    for (key, p) in named.iter().flatten() {
        let problem = match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => Some("it is a directory".to_string()),
            Ok(_) => std::fs::File::open(p).err().map(|e| e.to_string()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(problem) = problem {
            return Err(invalid(
                key,
                &format!("{}: cannot read: {problem}", p.display()),
            ));
        }
    }
    Ok(())
}

/// Parses scenario TOML `text` (from `path`, used for messages and relative paths).
pub fn parse_scenario(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    let raw: RawScenario = toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map(|s| line_col(text, s.start)).unwrap_or((1, 1));
        // A value of the wrong type or out of the type's range: name its key too.
        let key = e
            .span()
            .and_then(|s| crate::key_lines::key_of_value_at(text, s.start));
        let message = e.message().trim();
        ScenarioError::Toml {
            path: path.to_path_buf(),
            line,
            column,
            message: match key {
                Some(k) => format!("{k}: {message}"),
                None => message.to_string(),
            },
        }
    })?;
    let lines = KeyLines::new(text);
    let invalid = |key: &str, message: &str| ScenarioError::Invalid {
        path: path.to_path_buf(),
        line: lines.line(key),
        key: key.to_string(),
        message: message.to_string(),
    };
    if let Some(problem) = raw.name.as_deref().and_then(output_name_problem) {
        return Err(invalid("name", &problem));
    }
    let base = path.parent().unwrap_or(Path::new("."));
    check_named_files(&raw, base, &invalid)?;
    let mut raw = raw;
    let alloc_err = |e: crate::alloc::AllocError| ScenarioError::Allocation(e.to_string());
    let site_files = raw.scheduler.yarn_site.as_ref().map(|f| f.paths(base));
    let site = match &site_files {
        Some(files) => Some(crate::yarn_site::SiteProps::read(files).map_err(alloc_err)?),
        None => None,
    };
    // SLS's NodeManager size is the size of the nodes file's nodes that give none: read
    // before the nodes file is.
    let sls_nm = match &site {
        Some(props) => crate::yarn_site::knobs::node_manager_size(props, raw.scheduler.semantics)
            .map_err(alloc_err)?,
        None => (None, None),
    };
    let from_nodes_file = raw.cluster.has_nodes_file();
    let topology = raw
        .cluster
        .resolve(base, raw.scheduler.semantics, sls_nm, &invalid)?;
    let cluster = topology.cluster;
    let node_origins = topology.origins;
    scenario_checks::check_ranges(
        &scenario_checks::Numbers {
            end_ms: raw.end_ms,
            cluster: &cluster,
            scheduler: &raw.scheduler,
            sample_interval_ms: raw.outputs.sample_interval_ms,
            synthetic: raw.workload.synthetic.as_ref(),
        },
        &invalid,
    )?;
    let in_scenario = |key: &str| lines.has(key);
    // With yarn-site files the scenario's defaults may still change: the relation between the
    // minimum and the maximum is checked once the files are merged, below.
    if raw.scheduler.yarn_site.is_none() {
        check_allocation_settings(&raw.scheduler, &in_scenario, &invalid)?;
    }
    if let Some(users) = &raw.scheduler.users {
        raw.scheduler.groups = crate::groups::Groups::load(&base.join(users))?;
    }
    let alloc_path = match (&raw.allocation, &site, &site_files) {
        (Some(a), _, _) => base.join(&a.file),
        (None, Some(props), Some(files)) => {
            crate::yarn_site::allocation_path(props, files, raw.scheduler.semantics)
                .map_err(alloc_err)?
        }
        _ => {
            return Err(invalid(
                "allocation",
                "missing: give `[allocation] file`, or `scheduler.yarn_site` naming the file",
            ));
        }
    };
    // A capacity-scheduler.xml (root element `configuration`) selects the Capacity Scheduler.
    let loaded =
        crate::alloc::load_any_file(&alloc_path, raw.scheduler.semantics).map_err(alloc_err)?;
    let mut tree = loaded.tree;
    scenario_checks::check_scheduler_keys(tree.scheduler, &alloc_path, &in_scenario, &invalid)?;
    let mut warnings = loaded.warnings;
    warnings.extend(topology.warnings);
    let mut site_origin = BTreeMap::new();
    if let (Some(props), Some(files)) = (&site, &site_files) {
        crate::yarn_site::check_class(props, tree.scheduler, &alloc_path, raw.scheduler.semantics)
            .map_err(alloc_err)?;
        let mut settings = crate::yarn_site::knobs::settings(
            props,
            files,
            raw.scheduler.semantics,
            tree.scheduler,
        )
        .map_err(alloc_err)?;
        warnings.extend(props.warnings.iter().cloned());
        if !loaded.placement_given {
            tree.placement = crate::alloc::default_policy_with(
                settings.user_as_default_queue,
                settings.allow_undeclared_pools,
            );
        }
        let table: toml::Table = toml::from_str(text).unwrap_or_default();
        let section = |name: &str| {
            table
                .get(name)
                .and_then(|v| v.as_table())
                .cloned()
                .unwrap_or_default()
        };
        let mut merged = crate::yarn_site::merge::<SchedulerConf>(
            &mut settings,
            &section("scheduler"),
            &section("workload"),
            &|k| lines.line(k),
        )
        .map_err(|m| invalid("scheduler", &m))?;
        for r in &mut settings.report.readings {
            let crate::yarn_site::knobs::Target::NodeManager(k) = r.target else {
                continue;
            };
            use crate::yarn_site::knobs::Status;
            let key = format!("cluster.{k}");
            if r.status == Status::Applied {
                if !from_nodes_file {
                    r.status = Status::Unused(
                        "only the nodes of an SLS nodes file (`cluster.nodes_file`) take SLS's NodeManager size; `nodes = N` and [[cluster.nodes]] give their own",
                    );
                } else if lines.has(&key) {
                    r.status = Status::ByScenario(lines.line(&key));
                }
            }
        }
        merged.groups = std::mem::take(&mut raw.scheduler.groups);
        merged.site = Some(settings.report);
        raw.scheduler = merged;
        let w = &mut raw.workload;
        for (key, slot) in [
            ("sls_container_memory_mb", &mut w.sls_container_memory_mb),
            ("sls_container_vcores", &mut w.sls_container_vcores),
            ("sls_am_memory_mb", &mut w.sls_am_memory_mb),
            ("sls_am_vcores", &mut w.sls_am_vcores),
        ] {
            if let Some(v) = settings.workload.get(key) {
                *slot = Some(*v);
            }
        }
        site_origin = settings.origin;
    }
    // From here on a value the configuration files gave is blamed on its file and line.
    let invalid = |key: &str, message: &str| match site_origin.get(key) {
        Some(p) => ScenarioError::Invalid {
            path: p.file.clone(),
            line: p.line as usize,
            key: format!("{} ({key})", p.name),
            message: message.to_string(),
        },
        None => invalid(key, message),
    };
    if site.is_some() {
        scenario_checks::check_ranges(
            &scenario_checks::Numbers {
                end_ms: raw.end_ms,
                cluster: &cluster,
                scheduler: &raw.scheduler,
                sample_interval_ms: raw.outputs.sample_interval_ms,
                synthetic: raw.workload.synthetic.as_ref(),
            },
            &invalid,
        )?;
        let given = |key: &str| site_origin.contains_key(key) || in_scenario(key);
        check_allocation_settings(&raw.scheduler, &given, &invalid)?;
    }
    scenario_checks::check_nodes_register(
        &cluster,
        &node_origins,
        &raw.scheduler,
        tree.scheduler,
        &invalid,
    )?;
    scenario_checks::check_monitor_policies(&raw.scheduler, tree.scheduler, &invalid)?;
    let at = |key: &str| format!("{}:{}: {key}", path.display(), lines.line(key));
    apply_overrides(
        &mut tree,
        &raw.queues,
        raw.scheduler.semantics,
        &invalid,
        &at,
        &mut warnings,
    )?;
    let w = &raw.workload;
    let defaults = w.sls_defaults(&invalid)?;
    let mut trace = |t: TraceRead| {
        warnings.extend(t.warnings);
        Workload::Trace(t.apps)
    };
    let given = [
        w.csv.is_some(),
        w.sls.is_some(),
        w.rumen.is_some(),
        w.synth.is_some(),
        w.synthetic.is_some(),
    ];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(invalid(
            "workload",
            "give exactly one of `csv`, `sls`, `rumen`, `synth` or `synthetic`",
        ));
    }
    if w.start.is_some() && w.csv.is_none() {
        return Err(invalid(
            "workload.start",
            "a start state names the apps of a `csv` trace: give `csv` with it",
        ));
    }
    if w.recorded.is_some() && w.csv.is_none() {
        return Err(invalid(
            "workload.recorded",
            "recorded times are those of a `csv` trace's apps: give `csv` with it",
        ));
    }
    let recorded = w.recorded.as_ref().map(|p| base.join(p));
    let start = match &w.start {
        Some(p) => Some(crate::start_state::read_start_state(&base.join(p))?),
        None => None,
    };
    let workload = match (&w.csv, &w.sls, &w.rumen, &w.synthetic) {
        _ if w.synth.is_some() => {
            let p = base.join(w.synth.as_ref().expect("checked above"));
            let spec = crate::workload::synth::read_synth(&p, defaults, w.synth_task_time_unit)?;
            warnings.extend(spec.warnings.iter().cloned());
            Workload::Synth(spec)
        }
        (Some(p), None, None, None) => trace(read_csv_trace(&base.join(p))?),
        (None, Some(p), None, None) => {
            // One budget over every file: together they are one run's apps.
            let mut budget = crate::workload::budget::Budget::default();
            trace(read_traces(&p.paths(base), |p| {
                crate::workload::sls::read_sls_trace_within(p, defaults, &mut budget)
            })?)
        }
        (None, None, Some(p), None) => {
            let opts = crate::workload::rumen::RumenOptions {
                defaults,
                semantics: raw.scheduler.semantics,
            };
            trace(crate::workload::rumen::read_rumen_traces(
                &p.paths(base),
                opts,
            )?)
        }
        (None, None, None, Some(s)) => {
            s.validate()
                .map_err(|m| invalid("workload.synthetic", &m))?;
            Workload::Synthetic(s.clone())
        }
        _ => unreachable!("exactly one workload kind was checked above"),
    };
    if let Workload::Trace(apps) = &workload {
        warnings.extend(crate::topology::hints::unknown_hints_warning(
            &cluster.node_specs(),
            apps,
        ));
    }
    let n_apps = match &workload {
        Workload::Trace(apps) => apps.len() as u64,
        Workload::Synthetic(s) => s.queues.iter().map(|q| u64::from(q.apps)).sum(),
        Workload::Synth(s) => s.jobs(),
    };
    if n_apps == 0 {
        // Valid (a sweep may start from an idle cluster), but an empty trace is more often
        // the wrong file: say so rather than run silently.
        warnings.push(format!(
            "{}:{}: workload: holds no application; the run simulates an idle cluster",
            path.display(),
            lines.line("workload")
        ));
    }
    let apps_bytes = match &workload {
        Workload::Trace(apps) => apps.iter().fold(0u64, |acc, a| {
            acc.saturating_add(
                crate::workload::budget::AppCost::of(a.stages.iter().flatten()).bytes,
            )
        }),
        Workload::Synthetic(_) => n_apps.saturating_mul(scenario_checks::BYTES_PER_APP),
        Workload::Synth(s) => s.expected_bytes(),
    };
    // Without end_ms a run samples at least until a trace's last arrival: its rows are
    // counted from there (the run checks the rest as it goes).
    let sampled_until = raw.end_ms.or(match &workload {
        Workload::Trace(apps) => apps.iter().map(|a| a.arrival.0).max(),
        _ => None,
    });
    scenario_checks::MemoryEstimate::new(
        n_apps,
        cluster.nodes.into(),
        tree.len() as u64,
        sampled_until,
        raw.outputs.sample_interval_ms,
    )
    .with_apps_bytes(apps_bytes)
    .check(&invalid)?;
    let name = raw.name.unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "scenario".into())
    });
    Ok(Scenario {
        name,
        path: Some(path.to_path_buf()),
        cluster,
        scheduler: raw.scheduler,
        tree,
        warnings,
        workload,
        end_ms: raw.end_ms,
        sample_interval_ms: raw.outputs.sample_interval_ms,
        check_invariants: false,
        explain: raw.outputs.explain,
        start,
        recorded,
    })
}

/// Reads and validates the scenario file at `path`.
pub fn load_scenario(path: impl AsRef<Path>) -> Result<Scenario, ScenarioError> {
    let path = path.as_ref();
    let text = crate::limits::read_text_file(path).map_err(|source| ScenarioError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_scenario(&text, path)
}
