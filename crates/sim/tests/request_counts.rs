//! Request counts after an allocation, through the whole simulator, as Hadoop's
//! `AppSchedulingInfo` (2.7) and `LocalityAppPlacementAllocator` (3.x) keep them: an
//! off-switch container lowers only the ANY request, a rack-local one the rack's and ANY, a
//! node-local one the node's, its rack's and ANY; a node or rack request at zero is removed.
//!
//! Two nodes of 2 GB in two racks (`node0` in `rack0`, `node1` in `rack1`), heartbeats every
//! 1000 ms: `node0` beats at 0, 1000, …, `node1` at 500, 1500, …. One unmanaged app arrives
//! at 100 ms with 1 GB tasks at one priority; assignmultiple is off (one container a beat).

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::parse_fair_scheduler_xml;
use fairsim_sim::app::{AppSpec, Locality, TaskGroup};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::{SimTime, run};

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// `count` tasks of 1 GB, 60 s each, asked on `hosts` (none: anywhere).
fn group(count: u32, hosts: &[&str]) -> TaskGroup {
    TaskGroup {
        count,
        size: Resource::new(GB, 1),
        duration_ms: 60_000,
        priority: 1,
        hosts: hosts.iter().map(|h| h.to_string()).collect(),
        relax_locality: true,
    }
}

fn scenario(semantics: Semantics, groups: Vec<TaskGroup>, delay: f64) -> Scenario {
    let tree = parse_fair_scheduler_xml(
        "<allocations><queue name=\"default\"/></allocations>",
        "fair-scheduler.xml",
        semantics,
    )
    .expect("valid allocation file")
    .tree;
    Scenario {
        name: "request-counts".into(),
        path: None,
        cluster: ClusterSpec {
            nodes: 2,
            racks: 2,
            node_memory_mb: 2 * GB,
            node_vcores: 2,
            ..ClusterSpec::default()
        },
        scheduler: SchedulerConf {
            semantics,
            locality_threshold_node: delay,
            locality_threshold_rack: delay,
            ..SchedulerConf::default()
        },
        tree,
        warnings: vec![],
        workload: Workload::Trace(vec![AppSpec {
            name: "app".into(),
            arrival: SimTime(100),
            queue: "default".into(),
            user: "u".into(),
            am: None,
            stages: vec![groups],
            recorded: None,
        }]),
        end_ms: Some(10_000),
        sample_interval_ms: 0,
        check_invariants: true,
        explain: false,
        start: None,
        recorded: None,
    }
}

/// `(time, node, locality)` of every allocation.
fn allocations(sc: &Scenario) -> Vec<(u64, u32, Locality)> {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    rec.decisions
        .iter()
        .filter_map(|d| match d.kind {
            DecisionKind::Allocated(l) => Some((d.time.0, d.node, l)),
            _ => None,
        })
        .collect()
}

#[test]
fn an_off_switch_container_leaves_the_node_request_for_a_later_node_local_one() {
    // Two tasks on node0 (node0: 2, rack0: 2, ANY: 4 with two tasks anywhere); delay
    // scheduling off.
    // - 500 ms, node1: no request there; off-switch. ANY 3; node0 and rack0 stay 2 (fairsim
    //   used to lower them with the task, to 1).
    // - 1000 ms, node0: node-local. node0 1, rack0 1, ANY 2.
    // - 1500 ms, node1: off-switch (node1 is then full). ANY 1.
    // - 2000 ms, node0: node0 still asks for 1, so node-local (at 0, as before, off-switch).
    let expected = vec![
        (500, 1, Locality::OffSwitch),
        (1000, 0, Locality::NodeLocal),
        (1500, 1, Locality::OffSwitch),
        (2000, 0, Locality::NodeLocal),
    ];
    for s in ERAS {
        let sc = scenario(s, vec![group(2, &["node0"]), group(2, &[])], -1.0);
        assert_eq!(allocations(&sc), expected, "{s}");
    }
}

#[test]
fn a_node_request_at_zero_is_removed_so_the_rest_goes_off_switch_at_once() {
    // One task on node0 and one anywhere; delay scheduling on with both thresholds 1.0, so
    // a level relaxes once more than 2 nodes × 1.0 = 2 opportunities are missed.
    // - 500 ms, node1: opportunity 1, level node-local; no request on node1 or rack1, and
    //   the priority has local requests: nothing.
    // - 1000 ms, node0: opportunity 2; node-local. node0 and rack0 fall to 0 and are removed,
    //   so only ANY (1) is left.
    // - 1500 ms, node1: no node or rack request remains (Hadoop's
    //   `getResourceRequests(priority).size() == 1`): off-switch at once. Were the zero
    //   counts kept, the priority would wait for its level to relax: opportunity 3 at
    //   1500 ms makes it rack-local (the count restarts), opportunity 3 again at 3000 ms
    //   off-switch, on node0.
    let expected = vec![
        (1000, 0, Locality::NodeLocal),
        (1500, 1, Locality::OffSwitch),
    ];
    for s in ERAS {
        let sc = scenario(s, vec![group(1, &["node0"]), group(1, &[])], 1.0);
        assert_eq!(allocations(&sc), expected, "{s}");
    }
}
