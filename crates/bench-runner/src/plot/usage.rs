//! Each leaf queue's memory usage against its instantaneous and steady fair shares and its
//! demand over one run: one small panel per queue, one legend for all.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{LegendEntry, Mark, caption, legend_right, titled};
use super::timeseries::time_axis;
use super::{Chart, DrawError, de, padded};
use crate::sweep::detail::DetailSeries;

/// At most this many panels; the busiest queues are kept and the subtitle says so.
pub const MAX_PANELS: usize = 9;

/// One queue's lines, sampled at `times`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueuePanel {
    /// Full queue name.
    pub queue: String,
    /// Sample times, seconds.
    pub times: Vec<f64>,
    /// Memory used, MB.
    pub usage: Vec<f64>,
    /// Instantaneous fair share of memory, MB.
    pub fair_share: Vec<f64>,
    /// Steady fair share of memory, MB, when known.
    pub steady_fair_share: Option<Vec<f64>>,
    /// Memory demand, MB, when known.
    pub demand: Option<Vec<f64>>,
}

impl QueuePanel {
    /// Memory-time the queue used (its weight when choosing which panels to keep).
    fn busy(&self) -> f64 {
        self.usage.iter().sum::<f64>() + self.demand.as_ref().map_or(0.0, |d| d.iter().sum::<f64>())
    }
}

/// Usage against fair share, one panel per leaf queue.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageChart {
    /// Chart title.
    pub title: String,
    /// What is drawn (and what was left out), under the title.
    pub subtitle: String,
    /// The panels, in queue order.
    pub panels: Vec<QueuePanel>,
}

/// The leaves among `queues` (names no other name extends with a dot), in first-seen order.
pub fn leaves<'a>(queues: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut all: Vec<&str> = Vec::new();
    for q in queues {
        if !all.contains(&q) {
            all.push(q);
        }
    }
    all.iter()
        .copied()
        .filter(|q| {
            !all.iter()
                .any(|o| o.len() > q.len() && o.starts_with(q) && o.as_bytes()[q.len()] == b'.')
        })
        .collect()
}

impl UsageChart {
    /// The chart of `panels` (every leaf queue) for a run described by `which`: idle queues
    /// (never any usage, demand or fair share) are left out, then all but the
    /// [`MAX_PANELS`] busiest.
    pub fn new(panels: Vec<QueuePanel>, which: &str) -> UsageChart {
        let n_all = panels.len();
        let (mut kept, idle): (Vec<QueuePanel>, Vec<QueuePanel>) = panels
            .into_iter()
            .partition(|p| p.busy() > 0.0 || p.fair_share.iter().any(|&v| v > 0.0));
        let mut notes = Vec::new();
        if !idle.is_empty() {
            let names: Vec<&str> = idle.iter().map(|p| p.queue.as_str()).collect();
            notes.push(if names.len() <= 3 {
                format!("idle: {}", names.join(", "))
            } else {
                format!("{} idle queues left out", names.len())
            });
        }
        if kept.len() > MAX_PANELS {
            let mut order: Vec<usize> = (0..kept.len()).collect();
            order.sort_by(|&a, &b| kept[b].busy().total_cmp(&kept[a].busy()).then(a.cmp(&b)));
            let mut keep = order[..MAX_PANELS].to_vec();
            keep.sort_unstable();
            notes.push(format!(
                "the {MAX_PANELS} busiest of {} active leaf queues",
                kept.len()
            ));
            kept = keep.into_iter().map(|i| kept[i].clone()).collect();
        }
        let what = if kept.iter().any(|p| p.steady_fair_share.is_some()) {
            "memory used against instantaneous and steady fair share, with demand (cut at the top)"
        } else {
            "memory used against instantaneous fair share"
        };
        let mut subtitle = format!("{what}, {} of {n_all} leaf queues", kept.len());
        for n in notes {
            subtitle += &format!("; {n}");
        }
        UsageChart {
            title: format!("Queue usage against fair share, {which}"),
            subtitle,
            panels: kept,
        }
    }

    /// The chart of a sweep's charted run (usage and instantaneous fair share only).
    pub fn from_detail(detail: &DetailSeries, run: u64) -> UsageChart {
        let panels = detail
            .leaves()
            .map(|(q, points)| QueuePanel {
                queue: q.to_string(),
                times: points.iter().map(|p| p.0).collect(),
                usage: points.iter().map(|p| p.1).collect(),
                fair_share: points.iter().map(|p| p.2).collect(),
                ..QueuePanel::default()
            })
            .collect();
        UsageChart::new(panels, &format!("run {run}"))
    }

