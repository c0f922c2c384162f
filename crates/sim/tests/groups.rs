//! Users' groups in Fair Scheduler placement, end to end from a scenario file: the
//! `primaryGroup` and `secondaryGroupExistingQueue` rules read the `users` groups file; without
//! it a user's primary group is the user's name and there are no secondary groups.

use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::{load_scenario, run};
use std::path::Path;

const ALLOC: &str = r#"<allocations>
  <queue name="eng"/>
  <queue name="ml"/>
  <queuePlacementPolicy>
    <rule name="secondaryGroupExistingQueue" create="false"/>
    <rule name="primaryGroup" create="false"/>
    <rule name="default" queue="fallback"/>
  </queuePlacementPolicy>
</allocations>
"#;

const HEADER: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n";

/// alice (primary eng, secondary x and ml), bob (primary eng), carol (not in the file).
const ROWS: &str = "a1,0,default,alice,0,0,0,1,1024,1,1000,20,
b1,0,default,bob,0,0,0,1,1024,1,1000,20,
c1,0,default,carol,0,0,0,1,1024,1,1000,20,
";

const GROUPS: &str = "user,primary_group,secondary_groups\nalice,eng,x;ml\nbob,eng,\n";

/// One node of `node_mb` MB and as many vcores as GB, running the trace `rows` (one task
/// each) under `alloc`, in `semantics` (the default era without it), with the `users` groups
/// file if given.
struct Inputs<'a> {
    alloc: &'a str,
    users: Option<&'a str>,
    rows: &'a str,
    semantics: Option<&'a str>,
    node_mb: i64,
}

/// Writes the files of `inputs` into `dir`; returns the scenario's path.
fn write_inputs(dir: &Path, inputs: &Inputs) -> std::path::PathBuf {
    std::fs::write(dir.join("fair-scheduler.xml"), inputs.alloc).expect("write");
    std::fs::write(dir.join("trace.csv"), format!("{HEADER}{}", inputs.rows)).expect("write");
    let mut toml = format!(
        "[cluster]\nnodes = 1\nnode_memory_mb = {}\nnode_vcores = {}\n[scheduler]\n",
        inputs.node_mb,
        inputs.node_mb / 1024
    );
    if let Some(era) = inputs.semantics {
        toml.push_str(&format!("semantics = \"{era}\"\n"));
    }
    if let Some(text) = inputs.users {
        std::fs::write(dir.join("groups.csv"), text).expect("write");
        toml.push_str("users = \"groups.csv\"\n");
    }
    toml.push_str("[allocation]\nfile = \"fair-scheduler.xml\"\n[workload]\ncsv = \"trace.csv\"\n");
    let p = dir.join("scenario.toml");
    std::fs::write(&p, toml).expect("write");
    p
}

/// The first tests' inputs: [`ALLOC`], [`ROWS`] and `users`, on an 8 GB node.
fn alice_bob_carol(users: Option<&str>) -> Inputs<'_> {
    Inputs {
        alloc: ALLOC,
        users,
        rows: ROWS,
        semantics: None,
        node_mb: 8192,
    }
}

fn queues(scenario: &Path) -> Vec<String> {
    let sc = load_scenario(scenario).expect("valid scenario");
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    rec.apps.iter().map(|a| a.queue.clone()).collect()
}

#[test]
fn placement_rules_read_the_groups_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sc = write_inputs(dir.path(), &alice_bob_carol(Some(GROUPS)));
    // alice: x is no queue, ml is; bob: no secondary group, primary eng; carol: her own name
    // as primary group, no such queue, so the default rule.
    assert_eq!(queues(&sc), ["root.ml", "root.eng", "root.fallback"]);
}

#[test]
fn without_a_groups_file_the_primary_group_is_the_user_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sc = write_inputs(dir.path(), &alice_bob_carol(None));
    assert_eq!(
        queues(&sc),
        ["root.fallback", "root.fallback", "root.fallback"]
    );
}

