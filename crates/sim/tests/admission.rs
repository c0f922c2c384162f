//! Submission as YARN does it, end to end: request normalisation per scheduler, the maximum
//! allocation (configured, then capped by the largest node after the scheduling wait), and
//! queue names the schedulers refuse (docs/semantics.md, "Request normalisation" and
//! "Placement").

mod common;

use common::apps::one_stage;
use common::outcomes::{run_recorded, run_sampled};
use common::scenarios::{capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_capacity_scheduler_xml;
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::tree::{QueueId, QueueTree};

fn app(arrival: u64, queue: &str, count: u32, size: Resource, dur: u64) -> AppSpec {
    one_stage(arrival, queue, "u", count, size, dur)
}

fn fair_tree(names: &[&str]) -> QueueTree {
    let mut t = QueueTree::with_root();
    for n in names {
        t.add_queue(QueueId::ROOT, n, true);
    }
    t
}

fn capacity_tree() -> QueueTree {
    common::scenarios::capacity_tree(&capacity_xml(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.b.queues", "b1"),
        ("root.b.b1.capacity", "100"),
    ]))
}

fn allocated_sizes(rec: &MemoryRecorder) -> Vec<Resource> {
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| d.size)
        .collect()
}

#[test]
fn fair_scheduler_rounds_asks_up_to_the_increment_in_both_eras() {
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let apps = vec![app(0, "q", 1, Resource::new(1500, 1), 100)];
        let mut sc = trace_scenario(
            "admission",
            fair_tree(&["q"]),
            1,
            Resource::new(8192, 8),
            apps,
        );
        sc.scheduler.semantics = semantics;
        sc.scheduler.increment_allocation_mb = 512;
        let (rec, _) = run_recorded(&sc);
        assert_eq!(allocated_sizes(&rec), vec![Resource::new(1536, 1)]);
        // With YARN's defaults (minimum and increment 1024 MB) the same ask takes 2048 MB,
        // and a 100 MB / 0 vcore ask takes the minimum, 1024 MB / 1 vcore.
        let apps = vec![
            app(0, "q", 1, Resource::new(1500, 1), 100),
            app(0, "q", 1, Resource::new(100, 0), 100),
        ];
        let mut sc = trace_scenario(
            "admission",
            fair_tree(&["q"]),
            1,
            Resource::new(8192, 8),
            apps,
        );
        sc.scheduler.semantics = semantics;
        let (rec, _) = run_recorded(&sc);
        assert_eq!(
            allocated_sizes(&rec),
            vec![Resource::new(2048, 1), Resource::new(1024, 1)]
        );
    }
}

#[test]
fn capacity_scheduler_rounds_to_the_minimum_and_the_memory_calculator_sets_one_vcore() {
    let apps = vec![app(0, "a", 1, Resource::new(1500, 3), 100)];
    let mut sc = trace_scenario(
        "admission",
        capacity_tree(),
        1,
        Resource::new(8192, 8),
        apps,
    );
    sc.scheduler.minimum_allocation_mb = 512;
    let (rec, _) = run_recorded(&sc);
    assert_eq!(allocated_sizes(&rec), vec![Resource::new(1536, 1)]);
}

#[test]
fn an_ask_above_the_maximum_allocation_is_rejected_with_the_reason_in_both_schedulers() {
    for (tree, queue) in [(fair_tree(&["q"]), "q"), (capacity_tree(), "a")] {
        let apps = vec![
            app(0, queue, 1, Resource::new(9000, 1), 100),
            app(0, queue, 1, Resource::new(1024, 5), 100),
            app(0, queue, 1, Resource::new(8192, 4), 100),
        ];
        let sc = trace_scenario("admission", tree, 2, Resource::new(16384, 16), apps);
        let (rec, s) = run_recorded(&sc);
        let reason = |i: usize| rec.apps[i].rejected.clone().unwrap_or_default();
        assert!(
            reason(0).contains("maximum allocation 8192 MB"),
            "{}",
            reason(0)
        );
        assert!(
            reason(1).contains("maximum allocation 4 vcores"),
            "{}",
            reason(1)
        );
        assert!(rec.apps[2].finish.is_some(), "an ask at the maximum runs");
        assert_eq!(s.get("apps_rejected"), Some(2.0));
    }
}

