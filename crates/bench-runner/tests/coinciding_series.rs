//! Series that coincide, wholly or for a stretch, both show there: looked at in the PNG as a
//! reader would, pixel by pixel along every stretch two series' lines share.

mod common;

use std::path::Path;

use common::svg::{Shape, svg_shapes};
use fairsim_bench_runner::plot::cdf::Cdf;
use fairsim_bench_runner::plot::lines::{LineChart, Series};
use fairsim_bench_runner::plot::save;

/// The first two colours of the palette: the first and second series.
const FIRST: (u8, u8, u8) = (31, 119, 180);
const SECOND: (u8, u8, u8) = (255, 127, 14);

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// The line of a series: its polyline with the most points (the dashes drawn over it have two).
fn line_of(shapes: &[Shape], colour: (u8, u8, u8)) -> Vec<(f64, f64)> {
    shapes
        .iter()
        .filter(|s| s.tag == "polyline" && s.stroke == hex(colour))
        .max_by_key(|s| s.points.len())
        .map(|s| s.points.clone())
        .unwrap_or_else(|| panic!("no line in {}", hex(colour)))
}

/// The stretches (pixel segments) two lines share: collinear segments, where they overlap.
fn shared(a: &[(f64, f64)], b: &[(f64, f64)]) -> Vec<((f64, f64), (f64, f64))> {
    let mut out = Vec::new();
    for sa in a.windows(2) {
        for sb in b.windows(2) {
            let (p, q) = (sa[0], sa[1]);
            let (dx, dy) = (q.0 - p.0, q.1 - p.1);
            let len = dx.hypot(dy);
            if len < 1.0 {
                continue;
            }
            let off = |r: (f64, f64)| ((r.0 - p.0) * dy - (r.1 - p.1) * dx).abs() / len;
            if off(sb[0]) > 0.5 || off(sb[1]) > 0.5 {
                continue;
            }
            let along = |r: (f64, f64)| ((r.0 - p.0) * dx + (r.1 - p.1) * dy) / len;
            let (u0, u1) = (along(sb[0]), along(sb[1]));
            let (lo, hi) = (u0.min(u1).max(0.0), u0.max(u1).min(len));
            if hi - lo >= 1.0 {
                let at = |u: f64| (p.0 + dx * u / len, p.1 + dy * u / len);
                out.push((at(lo), at(hi)));
            }
        }
    }
    out
}

/// Draws `chart`, then, along every stretch the first two series share (away from the
/// points of either line, where markers are drawn), counts the pixels showing each series'
/// colour. Returns (points looked at, showing the first, showing the second).
fn colours_along_shared<C: fairsim_bench_runner::plot::Chart>(
    chart: &C,
    dir: &Path,
) -> (usize, usize, usize) {
    let [png, svg] = save(chart, &dir.join("chart")).unwrap();
    let svg = std::fs::read_to_string(svg).unwrap();
    let shapes = svg_shapes(&svg);
    let (a, b) = (line_of(&shapes, FIRST), line_of(&shapes, SECOND));
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(png).unwrap()).expect("a PNG");
    let shows = |x: i64, y: i64, (r, g, b): (u8, u8, u8)| {
        (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                pixmap
                    .pixel((x + dx) as u32, (y + dy) as u32)
                    .is_some_and(|p| {
                        let d = |u: u8, v: u8| (u as i32 - v as i32).abs();
                        d(p.red(), r) + d(p.green(), g) + d(p.blue(), b) < 60
                    })
            })
        })
    };
    let vertices: Vec<(f64, f64)> = a.iter().chain(&b).copied().collect();
    let (mut looked, mut first, mut second) = (0, 0, 0);
    for (p, q) in shared(&a, &b) {
        let len = (q.0 - p.0).hypot(q.1 - p.1);
        for k in 0..=len as usize {
            let u = k as f64 / len;
            let at = (p.0 + (q.0 - p.0) * u, p.1 + (q.1 - p.1) * u);
            if vertices
                .iter()
                .any(|v| (v.0 - at.0).hypot(v.1 - at.1) < 14.0)
            {
                continue;
            }
            let (x, y) = (at.0.round() as i64, at.1.round() as i64);
            looked += 1;
            first += usize::from(shows(x, y, FIRST));
            second += usize::from(shows(x, y, SECOND));
        }
    }
    (looked, first, second)
}

