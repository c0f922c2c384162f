//! The Capacity Scheduler through the whole simulator: least-used queue first, elastic
//! sharing up to maximum-capacity, and reclaiming by proportional preemption. Nodes hold
//! one 1024 MB container each, so each heartbeat assigns at most one container.

mod common;

use common::apps::{GB, LONG_MS, long_tasks, one_stage};
use common::outcomes::{allocations, metric, run_allocations, run_recorded};
use common::scenarios::{capacity_tree, capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

/// Ten nodes of one 1 GB / 1 vcore container each under the capacity file of `props`.
fn scenario(props: &[(&str, &str)], apps: Vec<AppSpec>, preemption: bool) -> Scenario {
    let tree = capacity_tree(&capacity_xml(props));
    Scenario {
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop27,
            preemption,
            ..SchedulerConf::default()
        },
        end_ms: Some(200_000),
        ..trace_scenario("capacity", tree, 10, Resource::new(GB, 1), apps)
    }
}

#[test]
fn the_least_used_queue_is_served_first() {
    // q1 guaranteed 20% (2 containers), q2 80% (8); both ask for more than the cluster.
    let sc = scenario(
        &[
            ("root.queues", "q1,q2"),
            ("root.q1.capacity", "20"),
            ("root.q2.capacity", "80"),
        ],
        vec![long_tasks(0, "q1", 20), long_tasks(0, "q2", 20)],
        false,
    );
    let who: Vec<u32> = run_allocations(&sc).iter().map(|a| a.1).collect();
    // used ÷ guaranteed before each offer: 0/0 tie (path: q1); q1 0.5 vs q2 0 → q2; q2 at
    // 0.125, 0.25, 0.375 → q2; 0.5 vs 0.5 → q1; then q2 (0.5, 0.625, 0.75, 0.875).
    assert_eq!(who, vec![0, 1, 1, 1, 1, 0, 1, 1, 1, 1]);
}

const ELASTIC: &[(&str, &str)] = &[
    ("root.queues", "a,b"),
    ("root.a.capacity", "50"),
    ("root.a.maximum-capacity", "80"),
    ("root.a.user-limit-factor", "2"),
    ("root.b.capacity", "50"),
];

#[test]
fn elastic_sharing_stops_at_maximum_capacity() {
    let sc = scenario(
        ELASTIC,
        vec![long_tasks(0, "a", 10), long_tasks(20_000, "b", 10)],
        false,
    );
    let (rec, s) = run_recorded(&sc);
    let allocs = allocations(&rec);
    // a alone takes 8 (its 80% maximum), the last 2 nodes stay idle although a asks.
    let a_before: Vec<u64> = allocs.iter().filter(|x| x.1 == 0).map(|x| x.0).collect();
    assert_eq!(a_before.len(), 8);
    assert!(a_before.iter().all(|&t| t < 1000));
    // b takes the 2 idle nodes at their next heartbeats after 20 s; nothing else happens.
    let b: Vec<u64> = allocs.iter().filter(|x| x.1 == 1).map(|x| x.0).collect();
    assert_eq!(b, vec![20_800, 20_900]);
    assert_eq!(metric(&s, "preempted_containers"), 0.0);
}

#[test]
fn preemption_reclaims_the_guarantee_and_no_more() {
    let sc = scenario(
        ELASTIC,
        vec![long_tasks(0, "a", 10), long_tasks(20_000, "b", 10)],
        true,
    );
    let (rec, s) = run_recorded(&sc);
    let b = allocations(&rec).iter().filter(|x| x.1 == 1).count();
    assert_eq!(b, 5, "b back at its guarantee of 5");
    assert_eq!(metric(&s, "preempted_containers.root.a"), 3.0);
    // First selected at the 21 s round, killed at the first round more than 15 s later.
    let first_kill_lost = metric(&s, "lost_container_s.root.a");
    assert!(first_kill_lost > 3.0 * 38.0, "{first_kill_lost}");
    assert!(metric(&s, "min_share_reached_s_p50.root.b") > 15.0);
}

/// The user limit divides among the active users what Hadoop's era divides: one leaf with
/// the whole cluster (10 × 1024 MB), minimum-user-limit-percent 25, users u1 (first in FIFO
/// order) and u2 with 10 tasks each, always both active. A user is served while its usage
/// is not above the limit; the second term is ceil(floor(10240 × 25) / 100) = 2560.
/// * Hadoop 2.7 (`LeafQueue.computeUserLimit`): ceil(10240 / 2) = 5120, so u1 takes 6
///   containers (5120 is not above 5120), then u2 the other 4.
/// * Hadoop 3.3 (`UsersManager.computeUserLimit`, active users): the active users' usage U
///   plus 1024, divided by 2.0f, against 2560, rounded up to 1024:
///   U = 0, 1024, 2048, 3072: limit 3072 → u1 reaches 4096;
///   U = 4096 (ceil(5120 / 2) = 2560 → 3072): u1 is above, u2; U = 5120 (3072): u2;
///   U = 6144 (3584 → 4096): u1 at 4096 → 5120; U = 7168 (4096): u2 at 2048 → 3072;
///   U = 8192 (4608 → 5120): u1 at 5120 → 6144; U = 9216 (5120): u2 → 4096.
#[test]
fn the_user_limit_divides_the_active_users_usage_in_hadoop33() {
    let props = [
        ("root.queues", "a"),
        ("root.a.capacity", "100"),
        ("root.a.minimum-user-limit-percent", "25"),
        // Both unmanaged apps activated: Hadoop charges each the minimum allocation, which
        // the default AM limit (10 % of 10 GB) would refuse to the second.
        ("maximum-am-resource-percent", "10"),
    ];
    for (semantics, expected) in [
        (Semantics::Hadoop27, "1111112222"),
        (Semantics::Hadoop33, "1111221212"),
    ] {
        let mut apps = vec![
            one_stage(0, "a", "u1", 10, Resource::new(GB, 1), LONG_MS),
            one_stage(0, "a", "u2", 10, Resource::new(GB, 1), LONG_MS),
        ];
        apps[1].name = "a-0-u2".into();
        let mut sc = scenario(&props, apps, false);
        sc.scheduler.semantics = semantics;
        let users: String = run_allocations(&sc)
            .iter()
            .map(|&(_, app)| if app == 0 { '1' } else { '2' })
            .collect();
        assert_eq!(users, expected, "{semantics:?}");
    }
}
