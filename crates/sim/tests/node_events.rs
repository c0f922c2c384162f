//! Nodes joining, being lost and being decommissioned during a run (`[[cluster.events]]`),
//! through the scenario reader and the engine, with hand-worked outcomes. Heartbeats every
//! 1000 ms; with two nodes node0 beats at 0, 1000, … and node1 at 500, 1500, …; one
//! container per heartbeat (assignmultiple off).

mod common;

use common::outcomes::{metric, nodes_allocated, run_sampled};
use fairsim_core::Resource;
use fairsim_sim::recorder::MemoryRecorder;
use fairsim_sim::scenario::{Scenario, parse_scenario};

const FS_XML: &str = "<allocations>\n  <queue name=\"a\"/>\n</allocations>\n";
const CS_XML: &str = r#"<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
</configuration>
"#;
/// `CS_XML` with room for one 1 GB AM on two 8 GB nodes (maximum-am-resource-percent 0.05).
const CS_AM_XML: &str = r#"<configuration>
  <property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
  <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
  <property><name>yarn.scheduler.capacity.maximum-am-resource-percent</name><value>0.05</value></property>
</configuration>
"#;
const HEADER: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n";

/// Writes the allocation files, the trace `csv` and the scenario, and reads it.
fn load(toml: &str, csv: &str) -> (tempfile::TempDir, Result<Scenario, String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("fs.xml"), FS_XML).expect("write");
    std::fs::write(dir.path().join("cs.xml"), CS_XML).expect("write");
    std::fs::write(dir.path().join("cs-am.xml"), CS_AM_XML).expect("write");
    std::fs::write(dir.path().join("t.csv"), format!("{HEADER}{csv}")).expect("write");
    let path = dir.path().join("s.toml");
    std::fs::write(&path, toml).expect("write");
    let sc = parse_scenario(toml, &path).map_err(|e| e.to_string());
    (dir, sc)
}

fn scenario(era: &str, alloc: &str, end: &str, cluster: &str, csv: &str) -> Scenario {
    let toml = format!(
        "{end}\n[cluster]\n{cluster}\n[scheduler]\nsemantics = \"{era}\"\n\
         [allocation]\nfile = \"{alloc}\"\n[workload]\ncsv = \"t.csv\"\n\
         [outputs]\nsample_interval_ms = 250\n"
    );
    let (_d, sc) = load(&toml, csv);
    let mut sc = sc.unwrap_or_else(|e| panic!("{e}"));
    sc.check_invariants = true;
    sc
}

/// Root's steady fair share (the cluster resource, as `setSteadyFairShare(clusterResource)`
/// gives it) in the sample at `t`.
fn root_steady_at(rec: &MemoryRecorder, t: u64) -> Resource {
    rec.samples
        .iter()
        .find(|(at, _)| at.0 == t)
        .map(|(_, rows)| rows[0].steady_fair_share)
        .unwrap_or_else(|| panic!("no sample at {t}"))
}

const ERAS: [&str; 2] = ["hadoop-2.7", "hadoop-3.3"];

