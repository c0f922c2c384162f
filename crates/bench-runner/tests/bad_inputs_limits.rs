//! The bad-input catalogue's cases about work bounded before it is done: real histories that
//! panicked, traces whose expansion exhausted memory before any check, draws and outputs
//! without bound, idle simulated time that cost wall time. Each case writes its own small
//! inputs, runs the `fairsim` binary with a wall-clock bound (a hang fails the case instead
//! of the suite), and checks the exit code, what the message names, and that a failing
//! command leaves nothing half-written.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

const FAIR_XML: &str = r#"<allocations>
  <defaultFairSharePreemptionTimeout>1</defaultFairSharePreemptionTimeout>
  <defaultFairSharePreemptionThreshold>1.0</defaultFairSharePreemptionThreshold>
  <queue name="big"/><queue name="x"/>
</allocations>
"#;

/// A scenario over `workload` (a `[workload]` line such as `csv = "t.csv"`) with `sched`
/// lines added to `[scheduler]` and `end` as its `end_ms` line (empty for none).
fn scenario(workload: &str, sched: &str, end: &str, sample_ms: u64) -> String {
    format!(
        "name = \"lim\"\n{end}\n[cluster]\nnodes = 1\nracks = 1\nnode_memory_mb = 4096\n\
         node_vcores = 4\n[scheduler]\nheartbeat_ms = 1000\n{sched}\n[allocation]\n\
         file = \"fs.xml\"\n[workload]\n{workload}\n[outputs]\nsample_interval_ms = {sample_ms}\n"
    )
}

/// Hadoop 3.3 with preemption on.
const PREEMPT_33: &str = "semantics = \"hadoop-3.3\"\npreemption = true";

struct Case {
    /// What is wrong (or what once went wrong), in words.
    what: &'static str,
    /// Files written in the case's directory besides `fs.xml`.
    files: Vec<(&'static str, String)>,
    args: &'static [&'static str],
    code: i32,
    /// Substrings stderr must hold.
    expect: &'static [&'static str],
    /// The command must end within this many seconds.
    within_s: u64,
}

const RUN: &[&str] = &["run", "s.toml", "--out", "out"];
const VALIDATE: &[&str] = &["validate", "s.toml"];

/// An SLS job of `replicas` copies, each of `entries` task entries of `count` containers.
fn sls_job(replicas: u64, entries: usize, count: u64) -> String {
    let task = format!("{{ \"count\": {count}, \"container.duration.ms\": 1000 }}");
    let tasks = vec![task; entries].join(",\n");
    format!(
        "{{ \"job.start.ms\": 0, \"job.queue.name\": \"big\", \"job.id\": \"j\",\n  \
         \"job.count\": {replicas},\n  \"job.tasks\": [\n{tasks} ] }}\n"
    )
}

/// A SYNTH file of `jobs` jobs whose map count is `count`.
fn synth(jobs: u64, count: &str) -> String {
    format!(
        "{{ \"num_jobs\": {jobs},\n  \"workloads\": [ {{ \"workload_weight\": 1, \"queue_name\": \"big\",\n    \
         \"job_classes\": [ {{ \"class_weight\": 1, \"tasks\": [ {{ \"type\": \"map\",\n      \
         \"count\": {count},\n      \
         \"time\": {{\"val\": 1000}}, \"max_memory\": {{\"val\": 1024}}, \"max_vcores\": {{\"val\": 1}} }} ] }} ],\n    \
         \"time_distribution\": [ {{ \"time\": 0, \"weight\": 1 }} ] }} ] }}\n"
    )
}

