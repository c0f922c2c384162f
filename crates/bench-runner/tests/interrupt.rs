//! A command interrupted by Ctrl-C or SIGTERM removes its staging directory and exits 130:
//! an interrupted run leaves nothing large behind, and `--out` as it was.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Starts a long run, sends `signal` once it has begun writing, and checks what it leaves.
fn interrupted_run_leaves_nothing(signal: &str) {
    let scenario =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/day-1000-nodes.toml");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let staging = dir.path().join(".out.partial");
    let mut child = common::fixture::command()
        .arg("run")
        .arg(&scenario)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !staging.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the run never made its staging directory"
        );
        assert!(child.try_wait().unwrap().is_none(), "the run ended first");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Let it write for a moment: the day takes far longer than this, even in release.
    std::thread::sleep(Duration::from_millis(300));
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted; nothing was written to --out"),
        "{stderr}"
    );
    assert!(!staging.exists(), "the staging directory was left behind");
    assert!(!out.exists(), "--out was written");
}

#[test]
fn ctrl_c_removes_the_staging_directory() {
    interrupted_run_leaves_nothing("INT");
}

#[test]
fn sigterm_removes_the_staging_directory() {
    interrupted_run_leaves_nothing("TERM");
}
