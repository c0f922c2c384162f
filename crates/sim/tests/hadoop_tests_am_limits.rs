//! The Capacity Scheduler's AM limits and app activation as Hadoop's TestApplicationLimits
//! asserts them, written anew as a capacity-scheduler.xml, a trace and a run, both eras:
//! queue a at 10 % (its maximum 100 %), b at 90 %, a's minimum-user-limit-percent 50 and
//! user-limit-factor 5. Hadoop's test submits mock apps to the leaf and counts active and
//! pending apps; here an app's activation shows as its AM being allocated at the first
//! heartbeat after it, and an app kept pending as `am_limit_blocks` and an AM that waits.
//! The table in docs/testing.md maps each method here (checked by `hadoop_table.rs`).
//! TestLeafQueue's testActivateApplicationByUpdatingClusterResource, on its own queues, is
//! the last test.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::{metric, run_recorded};
use common::scenarios::{capacity_tree, capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{Scenario, SchedulerConf};
use fairsim_sim::{RunSummary, SimTime};

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// User `user`'s app in a: an AM of `am_gb` GB, then `tasks` tasks of 1 GB, each
/// `duration_ms` long.
fn app(arrival: u64, user: &str, am_gb: i64, tasks: u32, duration_ms: u64) -> AppSpec {
    AppSpec {
        name: format!("{user}-{arrival}-{am_gb}"),
        am: Some(Resource::new(am_gb * GB, 1)),
        ..one_stage(arrival, "a", user, tasks, Resource::new(GB, 1), duration_ms)
    }
}

/// TestApplicationLimits' queues with `extra` properties, `nodes` nodes of 16 GB and 8
/// vcores, the maximum allocation 16 GB as its context sets it, run for 60 s.
fn scenario(era: Semantics, extra: &[(&str, &str)], nodes: u32, apps: Vec<AppSpec>) -> Scenario {
    let mut props = vec![
        ("root.queues", "a,b"),
        ("root.a.capacity", "10"),
        ("root.b.capacity", "90"),
        ("root.a.minimum-user-limit-percent", "50"),
        ("root.a.user-limit-factor", "5"),
    ];
    props.extend_from_slice(extra);
    let tree = capacity_tree(&capacity_xml(&props));
    Scenario {
        scheduler: SchedulerConf {
            semantics: era,
            maximum_allocation_mb: 16 * GB,
            ..SchedulerConf::default()
        },
        end_ms: Some(60_000),
        ..trace_scenario(
            "application-limits",
            tree,
            nodes,
            Resource::new(16 * GB, 8),
            apps,
        )
    }
}

fn run(sc: &Scenario) -> (MemoryRecorder, RunSummary) {
    run_recorded(sc)
}

fn first(rec: &MemoryRecorder, i: usize) -> Option<u64> {
    rec.apps[i].first_container.map(|t| t.0)
}

fn finish(rec: &MemoryRecorder, i: usize) -> u64 {
    rec.apps[i].finish.map(|t: SimTime| t.0).expect("finished")
}

/// testAMResourceLimit: 80 GB (five 16 GB nodes). a's AM limit is 10 % of the larger of its
/// 8 GB guarantee and the 80 GB it is held to while b is idle: 8 GB (fairsim's earlier
/// cluster × capacity × percent gave 819 MB, which would have held app_1 back). A user's AM
/// limit is 8 GB × 0.1 × max(0.5, 1 / active users) × 5: 4 GB while only user_0 asks, 2 GB
/// once user_1 does. Four apps with 2 GB AMs arrive at once: user_0's two and user_1's first
/// are activated (6 GB; user_1's app joins while only user_0 asks, so 2 ≤ 4 GB); user_1's
/// second would bring user_1 to 4 GB over 2 GB: it stays pending (one block) until app_2
/// finishes, and its AM is allocated at the first heartbeat after that.
#[test]
fn the_am_limit_reads_the_queues_current_limit_and_the_user_limit_the_active_users() {
    for era in ERAS {
        let apps = vec![
            app(0, "user_0", 2, 1, LONG_MS),
            app(0, "user_0", 2, 1, LONG_MS),
            app(0, "user_1", 2, 1, 10_000),
            app(0, "user_1", 2, 1, LONG_MS),
        ];
        let (rec, s) = run(&scenario(era, &[], 5, apps));
        for i in 0..3 {
            assert!(first(&rec, i).is_some_and(|t| t < 1_000), "{era}: app_{i}");
        }
        let done = finish(&rec, 2);
        let started = first(&rec, 3).expect("app_3 runs");
        assert!(
            started >= done && started < done + 1_000,
            "{era}: app_3 at {started}, app_2 finished at {done}"
        );
        assert_eq!(metric(&s, "am_limit_blocks.root.a"), 1.0, "{era}");
    }
}

/// testLimitsComputation: 100 nodes of 16 GB, one user asking. a's AM limit is 160 GB
/// (10 % of the 1,600 GB it may reach) and its user's 80 GB (160 GB × 0.1 × 1 × 5): of six
/// apps with 16 GB AMs five are activated (80 GB), the sixth is held by the user's limit.
/// On 120 nodes the limits are 192 GB and 96 GB: six of seven. With
/// maximum-am-resource-percent 0.5 on 100 nodes they are 800 GB and 400 GB: 25 of 26. The
/// held app never gets its AM while the others' tasks run.
#[test]
fn the_limits_follow_the_cluster_and_the_percent() {
    for era in ERAS {
        for (nodes, percent, apps) in [(100, "0.1", 6), (120, "0.1", 7), (100, "0.5", 26)] {
            let list = (0..apps).map(|_| app(0, "u", 16, 1, LONG_MS)).collect();
            let extra = [("root.a.maximum-am-resource-percent", percent)];
            let (rec, s) = run(&scenario(era, &extra, nodes, list));
            let label = format!("{era} {nodes} nodes {percent}");
            assert_eq!(metric(&s, "am_limit_blocks.root.a"), 1.0, "{label}");
            for i in 0..apps - 1 {
                assert!(first(&rec, i).is_some(), "{label}: app {i}");
            }
            assert_eq!(first(&rec, apps - 1), None, "{label}");
        }
    }
}

/// testActiveApplicationLimits, on its 160 GB cluster (ten 16 GB nodes): a's AM limit is
/// 16 GB, a user's 8 GB while one user asks. user_0's apps with 4 GB AMs: two are activated,
/// the third is held by the user's limit (12 > 8 GB) until the first finishes (its one task
/// of 10 s), then activated; a fourth is held the same way. user_1's app with an 8 GB AM is
/// activated (16 GB in all, within 16 GB); user_2's 8 GB app is held by the queue's limit
/// (24 > 16 GB). Hadoop's test then finishes user_1's app and sees user_2's activated: its
/// mock apps ask for nothing, so no user counts as active; in a run user_2's own AM ask
/// makes two users active, a user's AM limit 4 GB, and user_2's 8 GB AM stays held (the
/// rule Hadoop's `getUserAMResourceLimit` applies to the users its active-users count holds).
#[test]
fn apps_are_held_by_the_users_and_the_queues_am_limits_and_activated_as_others_finish() {
    for era in ERAS {
        let apps = vec![
            app(0, "user_0", 4, 1, 10_000),
            app(0, "user_0", 4, 1, LONG_MS),
            app(0, "user_0", 4, 1, LONG_MS),
            app(20_000, "user_0", 4, 1, LONG_MS),
            app(20_000, "user_1", 8, 1, 10_000),
            app(20_000, "user_2", 8, 1, LONG_MS),
        ];
        let (rec, s) = run(&scenario(era, &[], 10, apps));
        assert!(first(&rec, 0).is_some_and(|t| t < 1_000), "{era}");
        assert!(first(&rec, 1).is_some_and(|t| t < 1_000), "{era}");
        let done = finish(&rec, 0);
        let third = first(&rec, 2).expect("app_2 runs");
        assert!(
            third >= done && third < done + 1_000,
            "{era}: {third} {done}"
        );
        assert!(
            first(&rec, 4).is_some_and(|t| (20_000..21_000).contains(&t)),
            "{era}"
        );
        assert_eq!(first(&rec, 3), None, "{era}: user_0's fourth app is held");
        assert_eq!(first(&rec, 5), None, "{era}: user_2's app is held");
        // app_2, app_3 and app_5 were held when they joined.
        assert_eq!(metric(&s, "am_limit_blocks.root.a"), 3.0, "{era}");
    }
}

/// testActiveLimitsWithKilledApps without the kill (fairsim does not kill apps): four apps
/// of user_0 with 4 GB AMs on the 160 GB cluster, a user's AM limit 8 GB: two are activated,
/// two held. Pending apps are activated in submission order: when app_0 finishes app_2 is
/// activated, when app_1 finishes app_3.
#[test]
fn held_apps_are_activated_in_submission_order() {
    for era in ERAS {
        let apps = vec![
            app(0, "user_0", 4, 1, 10_000),
            app(0, "user_0", 4, 1, 20_000),
            app(0, "user_0", 4, 1, LONG_MS),
            app(0, "user_0", 4, 1, LONG_MS),
        ];
        let (rec, s) = run(&scenario(era, &[], 10, apps));
        for (held, freed_by) in [(2, 0), (3, 1)] {
            let done = finish(&rec, freed_by);
            let t = first(&rec, held).expect("runs");
            assert!(
                t >= done && t < done + 1_000,
                "{era}: app_{held} {t} {done}"
            );
        }
        assert_eq!(metric(&s, "am_limit_blocks.root.a"), 2.0, "{era}");
    }
}

/// TestLeafQueue.testActivateApplicationByUpdatingClusterResource: TestLeafQueue's queues
/// (a 8.5 %, b 80 %, c 1.5 %, d 9 %, e 1 % with a maximum of 1 %) on 1,600 GB (ten nodes of
/// 160 GB here, a hundred of 16 GB there) and three apps of user_e in e with 1 GB AMs. e's
/// AM limit is 10 % of its 16 GB (guarantee and maximum alike), 1,638.4 MB rounded up to
/// 2,048, and its user's the same: two apps are activated, the third held. The cluster
/// grows to 3,200 GB at 5 s (Hadoop's test calls `updateClusterResource` with it; here ten
/// more nodes join): 3,276.8 MB rounded up to 4,096, and the third app is activated then,
/// its AM allocated at the heartbeat of 5,000, which comes after the node event.
#[test]
fn a_growing_cluster_activates_the_held_app() {
    use fairsim_sim::topology::NodeSpec;
    use fairsim_sim::topology::events::{NodeEvent, NodeEventKind, NodeEvents};
    for era in ERAS {
        let props = [
            ("root.queues", "a,b,c,d,e"),
            ("root.a.capacity", "8.5"),
            ("root.b.capacity", "80"),
            ("root.c.capacity", "1.5"),
            ("root.d.capacity", "9"),
            ("root.e.capacity", "1"),
            ("root.e.maximum-capacity", "1"),
        ];
        let tree = capacity_tree(&capacity_xml(&props));
        let apps = (0..3)
            .map(|k| AppSpec {
                name: format!("e-{k}"),
                am: Some(Resource::new(GB, 1)),
                ..one_stage(0, "e", "user_e", 1, Resource::new(GB, 1), LONG_MS)
            })
            .collect();
        let node = Resource::new(160 * GB, 32);
        let mut sc = Scenario {
            scheduler: SchedulerConf {
                semantics: era,
                ..SchedulerConf::default()
            },
            end_ms: Some(30_000),
            ..trace_scenario("activate-by-cluster", tree, 10, node, apps)
        };
        sc.cluster.events = NodeEvents {
            events: vec![NodeEvent {
                at_ms: 5_000,
                kind: NodeEventKind::Add,
                nodes: (10..20).collect(),
            }],
            added: (0..10)
                .map(|k| NodeSpec {
                    name: format!("grown{k}"),
                    rack: "rack0".into(),
                    capacity: node,
                })
                .collect(),
        };
        let (rec, s) = run(&sc);
        assert!(first(&rec, 0).is_some_and(|t| t < 1_000), "{era}");
        assert!(first(&rec, 1).is_some_and(|t| t < 1_000), "{era}");
        assert_eq!(first(&rec, 2), Some(5_000), "{era}");
        assert_eq!(metric(&s, "am_limit_blocks.root.e"), 1.0, "{era}");
    }
}
