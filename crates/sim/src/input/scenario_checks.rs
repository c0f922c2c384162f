//! Range checks of a scenario's numbers against [`crate::limits::LIMITS`], made right after
//! the TOML is read and before anything is loaded or allocated.

use crate::limits::{MAX_APPS, MAX_TIME_MS, limit};
use crate::scenario_error::ScenarioError;
use crate::settings::SchedulerConf;
use crate::topology::ClusterSpec;
use crate::topology::{NodeOrigins, SizePlace};
use crate::tree::SchedulerKind;
use crate::workload::synthetic::{Dist, QueueStream, SyntheticSpec};

/// The numbers of a scenario file that have a limit.
pub struct Numbers<'a> {
    /// `end_ms`.
    pub end_ms: Option<u64>,
    /// `[cluster]`.
    pub cluster: &'a ClusterSpec,
    /// `[scheduler]`.
    pub scheduler: &'a SchedulerConf,
    /// `outputs.sample_interval_ms`.
    pub sample_interval_ms: u64,
    /// `[workload.synthetic]`, if any.
    pub synthetic: Option<&'a SyntheticSpec>,
}

type Invalid<'f> = &'f dyn Fn(&str, &str) -> ScenarioError;

fn check_int(invalid: Invalid<'_>, key: &str, v: i128) -> Result<(), ScenarioError> {
    limit("scenario", key)
        .check_int(v)
        .map(|_| ())
        .map_err(|m| invalid(key, &m))
}

fn check_float(invalid: Invalid<'_>, key: &str, v: f64) -> Result<(), ScenarioError> {
    limit("scenario", key)
        .check_float(v)
        .map(|_| ())
        .map_err(|m| invalid(key, &m))
}

/// Refuses what YARN refuses about the minimum allocation at start-up, once the scheduler is
/// known: the Capacity Scheduler's `validateConf` requires a minimum of at least 1 MB and
/// 1 vcore (the Fair Scheduler's accepts 0 of either), and
/// the ResourceManager's `ResourceTrackerService.registerNodeManager` sends a NodeManager
/// whose memory or vcores are below the minimum allocation a SHUTDOWN instead of
/// registering it (so a 0-vcore node needs the Fair Scheduler with
/// `minimum_allocation_vcores = 0`). SLS registers its simulated NodeManagers through the
/// same service (`NMSimulator.init`), so nodes files are refused alike. Every node is
/// checked, those that join during the run too, and the error names where the node at
/// fault is described (`origins`): its `[[cluster.nodes]]` or `[[cluster.events]]` entry,
/// its line of the nodes file, or the cluster's node size.
pub(crate) fn check_nodes_register(
    cluster: &ClusterSpec,
    origins: &NodeOrigins,
    scheduler: &SchedulerConf,
    kind: SchedulerKind,
    invalid: Invalid<'_>,
) -> Result<(), ScenarioError> {
    if kind == SchedulerKind::Capacity && scheduler.minimum_allocation_mb < 1 {
        return Err(invalid(
            "scheduler.minimum_allocation_mb",
            &format!(
                "{} is refused by the Capacity Scheduler (its validateConf needs at least 1 MB; the Fair Scheduler accepts 0)",
                scheduler.minimum_allocation_mb
            ),
        ));
    }
    let min = scheduler.minimum_allocation_vcores;
    if kind == SchedulerKind::Capacity && min < 1 {
        return Err(invalid(
            "scheduler.minimum_allocation_vcores",
            &format!(
                "{min} is refused by the Capacity Scheduler (its validateConf needs at least 1 vcore; the Fair Scheduler accepts 0)"
            ),
        ));
    }
    let min_mb = scheduler.minimum_allocation_mb;
    let initial = cluster.node_specs();
    let n_initial = initial.len();
    let at = |node: usize, memory: bool, message: String| match origins
        .size_place(node, n_initial, memory)
    {
        SizePlace::Key(key) => invalid(&key, &message),
        SizePlace::File(path, line, field) => ScenarioError::Invalid {
            path,
            line: line as usize,
            key: field,
            message,
        },
    };
    let nodes = initial.iter().chain(cluster.events.added.iter());
    for (index, node) in nodes.enumerate() {
        // ResourceTrackerService tests memory first, then vcores, in one condition: a node
        // short of both is named by its memory.
        if node.capacity.memory_mb < min_mb {
            return Err(at(
                index,
                true,
                format!(
                    "node {} has {} MB, below scheduler.minimum_allocation_mb = {min_mb}: YARN sends a NodeManager below the minimum allocation a SHUTDOWN at registration (ResourceTrackerService); give it memory, or lower the minimum allocation",
                    node.name, node.capacity.memory_mb
                ),
            ));
        }
        if node.capacity.vcores < min {
            return Err(at(
                index,
                false,
                format!(
                    "node {} has {} vcores, below scheduler.minimum_allocation_vcores = {min}: YARN sends a NodeManager below the minimum allocation a SHUTDOWN at registration (ResourceTrackerService); give it vcores, or use the Fair Scheduler with a minimum of 0 vcores",
                    node.name, node.capacity.vcores
                ),
            ));
        }
    }
    Ok(())
}

