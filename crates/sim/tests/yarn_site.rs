//! `scheduler.yarn_site`: yarn-site.xml and sls-runner.xml read as Hadoop reads a list of
//! configuration resources, with the scenario's own keys on top (docs/yarn-site.md).

use fairsim_core::Resource;
use fairsim_sim::alloc::default_policy_with;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::yarn_site::knobs::Status;
use fairsim_sim::{Scenario, load_scenario, run};
use std::path::Path;

const FAIR: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler";

fn write(dir: &Path, name: &str, text: &str) {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn conf(props: &[(&str, &str)]) -> String {
    let mut s = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (n, v) in props {
        s.push_str(&format!(
            "  <property>\n    <name>{n}</name>\n    <value>{v}</value>\n  </property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

/// A directory with a fair-scheduler.xml (queue `q`), a one-app trace (one 1,500 MB task)
/// and a scenario whose `[scheduler]` section is `scheduler`.
fn setup(scheduler: &str, allocation: bool) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "conf/fair-scheduler.xml",
        "<?xml version=\"1.0\"?>\n<allocations>\n  <queue name=\"q\"/>\n</allocations>\n",
    );
    write(
        d.path(),
        "trace.csv",
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         a1,0,q,u,0,0,0,1,1500,1,100,1,\n",
    );
    let alloc = if allocation {
        "[allocation]\nfile = \"conf/fair-scheduler.xml\"\n\n"
    } else {
        ""
    };
    write(
        d.path(),
        "s.toml",
        &format!(
            "[cluster]\nnodes = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n\n\
             [scheduler]\n{scheduler}\n\n{alloc}[workload]\ncsv = \"trace.csv\"\n"
        ),
    );
    d
}

fn load(d: &tempfile::TempDir) -> Result<Scenario, String> {
    load_scenario(d.path().join("s.toml")).map_err(|e| {
        e.to_string()
            .replace(&format!("{}/", d.path().display()), "")
    })
}

fn allocated(sc: &Scenario) -> Vec<Resource> {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).unwrap();
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| d.size)
        .collect()
}

#[test]
fn the_increment_from_yarn_site_rounds_a_1500_mb_ask_to_1536_mb() {
    let d = setup("", true);
    assert_eq!(allocated(&load(&d).unwrap()), vec![Resource::new(2048, 1)]);
    let d = setup("yarn_site = \"conf/yarn-site.xml\"", true);
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[("yarn.scheduler.increment-allocation-mb", " 512 ")]),
    );
    let sc = load(&d).unwrap();
    assert_eq!(sc.scheduler.increment_allocation_mb, 512);
    assert_eq!(allocated(&sc), vec![Resource::new(1536, 1)]);
}

#[test]
fn later_files_override_earlier_ones_and_the_scenario_overrides_both() {
    let d = setup(
        "yarn_site = [\"conf/yarn-site.xml\", \"conf/sls-runner.xml\"]\nsizebasedweight = false",
        true,
    );
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[
            ("yarn.scheduler.increment-allocation-mb", "512"),
            ("yarn.scheduler.fair.assignmultiple", "True"),
            ("yarn.scheduler.fair.sizebasedweight", "true"),
            (
                "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms",
                "3000",
            ),
        ]),
    );
    write(
        d.path(),
        "conf/sls-runner.xml",
        &conf(&[
            ("yarn.scheduler.increment-allocation-mb", "256"),
            ("yarn.sls.nm.heartbeat.interval.ms", "2000"),
            ("yarn.sls.container.memory.mb", "3072"),
            ("yarn.sls.runner.pool.size", "100"),
        ]),
    );
    let sc = load(&d).unwrap();
    let s = &sc.scheduler;
    assert_eq!(s.increment_allocation_mb, 256);
    assert!(s.assignmultiple);
    assert!(!s.sizebasedweight);
    // SLS's simulated NodeManagers beat at their own interval.
    assert_eq!(s.heartbeat_ms, 2000);
    let report = s.site.as_ref().unwrap();
    let status = |name: &str| {
        report
            .readings
            .iter()
            .find(|r| r.property.name == name)
            .map(|r| r.status.clone())
            .unwrap()
    };
    assert_eq!(
        status("yarn.scheduler.fair.sizebasedweight"),
        Status::ByScenario(8)
    );
    assert_eq!(
        status("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms"),
        Status::Superseded("yarn.sls.nm.heartbeat.interval.ms")
    );
    let lines = report.lines().join("\n");
    assert!(
        lines.contains(
            "sls-runner.xml:5: yarn.scheduler.increment-allocation-mb = 256 -> scheduler.increment_allocation_mb"
        ),
        "{lines}"
    );
    assert!(
        lines.contains("yarn.sls.runner.pool.size = 100: not modelled: "),
        "{lines}"
    );
}

