//! A scenario's `[scheduler]` section: the schedulers' options (yarn-site properties) and
//! the engine's settings, as read and merged with the yarn-site files.

use fairsim_core::{Booster, Semantics};
use serde::Deserialize;
use std::path::PathBuf;

/// How ordered children and apps are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ordering {
    /// Ordered sets keyed by the comparator's `OrderKey`, updated on every change.
    #[default]
    Incremental,
    /// Re-sort with the comparator before every use, as Hadoop does.
    Naive,
}

/// Which node heartbeats the engine processes (the decisions are the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Heartbeats {
    /// Skip heartbeats that provably change nothing (see `engine`'s "Heartbeat elision").
    #[default]
    Elided,
    /// Process every heartbeat of every node.
    Every,
}

/// Fair Scheduler options (yarn-site properties) and engine settings.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SchedulerConf {
    /// Hadoop era.
    pub semantics: Semantics,
    /// `assignmultiple`.
    pub assignmultiple: bool,
    /// `max.assign` (≤ 0: no limit).
    pub max_assign: i32,
    /// `dynamic.max.assign` (3.3 only).
    pub dynamic_max_assign: bool,
    /// `sizebasedweight`.
    pub sizebasedweight: bool,
    /// Optional weight booster (not in YARN; see fairsim_core::Booster).
    pub booster: Option<Booster>,
    /// Incremental or naive ordering.
    pub ordering: Ordering,
    /// Elided or every heartbeat.
    pub heartbeats: Heartbeats,
    /// `update-interval-ms`.
    pub update_interval_ms: u64,
    /// NodeManager heartbeat interval.
    pub heartbeat_ms: u64,
    /// `locality.threshold.node`.
    pub locality_threshold_node: f64,
    /// `locality.threshold.rack`.
    pub locality_threshold_rack: f64,
    /// `yarn.scheduler.fair.continuous-scheduling-enabled` (Fair Scheduler; see
    /// `scheduler::fair::continuous`).
    pub continuous_scheduling: bool,
    /// `yarn.scheduler.fair.continuous-scheduling-sleep-ms`: the pause between two passes.
    pub continuous_scheduling_sleep_ms: u64,
    /// `yarn.scheduler.fair.locality-delay-node-ms`: time-based delay scheduling under
    /// continuous scheduling (negative: off).
    pub locality_delay_node_ms: i64,
    /// `yarn.scheduler.fair.locality-delay-rack-ms`.
    pub locality_delay_rack_ms: i64,
    /// Time from an AM container's allocation to its registration (`scheduler::am_heartbeat`;
    /// 0 with `am_heartbeat_ms = 0`: the AM asks at once, as before).
    pub am_launch_delay_ms: u64,
    /// SLS's `yarn.sls.am.heartbeat.interval.ms`: an AM asks and hears of allocations on its
    /// own heartbeat (0: off).
    pub am_heartbeat_ms: u64,
    /// `yarn.scheduler.fair.preemption` (Fair Scheduler), or the Capacity Scheduler's
    /// `ProportionalCapacityPreemptionPolicy` monitor (`scheduler.monitor.enable`).
    pub preemption: bool,
    /// `preemption.cluster-utilization-threshold` (Fair Scheduler).
    pub preemption_utilization_threshold: f32,
    /// `preemptionInterval` in ms (Fair Scheduler, hadoop-2.7).
    pub preemption_interval_ms: u64,
    /// `waitTimeBeforeKill` in ms (Fair Scheduler).
    pub wait_before_kill_ms: u64,
    /// `waitTimeBeforeNextStarvationCheck` in ms (Fair Scheduler, hadoop-3.3).
    pub wait_before_next_starvation_check_ms: u64,
    /// Capacity Scheduler preemption: `monitoring_interval` in ms.
    pub monitoring_interval_ms: u64,
    /// `yarn.resourcemanager.scheduler.monitor.policies`: the scheduling monitors that run
    /// when `preemption` (`monitor.enable`) is on (`SchedulerConf::monitors`).
    pub monitor_policies: String,
    /// `yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval` in ms:
    /// how often the auto-created queues' management policy runs (hadoop-3.3).
    pub queue_management_interval_ms: u64,
    /// Capacity Scheduler preemption: `max_wait_before_kill` in ms.
    pub max_wait_before_kill_ms: u64,
    /// Capacity Scheduler preemption: `total_preemption_per_round`.
    pub total_preemption_per_round: f64,
    /// Capacity Scheduler preemption: `max_ignored_over_capacity`.
    pub max_ignored_over_capacity: f64,
    /// Capacity Scheduler preemption: `natural_termination_factor`.
    pub natural_termination_factor: f64,
    /// Capacity Scheduler: `node-locality-delay` (missed opportunities before rack-local).
    pub node_locality_delay: i32,
    /// `yarn.scheduler.minimum-allocation-mb` (normalisation; the Capacity Scheduler's
    /// user-limit step).
    pub minimum_allocation_mb: i64,
    /// `yarn.scheduler.reservation-threshold.increment-multiple` (hadoop-3.3): the smallest
    /// container that may reserve a node, as a multiple of the increment allocation.
    pub reservation_threshold_increment_multiple: f64,
    /// `yarn.scheduler.fair.reservable-nodes` (hadoop-3.3): an app reserves a rack-local or
    /// off-switch node only while it holds fewer reservations in the rack (or cluster) than
    /// `ceil(nodes × ratio)` (a Java float).
    pub reservable_nodes: f32,
    /// `yarn.scheduler.minimum-allocation-vcores`.
    pub minimum_allocation_vcores: i64,
    /// `yarn.scheduler.maximum-allocation-mb`: asks above it reject the app.
    pub maximum_allocation_mb: i64,
    /// `yarn.scheduler.maximum-allocation-vcores`.
    pub maximum_allocation_vcores: i64,
    /// Fair Scheduler: `yarn.scheduler.increment-allocation-mb` (the rounding step).
    pub increment_allocation_mb: i64,
    /// Fair Scheduler: `yarn.scheduler.increment-allocation-vcores`.
    pub increment_allocation_vcores: i64,
    /// `yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms`: until then the
    /// configured maximum allocation applies alone, later capped by the largest node.
    pub max_allocation_wait_ms: u64,
    /// Users' groups file (`user,primary_group,secondary_groups`), relative to the scenario;
    /// read into `groups` at load time. Without it a user's primary group is the user's name.
    pub users: Option<PathBuf>,
    /// The groups placement rules see (loaded from `users`).
    #[serde(skip)]
    pub groups: crate::groups::Groups,
    /// yarn-site.xml / sls-runner.xml (one file or a list, later ones overriding earlier
    /// ones), relative to the scenario: the knobs of `crate::yarn_site::knobs`, under the
    /// scenario's own keys.
    pub yarn_site: Option<crate::yarn_site::SiteFiles>,
    /// What the configuration files gave and where (`fairsim validate` prints it).
    #[serde(skip)]
    pub site: Option<crate::yarn_site::knobs::SiteReport>,
}

