//! Hadoop 3.3's legacy auto-created leaf queues: a parent with
//! `auto-create-child-queue.enabled`, its `leaf-queue-template`, `u:%user:parent.%user`
//! mappings that create a leaf per user, and `GuaranteedOrZeroCapacityOverTimePolicy`'s
//! capacities. The queues are TestCapacitySchedulerAutoCreatedQueueBase's: root.c at 20 %
//! whose template gives each leaf 50 % of it (an absolute capacity of 0.1), so two leaves
//! are guaranteed 10 % of the cluster and the third gets 0 until one of them idles, when
//! the ResourceManager runs `QueueManagementDynamicEditPolicy` (as these runs do unless they
//! say otherwise); without that monitor a leaf keeps what it was given when made.

mod common;

use common::apps::{GB, LONG_MS, one_stage};
use common::outcomes::{run_recorded, run_sampled};
use common::scenarios::{capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::{LoadedAlloc, parse_any_xml};
use fairsim_sim::app::AppSpec;
use fairsim_sim::monitor_policies::{PREEMPTION_POLICY, QUEUE_MANAGEMENT_POLICY};
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

const H33: Semantics = Semantics::Hadoop33;
const H27: Semantics = Semantics::Hadoop27;

/// The base test's root.a (80 %, a plain leaf here) and root.c, with user_N mapped to
/// root.c.user_N whatever queue the app names.
fn props(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut p = vec![
        ("root.queues", "a,c"),
        ("root.a.capacity", "80"),
        ("root.c.capacity", "20"),
        ("root.c.auto-create-child-queue.enabled", "true"),
        ("root.c.leaf-queue-template.capacity", "50"),
        ("root.c.leaf-queue-template.maximum-capacity", "100"),
        ("queue-mappings", "u:%user:c.%user"),
        ("queue-mappings-override.enable", "true"),
    ];
    p.extend_from_slice(extra);
    p
}

fn load(era: Semantics, props: &[(&str, &str)]) -> Result<LoadedAlloc, String> {
    parse_any_xml(&capacity_xml(props), "capacity-scheduler.xml", era).map_err(|e| e.to_string())
}

/// The scheduling monitors on, running the queue-management policy alone (no preemption).
fn managed() -> SchedulerConf {
    SchedulerConf {
        semantics: H33,
        preemption: true,
        monitor_policies: QUEUE_MANAGEMENT_POLICY.into(),
        ..SchedulerConf::default()
    }
}

/// 10 nodes of 10 GB: a leaf at 0.1 is guaranteed 10,240 MB. The management policy runs.
fn scenario(props: &[(&str, &str)], apps: Vec<AppSpec>) -> Scenario {
    scenario_with(props, apps, managed())
}

fn scenario_with(props: &[(&str, &str)], apps: Vec<AppSpec>, scheduler: SchedulerConf) -> Scenario {
    let tree = load(H33, props).unwrap_or_else(|e| panic!("{e}")).tree;
    Scenario {
        scheduler,
        end_ms: Some(60_000),
        sample_interval_ms: 1000,
        ..trace_scenario("auto-queues", tree, 10, Resource::new(10 * GB, 10), apps)
    }
}

/// The guarantee (the min share the samples carry) of `queue` in the sample at `time`.
fn guarantee(rec: &MemoryRecorder, time: u64, queue: &str) -> Option<i64> {
    let (_, rows) = rec.samples.iter().find(|(t, _)| t.0 == time)?;
    rows.iter()
        .find(|r| r.queue == queue)
        .map(|r| r.min_share.memory_mb)
}

/// `count` 1 GB tasks of `user`, submitted to `default` at `at`.
fn app(at: u64, user: &str, count: u32, duration_ms: u64) -> AppSpec {
    AppSpec {
        user: user.into(),
        ..one_stage(
            at,
            "default",
            user,
            count,
            Resource::new(GB, 1),
            duration_ms,
        )
    }
}

/// testAutoCreatedQueueActivationDeactivation's first steps: user_0 and user_1 are each
/// given the template's 50 % of root.c (0.1 of the cluster, 10,240 MB here) as their leaves
/// are created; user_2's leaf finds root.c's 0.2 taken (0.2 − 0.2 + EPSILON < 0.1) and
/// starts at 0, with the template's maximum.
#[test]
fn leaves_are_created_by_the_mapping_and_guaranteed_while_the_parent_lasts() {
    let apps = vec![
        app(0, "user_0", 1, LONG_MS),
        app(1, "user_1", 1, LONG_MS),
        app(2, "user_2", 1, LONG_MS),
    ];
    let (rec, _) = run_sampled(&scenario(&props(&[]), apps));
    assert!(rec.apps.iter().all(|a| a.rejected.is_none()));
    assert_eq!(guarantee(&rec, 5000, "root.c.user_0"), Some(10_240));
    assert_eq!(guarantee(&rec, 5000, "root.c.user_1"), Some(10_240));
    assert_eq!(guarantee(&rec, 5000, "root.c.user_2"), Some(0));
    assert_eq!(guarantee(&rec, 5000, "root.c"), Some(20_480));
}

/// user_0's one task (2 s) ends near 3 s and its leaf holds no application; the policy's
/// next run (every 1,500 ms) sets it to 0 and gives the freed 0.1 to user_2's leaf, the
/// only inactive leaf with an application: from then on user_2's user limit reads a
/// 10,240 MB capacity. Before, its leaf at 0 had the minimum allocation's floor as
/// capacity (1,024 MB, factor 1): served while not above 1,024, it held 2,048 MB; after,
/// while not above 10,240, it holds 11,264 MB, as user_1 does.
#[test]
fn an_idle_leaf_gives_its_capacity_to_the_next_leaf_with_applications() {
    let apps = vec![
        app(0, "user_0", 1, 2000),
        app(1, "user_1", 30, LONG_MS),
        app(2, "user_2", 30, LONG_MS),
    ];
    let (rec, _) = run_sampled(&scenario(&props(&[]), apps));
    assert_eq!(guarantee(&rec, 2000, "root.c.user_2"), Some(0));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_0"), Some(0));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_1"), Some(10_240));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_2"), Some(10_240));
    let usage = |time: u64, queue: &str| {
        let (_, rows) = rec.samples.iter().find(|(t, _)| t.0 == time).unwrap();
        rows.iter()
            .find(|r| r.queue == queue)
            .unwrap()
            .usage
            .memory_mb
    };
    assert_eq!(usage(2000, "root.c.user_2"), 2048);
    assert_eq!(usage(20_000, "root.c.user_2"), 11_264);
    assert_eq!(usage(20_000, "root.c.user_1"), 11_264);
}

