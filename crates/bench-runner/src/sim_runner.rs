//! The simulator behind the sweep runner: one sweep point (a scenario as TOML) and one seed in,
//! the run's metrics (and, for the charted run, its queue samples and apps) out.

use crate::sweep::{AppRecord, PointError, QueueSample, RunDetail, RunError, RunOne, RunOutput};
use fairsim_sim::catalogue;
use fairsim_sim::{MemoryRecorder, Recorder, Scenario};
use std::path::Path;

/// Runs sweep points on `fairsim_sim::run`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SimRunner;

fn scenario_of(value: &toml::Value, dir: &Path) -> Result<Scenario, RunError> {
    let text = toml::to_string(value)
        .map_err(|e| RunError::new(format!("cannot write the scenario: {e}")))?;
    // The path only anchors relative paths (allocation file, trace) and names the point.
    fairsim_sim::scenario::parse_scenario(&text, &dir.join("sweep-point.toml"))
        .map_err(|e| RunError::new(e.to_string()))
}

fn run(
    scenario: &Scenario,
    seed: u64,
    run_index: u64,
    rec: &mut dyn Recorder,
) -> Result<Vec<(String, f64)>, RunError> {
    let summary = fairsim_sim::run(scenario, seed, run_index, rec)
        .map_err(|e| RunError::new(e.to_string()))?;
    Ok(summary.metrics.clone())
}

/// Whether a run of `scenario` reports `name`: a catalogued metric, and for a per-queue
/// metric a leaf queue of the scenario's tree.
fn check_metric(scenario: &Scenario, name: &str) -> Result<(), String> {
    let Some(r) = catalogue::lookup(name) else {
        return Err("not a metric of the catalogue (see docs/outputs.md)".to_string());
    };
    match r.queue {
        Some(q)
            if !scenario
                .tree
                .queues
                .iter()
                .any(|c| c.is_leaf && c.name == q) =>
        {
            Err(format!("`{q}` is not a leaf queue of the scenario"))
        }
        _ => Ok(()),
    }
}

impl RunOne for SimRunner {
    fn check_point(
        &self,
        value: &toml::Value,
        dir: &Path,
        metrics: &[&str],
    ) -> Result<(), PointError> {
        let scenario = scenario_of(value, dir).map_err(|e| PointError::Scenario(e.message))?;
        // Building the simulation runs the checks a run makes before its first event.
        fairsim_sim::Simulation::new(&scenario, 0, 0, &mut fairsim_sim::NullRecorder)
            .map_err(|e| PointError::Scenario(e.to_string()))?;
        for (index, name) in metrics.iter().enumerate() {
            check_metric(&scenario, name)
                .map_err(|message| PointError::Metric { index, message })?;
        }
        Ok(())
    }

    fn run_one(
        &self,
        value: &toml::Value,
        dir: &Path,
        seed: u64,
        run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        let scenario = scenario_of(value, dir)?;
        run(&scenario, seed, run_index, &mut fairsim_sim::NullRecorder)
    }

    fn run_detailed(
        &self,
        value: &toml::Value,
        dir: &Path,
        seed: u64,
        run_index: u64,
    ) -> Result<RunOutput, RunError> {
        let scenario = scenario_of(value, dir)?;
        let mut rec = MemoryRecorder {
            sample: true,
            ..MemoryRecorder::default()
        };
        let metrics = run(&scenario, seed, run_index, &mut rec)?;
        let queues = rec
            .samples
            .iter()
            .flat_map(|(t, rows)| {
                rows.iter().map(move |r| QueueSample {
                    time_s: t.secs_f64(),
                    queue: r.queue.clone(),
                    usage_mb: r.usage.memory_mb as f64,
                    fair_share_mb: r.fair_share.memory_mb as f64,
                })
            })
            .collect();
        let apps = rec
            .apps
            .iter()
            .filter_map(|a| {
                Some(AppRecord {
                    app: a.name.clone(),
                    queue: a.queue.clone(),
                    wait_s: a.wait_ms()? as f64 / 1000.0,
                    completion_s: a.jct_ms()? as f64 / 1000.0,
                })
            })
            .collect();
        Ok(RunOutput {
            metrics,
            detail: Some(RunDetail { queues, apps }),
        })
    }
}
