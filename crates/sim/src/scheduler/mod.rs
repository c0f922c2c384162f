//! Schedulers. `fair` is YARN's Fair Scheduler (both eras).

pub mod fair;