/// The template's settings reach the leaf: `maximum-applications` 1 refuses user_0's
/// second application; `auto-create-child-queue.max-queues` 2 refuses the third user's
/// leaf, and the app with it.
#[test]
fn the_template_and_the_parents_limits_hold() {
    let p = props(&[
        ("root.c.leaf-queue-template.maximum-applications", "1"),
        ("root.c.auto-create-child-queue.max-queues", "2"),
    ]);
    let apps = vec![
        app(0, "user_0", 1, LONG_MS),
        app(1, "user_0", 1, LONG_MS),
        app(2, "user_1", 1, LONG_MS),
        app(3, "user_2", 1, LONG_MS),
    ];
    let (mut rec, _) = run_recorded(&scenario(&p, apps));
    rec.apps.sort_by_key(|a| a.index);
    let why = |i: usize| rec.apps[i].rejected.clone().unwrap_or_default();
    assert!(
        why(0).is_empty() && why(2).is_empty(),
        "{} / {}",
        why(0),
        why(2)
    );
    assert!(why(1).contains("maximum-applications 1"), "{}", why(1));
    assert!(why(3).contains("max-queues 2"), "{}", why(3));
}

/// An app whose user no mapping creates a leaf for, naming the parent, is refused as
/// naming a parent; and without the override an app naming another queue keeps it, while
/// one naming its own mapped leaf (`user_0`) is mapped (Hadoop 3.3's placement rule).
#[test]
fn the_override_rules_follow_the_placement_rule() {
    let mut p = props(&[]);
    p.retain(|(k, _)| *k != "queue-mappings-override.enable");
    let apps = vec![
        one_stage(0, "a", "user_0", 1, Resource::new(GB, 1), LONG_MS),
        one_stage(1, "user_0", "user_0", 1, Resource::new(GB, 1), LONG_MS),
        one_stage(2, "c", "user_1", 1, Resource::new(GB, 1), LONG_MS),
    ];
    let (mut rec, _) = run_recorded(&scenario(&p, apps));
    rec.apps.sort_by_key(|a| a.index);
    let placed = |i: usize| rec.apps[i].queue.clone();
    assert!(rec.apps[0].rejected.is_none() && rec.apps[1].rejected.is_none());
    assert_eq!(placed(0), "root.a");
    assert_eq!(placed(1), "root.c.user_0");
    let why = rec.apps[2].rejected.clone().unwrap_or_default();
    assert!(why.contains("non-leaf queue: c"), "{why}");
}