/// Checks every number of the scenario that has a limit; the first one out of range is the
/// error, naming its key (and so its line).
pub fn check_ranges(n: &Numbers<'_>, invalid: Invalid<'_>) -> Result<(), ScenarioError> {
    if let Some(end) = n.end_ms {
        check_int(invalid, "end_ms", end.into())?;
    }
    let c = n.cluster;
    check_int(invalid, "cluster.nodes", c.nodes.into())?;
    check_int(invalid, "cluster.racks", c.racks.into())?;
    if c.racks > c.nodes {
        return Err(invalid(
            "cluster.racks",
            &format!(
                "{} racks for {} nodes: at most one rack per node",
                c.racks, c.nodes
            ),
        ));
    }
    check_int(invalid, "cluster.node_memory_mb", c.node_memory_mb.into())?;
    check_int(invalid, "cluster.node_vcores", c.node_vcores.into())?;
    let s = n.scheduler;
    for (key, v) in [
        ("scheduler.update_interval_ms", s.update_interval_ms),
        ("scheduler.heartbeat_ms", s.heartbeat_ms),
        (
            "scheduler.continuous_scheduling_sleep_ms",
            s.continuous_scheduling_sleep_ms,
        ),
        ("scheduler.am_launch_delay_ms", s.am_launch_delay_ms),
        ("scheduler.am_heartbeat_ms", s.am_heartbeat_ms),
        ("scheduler.preemption_interval_ms", s.preemption_interval_ms),
        ("scheduler.wait_before_kill_ms", s.wait_before_kill_ms),
        (
            "scheduler.wait_before_next_starvation_check_ms",
            s.wait_before_next_starvation_check_ms,
        ),
        ("scheduler.monitoring_interval_ms", s.monitoring_interval_ms),
        (
            "scheduler.queue_management_interval_ms",
            s.queue_management_interval_ms,
        ),
        (
            "scheduler.max_wait_before_kill_ms",
            s.max_wait_before_kill_ms,
        ),
    ] {
        check_int(invalid, key, v.into())?;
    }
    for (key, v) in [
        (
            "scheduler.locality_threshold_node",
            s.locality_threshold_node,
        ),
        (
            "scheduler.locality_threshold_rack",
            s.locality_threshold_rack,
        ),
        (
            "scheduler.preemption_utilization_threshold",
            s.preemption_utilization_threshold.into(),
        ),
        (
            "scheduler.total_preemption_per_round",
            s.total_preemption_per_round,
        ),
        (
            "scheduler.max_ignored_over_capacity",
            s.max_ignored_over_capacity,
        ),
        (
            "scheduler.natural_termination_factor",
            s.natural_termination_factor,
        ),
        (
            "scheduler.reservation_threshold_increment_multiple",
            s.reservation_threshold_increment_multiple,
        ),
        ("scheduler.reservable_nodes", f64::from(s.reservable_nodes)),
    ] {
        check_float(invalid, key, v)?;
    }
    if let Some(b) = &s.booster {
        check_float(invalid, "scheduler.booster.factor", b.factor)?;
        check_int(
            invalid,
            "scheduler.booster.duration_ms",
            b.duration_ms.into(),
        )?;
    }
    check_int(
        invalid,
        "scheduler.node_locality_delay",
        s.node_locality_delay.into(),
    )?;
    for (key, v) in [
        ("scheduler.minimum_allocation_mb", s.minimum_allocation_mb),
        (
            "scheduler.minimum_allocation_vcores",
            s.minimum_allocation_vcores,
        ),
        ("scheduler.maximum_allocation_mb", s.maximum_allocation_mb),
        (
            "scheduler.maximum_allocation_vcores",
            s.maximum_allocation_vcores,
        ),
        (
            "scheduler.increment_allocation_mb",
            s.increment_allocation_mb,
        ),
        (
            "scheduler.increment_allocation_vcores",
            s.increment_allocation_vcores,
        ),
        ("scheduler.locality_delay_node_ms", s.locality_delay_node_ms),
        ("scheduler.locality_delay_rack_ms", s.locality_delay_rack_ms),
    ] {
        check_int(invalid, key, v.into())?;
    }
    check_int(
        invalid,
        "scheduler.max_allocation_wait_ms",
        s.max_allocation_wait_ms.into(),
    )?;
    check_int(
        invalid,
        "outputs.sample_interval_ms",
        n.sample_interval_ms.into(),
    )?;
    if let Some(spec) = n.synthetic {
        check_synthetic(spec, invalid)?;
    }
    Ok(())
}

