//! `fairsim run` draws its own charts and prints a headline instead of every metric.

mod common;

use std::path::Path;
use std::process::Command;

use common::svg::check_svg_text;

fn scenarios() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios"))
}

const CHARTS: [&str; 5] = ["usage", "wait-cdf", "completion-cdf", "jain", "utilisation"];

#[test]
fn a_run_draws_its_charts_and_prints_a_headline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .arg("run")
        .arg(scenarios().join("seed004-abc.toml"))
        .args(["--seed", "7", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // The headline: counts, stall, utilisation, Jain's index, waits per queue; not every metric.
    assert!(
        stdout.contains("apps: 165 finished, 0 unfinished"),
        "{stdout}"
    );
    assert!(stdout.contains("not stalled"), "{stdout}");
    assert!(stdout.contains("utilisation: memory "), "{stdout}");
    assert!(stdout.contains("Jain's fairness index "), "{stdout}");
    for q in ["root.A", "root.B", "root.C"] {
        assert!(stdout.contains(q), "{stdout}");
    }
    assert!(!stdout.contains(" = "), "no key = value dump: {stdout}");
    assert!(stdout.lines().count() <= 12, "{stdout}");
    for c in CHARTS {
        let png = out.join(format!("{c}.png"));
        assert!(std::fs::metadata(&png).unwrap().len() > 10_000, "{c}.png");
        let svg = std::fs::read_to_string(out.join(format!("{c}.svg"))).unwrap();
        check_svg_text(c, &svg);
    }
    let usage = std::fs::read_to_string(out.join("usage.svg")).unwrap();
    for legend in [
        "instantaneous fair share",
        "steady fair share",
        "demand",
        "usage",
    ] {
        assert!(usage.contains(legend), "usage.svg lacks {legend}");
    }
    // Deterministic: the same run draws the same bytes.
    let again = dir.path().join("again");
    let run = Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .arg("run")
        .arg(scenarios().join("seed004-abc.toml"))
        .args(["--seed", "7", "--out"])
        .arg(&again)
        .output()
        .unwrap();
    assert!(run.status.success());
    for c in CHARTS {
        for ext in ["png", "svg"] {
            let f = format!("{c}.{ext}");
            assert_eq!(
                std::fs::read(out.join(&f)).unwrap(),
                std::fs::read(again.join(&f)).unwrap(),
                "{f} differs between two identical runs"
            );
        }
    }
}
