//! Hadoop's own unit-test cases (hadoop-semantics.md section 9.1, 9.3, 9.4) and the seed
//! documents' worked examples, each pinned to its numbers.

use fairsim_core::share::{
    ShareCap, ShareItem, ShareKind, exact_shares, hadoop_shares, policy_shares, policy_shares_exact,
};
use fairsim_core::{Comparator, Policy, Resource, Schedulable, Semantics};
use std::cmp::Ordering;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];
const INF: i64 = i32::MAX as i64;

/// (min, max, weight) per schedulable, one resource type.
fn check_shares(label: &str, items: &[(i64, i64, f32)], total: i64, expected: &[i64]) {
    let items: Vec<ShareItem> = items
        .iter()
        .map(|&(min, max, weight)| ShareItem {
            weight,
            min,
            max,
            active: true,
        })
        .collect();
    for era in ERAS {
        for kind in [ShareKind::Instantaneous, ShareKind::Steady] {
            assert_eq!(
                hadoop_shares(era, kind, &items, total),
                expected,
                "{label} {era} {kind:?}"
            );
        }
    }
}

#[test]
fn compute_fair_shares_unit_cases() {
    check_shares("equal sharing", &[(0, INF, 1.0); 4], 40, &[10, 10, 10, 10]);
    check_shares(
        "low max shares",
        &[(0, 100, 1.0), (0, 50, 1.0), (0, 11, 1.0), (0, 3, 1.0)],
        40,
        &[13, 13, 11, 3],
    );
    check_shares(
        "min shares",
        &[(20, INF, 1.0), (18, INF, 1.0), (0, INF, 1.0), (2, INF, 1.0)],
        40,
        &[20, 18, 0, 2],
    );
    check_shares(
        "weighted sharing",
        &[(0, INF, 2.0), (0, INF, 1.0), (0, INF, 1.0), (0, INF, 0.5)],
        45,
        &[20, 10, 10, 5],
    );
    check_shares(
        "weighted sharing with max shares",
        &[(0, 10, 2.0), (0, 11, 1.0), (0, 30, 1.0), (0, 20, 0.5)],
        45,
        &[10, 11, 16, 8],
    );
    check_shares(
        "weighted sharing with min shares",
        &[(20, INF, 2.0), (0, INF, 1.0), (5, INF, 1.0), (15, INF, 0.5)],
        45,
        &[20, 5, 5, 15],
    );
    check_shares(
        "large shares",
        &[(0, INF, 1.0); 4],
        40_000_000,
        &[10_000_000; 4],
    );
    check_shares("empty list", &[], 40, &[]);
}

#[test]
fn compute_fair_shares_cpu_under_drf() {
    let list: Vec<Schedulable> = [(20, 2.0), (0, 1.0), (5, 1.0), (15, 0.5)]
        .iter()
        .map(|&(min_vcores, weight)| Schedulable {
            weight,
            min_share: Resource::new(0, min_vcores),
            ..Schedulable::new("q")
        })
        .collect();
    for era in ERAS {
        let shares = policy_shares(
            era,
            Policy::Drf,
            ShareKind::Instantaneous,
            &list,
            Resource::new(0, 45),
            ShareCap::MaxShare,
        );
        let vcores: Vec<i64> = shares.iter().map(|r| r.vcores).collect();
        assert_eq!(vcores, [20, 5, 5, 15], "{era}");
    }
}

#[test]
fn compute_fair_shares_terminates_on_int_overflow() {
    let items = [ShareItem {
        weight: 1.0,
        min: INF,
        max: i64::MAX,
        active: true,
    }; 2];
    for era in ERAS {
        let shares = hadoop_shares(era, ShareKind::Steady, &items, INF);
        assert_eq!(shares, [INF, INF], "{era}: each keeps its min share");
    }
}

#[test]
fn inactive_queues_get_no_instantaneous_share_but_keep_steady() {
    let items = [
        ShareItem {
            weight: 1.0,
            min: 0,
            max: INF,
            active: true,
        },
        ShareItem {
            weight: 1.0,
            min: 0,
            max: INF,
            active: false,
        },
    ];
    for era in ERAS {
        assert_eq!(
            hadoop_shares(era, ShareKind::Instantaneous, &items, 100),
            [100, 0]
        );
        assert_eq!(hadoop_shares(era, ShareKind::Steady, &items, 100), [50, 50]);
    }
}

