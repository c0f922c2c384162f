//! fairsim-sim: the simulator around the core: the queue tree, allocation files, the
//! cluster, the schedulers, workloads and the event loop.

pub mod alloc;
pub mod capacity;
pub mod preemption;
pub mod tree;
