//! `fairsim run` draws its own charts and prints a headline instead of every metric.

mod common;

use common::fixture::scenarios;
use common::svg::check_svg_text;

const CHARTS: [&str; 5] = ["usage", "wait-cdf", "completion-cdf", "jain", "utilisation"];

#[test]
fn a_run_draws_its_charts_and_prints_a_headline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let run = common::fixture::command()
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
    let run = common::fixture::command()
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

/// All or nothing: a run writes beside `--out` and moves its files in at the end, so a run
/// killed part way leaves no `--out`, only its staging directory, which the next run into
/// the same `--out` removes.
#[test]
fn a_killed_run_leaves_no_partial_out_and_the_next_run_cleans_up() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fs.xml"),
        "<allocations><queue name=\"a\"/></allocations>\n",
    )
    .unwrap();
    // 400,000 one-task apps on 4 nodes: seconds of work, so the kill lands mid-run.
    let scenario = |apps: u32| {
        format!(
            "[cluster]\nnodes = 4\nnode_memory_mb = 8192\nnode_vcores = 8\n[allocation]\n\
             file = \"fs.xml\"\n[[workload.synthetic.queues]]\nqueue = \"a\"\napps = {apps}\n\
             mean_interarrival_ms = 100\ntasks = {{ dist = \"constant\", value = 1 }}\n\
             duration_ms = {{ dist = \"constant\", value = 1000 }}\ncontainer_mb = 1024\n"
        )
    };
    std::fs::write(dir.path().join("long.toml"), scenario(400_000)).unwrap();
    std::fs::write(dir.path().join("short.toml"), scenario(3)).unwrap();
    let fairsim = || {
        let mut c = common::fixture::command();
        c.current_dir(dir.path()).env("CI", "true");
        c
    };
    let staging = dir.path().join(".out.partial");
    let mut child = fairsim()
        .args(["run", "long.toml", "--out", "out"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    // The run has begun writing once its staging directory holds a (temporary) file.
    let writing = || std::fs::read_dir(&staging).is_ok_and(|mut d| d.next().is_some());
    while !writing() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the long run never started writing"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no handler runs
    child.wait().unwrap();
    assert!(
        !dir.path().join("out").exists(),
        "a killed run left a partial --out"
    );
    assert!(
        staging.exists(),
        "what a killed run leaves is its staging directory"
    );
    let run = fairsim()
        .args(["run", "short.toml", "--out", "out"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("wrote out: every metric in summary.csv") && !stdout.contains("partial"),
        "{stdout}"
    );
    assert!(dir.path().join("out/summary.csv").exists());
    assert!(
        !staging.exists(),
        "the next run removed the staging directory"
    );
}
