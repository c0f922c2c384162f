//! One chart per objective: the objective's metric against the variable at every evaluated candidate (the value
//! compared with the bound as a line, the seeds' mean as a dashed line; filled markers where the objective held),
//! the bound drawn across, and each growth step's answer marked by a vertical line.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::plot::axes::{Axis, cartesian};
use crate::plot::frame::{LegendEntry, Mark, STALL_RED, draw_stall_ring, legend_right, titled};
use crate::plot::overlap::draw_turns;
use crate::plot::{self, Chart, DrawError, PlotError, de};

use super::PlanResult;
use super::objective::{Comparison, Why, with_unit};
use super::spec::PlanSpec;

/// One growth step's points: `(x, compared value, mean, held, untrusted)`, `untrusted` when the candidate's
/// runs stalled or left apps unfinished, or its value is a lower bound or counts finished apps only.
#[derive(Debug, Clone, PartialEq)]
pub struct StepSeries {
    /// Legend entry.
    pub name: String,
    /// Points by increasing x.
    pub points: Vec<(f64, f64, f64, bool, bool)>,
    /// The step's answer, if feasible: x and its description.
    pub answer: Option<(f64, String)>,
}

/// An objective against the variable.
#[derive(Debug, Clone, PartialEq)]
pub struct ObjectiveChart {
    /// Chart title.
    pub title: String,
    /// What the chart shows, under the title.
    pub subtitle: String,
    /// The top of the y axis when the worst values would flatten the rest; values above it are drawn on it.
    pub cap: Option<f64>,
    /// x axis description, with unit.
    pub x_label: String,
    /// Whether the variable takes whole values only (a node count): whole ticks.
    pub whole_x: bool,
    /// y axis description, with unit.
    pub y_label: String,
    /// The objective's bound and its legend entry.
    pub bound: (f64, String),
    /// One series per growth step.
    pub steps: Vec<StepSeries>,
}

