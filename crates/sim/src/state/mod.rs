//! The cluster as a run holds it, shared by the engine and the schedulers: nodes in racks,
//! their states and heartbeat phases, and trace host hints resolved against them.

pub mod cluster;
pub mod host_hints;
pub(crate) mod world;
