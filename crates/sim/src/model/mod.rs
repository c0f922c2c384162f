//! The vocabulary every other part speaks, depending on nothing else of the crate: simulated
//! time, apps as a workload gives them and their request tables, the queue tree as an
//! allocation file gives it (with the fair-share computation over it, and the Capacity
//! Scheduler settings its queues carry), and request normalisation.

pub mod app;
pub mod cs_settings;
pub mod normalize;
pub mod time;
pub mod tree;
