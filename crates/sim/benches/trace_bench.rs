//! Trace parsing speed: a generated SLS JSON trace of 50,000 jobs (100 tasks each in 10 task
//! groups: 5,000,000 tasks, `//` comments and a cluster header included) and a generated
//! Rumen job history of 50,000 jobs (8 maps and 2 reduces each, one or two attempts per task,
//! with Rumen's usage counters), each written to a temporary file and read through the
//! scenario loader's readers.
//!
//! Prints the file size, the wall time, MB/s and jobs/s, and asserts that the jobs, tasks and
//! the sum of task run times read equal what the generator wrote, so the benchmark is also a
//! correctness test. `FAIRSIM_BENCH_SCALE` (a fraction, default 1) shrinks both files.

use fairsim_core::Semantics;
use fairsim_sim::app::AppSpec;
use fairsim_sim::workload::SlsDefaults;
use fairsim_sim::workload::rumen::{RumenOptions, read_rumen_traces};
use fairsim_sim::workload::sls::read_sls_trace;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

/// What a generator wrote, to check what the reader read.
#[derive(Debug, PartialEq, Eq)]
struct Totals {
    jobs: u64,
    tasks: u64,
    task_ms: u64,
}

fn totals(apps: &[AppSpec]) -> Totals {
    let groups = apps.iter().flat_map(|a| a.stages.iter().flatten());
    let (mut tasks, mut task_ms) = (0, 0);
    for g in groups {
        tasks += g.count as u64;
        task_ms += g.count as u64 * g.duration_ms;
    }
    Totals {
        jobs: apps.len() as u64,
        tasks,
        task_ms,
    }
}

/// A reproducible pseudo-random number (splitmix64 of `i`).
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn write_sls(path: &Path, jobs: u64) -> Totals {
    let mut s = String::with_capacity(jobs as usize * 2200);
    s.push_str("// generated SLS trace\n{ \"num.nodes\": 1000, \"num.racks\": 20 }\n");
    let (mut tasks, mut task_ms) = (0, 0);
    for j in 0..jobs {
        let _ = write!(
            s,
            "{{\n  \"am.type\": \"mapreduce\",\n  \"job.start.ms\": {},\n  \"job.end.ms\": {},\n  \"job.queue.name\": \"sls_queue_{}\",\n  \"job.id\": \"job_{j}\",\n  \"job.user\": \"user{}\", // owner\n  \"job.tasks\": [",
            j * 700,
            j * 700 + 90_000,
            j % 3 + 1,
            j % 50
        );
        for g in 0..10u64 {
            let dur = 1000 + mix(j * 10 + g) % 60_000;
            let kind = if g < 8 { "map" } else { "reduce" };
            let _ = write!(
                s,
                "{}\n    {{ \"count\": 10, \"container.host\": \"/rack{}/host{}.example.com\", \"container.start.ms\": {}, \"container.end.ms\": {}, \"container.priority\": {}, \"container.type\": \"{kind}\", \"container.memory-mb\": 2048, \"container.vcores\": 1 }}",
                if g == 0 { "" } else { "," },
                g % 20,
                (j + g) % 1000,
                j * 700,
                j * 700 + dur,
                if g < 8 { 20 } else { 10 }
            );
            tasks += 10;
            task_ms += 10 * dur;
        }
        s.push_str("\n  ]\n}\n");
    }
    std::fs::write(path, s).expect("write the SLS trace");
    Totals {
        jobs,
        tasks,
        task_ms,
    }
}

