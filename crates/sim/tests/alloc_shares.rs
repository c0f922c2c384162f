//! Hadoop's whole-scheduler fair-share cases (TestFairScheduler) reproduced from allocation
//! files: load the file, give the named leaves a demand, compare the fair shares.

use fairsim_core::share::{ShareCap, ShareKind};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::load_fair_scheduler_file;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/alloc")
        .join(name)
}

/// Memory fair shares of `report` (full names) when `demands` (full name, MB) are active.
fn shares(
    file: &str,
    semantics: Semantics,
    kind: ShareKind,
    cluster_mb: i64,
    demands: &[(&str, i64)],
    report: &[&str],
) -> Vec<i64> {
    let loaded = load_fair_scheduler_file(&data(file), semantics).expect("file loads");
    let tree = loaded.tree;
    let cluster = Resource::new(cluster_mb, cluster_mb / 1024);
    let rows: Vec<_> = demands
        .iter()
        .map(|&(q, mb)| {
            let id = tree.find(q).unwrap_or_else(|| panic!("no queue {q}"));
            (id, Resource::new(mb, 1))
        })
        .collect();
    let loads = tree.loads_from_demands(cluster, &rows);
    let all = tree.fair_shares(semantics, kind, cluster, &loads, ShareCap::MaxShare);
    report
        .iter()
        .map(|q| all[tree.find(q).expect("reported queue").idx()].memory_mb)
        .collect()
}

const BOTH: [ShareKind; 2] = [ShareKind::Instantaneous, ShareKind::Steady];

#[test]
fn simple_fair_share_is_3414_each() {
    let qs = ["root.queue1", "root.queue2", "root.default"];
    let demands: Vec<_> = qs.iter().map(|&q| (q, 10240)).collect();
    for sem in [Semantics::Hadoop33, Semantics::Hadoop27] {
        for kind in BOTH {
            let got = shares("simple.xml", sem, kind, 10240, &demands, &qs);
            assert_eq!(got, vec![3414, 3414, 3414], "{sem} {kind:?}");
        }
    }
}

#[test]
fn hierarchical_fair_share_is_120_60_60() {
    let qs = ["root.default", "root.parent.queue2", "root.parent.queue3"];
    let demands: Vec<_> = qs.iter().map(|&q| (q, 10240)).collect();
    for sem in [Semantics::Hadoop33, Semantics::Hadoop27] {
        for kind in BOTH {
            let got = shares("hierarchical.xml", sem, kind, 240, &demands, &qs);
            assert_eq!(got, vec![120, 60, 60], "{sem} {kind:?}");
        }
    }
}

#[test]
fn high_max_resources_ignore_demand() {
    let qs = ["root.queueA", "root.queueB"];
    let demands = [("root.queueA", 1024), ("root.queueB", 6144)];
    for sem in [Semantics::Hadoop33, Semantics::Hadoop27] {
        let got = shares(
            "high_max.xml",
            sem,
            ShareKind::Instantaneous,
            8192,
            &demands,
            &qs,
        );
        assert_eq!(got, vec![2048, 6144], "{sem}");
    }
}

#[test]
fn low_max_resources_cap_shares() {
    let qs = ["root.queueA", "root.queueB"];
    let demands = [("root.queueA", 2048), ("root.queueB", 4096)];
    for sem in [Semantics::Hadoop33, Semantics::Hadoop27] {
        let got = shares(
            "low_max.xml",
            sem,
            ShareKind::Instantaneous,
            8192,
            &demands,
            &qs,
        );
        assert_eq!(got, vec![1024, 3072], "{sem}");
    }
}

#[test]
fn zero_weight_gives_zero() {
    let qs = ["root.queueA", "root.queueB"];
    let demands = [("root.queueA", 2048), ("root.queueB", 6144)];
    let got = shares(
        "zero_weight.xml",
        Semantics::Hadoop33,
        ShareKind::Instantaneous,
        8192,
        &demands,
        &qs,
    );
    assert_eq!(got, vec![0, 0]);
}

#[test]
fn zero_weight_with_min_resources_gives_the_min() {
    let qs = ["root.queueA", "root.queueB"];
    let demands = [("root.queueA", 2048), ("root.queueB", 6144)];
    let got = shares(
        "zero_weight_min.xml",
        Semantics::Hadoop33,
        ShareKind::Instantaneous,
        8192,
        &demands,
        &qs,
    );
    assert_eq!(got, vec![1, 1]);
}

#[test]
fn half_weight_with_min_resources_splits_the_cluster() {
    let qs = ["root.queueA", "root.queueB"];
    let demands = [("root.queueA", 4096), ("root.queueB", 4096)];
    for sem in [Semantics::Hadoop33, Semantics::Hadoop27] {
        let got = shares(
            "half_weight_min.xml",
            sem,
            ShareKind::Instantaneous,
            8192,
            &demands,
            &qs,
        );
        assert_eq!(got, vec![4096, 4096], "{sem}");
    }
}

/// What hadoop-2.7 gives on the zero-weight cases, which are Hadoop 3 tests.
#[test]
fn zero_weight_cases_under_hadoop27() {
    let qs = ["root.queueA", "root.queueB"];
    let demands = [("root.queueA", 2048), ("root.queueB", 6144)];
    let zero = shares(
        "zero_weight.xml",
        Semantics::Hadoop27,
        ShareKind::Instantaneous,
        8192,
        &demands,
        &qs,
    );
    let with_min = shares(
        "zero_weight_min.xml",
        Semantics::Hadoop27,
        ShareKind::Instantaneous,
        8192,
        &demands,
        &qs,
    );
    eprintln!("hadoop-2.7: zero weight {zero:?}, zero weight + min 1 MB {with_min:?}");
    assert_eq!(zero, vec![0, 0]);
    assert_eq!(with_min, vec![1, 1]);
}
