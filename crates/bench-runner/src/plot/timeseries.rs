//! Lines over simulated time: Jain's fairness index and cluster utilisation.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{LegendEntry, Mark, legend_right, titled};
use super::ticks::value_label;
use super::{Chart, DrawError, draw_series_line, padded, series_color};

/// The second line of a time series is dashed, so that two equal lines both show.
fn series_line(i: usize) -> Mark {
    if i % 2 == 1 { Mark::Dashed } else { Mark::Line }
}

/// What the utilisation chart needs of the run's summary: where the run ended and the
/// utilisation the headline reports.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RunEnd {
    /// Simulated time at the end, s.
    pub sim_time_s: f64,
    /// Last finish, s (nothing runs after it).
    pub makespan_s: f64,
    /// Mean memory utilisation over the run (the headline's).
    pub util_memory: f64,
    /// Mean vcore utilisation over the run.
    pub util_vcores: f64,
}

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
    /// The run's end, s: the time axis runs to it.
    pub end_s: Option<f64>,
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
    /// Jain's index from `(time, index)` points, taken of usage / `share`.
    pub fn jain(mut points: Vec<(f64, f64)>, which: &str, share: &str) -> TimeSeries {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        TimeSeries {
            title: format!("Jain's fairness index over time, {which}"),
            subtitle: format!(
                "over leaf queues with {} {share}, of usage / {share}; 1 is perfectly fair",
                if share.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                }
            ),
            y_label: "Jain's fairness index (0 to 1)".to_string(),
            y_range: Some((0.0, 1.0)),
            lines: vec![TimeLine {
                name: "Jain's index".to_string(),
                points,
                color: 0,
            }],
            end_s: None,
        }
    }

    /// This chart with its time axis run to the run's `end`, as the usage and utilisation
    /// charts run; when the index stops before it (nothing runs after the last finish, and an
    /// index of nothing is undefined), the subtitle says where the last one is.
    pub fn to_end(mut self, end: Option<RunEnd>) -> TimeSeries {
        let Some(end) = end.map(|e| e.sim_time_s).filter(|t| t.is_finite()) else {
            return self;
        };
        let last = self
            .lines
            .iter()
            .filter_map(|l| l.points.last().map(|p| p.0))
            .fold(f64::NEG_INFINITY, f64::max);
        if last.is_finite() && last < end {
            self.subtitle += &format!(
                "; the last sample with anything running is at {} s, the run ends at {} s",
                value_label(last),
                value_label(end)
            );
        }
        self.end_s = Some(end);
        self
    }

    /// Memory and vcore utilisation from `(time, memory, vcores)` fractions, drawn to the
    /// run's `end`: nothing runs after its last finish, so the lines drop to 0 there when
    /// the samples stop before it (the idle time the run's mean counts).
    pub fn utilisation(points: &[(f64, f64, f64)], end: Option<RunEnd>, which: &str) -> TimeSeries {
        let mut points = points.to_vec();
        let mut subtitle = "allocated / cluster capacity, at each sample".to_string();
        if let Some(e) = end {
            let last = points.last().map_or(0.0, |p| p.0);
            if e.sim_time_s.is_finite() && e.sim_time_s > last {
                if e.makespan_s.is_finite() && e.makespan_s <= last {
                    // Idle from the last sample on (all containers had finished by then).
                    points.push((e.sim_time_s, 0.0, 0.0));
                } else {
                    subtitle += &format!("; no samples after {} s", value_label(last));
                }
            }
            if e.util_memory.is_finite() {
                subtitle += &format!(
                    "; mean over the run {} memory, {} vcores",
                    value_label(e.util_memory),
                    value_label(e.util_vcores)
                );
            }
        }
        let end_s = end.map(|e| e.sim_time_s).filter(|t| t.is_finite());
        TimeSeries {
            title: format!("Cluster utilisation over time, {which}"),
            subtitle,
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
            end_s,
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
                .map(|l| LegendEntry::new(&l.name, series_color(l.color), series_line(l.color)))
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
        let t1 = self.end_s.map_or(t1, |e| e.max(t1));
        let (scale, unit) = time_axis(t1);
        // Simulated time starts at 0.
        let t0 = t0.min(0.0);
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
            let points = line.points.iter().map(|&(t, v)| (t / scale, v)).collect();
            draw_series_line(
                &mut chart,
                points,
                series_color(line.color),
                series_line(line.color),
            )?;
        }
        Ok(())
    }
}
