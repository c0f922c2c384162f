//! `fairsim run` and `fairsim compare` with apps sent to queues the Capacity Scheduler
//! cannot place them in (`default`, `root`, an empty name, a parent's short name, an unknown
//! name): each such app is rejected and counted, with the reason in apps.csv; no panic.

mod common;

use common::fixture::fairsim;
use std::path::Path;

const CAPACITY: &str = "<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.queues</name><value>b1</value></property>
  <property><name>yarn.scheduler.capacity.root.b.b1.capacity</name><value>100</value></property>
</configuration>
";

const FAIR: &str = "<allocations><queue name=\"a\"/><queue name=\"b\"><queue name=\"b1\"/></queue></allocations>\n";

/// One app per queue name: `default`, `root`, empty, `b` (a parent), `nosuch`, then the
/// leaves `a` and `b1`.
const TRACE: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts
j1,0,default,u,0,0,0,1,1024,1,1000,20,
j2,0,root,u,0,0,0,1,1024,1,1000,20,
j3,0,,u,0,0,0,1,1024,1,1000,20,
j4,0,b,u,0,0,0,1,1024,1,1000,20,
j5,0,nosuch,u,0,0,0,1,1024,1,1000,20,
j6,0,a,u,0,0,0,1,1024,1,1000,20,
j7,0,b1,u,0,0,0,1,1024,1,1000,20,
";

fn scenario(dir: &Path, name: &str, alloc: &str) -> String {
    let text = format!(
        "name = \"{name}\"\n[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
         [allocation]\nfile = \"{alloc}\"\n[workload]\ncsv = \"trace.csv\"\n"
    );
    let p = dir.join(format!("{name}.toml"));
    std::fs::write(&p, text).expect("write scenario");
    p.to_str().expect("utf-8 path").to_string()
}

fn inputs(dir: &Path) {
    std::fs::write(dir.join("capacity-scheduler.xml"), CAPACITY).expect("write");
    std::fs::write(dir.join("fair-scheduler.xml"), FAIR).expect("write");
    std::fs::write(dir.join("trace.csv"), TRACE).expect("write");
}

/// The `status` column of apps.csv, one per app in trace order.
fn statuses(apps_csv: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(apps_csv).expect("apps.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    let col = header
        .iter()
        .position(|h| *h == "status")
        .expect("a status column");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.expect("a row")[col].to_string())
        .collect()
}

fn metric(summary_csv: &Path, name: &str) -> f64 {
    let text = std::fs::read_to_string(summary_csv).expect("summary.csv");
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().expect("header").clone();
    let (m, v) = (
        header.iter().position(|h| h == "metric").expect("metric"),
        header.iter().position(|h| h == "value").expect("value"),
    );
    reader
        .records()
        .map(|r| r.expect("row"))
        .find(|r| &r[m] == name)
        .unwrap_or_else(|| panic!("no metric {name}"))[v]
        .parse()
        .expect("a number")
}

fn check_capacity_apps(run_dir: &Path) {
    let st = statuses(&run_dir.join("apps.csv"));
    assert_eq!(st.len(), 7, "{st:?}");
    for (i, reason) in [
        "unknown queue: default",
        "non-leaf queue: root",
        "unknown queue: ",
        "non-leaf queue: b",
        "unknown queue: nosuch",
    ]
    .iter()
    .enumerate()
    {
        assert!(st[i].contains(reason), "app {i}: {}", st[i]);
    }
    assert!(
        !st[5].contains("queue:") && !st[6].contains("queue:"),
        "{st:?}"
    );
    assert_eq!(metric(&run_dir.join("summary.csv"), "apps_rejected"), 5.0);
    assert_eq!(metric(&run_dir.join("summary.csv"), "apps_finished"), 2.0);
}

#[test]
fn run_rejects_apps_the_capacity_scheduler_cannot_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    inputs(dir.path());
    let sc = scenario(dir.path(), "cap", "capacity-scheduler.xml");
    let out_dir = dir.path().join("out");
    let out = fairsim(&["run", &sc, "--out", out_dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_capacity_apps(&out_dir);
    // The headline says why, under the count: one line per kind, with the first app's reason.
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("5 rejected, of 7"), "{stdout}");
    assert_eq!(
        &lines[1..3],
        [
            "  rejected: 3 (unknown queue), e.g. j1: submitted by user u to unknown queue: \
             default; each app's reason is apps.csv's status",
            "  rejected: 2 (parent queue), e.g. j2: submitted by user u to non-leaf queue: root; \
             each app's reason is apps.csv's status",
        ],
        "{stdout}"
    );
}

