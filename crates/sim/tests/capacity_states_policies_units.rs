//! The capacity-scheduler.xml values whose reading was once refused wholesale, now read as
//! Hadoop reads them: a queue's `state` (`QueueState.valueOf` of the value, and Hadoop 3.3's
//! refusal of a configured DRAINING), `ordering-policy` given as a name or as a class
//! (`getAppOrderingPolicy` on leaves, `getQueueOrderingPolicy` on Hadoop 3.3's parents), and
//! absolute resources with units (`internalGetLabeledResourceRequirementForQueue`,
//! `UnitsConversionUtil.convert`). Every refusal is one YARN makes at start-up; each names
//! the file, the line and the property.

mod common;

use common::apps::one_stage;
use common::outcomes::run_allocations;
use common::scenarios::{capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::{LoadedAlloc, parse_any_xml};
use fairsim_sim::capacity::config::CapacityForm;
use fairsim_sim::scenario::{Scenario, SchedulerConf};
use fairsim_sim::tree::OrderingPolicy;

const H33: Semantics = Semantics::Hadoop33;
const H27: Semantics = Semantics::Hadoop27;
const POLICY: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.";

fn load(era: Semantics, props: &[(&str, &str)]) -> Result<LoadedAlloc, String> {
    parse_any_xml(&capacity_xml(props), "capacity-scheduler.xml", era).map_err(|e| e.to_string())
}

fn refused(era: Semantics, props: &[(&str, &str)]) -> String {
    match load(era, props) {
        Ok(_) => panic!("{era}: {props:?} loaded"),
        Err(e) => e,
    }
}

/// Two leaves, a and b; `extra` added after them. `capacity_xml` writes one property a line
/// after `<configuration>`, so the n-th property (from 0) is on line n + 2.
fn two_leaves<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut props = vec![
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.b.capacity", "50"),
    ];
    props.extend_from_slice(extra);
    props
}

fn policy_of(era: Semantics, value: &str) -> Result<Option<OrderingPolicy>, String> {
    let props = two_leaves(&[("root.a.ordering-policy", value)]);
    let tree = load(era, &props)?.tree;
    Ok(tree.queues[1].ordering_policy)
}

/// A configured DRAINING stops Hadoop 3.3 at start-up (`initializeQueueState`: "We can only
/// use RUNNING or STOPPED"; TestQueueStateHelper pins the message), and Hadoop 2.7's
/// QueueState has no DRAINING. The value is read with `get` and upper-cased, never
/// trimmed: `stopped` loads, ` STOPPED` does not.
#[test]
fn a_configured_draining_state_stops_yarn_at_start_up() {
    let draining = two_leaves(&[("root.a.state", "DRAINING")]);
    let e = refused(H33, &draining);
    assert!(
        e.starts_with("capacity-scheduler.xml:5:")
            && e.contains("root.a.state")
            && e.contains("We can only use RUNNING or STOPPED"),
        "{e}"
    );
    let e = refused(H27, &draining);
    assert!(e.contains("knows RUNNING and STOPPED"), "{e}");
    for era in [H27, H33] {
        let lower = load(era, &two_leaves(&[("root.a.state", "stopped")])).unwrap();
        assert!(lower.tree.queues[1].cs.stopped);
        assert!(!lower.tree.queues[2].cs.stopped);
        let e = refused(era, &two_leaves(&[("root.a.state", " STOPPED")]));
        assert!(e.contains("is not a queue state"), "{e}");
        let e = refused(era, &two_leaves(&[("root.a.state", "PAUSED")]));
        assert!(e.contains("\"PAUSED\" is not a queue state"), "{e}");
    }
}