/// Issue 12 item 7: an ask larger than every node but within the maximum allocation, made
/// while the maximum in force is the configured one, stays pending: it counts in its queue's
/// demand, so in fair shares and starvation. After the scheduling wait (10 s) the maximum is
/// capped by the largest node and the same ask is rejected.
#[test]
fn an_ask_larger_than_any_node_but_within_the_maximum_stays_pending_and_counts_in_demand() {
    let apps = vec![
        app(0, "big", 1, Resource::new(6144, 1), 1_000),
        app(0, "small", 8, Resource::new(1024, 1), 100_000),
    ];
    let mut sc = trace_scenario(
        "admission",
        fair_tree(&["big", "small"]),
        1,
        Resource::new(4096, 4),
        apps,
    );
    sc.end_ms = Some(30_000);
    sc.sample_interval_ms = 10_000;
    let (rec, s) = run_sampled(&sc);
    assert!(rec.apps[0].rejected.is_none());
    assert!(rec.apps[0].first_container.is_none());
    assert_eq!(s.get("apps_unfinished"), Some(2.0));
    let (_, last) = rec.samples.last().expect("samples");
    let big = last.iter().find(|q| q.queue == "root.big").unwrap();
    let small = last.iter().find(|q| q.queue == "root.small").unwrap();
    assert_eq!(big.demand.memory_mb, 6144);
    // Equal weights, both demanding more than half: half the cluster each.
    assert_eq!(big.fair_share.memory_mb, 2048);
    assert_eq!(small.fair_share.memory_mb, 2048);
    assert_eq!(big.usage.memory_mb, 0);
    // Starved of its fair share for the whole run (0 < 0.5 × 2048 from the first update).
    assert_eq!(s.get("starved_fair_s.root.big"), Some(30.0));

    // Submitted after the wait: the maximum is now the largest node's 4096 MB.
    let apps = vec![app(10_001, "big", 1, Resource::new(6144, 1), 1_000)];
    let sc = trace_scenario(
        "admission",
        fair_tree(&["big"]),
        1,
        Resource::new(4096, 4),
        apps,
    );
    let (rec, s) = run_recorded(&sc);
    let reason = rec.apps[0].rejected.clone().unwrap_or_default();
    assert!(reason.contains("maximum allocation 4096 MB"), "{reason}");
    assert_eq!(s.get("apps_rejected"), Some(1.0));

    // A longer wait keeps the configured maximum: pending again.
    let apps = vec![app(10_001, "big", 1, Resource::new(6144, 1), 1_000)];
    let mut sc = trace_scenario(
        "admission",
        fair_tree(&["big"]),
        1,
        Resource::new(4096, 4),
        apps,
    );
    sc.scheduler.max_allocation_wait_ms = 60_000;
    sc.end_ms = Some(20_000);
    let (rec, s) = run_recorded(&sc);
    assert!(rec.apps[0].rejected.is_none());
    assert_eq!(s.get("apps_unfinished"), Some(1.0));
}

/// Issue 12 item 8: FairScheduler.addApplication rejects an empty queue name before any
/// placement rule runs (the default rules would otherwise create the user's queue).
#[test]
fn an_empty_queue_name_is_rejected_by_the_fair_scheduler_in_both_eras() {
    for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let apps = vec![
            app(0, "", 1, Resource::new(1024, 1), 100),
            app(0, ".q", 1, Resource::new(1024, 1), 100),
            app(0, "q", 1, Resource::new(1024, 1), 100),
        ];
        let mut sc = trace_scenario(
            "admission",
            fair_tree(&["q"]),
            1,
            Resource::new(8192, 8),
            apps,
        );
        sc.scheduler.semantics = semantics;
        let (rec, s) = run_recorded(&sc);
        let r0 = rec.apps[0].rejected.clone().unwrap_or_default();
        assert!(r0.contains("empty queue name"), "{r0}");
        let r1 = rec.apps[1].rejected.clone().unwrap_or_default();
        assert!(r1.contains("illegal queue name .q"), "{r1}");
        assert!(rec.apps[2].finish.is_some());
        assert_eq!(s.get("apps_rejected"), Some(2.0));
    }
}

