//! Reading allocation files: the seed's sample, every validation error of the allocation
//! file with its file/line/element, hostile XML, and a no-panic property test.

mod common;

use fairsim_core::{Calculator, Policy, Resource, Semantics};
use fairsim_sim::alloc::{
    AllocError, LoadedAlloc, load_capacity_scheduler_file, load_fair_scheduler_file, parse_any_xml,
    parse_capacity_scheduler_xml, parse_fair_scheduler_xml,
};
use fairsim_sim::tree::{OrderingPolicy, PlacementRule, ResourceSpec, SchedulerKind};
use proptest::prelude::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const H27: Semantics = Semantics::Hadoop27;
const H33: Semantics = Semantics::Hadoop33;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/alloc")
        .join(name)
}

fn fair(xml: &str, sem: Semantics) -> Result<LoadedAlloc, AllocError> {
    parse_fair_scheduler_xml(xml, "fair-scheduler.xml", sem)
}

/// Asserts `xml` is refused with a message `fair-scheduler.xml:<line>: <element>: ...<part>...`.
fn check_err(xml: &str, sem: Semantics, line: u32, element: &str, part: &str) {
    let err = fair(xml, sem).expect_err("the file must be refused");
    let msg = err.to_string();
    let prefix = format!("fair-scheduler.xml:{line}: {element}: ");
    assert!(
        msg.starts_with(&prefix),
        "{msg:?} does not start with {prefix:?}"
    );
    assert!(msg.contains(part), "{msg:?} lacks {part:?}");
    assert!(err.is_bad_input());
    assert_eq!(msg, msg.trim_end_matches('.'), "no final period");
}

#[test]
fn seed_sample_loads_with_a_warning_for_max_running_jobs() {
    let loaded = load_fair_scheduler_file(&data("seed_002_sls.xml"), H27).expect("loads");
    let t = &loaded.tree;
    let names: Vec<_> = t.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "root",
            "root.sls_queue_1",
            "root.sls_queue_2",
            "root.sls_queue_3",
            "root.default"
        ]
    );
    let q1 = t.get(t.find("root.sls_queue_1").expect("queue 1"));
    assert_eq!(q1.min_share_preemption_timeout_ms, Some(2000));
    assert_eq!(q1.weight, 0.25);
    assert_eq!(
        q1.min_resources,
        ResourceSpec::Absolute(Resource::new(1024, 1))
    );
    assert_eq!(q1.policy, Policy::Fair);
    assert_eq!(t.user_max_apps_default, Some(1000));
    assert!(t.user_max_apps.is_empty(), "maxRunningJobs is not read");
    let w = loaded
        .warnings
        .iter()
        .find(|w| w.contains("<maxRunningJobs>"))
        .expect("a warning for maxRunningJobs");
    assert!(
        w.contains("seed_002_sls.xml:9: <maxRunningJobs>: yarn reads only <maxRunningApps>"),
        "{w}"
    );
    // The default queue is not named in the file but exists, and inherits nothing special.
    let d = t.get(t.find("root.default").expect("root.default"));
    assert!(d.is_leaf);
    assert_eq!(d.min_share_preemption_timeout_ms, None);
    assert_eq!(t.placement, fairsim_sim::alloc::default_policy());
}

