//! What drives a run forward: the event queue (a monotone radix heap of integer keys, the
//! arrivals as a sorted cursor) and the heartbeat clock. The engine pops from it; the
//! schedulers push the events their decisions cause (completions, AM heartbeats, kills).

pub(crate) mod bit_set;
pub(crate) mod ctx;
pub mod event;
pub mod event_key;
pub mod heartbeat;
pub mod radix_queue;