#[test]
fn the_allocation_file_comes_from_yarn_site_relative_to_it() {
    let d = setup("yarn_site = \"conf/yarn-site.xml\"", false);
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[
            ("yarn.resourcemanager.scheduler.class", FAIR),
            ("yarn.scheduler.fair.allocation.file", "fair-scheduler.xml"),
            ("yarn.scheduler.fair.user-as-default-queue", "false"),
        ]),
    );
    let sc = load(&d).unwrap();
    assert!(sc.tree.find("root.q").is_some());
    // No queuePlacementPolicy in the file: YARN's default built from the properties.
    assert_eq!(sc.tree.placement, default_policy_with(false, true));
}

#[test]
fn without_a_class_yarn_runs_the_capacity_scheduler() {
    let d = setup("yarn_site = \"conf/yarn-site.xml\"", false);
    write(d.path(), "conf/yarn-site.xml", &conf(&[]));
    let e = load(&d).unwrap_err();
    assert!(e.contains("conf/capacity-scheduler.xml"), "{e}");
}

#[test]
fn a_class_other_than_the_allocation_files_is_refused() {
    let d = setup("yarn_site = \"conf/yarn-site.xml\"", true);
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[(
            "yarn.resourcemanager.scheduler.class",
            "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler",
        )]),
    );
    assert_eq!(
        load(&d).unwrap_err(),
        "conf/yarn-site.xml:5: yarn.resourcemanager.scheduler.class: names the Capacity \
         Scheduler, but the scenario's allocation file conf/fair-scheduler.xml is a \
         fair-scheduler.xml"
    );
}

#[test]
fn values_are_checked_against_the_scenario_limits_at_their_line() {
    let d = setup("yarn_site = \"conf/yarn-site.xml\"", true);
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[
            ("yarn.scheduler.fair.assignmultiple", "true"),
            ("yarn.scheduler.maximum-allocation-mb", "0"),
        ]),
    );
    assert_eq!(
        load(&d).unwrap_err(),
        "conf/yarn-site.xml:9: yarn.scheduler.maximum-allocation-mb: 0 is out of range: \
         the limit is 1 to 2147483647"
    );
    // A relation between two values (maximum below the minimum) is blamed on the file too.
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[("yarn.scheduler.maximum-allocation-mb", "512")]),
    );
    assert_eq!(
        load(&d).unwrap_err(),
        "conf/yarn-site.xml:5: yarn.scheduler.maximum-allocation-mb \
         (scheduler.maximum_allocation_mb): 512 is below the minimum allocation 1024"
    );
}

/// The minimum and the maximum allocation are compared once the yarn-site files are merged:
/// a maximum from yarn-site.xml makes room for a larger minimum of the scenario, and a
/// minimum from yarn-site.xml above the default maximum is blamed on its own line, not on the
/// scenario's `[scheduler]` (whose maximum was never written).
#[test]
fn minimum_above_maximum_is_checked_after_merging_and_blames_what_was_written() {
    // Scenario minimum 9000 MB, yarn-site maximum 16384 MB: YARN starts (9000 <= 16384).
    // Compared before the merge, against the default maximum of 8192 MB, it was refused.
    let d = setup(
        "yarn_site = \"conf/yarn-site.xml\"\nminimum_allocation_mb = 8192",
        true,
    );
    write(
        d.path(),
        "s.toml",
        &std::fs::read_to_string(d.path().join("s.toml"))
            .unwrap()
            .replace(
                "minimum_allocation_mb = 8192",
                "minimum_allocation_mb = 9000",
            )
            .replace("node_memory_mb = 8192", "node_memory_mb = 16384"),
    );
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[("yarn.scheduler.maximum-allocation-mb", "16384")]),
    );
    let sc = load(&d).unwrap();
    assert_eq!(
        (
            sc.scheduler.minimum_allocation_mb,
            sc.scheduler.maximum_allocation_mb
        ),
        (9000, 16384)
    );
    // yarn-site gives the minimum (9000 MB at line 5), the maximum is the default 8192 MB.
    let d = setup("yarn_site = \"conf/yarn-site.xml\"", true);
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[("yarn.scheduler.minimum-allocation-mb", "9000")]),
    );
    assert_eq!(
        load(&d).unwrap_err(),
        "conf/yarn-site.xml:5: yarn.scheduler.minimum-allocation-mb \
         (scheduler.minimum_allocation_mb): 9000 is above the maximum allocation 8192 (the \
         default of maximum_allocation_mb): YARN's ResourceManager refuses to start"
    );
}

#[test]
fn reservable_nodes_is_read_in_33_and_checked_at_its_line() {
    let d = setup(
        "semantics = \"hadoop-3.3\"\nyarn_site = \"conf/yarn-site.xml\"",
        true,
    );
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[("yarn.scheduler.fair.reservable-nodes", "0.5")]),
    );
    assert_eq!(load(&d).unwrap().scheduler.reservable_nodes, 0.5);
    write(
        d.path(),
        "conf/yarn-site.xml",
        &conf(&[("yarn.scheduler.fair.reservable-nodes", "1.5")]),
    );
    let e = load(&d).unwrap_err();
    assert!(
        e.starts_with("conf/yarn-site.xml:5: yarn.scheduler.fair.reservable-nodes"),
        "{e}"
    );
    assert!(e.contains("1.5 is out of range"), "{e}");
    assert!(e.contains("from 0 to 1"), "{e}");
}
