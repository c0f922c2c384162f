//! The Capacity Scheduler's user-limit tests of Hadoop's TestLeafQueue, each written anew as
//! a capacity-scheduler.xml, a trace and a scenario, with the allocations Hadoop's test
//! asserts. Hadoop calls `LeafQueue.assignContainers` by hand, one container per call;
//! fairsim runs the cluster on its clock, where a node heartbeat gives at most one off-switch
//! container, so the asserted amounts are read off the order of allocations. The table in
//! docs/testing.md maps each method here (checked by `hadoop_table.rs`).

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::{allocated, run_recorded};
use common::scenarios::{capacity_tree, capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_any_xml;
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// `count` tasks of `mb` MB that outlive the run, for `user` in queue `a`.
fn app(arrival: u64, user: &str, count: u32, mb: i64) -> AppSpec {
    let size = Resource::new(mb, 1);
    AppSpec {
        name: format!("{user}-{arrival}"),
        ..one_stage(arrival, "a", user, count, size, LONG_MS)
    }
}

/// TestLeafQueue's queues under root: a 8.5 % (its maximum raised to 100 % as the tests
/// do), b 80 %, c 1.5 %, d 9 %, e 1 %; `extra` adds properties of queue a.
fn scenario(
    semantics: Semantics,
    extra: &[(&str, &str)],
    nodes: u32,
    apps: Vec<AppSpec>,
) -> Scenario {
    let mut props = vec![
        ("root.queues", "a,b,c,d,e"),
        ("root.a.capacity", "8.5"),
        ("root.a.maximum-capacity", "100"),
        ("root.b.capacity", "80"),
        ("root.c.capacity", "1.5"),
        ("root.d.capacity", "9"),
        ("root.e.capacity", "1"),
    ];
    props.extend_from_slice(extra);
    let tree = capacity_tree(&capacity_xml(&props));
    let node = Resource::new(8 * GB, 16);
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            ..SchedulerConf::default()
        },
        end_ms: Some(60_000),
        ..trace_scenario("test-leaf-queue", tree, nodes, node, apps)
    }
}

/// `(app, MB)` of every allocation, in order.
fn allocations(sc: &Scenario) -> Vec<(u32, i64)> {
    let (rec, _) = run_recorded(sc);
    allocated(&rec).map(|d| (d.app, d.size.memory_mb)).collect()
}

/// MB held by each of `n` apps after all allocations.
fn held(allocs: &[(u32, i64)], n: usize) -> Vec<i64> {
    let mut mb = vec![0; n];
    for &(a, m) in allocs {
        mb[a as usize] += m;
    }
    mb
}

#[test]
fn single_queue_with_one_user_stops_one_container_past_the_user_limit() {
    // testSingleQueueWithOneUser: queue a (8.5 % of one 8 GB node, so 696 MB, raised to the
    // 1 GB minimum allocation) with user-limit-factor 1; one user's two apps ask for 3 and
    // 2 containers of 1 GB. The user gets one container past the limit, 2 GB in all, both to
    // the first app, and nothing more.
    for s in ERAS {
        let apps = vec![app(0, "user_0", 3, GB), app(1, "user_0", 2, GB)];
        let got = allocations(&scenario(s, &[], 1, apps));
        assert_eq!(held(&got, 2), vec![2 * GB, 0], "{s}: {got:?}");
    }
}

#[test]
fn user_limits_serve_the_second_user_before_the_first_again() {
    // testUserLimits: queue a with minimum-user-limit-percent 50 and user-limit-factor 2 on
    // two nodes of 8 GB; user_0 asks for 2 × 3 GB, user_1 for 2 × 1 GB. After user_0's
    // first container it is over its limit, so user_1 gets the second container; then
    // user_0 gets its second (limit = ceil((5 + 1) / 2) = 3 GB, used 3 GB). Hadoop 3 only:
    // the limit grows by the minimum allocation (2.8 on), where Hadoop 2.7 adds the ask
    // being placed (docs/testing.md).
    {
        let s = Semantics::Hadoop33;
        let want = [(0, 3 * GB), (1, GB), (0, 3 * GB)];
        let props = [
            ("root.a.minimum-user-limit-percent", "50"),
            ("root.a.user-limit-factor", "2"),
        ];
        let apps = vec![app(0, "user_0", 2, 3 * GB), app(1, "user_1", 2, GB)];
        let got = allocations(&scenario(s, &props, 2, apps));
        assert_eq!(
            got.iter().take(3).copied().collect::<Vec<_>>(),
            want.to_vec(),
            "{s}: {got:?}"
        );
    }
}