impl ObjectiveChart {
    /// The chart of objective `which` of a finished plan.
    pub fn new(spec: &PlanSpec, result: &PlanResult, which: usize) -> ObjectiveChart {
        let o = &spec.objectives[which];
        let v = &spec.variable;
        let what = match o.comparison {
            Comparison::AtMost => format!("upper {} bound of the mean", spec.confidence_percent()),
            Comparison::AtLeast => format!("lower {} bound of the mean", spec.confidence_percent()),
            Comparison::Equal => "mean".into(),
        };
        let many = spec.growth.len() > 1;
        let steps: Vec<StepSeries> = spec
            .growth
            .iter()
            .enumerate()
            .map(|(g, &growth)| {
                let points = result
                    .candidates
                    .iter()
                    .filter(|c| c.growth_idx == g)
                    .map(|c| {
                        let vd = &c.verdicts[which];
                        let untrusted = !matches!(vd.why, None | Some(Why::Missed));
                        (
                            v.grid.as_f64(c.index),
                            vd.value,
                            vd.mean,
                            vd.held,
                            untrusted,
                        )
                    })
                    .filter(|p| p.1.is_finite())
                    .collect();
                let name = if many {
                    format!("{}x arrivals", crate::results::fmt_f64(growth))
                } else {
                    what.clone()
                };
                let answer = result.steps[g]
                    .outcome
                    .answer
                    .map(|a| (v.grid.as_f64(a), v.describe(a)));
                StepSeries {
                    name,
                    points,
                    answer,
                }
            })
            .collect();
        let unit = v.kind.unit();
        // An "at most" bound far below the worst candidates would be a flat line at the bottom:
        // cut the axis at a few times the bound and draw what lies above on the top edge.
        let worst = result
            .candidates
            .iter()
            .map(|c| c.verdicts[which].value.max(c.verdicts[which].mean))
            .filter(|x| x.is_finite())
            .fold(f64::NEG_INFINITY, f64::max);
        let cap = (o.comparison == Comparison::AtMost && o.bound > 0.0 && worst > 4.0 * o.bound)
            .then_some(4.0 * o.bound);
        let mut subtitle = format!(
            "{}{}; {} seed{}; filled markers: objective held; dotted: mean over the seeds",
            if many {
                format!("{what}; ")
            } else {
                String::new()
            },
            o.formula(),
            spec.seeds.len(),
            if spec.seeds.len() == 1 { "" } else { "s" },
        );
        let untrusted = steps.iter().any(|s| s.points.iter().any(|p| p.4));
        if untrusted {
            subtitle += "; red rings: runs stalled or left apps unfinished, or a censored value (a lower bound): the objective fails there";
        }
        if let Some(cap) = cap {
            subtitle += &format!(
                "; values above {} drawn on the top edge (triangles)",
                with_unit(&o.metric, cap)
            );
        }
        ObjectiveChart {
            cap,
            title: format!("{} against {}", labels_title(o), v.column()),
            subtitle,
            x_label: match unit {
                "" => format!("{} (unitless)", v.column()),
                u if u == v.column() => u.to_string(),
                u => format!("{} ({u})", v.column()),
            },
            whole_x: !v.kind.is_real(),
            y_label: plot::labels::metric(&o.column()).axis(),
            bound: (
                o.bound,
                format!(
                    "objective: {} {}",
                    o.comparison.symbol(),
                    with_unit(&o.metric, o.bound)
                ),
            ),
            steps,
        }
    }

    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let mut x = (f64::INFINITY, f64::NEG_INFINITY);
        let mut y = (self.bound.0, self.bound.0);
        for s in &self.steps {
            for &(px, val, mean, _, _) in &s.points {
                x = (x.0.min(px), x.1.max(px));
                for v in [val, mean].into_iter().filter(|v| v.is_finite()) {
                    let v = self.cap.map_or(v, |c| v.min(c));
                    y = (y.0.min(v), y.1.max(v));
                }
            }
        }
        // Waits, shares and counts are never negative: their axis starts at 0.
        let (y0, y1) = plot::padded(y.0, y.1);
        let y0 = if y.0 >= 0.0 { 0.0 } else { y0 };
        (plot::padded(x.0, x.1), (y0, y1))
    }
}

/// The runs of consecutive points a line may join: a point clipped to the axis top (its value
/// unknown on the chart) breaks the line, so no slope is drawn that no candidate showed.
fn unclipped_runs(points: &[(f64, f64)], cap: Option<f64>) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for &(x, y) in points {
        if !y.is_finite() || cap.is_some_and(|c| y > c) {
            runs.push(Vec::new());
        } else {
            runs.last_mut().expect("one run at least").push((x, y));
        }
    }
    runs.retain(|r| r.len() > 1);
    runs
}

/// The objective's metric in words, from the catalogue (`Wait time, p95: root.A`).
fn labels_title(o: &super::objective::Objective) -> String {
    plot::labels::metric(&o.column()).name
}

