//! `fairsim trace`: a scenario's workload as the native CSV, for traces and SYNTH files; bad
//! SLS inputs exit 2 naming file, line and field.

mod common;

use common::fixture::fairsim;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../sim/tests/data/traces")
        .join(name)
}

fn trace(scenario: &Path, seed: &str, out: &Path) -> String {
    let o = fairsim(&[
        "trace".as_ref(),
        scenario.as_os_str(),
        "--seed".as_ref(),
        seed.as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn a_rumen_workload_written_as_csv_runs_as_the_same_apps() {
    let d = tempfile::tempdir().unwrap();
    let csv = trace(&data("rumen.toml"), "1", &d.path().join("trace.csv"));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts"
        )
    );
    let rows: Vec<&str> = lines.collect();
    // Job 1: 3 maps + 1 reduce; job 2: 2 maps.
    assert_eq!(rows.len(), 6);
    assert_eq!(
        rows[0],
        "job_1500000000000_0001,0,sls_queue_1,alice,1024,1,0,1,1024,1,17000,10,/default-rack/n2.example.com"
    );
    assert_eq!(
        rows[5],
        "job_1500000000000_0002,15000,sls_queue_2,bob,1024,1,0,1,1024,1,20000,10,/rack2/n6.example.com"
    );
    // The CSV as a scenario's workload gives the same CSV back.
    let scenario = d.path().join("from-csv.toml");
    std::fs::write(
        &scenario,
        format!(
            "[cluster]\nnodes = 4\nnode_memory_mb = 8192\nnode_vcores = 8\n\n[allocation]\nfile = {:?}\n\n[workload]\ncsv = \"trace.csv\"\n",
            data("queues.xml")
        ),
    )
    .unwrap();
    assert_eq!(trace(&scenario, "1", &d.path().join("again.csv")), csv);
}

#[test]
fn a_synth_workload_depends_on_the_seed_only() {
    let d = tempfile::tempdir().unwrap();
    let a = trace(&data("synth.toml"), "1", &d.path().join("a.csv"));
    let b = trace(&data("synth.toml"), "1", &d.path().join("b.csv"));
    let c = trace(&data("synth.toml"), "2", &d.path().join("c.csv"));
    assert_eq!(a, b);
    assert_ne!(a, c);
    let apps: std::collections::BTreeSet<&str> = a
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(apps.len(), 6);
}

#[test]
fn a_bad_sls_trace_exits_2_naming_file_line_and_field() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("jobs.json"),
        "{ \"job.start.ms\": 0, \"job.tasks\": [] }\n{ \"job.start.ms\": 5,\n  \"job.tasks\": [ { \"count\": \"many\" } ] }\n",
    )
    .unwrap();
    let scenario = d.path().join("s.toml");
    std::fs::write(
        &scenario,
        format!(
            "[cluster]\nnodes = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n\n[allocation]\nfile = {:?}\n\n[workload]\nsls = \"jobs.json\"\n",
            data("queues.xml")
        ),
    )
    .unwrap();
    for cmd in ["run", "validate"] {
        let o = fairsim(&[cmd.as_ref(), scenario.as_os_str()]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("jobs.json:3: job.tasks[0].count: `many` is not an integer"),
            "{err}"
        );
    }
}
