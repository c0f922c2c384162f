//! Lines over simulated time: Jain's fairness index and cluster utilisation.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{LegendEntry, Mark, legend_right, titled};
use super::{Chart, DrawError, de, padded, series_color};
use crate::sweep::detail::DetailSeries;

/// One line of a time series chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeLine {
    /// Legend entry.
    pub name: String,
    /// `(time in seconds, value)` points by increasing time.
    pub points: Vec<(f64, f64)>,
    /// Colour index.
    pub color: usize,
}

/// Lines over simulated time.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSeries {
    /// Chart title.
    pub title: String,
    /// What is drawn, under the title.
    pub subtitle: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// Fixed y range, or `None` to fit the data.
    pub y_range: Option<(f64, f64)>,
    /// The lines (a legend is drawn when there are several).
    pub lines: Vec<TimeLine>,
}

/// The time axis of a run lasting `t1` seconds: minutes past two hours, hours past two days.
pub fn time_axis(t1: f64) -> (f64, &'static str) {
    if t1 > 2.0 * 86_400.0 {
        (3600.0, "h")
    } else if t1 > 7200.0 {
        (60.0, "min")
    } else {
        (1.0, "s")
    }
}

impl TimeSeries {
    /// Jain's index over the active queues (fair share > 0) of usage / fair share, at each
    /// sample time of a sweep's charted run.
    pub fn jain_over_time(detail: &DetailSeries, run: u64) -> TimeSeries {
        let points = detail
            .leaf_ratios()
            .into_iter()
            .filter_map(|(t, xs)| jain_index(&xs).map(|j| (t, j)))
            .collect();
        TimeSeries::jain(points, &format!("run {run}"), "instantaneous fair share")
    }

    /// Jain's index from `(time, index)` points, taken of usage / `share`.
    pub fn jain(mut points: Vec<(f64, f64)>, which: &str, share: &str) -> TimeSeries {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        TimeSeries {
            title: format!("Jain's fairness index over time, {which}"),
            subtitle: format!(
                "over leaf queues with a {share}, of usage / {share}; 1 is perfectly fair"
            ),
            y_label: "Jain's fairness index (0 to 1)".to_string(),
            y_range: Some((0.0, 1.0)),
            lines: vec![TimeLine {
                name: "Jain's index".to_string(),
                points,
                color: 0,
            }],
        }
    }

    /// Memory and vcore utilisation from `(time, memory, vcores)` fractions.
    pub fn utilisation(points: &[(f64, f64, f64)], which: &str) -> TimeSeries {
        TimeSeries {
            title: format!("Cluster utilisation over time, {which}"),
            subtitle: "allocated / cluster capacity, at each sample".to_string(),
            y_label: "utilisation (fraction of the cluster)".to_string(),
            y_range: Some((0.0, 1.0)),
            lines: vec![
                TimeLine {
                    name: "memory".to_string(),
                    points: points.iter().map(|p| (p.0, p.1)).collect(),
                    color: 0,
                },
                TimeLine {
                    name: "vcores".to_string(),
                    points: points.iter().map(|p| (p.0, p.2)).collect(),
                    color: 1,
                },
            ],
        }
    }
}

/// Jain's fairness index `(Σx)² / (n·Σx²)`; `None` for no values or all zeros.
pub fn jain_index(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    (!xs.is_empty() && sq > 0.0).then(|| sum * sum / (xs.len() as f64 * sq))
}

impl Chart for TimeSeries {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let body = titled(root, &self.title, &self.subtitle)?;
        let entries: Vec<LegendEntry> = if self.lines.len() > 1 {
            self.lines
                .iter()
                .map(|l| LegendEntry::new(&l.name, series_color(l.color), Mark::Line))
                .collect()
        } else {
            Vec::new()
        };
        let area = legend_right(&body, "", &entries)?;
        let all = self.lines.iter().flat_map(|l| &l.points);
        let (t0, t1, v0, v1) = all.fold(
            (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ),
            |r, p| (r.0.min(p.0), r.1.max(p.0), r.2.min(p.1), r.3.max(p.1)),
        );
        let (scale, unit) = time_axis(t1);
        let (t0, t1) = if t0.is_finite() && t1 > t0 {
            (t0 / scale, t1 / scale)
        } else {
            padded(t0, t1)
        };
        let (y0, y1) = self.y_range.unwrap_or_else(|| padded(v0.min(0.0), v1));
        let x = Axis::numeric(t0, t1, 10, format!("simulated time ({unit})"));
        let mut y = Axis::numeric(y0, y1, 8, &self.y_label);
        if self.y_range.is_some_and(|r| r.1 == 1.0) {
            // A little room above 1 so that a line at 1 does not hide in the frame.
            y.range.1 = 1.03;
        }
        let mut chart = cartesian(&area, &x, &y)?;
        for line in &self.lines {
            let c = series_color(line.color);
            chart
                .draw_series(LineSeries::new(
                    line.points.iter().map(|&(t, v)| (t / scale, v)),
                    c.stroke_width(2),
                ))
                .map_err(de)?;
        }
        Ok(())
    }
}
