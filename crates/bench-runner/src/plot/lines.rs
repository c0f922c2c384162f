//! Line charts of a metric's mean over one sweep axis with its 95% interval as a band (cut to
//! the metric's range), one line per combination of the other axes. Ticks sit at the sweep's
//! own values; a geometric axis (0.1, 0.2, 0.5, 1, 2) is drawn on a log scale.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{
    LegendEntry, Mark, STALL_RED, draw_marker, draw_stall_ring, legend_right, titled,
};
use super::overlap::draw_turns;
use super::{Chart, DrawError, de, padded, series_color};

/// At most this many lines per chart; further combinations are left out (and the title says so).
pub const MAX_SERIES: usize = 12;

/// A point of a line: `(x, mean, 95% interval)`.
pub type Point = (f64, f64, Option<(f64, f64)>);

/// One line: points `(x, mean, 95% interval)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// `(x, mean, Some((lo, hi)))`, by increasing x; a NaN mean is a point without runs.
    pub points: Vec<Point>,
    /// The x of every point whose runs include stalled ones (ringed in red).
    pub stalled_x: Vec<f64>,
}

/// A line chart with interval bands.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Chart title.
    pub title: String,
    /// What the lines and bands are, under the title.
    pub subtitle: String,
    /// x axis description, with unit.
    pub x_label: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// The x axis's ticks: position and label (the sweep's values as written).
    pub x_ticks: Vec<(f64, String)>,
    /// Whether x positions are log10 of the values.
    pub log_x: bool,
    /// The legend's heading (what the lines differ in).
    pub legend_heading: String,
    /// The lines.
    pub series: Vec<Series>,
    /// The range the metric can take (bands are cut to it).
    pub y_bounds: (Option<f64>, Option<f64>),
}

/// Whether positive `values` (ascending) are spaced more evenly on a log scale than on a
/// linear one, and span at least a factor of 10.
pub(crate) fn prefers_log(values: &[f64]) -> bool {
    if values.len() < 3 || values[0] <= 0.0 || values[values.len() - 1] / values[0] < 10.0 {
        return false;
    }
    let spread = |xs: Vec<f64>| {
        let gaps: Vec<f64> = xs.windows(2).map(|w| w[1] - w[0]).collect();
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        gaps.iter().map(|g| (g - mean).abs()).sum::<f64>() / (gaps.len() as f64 * mean)
    };
    spread(values.iter().map(|v| v.log10()).collect()) < spread(values.to_vec())
}

impl LineChart {
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
        let (mut y0, mut y1) = padded(y.0, y.1);
        // Padding never takes the axis past what the metric can be.
        if let Some(lo) = self.y_bounds.0 {
            y0 = y0.max(lo.min(y.0));
        }
        if let Some(hi) = self.y_bounds.1 {
            y1 = y1.min(hi.max(y.1));
        }
        (padded(x.0, x.1), (y0, y1))
    }
}

impl Chart for LineChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let mut subtitle = self.subtitle.clone();
        let missing = self
            .series
            .iter()
            .flat_map(|s| &s.points)
            .any(|p| !p.1.is_finite());
        if missing {
            subtitle += "; gaps: no runs";
        }
        let stalls = self.series.iter().any(|s| !s.stalled_x.is_empty());
        let body = titled(root, &self.title, &subtitle)?;
        let mut entries: Vec<LegendEntry> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| LegendEntry::new(&s.name, series_color(i), Mark::Marked(i)))
            .collect();
        entries.push(LegendEntry::new(
            "95% interval",
            RGBColor(110, 110, 110),
            Mark::Band,
        ));
        if stalls {
            entries.push(LegendEntry::new(
                "stalled runs in the mean (censored values)",
                STALL_RED,
                Mark::Stalled,
            ));
        }
        let area = legend_right(&body, &self.legend_heading, &entries)?;
        let ((x0, x1), (y0, y1)) = self.ranges();
        let x_axis = Axis::at((x0, x1), self.x_ticks.clone(), &self.x_label);
        let y_axis = Axis::numeric(y0, y1, 8, &self.y_label);
        let mut chart = cartesian(&area, &x_axis, &y_axis)?;
        let mut drawn: Vec<(Vec<(f64, f64)>, RGBColor)> = Vec::new();
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
                    .draw_series(std::iter::once(Polygon::new(outline, c.mix(0.15).filled())))
                    .map_err(de)?;
            } else {
                // Error bars where a band cannot be drawn (single point or missing intervals).
                chart
                    .draw_series(band.iter().map(|&(x, lo, hi)| {
                        PathElement::new(vec![(x, lo), (x, hi)], c.stroke_width(2))
                    }))
                    .map_err(de)?;
            }
            // A point without runs breaks the line rather than dropping to zero.
            for run in s.points.split(|p| !p.1.is_finite()) {
                let run: Vec<(f64, f64)> = run.iter().map(|p| (p.0, p.1)).collect();
                chart
                    .draw_series(LineSeries::new(run.clone(), c.stroke_width(3)))
                    .map_err(de)?;
                drawn.push((run, c));
            }
        }
        // Lines that coincide (equal means) take turns where they do.
        draw_turns(root, &chart, &drawn, 3)?;
        for (i, s) in self.series.iter().enumerate() {
            let c = series_color(i);
            // Markers over every line, a shape per series, nudged sideways a few pixels per
            // series: points that coincide stay visible.
            let base = root.get_base_pixel();
            let nudge = (2 * i as i32 - (self.series.len() as i32 - 1)) * 3;
            for p in s.points.iter().filter(|p| p.1.is_finite()) {
                let (px, py) = chart.backend_coord(&(p.0, p.1));
                let at = (px - base.0 + nudge, py - base.1);
                draw_marker(root, at, i, c)?;
                if s.stalled_x.contains(&p.0) {
                    draw_stall_ring(root, at)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A queue name from a trace may hold a control character, which XML forbids even as a
    /// reference: the chart is drawn with U+FFFD in its place, not refused by the renderer.
    #[test]
    fn a_name_with_a_control_character_is_drawn() {
        let chart = LineChart {
            title: "Wait of root.a\u{0}b".into(),
            subtitle: String::new(),
            x_label: "weight".into(),
            y_label: "wait (s)".into(),
            x_ticks: vec![(1.0, "1".into()), (2.0, "2".into())],
            log_x: false,
            legend_heading: String::new(),
            series: vec![Series {
                name: "root.a\u{1}b".into(),
                points: vec![(1.0, 3.0, None), (2.0, 4.0, None)],
                stalled_x: Vec::new(),
            }],
            y_bounds: (Some(0.0), None),
        };
        let dir = tempfile::tempdir().unwrap();
        let [png, svg] = crate::plot::save(&chart, &dir.path().join("c")).unwrap();
        let text = std::fs::read_to_string(svg).unwrap();
        assert!(text.contains("root.a\u{fffd}b"), "{text}");
        assert!(!text.contains(['\u{0}', '\u{1}']));
        assert!(std::fs::metadata(png).unwrap().len() > 0);
    }

    #[test]
    fn geometric_sweeps_get_a_log_axis() {
        assert!(prefers_log(&[0.1, 0.2, 0.5, 1.0, 2.0]));
        assert!(!prefers_log(&[0.0, 8192.0, 16384.0, 32768.0]));
        assert!(!prefers_log(&[1.0, 2.0, 3.0, 4.0]));
    }
}
