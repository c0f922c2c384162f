//! Request normalisation and the maximum allocation (Hadoop's `SchedulerUtils`
//! `validateResourceRequest` and `normalizeRequest`, `ResourceCalculator.normalize`), as pure
//! functions. docs/semantics.md ("Request normalisation") gives the rules per era.
//!
//! * Validation: an ask with a component above the maximum allocation is refused
//!   (`InvalidResourceRequestException`; the app is rejected).
//! * The maximum allocation in force ([`max_allowed`]) is the configured
//!   `yarn.scheduler.maximum-allocation-*` while the ResourceManager is younger than
//!   `yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms`, and after that the
//!   configured maximum capped, per component, by the largest node
//!   (`ClusterNodeTracker.getMaxAllowedAllocation`).
//! * Normalisation: each normalised component is `min(roundUp(max(ask, minimum), step),
//!   maximum)`. The Fair Scheduler normalises with the dominant resource calculator and the
//!   increment allocation as the step; the Capacity Scheduler with its own calculator and
//!   the minimum allocation as the step. The memory-only calculator sets vcores to 1
//!   (`Resources.createResource(memory)`).

use fairsim_core::{Resource, Semantics};

/// Which components a normalisation rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalizer {
    /// `DominantResourceCalculator.normalize`: memory and vcores.
    Dominant,
    /// `DefaultResourceCalculator.normalize`: memory; vcores become 1 (0 for 0 MB).
    MemoryOnly,
}

/// The allocation settings of a scheduler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AllocationLimits {
    /// `yarn.scheduler.minimum-allocation-mb/-vcores`.
    pub minimum: Resource,
    /// `yarn.scheduler.maximum-allocation-mb/-vcores` as configured.
    pub maximum: Resource,
    /// Rounding step: the Fair Scheduler's increment allocation, the Capacity Scheduler's
    /// minimum allocation.
    pub step: Resource,
    /// How components are rounded.
    pub normalizer: Normalizer,
    /// How long (ms from the start) the configured maximum is used alone.
    pub wait_ms: u64,
}

/// The maximum allocation at `now_ms` with `largest` the largest node's capability.
pub fn max_allowed(limits: &AllocationLimits, now_ms: u64, largest: Resource) -> Resource {
    // Hadoop switches once the RM is older than the wait time (strictly greater).
    if now_ms <= limits.wait_ms {
        return limits.maximum;
    }
    Resource::new(
        limits.maximum.memory_mb.min(largest.memory_mb),
        limits.maximum.vcores.min(largest.vcores),
    )
}

/// `Err` with the reason when `ask` exceeds `max` or is negative
/// (`SchedulerUtils.validateResourceRequest`).
pub fn validate(ask: Resource, max: Resource) -> Result<(), String> {
    if ask.memory_mb < 0 || ask.memory_mb > max.memory_mb {
        return Err(format!(
            "invalid resource request: requested memory {} MB is negative or above the maximum allocation {} MB",
            ask.memory_mb, max.memory_mb
        ));
    }
    if ask.vcores < 0 || ask.vcores > max.vcores {
        return Err(format!(
            "invalid resource request: requested {} vcores is negative or above the maximum allocation {} vcores",
            ask.vcores, max.vcores
        ));
    }
    Ok(())
}

/// Hadoop's `roundUp(a, step)`: 2.x divides by a zero step to 0, 3.x leaves the value.
fn round_up(value: i64, step: i64, semantics: Semantics) -> i64 {
    if step <= 0 {
        return match semantics {
            Semantics::Hadoop27 => 0,
            Semantics::Hadoop33 => value,
        };
    }
    // Asks are validated non-negative before they are normalised.
    let rounded = (value.max(0) as u64).div_ceil(step as u64) * step as u64;
    i64::try_from(rounded).unwrap_or(i64::MAX)
}

fn component(value: i64, min: i64, step: i64, max: i64, semantics: Semantics) -> i64 {
    round_up(value.max(min), step, semantics).min(max)
}

/// The normalised size of `ask` under `limits` with maximum `max`.
pub fn normalize(
    ask: Resource,
    limits: &AllocationLimits,
    max: Resource,
    semantics: Semantics,
) -> Resource {
    let (min, step) = (limits.minimum, limits.step);
    let memory = component(
        ask.memory_mb,
        min.memory_mb,
        step.memory_mb,
        max.memory_mb,
        semantics,
    );
    let vcores = match limits.normalizer {
        Normalizer::Dominant => {
            component(ask.vcores, min.vcores, step.vcores, max.vcores, semantics)
        }
        Normalizer::MemoryOnly => i64::from(memory > 0),
    };
    Resource::new(memory, vcores)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(normalizer: Normalizer, step: Resource) -> AllocationLimits {
        AllocationLimits {
            minimum: Resource::new(1024, 1),
            maximum: Resource::new(8192, 4),
            step,
            normalizer,
            wait_ms: 10_000,
        }
    }

    fn check(l: &AllocationLimits, ask: (i64, i64), expected: (i64, i64)) {
        let got = normalize(
            Resource::new(ask.0, ask.1),
            l,
            l.maximum,
            Semantics::Hadoop27,
        );
        assert_eq!(got, Resource::new(expected.0, expected.1), "ask {ask:?}");
    }

    #[test]
    fn fair_scheduler_rounds_both_components_to_the_increment() {
        let l = limits(Normalizer::Dominant, Resource::new(512, 1));
        check(&l, (1500, 1), (1536, 1));
        check(&l, (100, 0), (1024, 1));
        check(&l, (8000, 3), (8192, 3));
        // Capped at the maximum after rounding.
        let l = limits(Normalizer::Dominant, Resource::new(3000, 3));
        check(&l, (7000, 4), (8192, 4));
    }

    #[test]
    fn capacity_scheduler_memory_only_rounds_to_the_minimum_and_sets_one_vcore() {
        let l = limits(Normalizer::MemoryOnly, Resource::new(1024, 1));
        check(&l, (1500, 3), (2048, 1));
        check(&l, (1024, 4), (1024, 1));
    }

    #[test]
    fn a_zero_step_differs_per_era() {
        let l = limits(Normalizer::Dominant, Resource::new(0, 1));
        let ask = Resource::new(1500, 1);
        assert_eq!(
            normalize(ask, &l, l.maximum, Semantics::Hadoop27).memory_mb,
            0
        );
        assert_eq!(
            normalize(ask, &l, l.maximum, Semantics::Hadoop33).memory_mb,
            1500
        );
    }

    #[test]
    fn the_maximum_is_capped_by_the_largest_node_after_the_wait() {
        let l = limits(Normalizer::Dominant, Resource::new(1024, 1));
        let node = Resource::new(4096, 8);
        assert_eq!(max_allowed(&l, 10_000, node), Resource::new(8192, 4));
        assert_eq!(max_allowed(&l, 10_001, node), Resource::new(4096, 4));
    }

    #[test]
    fn validation_names_the_component_and_the_limit() {
        let max = Resource::new(8192, 4);
        assert!(validate(Resource::new(8192, 4), max).is_ok());
        let e = validate(Resource::new(8193, 1), max).unwrap_err();
        assert!(e.contains("8193") && e.contains("8192 MB"), "{e}");
        let e = validate(Resource::new(1024, 5), max).unwrap_err();
        assert!(e.contains("5 vcores") && e.contains("4 vcores"), "{e}");
    }
}
