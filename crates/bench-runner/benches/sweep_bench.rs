//! Runs per second of the sweep machinery with 1 and 2 worker threads, on the fake runner with a fixed amount of
//! CPU work per run, and the speed-up. Also a correctness check: both thread counts give the same metrics.
//!
//! `cargo bench -p fairsim-bench-runner --bench sweep_bench` (set `FAIRSIM_BENCH_WORK` to change the random
//! draws per run, default 2,000,000).

use std::path::Path;
use std::time::{Duration, Instant};

use fairsim_bench_runner::sweep::exec::{Context, execute, table};
use fairsim_bench_runner::sweep::fake::FakeRunner;
use fairsim_bench_runner::sweep::plan::Plan;
use fairsim_bench_runner::sweep::resume::Journal;
use fairsim_bench_runner::sweep::spec::Spec;

fn main() {
    let work: u64 = std::env::var("FAIRSIM_BENCH_WORK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_000_000);
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::write(
        dir.path().join("scenario.toml"),
        "[queues.etl]\nweight = 1.0\nminshare = 0\n",
    )
    .unwrap();
    let sweep = "base = \"scenario.toml\"\nseeds = { count = 8 }\n\
                 [[axis]]\npath = \"queues.etl.weight\"\nvalues = [1.0, 2.0, 4.0, 8.0]\n\
                 [[axis]]\npath = \"queues.etl.minshare\"\nvalues = [0, 1024]\n";
    std::fs::write(dir.path().join("sweep.toml"), sweep).unwrap();
    let spec = Spec::load(&dir.path().join("sweep.toml")).expect("valid sweep");
    let plan = Plan::new(&spec);
    let runner = FakeRunner {
        work,
        sleep: Duration::ZERO,
        fail_run: None,
    };
    let pending: Vec<u64> = (0..plan.n_runs()).collect();

    let measure = |jobs: usize| {
        let (journal, _) = Journal::open(
            &dir.path().join(format!("journal-{jobs}.jsonl")),
            &plan.fingerprint,
            plan.n_runs(),
            false,
        )
        .expect("journal");
        let ctx = Context {
            plan: &plan,
            base: &spec.base,
            scenario_dir: Path::new("."),
            runner: &runner,
            journal: Some(&journal),
            detail: None,
        };
        let start = Instant::now();
        let records = execute(&ctx, &pending, Some(jobs), 0).expect("runs succeed");
        let secs = start.elapsed().as_secs_f64();
        (
            records.len() as f64 / secs,
            table(&plan, &records).expect("consistent").to_csv(),
        )
    };
    measure(2); // warm-up
    let (rate1, csv1) = measure(1);
    let (rate2, csv2) = measure(2);
    assert!(csv1 == csv2, "1 and 2 jobs gave different results");
    println!(
        "sweep_bench: {} runs of {work} random draws each, journaled and synced",
        plan.n_runs()
    );
    println!("  1 job : {rate1:8.1} runs/s");
    println!("  2 jobs: {rate2:8.1} runs/s");
    println!(
        "  speed-up: {:.2}x on {} CPUs",
        rate2 / rate1,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
}