#[test]
fn every_setting_and_inheritance() {
    let xml = r#"<?xml version="1.0"?>
<allocations>
  <userMaxAppsDefault>5</userMaxAppsDefault>
  <queueMaxAppsDefault>7</queueMaxAppsDefault>
  <queueMaxResourcesDefault>50%</queueMaxResourcesDefault>
  <queueMaxAMShareDefault>3.0</queueMaxAMShareDefault>
  <defaultMinSharePreemptionTimeout>10</defaultMinSharePreemptionTimeout>
  <fairSharePreemptionTimeout>20</fairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.5</defaultFairSharePreemptionThreshold>
  <defaultQueueSchedulingPolicy>DRF</defaultQueueSchedulingPolicy>
  <user name="alice"><maxRunningApps>3</maxRunningApps></user>
  <queue name="root">
    <queue name="a" type="parent">
      <maxChildResources>memory-mb=2048, vcores=2</maxChildResources>
      <allowPreemptionFrom>false</allowPreemptionFrom>
      <fairSharePreemptionThreshold>0.25</fairSharePreemptionThreshold>
      <aclSubmitApps>alice</aclSubmitApps>
    </queue>
    <queue name="b">
      <weight>2.5</weight>
      <schedulingPolicy>FIFO</schedulingPolicy>
      <maxAMShare>-1</maxAMShare>
      <maxRunningApps>4</maxRunningApps>
      <maxResources>memory-mb=4096, vcores=4</maxResources>
      <minSharePreemptionTimeout>3</minSharePreemptionTimeout>
      <reservation/>
    </queue>
  </queue>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="nestedUserQueue"><rule name="primaryGroup" create="false"/></rule>
    <rule name="default" queue="b"/>
  </queuePlacementPolicy>
</allocations>"#;
    let loaded = fair(xml, H33).expect("loads");
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let t = &loaded.tree;
    let root = t.get(t.find("root").expect("root"));
    assert_eq!(root.policy, Policy::Drf);
    assert_eq!(root.min_share_preemption_timeout_ms, Some(10_000));
    assert_eq!(root.fair_share_preemption_timeout_ms, Some(20_000));
    assert_eq!(root.fair_share_preemption_threshold, 1.0);
    let a = t.get(t.find("root.a").expect("a"));
    assert!(!a.is_leaf);
    assert!(!a.allow_preemption_from);
    assert_eq!(a.fair_share_preemption_threshold, 0.25);
    assert_eq!(
        a.max_child_resources,
        Some(ResourceSpec::Absolute(Resource::new(2048, 2)))
    );
    assert_eq!(
        a.max_resources,
        ResourceSpec::Percent {
            memory: 50.0,
            vcores: 50.0
        }
    );
    assert_eq!(a.max_running_apps, Some(7));
    let b = t.get(t.find("root.b").expect("b"));
    assert_eq!(b.weight, 2.5);
    assert_eq!(b.policy, Policy::Fifo);
    assert_eq!(b.max_am_share, -1.0);
    assert_eq!(b.max_running_apps, Some(4));
    assert_eq!(b.min_share_preemption_timeout_ms, Some(3000));
    assert_eq!(b.fair_share_preemption_timeout_ms, Some(20_000));
    assert!(b.reservable && b.is_leaf);
    let d = t.get(t.find("root.default").expect("default"));
    assert_eq!(d.max_am_share, 1.0, "queueMaxAMShareDefault clamped to 1");
    assert_eq!(d.policy, Policy::Drf);
    assert_eq!(t.user_max_apps.get("alice"), Some(&3));
    assert_eq!(t.user_max_apps_default, Some(5));
    assert_eq!(
        t.placement,
        vec![
            PlacementRule::Specified { create: false },
            PlacementRule::NestedUserQueue {
                create: true,
                inner: Box::new(PlacementRule::PrimaryGroup { create: false })
            },
            PlacementRule::Default {
                queue: "root.b".into(),
                create: true
            },
        ]
    );
}

#[test]
fn hadoop27_ignores_hadoop3_elements_with_warnings() {
    let xml = r#"<allocations>
  <queueMaxResourcesDefault>50%</queueMaxResourcesDefault>
  <queue name="a"><allowPreemptionFrom>false</allowPreemptionFrom><foo/></queue>
</allocations>"#;
    let loaded = fair(xml, H27).expect("loads");
    let a = loaded.tree.get(loaded.tree.find("root.a").expect("a"));
    assert!(a.allow_preemption_from);
    assert_eq!(a.max_resources, ResourceSpec::Absolute(Resource::UNBOUNDED));
    let w = loaded.warnings.join("\n");
    assert!(
        w.contains("fair-scheduler.xml:2: <queueMaxResourcesDefault>: bad element"),
        "{w}"
    );
    assert!(
        w.contains("fair-scheduler.xml:3: <allowPreemptionFrom>: hadoop-2.7 does not read"),
        "{w}"
    );
    assert!(
        w.contains("fair-scheduler.xml:3: <foo>: unknown queue element"),
        "{w}"
    );
}

