//! The Capacity Scheduler's queue limits and user-limit capacity through the whole simulator,
//! in both eras: each queue saturates the cluster with tasks that outlive the run, so what a
//! queue holds at the end is the steady usage its limits allow. The numbers are worked from
//! Hadoop's code in each test's comment (`capacity::limits`, `capacity::user_limit`).

mod common;

use common::apps::{GB, one_stage};
use common::capacity::{held, scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

const TEN_BY_8GB: (u32, Resource) = (10, Resource::new(8 * GB, 8));

/// A parent at maximum-capacity 57 % with two children, its sibling idle: 10 × 8 GB =
/// 81920 MB; 81920 × 0.57 = 46694.4.
/// * Hadoop 2.7: the parent's maximum is 46694 rounded down to 1024, 46080. Each child's
///   limit is 46080 − parent used + child used, and a leaf refuses an ask when used + ask is
///   above it: parent used + 4096 ≤ 46080, so the parent stops at 45056 (11 containers).
/// * Hadoop 3.3: the parent's maximum is 46694; the root hands it roundDown(46694) = 46080
///   and each child gets roundDown(46080 − parent used + child used); a leaf's headroom is
///   46080 − parent used, which must take the 4096 MB ask: 45056 again.
///
/// Checking the parent with the minimum allocation alone (45056 + 1024 ≤ 46694) and each leaf
/// against its own maximum let it reach 49152.
#[test]
fn a_parent_is_held_to_its_maximum_capacity_through_its_children() {
    let props = [
        ("root.queues", "p,q"),
        ("root.p.capacity", "50"),
        ("root.p.maximum-capacity", "57"),
        ("root.p.queues", "x,y"),
        ("root.p.x.capacity", "50"),
        ("root.p.x.user-limit-factor", "4"),
        ("root.p.y.capacity", "50"),
        ("root.p.y.user-limit-factor", "4"),
        ("root.q.capacity", "50"),
    ];
    let (n, node) = TEN_BY_8GB;
    for era in ERAS {
        let got = held(era, &props, n, node, &["x", "y"], 20, 4 * GB);
        assert_eq!(got.iter().sum::<i64>(), 45_056, "{era}: {got:?}");
        // With 1 GB asks the same limits allow 46080 (45 containers) in both eras: 2.7's
        // parent check 45056 + 1024 ≤ 46080, 3.3's headroom 46080 − 45056 ≥ 1024.
        let got = held(era, &props, n, node, &["x", "y"], 60, GB);
        assert_eq!(got.iter().sum::<i64>(), 46_080, "{era}: {got:?}");
    }
}

/// A 33 % leaf, user-limit-factor 2, one user with 1 GB asks on 10 × 8 GB (81920 MB;
/// 81920 × 0.33 = 27033.6). A user is served while its usage is not above its limit.
/// * Hadoop 2.7 (`multiplyAndNormalizeUp`, default calculator): (int)(27033.6 + 0.5) = 27034,
///   rounded up to 27648; the limit is 27648 × 2 = 55296, so the user holds 56320.
/// * Hadoop 3.3 (effective capacity, truncated): 27033; 27033 × 2 = 54066, rounded up to
///   54272: the user holds 55296.
#[test]
fn the_user_limit_factor_scales_each_eras_queue_capacity() {
    let props = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "33"),
        ("root.a.user-limit-factor", "2"),
        ("root.b.capacity", "67"),
    ];
    let (n, node) = TEN_BY_8GB;
    for (era, expected) in [(Semantics::Hadoop27, 56_320), (Semantics::Hadoop33, 55_296)] {
        let got = held(era, &props, n, node, &["a"], 80, GB);
        assert_eq!(got, vec![expected], "{era}");
    }
}

