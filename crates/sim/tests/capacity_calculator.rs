//! The Capacity Scheduler compares resources with `yarn.scheduler.capacity.resource-calculator`
//! everywhere, in both eras: Hadoop's default `DefaultResourceCalculator` reads memory alone
//! (a node's vcores may be overcommitted), `DominantResourceCalculator` every resource.
//!
//! One node, heartbeats at 0, 1000, … ms; one leaf `default` at 100% of the cluster.

mod common;

use common::apps::{GB, one_stage};
use common::outcomes::run_allocations;
use common::scenarios::{capacity_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];
const DOMINANT: &str = "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator";
const DEFAULT: &str = "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator";

/// The leaf `default`, with `extra` properties (`yarn.scheduler.capacity.` prefixed).
fn capacity_xml(extra: &[(&str, &str)]) -> String {
    let mut props = vec![("root.queues", "default"), ("root.default.capacity", "100")];
    props.extend_from_slice(extra);
    common::scenarios::capacity_xml(&props)
}

/// App `name` of `tasks` 1 GB / 1 vcore tasks of 60 s asking for `hosts`, with an AM of `am`.
fn app(name: &str, arrival: u64, am: Option<Resource>, tasks: u32, hosts: &[&str]) -> AppSpec {
    let mut app = one_stage(arrival, "default", "u", tasks, Resource::new(GB, 1), 60_000);
    app.name = name.into();
    app.am = am;
    app.stages[0][0].hosts = hosts.iter().map(|h| h.to_string()).collect();
    app
}

fn scenario(semantics: Semantics, xml: &str, node: Resource, apps: Vec<AppSpec>) -> Scenario {
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            // The AMs ask for their tasks long after the window looked at.
            am_launch_delay_ms: 100_000,
            ..SchedulerConf::default()
        },
        end_ms: Some(10_000),
        ..trace_scenario("capacity-calculator", capacity_tree(xml), 1, node, apps)
    }
}

#[test]
fn the_default_calculator_fits_containers_by_memory_and_overcommits_vcores() {
    // A 4096 MB / 1 vcore node; four node-local 1 GB / 1 vcore tasks (an unmanaged app at
    // 100 ms). At the 1000 ms heartbeat the root keeps assigning after node-local
    // containers: by memory 4096 / 1024 = 4 fit (the node ends at 4 vcores of 1); by every
    // resource 1 / 1 = 1 fits, and the 3 others wait for it (60 s, past the window).
    let apps = vec![app("tasks", 100, None, 4, &["node0"])];
    let node = Resource::new(4 * GB, 1);
    for s in ERAS {
        for xml in [
            capacity_xml(&[]),
            capacity_xml(&[("resource-calculator", DEFAULT)]),
        ] {
            let sc = scenario(s, &xml, node, apps.clone());
            assert_eq!(run_allocations(&sc), vec![(1000, 0); 4], "{s}");
        }
        let xml = capacity_xml(&[("resource-calculator", DOMINANT)]);
        let sc = scenario(s, &xml, node, apps.clone());
        assert_eq!(run_allocations(&sc), vec![(1000, 0)], "{s}");
    }
}

#[test]
fn the_am_limit_is_read_by_the_calculator() {
    // An 8192 MB / 2 vcore node, maximum-am-resource-percent 0.5: the AM limit is
    // 8192 × 0.5 = 4096 MB and 2 × 0.5 = 1 vcore. Two apps with 1 GB / 1 vcore AMs (at
    // 100 and 200 ms; their tasks come after the window). app0's AM runs at 1000 ms (the
    // first AM of the leaf always may; one off-switch container a heartbeat). At 2000 ms
    // app1's AM would make the AMs 2048 MB / 2 vcores: within 4096 MB by memory, so it runs;
    // by the dominant share 2 / 2 = 1.0 of the vcores against the limit's 0.5, so it waits.
    // Either way the node has room (2048 of 8192 MB, 1 of 2 vcores used).
    let am = Some(Resource::new(GB, 1));
    let apps = vec![app("a0", 100, am, 1, &[]), app("a1", 200, am, 1, &[])];
    let node = Resource::new(8 * GB, 2);
    let am_share = ("maximum-am-resource-percent", "0.5");
    for s in ERAS {
        let sc = scenario(s, &capacity_xml(&[am_share]), node, apps.clone());
        assert_eq!(run_allocations(&sc), vec![(1000, 0), (2000, 1)], "{s}");
        let xml = capacity_xml(&[am_share, ("resource-calculator", DOMINANT)]);
        let sc = scenario(s, &xml, node, apps.clone());
        assert_eq!(run_allocations(&sc), vec![(1000, 0)], "{s}");
    }
}