#[test]
fn hadoop27_warns_that_max_am_share_on_a_parent_does_nothing() {
    let xml = r#"<allocations>
  <queue name="p">
    <maxAMShare>0.1</maxAMShare>
    <queue name="leaf"/>
  </queue>
  <queue name="q"><maxAMShare>0.2</maxAMShare></queue>
</allocations>"#;
    let loaded = fair(xml, H27).expect("loads");
    let w = loaded.warnings.join("\n");
    assert!(
        w.contains(
            "fair-scheduler.xml:3: <maxAMShare>: root.p is a parent queue: hadoop-2.7 reads \
             maxAMShare but checks it on leaves only"
        ),
        "{w}"
    );
    // One warning: the leaf's own maxAMShare is read and used.
    assert_eq!(loaded.warnings.len(), 1, "{w}");
    let q = loaded.tree.get(loaded.tree.find("root.q").expect("q"));
    assert_eq!(q.max_am_share, 0.2);
    // The leaf under the parent keeps the default: 2.7 does not hand it down.
    let leaf = loaded
        .tree
        .get(loaded.tree.find("root.p.leaf").expect("leaf"));
    assert_eq!(leaf.max_am_share, 0.5);
}

#[test]
fn weight_is_parsed_as_double_stored_as_float() {
    let loaded = fair(
        r#"<allocations><queue name="a"><weight>0.1</weight></queue></allocations>"#,
        H27,
    )
    .expect("loads");
    assert_eq!(loaded.tree.queues[1].weight, 0.1f64 as f32);
}

#[test]
fn validation_errors_name_file_line_and_element() {
    // A dot in a queue name.
    check_err(
        "<allocations>\n<queue name=\"a.b\"/>\n</allocations>",
        H27,
        2,
        r#"<queue name="a.b">"#,
        "must not contain '.'",
    );
    // An empty or blank name.
    check_err(
        "<allocations>\n<queue name=\" \"/>\n</allocations>",
        H33,
        2,
        r#"<queue name=" ">"#,
        "empty or blank",
    );
    check_err(
        "<allocations>\n<queue/>\n</allocations>",
        H33,
        2,
        "<queue>",
        "empty or blank",
    );
    // maxAMShare on a parent under 3.3 (accepted under 2.7).
    let am = "<allocations>\n<queue name=\"p\">\n<maxAMShare>0.3</maxAMShare>\n<queue name=\"c\"/>\n</queue>\n</allocations>";
    check_err(am, H33, 3, "<maxAMShare>", "leaf queues only");
    // The release that brought the check, since Hadoop's own example file trips it.
    check_err(
        am,
        H33,
        3,
        "<maxAMShare>",
        "Hadoop 3.3.1 and later refuse the file (YARN-10528",
    );
    assert!(fair(am, H27).is_ok());
    // A fifo parent.
    let fifo = "<allocations>\n<queue name=\"p\">\n<queue name=\"c\"/>\n<schedulingPolicy>fifo</schedulingPolicy>\n</queue>\n</allocations>";
    check_err(
        fifo,
        H27,
        4,
        "<schedulingPolicy>",
        "fifo is for leaf queues only",
    );
    check_err(
        fifo,
        H33,
        4,
        "<schedulingPolicy>",
        "fifo is for leaf queues only",
    );
    // drf under fair under 3.3 (accepted under 2.7).
    let drf = "<allocations>\n<queue name=\"p\">\n<queue name=\"c\">\n<schedulingPolicy>drf</schedulingPolicy>\n</queue>\n</queue>\n</allocations>";
    check_err(
        drf,
        H33,
        4,
        "<schedulingPolicy>",
        "drf under the fair parent root.p",
    );
    assert!(fair(drf, H27).is_ok());
    // drf inherited from the default under an explicitly fair root.
    let inherited = "<allocations>\n<defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>\n<queue name=\"root\">\n<schedulingPolicy>fair</schedulingPolicy>\n<queue name=\"c\"/>\n</queue>\n</allocations>";
    check_err(
        inherited,
        H33,
        5,
        r#"<queue name="c">"#,
        "inherits from defaultQueueSchedulingPolicy",
    );
    // A fifo default under 3.3.
    check_err(
        "<allocations>\n<defaultQueueSchedulingPolicy>fifo</defaultQueueSchedulingPolicy>\n</allocations>",
        H33,
        2,
        "<defaultQueueSchedulingPolicy>",
        "fifo cannot be the default",
    );
    // An unknown policy.
    check_err(
        "<allocations>\n<queue name=\"a\"><schedulingPolicy>lottery</schedulingPolicy></queue>\n</allocations>",
        H27,
        2,
        "<schedulingPolicy>",
        "unknown scheduling policy",
    );
    // A negative or malformed resource.
    check_err(
        "<allocations>\n<queue name=\"a\">\n<minResources>-1024 mb, 1 vcores</minResources>\n</queue>\n</allocations>",
        H27,
        3,
        "<minResources>",
        "negative",
    );
    check_err(
        "<allocations>\n<queue name=\"a\">\n<maxResources>lots</maxResources>\n</queue>\n</allocations>",
        H33,
        3,
        "<maxResources>",
        "missing resource: mb",
    );
    check_err(
        "<allocations>\n<queue name=\"a\">\n<maxResources>50%</maxResources>\n</queue>\n</allocations>",
        H27,
        3,
        "<maxResources>",
        "hadoop-2.7",
    );
    check_err(
        "<allocations>\n<queue name=\"a\">\n<minResources>50%</minResources>\n</queue>\n</allocations>",
        H33,
        3,
        "<minResources>",
        "must be absolute",
    );
    // Values that do not parse.
    check_err(
        "<allocations>\n<queue name=\"a\"><weight>abc</weight></queue>\n</allocations>",
        H27,
        2,
        "<weight>",
        "\"abc\" is not a number",
    );
    check_err(
        "<allocations>\n<queue name=\"a\"><weight>NaN</weight></queue>\n</allocations>",
        H27,
        2,
        "<weight>",
        "not a number",
    );
    check_err(
        "<allocations>\n<queue name=\"a\"><weight>-1</weight></queue>\n</allocations>",
        H27,
        2,
        "<weight>",
        "must not be negative",
    );
    check_err(
        "<allocations>\n<queue name=\"a\"><maxRunningApps>2.5</maxRunningApps></queue>\n</allocations>",
        H27,
        2,
        "<maxRunningApps>",
        "not an integer",
    );
    check_err(
        "<allocations>\n<queue name=\"a\"><minSharePreemptionTimeout/></queue>\n</allocations>",
        H27,
        2,
        "<minSharePreemptionTimeout>",
        "empty value",
    );
    // A second top-level queue beside root.
    check_err(
        "<allocations>\n<queue name=\"root\"/>\n<queue name=\"other\"/>\n</allocations>",
        H27,
        3,
        r#"<queue name="other">"#,
        "no other queue may stand beside it",
    );
    // Reservation on a parent.
    check_err(
        "<allocations>\n<queue name=\"p\" type=\"parent\"><reservation/></queue>\n</allocations>",
        H33,
        2,
        r#"<queue name="p">"#,
        "reservation",
    );
    // A queue configured twice.
    check_err(
        "<allocations>\n<queue name=\"a\"/>\n<queue name=\"a\"/>\n</allocations>",
        H27,
        3,
        r#"<queue name="a">"#,
        "configured twice",
    );
    // Not an allocations file.
    check_err("<foo/>", H27, 1, "<foo>", "must be <allocations>");
}

