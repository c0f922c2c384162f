//! Heterogeneous clusters end to end: `[[cluster.nodes]]` lists, SLS nodes files and trace
//! host hints, through the scenario reader and the engine, with hand-counted outcomes.

mod common;

use common::outcomes::{nodes_allocated, run_sampled};
use fairsim_sim::app::Locality;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{Scenario, parse_scenario};

const FS_XML: &str = r#"<allocations>
  <queue name="a"><weight>1.0</weight></queue>
  <queue name="b"><weight>2.0</weight></queue>
</allocations>
"#;

/// Writes `files` and the scenario `toml` into a fresh directory and reads the scenario.
fn load(toml: &str, files: &[(&str, &str)]) -> (tempfile::TempDir, Scenario) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fs.xml"), FS_XML).unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let path = dir.path().join("s.toml");
    std::fs::write(&path, toml).unwrap();
    let mut sc = parse_scenario(toml, &path).unwrap_or_else(|e| panic!("{e}"));
    sc.check_invariants = true;
    (dir, sc)
}

/// Containers allocated per node.
fn per_node(rec: &MemoryRecorder, n: usize) -> Vec<usize> {
    let mut v = vec![0; n];
    for d in &rec.decisions {
        if matches!(d.kind, DecisionKind::Allocated(_)) {
            v[d.node as usize] += 1;
        }
    }
    v
}

const MIXED: &str = r#"
end_ms = 5000
[cluster]
[[cluster.nodes]]
prefix = "big"
rack = "r1"
memory_mb = 8192
vcores = 8
[[cluster.nodes]]
prefix = "small"
count = 2
rack = "r2"
memory_mb = 4096
vcores = 4
[allocation]
file = "fs.xml"
[workload]
csv = "t.csv"
[outputs]
sample_interval_ms = 1000
"#;

const HEADER: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n";

/// One 8 GB node and two 4 GB nodes: 16 GB and 16 vcores in all. Queue weights 1 and 2, and
/// 1 for the `default` queue every allocation file has, split it 4 / 8 / 4 GB. Six 3 GB tasks pack two on the 8 GB node (2 GB left) and one on each
/// 4 GB node (1 GB left): four run, one heartbeat per node per second, nodes beating at 0,
/// 333 and 666 ms.
#[test]
fn a_mixed_cluster_shares_its_sum_and_packs_per_node() {
    let csv = format!("{HEADER}j,0,b,u,0,0,0,6,3072,1,100000,1,\n");
    let (_d, sc) = load(MIXED, &[("t.csv", &csv)]);
    assert_eq!(sc.cluster.nodes, 3);
    assert_eq!(sc.cluster.racks, 2);
    assert_eq!(sc.cluster.total(), fairsim_core::Resource::new(16384, 16));
    let rec = run_sampled(&sc).0;
    let (_, first) = &rec.samples[0];
    let steady = |q: &str| {
        first
            .iter()
            .find(|s| s.queue == q)
            .unwrap()
            .steady_fair_share
            .memory_mb
    };
    assert_eq!(
        (steady("root.a"), steady("root.b"), steady("root.default")),
        (4096, 8192, 4096)
    );
    assert_eq!(per_node(&rec, 3), [2, 1, 1]);
    assert_eq!(
        nodes_allocated(&rec),
        [(0, 0), (333, 1), (666, 2), (1000, 0)]
    );
}

/// Four 5 GB tasks of 10 s on 16 GB either way. Two 8 GB nodes run two at a time: node 0
/// (phase 0) takes tasks at 0 and 10,000 ms, node 1 (phase 500) at 500 and 10,500: the job
/// ends at 20,500 ms. One 8 GB node and two 4 GB nodes: only the 8 GB node fits a 5 GB
/// task, one at a time: 0, 10,000, 20,000, 30,000; the job ends at 40,000 ms.
#[test]
fn big_asks_take_twice_as_long_on_a_mixed_cluster_of_the_same_total() {
    let csv = format!("{HEADER}j,0,b,u,0,0,0,4,5120,1,10000,1,\n");
    let homogeneous = MIXED.split("[[cluster.nodes]]").next().unwrap().to_string()
        + "nodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n[allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n";
    let homogeneous = homogeneous.replace("end_ms = 5000\n", "");
    let mixed = MIXED.replace("end_ms = 5000\n", "");
    let finish = |toml: &str| {
        let (_d, sc) = load(toml, &[("t.csv", &csv)]);
        let rec = run_sampled(&sc).0;
        assert_eq!(rec.apps.len(), 1);
        (
            rec.apps[0].finish.unwrap().0,
            per_node(&rec, sc.cluster.nodes as usize),
        )
    };
    assert_eq!(finish(&homogeneous), (20_500, vec![2, 2]));
    assert_eq!(finish(&mixed), (40_000, vec![4, 0, 0]));
}

const NODES_JSON: &str = r#"{"rack": "r1", "nodes": [{"node": "h1.example.com"}, {"node": "h2.example.com"}]}
{"rack": "r2", "nodes": [{"node": "h3.example.com"}, {"node": "h4.example.com", "memory-mb": 2048, "vcores": 2}]}
"#;

const SLS_JOBS: &str = r#"{"job.start.ms": 0, "job.queue.name": "a", "job.id": "j1",
 "job.tasks": [
   {"container.host": "/r2/h4.example.com", "container.duration.ms": 100000, "container.priority": 20},
   {"container.host": "/r1/zz.example.com", "container.duration.ms": 100000, "container.priority": 30}]}
"#;