fn check_synthetic(spec: &SyntheticSpec, invalid: Invalid<'_>) -> Result<(), ScenarioError> {
    let mut total_apps: u64 = 0;
    for (i, q) in spec.queues.iter().enumerate() {
        let at = |field: &str| format!("workload.synthetic.queues[{i}].{field}");
        let row = |field: &str| format!("workload.synthetic.queues.*.{field}");
        let int = |field: &str, v: i128| {
            limit("scenario", &row(field))
                .check_int(v)
                .map(|_| ())
                .map_err(|m| invalid(&at(field), &m))
        };
        int("apps", q.apps.into())?;
        int("users", q.users.into())?;
        int("start_ms", q.start_ms.into())?;
        int("container_mb", q.container_mb.into())?;
        int("container_vcores", q.container_vcores.into())?;
        int("am_mb", q.am_mb.into())?;
        int("am_vcores", q.am_vcores.into())?;
        limit("scenario", &row("mean_interarrival_ms"))
            .check_float(q.mean_interarrival_ms)
            .map_err(|m| invalid(&at("mean_interarrival_ms"), &m))?;
        // The expected last arrival must be a time a run can reach.
        let last = q.start_ms as f64 + q.apps as f64 * q.mean_interarrival_ms;
        if last > MAX_TIME_MS as f64 {
            return Err(invalid(
                &at("mean_interarrival_ms"),
                &format!(
                    "{} apps {} ms apart from {} ms arrive until about {last:.0} ms, past the limit of {MAX_TIME_MS} ms (docs/limits.md)",
                    q.apps, q.mean_interarrival_ms, q.start_ms
                ),
            ));
        }
        total_apps += u64::from(q.apps);
        if total_apps > MAX_APPS {
            return Err(invalid(
                &at("apps"),
                &format!("{total_apps} apps in all: the limit is {MAX_APPS} per run"),
            ));
        }
        check_dists(q, i, invalid)?;
    }
    Ok(())
}

fn check_dists(q: &QueueStream, i: usize, invalid: Invalid<'_>) -> Result<(), ScenarioError> {
    let tasks = limit(
        "scenario",
        "workload.synthetic.queues.*.tasks (value, mean, median, scale, max)",
    );
    let durations = limit(
        "scenario",
        "workload.synthetic.queues.*.duration_ms (value, mean, median, scale, max)",
    );
    let spread = limit("scenario", "workload.synthetic.queues.*.* sigma, shape");
    let dists = [
        ("tasks", Some(&q.tasks), tasks),
        ("duration_ms", Some(&q.duration_ms), durations),
        ("reduces", q.reduces.as_ref(), tasks),
        (
            "reduce_duration_ms",
            q.reduce_duration_ms.as_ref(),
            durations,
        ),
    ];
    for (field, dist, lim) in dists {
        let Some(d) = dist else { continue };
        let key = format!("workload.synthetic.queues[{i}].{field}");
        let (scale, shape, max) = match *d {
            Dist::Constant { value } => (value, None, None),
            Dist::Exponential { mean } => (mean, None, None),
            Dist::Lognormal { median, sigma, max } => (median, Some(sigma), max),
            Dist::Pareto { scale, shape, max } => (scale, Some(shape), max),
        };
        for v in [Some(scale), max].into_iter().flatten() {
            lim.check_float(v).map_err(|m| invalid(&key, &m))?;
        }
        if let Some(v) = shape {
            spread.check_float(v).map_err(|m| invalid(&key, &m))?;
        }
    }
    Ok(())
}