#[test]
fn a_broken_groups_file_names_file_line_and_field() {
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = "user,primary_group,secondary_groups\nalice,eng,\nbob,,\n";
    let sc = write_inputs(dir.path(), &alice_bob_carol(Some(broken)));
    let e = load_scenario(&sc).unwrap_err().to_string();
    assert!(
        e.ends_with("groups.csv:3: primary_group: must not be empty"),
        "{e}"
    );
}

/// Runs the trace `rows` (one task each) under `alloc` with the `users` groups file, in
/// `semantics`, on a 16 GB node; returns each app's queue.
fn placed(alloc: &str, users: &str, rows: &str, semantics: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = Inputs {
        alloc,
        users: Some(users),
        rows,
        semantics: Some(semantics),
        node_mb: 16_384,
    };
    queues(&write_inputs(dir.path(), &inputs))
}

/// [`placed`] in both eras, each giving the queues `want`.
fn assert_placed_in_both_eras(alloc: &str, users: &str, rows: &str, want: &[&str]) {
    for era in ERAS {
        assert_eq!(placed(alloc, users, rows, era), want, "{era}");
    }
}

/// Hadoop's test `SimpleGroupsMapping`: user U is in groups Ugroup (primary), Usubgroup1 and
/// Usubgroup2.
fn simple_groups(users: &[&str]) -> String {
    let mut s = String::from("user,primary_group,secondary_groups\n");
    for u in users {
        s.push_str(&format!("{u},{u}group,{u}subgroup1;{u}subgroup2\n"));
    }
    s
}

const ERAS: [&str; 2] = ["hadoop-2.7", "hadoop-3.3"];

#[test]
fn queue_placement_with_policy() {
    // TestFairScheduler.testQueuePlacementWithPolicy: leaves user1, user3group,
    // user4subgroup1, user4subgroup2 and user5subgroup2; rules specified (create), user,
    // primaryGroup, secondaryGroupExistingQueue (none creating), default. A named queue is
    // made; "default" falls through to the user's queue, then the primary group's, then the
    // first secondary group with a queue, else root.default.
    let alloc = r#"<allocations>
  <queue name="user1"/><queue name="user3group"/><queue name="user4subgroup1"/>
  <queue name="user4subgroup2"/><queue name="user5subgroup2"/>
  <queuePlacementPolicy>
    <rule name="specified" create="true"/>
    <rule name="user" create="false"/>
    <rule name="primaryGroup" create="false"/>
    <rule name="secondaryGroupExistingQueue" create="false"/>
    <rule name="default" create="true"/>
  </queuePlacementPolicy>
</allocations>
"#;
    let users = simple_groups(&["user1", "user3", "user4", "user5", "otheruser"]);
    let rows = "a,0,somequeue,user1,0,0,0,1,1024,1,1000,20,\n\
                b,0,default,user1,0,0,0,1,1024,1,1000,20,\n\
                c,0,default,user3,0,0,0,1,1024,1,1000,20,\n\
                d,0,default,user4,0,0,0,1,1024,1,1000,20,\n\
                e,0,default,user5,0,0,0,1,1024,1,1000,20,\n\
                f,0,default,otheruser,0,0,0,1,1024,1,1000,20,\n";
    assert_placed_in_both_eras(
        alloc,
        &users,
        rows,
        &[
            "root.somequeue",
            "root.user1",
            "root.user3group",
            "root.user4subgroup1",
            "root.user5subgroup2",
            "root.default",
        ],
    );
    // Without specified first: user (no create), specified (create), default.
    let alloc = r#"<allocations>
  <queue name="user1"/><queue name="user3group"/><queue name="user4subgroup1"/>
  <queue name="user4subgroup2"/><queue name="user5subgroup2"/>
  <queuePlacementPolicy>
    <rule name="user" create="false"/>
    <rule name="specified" create="true"/>
    <rule name="default" create="true"/>
  </queuePlacementPolicy>
</allocations>
"#;
    let rows = "a,0,somequeue,user1,0,0,0,1,1024,1,1000,20,\n\
                b,0,somequeue,otheruser,0,0,0,1,1024,1,1000,20,\n\
                c,0,default,otheruser,0,0,0,1,1024,1,1000,20,\n";
    assert_placed_in_both_eras(
        alloc,
        &users,
        rows,
        &["root.user1", "root.somequeue", "root.default"],
    );
}

