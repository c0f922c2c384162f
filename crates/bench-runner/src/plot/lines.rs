//! Line charts of a metric's mean over one axis with its 95% interval as a band, one line per combination of
//! the other axes.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    Chart, DrawError, PlotError, de, draw_legend, label_font, metric_label, padded, param_label,
    series_color, title_font,
};
use crate::results::parse_f64;
use crate::sweep::output::RunsTable;

/// At most this many lines per chart; further combinations are left out (and the title says so).
pub const MAX_SERIES: usize = 12;

/// A point of a line: `(x, mean, 95% interval)`.
pub type Point = (f64, f64, Option<(f64, f64)>);

/// One line: points `(x, mean, 95% interval)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// `(x, mean, Some((lo, hi)))`, by increasing x.
    pub points: Vec<Point>,
}

/// A line chart with interval bands.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Chart title.
    pub title: String,
    /// x axis description, with unit.
    pub x_label: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// For a non-numeric axis, the category names at x = 0, 1, 2, ...
    pub x_categories: Option<Vec<String>>,
    /// The lines.
    pub series: Vec<Series>,
}

impl LineChart {
    /// `metric` over axis `x`, one line per combination of the other axes' values, from the table's summary.
    pub fn from_table(table: &RunsTable, metric: &str, x: &str) -> Result<LineChart, PlotError> {
        let xi = table
            .axis_index(x)
            .ok_or_else(|| PlotError::Input(format!("`{x}` is not an axis")))?;
        let mi = table
            .metric_index(metric)
            .ok_or_else(|| PlotError::Input(format!("no metric `{metric}`")))?;
        let summary = table.summary();
        let mut categories: Vec<String> = Vec::new();
        for p in &summary {
            if !categories.contains(&p.axis_values[xi]) {
                categories.push(p.axis_values[xi].clone());
            }
        }
        let numeric = categories
            .iter()
            .all(|c| parse_f64(c).is_some_and(f64::is_finite));
        let x_of = |cell: &str| {
            if numeric {
                parse_f64(cell).expect("checked numeric")
            } else {
                categories.iter().position(|c| c == cell).expect("seen") as f64
            }
        };
        let mut series: Vec<Series> = Vec::new();
        let mut dropped = 0;
        for p in &summary {
            let others: Vec<String> = (0..table.axes.len())
                .filter(|&i| i != xi)
                .map(|i| format!("{}={}", table.axes[i], p.axis_values[i]))
                .collect();
            let name = if others.is_empty() {
                "mean, 95% interval".to_string()
            } else {
                others.join(", ")
            };
            let m = p.moments[mi];
            let point = (x_of(&p.axis_values[xi]), m.mean, m.ci95);
            match series.iter().position(|s| s.name == name) {
                Some(i) => series[i].points.push(point),
                None if series.len() < MAX_SERIES => series.push(Series {
                    name,
                    points: vec![point],
                }),
                None => dropped += 1,
            }
        }
        for s in &mut series {
            s.points.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        let mut title = format!("{metric} against {x} (mean and 95% interval over seeds)");
        if dropped > 0 {
            title += &format!(", first {MAX_SERIES} lines");
        }
        Ok(LineChart {
            title,
            x_label: param_label(x),
            y_label: metric_label(metric),
            x_categories: (!numeric).then_some(categories),
            series,
        })
    }

    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let mut x = (f64::INFINITY, f64::NEG_INFINITY);
        let mut y = (f64::INFINITY, f64::NEG_INFINITY);
        for (px, mean, band) in self.series.iter().flat_map(|s| &s.points) {
            x = (x.0.min(*px), x.1.max(*px));
            for v in [Some(*mean), band.map(|b| b.0), band.map(|b| b.1)]
                .into_iter()
                .flatten()
                .filter(|v| v.is_finite())
            {
                y = (y.0.min(v), y.1.max(v));
            }
        }
        (padded(x.0, x.1), padded(y.0, y.1))
    }
}

impl Chart for LineChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let ((x0, x1), (y0, y1)) = self.ranges();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, title_font())
            .margin(20)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(de)?;
        let categories = self.x_categories.clone();
        let x_fmt = move |v: &f64| match &categories {
            None => format!("{v}"),
            Some(c) if (v - v.round()).abs() < 1e-9 && *v >= 0.0 => {
                c.get(v.round() as usize).cloned().unwrap_or_default()
            }
            Some(_) => String::new(),
        };
        let n_x_labels = self.x_categories.as_ref().map_or(10, |c| c.len() * 2 + 1);
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_labels(n_x_labels)
            .x_label_formatter(&x_fmt)
            .axis_desc_style(label_font())
            .label_style(label_font())
            .draw()
            .map_err(de)?;
        for (i, s) in self.series.iter().enumerate() {
            let c = series_color(i);
            let band: Vec<(f64, f64, f64)> = s
                .points
                .iter()
                .filter_map(|(x, _, b)| b.map(|(lo, hi)| (*x, lo, hi)))
                .collect();
            if band.len() == s.points.len() && band.len() > 1 {
                let outline: Vec<(f64, f64)> = band
                    .iter()
                    .map(|p| (p.0, p.2))
                    .chain(band.iter().rev().map(|p| (p.0, p.1)))
                    .collect();
                chart
                    .draw_series(std::iter::once(Polygon::new(outline, c.mix(0.18).filled())))
                    .map_err(de)?;
            } else {
                // Error bars where a band cannot be drawn (single point or missing intervals).
                chart
                    .draw_series(band.iter().map(|&(x, lo, hi)| {
                        PathElement::new(vec![(x, lo), (x, hi)], c.stroke_width(2))
                    }))
                    .map_err(de)?;
            }
            chart
                .draw_series(
                    LineSeries::new(s.points.iter().map(|p| (p.0, p.1)), c.stroke_width(3))
                        .point_size(4),
                )
                .map_err(de)?
                .label(&s.name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(3))
                });
        }
        draw_legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        Ok(())
    }
}