fn cases() -> Vec<Case> {
    vec![
        // A starved app hinted at a host no node has, under Hadoop 3.3 preemption: skipped
        // as Hadoop's VisitedResourceRequestTracker skips it, not an index out of bounds.
        Case {
            what: "3.3 preemption for a CSV task hinted at an unknown host",
            files: vec![
                (
                    "t.csv",
                    "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
                     big,0,big,u,0,0,0,4,1024,1,1000000,1,\n\
                     x,20000,x,u,0,0,0,1,1024,1,1000000,1,ghost\n"
                        .into(),
                ),
                (
                    "s.toml",
                    scenario("csv = \"t.csv\"", PREEMPT_33, "end_ms = 100000", 0),
                ),
            ],
            args: RUN,
            code: 0,
            expect: &["1 of 1 task host hints name no node of the cluster"],
            within_s: 60,
        },
        Case {
            what: "3.3 preemption for an SLS task whose container.host is outside the nodes",
            files: vec![
                (
                    "j.json",
                    r#"{ "job.start.ms": 0, "job.queue.name": "big", "job.id": "big",
  "job.tasks": [ { "count": 3, "container.duration.ms": 1000000 } ] }
{ "job.start.ms": 20000, "job.queue.name": "x", "job.id": "x",
  "job.tasks": [ { "count": 2, "container.duration.ms": 1000000,
                   "container.host": "/default-rack/ghost" } ] }
"#
                    .into(),
                ),
                (
                    "s.toml",
                    scenario("sls = \"j.json\"", PREEMPT_33, "end_ms = 100000", 0),
                ),
            ],
            args: RUN,
            code: 0,
            expect: &["1 of 1 task host hints name no node of the cluster"],
            within_s: 60,
        },
        // SLS replicas are priced before they are made: a 70 KB job of 1,500 task entries
        // copied a million times exhausted memory before any check, even in `validate`.
        Case {
            what: "an SLS job.count of 10^6 over 1,500 task entries",
            files: vec![
                ("j.json", sls_job(1_000_000, 1500, 1)),
                (
                    "s.toml",
                    scenario("sls = \"j.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: VALIDATE,
            code: 2,
            expect: &[
                "j.json:2: job.count: 1000000 replicas of this job: 1500000000 containers in all: the limit of one run is 1000000000 (docs/limits.md)",
            ],
            within_s: 20,
        },
        Case {
            what: "an SLS job.count of 10^5 over 1,500 task entries: memory",
            files: vec![
                ("j.json", sls_job(100_000, 1500, 1)),
                (
                    "s.toml",
                    scenario("sls = \"j.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: VALIDATE,
            code: 2,
            expect: &[
                "j.json:2: job.count: 100000 replicas of this job: the apps would hold about 53.9 GiB in a run: the limit is 16 GiB (docs/limits.md)",
            ],
            within_s: 20,
        },
        // 10^14 containers passed `validate` (the run's container limit was read for CSV
        // traces only) and aborted `run`.
        Case {
            what: "an SLS job.count of 10^6 over a count of 10^8",
            files: vec![
                ("j.json", sls_job(1_000_000, 1, 100_000_000)),
                (
                    "s.toml",
                    scenario("sls = \"j.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: VALIDATE,
            code: 2,
            expect: &[
                "j.json:2: job.count: 1000000 replicas of this job: 100000000000000 containers in all: the limit of one run is 1000000000",
            ],
            within_s: 20,
        },
        // SYNTH counts: the expected tasks are those a draw gives once cut to 0..=10^6, not
        // the nominal mean (a normal of mean 1 drew ~10^10 tasks and hung).
        Case {
            what: "a SYNTH count normal with mean 1 and deviation 10^6",
            files: vec![
                (
                    "syn.json",
                    synth(10_000, r#"{"val": 1, "std": 1000000, "dist": "NORM"}"#),
                ),
                (
                    "s.toml",
                    scenario("synth = \"syn.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: RUN,
            code: 2,
            expect: &[
                "syn.json:1: num_jobs: 10000 jobs would draw about 3156",
                "the limit is 20000000 tasks in a run (docs/limits.md)",
            ],
            within_s: 20,
        },
        Case {
            what: "a SYNTH count drawn from [-10^6, 10^6]",
            files: vec![
                ("syn.json", synth(10_000, r#"{"discrete": [-1000000, 1000000]}"#)),
                (
                    "s.toml",
                    scenario("synth = \"syn.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: RUN,
            code: 2,
            expect: &[
                "syn.json:4: workloads[0].job_classes[0].tasks[0].count: discrete value -1000000 is out of range: the limit is a finite number from 0 to 1e300",
            ],
            within_s: 20,
        },
        Case {
            what: "a SYNTH count drawn from [0, 10^6]",
            files: vec![
                ("syn.json", synth(10_000, r#"{"discrete": [0, 1000000]}"#)),
                (
                    "s.toml",
                    scenario("synth = \"syn.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: RUN,
            code: 2,
            expect: &["syn.json:1: num_jobs: 10000 jobs would draw about 5000000000 tasks"],
            within_s: 20,
        },
        Case {
            what: "a SYNTH constant count of -5 (became 0 tasks)",
            files: vec![
                ("syn.json", synth(2, r#"{"val": -5}"#)),
                (
                    "s.toml",
                    scenario("synth = \"syn.json\"", "", "end_ms = 100000", 0),
                ),
            ],
            args: VALIDATE,
            code: 2,
            expect: &[
                "syn.json:4: workloads[0].job_classes[0].tasks[0].count: val -5 is out of range: the limit is a finite number from 0 to 1e300",
            ],
            within_s: 20,
        },
        // Without end_ms the rows of queues.csv are counted up to a trace's last arrival:
        // a job at the ten-year limit sampled every second wrote rows for minutes.
        Case {
            what: "a job at the ten-year limit, no end_ms, sampled every second",
            files: vec![
                (
                    "t.csv",
                    "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
                     j,315576000000,big,u,0,0,0,1,1024,1,1000,1,\n"
                        .into(),
                ),
                ("s.toml", scenario("csv = \"t.csv\"", "", "", 1000)),
            ],
            args: RUN,
            code: 2,
            expect: &[
                "s.toml:16: outputs.sample_interval_ms: a run would write about 1262.3 million queues.csv rows",
                "the limit is 100 million (docs/limits.md)",
            ],
            within_s: 20,
        },
        // A synthetic workload's arrivals exist only once drawn: its rows were bounded only
        // as the run went, after about 10^8 of them were written.
        Case {
            what: "a drawn workload arriving near the ten-year limit without end_ms",
            files: vec![(
                "s.toml",
                scenario(
                    "[[workload.synthetic.queues]]\nqueue = \"big\"\napps = 1\n\
                     mean_interarrival_ms = 1000\nstart_ms = 300000000000\n\
                     tasks = { dist = \"constant\", value = 1 }\n\
                     duration_ms = { dist = \"constant\", value = 1000 }",
                    "",
                    "",
                    1000,
                )
                .replace("[workload]\n[[workload", "[[workload"),
            )],
            args: RUN,
            code: 2,
            expect: &[
                "outputs.sample_interval_ms: the workload drawn for this seed has its last arrival at 3000",
                "a run without end_ms would write at least",
                "the limit is 100 million (docs/limits.md)",
            ],
            within_s: 20,
        },
        // A node heartbeat of 2^31 ms (25 days) was valid: apps waited weeks for a beat,
        // sampled every 10 s into gigabytes of queues.csv. YARN expires a node that does not
        // beat for 600 s (its liveness monitor's default).
        Case {
            what: "a node heartbeat longer than YARN's liveness expiry",
            files: vec![
                (
                    "t.csv",
                    "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
                     j,0,big,u,0,0,0,1,1024,1,1000,1,\n"
                        .into(),
                ),
                (
                    "s.toml",
                    scenario("csv = \"t.csv\"", "", "", 10_000)
                        .replace("heartbeat_ms = 1000", "heartbeat_ms = 2147483648"),
                ),
            ],
            args: RUN,
            code: 2,
            expect: &[
                "s.toml:9",
                "scheduler.heartbeat_ms",
                "2147483648",
                "the limit is 1 to 600000",
            ],
            within_s: 20,
        },
        Case {
            what: "an AM heartbeat longer than YARN's liveness expiry",
            files: vec![
                (
                    "t.csv",
                    "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
                     j,0,big,u,1024,1,0,1,1024,1,1000,1,\n"
                        .into(),
                ),
                (
                    "s.toml",
                    scenario("csv = \"t.csv\"", "am_heartbeat_ms = 600001", "", 10_000),
                ),
            ],
            args: RUN,
            code: 2,
            expect: &[
                "s.toml:10",
                "scheduler.am_heartbeat_ms",
                "600001",
                "the limit is 0 to 600000",
            ],
            within_s: 20,
        },
        // One app of 200,000 rows: each row scanned the app's earlier groups (22 s for
        // 50,000 rows on a release build, 220 s for 400,000); now linear.
        Case {
            // Units were split off by testing the rest of the value at every letter: a
            // megabyte of letters before the number took hours.
            what: "an absolute capacity of a million letters before its number, in linear time",
            files: vec![
                (
                    "cs.xml",
                    format!(
                        "<configuration>\n<property><name>yarn.scheduler.capacity.root.queues</name>\
                         <value>a</value></property>\n<property><name>\
                         yarn.scheduler.capacity.root.a.capacity</name><value>[memory={}2048]\
                         </value></property>\n</configuration>\n",
                        "a".repeat(1_000_000)
                    ),
                ),
            ],
            args: &["validate", "cs.xml"],
            code: 2,
            expect: &[
                "cs.xml:3: <property> yarn.scheduler.capacity.root.a.capacity: \"aaaa",
                "is not a Java long with optional units",
            ],
            within_s: 30,
        },
        Case {
            what: "a CSV app of 200,000 rows is read in linear time",
            files: vec![
                ("t.csv", {
                    let mut t = String::from(
                        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n",
                    );
                    for i in 0..200_000 {
                        t.push_str(&format!("j,0,big,u,0,0,0,1,1024,1,{},1,\n", 1000 + i));
                    }
                    t
                }),
                ("s.toml", scenario("csv = \"t.csv\"", "", "end_ms = 1", 0)),
            ],
            args: VALIDATE,
            code: 0,
            expect: &[],
            within_s: 60,
        },
    ]
}

/// Runs one case; `None` when it behaved, else what went wrong.
fn check(c: &Case) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "fs.xml", FAIR_XML);
    for (name, text) in &c.files {
        write(dir.path(), name, text);
    }
    let stderr = std::fs::File::create(dir.path().join("stderr")).unwrap();
    let mut child = common::fixture::command()
        .args(c.args)
        .current_dir(dir.path())
        .env("CI", "true")
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() > Duration::from_secs(c.within_s) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let err = std::fs::read_to_string(dir.path().join("stderr")).unwrap_or_default();
    let mut wrong = Vec::new();
    match status {
        None => wrong.push(format!("still running after {} s", c.within_s)),
        Some(s) if s.code() != Some(c.code) => {
            wrong.push(format!("exit {:?}, expected {}", s.code(), c.code))
        }
        Some(_) => {}
    }
    for e in c.expect {
        if !err.contains(e) {
            wrong.push(format!("no `{e}`"));
        }
    }
    if c.code != 0 && dir.path().join("out").exists() {
        wrong.push("left `out` behind".into());
    }
    if c.code != 0 && dir.path().join(".out.partial").exists() {
        wrong.push("left `.out.partial` behind".into());
    }
    let tail: String = err.chars().take(2000).collect();
    (!wrong.is_empty()).then(|| format!("{}\n    stderr: {}", wrong.join("; "), tail.trim()))
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn bounded_work_cases_get_their_exit_code_in_time() {
    let cases = cases();
    common::catalogue::assert_every_case(&cases, |c| c.what, check);
}
