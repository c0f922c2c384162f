//! Resources (memory in MB, vcores) and the two resource calculators YARN compares them with.

use serde::{Deserialize, Serialize};

/// A vector of the two resource types the Fair Scheduler knows: memory (MB) and virtual cores.
///
/// Mirrors Hadoop's `Resource`. Values are `i64` so that both eras fit: Hadoop 2.7 keeps
/// 32-bit ints (the era's arithmetic narrows explicitly where it matters), Hadoop 3.x longs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Resource {
    /// Memory in MB.
    pub memory_mb: i64,
    /// Virtual cores.
    pub vcores: i64,
}

impl Resource {
    /// The zero resource (`Resources.none()`).
    pub const ZERO: Resource = Resource {
        memory_mb: 0,
        vcores: 0,
    };
    /// An unbounded maximum (Hadoop 3's `Long.MAX_VALUE`; narrowed to `Integer.MAX_VALUE` in 2.7).
    pub const UNBOUNDED: Resource = Resource {
        memory_mb: i64::MAX,
        vcores: i64::MAX,
    };

    /// A resource of `memory_mb` MB and `vcores` cores.
    pub const fn new(memory_mb: i64, vcores: i64) -> Resource {
        Resource { memory_mb, vcores }
    }

    /// Component-wise saturating sum.
    pub fn saturating_add(self, other: Resource) -> Resource {
        Resource::new(
            self.memory_mb.saturating_add(other.memory_mb),
            self.vcores.saturating_add(other.vcores),
        )
    }

    /// Component-wise saturating difference.
    pub fn saturating_sub(self, other: Resource) -> Resource {
        Resource::new(
            self.memory_mb.saturating_sub(other.memory_mb),
            self.vcores.saturating_sub(other.vcores),
        )
    }

    /// Component-wise minimum (`Resources.componentwiseMin`).
    pub fn component_min(self, other: Resource) -> Resource {
        Resource::new(
            self.memory_mb.min(other.memory_mb),
            self.vcores.min(other.vcores),
        )
    }

    /// Component-wise maximum.
    pub fn component_max(self, other: Resource) -> Resource {
        Resource::new(
            self.memory_mb.max(other.memory_mb),
            self.vcores.max(other.vcores),
        )
    }

    /// True when every component of `self` is at most the matching component of `other`
    /// (`Resources.fitsIn`).
    pub fn fits_in(self, other: Resource) -> bool {
        self.memory_mb <= other.memory_mb && self.vcores <= other.vcores
    }

    /// The value of one resource type.
    pub fn get(self, kind: ResourceKind) -> i64 {
        match kind {
            ResourceKind::Memory => self.memory_mb,
            ResourceKind::Vcores => self.vcores,
        }
    }

    /// Sets the value of one resource type.
    pub fn set(&mut self, kind: ResourceKind, value: i64) {
        match kind {
            ResourceKind::Memory => self.memory_mb = value,
            ResourceKind::Vcores => self.vcores = value,
        }
    }
}

/// One resource type, for computations that run once per type (DRF's shares).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// Memory in MB.
    Memory,
    /// Virtual cores.
    Vcores,
}

impl ResourceKind {
    /// Both types, in Hadoop's order (memory first).
    pub const ALL: [ResourceKind; 2] = [ResourceKind::Memory, ResourceKind::Vcores];
}

/// How two resources are compared: Hadoop's `DefaultResourceCalculator` (memory only) or
/// `DominantResourceCalculator` (the larger share of the cluster decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Calculator {
    /// Compare memory only; vcores are carried along but never looked at.
    #[default]
    MemoryOnly,
    /// Compare by the dominant share of `cluster`, then by the other share.
    Dominant,
}

impl Calculator {
    /// Orders `a` against `b` as the calculator does, relative to `cluster`.
    pub fn compare(self, cluster: Resource, a: Resource, b: Resource) -> std::cmp::Ordering {
        match self {
            Calculator::MemoryOnly => a.memory_mb.cmp(&b.memory_mb),
            Calculator::Dominant => {
                let shares = |r: Resource| {
                    let m = r.memory_mb as f64 / cluster.memory_mb as f64;
                    let v = r.vcores as f64 / cluster.vcores as f64;
                    if m >= v { (m, v) } else { (v, m) }
                };
                let (a1, a2) = shares(a);
                let (b1, b2) = shares(b);
                crate::key::ord_f64(a1)
                    .cmp(&crate::key::ord_f64(b1))
                    .then(crate::key::ord_f64(a2).cmp(&crate::key::ord_f64(b2)))
            }
        }
    }