#[test]
fn single_queue_with_multiple_users_first_user_capped_at_two_gb() {
    // testSingleQueueWithMultipleUsers, its first part: user_0's two apps ask for 10 × 1 GB
    // each on one 8 GB node with user-limit-factor 1; the queue gives user_0 two containers
    // and stops (the rest of the test changes limits by hand).
    for s in ERAS {
        let apps = vec![app(0, "user_0", 10, GB), app(1, "user_0", 10, GB)];
        let got = allocations(&scenario(s, &[], 1, apps));
        assert_eq!(held(&got, 2), vec![2 * GB, 0], "{s}: {got:?}");
    }
}

#[test]
fn decimal_user_limits_give_the_first_user_its_second_container() {
    // testDecimalUserLimits (Hadoop 3): testUserLimits with minimum-user-limit-percent 50.1,
    // read as a Java float. Queue a (8.5 % of two 8 GB nodes: 1392.64 MB, rounded up to
    // 2048), user-limit-factor 2; user_0 asks for 2 × 3 GB, user_1 for 2 × 1 GB.
    // 1. Usage 0 < 2048: current 2048, limit max(1024, ceil(floor(2048 × 50.1) / 100) =
    //    1027) → 2048; user_0 (0 MB) gets 3 GB.
    // 2. Usage 3072: current 3072 + 1024 = 4096, limit max(2048, ceil(205209 / 100) = 2053)
    //    → 3072; user_0's 3072 MB is not above it, so user_0 gets its second 3 GB (with 50 %
    //    the limit is 2048 and user_1 goes first: testUserLimits).
    // 3. user_0 has nothing left to ask; user_1 gets 1 GB: 7 GB in the queue.
    let s = Semantics::Hadoop33;
    let props = [
        ("root.a.minimum-user-limit-percent", "50.1"),
        ("root.a.user-limit-factor", "2"),
    ];
    let apps = vec![app(0, "user_0", 2, 3 * GB), app(1, "user_1", 2, GB)];
    let got = allocations(&scenario(s, &props, 2, apps));
    assert_eq!(
        got.iter().take(3).copied().collect::<Vec<_>>(),
        [(0, 3 * GB), (0, 3 * GB), (1, GB)],
        "{s}: {got:?}"
    );
}

#[test]
fn a_decimal_user_limit_percent_is_refused_in_hadoop27_only() {
    // Hadoop 2.7 reads minimum-user-limit-percent with Configuration.getInt:
    // Integer.parseInt("50.1") throws and the ResourceManager does not start. The file's
    // line and property are named; hadoop-3.3 reads the same file.
    let text = "<configuration>\n\
        <property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.a.minimum-user-limit-percent</name><value>50.1</value></property>\n\
        </configuration>\n";
    let e = parse_any_xml(text, "cs.xml", Semantics::Hadoop27)
        .expect_err("2.7 refuses a decimal")
        .to_string();
    assert!(
        e.starts_with(
            "cs.xml:4: <property> yarn.scheduler.capacity.root.a.minimum-user-limit-percent:"
        ) && e.contains("\"50.1\" is not an integer"),
        "{e}"
    );
    let tree = parse_any_xml(text, "cs.xml", Semantics::Hadoop33)
        .expect("3.3 reads a float")
        .tree;
    let a = tree.find("root.a").expect("queue a");
    assert_eq!(tree.get(a).minimum_user_limit_percent, Some(50.1));
    // An integer reads the same in both eras; out of range is refused in both.
    for s in ERAS {
        let t = parse_any_xml(&text.replace("50.1", "25"), "cs.xml", s).expect("an int");
        let a = t.tree.find("root.a").expect("queue a");
        assert_eq!(t.tree.get(a).minimum_user_limit_percent, Some(25.0), "{s}");
        let e = parse_any_xml(&text.replace("50.1", "0"), "cs.xml", s)
            .expect_err("below 1")
            .to_string();
        assert!(
            e.contains("0 is out of range: the limit is a finite 32-bit float from 1 to 100"),
            "{s}: {e}"
        );
    }
}
