//! Heatmap of one metric's mean over two sweep axes (e.g. queue weight × minShare): every
//! cell annotated with its value, cells without runs hatched, a labelled colour bar.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axes::{Axis, Chart2d, cartesian};
use super::frame::{STALL_RED, hatch, text_style, titled};
use super::ticks::value_label;
use super::{Chart, DrawError, de};
use crate::results::parse_f64;

/// Cells of a metric over two categorical axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Chart title.
    pub title: String,
    /// What the cells are (mean over how many seeds), under the title.
    pub subtitle: String,
    /// x axis description, with unit.
    pub x_label: String,
    /// y axis description, with unit.
    pub y_label: String,
    /// Colour bar description, with unit.
    pub value_label: String,
    /// x categories, left to right.
    pub x_values: Vec<String>,
    /// y categories, bottom to top.
    pub y_values: Vec<String>,
    /// `cells[y][x]`; `None` where no run has that pair.
    pub cells: Vec<Vec<Option<f64>>>,
    /// `stalled[y][x]`: how many of the cell's runs stalled (framed in red, and said in the cell).
    pub stalled: Vec<Vec<usize>>,
}

/// Distinct values in first-seen order, numbers sorted ascending (so axes read low to high).
pub(crate) fn axis_values(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.iter().all(|v| parse_f64(v).is_some_and(f64::is_finite)) {
        out.sort_by(|a, b| {
            let (a, b) = (parse_f64(a).unwrap_or(0.0), parse_f64(b).unwrap_or(0.0));
            a.total_cmp(&b)
        });
    }
    out
}

impl Heatmap {
    fn range(&self) -> (f64, f64) {
        let vals = self
            .cells
            .iter()
            .flatten()
            .flatten()
            .copied()
            .filter(|v| v.is_finite());
        let (lo, hi) = vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        if !lo.is_finite() {
            (0.0, 1.0)
        } else if hi - lo < 1e-12 {
            (lo - 0.5, hi + 0.5)
        } else {
            (lo, hi)
        }
    }

    fn has_missing(&self) -> bool {
        self.cells
            .iter()
            .flatten()
            .any(|c| c.is_none_or(|v| !v.is_finite()))
    }
}

impl Heatmap {
    /// Frames cell `(fx, fy)` in red and says under its value how many of its runs stalled.
    fn frame_stalled<DB: DrawingBackend>(
        &self,
        chart: &Chart2d<'_, DB>,
        root: &DrawingArea<DB, Shift>,
        (fx, fy): (f64, f64),
        k: usize,
    ) -> Result<(), DrawError> {
        let base = root.get_base_pixel();
        let rel = |p: (i32, i32)| (p.0 - base.0, p.1 - base.1);
        let a = rel(chart.backend_coord(&(fx - 0.5, fy + 0.5)));
        let b = rel(chart.backend_coord(&(fx + 0.5, fy - 0.5)));
        let inset = 3;
        let (x0, y0, x1, y1) = (a.0 + inset, a.1 + inset, b.0 - inset, b.1 - inset);
        // A closed path, not a rectangle: plotters' SVG writes a rectangle's outline without
        // its width, and the PNG is rendered from the SVG.
        root.draw(&PathElement::new(
            vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)],
            STALL_RED.stroke_width(4),
        ))
        .map_err(de)?;
        let (cx, cy) = rel(chart.backend_coord(&(fx, fy)));
        let label = format!("{k} stalled");
        let style = text_style()
            .color(&STALL_RED)
            .pos(Pos::new(HPos::Center, VPos::Top));
        let (w, _) = root.estimate_text_size(&label, &style).map_err(de)?;
        let top = cy + 12;
        root.draw(&Rectangle::new(
            [
                (cx - w as i32 / 2 - 4, top - 3),
                (cx + w as i32 / 2 + 4, top + 22),
            ],
            WHITE.filled(),
        ))
        .map_err(de)?;
        root.draw_text(&label, &style, (cx, top)).map_err(de)
    }
}