#[test]
fn hadoop_truncation_sums_above_the_total() {
    // testSimpleFairShareCalculation: three queues on 10240 MB get 3414 MB each (10242).
    check_shares(
        "three thirds",
        &[(0, INF, 1.0); 3],
        10240,
        &[3414, 3414, 3414],
    );
}

fn usage(name: &str, mem: i64, vcores: i64) -> Schedulable {
    Schedulable {
        usage: Resource::new(mem, vcores),
        ..Schedulable::new(name)
    }
}

/// Asserts that `a` is served before `b` (Hadoop's compare < 0) and the converse.
fn check_first(cmp: &Comparator, a: &Schedulable, b: &Schedulable, label: &str) {
    assert_eq!(cmp.compare(a, b), Ordering::Less, "{label}: compare(a, b)");
    assert_eq!(
        cmp.compare(b, a),
        Ordering::Greater,
        "{label}: compare(b, a)"
    );
}

#[test]
fn drf_comparator_cases() {
    let drf =
        |mem, vcores| Comparator::new(Semantics::Hadoop33, Policy::Drf, Resource::new(mem, vcores));
    check_first(
        &drf(8000, 4),
        &usage("a", 1000, 1),
        &usage("b", 2000, 1),
        "same dominant resource",
    );
    check_first(
        &drf(8000, 8),
        &usage("a", 4000, 3),
        &usage("b", 2000, 5),
        "different dominant resource",
    );
    let with_min = |s: Schedulable, mem, vcores| Schedulable {
        min_share: Resource::new(mem, vcores),
        ..s
    };
    check_first(
        &drf(8000, 8),
        &with_min(usage("a", 2000, 5), 0, 6),
        &usage("b", 4000, 3),
        "one is needy",
    );
    check_first(
        &drf(8000, 100),
        &usage("a", 2000, 5),
        &usage("b", 4000, 3),
        "both needy (a)",
    );
    check_first(
        &drf(8000, 100),
        &with_min(usage("a", 2000, 5), 3000, 6),
        &with_min(usage("b", 4000, 3), 5000, 4),
        "both needy (b)",
    );
    let weighted = |s: Schedulable| Schedulable { weight: 2.0, ..s };
    check_first(
        &drf(8000, 8),
        &weighted(usage("a", 3000, 1)),
        &usage("b", 2000, 1),
        "even weights same (1)",
    );
    check_first(
        &drf(8000, 8),
        &weighted(usage("a", 1000, 3)),
        &usage("b", 1000, 2),
        "even weights same (2)",
    );
    check_first(
        &drf(8000, 8),
        &weighted(usage("a", 1000, 3)),
        &usage("b", 2000, 1),
        "even weights different (1)",
    );
    check_first(
        &drf(8000, 8),
        &weighted(usage("a", 3000, 1)),
        &usage("b", 1000, 2),
        "even weights different (2)",
    );
    // The cluster is read live: the same pair flips when the cluster grows.
    let (a, b) = (usage("a", 2000, 1), usage("b", 1000, 2));
    check_first(&drf(4000, 5), &b, &a, "cluster 4000 MB / 5 vcores");
    check_first(&drf(8000, 6), &a, &b, "cluster 8000 MB / 6 vcores");
}

#[test]
fn drf_comparator_cases_hold_in_hadoop27_too() {
    let drf =
        |mem, vcores| Comparator::new(Semantics::Hadoop27, Policy::Drf, Resource::new(mem, vcores));
    check_first(
        &drf(8000, 4),
        &usage("a", 1000, 1),
        &usage("b", 2000, 1),
        "same dominant resource",
    );
    check_first(
        &drf(8000, 8),
        &usage("a", 4000, 3),
        &usage("b", 2000, 5),
        "different dominant resource",
    );
    let (a, b) = (usage("a", 2000, 1), usage("b", 1000, 2));
    check_first(&drf(4000, 5), &b, &a, "cluster 4000 MB / 5 vcores");
    check_first(&drf(8000, 6), &a, &b, "cluster 8000 MB / 6 vcores");
}

