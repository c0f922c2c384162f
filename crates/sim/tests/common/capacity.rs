//! Capacity Scheduler runs on identical nodes: a capacity-scheduler.xml of properties read
//! as the run's era reads it, and what each queue's app holds once tasks that outlive the run
//! have saturated the cluster.

use super::apps::{LONG_MS, one_stage};
use super::outcomes::run_allocations;
use super::scenarios::{capacity_xml, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::{LoadedAlloc, parse_any_xml};
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

/// The capacity file of `props` (names without the `yarn.scheduler.capacity.` prefix) as
/// `era` reads it, or its error as text.
pub fn load(era: Semantics, props: &[(&str, &str)]) -> Result<LoadedAlloc, String> {
    parse_any_xml(&capacity_xml(props), "capacity-scheduler.xml", era).map_err(|e| e.to_string())
}

/// `apps` on `nodes` nodes of `node` under the capacity file of `props`, in `era`, run for
/// 200 s.
pub fn scenario(
    era: Semantics,
    props: &[(&str, &str)],
    nodes: u32,
    node: Resource,
    apps: Vec<AppSpec>,
) -> Scenario {
    let tree = load(era, props).unwrap_or_else(|e| panic!("{e}")).tree;
    Scenario {
        scheduler: SchedulerConf {
            semantics: era,
            ..SchedulerConf::default()
        },
        end_ms: Some(200_000),
        ..trace_scenario("capacity", tree, nodes, node, apps)
    }
}

/// One unmanaged app per queue of `queues`, each asking for `count` tasks of `size` MB
/// (1 vcore) that outlive the run, on the [`scenario`] of the other arguments; the MB each
/// app holds at the end, in the order given.
pub fn held(
    era: Semantics,
    props: &[(&str, &str)],
    nodes: u32,
    node: Resource,
    queues: &[&str],
    count: u32,
    size: i64,
) -> Vec<i64> {
    let apps = queues
        .iter()
        .map(|q| one_stage(0, q, "u", count, Resource::new(size, 1), LONG_MS))
        .collect();
    let sc = scenario(era, props, nodes, node, apps);
    let mut out = vec![0; queues.len()];
    for (_, app) in run_allocations(&sc) {
        out[app as usize] += size;
    }
    out
}
