//! Empirical distribution functions of wait and completion times, one line per queue.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{Chart, DrawError, de, draw_legend, label_font, padded, series_color, title_font};
use crate::sweep::{AppRecord, RunDetail};

/// Empirical CDFs of one quantity, one per queue.
#[derive(Debug, Clone, PartialEq)]
pub struct Cdf {
    /// Chart title.
    pub title: String,
    /// x axis description, with unit.
    pub x_label: String,
    /// `(queue, sorted samples)`.
    pub series: Vec<(String, Vec<f64>)>,
}

impl Cdf {
    fn per_queue(detail: &RunDetail, value: impl Fn(&AppRecord) -> f64) -> Vec<(String, Vec<f64>)> {
        let mut series: Vec<(String, Vec<f64>)> = Vec::new();
        for a in &detail.apps {
            let v = value(a);
            if !v.is_finite() {
                continue;
            }
            match series.iter_mut().find(|s| s.0 == a.queue) {
                Some(s) => s.1.push(v),
                None => series.push((a.queue.clone(), vec![v])),
            }
        }
        for s in &mut series {
            s.1.sort_by(f64::total_cmp);
        }
        series
    }

    /// Wait (arrival to first container) per queue.
    pub fn waits(detail: &RunDetail, run: u64) -> Cdf {
        Cdf {
            title: format!("Wait time CDF per queue, run {run}"),
            x_label: "wait, arrival to first container (s)".to_string(),
            series: Self::per_queue(detail, |a| a.wait_s),
        }
    }

    /// Job completion time (arrival to finish) per queue.
    pub fn completions(detail: &RunDetail, run: u64) -> Cdf {
        Cdf {
            title: format!("Completion time CDF per queue, run {run}"),
            x_label: "job completion time, arrival to finish (s)".to_string(),
            series: Self::per_queue(detail, |a| a.completion_s),
        }
    }
}

impl Chart for Cdf {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let hi = self
            .series
            .iter()
            .filter_map(|s| s.1.last().copied())
            .fold(0.0_f64, f64::max);
        let lo = self
            .series
            .iter()
            .filter_map(|s| s.1.first().copied())
            .fold(0.0_f64, f64::min);
        let (x0, x1) = padded(lo, hi);
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(x0.max(lo.min(0.0))..x1, 0.0..1.02)
            .map_err(de)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc("fraction of apps (ratio)")
            .axis_desc_style(label_font())
            .label_style(label_font())
            .draw()
            .map_err(de)?;
        for (i, (queue, xs)) in self.series.iter().enumerate() {
            let n = xs.len() as f64;
            let steps = xs
                .iter()
                .enumerate()
                .flat_map(|(k, &x)| [(x, k as f64 / n), (x, (k + 1) as f64 / n)]);
            let c = series_color(i);
            chart
                .draw_series(LineSeries::new(steps, c.stroke_width(2)))
                .map_err(de)?
                .label(format!("{queue} ({} apps)", xs.len()))
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(2))
                });
        }
        draw_legend(&mut chart, SeriesLabelPosition::LowerRight)?;
        Ok(())
    }
}