#[test]
fn placement_policy_errors() {
    let wrap = |rules: &str| {
        format!(
            "<allocations>\n<queuePlacementPolicy>\n{rules}\n</queuePlacementPolicy>\n</allocations>"
        )
    };
    // An unknown rule.
    check_err(
        &wrap("<rule name=\"bogus\"/>"),
        H27,
        3,
        r#"<rule name="bogus">"#,
        "no placement rule named \"bogus\"",
    );
    // A rule after a terminal one.
    check_err(
        &wrap("<rule name=\"user\"/>\n<rule name=\"default\"/>"),
        H33,
        4,
        r#"<rule name="default">"#,
        "can never be reached",
    );
    check_err(
        &wrap("<rule name=\"reject\"/>\n<rule name=\"specified\"/>"),
        H27,
        4,
        r#"<rule name="specified">"#,
        "can never be reached",
    );
    // A last rule that can be passed.
    check_err(
        &wrap("<rule name=\"specified\"/>"),
        H27,
        3,
        r#"<rule name="specified">"#,
        "could get past the last placement rule",
    );
    check_err(
        &wrap("<rule name=\"specified\"/>\n<rule name=\"user\" create=\"false\"/>"),
        H33,
        4,
        r#"<rule name="user">"#,
        "could get past",
    );
    // A nested rule missing.
    check_err(
        &wrap("<rule name=\"nestedUserQueue\"/>\n<rule name=\"reject\"/>"),
        H27,
        3,
        r#"<rule name="nestedUserQueue">"#,
        "needs a nested",
    );
    // Fine: user with create is terminal.
    let ok = fair(
        &wrap("<rule name=\"specified\"/>\n<rule name=\"user\"/>"),
        H27,
    )
    .expect("loads");
    assert_eq!(ok.tree.placement.len(), 2);
}

