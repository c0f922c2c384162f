//! Schedulers. `fair` is YARN's Fair Scheduler (both eras), `capacity` the Capacity
//! Scheduler on the same state (`capacity_placement` its queue choice); `admission`
//! validates and normalises asks at submission for both; `preempt` runs preemption (both
//! schedulers) from the update tick; `node_events` makes nodes join and leave during a run
//! (both schedulers); `submission_check` finds the apps a run would reject without running
//! it; `am_limit_blocks` counts the apps each leaf's AM limit holds back (both schedulers).

pub(crate) mod admission;
pub(crate) mod am_heartbeat;
pub(crate) mod am_limit_blocks;
pub(crate) mod capacity;
pub(crate) mod capacity_placement;
pub mod fair;
pub(crate) mod node_events;
pub(crate) mod preempt;
pub mod submission_check;

/// What one offer of a node produced (a Fair Scheduler offer, also made to a starved app
/// by preemption).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing.
    Nothing,
    /// A container of this size.
    Allocated(fairsim_core::Resource),
    /// The node was reserved.
    Reserved,
}