#[test]
fn the_reader_checks_the_template_as_yarn_does() {
    let tree = load(
        H33,
        &props(&[
            ("root.c.leaf-queue-template.user-limit-factor", "3"),
            ("root.c.leaf-queue-template.ordering-policy", "fair"),
            (
                "root.c.leaf-queue-template.maximum-am-resource-percent",
                "0.5",
            ),
        ]),
    )
    .unwrap()
    .tree;
    let c = &tree.queues[2];
    assert_eq!(c.name, "root.c");
    assert!(!c.is_leaf && c.children.is_empty());
    let t = c.cs.auto_create.as_ref().expect("a managed parent");
    assert_eq!(t.capacity_percent, 50.0);
    assert_eq!(t.user_limit_factor, 3.0);
    assert_eq!(t.am_fraction, 0.5);
    assert_eq!(t.ordering_policy, fairsim_sim::tree::OrderingPolicy::Fair);

    let mut no_cap = props(&[]);
    no_cap.retain(|(k, _)| *k != "root.c.leaf-queue-template.capacity");
    let e = load(H33, &no_cap).unwrap_err();
    assert!(e.contains("Illegal capacity of -1.0"), "{e}");

    let loaded = load(
        H33,
        &props(&[("root.c.queues", "x"), ("root.c.x.capacity", "100")]),
    )
    .unwrap();
    let text = loaded.warnings.join("\n");
    assert!(
        text.contains("lists queues of its own") && text.contains("not modelled"),
        "{text}"
    );

    let e = load(
        H33,
        &props(&[(
            "root.c.auto-create-child-queue.management-policy",
            "com.example.Mine",
        )]),
    )
    .unwrap_err();
    assert!(
        e.contains("not GuaranteedOrZeroCapacityOverTimePolicy"),
        "{e}"
    );
}

/// Hadoop 2.7 has no auto-created queues: the properties are warned about, root.c is a
/// plain leaf, and a mapping to `c.%user` is refused as YARN 2.7 refuses it at start-up.
#[test]
fn hadoop_27_warns_and_keeps_the_parent_a_leaf() {
    let mut p = props(&[]);
    p.retain(|(k, _)| !k.starts_with("queue-mappings"));
    let loaded = load(H27, &p).unwrap();
    assert!(loaded.tree.queues[2].is_leaf);
    let text = loaded.warnings.join("\n");
    assert!(
        text.contains("auto-create-child-queue.enabled")
            && text.contains("hadoop-2.7 has no auto-created queues"),
        "{text}"
    );
    let e = load(H27, &props(&[])).unwrap_err();
    assert!(e.contains("not a leaf queue"), "{e}");
}

