//! A new attempt after a lost AM (`[[cluster.events]]` losing the AM's node), as Hadoop's
//! ResourceManager runs it: the failed attempt leaves the scheduler
//! (`FairScheduler.removeApplicationAttempt`: its containers are killed, its leaf drops it and
//! `MaxRunningAppsEnforcer` may make a waiting app runnable in its place) and a new
//! `FSAppAttempt` is added (`addApplicationAttempt`): runnable only if the limits allow it now,
//! last in its leaf's list, started now, with demand and fair share 0 until the next update.
//! Heartbeats every 1000 ms; with two nodes node0 beats at 0, 1000, … and node1 at 500,
//! 1500, …; one container per heartbeat.

mod common;

use common::outcomes::{placed, run_recorded};
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{Scenario, parse_scenario};

const HEADER: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n";

/// The scenario of `toml` (its `[scheduler]` table's lines), with `xml` as the allocation
/// file and `csv` as the trace, on two nodes of 4096 MB / 4 vcores, node0 lost at `lose_ms`.
fn scenario(era: &str, scheduler: &str, xml: &str, csv: &str, lose_ms: u64) -> Scenario {
    scenario_losing(era, scheduler, xml, csv, "node0", lose_ms)
}

/// [`scenario`] with `node` lost.
fn scenario_losing(
    era: &str,
    scheduler: &str,
    xml: &str,
    csv: &str,
    node: &str,
    lose_ms: u64,
) -> Scenario {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("fs.xml"), xml).expect("write");
    std::fs::write(dir.path().join("t.csv"), format!("{HEADER}{csv}")).expect("write");
    let toml = format!(
        "[cluster]\nnodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
         [[cluster.events]]\nat_ms = {lose_ms}\nkind = \"lose\"\nnode = \"{node}\"\n\
         [scheduler]\nsemantics = \"{era}\"\n{scheduler}\n\
         [allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n"
    );
    let path = dir.path().join("s.toml");
    std::fs::write(&path, &toml).expect("write");
    let mut sc = parse_scenario(&toml, &path).unwrap_or_else(|e| panic!("{e}"));
    sc.check_invariants = true;
    sc
}

fn finish(rec: &MemoryRecorder, app: usize) -> Option<u64> {
    rec.apps[app].finish.map(|t| t.0)
}

/// Queue `a` runs one app at a time (`maxRunningApps` 1). j (0 ms) and k (100 ms) each have
/// a 1 GB AM and one 2 GB task of 20 s; k waits behind j.
/// * 0: j's AM on node0; 500: j's task on node1 (3.3: after the 500 ms update that counts
///   the task's demand).
/// * 2000: node0 is lost with j's AM; j's task on node1 is killed. The failed attempt
///   leaves: `a` runs nothing, so k, waiting, becomes runnable. j's new attempt is then
///   added: `a` is at its limit, so it waits.
/// * 2500: k's AM on node1; 3500: k's task (20 s, reported at node1's beat at 23500).
/// * 23500: k finishes and j's new attempt becomes runnable; node1's beat in the same
///   millisecond (completions come first, then the update, then heartbeats) places its AM;
///   24500 its task, reported at 44500, when j finishes.
///
/// Had j kept its place (the attempt's app staying runnable), its new AM would have run at
/// 2500 and k after j's end.
#[test]
fn a_lost_am_gives_the_running_slot_to_a_waiting_app() {
    let xml =
        "<allocations><queue name=\"a\"><maxRunningApps>1</maxRunningApps></queue></allocations>";
    let csv = "j,0,a,u,1024,1,0,1,2048,1,20000,1,\nk,100,a,u,1024,1,0,1,2048,1,20000,1,\n";
    for era in ["hadoop-2.7", "hadoop-3.3"] {
        let sc = scenario(era, "", xml, csv, 2000);
        let (rec, _) = run_recorded(&sc);
        assert_eq!(
            placed(&rec),
            vec![
                (0, 0, 0),
                (500, 1, 0),
                (2500, 1, 1),
                (3500, 1, 1),
                (23500, 1, 0),
                (24500, 1, 0)
            ],
            "{era}"
        );
        assert_eq!(finish(&rec, 1), Some(23500), "{era}");
        assert_eq!(finish(&rec, 0), Some(44500), "{era}");
    }
}

