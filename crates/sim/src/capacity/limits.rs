//! The limit each queue is held to while a node is offered down the tree (Hadoop's
//! `ResourceLimits`), per era.
//!
//! A queue's *own* maximum is its absolute maximum capacity of the cluster:
//!
//! * Hadoop 2.7 (`AbstractCSQueue.getCurrentLimitResource`, `multiplyAndNormalizeDown`):
//!   `cluster × absoluteMaximum`, truncated, then rounded down to the minimum allocation.
//! * Hadoop 3.3 (`getEffectiveMaxCapacity`, set by `ParentQueue` with `Resources.multiply`):
//!   `cluster × absoluteMaximum`, truncated; the root's is the cluster.
//!
//! A parent hands each child a limit (`ParentQueue.getResourceLimitsOfChild`): what the parent
//! may still take plus what the child holds, capped by the child's maximum rounded down to the
//! minimum allocation, the whole rounded down to the minimum allocation:
//!
//! ```text
//! childLimit = roundDown(min(parentLimit − blocked − parentUsed + childUsed,
//!                            roundDown(childMax, minAlloc)), minAlloc)
//! ```
//!
//! `blocked` is 0 in Hadoop 2.7. In Hadoop 3.3 it is the headroom left by the siblings tried
//! before in the same offer that were skipped for their queue limit (`addBlockedHeadroom`,
//! `getNetLimit`). A queue's current limit is `min(own maximum, limit from its parent)`; the
//! root gets the cluster.
//!
//! What a queue is refused on:
//!
//! * Hadoop 2.7 (`canAssignToThisQueue(…, required)`): `used + required > current limit`,
//!   with the minimum allocation as `required` at a parent and the ask at a leaf, where the
//!   refusal ends the leaf's turn.
//! * Hadoop 3.3: `used ≥ current limit` at any queue (`canAssignToThisQueue`); at a leaf an
//!   ask above the headroom `current limit − used` (`RegularContainerAllocator.checkHeadroom`)
//!   ends the leaf's turn as skipped for its queue limit, and that headroom is blocked for the
//!   leaf's later siblings.
//!
//! Arithmetic is per component; `min`, `max` and the comparisons use the calculator.

use fairsim_core::{Calculator, Resource, Semantics};

/// Rounds each component the calculator counts down to a multiple of `step`
/// (`ResourceCalculator.roundDown`; a zero step leaves it). Java's division truncates toward
/// zero, so a negative value rounds up to the step.
pub fn round_down(calc: Calculator, r: Resource, step: Resource) -> Resource {
    let down = |v: i64, s: i64| if s <= 0 { v } else { v / s * s };
    match calc {
        // The memory-only calculator rounds memory alone.
        Calculator::MemoryOnly => Resource::new(down(r.memory_mb, step.memory_mb), r.vcores),
        Calculator::Dominant => Resource::new(
            down(r.memory_mb, step.memory_mb),
            down(r.vcores, step.vcores),
        ),
    }
}

/// Component-wise `a − b`, negative when `b` is larger (Java's `Resources.subtract`).
pub fn subtract(a: Resource, b: Resource) -> Resource {
    a.saturating_sub(b)
}

/// A queue's own maximum resource in `era` (see the module text).
pub fn queue_max(
    era: Semantics,
    calc: Calculator,
    cluster: Resource,
    absolute_max: f64,
    min_alloc: Resource,
) -> Resource {
    let truncated = super::scale(cluster, absolute_max);
    match era {
        Semantics::Hadoop27 => round_down(calc, truncated, min_alloc),
        Semantics::Hadoop33 => truncated,
    }
}

/// `ParentQueue.getResourceLimitsOfChild`: the limit a parent at `parent_used`, held to
/// `parent_net` (its limit less any blocked headroom), hands a child holding `child_used`
/// whose own maximum is `child_max`.
pub fn child_limit(
    calc: Calculator,
    cluster: Resource,
    parent_net: Resource,
    parent_used: Resource,
    child_used: Resource,
    child_max: Resource,
    min_alloc: Resource,
) -> Resource {
    let limit = subtract(parent_net, parent_used).saturating_add(child_used);
    let capped = calc.min(cluster, limit, round_down(calc, child_max, min_alloc));
    round_down(calc, capped, min_alloc)
}