/// Hadoop 2.7 rounds cluster × capacity to the nearest MB with the default calculator and up
/// with the dominant one before rounding up to the minimum allocation. One node of 4097 MB /
/// 8 vcores, leaf a at 25 % (1024.25 MB; 2 vcores), factor 1, one user with 1 GB / 1 vcore asks:
/// * default calculator: 1024 → limit 1024, the user holds 2048 (1024 is not above 1024);
/// * dominant calculator: ceil 1025 → 2048 MB (and 2 vcores): the user holds 3072.
///
/// Hadoop 3.3 truncates (1024) with either calculator: 2048.
#[test]
fn hadoop27_rounds_the_queue_capacity_as_its_calculator_does() {
    const DOMINANT: &str = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";
    let base = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "25"),
        ("root.b.capacity", "75"),
    ];
    let node = Resource::new(4097, 8);
    let dominant: Vec<(&str, &str)> = base
        .iter()
        .copied()
        .chain([("resource-calculator", DOMINANT)])
        .collect();
    for (era, props, expected) in [
        (Semantics::Hadoop27, &base[..], 2048),
        (Semantics::Hadoop27, &dominant[..], 3072),
        (Semantics::Hadoop33, &base[..], 2048),
        (Semantics::Hadoop33, &dominant[..], 2048),
    ] {
        let got = held(era, props, 1, node, &["a"], 4, GB);
        assert_eq!(got, vec![expected], "{era} {props:?}");
    }
}

/// a (40 %, maximum 43 %), b (40 %) and c (20 %, left idle), user-limit-factor 2 on a and b.
const A_CAPPED_B_C_IDLE: [(&str, &str); 7] = [
    ("root.queues", "a,b,c"),
    ("root.a.capacity", "40"),
    ("root.a.maximum-capacity", "43"),
    ("root.a.user-limit-factor", "2"),
    ("root.b.capacity", "40"),
    ("root.b.user-limit-factor", "2"),
    ("root.c.capacity", "20"),
];

/// Hadoop 3.3's blocked headroom: a at 40 % with maximum 43 %, b at 40 %, c at 20 % idle, 4 GB
/// asks on 10 × 8 GB. a stops at 32768 (8 containers): its limit is
/// min(81920 × 0.43 = 35225, roundDown(35225) = 34816) and 32768 + 4096 is above it. Once a is
/// there it is always offered the node first (used ÷ guaranteed 1.0, b's above 1):
/// * Hadoop 3.3: a is skipped for its queue limit with headroom 34816 − 32768 = 2048, which
///   comes off the root's limit for b: roundDown(81920 − 2048 − root used + b used). With b at
///   40960 that is 47104, headroom 6144: b takes one more; at 45056 the headroom is 2048 and
///   the last 4 GB stays idle. b holds 45056.
/// * Hadoop 2.7 has no blocked headroom: b's limit is 81920 − 32768 = 49152, and b holds it.
#[test]
fn a_sibling_skipped_for_its_limit_blocks_its_headroom_in_hadoop33() {
    let props = A_CAPPED_B_C_IDLE;
    let (n, node) = TEN_BY_8GB;
    for (era, b) in [(Semantics::Hadoop27, 49_152), (Semantics::Hadoop33, 45_056)] {
        let got = held(era, &props, n, node, &["a", "b"], 20, 4 * GB);
        assert_eq!(got, vec![32_768, b], "{era}");
    }
}

/// The blocked-headroom case with short containers (10 s tasks, 60 of them per queue, on the
/// same cluster): containers end and are handed out again all run long, and each queue's
/// usage, sampled every second, never goes above what the long-task test holds: a 32768 MB,
/// b 45056 MB in Hadoop 3.3 and 49152 MB in 2.7, and b reaches it.
#[test]
fn short_containers_keep_each_eras_limits() {
    let props = A_CAPPED_B_C_IDLE;
    let (n, node) = TEN_BY_8GB;
    for (era, b_max) in [(Semantics::Hadoop27, 49_152), (Semantics::Hadoop33, 45_056)] {
        let apps: Vec<AppSpec> = ["a", "b"]
            .iter()
            .map(|q| one_stage(0, q, "u", 60, Resource::new(4 * GB, 1), 10_000))
            .collect();
        let mut sc = scenario(era, &props, n, node, apps);
        sc.sample_interval_ms = 1000;
        let (rec, _) = common::outcomes::run_sampled(&sc);
        let peak = |name: &str| {
            rec.samples
                .iter()
                .flat_map(|(_, rows)| rows.iter())
                .filter(|r| r.queue == name)
                .map(|r| r.usage.memory_mb)
                .max()
                .unwrap_or(0)
        };
        assert_eq!(peak("root.a"), 32_768, "{era}");
        assert_eq!(peak("root.b"), b_max, "{era}");
    }
}
