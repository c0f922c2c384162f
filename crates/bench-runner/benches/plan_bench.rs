//! How many candidates `fairsim plan`'s bisection evaluates against a full sweep of the same range: on the worked
//! example (`scenarios/plan-sls-cluster.toml`, the bundled SLS workload on the simulator) with wall-clock times,
//! and on threshold curves over ranges of 10 to 1,000,000 values. Also a correctness check: wherever the full sweep
//! finds feasibility monotone, bisection finds the same answer.
//!
//! `cargo bench -p fairsim-bench-runner --bench plan_bench`

use std::path::Path;
use std::time::Instant;

use fairsim_bench_runner::plan::plan_into;
use fairsim_bench_runner::plan::search::{Mode, Search};
use fairsim_bench_runner::plan::spec::PlanSpec;
use fairsim_bench_runner::sim_runner::SimRunner;

/// Evaluations a search of `len` values needs when the answer is index `answer`.
fn evaluations(len: u64, answer: u64, mode: Mode) -> (usize, Option<u64>) {
    let mut s = Search::new(len, mode);
    let mut n = 0;
    loop {
        let next = s.next();
        if next.is_empty() {
            return (n, s.outcome().answer);
        }
        for i in next {
            n += 1;
            s.record(i, i >= answer);
        }
    }
}

fn main() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/plan-sls-cluster.toml");
    let spec = PlanSpec::load(&file).expect("the worked example is valid");
    let full_spec = PlanSpec {
        mode: Mode::Full,
        ..spec.clone()
    };
    let dir = tempfile::tempdir().expect("temporary directory");
    let time = |s: &PlanSpec, name: &str| {
        let start = Instant::now();
        let r = plan_into(s, &SimRunner, &dir.path().join(name), None, false).expect("plan runs");
        (r, start.elapsed().as_secs_f64())
    };
    let (bisect, t_bisect) = time(&spec, "bisect");
    let (full, t_full) = time(&full_spec, "full");
    let len = spec.variable.grid.len();
    println!(
        "plan_bench: {} ({} values of {} x {} seeds x {} growth steps)",
        file.display(),
        len,
        spec.variable.column(),
        spec.seeds.len(),
        spec.growth.len()
    );
    for (g, (b, f)) in bisect.steps.iter().zip(&full.steps).enumerate() {
        let cell = |a: Option<u64>| a.map_or("none".into(), |a| spec.variable.grid.cell(a));
        let n_b = bisect
            .candidates
            .iter()
            .filter(|c| c.growth_idx == g)
            .count();
        println!(
            "  growth {:>4}: bisection {:>2} candidates, answer {:>4}; full sweep {} candidates, answer {:>4}{}",
            b.growth,
            n_b,
            cell(b.outcome.answer),
            len,
            cell(f.outcome.answer),
            if f.outcome.monotone {
                ""
            } else {
                " (not monotone)"
            }
        );
        if f.outcome.monotone {
            assert_eq!(b.outcome.answer, f.outcome.answer, "growth step {g}");
        }
    }
    println!(
        "  runs: bisection {} in {t_bisect:.2} s, full sweep {} in {t_full:.2} s: {:.1}x fewer runs, {:.1}x faster",
        bisect.runs,
        full.runs,
        full.runs as f64 / bisect.runs as f64,
        t_full / t_bisect
    );
    println!("  threshold curves (answer at a third of the range):");
    for len in [10u64, 100, 1_000, 32_769, 1_000_000] {
        let answer = len / 3;
        let (n_b, a_b) = evaluations(len, answer, Mode::Bisect);
        let (n_f, a_f) = if len <= 100_000 {
            evaluations(len, answer, Mode::Full)
        } else {
            (len as usize, Some(answer))
        };
        assert_eq!(a_b, a_f);
        println!(
            "    {len:>9} values: bisection {n_b:>2} candidates, full sweep {n_f:>9} ({:.0}x)",
            n_f as f64 / n_b as f64
        );
    }
}