/// Hadoop 3.3's `getAppOrderingPolicy`: the trimmed value equal to fifo, fair or
/// fifo-with-partitions (case-sensitive) names the policy; anything else, untrimmed, is a
/// class name, and Hadoop's own classes load. Hadoop 2.7.3's LeafQueue has no ordering
/// policy (a TreeSet by application id): any value loads as FIFO, with a warning, and so
/// does the size-based-weight flag.
#[test]
fn leaf_ordering_policies_by_name_and_by_class() {
    let class = |name: &str| format!("{POLICY}{name}");
    for (value, policy) in [
        ("fair", OrderingPolicy::Fair),
        (" fair ", OrderingPolicy::Fair),
        ("fifo", OrderingPolicy::Fifo),
        ("fifo-with-partitions", OrderingPolicy::Fifo),
        (&class("FairOrderingPolicy"), OrderingPolicy::Fair),
        (&class("FifoOrderingPolicy"), OrderingPolicy::Fifo),
        (
            &class("FifoOrderingPolicyForPendingApps"),
            OrderingPolicy::Fifo,
        ),
        (
            &class("FifoOrderingPolicyWithExclusivePartitions"),
            OrderingPolicy::Fifo,
        ),
    ] {
        assert_eq!(policy_of(H33, value), Ok(Some(policy)), "{value}");
    }
    // Class.forName("FAIR"), a name with a space, a later Hadoop's fifo-for-pending-apps
    // name and a class Hadoop does not have find no class.
    for bad in [
        "FAIR".to_string(),
        "Fifo".to_string(),
        format!(" {}", class("FairOrderingPolicy")),
        "fifo-for-pending-apps".to_string(),
        class("LifoOrderingPolicy"),
    ] {
        let e = policy_of(H33, &bad).unwrap_err();
        assert!(
            e.starts_with("capacity-scheduler.xml:5:") && e.contains("root.a.ordering-policy"),
            "{bad}: {e}"
        );
    }
    // A class of the cluster's own is refused with Hadoop's words.
    let e = policy_of(H33, "com.example.Missing").unwrap_err();
    assert!(e.contains("Unable to construct ordering policy for"), "{e}");
    for value in ["fair", "FAIR", "com.example.Missing"] {
        let props = two_leaves(&[
            ("root.a.ordering-policy", value),
            (
                "root.a.ordering-policy.fair.enable-size-based-weight",
                "true",
            ),
        ]);
        let loaded = load(H27, &props).unwrap();
        assert_eq!(
            loaded.tree.queues[1].ordering_policy,
            Some(OrderingPolicy::Fifo)
        );
        assert!(!loaded.tree.queues[1].cs.size_based_weight);
        let w = loaded.warnings.join("\n");
        assert_eq!(loaded.warnings.len(), 2, "{w}");
        assert!(
            w.contains(":5:")
                && w.contains(":6:")
                && w.contains("hadoop-2.7 has no ordering policies"),
            "{w}"
        );
    }
}

/// Hadoop 3.3 reads a parent's ordering-policy as the order of its children
/// (`getQueueOrderingPolicy`): utilization and priority-utilization load, an application
/// policy's name is refused as Hadoop refuses it ("Unable to construct queue ordering
/// policy=fair queue=root"). Hadoop 2.7 reads no ordering policy: a parent's is warned about.
#[test]
fn parent_ordering_policies_order_children() {
    for ok in ["utilization", "priority-utilization", " utilization "] {
        let loaded = load(H33, &two_leaves(&[("root.ordering-policy", ok)])).unwrap();
        assert_eq!(loaded.tree.queues[0].ordering_policy, None);
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    }
    let e = refused(H33, &two_leaves(&[("root.ordering-policy", "fair")]));
    assert!(
        e.starts_with("capacity-scheduler.xml:5:")
            && e.contains("Unable to construct queue ordering policy=fair queue=root"),
        "{e}"
    );
    let loaded = load(H27, &two_leaves(&[("root.ordering-policy", "fair")])).unwrap();
    let w = loaded.warnings.join("\n");
    assert!(
        w.contains(":5:") && w.contains("hadoop-2.7 has no ordering policies"),
        "{w}"
    );
}

/// The class name runs as its name does: one leaf, app 0 at 0 s with 40 three-second tasks,
/// app 1 at 0.5 s with 4, one user, one node of 5 containers given one off-switch container
/// a heartbeat (Hadoop 3.3's maximum-offswitch-assignments 1). FIFO gives app 0 every
/// heartbeat's container until it asks for no more (its last at 39 s), so app 1 starts at
/// 40 s; the fair policy orders apps by the memory they hold, and at the 1 s heartbeat app 1
/// holds none against app 0's 1 GB.
#[test]
fn an_ordering_policy_class_runs_as_its_name() {
    let runs = |value: &str| -> Vec<(u64, u32)> {
        let props = [
            ("root.queues", "a"),
            ("root.a.capacity", "100"),
            ("root.a.user-limit-factor", "4"),
            ("root.a.maximum-am-resource-percent", "1.0"),
            ("root.a.ordering-policy", value),
        ];
        let tree = load(H33, &props).unwrap().tree;
        let apps = vec![
            one_stage(0, "a", "u", 40, Resource::new(1024, 1), 3000),
            one_stage(500, "a", "u", 4, Resource::new(1024, 1), 3000),
        ];
        let sc = Scenario {
            scheduler: SchedulerConf {
                semantics: H33,
                ..SchedulerConf::default()
            },
            ..trace_scenario("policy-class", tree, 1, Resource::new(5 * 1024, 5), apps)
        };
        run_allocations(&sc)
    };
    let fair = runs("fair");
    let fifo = runs("fifo");
    assert_eq!(runs(&format!("{POLICY}FairOrderingPolicy")), fair);
    assert_eq!(
        runs(&format!("{POLICY}FifoOrderingPolicyForPendingApps")),
        fifo
    );
    let first_of_app_1 = |allocs: &[(u64, u32)]| -> u64 {
        allocs
            .iter()
            .find(|&&(_, app)| app == 1)
            .map(|&(t, _)| t)
            .unwrap()
    };
    assert_eq!(first_of_app_1(&fifo), 40_000);
    assert_eq!(first_of_app_1(&fair), 1000);
}

