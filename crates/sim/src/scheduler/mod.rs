//! Schedulers. `fair` is YARN's Fair Scheduler (both eras), `capacity` the Capacity
//! Scheduler on the same state; `preempt` runs preemption (both schedulers) from the update
//! tick.

pub(crate) mod capacity;
pub mod fair;
pub(crate) mod preempt;
