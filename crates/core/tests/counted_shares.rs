//! Shares of a list given by configuration and count (`hadoop_shares_counted`,
//! `policy_shares_counted`) against the same list written out item by item, bit for bit.

mod common;

use fairsim_core::share::{
    AtMaxSums, ItemClass, ShareItem, ShareKind, hadoop_shares, hadoop_shares_counted,
    hadoop_shares_direct, policy_shares, policy_shares_counted, share_at_max,
};
use fairsim_core::{Policy, Resource, Schedulable, Semantics, ShareCap};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config(cases: u32) -> Config {
    common::fixed_config(cases, 0xc0_0e7ed)
}

/// Configurations as a parent's children have them: a few weights (weight 0 and odd
/// decimals too), mins and maxes from small to past an int (2.7's planned total wraps,
/// 3.3's saturates), min above max, inactive items; counts from 1 to hundreds.
fn entries() -> impl Strategy<Value = Vec<(ShareItem, u64)>> {
    let bound = prop_oneof![
        4 => 0i64..100_000,
        1 => Just(i32::MAX as i64),
        1 => Just(i64::MAX),
        1 => (1i64 << 30)..(1i64 << 40),
    ];
    let item = (
        prop_oneof![
            4 => prop::sample::select(vec![1.0f32, 2.0, 3.0, 4.0, 0.5]),
            1 => (1u32..=4000).prop_map(|w| (w as f64 / 100.0) as f32),
            1 => Just(0.0f32),
        ],
        prop_oneof![3 => Just(0i64), 1 => 0i64..60_000, 1 => bound.clone()],
        bound,
        prop::bool::weighted(0.9),
    )
        .prop_map(|(weight, min, max, active)| ShareItem {
            weight,
            min,
            max,
            active,
        });
    let count = prop_oneof![6 => 1u64..4, 2 => 1u64..60, 1 => 1u64..2_000];
    prop::collection::vec((item, count), 0..30)
}

/// The entries written out item by item, in an order that mixes the configurations: item
/// `i` of the list in entry order goes to place `i × step mod n`, `step` the first number
/// from `stride` up that is coprime with the item count `n`.
fn written_out(entries: &[(ShareItem, u64)], stride: usize) -> (Vec<ShareItem>, Vec<usize>) {
    let in_order: Vec<usize> = (entries.iter().enumerate())
        .flat_map(|(e, &(_, n))| std::iter::repeat_n(e, n as usize))
        .collect();
    let n = in_order.len();
    let gcd = |mut a: usize, mut b: usize| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let step = (stride.max(1)..)
        .find(|&s| gcd(s, n.max(1)) == 1)
        .unwrap_or(1);
    let mut of = vec![0usize; n];
    for (i, &e) in in_order.iter().enumerate() {
        of[i * step % n] = e;
    }
    (of.iter().map(|&e| entries[e].0).collect(), of)
}

