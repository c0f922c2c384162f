//! The bundled sls_queues.xml converted as Hadoop 3's fs2cs converts it, read back as a
//! capacity-scheduler.xml and run on the bundled workload.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::alloc::fs2cs::{Fs2csMode, convert};
use fairsim_sim::alloc::{parse_any_xml, parse_fair_scheduler_xml};
use fairsim_sim::capacity::Capacities;
use fairsim_sim::recorder::MemoryRecorder;
use std::path::Path;

fn scenarios() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios"))
}

/// sls_queues.xml's three queues (weights 0.25, 0.25, 0.5) and root.default (weight 1):
/// the integer total of the weights is 2, so the percentages are 12.5, 12.5, 25 and 50;
/// weight mode writes the weights. Either way the capacities come to the same shares.
#[test]
fn sls_queues_converts_in_both_modes_to_the_same_shares() {
    let text = std::fs::read_to_string(scenarios().join("sls_queues.xml")).unwrap();
    for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
        let fair = parse_fair_scheduler_xml(&text, "sls_queues.xml", era)
            .unwrap()
            .tree;
        for mode in [Fs2csMode::Percentage, Fs2csMode::Weight] {
            let out = convert(&fair, mode).unwrap();
            let read_in = if mode == Fs2csMode::Weight {
                Semantics::Hadoop33
            } else {
                era
            };
            let cs = parse_any_xml(&out.xml, "converted.xml", read_in)
                .unwrap_or_else(|e| panic!("{era} {mode:?}: {e}\n{}", out.xml))
                .tree;
            let caps = Capacities::at(&cs, Resource::new(160 * 1024, 160));
            let share = |name: &str| {
                let i = cs.queues.iter().position(|q| q.name == name).unwrap();
                caps.absolute[i]
            };
            for (q, expected) in [
                ("root.sls_queue_1", 0.125),
                ("root.sls_queue_2", 0.125),
                ("root.sls_queue_3", 0.25),
                ("root.default", 0.5),
            ] {
                assert!(
                    (share(q) - expected).abs() < 1e-6,
                    "{era} {mode:?} {q}: {}",
                    share(q)
                );
            }
            if mode == Fs2csMode::Percentage {
                assert!(out.xml.contains("<value>12.500</value>"), "{}", out.xml);
            } else {
                assert!(out.xml.contains("<value>0.25w</value>"), "{}", out.xml);
            }
            // minResources is what the converter does not convert.
            assert_eq!(out.notes.len(), 3, "{:?}", out.notes);
        }
    }
}

/// The bundled sls_queues scenario runs under its conversion: every app of the workload is
/// accepted (each leaf's derived maximum-applications, 10000 × its share, is far above its
/// 40 apps) and finishes.
#[test]
fn the_converted_sls_queues_runs_the_bundled_workload() {
    let path = scenarios().join("sls_queues.toml");
    let mut sc = fairsim_sim::scenario::load_scenario(&path).unwrap();
    let fair = sc.tree.clone();
    let out = convert(&fair, Fs2csMode::Percentage).unwrap();
    sc.tree = parse_any_xml(&out.xml, "converted.xml", sc.scheduler.semantics)
        .unwrap()
        .tree;
    let mut rec = MemoryRecorder::default();
    let summary = fairsim_sim::run(&sc, 1, 0, &mut rec).expect("runs");
    let metric = |m: &str| {
        summary
            .metrics
            .iter()
            .find(|(n, _)| n == m)
            .map(|(_, v)| *v)
            .unwrap()
    };
    assert_eq!(metric("apps_rejected"), 0.0);
    assert_eq!(metric("apps_unfinished"), 0.0);
    assert_eq!(metric("apps"), 120.0);
}