/// Whether a queue at `used` under `current` (its current limit) is open to the offer at all:
/// 2.7 with `required` the minimum allocation at a parent or the ask at a leaf, 3.3 without.
pub fn queue_open(
    era: Semantics,
    calc: Calculator,
    cluster: Resource,
    used: Resource,
    required: Resource,
    current: Resource,
) -> bool {
    match era {
        Semantics::Hadoop27 => !calc.greater_than(cluster, used.saturating_add(required), current),
        Semantics::Hadoop33 => calc.less_than(cluster, used, current),
    }
}

/// Hadoop 3.3's `checkHeadroom`: whether an ask of `required` fits the leaf's headroom.
pub fn fits_headroom(
    calc: Calculator,
    cluster: Resource,
    headroom: Resource,
    required: Resource,
) -> bool {
    !calc.less_than(cluster, headroom, required)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: i64 = 1024;

    fn mb(m: i64) -> Resource {
        Resource::new(m, 0)
    }

    #[test]
    fn own_maximum_per_era() {
        // 10 × 8 GB at 57 %: 46694.4 MB, truncated to 46694; 2.7 rounds it down to 46080.
        let c = mb(80 * GB);
        let m = Resource::new(GB, 1);
        let calc = Calculator::MemoryOnly;
        assert_eq!(
            queue_max(Semantics::Hadoop33, calc, c, 0.57, m).memory_mb,
            46_694
        );
        assert_eq!(
            queue_max(Semantics::Hadoop27, calc, c, 0.57, m).memory_mb,
            46_080
        );
    }

    #[test]
    fn a_child_is_held_to_what_its_parent_may_still_take() {
        let calc = Calculator::MemoryOnly;
        let c = mb(80 * GB);
        let m = mb(GB);
        // Parent limit 46080 (46694 rounded down), parent holds 40960 of which the child 20480:
        // 46080 − 40960 + 20480 = 25600, below the child's own maximum.
        let l = child_limit(calc, c, mb(46_080), mb(40_960), mb(20_480), mb(46_694), m);
        assert_eq!(l.memory_mb, 25_600);
        // The headroom it leaves (5120) takes one more 4 GB container, not two.
        assert!(fits_headroom(calc, c, subtract(l, mb(20_480)), mb(4 * GB)));
        // At 45056 the headroom is 1024: no 4 GB container.
        let l = child_limit(calc, c, mb(46_080), mb(45_056), mb(20_480), mb(46_694), m);
        assert_eq!(l.memory_mb, 21_504);
        assert!(!fits_headroom(calc, c, subtract(l, mb(20_480)), mb(4 * GB)));
        // Blocked headroom comes off the parent's limit before the rounding:
        // 81920 − 2457 − 32768 + 0 = 46695 → 46080.
        let l = child_limit(
            calc,
            c,
            subtract(mb(80 * GB), mb(2457)),
            mb(32_768),
            mb(0),
            mb(80 * GB),
            m,
        );
        assert_eq!(l.memory_mb, 46_080);
    }

    #[test]
    fn queue_open_per_era() {
        let calc = Calculator::MemoryOnly;
        let c = mb(80 * GB);
        // 2.7 counts the required resource, 3.3 only whether the limit is reached.
        assert!(!queue_open(
            Semantics::Hadoop27,
            calc,
            c,
            mb(45_056),
            mb(GB),
            mb(45_568)
        ));
        assert!(queue_open(
            Semantics::Hadoop33,
            calc,
            c,
            mb(45_056),
            mb(GB),
            mb(45_568)
        ));
        assert!(!queue_open(
            Semantics::Hadoop33,
            calc,
            c,
            mb(45_568),
            mb(GB),
            mb(45_568)
        ));
    }

    #[test]
    fn round_down_per_calculator() {
        let r = Resource::new(2500, 5);
        let s = Resource::new(1024, 2);
        assert_eq!(
            round_down(Calculator::MemoryOnly, r, s),
            Resource::new(2048, 5)
        );
        assert_eq!(
            round_down(Calculator::Dominant, r, s),
            Resource::new(2048, 4)
        );
        assert_eq!(
            round_down(Calculator::Dominant, Resource::new(-100, 1), s),
            Resource::new(0, 0)
        );
    }
}
