//! `fairsim plan`: the smallest value of one decision variable (node count, node size, a queue's min share,
//! max share or weight) that meets every service-level objective, for each workload growth step.
//!
//! `spec` reads the plan file, `variable` and `growth` turn a grid index into a scenario, `search` picks the grid
//! points to evaluate (bisection, or every point), `objective` judges a candidate over the seeds, `output` writes
//! `plan.csv`, `answer.json` and the answer sentence, `chart` draws each objective against the variable, `report`
//! makes `report.html`. Runs go
//! through the sweep's [`RunOne`] seam on a rayon pool, round by round; each round's points are fixed by what
//! earlier rounds found, never by the thread count, and every finished run is journaled like a sweep's, so a
//! plan's files are the same bytes for any `--jobs` and after `--resume`.

pub mod chart;
pub mod growth;
pub mod node_list;
pub mod objective;
pub mod output;
pub mod report;
pub mod search;
pub mod spec;
pub mod variable;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::CliError;
use crate::progress;
use crate::sweep::resume::Journal;
use crate::sweep::spec::SpecError;
use crate::sweep::{RunOne, RunRecord, SweepError};

use objective::{Observation, Verdict};
use search::{Mode, Outcome, Search};
use spec::PlanSpec;

/// `fairsim plan`: find the smallest value of a variable that meets every objective.
#[derive(Debug, Clone, clap::Args)]
pub struct PlanArgs {
    /// The plan file (TOML): a base scenario, a variable and its range, objectives, seeds; see docs/planning.md.
    pub plan_file: PathBuf,
    /// Worker threads, 1 to 1024 [default: one per CPU].
    #[arg(long, short = 'j', value_parser = crate::sweep::parse_jobs)]
    pub jobs: Option<usize>,
    /// Output directory [default: results/NAME/, NAME being the plan's name].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Reuse the runs an interrupted invocation with the same plan file and output directory already finished.
    #[arg(long)]
    pub resume: bool,
}

/// One candidate: a growth step and a grid index, judged over every seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Index into the plan's growth factors.
    pub growth_idx: usize,
    /// Index into the variable's grid.
    pub index: u64,
    /// Per objective, per seed: what the run says of the objective's metric.
    pub observations: Vec<Vec<Observation>>,
    /// Per objective: whether it held, and why not.
    pub verdicts: Vec<Verdict>,
    /// The seeds whose run stalled, in seed order.
    pub stalled_seeds: Vec<u64>,
    /// Runs that left apps unfinished (stalled ones included).
    pub unfinished_runs: usize,
    /// Whether every objective held.
    pub feasible: bool,
}

/// What made an answer the answer: the objective that came closest to failing among those that ruled out the
/// value below it, or the runs of that value (it stalled or left apps unfinished, while every objective's own
/// numbers held).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// Objective `i` of the plan.
    Objective(usize),
    /// The lower neighbour at this grid index failed through its runs alone.
    Runs(u64),
}

impl Candidate {
    /// The objective that keeps a candidate furthest from feasible: among those that failed, the smallest
    /// closeness (relative margin; an untrusted value counts as furthest), ties to the first.
    pub fn closest(&self, spec: &PlanSpec) -> usize {
        let failing: Vec<usize> = (0..self.verdicts.len())
            .filter(|&i| !self.verdicts[i].held)
            .collect();
        let pool = if failing.is_empty() {
            (0..self.verdicts.len()).collect()
        } else {
            failing
        };
        pool.into_iter()
            .min_by(|&a, &b| {
                let ca = spec.objectives[a].closeness(&self.verdicts[a]);
                let cb = spec.objectives[b].closeness(&self.verdicts[b]);
                ca.total_cmp(&cb).then(a.cmp(&b))
            })
            .expect("a plan has at least one objective")
    }

    /// The smallest closeness over the objectives (how close to feasible the candidate is).
    pub fn worst_margin(&self, spec: &PlanSpec) -> f64 {
        spec.objectives
            .iter()
            .zip(&self.verdicts)
            .map(|(o, v)| o.closeness(v))
            .fold(f64::INFINITY, f64::min)
    }
}

