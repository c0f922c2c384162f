//! Time series of one run: queue usage against fair share, and Jain's fairness index over time.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Chart, DrawError, de, draw_legend, label_font, padded, series_color, title_font};
use crate::sweep::RunDetail;

/// One line of a time series chart.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeLine {
    /// Legend entry.
    pub name: String,
    /// `(time, value)` points by increasing time.
    pub points: Vec<(f64, f64)>,
    /// Colour index; lines of one queue share it.
    pub color: usize,
    /// Dashed (fair share) or solid (usage).
    pub dashed: bool,
}

/// Lines over simulated time.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSeries {
    /// Chart title.
    pub title: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// Fixed y range, or `None` to fit the data.
    pub y_range: Option<(f64, f64)>,
    /// The lines.
    pub lines: Vec<TimeLine>,
}

impl TimeSeries {
    /// Each queue's memory usage (solid) and instantaneous fair share (dashed) over time.
    pub fn usage_vs_fair_share(detail: &RunDetail, run: u64) -> TimeSeries {
        let mut queues: Vec<&str> = Vec::new();
        for s in &detail.queues {
            if !queues.contains(&s.queue.as_str()) {
                queues.push(&s.queue);
            }
        }
        let mut lines = Vec::new();
        for (i, q) in queues.iter().enumerate() {
            let samples = detail.queues.iter().filter(|s| s.queue == *q);
            lines.push(TimeLine {
                name: format!("{q} usage"),
                points: samples.clone().map(|s| (s.time_s, s.usage_mb)).collect(),
                color: i,
                dashed: false,
            });
            lines.push(TimeLine {
                name: format!("{q} fair share"),
                points: samples.map(|s| (s.time_s, s.fair_share_mb)).collect(),
                color: i,
                dashed: true,
            });
        }
        TimeSeries {
            title: format!("Queue usage against fair share, run {run}"),
            y_label: "memory (MB)".to_string(),
            y_range: None,
            lines,
        }
    }

    /// Jain's index over the active queues (fair share > 0) of usage / fair share, at each sample time.
    pub fn jain_over_time(detail: &RunDetail, run: u64) -> TimeSeries {
        let mut by_time: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
        for s in &detail.queues {
            if s.fair_share_mb > 0.0 {
                by_time
                    .entry(s.time_s.to_bits())
                    .or_default()
                    .push(s.usage_mb / s.fair_share_mb);
            }
        }
        let mut points: Vec<(f64, f64)> = by_time
            .into_iter()
            .filter_map(|(t, xs)| jain_index(&xs).map(|j| (f64::from_bits(t), j)))
            .collect();
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        TimeSeries {
            title: format!("Jain's fairness index over time, run {run}"),
            y_label: "Jain's index of usage / fair share (ratio)".to_string(),
            y_range: Some((0.0, 1.05)),
            lines: vec![TimeLine {
                name: "Jain's index, active queues".to_string(),
                points,
                color: 0,
                dashed: false,
            }],
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
        let (t0, t1) = if t0.is_finite() && t1 > t0 {
            (t0, t1)
        } else {
            padded(t0, t1)
        };
        let (y0, y1) = self.y_range.unwrap_or_else(|| padded(v0.min(0.0), v1));
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(t0..t1, y0..y1)
            .map_err(de)?;
        chart
            .configure_mesh()
            .x_desc("simulated time (s)")
            .y_desc(&self.y_label)
            .axis_desc_style(label_font())
            .label_style(label_font())
            .draw()
            .map_err(de)?;
        for line in &self.lines {
            let c = series_color(line.color);
            let anno = if line.dashed {
                chart
                    .draw_series(DashedLineSeries::new(
                        line.points.iter().copied(),
                        10,
                        6,
                        c.stroke_width(2),
                    ))
                    .map_err(de)?
            } else {
                chart
                    .draw_series(LineSeries::new(
                        line.points.iter().copied(),
                        c.stroke_width(2),
                    ))
                    .map_err(de)?
            };
            let dashed = line.dashed;
            anno.label(&line.name).legend(move |(x, y)| {
                let pts = if dashed {
                    vec![(x, y), (x + 8, y)]
                } else {
                    vec![(x, y), (x + 24, y)]
                };
                PathElement::new(pts, c.stroke_width(2))
            });
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    }
}
