//! `fairsim compare` on the bundled comparison scenario: both schedulers run the same
//! workload; the table and the charts name both.

mod common;

use std::path::PathBuf;

fn bundled(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/compare")
        .join(name)
}

#[test]
fn compare_writes_one_table_and_charts_with_both_schedulers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = common::fixture::command()
        .arg("compare")
        .arg(bundled("fair.toml"))
        .arg(bundled("capacity.toml"))
        .arg("--out")
        .arg(dir.path())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = std::fs::read_to_string(dir.path().join("comparison.csv")).expect("table");
    assert!(table.starts_with("scheduler,queue,metric,value\n"));
    for s in [
        "fair,root.adhoc,wait_s_p50,",
        "capacity,root.adhoc,wait_s_p50,",
    ] {
        assert!(table.contains(s), "missing {s}");
    }
    // Preemption happened under both, from the elastic batch queue only.
    let value = |prefix: &str| -> f64 {
        table
            .lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {prefix}"))
    };
    assert!(value("fair,root.etl,preempted_containers,") > 0.0);
    assert!(value("capacity,root.etl,preempted_containers,") > 0.0);
    assert_eq!(value("fair,root.adhoc,preempted_containers,"), 0.0);
    for stem in ["compare-wait_s_p50", "compare-preempted_containers"] {
        let svg = std::fs::read_to_string(dir.path().join(format!("{stem}.svg"))).expect("svg");
        assert!(
            svg.contains(">fair<") || svg.contains("fair"),
            "legend names fair"
        );
        assert!(svg.contains("capacity"), "legend names capacity");
        assert!(dir.path().join(format!("{stem}.png")).is_file());
    }
    // Each run's own files are there too.
    assert!(dir.path().join("fair/apps.csv").is_file());
    assert!(dir.path().join("capacity/summary.csv").is_file());
}

/// A scheduler whose run stalls is named on stderr and in the report: its metrics stop at the stall.
#[test]
fn a_stalled_run_is_said_out_loud() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("fs.xml"),
        "<allocations><queue name=\"A\"/></allocations>\n",
    )
    .unwrap();
    // Ten 4096 MB tasks: nodes of 2048 MB hold none of them and the run stalls; 16384 MB nodes run them all.
    for (name, mb) in [("small", 2048), ("large", 16384)] {
        std::fs::write(
            dir.path().join(format!("{name}.toml")),
            format!(
                "name = \"{name}\"\n[cluster]\nnodes = 2\nnode_memory_mb = {mb}\nnode_vcores = 16\n\n[allocation]\nfile = \"fs.xml\"\n\n[[workload.synthetic.queues]]\nqueue = \"A\"\napps = 1\nmean_interarrival_ms = 0\ntasks = {{ dist = \"constant\", value = 10 }}\nduration_ms = {{ dist = \"constant\", value = 100000 }}\ncontainer_mb = 4096\n"
            ),
        )
        .unwrap();
    }
    let out = common::fixture::command()
        .current_dir(dir.path())
        .args(["compare", "small.toml", "large.toml", "--out", "o"])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "1 run stalled (apps unfinished, nothing left to change): fair:small (seed 1); its metrics stop at the stall"
        ),
        "{stderr}"
    );
    // And why: the AM holds the memory a task would need.
    assert!(
        stderr.contains(
            "why the first stalled run (fair:small, seed 1) stalled:\n  - 1 app of root.A waiting \
             for task containers: no node has room for their 4 GB and 1 vcores asks"
        ),
        "{stderr}"
    );
    let report = std::fs::read_to_string(dir.path().join("o/report.html")).unwrap();
    assert!(report.contains("1 run stalled"), "report");
}

/// The migration check: sls_queues.xml against its fs2cs conversion (weight mode) over three
/// paired seeds. regression.csv has a row per shared queue and metric with both means, the
/// change (their difference, as the seeds are paired) and an interval around it; the
/// terminal shows the same table. Converted, sls_queue_1 keeps 12.5 % with user-limit-factor
/// 1, where the Fair Scheduler let it borrow: its p95 wait does not fall.
#[test]
fn compare_over_paired_seeds_writes_a_per_queue_regression_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = common::fixture::command()
        .arg("compare")
        .arg(bundled("sls_queues-fair.toml"))
        .arg(bundled("sls_queues-fs2cs.toml"))
        .args(["--seeds", "3", "--out"])
        .arg(dir.path())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("per queue against fair over seeds 1 to 3"),
        "{stdout}"
    );
    let table = std::fs::read_to_string(dir.path().join("regression.csv")).expect("table");
    let mut lines = table.lines();
    assert_eq!(
        lines.next(),
        Some("scheduler,queue,metric,seeds,baseline,other,change,change_low,change_high")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    for q in ["root.sls_queue_1", "root.sls_queue_2", "root.sls_queue_3"] {
        for m in [
            "wait_s_p50",
            "wait_s_p95",
            "preempted_containers",
            "share_deviation",
            "am_limit_blocks",
        ] {
            let r = rows
                .iter()
                .find(|r| r[1] == q && r[2] == m)
                .unwrap_or_else(|| panic!("no {q} {m}\n{table}"));
            assert_eq!(r[0], "capacity");
            assert_eq!(r[3], "3");
            let num = |i: usize| -> f64 { r[i].parse().unwrap() };
            // The change is the difference of the means, inside its interval.
            assert!((num(6) - (num(5) - num(4))).abs() < 1e-9, "{r:?}");
            assert!(num(7) <= num(6) && num(6) <= num(8), "{r:?}");
        }
    }
    let p95 = rows
        .iter()
        .find(|r| r[1] == "root.sls_queue_1" && r[2] == "wait_s_p95")
        .unwrap();
    assert!(p95[6].parse::<f64>().unwrap() > 0.0, "{p95:?}");
    // The terminal's table has the same rows.
    for m in ["share_deviation", "am_limit_blocks"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("root.sls_queue_1") && l.contains(m)),
            "{m}: {stdout}"
        );
    }
    let html = std::fs::read_to_string(dir.path().join("report.html")).expect("report");
    assert!(html.contains("Per queue over 3 paired seeds"));
    assert!(html.contains("share_deviation") && html.contains("am_limit_blocks"));
}