/// The objective binding at a feasible candidate `answer`, given the nearest evaluated candidate below it
/// (`None` at the bottom of the range).
///
/// Among the objectives that failed on their own numbers at the value below, the one with the smallest margin
/// relative to its bound at the answer: those are the objectives that ruled the value below out. An `equal`
/// objective that held everywhere never rules anything out, so it is never named for its zero margin alone.
/// When nothing below was evaluated, the inequality with the smallest relative margin (an `equal` objective
/// only when there is no inequality).
pub fn binding(spec: &PlanSpec, answer: &Candidate, below: Option<&Candidate>) -> Binding {
    let rel = |i: usize| spec.objectives[i].relative_margin(&answer.verdicts[i]);
    let smallest = |pool: Vec<usize>| {
        pool.into_iter()
            .min_by(|&a, &b| rel(a).total_cmp(&rel(b)).then(a.cmp(&b)))
    };
    let all: Vec<usize> = (0..spec.objectives.len()).collect();
    match below {
        Some(b) => {
            let deciding: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&i| b.verdicts[i].failed_alone)
                .collect();
            match smallest(deciding) {
                Some(i) => Binding::Objective(i),
                None => Binding::Runs(b.index),
            }
        }
        None => {
            let inequalities: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&i| spec.objectives[i].comparison != objective::Comparison::Equal)
                .collect();
            let pick = smallest(inequalities).or_else(|| smallest(all));
            Binding::Objective(pick.expect("a plan has at least one objective"))
        }
    }
}

/// The answer for one growth step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepResult {
    /// The arrival-rate multiplier.
    pub growth: f64,
    /// What the evaluated points say.
    pub outcome: Outcome,
    /// When nothing evaluated is feasible: the grid index closest to feasible (largest worst margin).
    pub best_seen: Option<u64>,
}

/// Everything a plan found.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanResult {
    /// Every candidate evaluated, by growth step then grid index.
    pub candidates: Vec<Candidate>,
    /// One answer per growth step, in the plan's order.
    pub steps: Vec<StepResult>,
    /// Runs the plan needed (candidates × seeds).
    pub runs: u64,
    /// Runs a full sweep of the same range would need.
    pub full_sweep_runs: u64,
}

impl PlanResult {
    /// The candidate at (growth step, grid index), if it was evaluated.
    pub fn candidate(&self, growth_idx: usize, index: u64) -> Option<&Candidate> {
        self.candidates
            .iter()
            .find(|c| c.growth_idx == growth_idx && c.index == index)
    }

    /// The binding objective (or runs) of growth step `g`'s answer, if it has one.
    pub fn binding(&self, spec: &PlanSpec, g: usize) -> Option<Binding> {
        let a = self.steps[g].outcome.answer?;
        let answer = self.candidate(g, a).expect("answers are evaluated");
        let below = self
            .candidates
            .iter()
            .filter(|c| c.growth_idx == g && c.index < a)
            .max_by_key(|c| c.index);
        Some(binding(spec, answer, below))
    }

    /// Every stalled run, as (growth step, grid index, seed), by growth step, value and seed.
    pub fn stalled_runs(&self) -> Vec<(usize, u64, u64)> {
        self.candidates
            .iter()
            .flat_map(|c| c.stalled_seeds.iter().map(|&s| (c.growth_idx, c.index, s)))
            .collect()
    }
}

/// Runs `fairsim plan` and returns the answer sentences for stdout.
pub fn run_plan(args: &PlanArgs, runner: &dyn RunOne) -> Result<String, CliError> {
    let spec = PlanSpec::load(&args.plan_file)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&spec.name));
    // Written beside --out and moved in whole at the end (crate::staging).
    let result = crate::staging::Staged::begin(&out, None, args.resume)?.run(|s| {
        let dir = s.dir();
        let result = plan_into(&spec, runner, dir, args.jobs, args.resume)?;
        output::write_all(&spec, &result, dir)?;
        report::plan_page(&spec, &result, dir)?
            .write(dir)
            .map_err(|source| SweepError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(result)
    })?;
    eprintln!(
        "{} candidates ({} runs; a full sweep of the range needs {}) written to {}",
        result.candidates.len(),
        result.runs,
        result.full_sweep_runs,
        out.display()
    );
    let stalled = output::stalled_points(&spec, &result);
    if let Some(line) = crate::sweep::stalls::stalled_line(&stalled) {
        eprintln!("{line}; a stalled run fails its candidate");
        if let (Some(&(g, i, seed)), Some((point, _))) =
            (result.stalled_runs().first(), stalled.first())
        {
            let words = stall_words(&spec, runner, g, i, seed);
            if let Some(why) = crate::sweep::stalls::why_lines(point, seed, &words) {
                eprintln!("{why}");
            }
        }
    }
    Ok(output::sentences(&spec, &result)
        .into_iter()
        .map(|s| s + "\n")
        .collect())
}

/// The run identifier of (growth step, grid index, seed slot): the journal's run index.
fn run_id(spec: &PlanSpec, g: usize, i: u64, k: usize) -> u64 {
    (g as u64 * spec.variable.grid.len() + i) * spec.seeds.len() as u64 + k as u64
}

