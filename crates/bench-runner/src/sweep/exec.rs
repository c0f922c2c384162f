//! Running the runs: a rayon pool of `--jobs` threads over the pending run indices, one single-threaded run per
//! index, results joined in index order.

use std::path::Path;

use rayon::prelude::*;

use crate::progress;

use super::output::{RunRow, RunsTable, detail_dir};
use super::plan::Plan;
use super::resume::Journal;
use super::{RunOne, RunRecord, SweepError};

/// Everything a run needs besides its index.
pub struct Context<'a> {
    /// The sweep's plan.
    pub plan: &'a Plan,
    /// The base scenario.
    pub base: &'a toml::Value,
    /// Where the scenario's relative paths resolve.
    pub scenario_dir: &'a Path,
    /// The runner.
    pub runner: &'a dyn RunOne,
    /// Where finished runs are journaled, if anywhere.
    pub journal: Option<&'a Journal>,
    /// The run kept in detail and the output directory its detail files go under.
    pub detail: Option<(u64, &'a Path)>,
}

impl Context<'_> {
    /// Runs one run: builds its scenario, calls the runner, writes its detail and journals it.
    pub fn run(&self, run_index: u64) -> Result<RunRecord, SweepError> {
        let scenario = self.plan.scenario(self.base, run_index);
        let seed = self.plan.seed(run_index);
        let wrap = |source| SweepError::Run {
            run_index,
            seed,
            point: self.point(run_index),
            source,
        };
        let metrics = match self.detail {
            Some((detailed, out)) if detailed == run_index => self
                .runner
                .run_detailed(
                    &scenario,
                    self.scenario_dir,
                    seed,
                    run_index,
                    &detail_dir(out, run_index),
                )
                .map_err(wrap)?,
            _ => self
                .runner
                .run_one(&scenario, self.scenario_dir, seed, run_index)
                .map_err(wrap)?,
        };
        let record = RunRecord {
            run_index,
            seed,
            metrics,
        };
        if let Some(journal) = self.journal {
            journal.append(&record)?;
        }
        Ok(record)
    }

    fn point(&self, run_index: u64) -> String {
        let cells = self.plan.value_cells(run_index);
        let parts: Vec<String> = self
            .plan
            .axes
            .iter()
            .zip(cells)
            .map(|(a, v)| format!("{}={v}", a.path))
            .collect();
        if parts.is_empty() {
            "no axes".to_string()
        } else {
            parts.join(", ")
        }
    }
}

/// Runs `pending` on a pool of `jobs` threads (default: one per CPU) and returns the records in the order of
/// `pending`. `already_done` only positions the progress bar. Stops at the first failed run.
pub fn execute(
    ctx: &Context<'_>,
    pending: &[u64],
    jobs: Option<usize>,
    already_done: u64,
) -> Result<Vec<RunRecord>, SweepError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .thread_name(|i| format!("fairsim-run-{i}"))
        .build()
        .map_err(|e| SweepError::Inconsistent(format!("cannot start worker threads: {e}")))?;
    let bar = progress::runs_bar(already_done + pending.len() as u64, already_done);
    let result = pool.install(|| {
        pending
            .par_iter()
            .map(|&i| {
                let r = ctx.run(i);
                bar.inc(1);
                r
            })
            .collect::<Result<Vec<_>, _>>()
    });
    bar.finish_and_clear();
    result
}

/// Builds the runs table from records sorted by run index; every run must report the same metrics.
pub fn table(plan: &Plan, records: &[RunRecord]) -> Result<RunsTable, SweepError> {
    let metrics: Vec<String> = records
        .first()
        .map(|r| r.metrics.iter().map(|m| m.0.clone()).collect())
        .unwrap_or_default();
    let mut rows = Vec::with_capacity(records.len());
    for r in records {
        if r.metrics.len() != metrics.len()
            || r.metrics.iter().zip(&metrics).any(|(a, b)| a.0 != *b)
        {
            let names: Vec<&str> = r.metrics.iter().map(|m| m.0.as_str()).collect();
            return Err(SweepError::Inconsistent(format!(
                "run {} reported metrics [{}] but run {} reported [{}]",
                r.run_index,
                names.join(", "),
                records[0].run_index,
                metrics.join(", ")
            )));
        }
        rows.push(RunRow {
            run_index: r.run_index,
            axis_values: plan.value_cells(r.run_index),
            seed: r.seed,
            metrics: r.metrics.iter().map(|m| m.1).collect(),
        });
    }
    Ok(RunsTable {
        axes: plan.axes.iter().map(|a| a.path.clone()).collect(),
        metrics,
        rows,
    })
}