/// Issue 9 item 7: every queue name the Capacity Scheduler cannot place an app in rejects it
/// with YARN's reason, and nothing panics. Leaf names are found in both eras; full paths in
/// the hadoop-3.3 era only.
#[test]
fn capacity_scheduler_placement_by_leaf_name_rejects_unknown_and_parent_queues() {
    let names = ["default", "root", "", "b", "nosuch", "a", "b1", "root.a"];
    for (semantics, full_path_ok) in [(Semantics::Hadoop27, false), (Semantics::Hadoop33, true)] {
        let apps = names
            .iter()
            .map(|q| app(0, q, 1, Resource::new(1024, 1), 100))
            .collect();
        let mut sc = trace_scenario(
            "admission",
            capacity_tree(),
            2,
            Resource::new(8192, 8),
            apps,
        );
        sc.scheduler.semantics = semantics;
        let (rec, s) = run_recorded(&sc);
        let reason = |i: usize| rec.apps[i].rejected.clone().unwrap_or_default();
        assert_eq!(reason(0), "submitted by user u to unknown queue: default");
        assert_eq!(reason(1), "submitted by user u to non-leaf queue: root");
        assert_eq!(reason(2), "submitted by user u to unknown queue: ");
        assert_eq!(reason(3), "submitted by user u to non-leaf queue: b");
        assert_eq!(reason(4), "submitted by user u to unknown queue: nosuch");
        assert_eq!(rec.apps[5].queue, "root.a");
        assert!(rec.apps[5].finish.is_some());
        assert_eq!(rec.apps[6].queue, "root.b.b1");
        assert!(rec.apps[6].finish.is_some());
        if full_path_ok {
            assert_eq!(rec.apps[7].queue, "root.a");
            assert_eq!(s.get("apps_rejected"), Some(5.0));
        } else {
            assert_eq!(reason(7), "submitted by user u to unknown queue: root.a");
            assert_eq!(s.get("apps_rejected"), Some(6.0));
        }
    }
}

fn mapped_capacity_tree(override_named: bool) -> QueueTree {
    let text = format!(
        "<configuration>\n\
        <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.b.queues</name><value>b1</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.b.b1.capacity</name><value>100</value></property>\n\
        <property><name>yarn.scheduler.capacity.queue-mappings</name>\
        <value>u:alice:b1, g:eng:a, u:%user:%primary_group</value></property>\n\
        <property><name>yarn.scheduler.capacity.queue-mappings-override.enable</name>\
        <value>{override_named}</value></property>\n\
        </configuration>\n"
    );
    parse_capacity_scheduler_xml(&text, "capacity-scheduler.xml")
        .expect("valid file")
        .tree
}

/// Issue 9 item 7: `queue-mappings` replace `default` (or every name with the override):
/// `u:` by user, `g:` by any of the user's groups, `%user:%primary_group` as a catch-all.
#[test]
fn capacity_queue_mappings_place_apps_submitted_to_default() {
    let groups = fairsim_sim::groups::Groups::parse(
        "user,primary_group,secondary_groups\nbob,sales,eng\ndave,b1,\n",
        std::path::Path::new("groups.csv"),
    )
    .expect("valid groups");
    let submit = |queue: &str, user: &str| AppSpec {
        user: user.into(),
        ..app(0, queue, 1, Resource::new(1024, 1), 100)
    };
    for (override_named, alice_named) in [(false, "root.a"), (true, "root.b.b1")] {
        let apps = vec![
            submit("default", "alice"),
            submit("default", "bob"),
            submit("default", "dave"),
            submit("default", "carol"),
            submit("a", "alice"),
        ];
        let mut sc = trace_scenario(
            "admission",
            mapped_capacity_tree(override_named),
            2,
            Resource::new(8192, 8),
            apps,
        );
        sc.scheduler.groups = groups.clone();
        let (rec, s) = run_recorded(&sc);
        let queues: Vec<&str> = rec.apps.iter().map(|a| a.queue.as_str()).collect();
        // alice by user; bob by his secondary group eng; dave by %primary_group (b1); carol's
        // primary group is her name, no such queue: rejected.
        assert_eq!(queues[..3], ["root.b.b1", "root.a", "root.b.b1"]);
        assert_eq!(
            rec.apps[3].rejected.as_deref(),
            Some("submitted by user carol to unknown queue: carol")
        );
        assert_eq!(queues[4], alice_named, "override {override_named}");
        assert_eq!(s.get("apps_rejected"), Some(1.0));
    }
}

#[test]
fn a_mapping_to_a_parent_or_unknown_queue_is_refused_naming_the_property() {
    for value in ["u:alice:b", "u:alice:nosuch", "x:alice:a", "u:alice"] {
        let text = format!(
            "<configuration>\n\
            <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\n\
            <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>\n\
            <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>\n\
            <property><name>yarn.scheduler.capacity.root.b.queues</name><value>b1</value></property>\n\
            <property><name>yarn.scheduler.capacity.root.b.b1.capacity</name><value>100</value></property>\n\
            <property><name>yarn.scheduler.capacity.queue-mappings</name><value>{value}</value></property>\n\
            </configuration>\n"
        );
        let e = parse_capacity_scheduler_xml(&text, "capacity-scheduler.xml")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(
                "capacity-scheduler.xml:7: <property> yarn.scheduler.capacity.queue-mappings: "
            ),
            "{e}"
        );
    }
}
