//! `fairsim import rm`: a Hadoop 3.3 Fair Scheduler cluster's saved REST responses
//! (scenarios/import/fair-bundle) and its allocation file into a scenario directory that
//! runs; bad bundles exit 2 naming the file and write nothing.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

fn bundle(name: &str) -> PathBuf {
    common::fixture::scenarios()
        .join("import/fair-bundle")
        .join(name)
}

fn import(apps: &Path, scheduler: &Path, out: &Path) -> Output {
    common::fixture::command()
        .args(["import", "rm", "--remaining", "fixed:60000", "--scheduler"])
        .arg(scheduler)
        .arg("--nodes")
        .arg(bundle("nodes.json"))
        .arg("--apps")
        .arg(apps)
        .arg("--alloc")
        .arg(bundle("fair-scheduler.xml"))
        .arg("--out")
        .arg(out)
        .output()
        .expect("the binary runs")
}

#[test]
fn a_fair_bundle_becomes_a_scenario_that_runs() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("imported");
    let o = import(&bundle("apps.json"), &bundle("scheduler.json"), &out);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "warning: 1 nodes not RUNNING and 1 apps neither RUNNING nor ACCEPTED left out\n"
    );
    let toml = std::fs::read_to_string(out.join("scenario.toml")).unwrap();
    // h1: 2048 used + 2048 available; h2: 1024 + 3072; h3 is LOST.
    assert!(toml.contains(
        "[[cluster.nodes]]\nname = \"h1\"\nrack = \"rack1\"\nmemory_mb = 4096\nvcores = 4\n"
    ));
    assert!(toml.contains("name = \"h2\"\nrack = \"rack2\"\nmemory_mb = 4096\nvcores = 4\n"));
    assert!(!toml.contains("h3"));
    // The running app holds 3 containers of 1024 MB (its AM and 2 tasks, held at priority
    // 1) and waits for 7 at `*` (the node- and rack-level asks are the same containers'
    // locality).
    assert_eq!(
        std::fs::read_to_string(out.join("open-apps.csv")).unwrap(),
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         application_1700000000000_0007,0,root.a,alice,1024,1,0,2,1024,1,60000,1,\n\
         application_1700000000000_0007,0,root.a,alice,1024,1,0,7,1024,1,60000,20,\n"
    );
    // h1 reports 2048 MB used, h2 1024: the AM on its own node h1 with one task, the other
    // task on h2.
    assert_eq!(
        std::fs::read_to_string(out.join("start.csv")).unwrap(),
        "app,node,priority,containers\n\
         application_1700000000000_0007,h1,0,1\n\
         application_1700000000000_0007,h1,1,1\n\
         application_1700000000000_0007,h2,1,1\n"
    );
    assert!(toml.contains("csv = \"open-apps.csv\"\nstart = \"start.csv\"\n"));
    assert_eq!(
        std::fs::read_to_string(out.join("demand.csv")).unwrap(),
        "queue,memory_mb,vcores\nroot.a,10240,10\n"
    );
    let run = d.path().join("run");
    let o = common::fixture::command()
        .arg("run")
        .arg(out.join("scenario.toml"))
        .arg("--out")
        .arg(&run)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let apps = std::fs::read_to_string(run.join("apps.csv")).unwrap();
    // 10 containers of 1024 MB on 8192 MB: 8 run at once, the last 2 after 60 s.
    let row = apps.lines().nth(1).unwrap();
    assert!(row.ends_with(",10,0,0,finished"), "{row}");
}

