//! End-to-end runs of `fairsim shares` and `fairsim validate`: outputs and exit codes.

mod common;

use common::fixture::fairsim;
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write test input");
    p
}

const SIMPLE: &str = r#"<allocations><queue name="queue1"/><queue name="queue2"/></allocations>"#;

#[test]
fn shares_csv_reproduces_hadoops_simple_case() {
    let dir = tempfile::tempdir().expect("temp dir");
    let alloc = write(dir.path(), "fair-scheduler.xml", SIMPLE);
    let demand = write(
        dir.path(),
        "demand.csv",
        "queue,memory_mb,vcores\nqueue1,10240,1\nroot.queue2,10240,1\ndefault,10240,1\n",
    );
    let out = fairsim(&[
        "shares",
        "--alloc",
        alloc.to_str().expect("utf-8 path"),
        "--cluster",
        "10240 mb, 10 vcores",
        "--demand",
        demand.to_str().expect("utf-8 path"),
        "--semantics",
        "hadoop-3.3",
        "--format",
        "csv",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(
        lines[0],
        "queue,weight,min_memory_mb,min_vcores,max_memory_mb,max_vcores,demand_memory_mb,demand_vcores,steady_memory_mb,steady_vcores,fair_memory_mb,fair_vcores"
    );
    assert_eq!(lines[1], "root,1,0,0,,,30720,3,10240,10,10240,10");
    assert_eq!(lines[2], "root.queue1,1,0,0,,,10240,1,3414,0,3414,0");
    assert_eq!(lines[4], "root.default,1,0,0,,,10240,1,3414,0,3414,0");
    for format in ["table", "json"] {
        let out = fairsim(&[
            "shares",
            "--alloc",
            alloc.to_str().expect("utf-8"),
            "--cluster",
            "10240mb,10vcores",
            "--format",
            format,
        ]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).expect("utf-8");
        assert!(text.contains("3414"), "{text}");
        if format == "json" {
            let v: serde_json::Value = serde_json::from_str(&text).expect("json");
            assert_eq!(v["queues"].as_array().map(Vec::len), Some(4));
            assert!(v["queues"][0]["max_memory_mb"].is_null());
        }
    }
}

#[test]
fn bad_input_exits_2_and_io_failure_exits_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = write(
        dir.path(),
        "bad.xml",
        "<allocations>\n  <queue name=\"a.b\"/>\n</allocations>\n",
    );
    let out = fairsim(&["validate", bad.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.xml:2: <queue name=\"a.b\">: queue name must not contain '.'"),
        "{err}"
    );

    let alloc = write(dir.path(), "ok.xml", SIMPLE);
    let demand = write(
        dir.path(),
        "demand.csv",
        "queue,memory_mb,vcores\nqueue1,1,1\nnope,1,1\n",
    );
    let out = fairsim(&[
        "shares",
        "--alloc",
        alloc.to_str().expect("utf-8"),
        "--cluster",
        "1024 mb, 1 vcores",
        "--demand",
        demand.to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("demand.csv:3: column queue: unknown queue root.nope"),
        "{err}"
    );

    let out = fairsim(&[
        "shares",
        "--alloc",
        alloc.to_str().expect("utf-8"),
        "--cluster",
        "lots",
    ]);
    assert_eq!(out.status.code(), Some(2));

    // A missing input file is bad input.
    let out = fairsim(&[
        "validate",
        dir.path().join("missing.xml").to_str().expect("utf-8"),
    ]);
    assert_eq!(out.status.code(), Some(2));

    // An output that cannot be written is a failure of the machine.
    let full = std::fs::File::create("/dev/full").expect("/dev/full");
    let out = common::fixture::command()
        .args(["validate", alloc.to_str().expect("utf-8")])
        .stdout(full)
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn validate_prints_the_tree_and_warnings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = write(
        dir.path(),
        "fair.xml",
        "<allocations>\n<user name=\"j\"><maxRunningJobs>3</maxRunningJobs></user>\n<queue name=\"a\"><minSharePreemptionTimeout>2</minSharePreemptionTimeout></queue>\n</allocations>",
    );
    let out = fairsim(&["validate", f.to_str().expect("utf-8")]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  root.a (leaf) policy=fair"), "{text}");
    assert!(text.contains("minSharePreemption=2s"), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: ") && err.contains("<maxRunningJobs>"),
        "{err}"
    );
}

#[test]
fn values_above_a_java_int_are_refused_under_hadoop_27() {
    // Hadoop 2.7 keeps memory and vcores in a Java int, as a snapshot's values are checked:
    // a cluster or demand above it was taken as given, and every leaf's steady share printed
    // as 2147483647 (their sum four times the cluster).
    let dir = tempfile::tempdir().expect("temp dir");
    let alloc = write(dir.path(), "ok.xml", SIMPLE);
    let alloc = alloc.to_str().expect("utf-8");
    let shares = |cluster: &str, demand: Option<&Path>| {
        let mut args = vec!["shares", "--alloc", alloc, "--cluster", cluster];
        if let Some(d) = demand {
            args.extend(["--demand", d.to_str().expect("utf-8")]);
        }
        let out = fairsim(&args);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
            out.stdout,
        )
    };
    let (code, err, stdout) = shares("4294967296 mb, 1 vcores", None);
    assert_eq!(code, Some(2));
    assert_eq!(
        err.trim_end(),
        "fairsim: --cluster \"4294967296 mb, 1 vcores\": memory 4294967296 exceeds hadoop-2.7's 32-bit int range (max 2147483647)"
    );
    assert!(stdout.is_empty());
    let demand = write(
        dir.path(),
        "demand.csv",
        "queue,memory_mb,vcores\nqueue1,1024,1\nqueue2,1,2147483648\n",
    );
    let (code, err, _) = shares("1024 mb, 1 vcores", Some(&demand));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("demand.csv:3: column vcores: 2147483648 exceeds hadoop-2.7's 32-bit int range (max 2147483647)"),
        "{err}"
    );
    // Hadoop 3.3 keeps them in a long.
    let out = fairsim(&[
        "shares",
        "--alloc",
        alloc,
        "--cluster",
        "4294967296 mb, 1 vcores",
        "--semantics",
        "hadoop-3.3",
    ]);
    assert_eq!(out.status.code(), Some(0));
}
