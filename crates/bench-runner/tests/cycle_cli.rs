//! A run that would repeat forever stops and says so: two queues take one node from each
//! other by preemption, each container killed 1 ms before it would finish (Hadoop 2.7,
//! preemption on, no `end_ms`). Without the cycle rule this run never ended.

mod common;

const SCENARIO: &str = r#"
[cluster]
nodes = 1
node_memory_mb = 4096
node_vcores = 4

[scheduler]
semantics = "hadoop-2.7"
preemption = true
preemption_utilization_threshold = 0.5
preemption_interval_ms = 1000
wait_before_kill_ms = 1500

[allocation]
file = "cycle.xml"

[workload]
csv = "cycle.csv"
"#;

const ALLOCATIONS: &str = r#"<?xml version="1.0"?>
<allocations>
  <queue name="q0">
    <weight>0.5</weight>
    <minResources>2048 mb, 2 vcores</minResources>
    <minSharePreemptionTimeout>2</minSharePreemptionTimeout>
    <fairSharePreemptionTimeout>3</fairSharePreemptionTimeout>
  </queue>
  <queue name="q1">
    <weight>0.5</weight>
    <minSharePreemptionTimeout>2</minSharePreemptionTimeout>
    <fairSharePreemptionTimeout>3</fairSharePreemptionTimeout>
  </queue>
</allocations>
"#;

// Normalised to 1024 MB steps: a's AM 1024 and tasks 2048, b's task 3072 on a 4096 MB node.
const TRACE: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts
a,0,q0,u,512,1,0,2,1536,1,5001,10,
b,0,q1,u,0,0,0,1,2560,1,5001,10,
";

#[test]
fn a_preemption_cycle_stops_at_its_first_repeat_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("cycle.toml"), SCENARIO).unwrap();
    std::fs::write(dir.path().join("cycle.xml"), ALLOCATIONS).unwrap();
    std::fs::write(dir.path().join("cycle.csv"), TRACE).unwrap();
    let out = dir.path().join("out");
    let run = common::fixture::command()
        .arg("run")
        .arg(dir.path().join("cycle.toml"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // b takes the node at 6 s (a's task killed at 5,000 of its 5,001 ms), a takes it back at
    // 11 s, b again at 17 s: the state after the 7.5 s update comes back at 18.5 s.
    assert!(
        stdout.contains("stalled at 18.5 s: the state of 7.5 s came back with no app finished"),
        "{stdout}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["end_ms"], 18_500);
    assert_eq!(summary["stalled_at_ms"], 18_500);
    assert_eq!(summary["cycle_from_ms"], 7_500);
    assert_eq!(summary["metrics"]["stalled"], 1.0);
    assert_eq!(summary["metrics"]["apps_unfinished"], 2.0);
    assert_eq!(summary["metrics"]["preempted_containers"], 3.0);
}
