//! What a trace's apps will cost a run, counted before they are made: a reader adds each app
//! (or each replica set of one, SLS `job.count`) here first, so a trace whose expansion would
//! pass the apps, containers or memory limit of a run (docs/limits.md) is refused at the
//! line that passes it, before the apps are built, instead of exhausting memory on the way.

use crate::app::TaskGroup;
use crate::limits::{MAX_APPS, MAX_RUN_CONTAINERS, MAX_RUN_MEMORY_BYTES};

/// Bytes a run holds per app (its spec, scheduler state, and what its outputs keep of it:
/// 12 bytes for `apps.csv`'s order, 24 for the run's charts, about 60 for the summary at the
/// end): measured on a debug build (100,000 and 400,000 apps on 1,000 nodes held 2.3 KB per
/// app), rounded up.
pub const BYTES_PER_APP: u64 = 2_560;

/// Bytes a run holds per task group beyond [`BYTES_PER_APP`]: the group in the trace and in
/// the run's copy (64 bytes each), its request and progress state in the run, and a few
/// allocations' overhead. Measured on a release build (one app of 400,000 distinct groups
/// from a CSV trace held about 290 bytes a group at its peak), rounded up.
pub const BYTES_PER_GROUP: u64 = 384;

/// Bytes a run holds per host hint beyond the characters of its name (kept twice, as the
/// group is): the `String` of each copy and the resolved request indices.
pub const BYTES_PER_HINT: u64 = 64;

/// What one app costs a run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct AppCost {
    /// Containers its groups ask for.
    pub containers: u64,
    /// Bytes the run holds for it (see [`BYTES_PER_APP`], [`BYTES_PER_GROUP`]).
    pub bytes: u64,
}

impl AppCost {
    /// An app without groups yet.
    pub fn new() -> Self {
        AppCost {
            containers: 0,
            bytes: BYTES_PER_APP,
        }
    }

    /// What one group adds.
    pub fn group(g: &TaskGroup) -> AppCost {
        let hints: u64 = g
            .hosts
            .iter()
            .map(|h| BYTES_PER_HINT + 2 * h.len() as u64)
            .sum();
        AppCost {
            containers: u64::from(g.count),
            bytes: BYTES_PER_GROUP + hints,
        }
    }

    /// An app of `groups`.
    pub fn of<'a>(groups: impl IntoIterator<Item = &'a TaskGroup>) -> AppCost {
        groups
            .into_iter()
            .fold(AppCost::new(), |acc, g| acc.plus(AppCost::group(g)))
    }

    /// The sum of two costs.
    pub fn plus(self, other: AppCost) -> AppCost {
        AppCost {
            containers: self.containers.saturating_add(other.containers),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }
}

/// Which limit a trace would pass, with the run's total had it been admitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exceeded {
    /// Apps of a run ([`MAX_APPS`]).
    Apps(u64),
    /// Containers of a run ([`MAX_RUN_CONTAINERS`]).
    Containers(u64),
    /// Bytes a run would hold ([`MAX_RUN_MEMORY_BYTES`]).
    Memory(u64),
}

impl std::fmt::Display for Exceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Exceeded::Apps(n) => write!(
                f,
                "{n} apps in all: the limit of one run is {MAX_APPS} (docs/limits.md)"
            ),
            Exceeded::Containers(n) => write!(
                f,
                "{n} containers in all: the limit of one run is {MAX_RUN_CONTAINERS} (docs/limits.md)"
            ),
            Exceeded::Memory(b) => write!(
                f,
                "the apps would hold about {:.1} GiB in a run: the limit is {} GiB (docs/limits.md)",
                b as f64 / (1u64 << 30) as f64,
                MAX_RUN_MEMORY_BYTES >> 30
            ),
        }
    }
}

/// The apps, containers and bytes a trace has committed a run to so far.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Apps.
    pub apps: u64,
    /// Containers.
    pub containers: u64,
    /// Bytes.
    pub bytes: u64,
}

