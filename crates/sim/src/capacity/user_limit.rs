//! The Capacity Scheduler's user limit (`LeafQueue.computeUserLimit`, Hadoop 2.x;
//! `UsersManager.computeUserLimit` for the active users' limit, Hadoop 3.x), §8:
//! `required` is the container being placed in Hadoop 2.7 and the minimum allocation from
//! 2.8 on; the caller chooses per era.
//!
//! ```text
//! queueCapacity (2.7) = max(multiplyAndNormalizeUp(cluster, absoluteCapacity, minAlloc), required)
//! queueCapacity (3.x) = max((long)(cluster × absoluteCapacity), minAlloc)
//! currentCapacity = queueCapacity            if usage < queueCapacity
//!                 = usage + required          otherwise
//! perUser (2.x)   = ceil(currentCapacity / activeUsers)             long division
//! perUser (3.x)   = ceil((activeUsersUsage + required) / activeUsers) float division
//! limit = roundUp(min(max(perUser,
//!                         ceil(floor(currentCapacity × minimumUserLimitPercent) / 100)),
//!                     floor(queueCapacity × userLimitFactor)),
//!                 minAlloc)
//! ```
//!
//! Hadoop 2.7's `multiplyAndNormalizeUp` rounds the product to the nearest integer
//! (`(int)(v × by + 0.5)`) with the default calculator and up (`Math.ceil`) with the
//! dominant one, then up to a multiple of the minimum allocation. Hadoop 3.x takes the
//! queue's effective capacity (`getEffectiveCapacity`, `Resources.multiply`: truncated) with
//! the minimum allocation as a floor, not rounded to it.
//!
//! Hadoop 3.x divides the resources of the *active* users (those with outstanding asks)
//! plus `required` by the sum of their weights, a Java float (1 each: fairsim has no user
//! weights), with `divideAndCeil(long, float)`: `(long) Math.ceil(a / b)` where `a / b` is a
//! float division, so above 2^24 MB the quotient is rounded to 24 bits before the ceiling.
//! Its `consumed` is the cluster times the sum of the users' usage ratios (floats) rounded
//! up to the minimum allocation; fairsim reads the leaf's usage, which a ratio's float
//! error alone would change.
//!
//! `max`, `min` and `<` use the configured resource calculator; the arithmetic is per
//! component. A user whose usage exceeds the limit gets nothing more (§8 marks the check
//! itself as inferred; see [`user_may_allocate`]).

use fairsim_core::{Calculator, Resource, Semantics};

/// Inputs of one user-limit computation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UserLimitInput {
    /// The era, which sizes the queue capacity (see the module text).
    pub semantics: Semantics,
    /// The calculator (`yarn.scheduler.capacity.resource-calculator`).
    pub calc: Calculator,
    /// Cluster size.
    pub cluster: Resource,
    /// The leaf's absolute capacity (fraction of the cluster).
    pub absolute_capacity: f64,
    /// The container being placed (2.7), or the minimum allocation (3.x).
    pub required: Resource,
    /// The leaf's current usage.
    pub queue_usage: Resource,
    /// Users with pending requests (Hadoop 2.x uses at least 1).
    pub active_users: u32,
    /// Hadoop 3.x: the usage in the leaf of the users with pending requests, divided with
    /// `required` among them. `None`: Hadoop 2.x divides the current capacity.
    pub active_users_usage: Option<Resource>,
    /// `minimum-user-limit-percent` (default 100), a Java float (Hadoop 2.7's int is
    /// exact in it).
    pub minimum_user_limit_percent: f32,
    /// `user-limit-factor` (default 1).
    pub user_limit_factor: f64,
    /// `yarn.scheduler.minimum-allocation-*` (default 1024 MB, 1 vcore).
    pub minimum_allocation: Resource,
    /// Hadoop 3.x: the leaf's effective capacity (`getEffectiveCapacity`: the effective
    /// minimum of an absolute resource); `None`: the cluster × absolute capacity, truncated.
    pub effective_capacity: Option<Resource>,
    /// Hadoop 3.x: the leaf's effective maximum, the cap of a user-limit-factor of −1
    /// (`None`: the cluster).
    pub effective_maximum: Option<Resource>,
}

fn round_up(v: i64, step: i64) -> i64 {
    if step <= 0 {
        return v;
    }
    (v + step - 1).div_euclid(step) * step
}

fn round_up_r(r: Resource, step: Resource) -> Resource {
    Resource::new(
        round_up(r.memory_mb, step.memory_mb),
        round_up(r.vcores, step.vcores),
    )
}

