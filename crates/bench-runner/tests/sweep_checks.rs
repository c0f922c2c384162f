//! Whole-sweep validation before the first run (with the simulator): bad metrics, bad axis
//! values and oversized sweeps exit 2 with the sweep file's line and key, and write nothing.
//! Paired runs: sweep points with identical settings give identical per-seed results.

mod common;

use std::path::PathBuf;

/// The bundled scenarios' folder, absolute and without `..` (it is written into sweep files).
fn scenarios() -> PathBuf {
    common::fixture::scenarios().canonicalize().unwrap()
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
    let out = common::fixture::command()
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
    let out = common::fixture::command()
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
         [[axis]]\npath = \"name\"\nvalues = [\"first\", \"second\"]\n",
    );
    let out_dir = dir.path().join("out");
    let out = common::fixture::command()
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
    // Two points that differ in the scenario's name only (a value listed twice is refused). Drop the
    // run index and the name: rows of point 0 and point 1 must then match seed for seed.
    let rows: Vec<&str> = runs
        .lines()
        .skip(1)
        .map(|l| l.splitn(3, ',').nth(2).unwrap())
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
    let out = common::fixture::command()
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

/// A value listed twice would pool two identical points into one of twice the runs: refused at its line.
#[test]
fn a_value_listed_twice_on_an_axis_exits_2() {
    check(
        "seeds = { count = 8 }\n[[axis]]\npath = \"queues.A.weight\"\nvalues = [\n  0.2,\n  1.0,\n  0.2,\n]\n",
        8,
        "queues.A.weight",
        "value 0.2 is listed twice (first at line 6): each value must be distinct",
    );
    // An integer standing for a float is the same value.
    check(
        "[[axis]]\npath = \"queues.A.weight\"\nvalues = [1, 1.0]\n",
        4,
        "queues.A.weight",
        "value 1 is listed twice",
    );
}

/// Runs `fairsim sweep` on `body` (base seed004-abc) into `out`; asserts success and returns stderr.
fn swept(body: &str) -> (tempfile::TempDir, String) {
    let (dir, file) = sweep_file(body);
    let out = common::fixture::command()
        .args(["sweep", "--jobs", "2", "--out"])
        .arg(dir.path().join("out"))
        .arg(&file)
        .env("CI", "true")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    (dir, stderr)
}

/// A `range` gives the decimals a person types: 0.3 and 0.7, not 0.30000000000000004 and 0.7000000000000001,
/// in runs.csv, summary.csv and the charts' ticks.
#[test]
fn range_values_are_the_decimals_typed() {
    let (dir, _) = swept(
        "metric = \"wait_s_p50\"\n[[axis]]\npath = \"queues.A.weight\"\nrange = { from = 0.1, to = 0.7, step = 0.2 }\n",
    );
    let out = dir.path().join("out");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    let points: Vec<&str> = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(points, ["0.1", "0.3", "0.5", "0.7"]);
    let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    let svg = std::fs::read_to_string(out.join("lines-wait_s_p50.svg")).unwrap();
    for text in [&summary, &runs, &svg] {
        assert!(!text.contains("0000000"), "float noise: {text}");
    }
}

/// An axis may vary a setting the allocation file gives and the scenario's `[queues]` does not repeat, as `plan`
/// does: the runs equal those of a base that repeats it.
#[test]
fn an_axis_varies_an_allocation_file_setting_directly() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(scenarios().join("seed004-abc.toml")).unwrap();
    let without = base.replace("[queues.A]\nweight = 0.2\nmin_memory_mb = 0\n", "");
    assert_ne!(without, base);
    std::fs::copy(
        scenarios().join("seed004-abc.xml"),
        dir.path().join("seed004-abc.xml"),
    )
    .unwrap();
    std::fs::write(dir.path().join("with.toml"), &base).unwrap();
    std::fs::write(dir.path().join("without.toml"), &without).unwrap();
    let mut runs = Vec::new();
    for scenario in ["with", "without"] {
        let file = dir.path().join(format!("{scenario}-sweep.toml"));
        std::fs::write(
            &file,
            format!(
                "base = \"{scenario}.toml\"\nseeds = [1, 2]\n[[axis]]\npath = \"queues.A.weight\"\nvalues = [0.5, 2.0]\n"
            ),
        )
        .unwrap();
        let out = common::fixture::command()
            .args(["sweep", "--jobs", "2", "--out"])
            .arg(dir.path().join(scenario))
            .arg(&file)
            .env("CI", "true")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        runs.push(std::fs::read_to_string(dir.path().join(scenario).join("runs.csv")).unwrap());
    }
    assert_eq!(runs[0], runs[1]);
    // Only settings a scenario may override, and only of queues the allocation file has.
    check(
        "[[axis]]\npath = \"queues.B.wieght\"\nvalues = [1.0]\n",
        3,
        "queues.B.wieght",
        "unknown parameter path",
    );
    check(
        "[[axis]]\npath = \"queues.Z.weight\"\nvalues = [1.0]\n",
        3,
        "queues.Z.weight",
        "unknown parameter path",
    );
    check(
        "[[axis]]\npath = \"queues.B.min_memory_mb\"\nvalues = [1.5]\n",
        4,
        "queues.B.min_memory_mb",
        "wrong value type",
    );
    check(
        "[[axis]]\npath = \"queues.\\\"root.A\\\".weight\"\nvalues = [1.0]\n",
        3,
        "queues.\"root.A\".weight",
        "the base scenario overrides this queue as [queues.\"A\"]",
    );
}

/// The bundled example's stalled runs are named on stderr, point and seed, and marked on the charts.
#[test]
fn stalled_runs_are_said_and_marked() {
    let (dir, stderr) = swept(
        "seeds = { count = 10 }\nmetric = \"wait_s_p95.root.A\"\n[[axis]]\npath = \"queues.A.weight\"\nvalues = [0.1, 2.0]\n\n[[axis]]\npath = \"queues.A.min_memory_mb\"\nvalues = [0, 16384]\n",
    );
    assert!(
        stderr.contains(
            "3 runs stalled (apps unfinished, nothing left to change): queues.A.weight=0.1, queues.A.min_memory_mb=16384 (seed 7); queues.A.weight=2, queues.A.min_memory_mb=0 (seed 8); queues.A.weight=2, queues.A.min_memory_mb=16384 (seed 8)"
        ),
        "{stderr}"
    );
    // And why the first of them stalled, as `fairsim run` of it says.
    assert!(
        stderr.contains(
            "why the first stalled run (queues.A.weight=0.1, queues.A.min_memory_mb=16384, seed 7) stalled:\n  - 8 apps of root.A waiting for their AMs: maxAMShare refuses their AMs: the queue's fair share is 16 GB"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("  - and 2 more groups: "), "{stderr}");
    let out = dir.path().join("out");
    let heat = std::fs::read_to_string(out.join("heatmap-wait_s_p95_root_A.svg")).unwrap();
    assert!(
        heat.contains("red frame: stalled runs in the cell"),
        "heatmap subtitle"
    );
    assert_eq!(
        heat.matches("\n1 stalled\n</text>").count(),
        3,
        "three cells say so"
    );
    let lines = std::fs::read_to_string(out.join("lines-wait_s_p95_root_A.svg")).unwrap();
    assert!(
        lines.contains("stalled runs in the mean"),
        "line chart legend"
    );
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("3 runs stalled"), "report");
}
