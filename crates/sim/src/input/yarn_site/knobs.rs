//! Which yarn-site.xml and sls-runner.xml properties fairsim reads, per era and scheduler,
//! onto which scenario key; which ones it knows YARN has but does not model, and why.
//! Values are read with Hadoop's getters ([`super::values`]) and checked against the
//! scenario key's row of [`crate::limits::LIMITS`].

use super::{Property, SiteProps};
use crate::alloc::AllocError;
use crate::hadoop_conf::values;
use crate::limits::LIMITS;
use crate::tree::SchedulerKind;
use fairsim_core::Semantics;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What a property sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A `[scheduler]` key of the scenario.
    Scheduler(&'static str),
    /// A `[workload]` key of the scenario (SLS's container sizes).
    Workload(&'static str),
    /// SLS's NodeManager size (`cluster.node_memory_mb` / `cluster.node_vcores`): the size of
    /// the nodes of an SLS nodes file that give none, as SLS's `parseNodesFromNodeFile`
    /// starts every node from it.
    NodeManager(&'static str),
    /// `yarn.scheduler.fair.allocation.file`.
    AllocationFile,
    /// `yarn.resourcemanager.scheduler.class`.
    SchedulerClass,
    /// `yarn.scheduler.fair.user-as-default-queue`.
    UserAsDefaultQueue,
    /// `yarn.scheduler.fair.allow-undeclared-pools`.
    AllowUndeclaredPools,
}

impl Target {
    /// The scenario key (or setting) as messages print it.
    pub fn describe(&self) -> String {
        match self {
            Target::Scheduler(k) => format!("scheduler.{k}"),
            Target::Workload(k) => format!("workload.{k}"),
            Target::NodeManager(k) => format!("cluster.{k} of nodes-file nodes without one"),
            Target::AllocationFile => "allocation.file".into(),
            Target::SchedulerClass => "the scheduler (Fair or Capacity)".into(),
            Target::UserAsDefaultQueue | Target::AllowUndeclaredPools => {
                "the default queuePlacementPolicy".into()
            }
        }
    }
}

/// How Hadoop reads the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `getBoolean`.
    Bool,
    /// `getInt`.
    Int,
    /// `getLong`.
    Long,
    /// `getFloat`.
    Float,
    /// 3.x resource-types `value [unit]`; memory when true.
    Resource(bool),
    /// A string (file name, class name).
    Text,
}

/// Which scheduler reads a property.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// The Fair Scheduler only.
    Fair,
    /// The Capacity Scheduler only.
    Capacity,
    /// Both (the ResourceManager, or SLS).
    Both,
}

/// One property fairsim reads.
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// Hadoop's name.
    pub property: &'static str,
    /// What it sets.
    pub target: Target,
    /// How its value is read.
    pub kind: Kind,
    /// Which scheduler reads it.
    pub reader: Reader,
    /// The only era that reads it, if one.
    pub era: Option<Semantics>,
}

const fn knob(property: &'static str, target: Target, kind: Kind, reader: Reader) -> Knob {
    Knob {
        property,
        target,
        kind,
        reader,
        era: None,
    }
}

const fn only(era: Semantics, k: Knob) -> Knob {
    Knob {
        era: Some(era),
        ..k
    }
}

use Kind::{Bool, Float, Int, Long, Resource, Text};
use Reader::{Both, Capacity, Fair};
use Semantics::{Hadoop27, Hadoop33};
use Target::Scheduler as S;