pub use crate::workload::budget::BYTES_PER_APP;
/// Bytes a run holds per node: measured on a debug build (100,000 nodes held 0.3 KB per
/// node), rounded up.
pub const BYTES_PER_NODE: u64 = 512;
/// Bytes a run holds per queue and kept sample time: one sample's rows are built (about 200
/// bytes a queue) and streamed to `queues.csv`; `fairsim run`'s charts keep at most
/// [`CHART_SAMPLE_TIMES`] sample times of 32 bytes a leaf queue. Rounded up.
pub const BYTES_PER_SAMPLE_ROW: u64 = 256;
/// The most sample times `fairsim run`'s charts keep (the run's trace drops every other one
/// when full, so it holds fewer than this).
pub const CHART_SAMPLE_TIMES: u64 = 2_048;

/// What a run of a scenario is expected to hold, by what holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryEstimate {
    /// Apps and their records.
    pub apps: u64,
    /// Nodes.
    pub nodes: u64,
    /// Queue samples held: the charts' kept sample times (rows themselves stream to disk;
    /// 0 when sampling is off or the run has no end).
    pub samples: u64,
    /// `queues.csv` rows the run writes, checked against [`crate::limits::MAX_QUEUE_ROWS`].
    pub queue_rows: u64,
}

impl MemoryEstimate {
    /// From the counts a scenario gives.
    pub fn new(
        n_apps: u64,
        n_nodes: u64,
        n_queues: u64,
        end_ms: Option<u64>,
        sample_ms: u64,
    ) -> Self {
        let times = match (end_ms, sample_ms) {
            (Some(end), s) if s > 0 => end / s + 1,
            _ => 0,
        };
        MemoryEstimate {
            apps: n_apps.saturating_mul(BYTES_PER_APP),
            nodes: n_nodes.saturating_mul(BYTES_PER_NODE),
            samples: times
                .min(CHART_SAMPLE_TIMES)
                .saturating_mul(n_queues)
                .saturating_mul(BYTES_PER_SAMPLE_ROW),
            queue_rows: times.saturating_mul(n_queues),
        }
    }

    /// The estimate with `bytes` for the apps, where the workload knows better than
    /// [`BYTES_PER_APP`] each (a trace's apps with their task groups and hints).
    pub fn with_apps_bytes(self, bytes: u64) -> Self {
        MemoryEstimate {
            apps: bytes,
            ..self
        }
    }

    /// The whole estimate, bytes.
    pub fn total(&self) -> u64 {
        self.apps
            .saturating_add(self.nodes)
            .saturating_add(self.samples)
    }

    /// Refuses an estimate above [`crate::limits::MAX_RUN_MEMORY_BYTES`], naming the key that
    /// holds most of it, and more `queues.csv` rows than [`crate::limits::MAX_QUEUE_ROWS`].
    pub fn check(&self, invalid: Invalid<'_>) -> Result<(), ScenarioError> {
        let rows = limit("run", "queues.csv rows");
        if rows.check_int(self.queue_rows.into()).is_err() {
            return Err(invalid(
                "outputs.sample_interval_ms",
                &format!(
                    "a run would write about {:.1} million queues.csv rows (every queue at every \
                     sample time up to end_ms, or without it a trace's last arrival): the limit is \
                     {} million (docs/limits.md)",
                    self.queue_rows as f64 / 1e6,
                    crate::limits::MAX_QUEUE_ROWS / 1_000_000
                ),
            ));
        }
        let lim = limit("run", "estimated memory (bytes)");
        if lim.check_int(self.total().into()).is_ok() {
            return Ok(());
        }
        let key = if self.samples >= self.apps && self.samples >= self.nodes {
            "outputs.sample_interval_ms"
        } else if self.nodes > self.apps {
            "cluster.nodes"
        } else {
            "workload"
        };
        let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
        Err(invalid(
            key,
            &format!(
                "a run would hold about {:.1} GiB (apps {:.1}, nodes {:.1}, queue samples {:.1}): the limit is {:.0} GiB (docs/limits.md)",
                gib(self.total()),
                gib(self.apps),
                gib(self.nodes),
                gib(self.samples),
                gib(crate::limits::MAX_RUN_MEMORY_BYTES)
            ),
        ))
    }
}

/// `[scheduler]` keys only the Fair Scheduler reads (its yarn-site properties, and fairsim's
/// booster of its weights).
pub const FAIR_ONLY_KEYS: &[&str] = &[
    "assignmultiple",
    "max_assign",
    "dynamic_max_assign",
    "sizebasedweight",
    "booster",
    "locality_threshold_node",
    "locality_threshold_rack",
    "continuous_scheduling",
    "continuous_scheduling_sleep_ms",
    "locality_delay_node_ms",
    "locality_delay_rack_ms",
    "preemption_utilization_threshold",
    "preemption_interval_ms",
    "wait_before_kill_ms",
    "wait_before_next_starvation_check_ms",
    "reservation_threshold_increment_multiple",
    "reservable_nodes",
    "increment_allocation_mb",
    "increment_allocation_vcores",
];