/// TestQueueManagementDynamicEditPolicy.testEditSchedule: USER1's and USER2's leaves are
/// given 0.1 each, USER3's starts at 0 (capacity 0, maximum 1.0); once both their apps are
/// gone, one run of the policy deactivates both and activates USER3's alone (one
/// application: `min(floor(0.2001 / 0.1), 1)` leaves), at 50 % of root.c, 0.1 of the
/// cluster, leaving 0.1 activated.
#[test]
fn edit_schedule_moves_the_freed_capacity_to_the_waiting_leaf() {
    let p = props(&[]);
    let apps = vec![
        app(0, "user_1", 1, 2000),
        app(1, "user_2", 1, 2000),
        app(2, "user_3", 1, LONG_MS),
    ];
    let (rec, _) = run_sampled(&scenario(&p, apps));
    assert_eq!(guarantee(&rec, 1000, "root.c.user_1"), Some(10_240));
    assert_eq!(guarantee(&rec, 1000, "root.c.user_2"), Some(10_240));
    assert_eq!(guarantee(&rec, 1000, "root.c.user_3"), Some(0));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_1"), Some(0));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_2"), Some(0));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_3"), Some(10_240));
}

/// testAutoCreatedQueueActivationDeactivation (its default partition): USER1 and USER2 are
/// given 0.1 each, USER1's second app changes nothing, USER3's leaf starts at 0 (the 0.2
/// activated stays 0.2); when USER2's app is gone the policy deactivates its leaf and
/// activates USER3's.
#[test]
fn activation_and_deactivation_follow_the_leaves_applications() {
    let apps = vec![
        app(0, "user_1", 1, LONG_MS),
        app(1, "user_2", 1, 2000),
        app(2, "user_1", 1, LONG_MS),
        app(3, "user_3", 1, LONG_MS),
    ];
    let (rec, _) = run_sampled(&scenario(&props(&[]), apps));
    for (q, before, after) in [
        ("root.c.user_1", 10_240, 10_240),
        ("root.c.user_2", 10_240, 0),
        ("root.c.user_3", 0, 10_240),
    ] {
        assert_eq!(guarantee(&rec, 1000, q), Some(before), "{q}");
        assert_eq!(guarantee(&rec, 10_000, q), Some(after), "{q}");
    }
}

/// testAutoCreationFailsWhenParentCapacityExceeded: with
/// fail-on-exceeding-parent-capacity, two leaves at 0.1 fill root.c's 0.2 and the third
/// is not created (0.1 + 0.2 > 0.2): its app is rejected. Without the flag it is made at 0.
#[test]
fn a_parent_may_refuse_leaves_beyond_its_guarantee() {
    let p = props(&[(
        "root.c.auto-create-child-queue.fail-on-exceeding-parent-capacity",
        "true",
    )]);
    let apps = || {
        vec![
            app(0, "user_1", 1, LONG_MS),
            app(1, "user_2", 1, LONG_MS),
            app(2, "user_3", 1, LONG_MS),
        ]
    };
    let (mut rec, _) = run_recorded(&scenario(&p, apps()));
    rec.apps.sort_by_key(|a| a.index);
    assert!(rec.apps[0].rejected.is_none() && rec.apps[1].rejected.is_none());
    let why = rec.apps[2].rejected.clone().unwrap_or_default();
    assert!(why.contains("fail-on-exceeding-parent-capacity"), "{why}");
    let (rec, _) = run_recorded(&scenario(&props(&[]), apps()));
    assert!(rec.apps.iter().all(|a| a.rejected.is_none()));
}

