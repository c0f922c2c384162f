//! End-to-end sweep tests on the fake runner: determinism across thread counts, shards and merge, resume after
//! SIGKILL, and errors for bad sweep files.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::fixture::command as fairsim;
use fairsim_bench_runner::sweep::fake::FakeRunner;
use fairsim_bench_runner::sweep::{Shard, Spec, merge::merge, sweep_into};

const SCENARIO: &str = r#"
[cluster]
nodes = 10
racks = [{ nodes = 5 }, { nodes = 5 }]

[scheduler]
sizebasedweight = false

[queues.etl]
weight = 1.0
minshare = 1024

[queues.adhoc]
weight = 1.0
minshare = 0
"#;

const SWEEP: &str = r#"
name = "etl"
base = "scenario.toml"
seeds = { count = 4, base = 1 }
metric = "jain"

[[axis]]
path = "queues.etl.weight"
values = [1, 2.5, 4.0]

[[axis]]
path = "queues.etl.minshare"
range = { from = 0, to = 2048, step = 1024 }

[[axis]]
path = "cluster.racks[1].nodes"
values = [5, 7]
"#;

/// Writes the scenario and a sweep file into a fresh directory; returns it and the sweep file's path.
fn fixture(sweep: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("scenario.toml"), SCENARIO).unwrap();
    let file = dir.path().join("sweep.toml");
    std::fs::write(&file, sweep).unwrap();
    (dir, file)
}

fn runner(sleep_ms: u64) -> FakeRunner {
    FakeRunner {
        work: 1000,
        sleep: Duration::from_millis(sleep_ms),
        fail_run: None,
    }
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()))
}

/// Asserts that two sweep directories hold byte-identical `runs.csv` and `summary.csv`.
fn assert_same_results(a: &Path, b: &Path) {
    for name in ["runs.csv", "summary.csv"] {
        let (x, y) = (read(a, name), read(b, name));
        assert!(
            x == y,
            "{name} differs:\n{}\n---\n{}",
            String::from_utf8_lossy(&x),
            String::from_utf8_lossy(&y)
        );
    }
}

