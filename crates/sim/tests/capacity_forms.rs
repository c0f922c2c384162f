//! Hadoop 3.3's capacity-scheduler.xml forms through the reader and the simulator: weight
//! mode, absolute resources (and their effective values as the cluster changes), which mixes
//! YARN refuses, user-limit-factor −1, queue states, maximum-applications and
//! max-parallel-apps. Numbers come from Hadoop's own tests where they exist
//! (TestCapacitySchedulerWeightMode, TestAbsoluteResourceConfiguration) and are otherwise
//! worked from Hadoop's code in each test's comment.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::capacity::{held, load, scenario};
use common::outcomes::run_recorded;
use common::scenarios::capacity_xml;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::capacity::Capacities;
use fairsim_sim::scenario::parse_scenario;

fn refused(era: Semantics, props: &[(&str, &str)]) -> String {
    match load(era, props) {
        Ok(_) => panic!("{era}: {props:?} loaded"),
        Err(e) => e,
    }
}

const H33: Semantics = Semantics::Hadoop33;
const H27: Semantics = Semantics::Hadoop27;

/// testQueueInfoWeight's queues: a 1w, b 2w, default 3w.
const WEIGHTS: [(&str, &str); 4] = [
    ("root.queues", "a,b,default"),
    ("root.a.capacity", "1w"),
    ("root.b.capacity", "2w"),
    ("root.default.capacity", "3w"),
];

/// Weights normalise among siblings: 1/6, 2/6 and 3/6 of the cluster. On 3 × 4 GB nodes with
/// 1 GB tasks and user limits out of the way (factor 100) the least-used queue is served
/// first until the cluster is full, each at used ÷ guaranteed = 1: 2048, 4096 and 6144 MB.
#[test]
fn weight_mode_splits_a_full_cluster_by_normalized_weight() {
    let mut props = WEIGHTS.to_vec();
    props.extend([
        ("root.a.user-limit-factor", "100"),
        ("root.b.user-limit-factor", "100"),
        ("root.default.user-limit-factor", "100"),
    ]);
    let tree = load(H33, &props).unwrap().tree;
    let caps = Capacities::at(&tree, Resource::new(12 * GB, 12));
    assert!((caps.absolute[1] - 1.0 / 6.0).abs() < 1e-6);
    assert!((caps.absolute[2] - 2.0 / 6.0).abs() < 1e-6);
    assert!((caps.absolute[3] - 0.5).abs() < 1e-6);
    let got = held(
        H33,
        &props,
        3,
        Resource::new(4 * GB, 4),
        &["a", "b", "default"],
        20,
        GB,
    );
    assert_eq!(got, vec![2048, 4096, 6144]);
}

/// A weight leaf's user limit reads its effective capacity: a at 1/6 of 10 × 6 GB =
/// (long)(61440 × 0.16666667f) = 10240; one user with factor 1 is served while not above
/// 10240, so it holds 11264.
#[test]
fn a_weight_leafs_user_limit_reads_its_normalized_weight() {
    let got = held(H33, &WEIGHTS, 10, Resource::new(6 * GB, 6), &["a"], 40, GB);
    assert_eq!(got, vec![11_264]);
}

/// testZeroWeightAndZeroPercentSiblingsAccepted: a 0 %, b 2w, c 1w, d 0w load; absolute
/// capacities 0, 2/3, 1/3 and 0. With a zero absolute capacity a leaf's derived
/// maximum-applications is (int)(10000 × 0) = 0, so an app submitted to d is rejected.
#[test]
fn zero_weights_and_zero_percentages_may_be_siblings() {
    let props = [
        ("root.queues", "a,b,c,d"),
        ("root.a.capacity", "0"),
        ("root.b.capacity", "2w"),
        ("root.c.capacity", "1w"),
        ("root.d.capacity", "0w"),
    ];
    let tree = load(H33, &props).unwrap().tree;
    let caps = Capacities::at(&tree, Resource::new(30 * GB, 30));
    assert_eq!(caps.absolute[1], 0.0);
    assert!((caps.absolute[2] - 2.0 / 3.0).abs() < 1e-6);
    assert!((caps.absolute[3] - 1.0 / 3.0).abs() < 1e-6);
    assert_eq!(caps.absolute[4], 0.0);
    let sc = scenario(
        H33,
        &props,
        1,
        Resource::new(4 * GB, 4),
        vec![one_stage(0, "d", "u", 1, Resource::new(GB, 1), 1000)],
    );
    let (rec, _) = run_recorded(&sc);
    let why = rec.apps[0].rejected.as_deref().unwrap_or("not rejected");
    assert!(why.contains("maximum-applications 0"), "{why}");
}