impl SchedulerConf {
    /// The monitors a run's ResourceManager starts (the list was checked when the scenario
    /// was read, so a list YARN refuses cannot reach a run).
    pub(crate) fn monitors(&self) -> crate::input::monitor_policies::Monitors {
        crate::input::monitor_policies::monitors(
            self.preemption,
            &self.monitor_policies,
            self.semantics,
        )
        .unwrap_or_default()
    }
}

impl Default for SchedulerConf {
    fn default() -> Self {
        SchedulerConf {
            semantics: Semantics::Hadoop27,
            assignmultiple: false,
            max_assign: -1,
            dynamic_max_assign: true,
            sizebasedweight: false,
            booster: None,
            ordering: Ordering::Incremental,
            heartbeats: Heartbeats::Elided,
            update_interval_ms: 500,
            heartbeat_ms: 1000,
            locality_threshold_node: -1.0,
            locality_threshold_rack: -1.0,
            continuous_scheduling: false,
            continuous_scheduling_sleep_ms: 5,
            locality_delay_node_ms: -1,
            locality_delay_rack_ms: -1,
            am_launch_delay_ms: 0,
            am_heartbeat_ms: 0,
            preemption: false,
            preemption_utilization_threshold: 0.8,
            preemption_interval_ms: 5000,
            wait_before_kill_ms: 15000,
            wait_before_next_starvation_check_ms: 10000,
            monitoring_interval_ms: 3000,
            monitor_policies: crate::input::monitor_policies::PREEMPTION_POLICY.to_string(),
            queue_management_interval_ms:
                crate::input::monitor_policies::QUEUE_MANAGEMENT_INTERVAL_MS,
            max_wait_before_kill_ms: 15000,
            total_preemption_per_round: 0.1,
            max_ignored_over_capacity: 0.1,
            natural_termination_factor: 0.2,
            node_locality_delay: 40,
            minimum_allocation_mb: 1024,
            reservation_threshold_increment_multiple: 2.0,
            reservable_nodes: 0.05,
            minimum_allocation_vcores: 1,
            maximum_allocation_mb: 8192,
            maximum_allocation_vcores: 4,
            increment_allocation_mb: 1024,
            increment_allocation_vcores: 1,
            max_allocation_wait_ms: 10_000,
            users: None,
            groups: crate::groups::Groups::default(),
            yarn_site: None,
            site: None,
        }
    }
}