#[test]
fn billion_laughs_is_refused_quickly() {
    let mut xml =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    xml.push_str("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n");
    for i in 2..=9 {
        let prev = format!("&lol{};", i - 1);
        xml.push_str(&format!("<!ENTITY lol{i} \"{}\">\n", prev.repeat(10)));
    }
    xml.push_str("]>\n<allocations><queue name=\"&lol9;\"/></allocations>\n");
    let start = Instant::now();
    for sem in [H27, H33] {
        let err = fair(&xml, sem).expect_err("refused");
        let msg = err.to_string();
        assert!(
            msg.starts_with("fair-scheduler.xml:1: a DOCTYPE is not allowed"),
            "{msg}"
        );
    }
    let err = parse_capacity_scheduler_xml(&xml, "capacity-scheduler.xml").expect_err("refused");
    assert!(err.to_string().contains("DOCTYPE"));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn oversized_file_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big.xml");
    let f = std::fs::File::create(&path).expect("create");
    f.set_len(fairsim_sim::alloc::MAX_FILE_BYTES + 1)
        .expect("grow");
    let err = load_fair_scheduler_file(&path, H27).expect_err("refused");
    assert!(matches!(err, AllocError::TooLarge { .. }));
    assert!(
        err.to_string()
            .contains("big.xml: file holds 67108865 bytes or more; the limit is 67108864 bytes"),
        "{err}"
    );
    let missing = load_fair_scheduler_file(&dir.path().join("none.xml"), H27).expect_err("missing");
    assert!(!missing.is_bad_input());
}

#[test]
fn capacity_file_loads() {
    let loaded = load_capacity_scheduler_file(&data("capacity.xml")).expect("loads");
    let t = &loaded.tree;
    assert_eq!(t.scheduler, SchedulerKind::Capacity);
    assert_eq!(t.resource_calculator, Calculator::Dominant);
    let names: Vec<_> = t.queues.iter().map(|q| q.name.as_str()).collect();
    assert_eq!(names, ["root", "root.prod", "root.dev"]);
    let dev = t.get(t.find("root.dev").expect("dev"));
    assert_eq!(dev.capacity_percent, Some(30.0));
    assert_eq!(dev.maximum_capacity_percent, Some(100.0));
    assert_eq!(dev.user_limit_factor, Some(2.0));
    assert_eq!(dev.minimum_user_limit_percent, Some(25.0));
    assert_eq!(dev.ordering_policy, Some(OrderingPolicy::Fair));
    assert_eq!(dev.maximum_am_resource_fraction, Some(0.1));
    let prod = t.get(t.find("root.prod").expect("prod"));
    assert_eq!(prod.maximum_am_resource_fraction, Some(0.2));
    assert_eq!(prod.ordering_policy, Some(OrderingPolicy::Fifo));
    // Told apart from a fair-scheduler.xml by its root element.
    let text = std::fs::read_to_string(data("capacity.xml")).expect("read");
    assert_eq!(
        parse_any_xml(&text, "x", H33).expect("loads").tree,
        loaded.tree
    );
    // Hadoop 2.7 has no ordering policies: dev orders its apps by id, and the property is
    // warned about.
    let old = parse_any_xml(&text, "x", H27).expect("loads");
    let dev27 = old.tree.get(old.tree.find("root.dev").expect("dev"));
    assert_eq!(dev27.ordering_policy, Some(OrderingPolicy::Fifo));
    assert!(
        old.warnings
            .iter()
            .any(|w| w.contains("root.dev.ordering-policy: hadoop-2.7 has no ordering policies")),
        "{:?}",
        old.warnings
    );
}

