//! Every chart of `run`, `sweep`, `compare` and `plan` on the bundled 20- and 200-leaf
//! clusters (long dotted names, idle leaves, a run cut before its workload ends), checked as
//! a reviewer would look at them: no text off the canvas or over another, no legend over the
//! data, every series told apart, short numbers, names shortened from the left with the full
//! name kept as a tooltip.

mod common;

use std::path::{Path, PathBuf};

use common::fixture::fairsim_ok as fairsim;
use common::svg::{check_chart_layout, legend_items, svg_shapes, svg_texts};
use fairsim_bench_runner::sweep::detail::{DetailSeries, run_end};

fn scenarios() -> PathBuf {
    common::fixture::scenarios().join("many-leaves")
}

/// Every SVG file under `dir`, by path.
fn svgs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(svgs(&p));
        } else if p.extension().is_some_and(|x| x == "svg") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Checks every chart under `dir` (at least `min` of them); returns their texts by file.
fn check_all(dir: &Path, min: usize) -> Vec<(PathBuf, String)> {
    let files = svgs(dir);
    assert!(
        files.len() >= min,
        "{}: {} charts",
        dir.display(),
        files.len()
    );
    let mut all = Vec::new();
    for f in files {
        let svg = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        check_chart_layout(&name, &svg);
        let texts = svg_texts(&svg);
        for t in &texts {
            assert!(
                !t.text.ends_with('…'),
                "{name}: {:?} is cut at its end, where queue names differ",
                t.text
            );
            if let Some(end) = t.text.strip_prefix('…') {
                // The full name as a tooltip: a <title> ending as the shortened name does
                // (up to a count in brackets after it).
                let end = end.split(" (").next().unwrap();
                let titled = svg.split("<title>").skip(1).any(|rest| {
                    let full = &rest[..rest.find("</title>").unwrap()];
                    full.split(" (").next().unwrap().ends_with(end) && full.len() > end.len()
                });
                assert!(
                    titled,
                    "{name}: the shortened {:?} carries no full name",
                    t.text
                );
            }
        }
        let legend = legend_items(&texts, &svg_shapes(&svg));
        let all_zero = texts
            .iter()
            .any(|t| t.text.contains(": 0") && t.text.contains(" leaf queue"));
        if name.contains("compare-") && all_zero {
            // A metric at 0 for every queue is one line of text: no bars, so no legend.
            assert!(legend.is_empty(), "{name}: a legend without bars");
            let rects = svg_shapes(&svg).iter().filter(|s| s.tag == "rect").count();
            assert_eq!(rects, 1, "{name}: bars beside the all-zero line");
        } else if name.contains("cdf") || name.contains("compare-") {
            // The checks on legend entries below and in check_chart_layout find them.
            assert!(legend.len() >= 2, "{name}: legend entries not found");
        }
        assert!(
            legend.len() <= 14,
            "{name}: {} legend entries; beyond about ten series the rest are grouped",
            legend.len()
        );
        all.push((f, svg));
    }
    all
}