fn form_of(value: &str) -> Result<(CapacityForm, Vec<String>), String> {
    let props = [
        ("root.queues", "a,b"),
        ("root.a.capacity", value),
        ("root.b.capacity", "[memory=1024,vcores=1]"),
    ];
    let loaded = load(H33, &props)?;
    Ok((loaded.tree.queues[1].cs.form, loaded.warnings))
}

/// Units in brackets convert to Mi as `UnitsConversionUtil.convert` does, multiplying before
/// dividing (3G = 3 × 10^9 / 2^20 = 2861 Mi); a unit Hadoop 3.3 does not know, the `w` of a
/// later Hadoop's capacity vectors included, and a `%` (outside its pattern) stop YARN at
/// start-up; keys are looked up as written, so ` vcores` after a comma and a space is
/// skipped; no memory is no resource, and the queue reads as 0 %.
#[test]
fn absolute_resources_with_units_as_hadoop_33_reads_them() {
    assert_eq!(
        form_of("[memory=10Gi,vcores=4]").unwrap().0,
        CapacityForm::Absolute(Resource::new(10_240, 4))
    );
    assert_eq!(
        form_of("[memory=3G,vcores=1]").unwrap().0,
        CapacityForm::Absolute(Resource::new(2861, 1))
    );
    for bad in ["[memory=1w]", "[memory=2Gb,vcores=1]"] {
        let e = form_of(bad).unwrap_err();
        assert!(
            e.starts_with("capacity-scheduler.xml:3:")
                && e.contains("root.a.capacity")
                && e.contains("Unknown unit"),
            "{bad}: {e}"
        );
    }
    let e = form_of("[memory=50%]").unwrap_err();
    assert!(
        e.contains("not an absolute resource as Hadoop 3.3 reads one"),
        "{e}"
    );
    let e = form_of("[memory=1.5Gi]").unwrap_err();
    assert!(e.contains("not a Java long"), "{e}");
    let (form, warnings) = form_of("[memory=2048, vcores=4]").unwrap();
    assert_eq!(form, CapacityForm::Absolute(Resource::new(2048, 0)));
    assert!(
        warnings.iter().any(|w| w.contains("\" vcores\" skipped")),
        "{warnings:?}"
    );
    let (form, warnings) = form_of("[vcores=4]").unwrap();
    assert_eq!(form, CapacityForm::Percent);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains(":3:") && w.contains("0 % queue")),
        "{warnings:?}"
    );
    // Hadoop 2.7 reads capacity with getFloat alone.
    let e = refused(
        H27,
        &[("root.queues", "a"), ("root.a.capacity", "[memory=10Gi]")],
    );
    assert!(
        e.contains("hadoop-2.7 reads capacity as a percentage"),
        "{e}"
    );
}

/// What is not read is named with its line: the JSON placement rules and flexible (v2)
/// auto-created queues (Hadoop 3.4.0's, which a 3.3 ResourceManager ignores), and a leaf
/// template on a queue that creates no leaves.
#[test]
fn placement_rules_and_auto_created_queues_are_warned_with_their_line() {
    let props = two_leaves(&[
        ("mapping-rule-format", "json"),
        ("mapping-rule-json", "{\"rules\":[]}"),
        ("root.a.leaf-queue-template.capacity", "10"),
        ("root.b.auto-queue-creation-v2.enabled", "true"),
        ("root.b.auto-queue-creation-v2.leaf-template.capacity", "1w"),
    ]);
    let loaded = load(H33, &props).unwrap();
    let w = loaded.warnings.join("\n");
    for (line, what) in [
        (
            5,
            "mapping-rule-format: the JSON placement rules are Hadoop 3.4.0's: neither Hadoop \
             2.7 nor 3.3 reads them",
        ),
        (
            6,
            "mapping-rule-json: the JSON placement rules are Hadoop 3.4.0's",
        ),
        (
            7,
            "leaf-queue-template.capacity: read only on a queue with \
             auto-create-child-queue.enabled = true",
        ),
        (
            8,
            "auto-queue-creation-v2.enabled: flexible (v2) auto queue creation is Hadoop \
             3.4.0's: neither Hadoop 2.7 nor 3.3 reads it",
        ),
        (
            9,
            "auto-queue-creation-v2.leaf-template.capacity: flexible (v2) auto queue creation",
        ),
    ] {
        assert!(
            loaded
                .warnings
                .iter()
                .any(|x| x.contains(&format!(":{line}:")) && x.contains(what)),
            "{what}: {w}"
        );
    }
}