fn cs(props: &[(&str, &str)]) -> String {
    let mut s = String::from("<configuration>\n");
    for (n, v) in props {
        s.push_str(&format!(
            "<property><name>{n}</name><value>{v}</value></property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

fn check_cs_err(props: &[(&str, &str)], line: u32, property: &str, part: &str) {
    let msg = parse_capacity_scheduler_xml(&cs(props), "capacity-scheduler.xml")
        .expect_err("refused")
        .to_string();
    let prefix = format!("capacity-scheduler.xml:{line}: <property> {property}: ");
    assert!(
        msg.starts_with(&prefix),
        "{msg:?} does not start with {prefix:?}"
    );
    assert!(msg.contains(part), "{msg:?} lacks {part:?}");
}

#[test]
fn capacity_errors_name_the_property() {
    const Q: &str = "yarn.scheduler.capacity.root.queues";
    const A: &str = "yarn.scheduler.capacity.root.a.capacity";
    const B: &str = "yarn.scheduler.capacity.root.b.capacity";
    check_cs_err(
        &[(Q, "a,b"), (A, "60"), (B, "30")],
        2,
        Q,
        "sum to 90, not 100",
    );
    check_cs_err(
        &[(Q, "a,b"), (A, "60")],
        2,
        Q,
        "queue root.b is listed here but has no yarn.scheduler.capacity.root.b.capacity",
    );
    check_cs_err(
        &[
            (Q, "a"),
            (A, "100"),
            ("yarn.scheduler.capacity.root.a.maximum-capacity", "50"),
        ],
        4,
        "yarn.scheduler.capacity.root.a.maximum-capacity",
        "below the queue's capacity",
    );
    // A property of a queue no `.queues` lists: YARN never reads it; warned at its line.
    let loaded = parse_capacity_scheduler_xml(
        &cs(&[
            (Q, "a"),
            (A, "100"),
            ("yarn.scheduler.capacity.root.x.capacity", "5"),
        ]),
        "capacity-scheduler.xml",
    )
    .expect("loads, as YARN loads it");
    assert_eq!(loaded.tree.len(), 2);
    let warned: Vec<_> = (loaded.warnings.iter())
        .filter(|w| w.contains("root.x.capacity"))
        .collect();
    assert_eq!(warned.len(), 1, "{:?}", loaded.warnings);
    assert!(
        warned[0].starts_with("capacity-scheduler.xml:4:")
            && warned[0].contains("queue root.x is not listed"),
        "{warned:?}"
    );
    check_cs_err(&[(Q, "a"), (A, "lots")], 3, A, "not a number");
    check_cs_err(&[(A, "100")], 1, Q, "must list root's queues");
    // Apps name leaves by their short name: two leaves called x are refused.
    check_cs_err(
        &[
            (Q, "a,b"),
            (A, "50"),
            (B, "50"),
            ("yarn.scheduler.capacity.root.a.queues", "x"),
            ("yarn.scheduler.capacity.root.a.x.capacity", "100"),
            ("yarn.scheduler.capacity.root.b.queues", "x"),
            ("yarn.scheduler.capacity.root.b.x.capacity", "100"),
        ],
        7,
        "yarn.scheduler.capacity.root.b.queues",
        "two leaf queues are named x (root.a.x and root.b.x)",
    );
}

proptest! {
    #![proptest_config(common::generator::fixed_config(400, 20240601))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = fair(&text, H27);
        let _ = fair(&text, H33);
        let _ = parse_any_xml(&text, "x", H33);
    }

    #[test]
    fn mutated_xml_never_panics(cut in 0usize..2000, insert in "[<>/=\"a-z0-9 %.,-]{0,12}", sem in prop_oneof![Just(H27), Just(H33)]) {
        let base = std::fs::read_to_string(data("seed_002_sls.xml")).expect("read")
            + &std::fs::read_to_string(data("capacity.xml")).expect("read");
        for base in [base.as_str(), EVERYTHING] {
            let mut at = cut % (base.len() + 1);
            while !base.is_char_boundary(at) { at -= 1; }
            let mutated = format!("{}{}{}", &base[..at], insert, &base[at..]);
            let _ = parse_any_xml(&mutated, "x", sem);
            let _ = parse_capacity_scheduler_xml(&mutated, "x");
        }
    }
}

const EVERYTHING: &str = r#"<allocations><queueMaxAppsDefault>7</queueMaxAppsDefault>
<queue name="root"><schedulingPolicy>drf</schedulingPolicy><queue name="a"><maxResources>memory-mb=50%, vcores=10%</maxResources>
<queue name="b"><weight>2</weight><minResources>10 mb, 1 vcores</minResources><maxAMShare>0.2</maxAMShare></queue></queue></queue>
<queuePlacementPolicy><rule name="specified"/><rule name="default" queue="a"/></queuePlacementPolicy></allocations>"#;

#[test]
fn deep_nesting_is_refused_without_overflowing_the_stack() {
    let depth = 20_000;
    let xml = format!(
        "<allocations>{}{}</allocations>",
        "<queue name=\"q\">".repeat(depth),
        "</queue>".repeat(depth)
    );
    let msg = fair(&xml, H33).expect_err("refused").to_string();
    assert!(msg.contains("nest deeper than"), "{msg}");
}
