//! Schedulers. `fair` is YARN's Fair Scheduler (both eras), `capacity` the Capacity
//! Scheduler on the same state (`capacity_placement` its queue choice); `admission`
//! validates and normalises asks at submission for both; `preempt` runs preemption (both
//! schedulers) from the update tick; `node_events` makes nodes join and leave during a run
//! (both schedulers); `submission_check` finds the apps a run would reject without running
//! it.

pub(crate) mod admission;
pub(crate) mod am_heartbeat;
pub(crate) mod books;
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

/// The schedulers' own state: the Fair Scheduler's, each era's preemption state, and the
/// Capacity Scheduler's when the tree is a capacity tree. The engine owns it and knows
/// nothing of what is inside.
pub(crate) struct Scheduler {
    /// The Fair Scheduler's own state (`fair::FairState`).
    pub(crate) fair: fair::FairState,
    /// Preemption state of the configured scheduler and era.
    pub(crate) preempt: preempt::PreemptState,
    /// The Capacity Scheduler's own state, when the tree is a capacity tree.
    pub(crate) capacity: Option<capacity::CapacityState>,
}

/// A scheduler at work on one event: its own state, with the world and the context the
/// engine lends it for that event. Every scheduler decision is a method of this type.
pub(crate) struct Sched<'s, 'a> {
    pub(crate) w: &'s mut crate::state::world::World<'a>,
    pub(crate) cx: &'s mut crate::state::ctx::Ctx<'a>,
    pub(crate) fair: &'s mut fair::FairState,
    pub(crate) preempt: &'s mut preempt::PreemptState,
    pub(crate) capacity: &'s mut Option<capacity::CapacityState>,
    /// The engine watches for repeated states (its cycle watch is on).
    pub(crate) cycles_watched: bool,
}
