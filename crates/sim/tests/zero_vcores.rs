//! Nodes without vcores, where only memory is scheduled (docs/semantics.md, "Nodes without
//! vcores"). A NodeManager with `yarn.nodemanager.resource.cpu-vcores = 0` registers only
//! when the minimum allocation is 0 vcores, which the Fair Scheduler accepts and the Capacity
//! Scheduler refuses; asks of 0 vcores then stay 0 vcores, every fit is decided by memory, and
//! the policies divide by the cluster's 0 vcores with Java's float arithmetic (0 / 0 is NaN).

mod common;

use common::apps::{LONG_MS, app};
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::run;
use fairsim_sim::scenario::{Heartbeats, Ordering, Scenario, SchedulerConf, parse_scenario};
use std::path::Path;

const GB: i64 = 1024;
const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// `nodes` nodes of `mb` MB and no vcores, the minimum allocation 0 vcores.
fn scenario(semantics: Semantics, xml: &str, nodes: u32, mb: i64, apps: Vec<AppSpec>) -> Scenario {
    let tree = fair_tree(xml, semantics);
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            minimum_allocation_vcores: 0,
            ..SchedulerConf::default()
        },
        end_ms: Some(60_000),
        ..trace_scenario("zero-vcores", tree, nodes, Resource::new(mb, 0), apps)
    }
}

/// `(app, node, MB, vcores)` of every allocation, in order.
fn allocations(sc: &Scenario) -> Vec<(u32, u32, i64, i64)> {
    let mut rec = MemoryRecorder::default();
    run(sc, 1, 0, &mut rec).expect("runs");
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| (d.app, d.node, d.size.memory_mb, d.size.vcores))
        .collect()
}

/// The same allocations with naive ordering and every heartbeat processed.
fn allocations_checked(sc: &Scenario) -> Vec<(u32, u32, i64, i64)> {
    let got = allocations(sc);
    let mut naive = sc.clone();
    naive.scheduler.ordering = Ordering::Naive;
    naive.scheduler.heartbeats = Heartbeats::Every;
    assert_eq!(allocations(&naive), got, "naive ordering, every heartbeat");
    got
}

#[test]
fn memory_alone_fills_nodes_without_vcores() {
    // Two nodes of 4096 MB and 0 vcores; one app asks for ten 1024 MB / 0-vcore tasks.
    // Normalised with a minimum of 0 vcores the asks keep 0 vcores (max(0, 0) rounded up to
    // the 1-vcore step is 0), so each fits while memory lasts: 2 × 4096 / 1024 = 8 containers,
    // 4 on each node, all of 0 vcores; two tasks wait. First from a scenario file, as a user
    // writes it, then built directly and run with both orderings.
    for s in ERAS {
        let toml = format!(
            "end_ms = 60000\n[cluster]\nnodes = 2\nnode_memory_mb = 4096\nnode_vcores = 0\n\
             [scheduler]\nsemantics = \"{s}\"\nminimum_allocation_vcores = 0\n\
             [allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n"
        );
        let trace = "j,0,a,u,0,0,0,10,1024,0,1000000,1,\n";
        let sc = load(&toml, "fs.xml", "<allocations/>", trace).expect("loads");
        let from_file = allocations(&sc);
        let sc = scenario(
            s,
            "<allocations/>",
            2,
            4 * GB,
            vec![app(0, "a", "u", 10, GB, 0, LONG_MS)],
        );
        let got = allocations_checked(&sc);
        assert_eq!(from_file, got, "{s}");
        assert_eq!(got.len(), 8, "{s}: {got:?}");
        for node in 0..2 {
            assert_eq!(
                got.iter().filter(|g| g.1 == node).count(),
                4,
                "{s}: {got:?}"
            );
        }
        assert!(got.iter().all(|g| g.2 == GB && g.3 == 0), "{s}: {got:?}");
    }
}

#[test]
fn an_ask_with_vcores_never_fits_a_node_without_them() {
    // The same cluster; a 1-vcore ask at 0 ms is within the maximum allocation then (the
    // configured 4 vcores count for the first 10 s) and stays pending: it never fits, as
    // fitsIn compares vcores too. At 20 s the maximum in force is the largest node's,
    // 0 vcores, so a second 1-vcore ask rejects its app; a 0-vcore app arrives at 20 s too.
    // Hadoop 2.7's FSAppAttempt reserves a node for an ask that does not fit it, so the first
    // app reserves both nodes (at their first heartbeats) and holds them: the 0-vcore app
    // never runs. Hadoop 3.3 reserves only containers of at least twice the increment
    // allocation (2048 MB under the fair policy's memory-only calculator), so the 1024 MB ask
    // reserves nothing and the 0-vcore app runs.
    let want = [
        (Semantics::Hadoop27, vec![(0, 0), (0, 1)], vec![]),
        (Semantics::Hadoop33, vec![], vec![2]),
    ];
    for (s, reservations, placements) in want {
        let apps = vec![
            app(0, "a", "u", 1, GB, 1, LONG_MS),
            app(20_000, "a", "u", 1, GB, 1, LONG_MS),
            app(20_000, "b", "u", 1, GB, 0, LONG_MS),
        ];
        let sc = scenario(s, "<allocations/>", 2, 4 * GB, apps);
        let mut rec = MemoryRecorder::default();
        let sum = run(&sc, 1, 0, &mut rec).expect("runs");
        let of = |kind: fn(&DecisionKind) -> bool| -> Vec<(u32, u32)> {
            rec.decisions
                .iter()
                .filter(|d| kind(&d.kind))
                .map(|d| (d.app, d.node))
                .collect()
        };
        let placed: Vec<u32> = of(|k| matches!(k, DecisionKind::Allocated(_)))
            .iter()
            .map(|p| p.0)
            .collect();
        assert_eq!(of(|k| *k == DecisionKind::Reserved), reservations, "{s}");
        assert_eq!(placed, placements, "{s}");
        assert_eq!(sum.get("apps_rejected"), Some(1.0), "{s}");
        let why = rec.apps[1].rejected.as_deref().expect("app 1 rejected");
        assert!(why.contains("vcores"), "{s}: {why}");
    }
}

