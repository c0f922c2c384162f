//! The bad-input catalogue: every case is an input a user could give (a file or a flag), the
//! exit code it must get, and what the message must name (file:line, key, the limit). Each
//! case runs the `fairsim` binary in its own directory holding small valid inputs that the
//! case breaks one line of; all mismatches are reported together.

mod common;

use std::path::Path;

/// A valid scenario; cases replace one line (or add lines after one). Line numbers matter:
/// messages are checked against them.
const SCENARIO: &str = r#"name = "bad"
end_ms = 3600000
[cluster]
nodes = 4
racks = 1
node_memory_mb = 8192
node_vcores = 8
[scheduler]
heartbeat_ms = 1000
[allocation]
file = "fs.xml"
[[workload.synthetic.queues]]
queue = "a"
apps = 2
mean_interarrival_ms = 1000
tasks = { dist = "constant", value = 2 }
duration_ms = { dist = "constant", value = 1000 }
container_mb = 1024
[outputs]
sample_interval_ms = 10000
"#;

/// The synthetic workload of [`SCENARIO`], which trace cases replace.
const SYNTHETIC_BLOCK: &str = "[[workload.synthetic.queues]]\nqueue = \"a\"\napps = 2\n\
    mean_interarrival_ms = 1000\ntasks = { dist = \"constant\", value = 2 }\n\
    duration_ms = { dist = \"constant\", value = 1000 }\ncontainer_mb = 1024\n";

const FAIR_XML: &str = r#"<allocations>
  <queue name="a">
    <weight>1.0</weight>
  </queue>
  <queue name="b">
    <weight>2.0</weight>
  </queue>
</allocations>
"#;

const CAPACITY_XML: &str = r#"<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
  <property><name>yarn.scheduler.capacity.root.a.user-limit-factor</name><value>1</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.1</value></property>
</configuration>
"#;

const CSV: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts
j1,0,a,u,1024,1,0,2,1024,1,5000,20,
j2,100,b,u,1024,1,0,2,1024,1,5000,20,
";

const SLS: &str = r#"{ "job.start.ms": 0, "job.queue.name": "a", "job.id": "j1",
  "job.tasks": [ { "count": 2, "container.duration.ms": 1000 } ] }
{ "job.start.ms": 100, "job.queue.name": "b", "job.id": "j2",
  "job.tasks": [ { "count": 1, "container.duration.ms": 1000 } ] }
"#;

const RUMEN: &str = r#"{ "jobID": "job_1", "queue": "a", "user": "u",
  "submitTime": 1000000, "finishTime": 1090000,
  "mapTasks": [ { "attempts": [
    { "hostName": "/r1/h1",
      "startTime": 1000500, "finishTime": 1001000 } ] } ],
  "reduceTasks": [ ] }
"#;

const SYNTH: &str = r#"{ "num_jobs": 2, "rand_seed": 1,
  "workloads": [ { "workload_name": "w", "workload_weight": 1, "queue_name": "a",
    "job_classes": [ { "class_name": "c", "class_weight": 1, "user_name": "u",
      "tasks": [ { "type": "map", "priority": 20,
        "count": { "val": 2 },
        "time": { "val": 1000 },
        "max_memory": { "val": 1024 },
        "max_vcores": { "val": 1 } } ] } ],
    "time_distribution": [ { "time": 0, "weight": 1 } ] } ]
}
"#;

const SITE_XML: &str = r#"<configuration>
  <property><name>yarn.resourcemanager.scheduler.class</name><value>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler</value></property>
  <property><name>yarn.scheduler.maximum-allocation-mb</name><value>8192</value></property>
  <property><name>yarn.scheduler.fair.update-interval-ms</name><value>500</value></property>
  <property><name>yarn.scheduler.fair.preemption.cluster-utilization-threshold</name><value>0.8</value></property>
</configuration>
"#;

/// An SLS nodes file (read by `nodes.toml`, a hadoop-3.3 scenario).
const NODES: &str = r#"{"rack": "r1", "nodes": [{"node": "h1"}, {"node": "h2"}]}
{"rack": "r2", "nodes": [{"node": "h3", "memory-mb": 4096, "vcores": 4}]}
"#;

const SNAPSHOT: &str = r#"{
  "semantics": "hadoop-2.7",
  "policy": "fair",
  "cluster": {"memory_mb": 10240, "vcores": 10},
  "schedulables": [
    {"name": "root.a", "weight": 1.0, "demand": {"memory_mb": 4096, "vcores": 4}},
    {"name": "root.b", "weight": 2.0, "demand": {"memory_mb": 8192, "vcores": 8}}
  ]
}
"#;

/// A sweep over [`SCENARIO`] (as `s0.toml`).
const SWEEP: &str = r#"name = "sw"
base = "s0.toml"
seeds = { count = 1, base = 1 }
[[axis]]
path = "cluster.nodes"
values = [4]
"#;

/// Which valid file a case starts from.
#[derive(Clone, Copy)]
enum Base {
    Scenario,
    Fair,
    Capacity,
    Csv,
    Sls,
    Nodes,
    Snapshot,
    Site,
    Rumen,
    Synth,
    Sweep,
    None,
}

struct Case {
    /// What is wrong, in words.
    what: &'static str,
    base: Base,
    /// Replace the first occurrence of `.0` with `.1` in the base file.
    edit: (&'static str, &'static str),
    /// Command line; `FILE` stands for the edited file.
    args: &'static [&'static str],
    code: i32,
    /// Substrings the message (stderr) must hold.
    expect: &'static [&'static str],
}

const fn case(
    what: &'static str,
    base: Base,
    edit: (&'static str, &'static str),
    args: &'static [&'static str],
    code: i32,
    expect: &'static [&'static str],
) -> Case {
    Case {
        what,
        base,
        edit,
        args,
        code,
        expect,
    }
}

use Base::*;
const RUN: &[&str] = &["run", "FILE", "--out", "out"];
const VALIDATE: &[&str] = &["validate", "FILE"];
/// `validate` in hadoop-2.7 (a capacity-scheduler.xml is read as hadoop-3.3 by default).
const VALIDATE_27: &[&str] = &["validate", "FILE", "--semantics", "hadoop-2.7"];
const CSV_RUN: &[&str] = &["run", "csv.toml", "--out", "out"];
const SLS_RUN: &[&str] = &["run", "sls.toml", "--out", "out"];
const CAP_RUN: &[&str] = &["run", "cap.toml", "--out", "out"];
const SITE_RUN: &[&str] = &["run", "site.toml", "--out", "out"];
const RUMEN_RUN: &[&str] = &["run", "rumen.toml", "--out", "out"];
const SYNTH_RUN: &[&str] = &["run", "synth.toml", "--out", "out"];
const NODES_RUN: &[&str] = &["run", "nodes.toml", "--out", "out"];
/// The `[cluster]` keys of [`SCENARIO`], which list cases replace.
const CLUSTER_KEYS: &str = "nodes = 4\nracks = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n";
const RANK: &[&str] = &["rank", "FILE"];
const SHARES: &[&str] = &["shares", "FILE"];
const S: &str = "s.toml";
const SCHED: &str = "heartbeat_ms = 1000";

fn sched(line: &'static str) -> (&'static str, &'static str) {
    (SCHED, line)
}