/// testAggregateCapacityTracking: a 1024 MB node, a 512 MB node added (1536 MB), the first
/// removed (512 MB). Root's steady share is the cluster resource at each moment. An app
/// whose task (normalised to 1024 MB: the ask rounded up to the 1024 MB increment) fits
/// nowhere after 2000 keeps the run sampling to its end.
///
/// Hadoop's test hands the 512 MB node to the scheduler directly; through the
/// ResourceManager (`ResourceTrackerService`, as SLS registers its nodes) a node below the
/// default 1024 MB minimum allocation is shut down, so the scenario is refused under that
/// minimum, and the row is reproduced with `minimum_allocation_mb = 512`, where the node
/// registers (the task still normalises to 1024 MB).
#[test]
fn capacity_follows_nodes_added_and_lost() {
    let nodes = "[[cluster.nodes]]\nname = \"n1\"\nmemory_mb = 1024\nvcores = 1\n\
         [[cluster.events]]\nat_ms = 1000\nkind = \"add\"\nname = \"n2\"\nmemory_mb = 512\nvcores = 1\n\
         [[cluster.events]]\nat_ms = 2000\nkind = \"lose\"\nnode = \"n1\"\n";
    let job = "j,1200,a,u,0,0,0,1,1024,1,100000,1,\n";
    for era in ERAS {
        let toml = |min: &str| {
            format!(
                "end_ms = 3000\n[cluster]\n{nodes}\n[scheduler]\nsemantics = \"{era}\"\n{min}\n\
                 [allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n\
                 [outputs]\nsample_interval_ms = 250\n"
            )
        };
        let (_d, refused) = load(&toml(""), job);
        let e = refused.expect_err("a 512 MB node under a 1024 MB minimum");
        assert!(
            e.contains("s.toml:11: cluster.events[0].memory_mb: node n2 has 512 MB, below scheduler.minimum_allocation_mb = 1024"),
            "{e}"
        );
        let (_d, sc) = load(&toml("minimum_allocation_mb = 512"), job);
        let mut sc = sc.unwrap_or_else(|e| panic!("{e}"));
        sc.check_invariants = true;
        let (rec, sum) = run_sampled(&sc);
        assert_eq!(root_steady_at(&rec, 750).memory_mb, 1024, "{era}");
        assert_eq!(root_steady_at(&rec, 1000).memory_mb, 1536, "{era}");
        assert_eq!(root_steady_at(&rec, 1750).memory_mb, 1536, "{era}");
        assert_eq!(root_steady_at(&rec, 2000).memory_mb, 512, "{era}");
        // Leaf `a` and `default` split the steady share (weights 1, 1): 768 each at 1536.
        let rows = &rec
            .samples
            .iter()
            .find(|(t, _)| t.0 == 1500)
            .expect("sample")
            .1;
        let a = rows.iter().find(|r| r.queue == "root.a").expect("root.a");
        assert_eq!(a.steady_fair_share.memory_mb, 768, "{era}");
        assert_eq!(metric(&sum, "node_lost_containers"), 0.0);
    }
}

/// Two 4 GB nodes; one app of four 2 GB tasks of 10 s. Allocations: node0 at 0, node1 at
/// 500, node0 at 1000, node1 at 1500. node1 is lost at 5000: its two containers are lost
/// and asked again; the cluster is 4 GB, full with node0's two tasks, which end at 10000
/// and 11000 (reported at node0's beats then). The re-asked tasks run from 10000 and 11000
/// and the app finishes at 21000. Memory used: 8 GB over [1500, 5000), … ; capacity 8 GB
/// until 5000, then 4 GB.
#[test]
fn a_lost_node_kills_its_containers_and_they_are_asked_again() {
    for (era, alloc) in [
        ("hadoop-2.7", "fs.xml"),
        ("hadoop-3.3", "fs.xml"),
        ("hadoop-2.7", "cs.xml"),
        ("hadoop-3.3", "cs.xml"),
    ] {
        let sc = scenario(
            era,
            alloc,
            "",
            "nodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
             [[cluster.events]]\nat_ms = 5000\nkind = \"lose\"\nnode = \"node1\"\n",
            "j,0,a,u,0,0,0,4,2048,1,10000,1,\n",
        );
        let (rec, sum) = run_sampled(&sc);
        assert_eq!(
            nodes_allocated(&rec),
            vec![
                (0, 0),
                (500, 1),
                (1000, 0),
                (1500, 1),
                (10000, 0),
                (11000, 0)
            ],
            "{era} {alloc}"
        );
        assert_eq!(metric(&sum, "node_lost_containers"), 2.0, "{era} {alloc}");
        assert_eq!(metric(&sum, "preempted_containers"), 0.0, "{era} {alloc}");
        assert_eq!(
            rec.apps[0].finish.map(|t| t.0),
            Some(21000),
            "{era} {alloc}"
        );
        // Used MB·ms: 2048 × (0→10000) + 2048 × (500→5000) + 2048 × (1000→11000)
        // + 2048 × (1500→5000) + 2048 × (10000→20000) + 2048 × (11000→21000)
        // = 2048 × (10000 + 4500 + 10000 + 3500 + 10000 + 10000) = 2048 × 48000.
        // Capacity: 8192 × 5000 + 4096 × 16000 = 2048 × 52000. Utilisation 48/52.
        let util = metric(&sum, "util_memory");
        assert!((util - 48.0 / 52.0).abs() < 1e-12, "{era} {alloc}: {util}");
    }
}

