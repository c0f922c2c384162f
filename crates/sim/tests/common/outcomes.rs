//! What a run did: its allocations in order and the summary's metrics.

use fairsim_sim::recorder::{Decision, DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::Scenario;
use fairsim_sim::{RunSummary, run};

/// Runs `sc` with seed 1 as run 0, recording every decision.
pub fn run_recorded(sc: &Scenario) -> (MemoryRecorder, RunSummary) {
    let mut rec = MemoryRecorder::default();
    let summary = run(sc, 1, 0, &mut rec).expect("runs");
    (rec, summary)
}

/// [`run_recorded`], keeping the `queues.csv` samples too.
pub fn run_sampled(sc: &Scenario) -> (MemoryRecorder, RunSummary) {
    let mut rec = MemoryRecorder {
        sample: true,
        ..MemoryRecorder::default()
    };
    let summary = run(sc, 1, 0, &mut rec).expect("runs");
    (rec, summary)
}

/// Every allocation of a run, in the order made (reservations and releases left out).
pub fn allocated(rec: &MemoryRecorder) -> impl Iterator<Item = &Decision> {
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
}

/// `(time, app)` of every allocation, in the order made.
pub fn allocations(rec: &MemoryRecorder) -> Vec<(u64, u32)> {
    allocated(rec).map(|d| (d.time.0, d.app)).collect()
}

/// `(time, app)` of every allocation of a run of `sc` (see [`run_recorded`]).
pub fn run_allocations(sc: &Scenario) -> Vec<(u64, u32)> {
    allocations(&run_recorded(sc).0)
}

/// Times at which app `app` got its containers.
pub fn allocation_times(rec: &MemoryRecorder, app: u32) -> Vec<u64> {
    allocated(rec)
        .filter(|d| d.app == app)
        .map(|d| d.time.0)
        .collect()
}

/// Time of each of the first `n_apps` apps' first container (its AM for a managed app),
/// `None` for an app that never ran.
pub fn first_allocations(rec: &MemoryRecorder, n_apps: usize) -> Vec<Option<u64>> {
    let mut first = vec![None; n_apps];
    for (time, app) in allocations(rec) {
        if let Some(slot) = first.get_mut(app as usize) {
            slot.get_or_insert(time);
        }
    }
    first
}

/// The summary's metric `name`; a test that names a missing metric fails.
pub fn metric(summary: &RunSummary, name: &str) -> f64 {
    summary
        .metrics
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
        .1
}

/// `(time, node, app)` of every allocation, in the order made.
pub fn placed(rec: &MemoryRecorder) -> Vec<(u64, u32, u32)> {
    allocated(rec).map(|d| (d.time.0, d.node, d.app)).collect()
}

/// `(time, node)` of every allocation, in the order made.
pub fn nodes_allocated(rec: &MemoryRecorder) -> Vec<(u64, u32)> {
    allocated(rec).map(|d| (d.time.0, d.node)).collect()
}

/// `(time, node)` of app `app`'s allocations, in the order made.
pub fn nodes_allocated_to(rec: &MemoryRecorder, app: u32) -> Vec<(u64, u32)> {
    allocated(rec)
        .filter(|d| d.app == app)
        .map(|d| (d.time.0, d.node))
        .collect()
}

/// How many containers each of the first `n_apps` apps was allocated.
pub fn containers_per_app(rec: &MemoryRecorder, n_apps: usize) -> Vec<usize> {
    let mut per_app = vec![0; n_apps];
    for d in allocated(rec) {
        per_app[d.app as usize] += 1;
    }
    per_app
}

/// A decision in short: (time, node, app, MB, kind).
pub type Short = (u64, u32, u32, i64, &'static str);

/// Decision `d` in short.
pub fn short(d: &Decision) -> Short {
    let kind = match d.kind {
        DecisionKind::Allocated(_) => "allocated",
        DecisionKind::Reserved => "reserved",
        DecisionKind::Unreserved => "unreserved",
    };
    (d.time.0, d.node, d.app, d.size.memory_mb, kind)
}

/// Every decision of a run of `sc`, in short.
pub fn short_decisions(sc: &Scenario) -> Vec<Short> {
    let (rec, _) = run_recorded(sc);
    rec.decisions.iter().map(short).collect()
}
