//! Censored percentiles on real runs: a run cut short reports, for its apps, percentiles that
//! never exceed what the same apps reach when the workload runs to completion, and that do not
//! hide the apps that never got to run (the survivors-only figure is lower).

use fairsim_sim::app::AppRecord;
use fairsim_sim::metrics::percentile;
use fairsim_sim::{MemoryRecorder, load_scenario, run};
use std::path::Path;

fn seed004() -> fairsim_sim::Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/seed004-abc.toml");
    load_scenario(p).unwrap()
}

fn run_until(end_ms: Option<u64>) -> (fairsim_sim::RunSummary, Vec<AppRecord>) {
    let mut sc = seed004();
    sc.end_ms = end_ms;
    let mut rec = MemoryRecorder::default();
    let s = run(&sc, 7, 0, &mut rec).unwrap();
    (s, rec.apps)
}

#[test]
fn a_cut_run_is_a_lower_bound_of_the_completed_run_and_above_its_survivors() {
    let (full, all) = run_until(None);
    assert_eq!(full.get("apps_unfinished"), Some(0.0));
    let mut checked = 0;
    // Where survivors alone gave a lower figure, and where the percentile is an "at least" value.
    let (mut raised, mut flagged) = (0, 0);
    for end_s in [600u64, 1_200, 1_800, 3_600] {
        let (cut, apps) = run_until(Some(end_s * 1000));
        let unfinished = cut.get("apps_unfinished").unwrap();
        assert!(
            unfinished > 0.0,
            "{end_s} s: the cut must leave apps unfinished"
        );
        let end = fairsim_sim::SimTime(end_s * 1000);
        for (metric, value) in [
            (
                "wait_s",
                &(|a: &AppRecord| a.wait_ms()) as &dyn Fn(&AppRecord) -> Option<u64>,
            ),
            ("jct_s", &|a: &AppRecord| a.jct_ms()),
        ] {
            for p in [50u32, 95, 99] {
                let name = format!("{metric}_p{p}");
                let censored = cut.get(&name).unwrap();
                // The same apps (those submitted by the cut) when everything runs to the end.
                let mut complete: Vec<f64> = all
                    .iter()
                    .filter(|a| a.arrival <= end)
                    .map(|a| value(a).unwrap() as f64 / 1000.0)
                    .collect();
                complete.sort_by(f64::total_cmp);
                let complete_p = percentile(&complete, f64::from(p));
                assert!(
                    censored <= complete_p,
                    "{end_s} s {name}: censored {censored} above completed {complete_p}"
                );
                // What the old survivors-only method reported for the cut run.
                let mut survivors: Vec<f64> = apps
                    .iter()
                    .filter(|a| a.finish.is_some())
                    .filter_map(|a| value(a).map(|v| v as f64 / 1000.0))
                    .collect();
                survivors.sort_by(f64::total_cmp);
                if !survivors.is_empty() {
                    let survivor_p = percentile(&survivors, f64::from(p));
                    assert!(
                        censored >= survivor_p,
                        "{end_s} s {name}: censored {censored} below survivors' {survivor_p}"
                    );
                    raised += usize::from(censored > survivor_p);
                }
                flagged += usize::from(cut.get(&format!("{name}_censored")) == Some(1.0));
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 24);
    assert!(
        raised >= 20,
        "censoring changed only {raised} of 24 percentiles"
    );
    assert!(
        flagged >= 8,
        "only {flagged} percentiles flagged as lower bounds"
    );
}