/// testAutoCreateLeafQueueFailsWithNoQueueMapping: a user no mapping names, submitting to
/// a queue that does not exist, is rejected; testAutoCreateLeafQueueCreationUsingFullParentPath:
/// a mapping may name the parent by its path (root.d, template 10 % of 20 %: 0.02 of the
/// cluster, 2,048 MB).
#[test]
fn only_mapped_users_create_leaves_and_parents_may_be_named_by_path() {
    let p = vec![
        ("root.queues", "a,c,d"),
        ("root.a.capacity", "60"),
        ("root.c.capacity", "20"),
        ("root.d.capacity", "20"),
        ("root.c.auto-create-child-queue.enabled", "true"),
        ("root.c.leaf-queue-template.capacity", "50"),
        ("root.d.auto-create-child-queue.enabled", "true"),
        ("root.d.leaf-queue-template.capacity", "10"),
        (
            "queue-mappings",
            "u:user_0:c.user_0,u:testuser:root.d.%user",
        ),
        ("queue-mappings-override.enable", "true"),
    ];
    let apps = vec![
        one_stage(
            0,
            "invalid_user",
            "invalid_user",
            1,
            Resource::new(GB, 1),
            LONG_MS,
        ),
        one_stage(1, "default", "testuser", 1, Resource::new(GB, 1), LONG_MS),
    ];
    let (mut rec, _) = run_sampled(&scenario(&p, apps));
    rec.apps.sort_by_key(|a| a.index);
    let why = rec.apps[0].rejected.clone().unwrap_or_default();
    assert!(why.contains("unknown queue: invalid_user"), "{why}");
    assert_eq!(rec.apps[1].queue, "root.d.testuser");
    assert_eq!(guarantee(&rec, 1000, "root.d.testuser"), Some(2048));
}

/// testQueueMappingValidationFailsWithInvalidParentQueueInMapping and
/// testQueueMappingUpdatesFailsOnRemovalOfParentQueueInMapping: a mapping to a leaf under a
/// parent that does not create leaves, under a parent that does not exist, or under an
/// empty parent name stops YARN at start-up.
#[test]
fn mappings_under_parents_that_create_no_leaves_are_refused() {
    for mapping in [
        "u:%user:a.%user",
        "u:app_user:INVALID_PARENT_QUEUE.app_user",
        "u:%user:.%user",
    ] {
        let mut p = props(&[]);
        p.retain(|(k, _)| *k != "queue-mappings");
        p.push(("queue-mappings", mapping));
        let e = load(H33, &p).unwrap_err();
        assert!(e.contains("which is not a leaf queue"), "{mapping}: {e}");
    }
}

/// The same runs as `edit_schedule_moves_the_freed_capacity_to_the_waiting_leaf`, without
/// `QueueManagementDynamicEditPolicy`: with the monitors off (YARN's default), or on with
/// yarn-default.xml's list (preemption alone), nothing runs the management policy
/// (`SchedulingMonitorManager` starts only the listed policies, and only when enabled), so
/// each leaf keeps what `getInitialLeafQueueConfiguration` gave it when it was made: user_1
/// and user_2 0.1 each after their apps end, user_3 0 while its app waits.
#[test]
fn without_the_monitor_a_leaf_keeps_the_capacity_it_was_made_with() {
    let apps = || {
        vec![
            app(0, "user_1", 1, 2000),
            app(1, "user_2", 1, 2000),
            app(2, "user_3", 1, LONG_MS),
        ]
    };
    let off = SchedulerConf {
        semantics: H33,
        ..SchedulerConf::default()
    };
    let preemption_only = SchedulerConf {
        preemption: true,
        monitor_policies: PREEMPTION_POLICY.into(),
        ..off.clone()
    };
    for conf in [off, preemption_only] {
        let (rec, _) = run_sampled(&scenario_with(&props(&[]), apps(), conf));
        for time in [1000, 10_000, 50_000] {
            assert_eq!(guarantee(&rec, time, "root.c.user_1"), Some(10_240));
            assert_eq!(guarantee(&rec, time, "root.c.user_2"), Some(10_240));
            assert_eq!(guarantee(&rec, time, "root.c.user_3"), Some(0));
        }
    }
}

