//! Hadoop's own file formats on the command line: what `fairsim trace`, `run` and `validate`
//! make of SLS traces, SLS and Rumen files given under the wrong key, configuration files
//! given as the wrong kind, and workloads whose queues submission would create. Every file
//! is written here by hand, in the format of Hadoop's own.

mod common;

use common::fixture::fairsim_in as fairsim;
use std::process::Output;

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

/// An SLS sample trace in its own shape: `//` comments, several job objects.
const SLS_TRACE: &str = "// two jobs, as SLS's sample sls-jobs.json writes them\n\
{\n  \"job.start.ms\" : 0,\n  \"job.queue.name\" : \"sls_queue_1\",\n  \"job.tasks\" : [ { \"container.duration.ms\" : 1000 } ]\n}\n\
{\n  \"job.start.ms\" : 5000,\n  \"job.queue.name\" : \"sls_queue_1\",\n  \"job.tasks\" : [ ]\n}\n";

/// A Rumen job history in its own shape (TraceBuilder's output: concatenated job objects).
const RUMEN_TRACE: &str = "{\n  \"jobID\" : \"job_1\",\n  \"user\" : \"alice\",\n  \"submitTime\" : 1000,\n  \"mapTasks\" : [ ]\n}\n\
{\n  \"jobID\" : \"job_2\",\n  \"user\" : \"bob\",\n  \"submitTime\" : 2000,\n  \"mapTasks\" : [ ]\n}\n";

fn synth_scenario() -> String {
    "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
     [allocation]\nfile = \"fs.xml\"\n[workload]\nsynth = \"w.json\"\n"
        .to_string()
}

/// An SLS trace or a Rumen history given as `synth = ...` is named for what it is, as under
/// every other key, instead of "missing field `num_jobs`".
#[test]
fn an_sls_or_rumen_file_given_as_synth_says_what_it_is() {
    for (body, says) in [
        (
            SLS_TRACE,
            "w.json:2: json: not an SLS SYNTH file: this looks like an SLS JSON job trace (read it with `sls = ...` in [workload])",
        ),
        (
            RUMEN_TRACE,
            "w.json:1: json: not an SLS SYNTH file: this looks like a Rumen job history (read it with `rumen = ...` in [workload])",
        ),
    ] {
        let d = dir_with(&[
            ("fs.xml", FS_XML),
            ("w.json", body),
            ("s.toml", &synth_scenario()),
        ]);
        let o = fairsim(d.path(), &["run", "s.toml", "--out", "out"]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(says), "{err}");
        assert!(!d.path().join("out").exists());
    }
}

/// A yarn-site.xml in Hadoop's shape.
const YARN_SITE: &str = "<?xml version=\"1.0\"?>\n<configuration>\n  <property>\n    <name>yarn.resourcemanager.scheduler.class</name>\n    <value>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler</value>\n  </property>\n  <property>\n    <name>yarn.scheduler.fair.assignmultiple</name>\n    <value>true</value>\n  </property>\n</configuration>\n";

/// A yarn-site.xml given as `[allocation] file` is called what it is and pointed to
/// `scheduler.yarn_site`, rather than told it must list root's queues.
#[test]
fn a_yarn_site_given_as_the_allocation_file_says_where_it_goes() {
    let scenario = "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
                    [allocation]\nfile = \"yarn-site.xml\"\n[workload]\nsls = \"jobs.json\"\n";
    let d = dir_with(&[
        ("yarn-site.xml", YARN_SITE),
        ("jobs.json", SLS_TRACE),
        ("s.toml", scenario),
    ]);
    for args in [
        &["validate", "s.toml"][..],
        &["run", "s.toml", "--out", "out"],
    ] {
        let o = fairsim(d.path(), args);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(
                "yarn-site.xml:2: <configuration>: holds no yarn.scheduler.capacity.* property: \
                 this is a yarn-site.xml or an sls-runner.xml, not a capacity-scheduler.xml \
                 (name it in the scenario with `scheduler.yarn_site`"
            ),
            "{err}"
        );
    }
}