#[test]
fn hadoop27_drf_breaks_start_time_ties_with_an_int_cast() {
    let c = Comparator::new(Semantics::Hadoop27, Policy::Drf, Resource::new(100, 10));
    let early = Schedulable {
        start_time_ms: 0,
        ..usage("b", 0, 0)
    };
    let late = Schedulable {
        start_time_ms: 1i64 << 32 | 1,
        ..usage("a", 0, 0)
    };
    // (int)(2^32 + 1) == 1: the later app looks later, as it should, by luck of the bits.
    assert_eq!(c.compare(&early, &late), Ordering::Less);
    let wrapped = Schedulable {
        start_time_ms: 1i64 << 31,
        ..usage("a", 0, 0)
    };
    // (int)(0 - 2^31) == i32::MIN... negative: fine. The other way round overflows:
    // (int)(2^31) == i32::MIN < 0, so the later app is served first: Hadoop 2.7's sign bug.
    assert_eq!(c.compare(&wrapped, &early), Ordering::Less);
    // Equal start times compare equal: 2.7 DRF has no name tie-break.
    assert_eq!(
        c.compare(&usage("a", 0, 0), &usage("b", 0, 0)),
        Ordering::Equal
    );
}

/// hadoop-semantics.md 9.4: every triple of the domain is transitive under 3.3; 2.7's
/// weight-0 NaN ratios make it fail. The domain is TestSchedulingPolicy's
/// (testFairShareComparatorTransitivity): names A-C, start times 1-3, usage 0, 2 or 4 MB
/// with 1 vcore, weights 0, 1 and 2, min share 0 MB / 1 vcore, and, as Hadoop 3's copy adds
/// for its demand step, a demand of 0 MB / 0 vcores or 4 MB / 1 vcore.
fn transitivity_violations(era: Semantics) -> usize {
    let mut all = Vec::new();
    for name in ["A", "B", "C"] {
        for start in [1, 2, 3] {
            for usage in [0, 2, 4] {
                for weight in [0.0f32, 1.0, 2.0] {
                    for demand in [Resource::new(0, 0), Resource::new(4, 1)] {
                        all.push(Schedulable {
                            name: name.into(),
                            weight,
                            start_time_ms: start,
                            min_share: Resource::new(0, 1),
                            max_share: Resource::UNBOUNDED,
                            demand,
                            usage: Resource::new(usage, 1),
                            active: true,
                        });
                    }
                }
            }
        }
    }
    let c = Comparator::new(era, Policy::Fair, Resource::new(1 << 20, 1 << 10));
    let n = all.len();
    let sign: Vec<Vec<Ordering>> = (0..n)
        .map(|i| (0..n).map(|j| c.compare(&all[i], &all[j])).collect())
        .collect();
    let mut bad = 0;
    for a in 0..n {
        for b in 0..n {
            for x in 0..n {
                let (ab, bx, ax) = (sign[a][b], sign[b][x], sign[a][x]);
                let implied = match (ab, bx) {
                    (Ordering::Less, Ordering::Less | Ordering::Equal)
                    | (Ordering::Equal, Ordering::Less) => Some(Ordering::Less),
                    (Ordering::Equal, Ordering::Equal) => Some(Ordering::Equal),
                    _ => None,
                };
                if implied.is_some_and(|o| o != ax) {
                    bad += 1;
                }
            }
        }
    }
    bad
}

#[test]
fn fair_comparator_is_transitive_in_hadoop33() {
    assert_eq!(transitivity_violations(Semantics::Hadoop33), 0);
}

#[test]
fn fair_comparator_is_not_transitive_in_hadoop27_with_weight_zero() {
    assert!(transitivity_violations(Semantics::Hadoop27) > 0);
}

fn seed(usage: i64, min: i64, demand: i64, weight: f32) -> Schedulable {
    Schedulable {
        usage: Resource::new(usage, 0),
        min_share: Resource::new(min, 0),
        demand: Resource::new(demand, 0),
        weight,
        ..Schedulable::new("x")
    }
}