/// `[scheduler]` keys only the Capacity Scheduler reads.
pub const CAPACITY_ONLY_KEYS: &[&str] = &[
    "monitoring_interval_ms",
    "monitor_policies",
    "queue_management_interval_ms",
    "max_wait_before_kill_ms",
    "total_preemption_per_round",
    "max_ignored_over_capacity",
    "natural_termination_factor",
    "node_locality_delay",
];

/// Refuses, at its line, a `[scheduler]` key the scenario writes that the scheduler of its
/// allocation file (`alloc`) does not read: like an unknown key, it would change nothing,
/// whatever the run was meant to show. (A yarn-site.xml property of the other scheduler is
/// only reported by `validate`, as YARN ignores it: those files serve both schedulers.)
pub fn check_scheduler_keys(
    kind: SchedulerKind,
    alloc: &std::path::Path,
    in_scenario: &dyn Fn(&str) -> bool,
    invalid: Invalid<'_>,
) -> Result<(), ScenarioError> {
    let (others, this, other) = match kind {
        SchedulerKind::Fair => (CAPACITY_ONLY_KEYS, "fair-scheduler.xml", "Capacity"),
        SchedulerKind::Capacity => (FAIR_ONLY_KEYS, "capacity-scheduler.xml", "Fair"),
    };
    for key in others {
        let key = format!("scheduler.{key}");
        if in_scenario(&key) {
            return Err(invalid(
                &key,
                &format!(
                    "a {other} Scheduler setting, but the allocation file {} is a {this}, \
                     whose scheduler does not read it: remove the key",
                    alloc.display()
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses the scheduling monitors a Capacity Scheduler run cannot start as YARN would
/// (`monitor_policies`: a list YARN fails on, or a policy fairsim does not run).
pub fn check_monitor_policies(
    s: &SchedulerConf,
    kind: SchedulerKind,
    invalid: Invalid<'_>,
) -> Result<(), ScenarioError> {
    if kind != SchedulerKind::Capacity {
        return Ok(());
    }
    crate::monitor_policies::monitors(s.preemption, &s.monitor_policies, s.semantics)
        .map(|_| ())
        .map_err(|m| invalid("scheduler.monitor_policies", &m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(e: &MemoryEstimate) -> Result<(), String> {
        let invalid = |key: &str, msg: &str| ScenarioError::Invalid {
            path: "s.toml".into(),
            line: 1,
            key: key.to_string(),
            message: msg.to_string(),
        };
        e.check(&invalid).map_err(|e| e.to_string())
    }

    /// Queue rows stream to disk: the estimate counts only the charts' kept sample times, so
    /// a long, finely sampled run is no longer refused for memory; its rows are bounded apart.
    #[test]
    fn sample_rows_count_toward_the_file_not_memory() {
        // A year sampled every second over 3 queues: 31,557,601 times, 94,672,803 rows (under
        // 100 million); memory 2,048 kept times x 3 queues x 256 B = 1,572,864 B. Before rows
        // streamed this held 94,672,803 x 256 B = 22.6 GiB and was refused.
        let year = MemoryEstimate::new(10, 10, 3, Some(31_557_600_000), 1_000);
        assert_eq!(year.queue_rows, 94_672_803);
        assert_eq!(year.samples, 1_572_864);
        assert_eq!(check(&year), Ok(()));
        // Ten years every 10 s over 6 queues: 31,557,601 times x 6 = 189.3 million rows.
        let decade = MemoryEstimate::new(10, 10, 6, Some(315_576_000_000), 10_000);
        let err = check(&decade).unwrap_err();
        assert!(
            err.contains(
                "outputs.sample_interval_ms: a run would write about 189.3 million queues.csv rows"
            ) && err.contains("the limit is 100 million"),
            "{err}"
        );
        // Without an end time the rows are not known in advance: nothing is counted.
        let open = MemoryEstimate::new(10, 10, 6, None, 1);
        assert_eq!((open.samples, open.queue_rows), (0, 0));
        // Apps still count: 7 million apps x 2,560 B = 16.7 GiB, over 16 GiB.
        let apps = MemoryEstimate::new(7_000_000, 10, 6, None, 0);
        assert!(
            check(&apps)
                .unwrap_err()
                .contains("workload: a run would hold about 16.7 GiB")
        );
    }
}