/// `yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval` at 20 s:
/// the policy runs at the first update tick (the monitor's first run has no delay) and then
/// every 20 s, so user_3's leaf waits until the run near 20 s for the capacity user_1's and
/// user_2's leaves gave back near 3 s.
#[test]
fn the_policy_runs_at_its_monitoring_interval() {
    let apps = vec![
        app(0, "user_1", 1, 2000),
        app(1, "user_2", 1, 2000),
        app(2, "user_3", 1, LONG_MS),
    ];
    let conf = SchedulerConf {
        queue_management_interval_ms: 20_000,
        ..managed()
    };
    let (rec, _) = run_sampled(&scenario_with(&props(&[]), apps, conf));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_3"), Some(0));
    assert_eq!(guarantee(&rec, 10_000, "root.c.user_1"), Some(10_240));
    assert_eq!(guarantee(&rec, 30_000, "root.c.user_3"), Some(10_240));
    assert_eq!(guarantee(&rec, 30_000, "root.c.user_1"), Some(0));
}

/// A managed parent that also lists a queue of its own loads, as Hadoop 3.3's
/// `parseQueue` loads it: root.c.x keeps its configured 100 % of root.c (0.2 of the
/// cluster, 20,480 MB), and the created leaves are given the template's 0.1 each beside it
/// (the policy's activated sum counts only the leaves it activated).
#[test]
fn a_managed_parent_may_list_queues_of_its_own() {
    let p = props(&[("root.c.queues", "x"), ("root.c.x.capacity", "100")]);
    let apps = vec![
        // The mapping sends user x to c.x, the listed leaf.
        one_stage(0, "default", "x", 1, Resource::new(GB, 1), LONG_MS),
        app(1, "user_1", 1, LONG_MS),
    ];
    let (mut rec, _) = run_sampled(&scenario(&p, apps));
    rec.apps.sort_by_key(|a| a.index);
    assert!(rec.apps.iter().all(|a| a.rejected.is_none()));
    assert_eq!(rec.apps[0].queue, "root.c.x");
    assert_eq!(guarantee(&rec, 1000, "root.c.x"), Some(20_480));
    assert_eq!(guarantee(&rec, 1000, "root.c.user_1"), Some(10_240));
}