#[test]
fn nested_user_queue_skips_an_unnamed_root_default_for_a_specified_rule_that_may_not_create() {
    // TestFairScheduler.testNestedUserQueue: parent user1group (min 1024 MB); rules specified
    // (create="false"), nestedUserQueue over primaryGroup (create="false"), default. user1
    // asks for root.default, which the file does not name: YARN builds it, but a rule that may
    // not create takes only a configured queue (2.7 `configuredQueues`, 3.3 a queue that is not
    // dynamic), so specified passes; primaryGroup names the configured parent root.user1group
    // and nestedUserQueue creates root.user1group.user1 under it, in both eras.
    let alloc = r#"<allocations>
  <queue name="user1group" type="parent"><minResources>1024mb,0vcores</minResources></queue>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="nestedUserQueue"><rule name="primaryGroup" create="false"/></rule>
    <rule name="default"/>
  </queuePlacementPolicy>
</allocations>
"#;
    let users = simple_groups(&["user1"]);
    let rows = "a,0,root.default,user1,0,0,0,1,1024,1,1000,20,\n";
    assert_placed_in_both_eras(alloc, &users, rows, &["root.user1group.user1"]);
    // Once the file names root.default, specified takes it.
    let named = alloc.replace(
        "<queuePlacementPolicy>",
        "<queue name=\"default\"/>\n  <queuePlacementPolicy>",
    );
    assert_placed_in_both_eras(&named, &users, rows, &["root.default"]);
}

#[test]
fn a_rule_that_may_not_create_passes_over_a_queue_created_at_run_time() {
    // Rules user (create="false"), specified (create), default, and no queue in the file.
    // user1's first app asks for "user1": the user rule finds no configured root.user1 and
    // passes, specified creates it. The second asks for "other": root.user1 exists now, but
    // it was made at run time, so the user rule passes again (2.7's `configuredQueues` hold
    // only the file's queues; 3.3's created queue is dynamic) and specified creates
    // root.other. A queue named in the file is taken (user2's root.user2).
    let alloc = r#"<allocations>
  <queue name="user2"/>
  <queuePlacementPolicy>
    <rule name="user" create="false"/>
    <rule name="specified"/>
    <rule name="default"/>
  </queuePlacementPolicy>
</allocations>
"#;
    let users = simple_groups(&["user1", "user2"]);
    let rows = "a,0,user1,user1,0,0,0,1,1024,1,1000,20,\n\
                b,10,other,user1,0,0,0,1,1024,1,1000,20,\n\
                c,20,other,user2,0,0,0,1,1024,1,1000,20,\n";
    assert_placed_in_both_eras(
        alloc,
        &users,
        rows,
        &["root.user1", "root.other", "root.user2"],
    );
}

#[test]
fn default_rule_without_create_rejects_when_root_default_is_not_named() {
    // TestFairScheduler.testAssignToBadDefaultQueue's policy: specified and default, neither
    // creating. An app for "default" passes specified; the default rule may not create and
    // root.default, which the file does not name, is not configured, so no rule places the
    // app and it is rejected (Hadoop 3's test checks only that placement does not throw;
    // what 2.7 does when every rule passes was not read, so the test runs the 3.3 era).
    let alloc = r#"<allocations>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="default" create="false"/>
  </queuePlacementPolicy>
</allocations>
"#;
    let era = "hadoop-3.3";
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = Inputs {
        alloc,
        users: None,
        rows: "a,0,default,asterix,0,0,0,1,1024,1,1000,20,\n",
        semantics: Some(era),
        node_mb: 8192,
    };
    let sc = load_scenario(write_inputs(dir.path(), &inputs)).expect("valid scenario");
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    let why = rec.apps[0].rejected.as_deref().unwrap_or("");
    assert!(why.contains("no placement rule"), "{era}: {why:?}");
}

