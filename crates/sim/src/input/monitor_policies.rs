//! Which of the ResourceManager's scheduling monitors run beside the Capacity Scheduler
//! (`SchedulingMonitorManager.updateSchedulingMonitors`): none unless
//! `yarn.resourcemanager.scheduler.monitor.enable` is true, and then one per class named in
//! `yarn.resourcemanager.scheduler.monitor.policies`. Two of Hadoop's policies change what a
//! run does: `ProportionalCapacityPreemptionPolicy` (preemption, `scheduler::capacity_preempt`) and,
//! from Hadoop 3.1, `QueueManagementDynamicEditPolicy`, which runs the management policy of
//! every parent that auto-creates leaves (`scheduler::capacity_auto`). Without the latter a
//! leaf keeps the capacity it was given when it was made.
//!
//! Hadoop splits the list with `Configuration.getStrings`: at commas, skipping empty
//! pieces, trimming nothing; each piece goes to `Class.forName`, so a name with a space
//! beside it is no class and YARN fails to start.

use fairsim_core::Semantics;

/// `ProportionalCapacityPreemptionPolicy`, yarn-default.xml's list.
pub const PREEMPTION_POLICY: &str = "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy";

/// `QueueManagementDynamicEditPolicy` (Hadoop 3.1 and later).
pub const QUEUE_MANAGEMENT_POLICY: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.QueueManagementDynamicEditPolicy";

/// `yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval`'s default.
pub const QUEUE_MANAGEMENT_INTERVAL_MS: u64 = 1500;

/// The monitors a run has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Monitors {
    /// The proportional preemption policy runs.
    pub preemption: bool,
    /// The auto-created queues' management policy runs.
    pub queue_management: bool,
}

/// The monitors `enabled` and the `policies` list start, or why YARN fails to start on the
/// list. The list is not read while the monitors are off, as Hadoop does not read it then.
pub fn monitors(enabled: bool, policies: &str, era: Semantics) -> Result<Monitors, String> {
    let mut m = Monitors::default();
    if !enabled {
        return Ok(m);
    }
    for name in policies.split(',').filter(|p| !p.is_empty()) {
        if name == PREEMPTION_POLICY {
            m.preemption = true;
        } else if name == QUEUE_MANAGEMENT_POLICY && era == Semantics::Hadoop33 {
            m.queue_management = true;
        } else if name == QUEUE_MANAGEMENT_POLICY {
            return Err(format!(
                "{name}: Hadoop 2.7 has no such class (auto-created queues came with Hadoop \
                 3.1): YARN fails to start (\"Failed to find class of specified policy\")"
            ));
        } else if name.trim() != name
            && [PREEMPTION_POLICY, QUEUE_MANAGEMENT_POLICY].contains(&name.trim())
        {
            return Err(format!(
                "\"{name}\": Hadoop splits the list at commas without trimming, and no class \
                 has a name with spaces: YARN fails to start (\"Failed to find class of \
                 specified policy\"); remove the spaces"
            ));
        } else {
            return Err(format!(
                "\"{name}\" is not a scheduling monitor fairsim runs ({PREEMPTION_POLICY} or \
                 {QUEUE_MANAGEMENT_POLICY}): a policy of the cluster's own is not simulated"
            ));
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H33: Semantics = Semantics::Hadoop33;

    #[test]
    fn nothing_runs_while_the_monitors_are_off_whatever_the_list() {
        assert_eq!(
            monitors(false, "no.such.Class", H33),
            Ok(Monitors::default())
        );
        assert_eq!(
            monitors(false, QUEUE_MANAGEMENT_POLICY, H33),
            Ok(Monitors::default())
        );
    }

    #[test]
    fn yarn_defaults_run_preemption_alone() {
        let m = monitors(true, PREEMPTION_POLICY, H33).unwrap();
        assert!(m.preemption && !m.queue_management);
    }

    #[test]
    fn both_policies_and_empty_pieces() {
        let list = format!(",{QUEUE_MANAGEMENT_POLICY},,{PREEMPTION_POLICY},");
        let m = monitors(true, &list, H33).unwrap();
        assert!(m.preemption && m.queue_management);
        let m = monitors(true, QUEUE_MANAGEMENT_POLICY, H33).unwrap();
        assert!(!m.preemption && m.queue_management);
        assert_eq!(monitors(true, "", H33), Ok(Monitors::default()));
    }

    #[test]
    fn names_yarn_cannot_load_are_refused() {
        let spaced = format!("{PREEMPTION_POLICY}, {QUEUE_MANAGEMENT_POLICY}");
        assert!(
            monitors(true, &spaced, H33)
                .unwrap_err()
                .contains("without trimming")
        );
        assert!(
            monitors(true, "com.example.Mine", H33)
                .unwrap_err()
                .contains("not simulated")
        );
        let e = monitors(true, QUEUE_MANAGEMENT_POLICY, Semantics::Hadoop27).unwrap_err();
        assert!(e.contains("Hadoop 2.7"), "{e}");
    }
}
