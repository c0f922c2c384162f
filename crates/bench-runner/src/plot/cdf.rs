//! Empirical distribution functions of wait and completion times, one line per queue. The
//! fraction counts every app of the queue that was admitted, so apps that never started or
//! finished keep a curve below 1 instead of vanishing from it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{LegendEntry, Mark, legend_line_width, legend_right, text_style, titled};
use super::names::{MAX_NAME_CHARS, shorten};

/// The fewest characters a name is shortened to, however long its count.
const MIN_NAME_CHARS: usize = 14;

/// Whether a legend label is drawn on one line of the legend.
fn fits_one_line(label: &str) -> bool {
    super::register_fonts();
    text_style()
        .font
        .box_size(label)
        .is_ok_and(|(w, _)| w <= legend_line_width(WIDTH))
}
use super::overlap::draw_turns;
use super::ticks::value_label;
use super::{
    Chart, DrawError, MAX_SERIES, OTHERS_GREY, WIDTH, de, draw_series_line, padded, series_color,
    series_mark,
};

/// A curve of more values than this is drawn through this many evenly spaced order
/// statistics, its first and last among them. A chart is about a thousand pixels wide and
/// the staircase between two kept values stays within 1/4,095 of the height (under a
/// pixel), while a queue of a million apps would otherwise put two million points into the
/// SVG and the PNG (seconds to draw, 15 MB a chart).
pub const MAX_CDF_STEPS: usize = 4_096;

/// The ranks of `m` sorted values a curve is drawn through: every one up to
/// [`MAX_CDF_STEPS`], otherwise that many evenly spaced, from the first to the last.
fn drawn_ranks(m: usize) -> impl Iterator<Item = usize> {
    let thin = m > MAX_CDF_STEPS;
    (0..m.min(MAX_CDF_STEPS)).map(move |j| {
        if thin {
            j * (m - 1) / (MAX_CDF_STEPS - 1)
        } else {
            j
        }
    })
}

/// The points of a queue's curve: a step up by 1/total at each drawn value (see
/// [`MAX_CDF_STEPS`]), then on to `x1` at the fraction reached.
fn curve(s: &CdfSeries, x1: f64) -> Vec<(f64, f64)> {
    let n = s.total.max(1) as f64;
    let mut steps: Vec<(f64, f64)> = drawn_ranks(s.values.len())
        .flat_map(|k| {
            let x = s.values[k];
            [(x, k as f64 / n), (x, (k + 1) as f64 / n)]
        })
        .collect();
    if let Some(&(_, f)) = steps.last() {
        steps.push((x1, f));
    }
    steps
}

/// One queue's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct CdfSeries {
    /// Queue name.
    pub queue: String,
    /// The observed values, sorted.
    pub values: Vec<f64>,
    /// Apps the fraction is taken over (at least `values.len()`).
    pub total: usize,
}

/// Empirical CDFs of one quantity, one per queue.
#[derive(Debug, Clone, PartialEq)]
pub struct Cdf {
    /// Chart title.
    pub title: String,
    /// What the fraction is taken over, under the title.
    pub subtitle: String,
    /// x axis description, with unit.
    pub x_label: String,
    /// The curves drawn one by one.
    pub series: Vec<CdfSeries>,
    /// The other queues' apps pooled into one curve, when there are too many queues to draw
    /// each (`queue` says how many).
    pub others: Option<CdfSeries>,
}

/// The value under which 95% of the queue's apps fall, apps without a value counting as
/// longer than any: how a queue is ranked for being drawn on its own.
fn p95_counting_missing(s: &CdfSeries) -> f64 {
    let rank = (s.total as f64 * 0.95).ceil() as usize;
    s.values
        .get(rank.saturating_sub(1))
        .copied()
        .unwrap_or(f64::INFINITY)
}