fn cases() -> Vec<Case> {
    let _ = S;
    vec![
        // The cluster.
        case(
            "no node",
            Scenario,
            ("nodes = 4", "nodes = 0"),
            RUN,
            2,
            &["s.toml:4: cluster.nodes: 0 is out of range: the limit is 1 to 100000"],
        ),
        case(
            "a hundred million nodes",
            Scenario,
            ("nodes = 4", "nodes = 100000000"),
            VALIDATE,
            2,
            &["s.toml:4: cluster.nodes: 100000000 is out of range"],
        ),
        case(
            "2^32-1 nodes",
            Scenario,
            ("nodes = 4", "nodes = 4294967295"),
            RUN,
            2,
            &["s.toml:4: cluster.nodes: 4294967295 is out of range"],
        ),
        case(
            "negative nodes",
            Scenario,
            ("nodes = 4", "nodes = -1"),
            RUN,
            2,
            &[
                "s.toml:4:9: nodes: invalid value: integer `-1`, expected a node count or [[cluster.nodes]] entries",
            ],
        ),
        case(
            "no rack",
            Scenario,
            ("racks = 1", "racks = 0"),
            RUN,
            2,
            &["s.toml:5: cluster.racks: 0 is out of range"],
        ),
        case(
            "more racks than nodes",
            Scenario,
            ("racks = 1", "racks = 8"),
            RUN,
            2,
            &["s.toml:5: cluster.racks: 8 racks for 4 nodes"],
        ),
        case(
            "node memory beyond a Java int",
            Scenario,
            (
                "node_memory_mb = 8192",
                "node_memory_mb = 9223372036854775807",
            ),
            RUN,
            2,
            &[
                "s.toml:6: cluster.node_memory_mb: 9223372036854775807 is out of range: the limit is 1 to 2147483647",
            ],
        ),
        case(
            "no node memory",
            Scenario,
            ("node_memory_mb = 8192", "node_memory_mb = 0"),
            RUN,
            2,
            &["s.toml:6: cluster.node_memory_mb: 0 is out of range"],
        ),
        case(
            "negative vcores",
            Scenario,
            ("node_vcores = 8", "node_vcores = -3"),
            RUN,
            2,
            &["s.toml:7: cluster.node_vcores: -3 is out of range"],
        ),
        case(
            "nodes without vcores under a minimum allocation of 1 vcore (YARN shuts them down)",
            Scenario,
            ("node_vcores = 8", "node_vcores = 0"),
            RUN,
            2,
            &[
                "s.toml:7: cluster.node_vcores: node node0 has 0 vcores, below scheduler.minimum_allocation_vcores = 1",
                "ResourceTrackerService",
            ],
        ),
        case(
            "nodes below a minimum allocation of 1024 MB (YARN shuts them down)",
            Scenario,
            ("node_memory_mb = 8192", "node_memory_mb = 512"),
            RUN,
            2,
            &[
                "s.toml:6: cluster.node_memory_mb: node node0 has 512 MB, below scheduler.minimum_allocation_mb = 1024",
                "ResourceTrackerService",
            ],
        ),
        case(
            "a nodes file node below a minimum allocation of 1024 MB",
            Nodes,
            ("\"memory-mb\": 4096", "\"memory-mb\": 1000"),
            NODES_RUN,
            2,
            &[
                "nodes.json:2: nodes[0].memory-mb: node h3 has 1000 MB, below scheduler.minimum_allocation_mb = 1024",
            ],
        ),
        case(
            "the second [[cluster.nodes]] entry below the minimum allocation: its own line",
            Scenario,
            (
                CLUSTER_KEYS,
                "node_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\nprefix = \"a\"\n\
                 count = 2\n[[cluster.nodes]]\nprefix = \"b\"\nmemory_mb = 512\n",
            ),
            RUN,
            2,
            &[
                "s.toml:11: cluster.nodes[1].memory_mb: node b0 has 512 MB, below scheduler.minimum_allocation_mb = 1024",
            ],
        ),
        case(
            "the second `add` event below the minimum allocation (first in time): its own line",
            Scenario,
            (
                CLUSTER_KEYS,
                "nodes = 4\nracks = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n\
                 [[cluster.events]]\nat_ms = 10\nkind = \"add\"\n\
                 [[cluster.events]]\nat_ms = 5\nkind = \"add\"\nprefix = \"c\"\nvcores = 0\n",
            ),
            RUN,
            2,
            &[
                "s.toml:15: cluster.events[1].vcores: node c0 has 0 vcores, below scheduler.minimum_allocation_vcores = 1",
            ],
        ),
        // Node lists and SLS nodes files.
        case(
            "two cluster forms at once",
            Scenario,
            ("nodes = 4", "nodes_file = \"nodes.json\"\nnodes = 4"),
            RUN,
            2,
            &[
                "s.toml:3: cluster: give exactly one of `nodes = N`, [[cluster.nodes]] entries or `nodes_file`",
            ],
        ),
        case(
            "a node entry of no node",
            Scenario,
            (
                CLUSTER_KEYS,
                "node_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\ncount = 0\n",
            ),
            RUN,
            2,
            &["s.toml:7: cluster.nodes[0].count: 0 is out of range: the limit is 1 to 100000"],
        ),
        case(
            "one host name for two nodes",
            Scenario,
            (
                CLUSTER_KEYS,
                "node_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\nname = \"h1\"\ncount = 2\n",
            ),
            RUN,
            2,
            &["s.toml:8: cluster.nodes[0].count: 2 nodes cannot share the name `h1`: use `prefix`"],
        ),
        case(
            "two entries with one host name",
            Scenario,
            (
                CLUSTER_KEYS,
                "node_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\nname = \"h1\"\n[[cluster.nodes]]\nname = \"h1\"\n",
            ),
            VALIDATE,
            2,
            &["s.toml:9: cluster.nodes[1].name: two nodes are named `h1`"],
        ),
        case(
            "a node entry beyond a Java int of memory",
            Scenario,
            (
                CLUSTER_KEYS,
                "[[cluster.nodes]]\nmemory_mb = 4294967296\nvcores = 4\n",
            ),
            RUN,
            2,
            &[
                "s.toml:5: cluster.nodes[0].memory_mb: 4294967296 is out of range: the limit is 1 to 2147483647",
            ],
        ),
        case(
            "a node entry of no size",
            Scenario,
            (CLUSTER_KEYS, "[[cluster.nodes]]\nvcores = 4\n"),
            RUN,
            2,
            &[
                "s.toml:4: cluster.nodes[0].memory_mb: missing: give it here or as cluster.node_memory_mb",
            ],
        ),
        case(
            "a node entry with an unknown key",
            Scenario,
            (CLUSTER_KEYS, "[[cluster.nodes]]\nmemory = 4\n"),
            RUN,
            2,
            &["s.toml:5:1: unknown field `memory`, expected one of `name`, `prefix`"],
        ),
        case(
            "racks beside a node list",
            Scenario,
            (
                CLUSTER_KEYS,
                "racks = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\n",
            ),
            RUN,
            2,
            &["s.toml:4: cluster.racks: racks come from the node list here"],
        ),
        case(
            "a nodes file that is not there",
            Scenario,
            (CLUSTER_KEYS, "nodes_file = \"nosuch.json\"\n"),
            RUN,
            2,
            &["s.toml:4: cluster.nodes_file: nosuch.json: cannot read"],
        ),
        case(
            "an allocation file that is not there, named at its key",
            Scenario,
            ("file = \"fs.xml\"", "file = \"nosuch.xml\""),
            VALIDATE,
            2,
            &["s.toml:11: allocation.file: nosuch.xml: cannot read: No such file"],
        ),
        case(
            "a directory as the allocation file",
            Scenario,
            ("file = \"fs.xml\"", "file = \".\""),
            RUN,
            2,
            &["s.toml:11: allocation.file: .: cannot read: it is a directory"],
        ),
        case(
            "a csv trace that is not there, named at its key",
            Scenario,
            (
                "[[workload.synthetic.queues]]\nqueue = \"a\"",
                "[workload]\ncsv = \"nosuch.csv\"\n[[workload.synthetic.queues]]\nqueue = \"a\"",
            ),
            VALIDATE,
            2,
            &["s.toml:13: workload.csv: nosuch.csv: cannot read"],
        ),
        case(
            "validate of recorded times without their columns, as a run refuses them",
            Scenario,
            (
                SYNTHETIC_BLOCK,
                "[workload]\ncsv = \"t.csv\"\nrecorded = \"t.csv\"\n",
            ),
            VALIDATE,
            2,
            &["s.toml: t.csv:1: no `submit_ms` column"],
        ),
        case(
            "validate of recorded times that are not there",
            Scenario,
            (
                SYNTHETIC_BLOCK,
                "[workload]\ncsv = \"t.csv\"\nrecorded = \"nosuch.csv\"\n",
            ),
            VALIDATE,
            2,
            &["s.toml:14: workload.recorded: nosuch.csv: cannot read"],
        ),
        case(
            "a nodes file node with negative vcores",
            Nodes,
            ("\"vcores\": 4", "\"vcores\": -4"),
            NODES_RUN,
            2,
            &["nodes.json:2: nodes[0].vcores: -4 is out of range: the limit is 0 to 2147483647"],
        ),
        case(
            // A node without `node` is SLS's host `null` (docs/cluster.md); a list is no name.
            "a nodes file node named by a list",
            Nodes,
            ("{\"node\": \"h2\"}", "{\"node\": [\"h2\"]}"),
            NODES_RUN,
            2,
            &["nodes.json:1: nodes[1].node: `[\"h2\"]` is not a host name"],
        ),
        case(
            "a host in two racks of a nodes file",
            Nodes,
            ("\"h3\"", "\"h1\""),
            NODES_RUN,
            2,
            &["nodes.json:2: nodes[0].node: `h1` is already in rack `r1`"],
        ),
        case(
            "a job trace given as the nodes file",
            Nodes,
            ("{\"rack\": \"r1\", \"nodes\"", "{\"job.tasks\": [], \"x\""),
            NODES_RUN,
            2,
            &["nodes.json:1: json: not an SLS nodes file: this looks like an SLS JSON job trace"],
        ),
        case(
            "a nodes file of an array",
            Nodes,
            ("{\"rack\": \"r1\"", "[{\"rack\": \"r1\""),
            NODES_RUN,
            2,
            &["nodes.json:1: json: expected a rack object"],
        ),
        // Times.
        case(
            "end in 31,000 years",
            Scenario,
            ("end_ms = 3600000", "end_ms = 1000000000000000"),
            RUN,
            2,
            &["s.toml:2: end_ms: 1000000000000000 is out of range: the limit is 0 to 315576000000"],
        ),
        case(
            "negative end",
            Scenario,
            ("end_ms = 3600000", "end_ms = -1"),
            RUN,
            2,
            &["s.toml:2:10: end_ms: invalid value: integer `-1`, expected u64"],
        ),
        case(
            "zero heartbeat",
            Scenario,
            (SCHED, "heartbeat_ms = 0"),
            RUN,
            2,
            &["s.toml:9: scheduler.heartbeat_ms: 0 is out of range: the limit is 1 to"],
        ),
        case(
            "zero update interval",
            Scenario,
            sched("heartbeat_ms = 1000\nupdate_interval_ms = 0"),
            RUN,
            2,
            &["s.toml:10: scheduler.update_interval_ms: 0 is out of range"],
        ),
        case(
            "zero monitoring interval",
            Scenario,
            sched("heartbeat_ms = 1000\nmonitoring_interval_ms = 0"),
            RUN,
            2,
            &["s.toml:10: scheduler.monitoring_interval_ms: 0 is out of range"],
        ),
        case(
            "preemption interval of u64::MAX",
            Scenario,
            sched("heartbeat_ms = 1000\npreemption_interval_ms = 18446744073709551615"),
            RUN,
            2,
            &["s.toml:10:", "preemption_interval_ms"],
        ),
        case(
            "kill wait of 10^15 ms",
            Scenario,
            sched("heartbeat_ms = 1000\nwait_before_kill_ms = 1000000000000000"),
            RUN,
            2,
            &["s.toml:10: scheduler.wait_before_kill_ms: 1000000000000000 is out of range"],
        ),
        case(
            "booster of 10^15 ms",
            Scenario,
            sched(
                "heartbeat_ms = 1000\nbooster = { factor = 3.0, duration_ms = 1000000000000000 }",
            ),
            RUN,
            2,
            &["s.toml:10: scheduler.booster.duration_ms: 1000000000000000 is out of range"],
        ),
        // Floats.
        case(
            "NaN node locality threshold",
            Scenario,
            sched("heartbeat_ms = 1000\nlocality_threshold_node = nan"),
            RUN,
            2,
            &["s.toml:10: scheduler.locality_threshold_node: NaN is not a finite 32-bit float"],
        ),
        case(
            "infinite rack locality threshold",
            Scenario,
            sched("heartbeat_ms = 1000\nlocality_threshold_rack = inf"),
            RUN,
            2,
            &["s.toml:10: scheduler.locality_threshold_rack: inf is not a finite 32-bit float"],
        ),
        case(
            "NaN booster factor",
            Scenario,
            sched("heartbeat_ms = 1000\nbooster = { factor = nan }"),
            RUN,
            2,
            &[
                "s.toml:10: scheduler.booster.factor: NaN is out of range: the limit is a finite number from 0 to 3.4e38",
            ],
        ),
        case(
            "negative booster factor",
            Scenario,
            sched("heartbeat_ms = 1000\nbooster = { factor = -2.0 }"),
            RUN,
            2,
            &["s.toml:10: scheduler.booster.factor: -2 is out of range"],
        ),
        case(
            "infinite utilisation threshold",
            Scenario,
            sched("heartbeat_ms = 1000\npreemption_utilization_threshold = inf"),
            RUN,
            2,
            &[
                "s.toml:10: scheduler.preemption_utilization_threshold: inf is not a finite 32-bit float",
            ],
        ),
        case(
            "NaN preemption per round",
            Scenario,
            sched("heartbeat_ms = 1000\ntotal_preemption_per_round = nan"),
            RUN,
            2,
            &["s.toml:10: scheduler.total_preemption_per_round: NaN is not a finite 32-bit float"],
        ),
        case(
            "negative over-capacity dead zone",
            Scenario,
            sched("heartbeat_ms = 1000\nmax_ignored_over_capacity = -1.0"),
            RUN,
            2,
            &["s.toml:10: scheduler.max_ignored_over_capacity: -1 is out of range"],
        ),
        case(
            "termination factor beyond a float",
            Scenario,
            sched("heartbeat_ms = 1000\nnatural_termination_factor = 1e39"),
            RUN,
            2,
            &["s.toml:10: scheduler.natural_termination_factor: 1e39 is not a finite 32-bit float"],
        ),
        case(
            "locality delay below -1",
            Scenario,
            sched("heartbeat_ms = 1000\nnode_locality_delay = -5"),
            RUN,
            2,
            &[
                "s.toml:10: scheduler.node_locality_delay: -5 is out of range: the limit is -1 to 2147483647",
            ],
        ),
        case(
            "negative minimum allocation",
            Scenario,
            sched("heartbeat_ms = 1000\nminimum_allocation_mb = -1"),
            RUN,
            2,
            &[
                "s.toml:10: scheduler.minimum_allocation_mb: -1 is out of range: the limit is 0 to 2147483647",
            ],
        ),
        case(
            "reservation multiple of NaN",
            Scenario,
            sched("heartbeat_ms = 1000\nreservation_threshold_increment_multiple = nan"),
            RUN,
            2,
            &["s.toml:10: scheduler.reservation_threshold_increment_multiple: NaN is out of range"],
        ),
        case(
            "unknown era",
            Scenario,
            sched("heartbeat_ms = 1000\nsemantics = \"hadoop-9\""),
            RUN,
            2,
            &["s.toml:10:", "hadoop-9"],
        ),
        case(
            "unknown scheduler key",
            Scenario,
            sched("heartbeat_ms = 1000\nheartbeat = 5"),
            VALIDATE,
            2,
            &["s.toml:10:", "heartbeat"],
        ),
        // Queue overrides.
        case(
            "override of a queue that does not exist",
            Scenario,
            ("[outputs]", "[queues.nosuch]\nweight = 1.0\n[outputs]"),
            RUN,
            2,
            &["s.toml:19: queues.\"nosuch\": no such queue in the allocation file"],
        ),
        case(
            "weight infinite as a float",
            Scenario,
            ("[outputs]", "[queues.a]\nweight = 1e39\n[outputs]"),
            RUN,
            2,
            &["s.toml:20: queues.\"a\".weight: 1e39 is not a finite 32-bit float"],
        ),
        case(
            "NaN weight",
            Scenario,
            ("[outputs]", "[queues.a]\nweight = nan\n[outputs]"),
            RUN,
            2,
            &["s.toml:20: queues.\"a\".weight: NaN"],
        ),
        case(
            "negative weight",
            Scenario,
            ("[outputs]", "[queues.a]\nweight = -1.0\n[outputs]"),
            VALIDATE,
            2,
            &["s.toml:20: queues.\"a\".weight: -1 is out of range"],
        ),
        case(
            "maxAMShare of -0.5",
            Scenario,
            ("[outputs]", "[queues.a]\nmax_am_share = -0.5\n[outputs]"),
            RUN,
            2,
            &["s.toml:20: queues.\"a\".max_am_share: -0.5 is out of range"],
        ),
        case(
            "maxRunningApps beyond a Java int",
            Scenario,
            (
                "[outputs]",
                "[queues.a]\nmax_running_apps = 3000000000\n[outputs]",
            ),
            RUN,
            2,
            &["s.toml:20: queues.\"a\".max_running_apps: 3000000000 is out of range"],
        ),
        case(
            "maxRunningApps beyond u32",
            Scenario,
            (
                "[outputs]",
                "[queues.a]\nmax_running_apps = 4294967296\n[outputs]",
            ),
            RUN,
            2,
            &["s.toml:20:20: max_running_apps: invalid value: integer `4294967296`, expected u32"],
        ),
        case(
            "unknown policy",
            Scenario,
            ("[outputs]", "[queues.a]\npolicy = \"lottery\"\n[outputs]"),
            RUN,
            2,
            &["s.toml:20: queues.\"a\".policy"],
        ),
        case(
            "negative min share",
            Scenario,
            ("[outputs]", "[queues.a]\nmin_memory_mb = -5\n[outputs]"),
            RUN,
            2,
            &["s.toml:20: queues.\"a\".min_memory_mb: must not be negative"],
        ),
        // The synthetic workload.
        case(
            "2^32-1 synthetic apps",
            Scenario,
            ("apps = 2", "apps = 4294967295"),
            RUN,
            2,
            &[
                "s.toml:14: workload.synthetic.queues[0].apps: 4294967295 is out of range: the limit is 0 to 10000000",
            ],
        ),
        case(
            "apps that would not fit in memory",
            Scenario,
            ("apps = 2", "apps = 9000000"),
            RUN,
            2,
            &[
                "s.toml:12: workload: a run would hold about 21.5 GiB",
                "the limit is 16 GiB",
            ],
        ),
        case(
            "infinite interarrival",
            Scenario,
            ("mean_interarrival_ms = 1000", "mean_interarrival_ms = inf"),
            RUN,
            2,
            &["s.toml:15: workload.synthetic.queues[0].mean_interarrival_ms: inf is out of range"],
        ),
        case(
            "NaN interarrival",
            Scenario,
            ("mean_interarrival_ms = 1000", "mean_interarrival_ms = nan"),
            RUN,
            2,
            &["s.toml:15: workload.synthetic.queues[0].mean_interarrival_ms: NaN is out of range"],
        ),
        case(
            "arrivals past ten years",
            Scenario,
            ("mean_interarrival_ms = 1000", "mean_interarrival_ms = 2e11"),
            RUN,
            2,
            &[
                "s.toml:15: workload.synthetic.queues[0].mean_interarrival_ms:",
                "past the limit of 315576000000 ms",
            ],
        ),
        case(
            "1e300 tasks",
            Scenario,
            ("value = 2 }", "value = 1e300 }"),
            RUN,
            2,
            &[
                "s.toml:16: workload.synthetic.queues[0].tasks: 1e300 is out of range: the limit is a finite number from 0 to 100000000",
            ],
        ),
        case(
            "1e300 ms tasks",
            Scenario,
            ("value = 1000 }", "value = 1e300 }"),
            RUN,
            2,
            &["s.toml:17: workload.synthetic.queues[0].duration_ms: 1e300 is out of range"],
        ),
        case(
            "lognormal sigma of 1e9",
            Scenario,
            (
                "tasks = { dist = \"constant\", value = 2 }",
                "tasks = { dist = \"lognormal\", median = 2, sigma = 1e9 }",
            ),
            RUN,
            2,
            &["s.toml:16: workload.synthetic.queues[0].tasks: 1000000000 is out of range"],
        ),
        case(
            "NaN Pareto scale",
            Scenario,
            (
                "tasks = { dist = \"constant\", value = 2 }",
                "tasks = { dist = \"pareto\", scale = nan, shape = 1.5 }",
            ),
            RUN,
            2,
            &["s.toml:16: workload.synthetic.queues[0].tasks: NaN is out of range"],
        ),
        case(
            "no container memory",
            Scenario,
            ("container_mb = 1024", "container_mb = 0"),
            RUN,
            2,
            &["s.toml:18: workload.synthetic.queues[0].container_mb: 0 is out of range"],
        ),
        case(
            "negative AM memory",
            Scenario,
            ("container_mb = 1024", "container_mb = 1024\nam_mb = -4096"),
            RUN,
            2,
            &["s.toml:19: workload.synthetic.queues[0].am_mb: -4096 is out of range"],
        ),
        case(
            "no user",
            Scenario,
            ("container_mb = 1024", "container_mb = 1024\nusers = 0"),
            RUN,
            2,
            &["s.toml:19: workload.synthetic.queues[0].users: 0 is out of range"],
        ),
        case(
            "first arrival in 31,000 years",
            Scenario,
            (
                "container_mb = 1024",
                "container_mb = 1024\nstart_ms = 1000000000000000",
            ),
            RUN,
            2,
            &["s.toml:19: workload.synthetic.queues[0].start_ms: 1000000000000000 is out of range"],
        ),
        case(
            "two workload kinds",
            Scenario,
            (
                "[[workload.synthetic.queues]]",
                "[workload]\ncsv = \"t.csv\"\n[[workload.synthetic.queues]]",
            ),
            RUN,
            2,
            &["s.toml:12: workload: give exactly one of"],
        ),
        // Outputs.
        case(
            "queue samples for ten years, checked by validate",
            Scenario,
            ("end_ms = 3600000", "end_ms = 315576000000"),
            VALIDATE,
            2,
            &[
                "s.toml:20: outputs.sample_interval_ms: a run would write about",
                "million queues.csv rows",
                "the limit is 100 million",
            ],
        ),
        case(
            "queue samples for ten years",
            Scenario,
            ("end_ms = 3600000", "end_ms = 315576000000"),
            RUN,
            2,
            &["s.toml:20: outputs.sample_interval_ms: a run would write about"],
        ),
        case(
            "negative sample interval",
            Scenario,
            ("sample_interval_ms = 10000", "sample_interval_ms = -1"),
            RUN,
            2,
            &["s.toml:20:22: sample_interval_ms: invalid value: integer `-1`, expected u64"],
        ),
        // Files that cannot be read.
        case(
            "missing allocation file",
            Scenario,
            ("file = \"fs.xml\"", "file = \"nosuch.xml\""),
            RUN,
            2,
            &["nosuch.xml"],
        ),
        case(
            "TOML syntax error",
            Scenario,
            ("racks = 1", "racks = = 1"),
            VALIDATE,
            2,
            &["s.toml:5:"],
        ),
        case(
            "missing scenario",
            None,
            ("", ""),
            &["run", "nosuch.toml"],
            2,
            &["nosuch.toml: cannot read"],
        ),
        case(
            "missing scenario in validate",
            None,
            ("", ""),
            &["validate", "nosuch.toml"],
            2,
            &["nosuch.toml"],
        ),
        case(
            "missing scenario in compare",
            None,
            ("", ""),
            &["compare", "s0.toml", "nosuch.toml", "--out", "out"],
            2,
            &["nosuch.toml"],
        ),
        // The CSV trace.
        case(
            "CSV arrival in 31,000 years",
            Csv,
            ("j2,100,", "j2,1000000000000000,"),
            CSV_RUN,
            2,
            &[
                "t.csv:3: column 2 (arrival_ms): 1000000000000000 is out of range: the limit is 0 to 315576000000",
            ],
        ),
        case(
            "CSV duration of 10^15 ms",
            Csv,
            ("1,5000,20,\nj2", "1,1000000000000000,20,\nj2"),
            CSV_RUN,
            2,
            &["t.csv:2: column 11 (duration_ms): 1000000000000000 is out of range"],
        ),
        case(
            "CSV count of 10^12",
            Csv,
            (
                "0,2,1024,1,5000,20,\nj2",
                "0,1000000000000,1024,1,5000,20,\nj2",
            ),
            CSV_RUN,
            2,
            &[
                "t.csv:2: column 8 (count): 1000000000000 is out of range: the limit is 0 to 100000000",
            ],
        ),
        case(
            "CSV count of 2^32",
            Csv,
            (
                "0,2,1024,1,5000,20,\nj2",
                "0,4294967296,1024,1,5000,20,\nj2",
            ),
            CSV_RUN,
            2,
            &["t.csv:2: column 8 (count): 4294967296 is out of range"],
        ),
        case(
            "CSV priority of 2^32",
            Csv,
            ("5000,20,\nj2", "5000,4294967296,\nj2"),
            CSV_RUN,
            2,
            &[
                "t.csv:2: column 12 (priority): 4294967296 is out of range: the limit is -2147483648 to 2147483647",
            ],
        ),
        case(
            "CSV negative container memory",
            Csv,
            ("0,2,1024,1,5000", "0,2,-1,1,5000"),
            CSV_RUN,
            2,
            &["t.csv:2: column 9 (memory_mb): -1 is out of range"],
        ),
        case(
            "CSV AM memory beyond a Java int",
            Csv,
            ("j2,100,b,u,1024", "j2,100,b,u,9999999999"),
            CSV_RUN,
            2,
            &["t.csv:3: column 5 (am_memory_mb): 9999999999 is out of range"],
        ),
        case(
            "CSV vcores not a number",
            Csv,
            ("0,2,1024,1,5000", "0,2,1024,x,5000"),
            CSV_RUN,
            2,
            &["t.csv:2: column 10 (vcores): `x` is not an integer"],
        ),
        case(
            "CSV stage 65",
            Csv,
            ("1024,1,0,2", "1024,1,65,2"),
            CSV_RUN,
            2,
            &["t.csv:2: column 7 (stage): 65 is out of range: the limit is 0 to 64"],
        ),
        case(
            "CSV time going backwards",
            Csv,
            ("j2,100,", "j2,0,"),
            CSV_RUN,
            0,
            &[],
        ),
        case(
            "CSV wrong header",
            Csv,
            ("app,arrival_ms", "app,arrival"),
            CSV_RUN,
            2,
            &["t.csv:1: header: expected columns"],
        ),
        case(
            "CSV missing trace",
            Scenario,
            (
                "[[workload.synthetic.queues]]",
                "[workload]\ncsv = \"nosuch.csv\"\n[[workload.other]]",
            ),
            RUN,
            2,
            &["s.toml"],
        ),
        // The SLS trace.
        case(
            "SLS job.count of 10^12",
            Sls,
            (
                "\"job.id\": \"j1\",",
                "\"job.id\": \"j1\", \"job.count\": 1000000000000,",
            ),
            SLS_RUN,
            2,
            &["j.json:1: job.count: 1000000000000 is out of range: the limit is 0 to 1000000"],
        ),
        case(
            "SLS start in 31,000 years",
            Sls,
            (
                "\"job.start.ms\": 100",
                "\"job.start.ms\": 1000000000000000",
            ),
            SLS_RUN,
            2,
            &["j.json:3: job.start.ms: 1000000000000000 is out of range"],
        ),
        case(
            "SLS start as a whole float",
            Sls,
            ("\"job.start.ms\": 100", "\"job.start.ms\": 1e16"),
            SLS_RUN,
            2,
            &["j.json:3: job.start.ms: 10000000000000000 is out of range"],
        ),
        case(
            "SLS priority of 2^32",
            Sls,
            (
                "\"count\": 1,",
                "\"count\": 1, \"container.priority\": 4294967296,",
            ),
            SLS_RUN,
            2,
            &["j.json:4: job.tasks[0].container.priority"],
        ),
        case(
            "SLS task count of 10^12",
            Sls,
            ("\"count\": 1,", "\"count\": 1000000000000,"),
            SLS_RUN,
            2,
            &["j.json:4: job.tasks[0].count: 1000000000000 is out of range"],
        ),
        case(
            "SLS negative container memory",
            Sls,
            (
                "\"count\": 1,",
                "\"count\": 1, \"container.memory-mb\": -1,",
            ),
            SLS_RUN,
            2,
            &["j.json:4: job.tasks[0].container.memory-mb: -1 is out of range"],
        ),
        case(
            "SLS duration of 10^16 ms",
            Sls,
            (
                "\"count\": 1, \"container.duration.ms\": 1000",
                "\"count\": 1, \"container.duration.ms\": 10000000000000000",
            ),
            SLS_RUN,
            2,
            &["j.json:4: job.tasks[0].container.duration.ms: 10000000000000000 is out of range"],
        ),
        case(
            "SLS not JSON",
            Sls,
            ("{ \"job.start.ms\": 0", "{ job.start.ms: 0"),
            SLS_RUN,
            2,
            &["j.json:1:"],
        ),
        case(
            "SLS task count that is no number, on the task's line",
            Sls,
            ("\"count\": 2,", "\"count\": \"two\","),
            SLS_RUN,
            2,
            &["j.json:2: job.tasks[0].count: `two` is not an integer"],
        ),
        // Rumen job histories: semantic errors on the field's line.
        case(
            "Rumen attempt that ends before it starts",
            Rumen,
            ("\"finishTime\": 1001000", "\"finishTime\": 1000000"),
            RUMEN_RUN,
            2,
            &["h.json:5: mapTasks[0].attempts[0].finishTime: time goes backwards"],
        ),
        case(
            "Rumen attempt of 10^16 ms",
            Rumen,
            (
                "\"finishTime\": 1001000",
                "\"finishTime\": 10000000001000000",
            ),
            RUMEN_RUN,
            2,
            &[
                "h.json:5: mapTasks[0].attempts[0].finishTime: 9999999999999500 is out of range: the limit is 0 to 315576000000",
            ],
        ),
        case(
            "Rumen job that finishes before it is submitted",
            Rumen,
            ("\"finishTime\": 1090000", "\"finishTime\": 5"),
            RUMEN_RUN,
            2,
            &["h.json:2: finishTime: time goes backwards: 5 before submitTime 1000000"],
        ),
        case(
            "Rumen submit time of the wrong type",
            Rumen,
            ("\"submitTime\": 1000000", "\"submitTime\": \"soon\""),
            RUMEN_RUN,
            2,
            &["h.json:2: submitTime: invalid type"],
        ),
        // SLS SYNTH files.
        case(
            "SYNTH num_jobs above the limit",
            Synth,
            ("\"num_jobs\": 2", "\"num_jobs\": 100000000"),
            SYNTH_RUN,
            2,
            &["syn.json:1: num_jobs: 100000000 is out of range: the limit is 0 to 10000000"],
        ),
        case(
            "SYNTH negative class weight",
            Synth,
            ("\"class_weight\": 1", "\"class_weight\": -2"),
            SYNTH_RUN,
            2,
            &["syn.json:3: workloads[0].job_classes[0].class_weight: weight -2 is out of range"],
        ),
        case(
            "SYNTH infinite standard deviation",
            Synth,
            ("{ \"val\": 1000 }", "{ \"val\": 1000, \"std\": 1e999 }"),
            SYNTH_RUN,
            2,
            &["syn.json:6: workloads[0].job_classes[0].tasks[0].time"],
        ),
        case(
            "SYNTH arrival bucket past ten years",
            Synth,
            ("\"time\": 0,", "\"time\": 4000000000,"),
            SYNTH_RUN,
            2,
            &["syn.json:9: workloads[0].time_distribution[0].time: 4000000000 is out of range"],
        ),
        case(
            "SYNTH task list missing a required field",
            Synth,
            ("\"max_memory\": { \"val\": 1024 },", ""),
            SYNTH_RUN,
            2,
            &["syn.json:4: workloads[0].job_classes[0].tasks[0]: missing field `max_memory`"],
        ),
        // fair-scheduler.xml.
        case(
            "fair weight infinite as a float",
            Fair,
            ("<weight>2.0</weight>", "<weight>1e39</weight>"),
            VALIDATE,
            2,
            &["fs.xml:6:", "weight", "1e39 is not a finite 32-bit float"],
        ),
        case(
            "fair weight NaN",
            Fair,
            ("<weight>2.0</weight>", "<weight>NaN</weight>"),
            VALIDATE,
            2,
            &["fs.xml:6:", "weight"],
        ),
        case(
            "fair weight negative",
            Fair,
            ("<weight>2.0</weight>", "<weight>-1</weight>"),
            VALIDATE,
            2,
            &["fs.xml:6:", "weight must not be negative"],
        ),
        case(
            "fair maxRunningApps not a number",
            Fair,
            (
                "<weight>2.0</weight>",
                "<maxRunningApps>many</maxRunningApps>",
            ),
            VALIDATE,
            2,
            &["fs.xml:6:", "maxRunningApps"],
        ),
        case(
            "fair minResources garbage",
            Fair,
            ("<weight>2.0</weight>", "<minResources>lots</minResources>"),
            VALIDATE,
            2,
            &["fs.xml:6:", "minResources"],
        ),
        case(
            "fair unclosed element",
            Fair,
            ("</allocations>", "</allocation>"),
            VALIDATE,
            2,
            &["fs.xml:"],
        ),
        case(
            "fair DOCTYPE (entity expansion)",
            Fair,
            (
                "<allocations>",
                "<!DOCTYPE a [<!ENTITY x \"xx\">]>\n<allocations>",
            ),
            VALIDATE,
            2,
            &["fs.xml:", "DOCTYPE"],
        ),
        // capacity-scheduler.xml.
        case(
            "capacity negative user-limit-factor under hadoop-2.7 (3.3 reads -1 as no limit)",
            Capacity,
            (
                "user-limit-factor</name><value>1<",
                "user-limit-factor</name><value>-1<",
            ),
            VALIDATE_27,
            2,
            &["cs.xml:5:", "user-limit-factor", "-1 is out of range"],
        ),
        case(
            "capacity decimal minimum-user-limit-percent under hadoop-2.7 (getInt)",
            Capacity,
            (
                "user-limit-factor</name><value>1<",
                "minimum-user-limit-percent</name><value>50.1<",
            ),
            VALIDATE_27,
            2,
            &[
                "cs.xml:5:",
                "minimum-user-limit-percent",
                "\"50.1\" is not an integer",
            ],
        ),
        case(
            "capacity negative AM percent",
            Capacity,
            ("<value>0.1</value>", "<value>-0.5</value>"),
            VALIDATE,
            2,
            &[
                "cs.xml:6:",
                "maximum-am-resource-percent",
                "-0.5 is out of range",
            ],
        ),
        case(
            "capacity AM percent infinite as a float",
            Capacity,
            ("<value>0.1</value>", "<value>1e39</value>"),
            VALIDATE,
            2,
            &["cs.xml:6:", "1e39 is not a finite 32-bit float"],
        ),
        case(
            "capacity not a number",
            Capacity,
            (
                "a.capacity</name><value>50<",
                "a.capacity</name><value>half<",
            ),
            VALIDATE,
            2,
            &["cs.xml:3:", "capacity"],
        ),
        case(
            "capacity app in queue default (no such leaf)",
            Csv,
            ("j2,100,b,", "j2,100,default,"),
            CAP_RUN,
            0,
            &[],
        ),
        case(
            "capacity app in queue root (a parent)",
            Csv,
            ("j2,100,b,", "j2,100,root,"),
            CAP_RUN,
            0,
            &[],
        ),
        case(
            "capacity app in the empty queue",
            Csv,
            ("j2,100,b,", "j2,100,,"),
            CAP_RUN,
            0,
            &[],
        ),
        case(
            "capacity queue without a capacity run",
            Capacity,
            ("a.capacity</name><value>50<", "a.capacity</name><value>50<"),
            CAP_RUN,
            0,
            &[],
        ),
        // Snapshots.
        case(
            "snapshot weight infinite as a float",
            Snapshot,
            ("\"weight\": 2.0", "\"weight\": 1e39"),
            RANK,
            2,
            &[
                "snap.json:7: schedulables[1].weight: must be a finite number >= 0, got 1000000000000000000000000000000000000000",
            ],
        ),
        case(
            "snapshot negative weight",
            Snapshot,
            ("\"weight\": 2.0", "\"weight\": -2.0"),
            SHARES,
            2,
            &["snap.json:7: schedulables[1].weight: must be a finite number >= 0, got -2"],
        ),
        case(
            "snapshot unknown era",
            Snapshot,
            ("hadoop-2.7", "hadoop-9"),
            SHARES,
            2,
            &["snap.json:2: semantics: unknown semantics `hadoop-9`"],
        ),
        case(
            "snapshot negative demand, on its line",
            Snapshot,
            (
                "\"demand\": {\"memory_mb\": 4096",
                "\"demand\": {\"memory_mb\": -4096",
            ),
            RANK,
            2,
            &["snap.json:6: schedulables[0].demand.memory_mb: must not be negative, got -4096"],
        ),
        case(
            "snapshot cluster beyond 2.7's int, on its line",
            Snapshot,
            ("\"memory_mb\": 10240", "\"memory_mb\": 4294967296"),
            SHARES,
            2,
            &["snap.json:4: cluster.memory_mb: 4294967296 exceeds hadoop-2.7's 32-bit int range"],
        ),
        case(
            "snapshot not JSON",
            Snapshot,
            ("\"policy\": \"fair\",", "\"policy\": fair,"),
            RANK,
            2,
            &["snap.json:3:"],
        ),
        case(
            "missing snapshot",
            None,
            ("", ""),
            &["rank", "nosuch.json"],
            2,
            &["nosuch.json: no such file"],
        ),
        // yarn-site.xml (scheduler.yarn_site) and `fairsim validate` of one.
        case(
            "yarn-site maximum allocation of zero",
            Site,
            ("<value>8192</value>", "<value>0</value>"),
            SITE_RUN,
            2,
            &[
                "ys.xml:3: yarn.scheduler.maximum-allocation-mb: 0 is out of range: the limit is 1 to 2147483647",
            ],
        ),
        case(
            "yarn-site maximum allocation below the minimum",
            Site,
            ("<value>8192</value>", "<value>512</value>"),
            SITE_RUN,
            2,
            &[
                "ys.xml:3: yarn.scheduler.maximum-allocation-mb (scheduler.maximum_allocation_mb): 512 is below the minimum allocation 1024",
            ],
        ),
        case(
            "yarn-site minimum allocation above the default maximum: its own line, not [scheduler]",
            Site,
            (
                "yarn.scheduler.maximum-allocation-mb</name><value>8192",
                "yarn.scheduler.minimum-allocation-mb</name><value>9000",
            ),
            SITE_RUN,
            2,
            &[
                "ys.xml:3: yarn.scheduler.minimum-allocation-mb (scheduler.minimum_allocation_mb): 9000 is above the maximum allocation 8192 (the default of maximum_allocation_mb)",
            ],
        ),
        case(
            "yarn-site time with a unit getLong does not read",
            Site,
            ("<value>500</value>", "<value>30s</value>"),
            SITE_RUN,
            2,
            &["ys.xml:4: yarn.scheduler.fair.update-interval-ms: \"30s\" is not an integer"],
        ),
        case(
            "yarn-site threshold infinite as a Java float",
            Site,
            ("<value>0.8</value>", "<value>1e39</value>"),
            SITE_RUN,
            2,
            &[
                "ys.xml:5: yarn.scheduler.fair.preemption.cluster-utilization-threshold: 1e39 is not a finite 32-bit float",
            ],
        ),
        case(
            "yarn-site scheduler class fairsim does not model",
            Site,
            ("fair.FairScheduler", "fifo.FifoScheduler"),
            SITE_RUN,
            2,
            &[
                "ys.xml:2: yarn.resourcemanager.scheduler.class: ",
                "fairsim models the FairScheduler and the CapacityScheduler",
            ],
        ),
        case(
            "yarn-site scheduler class other than the allocation file's",
            Site,
            ("fair.FairScheduler", "capacity.CapacityScheduler"),
            SITE_RUN,
            2,
            &[
                "ys.xml:2: yarn.resourcemanager.scheduler.class: names the Capacity Scheduler, but the scenario's allocation file fs.xml is a fair-scheduler.xml",
            ],
        ),
        case(
            "yarn-site that is not a configuration",
            Site,
            ("<configuration>", "<allocations>"),
            SITE_RUN,
            2,
            &["ys.xml:"],
        ),
        case(
            "missing yarn-site",
            Scenario,
            (SCHED, "yarn_site = \"nosuch.xml\""),
            RUN,
            2,
            &["s.toml:9: scheduler.yarn_site: nosuch.xml: cannot read: No such file"],
        ),
        case(
            "validate of a yarn-site with a value above a Java int",
            Site,
            ("<value>8192</value>", "<value>4294967296</value>"),
            VALIDATE,
            2,
            &[
                "ys.xml:3: yarn.scheduler.maximum-allocation-mb: 4294967296 is out of range: the limit is a Java int",
            ],
        ),
        // Flags.
        case(
            "negative cluster size is a value, not an option",
            Fair,
            ("", ""),
            &["shares", "--alloc", "FILE", "--cluster", "-5 mb, 1 vcores"],
            2,
            &["--cluster", "negative"],
        ),
        case(
            "cluster size that is no size",
            Fair,
            ("", ""),
            &["shares", "--alloc", "FILE", "--cluster", "lots"],
            2,
            &["--cluster"],
        ),
        case(
            "missing demand file",
            Fair,
            ("", ""),
            &[
                "shares",
                "--alloc",
                "FILE",
                "--cluster",
                "1024 mb, 1 vcores",
                "--demand",
                "nosuch.csv",
            ],
            2,
            &["nosuch.csv: cannot read"],
        ),
        case(
            "a snapshot with --cluster, which only --alloc reads",
            Snapshot,
            ("", ""),
            &["shares", "FILE", "--cluster", "1024 mb, 1 vcores"],
            2,
            &["--cluster goes with --alloc FILE, not with a SNAPSHOT"],
        ),
        case(
            "a snapshot with --demand and --semantics, which only --alloc reads",
            Snapshot,
            ("", ""),
            &[
                "shares",
                "FILE",
                "--demand",
                "d.csv",
                "--semantics",
                "hadoop-3.3",
            ],
            2,
            &["--demand and --semantics go with --alloc FILE"],
        ),
        case(
            "an allocation file with --rounding, which only snapshots read",
            Fair,
            ("", ""),
            &[
                "shares",
                "--alloc",
                "FILE",
                "--cluster",
                "1024 mb, 1 vcores",
                "--rounding",
                "exact",
            ],
            2,
            &["--rounding goes with a SNAPSHOT, not with --alloc"],
        ),
        case(
            "an allocation file with --cap, which only snapshots read",
            Fair,
            ("", ""),
            &[
                "shares",
                "--alloc",
                "FILE",
                "--cluster",
                "1024 mb, 1 vcores",
                "--cap",
                "demand",
            ],
            2,
            &["--cap goes with a SNAPSHOT"],
        ),
        case(
            "validate of a scenario with --semantics, which the scenario sets",
            Scenario,
            ("", ""),
            &["validate", "FILE", "--semantics", "hadoop-3.3"],
            2,
            &[
                "--semantics goes with a fair-scheduler.xml",
                "[scheduler] semantics",
            ],
        ),
        case(
            "a plan on a hundred thousand threads",
            None,
            ("", ""),
            &["plan", "plan.toml", "--jobs", "100000"],
            2,
            &["--jobs", "1 to 1024"],
        ),
        case(
            "a plan on zero threads",
            None,
            ("", ""),
            &["plan", "plan.toml", "--jobs", "0"],
            2,
            &["--jobs", "1 to 1024"],
        ),
        case(
            "the fake runner's work without the fake runner",
            Scenario,
            ("", ""),
            &["run", "FILE", "--out", "out", "--fake-work", "5"],
            2,
            &["--fake-work and --fake-sleep-ms go with --fake-runner"],
        ),
        case(
            "a hundred thousand threads",
            None,
            ("", ""),
            &["sweep", "sw.toml", "--jobs", "100000"],
            2,
            &["--jobs", "1 to 1024"],
        ),
        case(
            "zero threads",
            None,
            ("", ""),
            &["sweep", "sw.toml", "--jobs", "0"],
            2,
            &["--jobs"],
        ),
        case(
            "merge of a missing directory",
            None,
            ("", ""),
            &["merge", "nosuchdir"],
            2,
            &["nosuchdir/sweep.json: cannot read"],
        ),
        case(
            "plot of a missing directory",
            None,
            ("", ""),
            &["plot", "nosuchdir"],
            2,
            &["nosuchdir/runs.csv: cannot read"],
        ),
        case(
            "unknown command",
            None,
            ("", ""),
            &["simulate"],
            2,
            &["simulate"],
        ),
        case(
            "a hadoop-2.7 queue override beyond a Java int",
            Scenario,
            (
                "[outputs]",
                "[queues.a]\nmin_memory_mb = 2147483648\n[outputs]",
            ),
            RUN,
            2,
            &[
                "s.toml:20: queues.\"a\".min_memory_mb: 2147483648 is out of range: the limit is 0 to 2147483647 (hadoop-2.7 keeps it in a Java int",
            ],
        ),
        case(
            "an SLS container size beyond a Java int (SLS reads it with getInt)",
            Scenario,
            (
                "end_ms = 3600000",
                "end_ms = 3600000\nworkload.sls_container_memory_mb = 4294967296",
            ),
            RUN,
            2,
            &[
                "s.toml:3: workload.sls_container_memory_mb: 4294967296 is out of range: the limit is 1 to 2147483647",
            ],
        ),
        case(
            "a CSV app whose second row names another queue",
            Csv,
            (
                "j2,100,b,u,1024,1,0,2,1024,1,5000,20,\n",
                "j2,100,b,u,1024,1,0,2,1024,1,5000,20,\nj2,100,a,u,1024,1,1,2,1024,1,5000,20,\n",
            ),
            CSV_RUN,
            2,
            &["t.csv:4: column 3 (queue): `a` differs from `b` on line 3, the app's first row"],
        ),
        case(
            "a CSV app whose rows are split by another app",
            Csv,
            (
                "j2,100,b,u,1024,1,0,2,1024,1,5000,20,\n",
                "j2,100,b,u,1024,1,0,2,1024,1,5000,20,\nj1,200,a,u,1024,1,1,2,1024,1,5000,20,\n",
            ),
            CSV_RUN,
            2,
            &["t.csv:4: column 1 (app): app `j1` already ended (its rows start at line 2)"],
        ),
        case(
            "a CSV row without an app id",
            Csv,
            ("j2,100,b", ",100,b"),
            CSV_RUN,
            2,
            &["t.csv:3: column 1 (app): empty: every row names its app"],
        ),
        case(
            "a scenario name climbing out of results/",
            Scenario,
            ("name = \"bad\"", "name = \"../escaped\""),
            &["run", "FILE"],
            2,
            &["s.toml:1: name: \"../escaped\" is not a directory name: outputs go to results/NAME"],
        ),
        case(
            "an absolute scenario name",
            Scenario,
            ("name = \"bad\"", "name = \"/tmp/fairsim-abs\""),
            VALIDATE,
            2,
            &["s.toml:1: name: \"/tmp/fairsim-abs\" is not a directory name"],
        ),
        case(
            "an empty scenario name (results/ itself)",
            Scenario,
            ("name = \"bad\"", "name = \"\""),
            RUN,
            2,
            &["s.toml:1: name: \"\" is not a directory name"],
        ),
        case(
            "a sweep name of '..'",
            Sweep,
            ("name = \"sw\"", "name = \"..\""),
            &["sweep", "FILE"],
            2,
            &["sw.toml:1: key `name`: \"..\" is not a directory name"],
        ),
        case(
            "a sweep charting a run it does not have, named at its line",
            Sweep,
            ("values = [4]\n", "values = [4]\n[charts]\nrun = 5\n"),
            &["sweep", "FILE"],
            2,
            &["sw.toml:8: key `charts.run`: run 5 is out of range: the sweep has 1 runs"],
        ),
        // Read, but with a warning: the run would otherwise differ silently.
        case(
            "a capacity queue's ACL, which fairsim does not simulate",
            Capacity,
            (
                "<value>1</value></property>\n",
                "<value>1</value></property>\n  <property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>*</value></property>\n",
            ),
            CAP_RUN,
            0,
            &[
                "cs.xml:6: <property>: yarn.scheduler.capacity.root.a.acl_submit_applications: queue ACLs are not modelled; ignored",
            ],
        ),
        case(
            "a queue override whose min does not fit in its max: warned at its line, as the allocation file is",
            Scenario,
            (
                "[outputs]",
                "[queues.a]\nmin_memory_mb = 4096\nmin_vcores = 1\nmax_memory_mb = 2048\nmax_vcores = 8\n[outputs]",
            ),
            RUN,
            0,
            &[
                "s.toml:22: queues.\"a\".max_memory_mb: the min (4096 MB, 1 vcores) of root.a does not fit in its max (2048 MB, 8 vcores) (yarn only logs this; hadoop-2.7 keeps the max)",
            ],
        ),
        case(
            "a CSV app asking two sizes at one priority: run at the first, said",
            Csv,
            (
                "j2,100,b,u,1024,1,0,2,1024,1,5000,20,\n",
                "j2,100,b,u,1024,1,0,2,1024,1,5000,20,\nj2,100,b,u,1024,1,1,2,2048,1,5000,20,\n",
            ),
            CSV_RUN,
            0,
            &[
                "t.csv:4: column 9 (memory_mb): 2048 MB, 1 vcores at priority 20 run as 1024 MB, 1 vcores, the size line 3 asks at that priority",
            ],
        ),
        case(
            "a synthetic workload of zero apps: an idle cluster, said",
            Scenario,
            ("apps = 2", "apps = 0"),
            RUN,
            0,
            &["s.toml:12: workload: holds no application; the run simulates an idle cluster"],
        ),
        case(
            "a CSV trace of a header alone",
            Csv,
            (
                "j1,0,a,u,1024,1,0,2,1024,1,5000,20,\nj2,100,b,u,1024,1,0,2,1024,1,5000,20,\n",
                "",
            ),
            CSV_RUN,
            0,
            &["csv.toml:12: workload: holds no application"],
        ),
        // Output directories that cannot be.
        case(
            "a run whose --out is an existing file",
            None,
            ("", ""),
            &["run", "s0.toml", "--out", "t.csv"],
            2,
            &["--out t.csv: t.csv exists and is not a directory"],
        ),
        case(
            "a sweep whose --out lies under a file",
            None,
            ("", ""),
            &["sweep", "sw.toml", "--out", "t.csv/sub"],
            2,
            &["--out t.csv/sub: t.csv exists and is not a directory"],
        ),
        case(
            "a comparison whose --out is an existing file",
            None,
            ("", ""),
            &["compare", "s0.toml", "csv.toml", "--out", "t.csv"],
            2,
            &["--out t.csv: t.csv exists and is not a directory"],
        ),
        // Files without end.
        case(
            "a scenario that never ends (/dev/zero)",
            None,
            ("", ""),
            &["run", "/dev/zero", "--out", "out"],
            2,
            &["/dev/zero: cannot read: the input holds more than 67108864 bytes"],
        ),
        case(
            "an allocation file that never ends (/dev/zero)",
            Scenario,
            ("file = \"fs.xml\"", "file = \"/dev/zero\""),
            RUN,
            2,
            &["/dev/zero: file holds 67108865 bytes or more; the limit is 67108864 bytes"],
        ),
        case(
            "a groups file that never ends (/dev/zero)",
            Scenario,
            (SCHED, "heartbeat_ms = 1000\nusers = \"/dev/zero\""),
            RUN,
            2,
            &["/dev/zero", "the input holds more than 67108864 bytes"],
        ),
        case(
            "a SYNTH file that never ends (/dev/zero)",
            None,
            ("", ""),
            &["run", "zsyn.toml", "--out", "out"],
            2,
            &["/dev/zero: cannot read: the input holds more than 67108864 bytes"],
        ),
        case(
            "a sweep file that never ends (/dev/zero)",
            None,
            ("", ""),
            &["sweep", "/dev/zero", "--out", "out"],
            2,
            &["/dev/zero", "the input holds more than 67108864 bytes"],
        ),
        // Sweep and plan files: a point's error names its key, not a line of generated text.
        case(
            "a sweep value out of range: the key, no line of the generated point",
            Sweep,
            ("values = [4]", "values = [4, 0]"),
            &["sweep", "FILE", "--out", "out"],
            2,
            &[
                "sw.toml:6: key `cluster.nodes`: value 0 makes the scenario invalid: cluster.nodes: 0 is out of range: the limit is 1 to 100000",
            ],
        ),
        case(
            "a plan range reaching an impossible cluster: the key, not a wrong line of s0.toml",
            None,
            ("", ""),
            &["plan", "pl.toml", "--out", "out"],
            2,
            &[
                "pl.toml:6: key `variable.to`: the base scenario with nodes = 100001 is invalid: cluster.nodes: 100001 is out of range: the limit is 1 to 100000",
            ],
        ),
        // Sweep files.
        case(
            "a seed listed twice",
            Sweep,
            ("seeds = { count = 1, base = 1 }", "seeds = [1, 7, 1]"),
            &["sweep", "FILE", "--out", "out"],
            2,
            &["sw.toml:3: key `seeds`: seed 1 is listed twice: each seed must be distinct"],
        ),
        case(
            "a seed base beyond a TOML integer: the key and the limit",
            Sweep,
            (
                "seeds = { count = 1, base = 1 }",
                "seeds = { count = 3, base = 18446744073709551615 }",
            ),
            &["sweep", "FILE", "--out", "out"],
            2,
            &[
                "sw.toml:3: key `seeds.base`: 18446744073709551615 is out of range: the limit is 0 to 9223372036854775807",
            ],
        ),
        case(
            "a negative seed base",
            Sweep,
            (
                "seeds = { count = 1, base = 1 }",
                "seeds = { count = 3, base = -5 }",
            ),
            &["sweep", "FILE", "--out", "out"],
            2,
            &[
                "sw.toml:3: key `seeds.base`: -5 is out of range: the limit is 0 to 9223372036854775807",
            ],
        ),
        case(
            "a listed seed beyond a TOML integer",
            Sweep,
            (
                "seeds = { count = 1, base = 1 }",
                "seeds = [1, 99999999999999999999]",
            ),
            &["sweep", "FILE", "--out", "out"],
            2,
            &[
                "sw.toml:3: key `seeds`: 99999999999999999999 is out of range: the limit is 0 to 9223372036854775807",
            ],
        ),
        case(
            "an axis value beyond a TOML integer",
            Sweep,
            ("values = [4]", "values = [4, 99999999999999999999]"),
            &["sweep", "FILE", "--out", "out"],
            2,
            &[
                "sw.toml:6: key `axis.values`: 99999999999999999999 is out of range: a TOML integer is from -9223372036854775808 to 9223372036854775807",
            ],
        ),
        case(
            "a sweep range whose step is too small to count its values",
            Sweep,
            (
                "values = [4]",
                "range = { from = 1, to = 2, step = 1e-300 }",
            ),
            &["sweep", "FILE", "--out", "out"],
            2,
            &["sw.toml:6: key `cluster.nodes`: range has more than 100000 values"],
        ),
        case(
            "a sweep range wider than i64",
            Sweep,
            (
                "values = [4]",
                "range = { from = -9223372036854775808, to = 9223372036854775807, step = 1 }",
            ),
            &["sweep", "FILE", "--out", "out"],
            2,
            &["sw.toml:6: key `cluster.nodes`: range has more than 100000 values"],
        ),
        case(
            "seed that is no number",
            None,
            ("", ""),
            &["run", "s0.toml", "--seed", "-1"],
            2,
            &["unexpected argument '-1'"],
        ),
    ]
}

