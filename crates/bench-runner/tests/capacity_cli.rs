//! `fairsim validate` on capacity-scheduler.xml files: each error exits with code 2 and
//! names the property at fault.

mod common;

use common::fixture::fairsim;
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write test input");
    p
}

fn conf(props: &[(&str, &str)]) -> String {
    let mut s = String::from("<configuration>\n");
    for (n, v) in props {
        s.push_str(&format!(
            "  <property><name>yarn.scheduler.capacity.{n}</name><value>{v}</value></property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

/// Validates `text` and returns (exit code, stderr).
fn validate(text: &str) -> (i32, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = write(dir.path(), "capacity-scheduler.xml", text);
    let out = fairsim(&["validate", f.to_str().expect("utf-8 path")]);
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_valid_capacity_file_passes() {
    let (code, err) = validate(&conf(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "40"),
        ("root.b.capacity", "60"),
        ("root.b.maximum-capacity", "80"),
    ]));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn capacities_not_summing_to_100_exit_2_naming_the_property() {
    let (code, err) = validate(&conf(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "40"),
        ("root.b.capacity", "50"),
    ]));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("capacity"), "{err}");
    assert!(err.contains("sum to 90"), "{err}");
    assert!(
        err.contains("capacity-scheduler.xml:"),
        "names the file and line: {err}"
    );
}

#[test]
fn maximum_below_capacity_exits_2_naming_the_property() {
    let (code, err) = validate(&conf(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "40"),
        ("root.a.maximum-capacity", "30"),
        ("root.b.capacity", "60"),
    ]));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("yarn.scheduler.capacity.root.a.maximum-capacity"),
        "{err}"
    );
}

#[test]
fn a_property_for_an_unknown_queue_is_warned_at_its_line_and_ignored() {
    // YARN builds only the queues `.queues` lists and never reads a property of another
    // one, so the file loads; a typo in a queue's name must not pass unnoticed, though.
    let (code, err) = validate(&conf(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "40"),
        ("root.b.capacity", "60"),
        ("root.c.capacity", "10"),
    ]));
    assert_eq!(code, 0, "{err}");
    let warning = err
        .lines()
        .find(|l| l.contains("yarn.scheduler.capacity.root.c.capacity"))
        .unwrap_or_else(|| panic!("no warning names the property: {err}"));
    assert!(warning.starts_with("warning: "), "{warning}");
    assert!(warning.contains("capacity-scheduler.xml:5:"), "{warning}");
    assert!(warning.contains("root.c is not listed"), "{warning}");
}

#[test]
fn a_scenario_with_a_bad_capacity_file_exits_2_naming_the_property() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "capacity-scheduler.xml",
        &conf(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "70"),
            ("root.b.capacity", "70"),
        ]),
    );
    write(
        dir.path(),
        "trace.csv",
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         x,0,a,u,0,0,0,1,1024,1,1000,1,\n",
    );
    let sc = write(
        dir.path(),
        "s.toml",
        "[cluster]\nnodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
         [allocation]\nfile = \"capacity-scheduler.xml\"\n[workload]\ncsv = \"trace.csv\"\n",
    );
    let out = fairsim(&[
        "run",
        sc.to_str().expect("utf-8 path"),
        "--out",
        dir.path().join("out").to_str().expect("utf-8 path"),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("yarn.scheduler.capacity.root"), "{err}");
    assert!(err.contains("sum to 140"), "{err}");
}

#[test]
fn a_capacity_scenario_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "capacity-scheduler.xml",
        &conf(&[
            ("root.queues", "a,b"),
            ("root.a.capacity", "50"),
            ("root.b.capacity", "50"),
        ]),
    );
    write(
        dir.path(),
        "trace.csv",
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         x,0,a,u,1024,1,0,4,1024,1,1000,1,\n\
         y,0,b,u,1024,1,0,4,1024,1,1000,1,\n",
    );
    let sc = write(
        dir.path(),
        "s.toml",
        "[cluster]\nnodes = 2\nnode_memory_mb = 4096\nnode_vcores = 4\n\
         [allocation]\nfile = \"capacity-scheduler.xml\"\n[workload]\ncsv = \"trace.csv\"\n",
    );
    let out_dir = dir.path().join("out");
    let out = fairsim(&[
        "run",
        sc.to_str().expect("utf-8 path"),
        "--out",
        out_dir.to_str().expect("utf-8 path"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("apps: 2 finished"), "{stdout}");
}

/// `fairsim validate` reads a capacity-scheduler.xml as hadoop-3.3 unless `--semantics`
/// says otherwise: the weight mode fs2cs writes loads, and hadoop-2.7, whose ResourceManager
/// fails to start on it, refuses it naming the property.
#[test]
fn validate_reads_capacity_files_as_hadoop_33_unless_told() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = conf(&[
        ("root.queues", "a,b"),
        ("root.a.capacity", "1w"),
        ("root.b.capacity", "3w"),
    ]);
    let f = write(dir.path(), "capacity-scheduler.xml", &text);
    let path = f.to_str().expect("utf-8 path");
    let out = fairsim(&["validate", path]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = fairsim(&["validate", path, "--semantics", "hadoop-3.3"]);
    assert_eq!(out.status.code(), Some(0));
    let out = fairsim(&["validate", path, "--semantics", "hadoop-2.7"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("capacity-scheduler.xml:3:")
            && err.contains("root.a.capacity")
            && err.contains("hadoop-2.7 reads capacity as a percentage"),
        "{err}"
    );
}

/// `fairsim convert` writes what fs2cs would and reads it back first: a fair-scheduler.xml
/// whose weight converts to a capacity weight YARN refuses (above 10000) is refused naming
/// the fair-scheduler.xml and the converted property, and nothing is written.
#[test]
fn convert_refuses_what_the_converted_file_cannot_load_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = write(
        dir.path(),
        "fair.xml",
        "<allocations>\n<queue name=\"a\"><weight>3</weight></queue>\n<queue name=\"b\"/>\n</allocations>\n",
    );
    let out = dir.path().join("cs.xml");
    let run = fairsim(&[
        "convert",
        good.to_str().expect("utf-8 path"),
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let written = std::fs::read_to_string(&out).expect("the converted file");
    assert!(written.contains("<value>3.0w</value>"), "{written}");
    // Warnings on the written file name its own lines.
    let warned = String::from_utf8_lossy(&run.stderr);
    assert!(!warned.contains("not written"), "{warned}");
    let bad = write(
        dir.path(),
        "heavy.xml",
        "<allocations>\n<queue name=\"a\"><weight>20000</weight></queue>\n<queue name=\"b\"/>\n</allocations>\n",
    );
    let out2 = dir.path().join("cs2.xml");
    let run = fairsim(&[
        "convert",
        bad.to_str().expect("utf-8 path"),
        "--out",
        out2.to_str().expect("utf-8 path"),
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(
        err.contains("heavy.xml: the converted file does not load")
            && err.contains("nothing is written")
            && err.contains("cs2.xml (as converted, not written):")
            && err.contains("root.a.capacity")
            && err.contains("outside 0 to 10000"),
        "{err}"
    );
    assert!(!out2.exists(), "nothing written");
}
