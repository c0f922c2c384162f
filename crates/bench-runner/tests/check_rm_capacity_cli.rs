//! `fairsim check rm` on Capacity Scheduler responses in Hadoop 3.3's JSON.
//!
//! The queues are those of Hadoop's `TestRMWebServicesCapacitySched` (root.a 12.5 % up to
//! 50 %, root.b 50 %, root.c 37.5 %, one 32 GB / 32-vcore node), whose expected response
//! `webapp/scheduler-response-PerUserResources.json` gives the RM's effective resources:
//! root.a 4096/4 up to 16384/16, root.b 16384/16 up to 32768/32, root.c 12288/12 up to
//! 32768/32, and a `userResourceLimit` of 0 for its two active users (the test registers no
//! node heartbeat, so no allocation computes a limit).
//!
//! The bundle in scenarios/import/capacity-bundle is that cluster running (root.b with
//! minimum-user-limit-percent 25), its user limits worked by hand from Hadoop 3.3's
//! `UsersManager.computeUserLimit` with the default calculator and a 1024 MB / 1 vcore
//! minimum allocation:
//! * root.a, user1 alone active, 3072/3 used of an effective capacity of 4096/4: usage below
//!   capacity, so the current capacity is 4096/4; per user ceil((3072 + 1024) / 1) = 4096,
//!   vcores 4; 100 % of 4096 is 4096; the factor-1 cap 4096/4: 4096/4.
//! * root.b, user2 (8192/8) and user3 (4096/4) active, capacity 16384/16: per user
//!   ceil((12288 + 1024) / 2) = 6656, vcores ceil(13 / 2) = 7; 25 % is 4096/4, smaller;
//!   the cap 16384/16 is larger: 6656/7, rounded up to the minimum allocation 7168/7.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn bundle(name: &str) -> PathBuf {
    common::fixture::scenarios()
        .join("import/capacity-bundle")
        .join(name)
}

fn check(scheduler: &Path, alloc: &Path, extra: &[&str]) -> Output {
    common::fixture::command()
        .args(["check", "rm", "--scheduler"])
        .arg(scheduler)
        .arg("--alloc")
        .arg(alloc)
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn row<'a>(text: &'a str, queue: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(&format!("{queue} ")))
        .unwrap_or_else(|| panic!("no row {queue} in {text}"))
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_queue_of_the_bundle_agrees_with_the_rm() {
    let o = check(
        &bundle("scheduler.json"),
        &bundle("capacity-scheduler.xml"),
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("cluster 32768 MB, 32 vcores; hadoop-3.3;"));
    assert_eq!(
        squash(row(&text, "root.a")),
        "root.a 12.5 / 12.5 50 / 50 4096/4 / 4096/4 16384/16 / 16384/16 4096/4 / 4096/4 agrees"
    );
    assert_eq!(
        squash(row(&text, "root.b")),
        "root.b 50 / 50 100 / 100 16384/16 / 16384/16 32768/32 / 32768/32 7168/7 / 7168/7 agrees"
    );
    assert_eq!(
        squash(row(&text, "root.c")),
        "root.c 37.5 / 37.5 100 / 100 12288/12 / 12288/12 32768/32 / 32768/32 - agrees"
    );
    assert_eq!(
        text.lines().last(),
        Some("all 4 queues agree with the RM's capacities")
    );
}