/// A lost AM fails the attempt: node0 holds the AM (1 GB, allocated at 0) and node1 a task
/// (allocated at 500, 20 s). node0 is lost at 2000: the AM is lost, the attempt's task on
/// node1 is killed with it (2 lost containers); the new attempt's AM is allocated on node1
/// at its beat at 2500, then the task at 3500, running to 23500, when the app finishes.
#[test]
fn a_lost_am_fails_the_attempt_and_a_new_one_runs_everything_left() {
    for era in ERAS {
        let sc = scenario(
            era,
            "fs.xml",
            "",
            "nodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
             [[cluster.events]]\nat_ms = 2000\nkind = \"lose\"\nnode = \"node0\"\n",
            "j,0,a,u,1024,1,0,1,2048,1,20000,1,\n",
        );
        let (rec, sum) = run_sampled(&sc);
        assert_eq!(
            nodes_allocated(&rec),
            vec![(0, 0), (500, 1), (2500, 1), (3500, 1)],
            "{era}"
        );
        assert_eq!(metric(&sum, "node_lost_containers"), 2.0, "{era}");
        assert_eq!(rec.apps[0].finish.map(|t| t.0), Some(23500), "{era}");
    }
}

/// Every node lost while an app waits: the run cannot go on and stops (stalled) without an
/// end time.
#[test]
fn a_cluster_with_every_node_gone_stalls_and_stops() {
    for era in ERAS {
        let sc = scenario(
            era,
            "fs.xml",
            "",
            "nodes = 1\nnode_memory_mb = 4096\nnode_vcores = 4\n\
             [[cluster.events]]\nat_ms = 100\nkind = \"lose\"\nnode = \"node0\"\n",
            "j,0,a,u,0,0,0,3,2048,1,10000,1,\n",
        );
        let (rec, sum) = run_sampled(&sc);
        assert_eq!(nodes_allocated(&rec), vec![(0, 0)], "{era}");
        assert_eq!(metric(&sum, "stalled"), 1.0, "{era}");
        assert_eq!(metric(&sum, "apps_unfinished"), 1.0, "{era}");
        assert_eq!(metric(&sum, "node_lost_containers"), 1.0, "{era}");
    }
}

/// The largest node follows the cluster: after the 8 GB node is lost, the maximum
/// allocation (8 GB configured, capped by the largest node after the wait) is 4 GB, so an
/// app asking 6 GB is rejected at submission; one asking 4 GB runs.
#[test]
fn the_largest_node_follows_losses() {
    for era in ERAS {
        let sc = scenario(
            era,
            "fs.xml",
            "",
            "[[cluster.nodes]]\nname = \"big\"\nmemory_mb = 8192\nvcores = 8\n\
             [[cluster.nodes]]\nname = \"small\"\nmemory_mb = 4096\nvcores = 8\n\
             [[cluster.events]]\nat_ms = 20000\nkind = \"lose\"\nnode = \"big\"\n",
            "late,30000,a,u,0,0,0,1,6144,1,1000,1,\nok,30000,a,u,0,0,0,1,4096,1,1000,1,\n",
        );
        let (rec, sum) = run_sampled(&sc);
        assert_eq!(metric(&sum, "apps_rejected"), 1.0, "{era}");
        assert!(rec.apps[0].rejected.is_some(), "{era}");
        assert!(rec.apps[1].finish.is_some(), "{era}");
    }
}