#[test]
fn compare_rejects_apps_the_capacity_scheduler_cannot_place() {
    let dir = tempfile::tempdir().expect("temp dir");
    inputs(dir.path());
    let fair = scenario(dir.path(), "fair", "fair-scheduler.xml");
    let cap = scenario(dir.path(), "cap", "capacity-scheduler.xml");
    let out_dir = dir.path().join("out");
    let out = fairsim(&["compare", &fair, &cap, "--out", out_dir.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = std::fs::read_to_string(out_dir.join("comparison.csv")).expect("table");
    assert!(table.starts_with("scheduler,queue,metric,value\n"));
    let sub: Vec<_> = std::fs::read_dir(&out_dir)
        .expect("out dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.join("apps.csv").exists())
        .collect();
    assert_eq!(sub.len(), 2, "{sub:?}");
    let cap_dir = sub
        .iter()
        .find(|p| statuses(&p.join("apps.csv"))[1].contains("non-leaf queue: root"))
        .expect("the capacity run's directory");
    check_capacity_apps(cap_dir);
}

fn validate(sc: &str) -> (Option<i32>, String, String) {
    let out = fairsim(&["validate", sc]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn validate_warns_about_the_apps_the_capacity_scheduler_would_reject() {
    let dir = tempfile::tempdir().expect("temp dir");
    inputs(dir.path());
    let sc = scenario(dir.path(), "cap", "capacity-scheduler.xml");
    let (code, out, err) = validate(&sc);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.ends_with("ok, scenario `cap`, 4 queues, 2 nodes\n"),
        "{out}"
    );
    let expected = "\
warning: 5 of 7 apps would be rejected at submission (seed 1): 3 unknown queue, 2 parent queue
warning:   app j1: submitted by user u to unknown queue: default
warning:   app j2: submitted by user u to non-leaf queue: root
warning:   app j3: submitted by user u to unknown queue: 
warning:   app j4: submitted by user u to non-leaf queue: b
warning:   app j5: submitted by user u to unknown queue: nosuch
";
    assert_eq!(err, expected);
}

#[test]
fn validate_warns_about_the_apps_the_fair_scheduler_would_reject() {
    let dir = tempfile::tempdir().expect("temp dir");
    inputs(dir.path());
    // Two more apps: one asking above the maximum allocation (8192 MB by default), one to a
    // queue the user rule has to create first (and then finds).
    let mut trace = TRACE.to_string();
    trace.push_str("j8,5,a,u,0,0,0,1,9000,1,1000,20,\nj9,6,default,u,0,0,0,1,1024,1,1000,20,\n");
    std::fs::write(dir.path().join("trace.csv"), trace).expect("write");
    let sc = scenario(dir.path(), "fair", "fair-scheduler.xml");
    let (code, _, err) = validate(&sc);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "warning: 4 of 9 apps would be rejected at submission (seed 1): 1 empty or malformed \
         queue name, 2 parent queue, 1 ask above the maximum allocation"
    );
    assert_eq!(
        lines[1],
        "warning:   app j2: `root` is a parent queue, not a leaf"
    );
    assert!(
        lines[2].starts_with("warning:   app j3: submitted by user u with an empty queue name"),
        "{err}"
    );
    assert_eq!(
        lines[3],
        "warning:   app j4: `root.b` is a parent queue, not a leaf"
    );
    assert!(
        lines[4].starts_with(
            "warning:   app j8: task container: invalid resource request: requested memory 9000 MB"
        ),
        "{err}"
    );
    // The queues the default rules create on the way are named with their rule.
    assert_eq!(
        lines[5..],
        [
            "warning: submission would create 3 queues the allocation file does not name (seed 1): root.u, root.nosuch, root.b1",
            "warning:   root.u: by <rule name=\"user\"/> for app j1 (queue `default`, user `u`) (and 1 more app)",
            "warning:   root.nosuch: by <rule name=\"specified\"/> for app j5 (queue `nosuch`, user `u`)",
            "warning:   root.b1: by <rule name=\"specified\"/> for app j7 (queue `b1`, user `u`)",
        ],
        "{err}"
    );
}

/// Apps the Capacity Scheduler refuses by its own limits are counted under their kind, not
/// "other": leaf `a` takes at most one application (`maximum-applications` 1), so of three
/// apps submitted together two are refused; `b` is STOPPED and refuses its one.
#[test]
fn the_headline_names_the_capacity_schedulers_own_refusals() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xml = "<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.a.maximum-applications</name><value>1</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.state</name><value>STOPPED</value></property>
</configuration>
";
    std::fs::write(dir.path().join("capacity-scheduler.xml"), xml).expect("write");
    let trace = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts
j1,0,a,u,0,0,0,1,1024,1,1000,20,
j2,0,a,u,0,0,0,1,1024,1,1000,20,
j3,0,a,v,0,0,0,1,1024,1,1000,20,
j4,0,b,u,0,0,0,1,1024,1,1000,20,
";
    std::fs::write(dir.path().join("trace.csv"), trace).expect("write");
    let sc = scenario(dir.path(), "cap", "capacity-scheduler.xml");
    let out_dir = dir.path().join("out");
    let out = fairsim(&["run", &sc, "--out", out_dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].contains("3 rejected, of 4"), "{stdout}");
    assert_eq!(
        &lines[1..3],
        [
            "  rejected: 2 (maximum applications reached), e.g. j2: queue root.a already has 1 \
             applications, its maximum-applications 1; each app's reason is apps.csv's status",
            "  rejected: 1 (stopped queue), e.g. j4: queue root.b is STOPPED: it accepts no \
             application; each app's reason is apps.csv's status",
        ],
        "{stdout}"
    );
}