#[test]
fn one_and_two_jobs_write_identical_files() {
    let (dir, file) = fixture(SWEEP);
    let spec = Spec::load(&file).unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    sweep_into(&spec, &runner(1), &one, Some(1), None, false).unwrap();
    sweep_into(&spec, &runner(1), &two, Some(2), None, false).unwrap();
    assert_same_results(&one, &two);
    let runs = String::from_utf8(read(&one, "runs.csv")).unwrap();
    let lines: Vec<&str> = runs.lines().collect();
    assert_eq!(lines.len(), 1 + 3 * 3 * 2 * 4);
    assert_eq!(
        lines[0],
        "run_index,queues.etl.weight,queues.etl.minshare,cluster.racks[1].nodes,seed,jain,wait_p95_s,checksum"
    );
    assert!(lines[1].starts_with("0,1,0,5,1,"), "{}", lines[1]);
    assert!(lines[72].starts_with("71,4,2048,7,4,"), "{}", lines[72]);
    let summary = String::from_utf8(read(&one, "summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 18);
    assert!(summary.lines().nth(1).unwrap().starts_with("1,0,5,4,"));
    assert!(
        !one.join("journal.jsonl").exists(),
        "the journal is removed after a complete sweep"
    );
}

#[test]
fn merged_shards_equal_the_unsharded_sweep() {
    let (dir, file) = fixture(SWEEP);
    let spec = Spec::load(&file).unwrap();
    let whole = dir.path().join("whole");
    sweep_into(&spec, &runner(0), &whole, Some(2), None, false).unwrap();

    // Shards in separate directories (one per batch task), merged into a new one.
    let shard_dirs: Vec<PathBuf> = (0..3)
        .map(|k| dir.path().join(format!("shard{k}")))
        .collect();
    for (k, d) in shard_dirs.iter().enumerate() {
        sweep_into(
            &spec,
            &runner(0),
            d,
            Some(1),
            Some(Shard::new(k as u64, 3).unwrap()),
            false,
        )
        .unwrap();
        assert!(d.join(format!("runs.shard-{k}-of-3.csv")).exists());
        assert!(!d.join("runs.csv").exists());
    }
    let merged = dir.path().join("merged");
    assert_eq!(merge(&shard_dirs, &merged).unwrap(), 72);
    assert_same_results(&whole, &merged);
    assert!(
        merged.join("run-0/queues.csv").exists(),
        "the charted run's detail travels with the merge"
    );

    // Shards sharing one directory, merged in place.
    let shared = dir.path().join("shared");
    for k in 0..5 {
        sweep_into(
            &spec,
            &runner(0),
            &shared,
            Some(2),
            Some(Shard::new(k, 5).unwrap()),
            false,
        )
        .unwrap();
    }
    merge(std::slice::from_ref(&shared), &shared).unwrap();
    assert_same_results(&whole, &shared);

    // A missing shard is an error, not a short runs.csv.
    std::fs::remove_file(shard_dirs[1].join("runs.shard-1-of-3.csv")).unwrap();
    let err = merge(&shard_dirs, &dir.path().join("partial")).unwrap_err();
    assert!(err.to_string().contains("missing shards 1 of 3"), "{err}");
}

#[test]
fn a_failed_run_names_its_index_seed_and_point() {
    let (dir, file) = fixture(SWEEP);
    let spec = Spec::load(&file).unwrap();
    let failing = FakeRunner {
        fail_run: Some(5),
        ..runner(0)
    };
    let err = sweep_into(
        &spec,
        &failing,
        &dir.path().join("out"),
        Some(2),
        None,
        false,
    )
    .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with(
            "run 5 (seed 2, queues.etl.weight=1, queues.etl.minshare=0, cluster.racks[1].nodes=7)"
        ),
        "{msg}"
    );
}

fn journal_runs(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn a_sweep_killed_midway_resumes_to_the_same_files() {
    let (dir, file) = fixture(SWEEP);
    let reference = dir.path().join("reference");
    let status = fairsim()
        .args([
            "--fake-runner",
            "--fake-work",
            "1000",
            "sweep",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(&reference)
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());

    let out = dir.path().join("killed");
    // The sweep writes beside --out until it ends: its journal is in the staging directory.
    let staging = dir.path().join(".killed.partial");
    let journal = staging.join("journal.jsonl");
    let mut child = fairsim()
        .args([
            "--fake-runner",
            "--fake-work",
            "1000",
            "--fake-sleep-ms",
            "40",
            "sweep",
            "--jobs",
            "2",
            "--out",
        ])
        .arg(&out)
        .arg(&file)
        .spawn()
        .unwrap();
    let start = Instant::now();
    while journal_runs(&journal) < 10 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the slow sweep never got going"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let finished = journal_runs(&journal);
    assert!(
        (10..72).contains(&finished),
        "{finished} runs finished before the kill"
    );
    // Nothing half-written: --out does not exist until the sweep completes.
    assert!(!out.exists(), "a killed sweep left a partial --out");

    let resumed = fairsim()
        .args([
            "--fake-runner",
            "--fake-work",
            "1000",
            "sweep",
            "--jobs",
            "2",
            "--resume",
            "--out",
        ])
        .arg(&out)
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        stderr.contains(&format!(
            "{} resumed",
            journal_runs_at_least(finished, &stderr)
        )),
        "{stderr}"
    );
    assert_same_results(&reference, &out);
    assert!(
        !staging.exists(),
        "the staging directory is gone once the sweep completes"
    );
}

/// The number of resumed runs the message reports, checked to be at least what the journal held when read.
fn journal_runs_at_least(finished: usize, stderr: &str) -> usize {
    let n: usize = stderr
        .split(" resumed")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no resumed count in {stderr}"));
    assert!(
        n >= finished,
        "{n} resumed, but the journal held {finished}"
    );
    n
}

/// Loads a sweep whose file is `sweep` and returns the error message; checks the CLI exits with code 2.
fn spec_error(sweep: &str) -> String {
    let (_dir, file) = fixture(sweep);
    let err = Spec::load(&file).unwrap_err().to_string();
    let out = fairsim()
        .args(["--fake-runner", "sweep"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains(&err));
    err
}

/// Asserts that a bad sweep file's error names the file, the line and the key, and says what is wrong.
fn check_bad(sweep: &str, line: usize, key: &str, what: &str) {
    let err = spec_error(sweep);
    assert!(
        err.contains(&format!("sweep.toml:{line}: key `{key}`: ")),
        "{err}"
    );
    assert!(err.contains(what), "{err}");
}

#[test]
fn unknown_parameter_path_names_line_and_key() {
    let sweep =
        "base = \"scenario.toml\"\n\n[[axis]]\npath = \"queues.etl.wieght\"\nvalues = [1.0]\n";
    check_bad(sweep, 4, "queues.etl.wieght", "unknown parameter path");
    let sweep =
        "base = \"scenario.toml\"\n[[axis]]\npath = \"cluster.racks[9].nodes\"\nvalues = [1]\n";
    check_bad(sweep, 3, "cluster.racks[9].nodes", "unknown parameter path");
}

#[test]
fn empty_axis_names_line_and_key() {
    let sweep = "base = \"scenario.toml\"\n[[axis]]\npath = \"queues.etl.weight\"\nvalues = [1.0]\n\n[[axis]]\npath = \"queues.adhoc.minshare\"\nvalues = []\n";
    check_bad(sweep, 8, "queues.adhoc.minshare", "empty axis");
    let sweep = "base = \"scenario.toml\"\n[[axis]]\npath = \"queues.etl.minshare\"\nrange = { from = 10, to = 0, step = 1 }\n";
    check_bad(sweep, 4, "queues.etl.minshare", "empty axis");
}

#[test]
fn wrong_value_type_names_line_and_key() {
    let sweep = "base = \"scenario.toml\"\n[[axis]]\npath = \"queues.etl.minshare\"\nvalues = [\n  1024,\n  2.5,\n]\n";
    check_bad(
        sweep,
        6,
        "queues.etl.minshare",
        "wrong value type: 2.5 is a float but the base scenario's value 1024 is an integer",
    );
    let sweep = "base = \"scenario.toml\"\n[[axis]]\npath = \"scheduler.sizebasedweight\"\nvalues = [true, \"yes\"]\n";
    check_bad(sweep, 4, "scheduler.sizebasedweight", "is a string but");
}

#[test]
fn malformed_toml_names_the_line() {
    let err = spec_error(
        "base = \"scenario.toml\"\n[[axis]]\npath = \"queues.etl.weight\nvalues = [1.0]\n",
    );
    assert!(err.contains("sweep.toml:3: "), "{err}");
    let err = spec_error("base = \"scenario.toml\"\nsedes = [1]\n");
    assert!(
        err.contains("sweep.toml:2: ") && err.contains("unknown field `sedes`"),
        "{err}"
    );
}

#[test]
fn merge_of_shards_that_do_not_make_one_sweep_exits_2_naming_the_files() {
    let (dir, file) = fixture(SWEEP);
    let shard = |k: u32, out: &str, sweep: &Path| {
        let o = fairsim()
            .args(["--fake-runner", "sweep"])
            .arg(sweep)
            .args(["--jobs", "1", "--shard", &format!("{k}/2"), "--out"])
            .arg(dir.path().join(out))
            .env("CI", "true")
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    shard(0, "a", &file);
    let merge = |dirs: &[&str]| {
        let mut c = fairsim();
        c.arg("merge");
        for d in dirs {
            c.arg(dir.path().join(d));
        }
        let o = c.arg("--out").arg(dir.path().join("m")).output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // A missing shard: the file and the directory searched are named.
    let (code, err) = merge(&["a"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "missing shards 1 of 2 (runs.shard-1-of-2.csv) in {}",
            dir.path().join("a").display()
        )),
        "{err}"
    );
    assert!(!dir.path().join("m").exists(), "nothing half-written");
    // A shard of another sweep (one more seed).
    let other = dir.path().join("other.toml");
    std::fs::write(&other, SWEEP.replace("count = 4", "count = 5")).unwrap();
    shard(1, "b", &other);
    let (code, err) = merge(&["a", "b"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "{} is of a different sweep than {}",
            dir.path().join("b/sweep.json").display(),
            dir.path().join("a/sweep.json").display()
        )),
        "{err}"
    );
    // The right shard merges.
    shard(1, "c", &file);
    let (code, err) = merge(&["a", "c"]);
    assert_eq!(code, Some(0), "{err}");
}