/// Searches every growth step of `spec`, running candidates through `runner`; journals runs under `out`.
pub fn plan_into(
    spec: &PlanSpec,
    runner: &dyn RunOne,
    out: &Path,
    jobs: Option<usize>,
    resume: bool,
) -> Result<PlanResult, SweepError> {
    std::fs::create_dir_all(out).map_err(|source| SweepError::Io {
        path: out.to_path_buf(),
        source,
    })?;
    let len = spec.variable.grid.len();
    let n_seeds = spec.seeds.len();
    let n_growth = spec.growth.len();
    let full_sweep_runs = len * n_seeds as u64 * n_growth as u64;
    let (journal, done) = Journal::open(
        &out.join("journal.jsonl"),
        &spec.fingerprint,
        full_sweep_runs,
        resume,
    )?;
    let mut done: BTreeMap<u64, RunRecord> = done.into_iter().map(|r| (r.run_index, r)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .thread_name(|i| format!("fairsim-plan-{i}"))
        .build()
        .map_err(|e| SweepError::Inconsistent(format!("cannot start worker threads: {e}")))?;
    let per_step = match spec.mode {
        Mode::Full => len,
        Mode::Bisect => (3 + u64::from(64 - len.leading_zeros())).min(len),
    };
    let bar = progress::runs_bar(per_step * (n_seeds * n_growth) as u64, 0);
    let scenario_dir = spec.base_path.parent().unwrap_or(Path::new(""));

    let mut searches: Vec<Search> = (0..n_growth).map(|_| Search::new(len, spec.mode)).collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut runs_used = 0u64;
    let mut first_round = true;
    loop {
        let wanted: Vec<(usize, u64)> = searches
            .iter()
            .enumerate()
            .flat_map(|(g, s)| s.next().into_iter().map(move |i| (g, i)))
            .collect();
        if wanted.is_empty() {
            break;
        }
        let ids: Vec<u64> = wanted
            .iter()
            .flat_map(|&(g, i)| (0..n_seeds).map(move |k| (g, i, k)))
            .map(|(g, i, k)| run_id(spec, g, i, k))
            .collect();
        runs_used += ids.len() as u64;
        bar.inc(ids.iter().filter(|id| done.contains_key(id)).count() as u64);
        let pending: Vec<u64> = ids
            .iter()
            .copied()
            .filter(|id| !done.contains_key(id))
            .collect();
        let fresh = pool.install(|| {
            pending
                .par_iter()
                .map(|&id| {
                    let r = run_candidate(spec, runner, scenario_dir, id, &journal);
                    bar.inc(1);
                    r
                })
                .collect::<Result<Vec<_>, _>>()
        });
        let fresh = match fresh {
            Ok(f) => f,
            Err(e) => {
                bar.finish_and_clear();
                return Err(e);
            }
        };
        done.extend(fresh.into_iter().map(|r| (r.run_index, r)));
        for &(g, i) in &wanted {
            let records: Vec<&RunRecord> = (0..n_seeds)
                .map(|k| &done[&run_id(spec, g, i, k)])
                .collect();
            let c = judge(spec, g, i, &records);
            searches[g].record(i, c.feasible);
            candidates.push(c);
        }
        if first_round {
            check_metrics_reported(spec, &done)?;
            first_round = false;
        }
    }
    bar.finish_and_clear();
    journal.remove()?;
    candidates.sort_by_key(|c| (c.growth_idx, c.index));
    let steps = searches
        .iter()
        .enumerate()
        .map(|(g, s)| {
            let outcome = s.outcome();
            let best_seen = if outcome.answer.is_some() {
                None
            } else {
                candidates
                    .iter()
                    .filter(|c| c.growth_idx == g)
                    .max_by(|a, b| {
                        a.worst_margin(spec)
                            .total_cmp(&b.worst_margin(spec))
                            .then(b.index.cmp(&a.index))
                    })
                    .map(|c| c.index)
            };
            StepResult {
                growth: spec.growth[g],
                outcome,
                best_seen,
            }
        })
        .collect();
    Ok(PlanResult {
        candidates,
        steps,
        runs: runs_used,
        full_sweep_runs,
    })
}

/// Why the run of (growth step `g`, grid index `i`, `seed`) stalled, from the runner (which
/// runs it again: the same candidate and seed slot give the same run).
fn stall_words(spec: &PlanSpec, runner: &dyn RunOne, g: usize, i: u64, seed: u64) -> Vec<String> {
    let Some(k) = spec.seeds.iter().position(|&s| s == seed) else {
        return Vec::new();
    };
    let mut scenario = spec.variable.apply(&spec.base, i);
    growth::apply_growth(&mut scenario, spec.growth[g]);
    let scenario_dir = spec.base_path.parent().unwrap_or(Path::new(""));
    runner.stall_words(&scenario, scenario_dir, seed, k as u64)
}

/// Runs one (growth step, grid index, seed) and journals it.
///
/// Every candidate runs seed slot `k` with run index `k`, so the workload's random stream is the same for every
/// candidate of a seed (common random numbers): candidates differ by the variable, not by the workload drawn.
fn run_candidate(
    spec: &PlanSpec,
    runner: &dyn RunOne,
    scenario_dir: &Path,
    id: u64,
    journal: &Journal,
) -> Result<RunRecord, SweepError> {
    let n_seeds = spec.seeds.len() as u64;
    let len = spec.variable.grid.len();
    let k = id % n_seeds;
    let i = (id / n_seeds) % len;
    let g = (id / n_seeds / len) as usize;
    let mut scenario = spec.variable.apply(&spec.base, i);
    growth::apply_growth(&mut scenario, spec.growth[g]);
    let seed = spec.seeds[k as usize];
    let metrics = runner
        .run_one(&scenario, scenario_dir, seed, k)
        .map_err(|source| SweepError::Run {
            run_index: id,
            seed,
            point: format!(
                "{}={}, growth {}",
                spec.variable.column(),
                spec.variable.grid.cell(i),
                spec.growth[g]
            ),
            source,
        })?;
    let record = RunRecord {
        run_index: id,
        seed,
        metrics,
    };
    journal.append(&record)?;
    Ok(record)
}

/// Judges one candidate from its seeds' runs.
///
/// A runner that does not report `stalled` or `apps_unfinished` (a stand-in runner of tests) is taken to model
/// neither: its runs neither stall nor leave apps unfinished.
fn judge(spec: &PlanSpec, g: usize, i: u64, records: &[&RunRecord]) -> Candidate {
    let get = |r: &RunRecord, name: &str| r.metrics.iter().find(|m| m.0 == name).map(|m| m.1);
    let stalled: Vec<bool> = records
        .iter()
        .map(|r| get(r, "stalled") == Some(1.0))
        .collect();
    let unfinished: Vec<bool> = records
        .iter()
        .map(|r| get(r, "apps_unfinished").is_some_and(|n| n > 0.0))
        .collect();
    let mut observations = Vec::with_capacity(spec.objectives.len());
    let mut verdicts = Vec::with_capacity(spec.objectives.len());
    for o in &spec.objectives {
        let column = o.column();
        let flag = o.censored_column();
        let obs: Vec<Observation> = records
            .iter()
            .enumerate()
            .map(|(k, r)| Observation {
                value: get(r, &column),
                lower_bound: get(r, &flag) == Some(1.0),
                stalled: stalled[k],
                unfinished: unfinished[k],
            })
            .collect();
        verdicts.push(o.judge(&obs, spec.confidence, spec.require_finished));
        observations.push(obs);
    }
    Candidate {
        growth_idx: g,
        index: i,
        feasible: verdicts.iter().all(|v| v.held),
        observations,
        verdicts,
        stalled_seeds: records
            .iter()
            .zip(&stalled)
            .filter(|(_, s)| **s)
            .map(|(r, _)| r.seed)
            .collect(),
        unfinished_runs: unfinished.iter().filter(|u| **u).count(),
    }
}

/// An objective whose metric no run reports is a mistake in the plan file, not an infeasible candidate.
fn check_metrics_reported(
    spec: &PlanSpec,
    done: &BTreeMap<u64, RunRecord>,
) -> Result<(), SweepError> {
    for (o, line) in spec.objectives.iter().zip(&spec.objective_lines) {
        let column = o.column();
        let reported = done
            .values()
            .any(|r| r.metrics.iter().any(|m| m.0 == column));
        if !reported {
            let Some(first) = done.values().next() else {
                continue;
            };
            let mut names: Vec<&str> = first
                .metrics
                .iter()
                .map(|m| m.0.as_str())
                .filter(|n| o.queue.is_none() || n.ends_with(o.queue.as_deref().unwrap_or("")))
                .collect();
            names.truncate(40);
            return Err(SweepError::Spec(SpecError::Invalid {
                file: spec.file.display().to_string(),
                line: Some(*line),
                key: Some("objective.metric".into()),
                message: format!(
                    "no run reports `{column}`; the runs report: {}",
                    names.join(", ")
                ),
            }));
        }
    }
    Ok(())
}