fn ceil_div(r: Resource, by: i64) -> Resource {
    let d = |v: i64| (v + by - 1).div_euclid(by);
    Resource::new(d(r.memory_mb), d(r.vcores))
}

/// `Resources.divideAndCeil(calc, r, float)` of Hadoop 3.x: per component
/// `(long) Math.ceil(v / by)` with `v / by` in float (0 when `by` is 0).
fn ceil_div_float(r: Resource, by: f32) -> Resource {
    let d = |v: i64| {
        if by == 0.0 {
            0
        } else {
            // `as` saturates like Java's (long) cast of a double.
            f64::from((v as f32 / by).ceil()) as i64
        }
    };
    Resource::new(d(r.memory_mb), d(r.vcores))
}

fn mul_floor(r: Resource, by: f64) -> Resource {
    Resource::new(
        (r.memory_mb as f64 * by).floor() as i64,
        (r.vcores as f64 * by).floor() as i64,
    )
}

/// Hadoop 2.7's `Resources.multiplyAndNormalizeUp(calc, r, by, step)`: per component the
/// product rounded to the nearest integer (default calculator) or up (dominant calculator),
/// narrowed to a Java int, then rounded up to a multiple of the step.
pub fn multiply_and_normalize_up_27(
    calc: Calculator,
    r: Resource,
    by: f64,
    step: Resource,
) -> Resource {
    let product = |v: i64| -> i64 {
        let x = v as f64 * by;
        // `(int)` of a double saturates at the int range, as Rust's `as` does.
        match calc {
            Calculator::MemoryOnly => (x + 0.5) as i32 as i64,
            Calculator::Dominant => x.ceil() as i32 as i64,
        }
    };
    round_up_r(Resource::new(product(r.memory_mb), product(r.vcores)), step)
}

/// The leaf's capacity as the user limit sees it, per era (see the module text).
pub fn queue_capacity(i: &UserLimitInput) -> Resource {
    match i.semantics {
        Semantics::Hadoop27 => {
            let cap = multiply_and_normalize_up_27(
                i.calc,
                i.cluster,
                i.absolute_capacity,
                i.minimum_allocation,
            );
            i.calc.max(i.cluster, cap, i.required)
        }
        Semantics::Hadoop33 => {
            let cap = i
                .effective_capacity
                .unwrap_or_else(|| crate::capacity::scale(i.cluster, i.absolute_capacity));
            i.calc.max(i.cluster, cap, i.minimum_allocation)
        }
    }
}

/// The user limit of §8.
pub fn user_limit(i: &UserLimitInput) -> Resource {
    let c = i.calc;
    let queue_cap = queue_capacity(i);
    let current = if c.less_than(i.cluster, i.queue_usage, queue_cap) {
        queue_cap
    } else {
        i.queue_usage.saturating_add(i.required)
    };
    let per_user = match i.active_users_usage {
        None => ceil_div(current, i64::from(i.active_users.max(1))),
        // Each active user's weight is 1.0f; their sum is exact in a float.
        Some(used) => ceil_div_float(used.saturating_add(i.required), i.active_users as f32),
    };
    let min_percent = ceil_div(
        // `multiplyAndRoundDown(currentCapacity, getUserLimit())`: the float percent widened
        // to a double, as Java passes it.
        mul_floor(current, f64::from(i.minimum_user_limit_percent)),
        100,
    );
    // Hadoop 3.x reads a factor of −1 as no user limit: the leaf's effective maximum rounded
    // down to the minimum allocation (`getEffectiveMaxCapacityDown`).
    let factor_cap = if i.semantics == Semantics::Hadoop33 && i.user_limit_factor == -1.0 {
        super::limits::round_down(
            c,
            i.effective_maximum.unwrap_or(i.cluster),
            i.minimum_allocation,
        )
    } else {
        mul_floor(queue_cap, i.user_limit_factor)
    };
    let limit = c.min(
        i.cluster,
        c.max(i.cluster, per_user, min_percent),
        factor_cap,
    );
    round_up_r(limit, i.minimum_allocation)
}