/// TestCapacitySchedulerWeightMode's refusals: 50 % beside 1w; an absolute sibling listed
/// before a percentage one (listed after, the percentage goes unnoticed and the file loads);
/// a weight above 10000. Hadoop 2.7 reads neither form.
#[test]
fn mixed_sibling_modes_are_refused_as_hadoop_refuses_them() {
    let e = refused(
        H33,
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "1w"),
        ],
    );
    assert!(
        e.contains("mixed of weight mode, percentage and absolute mode"),
        "{e}"
    );
    assert!(e.contains("root.queues"), "{e}");
    let e = refused(
        H33,
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "[memory=1024,vcores=1]"),
            ("root.b.capacity", "50"),
        ],
    );
    assert!(e.contains("mixed of weight mode"), "{e}");
    let loaded = load(
        H33,
        &[
            ("root.queues", "b,a"),
            ("root.a.capacity", "[memory=1024,vcores=1]"),
            ("root.b.capacity", "50"),
        ],
    );
    assert!(loaded.is_ok(), "{loaded:?}");
    let e = refused(
        H33,
        &[
            ("root.queues", "a,b"),
            ("root.a.capacity", "20000w"),
            ("root.b.capacity", "1w"),
        ],
    );
    assert!(
        e.contains("root.a.capacity") && e.contains("0 to 10000"),
        "{e}"
    );
    let e = refused(H27, &WEIGHTS);
    assert!(
        e.contains("hadoop-2.7 reads capacity as a percentage only"),
        "{e}"
    );
}

/// TestAbsoluteResourceConfiguration's simple tree (queue D a plain leaf here).
fn absolute_tree() -> Vec<(&'static str, &'static str)> {
    vec![
        ("root.queues", "queueA,queueB,queueC,queueD"),
        ("root.queueA.capacity", "[memory=102400,vcores=10]"),
        ("root.queueA.maximum-capacity", "[memory=204800,vcores=30]"),
        ("root.queueB.capacity", "[memory=51200,vcores=10]"),
        ("root.queueB.maximum-capacity", "[memory=153600,vcores=30]"),
        ("root.queueC.capacity", "[memory=25600,vcores=5]"),
        ("root.queueC.maximum-capacity", "[memory=153600,vcores=20]"),
        ("root.queueD.capacity", "[memory=25600,vcores=5]"),
        ("root.queueD.maximum-capacity", "[memory=153600,vcores=20]"),
    ]
}

/// testEffectiveMinMaxResourceConfigurartionPerQueue: on one 250 GB, 40-vcore node the
/// effective resources are the configured ones. queueA alone, one user, factor 1: its user
/// limit is its effective minimum 102400, so it holds 103424; with factor −1 the limit is its
/// effective maximum 204800, which the queue reaches.
#[test]
fn an_absolute_queue_runs_to_its_configured_resources() {
    let props = absolute_tree();
    let tree = load(H33, &props).unwrap().tree;
    let caps = Capacities::at(&tree, Resource::new(250 * GB, 40));
    assert_eq!(caps.min[1], Resource::new(100 * GB, 10));
    assert_eq!(caps.max[1], Resource::new(200 * GB, 30));
    assert_eq!(caps.min[2], Resource::new(50 * GB, 10));
    assert_eq!(caps.max[4], Resource::new(150 * GB, 20));
    let node = Resource::new(250 * GB, 40);
    assert_eq!(
        held(H33, &props, 1, node, &["queueA"], 300, GB),
        vec![103_424]
    );
    let mut minus_one = props.clone();
    minus_one.push(("root.queueA.user-limit-factor", "-1"));
    assert_eq!(
        held(H33, &minus_one, 1, node, &["queueA"], 300, GB),
        vec![204_800]
    );
    // Hadoop 2.7 has no user-limit-factor −1 (nor absolute resources).
    let e = refused(
        H27,
        &[
            ("root.queues", "a"),
            ("root.a.capacity", "100"),
            ("root.a.user-limit-factor", "-1"),
        ],
    );
    assert!(e.contains("user-limit-factor"), "{e}");
}

