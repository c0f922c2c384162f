//! Output files: determinism, atomic writes, scenario errors.

use fairsim_sim::{load_scenario, run_to_dir};
use std::path::Path;

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