/// Each series shows on at least a third of the shared stretch (taking turns, each shows on
/// about half of it; drawn over one another, the first would show nowhere).
fn assert_both_show(what: &str, (looked, first, second): (usize, usize, usize), min_looked: usize) {
    assert!(
        looked >= min_looked,
        "{what}: only {looked} pixels along shared stretches"
    );
    assert!(
        first * 3 >= looked && second * 3 >= looked,
        "{what}: along {looked} shared pixels the first series shows at {first}, the second at {second}"
    );
}

fn cdf(waits: &[(&str, f64)]) -> Cdf {
    let values = waits.iter().map(|(q, v)| (q.to_string(), Some(*v)));
    Cdf::wait_chart(Cdf::per_queue(values), "test", "admitted apps")
}

#[test]
fn cdfs_sharing_a_stretch_both_show_on_it() {
    // Four apps each, three waiting 2 s: both curves rise at 2 s to 0.75 and run level to
    // 5 s together, where root.a's last app starts (root.b's at 9 s).
    let dir = tempfile::tempdir().unwrap();
    let chart = cdf(&[
        ("root.a", 2.0),
        ("root.a", 2.0),
        ("root.a", 2.0),
        ("root.a", 5.0),
        ("root.b", 2.0),
        ("root.b", 2.0),
        ("root.b", 2.0),
        ("root.b", 9.0),
    ]);
    assert_both_show(
        "partly equal CDFs",
        colours_along_shared(&chart, dir.path()),
        150,
    );
}

#[test]
fn equal_cdfs_both_show() {
    let dir = tempfile::tempdir().unwrap();
    let chart = cdf(&[
        ("root.a", 1.0),
        ("root.a", 3.0),
        ("root.b", 1.0),
        ("root.b", 3.0),
    ]);
    assert_both_show("equal CDFs", colours_along_shared(&chart, dir.path()), 300);
}

fn line_chart(series: Vec<Series>) -> LineChart {
    LineChart {
        title: "Equal means".into(),
        subtitle: "test".into(),
        x_label: "A's weight".into(),
        y_label: "Jain's fairness index".into(),
        x_ticks: vec![(1.0, "1".into()), (2.0, "2".into()), (3.0, "3".into())],
        log_x: false,
        legend_heading: "B's weight".into(),
        series,
        y_bounds: (Some(0.0), Some(1.0)),
    }
}

fn series(name: &str, means: &[f64]) -> Series {
    Series {
        name: name.into(),
        points: means
            .iter()
            .enumerate()
            .map(|(i, &m)| ((i + 1) as f64, m, Some((m - 0.05, m + 0.05))))
            .collect(),
        stalled_x: Vec::new(),
    }
}

#[test]
fn equal_sweep_lines_both_show_between_their_points() {
    let dir = tempfile::tempdir().unwrap();
    let chart = line_chart(vec![
        series("1", &[0.5, 0.7, 0.6]),
        series("2", &[0.5, 0.7, 0.6]),
    ]);
    assert_both_show("equal lines", colours_along_shared(&chart, dir.path()), 300);
}

#[test]
fn sweep_lines_equal_over_one_segment_both_show_on_it() {
    // Equal means at 1 and 2, apart at 3: the first segment is shared.
    let dir = tempfile::tempdir().unwrap();
    let chart = line_chart(vec![
        series("1", &[0.5, 0.7, 0.6]),
        series("2", &[0.5, 0.7, 0.9]),
    ]);
    assert_both_show(
        "lines sharing a segment",
        colours_along_shared(&chart, dir.path()),
        150,
    );
}

#[test]
fn plan_steps_with_equal_values_both_show() {
    // Two growth steps whose candidates gave the same values: one line over the other.
    use fairsim_bench_runner::plan::chart::{ObjectiveChart, StepSeries};
    let step = |name: &str| StepSeries {
        name: name.into(),
        points: vec![
            (10.0, 300.0, 100.0, false, false),
            (20.0, 200.0, 80.0, true, false),
            (30.0, 150.0, 60.0, true, false),
        ],
        answer: None,
    };
    let chart = ObjectiveChart {
        title: "Wait time, p95 against nodes".into(),
        subtitle: "test".into(),
        cap: None,
        x_label: "nodes".into(),
        whole_x: true,
        y_label: "Wait time, p95 (s)".into(),
        bound: (250.0, "objective: <= 250 s".into()),
        steps: vec![step("1x arrivals"), step("1.25x arrivals")],
    };
    let dir = tempfile::tempdir().unwrap();
    assert_both_show(
        "equal plan lines",
        colours_along_shared(&chart, dir.path()),
        300,
    );
}