/// testComplexValidateAbsoluteResourceConfig and testSimpleValidateAbsoluteResourceConfig's
/// refusals: a percentage parent over absolute children; a parent's minimum below its
/// children's sum ([50 GB, 5] against [100 GB, 10]); a minimum above the maximum; a child's
/// maximum above its parent's.
#[test]
fn absolute_configurations_yarn_refuses() {
    let complex = |a: &'static str, b1_min: &'static str, b1_max: Option<&'static str>| {
        let mut p = vec![
            ("root.queues", "queueA,queueB,queueC"),
            ("root.queueA.queues", "queueA1,queueA2"),
            ("root.queueB.queues", "queueB1"),
            ("root.queueA.capacity", a),
            ("root.queueA.maximum-capacity", "[memory=204800,vcores=30]"),
            ("root.queueB.capacity", "[memory=51200,vcores=10]"),
            ("root.queueB.maximum-capacity", "[memory=153600,vcores=30]"),
            ("root.queueC.capacity", "[memory=25600,vcores=5]"),
            ("root.queueC.maximum-capacity", "[memory=153600,vcores=20]"),
            ("root.queueA.queueA1.capacity", "[memory=51200,vcores=5]"),
            ("root.queueA.queueA2.capacity", "[memory=51200,vcores=5]"),
            ("root.queueB.queueB1.capacity", b1_min),
        ];
        if let Some(m) = b1_max {
            p.push(("root.queueB.queueB1.maximum-capacity", m));
        }
        p
    };
    let ok = complex(
        "[memory=102400,vcores=10]",
        "[memory=40960,vcores=10]",
        None,
    );
    let tree = load(H33, &ok).unwrap().tree;
    // A1 takes queueA's configured maximum; queueA is 0.4 and 0.8 of 250 GB.
    let caps = Capacities::at(&tree, Resource::new(250 * GB, 40));
    assert_eq!(caps.max[2], Resource::new(200 * GB, 30));
    assert!((caps.absolute[1] - 0.4).abs() < 1e-6);
    assert!((caps.absolute_max[1] - 0.8).abs() < 1e-6);

    // (Without its absolute maximum, which a percentage capacity may not have either.)
    let percent_parent: Vec<_> = complex("50", "[memory=40960,vcores=10]", None)
        .into_iter()
        .filter(|(n, _)| *n != "root.queueA.maximum-capacity")
        .collect();
    let e = refused(H33, &percent_parent);
    assert!(e.contains("all use absolute resources or none"), "{e}");
    let e = refused(
        H33,
        &complex("[memory=51200,vcores=5]", "[memory=40960,vcores=10]", None),
    );
    assert!(
        e.contains(
            "[memory=51200,vcores=5] is less than its children's sum [memory=102400,vcores=10]"
        ),
        "{e}"
    );
    let e = refused(
        H33,
        &complex(
            "[memory=102400,vcores=10]",
            "[memory=153600,vcores=30]",
            Some("[memory=40960,vcores=10]"),
        ),
    );
    assert!(e.contains("is greater than its maximum"), "{e}");
    let e = refused(
        H33,
        &complex(
            "[memory=102400,vcores=10]",
            "[memory=40960,vcores=10]",
            Some("[memory=204800,vcores=30]"),
        ),
    );
    assert!(
        e.contains("greater than its parent's [memory=153600,vcores=30]"),
        "{e}"
    );
}