/// Whether a user at `user_usage` may be given `required` under `limit`: YARN 2.x refuses
/// when the user's usage is already strictly above the limit (calculator comparison).
pub fn user_may_allocate(
    calc: Calculator,
    cluster: Resource,
    user_usage: Resource,
    limit: Resource,
) -> bool {
    !calc.greater_than(cluster, user_usage, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(usage: i64, users: u32, mulp: u32, ulf: f64) -> UserLimitInput {
        UserLimitInput {
            semantics: Semantics::Hadoop27,
            calc: Calculator::MemoryOnly,
            cluster: Resource::new(100 * 1024, 100),
            absolute_capacity: 0.3,
            required: Resource::new(1024, 1),
            queue_usage: Resource::new(usage, 0),
            active_users: users,
            active_users_usage: None,
            minimum_user_limit_percent: mulp as f32,
            user_limit_factor: ulf,
            minimum_allocation: Resource::new(1024, 1),
            effective_capacity: None,
            effective_maximum: None,
        }
    }

    fn check(i: UserLimitInput, expected_mb: i64) {
        assert_eq!(user_limit(&i).memory_mb, expected_mb, "{i:?}");
    }

    #[test]
    fn hand_computed_cases() {
        // Queue capacity: 102400 × 0.3 = 30720 (already a multiple of 1024).
        assert_eq!(queue_capacity(&input(0, 1, 100, 1.0)).memory_mb, 30_720);
        // One user, defaults: max(30720/1, 30720×100/100) = 30720, capped by 30720 × 1.
        check(input(0, 1, 100, 1.0), 30_720);
        // Two users, min limit 25%: max(15360, 7680) = 15360.
        check(input(0, 2, 25, 1.0), 15_360);
        // Five users, min limit 25%: max(6144, 7680) = 7680 → rounded up to 8192.
        check(input(0, 5, 25, 1.0), 8192);
        // Three users, 25%: ceil(30720/3) = 10240.
        check(input(0, 3, 25, 1.0), 10_240);
        // Seven users, 10%: ceil(30720/7) = 4389 → rounded up to 5120.
        check(input(0, 7, 10, 1.0), 5120);
        // Queue over capacity (usage 40960 ≥ 30720): current = 40960 + 1024 = 41984;
        // one user: 41984, capped by 30720 × factor 2 = 61440 → 41984 (= 41 × 1024).
        check(input(40_960, 1, 100, 2.0), 41_984);
        // Same with factor 1: capped at 30720.
        check(input(40_960, 1, 100, 1.0), 30_720);
        // Two users over capacity, factor 3: ceil(41984 / 2) = 20992 (multiple of 1024? 20.5
        // × 1024 → rounded up to 21504).
        check(input(40_960, 2, 100, 3.0), 41_984);
        check(input(40_960, 2, 50, 3.0), 21_504);
    }

    #[test]
    fn a_decimal_percent_is_used_as_the_java_float() {
        // TestLeafQueue's testDecimalUserLimits, its second container: queue a at 8.5 % of
        // 16 GB (1392.64 MB, rounded up to 2048), usage 3072 MB above it, so current =
        // 3072 + 1024 = 4096; two users; factor 2 caps at 4096. With 50.1 % (the float
        // 50.099998474121094): floor(4096 × 50.0999...) = 205209, ceil(/100) = 2053 MB, above
        // 4096 / 2 = 2048, rounded up to 3072: user_0's 3072 MB is not above it. With 50 %:
        // 2048, and user_0 is over.
        let i = |percent: f32| UserLimitInput {
            cluster: Resource::new(16 * 1024, 32),
            absolute_capacity: 0.085,
            queue_usage: Resource::new(3072, 3),
            active_users: 2,
            minimum_user_limit_percent: percent,
            user_limit_factor: 2.0,
            ..input(0, 1, 100, 1.0)
        };
        check(i(50.1), 3072);
        check(i(50.0), 2048);
    }

    #[test]
    fn hadoop33_divides_the_active_users_usage_in_float() {
        // One leaf with the whole cluster (2^26 MB), minimum allocation 1 MB, one active
        // user holding 2^25 + 1 MB, minimum-user-limit-percent 1, factor 1.
        // queueCapacity = 67108864; usage below it, so currentCapacity = 67108864.
        // Second term: ceil(floor(67108864 × 1.0) / 100) = 671089. Factor cap: 67108864.
        let i = UserLimitInput {
            semantics: Semantics::Hadoop33,
            cluster: Resource::new(1 << 26, 64),
            absolute_capacity: 1.0,
            required: Resource::new(1, 1),
            queue_usage: Resource::new((1 << 25) + 1, 1),
            active_users: 1,
            active_users_usage: Some(Resource::new((1 << 25) + 1, 1)),
            minimum_user_limit_percent: 1.0,
            user_limit_factor: 1.0,
            minimum_allocation: Resource::new(1, 1),
            effective_capacity: None,
            effective_maximum: None,
            ..input(0, 1, 100, 1.0)
        };
        // Hadoop 3.x: (2^25 + 1 + 1) / 1.0f; 33554434 is halfway between the floats
        // 2^25 and 2^25 + 4 and rounds to the even one, 33554432: the limit is 33554432, so
        // the user at 33554433 MB is above it and refused. Long division would give
        // 33554434, and the user would be served.
        check(i, 33_554_432);
        assert!(!user_may_allocate(
            i.calc,
            i.cluster,
            i.queue_usage,
            user_limit(&i)
        ));
        // Below 2^24 the float quotient is exact: (3072 + 1) / 3.0f = 1024.33 → 1025.
        let small = UserLimitInput {
            queue_usage: Resource::new(3072, 3),
            active_users: 3,
            active_users_usage: Some(Resource::new(3072, 3)),
            ..i
        };
        check(small, 671_089);
        let above = UserLimitInput {
            minimum_user_limit_percent: 0.001,
            ..small
        };
        // ceil(floor(67108864 × 0.001) / 100) = ceil(67108 / 100) = 672 < 1025.
        check(above, 1025);
        // Hadoop 2.x's division of the current capacity: ceil(67108864 / 3) = 22369622.
        check(
            UserLimitInput {
                active_users_usage: None,
                ..above
            },
            22_369_622,
        );
    }

    #[test]
    fn capacity_rounds_up_to_the_minimum_allocation() {
        // 10000 MB × 0.25 = 2500 → 3072.
        let i = UserLimitInput {
            cluster: Resource::new(10_000, 10),
            absolute_capacity: 0.25,
            ..input(0, 1, 100, 1.0)
        };
        assert_eq!(queue_capacity(&i).memory_mb, 3072);
        check(i, 3072);
        // A container bigger than the queue: the capacity becomes the container.
        let i = UserLimitInput {
            required: Resource::new(4096, 1),
            ..i
        };
        assert_eq!(queue_capacity(&i).memory_mb, 4096);
    }

    #[test]
    fn queue_capacity_rounding_per_era_and_calculator() {
        // 3073 MB × 1/3 = 1024.33: Hadoop 2.7's default calculator rounds to the nearest MB
        // (1024, already a step), its dominant calculator up (1025 → 2048); Hadoop 3.3
        // truncates (1024) and only floors at the minimum allocation.
        let i = |semantics, calc| UserLimitInput {
            semantics,
            calc,
            cluster: Resource::new(3073, 3),
            absolute_capacity: 1.0 / 3.0,
            ..input(0, 1, 100, 1.0)
        };
        let cap = |s, c| queue_capacity(&i(s, c)).memory_mb;
        assert_eq!(cap(Semantics::Hadoop27, Calculator::MemoryOnly), 1024);
        assert_eq!(cap(Semantics::Hadoop27, Calculator::Dominant), 2048);
        assert_eq!(cap(Semantics::Hadoop33, Calculator::MemoryOnly), 1024);
        // 80 GB at 33 %: 27033.6 MB. 2.7: 27034 → 27648; 3.3: 27033. With
        // user-limit-factor 2 one user's limit is 55296 MB in 2.7 and roundUp(54066) = 54272
        // in 3.3.
        let q = |semantics| UserLimitInput {
            semantics,
            cluster: Resource::new(80 * 1024, 80),
            absolute_capacity: 0.33,
            queue_usage: Resource::new(60 * 1024, 60),
            ..input(0, 1, 100, 2.0)
        };
        assert_eq!(queue_capacity(&q(Semantics::Hadoop27)).memory_mb, 27_648);
        assert_eq!(queue_capacity(&q(Semantics::Hadoop33)).memory_mb, 27_033);
        check(q(Semantics::Hadoop27), 55_296);
        check(q(Semantics::Hadoop33), 54_272);
        // A leaf smaller than the minimum allocation: 3.3 floors it at the minimum.
        let tiny = UserLimitInput {
            absolute_capacity: 0.001,
            ..q(Semantics::Hadoop33)
        };
        assert_eq!(queue_capacity(&tiny).memory_mb, 1024);
    }

    #[test]
    fn users_above_the_limit_are_refused() {
        let c = Calculator::MemoryOnly;
        let cl = Resource::new(10_000, 10);
        assert!(user_may_allocate(
            c,
            cl,
            Resource::new(3072, 0),
            Resource::new(3072, 0)
        ));
        assert!(!user_may_allocate(
            c,
            cl,
            Resource::new(4096, 0),
            Resource::new(3072, 0)
        ));
    }
}