/// Every property read. Where two spellings set one key, the later row wins when both are
/// present (3.x's resource-types keys over the legacy ones, as `ResourceUtils` and
/// `FairSchedulerConfiguration.getIncrementAllocation` prefer them; SLS's simulated
/// NodeManagers beat at `yarn.sls.nm.heartbeat.interval.ms` whatever the ResourceManager
/// asks).
pub const KNOBS: &[Knob] = &[
    knob(
        "yarn.resourcemanager.scheduler.class",
        Target::SchedulerClass,
        Text,
        Both,
    ),
    knob(
        "yarn.scheduler.fair.allocation.file",
        Target::AllocationFile,
        Text,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.user-as-default-queue",
        Target::UserAsDefaultQueue,
        Bool,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.allow-undeclared-pools",
        Target::AllowUndeclaredPools,
        Bool,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.assignmultiple",
        S("assignmultiple"),
        Bool,
        Fair,
    ),
    knob("yarn.scheduler.fair.max.assign", S("max_assign"), Int, Fair),
    only(
        Hadoop33,
        knob(
            "yarn.scheduler.fair.dynamic.max.assign",
            S("dynamic_max_assign"),
            Bool,
            Fair,
        ),
    ),
    knob(
        "yarn.scheduler.fair.sizebasedweight",
        S("sizebasedweight"),
        Bool,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.update-interval-ms",
        S("update_interval_ms"),
        Long,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.locality.threshold.node",
        S("locality_threshold_node"),
        Float,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.locality.threshold.rack",
        S("locality_threshold_rack"),
        Float,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.continuous-scheduling-enabled",
        S("continuous_scheduling"),
        Bool,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.continuous-scheduling-sleep-ms",
        S("continuous_scheduling_sleep_ms"),
        Int,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.locality-delay-node-ms",
        S("locality_delay_node_ms"),
        Long,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.locality-delay-rack-ms",
        S("locality_delay_rack_ms"),
        Long,
        Fair,
    ),
    knob(
        "yarn.sls.am.heartbeat.interval.ms",
        S("am_heartbeat_ms"),
        Int,
        Both,
    ),
    knob(
        "yarn.scheduler.fair.preemption",
        S("preemption"),
        Bool,
        Fair,
    ),
    knob(
        "yarn.scheduler.fair.preemption.cluster-utilization-threshold",
        S("preemption_utilization_threshold"),
        Float,
        Fair,
    ),
    only(
        Hadoop27,
        knob(
            "yarn.scheduler.fair.preemptionInterval",
            S("preemption_interval_ms"),
            Int,
            Fair,
        ),
    ),
    knob(
        "yarn.scheduler.fair.waitTimeBeforeKill",
        S("wait_before_kill_ms"),
        Int,
        Fair,
    ),
    only(
        Hadoop33,
        knob(
            "yarn.scheduler.fair.waitTimeBeforeNextStarvationCheck",
            S("wait_before_next_starvation_check_ms"),
            Long,
            Fair,
        ),
    ),
    only(
        Hadoop33,
        knob(
            "yarn.scheduler.reservation-threshold.increment-multiple",
            S("reservation_threshold_increment_multiple"),
            Float,
            Fair,
        ),
    ),
    only(
        Hadoop33,
        knob(
            "yarn.scheduler.fair.reservable-nodes",
            S("reservable_nodes"),
            Float,
            Fair,
        ),
    ),
    knob(
        "yarn.resourcemanager.scheduler.monitor.enable",
        S("preemption"),
        Bool,
        Capacity,
    ),
    knob(
        "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval",
        S("monitoring_interval_ms"),
        Long,
        Capacity,
    ),
    knob(
        "yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill",
        S("max_wait_before_kill_ms"),
        Long,
        Capacity,
    ),
    knob(
        "yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round",
        S("total_preemption_per_round"),
        Float,
        Capacity,
    ),
    knob(
        "yarn.resourcemanager.monitor.capacity.preemption.max_ignored_over_capacity",
        S("max_ignored_over_capacity"),
        Float,
        Capacity,
    ),
    knob(
        "yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor",
        S("natural_termination_factor"),
        Float,
        Capacity,
    ),
    knob(
        "yarn.resourcemanager.scheduler.monitor.policies",
        S("monitor_policies"),
        Text,
        Capacity,
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval",
            S("queue_management_interval_ms"),
            Long,
            Capacity,
        ),
    ),
    knob(
        "yarn.scheduler.capacity.node-locality-delay",
        S("node_locality_delay"),
        Int,
        Capacity,
    ),
    knob(
        "yarn.scheduler.minimum-allocation-mb",
        S("minimum_allocation_mb"),
        Int,
        Both,
    ),
    knob(
        "yarn.scheduler.minimum-allocation-vcores",
        S("minimum_allocation_vcores"),
        Int,
        Both,
    ),
    knob(
        "yarn.scheduler.maximum-allocation-mb",
        S("maximum_allocation_mb"),
        Int,
        Both,
    ),
    knob(
        "yarn.scheduler.maximum-allocation-vcores",
        S("maximum_allocation_vcores"),
        Int,
        Both,
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resource-types.memory-mb.minimum-allocation",
            S("minimum_allocation_mb"),
            Long,
            Both,
        ),
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resource-types.vcores.minimum-allocation",
            S("minimum_allocation_vcores"),
            Long,
            Both,
        ),
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resource-types.memory-mb.maximum-allocation",
            S("maximum_allocation_mb"),
            Long,
            Both,
        ),
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resource-types.vcores.maximum-allocation",
            S("maximum_allocation_vcores"),
            Long,
            Both,
        ),
    ),
    knob(
        "yarn.scheduler.increment-allocation-mb",
        S("increment_allocation_mb"),
        Int,
        Fair,
    ),
    knob(
        "yarn.scheduler.increment-allocation-vcores",
        S("increment_allocation_vcores"),
        Int,
        Fair,
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resource-types.memory-mb.increment-allocation",
            S("increment_allocation_mb"),
            Resource(true),
            Fair,
        ),
    ),
    only(
        Hadoop33,
        knob(
            "yarn.resource-types.vcores.increment-allocation",
            S("increment_allocation_vcores"),
            Resource(false),
            Fair,
        ),
    ),
    knob(
        "yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms",
        S("max_allocation_wait_ms"),
        Long,
        Both,
    ),
    knob(
        "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
        S("heartbeat_ms"),
        Long,
        Both,
    ),
    knob(
        "yarn.sls.nm.heartbeat.interval.ms",
        S("heartbeat_ms"),
        Int,
        Both,
    ),
    knob(
        "yarn.sls.nm.memory.mb",
        Target::NodeManager("node_memory_mb"),
        Int,
        Both,
    ),
    knob(
        "yarn.sls.nm.vcores",
        Target::NodeManager("node_vcores"),
        Int,
        Both,
    ),
    knob(
        "yarn.sls.container.memory.mb",
        Target::Workload("sls_container_memory_mb"),
        Int,
        Both,
    ),
    knob(
        "yarn.sls.container.vcores",
        Target::Workload("sls_container_vcores"),
        Int,
        Both,
    ),
    knob(
        "yarn.sls.am.container.memory",
        Target::Workload("sls_am_memory_mb"),
        Long,
        Both,
    ),
    knob(
        "yarn.sls.am.container.vcores",
        Target::Workload("sls_am_vcores"),
        Int,
        Both,
    ),
];