#[test]
fn seed_comparator_examples() {
    for era in ERAS {
        let c = Comparator::new(era, Policy::Fair, Resource::new(100, 100));
        let named = |s: Schedulable, n: &str| Schedulable {
            name: n.into(),
            ..s
        };
        // Case 1: one is starved (usage 1 < min(2, 4)), the other is not (2 < 2 is false).
        check_first(
            &c,
            &named(seed(1, 2, 4, 1.0), "1"),
            &named(seed(2, 2, 4, 1.0), "2"),
            "seed case 1",
        );
        // Case 2: neither starved; usage/weight 2/0.5 = 4 beats 2/0.2 = 10.
        check_first(
            &c,
            &named(seed(2, 2, 4, 0.5), "2"),
            &named(seed(2, 2, 4, 0.2), "1"),
            "seed case 2",
        );
        // Case 3: both starved; 1/3 beats 1/2.
        check_first(
            &c,
            &named(seed(1, 3, 4, 1.0), "2"),
            &named(seed(1, 2, 4, 1.0), "1"),
            "seed case 3",
        );
        // Javadoc: B at 50 of 100 goes before A at 8 of 10.
        check_first(
            &c,
            &named(seed(50, 100, 1000, 1.0), "B"),
            &named(seed(8, 10, 1000, 1.0), "A"),
            "8/10 vs 50/100",
        );
    }
}

fn demand_capped(demands: &[i64], weights: &[f32]) -> Vec<Schedulable> {
    demands
        .iter()
        .zip(weights)
        .enumerate()
        .map(|(i, (&d, &w))| Schedulable {
            name: format!("job{}", i + 1),
            weight: w,
            demand: Resource::new(d, 0),
            ..Schedulable::new("")
        })
        .collect()
}

fn exact_memory(list: &[Schedulable], total: i64) -> Vec<f64> {
    policy_shares_exact(
        Policy::Fair,
        ShareKind::Instantaneous,
        list,
        Resource::new(total, 0),
        ShareCap::Demand,
    )
    .iter()
    .map(|s| s[0])
    .collect()
}

#[test]
fn seed_share_examples_through_the_exact_demand_capped_solver() {
    let queues = demand_capped(&[20, 50, 30], &[1.0; 3]);
    assert_eq!(exact_memory(&queues, 100), [20.0, 50.0, 30.0]);
    let jobs = demand_capped(&[1, 2, 6, 5], &[1.0; 4]);
    assert_eq!(exact_memory(&jobs, 12), [1.0, 2.0, 4.5, 4.5]);
    let weighted = demand_capped(&[4, 2, 10, 4], &[5.0, 8.0, 1.0, 2.0]);
    assert_eq!(exact_memory(&weighted, 16), [4.0, 2.0, 6.0, 4.0]);
}

#[test]
fn hadoop_solver_on_the_seed_examples() {
    let jobs = demand_capped(&[1, 2, 6, 5], &[1.0; 4]);
    for era in ERAS {
        let capped = policy_shares(
            era,
            Policy::Fair,
            ShareKind::Instantaneous,
            &jobs,
            Resource::new(12, 0),
            ShareCap::Demand,
        );
        // Truncation: no R gives exactly 12, so Hadoop settles on 13.
        assert_eq!(
            capped.iter().map(|r| r.memory_mb).collect::<Vec<_>>(),
            [1, 2, 5, 5],
            "{era}"
        );
        // Hadoop's real rule ignores demand: the queue demanding 20 of 100 gets a full third.
        let queues = demand_capped(&[20, 50, 30], &[1.0; 3]);
        let hadoop = policy_shares(
            era,
            Policy::Fair,
            ShareKind::Instantaneous,
            &queues,
            Resource::new(100, 0),
            ShareCap::MaxShare,
        );
        assert_eq!(
            hadoop.iter().map(|r| r.memory_mb).collect::<Vec<_>>(),
            [34, 34, 34],
            "{era}"
        );
    }
}

#[test]
fn exact_solver_matches_hadoop_where_hadoop_is_exact() {
    let items = [
        ShareItem {
            weight: 2.0,
            min: 0,
            max: 10,
            active: true,
        },
        ShareItem {
            weight: 1.0,
            min: 0,
            max: 11,
            active: true,
        },
        ShareItem {
            weight: 1.0,
            min: 0,
            max: 30,
            active: true,
        },
        ShareItem {
            weight: 0.5,
            min: 0,
            max: 20,
            active: true,
        },
    ];
    // R = 16: 10 (capped), 11 (capped), 16, 8: sums to exactly 45.
    assert_eq!(
        exact_shares(ShareKind::Instantaneous, &items, 45.0),
        [10.0, 11.0, 16.0, 8.0]
    );
}