/// hadoop-3.3 graceful decommissioning: node1 runs a 2 GB task (allocated at 500, 10 s, to
/// 10500) when it starts decommissioning at 2000. At its beat at 2500 its capability
/// becomes what it runs (2 GB): the cluster is 4 + 2 = 6 GB; it takes nothing new (the
/// second app's tasks go to node0 only); at its beat at 10500 the task's completion is
/// reported first, then the node, empty, leaves: 4 GB. In hadoop-2.7 decommissioning is a
/// removal: the task is lost at 2000 and the cluster is 4 GB at once.
#[test]
fn decommissioning_drains_in_33_and_removes_in_27() {
    let cluster = "nodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
         [[cluster.events]]\nat_ms = 2000\nkind = \"decommission\"\nnode = \"node1\"\n";
    let csv = "j,0,a,u,0,0,0,2,2048,1,10000,1,\nk,3000,a,u,0,0,0,2,1024,1,1000,1,\n";
    let sc = scenario("hadoop-3.3", "fs.xml", "end_ms = 14000", cluster, csv);
    let (rec, sum) = run_sampled(&sc);
    assert_eq!(root_steady_at(&rec, 2250).memory_mb, 8192);
    assert_eq!(root_steady_at(&rec, 2500), Resource::new(6144, 5));
    assert_eq!(root_steady_at(&rec, 10250), Resource::new(6144, 5));
    assert_eq!(root_steady_at(&rec, 10500), Resource::new(4096, 4));
    assert_eq!(metric(&sum, "node_lost_containers"), 0.0);
    let allocs = nodes_allocated(&rec);
    assert!(
        allocs
            .iter()
            .filter(|(t, _)| *t >= 2000)
            .all(|&(_, n)| n == 0),
        "{allocs:?}"
    );
    assert_eq!(rec.apps[0].finish.map(|t| t.0), Some(10500));

    let sc = scenario("hadoop-2.7", "fs.xml", "end_ms = 14000", cluster, csv);
    let (rec, sum) = run_sampled(&sc);
    assert_eq!(root_steady_at(&rec, 2000).memory_mb, 4096);
    assert_eq!(metric(&sum, "node_lost_containers"), 1.0);
}

/// Bad events are refused when the scenario is read, naming file, line and key.
#[test]
fn bad_events_are_refused_with_their_line() {
    let toml = "[cluster]\nnodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
                [[cluster.events]]\nat_ms = 10\nkind = \"lose\"\nnode = \"node9\"\n\
                [allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n";
    let (_d, sc) = load(toml, "");
    let e = sc.expect_err("unknown node");
    assert!(e.contains("s.toml:8: cluster.events[0].node"), "{e}");
    assert!(e.contains("`node9`"), "{e}");
    let toml = toml.replace("node9", "node1").replace(
        "[allocation]",
        "[[cluster.events]]\nat_ms = 20\nkind = \"lose\"\nnode = \"node1\"\n[allocation]",
    );
    let (_d, sc) = load(&toml, "");
    let e = sc.expect_err("lost twice");
    assert!(e.contains("s.toml:12: cluster.events[1].node"), "{e}");
    let toml = "[cluster]\nnodes = 1\nnode_memory_mb = 4096\nnode_vcores = 4\n\
                [[cluster.events]]\nat_ms = 315576000001\nkind = \"add\"\n\
                [allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n";
    let (_d, sc) = load(toml, "");
    let e = sc.expect_err("too late");
    assert!(e.contains("s.toml:6: cluster.events[0].at_ms"), "{e}");
    assert!(e.contains("315576000000"), "{e}");
}