/// The state of Hadoop's expected `scheduler-response-PerUserResources.json`, trimmed to
/// the fields read: two apps' AMs counted for their users (1024/1 each), nothing running.
fn hadoop_expected_state() -> String {
    let res = |m: i64, v: i64| format!("{{\"memory\": {m}, \"vCores\": {v}}}");
    let caps = |min: String, max: String| {
        format!(
            "{{\"queueCapacitiesByPartition\": [{{\"partitionName\": \"\", \"effectiveMinResource\": {min}, \"effectiveMaxResource\": {max}}}]}}"
        )
    };
    let users = |u: &str| {
        format!(
            "{{\"user\": [{{\"username\": \"{u}\", \"resourcesUsed\": {}, \"numActiveApplications\": 1, \"AMResourceUsed\": {}, \"userResourceLimit\": {}, \"userWeight\": 1.0, \"isActive\": true}}]}}",
            res(0, 0),
            res(1024, 1),
            res(0, 0)
        )
    };
    let leaf = |name: &str, cap: f64, max: f64, min: String, maxr: String, u: Option<&str>| {
        format!(
            "{{\"type\": \"capacitySchedulerLeafQueueInfo\", \"queuePath\": \"root.{name}\", \"queueName\": \"{name}\", \"capacity\": {cap}, \"maxCapacity\": {max}, \"absoluteCapacity\": {cap}, \"absoluteMaxCapacity\": {max}, \"resourcesUsed\": {}, \"capacities\": {}, \"userLimit\": 100.0, \"userLimitFactor\": 1.0, \"numActiveApplications\": {}{}}}",
            res(0, 0),
            caps(min, maxr),
            u.map_or(0, |_| 1),
            u.map_or(String::new(), |u| format!(", \"users\": {}", users(u)))
        )
    };
    format!(
        "{{\"scheduler\": {{\"schedulerInfo\": {{\"type\": \"capacityScheduler\", \"capacity\": 100.0, \"maxCapacity\": 100.0, \"queueName\": \"root\", \"capacities\": {}, \"queues\": {{\"queue\": [{}, {}, {}]}}}}}}}}",
        caps(res(32768, 32), res(32768, 32)),
        leaf("a", 12.5, 50.0, res(4096, 4), res(16384, 16), Some("user1")),
        leaf(
            "b",
            50.0,
            100.0,
            res(16384, 16),
            res(32768, 32),
            Some("user2")
        ),
        leaf("c", 37.5, 100.0, res(12288, 12), res(32768, 32), None),
    )
}