/// Properties YARN or SLS reads that fairsim knows and does not model, with the reason.
/// A name ending in `.` stands for every property under that prefix.
pub const NOT_MODELLED: &[(&str, &str)] = &[
    (
        "yarn.scheduler.fair.event-log-enabled",
        "an event log for people: no effect on decisions",
    ),
    (
        "yarn.scheduler.fair.eventlog.dir",
        "an event log for people: no effect on decisions",
    ),
    (
        "yarn.scheduler.fair.am.preemption",
        "AM containers are always preempted last, never exempted",
    ),
    (
        "yarn.scheduler.include-port-in-node-name",
        "node names: no effect on decisions",
    ),
    (
        "yarn.resourcemanager.monitor.capacity.preemption.observe_only",
        "the preemption monitor always kills",
    ),
    (
        "yarn.scheduler.capacity.rack-locality-additional-delay",
        "rack-local assignment waits node-locality-delay only",
    ),
    (
        "yarn.scheduler.capacity.per-node-heartbeat.",
        "3.x's per-heartbeat assignment caps are not modelled",
    ),
    (
        "yarn.scheduler.capacity.",
        "capacity-scheduler.xml properties are read from the allocation file",
    ),
    (
        "yarn.nodemanager.resource.",
        "node sizes come from the scenario's [cluster]",
    ),
    (
        "yarn.sls.nm.resource.utilization.ratio",
        "node utilisation reports are not modelled",
    ),
    (
        "yarn.sls.am.type.",
        "every app is a MapReduce-like app of task groups",
    ),
    (
        "yarn.sls.runner.pool.size",
        "SLS's threads: fairsim is deterministic and single-threaded per run",
    ),
    (
        "yarn.sls.metrics.",
        "SLS's metrics output: fairsim writes its own (docs/outputs.md)",
    ),
    ("yarn.node-labels.", "node labels are not modelled"),
    (
        "yarn.resourcemanager.reservation-system.",
        "the reservation system is not modelled",
    ),
    (
        "yarn.resourcemanager.am.max-attempts",
        "AM failures are not modelled",
    ),
    (
        "hadoop.security.group.mapping",
        "users' groups come from `scheduler.users` (a groups.csv)",
    ),
];

