//! The metric catalogue against what runs report and against docs/outputs.md.

use fairsim_sim::catalogue::{self, FILES};
use fairsim_sim::{MemoryRecorder, load_scenario, run};
use std::path::{Path, PathBuf};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

/// docs/outputs.md is generated; `UPDATE_DOCS=1` rewrites it.
#[test]
fn outputs_md_is_generated_from_the_catalogue() {
    let path = repo("docs/outputs.md");
    let want = catalogue::outputs_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/outputs.md differs from the catalogue: run \
         `UPDATE_DOCS=1 cargo test -p fairsim-sim --test catalogue_docs`"
    );
}

/// Every metric a bundled scenario reports is in the catalogue, and its value (when there is
/// one) lies in the catalogue's range.
#[test]
fn every_reported_metric_is_catalogued_and_in_range() {
    for name in [
        "scenarios/sls_queues.toml",
        "scenarios/compare/capacity.toml",
    ] {
        let sc = load_scenario(repo(name)).unwrap();
        let mut rec = MemoryRecorder::default();
        let summary = run(&sc, 7, 0, &mut rec).unwrap();
        assert!(summary.metrics.len() > 50, "{name}");
        for (k, v) in &summary.metrics {
            let r = catalogue::lookup(k).unwrap_or_else(|| panic!("{name}: {k} not catalogued"));
            assert!(
                v.is_nan() || (r.metric.min..=r.metric.max).contains(v),
                "{name}: {k} = {v} outside [{}, {}]",
                r.metric.min,
                r.metric.max
            );
        }
    }
}

#[test]
fn a_runs_apps_and_queues_headers_are_the_catalogues() {
    let sc = load_scenario(repo("scenarios/sls_queues.toml")).unwrap();
    let d = tempfile::tempdir().unwrap();
    fairsim_sim::run_to_dir(&sc, 1, 0, d.path()).unwrap();
    for f in FILES.iter().filter(|f| !f.columns.is_empty()) {
        if f.written_by.starts_with("sweep") {
            continue;
        }
        let text = std::fs::read_to_string(d.path().join(f.path)).unwrap();
        assert_eq!(text.lines().next().unwrap(), f.header(), "{}", f.path);
    }
}