/// `fairsim validate` of a JSON file says what the file looks like and what reads it,
/// rather than "malformed xml: unknown token at 1:1".
#[test]
fn validate_of_a_json_file_says_what_it_is() {
    let snapshot = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/snapshot-seed004.json"),
    )
    .unwrap();
    let d = dir_with(&[
        ("sls-jobs.json", SLS_TRACE),
        ("rumen.json", RUMEN_TRACE),
        ("snap.json", &snapshot),
        ("list.json", "[ {\"job.start.ms\": 0} ]"),
        ("other.json", "{\"a\": 1}"),
    ]);
    for (file, says) in [
        (
            "sls-jobs.json",
            "this looks like an SLS JSON job trace (read it with `sls = ...` in [workload])",
        ),
        (
            "rumen.json",
            "this looks like a Rumen job history (read it with `rumen = ...` in [workload])",
        ),
        (
            "snap.json",
            "this looks like a fair-share snapshot (read it with `fairsim shares` or `fairsim rank`)",
        ),
        (
            "list.json",
            "a JSON array (fairsim's JSON inputs are objects: SLS traces, Rumen histories, SYNTH and nodes files, snapshots)",
        ),
        ("other.json", "an object of no JSON input fairsim reads"),
    ] {
        let o = fairsim(d.path(), &["validate", file]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{file}: {out}{err}");
        assert!(out.is_empty(), "{out}");
        assert_eq!(
            err,
            format!(
                "fairsim: {file}: a JSON file, not one validate reads (a scenario .toml, a \
                 fair-scheduler.xml, a capacity-scheduler.xml, a yarn-site.xml or an \
                 sls-runner.xml): {says}\n"
            ),
            "{file}"
        );
    }
}

/// `fairsim validate` of a scenario whose workload names a queue the allocation file does
/// not (SLS's sls_queue_4 beside the bundled sls_queue_1..3) names the queues submission
/// would create and the rules that create them, rather than a bare "ok".
#[test]
fn validate_names_the_queues_submission_would_create_and_their_rules() {
    let alloc = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/sls_queues.xml"),
    )
    .unwrap();
    let job = |start: u32, queue: &str, id: &str, user: &str| {
        format!(
            "{{\"job.start.ms\": {start}, \"job.queue.name\": \"{queue}\", \"job.id\": \"{id}\", \
             \"job.user\": \"{user}\", \"job.tasks\": [{{\"container.duration.ms\": 100}}]}}\n"
        )
    };
    let jobs = [
        job(0, "sls_queue_4", "job_a", "alice"),
        job(10, "sls_queue_4", "job_b", "bob"),
        job(20, "default", "job_c", "carol"),
        job(30, "sls_queue_1", "job_d", "carol"),
    ]
    .concat();
    let scenario = "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
                    [allocation]\nfile = \"sls_queues.xml\"\n[workload]\nsls = \"jobs.json\"\n";
    let d = dir_with(&[
        ("sls_queues.xml", &alloc),
        ("jobs.json", &jobs),
        ("s.toml", scenario),
    ]);
    let o = fairsim(d.path(), &["validate", "s.toml"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        out.ends_with("ok, scenario `s`, 5 queues, 2 nodes\n"),
        "{out}"
    );
    let expected = "warning: submission would create 2 queues the allocation file does not name (seed 1): root.sls_queue_4, root.carol\n\
         warning:   root.sls_queue_4: by <rule name=\"specified\"/> for app job_a (queue `sls_queue_4`, user `alice`) (and 1 more app)\n\
         warning:   root.carol: by <rule name=\"user\"/> for app job_c (queue `default`, user `carol`)\n";
    assert!(err.ends_with(expected), "{err}");
    // A policy of its own is named as the file writes it; a rule that may not create
    // creates nothing, and the app it leaves unplaced is a rejection, not a new queue.
    let policy = alloc.replace(
        "</allocations>",
        "  <queuePlacementPolicy>\n    <rule name=\"specified\" create=\"false\"/>\n    <rule name=\"primaryGroup\"/>\n  </queuePlacementPolicy>\n</allocations>",
    );
    std::fs::write(d.path().join("sls_queues.xml"), policy).unwrap();
    let o = fairsim(d.path(), &["validate", "s.toml"]);
    let (_, err) = text(&o);
    assert!(
        err.contains(
            "warning:   root.alice: by <rule name=\"primaryGroup\"/> for app job_a (queue `sls_queue_4`, user `alice`)\n"
        ),
        "{err}"
    );
    assert!(!err.contains("root.sls_queue_4"), "{err}");
}

/// The bundled allocation file is one YARN reads without a word: its `<user>` limit is
/// `<maxRunningApps>` (SLS's sample wrote MR1's `<maxRunningJobs>`, which YARN ignores and
/// fairsim warns about on every run of a user's file).
#[test]
fn the_bundled_sls_queues_validate_without_warnings() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for file in ["scenarios/sls_queues.xml", "scenarios/sls_queues.toml"] {
        let o = fairsim(&root, &["validate", file]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert_eq!(err, "", "{file}");
        if file.ends_with(".xml") {
            assert!(out.contains("user jenkins: maxRunningApps=1000\n"), "{out}");
        }
    }
}
