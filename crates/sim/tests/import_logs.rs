//! `fairsim import logs`' reader: a hand-made ResourceManager log of both eras' lines (Hadoop
//! 3.x summary and audit lines with RESOURCE and QUEUENAME; Hadoop 2.7 lines without a size
//! and a summary without submitTime) into a trace and recorded times worked out by hand, and
//! every bad input the import refuses or counts.

use fairsim_sim::import::logs::{LogError, LogOptions, LogReport, LogSource, import_logs};
use std::io::{BufReader, Cursor, Write};
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/import")
        .join(name)
}

fn source(name: &str, bytes: Vec<u8>) -> LogSource<'static> {
    LogSource {
        name: name.to_string(),
        reader: Box::new(BufReader::new(Cursor::new(bytes))),
    }
}

/// Imports `sources`: (trace.csv, recorded.csv, report).
fn import(
    sources: Vec<LogSource<'static>>,
    opts: &LogOptions,
) -> Result<(String, String, LogReport), LogError> {
    let (mut spill, mut trace, mut recorded) = (Cursor::new(Vec::new()), Vec::new(), Vec::new());
    let report = import_logs(sources, opts, &mut spill, &mut trace, &mut recorded)?;
    Ok((
        String::from_utf8(trace).unwrap(),
        String::from_utf8(recorded).unwrap(),
        report,
    ))
}

fn mixed() -> String {
    std::fs::read_to_string(data("rm-mixed.log")).unwrap()
}

// The log's wall clock is UTC+1 (its first summary is stamped 23:13:35,000 for a finishTime
// of 22:13:34,900 UTC). Epoch 1700000000000 is 2023-11-14 22:13:20 UTC, the first app's
// submission and the trace's time 0.
const TRACE: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts
application_1700000000000_0001,0,root.etl,alice,2048,1,0,2,1024,1,10000,20,
application_1700000000000_0002,2000,root.adhoc,bob,1536,1,0,1,1536,1,20000,20,
";
// App 1 (3.x): AM allocated at 23:13:20,500 (500 ms after submission), launchTime 900,
// first task 23:13:21,000, finish 14900. App 2 (2.7: no submitTime, its startTime 2000): AM
// at 23:13:22,500, task at 23:13:23,000, no launchTime.
const RECORDED: &str = "app,queue,user,state,final_status,submit_ms,am_allocated_ms,launch_ms,first_task_ms,finish_ms,containers,submit_epoch_ms
application_1700000000000_0001,root.etl,alice,FINISHED,SUCCEEDED,0,500,900,1000,14900,3,1700000000000
application_1700000000000_0002,root.adhoc,bob,FINISHED,SUCCEEDED,2000,2500,,3000,24950,2,1700000002000
";

#[test]
fn both_eras_lines_become_the_trace_worked_by_hand() {
    let (trace, recorded, r) = import(
        vec![source("rm.log", mixed().into_bytes())],
        &LogOptions::default(),
    )
    .unwrap();
    // App 1's tasks ran 10000 and 10200 ms: one row at 10000 with run times rounded to 1 s.
    // App 2's 2.7 lines carry no size: memorySeconds 65280 over 42.5 container-seconds
    // (20 s task + 22.5 s AM) is 1536 MB; vcoreSeconds 42 / 42.5 rounds to 1.
    assert_eq!(trace, TRACE);
    assert_eq!(recorded, RECORDED);
    assert_eq!(
        (
            r.lines,
            r.summary_lines,
            r.container_lines,
            r.other_audit_lines,
            r.other_lines
        ),
        (18, 2, 12, 1, 3)
    );
    assert_eq!((r.apps, r.containers, r.rows), (2, 5, 2));
    assert_eq!(r.zone_offset_ms, 3_600_000);
    assert_eq!(r.base_epoch_ms, 1_700_000_000_000);
    // App 3 has an allocation and no summary; its release before any allocation matches
    // nothing; app 1's AM is released 200 ms after its finishTime (the RM's threads race).
    assert_eq!(r.apps_without_summary, 1);
    assert_eq!(r.unmatched_releases, 1);
    assert_eq!(r.containers_after_finish, 1);
    assert_eq!(r.apps_sizes_estimated, 1);
    assert_eq!(r.containers_closed_at_finish, 0);
    assert_eq!(r.warnings().len(), 4);
}

#[test]
fn exact_run_times_with_round_ms_1() {
    let opts = LogOptions {
        round_ms: 1,
        ..LogOptions::default()
    };
    let (trace, _, _) = import(vec![source("rm.log", mixed().into_bytes())], &opts).unwrap();
    let rows: Vec<&str> = trace.lines().collect();
    assert_eq!(
        rows[1..3],
        [
            "application_1700000000000_0001,0,root.etl,alice,2048,1,0,1,1024,1,10000,20,",
            "application_1700000000000_0001,0,root.etl,alice,2048,1,0,1,1024,1,10200,20,",
        ]
    );
}

