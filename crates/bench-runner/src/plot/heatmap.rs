//! Heatmap of one metric's mean over two axes (e.g. queue weight × minShare), with a colour bar as its legend.

use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

use super::{Chart, DrawError, PlotError, de, label_font, metric_label, param_label, title_font};
use crate::sweep::output::RunsTable;

/// Cells of a metric over two categorical axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    /// Chart title.
    pub title: String,
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
}

fn first_seen(values: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

impl Heatmap {
    /// The mean of `metric` over all runs at each (`x`, `y`) pair (other axes and seeds averaged).
    pub fn from_table(
        table: &RunsTable,
        metric: &str,
        x: &str,
        y: &str,
    ) -> Result<Heatmap, PlotError> {
        let axis = |p: &str| {
            table
                .axis_index(p)
                .ok_or_else(|| PlotError::Input(format!("`{p}` is not an axis")))
        };
        let (xi, yi) = (axis(x)?, axis(y)?);
        let mi = table
            .metric_index(metric)
            .ok_or_else(|| PlotError::Input(format!("no metric `{metric}`")))?;
        let x_values = first_seen(table.rows.iter().map(|r| r.axis_values[xi].clone()));
        let y_values = first_seen(table.rows.iter().map(|r| r.axis_values[yi].clone()));
        let mut sums = vec![vec![(0.0, 0usize); x_values.len()]; y_values.len()];
        for r in &table.rows {
            let cx = x_values
                .iter()
                .position(|v| *v == r.axis_values[xi])
                .expect("seen");
            let cy = y_values
                .iter()
                .position(|v| *v == r.axis_values[yi])
                .expect("seen");
            sums[cy][cx].0 += r.metrics[mi];
            sums[cy][cx].1 += 1;
        }
        let cells = sums
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|(s, n)| (n > 0).then(|| s / n as f64))
                    .collect()
            })
            .collect();
        let averaged = if table.axes.len() > 2 {
            ", mean over seeds and other axes"
        } else {
            ", mean over seeds"
        };
        Ok(Heatmap {
            title: format!("{metric} by {x} and {y}{averaged}"),
            x_label: param_label(x),
            y_label: param_label(y),
            value_label: metric_label(metric),
            x_values,
            y_values,
            cells,
        })
    }

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
}

fn color(v: f64, lo: f64, hi: f64) -> RGBColor {
    ViridisRGB.get_color_normalized(v, lo, hi)
}

impl Chart for Heatmap {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let root = root.titled(&self.title, title_font()).map_err(de)?;
        let (w, _) = root.dim_in_pixel();
        let (main, legend) = root.split_horizontally(w.saturating_sub(150));
        let (lo, hi) = self.range();
        let (nx, ny) = (self.x_values.len() as u32, self.y_values.len() as u32);
        let mut chart = ChartBuilder::on(&main)
            .margin(15)
            .x_label_area_size(60)
            .y_label_area_size(90)
            .build_cartesian_2d((0..nx - 1).into_segmented(), (0..ny - 1).into_segmented())
            .map_err(de)?;
        let xs = &self.x_values;
        let ys = &self.y_values;
        let label = |values: &[String], v: &SegmentValue<u32>| match v {
            SegmentValue::CenterOf(i) => values.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(xs.len() + 1)
            .y_labels(ys.len() + 1)
            .x_label_formatter(&|v| label(xs, v))
            .y_label_formatter(&|v| label(ys, v))
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .axis_desc_style(label_font())
            .label_style(label_font())
            .draw()
            .map_err(de)?;
        let missing = RGBColor(220, 220, 220);
        chart
            .draw_series(self.cells.iter().enumerate().flat_map(|(y, row)| {
                row.iter().enumerate().map(move |(x, v)| {
                    let fill = v
                        .filter(|v| v.is_finite())
                        .map_or(missing, |v| color(v, lo, hi));
                    let (x, y) = (x as u32, y as u32);
                    Rectangle::new(
                        [
                            (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                            (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                        ],
                        fill.filled(),
                    )
                })
            }))
            .map_err(de)?;

        // The legend: a colour bar from the lowest to the highest cell.
        let mut bar = ChartBuilder::on(&legend)
            .margin_top(15)
            .margin_bottom(75)
            .margin_right(10)
            .y_label_area_size(85)
            .caption(&self.value_label, label_font())
            .build_cartesian_2d(0.0..1.0, lo..hi)
            .map_err(de)?;
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_labels(6)
            .label_style(label_font())
            .draw()
            .map_err(de)?;
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
