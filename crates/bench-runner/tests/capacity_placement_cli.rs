//! `fairsim run` and `fairsim compare` with apps sent to queues the Capacity Scheduler
//! cannot place them in (`default`, `root`, an empty name, a parent's short name, an unknown
//! name): each such app is rejected and counted, with the reason in apps.csv; no panic.

use std::path::Path;
use std::process::{Command, Output};

fn fairsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(args)
        .output()
        .expect("the binary runs")
}

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