#[test]
fn hadoops_own_expected_response_agrees_and_its_uncomputed_user_limits_are_said() {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("scheduler.json");
    std::fs::write(&json, hadoop_expected_state()).unwrap();
    // Hadoop's test sets no minimum-user-limit-percent: 100 % for root.b.
    let xml = d.path().join("capacity-scheduler.xml");
    let text = std::fs::read_to_string(bundle("capacity-scheduler.xml")).unwrap();
    let line = "  <property><name>yarn.scheduler.capacity.root.b.minimum-user-limit-percent</name><value>25</value></property>\n";
    assert!(text.contains(line));
    std::fs::write(&xml, text.replace(line, "")).unwrap();
    let o = check(&json, &xml, &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    // The RM's 0 is shown, not compared: fairsim's limit for a lone user of an empty leaf is
    // the leaf's capacity.
    assert_eq!(
        squash(row(&out, "root.a")),
        "root.a 12.5 / 12.5 50 / 50 4096/4 / 4096/4 16384/16 / 16384/16 0 (none) / 4096/4 agrees"
    );
    assert_eq!(
        stderr(&o),
        "warning: 2 active users whose userResourceLimit the RM has not computed yet (0: no \
         allocation attempted for them) are not compared\n"
    );
}

#[test]
fn a_changed_capacity_scheduler_xml_differs_with_exit_1() {
    // root.a 25 % and root.c 25 %: a's effective minimum doubles to 8192/8, and so does its
    // one user's limit (current capacity 8192, 100 % of it); c's falls to 8192/8.
    let d = tempfile::tempdir().unwrap();
    let xml = d.path().join("capacity-scheduler.xml");
    let text = std::fs::read_to_string(bundle("capacity-scheduler.xml")).unwrap();
    let changed = text
        .replace(
            "root.a.capacity</name><value>12.5<",
            "root.a.capacity</name><value>25<",
        )
        .replace(
            "root.c.capacity</name><value>37.5<",
            "root.c.capacity</name><value>25<",
        );
    assert_ne!(changed, text);
    std::fs::write(&xml, changed).unwrap();
    let o = check(&bundle("scheduler.json"), &xml, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        squash(row(&out, "root.a")),
        "root.a 12.5 / 25 50 / 50 4096/4 / 8192/8 16384/16 / 16384/16 4096/4 / 8192/8 differs"
    );
    assert!(row(&out, "root.b").ends_with("agrees"));
    assert!(squash(row(&out, "root.c")).contains("12288/12 / 8192/8"));
    assert!(row(&out, "root.c").ends_with("differs"));
    assert_eq!(
        stderr(&o),
        "fairsim: 2 of 4 queues differ from the RM's capacities\n"
    );
    // A leaf's user settings differing from the RM's is a difference too.
    let text = std::fs::read_to_string(bundle("capacity-scheduler.xml")).unwrap();
    std::fs::write(
        &xml,
        text.replace("percent</name><value>25<", "percent</name><value>50<"),
    )
    .unwrap();
    let o = check(&bundle("scheduler.json"), &xml, &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(row(&stdout(&o), "root.b").ends_with("differs"));
}

#[test]
fn a_hadoop_2_response_needs_the_cluster_size_and_says_what_it_lacks() {
    // Hadoop 2.7 writes no queuePath, no effective resources and no isActive.
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(bundle("scheduler.json")).unwrap()).unwrap();
    let mut v = v;
    fn strip(v: &mut serde_json::Value) {
        if let Some(o) = v.as_object_mut() {
            for k in [
                "queuePath",
                "capacities",
                "minEffectiveCapacity",
                "maxEffectiveCapacity",
                "isActive",
                "userWeight",
            ] {
                o.remove(k);
            }
            for (_, x) in o.iter_mut() {
                strip(x);
            }
        } else if let Some(a) = v.as_array_mut() {
            a.iter_mut().for_each(strip);
        }
    }
    strip(&mut v);
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("scheduler-27.json");
    std::fs::write(&json, serde_json::to_string(&v).unwrap()).unwrap();
    let o = check(&json, &bundle("capacity-scheduler.xml"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "no root effective resource (Hadoop 2.x): give the cluster's size with --cluster"
        ),
        "{}",
        stderr(&o)
    );
    let o = check(
        &json,
        &bundle("capacity-scheduler.xml"),
        &["--cluster", "32768,32"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Users with active apps stand in for isActive: root.b's limit is the same.
    assert!(
        squash(row(&stdout(&o), "root.b"))
            .contains("- / 16384/16 - / 32768/32 7168/7 / 7168/7 agrees")
    );
    assert_eq!(
        stderr(&o).lines().next(),
        Some(
            format!(
                "warning: fields an older release does not write, absent from {}: effectiveMinResource (4), isActive (3), queuePath (3)",
                json.display()
            )
            .as_str()
        )
    );
}

#[test]
fn a_leaf_of_the_rm_that_the_file_makes_a_parent_differs() {
    // root.c split into c1 in the file: the RM's leaf root.c is the file's parent, and the
    // file's root.c.c1 is no queue of the RM.
    let d = tempfile::tempdir().unwrap();
    let xml = d.path().join("capacity-scheduler.xml");
    let text = std::fs::read_to_string(bundle("capacity-scheduler.xml")).unwrap();
    let c1 = "  <property><name>yarn.scheduler.capacity.root.c.queues</name><value>c1</value></property>\n  \
              <property><name>yarn.scheduler.capacity.root.c.c1.capacity</name><value>100</value></property>\n</configuration>";
    std::fs::write(&xml, text.replace("</configuration>", c1)).unwrap();
    let o = check(&bundle("scheduler.json"), &xml, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    // Its numbers agree (c1 takes all of c): only the shape differs.
    assert_eq!(
        squash(row(&out, "root.c")),
        "root.c 37.5 / 37.5 100 / 100 12288/12 / 12288/12 32768/32 / 32768/32 - differs"
    );
    assert_eq!(
        row(&out, "root.c.c1").trim_end(),
        "root.c.c1            not in the RM"
    );
    assert_eq!(
        stderr(&o),
        "fairsim: 2 of 5 queues differ from the RM's capacities\n"
    );
}
