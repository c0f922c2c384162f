//! Which Hadoop era's rules to follow, and which scheduling policy a queue uses.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The Hadoop era whose Fair Scheduler fairsim reproduces.
///
/// `hadoop-2.7` is the scheduler the project's seed documents describe (32-bit int memory,
/// float32 ratios, no demand step); `hadoop-3.3` follows the newest code (long arithmetic,
/// the demand step and zero-weight rules, memory-only demand test, DRF with YARN-11482).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Semantics {
    /// Hadoop 2.6/2.7.
    #[default]
    #[serde(rename = "hadoop-2.7")]
    Hadoop27,
    /// Hadoop 3.3 and later.
    #[serde(rename = "hadoop-3.3")]
    Hadoop33,
}

impl Semantics {
    /// The name used in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Semantics::Hadoop27 => "hadoop-2.7",
            Semantics::Hadoop33 => "hadoop-3.3",
        }
    }

    /// The largest memory or vcores value the era holds: Hadoop 2.7's `Resource` keeps them
    /// in a Java int, 3.x in a long.
    pub fn resource_max(self) -> i64 {
        match self {
            Semantics::Hadoop27 => i64::from(i32::MAX),
            Semantics::Hadoop33 => i64::MAX,
        }
    }
}

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Semantics {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "hadoop-2.7" => Ok(Semantics::Hadoop27),
            "hadoop-3.3" => Ok(Semantics::Hadoop33),
            other => Err(format!(
                "unknown semantics `{other}` (expected hadoop-2.7 or hadoop-3.3)"
            )),
        }
    }
}

/// A queue's scheduling policy (`schedulingPolicy` in fair-scheduler.xml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// `FairSharePolicy`: weighted fair sharing of memory.
    #[default]
    Fair,
    /// `DominantResourceFairnessPolicy`: fair sharing of the dominant resource.
    Drf,
    /// `FifoPolicy`: earliest start first (leaf queues only).
    Fifo,
}

impl Policy {
    /// The short name used in allocation files.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Fair => "fair",
            Policy::Drf => "drf",
            Policy::Fifo => "fifo",
        }
    }

    /// The resource calculator the policy compares with (fair and FIFO: memory only).
    pub fn calculator(self) -> crate::Calculator {
        match self {
            Policy::Drf => crate::Calculator::Dominant,
            Policy::Fair | Policy::Fifo => crate::Calculator::MemoryOnly,
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;
    /// Case-insensitive, as YARN maps "FIFO", "DRF" and "fair" alike.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "fair" => Ok(Policy::Fair),
            "drf" => Ok(Policy::Drf),
            "fifo" => Ok(Policy::Fifo),
            _ => Err(format!("unknown policy `{s}` (expected fair, drf or fifo)")),
        }
    }
}
