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
    // The running app holds 3 containers of 1024 MB and waits for 7 at `*` (the node- and
    // rack-level asks are the same containers' locality).
    assert_eq!(
        std::fs::read_to_string(out.join("open-apps.csv")).unwrap(),
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         application_1700000000000_0007,0,root.a,alice,0,0,0,3,1024,1,60000,0,\n\
         application_1700000000000_0007,0,root.a,alice,0,0,0,7,1024,1,60000,20,\n"
    );
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
        String::from_utf8_lossy(&o.stderr).contains("`import rm` reads a Fair Scheduler cluster")
    );
    assert!(!out.exists());
    let cut = d.path().join("cut.json");
    std::fs::write(&cut, &apps[..apps.len() / 2]).unwrap();
    let o = import(&cut, &bundle("scheduler.json"), &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not a complete JSON response"));
    assert!(!out.exists());
}
