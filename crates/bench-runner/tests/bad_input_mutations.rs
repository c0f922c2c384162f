//! Mutated inputs: a bundled scenario and a bundled allocation file, edited at random (bytes
//! replaced, inserted or deleted, the file truncated, a line deleted or repeated), must each
//! get exit code 0 (an input that is still valid) or 2 (bad input), never a panic, and within
//! a bounded time. Cases are drawn from a fixed seed, so a failure names a case that replays;
//! `FAIRSIM_BADINPUT_CASES` sets the number of mutants of each base (default 24).

mod common;

use common::mutate::{Draws, mutate, run_bounded};
use std::path::Path;
use std::time::Duration;

/// How long one command may take: a mutant is parsed and validated, never simulated, so
/// anything near this is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(60);

fn cases() -> usize {
    std::env::var("FAIRSIM_BADINPUT_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

/// Mutates `text` (written as `name` next to the bundled inputs) `cases` times and runs
/// `args` on each mutant; both outcomes must occur, or the mutations test nothing.
fn check_mutants(name: &str, text: &[u8], args: &[&str], seed: u64, cases: usize) {
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let dir = tempfile::tempdir().unwrap();
    for f in ["sls_queues.xml", "sls_queues.toml"] {
        std::fs::copy(scenarios.join(f), dir.path().join(f)).unwrap();
    }
    let mut d = Draws(seed);
    let mut failures = Vec::new();
    let mut codes = [0usize; 3];
    for case in 0..cases {
        let (mutant, what) = mutate(text, &mut d);
        std::fs::write(dir.path().join(name), &mutant).unwrap();
        match run_bounded(dir.path(), args, TIME_LIMIT) {
            Ok(code) => codes[code as usize] += 1,
            Err(e) => failures.push(format!(
                "case {case} ({what}): {e}\n    input: {}",
                String::from_utf8_lossy(&mutant).escape_debug()
            )),
        }
        let _ = std::fs::remove_dir_all(dir.path().join("out"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        codes[0] > 0 && codes[2] > 0,
        "{} mutants accepted, {} refused: the mutations should give both",
        codes[0],
        codes[2]
    );
}

fn bundled(name: &str) -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(name),
    )
    .unwrap()
}

#[test]
fn a_mutated_scenario_is_valid_or_refused_never_a_crash() {
    check_mutants(
        "m.toml",
        &bundled("sls_queues.toml"),
        &["validate", "m.toml"],
        0x5ce7_a210,
        cases(),
    );
}

#[test]
fn a_mutated_allocation_file_is_valid_or_refused_never_a_crash() {
    // Read as a scenario's allocation file, so the workload's placement runs on it too.
    check_mutants(
        "sls_queues.xml",
        &bundled("sls_queues.xml"),
        &["validate", "sls_queues.toml"],
        0xa110_c8ed,
        cases(),
    );
}

/// A small scenario on the bundled allocation file, mutated and run to its end: the engine
/// meets what the parsers let through, and a refused run must leave no `out` behind.
const SMALL_RUN: &str = r#"name = "m"
end_ms = 600000
[cluster]
nodes = 3
racks = 1
node_memory_mb = 8192
node_vcores = 8
[scheduler]
heartbeat_ms = 1000
update_interval_ms = 500
[allocation]
file = "sls_queues.xml"
[[workload.synthetic.queues]]
queue = "sls_queue_1"
apps = 3
mean_interarrival_ms = 2000
tasks = { dist = "constant", value = 3 }
duration_ms = { dist = "constant", value = 5000 }
container_mb = 2048
[[workload.synthetic.queues]]
queue = "sls_queue_3"
apps = 2
mean_interarrival_ms = 3000
tasks = { dist = "lognormal", median = 2, sigma = 1.0, max = 8 }
duration_ms = { dist = "exponential", mean = 4000 }
[outputs]
sample_interval_ms = 5000
"#;

#[test]
fn a_mutated_small_run_ends_or_is_refused_never_a_crash() {
    check_mutants(
        "m.toml",
        SMALL_RUN.as_bytes(),
        &["run", "m.toml", "--out", "out"],
        0x0e4d_0f21,
        cases().div_ceil(2),
    );
}
