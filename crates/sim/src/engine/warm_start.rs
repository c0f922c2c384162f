//! A run that begins from a cluster's state (`Scenario::start`, docs/import.md): before the
//! first event, the apps arriving at time 0 are submitted in index order and each app of the
//! start state is given the containers it holds, on the nodes that hold them, its AM first,
//! through the same allocation both schedulers make on a heartbeat (`try_assign`), so every
//! count the schedulers keep (node, app, queue, user and AM usage, completions) is as if the
//! scheduler had placed them. The requests left in the trace are the pending ones.
//!
//! The containers bypass the scheduler's checks (queue limits, AM share, user limits,
//! locality): the cluster holds them already, whatever fairsim's scheduler would have done.
//! A start state the run cannot hold is refused, naming the file and line: an app not in the
//! trace or not arriving at 0, an app placement rejects or maxRunningApps holds back, a node
//! unknown or not in the cluster at 0, a container that does not fit the node's free space,
//! a priority the app does not ask for, and AM timing (the held containers must be asked
//! when the AM is placed).

use super::Simulation;
use crate::app::{AM_PRIORITY, AppPhase, Locality};
use crate::start_state::StartRow;
use crate::time::SimTime;
use crate::{SimError, state::cluster::NodeState};

/// Places the start state of the scenario, if it has one.
pub(crate) fn apply(sim: &mut Simulation<'_>) -> Result<(), SimError> {
    let Some(start) = sim.w.sc.start.as_ref() else {
        return Ok(());
    };
    let file = start.path.display().to_string();
    let bad = |r: &StartRow, why: String| SimError::Invalid(format!("{file}:{}: {why}", r.line));
    let conf = &sim.w.sc.scheduler;
    if conf.am_heartbeat_ms > 0 || conf.am_launch_delay_ms > 0 {
        return Err(SimError::Invalid(format!(
            "{file}: a start state needs AM timing off (scheduler.am_heartbeat_ms and \
             am_launch_delay_ms 0): an app's held containers are asked when its AM is placed"
        )));
    }
    if sim.w.sc.cluster.events.events.iter().any(|e| e.at_ms == 0) {
        return Err(SimError::Invalid(format!(
            "{file}: a start state begins from the cluster as it is: no node event at 0 ms"
        )));
    }
    let index: std::collections::BTreeMap<&str, u32> = sim
        .w
        .specs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.as_str(), i as u32))
        .collect();
    let mut held: Vec<Vec<&StartRow>> = vec![Vec::new(); sim.w.specs.len()];
    for r in &start.rows {
        let Some(&a) = index.get(r.app.as_str()) else {
            return Err(bad(r, format!("app `{}` is not in the trace", r.app)));
        };
        if sim.w.specs[a as usize].arrival != SimTime::ZERO {
            return Err(bad(r, format!("app `{}` does not arrive at 0 ms", r.app)));
        }
        if held[a as usize].is_empty() && r.priority != AM_PRIORITY {
            return Err(bad(r, format!("app `{}` holds no AM row first", r.app)));
        }
        held[a as usize].push(r);
    }
    while let Some(a) = sim.cx.events.take_arrival_at(SimTime::ZERO) {
        sim.cx.n_arrived += 1;
        sim.cx.progress += 1;
        sim.sched().on_app_arrived(a);
        let rows = std::mem::take(&mut held[a as usize]);
        let Some(first) = rows.first() else {
            continue;
        };
        let app = &sim.w.apps[a as usize];
        if app.phase != AppPhase::Runnable {
            let why = app
                .rejected
                .clone()
                .unwrap_or_else(|| "held back by maxRunningApps".into());
            return Err(bad(
                first,
                format!(
                    "app `{}` holds containers but is not runnable: {why}",
                    first.app
                ),
            ));
        }
        for r in rows {
            for _ in 0..r.containers {
                place(sim, a, r).map_err(|why| bad(r, why))?;
            }
        }
    }
    Ok(())
}

