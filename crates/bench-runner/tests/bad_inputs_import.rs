//! The bad-input catalogue of the files a cluster and a sweep leave behind: ResourceManager
//! logs, recorded times and REST responses (`fairsim import`, `check replay`), and a sweep
//! directory's `sweep.json` (`fairsim plot` and `merge`). Each case copies the bundled inputs
//! into its own directory, edits one file, and checks the exit code, that the message names
//! the file, line or field and the limit, and that nothing was written. Every case is a parse
//! and a check, well under a second.

mod common;

use std::path::Path;
use std::time::Duration;

struct Case {
    /// What is wrong, in words.
    what: &'static str,
    /// The file edited, relative to the case's directory.
    file: &'static str,
    /// Its edit.
    edit: fn(&str) -> String,
    args: &'static [&'static str],
    code: i32,
    /// Substrings the message (stderr) must hold.
    expect: &'static [&'static str],
}

const LOGS: &[&str] = &["import", "logs", "rm.log", "--out", "out"];
const CHECK_REPLAY: &[&str] = &[
    "check",
    "replay",
    "--recorded",
    "recorded.csv",
    "--apps",
    "apps.csv",
];
const IMPORT_RM: &[&str] = &[
    "import",
    "rm",
    "--scheduler",
    "scheduler.json",
    "--nodes",
    "nodes.json",
    "--apps",
    "apps.json",
    "--alloc",
    "fair-scheduler.xml",
    "--remaining",
    "fixed:60000",
    "--out",
    "out",
];

/// A sweep directory of one axis and one metric, as `fairsim sweep` writes it.
const SWEEP_JSON: &str = r#"{
  "name": "sw",
  "fingerprint": "0123456789abcdef",
  "n_runs": 2,
  "axes": [
    "queues.a.weight"
  ],
  "charts": {
    "metric": "jain_index",
    "heatmap": null,
    "lines_x": "queues.a.weight",
    "lines_metrics": [],
    "run": 0
  }
}
"#;
const RUNS_CSV: &str = "run_index,queues.a.weight,seed,jain_index\n0,1,1,0.5\n1,2,1,0.75\n";