/// Why a property is known but not modelled, if it is.
pub fn not_modelled(name: &str) -> Option<&'static str> {
    NOT_MODELLED
        .iter()
        .find(|(p, _)| {
            if p.ends_with('.') {
                name.starts_with(p)
            } else {
                name == *p
            }
        })
        .map(|(_, why)| *why)
}

/// What became of one property fairsim reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Its value is in force.
    Applied,
    /// The scenario sets the same key (at that line).
    ByScenario(usize),
    /// Another spelling of the same setting wins.
    Superseded(&'static str),
    /// The era of the scenario does not read it.
    OtherEra(Semantics),
    /// The scenario's scheduler does not read it.
    OtherScheduler(SchedulerKind),
    /// Hadoop falls back to the default (the reason).
    DefaultKept(&'static str),
    /// Read, but nothing in the scenario takes it (the reason).
    Unused(&'static str),
}

/// One property read, with what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The property.
    pub property: Property,
    /// What it sets.
    pub target: Target,
    /// The value read, as fairsim uses it.
    pub value: String,
    /// What became of it.
    pub status: Status,
}

/// What `fairsim validate` prints of the configuration files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteReport {
    /// The files, in the order read.
    pub files: Vec<PathBuf>,
    /// Every property fairsim reads, in file order.
    pub readings: Vec<Reading>,
    /// Properties known and not modelled, with the reason.
    pub not_modelled: Vec<(Property, &'static str)>,
    /// How many other properties were ignored (as YARN ignores what it does not read).
    pub ignored: usize,
}

impl SiteReport {
    /// The report as lines for people.
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        let files: Vec<String> = self.files.iter().map(|f| f.display().to_string()).collect();
        out.push(format!("configuration files: {}", files.join(", ")));
        for r in &self.readings {
            let p = &r.property;
            let head = format!("{}: {} = {}", p.at(), p.name, r.value);
            let what = r.target.describe();
            out.push(match &r.status {
                Status::Applied => format!("{head} -> {what}"),
                Status::ByScenario(line) => {
                    format!("{head} -> {what}, overridden by the scenario (line {line})")
                }
                Status::Superseded(by) => format!("{head}: not used, {by} is set"),
                Status::OtherEra(s) => format!("{head}: not read by {s}"),
                Status::OtherScheduler(k) => format!("{head}: not read by the {k:?} Scheduler"),
                Status::DefaultKept(why) => format!("{head}: {why}"),
                Status::Unused(why) => format!("{head}: not used: {why}"),
            });
        }
        for (p, why) in &self.not_modelled {
            out.push(format!(
                "{}: {} = {}: not modelled: {why}",
                p.at(),
                p.name,
                p.value.trim()
            ));
        }
        if self.ignored > 0 {
            let noun = if self.ignored == 1 {
                "property"
            } else {
                "properties"
            };
            out.push(format!(
                "{} other {noun} ignored (not read by YARN's schedulers)",
                self.ignored
            ));
        }
        out
    }
}

/// The scheduler a `yarn.resourcemanager.scheduler.class` names.
pub fn scheduler_class(p: &Property) -> Result<SchedulerKind, AllocError> {
    let class = p.value.trim();
    match class.rsplit('.').next().unwrap_or(class) {
        "FairScheduler" | "SLSFairScheduler" => Ok(SchedulerKind::Fair),
        "CapacityScheduler" | "SLSCapacityScheduler" => Ok(SchedulerKind::Capacity),
        _ => Err(invalid(
            p,
            format!(
                "\"{class}\": fairsim models the FairScheduler and the CapacityScheduler \
                 (org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler, \
                 ...capacity.CapacityScheduler)"
            ),
        )),
    }
}

fn invalid(p: &Property, message: String) -> AllocError {
    AllocError::Invalid {
        file: p.file.display().to_string(),
        line: p.line,
        element: p.name.clone(),
        message,
    }
}

