//! `fairsim trace`: a scenario's workload (trace, SYNTH or synthetic, for one seed) written as
//! the native CSV trace, to inspect, edit, or join with a run's apps.csv by `app`.

use fairsim_bench_runner::CliError;
use std::path::Path;

/// Writes the apps a run with `seed` submits to `out` (atomically).
pub fn write_trace(
    scenario: &fairsim_sim::Scenario,
    seed: u64,
    out: &Path,
) -> Result<String, CliError> {
    let apps = scenario.workload.apps(seed).map_err(CliError::Input)?;
    let text = fairsim_sim::workload::csv::write_csv_trace(&apps);
    fairsim_sim::recorder::write_atomic(out, text.as_bytes())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let tasks: u64 = apps.iter().map(|a| a.n_tasks()).sum();
    Ok(format!(
        "wrote {} ({} apps, {} tasks)\n",
        out.display(),
        apps.len(),
        tasks
    ))
}
