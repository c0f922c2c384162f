//! Trace scenarios on identical nodes and the queue trees they run under.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::{parse_capacity_scheduler_xml, parse_fair_scheduler_xml};
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
use fairsim_sim::tree::QueueTree;

/// `apps` on `nodes` nodes of `node` in one rack under `tree`, with the scheduler's defaults,
/// no end time and no sampling, invariants checked. Tests change what they need with struct
/// update syntax (`Scenario { end_ms: Some(..), ..trace_scenario(..) }`).
pub fn trace_scenario(
    name: &str,
    tree: QueueTree,
    nodes: u32,
    node: Resource,
    apps: Vec<AppSpec>,
) -> Scenario {
    cluster_scenario(name, tree, ClusterSpec::uniform(nodes, 1, node), apps)
}

/// [`trace_scenario`] on `cluster` (racks, node events): `apps` under `tree` with the
/// scheduler's defaults, no end time and no sampling, invariants checked.
pub fn cluster_scenario(
    name: &str,
    tree: QueueTree,
    cluster: ClusterSpec,
    apps: Vec<AppSpec>,
) -> Scenario {
    Scenario {
        check_invariants: true,
        ..Scenario::new(name, cluster, tree, Workload::Trace(apps))
    }
}

/// `apps` on `nodes` nodes of `node` under the `fair-scheduler.xml` text `xml`, read and run
/// in `semantics` until `end_ms`.
pub fn fair_scenario(
    semantics: Semantics,
    xml: &str,
    nodes: u32,
    node: Resource,
    apps: Vec<AppSpec>,
    end_ms: u64,
) -> Scenario {
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            ..SchedulerConf::default()
        },
        end_ms: Some(end_ms),
        ..trace_scenario("fair", fair_tree(xml, semantics), nodes, node, apps)
    }
}

/// The queue tree of a valid `fair-scheduler.xml` text read in `semantics`.
pub fn fair_tree(xml: &str, semantics: Semantics) -> QueueTree {
    parse_fair_scheduler_xml(xml, "fair-scheduler.xml", semantics)
        .expect("valid allocation file")
        .tree
}

/// The queue tree of a valid `capacity-scheduler.xml` text.
pub fn capacity_tree(xml: &str) -> QueueTree {
    parse_capacity_scheduler_xml(xml, "capacity-scheduler.xml")
        .expect("valid file")
        .tree
}

/// A `capacity-scheduler.xml` text of `props`, each name prefixed with
/// `yarn.scheduler.capacity.`, in the order given.
pub fn capacity_xml(props: &[(&str, &str)]) -> String {
    let body: String = props
        .iter()
        .map(|(n, v)| {
            format!(
                "<property><name>yarn.scheduler.capacity.{n}</name><value>{v}</value></property>\n"
            )
        })
        .collect();
    format!("<configuration>\n{body}</configuration>\n")
}