fn write_rumen(path: &Path, jobs: u64) -> Totals {
    let mut s = String::with_capacity(jobs as usize * 9000);
    let (mut tasks, mut task_ms) = (0, 0);
    let base = 1_500_000_000_000u64;
    for j in 0..jobs {
        let submit = base + j * 700;
        let _ = write!(
            s,
            "{{\n  \"priority\" : \"NORMAL\",\n  \"jobID\" : \"job_1500000000000_{j:05}\",\n  \"user\" : \"user{}\",\n  \"jobName\" : \"bench\",\n  \"submitTime\" : {submit},\n  \"finishTime\" : {},\n  \"queue\" : \"sls_queue_{}\",\n",
            j % 50,
            submit + 120_000,
            j % 3 + 1
        );
        for (key, n) in [("mapTasks", 8u64), ("reduceTasks", 2)] {
            let _ = write!(s, "  \"{key}\" : [ ");
            for t in 0..n {
                let start = submit + 1000 + t;
                let dur = 1000 + mix(j * 10 + t + if n == 2 { 8 } else { 0 }) % 60_000;
                let retried = t == 0;
                let _ = write!(
                    s,
                    "{}{{\n    \"startTime\" : {start},\n    \"taskID\" : \"task_{j}_{t}\",\n    \"taskType\" : \"{}\",\n    \"finishTime\" : {},\n    \"attempts\" : [ ",
                    if t == 0 { "" } else { ", " },
                    if n == 8 { "MAP" } else { "REDUCE" },
                    start + dur
                );
                if retried {
                    let _ = write!(
                        s,
                        "{{\n      \"hostName\" : \"/default-rack/h{}.example.com\",\n      \"startTime\" : {start},\n      \"finishTime\" : {},\n      \"result\" : \"FAILED\",\n      \"attemptID\" : \"attempt_{j}_{t}_0\"\n    }}, ",
                        (j + 7) % 1000,
                        start + 10
                    );
                }
                let _ = write!(
                    s,
                    "{{\n      \"location\" : {{ \"layers\" : [ \"default-rack\", \"h{h}.example.com\" ] }},\n      \"hostName\" : \"/default-rack/h{h}.example.com\",\n      \"startTime\" : {start},\n      \"result\" : \"SUCCESS\",\n      \"finishTime\" : {},\n      \"attemptID\" : \"attempt_{j}_{t}_1\",\n      \"clockSplits\" : [ 1481, 1481, 1481, 1481, 1169, 1064 ],\n      \"cpuUsages\" : [ 1253, 1254, 1254, 1254, 1198, 1180 ],\n      \"hdfsBytesRead\" : 82,\n      \"hdfsBytesWritten\" : 416666700,\n      \"mapInputRecords\" : 4166667,\n      \"resourceUsageMetrics\" : {{ \"cumulativeCpuUsage\" : 14300, \"heapUsage\" : 745406464 }}\n    }} ],\n    \"preferredLocations\" : [ ],\n    \"taskStatus\" : \"SUCCESS\",\n    \"inputBytes\" : 82\n  }}",
                    start + dur,
                    h = (j + t) % 1000
                );
                tasks += 1;
                task_ms += dur;
            }
            s.push_str(" ],\n");
        }
        s.push_str("  \"outcome\" : \"SUCCESS\"\n}\n");
    }
    std::fs::write(path, s).expect("write the Rumen history");
    Totals {
        jobs,
        tasks,
        task_ms,
    }
}

fn report(what: &str, path: &Path, secs: f64, t: &Totals) {
    let mb = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) as f64 / 1e6;
    println!(
        "{what}: {} jobs, {} tasks, {mb:.0} MB parsed in {secs:.2} s ({:.0} MB/s, {:.0} jobs/s)",
        t.jobs,
        t.tasks,
        mb / secs,
        t.jobs as f64 / secs
    );
}

fn main() {
    let scale: f64 = std::env::var("FAIRSIM_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let jobs = ((50_000.0 * scale) as u64).max(1);
    let dir = tempfile::tempdir().expect("temp dir");

    let sls = dir.path().join("sls-jobs.json");
    let want = write_sls(&sls, jobs);
    let t = Instant::now();
    let read = read_sls_trace(&sls, SlsDefaults::default()).expect("the SLS trace parses");
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(
        totals(&read.apps),
        want,
        "SLS: what was read is what was written"
    );
    report("SLS JSON", &sls, secs, &want);
    drop(read);
    std::fs::remove_file(&sls).ok();

    let rumen = dir.path().join("job-history.json");
    let want = write_rumen(&rumen, jobs);
    let opts = RumenOptions {
        defaults: SlsDefaults::default(),
        semantics: Semantics::Hadoop27,
    };
    let t = Instant::now();
    let read =
        read_rumen_traces(std::slice::from_ref(&rumen), opts).expect("the Rumen file parses");
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(
        totals(&read.apps),
        want,
        "Rumen: what was read is what was written"
    );
    report("Rumen", &rumen, secs, &want);
}