/// Two DRF queues; a has a min share of 2048 MB and 1 vcore.
const DRF: &str = r#"<allocations>
  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>
  <queue name="a"><minResources>2048 mb, 1 vcores</minResources></queue>
  <queue name="b"/>
</allocations>"#;

#[test]
fn drf_on_a_cluster_without_vcores_follows_java_float_arithmetic() {
    // One 8192 MB node without vcores; queues a (min share 2048 MB, 1 vcore) and b, DRF,
    // each with an app of eight 1024 MB / 0-vcore tasks (a's first). Usage vcores are 0 and
    // the cluster's are 0, so every vcore share is 0 / 0 = NaN.
    //
    // Hadoop 2.7 (`DominantResourceFairnessPolicy`, float): memory is dominant only when
    // its share is strictly larger than the vcore share, and x > NaN is false, so vcores are
    // dominant for both queues. a's usage / min share on vcores is 0 / 1 = 0 < 1: a is needy
    // for ever, b (0 / 0 = NaN, not < 1) never is, so a takes every container: 8 to a.
    //
    // Hadoop 3.3 (`DominantResourceFairnessComparator2`, double): vcores are dominant only
    // when their share is strictly larger, so memory is. a is needy while its memory is
    // below 2048 MB: a, a. Then neither is needy and the weighted memory shares decide
    // (the NaN vcore shares compare as a tie): b at 0 goes, b at 1024 against a at 2048 goes
    // again, then 2048 against 2048 ties (the NaN vcore shares too) and goes to root.a
    // (equal start times, then the name): a, b, a, b: a 4, b 4. Naive and incremental
    // ordering agree, as they must (the ordering keys read NaN as +inf, a tie here).
    let want = [
        (Semantics::Hadoop27, [0, 0, 0, 0, 0, 0, 0, 0]),
        (Semantics::Hadoop33, [0, 0, 1, 1, 0, 1, 0, 1]),
    ];
    for (s, order) in want {
        let apps = vec![
            app(0, "a", "u", 8, GB, 0, LONG_MS),
            app(0, "b", "u", 8, GB, 0, LONG_MS),
        ];
        let sc = scenario(s, DRF, 1, 8 * GB, apps);
        let got: Vec<u32> = allocations_checked(&sc).iter().map(|g| g.0).collect();
        assert_eq!(got, order, "{s}");
    }
}

/// Writes the scenario `toml`, its allocation file and the trace `rows` (`t.csv`) into a
/// temporary directory and loads the scenario.
fn load(toml: &str, alloc_name: &str, alloc: &str, rows: &str) -> Result<Scenario, String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    std::fs::write(d.join(alloc_name), alloc).expect("write");
    std::fs::write(
        d.join("t.csv"),
        format!(
            "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n{rows}"
        ),
    )
    .expect("write");
    let path = d.join("s.toml");
    parse_scenario(toml, Path::new(&path)).map_err(|e| e.to_string())
}

const CS_XML: &str = "<configuration>\n\
<property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>\n\
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>\n\
</configuration>\n";

#[test]
fn a_node_without_vcores_registers_only_under_a_minimum_of_zero_vcores() {
    let row = "j,0,a,u,0,0,0,1,1024,0,1000,1,\n";
    let toml = |alloc: &str, min: &str| {
        format!(
            "[cluster]\nnodes = 2\nnode_memory_mb = 4096\nnode_vcores = 0\n\
             [scheduler]\n{min}\n[allocation]\nfile = \"{alloc}\"\n[workload]\ncsv = \"t.csv\"\n"
        )
    };
    // The Fair Scheduler with a minimum of 0 vcores: the scenario loads.
    let sc = load(
        &toml("fs.xml", "minimum_allocation_vcores = 0"),
        "fs.xml",
        "<allocations/>",
        row,
    )
    .expect("loads");
    assert_eq!(sc.cluster.node_vcores, 0);
    // YARN's default minimum (1 vcore): the NodeManagers are told to shut down.
    let e = load(&toml("fs.xml", ""), "fs.xml", "<allocations/>", row).expect_err("refused");
    assert!(
        e.contains("s.toml:4: cluster.node_vcores: node node0 has 0 vcores, below scheduler.minimum_allocation_vcores = 1"),
        "{e}"
    );
    // A minimum of 0 MB: the Fair Scheduler accepts it, the Capacity Scheduler refuses it.
    let zero_mb = "minimum_allocation_mb = 0\nminimum_allocation_vcores = 0";
    load(&toml("fs.xml", zero_mb), "fs.xml", "<allocations/>", row).expect("loads");
    let e = load(&toml("cs.xml", zero_mb), "cs.xml", CS_XML, row).expect_err("refused");
    assert!(
        e.contains(
            "s.toml:6: scheduler.minimum_allocation_mb: 0 is refused by the Capacity Scheduler"
        ),
        "{e}"
    );
    // The Capacity Scheduler refuses a minimum of 0 vcores at start-up.
    let e = load(
        &toml("cs.xml", "minimum_allocation_vcores = 0"),
        "cs.xml",
        CS_XML,
        row,
    )
    .expect_err("refused");
    assert!(
        e.contains(
            "s.toml:6: scheduler.minimum_allocation_vcores: 0 is refused by the Capacity Scheduler"
        ),
        "{e}"
    );
}
