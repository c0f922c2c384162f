//! Numeric axes with the ticks chosen here rather than by plotters: round ticks for
//! measured values, the sweep's own values (as written in the sweep file) for parameters,
//! and labels thinned so that none overlaps its neighbour.

use plotters::coord::Shift;
use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::frame::text_style;
use super::ticks::{nice_ticks, tick_label, whole_ticks};
use super::{DrawError, de};

/// One axis: its range, where its ticks go and what they say.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The value range shown.
    pub range: (f64, f64),
    /// Tick positions.
    pub ticks: Vec<f64>,
    /// One label per tick.
    pub labels: Vec<String>,
    /// The axis description, with its unit.
    pub desc: String,
}

impl Axis {
    /// Round ticks over `lo..hi` (about `n` of them).
    pub fn numeric(lo: f64, hi: f64, n: usize, desc: impl Into<String>) -> Axis {
        let (ticks, step) = nice_ticks(lo, hi, n);
        let labels = ticks.iter().map(|&t| tick_label(t, step)).collect();
        Axis {
            range: (lo, hi),
            ticks,
            labels,
            desc: desc.into(),
        }
    }

    /// [`Axis::numeric`] for a quantity that takes whole values only (see [`whole_ticks`]).
    pub fn whole(lo: f64, hi: f64, n: usize, desc: impl Into<String>) -> Axis {
        let (ticks, step) = whole_ticks(lo, hi, n);
        let labels = ticks.iter().map(|&t| tick_label(t, step)).collect();
        Axis {
            range: (lo, hi),
            ticks,
            labels,
            desc: desc.into(),
        }
    }

    /// Ticks at `values`, labelled as given (a sweep's axis values as written).
    pub fn at(range: (f64, f64), values: Vec<(f64, String)>, desc: impl Into<String>) -> Axis {
        let (ticks, labels) = values.into_iter().unzip();
        Axis {
            range,
            ticks,
            labels,
            desc: desc.into(),
        }
    }
}

/// A linear `f64` coordinate whose key points (ticks and grid lines) are exactly the given
/// ticks.
#[derive(Clone)]
pub struct Ticked {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

impl Axis {
    fn coord(&self) -> Ticked {
        Ticked {
            inner: (self.range.0..self.range.1).into(),
            ticks: self.ticks.clone(),
        }
    }
}

/// A chart whose axes are [`Axis`] values.
pub type Chart2d<'a, DB> = ChartContext<'a, DB, Cartesian2d<Ticked, Ticked>>;

fn label_of(axis: &Axis, shown: &[bool], v: f64) -> String {
    let tol = (axis.range.1 - axis.range.0).abs() * 1e-9;
    axis.ticks
        .iter()
        .position(|t| (t - v).abs() <= tol)
        .filter(|&i| shown[i])
        .map(|i| axis.labels[i].clone())
        .unwrap_or_default()
}

/// Keeps the labels whose text does not run into the previously kept one, first to last;
/// `pos` gives each tick's pixel position along the axis, `size` each label's extent.
fn thin(pos: &[i32], size: &[u32], gap: i32) -> Vec<bool> {
    let mut kept = vec![false; pos.len()];
    let mut last: Option<(i32, i32)> = None;
    let mut order: Vec<usize> = (0..pos.len()).collect();
    order.sort_by_key(|&i| pos[i]);
    for i in order {
        let half = size[i] as i32 / 2;
        let (lo, hi) = (pos[i] - half, pos[i] + half);
        if last.is_none_or(|(_, prev_hi)| lo >= prev_hi + gap) {
            kept[i] = true;
            last = Some((lo, hi));
        }
    }
    kept
}

/// Builds a chart on `area` with axes `x` and `y`, draws its grid, ticks and descriptions,
/// and returns it for the series.
pub fn cartesian<'a, DB: DrawingBackend + 'a>(
    area: &'a DrawingArea<DB, Shift>,
    x: &Axis,
    y: &Axis,
) -> Result<Chart2d<'a, DB>, DrawError> {
    let style = text_style();
    let widest_y = y
        .labels
        .iter()
        .map(|l| area.estimate_text_size(l, &style).map(|s| s.0))
        .try_fold(0u32, |m, w| w.map(|w| m.max(w)))
        .map_err(de)?;
    let mut chart = ChartBuilder::on(area)
        .margin_top(10)
        .margin_left(10)
        .margin_bottom(10)
        .margin_right(25)
        .x_label_area_size(if x.desc.is_empty() { 34 } else { 62 })
        .y_label_area_size(widest_y + 48)
        .build_cartesian_2d(x.coord(), y.coord())
        .map_err(de)?;
    let size = |l: &String, i: usize| {
        area.estimate_text_size(l, &style)
            .map(|s| if i == 0 { s.0 } else { s.1 })
            .map_err(de)
    };
    let x_pos: Vec<i32> = x
        .ticks
        .iter()
        .map(|&t| chart.backend_coord(&(t, y.range.0)).0)
        .collect();
    let y_pos: Vec<i32> = y
        .ticks
        .iter()
        .map(|&t| chart.backend_coord(&(x.range.0, t)).1)
        .collect();
    let x_size = x
        .labels
        .iter()
        .map(|l| size(l, 0))
        .collect::<Result<Vec<_>, _>>()?;
    let y_size = y
        .labels
        .iter()
        .map(|l| size(l, 1))
        .collect::<Result<Vec<_>, _>>()?;
    let x_shown = thin(&x_pos, &x_size, 10);
    let y_shown = thin(&y_pos, &y_size, 4);
    let x_fmt = |v: &f64| label_of(x, &x_shown, *v);
    let y_fmt = |v: &f64| label_of(y, &y_shown, *v);
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(225, 225, 225))
        .x_desc(&x.desc)
        .y_desc(&y.desc)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .axis_desc_style(style.clone())
        .label_style(style)
        .draw()
        .map_err(de)?;
    Ok(chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_drops_labels_that_would_overlap() {
        // 0.1 and 0.2 sit 10 px apart, each label 24 px wide: only the first is kept.
        let kept = thin(&[100, 110, 300, 500], &[24, 24, 24, 24], 10);
        assert_eq!(kept, [true, false, true, true]);
    }
}