/// `text` with its first letter in upper case.
pub(crate) fn capitalised(text: &str) -> String {
    let mut c = text.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn color(v: f64, lo: f64, hi: f64) -> RGBColor {
    ViridisRGB.get_color_normalized(v, lo, hi)
}

/// Black or white, whichever reads better on `c`.
fn ink_on(c: RGBColor) -> RGBColor {
    let lum = 0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64;
    if lum > 140.0 { BLACK } else { WHITE }
}

/// Width of the colour bar's panel, pixels.
const BAR_PANEL: u32 = 190;

impl Chart for Heatmap {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let mut subtitle = self.subtitle.clone();
        if self.has_missing() {
            subtitle += "; hatched: no runs";
        }
        let stalls: usize = self.stalled.iter().flatten().sum();
        if stalls > 0 {
            subtitle += "; red frame: stalled runs in the cell's mean (how many: in the cell)";
        }
        let body = titled(root, &self.title, &subtitle)?;
        let (w, _) = body.dim_in_pixel();
        let (main, legend) = body.split_horizontally(w.saturating_sub(BAR_PANEL));
        let (lo, hi) = self.range();
        let (nx, ny) = (self.x_values.len(), self.y_values.len());
        let cat = |values: &[String]| {
            values
                .iter()
                .enumerate()
                .map(|(i, v)| (i as f64, v.clone()))
                .collect::<Vec<_>>()
        };
        let x_axis = Axis::at((-0.5, nx as f64 - 0.5), cat(&self.x_values), &self.x_label);
        let y_axis = Axis::at((-0.5, ny as f64 - 0.5), cat(&self.y_values), &self.y_label);
        let mut chart = cartesian(&main, &x_axis, &y_axis)?;
        let base = root.get_base_pixel();
        let centred = Pos::new(HPos::Center, VPos::Center);
        for (y, row) in self.cells.iter().enumerate() {
            for (x, v) in row.iter().enumerate() {
                let (fx, fy) = (x as f64, y as f64);
                match v.filter(|v| v.is_finite()) {
                    Some(v) => {
                        let fill = color(v, lo, hi);
                        chart
                            .draw_series(std::iter::once(Rectangle::new(
                                [(fx - 0.5, fy - 0.5), (fx + 0.5, fy + 0.5)],
                                fill.filled(),
                            )))
                            .map_err(de)?;
                        let ink = ink_on(fill);
                        let style = text_style().color(&ink).pos(centred);
                        chart
                            .draw_series(std::iter::once(Text::new(
                                value_label(v),
                                (fx, fy),
                                style.clone(),
                            )))
                            .map_err(de)?;
                        let k = self.stalled.get(y).and_then(|r| r.get(x)).copied();
                        if let Some(k) = k.filter(|&k| k > 0) {
                            self.frame_stalled(&chart, root, (fx, fy), k)?;
                        }
                    }
                    None => {
                        let a = chart.backend_coord(&(fx - 0.5, fy + 0.5));
                        let b = chart.backend_coord(&(fx + 0.5, fy - 0.5));
                        let rel = |p: (i32, i32)| (p.0 - base.0, p.1 - base.1);
                        hatch(root, rel(a), rel(b), RGBColor(150, 150, 150))?;
                    }
                }
            }
        }

        // The colour bar, with its own ticks and the metric (with unit) along it.
        let bar_x = Axis::at((0.0, 1.0), Vec::new(), "");
        let bar_y = Axis::numeric(lo, hi, 6, &self.value_label);
        let mut bar = cartesian(&legend, &bar_x, &bar_y)?;
        let steps = 100;
        bar.draw_series((0..steps).map(|i| {
            let a = lo + (hi - lo) * i as f64 / steps as f64;
            let b = lo + (hi - lo) * (i + 1) as f64 / steps as f64;
            Rectangle::new([(0.0, a), (1.0, b)], color((a + b) / 2.0, lo, hi).filled())
        }))
        .map_err(de)?;
        Ok(())
    }
}