/// Keeps every series up to [`MAX_SERIES`]; beyond, the `MAX_SERIES - 1` with the longest
/// p95 (by name among equals) and the rest pooled. Returns the kept, the pool and a note
/// for the subtitle.
fn pool(mut series: Vec<CdfSeries>, what: &str) -> (Vec<CdfSeries>, Option<CdfSeries>, String) {
    if series.len() <= MAX_SERIES {
        return (series, None, String::new());
    }
    let n = series.len();
    let keep = MAX_SERIES - 1;
    series.sort_by(|a, b| {
        p95_counting_missing(b)
            .total_cmp(&p95_counting_missing(a))
            .then_with(|| a.queue.cmp(&b.queue))
    });
    let rest = series.split_off(keep);
    series.sort_by(|a, b| a.queue.cmp(&b.queue));
    let mut values: Vec<f64> = rest.iter().flat_map(|s| s.values.iter().copied()).collect();
    values.sort_by(f64::total_cmp);
    let others = CdfSeries {
        queue: format!("{} other queues", rest.len()),
        values,
        total: rest.iter().map(|s| s.total).sum(),
    };
    let note = format!(
        "; the {keep} of {n} queues with the longest p95 {what} drawn one by one, the {} other queues pooled in grey",
        rest.len()
    );
    (series, Some(others), note)
}

impl Cdf {
    /// Curves from `(queue, value)` pairs, `None` for an app without the value (never
    /// started, never finished); queues by name.
    pub fn per_queue(values: impl Iterator<Item = (String, Option<f64>)>) -> Vec<CdfSeries> {
        let mut series: Vec<CdfSeries> = Vec::new();
        for (queue, v) in values {
            let i = match series.iter().position(|s| s.queue == queue) {
                Some(i) => i,
                None => {
                    series.push(CdfSeries {
                        queue,
                        values: Vec::new(),
                        total: 0,
                    });
                    series.len() - 1
                }
            };
            series[i].total += 1;
            if let Some(v) = v.filter(|v| v.is_finite()) {
                series[i].values.push(v);
            }
        }
        for s in &mut series {
            s.values.sort_by(f64::total_cmp);
        }
        series.sort_by(|a, b| a.queue.cmp(&b.queue));
        series
    }

    /// The wait chart of `series`, taken over `over` (e.g. `admitted apps`).
    pub fn wait_chart(series: Vec<CdfSeries>, which: &str, over: &str) -> Cdf {
        let (series, others, note) = pool(series, "wait");
        Cdf {
            title: format!("Wait time distribution per queue, {which}"),
            subtitle: format!(
                "fraction of each queue's {over} whose first container came within the time{note}"
            ),
            x_label: "wait, arrival to first container (s)".to_string(),
            series,
            others,
        }
    }

    /// The completion-time chart of `series`, taken over `over`.
    pub fn completion_chart(series: Vec<CdfSeries>, which: &str, over: &str) -> Cdf {
        let (series, others, note) = pool(series, "completion time");
        Cdf {
            title: format!("Completion time distribution per queue, {which}"),
            subtitle: format!("fraction of each queue's {over} finished within the time{note}"),
            x_label: "job completion time, arrival to finish (s)".to_string(),
            series,
            others,
        }
    }

    /// Each curve's legend entry, as drawn (names shortened) and in full. A count of part
    /// of a queue's apps (`(1 of 3 apps)`) takes its room from the name, so that the entry
    /// stays on one line of the legend rather than wrapping inside the parenthesis.
    fn labels(&self) -> Vec<(String, String)> {
        let names: Vec<String> = self.series.iter().map(|s| s.queue.clone()).collect();
        let count = |s: &CdfSeries| {
            if s.values.len() == s.total {
                format!("({} apps)", s.total)
            } else {
                format!("({} of {} apps)", s.values.len(), s.total)
            }
        };
        let mut out: Vec<(String, String)> = self
            .series
            .iter()
            .map(|s| {
                let c = count(s);
                let mut room = MAX_NAME_CHARS;
                let mut short = shorten(&s.queue, &names, room);
                while s.values.len() != s.total
                    && room > MIN_NAME_CHARS
                    && !fits_one_line(&format!("{short} {c}"))
                {
                    room -= 1;
                    short = shorten(&s.queue, &names, room);
                }
                (format!("{short} {c}"), format!("{} {c}", s.queue))
            })
            .collect();
        if let Some(o) = &self.others {
            let l = format!("{} {}", o.queue, count(o));
            out.push((l.clone(), l));
        }
        out
    }
}

impl Cdf {
    /// The right end of the x axis: a little past the largest value.
    fn x_end(&self) -> f64 {
        let hi = self
            .series
            .iter()
            .chain(&self.others)
            .filter_map(|s| s.values.last().copied())
            .fold(0.0_f64, f64::max);
        padded(0.0, hi).1
    }

