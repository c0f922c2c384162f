//! Each leaf queue's memory usage against its instantaneous and steady fair shares and its
//! demand over one run: one small panel per queue, one legend for all.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::{Axis, cartesian};
use super::frame::{LegendEntry, Mark, caption, draw_marker, legend_right, titled};
use super::names::short_names;
use super::ticks::value_label;
use super::timeseries::{RunEnd, time_axis};
use super::{Chart, DrawError, de, padded};

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
    /// The other active queues summed into one last panel, on its own scale, when there are
    /// more than [`MAX_PANELS`] (`queue` says how many).
    pub others: Option<QueuePanel>,
    /// The run's end, s: the time axes run to it.
    pub end_s: Option<f64>,
}

impl QueuePanel {
    /// Holds the last sample's values to `t`: nothing changes after the run's last finish,
    /// so a queue's usage, shares and demand stay what the last sample after it shows.
    fn hold_to(&mut self, t: f64) {
        fn hold(v: &mut Vec<f64>) {
            if let Some(&last) = v.last() {
                v.push(last);
            }
        }
        if self.times.is_empty() {
            return;
        }
        self.times.push(t);
        hold(&mut self.usage);
        hold(&mut self.fair_share);
        for v in [&mut self.steady_fair_share, &mut self.demand]
            .into_iter()
            .flatten()
        {
            hold(v);
        }
    }
}