proptest! {
    #![proptest_config(config(384))]

    /// Every item of an entry gets the entry's share, in both eras and both kinds, whatever
    /// the order of the written-out list, against the item-by-item sums.
    #[test]
    fn counted_shares_are_the_written_out_shares(
        entries in entries(),
        total in prop_oneof![0i64..10_000_000, Just(i32::MAX as i64), (1i64 << 31)..(1i64 << 45)],
        steady in any::<bool>(),
        stride in 1usize..7,
    ) {
        let kind = if steady { ShareKind::Steady } else { ShareKind::Instantaneous };
        let (items, of) = written_out(&entries, stride);
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let counted = hadoop_shares_counted(era, kind, &entries, total);
            prop_assert_eq!(counted.len(), entries.len());
            let direct = hadoop_shares_direct(era, kind, &items, total);
            let fast = hadoop_shares(era, kind, &items, total);
            for (k, &e) in of.iter().enumerate() {
                prop_assert_eq!(counted[e], direct[k], "{:?} item {} of entry {}", era, k, e);
                prop_assert_eq!(counted[e], fast[k], "{:?} item {} of entry {}", era, k, e);
            }
        }
    }

    /// The policy level: fair (memory only) and DRF (each type), as `policy_shares` over the
    /// written-out active schedulables with the max-share cap.
    #[test]
    fn counted_policy_shares_are_the_written_out_shares(
        classes in prop::collection::vec(
            (
                prop::sample::select(vec![1.0f32, 2.0, 3.0, 4.0, 0.25]),
                0i64..40_000, 0i64..40, 1i64..200_000, 1i64..200, 1u64..400,
            ),
            1..12,
        ),
        total in (0i64..4_000_000, 0i64..4_000),
    ) {
        let classes: Vec<ItemClass> = classes
            .into_iter()
            .map(|(weight, min_mb, min_vc, max_mb, max_vc, count)| ItemClass {
                weight,
                min_share: Resource::new(min_mb, min_vc),
                max_share: Resource::new(min_mb + max_mb, min_vc + max_vc),
                count,
            })
            .collect();
        let mut list = Vec::new();
        let mut of = Vec::new();
        for (e, c) in classes.iter().enumerate() {
            for _ in 0..c.count {
                let mut s = Schedulable::new(String::new());
                s.weight = c.weight;
                s.min_share = c.min_share;
                s.max_share = c.max_share;
                s.active = true;
                list.push(s);
                of.push(e);
            }
        }
        let total = Resource::new(total.0, total.1);
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            for policy in [Policy::Fair, Policy::Drf] {
                let kind = ShareKind::Instantaneous;
                let counted = policy_shares_counted(era, policy, kind, &classes, total)
                    .expect("fair and DRF have counted shares");
                let whole = policy_shares(era, policy, kind, &list, total, ShareCap::MaxShare);
                for (k, &e) in of.iter().enumerate() {
                    prop_assert_eq!(counted[e], whole[k], "{:?} {:?} item {}", era, policy, k);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config(384))]

    /// Sums kept as items join and leave tell when every item gets its max: then the
    /// search's shares are each item's fixed share or max, in both eras; and with finite
    /// weights, small values and a total that covers every such share, they tell so.
    #[test]
    fn at_max_sums_tell_when_every_item_gets_its_max(
        entries in entries(),
        gone in entries(),
        total in prop_oneof![0i64..4_000_000, Just(i32::MAX as i64), (1i64 << 31)..(1i64 << 45)],
    ) {
        let items: Vec<ShareItem> = entries.iter().map(|e| e.0).collect();
        let kind = ShareKind::Instantaneous;
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let mut sums = AtMaxSums::default();
            for (k, item) in items.iter().enumerate() {
                sums.add(era, kind, item, 1);
                // Items that join and leave again leave the sums as they were.
                if let Some(g) = gone.get(k) {
                    sums.add(era, kind, &g.0, 1);
                }
            }
            for g in gone.iter().take(items.len()) {
                sums.add(era, kind, &g.0, -1);
            }
            let at_max: Vec<i64> = items.iter().map(|i| share_at_max(era, kind, i)).collect();
            if sums.every_max_reached(era, total) {
                prop_assert_eq!(hadoop_shares(era, kind, &items, total), at_max.clone(), "{:?}", era);
            }
            let small = items.iter().all(|i| i.weight.is_finite() && i.min < 1 << 20 && i.max < 1 << 20);
            if small && items.len() < 100 && total >= at_max.iter().sum::<i64>() {
                prop_assert!(sums.every_max_reached(era, total), "{:?}", era);
            }
        }
    }
}

/// Two children of weight 1 and one of weight 2 share 8,000 MB: the planned total is 4R,
/// the doubling stops at R = 2048 (8,192 >= 8,000), and the bisection tries 1024, 1536,
/// 1792, 1920, 1984 (all below), 2016 (above), then 2000, an exact hit: 2,000 MB for each
/// child of weight 1, 4,000 MB for the child of weight 2, in both eras.
#[test]
fn two_configurations_worked_by_hand() {
    let item = |weight| ShareItem {
        weight,
        min: 0,
        max: i64::MAX,
        active: true,
    };
    let entries = [(item(1.0), 2), (item(2.0), 1)];
    for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
        assert_eq!(
            hadoop_shares_counted(era, ShareKind::Instantaneous, &entries, 8_000),
            vec![2_000, 4_000],
            "{era:?}"
        );
    }
}

/// FIFO gives the whole total to the earliest start, which a configuration does not tell.
#[test]
fn fifo_has_no_counted_shares() {
    let class = ItemClass {
        weight: 1.0,
        min_share: Resource::ZERO,
        max_share: Resource::new(1_000, 1),
        count: 3,
    };
    let shares = policy_shares_counted(
        Semantics::Hadoop27,
        Policy::Fifo,
        ShareKind::Instantaneous,
        &[class],
        Resource::new(3_000, 3),
    );
    assert_eq!(shares, None);
}

/// Ideal split of two children capped at 3,000 and 5,000 MB (demand below the max share):
/// a total of 8,000 leaves nothing to search (every open max fits), so each gets its max;
/// 7,999 does not, and the search runs. A child that leaves takes its max out of the sums.
#[test]
fn at_max_sums_worked_by_hand() {
    let item = |max| ShareItem {
        weight: 1.0,
        min: 0,
        max,
        active: true,
    };
    let kind = ShareKind::Instantaneous;
    for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let mut sums = AtMaxSums::default();
        sums.add(era, kind, &item(3_000), 1);
        sums.add(era, kind, &item(5_000), 1);
        assert!(sums.every_max_reached(era, 8_000), "{era:?}");
        assert!(!sums.every_max_reached(era, 7_999), "{era:?}");
        assert_eq!(share_at_max(era, kind, &item(5_000)), 5_000);
        sums.add(era, kind, &item(5_000), -1);
        assert!(sums.every_max_reached(era, 3_000), "{era:?}");
        assert!(!sums.every_max_reached(era, 2_999), "{era:?}");
    }
}