impl Budget {
    /// Counts `copies` apps of `cost`, or refuses them (counting nothing) when the run would
    /// pass a limit.
    pub fn admit(&mut self, copies: u64, cost: AppCost) -> Result<(), Exceeded> {
        let next = Budget {
            apps: self.apps.saturating_add(copies),
            containers: self
                .containers
                .saturating_add(copies.saturating_mul(cost.containers)),
            bytes: self.bytes.saturating_add(copies.saturating_mul(cost.bytes)),
        };
        next.check()?;
        *self = next;
        Ok(())
    }

    /// Adds one group to the last admitted app (a CSV row), or refuses it.
    pub fn add_group(&mut self, g: &TaskGroup) -> Result<(), Exceeded> {
        self.add(AppCost::group(g))
    }

    /// Adds `cost` to the last admitted app (groups of it), or refuses it.
    pub fn add(&mut self, cost: AppCost) -> Result<(), Exceeded> {
        let next = Budget {
            containers: self.containers.saturating_add(cost.containers),
            bytes: self.bytes.saturating_add(cost.bytes),
            ..*self
        };
        next.check()?;
        *self = next;
        Ok(())
    }

    fn check(&self) -> Result<(), Exceeded> {
        if self.apps > MAX_APPS {
            return Err(Exceeded::Apps(self.apps));
        }
        if self.containers > MAX_RUN_CONTAINERS {
            return Err(Exceeded::Containers(self.containers));
        }
        if self.bytes > MAX_RUN_MEMORY_BYTES {
            return Err(Exceeded::Memory(self.bytes));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairsim_core::Resource;

    fn group(count: u32, hosts: &[&str]) -> TaskGroup {
        TaskGroup {
            count,
            size: Resource::new(1024, 1),
            duration_ms: 1000,
            priority: 20,
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
            relax_locality: true,
        }
    }

    #[test]
    fn replicas_are_priced_before_they_are_made() {
        // 1,500 one-container groups: 2,560 + 1,500 x 384 = 578,560 bytes an app. A
        // million copies ask 1.5 billion containers; 100,000 copies would hold 53.9 GiB.
        let groups: Vec<TaskGroup> = (0..1500).map(|_| group(1, &[])).collect();
        let cost = AppCost::of(&groups);
        assert_eq!(
            cost,
            AppCost {
                containers: 1500,
                bytes: 578_560
            }
        );
        let mut b = Budget::default();
        assert_eq!(
            b.admit(1_000_000, cost),
            Err(Exceeded::Containers(1_500_000_000))
        );
        assert_eq!(
            b.admit(100_000, cost),
            Err(Exceeded::Memory(57_856_000_000))
        );
        assert_eq!(b, Budget::default(), "nothing counted");
        // 10^6 copies of 10^8 containers: 10^14, refused before any memory is asked for.
        let huge = AppCost::of(&[group(100_000_000, &[])]);
        assert_eq!(
            b.admit(1_000_000, huge),
            Err(Exceeded::Containers(100_000_000_000_000))
        );
        assert_eq!(b.admit(29_000, cost), Ok(()));
        assert_eq!(b.apps, 29_000);
        // Hints cost their names twice and 64 bytes each.
        assert_eq!(
            AppCost::group(&group(2, &["h1", "rack/h22"])).bytes,
            384 + 68 + 80
        );
    }

    #[test]
    fn a_row_past_the_container_limit_is_refused() {
        let mut b = Budget::default();
        b.admit(1, AppCost::new()).unwrap();
        for _ in 0..10 {
            b.add_group(&group(100_000_000, &[])).unwrap();
        }
        assert_eq!(
            b.add_group(&group(1, &[])),
            Err(Exceeded::Containers(1_000_000_001))
        );
        assert_eq!(b.containers, 1_000_000_000);
    }
}