/// The element-wise sum of `panels` (all sampled at the same times) named `name`.
fn summed(panels: &[QueuePanel], name: String) -> QueuePanel {
    let add = |a: &mut Vec<f64>, b: &[f64]| {
        if a.len() < b.len() {
            a.resize(b.len(), 0.0);
        }
        a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
    };
    let mut out = QueuePanel {
        queue: name,
        times: panels
            .iter()
            .map(|p| &p.times)
            .max_by_key(|t| t.len())
            .cloned()
            .unwrap_or_default(),
        ..QueuePanel::default()
    };
    for p in panels {
        add(&mut out.usage, &p.usage);
        add(&mut out.fair_share, &p.fair_share);
        if let Some(s) = &p.steady_fair_share {
            add(out.steady_fair_share.get_or_insert_with(Vec::new), s);
        }
        if let Some(d) = &p.demand {
            add(out.demand.get_or_insert_with(Vec::new), d);
        }
    }
    out
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
        let mut others = None;
        if kept.len() > MAX_PANELS {
            let keep = MAX_PANELS - 1;
            let mut order: Vec<usize> = (0..kept.len()).collect();
            order.sort_by(|&a, &b| kept[b].busy().total_cmp(&kept[a].busy()).then(a.cmp(&b)));
            let mut chosen = order[..keep].to_vec();
            chosen.sort_unstable();
            let rest: Vec<QueuePanel> = order[keep..].iter().map(|&i| kept[i].clone()).collect();
            notes.push(format!(
                "the {keep} of {} active leaf queues with the most memory-time used and asked, the {} others summed in the last panel (its own scale)",
                kept.len(),
                rest.len()
            ));
            others = Some(summed(&rest, format!("{} other queues (sum)", rest.len())));
            kept = chosen.into_iter().map(|i| kept[i].clone()).collect();
        }
        let what = if kept.iter().any(|p| p.steady_fair_share.is_some()) {
            "memory used against instantaneous and steady fair share, with demand (a triangle where it runs past the top)"
        } else {
            "memory used against instantaneous fair share"
        };
        let shown = kept.len() + others.as_ref().map_or(0, |_| 1);
        let mut subtitle = format!("{what}, {shown} panels for {n_all} leaf queues, one scale");
        for n in notes {
            subtitle += &format!("; {n}");
        }
        UsageChart {
            title: format!("Queue usage against fair share, {which}"),
            subtitle,
            panels: kept,
            others,
            end_s: None,
        }
    }

    /// Draws the panels to the run's `end`, as the utilisation chart is: when the samples
    /// stop after the last finish, each line keeps its last value to the end (nothing ran
    /// after it); when they stop before it, the axis still runs to the end and the subtitle
    /// says where the samples stop.
    pub fn to_end(mut self, end: Option<RunEnd>) -> UsageChart {
        let Some(e) = end.filter(|e| e.sim_time_s.is_finite()) else {
            return self;
        };
        let last = self
            .panels
            .iter()
            .chain(&self.others)
            .filter_map(|p| p.times.last().copied())
            .fold(f64::NEG_INFINITY, f64::max);
        if last.is_finite() && e.sim_time_s > last {
            if e.makespan_s.is_finite() && e.makespan_s <= last {
                for p in self.panels.iter_mut().chain(&mut self.others) {
                    p.hold_to(e.sim_time_s);
                }
            } else {
                self.subtitle += &format!("; no samples after {} s", value_label(last));
            }
        }
        self.end_s = Some(e.sim_time_s);
        self
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
        let all: Vec<&QueuePanel> = self.panels.iter().chain(&self.others).collect();
        let n = all.len().max(1);
        let cols = match n {
            1..=3 => 1,
            4 => 2,
            _ => 3,
        };
        let rows = n.div_ceil(cols);
        let cells = area.split_evenly((rows, cols));
        let t_end = all
            .iter()
            .filter_map(|p| p.times.last().copied())
            .fold(self.end_s.unwrap_or(0.0), f64::max);
        let (scale, unit) = time_axis(t_end);
        // One scale for the queues drawn one by one, from what they had or were due (demand
        // can dwarf it and is cut, marked); the pooled panel has its own.
        let top_of = |ps: &[&QueuePanel]| {
            ps.iter()
                .flat_map(|p| {
                    [
                        Some(&p.usage),
                        Some(&p.fair_share),
                        p.steady_fair_share.as_ref(),
                    ]
                    .into_iter()
                    .flatten()
                    .flatten()
                })
                .fold(0.0, |m: f64, &v| m.max(v))
        };
        let singles: Vec<&QueuePanel> = self.panels.iter().collect();
        let shared_top = top_of(&singles);
        let (mem_scale, mem_unit) = if top_of(&all) >= 10_240.0 {
            (1024.0, "GiB")
        } else {
            (1.0, "MiB")
        };
        let names: Vec<String> = self.panels.iter().map(|p| p.queue.clone()).collect();
        let captions: Vec<String> = short_names(&names)
            .into_iter()
            .chain(self.others.iter().map(|o| o.queue.clone()))
            .collect();
        for (k, ((p, cell), cap)) in all.iter().zip(&cells).zip(&captions).enumerate() {
            // Only the bottom row says what the time axis is.
            let bottom = k + cols >= all.len();
            let cell = caption(cell, cap)?;
            let top = if k < self.panels.len() {
                shared_top
            } else {
                top_of(&[p])
            };
            let (_, y1) = padded(0.0, (top * 1.15 / mem_scale).max(1.0 / mem_scale));
            let t1 = if t_end > 0.0 { t_end / scale } else { 1.0 };
            let x = Axis::numeric(
                0.0,
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
                let cap = y1 * mem_scale;
                let capped: Vec<f64> = d.iter().map(|&v| v.min(cap)).collect();
                chart
                    .draw_series(LineSeries::new(line(&capped), DEMAND.stroke_width(1)))
                    .map_err(de)?;
                // A triangle where demand first runs past the top, and again after each dip.
                let base = cell.get_base_pixel();
                let mut was_cut = false;
                for (&t, &v) in p.times.iter().zip(d) {
                    let cut = v > cap;
                    if cut && !was_cut {
                        let (px, py) = chart.backend_coord(&(t / scale, y1));
                        draw_marker(&cell, (px - base.0, py - base.1 + 7), 1, DEMAND)?;
                    }
                    was_cut = cut;
                }
            }
            // Solid under dashed under dotted: where usage, instantaneous and steady fair
            // share are equal (a queue at its share, a share that did not move) each line
            // shows through the gaps of the one drawn over it.
            chart
                .draw_series(LineSeries::new(line(&p.usage), USAGE.stroke_width(2)))
                .map_err(de)?;
            chart
                .draw_series(DashedLineSeries::new(
                    line(&p.fair_share),
                    9,
                    6,
                    FAIR.stroke_width(2),
                ))
                .map_err(de)?;
            if let Some(s) = &p.steady_fair_share {
                chart
                    .draw_series(DashedLineSeries::new(line(s), 2, 5, STEADY.stroke_width(2)))
                    .map_err(de)?;
            }
        }
        Ok(())
    }

    fn tooltips(&self) -> Vec<(String, String)> {
        let names: Vec<String> = self.panels.iter().map(|p| p.queue.clone()).collect();
        short_names(&names)
            .into_iter()
            .zip(names)
            .filter(|(a, b)| a != b)
            .collect()
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

    fn panel(queue: &str, usage: f64) -> QueuePanel {
        QueuePanel {
            queue: queue.into(),
            times: vec![0.0, 10.0],
            usage: vec![usage, usage],
            fair_share: vec![usage, 2.0 * usage],
            ..QueuePanel::default()
        }
    }

    #[test]
    fn beyond_nine_active_queues_the_least_busy_are_summed() {
        // q1..q12 use 1..12 MiB; q0 is idle. Kept: the 8 busiest (q5..q12) in queue order;
        // q1..q4 summed: usage 1+2+3+4 = 10, fair share 2+4+6+8 = 20 at t = 10.
        let panels: Vec<QueuePanel> = (0..13)
            .map(|i| panel(&format!("root.q{i}"), i as f64))
            .collect();
        let chart = UsageChart::new(panels, "r");
        let kept: Vec<&str> = chart.panels.iter().map(|p| p.queue.as_str()).collect();
        assert_eq!(
            kept,
            [
                "root.q5", "root.q6", "root.q7", "root.q8", "root.q9", "root.q10", "root.q11",
                "root.q12"
            ]
        );
        let others = chart.others.expect("pooled");
        assert_eq!(others.queue, "4 other queues (sum)");
        assert_eq!(others.usage, [10.0, 10.0]);
        assert_eq!(others.fair_share, [10.0, 20.0]);
        assert!(
            chart.subtitle.contains("9 panels for 13 leaf queues"),
            "{}",
            chart.subtitle
        );
        assert!(
            chart.subtitle.contains("idle: root.q0"),
            "{}",
            chart.subtitle
        );
    }

    fn end(sim_time_s: f64, makespan_s: f64) -> Option<RunEnd> {
        Some(RunEnd {
            sim_time_s,
            makespan_s,
            util_memory: 0.5,
            util_vcores: 0.5,
        })
    }

    #[test]
    fn panels_hold_their_last_sample_to_the_runs_end() {
        // Samples at 0 and 10 s, last finish at 8 s, run ends at 100 s: every line keeps
        // its value at 10 s (usage 3, fair share 6) to 100 s.
        let chart = UsageChart::new(vec![panel("root.a", 3.0)], "r").to_end(end(100.0, 8.0));
        let p = &chart.panels[0];
        assert_eq!(p.times, [0.0, 10.0, 100.0]);
        assert_eq!(p.usage, [3.0, 3.0, 3.0]);
        assert_eq!(p.fair_share, [3.0, 6.0, 6.0]);
        assert_eq!(chart.end_s, Some(100.0));
        assert!(!chart.subtitle.contains("no samples"), "{}", chart.subtitle);
    }

    #[test]
    fn samples_stopping_before_the_last_finish_are_not_extended() {
        // Apps ran until 50 s but the samples stop at 10 s: nothing is made up after 10 s,
        // the axis still runs to 100 s and the subtitle says where the samples stop.
        let chart = UsageChart::new(vec![panel("root.a", 3.0)], "r").to_end(end(100.0, 50.0));
        assert_eq!(chart.panels[0].times, [0.0, 10.0]);
        assert_eq!(chart.end_s, Some(100.0));
        assert!(
            chart.subtitle.ends_with("; no samples after 10 s"),
            "{}",
            chart.subtitle
        );
    }

    #[test]
    fn equal_lines_are_drawn_sparsest_on_top() {
        // Usage, instantaneous and steady fair share all 3: the solid usage line is drawn
        // first, the dashed fair share over it, the dotted steady share last, so each shows
        // through the gaps of the next.
        let mut p = panel("root.a", 3.0);
        p.fair_share = vec![3.0, 3.0];
        p.steady_fair_share = Some(vec![3.0, 3.0]);
        let dir = tempfile::tempdir().unwrap();
        let [_, svg] =
            crate::plot::save(&UsageChart::new(vec![p], "r"), &dir.path().join("u")).unwrap();
        let svg = std::fs::read_to_string(svg).unwrap();
        let last = |c: RGBColor| {
            let hex = format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
            svg.rfind(&hex).unwrap_or_else(|| panic!("{hex} not drawn"))
        };
        assert!(last(USAGE) < last(FAIR), "usage under the fair share");
        assert!(
            last(FAIR) < last(STEADY),
            "fair share under the steady share"
        );
    }
}