/// The values the files give, ready to merge under the scenario's own keys.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `[scheduler]` keys and their values.
    pub scheduler: toml::Table,
    /// `[workload]` keys (SLS's container sizes).
    pub workload: BTreeMap<&'static str, i64>,
    /// SLS's NodeManager size, by `[cluster]` key (`node_memory_mb`, `node_vcores`).
    pub node_manager: BTreeMap<&'static str, i64>,
    /// Where each applied `[scheduler]` or `[workload]` key came from.
    pub origin: BTreeMap<String, Property>,
    /// `yarn.scheduler.fair.allocation.file`.
    pub allocation_file: Option<Property>,
    /// `yarn.resourcemanager.scheduler.class` and the scheduler it names.
    pub class: Option<(SchedulerKind, Property)>,
    /// `user-as-default-queue` (default true).
    pub user_as_default_queue: bool,
    /// `allow-undeclared-pools` (default true).
    pub allow_undeclared_pools: bool,
    /// What was read.
    pub report: SiteReport,
}

/// Reads every property of `props` that `semantics` and the scheduler `kind` read.
pub fn settings(
    props: &SiteProps,
    files: &[PathBuf],
    semantics: Semantics,
    kind: SchedulerKind,
) -> Result<Settings, AllocError> {
    let mut s = Settings {
        user_as_default_queue: true,
        allow_undeclared_pools: true,
        ..Settings::default()
    };
    s.report.files = files.to_vec();
    // Index into `report.readings` of the applied reading of each key, for superseding.
    let mut applied: BTreeMap<String, usize> = BTreeMap::new();
    for k in KNOBS {
        let Some(raw) = props.raw(k.property) else {
            continue;
        };
        let mut reading = Reading {
            property: raw.clone(),
            target: k.target,
            value: raw.value.trim().to_string(),
            status: Status::Applied,
        };
        let reader_kind = match k.reader {
            Fair => Some(SchedulerKind::Fair),
            Capacity => Some(SchedulerKind::Capacity),
            Both => None,
        };
        if k.era.is_some_and(|e| e != semantics) {
            reading.status = Status::OtherEra(semantics);
        } else if reader_kind.is_some_and(|r| r != kind) {
            reading.status = Status::OtherScheduler(kind);
        } else {
            // Only a property the scheduler reads is substituted, as Hadoop's getters do.
            let p = &props
                .get(k.property, semantics)?
                .expect("the property is set");
            reading.property = p.clone();
            reading.value = p.value.trim().to_string();
            match read_value(k, p)? {
                None => {
                    reading.status = Status::DefaultKept(
                        "neither true nor false: Hadoop's getBoolean keeps the default",
                    )
                }
                Some(Value::Negative) => {
                    reading.status =
                        Status::DefaultKept("negative: YARN uses the default of 500 ms")
                }
                Some(Value::Toml(v)) => {
                    reading.value = v.to_string().trim_matches('"').to_string();
                    let key = k.target.describe();
                    if let Some(prev) = applied.insert(key.clone(), s.report.readings.len()) {
                        s.report.readings[prev].status = Status::Superseded(k.property);
                    }
                    match k.target {
                        Target::Scheduler(name) => {
                            s.scheduler.insert(name.to_string(), v);
                            s.origin.insert(key, p.clone());
                        }
                        Target::Workload(name) => {
                            s.workload.insert(name, v.as_integer().unwrap_or_default());
                            s.origin.insert(key, p.clone());
                        }
                        Target::NodeManager(name) => {
                            s.node_manager
                                .insert(name, v.as_integer().unwrap_or_default());
                        }
                        Target::AllocationFile => s.allocation_file = Some(p.clone()),
                        Target::SchedulerClass => s.class = Some((scheduler_class(p)?, p.clone())),
                        Target::UserAsDefaultQueue => {
                            s.user_as_default_queue = v.as_bool().unwrap_or(true)
                        }
                        Target::AllowUndeclaredPools => {
                            s.allow_undeclared_pools = v.as_bool().unwrap_or(true)
                        }
                    }
                }
            }
        }
        s.report.readings.push(reading);
    }
    s.report.readings.sort_by(|a, b| {
        (&a.property.file, a.property.line).cmp(&(&b.property.file, b.property.line))
    });
    for (name, p) in &props.props {
        if KNOBS.iter().any(|k| k.property == name) {
            continue;
        }
        match not_modelled(name) {
            Some(why) => s.report.not_modelled.push((p.clone(), why)),
            None => s.report.ignored += 1,
        }
    }
    Ok(s)
}

