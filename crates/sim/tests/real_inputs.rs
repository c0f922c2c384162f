//! Hadoop's own input formats read as Hadoop reads them, through the scenario reader: SLS
//! nodes files with SLS's NodeManager size from sls-runner.xml, and SLS traces whose task
//! groups share a priority. Every file here is written in the format of Hadoop's own (the
//! hadoop-sls test resources and sample configuration), by hand.

use fairsim_core::Resource;
use fairsim_sim::scenario::{Scenario, parse_scenario};
use fairsim_sim::yarn_site::knobs::Status;

const FS_XML: &str = "<allocations>\n  <queue name=\"a\"/>\n</allocations>\n";

/// Writes `files` and the scenario `toml` into a fresh directory and reads the scenario.
fn load(toml: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, Result<Scenario, String>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fs.xml"), FS_XML).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let path = dir.path().join("s.toml");
    std::fs::write(&path, toml).unwrap();
    let sc = parse_scenario(toml, &path).map_err(|e| e.to_string());
    (dir, sc)
}

/// An SLS nodes file as hadoop-sls's nodes-with-resources.json writes one: per-node
/// `memory-mb` / `vcores` on some nodes only.
const NODES: &str = r#"{
  "rack": "rack1",
  "nodes": [
    {
      "node": "node1",
      "memory-mb": 2048,
      "vcores": 6
    },
    {
      "node": "node2"
    }
  ]
}
"#;

/// sls-runner.xml giving SLS's NodeManagers 4096 MB and 4 vcores.
const SLS_RUNNER: &str = r#"<?xml version="1.0"?>
<configuration>
  <property>
    <name>yarn.sls.nm.memory.mb</name>
    <value>4096</value>
  </property>
  <property>
    <name>yarn.sls.nm.vcores</name>
    <value>4</value>
  </property>
</configuration>
"#;

fn scenario(semantics: &str, cluster_extra: &str) -> String {
    format!(
        "[cluster]\nnodes_file = \"nodes.json\"\n{cluster_extra}[scheduler]\nsemantics = \"{semantics}\"\n\
         yarn_site = \"sls-runner.xml\"\n[allocation]\nfile = \"fs.xml\"\n[workload]\nsls = \"jobs.json\"\n"
    )
}

const ONE_JOB: &str =
    r#"{"job.start.ms": 0, "job.queue.name": "a", "job.tasks": [{"container.duration.ms": 10}]}"#;

fn sizes(sc: &Scenario) -> Vec<Resource> {
    sc.cluster.node_specs().iter().map(|n| n.capacity).collect()
}

fn status_of(sc: &Scenario, property: &str) -> Status {
    let report = sc.scheduler.site.as_ref().expect("a yarn-site report");
    report
        .readings
        .iter()
        .find(|r| r.property.name == property)
        .unwrap_or_else(|| panic!("{property} not in {report:?}"))
        .status
        .clone()
}

/// SLS starts every node of a nodes file from its NodeManager size (sls-runner.xml's
/// `yarn.sls.nm.memory.mb` / `yarn.sls.nm.vcores`): hadoop-3.3 then lets a node's own
/// `memory-mb` / `vcores` replace it, hadoop-2.7 gives every node that size.
#[test]
fn sls_runner_node_manager_size_is_the_size_of_nodes_that_give_none() {
    let files = [
        ("nodes.json", NODES),
        ("sls-runner.xml", SLS_RUNNER),
        ("jobs.json", ONE_JOB),
    ];
    let (_d, sc) = load(&scenario("hadoop-3.3", ""), &files);
    let sc = sc.unwrap();
    assert_eq!(sizes(&sc), [Resource::new(2048, 6), Resource::new(4096, 4)]);
    assert_eq!(status_of(&sc, "yarn.sls.nm.memory.mb"), Status::Applied);
    let (_d, sc) = load(&scenario("hadoop-2.7", ""), &files);
    assert_eq!(
        sizes(&sc.unwrap()),
        [Resource::new(4096, 4), Resource::new(4096, 4)]
    );
    // The scenario's own size wins over the file's, and the report says where.
    let (_d, sc) = load(&scenario("hadoop-2.7", "node_memory_mb = 8192\n"), &files);
    let sc = sc.unwrap();
    assert_eq!(sizes(&sc), [Resource::new(8192, 4), Resource::new(8192, 4)]);
    assert_eq!(
        status_of(&sc, "yarn.sls.nm.memory.mb"),
        Status::ByScenario(3)
    );
    assert_eq!(status_of(&sc, "yarn.sls.nm.vcores"), Status::Applied);
}

/// A cluster that is not a nodes file takes nothing from SLS's NodeManager size, and the
/// report says so rather than that the value applies.
#[test]
fn sls_node_manager_size_is_unused_without_a_nodes_file() {
    let toml = "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n[scheduler]\n\
                yarn_site = \"sls-runner.xml\"\n[allocation]\nfile = \"fs.xml\"\n[workload]\nsls = \"jobs.json\"\n";
    let (_d, sc) = load(
        toml,
        &[("sls-runner.xml", SLS_RUNNER), ("jobs.json", ONE_JOB)],
    );
    let sc = sc.unwrap();
    assert_eq!(sizes(&sc), [Resource::new(8192, 8); 2]);
    assert!(
        matches!(status_of(&sc, "yarn.sls.nm.vcores"), Status::Unused(why) if why.contains("nodes_file")),
        "{:?}",
        status_of(&sc, "yarn.sls.nm.vcores")
    );
}

/// A NodeManager size out of range names the property's file and line, as every
/// sls-runner.xml value does.
#[test]
fn a_bad_node_manager_size_names_its_file_and_line() {
    let runner = SLS_RUNNER.replace("<value>4</value>", "<value>four</value>");
    let (d, sc) = load(
        &scenario("hadoop-3.3", ""),
        &[
            ("nodes.json", NODES),
            ("sls-runner.xml", &runner),
            ("jobs.json", ONE_JOB),
        ],
    );
    assert_eq!(
        sc.unwrap_err(),
        format!(
            "{}:9: yarn.sls.nm.vcores: \"four\" is not an integer",
            d.path().join("sls-runner.xml").display()
        )
    );
}
