//! `fairsim run --explain` and `fairsim explain`: the README sweep's stalled run (queue A's
//! weight at 2, seed 8, run index 167) diagnosed in its headline, its explain files, the
//! report's section, timelines in words, and bad input.

mod common;

use common::fixture::{fairsim, scenarios};
use std::collections::BTreeMap;

/// The sweep's base scenario with A's weight at 2, written beside its allocation file.
fn weight_two(dir: &std::path::Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(scenarios().join("seed004-abc.toml")).unwrap();
    let text = text.replace("\nweight = 0.2\n", "\nweight = 2\n");
    assert!(text.contains("\nweight = 2\n"));
    std::fs::copy(
        scenarios().join("seed004-abc.xml"),
        dir.join("seed004-abc.xml"),
    )
    .unwrap();
    let path = dir.join("weight-two.toml");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_stalled_run_says_why_and_explain_writes_every_wait() {
    let dir = tempfile::tempdir().unwrap();
    let sc = weight_two(dir.path());
    let out = dir.path().join("out");
    let mut args: Vec<std::ffi::OsString> = vec!["run".into(), sc.into_os_string()];
    for a in ["--seed", "8", "--run-index", "167", "--explain", "--out"] {
        args.push(a.into());
    }
    args.push(out.clone().into_os_string());
    let run = fairsim(&args);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("stalled at 2092 s"), "{stdout}");
    assert!(
        stdout.contains(
            "  why: 17 apps of root.C waiting for their AMs: maxAMShare refuses their AMs: the \
             queue's fair share is 8777 MB, maxAMShare 0.5 of it allows 4388 MB of AMs, AMs \
             running hold 12 GB and the next AM needs 1 GB"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("8 nodes for root.C's apps, whose AMs its AM limit refuses"),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(out.join("summary.json")).unwrap();
    assert!(summary.contains("\"stall_diagnosis\""), "{summary}");
    // explain.csv's wait_ms is apps.csv's for every app that started.
    let waits = |file: &str, col: &str| -> BTreeMap<String, String> {
        let mut r = csv::Reader::from_path(out.join(file)).unwrap();
        let h = r.headers().unwrap().clone();
        let (i, w) = (
            h.iter().position(|x| x == "app_index").unwrap(),
            h.iter().position(|x| x == col).unwrap(),
        );
        r.records()
            .map(|rec| {
                let rec = rec.unwrap();
                (rec[i].to_string(), rec[w].to_string())
            })
            .collect()
    };
    let apps = waits("apps.csv", "wait_ms");
    let explained = waits("explain.csv", "wait_ms");
    assert_eq!(apps.len(), explained.len());
    for (k, w) in &apps {
        if !w.is_empty() {
            assert_eq!(&explained[k], w, "app {k}");
        }
    }
    assert!(out.join("explain_timeline.csv").exists());
    assert!(out.join("starvation.csv").exists());
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(report.contains("Why apps waited"));
    assert!(report.contains("why-apps-waited"));

    let app = fairsim(&[
        "explain".as_ref(),
        out.as_os_str(),
        "--app".as_ref(),
        "0".as_ref(),
    ]);
    let text = String::from_utf8_lossy(&app.stdout);
    assert!(
        app.status.success(),
        "{}",
        String::from_utf8_lossy(&app.stderr)
    );
    assert!(
        text.starts_with("app_0 (app 0, queue root.C): waited 0.397 s for its first container"),
        "{text}"
    );
    assert!(text.contains("am_limit"), "{text}");
    let queue = fairsim(&[
        "explain".as_ref(),
        out.as_os_str(),
        "--queue".as_ref(),
        "root.C".as_ref(),
    ]);
    let text = String::from_utf8_lossy(&queue.stdout);
    assert!(text.starts_with("queue root.C: 45 apps,"), "{text}");

    let missing = fairsim(&[
        "explain".as_ref(),
        out.as_os_str(),
        "--queue".as_ref(),
        "root.X".as_ref(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("no app ran in queue \"root.X\""),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
}

#[test]
fn explain_without_explain_files_says_how_to_write_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = fairsim(&[
        "explain".as_ref(),
        dir.path().as_os_str(),
        "--app".as_ref(),
        "0".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("explain.csv"), "{err}");
    assert!(err.contains("fairsim run --explain"), "{err}");
}

#[test]
fn a_sweep_with_explain_on_reports_its_waits_causes_per_point() {
    // The README sweep's base with `[outputs] explain = true`, over two weights of A: each
    // point's summary.csv row has the mean of every `wait_cause_<cause>_s` over its seeds
    // (that they sum to each run's mean wait is the sim's property test).
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(scenarios().join("seed004-abc.toml")).unwrap();
    let text = text.replace("[outputs]\n", "[outputs]\nexplain = true\n");
    assert!(text.contains("explain = true"));
    std::fs::copy(
        scenarios().join("seed004-abc.xml"),
        dir.path().join("seed004-abc.xml"),
    )
    .unwrap();
    std::fs::write(dir.path().join("base.toml"), text).unwrap();
    let sweep = dir.path().join("sweep.toml");
    std::fs::write(
        &sweep,
        "name = \"why\"\nbase = \"base.toml\"\nseeds = { count = 2, base = 1 }\n\
         metric = \"wait_cause_am_limit_s\"\n\n[[axis]]\npath = \"queues.A.weight\"\n\
         values = [0.5, 2.0]\n",
    )
    .unwrap();
    let out = dir.path().join("out");
    let run = fairsim(&[
        "sweep".into(),
        sweep.into_os_string(),
        "--jobs".into(),
        "1".into(),
        "--out".into(),
        out.clone().into_os_string(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut r = csv::Reader::from_path(out.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let causes: Vec<usize> = h
        .iter()
        .enumerate()
        .filter(|(_, n)| n.starts_with("wait_cause_") && n.ends_with("_s_mean"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(causes.len(), 15, "{h:?}");
    let am_limit = h
        .iter()
        .position(|n| n == "wait_cause_am_limit_s_mean")
        .unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        let sum: f64 = causes.iter().map(|&i| row[i].parse::<f64>().unwrap()).sum();
        assert!(sum > 0.0, "{row:?}");
        // maxAMShare holds AMs back in this workload at both weights (see the stall above).
        assert!(row[am_limit].parse::<f64>().unwrap() > 0.0, "{row:?}");
    }
}