fn write(dir: &std::path::Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

fn conf_xml(props: &[(&str, &str)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (n, v) in props {
        s.push_str(&format!(
            "  <property>\n    <name>{n}</name>\n    <value>{v}</value>\n  </property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

/// A scenario directory whose yarn-site.xml sets the monitors as `site` does.
fn site_scenario(site: &[(&str, &str)]) -> Result<Scenario, String> {
    let d = tempfile::tempdir().unwrap();
    let full: Vec<(String, String)> = props(&[])
        .into_iter()
        .map(|(k, v)| (format!("yarn.scheduler.capacity.{k}"), v.to_string()))
        .collect();
    let refs: Vec<(&str, &str)> = full.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    write(d.path(), "capacity-scheduler.xml", &conf_xml(&refs));
    write(d.path(), "yarn-site.xml", &conf_xml(site));
    write(
        d.path(),
        "trace.csv",
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         a1,0,default,user_0,0,0,0,1,1024,1,100,1,\n",
    );
    write(
        d.path(),
        "s.toml",
        "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\n\
         [scheduler]\nsemantics = \"hadoop-3.3\"\nyarn_site = \"yarn-site.xml\"\n\n\
         [workload]\ncsv = \"trace.csv\"\n",
    );
    fairsim_sim::load_scenario(d.path().join("s.toml")).map_err(|e| e.to_string())
}

/// yarn-site.xml's monitor settings reach the run; a list YARN cannot load is refused at
/// its file, line and property, as the ResourceManager fails to start on it.
#[test]
fn the_monitor_settings_are_read_from_yarn_site() {
    let enable = "yarn.resourcemanager.scheduler.monitor.enable";
    let policies = "yarn.resourcemanager.scheduler.monitor.policies";
    let interval = "yarn.resourcemanager.monitor.capacity.queue-management.monitoring-interval";
    let both = format!("{PREEMPTION_POLICY},{QUEUE_MANAGEMENT_POLICY}");
    let sc = site_scenario(&[(enable, "true"), (policies, &both), (interval, "3000")]).unwrap();
    assert!(sc.scheduler.preemption);
    assert_eq!(sc.scheduler.monitor_policies, both);
    assert_eq!(sc.scheduler.queue_management_interval_ms, 3000);

    let spaced = format!("{PREEMPTION_POLICY}, {QUEUE_MANAGEMENT_POLICY}");
    let e = site_scenario(&[(enable, "true"), (policies, &spaced)]).unwrap_err();
    assert!(
        e.contains("yarn-site.xml:") && e.contains(policies) && e.contains("without trimming"),
        "{e}"
    );
    // Monitors off: Hadoop never reads the list.
    assert!(site_scenario(&[(enable, "false"), (policies, &spaced)]).is_ok());
    let e = site_scenario(&[(interval, "0")]).unwrap_err();
    assert!(e.contains(interval), "{e}");
}

/// TestAbsoluteResourceWithAutoQueue's queues: root.queueA to queueD in absolute resources
/// (A [100 GB, 10] to [200 GB, 30], B [50 GB, 10] to [150 GB, 30], C and D [25 GB, 5] to
/// [150 GB, 20]), C and D creating leaves, D's template [10 GB, 2]; users mapped under D.
fn absolute_props(extra: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut p = vec![
        ("root.queues", "queueA,queueB,queueC,queueD"),
        ("root.queueA.capacity", "[memory=102400,vcores=10]"),
        ("root.queueA.maximum-capacity", "[memory=204800,vcores=30]"),
        ("root.queueB.capacity", "[memory=51200,vcores=10]"),
        ("root.queueB.maximum-capacity", "[memory=153600,vcores=30]"),
        ("root.queueC.capacity", "[memory=25600,vcores=5]"),
        ("root.queueC.maximum-capacity", "[memory=153600,vcores=20]"),
        ("root.queueD.capacity", "[memory=25600,vcores=5]"),
        ("root.queueD.maximum-capacity", "[memory=153600,vcores=20]"),
        ("root.queueC.auto-create-child-queue.enabled", "true"),
        (
            "root.queueC.leaf-queue-template.capacity",
            "[memory=25600,vcores=5]",
        ),
        (
            "root.queueC.leaf-queue-template.maximum-capacity",
            "[memory=153600,vcores=20]",
        ),
        ("root.queueD.auto-create-child-queue.enabled", "true"),
        (
            "root.queueD.leaf-queue-template.capacity",
            "[memory=10240,vcores=2]",
        ),
        ("queue-mappings", "u:%user:queueD.%user"),
        ("queue-mappings-override.enable", "true"),
    ];
    p.extend_from_slice(extra);
    p
}

/// The test's 250 GB and 40 vcores, as 10 nodes of 25 GB and 4 vcores (a node takes one
/// container a heartbeat here: ten fill the leaves within the run).
fn absolute_scenario(props: &[(&str, &str)], apps: Vec<AppSpec>) -> Scenario {
    let tree = load(H33, props).unwrap_or_else(|e| panic!("{e}")).tree;
    Scenario {
        scheduler: managed(),
        end_ms: Some(60_000),
        sample_interval_ms: 1000,
        ..trace_scenario(
            "absolute-auto-queues",
            tree,
            10,
            Resource::new(25 * GB, 4),
            apps,
        )
    }
}

/// testAutoCreateLeafQueueCreation: each leaf's capacity is D's template over D's
/// configured minimum (10 GB / 25 GB = 0.4 of D, 0.04 of the cluster: 10,240 MB); the
/// first two leaves fit D's 0.1, the third starts at 0 (0.1 − 0.08 + EPSILON < 0.04).
/// Its maximum is the template's over D's configured maximum: with [75 GB] that is 0.5 of
/// D's 0.6, so a user free of its user limit holds 0.3 of the cluster, 76,800 MB.
#[test]
fn an_absolute_template_gives_leaves_a_share_of_the_parents_resources() {
    let apps = vec![
        app(0, "user_0", 1, LONG_MS),
        app(1, "user_1", 1, LONG_MS),
        app(2, "user_2", 1, LONG_MS),
    ];
    let (rec, _) = run_sampled(&absolute_scenario(&absolute_props(&[]), apps));
    let why: Vec<_> = rec.apps.iter().filter_map(|a| a.rejected.clone()).collect();
    assert!(why.is_empty(), "{why:?}");
    assert_eq!(guarantee(&rec, 1000, "root.queueD.user_0"), Some(10_240));
    assert_eq!(guarantee(&rec, 1000, "root.queueD.user_1"), Some(10_240));
    assert_eq!(guarantee(&rec, 1000, "root.queueD.user_2"), Some(0));

    let p = absolute_props(&[
        (
            "root.queueD.leaf-queue-template.maximum-capacity",
            "[memory=76800,vcores=10]",
        ),
        ("root.queueD.leaf-queue-template.user-limit-factor", "100"),
    ]);
    let (rec, _) = run_sampled(&absolute_scenario(&p, vec![app(0, "user_0", 200, LONG_MS)]));
    let (_, rows) = rec.samples.iter().find(|(t, _)| t.0 == 30_000).unwrap();
    let held = rows
        .iter()
        .find(|r| r.queue == "root.queueD.user_0")
        .unwrap();
    assert_eq!(held.usage.memory_mb, 76_800);
}

/// testValidateLeafQueueTemplateConfigurations: an absolute template under a parent at a
/// percentage stops YARN with its message; a weight template is no 3.3 form; a parent
/// without an absolute maximum is warned about.
#[test]
fn an_absolute_template_needs_an_absolute_parent() {
    let e = load(
        H33,
        &[
            ("root.queues", "a,c"),
            ("root.a.capacity", "75"),
            ("root.c.capacity", "25"),
            ("root.c.auto-create-child-queue.enabled", "true"),
            (
                "root.c.leaf-queue-template.capacity",
                "[memory=25600,vcores=5]",
            ),
        ],
    )
    .unwrap_err();
    assert!(
        e.contains("Managed Parent Queue root.c config type is different from leaf queue template config type"),
        "{e}"
    );
    let e = load(
        H33,
        &props(&[("root.c.leaf-queue-template.capacity", "2w")])
            .into_iter()
            .filter(|(k, v)| *k != "root.c.leaf-queue-template.capacity" || *v == "2w")
            .collect::<Vec<_>>(),
    )
    .unwrap_err();
    assert!(e.contains("a weight fails the getter"), "{e}");
    let mut p = absolute_props(&[]);
    p.retain(|(k, _)| *k != "root.queueD.maximum-capacity");
    let warned = load(H33, &p).unwrap().warnings.join("\n");
    assert!(
        warned.contains("has no absolute maximum-capacity"),
        "{warned}"
    );
}

/// testApplicationRunningWithDRF: under the dominant resource calculator an app mapped under
/// queueD makes its leaf from the absolute template and runs there (the difference in the
/// leaf's guaranteed resources under that calculator is warned about).
#[test]
fn an_absolute_template_runs_under_the_dominant_calculator() {
    let p = absolute_props(&[(
        "resource-calculator",
        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator",
    )]);
    let warned = load(H33, &p).unwrap().warnings.join("\n");
    assert!(warned.contains("dominant resource calculator"), "{warned}");
    let (rec, _) = run_sampled(&absolute_scenario(&p, vec![app(0, "user_0", 1, LONG_MS)]));
    assert!(rec.apps[0].rejected.is_none());
    assert_eq!(rec.apps[0].queue, "root.queueD.user_0");
    let (_, rows) = rec.samples.iter().find(|(t, _)| t.0 == 5000).unwrap();
    let leaf = rows
        .iter()
        .find(|r| r.queue == "root.queueD.user_0")
        .unwrap();
    assert_eq!(leaf.usage.memory_mb, GB);
}