fn write_inputs(dir: &Path) {
    let w = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    w("fs.xml", FAIR_XML);
    w("cs.xml", CAPACITY_XML);
    w("t.csv", CSV);
    w("j.json", SLS);
    w("s0.toml", SCENARIO);
    let trace = |kind: &str, file: &str, alloc: &str| {
        let head = SCENARIO.split("[[workload").next().unwrap();
        format!(
            "{}[workload]\n{kind} = \"{file}\"\n",
            head.replace("fs.xml", alloc)
        )
    };
    w("csv.toml", &trace("csv", "t.csv", "fs.xml"));
    w("sls.toml", &trace("sls", "j.json", "fs.xml"));
    w("cap.toml", &trace("csv", "t.csv", "cs.xml"));
    w("ys.xml", SITE_XML);
    w("h.json", RUMEN);
    w("rumen.toml", &trace("rumen", "h.json", "fs.xml"));
    w("syn.json", SYNTH);
    w("synth.toml", &trace("synth", "syn.json", "fs.xml"));
    w("zsyn.toml", &trace("synth", "/dev/zero", "fs.xml"));
    w(
        "site.toml",
        &SCENARIO.replace(SCHED, "heartbeat_ms = 1000\nyarn_site = \"ys.xml\""),
    );
    w("nodes.json", NODES);
    w(
        "nodes.toml",
        &SCENARIO
            .replacen(CLUSTER_KEYS, "nodes_file = \"nodes.json\"\n", 1)
            .replacen(
                "heartbeat_ms = 1000",
                "heartbeat_ms = 1000\nsemantics = \"hadoop-3.3\"",
                1,
            ),
    );
    w("sw.toml", SWEEP);
    w(
        "pl.toml",
        "base = \"s0.toml\"\nseeds = { count = 1, base = 1 }\n[variable]\nkind = \"nodes\"\n\
         from = 4\nto = 100001\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 120\n",
    );
}

