//! Fair Scheduler preemption, both eras, as pure functions over a snapshot of the scheduler.
//!
//! * Hadoop 2.6/2.7 (`hadoop-semantics.md` §6.1): per-leaf starvation clocks
//!   ([`starvation::LeafStarvation27`]), a cluster-wide amount to preempt every
//!   `preemptionInterval` ([`starvation::res_to_preempt_27`]), victims chosen top-down through
//!   the queue tree and warned before they are killed ([`victims::Preemptor27`]).
//! * Hadoop 3.x (§6.2): per-app fair-share starvation and per-queue min-share starvation
//!   handed to apps ([`starvation::update_starved_apps_33`]), a priority queue of starved apps
//!   ([`starvation::StarvedApps`]) and a node-by-node victim search
//!   ([`victims::Search33`]).
//!
//! Nothing here owns time or state beyond what Hadoop keeps per queue or app; the simulator
//! calls these functions from its update tick and applies the decisions they return.

pub mod round;
pub mod starvation;
pub mod starved_asks;
pub mod victims;

use fairsim_core::Resource;

/// Scheduler-wide preemption settings (`yarn.scheduler.fair.*` in yarn-site.xml).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PreemptionConfig {
    /// `yarn.scheduler.fair.preemption` (default false).
    pub enabled: bool,
    /// `preemption.cluster-utilization-threshold` (default 0.8): preempt only while the
    /// cluster's utilization is strictly greater.
    pub utilization_threshold: f32,
    /// `preemptionInterval` in ms (Hadoop 2.7 only; default 5000).
    pub interval_ms: u64,
    /// `waitTimeBeforeKill` in ms (default 15000).
    pub wait_before_kill_ms: u64,
    /// `waitTimeBeforeNextStarvationCheck` in ms (Hadoop 3.x; default 10000).
    pub wait_before_next_starvation_check_ms: u64,
    /// Hadoop 3.x allocation delay after a preemption: 4 × the NodeManager heartbeat
    /// interval (ms); [`PreemptionConfig::with_heartbeat`] sets it.
    pub allocation_delay_ms: u64,
}

impl Default for PreemptionConfig {
    fn default() -> Self {
        PreemptionConfig {
            enabled: false,
            utilization_threshold: 0.8,
            interval_ms: 5000,
            wait_before_kill_ms: 15000,
            wait_before_next_starvation_check_ms: 10000,
            allocation_delay_ms: 4000,
        }
    }
}

impl PreemptionConfig {
    /// The defaults with preemption switched on.
    pub fn enabled() -> Self {
        PreemptionConfig {
            enabled: true,
            ..PreemptionConfig::default()
        }
    }

    /// Sets the Hadoop 3.x allocation delay from the NodeManager heartbeat (4 heartbeats).
    pub fn with_heartbeat(mut self, heartbeat_ms: u64) -> Self {
        self.allocation_delay_ms = 4 * heartbeat_ms;
        self
    }

    /// Hadoop 3.x: how long a starved app is left alone after containers were preempted for
    /// it: waitTimeBeforeKill + allocation delay + waitTimeBeforeNextStarvationCheck
    /// (15 + 4 + 10 = 29 s with the defaults and a 1 s heartbeat).
    pub fn starvation_recheck_delay_ms(&self) -> u64 {
        self.wait_before_kill_ms
            + self.allocation_delay_ms
            + self.wait_before_next_starvation_check_ms
    }

    /// `shouldAttemptPreemption`: enabled, and the larger of the memory and vcore
    /// utilizations (float32 divisions, as Hadoop computes them) is strictly above the
    /// threshold.
    pub fn should_attempt(&self, cluster: Resource, allocated: Resource) -> bool {
        self.enabled && utilization_exceeds(cluster, allocated, self.utilization_threshold)
    }
}

/// True when max(allocated MB / cluster MB, allocated vcores / cluster vcores), computed in
/// float32, is strictly greater than `threshold`.
pub fn utilization_exceeds(cluster: Resource, allocated: Resource, threshold: f32) -> bool {
    let ratio = |a: i64, c: i64| {
        if c <= 0 { 0.0f32 } else { a as f32 / c as f32 }
    };
    let u =
        ratio(allocated.memory_mb, cluster.memory_mb).max(ratio(allocated.vcores, cluster.vcores));
    threshold < u
}

impl crate::settings::SchedulerConf {
    /// The Fair Scheduler preemption settings of this scenario.
    pub fn preemption_config(&self) -> PreemptionConfig {
        PreemptionConfig {
            enabled: self.preemption,
            utilization_threshold: self.preemption_utilization_threshold,
            interval_ms: self.preemption_interval_ms,
            wait_before_kill_ms: self.wait_before_kill_ms,
            wait_before_next_starvation_check_ms: self.wait_before_next_starvation_check_ms,
            allocation_delay_ms: 0,
        }
        .with_heartbeat(self.heartbeat_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utilization_threshold_is_strict() {
        let c = Resource::new(10_000, 10);
        // Exactly 80% of memory and of vcores: not above the threshold.
        assert!(!utilization_exceeds(c, Resource::new(8000, 8), 0.8));
        // vcores decide when they are the larger share.
        assert!(utilization_exceeds(c, Resource::new(1000, 9), 0.8));
        assert!(utilization_exceeds(c, Resource::new(8001, 0), 0.8));
        let off = PreemptionConfig::default();
        assert!(!off.should_attempt(c, Resource::new(10_000, 10)));
        assert!(PreemptionConfig::enabled().should_attempt(c, Resource::new(10_000, 10)));
    }

    #[test]
    fn recheck_delay_is_29_seconds_with_defaults() {
        let c = PreemptionConfig::enabled().with_heartbeat(1000);
        assert_eq!(c.starvation_recheck_delay_ms(), 29_000);
    }
}