/// testEffectiveResourceAfterReducingClusterResource through the engine: two 125 GB /
/// 20-vcore nodes, queueA alone with factor 1. While both nodes live its user limit is its
/// configured 102400; node1 is lost at 100 s and the effective minimum becomes
/// 102400 × (128000 / 204800) = 64000, so the user limit is 64000 rounded up to 64512 and
/// queueA grows back only to 65536 (64 containers) on node0, not to 103424.
#[test]
fn absolute_capacities_follow_the_cluster_when_a_node_leaves() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("cs.xml"), capacity_xml(&absolute_tree())).expect("write");
    std::fs::write(
        dir.path().join("t.csv"),
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         j,0,queueA,u,0,0,0,300,1024,1,1000000,1,\n",
    )
    .expect("write");
    let toml = "end_ms = 300000\n[cluster]\nnodes = 2\nnode_memory_mb = 128000\nnode_vcores = 20\n\
                [[cluster.events]]\nat_ms = 100000\nkind = \"lose\"\nnode = \"node1\"\n\
                [scheduler]\nsemantics = \"hadoop-3.3\"\n[allocation]\nfile = \"cs.xml\"\n\
                [workload]\ncsv = \"t.csv\"\n";
    let path = dir.path().join("s.toml");
    std::fs::write(&path, toml).expect("write");
    let mut sc = parse_scenario(toml, &path).unwrap_or_else(|e| panic!("{e}"));
    sc.check_invariants = true;
    let (rec, _) = run_recorded(&sc);
    let mut held_before = 0;
    let mut allocated_after = 0;
    for d in &rec.decisions {
        if matches!(d.kind, fairsim_sim::recorder::DecisionKind::Allocated(_)) {
            if d.time.0 < 100_000 {
                held_before += GB;
            } else {
                allocated_after += 1;
            }
        }
    }
    assert_eq!(held_before, 103_424);
    // What survived on node0 plus what was allocated after the loss is 65536.
    let survived = rec
        .decisions
        .iter()
        .filter(|d| d.time.0 < 100_000 && d.node == 0)
        .filter(|d| matches!(d.kind, fairsim_sim::recorder::DecisionKind::Allocated(_)))
        .count() as i64;
    assert_eq!(
        (survived + allocated_after) * GB,
        65_536,
        "{survived} survived"
    );
}

/// A STOPPED queue accepts no application, nor does a leaf under a STOPPED parent (Hadoop
/// 3.3 inherits the state; Hadoop 2.7 checks each queue up the path). Hadoop 3.3 refuses a
/// RUNNING queue under a STOPPED parent; Hadoop 2.7 loads it and still rejects its apps.
#[test]
fn stopped_queues_reject_submissions() {
    let props = [
        ("root.queues", "a,p"),
        ("root.a.capacity", "50"),
        ("root.a.state", "STOPPED"),
        ("root.p.capacity", "50"),
        ("root.p.state", "stopped"),
        ("root.p.queues", "x"),
        ("root.p.x.capacity", "100"),
    ];
    for era in [H27, H33] {
        let apps = ["a", "x"]
            .iter()
            .map(|q| one_stage(0, q, "u", 1, Resource::new(GB, 1), 1000))
            .collect();
        let sc = scenario(era, &props, 1, Resource::new(4 * GB, 4), apps);
        let (rec, _) = run_recorded(&sc);
        assert_eq!(rec.apps.len(), 2);
        for app in &rec.apps {
            let why = app.rejected.as_deref().unwrap_or("not rejected");
            assert!(why.contains("is STOPPED"), "{era}: {why}");
        }
    }
    let mut running_child = props.to_vec();
    running_child.push(("root.p.x.state", "RUNNING"));
    let e = refused(H33, &running_child);
    assert!(e.contains("RUNNING under a STOPPED parent"), "{e}");
    assert!(load(H27, &running_child).is_ok());
}

