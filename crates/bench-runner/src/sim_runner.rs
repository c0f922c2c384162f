//! The simulator behind the sweep runner: one sweep point (a scenario as TOML) and one seed in,
//! the run's metrics (and, for the charted run, its files) out.

use crate::sweep::{PointError, RunError, RunOne};
use fairsim_sim::catalogue;
use fairsim_sim::scenario::ScenarioError;
use fairsim_sim::{Recorder, Scenario};
use std::path::Path;

/// Runs sweep points on `fairsim_sim::run`.
#[derive(Debug, Clone, Copy, Default)]
pub struct SimRunner;

fn scenario_of(value: &toml::Value, dir: &Path) -> Result<Scenario, RunError> {
    let text = toml::to_string(value)
        .map_err(|e| RunError::new(format!("cannot write the scenario: {e}")))?;
    // The path only anchors relative paths (allocation file, trace).
    let point = dir.join("sweep-point.toml");
    fairsim_sim::scenario::parse_scenario(&text, &point)
        .map_err(|e| RunError::new(point_error_message(&e, &point)))
}

/// The message of a scenario error of a generated scenario (a sweep point, a plan
/// candidate) parsed as `point_path`. An error about the generated text names its key alone:
/// its line would be one of the text written from the point, not of any file the user
/// wrote, and the caller names the sweep or plan file's line. Errors of the files the point
/// reads (allocation file, trace, yarn-site.xml) keep their file and line.
pub fn point_error_message(e: &ScenarioError, point_path: &Path) -> String {
    match e {
        ScenarioError::Invalid {
            path, key, message, ..
        } if path == point_path => format!("{key}: {message}"),
        ScenarioError::Toml { path, message, .. } if path == point_path => message.clone(),
        other => other.to_string(),
    }
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

    /// Runs it again (the same scenario, seed and index give the same run) for its
    /// diagnosis: only the first stalled run of a sweep or plan is asked.
    fn stall_words(
        &self,
        value: &toml::Value,
        dir: &Path,
        seed: u64,
        run_index: u64,
    ) -> Vec<String> {
        let Ok(scenario) = scenario_of(value, dir) else {
            return Vec::new();
        };
        fairsim_sim::run(&scenario, seed, run_index, &mut fairsim_sim::NullRecorder)
            .map(|s| s.stall_diagnosis.into_iter().map(|g| g.words).collect())
            .unwrap_or_default()
    }

    fn run_detailed(
        &self,
        value: &toml::Value,
        dir: &Path,
        seed: u64,
        run_index: u64,
        detail_dir: &Path,
    ) -> Result<Vec<(String, f64)>, RunError> {
        let scenario = scenario_of(value, dir)?;
        // The charted run writes the files `fairsim run` writes (one schema for both) straight
        // into run-R/, streamed as the run goes: none of them is held in memory, and none
        // reaches its name unless the run succeeds.
        let mut rec = fairsim_sim::FileRecorder::new(detail_dir);
        run(&scenario, seed, run_index, &mut rec)
    }
}