/// Updates every 1000 ms (0, 1000, 2000, …); j alone: a 1 GB AM and one 2 GB task of 20 s.
/// node0 is lost at 2100, between updates, with j's AM.
/// * Hadoop 3.3 offers a node only to apps with pending demand (the last update's demand
///   minus usage). The AM at 0 on node0 (the update at 0 saw j); the task, asked at 0, is
///   seen by the update at 1000 and placed at node0's beat at 1000. The loss at 2100 takes
///   both. The new attempt's demand is 0 until the update at 3000, so node1's beat at 2500
///   offers it nothing; its AM goes at 3500, its task (asked when the AM runs, seen at 4000)
///   at 4500, reported at node1's beat at 24500.
/// * Hadoop 2.7 offers every runnable app: the task goes at node1's beat at 500, the new AM
///   at 2500, the task at 3500; j finishes at 23500.
#[test]
fn a_new_attempt_has_no_demand_until_the_next_update() {
    let csv = "j,0,a,u,1024,1,0,1,2048,1,20000,1,\n";
    let xml = "<allocations><queue name=\"a\"/></allocations>";
    let cases = [
        (
            "hadoop-3.3",
            vec![(0, 0, 0), (1000, 0, 0), (3500, 1, 0), (4500, 1, 0)],
            24500,
        ),
        (
            "hadoop-2.7",
            vec![(0, 0, 0), (500, 1, 0), (2500, 1, 0), (3500, 1, 0)],
            23500,
        ),
    ];
    for (era, want, end) in cases {
        let sc = scenario(era, "update_interval_ms = 1000", xml, csv, 2100);
        let (rec, _) = run_recorded(&sc);
        assert_eq!(placed(&rec), want, "{era}");
        assert_eq!(finish(&rec, 0), Some(end), "{era}");
    }
}

/// A FIFO leaf orders apps by start time; the new attempt starts when it is added. j (0 ms)
/// has a 1 GB AM and one 2 GB task of 20 s; k (100 ms) no AM and eight 1 GB tasks that
/// outlast the run. Before the loss j comes first (start 0): its AM at 0 on node0, its task
/// at 500 on node1; then k at 1000 (node0) and 1500 (node1). node0 is lost at 2000 with j's
/// AM and k's first task; j's task on node1 is killed. The new attempt starts at 2000, after
/// k (100): node1's beats at 2500, 3500 and 4500 give k the three free gigabytes, and j's
/// new AM finds no room. Had the app kept its start time, its AM would have come first at
/// 2500 and its task at 3500. Both eras (3.3's update at 2000, after the loss, sees the new
/// AM's ask: it is offered, and loses on order alone).
#[test]
fn a_new_attempt_comes_after_the_apps_started_before_it_in_a_fifo_leaf() {
    let xml = "<allocations><queue name=\"a\"><schedulingPolicy>fifo</schedulingPolicy></queue></allocations>";
    let csv = "j,0,a,u,1024,1,0,1,2048,1,20000,1,\nk,100,a,u,0,0,0,8,1024,1,1000000,1,\n";
    for era in ["hadoop-2.7", "hadoop-3.3"] {
        let mut sc = scenario(era, "", xml, csv, 2000);
        sc.end_ms = Some(10_000);
        let (rec, _) = run_recorded(&sc);
        assert_eq!(
            placed(&rec),
            vec![
                (0, 0, 0),
                (500, 1, 0),
                (1000, 0, 1),
                (1500, 1, 1),
                (2500, 1, 1),
                (3500, 1, 1),
                (4500, 1, 1)
            ],
            "{era}"
        );
    }
}

/// The failed attempt's reservations are released when it leaves the scheduler, not at the
/// reserved node's next heartbeat. k (0 ms) has one 2 GB task that outlasts the run, placed
/// on node0 at 0; j (100 ms) a 1 GB AM, placed on node1 at 500, and one 4 GB task: node0's
/// free 2 GB cannot hold it, so j reserves node0 at 1000 (Hadoop 2.7 also reserves node1,
/// 3 GB free, at 1500; 3.3 lets an app reserve at most ⌈0.05 × 2⌉ = 1 node). node1
/// is lost at 2100 with j's AM: the reservations go at 2100 (without the release, node0's
/// would go at its beat at 3000). The new AM takes node0 at that beat (3.3: after the 2500
/// update saw its ask) and the new attempt's 4 GB task reserves node0 again at 4000.
#[test]
fn a_failed_attempts_reservation_is_released_when_it_leaves() {
    let xml = "<allocations><queue name=\"a\"/></allocations>";
    let csv = "k,0,a,u,0,0,0,1,2048,1,1000000,1,\nj,100,a,u,1024,1,0,1,4096,1,20000,1,\n";
    let before = [
        (0, 0, "allocated"),
        (500, 1, "allocated"),
        (1000, 0, "reserved"),
    ];
    let after = [(3000, 0, "allocated"), (4000, 0, "reserved")];
    let cases = [
        (
            "hadoop-2.7",
            vec![
                (1500, 1, "reserved"),
                (2100, 0, "unreserved"),
                (2100, 1, "unreserved"),
            ],
        ),
        ("hadoop-3.3", vec![(2100, 0, "unreserved")]),
    ];
    for (era, middle) in cases {
        let sc = scenario_losing(era, "", xml, csv, "node1", 2100);
        let (rec, _) = run_recorded(&sc);
        let got: Vec<(u64, u32, &str)> = rec
            .decisions
            .iter()
            .filter(|d| d.time.0 <= 4000)
            .map(|d| {
                let kind = match d.kind {
                    DecisionKind::Allocated(_) => "allocated",
                    DecisionKind::Reserved => "reserved",
                    DecisionKind::Unreserved => "unreserved",
                };
                (d.time.0, d.node, kind)
            })
            .collect();
        let want: Vec<(u64, u32, &str)> = before
            .iter()
            .chain(&middle)
            .chain(&after)
            .copied()
            .collect();
        assert_eq!(got, want, "{era}");
    }
}