    /// The decades `(lo, hi)` of a log-scale time axis, when the positive values span more
    /// than two decades (on a linear axis most of such a curve would sit on the y axis):
    /// from the smallest positive value's decade to the largest value's.
    pub fn log_decades(&self) -> Option<(i32, i32)> {
        let (lo, hi) = self
            .series
            .iter()
            .chain(&self.others)
            .flat_map(|s| s.values.iter().copied())
            .filter(|&v| v > 0.0 && v.is_finite())
            .fold((f64::INFINITY, 0.0_f64), |(a, b), v| (a.min(v), b.max(v)));
        (hi > 100.0 * lo).then(|| {
            let d0 = lo.log10().floor() as i32;
            let d1 = (hi.log10().ceil() as i32).max(d0 + 1);
            (d0, d1)
        })
    }
}

impl Chart for Cdf {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let log = self.log_decades();
        let has_zero = self
            .series
            .iter()
            .chain(&self.others)
            .any(|s| s.values.first().is_some_and(|&v| v <= 0.0));
        let subtitle = match log {
            Some((d0, _)) if has_zero => format!(
                "{}; log time axis, values under {} s at its left edge",
                self.subtitle,
                value_label(10f64.powi(d0))
            ),
            Some(_) => format!("{}; log time axis", self.subtitle),
            None => self.subtitle.clone(),
        };
        let body = titled(root, &self.title, &subtitle)?;
        let labels = self.labels();
        // On a log axis a value is drawn at its log10, one under the axis's start (a zero
        // wait) at its left edge, as the subtitle says.
        let (x1, at) = match log {
            Some((d0, d1)) => (10f64.powi(d1), Some(d0 as f64)),
            None => (self.x_end(), None),
        };
        let place = |pts: Vec<(f64, f64)>| -> Vec<(f64, f64)> {
            match at {
                Some(d0) => pts
                    .into_iter()
                    .map(|(x, y)| (if x > 0.0 { x.log10().max(d0) } else { d0 }, y))
                    .collect(),
                None => pts,
            }
        };
        let curves: Vec<Vec<(f64, f64)>> =
            self.series.iter().map(|s| place(curve(s, x1))).collect();
        let mut entries: Vec<LegendEntry> = labels
            .iter()
            .zip(&self.series)
            .enumerate()
            .map(|(i, (l, _))| LegendEntry::new(&l.0, series_color(i), series_mark(i)))
            .collect();
        if self.others.is_some() {
            let l = &labels[labels.len() - 1].0;
            entries.push(LegendEntry::new(l, OTHERS_GREY, Mark::Line));
        }
        let area = legend_right(&body, "queue", &entries)?;
        let x = match log {
            Some((d0, d1)) => {
                // Each decade, with its 2 and 5 when there are few decades.
                let steps: &[f64] = if d1 - d0 <= 3 {
                    &[1.0, 2.0, 5.0]
                } else {
                    &[1.0]
                };
                let ticks = (d0..=d1)
                    .flat_map(|d| steps.iter().map(move |m| m * 10f64.powi(d)))
                    .filter(|&v| v <= x1 * (1.0 + 1e-9))
                    .map(|v| (v.log10(), value_label(v)))
                    .collect();
                Axis::at(
                    (d0 as f64, d1 as f64),
                    ticks,
                    self.x_label.replace(" (s)", " (s, log scale)"),
                )
            }
            None => Axis::numeric(0.0, x1, 10, &self.x_label),
        };
        // A little room above 1 so that a complete curve does not hide in the frame.
        let mut y = Axis::numeric(0.0, 1.0, 5, "fraction of apps (0 to 1)");
        y.range.1 = 1.03;
        let mut chart = cartesian(&area, &x, &y)?;
        let mut drawn: Vec<(Vec<(f64, f64)>, RGBColor)> = Vec::new();
        if let Some(o) = &self.others {
            let c = place(curve(o, x1));
            chart
                .draw_series(LineSeries::new(c.clone(), OTHERS_GREY.stroke_width(3)))
                .map_err(de)?;
            drawn.push((c, OTHERS_GREY));
        }
        for (i, c) in curves.into_iter().enumerate() {
            // The curve runs on to the right edge at the fraction reached.
            draw_series_line(&mut chart, c.clone(), series_color(i), series_mark(i))?;
            drawn.push((c, series_color(i)));
        }
        // Curves that coincide (two queues' apps all done, at 1) take turns where they do.
        draw_turns(root, &chart, &drawn, 2)
    }

    fn tooltips(&self) -> Vec<(String, String)> {
        self.labels().into_iter().filter(|(a, b)| a != b).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(values: Vec<f64>, total: usize) -> CdfSeries {
        CdfSeries {
            queue: "root.a".into(),
            values,
            total,
        }
    }

    #[test]
    fn beyond_ten_queues_the_longest_waits_are_drawn_and_the_rest_pooled() {
        // Queue k has two apps waiting k and 2k s; q11 has a third that never started, so
        // its p95 (the 3rd of 3) is missing and counts as the longest.
        let mut values: Vec<(String, Option<f64>)> = Vec::new();
        for k in 1..=12 {
            values.push((format!("root.q{k:02}"), Some(k as f64)));
            values.push((format!("root.q{k:02}"), Some(2.0 * k as f64)));
        }
        values.push(("root.q11".into(), None));
        let chart = Cdf::wait_chart(Cdf::per_queue(values.into_iter()), "r", "admitted apps");
        let kept: Vec<&str> = chart.series.iter().map(|s| s.queue.as_str()).collect();
        // q11 first by p95, then q12 (24 s), q10 (20 s) ... q04 (8 s): q01..q03 pooled.
        assert_eq!(
            kept,
            [
                "root.q04", "root.q05", "root.q06", "root.q07", "root.q08", "root.q09", "root.q10",
                "root.q11", "root.q12"
            ]
        );
        let others = chart.others.expect("pooled");
        assert_eq!(others.queue, "3 other queues");
        assert_eq!(others.values, [1.0, 2.0, 2.0, 3.0, 4.0, 6.0]);
        assert_eq!(others.total, 6);
        assert!(
            chart.subtitle.contains("the 9 of 12 queues"),
            "{}",
            chart.subtitle
        );
    }

    /// A run cut before its end counts part of a queue's apps, `(1 of 3 apps)`: the name
    /// gives up characters so that the entry stays on one legend line, where a count of all
    /// the apps keeps the usual short name.
    #[test]
    fn a_part_count_shortens_the_name_to_one_legend_line() {
        let long = "root.org.platform.data_engineering.customer_360_analytics_interactive";
        let other = "root.org.platform.data_engineering.customer_360_analytics_nightly";
        let chart = Cdf::completion_chart(
            vec![
                CdfSeries {
                    queue: long.into(),
                    values: vec![10.0],
                    total: 3,
                },
                CdfSeries {
                    queue: other.into(),
                    values: vec![10.0, 20.0, 30.0],
                    total: 3,
                },
            ],
            "r",
            "admitted apps",
        );
        let labels = chart.labels();
        let (part, full) = (&labels[0].0, &labels[1].0);
        assert!(part.ends_with(" (1 of 3 apps)"), "{part}");
        assert!(fits_one_line(part), "{part}");
        let usual = shorten(long, &[long.into(), other.into()], MAX_NAME_CHARS);
        assert!(
            part.chars().count() - " (1 of 3 apps)".len() < usual.chars().count(),
            "{part} against {usual}"
        );
        assert_eq!(
            *full,
            format!(
                "{} (3 apps)",
                shorten(other, &[long.into(), other.into()], MAX_NAME_CHARS)
            )
        );
        assert_eq!(labels[0].1, format!("{long} (1 of 3 apps)"));
    }

    #[test]
    fn a_short_curve_steps_at_every_value() {
        // Three of four apps at 1, 2 and 4 s: up a quarter at each, then on to the edge (9).
        assert_eq!(
            curve(&series(vec![1.0, 2.0, 4.0], 4), 9.0),
            [
                (1.0, 0.0),
                (1.0, 0.25),
                (2.0, 0.25),
                (2.0, 0.5),
                (4.0, 0.5),
                (4.0, 0.75),
                (9.0, 0.75)
            ]
        );
        // 4,096 values: every one drawn.
        let all: Vec<f64> = (0..MAX_CDF_STEPS).map(|k| k as f64).collect();
        assert_eq!(curve(&series(all, MAX_CDF_STEPS), 1e4).len(), 2 * 4_096 + 1);
    }

    #[test]
    fn a_long_curve_is_drawn_through_evenly_spaced_values() {
        // A million values 0..1e6 s: 4,096 ranks j * 999,999 / 4,095 are drawn, from the
        // first (0 s, fraction 0) to the last (999,999 s, fraction 1), each a rise of 1e-6.
        let m = 1_000_000;
        let values: Vec<f64> = (0..m).map(|k| k as f64).collect();
        let points = curve(&series(values, m), 2e6);
        assert_eq!(points.len(), 2 * MAX_CDF_STEPS + 1);
        assert_eq!((points[0], points[1]), ((0.0, 0.0), (0.0, 1e-6)));
        // Rank 1 * 999,999 / 4,095 = 244 (integer division).
        assert_eq!(points[2], (244.0, 244e-6));
        assert_eq!(points[2 * MAX_CDF_STEPS - 1], (999_999.0, 1.0));
        assert_eq!(points[2 * MAX_CDF_STEPS], (2e6, 1.0));
        // Between two drawn values the curve rises at most 245 / 1e6 < 1 / 4,000.
        let most = points
            .windows(2)
            .map(|w| w[1].1 - w[0].1)
            .fold(0.0, f64::max);
        assert!(most <= 245e-6 + 1e-12, "{most}");
    }

    #[test]
    fn equal_curves_take_turns_so_each_shows() {
        // root.a, root.c and root.d have the same two waits of three apps: the same steps.
        // Over the three lines each is redrawn in every third dash along them (a short
        // two-point line in its colour); root.b, apart from them but where it crosses
        // them, gets no dash of its own to speak of.
        let values = [
            ("root.a", Some(1.0)),
            ("root.a", Some(3.0)),
            ("root.a", None),
            ("root.b", Some(2.0)),
            ("root.c", Some(1.0)),
            ("root.c", Some(3.0)),
            ("root.c", None),
            ("root.d", Some(3.0)),
            ("root.d", Some(1.0)),
            ("root.d", None),
        ]
        .map(|(q, v)| (q.to_string(), v));
        let chart = Cdf::wait_chart(Cdf::per_queue(values.into_iter()), "r", "admitted apps");
        let queues: Vec<&str> = chart.series.iter().map(|s| s.queue.as_str()).collect();
        assert_eq!(queues, ["root.a", "root.b", "root.c", "root.d"]);
        let dir = tempfile::tempdir().unwrap();
        let [_, svg] = crate::plot::save(&chart, &dir.path().join("w")).unwrap();
        let svg = std::fs::read_to_string(svg).unwrap();
        let dashes = |i: usize| {
            let c = series_color(i);
            let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
            svg.lines()
                .filter(|l| l.starts_with("<polyline") && l.contains(&stroke))
                .filter(|l| {
                    let points = l.split("points=\"").nth(1).unwrap();
                    points.split('"').next().unwrap().split_whitespace().count() == 2
                })
                .count()
        };
        // The three curves run some 700 pixels together: about 33 dashes of 7 pixels each.
        for i in [0, 2, 3] {
            assert!(dashes(i) >= 20, "{} has {} dashes", queues[i], dashes(i));
        }
        assert!(dashes(1) <= 2, "root.b has {} dashes", dashes(1));
    }

    #[test]
    fn times_spanning_more_than_two_decades_go_on_a_log_axis() {
        // Waits of 0.02 to 11 s span nearly three decades: the axis runs from 0.01 s (the
        // decade of 0.02) to 100 s (that of 11). A zero wait does not count (it has no log).
        let wide = [
            ("root.a", Some(0.0)),
            ("root.a", Some(0.02)),
            ("root.b", Some(11.0)),
        ]
        .map(|(q, v)| (q.to_string(), v));
        let chart = Cdf::wait_chart(Cdf::per_queue(wide.into_iter()), "r", "admitted apps");
        assert_eq!(chart.log_decades(), Some((-2, 2)));
        let dir = tempfile::tempdir().unwrap();
        let [_, svg] = crate::plot::save(&chart, &dir.path().join("w")).unwrap();
        let svg = std::fs::read_to_string(svg).unwrap();
        assert!(svg.contains("wait, arrival to first container (s, log scale)"));
        assert!(svg.contains("values under 0.01 s at its left edge"));
        // 1 to 100 s is exactly two decades: linear, as is 0.5 to 40 s.
        for (a, b) in [(1.0, 100.0), (0.5, 40.0)] {
            let narrow =
                [("root.a", Some(a)), ("root.b", Some(b))].map(|(q, v)| (q.to_string(), v));
            let chart = Cdf::wait_chart(Cdf::per_queue(narrow.into_iter()), "r", "admitted apps");
            assert_eq!(chart.log_decades(), None, "{a} to {b}");
        }
    }
}