/// maximum-applications: a set at 2 rejects the third app; b derives
/// (int)(10 × 0.5f) = 5 from a system maximum-applications of 10, and user u's share of it
/// at minimum-user-limit-percent 50 and factor 1 is (int)(5 × 0.5 × 1) = 2, so u's third
/// app is rejected while v's first is accepted.
#[test]
fn maximum_applications_reject_submissions_beyond_them() {
    let props = [
        ("maximum-applications", "10"),
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.a.maximum-applications", "2"),
        ("root.b.capacity", "50"),
        ("root.b.minimum-user-limit-percent", "50"),
    ];
    for era in [H27, H33] {
        let app = |t: u64, q: &str, user: &str| {
            let mut a = one_stage(t, q, user, 1, Resource::new(GB, 1), LONG_MS);
            a.name = format!("{q}-{user}-{t}");
            a
        };
        let apps = vec![
            app(0, "a", "u"),
            app(1, "a", "u"),
            app(2, "a", "w"),
            app(3, "b", "u"),
            app(4, "b", "u"),
            app(5, "b", "u"),
            app(6, "b", "v"),
        ];
        let sc = scenario(era, &props, 4, Resource::new(8 * GB, 8), apps);
        let (rec, _) = run_recorded(&sc);
        let mut rejected: Vec<u32> = rec
            .apps
            .iter()
            .filter(|a| a.rejected.is_some())
            .map(|a| a.index)
            .collect();
        rejected.sort_unstable();
        assert_eq!(rejected, vec![2, 5], "{era}");
        let why = rec.apps.iter().find(|a| a.index == 5).unwrap();
        let why = why.rejected.as_deref().unwrap();
        assert!(why.contains("2 applications from user u"), "{era}: {why}");
    }
}

/// Hadoop 3.3's max-parallel-apps: a leaf at 1 runs its second app only when the first
/// finishes (10 s tasks: the first app's one task runs 0 → 10 s on the first beat), and the
/// per-user default does the same across leaves.
#[test]
fn max_parallel_apps_hold_apps_until_one_finishes() {
    for extra in [
        ("root.a.max-parallel-apps", "1"),
        ("user.max-parallel-apps", "1"),
    ] {
        let props = [("root.queues", "a"), ("root.a.capacity", "100"), extra];
        let apps = (0..2)
            .map(|i| {
                let mut a = one_stage(0, "a", "u", 1, Resource::new(GB, 1), 10_000);
                a.name = format!("app{i}");
                a
            })
            .collect();
        let sc = scenario(H33, &props, 1, Resource::new(8 * GB, 8), apps);
        let (rec, _) = run_recorded(&sc);
        let first = |i: u32| {
            rec.apps
                .iter()
                .find(|a| a.index == i)
                .and_then(|a| a.first_container)
                .map(|t| t.0)
        };
        let finish0 = rec
            .apps
            .iter()
            .find(|a| a.index == 0)
            .unwrap()
            .finish
            .unwrap()
            .0;
        let second = first(1).expect("the second app runs");
        assert!(second >= finish0, "{extra:?}: {second} < {finish0}");
    }
}

/// Properties fairsim does not simulate are each named in a warning with their line; the
/// forms it reads are not.
#[test]
fn unread_properties_are_warned_about_with_their_line() {
    let props = [
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.acl_submit_applications", "*"),
        ("root.a.leaf-queue-template.capacity", "10"),
        ("root.a.ordering-policy", "fair"),
        (
            "root.a.ordering-policy.fair.enable-size-based-weight",
            "true",
        ),
        ("schedule-asynchronously.enable", "true"),
    ];
    let loaded = load(H33, &props).unwrap();
    let w = loaded.warnings.join("\n");
    assert!(
        w.contains(":4:") && w.contains("acl_submit_applications: queue ACLs are not modelled"),
        "{w}"
    );
    assert!(
        w.contains("leaf-queue-template.capacity: read only on a queue with"),
        "{w}"
    );
    assert!(
        w.contains("schedule-asynchronously.enable: not simulated"),
        "{w}"
    );
    assert!(!w.contains("enable-size-based-weight"), "{w}");
    assert!(!w.contains("ordering-policy:"), "{w}");
    assert_eq!(loaded.warnings.len(), 3, "{w}");
    assert!(loaded.tree.queues[1].cs.size_based_weight);
}

