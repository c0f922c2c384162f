//! Hadoop's own file formats on the command line: what `fairsim trace`, `run` and `validate`
//! make of SLS traces, SLS and Rumen files given under the wrong key, configuration files
//! given as the wrong kind, and workloads whose queues submission would create. Every file
//! is written here by hand, in the format of Hadoop's own.

use std::path::Path;
use std::process::{Command, Output};

fn fairsim(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A directory holding `files`.
fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(d.path().join(name), body).unwrap();
    }
    d
}

const FS_XML: &str = "<?xml version=\"1.0\"?>\n<allocations>\n  <queue name=\"sls_queue_1\">\n    <weight>1</weight>\n  </queue>\n</allocations>\n";

/// An SLS job whose two map groups share priority 20 with different sizes, as SLS's sample
/// traces write jobs: SLS asks the priority's containers at the first group's size, so the
/// second runs at 1024 MB; `trace` exports that size, the one a run uses, and warns as the
/// CSV reader does.
#[test]
fn an_sls_priority_with_two_sizes_is_exported_at_the_size_it_runs_with_a_warning() {
    let jobs = r#"{
  "am.type" : "mapreduce",
  "job.start.ms" : 0,
  "job.end.ms" : 95375,
  "job.queue.name" : "sls_queue_1",
  "job.id" : "job_1",
  "job.user" : "default",
  "job.tasks" : [ {
    "container.host" : "/default-rack/node1",
    "container.start.ms" : 6664,
    "container.end.ms" : 23707,
    "container.priority" : 20,
    "container.type" : "map",
    "container.memory-mb" : 1024
  }, {
    "container.host" : "/default-rack/node3",
    "container.start.ms" : 6665,
    "container.end.ms" : 21593,
    "container.priority" : 20,
    "container.type" : "map",
    "container.memory-mb" : 2048
  } ]
}
"#;
    let scenario = "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
                    [allocation]\nfile = \"fs.xml\"\n[workload]\nsls = \"jobs.json\"\n";
    let d = dir_with(&[
        ("fs.xml", FS_XML),
        ("jobs.json", jobs),
        ("s.toml", scenario),
    ]);
    let o = fairsim(d.path(), &["trace", "s.toml", "--out", "t.csv"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "warning: jobs.json:21: job.tasks[1].container.memory-mb: 2048 MB, 1 vcores at \
             priority 20 run as 1024 MB, 1 vcores, the size job.tasks[0] (line 8) asks at that priority"
        ),
        "{err}"
    );
    let csv = std::fs::read_to_string(d.path().join("t.csv")).unwrap();
    let sizes: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(8).unwrap())
        .collect();
    assert_eq!(sizes, ["1024", "1024"], "{csv}");
}
