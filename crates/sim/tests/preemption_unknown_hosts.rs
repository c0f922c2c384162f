//! Hadoop 3.x preemption for a starved app whose tasks name a host no node has (a CSV
//! `hosts` entry, an SLS `container.host`, a Rumen attempt's host: most real histories).
//! `FSAppAttempt.getStarvedResourceRequests` walks the app's requests in its request map's
//! order; `VisitedResourceRequestTracker` skips a node or rack request for which the node
//! tracker finds no node (it logs "non-existent node/rack") and marks nothing visited, so the
//! ask's rack request (when the rack has nodes) or its ANY request decides where containers
//! are preempted.

mod common;

use common::apps::{GB, long_tasks};
use common::outcomes::{placed, run_recorded};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf};
use fairsim_sim::topology::NodeSpec;

const XML: &str = r#"<allocations>
  <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="big"/><queue name="x"/>
</allocations>"#;

/// `x`'s one 1 GB task, at 20 s, hinted at `hosts`.
fn hinted(hosts: &[&str]) -> AppSpec {
    let mut x = long_tasks(20_000, "x", 1);
    x.stages[0][0].hosts = hosts.iter().map(|h| h.to_string()).collect();
    x
}

fn scenario(cluster: ClusterSpec, apps: Vec<AppSpec>) -> Scenario {
    Scenario {
        scheduler: SchedulerConf {
            semantics: Semantics::Hadoop33,
            preemption: true,
            ..SchedulerConf::default()
        },
        end_ms: Some(100_000),
        cluster,
        ..trace_scenario(
            "unknown-hosts",
            fair_tree(XML, Semantics::Hadoop33),
            1,
            Resource::new(4 * GB, 4),
            apps,
        )
    }
}

/// `(time, node, app)` of every allocation, and each app's preempted containers.
fn allocations_and_preempted(sc: &Scenario) -> (Vec<(u64, u32, u32)>, Vec<u64>) {
    let (rec, _) = run_recorded(sc);
    let allocs = placed(&rec);
    let mut preempted = vec![0; rec.apps.len()];
    for a in &rec.apps {
        preempted[a.index as usize] = a.preempted_containers;
    }
    (allocs, preempted)
}

#[test]
fn a_host_and_rack_outside_the_cluster_leave_the_any_request() {
    // One 4 GB node, node0 in rack0. `big` (app 0) fills it with four 1 GB tasks, one a
    // heartbeat (0 to 3000 ms). `x` (app 1) asks 1 GB at 20 s on host `ghost`, whose rack
    // is default-rack (a bare name): its requests are `ghost`, `/default-rack` and `*`.
    // After the 1 s fair-share timeout x is starved (fair share 2048 MB, usage 0); the map
    // holds `ghost` (bucket 3), `/default-rack` (8), `*` (10): the first two name no node
    // and are skipped, ANY is taken, and one of big's containers on node0 is chosen at the
    // 21 s update and killed 15 s later; node0's beat at 36 s gives x its GB. A skipped
    // request that counted as visited would have blocked ANY: nothing preempted, x waiting
    // until the end. Before, the run panicked (index out of bounds).
    let sc = scenario(
        ClusterSpec::uniform(1, 1, Resource::new(4 * GB, 4)),
        vec![long_tasks(0, "big", 4), hinted(&["ghost"])],
    );
    let (allocs, preempted) = allocations_and_preempted(&sc);
    assert_eq!(
        allocs,
        vec![
            (0, 0, 0),
            (1000, 0, 0),
            (2000, 0, 0),
            (3000, 0, 0),
            (36_000, 0, 1)
        ]
    );
    assert_eq!(preempted, vec![1, 0]);
}

#[test]
fn a_host_outside_the_cluster_in_a_rack_of_the_cluster_takes_the_rack() {
    // Two 4 GB nodes: node0 in rack `other` (beats at 0, 1000, ...), node1 in `default-rack`
    // (beats at 500, 1500, ...). `big` fills both with eight 1 GB tasks. `x` asks 1 GB at
    // 20 s on host `ghost`, whose rack default-rack the cluster has. `ghost` (bucket 3) is
    // skipped; the rack request `/default-rack` (8) comes before `*` (10) and is taken: only
    // node1 is a candidate, so big's container there is killed at 36 s and node1's beat at
    // 36.5 s hands x the GB.
    let node = |name: &str, rack: &str| NodeSpec {
        name: name.into(),
        rack: rack.into(),
        capacity: Resource::new(4 * GB, 4),
    };
    let cluster = ClusterSpec {
        nodes: 2,
        layout: vec![node("node0", "other"), node("node1", "default-rack")],
        ..ClusterSpec::uniform(2, 2, Resource::new(4 * GB, 4))
    };
    let x_allocations = |hint: &str| {
        let sc = scenario(
            cluster.clone(),
            vec![long_tasks(0, "big", 8), hinted(&[hint])],
        );
        let (allocs, preempted) = allocations_and_preempted(&sc);
        assert_eq!(preempted, vec![1, 0], "{hint}");
        allocs.into_iter().filter(|a| a.2 == 1).collect::<Vec<_>>()
    };
    assert_eq!(x_allocations("ghost"), vec![(36_500, 1, 1)]);
    // The same host in a rack the cluster lacks (`/nope`): node and rack requests are both
    // skipped, ANY is taken, and the search over every node takes big's container on node0,
    // whose beat at 36 s gives it to x.
    assert_eq!(x_allocations("/nope/ghost"), vec![(36_000, 0, 1)]);
}
