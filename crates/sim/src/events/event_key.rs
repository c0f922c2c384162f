//! The key every pending event is ordered by, apart from the events themselves so that the
//! queues holding keys (the radix heap, the heartbeat clock) need not know the events
//! (`crate::event` states the ordering contract).

use crate::time::SimTime;

/// The full ordering key of a queued event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventKey {
    /// When.
    pub time: SimTime,
    /// Kind rank.
    pub rank: u8,
    /// Node or app index (see `crate::event`).
    pub tie: u32,
    /// Push counter.
    pub seq: u64,
}