/// The Capacity Scheduler activates its pending apps again when the cluster changes
/// (`LeafQueue.updateClusterResource` ends with `activateApplications`). One 8 GB node, leaf
/// a at 100 %, maximum-am-resource-percent 0.1: a's AM limit and its user's are 8192 × 0.1
/// rounded up to 1024 MB, so of two apps with 1 GB AMs arriving at 0 the second is held.
/// A second 8 GB node joins at 5,000: both limits become 16,384 × 0.1 rounded up, 2048 MB,
/// and the second app is activated then; its AM is allocated at node0's heartbeat of 5,000,
/// which comes after the node event of the same time. Before, it was held: the first app
/// holds its 1 GB AM to the end (its one task runs 30 s).
#[test]
fn a_joining_node_lets_the_capacity_scheduler_activate_a_held_app() {
    for era in ERAS {
        let sc = scenario(
            era,
            "cs.xml",
            "end_ms = 20000",
            "nodes = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n\
             [[cluster.events]]\nat_ms = 5000\nkind = \"add\"\nname = \"node1\"\n\
             memory_mb = 8192\nvcores = 8\n",
            "j0,0,a,u,1024,1,0,1,1024,1,30000,1,\nj1,0,a,u,1024,1,0,1,1024,1,30000,1,\n",
        );
        let (rec, sum) = run_sampled(&sc);
        assert_eq!(metric(&sum, "am_limit_blocks.root.a"), 1.0, "{era}");
        assert_eq!(rec.apps[0].first_container.map(|t| t.0), Some(0), "{era}");
        assert_eq!(
            rec.apps[1].first_container.map(|t| t.0),
            Some(5_000),
            "{era}"
        );
    }
}

/// A failed AM attempt gives up its activation, as Hadoop's Capacity Scheduler removes the
/// attempt from its leaf and adds the new one: a at 100 % of two 8 GB nodes,
/// maximum-am-resource-percent 0.05, so the AM limits are 16,384 × 0.05 rounded up to
/// 1024 MB: one 1 GB AM. j0 (arrival 0) is activated and its AM placed on node0 at 0; j1
/// (arrival 100) is held. node0 is lost at 2,000: at the cluster update j0 still holds its
/// charge (8,192 × 0.05 rounds up to 1024 MB, full), then j0's attempt leaves the leaf, its
/// charge is freed and j1, pending, is activated: j1's AM goes on node1 at 2,500 and its
/// task at 3,500 (30 s). j0's new attempt, pending behind j1's charge, is activated when j1
/// finishes at 33,500 (the completion comes before node1's beat of the same time, which
/// places j0's AM); its task follows at 34,500. Had j0 kept its activation, its new AM
/// would have taken node1 at 2,500 and j1 waited to 33,500.
#[test]
fn a_failed_attempt_gives_up_its_capacity_activation() {
    for era in ERAS {
        let sc = scenario(
            era,
            "cs-am.xml",
            "",
            "nodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
             [[cluster.events]]\nat_ms = 2000\nkind = \"lose\"\nnode = \"node0\"\n",
            "j0,0,a,u,1024,1,0,1,1024,1,30000,1,\nj1,100,a,u,1024,1,0,1,1024,1,30000,1,\n",
        );
        let (rec, sum) = run_sampled(&sc);
        let first = |k: usize| rec.apps[k].first_container.map(|t| t.0);
        let finish = |k: usize| rec.apps[k].finish.map(|t| t.0);
        assert_eq!(first(1), Some(2_500), "{era}: j1 takes the freed AM room");
        assert_eq!(finish(1), Some(33_500), "{era}");
        assert_eq!(
            nodes_allocated(&rec),
            vec![
                (0, 0),
                (500, 1),
                (2500, 1),
                (3500, 1),
                (33500, 1),
                (34500, 1)
            ],
            "{era}"
        );
        assert_eq!(finish(0), Some(64_500), "{era}");
        // Held twice: j1 at its submission, j0's new attempt at its own.
        assert_eq!(metric(&sum, "am_limit_blocks.root.a"), 2.0, "{era}");
        assert_eq!(metric(&sum, "node_lost_containers"), 2.0, "{era}");
    }
}