    /// `a < b` by the single-type comparison Hadoop 3's `FSAppAttempt.isUsageBelowShare`
    /// asks for (`compare(cluster, a, b, true)`): memory for the memory-only calculator;
    /// for the dominant one, the two dominant shares alone, whatever resource each is
    /// (equal resources are never below; a cluster with a zero component falls back to
    /// the plain memory-then-vcores order, as Hadoop does for an invalid divisor).
    pub fn less_than_single_type(self, cluster: Resource, a: Resource, b: Resource) -> bool {
        match self {
            Calculator::MemoryOnly => a.memory_mb < b.memory_mb,
            Calculator::Dominant => {
                if a == b {
                    return false;
                }
                if cluster.memory_mb == 0 || cluster.vcores == 0 {
                    return (a.memory_mb, a.vcores) < (b.memory_mb, b.vcores);
                }
                let dominant = |r: Resource| {
                    let m = r.memory_mb as f64 / cluster.memory_mb as f64;
                    let v = r.vcores as f64 / cluster.vcores as f64;
                    m.max(v)
                };
                dominant(a) < dominant(b)
            }
        }
    }

    /// Whether `smaller` fits in `bigger` as the calculator's `fitsIn` decides, which is
    /// also when `computeAvailableContainers(bigger, smaller)` is positive for a `smaller`
    /// with no zero component: memory alone for the memory-only calculator (vcores may be
    /// overcommitted), every resource for the dominant one.
    pub fn fits_in(self, smaller: Resource, bigger: Resource) -> bool {
        match self {
            Calculator::MemoryOnly => smaller.memory_mb <= bigger.memory_mb,
            Calculator::Dominant => smaller.fits_in(bigger),
        }
    }

    /// `a < b` under this calculator.
    pub fn less_than(self, cluster: Resource, a: Resource, b: Resource) -> bool {
        self.compare(cluster, a, b).is_lt()
    }

    /// `a > b` under this calculator.
    pub fn greater_than(self, cluster: Resource, a: Resource, b: Resource) -> bool {
        self.compare(cluster, a, b).is_gt()
    }

    /// The smaller of `a` and `b` (`a` on a tie), as `Resources.min` returns it.
    pub fn min(self, cluster: Resource, a: Resource, b: Resource) -> Resource {
        if self.compare(cluster, a, b).is_le() {
            a
        } else {
            b
        }
    }

    /// The larger of `a` and `b` (`a` on a tie), as `Resources.max` returns it.
    pub fn max(self, cluster: Resource, a: Resource, b: Resource) -> Resource {
        if self.compare(cluster, a, b).is_ge() {
            a
        } else {
            b
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_only_ignores_vcores() {
        let c = Resource::new(100, 10);
        assert!(Calculator::MemoryOnly.less_than(c, Resource::new(1, 9), Resource::new(2, 0)));
        assert_eq!(
            Calculator::MemoryOnly.min(c, Resource::new(5, 9), Resource::new(5, 1)),
            Resource::new(5, 9)
        );
    }

    #[test]
    fn fits_in_reads_memory_alone_or_every_resource() {
        // 2048 MB / 4 vcores into 4096 MB / 2 vcores: memory fits, vcores do not.
        let (ask, free) = (Resource::new(2048, 4), Resource::new(4096, 2));
        assert!(Calculator::MemoryOnly.fits_in(ask, free));
        assert!(!Calculator::Dominant.fits_in(ask, free));
        assert!(!Calculator::MemoryOnly.fits_in(Resource::new(4097, 0), free));
    }

    #[test]
    fn dominant_compares_largest_share_first() {
        let c = Resource::new(100, 10);
        // 10% memory vs 50% vcores: the vcores-heavy one is larger.
        assert!(Calculator::Dominant.greater_than(c, Resource::new(10, 5), Resource::new(40, 1)));
    }

    #[test]
    fn single_type_comparison_reads_the_dominant_shares_alone() {
        let c = Resource::new(100, 10);
        let (usage, share) = (Resource::new(50, 2), Resource::new(50, 5));
        // Dominant shares tie at 50%: not below by the single type, below by both types.
        assert!(!Calculator::Dominant.less_than_single_type(c, usage, share));
        assert!(Calculator::Dominant.less_than(c, usage, share));
        // 40% (vcores) against 50% (memory): below, whichever resource dominates.
        assert!(Calculator::Dominant.less_than_single_type(
            c,
            Resource::new(10, 4),
            Resource::new(50, 1)
        ));
        assert!(!Calculator::Dominant.less_than_single_type(c, share, share));
        assert!(Calculator::MemoryOnly.less_than_single_type(c, Resource::new(1, 9), share));
        // A cluster without vcores: plain memory-then-vcores order.
        let no_cpu = Resource::new(100, 0);
        assert!(Calculator::Dominant.less_than_single_type(no_cpu, usage, share));
    }
}