impl Chart for ObjectiveChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let body = titled(root, &self.title, &self.subtitle)?;
        let red = RGBColor(214, 39, 40);
        let mut entries = vec![LegendEntry::new(&self.bound.1, red, Mark::Dashed)];
        for (i, s) in self.steps.iter().enumerate() {
            let c = step_color(i);
            entries.push(LegendEntry::new(&s.name, c, Mark::Line));
            if let Some((_, text)) = &s.answer {
                entries.push(LegendEntry::new(format!("answer: {text}"), c, Mark::Dashed));
            }
        }
        if self.steps.iter().any(|s| s.points.iter().any(|p| p.4)) {
            entries.push(LegendEntry::new(
                "not trusted: stalled or unfinished runs, or a lower bound",
                STALL_RED,
                Mark::Stalled,
            ));
        }
        let area = legend_right(&body, "", &entries)?;
        let ((x0, x1), (y0, y1)) = self.ranges();
        let x_axis = if self.whole_x {
            Axis::whole(x0, x1, 10, &self.x_label)
        } else {
            Axis::numeric(x0, x1, 10, &self.x_label)
        };
        let y_axis = Axis::numeric(y0, y1, 8, &self.y_label);
        let mut chart = cartesian(&area, &x_axis, &y_axis)?;
        chart
            .draw_series(DashedLineSeries::new(
                [(x0, self.bound.0), (x1, self.bound.0)],
                12,
                6,
                red.stroke_width(3),
            ))
            .map_err(de)?;
        let clamp = |y: f64| self.cap.map_or(y, |c| y.min(c));
        let mut drawn: Vec<(Vec<(f64, f64)>, RGBColor)> = Vec::new();
        for (i, s) in self.steps.iter().enumerate() {
            let c = step_color(i);
            let means: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.2)).collect();
            for run in unclipped_runs(&means, self.cap) {
                chart
                    .draw_series(DottedLineSeries::new(run, 2, 6, move |p| {
                        Circle::new(p, 1, c.filled())
                    }))
                    .map_err(de)?;
            }
            let values: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0, p.1)).collect();
            for run in unclipped_runs(&values, self.cap) {
                chart
                    .draw_series(LineSeries::new(run.clone(), c.stroke_width(3)))
                    .map_err(de)?;
                drawn.push((run, c));
            }
        }
        // Growth steps whose lines coincide take turns where they do.
        draw_turns(root, &chart, &drawn, 3)?;
        for (i, s) in self.steps.iter().enumerate() {
            let c = step_color(i);
            chart
                .draw_series(s.points.iter().filter(|p| clamp(p.1) == p.1).map(
                    |&(x, y, _, held, _)| {
                        let style = if held { c.filled() } else { c.stroke_width(2) };
                        Circle::new((x, y), 6, style)
                    },
                ))
                .map_err(de)?;
            chart
                .draw_series(s.points.iter().filter(|p| clamp(p.1) != p.1).map(
                    |&(x, y, _, _, _)| TriangleMarker::new((x, clamp(y)), 8, c.stroke_width(2)),
                ))
                .map_err(de)?;
            let base = root.get_base_pixel();
            for p in s.points.iter().filter(|p| p.4) {
                let (px, py) = chart.backend_coord(&(p.0, clamp(p.1)));
                draw_stall_ring(root, (px - base.0, py - base.1))?;
            }
            if let Some((ax, _)) = &s.answer {
                chart
                    .draw_series(DashedLineSeries::new(
                        [(*ax, y0), (*ax, y1)],
                        8,
                        5,
                        c.stroke_width(2),
                    ))
                    .map_err(de)?;
            }
        }
        Ok(())
    }
}

/// The colour of growth step `i` (never the bound's red).
fn step_color(i: usize) -> RGBColor {
    plot::series_color(if i >= 3 { i + 1 } else { i })
}

/// Draws `objective-<metric column>.png` and `.svg` for every objective; returns the files written.
pub fn draw_all(
    spec: &PlanSpec,
    result: &PlanResult,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    let mut written = Vec::new();
    for (i, o) in spec.objectives.iter().enumerate() {
        let chart = ObjectiveChart::new(spec, result, i);
        written.extend(plot::save(
            &chart,
            &out.join(format!("objective-{}", plot::file_stem(&o.column()))),
        )?);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clipped_point_breaks_the_line() {
        // Capped at 100: the point at x = 3 (250) is drawn on the top as a marker, joined to
        // neither neighbour; x = 5 stands alone and has no line.
        let pts = [
            (1.0, 10.0),
            (2.0, 40.0),
            (3.0, 250.0),
            (4.0, 90.0),
            (5.0, f64::NAN),
            (6.0, 5.0),
        ];
        assert_eq!(
            unclipped_runs(&pts, Some(100.0)),
            [vec![(1.0, 10.0), (2.0, 40.0)]]
        );
        assert_eq!(unclipped_runs(&pts[..4], None).len(), 1);
    }
}
