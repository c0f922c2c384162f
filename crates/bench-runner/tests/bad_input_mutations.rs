//! Mutated inputs: a bundled scenario and a bundled allocation file, edited at random (bytes
//! replaced, inserted or deleted, the file truncated, a line deleted or repeated), must each
//! get exit code 0 (an input that is still valid) or 2 (bad input), never a panic, and within
//! a bounded time. Cases are drawn from a fixed seed, so a failure names a case that replays;
//! `FAIRSIM_BADINPUT_CASES` sets the number of mutants of each base (default 24).

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one command may take: a mutant is parsed and validated, never simulated, so
/// anything near this is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// SplitMix64: a small deterministic generator, enough to pick edits.
struct Draws(u64);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes an edit writes: structure of TOML and XML, digits, signs and extremes.
const INTERESTING: &[&str] = &[
    "0",
    "-1",
    "1e39",
    "nan",
    "inf",
    "-",
    ".",
    "\"",
    "=",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "/",
    "\n",
    "\r\n",
    "\u{feff}",
    "9999999999999999999",
    "2147483648",
    "-9223372036854775808",
    "0.0",
    "1.5",
    "\"\"",
    "</queue>",
    "<queue name=\"x\">",
    "mb",
    "vcores",
    "%",
    ",",
    "\0",
];

/// One random edit of `text`, described for the failure message.
fn mutate(text: &[u8], d: &mut Draws) -> (Vec<u8>, String) {
    let mut out = text.to_vec();
    let at = d.below(out.len() + 1);
    let what = match d.below(7) {
        0 => {
            out.truncate(at);
            format!("truncated at byte {at}")
        }
        1 if at < out.len() => {
            out[at] = d.next() as u8;
            format!("byte {at} set to {:#04x}", out[at])
        }
        2 => {
            let s = INTERESTING[d.below(INTERESTING.len())];
            out.splice(at..at, s.bytes());
            format!("{s:?} inserted at byte {at}")
        }
        3 if at < out.len() => {
            let end = (at + 1 + d.below(8)).min(out.len());
            out.drain(at..end);
            format!("bytes {at}..{end} deleted")
        }
        4 | 5 => {
            let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
            let i = d.below(lines.len());
            let mut v = Vec::new();
            for (j, l) in lines.iter().enumerate() {
                if j != i {
                    v.extend_from_slice(l);
                } else if d.below(2) == 0 {
                    // Repeated: a key or element given twice.
                    v.extend_from_slice(l);
                    v.extend_from_slice(l);
                }
            }
            out = v;
            format!("line {} deleted or repeated", i + 1)
        }
        _ => {
            // A number replaced by an interesting one.
            let digits: Vec<usize> = (0..out.len())
                .filter(|&i| out[i].is_ascii_digit())
                .collect();
            if digits.is_empty() {
                return (out, "unchanged".into());
            }
            let start = digits[d.below(digits.len())];
            let end = (start..out.len())
                .find(|&i| !(out[i].is_ascii_digit() || out[i] == b'.'))
                .unwrap_or(out.len());
            let s = INTERESTING[d.below(INTERESTING.len())];
            out.splice(start..end, s.bytes());
            format!("number at byte {start} replaced by {s:?}")
        }
    };
    (out, what)
}

/// Runs `fairsim args` in `dir`: its exit code (0 or 2), or what went wrong.
fn run_bounded(dir: &Path, args: &[&str]) -> Result<i32, String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(args)
        .current_dir(dir)
        .env("CI", "true")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    // Stderr is read on its own thread so a long message cannot block the child.
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {TIME_LIMIT:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = reader.join().unwrap_or_default();
    match status.code() {
        Some(code @ (0 | 2)) if !err.contains("panicked") => {
            // Nothing half-written: a refused run leaves no output directory.
            if code == 2 && dir.join("out").exists() {
                return Err(format!("exit 2 left `out` behind: {}", err.trim()));
            }
            Ok(code)
        }
        code => Err(format!("exit {code:?}: {}", err.trim())),
    }
}

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
        match run_bounded(dir.path(), args) {
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