/// testEffectiveResourceAfterIncreasingClusterResource's complex tree, read from the file:
/// on 2 × 125 GB the absolute capacities are A 0.4 (max 0.8), B 0.2 (0.6), C 0.1 (0.6), A1
/// and A2 0.2 (0.8, A's maximum), B1 0.16 (0.6); a third node leaves the effective
/// resources as configured and the fractions fall to 0.266 (0.533), 0.133 (0.4), 0.066
/// (0.4), 0.133 (0.533) and 0.106 (0.4). testValidateAbsoluteResourceConfig's `[memory=0]`
/// queues load.
#[test]
fn absolute_fractions_follow_a_growing_cluster() {
    let props = [
        ("root.queues", "queueA,queueB,queueC"),
        ("root.queueA.queues", "queueA1,queueA2"),
        ("root.queueB.queues", "queueB1"),
        ("root.queueA.capacity", "[memory=102400,vcores=10]"),
        ("root.queueA.maximum-capacity", "[memory=204800,vcores=30]"),
        ("root.queueB.capacity", "[memory=51200,vcores=10]"),
        ("root.queueB.maximum-capacity", "[memory=153600,vcores=30]"),
        ("root.queueC.capacity", "[memory=25600,vcores=5]"),
        ("root.queueC.maximum-capacity", "[memory=153600,vcores=20]"),
        ("root.queueA.queueA1.capacity", "[memory=51200,vcores=5]"),
        ("root.queueA.queueA2.capacity", "[memory=51200,vcores=5]"),
        ("root.queueB.queueB1.capacity", "[memory=40960,vcores=10]"),
    ];
    let tree = load(H33, &props).unwrap().tree;
    let names: Vec<&str> = tree.queues.iter().map(|q| q.name.as_str()).collect();
    let at = |name: &str| names.iter().position(|n| n.ends_with(name)).unwrap();
    let check = |cluster: Resource, expected: &[(&str, f64, f64)]| {
        let caps = Capacities::at(&tree, cluster);
        for &(q, abs, max) in expected {
            let i = at(q);
            assert!(
                (caps.absolute[i] - abs).abs() < 0.001,
                "{q}: {}",
                caps.absolute[i]
            );
            assert!(
                (caps.absolute_max[i] - max).abs() < 0.001,
                "{q}: {}",
                caps.absolute_max[i]
            );
        }
        caps
    };
    let two = check(
        Resource::new(250 * GB, 40),
        &[
            ("queueA", 0.4, 0.8),
            ("queueB", 0.2, 0.6),
            ("queueC", 0.1, 0.6),
            ("queueA1", 0.2, 0.8),
            ("queueA2", 0.2, 0.8),
            ("queueB1", 0.16, 0.6),
        ],
    );
    assert_eq!(two.max[at("queueA1")], Resource::new(200 * GB, 30));
    assert_eq!(two.max[at("queueB1")], Resource::new(150 * GB, 30));
    let three = check(
        Resource::new(375 * GB, 60),
        &[
            ("queueA", 0.266, 0.533),
            ("queueB", 0.133, 0.4),
            ("queueC", 0.066, 0.4),
            ("queueA1", 0.133, 0.533),
            ("queueB1", 0.106, 0.4),
        ],
    );
    assert_eq!(three.min[at("queueA")], Resource::new(100 * GB, 10));
    assert_eq!(three.min[at("queueB1")], Resource::new(40 * GB, 10));
    let zero = [
        ("root.queues", "queueA,queueB"),
        ("root.queueA.queues", "queueA1,queueA2"),
        ("root.queueA.capacity", "[memory=125]"),
        ("root.queueB.capacity", "[memory=0]"),
        ("root.queueA.queueA1.capacity", "[memory=125]"),
        ("root.queueA.queueA2.capacity", "[memory=0]"),
    ];
    assert!(load(H33, &zero).is_ok());
}