fn cases() -> Vec<Case> {
    vec![
        // ResourceManager logs: what the trace would not hold is refused at its line, as
        // the trace's own reader would refuse the file the import wrote.
        Case {
            what: "an audit line's container above a Java int of memory",
            file: "rm.log",
            edit: |t| {
                t.replacen(
                    "<memory:2048, vCores:1>",
                    "<memory:4294967296, vCores:1>",
                    1,
                )
            },
            args: LOGS,
            code: 2,
            expect: &[
                "rm.log:3: `RESOURCE` memory: 4294967296 is out of range: the limit is 0 to 2147483647",
            ],
        },
        Case {
            what: "an audit line's container above a Java int of vcores",
            file: "rm.log",
            edit: |t| {
                t.replacen(
                    "<memory:2048, vCores:1>",
                    "<memory:2048, vCores:315576000001>",
                    1,
                )
            },
            args: LOGS,
            code: 2,
            expect: &["rm.log:3: `RESOURCE` vCores: 315576000001 is out of range"],
        },
        Case {
            // 2.7's audit lines carry no size: 9e15 MB-seconds over the app's 34.8 s of
            // container run time (AM 14.4 s, tasks 10 s and 10.4 s) is 2.6e14 MB each.
            what: "a 2.7 summary whose memorySeconds make containers above a Java int",
            file: "rm.log",
            edit: |t| {
                let lines: Vec<String> = t
                    .lines()
                    .map(|l| match l.find("\tRESOURCE=") {
                        Some(i) => {
                            let end = l[i + 1..].find('\t').map_or(l.len(), |j| i + 1 + j);
                            format!("{}{}", &l[..i], &l[end..])
                        }
                        None => l.to_string(),
                    })
                    .collect();
                (lines.join("\n") + "\n").replacen(
                    "memorySeconds=61440",
                    "memorySeconds=9000000000000000",
                    1,
                )
            },
            args: LOGS,
            code: 2,
            expect: &[
                "rm.log:13: application_1700000000000_0001: containers estimated from `memorySeconds` and `vcoreSeconds` at ",
                " MB each: ",
                "is out of range: the limit is 0 to 2147483647",
            ],
        },
        Case {
            what: "two submissions further apart than the trace's ten years",
            file: "rm.log",
            edit: |t| {
                t.replacen("startTime=1700000002000", "startTime=2100000002000", 1)
                    .replacen("finishTime=1700000024950", "finishTime=2100000024950", 1)
            },
            args: LOGS,
            code: 2,
            expect: &[
                "rm.log:18: application_1700000000000_0002: `submitTime` 2100000002000 is 400000002000 ms after the first app's, 1700000000000: 400000002000 is out of range: the limit is 0 to 315576000000",
            ],
        },
        Case {
            what: "recorded times whose finish is before the submission",
            file: "recorded.csv",
            edit: |t| t.replacen(",0,500,900,1000,14900,", ",600,700,900,1000,550,", 1),
            args: CHECK_REPLAY,
            code: 2,
            expect: &[
                "recorded.csv:2: `finish_ms` 550 is before the submission 600 (`submit_ms`): time goes backwards",
            ],
        },
        Case {
            what: "recorded times with a row cut short",
            file: "recorded.csv",
            edit: |t| t.replacen(",1000,14900,3,1700000000000", "", 1),
            args: CHECK_REPLAY,
            code: 2,
            expect: &["recorded.csv:2: CSV error: record 1 (line: 2, byte: "],
        },
        // REST responses: counts and sizes the trace would not hold, refused at their field
        // (a count past the limit was placed one container at a time, for hours).
        Case {
            what: "an app running more containers than a trace group holds",
            file: "apps.json",
            edit: |t| {
                t.replacen(
                    "\"runningContainers\": 3",
                    "\"runningContainers\": 315576000000",
                    1,
                )
            },
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "apps.json:18: apps.app[0].runningContainers: 315576000000 is out of range: the limit is 0 to 100000000",
            ],
        },
        Case {
            what: "a pending ask of more containers than a trace group holds",
            file: "apps.json",
            edit: |t| t.replacen("\"numContainers\": 7", "\"numContainers\": 100000001", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "apps.json:30: apps.app[0].resourceRequests[0].numContainers: 100000001 is out of range: the limit is 0 to 100000000",
            ],
        },
        Case {
            what: "a pending ask above a Java int of memory",
            file: "apps.json",
            edit: |t| t.replacen("\"memory\": 1024", "\"memory\": 2147483648", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "apps.json:26: apps.app[0].resourceRequests[0].capability.memory: 2147483648 is out of range: the limit is 0 to 2147483647",
            ],
        },
        Case {
            what: "running containers each above a Java int of memory",
            file: "apps.json",
            edit: |t| t.replacen("\"allocatedMB\": 3072", "\"allocatedMB\": 6442450944", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "apps.json:16: apps.app[0].allocatedMB: each of its 3 containers: 2147483648 is out of range: the limit is 0 to 2147483647",
            ],
        },
        // Faults found once a response is parsed name the line of the value at fault, or of
        // the object lacking a key, as a syntax error names its own.
        Case {
            what: "a node whose available memory is negative",
            file: "nodes.json",
            edit: |t| t.replacen("\"availMemoryMB\": 3072", "\"availMemoryMB\": -3072", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "nodes.json:32: nodes.node[1].availMemoryMB: missing or not a non-negative integer",
            ],
        },
        Case {
            what: "a node without a host name",
            file: "nodes.json",
            edit: |t| t.replacen("        \"nodeHostName\": \"h2\",\n", "", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &["nodes.json:21: nodes.node[1].nodeHostName: missing or not a string"],
        },
        Case {
            what: "a queue's steady fair share that is not a number",
            file: "scheduler.json",
            edit: |t| t.replacen("\"memory\": 4916", "\"memory\": \"4916\"", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "scheduler.json:103: rootQueue.childQueues[0].steadyFairResources.memory: not a non-negative integer",
            ],
        },
        Case {
            what: "a running app without its pending requests",
            file: "apps.json",
            edit: |t| t.replacen("\"resourceRequests\"", "\"resourceAsks\"", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &[
                "apps.json:4: apps.app[0] (application_1700000000000_0007): no `resourceRequests`",
            ],
        },
        Case {
            what: "apps.json of another endpoint",
            file: "apps.json",
            edit: |t| t.replacen("\"apps\": {", "\"jobs\": {", 1),
            args: IMPORT_RM,
            code: 2,
            expect: &["apps.json:1: no `apps`: not a /ws/v1/cluster/apps response"],
        },
        // A CSV without a column the reader needs is refused at its header line.
        Case {
            what: "recorded times without their launch column",
            file: "recorded.csv",
            edit: |t| t.replacen(",launch_ms,", ",launched_ms,", 1),
            args: CHECK_REPLAY,
            code: 2,
            expect: &["recorded.csv:1: no `launch_ms` column"],
        },
        Case {
            // 500 - i64::MIN overflowed: the wait printed as -9223372036854775308 ms, exit 0.
            what: "recorded times whose submission is far before the trace's clock starts",
            file: "recorded.csv",
            edit: |t| t.replacen(",0,500,900,", ",-9223372036854775808,500,900,", 1),
            args: CHECK_REPLAY,
            code: 2,
            expect: &[
                "recorded.csv:2: `submit_ms`: -9223372036854775808 is out of range: the limit is 0 to 315576000000",
            ],
        },
        Case {
            what: "recorded times with an app's row twice",
            file: "recorded.csv",
            edit: first_row_again,
            args: CHECK_REPLAY,
            code: 2,
            expect: &[
                "recorded.csv:4: app `application_1700000000000_0001` again (first at line 2): one row per app",
            ],
        },
        Case {
            what: "a run's apps.csv with an app's row twice",
            file: "apps.csv",
            edit: first_row_again,
            args: CHECK_REPLAY,
            code: 2,
            expect: &[
                "apps.csv:3: app `application_1700000000000_0001` again (first at line 2): one row per app",
            ],
        },
        Case {
            what: "a run's apps.csv with a negative wait",
            file: "apps.csv",
            edit: |t| {
                t.replacen(
                    ",root.etl,0,11000",
                    ",root.etl,-9223372036854775808,11000",
                    1,
                )
            },
            args: CHECK_REPLAY,
            code: 2,
            expect: &[
                "apps.csv:2: `wait_ms`: -9223372036854775808 is out of range: the limit is 0 to 315576000000",
            ],
        },
        Case {
            what: "a run's apps.csv without its jct column",
            file: "apps.csv",
            edit: |t| t.replacen(",jct_ms", ",jct", 1),
            args: CHECK_REPLAY,
            code: 2,
            expect: &["apps.csv:1: no `jct_ms` column"],
        },
        // A sweep directory's sweep.json edited to name what the sweep lacks: refused as bad
        // input naming its line, not a drawing failure (exit 1).
        Case {
            what: "plot of a sweep.json whose line chart names no axis of the sweep",
            file: "sw/sweep.json",
            edit: |t| {
                t.replacen(
                    "\"lines_x\": \"queues.a.weight\"",
                    "\"lines_x\": \"queues.b.weight\"",
                    1,
                )
            },
            args: &["plot", "sw"],
            code: 2,
            expect: &[
                "sw/sweep.json:11: the charts name `queues.b.weight`, which is not an axis of the sweep (queues.a.weight)",
            ],
        },
        Case {
            what: "plot of a sweep.json whose metric is not among the runs'",
            file: "sw/sweep.json",
            edit: |t| {
                t.replacen(
                    "\"metric\": \"jain_index\"",
                    "\"metric\": \"jain_indexx\"",
                    1,
                )
            },
            args: &["plot", "sw"],
            code: 2,
            expect: &[
                "sw/sweep.json:9: the charts name metric `jain_indexx`, which is not among the runs' metrics",
            ],
        },
        Case {
            what: "plot of a runs.csv with a row cut short",
            file: "sw/runs.csv",
            edit: |t| t.replacen("1,2,1,0.75", "1,2,1", 1),
            args: &["plot", "sw"],
            code: 2,
            expect: &["sw/runs.csv:3: CSV error: record 2 (line: 3, byte: "],
        },
        Case {
            what: "plot of a runs.csv whose header lost its first column",
            file: "sw/runs.csv",
            edit: |t| t.replacen("run_index,", "", 1),
            args: &["plot", "sw"],
            code: 2,
            expect: &[
                "sw/runs.csv:1: expected columns run_index, the axes, seed, then the metrics",
            ],
        },
        Case {
            what: "plot of a runs.csv whose axes are not sweep.json's",
            file: "sw/runs.csv",
            edit: |t| t.replacen("queues.a.weight", "queues.b.weight", 1),
            args: &["plot", "sw"],
            code: 2,
            expect: &["sw/runs.csv:1: axes differ from sweep.json"],
        },
    ]
}

/// `t` with its first row (after the header) again at the end.
fn first_row_again(t: &str) -> String {
    let row = t.lines().nth(1).expect("a first row");
    format!("{t}{row}\n")
}

fn write_inputs(dir: &Path) {
    let import = common::fixture::scenarios().join("import");
    std::fs::copy(import.join("rm.log"), dir.join("rm.log")).unwrap();
    std::fs::copy(import.join("recorded.csv"), dir.join("recorded.csv")).unwrap();
    std::fs::write(
        dir.join("apps.csv"),
        "app,queue,wait_ms,jct_ms\napplication_1700000000000_0001,root.etl,0,11000\n",
    )
    .unwrap();
    for f in [
        "scheduler.json",
        "nodes.json",
        "apps.json",
        "fair-scheduler.xml",
    ] {
        std::fs::copy(import.join("fair-bundle").join(f), dir.join(f)).unwrap();
    }
    std::fs::create_dir(dir.join("sw")).unwrap();
    std::fs::write(dir.join("sw/sweep.json"), SWEEP_JSON).unwrap();
    std::fs::write(dir.join("sw/runs.csv"), RUNS_CSV).unwrap();
}

/// Runs one case; `None` when it behaved, else what went wrong.
fn check(c: &Case) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    write_inputs(dir.path());
    let path = dir.path().join(c.file);
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = (c.edit)(&text);
    if edited == text {
        return Some("the edit changes nothing".into());
    }
    std::fs::write(&path, edited).unwrap();
    let before: Vec<_> = std::fs::read_dir(dir.path().join("sw"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let (code, err) =
        match common::mutate::run_bounded_in(dir.path(), c.args, Duration::from_secs(10), None) {
            Ok(r) => r,
            Err(e) => return Some(e),
        };
    let mut wrong = Vec::new();
    if code != c.code {
        wrong.push(format!("exit {code}, expected {}", c.code));
    }
    for e in c.expect {
        if !err.contains(e) {
            wrong.push(format!("no `{e}`"));
        }
    }
    if dir.path().join("out").exists() {
        wrong.push("left `out` behind".into());
    }
    let after: Vec<_> = std::fs::read_dir(dir.path().join("sw"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    if after != before {
        wrong.push(format!("wrote into sw/: {after:?}"));
    }
    (!wrong.is_empty()).then(|| format!("{}\n    stderr: {}", wrong.join("; "), err.trim()))
}

#[test]
fn every_bad_cluster_or_sweep_file_gets_exit_2_and_a_message_naming_where() {
    let cases = cases();
    common::catalogue::assert_every_case(&cases, |c| c.what, check);
}