/// Like [`placed`], with each app's rejection reason (or `placed`) after its queue.
fn placed_or_rejected(alloc: &str, users: &str, rows: &str, semantics: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let inputs = Inputs {
        alloc,
        users: Some(users),
        rows,
        semantics: Some(semantics),
        node_mb: 16_384,
    };
    let sc = load_scenario(write_inputs(dir.path(), &inputs)).expect("valid scenario");
    let mut rec = MemoryRecorder::default();
    run(&sc, 1, 0, &mut rec).expect("runs");
    rec.apps
        .iter()
        .map(|a| format!("{} {}", a.queue, a.rejected.as_deref().unwrap_or("placed")))
        .collect()
}

#[test]
fn nested_user_queue_creates_the_parent_its_nested_rule_may_create() {
    // nestedUserQueue over primaryGroup (both may create) and no queue in the file: user1's
    // primary group queue root.user1group does not exist. The nested rule may create, so it
    // answers root.user1group (2.7 `assignAppToQueue`: create || configured; 3.3
    // `PrimaryGroupPlacementRule`: createQueue || configuredQueue), nestedUserQueue answers
    // root.user1group.user1, and the queue manager makes the parent and the leaf under it.
    // Hadoop 2.7 needs a terminal rule after nestedUserQueue; in 3.3 the nested rule that
    // always answers makes it terminal, so it comes last.
    let users = simple_groups(&["user1"]);
    let rows = "a,0,default,user1,0,0,0,1,1024,1,1000,20,\n";
    let nested = r#"<rule name="nestedUserQueue"><rule name="primaryGroup"/></rule>"#;
    for (era, rules) in [
        ("hadoop-2.7", format!("{nested}<rule name=\"default\"/>")),
        ("hadoop-3.3", nested.to_string()),
    ] {
        let alloc = format!(
            "<allocations><queuePlacementPolicy>{rules}</queuePlacementPolicy></allocations>"
        );
        assert_eq!(
            placed(&alloc, &users, rows, era),
            ["root.user1group.user1"],
            "{era}"
        );
    }
    // A nested rule that may not create names only a configured parent: none here, so the
    // next rule places the app.
    let alloc = r#"<allocations><queuePlacementPolicy>
  <rule name="nestedUserQueue"><rule name="primaryGroup" create="false"/></rule>
  <rule name="default"/>
</queuePlacementPolicy></allocations>"#;
    for era in ERAS {
        assert_eq!(placed(alloc, &users, rows, era), ["root.default"], "{era}");
    }
}

#[test]
fn nested_user_queue_under_a_leaf_made_at_run_time() {
    // user2's app asks for user1group: specified makes root.user1group, a leaf. user1's app
    // asks for default: specified passes, primaryGroup names root.user1group, a leaf.
    // Hadoop 2.7's NestedUserQueue skips only a configured leaf, so it names
    // root.user1group.user1, which cannot be made under a leaf: the app is rejected.
    // Hadoop 3.3's user rule fails on any leaf and passes to the next rule: none follows
    // (the nestedUserQueue is terminal), so the app is rejected too.
    let users = simple_groups(&["user1", "user2"]);
    let rows = "a,0,user1group,user2,0,0,0,1,1024,1,1000,20,\n\
                b,10,default,user1,0,0,0,1,1024,1,1000,20,\n";
    let nested = r#"<rule name="specified"/><rule name="nestedUserQueue"><rule name="primaryGroup"/></rule>"#;
    for (era, rules, reason) in [
        (
            "hadoop-2.7",
            format!("{nested}<rule name=\"default\"/>"),
            "cannot create `root.user1group.user1` under leaf queue",
        ),
        (
            "hadoop-3.3",
            nested.to_string(),
            "no placement rule assigned a queue to `default` for user `user1`",
        ),
    ] {
        let alloc = format!(
            "<allocations><queuePlacementPolicy>{rules}</queuePlacementPolicy></allocations>"
        );
        let got = placed_or_rejected(&alloc, &users, rows, era);
        assert_eq!(got.len(), 2, "{era}");
        assert_eq!(got[0], "root.user1group placed", "{era}");
        assert!(got[1].ends_with(reason), "{era}: {got:?}");
    }
}