#[test]
fn bad_bundles_exit_2_and_write_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("imported");
    let apps = std::fs::read_to_string(bundle("apps.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&apps).unwrap();
    let mut v = v;
    v["apps"]["app"][0]
        .as_object_mut()
        .unwrap()
        .remove("resourceRequests");
    let no_requests = d.path().join("apps.json");
    std::fs::write(&no_requests, v.to_string()).unwrap();
    let o = import(&no_requests, &bundle("scheduler.json"), &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(
            "apps.app[0] (application_1700000000000_0007): no `resourceRequests`: its pending demand is unknown"
        ),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists());
    let cs = d.path().join("cs.json");
    std::fs::write(
        &cs,
        "{\"scheduler\": {\"schedulerInfo\": {\"type\": \"capacityScheduler\"}}}",
    )
    .unwrap();
    let o = import(&bundle("apps.json"), &cs, &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("a Capacity Scheduler response with a fair-scheduler.xml file")
    );
    assert!(!out.exists());
    let cut = d.path().join("cut.json");
    std::fs::write(&cut, &apps[..apps.len() / 2]).unwrap();
    let o = import(&cut, &bundle("scheduler.json"), &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a complete JSON response"));
    assert!(!out.exists());
}

/// The Capacity Scheduler bundle (scenarios/import/capacity-bundle): three running apps
/// hold 15 containers' worth on h1 (11264 MB used) and h2 (4096 MB used).
#[test]
fn a_capacity_bundle_starts_from_its_cluster_state() {
    let cs = |name: &str| {
        common::fixture::scenarios()
            .join("import/capacity-bundle")
            .join(name)
    };
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("imported");
    let o = common::fixture::command()
        .args(["import", "rm", "--remaining", "fixed:60000", "--scheduler"])
        .arg(cs("scheduler.json"))
        .arg("--nodes")
        .arg(cs("nodes.json"))
        .arg("--apps")
        .arg(cs("apps.json"))
        .arg("--alloc")
        .arg(cs("capacity-scheduler.xml"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    assert!(String::from_utf8_lossy(&o.stdout).contains(
        "3 open apps, 3 of them holding 9 containers at the start; remaining run time: every \
         container runs 60000 ms from the snapshot); cluster 32768 MB, 32 vcores"
    ));
    // Apps 1 and 2 (AMs on h1) fill h1's 11264 MB exactly; app 3's AM and task are on h2.
    assert_eq!(
        std::fs::read_to_string(out.join("start.csv")).unwrap(),
        "app,node,priority,containers\n\
         application_1700000000000_0001,h1,0,1\n\
         application_1700000000000_0001,h1,1,2\n\
         application_1700000000000_0002,h1,0,1\n\
         application_1700000000000_0002,h1,1,3\n\
         application_1700000000000_0003,h2,0,1\n\
         application_1700000000000_0003,h2,1,1\n"
    );
    assert!(!out.join("demand.csv").exists());
    // Sampled every second: the first sample, at 0 ms, holds the imported usage plus what
    // the heartbeats of 0 ms placed (one container per node beat at most).
    let toml = out.join("scenario.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        format!("{text}\n[outputs]\nsample_interval_ms = 1000\n").replace(
            "name = \"imported\"\n",
            "name = \"imported\"\nend_ms = 1000\n",
        ),
    )
    .unwrap();
    let run = d.path().join("run");
    let o = common::fixture::command()
        .arg("run")
        .arg(&toml)
        .arg("--out")
        .arg(&run)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let queues = std::fs::read_to_string(run.join("queues.csv")).unwrap();
    let usage = |q: &str| -> i64 {
        let row = queues
            .lines()
            .find(|l| l.starts_with(&format!("0,{q},")))
            .unwrap();
        row.split(',').nth(2).unwrap().parse().unwrap()
    };
    // root.a holds 3072 MB, root.b 12288 MB; each may have gained what a beat at 0 gave.
    let (a, b) = (usage("root.a"), usage("root.b"));
    assert!((3072..=3072 + 2048).contains(&a), "{queues}");
    assert!((12288..=12288 + 4096).contains(&b), "{queues}");
    assert!(a + b >= 15360);
}

/// The Fair bundle as Hadoop 2.7 writes it (scenarios/import/fair-bundle-27): no
/// `demandResources`, `amUsedResources` or `resourceInformations`, child queues as a bare
/// list, request priorities as plain numbers. The missing demand is taken as the usage, as
/// before 3.x, and counted; the rest reads as 3.3's.
#[test]
fn a_hadoop_27_fair_bundle_imports_runs_and_checks() {
    let b = |name: &str| {
        common::fixture::scenarios()
            .join("import/fair-bundle-27")
            .join(name)
    };
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("imported");
    let o = common::fixture::command()
        .args([
            "import",
            "rm",
            "--semantics",
            "hadoop-2.7",
            "--remaining",
            "elapsed",
            "--scheduler",
        ])
        .arg(b("scheduler.json"))
        .arg("--nodes")
        .arg(b("nodes.json"))
        .arg("--apps")
        .arg(b("apps.json"))
        .arg("--alloc")
        .arg(b("fair-scheduler.xml"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "warning: 1 active leaves without demandResources (before Hadoop 3.x): demand.csv takes \
         their usage as their demand\n\
         warning: 1 nodes not RUNNING and 1 apps neither RUNNING nor ACCEPTED left out\n"
    );
    // root.a's usage, 3072 MB, stands for its demand.
    assert_eq!(
        std::fs::read_to_string(out.join("demand.csv")).unwrap(),
        "queue,memory_mb,vcores\nroot.a,3072,3\n"
    );
    // Plain-number priorities read as 3.3's objects do; `elapsed`: 120 s.
    assert!(
        std::fs::read_to_string(out.join("open-apps.csv"))
            .unwrap()
            .contains("application_1700000000000_0007,0,root.a,alice,1024,1,0,7,1024,1,120000,20,")
    );
    let toml = std::fs::read_to_string(out.join("scenario.toml")).unwrap();
    assert!(toml.contains("semantics = \"hadoop-2.7\""));
    let o = common::fixture::command()
        .arg("run")
        .arg(out.join("scenario.toml"))
        .arg("--out")
        .arg(d.path().join("run"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = common::fixture::command()
        .args(["check", "rm", "--semantics", "hadoop-2.7", "--scheduler"])
        .arg(b("scheduler.json"))
        .arg("--alloc")
        .arg(b("fair-scheduler.xml"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "warning: 1 active leaves without demandResources (before Hadoop 3.x): their usage taken \
         as their demand\n"
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).ends_with("all 4 queues agree with the RM's shares\n")
    );
}
