//! Whole-sweep validation before the first run (with the simulator): bad metrics, bad axis
//! values and oversized sweeps exit 2 with the sweep file's line and key, and write nothing.
//! Paired runs: sweep points with identical settings give identical per-seed results.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios")
        .canonicalize()
        .unwrap()
}

/// A sweep file in a fresh directory, its base the bundled seed004-abc scenario.
fn sweep_file(body: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sweep.toml");
    let base = scenarios().join("seed004-abc.toml");
    let text = format!("base = {:?}\n{body}", base.display().to_string());
    std::fs::write(&file, text).unwrap();
    (dir, file)
}

/// Runs `fairsim sweep` on `body`; asserts exit 2 and an empty output directory; returns stderr.
fn refused(body: &str) -> String {
    let (dir, file) = sweep_file(body);
    let out_dir = dir.path().join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(["sweep", "--jobs", "1", "--out"])
        .arg(&out_dir)
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!out_dir.exists(), "files written: {stderr}");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("sweep.toml")]);
    stderr
}

fn check(body: &str, line: usize, key: &str, what: &str) {
    let err = refused(body);
    assert!(
        err.contains(&format!("sweep.toml:{line}: key `{key}`: ")),
        "{err}"
    );
    assert!(err.contains(what), "{err}");
}

const AXES: &str = "seeds = { count = 3 }\n\
    [[axis]]\npath = \"queues.A.weight\"\nvalues = [0.2, 0.5]\n";

#[test]
fn a_metric_outside_the_catalogue_exits_2_before_any_run() {
    check(
        &format!("metric = \"jain\"\n{AXES}"),
        2,
        "metric",
        "metric `jain`: not a metric of the catalogue",
    );
    check(
        &format!("metric = \"wait_s_p95.root.Z\"\n{AXES}"),
        2,
        "metric",
        "`root.Z` is not a leaf queue",
    );
    check(
        &format!("{AXES}[charts]\nlines = {{ metrics = [\"jain_index\", \"wait_p95\"] }}\n"),
        7,
        "charts.lines.metrics",
        "metric `wait_p95`",
    );
}

#[test]
fn an_axis_value_that_breaks_the_scenario_exits_2_at_its_line() {
    check(
        "[[axis]]\npath = \"cluster.nodes\"\nvalues = [\n  4,\n  0,\n]\n",
        6,
        "cluster.nodes",
        "value 0 makes the scenario invalid",
    );
}

#[test]
fn oversized_sweeps_are_refused_with_the_limit_before_anything_is_allocated() {
    let err = refused("seeds = { count = 1000000000000 }\n");
    assert!(
        err.contains(
            "sweep.toml:2: key `seeds.count`: 1000000000000 is out of range: the limit is 1 to 1000000"
        ),
        "{err}"
    );
    // 65,536^4 = 2^64 runs: the product must not wrap to 0.
    let mut body = String::new();
    for path in [
        "cluster.nodes",
        "cluster.racks",
        "cluster.node_memory_mb",
        "end_ms",
    ] {
        body +=
            &format!("[[axis]]\npath = \"{path}\"\nrange = {{ from = 1, to = 65536, step = 1 }}\n");
    }
    let err = refused(&body);
    assert!(err.contains("key `axis`"), "{err}");
    assert!(err.contains("too many runs"), "{err}");
    assert!(err.contains("limit of 10000000 runs"), "{err}");
}

/// A queue written `[queues."root.A"]` in a scenario is addressable by a quoted path.
#[test]
fn a_queue_name_with_dots_is_addressable() {
    let dir = tempfile::tempdir().unwrap();
    let base_text = std::fs::read_to_string(scenarios().join("seed004-abc.toml"))
        .unwrap()
        .replace("[queues.A]", "[queues.\"root.A\"]")
        .replace(
            "file = \"seed004-abc.xml\"",
            &format!(
                "file = {:?}",
                scenarios().join("seed004-abc.xml").display().to_string()
            ),
        );
    std::fs::write(dir.path().join("base.toml"), base_text).unwrap();
    let file = dir.path().join("sweep.toml");
    std::fs::write(
        &file,
        "base = \"base.toml\"\nmetric = \"wait_s_p95.root.A\"\n\
         [[axis]]\npath = 'queues.\"root.A\".weight'\nvalues = [0.2, -1.0]\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(["sweep", "--out"])
        .arg(dir.path().join("out"))
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("sweep.toml:5: key `queues.\"root.A\".weight`: value -1"),
        "{stderr}"
    );
}