#[test]
fn gzip_and_split_files_read_the_same() {
    let text = mixed();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let path = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(path.path(), gz.finish().unwrap()).unwrap();
    let gz_source = fairsim_sim::import::logs::open_source(path.path()).unwrap();
    let (trace, recorded, _) = import(vec![gz_source], &LogOptions::default()).unwrap();
    assert_eq!((trace.as_str(), recorded.as_str()), (TRACE, RECORDED));
    // The audit lines in one file, the rest in another (RMAUDIT and RMSUMMARY appenders):
    // read together in time order, they give the same apps.
    let (audit, rest): (Vec<&str>, Vec<&str>) =
        text.lines().partition(|l| l.contains("RMAuditLogger"));
    let join = |v: Vec<&str>| (v.join("\n") + "\n").into_bytes();
    let (trace, recorded, r) = import(
        vec![
            source("summary.log", join(rest)),
            source("audit.log", join(audit)),
        ],
        &LogOptions::default(),
    )
    .unwrap();
    assert_eq!((trace.as_str(), recorded.as_str()), (TRACE, RECORDED));
    assert_eq!(r.lines, 18);
}

fn refused(text: &str) -> String {
    match import(
        vec![source("rm.log", text.as_bytes().to_vec())],
        &LogOptions::default(),
    ) {
        Err(e @ LogError::Bad { .. }) => e.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The mixed log with line `n` (from 1) replaced.
fn with_line(n: usize, f: impl Fn(&str) -> String) -> String {
    let text = mixed();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines[n - 1] = f(&lines[n - 1]);
    lines.join("\n") + "\n"
}

#[test]
fn a_summary_cut_mid_way_is_refused_with_its_line() {
    // Line 13 is app 1's summary; cut before finishTime.
    let text = with_line(13, |l| l[..l.find(",finishTime").unwrap()].to_string());
    assert_eq!(
        refused(&text),
        "rm.log:13: application summary without `finishTime` (a line cut mid-way?)"
    );
}

#[test]
fn an_audit_line_cut_mid_way_is_refused_with_its_line() {
    let text = with_line(4, |l| l[..l.find("\tCONTAINERID").unwrap()].to_string());
    assert_eq!(
        refused(&text),
        "rm.log:4: container audit line without `CONTAINERID` (a line cut mid-way?)"
    );
    let text = with_line(4, |l| l[..l.find(", vCores").unwrap()].to_string());
    assert_eq!(
        refused(&text),
        "rm.log:4: `RESOURCE`: `<memory:1024` is not <memory:M, vCores:V>"
    );
    let text = with_line(4, |l| l[..10].to_string() + " INFO RMAuditLogger: USER=x");
    assert_eq!(
        refused(&text),
        "rm.log:4: a summary or audit line without its time stamp (a line cut mid-way?)"
    );
}

#[test]
fn time_going_backwards_is_refused_beyond_a_second_and_counted_within() {
    // Line 6 (23:13:22,500) stamped 23:13:20,000: 1.2 s before line 5 (23:13:21,200).
    let text = with_line(6, |l| l.replace("23:13:22,500", "23:13:20,000"));
    assert_eq!(
        refused(&text),
        "rm.log:6: time goes backwards by 1200 ms (more than 1000 ms) from the line above; \
         logs of one file must be in time order (a change of zone or clock?)"
    );
    // 23:13:21,100 is 100 ms before line 5: read in file order at line 5's time, counted.
    let text = with_line(6, |l| l.replace("23:13:22,500", "23:13:21,100"));
    let (_, recorded, r) = import(
        vec![source("rm.log", text.into_bytes())],
        &LogOptions::default(),
    )
    .unwrap();
    assert_eq!(r.lines_out_of_order, 1);
    // App 2's AM allocation takes line 5's time, 23:13:21,200: 1200 ms after time 0.
    assert!(recorded.contains(",2000,1200,,3000,"), "{recorded}");
}

#[test]
fn a_summary_finishing_before_its_submission_is_refused() {
    let text = with_line(13, |l| {
        l.replace("finishTime=1700000014900", "finishTime=1699999999999")
    });
    assert_eq!(
        refused(&text),
        "rm.log:13: `finishTime` 1699999999999 is before the submission 1700000000000: time goes backwards"
    );
    let text = with_line(13, |l| {
        l.replace("submitTime=1700000000000", "submitTime=17e11")
    });
    assert_eq!(
        refused(&text),
        "rm.log:13: `submitTime`: `17e11` is not a time in epoch ms"
    );
}

#[test]
fn containers_never_released_end_with_their_app_after_the_grace() {
    // Without app 1's AM release (line 14) the app closes 60 s after its summary, at the end
    // of the input here, its AM ended at its finishTime.
    let text: String = mixed()
        .lines()
        .enumerate()
        .filter(|(i, _)| *i != 13)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let (trace, recorded, r) = import(
        vec![source("rm.log", text.into_bytes())],
        &LogOptions::default(),
    )
    .unwrap();
    assert_eq!(r.containers_closed_at_finish, 1);
    assert_eq!(r.containers_after_finish, 0);
    assert_eq!((trace.as_str(), recorded.as_str()), (TRACE, RECORDED));
}

#[test]
fn a_grace_of_zero_closes_an_app_at_the_next_line() {
    // With no grace, app 1 closes at the line after its summary, before its AM's release,
    // which then matches nothing.
    let opts = LogOptions {
        grace_ms: 0,
        ..LogOptions::default()
    };
    let (_, _, r) = import(vec![source("rm.log", mixed().into_bytes())], &opts).unwrap();
    assert_eq!(r.containers_closed_at_finish, 1);
    assert_eq!(r.unmatched_releases, 2);
}
