//! Schedulers. `fair` is YARN's Fair Scheduler (both eras); `preempt` runs preemption (both
//! schedulers) from the update tick.

pub mod fair;
pub(crate) mod preempt;
