//! `fairsim check rm`: a saved Fair Scheduler response in Hadoop 3.3's JSON beside fairsim's
//! shares from the cluster's allocation file. The bundle's RM numbers are worked by hand from
//! Hadoop's ComputeFairShares (Hadoop's REST docs' example is not consistent: its
//! `fairResources` exceed the cluster and its JSON has a trailing comma), so the test states
//! them: weights 3, 1 and 1 (root.default) over 8192 MB truncate to 4915 + 1638 + 1638 =
//! 8191 < 8192 at the exact ratio 1638.4, so the bisection settles on the ratio where 3R
//! reaches 4916 (R = 1638.67): 4916, 1638, 1638. Under the fair policy only memory is
//! shared, so vcores stay 0. root.a alone is active: its instantaneous share is the cluster.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn bundle(name: &str) -> PathBuf {
    common::fixture::scenarios()
        .join("import/fair-bundle")
        .join(name)
}

fn check(scheduler: &Path, alloc: &Path) -> Output {
    common::fixture::command()
        .args(["check", "rm", "--scheduler"])
        .arg(scheduler)
        .arg("--alloc")
        .arg(alloc)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn every_queue_agrees_with_the_rm() {
    let o = check(&bundle("scheduler.json"), &bundle("fair-scheduler.xml"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 7, "{text}");
    assert!(rows[3].starts_with("root.a ") && rows[3].contains("4916/0 / 4916/0 / +0/+0"));
    assert!(rows[3].contains("8192/0 / 8192/0 / +0/+0") && rows[3].ends_with("agrees"));
    assert!(rows[4].starts_with("root.b ") && rows[4].contains("1638/0 / 1638/0 / +0/+0"));
    assert_eq!(rows[6], "all 4 queues agree with the RM's shares");
}

#[test]
fn a_changed_allocation_file_differs_with_exit_1() {
    // Weight 2 for root.a: 2 + 1 + 1 shares 8192 exactly, 4096 / 2048 / 2048.
    let d = tempfile::tempdir().unwrap();
    let alloc = d.path().join("changed.xml");
    let text = std::fs::read_to_string(bundle("fair-scheduler.xml")).unwrap();
    std::fs::write(
        &alloc,
        text.replace("<weight>3</weight>", "<weight>2</weight>"),
    )
    .unwrap();
    let o = check(&bundle("scheduler.json"), &alloc);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    let a = text.lines().find(|l| l.starts_with("root.a ")).unwrap();
    assert!(
        a.contains("4916/0 / 4096/0 / -820/+0") && a.ends_with("differs"),
        "{a}"
    );
    let b = text.lines().find(|l| l.starts_with("root.b ")).unwrap();
    assert!(
        b.contains("1638/0 / 2048/0 / +410/+0") && b.ends_with("differs"),
        "{b}"
    );
    assert_eq!(
        stderr(&o),
        "fairsim: 3 of 4 queues differ from the RM's shares\n"
    );
}

#[test]
fn bad_responses_exit_2_naming_the_file() {
    let d = tempfile::tempdir().unwrap();
    let full = std::fs::read_to_string(bundle("scheduler.json")).unwrap();
    let write = |name: &str, text: &str| {
        let p = d.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let alloc = bundle("fair-scheduler.xml");
    // Cut mid-way (curl interrupted): line and column of the end.
    let cut = write("cut.json", &full[..200]);
    let o = check(&cut, &alloc);
    assert_eq!(o.status.code(), Some(2));
    let lines = full[..200].lines().count();
    assert!(
        stderr(&o).starts_with(&format!("fairsim: {}:{lines}:", cut.display())),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("not a complete JSON response"));
    // An HTML error page (a proxy's login page, a 500).
    let html = write("html.json", "<html><body>Error 500</body></html>\n");
    let o = check(&html, &alloc);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(&format!(
        "{}:1:1: not a complete JSON response",
        html.display()
    )));
    // Another scheduler's response, named at the line of its type.
    let fifo = write(
        "fifo.json",
        "{\"scheduler\": {\"schedulerInfo\": {\n  \"type\": \"fifoScheduler\"}}}",
    );
    let o = check(&fifo, &alloc);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("{}:2: a `fifoScheduler` response", fifo.display())),
        "{}",
        stderr(&o)
    );
    // Another endpoint's response.
    let apps = write("apps.json", "{\"apps\": {\"app\": []}}");
    let o = check(&apps, &alloc);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a /ws/v1/cluster/scheduler response"));
    // The other scheduler's response for a fair-scheduler.xml.
    let cs = write(
        "cs.json",
        "{\"scheduler\": {\"schedulerInfo\": {\"type\": \"capacityScheduler\", \"capacity\": 100.0, \"queueName\": \"root\"}}}",
    );
    let o = check(&cs, &alloc);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "fairsim: {} is a Capacity Scheduler response but {} is a fair-scheduler.xml: give the cluster's capacity-scheduler.xml\n",
            cs.display(),
            alloc.display()
        )
    );
    // A Fair response for a capacity-scheduler.xml.
    let csxml = write(
        "capacity-scheduler.xml",
        "<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>default</value></property>\
         <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>100</value></property></configuration>",
    );
    let o = check(&bundle("scheduler.json"), &csxml);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("is a Fair Scheduler response but"),
        "{}",
        stderr(&o)
    );
    // A resource that is not a number.
    let bad = write(
        "bad.json",
        &full.replacen("\"memory\": 4916", "\"memory\": \"4916\"", 1),
    );
    let o = check(&bad, &alloc);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "{}:103: rootQueue.childQueues[0].steadyFairResources.memory: not a non-negative integer",
            bad.display()
        )),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}