const SLS_SCENARIO: &str = r#"
end_ms = 20000
[cluster]
nodes_file = "nodes.json"
node_memory_mb = 4096
node_vcores = 4
[scheduler]
semantics = "hadoop-3.3"
locality_threshold_node = 1.0
locality_threshold_rack = 1.0
[allocation]
file = "fs.xml"
[workload]
sls = "jobs.json"
"#;

/// An SLS nodes file of two racks (hadoop-3.3 reads h4's own size) and an SLS trace whose
/// first task asks for h4 in r2 and second for a host no node has, in r1. With both locality
/// thresholds at 1.0 a request waits more than 4 (nodes × 1.0) missed offers per level: the
/// first task runs node-local on h4, the second rack-local on an r1 node; the warning counts
/// the one unknown hint.
#[test]
fn an_sls_nodes_file_places_trace_hints_on_their_hosts_and_racks() {
    let (_d, sc) = load(
        SLS_SCENARIO,
        &[("nodes.json", NODES_JSON), ("jobs.json", SLS_JOBS)],
    );
    assert_eq!(sc.cluster.nodes, 4);
    assert_eq!(
        sc.cluster.total(),
        fairsim_core::Resource::new(3 * 4096 + 2048, 14)
    );
    let warning = sc
        .warnings
        .iter()
        .find(|w| w.contains("host hints"))
        .expect("a warning about the unknown hint");
    assert!(
        warning.starts_with("1 of 2 task host hints name no node of the cluster (1 distinct hosts, first: zz.example.com)"),
        "{warning}"
    );
    let rec = run_sampled(&sc).0;
    let tasks: Vec<(i32, u32, Locality)> = rec
        .decisions
        .iter()
        .filter_map(|d| match d.kind {
            DecisionKind::Allocated(l) if d.priority > 0 => Some((d.priority, d.node, l)),
            _ => None,
        })
        .collect();
    assert_eq!(tasks.len(), 2, "{tasks:?}");
    assert_eq!(tasks[0], (20, 3, Locality::NodeLocal));
    assert_eq!(tasks[1].0, 30);
    assert!(tasks[1].1 < 2, "{tasks:?}");
    assert_eq!(tasks[1].2, Locality::RackLocal);
}

/// `nodes = N` is the list it always meant: the same run as the equivalent
/// `[[cluster.nodes]]` entry with `node`-prefixed names split over racks.
#[test]
fn nodes_n_and_its_list_give_the_same_run() {
    let csv = format!(
        "{HEADER}j,0,a,u,1024,1,0,7,3072,1,7000,1,node2\nk,10,b,u,1024,1,0,5,2048,1,3000,1,\n"
    );
    let short = "[cluster]\nnodes = 4\nracks = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n[allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n";
    let list = "[cluster]\n[[cluster.nodes]]\ncount = 2\nrack = \"rack0\"\nmemory_mb = 8192\nvcores = 8\n[[cluster.nodes]]\ncount = 2\nrack = \"rack1\"\nmemory_mb = 8192\nvcores = 8\n[allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n";
    let (_a, a) = load(short, &[("t.csv", &csv)]);
    let (_b, b) = load(list, &[("t.csv", &csv)]);
    assert_eq!(a.cluster.node_specs(), b.cluster.node_specs());
    let (ra, rb) = (run_sampled(&a).0, run_sampled(&b).0);
    assert_eq!(ra.decisions, rb.decisions);
    assert_eq!(format!("{:?}", ra.summary), format!("{:?}", rb.summary));
    assert!(!ra.decisions.is_empty());
}

/// Nodes keep the file's order (racks, then nodes within a rack).
#[test]
fn a_nodes_file_keeps_its_order() {
    let (_d, sc) = load(
        SLS_SCENARIO,
        &[("nodes.json", NODES_JSON), ("jobs.json", SLS_JOBS)],
    );
    let names: Vec<String> = sc
        .cluster
        .node_specs()
        .iter()
        .map(|n| format!("/{}/{}", n.rack, n.name))
        .collect();
    assert_eq!(
        names,
        [
            "/r1/h1.example.com",
            "/r1/h2.example.com",
            "/r2/h3.example.com",
            "/r2/h4.example.com"
        ]
    );
}

const CS_XML: &str = r#"<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.user-limit-factor</name><value>2</value></property>
</configuration>
"#;

/// The Capacity Scheduler on the same two clusters: queue b's capacity is half of 16 GB
/// either way and its user may take twice that; a 5 GB container fits only the 8 GB nodes.
#[test]
fn the_capacity_scheduler_packs_per_node_too() {
    let csv = format!("{HEADER}j,0,b,u,0,0,0,4,5120,1,10000,1,\n");
    let cluster_mixed = MIXED
        .split("[allocation]")
        .next()
        .unwrap()
        .replace("end_ms = 5000\n", "");
    let cluster_homogeneous =
        "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n".to_string();
    let finish = |cluster: &str| {
        let toml =
            format!("{cluster}[allocation]\nfile = \"cs.xml\"\n[workload]\ncsv = \"t.csv\"\n");
        let (_d, sc) = load(&toml, &[("t.csv", &csv), ("cs.xml", CS_XML)]);
        let rec = run_sampled(&sc).0;
        (
            rec.apps[0].finish.unwrap().0,
            per_node(&rec, sc.cluster.nodes as usize),
        )
    };
    assert_eq!(finish(&cluster_homogeneous), (20_500, vec![2, 2]));
    assert_eq!(finish(&cluster_mixed), (40_000, vec![4, 0, 0]));
}
