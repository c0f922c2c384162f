//! `fairsim export rm` then `fairsim check rm`: a Fair Scheduler run's queues at a sample time,
//! written as the ResourceManager's scheduler response, must agree with the shares `check rm`
//! computes from the allocation file, the cluster and the active leaves' demands, at every
//! sample time of a three-level tree in both eras. The engine keeps its shares incrementally
//! (only the touched leaves and the parents whose split changed); `check rm` computes them
//! from scratch, so this is the RM check on a cluster whose every number is known. A changed
//! weight must differ; a bad request exits 2 and writes nothing.

mod common;

use common::fixture::{fairsim, scenarios};
use std::path::Path;

/// Runs the 20-leaf scenario in `era` into `dir/run`; the sample times of its queues.csv.
fn run_twenty_leaves(dir: &Path, era: &str) -> Vec<u64> {
    let src = scenarios().join("many-leaves");
    let toml = std::fs::read_to_string(src.join("leaves-20.toml")).unwrap();
    assert!(toml.contains("semantics = \"hadoop-2.7\""));
    let toml = toml.replace(
        "semantics = \"hadoop-2.7\"",
        &format!("semantics = \"{era}\""),
    );
    std::fs::write(dir.join("leaves-20.toml"), toml).unwrap();
    std::fs::copy(src.join("leaves-20.xml"), dir.join("leaves-20.xml")).unwrap();
    let run = dir.join("run");
    let out = fairsim(&[
        "run".as_ref(),
        dir.join("leaves-20.toml").as_os_str(),
        "--out".as_ref(),
        run.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(run.join("queues.csv")).unwrap();
    let mut times: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    times.dedup();
    times
}

fn export(
    dir: &Path,
    alloc: &Path,
    era: &str,
    at: Option<u64>,
    out: &Path,
) -> std::process::Output {
    let mut args: Vec<String> = vec![
        "export".into(),
        "rm".into(),
        dir.join("run").display().to_string(),
        "--alloc".into(),
        alloc.display().to_string(),
        "--semantics".into(),
        era.into(),
        "--out".into(),
        out.display().to_string(),
    ];
    if let Some(t) = at {
        args.extend(["--at".into(), t.to_string()]);
    }
    fairsim(&args)
}

fn check(response: &Path, alloc: &Path, era: &str) -> std::process::Output {
    fairsim(&[
        "check".as_ref(),
        "rm".as_ref(),
        "--scheduler".as_ref(),
        response.as_os_str(),
        "--alloc".as_ref(),
        alloc.as_os_str(),
        "--semantics".as_ref(),
        era.as_ref(),
    ])
}

#[test]
fn every_sample_of_a_run_agrees_with_check_rm_in_both_eras() {
    for era in ["hadoop-2.7", "hadoop-3.3"] {
        let d = tempfile::tempdir().unwrap();
        let times = run_twenty_leaves(d.path(), era);
        assert!(times.len() > 40, "{era}: {} samples", times.len());
        let alloc = d.path().join("leaves-20.xml");
        let response = d.path().join("scheduler.json");
        let mut active_samples = 0;
        for &t in &times {
            let out = export(d.path(), &alloc, era, Some(t), &response);
            assert!(
                out.status.success(),
                "{era} at {t}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = std::fs::read_to_string(&response).unwrap();
            if text.contains("\"numActiveApps\": 1") || text.contains("\"numActiveApps\": 2") {
                active_samples += 1;
            }
            let out = check(&response, &alloc, era);
            let report = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{era} at {t}:\n{report}");
            assert!(
                report.contains("queues agree with the RM's shares"),
                "{report}"
            );
        }
        // The check is not of idle samples only: most samples have running apps.
        assert!(
            active_samples * 2 > times.len(),
            "{era}: {active_samples} active samples"
        );
    }
}

#[test]
fn a_changed_weight_differs_and_the_last_sample_is_the_default() {
    let d = tempfile::tempdir().unwrap();
    let era = "hadoop-3.3";
    let times = run_twenty_leaves(d.path(), era);
    let alloc = d.path().join("leaves-20.xml");
    let response = d.path().join("scheduler.json");
    let out = export(d.path(), &alloc, era, None, &response);
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    let last = times.last().unwrap();
    assert!(said.contains(&format!("at {last} ms")), "{said}");
    // A sample with apps running, then the first top-level queue's weight doubled: its
    // steady share (and every sibling's) moves.
    let busy = times[times.len() / 4];
    assert_eq!(
        export(d.path(), &alloc, era, Some(busy), &response)
            .status
            .code(),
        Some(0)
    );
    let xml = std::fs::read_to_string(&alloc).unwrap();
    let weight = xml.find("<weight>").expect("the file sets weights");
    let end = weight + xml[weight..].find("</weight>").unwrap();
    let old: f64 = xml[weight + 8..end].trim().parse().unwrap();
    let changed = format!(
        "{}<weight>{}</weight>{}",
        &xml[..weight],
        old * 2.0,
        &xml[end + 9..]
    );
    let changed_path = d.path().join("changed.xml");
    std::fs::write(&changed_path, changed).unwrap();
    let out = check(&response, &changed_path, era);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("differs"), "{report}");
}

#[test]
fn bad_requests_exit_2_and_write_nothing() {
    let d = tempfile::tempdir().unwrap();
    let era = "hadoop-2.7";
    let times = run_twenty_leaves(d.path(), era);
    let alloc = d.path().join("leaves-20.xml");
    let response = d.path().join("scheduler.json");
    let stderr = |o: &std::process::Output| String::from_utf8_lossy(&o.stderr).to_string();
    // A time between samples: the nearest is named.
    let between = times[1] + 1;
    let o = export(d.path(), &alloc, era, Some(between), &response);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("the nearest is {}", times[1])),
        "{}",
        stderr(&o)
    );
    // A capacity-scheduler.xml.
    let cs = scenarios().join("many-leaves/leaves-20-capacity.xml");
    let o = export(d.path(), &cs, "hadoop-3.3", None, &response);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("capacity-scheduler.xml"),
        "{}",
        stderr(&o)
    );
    // Another run's allocation file: its queues are not the run's.
    let other = scenarios().join("sls_queues.xml");
    let o = export(d.path(), &other, era, None, &response);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give the allocation file the run used"),
        "{}",
        stderr(&o)
    );
    // A negative usage in the sample exported: refused at its line and column, not written
    // into a response `check rm` then refuses ("not a non-negative integer").
    let csv = d.path().join("run/queues.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines.len() - 1;
    let mut cells: Vec<&str> = lines[last].split(',').collect();
    cells[2] = "-1";
    lines[last] = cells.join(",");
    std::fs::write(&csv, lines.join("\n") + "\n").unwrap();
    let o = export(d.path(), &alloc, era, None, &response);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "queues.csv:{}: usage_mb: -1 is out of range: the limit is 0 to 9223372036854775807",
            last + 1
        )),
        "{}",
        stderr(&o)
    );
    assert!(!response.exists(), "nothing written");
    // A cut queues.csv row.
    let cut: String = text.lines().take(3).collect::<Vec<_>>().join("\n") + "\n100,root.x,5\n";
    std::fs::write(&csv, cut).unwrap();
    let o = export(d.path(), &alloc, era, None, &response);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("queues.csv:4:"), "{}", stderr(&o));
    assert!(!response.exists(), "nothing written");
}
