//! Empirical distribution functions of wait and completion times, one line per queue. The
//! fraction counts every app of the queue that was admitted, so apps that never started or
//! finished keep a curve below 1 instead of vanishing from it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{LegendEntry, Mark, legend_right, titled};
use super::{Chart, DrawError, de, padded, series_color};
use crate::sweep::detail::DetailSeries;

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
    /// The curves.
    pub series: Vec<CdfSeries>,
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

    /// Wait (arrival to first container) per queue, of a sweep's charted run (its finished apps).
    pub fn waits(detail: &DetailSeries, run: u64) -> Cdf {
        Cdf::wait_chart(
            Cdf::per_queue(detail.app_values(false)),
            &format!("run {run}"),
            "finished apps",
        )
    }

    /// Job completion time (arrival to finish) per queue, of a sweep's charted run.
    pub fn completions(detail: &DetailSeries, run: u64) -> Cdf {
        Cdf::completion_chart(
            Cdf::per_queue(detail.app_values(true)),
            &format!("run {run}"),
            "finished apps",
        )
    }

    /// The wait chart of `series`, taken over `over` (e.g. `admitted apps`).
    pub fn wait_chart(series: Vec<CdfSeries>, which: &str, over: &str) -> Cdf {
        Cdf {
            title: format!("Wait time distribution per queue, {which}"),
            subtitle: format!(
                "fraction of each queue's {over} whose first container came within the time"
            ),
            x_label: "wait, arrival to first container (s)".to_string(),
            series,
        }
    }

    /// The completion-time chart of `series`, taken over `over`.
    pub fn completion_chart(series: Vec<CdfSeries>, which: &str, over: &str) -> Cdf {
        Cdf {
            title: format!("Completion time distribution per queue, {which}"),
            subtitle: format!("fraction of each queue's {over} finished within the time"),
            x_label: "job completion time, arrival to finish (s)".to_string(),
            series,
        }
    }
}

impl Chart for Cdf {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let body = titled(root, &self.title, &self.subtitle)?;
        let entries: Vec<LegendEntry> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let label = if s.values.len() == s.total {
                    format!("{} ({} apps)", s.queue, s.total)
                } else {
                    format!("{} ({} of {} apps)", s.queue, s.values.len(), s.total)
                };
                LegendEntry::new(label, series_color(i), Mark::Line)
            })
            .collect();
        let area = legend_right(&body, "queue", &entries)?;
        let hi = self
            .series
            .iter()
            .filter_map(|s| s.values.last().copied())
            .fold(0.0_f64, f64::max);
        let (_, x1) = padded(0.0, hi);
        let x = Axis::numeric(0.0, x1, 10, &self.x_label);
        // A little room above 1 so that a complete curve does not hide in the frame.
        let mut y = Axis::numeric(0.0, 1.0, 5, "fraction of apps (0 to 1)");
        y.range.1 = 1.03;
        let mut chart = cartesian(&area, &x, &y)?;
        for (i, s) in self.series.iter().enumerate() {
            // The curve runs on to the right edge at the fraction reached.
            chart
                .draw_series(LineSeries::new(
                    curve(s, x1),
                    series_color(i).stroke_width(2),
                ))
                .map_err(de)?;
        }
        Ok(())
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
}
