//! Simulated time: integer milliseconds since the start of a run.

use std::fmt;

/// A point in simulated time, in milliseconds since the run started. Never a float.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SimTime(pub u64);

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);

    /// Milliseconds since the start.
    pub fn ms(self) -> u64 {
        self.0
    }

    /// Seconds since the start, for reports.
    pub fn secs_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// `self + ms`, saturating.
    pub fn plus(self, ms: u64) -> SimTime {
        SimTime(self.0.saturating_add(ms))
    }

    /// Milliseconds from `earlier` to `self` (0 if `earlier` is later).
    pub fn since(self, earlier: SimTime) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", self.0)
    }
}