/// One container of app `a` at the row's priority on the row's node.
fn place(sim: &mut Simulation<'_>, a: u32, r: &StartRow) -> Result<(), String> {
    let node = sim
        .w
        .cluster
        .find_node(&r.node)
        .filter(|n| sim.w.cluster.nodes[n.0 as usize].state == NodeState::Running)
        .ok_or_else(|| format!("node `{}` is not in the cluster at 0 ms", r.node))?
        .0;
    let Some(idx) = sim.w.apps[a as usize]
        .requests
        .by_priority
        .iter()
        .position(|p| p.priority == r.priority && p.any > 0)
    else {
        return Err(format!(
            "app `{}` asks no more containers at priority {}",
            r.app, r.priority
        ));
    };
    let size = sim.w.apps[a as usize].requests.by_priority[idx].size;
    let free = sim.w.cluster.nodes[node as usize].available();
    if !sim.sched().container_fit().fits_in(size, free) {
        return Err(format!(
            "app `{}`'s container of {} MB, {} vcores does not fit node `{}` ({} MB, {} vcores free)",
            r.app, size.memory_mb, size.vcores, r.node, free.memory_mb, free.vcores
        ));
    }
    sim.sched()
        .try_assign(a, idx, node, Locality::OffSwitch, false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::alloc::{parse_capacity_scheduler_xml, parse_fair_scheduler_xml};
    use crate::recorder::MemoryRecorder;
    use crate::scenario::{ClusterSpec, SchedulerConf, Workload};
    use crate::start_state::parse_start_state;
    use crate::tree::QueueTree;
    use crate::workload::csv::parse_csv_trace;
    use crate::{Scenario, SimError, Simulation};
    use fairsim_core::{Resource, Semantics};
    use std::path::Path;

    // Two 8192 MB / 8-vcore nodes. App A (root.a) holds its AM and three 1024 MB tasks that
    // run 60 s, two on node0 and one on node1, and asks four more; app B (root.b) holds its
    // 2048 MB AM and one 2048 MB task of 30 s on node1; app C (root.b) is only submitted.
    const TRACE: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts
A,0,root.a,u1,1024,1,0,3,1024,1,60000,1,
A,0,root.a,u1,1024,1,0,4,1024,1,60000,20,
B,0,root.b,u2,2048,2,0,1,2048,2,30000,1,
C,0,root.b,u3,1024,1,0,1,1024,1,10000,20,
";
    const START: &str = "app,node,priority,containers
A,node0,0,1
A,node0,1,2
A,node1,1,1
B,node1,0,1
B,node1,1,1
";

    /// The held rows alone: nothing is left to ask, so a heartbeat at 0 ms places nothing.
    fn held_only() -> String {
        TRACE
            .lines()
            .filter(|l| !l.contains(",20,"))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    fn scenario(tree: QueueTree, trace: &str, start: &str) -> Scenario {
        let apps = parse_csv_trace(trace, Path::new("open-apps.csv")).unwrap();
        Scenario {
            sample_interval_ms: 1000,
            end_ms: Some(1000),
            check_invariants: true,
            start: Some(parse_start_state(start, Path::new("start.csv")).unwrap()),
            scheduler: SchedulerConf {
                semantics: Semantics::Hadoop33,
                ..SchedulerConf::default()
            },
            ..Scenario::new(
                "warm",
                ClusterSpec::uniform(2, 1, Resource::new(8192, 8)),
                tree,
                Workload::Trace(apps),
            )
        }
    }

    fn fair() -> QueueTree {
        let xml = "<allocations><queue name=\"a\"/><queue name=\"b\"/></allocations>";
        parse_fair_scheduler_xml(xml, "fair-scheduler.xml", Semantics::Hadoop33)
            .unwrap()
            .tree
    }

    fn capacity() -> QueueTree {
        let xml = "<configuration>
          <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
          <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
          <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
        </configuration>";
        parse_capacity_scheduler_xml(xml, "capacity-scheduler.xml")
            .unwrap()
            .tree
    }

    #[test]
    fn the_first_sample_shows_the_imported_usage_per_queue_and_node() {
        // The Capacity Scheduler's default calculator normalises every ask to 1 vcore, as
        // Hadoop's `DefaultResourceCalculator.normalize` does: B's 2-vcore containers hold 1.
        for (kind, tree, b_vcores) in [("fair", fair(), 2), ("capacity", capacity(), 1)] {
            let sc = scenario(tree.clone(), TRACE, START);
            let mut rec = MemoryRecorder {
                sample: true,
                ..Default::default()
            };
            let sim = Simulation::new(&sc, 1, 0, &mut rec).unwrap();
            // node0: A's AM and two tasks; node1: A's third task, B's AM and task.
            let used: Vec<Resource> = sim.w.cluster.nodes.iter().map(|n| n.allocated).collect();
            assert_eq!(
                used,
                [
                    Resource::new(3072, 3),
                    Resource::new(5120, 1 + 2 * b_vcores)
                ],
                "{kind}"
            );
            assert_eq!(sim.w.cluster.nodes[0].n_containers, 3, "{kind}");
            // A asks its four pending tasks; C its AM.
            assert_eq!(sim.w.apps[0].requests.pending, 4, "{kind}");
            assert_eq!(sim.w.apps[2].requests.pending, 1, "{kind}");
            assert!(
                sim.w.apps[0].am_running && sim.w.apps[1].am_running,
                "{kind}"
            );
            drop(sim);
            // The first sample (0 ms, after the heartbeats of 0 ms) of a run with nothing
            // pending: the imported usage alone.
            let sc = scenario(tree, &held_only(), START);
            let mut sim = Simulation::new(&sc, 1, 0, &mut rec).unwrap();
            sim.run_to_end().unwrap();
            drop(sim);
            let (t, rows) = &rec.samples[0];
            assert_eq!(t.0, 0, "{kind}");
            let usage = |q: &str| rows.iter().find(|r| r.queue == q).unwrap().usage;
            assert_eq!(usage("root.a"), Resource::new(4096, 4), "{kind}");
            assert_eq!(usage("root.b"), Resource::new(4096, 2 * b_vcores), "{kind}");
            assert_eq!(
                usage("root"),
                Resource::new(8192, 4 + 2 * b_vcores),
                "{kind}"
            );
        }
    }

    #[test]
    fn held_tasks_finish_after_their_remaining_time() {
        // B's held task ends at 30 s, heard of at node1's next heartbeat, and B with it.
        let mut sc = scenario(fair(), TRACE, START);
        sc.end_ms = None;
        sc.sample_interval_ms = 0;
        let mut rec = MemoryRecorder::default();
        let mut sim = Simulation::new(&sc, 1, 0, &mut rec).unwrap();
        let heard = sim
            .w
            .cluster
            .heartbeat_at_or_after(crate::cluster::NodeId(1), crate::time::SimTime(30_000));
        sim.run_to_end().unwrap();
        drop(sim);
        let b = rec.apps.iter().find(|r| r.name == "B").unwrap();
        assert!(heard.0 >= 30_000 && heard.0 < 31_000);
        assert_eq!(b.finish, Some(heard));
        assert_eq!(b.first_container.map(|t| t.0), Some(0));
    }

    #[test]
    fn a_start_state_the_cluster_cannot_hold_is_refused_with_its_line() {
        let err = |start: &str| -> String {
            let sc = scenario(fair(), TRACE, start);
            let mut rec = MemoryRecorder::default();
            match Simulation::new(&sc, 1, 0, &mut rec) {
                Err(SimError::Invalid(m)) => m,
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("accepted {start}"),
            }
        };
        let head = "app,node,priority,containers\n";
        assert_eq!(
            err(&format!("{head}Z,node0,0,1\n")),
            "start.csv:2: app `Z` is not in the trace"
        );
        assert_eq!(
            err(&format!("{head}A,node9,0,1\n")),
            "start.csv:2: node `node9` is not in the cluster at 0 ms"
        );
        assert_eq!(
            err(&format!("{head}A,node0,0,1\nA,node0,1,4\n")),
            "start.csv:3: app `A` asks no more containers at priority 1"
        );
        // A fills node0 (8 × 1024 MB); B's AM finds no room.
        assert_eq!(
            err(&format!(
                "{head}A,node0,0,1\nA,node0,1,3\nA,node0,20,4\nB,node0,0,1\n"
            )),
            "start.csv:5: app `B`'s container of 2048 MB, 2 vcores does not fit node `node0` (0 MB, 0 vcores free)"
        );
    }
}
