//! Output files: determinism, atomic writes, scenario errors.

use fairsim_sim::{FileRecorder, Simulation, load_scenario, run_to_dir};
use std::path::{Path, PathBuf};

fn bundled() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/sls_queues.toml")
}

#[test]
fn same_scenario_and_seed_give_byte_identical_files() {
    let sc = load_scenario(bundled()).unwrap();
    let d1 = tempfile::tempdir().unwrap();
    let d2 = tempfile::tempdir().unwrap();
    run_to_dir(&sc, 42, 0, d1.path()).unwrap();
    run_to_dir(&sc, 42, 0, d2.path()).unwrap();
    for f in ["apps.csv", "queues.csv", "summary.csv", "summary.json"] {
        let a = std::fs::read(d1.path().join(f)).unwrap();
        let b = std::fs::read(d2.path().join(f)).unwrap();
        assert!(!a.is_empty(), "{f} is empty");
        assert_eq!(a, b, "{f} differs");
    }
}

#[test]
fn unwritable_output_leaves_no_half_written_file() {
    let sc = load_scenario(bundled()).unwrap();
    let d = tempfile::tempdir().unwrap();
    let blocker = d.path().join("out");
    std::fs::write(&blocker, b"a file, not a directory").unwrap();
    let err = run_to_dir(&sc, 1, 0, &blocker).unwrap_err().to_string();
    assert!(err.contains("cannot write"), "{err}");
    let names: Vec<_> = std::fs::read_dir(d.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1);
}

/// The files in `dir` whose names start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect()
}

/// Queue samples reach the disk while the run goes on, so memory does not grow with them:
/// stopped part-way through a run sampled every 50 ms (about 6.7 MB of `queues.csv` in all), the
/// temporary `queues.csv` in the output directory already holds over 1 MiB, every byte of it
/// the start of the finished run's file (only the writer's 64 KiB buffer is in memory). A
/// recorder dropped without finishing (a failed run) leaves nothing, not even the directories
/// it created.
#[test]
fn rows_stream_to_disk_while_the_run_goes_on_and_an_unfinished_run_leaves_nothing() {
    let mut sc = load_scenario(bundled()).unwrap();
    sc.sample_interval_ms = 50;
    let full = tempfile::tempdir().unwrap();
    run_to_dir(&sc, 3, 0, full.path()).unwrap();
    let queues = std::fs::read(full.path().join("queues.csv")).unwrap();
    assert!(queues.len() > 4 << 20, "{} bytes", queues.len());

    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("nested").join("out");
    let mut rec = FileRecorder::new(&out);
    let mut sim = Simulation::new(&sc, 3, 0, &mut rec).unwrap();
    assert!(
        sim.run_capped(15_000).unwrap().is_none(),
        "stopped part-way"
    );
    let tmp = named(&out, ".queues.csv.tmp-");
    assert_eq!(tmp.len(), 1, "{tmp:?}");
    let so_far = std::fs::read(&tmp[0]).unwrap();
    assert!(so_far.len() > 1 << 20, "{} bytes on disk", so_far.len());
    assert!(so_far.len() < queues.len(), "part-way");
    assert_eq!(so_far[..], queues[..so_far.len()]);
    // App rows go to a temporary apps.csv as their turn comes; none had to spill.
    assert_eq!(named(&out, ".apps.csv.tmp-").len(), 1);
    assert_eq!(named(&out, ".apps.csv.rows.tmp-").len(), 0);
    assert!(!out.join("queues.csv").exists() && !out.join("apps.csv").exists());
    drop(sim);
    drop(rec);
    assert!(!d.path().join("nested").exists(), "nothing left behind");
}

#[test]
fn scenario_errors_name_file_line_and_key() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("bad.toml");
    std::fs::write(
        &p,
        "[cluster]\nnodes = 2\nnode_memory_mb = 1024\nnode_vcores = 1\nbogus = 3\n",
    )
    .unwrap();
    let e = load_scenario(&p).unwrap_err().to_string();
    assert!(e.contains("bad.toml:5:1"), "{e}");
    assert!(e.contains("bogus"), "{e}");
}