#[test]
fn run_charts_of_20_and_200_leaves_read_well() {
    let dir = tempfile::tempdir().unwrap();
    for s in ["leaves-20", "leaves-20-cut", "leaves-200", "leaves-200-cut"] {
        let out = dir.path().join(s);
        fairsim(&[
            "run",
            scenarios().join(format!("{s}.toml")).to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let charts = check_all(&out, 5);
        // The report carries the allocation file beside the scenario.
        let report = std::fs::read_to_string(out.join("report.html")).unwrap();
        assert!(
            report.contains("Allocation file (") && report.contains("&lt;allocations&gt;"),
            "{s}: the run report lacks its allocation file"
        );
        if s.starts_with("leaves-200") {
            // 160 active leaves: the per-queue charts name the ones they show and group the rest.
            for (f, svg) in &charts {
                let stem = f.file_stem().unwrap().to_str().unwrap();
                if stem.contains("cdf") || stem == "usage" {
                    assert!(
                        svg.contains("other queues"),
                        "{}: the queues not drawn one by one are not grouped",
                        f.display()
                    );
                }
            }
        }
    }
}

/// A sweep's charted run and `fairsim plot` draw from the run's files; `fairsim run` from what it
/// kept while running. Drawn from the files of a `fairsim run` of the run cut before its end
/// (apps still waiting), every chart is byte for byte the one `fairsim run` drew.
#[test]
fn a_run_drawn_from_its_files_is_the_run_fairsim_run_drew() {
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    let scenario = scenarios().join("leaves-20-cut.toml");
    fairsim(&[
        "run",
        scenario.to_str().unwrap(),
        "--out",
        ran.to_str().unwrap(),
    ]);
    let redrawn = dir.path().join("redrawn");
    std::fs::create_dir_all(&redrawn).unwrap();
    let charts = DetailSeries::read(&ran).unwrap().charts(run_end(&ran));
    let files = charts.draw("leaves-20-cut, seed 1", &redrawn).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.iter().filter(|n| n.ends_with(".svg")).count(),
        5,
        "usage, jain, utilisation and two CDFs: {names:?}"
    );
    for n in names.iter().filter(|n| n.ends_with(".svg")) {
        let a = std::fs::read_to_string(ran.join(n)).unwrap();
        let b = std::fs::read_to_string(redrawn.join(n)).unwrap();
        assert!(a == b, "{n} differs between fairsim run and its files");
    }
    // The CDFs count every admitted app: the cut run's unfinished apps keep curves below 1.
    let svg = std::fs::read_to_string(redrawn.join("completion-cdf.svg")).unwrap();
    assert!(svg.contains(" of 8 apps)"), "unfinished apps are counted");
}

#[test]
fn sweep_charts_of_200_leaves_read_well() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let printed = fairsim(&[
        "sweep",
        scenarios().join("sweep-200.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    // The answer in the terminal: a line per point with intervals and paired differences,
    // the swept queue shortened in the header and named in full under the table.
    assert_eq!(printed.lines().count(), 5, "{printed}");
    assert!(
        printed.starts_with("…clickstream_ana_inter's weight  runs")
            && printed.contains(
                "\n…clickstream_ana_inter: root.analytics.interactive_adhoc.clickstream_ana_inter\n"
            ),
        "{printed}"
    );
    assert!(
        printed.contains("vs baseline") && printed.contains("["),
        "{printed}"
    );
    check_all(&out, 6);
    // The charted run's title names its point and seed.
    let usage = std::fs::read_to_string(out.join("run-0/usage.svg")).unwrap();
    assert!(
        usage.contains("sweep run 0:") && usage.contains("weight = 1, seed 1"),
        "the charted run's title"
    );
}

#[test]
fn compare_charts_of_20_and_200_leaves_read_well() {
    let dir = tempfile::tempdir().unwrap();
    for n in [20, 200] {
        let out = dir.path().join(format!("compare-{n}"));
        let fair = scenarios().join(format!("leaves-{n}.toml"));
        let capacity = scenarios().join(format!("leaves-{n}-capacity.toml"));
        let printed = fairsim(&[
            "compare",
            fair.to_str().unwrap(),
            capacity.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            printed.starts_with("metric") && printed.contains("capacity - fair"),
            "{printed}"
        );
        check_all(&out, 4);
    }
}

#[test]
fn plan_charts_of_20_leaves_read_well() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("plan");
    fairsim(&[
        "plan",
        scenarios().join("plan-20.toml").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    check_all(&out, 2);
}

/// The time-average of a drawn line from 0 to `end`, the line joining its points and nothing
/// drawn where it has none (so a line stopping early averages low).
fn drawn_mean(points: &[(f64, f64)], end: f64) -> f64 {
    let area: f64 = points
        .windows(2)
        .map(|w| (w[1].0.min(end) - w[0].0).max(0.0) * (w[0].1 + w[1].1) / 2.0)
        .sum();
    area / end
}

/// The utilisation chart and the headline tell the same story: the memory line, averaged over
/// the run to its end, is summary.json's `util_memory` as the headline rounds it (two
/// decimals). The line joins samples 30 s apart while the headline integrates every change,
/// hence agreement to rounding, not to the last digit. Checked on the run cut at 600 s (busy
/// to its end: 0.9514 drawn, 0.9474 integrated) and on the full run, whose samples stop at
/// 1,500 s of 2,400 s (drawn to the end it averages 0.5018, against 0.5011; a line stopping
/// at the last sample would average 0.80 over what it draws).
#[test]
fn the_utilisation_line_averages_to_the_headline() {
    use fairsim_bench_runner::plot::{ticks::value_label, timeseries::TimeSeries};
    let dir = tempfile::tempdir().unwrap();
    for s in ["leaves-20-cut", "leaves-20"] {
        let out = dir.path().join(s);
        let scenario = scenarios().join(format!("{s}.toml"));
        fairsim(&[
            "run",
            scenario.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        let end = run_end(&out).expect("summary.json");
        let charts = DetailSeries::read(&out).unwrap().charts(Some(end));
        let chart = TimeSeries::utilisation(charts.utilisation.as_ref().unwrap(), Some(end), s);
        let memory = &chart.lines[0];
        assert_eq!(memory.name, "memory");
        let last = memory.points.last().unwrap().0;
        assert_eq!(
            last, end.sim_time_s,
            "{s}: the line is drawn to the run's end"
        );
        let mean = drawn_mean(&memory.points, end.sim_time_s);
        assert!(
            (mean - end.util_memory).abs() < 0.005,
            "{s}: drawn mean {mean} against util_memory {}",
            end.util_memory
        );
        assert_eq!(value_label(mean), value_label(end.util_memory), "{s}");
        assert!(
            chart
                .subtitle
                .contains(&format!("mean over the run {} memory", value_label(mean))),
            "{s}: {}",
            chart.subtitle
        );
    }
}

/// The usage panels and Jain's index run to the run's end as the utilisation chart does: the full 20-leaf run's
/// samples stop at 1,500 s (its last finish is 1,483 s) of 2,400 s, so its time axes, which
/// stopped at a 1,500 tick, now reach 2,000 and beyond.
#[test]
fn usage_panels_are_drawn_to_the_runs_end() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let scenario = scenarios().join("leaves-20.toml");
    fairsim(&[
        "run",
        scenario.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let end = run_end(&out).expect("summary.json");
    assert_eq!(end.sim_time_s, 2400.0);
    let svg = std::fs::read_to_string(out.join("usage.svg")).unwrap();
    let ticks: Vec<f64> = svg_texts(&svg)
        .iter()
        .filter_map(|t| t.text.replace(',', "").parse::<f64>().ok())
        .collect();
    let top = ticks.iter().copied().fold(0.0, f64::max);
    assert!(
        (2000.0..=2400.0).contains(&top),
        "the time axis ends at {top} s, not at the run's end"
    );
    // So does Jain's index, whose last point (the last sample with anything running) is at
    // 1,470 s: its axis stopped at a 1,400 tick.
    let svg = std::fs::read_to_string(out.join("jain.svg")).unwrap();
    let ticks: Vec<f64> = svg_texts(&svg)
        .iter()
        .filter_map(|t| t.text.replace(['\u{2009}', ','], "").parse::<f64>().ok())
        .collect();
    let top = ticks.iter().copied().fold(0.0, f64::max);
    assert!(
        (2000.0..=2400.0).contains(&top),
        "Jain's time axis ends at {top} s, not at the run's end"
    );
    let words: Vec<String> = svg_texts(&svg).into_iter().map(|t| t.text).collect();
    assert!(
        words
            .join(" ")
            .contains("the last sample with anything running is at 1470 s, the run ends at 2400 s"),
        "the subtitle says where the index stops: {words:?}"
    );
}

/// An SVG chart without its first text, the title (the one line naming the run).
fn without_title(svg: &str) -> String {
    let start = svg.find("<text").expect("a title");
    let end = start + svg[start..].find("</text>").unwrap() + "</text>".len();
    format!("{}{}", &svg[..start], &svg[end..])
}

/// A sweep's charted run and `fairsim run` of the same point, seed and run index draw the same
/// charts: here the cut 20-leaf run on 10 nodes instead of 12 (the sweep's second point, run
/// 1), every SVG equal once the title line, which names the run as each command does, is set
/// aside.
#[test]
fn a_sweeps_charted_run_draws_the_charts_fairsim_run_draws() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(scenarios().join("leaves-20.xml"), d.join("leaves-20.xml")).unwrap();
    let base = std::fs::read_to_string(scenarios().join("leaves-20-cut.toml")).unwrap();
    std::fs::write(d.join("leaves-20-cut.toml"), &base).unwrap();
    assert!(base.contains("\nnodes = 12\n"));
    std::fs::write(
        d.join("on-10-nodes.toml"),
        base.replace("\nnodes = 12\n", "\nnodes = 10\n"),
    )
    .unwrap();
    std::fs::write(
        d.join("sweep.toml"),
        "name = \"nodes\"\nbase = \"leaves-20-cut.toml\"\nseeds = { count = 1, base = 1 }\n\
         metric = \"wait_s_p95\"\n\n[[axis]]\npath = \"cluster.nodes\"\nvalues = [12, 10]\n\n\
         [charts]\nrun = 1\n",
    )
    .unwrap();
    let swept = d.join("swept");
    fairsim(&[
        "sweep",
        d.join("sweep.toml").to_str().unwrap(),
        "--out",
        swept.to_str().unwrap(),
        "-j",
        "1",
    ]);
    let ran = d.join("ran");
    fairsim(&[
        "run",
        d.join("on-10-nodes.toml").to_str().unwrap(),
        "--seed",
        "1",
        "--run-index",
        "1",
        "--out",
        ran.to_str().unwrap(),
    ]);
    let charted = swept.join("run-1");
    let mut compared = 0;
    for stem in ["usage", "jain", "utilisation", "wait-cdf", "completion-cdf"] {
        let file = format!("{stem}.svg");
        let a = std::fs::read_to_string(ran.join(&file)).unwrap();
        let b = std::fs::read_to_string(charted.join(&file))
            .unwrap_or_else(|e| panic!("the sweep's charted run has no {file}: {e}"));
        assert!(
            b.contains("sweep run 1: cluster.nodes = 10 nodes, seed 1"),
            "{file}: the title names the point and seed"
        );
        assert!(
            without_title(&a) == without_title(&b),
            "{file}: the sweep's charted run is drawn unlike fairsim run's"
        );
        compared += 1;
    }
    assert_eq!(compared, 5);
}