/// Common random numbers: the workload depends on the seed only, so two points with the same
/// settings give the same metrics seed for seed, and a point's runs differ across seeds.
#[test]
fn identical_points_give_identical_per_seed_results() {
    let (dir, file) = sweep_file(
        "seeds = [3, 4]\nmetric = \"wait_s_p95.root.A\"\n\
         [[axis]]\npath = \"queues.A.weight\"\nvalues = [0.5, 0.5]\n",
    );
    let out_dir = dir.path().join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(["sweep", "--jobs", "2", "--out"])
        .arg(&out_dir)
        .arg(&file)
        .env("CI", "true")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs = std::fs::read_to_string(out_dir.join("runs.csv")).unwrap();
    // Drop the run index: rows of point 0 and point 1 must then match seed for seed.
    let rows: Vec<&str> = runs
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap().1)
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0], rows[2], "seed 3");
    assert_eq!(rows[1], rows[3], "seed 4");
    assert_ne!(rows[0], rows[1], "another seed draws another workload");
    // One schema: the charted run's files have a single run's columns.
    for f in fairsim_sim::catalogue::FILES
        .iter()
        .filter(|f| !f.columns.is_empty())
    {
        let text = std::fs::read_to_string(out_dir.join("run-0").join(f.path)).unwrap();
        assert_eq!(text.lines().next().unwrap(), f.header(), "run-0/{}", f.path);
    }
}

#[test]
fn a_baseline_off_the_axes_or_a_bad_stalled_choice_exits_2() {
    check(
        &format!("baseline = {{ \"queues.A.weight\" = 0.3 }}\n{AXES}"),
        2,
        "baseline",
        "0.3 is not a value of axis `queues.A.weight`",
    );
    check(
        &format!("stalled_runs = \"drop\"\n{AXES}"),
        2,
        "stalled_runs",
        "expected \"include\" or \"exclude\"",
    );
}

/// The example of docs/sweeps.md runs as written, beside the bundled scenario it names.
#[test]
fn the_docs_sweep_example_runs_as_written() {
    let doc = std::fs::read_to_string(scenarios().join("../docs/sweeps.md")).unwrap();
    let start = doc.find("## The sweep file").unwrap();
    let block = &doc[start..];
    let body = block.split("```toml\n").nth(1).unwrap();
    let example = body.split("\n```").next().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for f in ["seed004-abc.toml", "seed004-abc.xml"] {
        std::fs::copy(scenarios().join(f), dir.path().join(f)).unwrap();
    }
    let file = dir.path().join("weight-vs-minshare.toml");
    std::fs::write(&file, example).unwrap();
    let out_dir = dir.path().join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(["sweep", "--jobs", "2", "--out"])
        .arg(&out_dir)
        .arg(&file)
        .env("CI", "true")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = std::fs::read_to_string(out_dir.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 5, "four points and a header");
    let header = summary.lines().next().unwrap();
    assert!(header.contains("wait_s_p95.root.A_diff_mean"), "{header}");
    // The baseline point's paired difference with itself is exactly 0.
    let cols: Vec<&str> = header.split(',').collect();
    let i = cols
        .iter()
        .position(|c| *c == "wait_s_p95.root.A_diff_mean")
        .unwrap();
    let first: Vec<&str> = summary.lines().nth(1).unwrap().split(',').collect();
    assert_eq!((first[0], first[1], first[i]), ("0.2", "0", "0"));
}