/// Runs one case; `None` when it behaved, else what went wrong.
fn check(c: &Case) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    write_inputs(dir.path());
    let (file, base) = match c.base {
        Scenario => (Some("s.toml"), SCENARIO),
        Fair => (Some("fs.xml"), FAIR_XML),
        Capacity => (Some("cs.xml"), CAPACITY_XML),
        Csv => (Some("t.csv"), CSV),
        Sls => (Some("j.json"), SLS),
        Nodes => (Some("nodes.json"), NODES),
        Snapshot => (Some("snap.json"), SNAPSHOT),
        Site => (Some("ys.xml"), SITE_XML),
        Rumen => (Some("h.json"), RUMEN),
        Synth => (Some("syn.json"), SYNTH),
        Sweep => (Some("sw.toml"), SWEEP),
        None => (Option::None, ""),
    };
    if let Some(file) = file {
        if !c.edit.0.is_empty() && !base.contains(c.edit.0) {
            return Some(format!("the edit `{}` matches nothing", c.edit.0));
        }
        std::fs::write(dir.path().join(file), base.replacen(c.edit.0, c.edit.1, 1)).unwrap();
    }
    let args: Vec<&str> = c
        .args
        .iter()
        .map(|a| if *a == "FILE" { file.unwrap_or("") } else { a })
        .collect();
    let out = common::fixture::command()
        .args(&args)
        .current_dir(dir.path())
        .env("CI", "true")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let mut wrong = Vec::new();
    if out.status.code() != Some(c.code) {
        wrong.push(format!("exit {:?}, expected {}", out.status.code(), c.code));
    }
    for e in c.expect {
        if !err.contains(e) {
            wrong.push(format!("no `{e}`"));
        }
    }
    // Nothing half-written: a failing command leaves no output directory behind.
    if c.code != 0 && dir.path().join("out").exists() {
        wrong.push("left `out` behind".into());
    }
    // Nor its staging directory (crates/bench-runner/src/staging.rs).
    if c.code != 0 && dir.path().join(".out.partial").exists() {
        wrong.push("left `.out.partial` behind".into());
    }
    (!wrong.is_empty()).then(|| format!("{}\n    stderr: {}", wrong.join("; "), err.trim()))
}

#[test]
fn every_bad_input_gets_its_exit_code_and_a_message_naming_where() {
    let cases = cases();
    assert!(cases.len() >= 80, "{} cases", cases.len());
    common::catalogue::assert_every_case(&cases, |c| c.what, check);
}