    fn legend(&self) -> Vec<LegendEntry> {
        let mut e = vec![
            LegendEntry::new("usage", USAGE, Mark::Line),
            LegendEntry::new("instantaneous fair share", FAIR, Mark::Dashed),
        ];
        if self.panels.iter().any(|p| p.steady_fair_share.is_some()) {
            e.push(LegendEntry::new("steady fair share", STEADY, Mark::Dotted));
        }
        if self.panels.iter().any(|p| p.demand.is_some()) {
            e.push(LegendEntry::new("demand", DEMAND, Mark::Thin));
        }
        e
    }
}

const USAGE: RGBColor = RGBColor(31, 119, 180);
const FAIR: RGBColor = RGBColor(214, 39, 40);
const STEADY: RGBColor = RGBColor(44, 160, 44);
const DEMAND: RGBColor = RGBColor(130, 130, 130);

impl Chart for UsageChart {
    fn title(&self) -> &str {
        &self.title
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let body = titled(root, &self.title, &self.subtitle)?;
        let area = legend_right(&body, "", &self.legend())?;
        let n = self.panels.len().max(1);
        let cols = match n {
            1..=3 => 1,
            4 => 2,
            _ => 3,
        };
        let rows = n.div_ceil(cols);
        let cells = area.split_evenly((rows, cols));
        let t_end = self
            .panels
            .iter()
            .filter_map(|p| p.times.last().copied())
            .fold(0.0, f64::max);
        let (scale, unit) = time_axis(t_end);
        let top = self
            .panels
            .iter()
            .flat_map(|p| {
                let extra = [p.steady_fair_share.as_ref()];
                p.usage
                    .iter()
                    .chain(&p.fair_share)
                    .chain(extra.into_iter().flatten().flatten())
            })
            .fold(0.0, |m: f64, &v| m.max(v));
        let (mem_scale, mem_unit) = if top >= 10_240.0 {
            (1024.0, "GB")
        } else {
            (1.0, "MB")
        };
        for (k, (p, cell)) in self.panels.iter().zip(&cells).enumerate() {
            // Only the bottom row says what the time axis is.
            let bottom = k + cols >= self.panels.len();
            let cell = caption(cell, &p.queue)?;
            // Demand can dwarf usage; the axis stops a little above what the queue had or was
            // due, and demand runs off the top (the subtitle says so).
            let hi = [
                Some(&p.usage),
                Some(&p.fair_share),
                p.steady_fair_share.as_ref(),
            ]
            .into_iter()
            .flatten()
            .flatten()
            .fold(0.0, |m: f64, &v| m.max(v))
                * 1.5
                / mem_scale;
            let (_, y1) = padded(0.0, hi.max(1.0 / mem_scale));
            let (t0, t1) = match (p.times.first(), p.times.last()) {
                (Some(&a), Some(&b)) if b > a => (a / scale, b / scale),
                _ => (0.0, 1.0),
            };
            let x = Axis::numeric(
                t0,
                t1,
                if cols == 1 { 10 } else { 4 },
                if bottom {
                    format!("simulated time ({unit})")
                } else {
                    String::new()
                },
            );
            let y = Axis::numeric(0.0, y1, 5, format!("memory ({mem_unit})"));
            let mut chart = cartesian(&cell, &x, &y)?;
            let line = |vs: &[f64]| -> Vec<(f64, f64)> {
                p.times
                    .iter()
                    .zip(vs)
                    .map(|(&t, &v)| (t / scale, v / mem_scale))
                    .collect()
            };
            if let Some(d) = &p.demand {
                let capped: Vec<f64> = d.iter().map(|&v| v.min(y1 * mem_scale)).collect();
                chart
                    .draw_series(LineSeries::new(line(&capped), DEMAND.stroke_width(1)))
                    .map_err(de)?;
            }
            if let Some(s) = &p.steady_fair_share {
                chart
                    .draw_series(DashedLineSeries::new(line(s), 2, 5, STEADY.stroke_width(2)))
                    .map_err(de)?;
            }
            chart
                .draw_series(DashedLineSeries::new(
                    line(&p.fair_share),
                    9,
                    6,
                    FAIR.stroke_width(2),
                ))
                .map_err(de)?;
            chart
                .draw_series(LineSeries::new(line(&p.usage), USAGE.stroke_width(2)))
                .map_err(de)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_are_queues_without_children() {
        let qs = ["root", "root.a", "root.a.x", "root.ab", "root.b"];
        assert_eq!(leaves(qs.into_iter()), ["root.a.x", "root.ab", "root.b"]);
    }
}