/// SLS's NodeManager size as the files give it (`yarn.sls.nm.memory.mb`,
/// `yarn.sls.nm.vcores`; `None` where a file gives none), read before the cluster is: the
/// nodes of an SLS nodes file start from it. Both eras and both schedulers read it.
pub fn node_manager_size(
    props: &SiteProps,
    semantics: Semantics,
) -> Result<(Option<i64>, Option<i64>), AllocError> {
    let mut size = (None, None);
    for k in KNOBS {
        let Target::NodeManager(name) = k.target else {
            continue;
        };
        let Some(p) = props.get(k.property, semantics)? else {
            continue;
        };
        if let Some(Value::Toml(v)) = read_value(k, &p)? {
            let slot = if name == "node_memory_mb" {
                &mut size.0
            } else {
                &mut size.1
            };
            *slot = v.as_integer();
        }
    }
    Ok(size)
}

enum Value {
    Toml(toml::Value),
    /// A negative update interval (YARN warns and uses its default).
    Negative,
}

/// The value of `p` as `k` reads it, checked against the limit of its scenario key; `None`
/// for a boolean Hadoop would not recognise.
fn read_value(k: &Knob, p: &Property) -> Result<Option<Value>, AllocError> {
    let fail = |m: String| invalid(p, m);
    let limit_key = match k.target {
        Target::Scheduler(name) => Some(format!("scheduler.{name}")),
        Target::Workload(name) => Some(format!("workload.{name}")),
        Target::NodeManager(name) => Some(format!("cluster.{name}")),
        _ => None,
    };
    let row = limit_key.as_deref().and_then(|key| {
        LIMITS
            .iter()
            .find(|l| l.format == "scenario" && l.key == key)
    });
    let int = |v: i64| -> Result<Option<Value>, AllocError> {
        if k.target == S("update_interval_ms") && v < 0 {
            return Ok(Some(Value::Negative));
        }
        if let Some(l) = row {
            l.check_int(v.into()).map_err(fail)?;
        }
        Ok(Some(Value::Toml(toml::Value::Integer(v))))
    };
    match k.kind {
        Bool => Ok(values::boolean(&p.value).map(|b| Value::Toml(toml::Value::Boolean(b)))),
        Int => int(values::int(&p.value).map_err(fail)?),
        Long => int(values::long(&p.value).map_err(fail)?),
        Resource(memory) => int(values::resource_value(&p.value, memory).map_err(fail)?),
        Float => {
            let v = values::float(&p.value).map_err(fail)?;
            // Hadoop's getFloat: a Java float, whatever the key's type in fairsim.
            if !(v as f32).is_finite() {
                return Err(fail(format!(
                    "{} is not a finite 32-bit float (Hadoop reads it with getFloat)",
                    p.value.trim()
                )));
            }
            if let Some(l) = row {
                l.check_float(v).map_err(fail)?;
            }
            // The value as written, like the same number in the scenario file.
            Ok(Some(Value::Toml(toml::Value::Float(v))))
        }
        Text => {
            let t = p.value.trim();
            if t.is_empty() {
                return Err(fail("empty value".into()));
            }
            Ok(Some(Value::Toml(toml::Value::String(t.to_string()))))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn props(body: &str) -> SiteProps {
        let mut p = SiteProps::default();
        let text = format!("<configuration>\n{body}</configuration>\n");
        p.add(&text, Path::new("yarn-site.xml")).unwrap();
        p
    }

    fn prop(name: &str, value: &str) -> String {
        format!("<property><name>{name}</name><value>{value}</value></property>\n")
    }

    fn read(body: &str, s: Semantics, k: SchedulerKind) -> Result<Settings, String> {
        settings(&props(body), &[], s, k).map_err(|e| e.to_string())
    }

    #[test]
    fn values_are_read_as_hadoop_reads_them() {
        let body = [
            prop("yarn.scheduler.fair.assignmultiple", " TRUE "),
            prop("yarn.scheduler.fair.max.assign", "0x10"),
            prop("yarn.scheduler.fair.locality.threshold.node", "0.5f"),
            prop("yarn.scheduler.fair.sizebasedweight", "yes"),
        ]
        .concat();
        let s = read(&body, Hadoop27, SchedulerKind::Fair).unwrap();
        assert_eq!(s.scheduler["assignmultiple"], toml::Value::Boolean(true));
        assert_eq!(s.scheduler["max_assign"], toml::Value::Integer(16));
        assert_eq!(
            s.scheduler["locality_threshold_node"],
            toml::Value::Float(0.5)
        );
        assert!(!s.scheduler.contains_key("sizebasedweight"));
        let kept = &s.report.readings[3];
        assert!(matches!(kept.status, Status::DefaultKept(_)), "{kept:?}");
    }

    #[test]
    fn era_and_scheduler_decide_what_is_read() {
        let body = [
            prop("yarn.scheduler.fair.dynamic.max.assign", "false"),
            prop("yarn.scheduler.fair.preemptionInterval", "7000"),
            prop("yarn.resourcemanager.scheduler.monitor.enable", "true"),
        ]
        .concat();
        let s = read(&body, Hadoop27, SchedulerKind::Fair).unwrap();
        assert_eq!(
            s.scheduler.keys().collect::<Vec<_>>(),
            vec!["preemption_interval_ms"]
        );
        let s = read(&body, Hadoop33, SchedulerKind::Capacity).unwrap();
        assert_eq!(s.scheduler.keys().collect::<Vec<_>>(), vec!["preemption"]);
    }

    #[test]
    fn the_resource_types_spelling_wins_in_3x() {
        let body = [
            prop("yarn.scheduler.increment-allocation-mb", "512"),
            prop("yarn.resource-types.memory-mb.increment-allocation", "1 Gi"),
        ]
        .concat();
        let s = read(&body, Hadoop33, SchedulerKind::Fair).unwrap();
        assert_eq!(
            s.scheduler["increment_allocation_mb"],
            toml::Value::Integer(1024)
        );
        assert_eq!(
            s.report.readings[0].status,
            Status::Superseded("yarn.resource-types.memory-mb.increment-allocation")
        );
        let s = read(&body, Hadoop27, SchedulerKind::Fair).unwrap();
        assert_eq!(
            s.scheduler["increment_allocation_mb"],
            toml::Value::Integer(512)
        );
    }

    #[test]
    fn values_out_of_range_name_file_line_property_and_limit() {
        let body = format!(
            "\n{}",
            prop("yarn.scheduler.fair.update-interval-ms", "30s")
        );
        assert_eq!(
            read(&body, Hadoop27, SchedulerKind::Fair).unwrap_err(),
            "yarn-site.xml:3: yarn.scheduler.fair.update-interval-ms: \"30s\" is not an integer"
        );
        let body = prop("yarn.scheduler.fair.waitTimeBeforeKill", "-5");
        assert_eq!(
            read(&body, Hadoop27, SchedulerKind::Fair).unwrap_err(),
            "yarn-site.xml:2: yarn.scheduler.fair.waitTimeBeforeKill: -5 is out of range: \
             the limit is 0 to 315576000000"
        );
        let body = prop(
            "yarn.scheduler.fair.preemption.cluster-utilization-threshold",
            "1e39",
        );
        assert!(
            read(&body, Hadoop27, SchedulerKind::Fair)
                .unwrap_err()
                .contains("1e39 is not a finite 32-bit float")
        );
        let body = prop("yarn.scheduler.fair.update-interval-ms", "-1");
        let s = read(&body, Hadoop27, SchedulerKind::Fair).unwrap();
        assert!(!s.scheduler.contains_key("update_interval_ms"));
    }

    #[test]
    fn unmodelled_and_unknown_properties_are_counted() {
        let body = [
            prop("yarn.scheduler.fair.event-log-enabled", "true"),
            prop("yarn.nodemanager.resource.memory-mb", "8192"),
            prop("dfs.replication", "3"),
        ]
        .concat();
        let s = read(&body, Hadoop27, SchedulerKind::Fair).unwrap();
        assert_eq!(s.report.not_modelled.len(), 2);
        assert_eq!(s.report.ignored, 1);
    }

    #[test]
    fn scheduler_classes() {
        let p = |v: &str| Property {
            name: "yarn.resourcemanager.scheduler.class".into(),
            value: v.into(),
            file: "y.xml".into(),
            line: 4,
            is_final: false,
        };
        assert_eq!(
            scheduler_class(&p(
                "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler"
            ))
            .unwrap(),
            SchedulerKind::Fair
        );
        assert_eq!(
            scheduler_class(&p(
                "org.apache.hadoop.yarn.sls.scheduler.SLSCapacityScheduler"
            ))
            .unwrap(),
            SchedulerKind::Capacity
        );
        let e = scheduler_class(&p(
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fifo.FifoScheduler",
        ))
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("y.xml:4: yarn.resourcemanager.scheduler.class: "),
            "{e}"
        );
    }
}
