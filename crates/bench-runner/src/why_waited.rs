//! Why apps waited, for people: the "why apps waited" section of a run's report (per queue,
//! the seconds its apps waited for their first container stacked by cause, as a chart and a
//! table), and the timeline in words `fairsim explain` prints for an app or a queue from a
//! run directory's `explain.csv` and `explain_timeline.csv` (docs/explain.md).

use crate::report_html::{Block, escape};
use fairsim_sim::explain::{Cause, ExplainReport};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Colours of the causes, in [`Cause::ALL`] order (distinct at a glance; the legend names
/// them).
const COLOURS: [&str; 15] = [
    "#8c564b", "#c49c94", "#e377c2", "#d62728", "#ff7f0e", "#bcbd22", "#7f7f7f", "#17becf",
    "#9467bd", "#1f77b4", "#2ca02c", "#98df8a", "#aec7e8", "#ffbb78", "#dbdb8d",
];

/// Per leaf queue (by name), ms of its apps' first-container waits per cause.
pub fn wait_by_queue(report: &ExplainReport) -> BTreeMap<String, [u64; 15]> {
    let mut by: BTreeMap<String, [u64; 15]> = BTreeMap::new();
    for r in &report.apps {
        let e = by.entry(r.queue.clone()).or_insert([0; 15]);
        for (t, v) in e.iter_mut().zip(r.causes.am_ms.iter()) {
            *t += v;
        }
    }
    by
}

/// The report's section: a chart of one bar per queue (every queue, one row each, so 200
/// queues make a tall but readable chart), a table with the same numbers, and what the
/// causes mean.
pub fn report_blocks(report: &ExplainReport) -> Vec<Block> {
    let by = wait_by_queue(report);
    let used: Vec<Cause> = Cause::ALL
        .into_iter()
        .filter(|c| by.values().any(|v| v[c.index()] > 0))
        .collect();
    let mut blocks = vec![Block::Heading("Why apps waited".to_string())];
    if used.is_empty() {
        blocks.push(Block::Para(
            "No app waited for its first container.".to_string(),
        ));
        return blocks;
    }
    blocks.push(Block::Para(
        "Per leaf queue, the seconds its apps waited for their first container (apps.csv's \
         wait_ms, summed over the queue's apps), split by what each waited for; explain.csv has \
         every app, explain_timeline.csv every stretch."
            .to_string(),
    ));
    blocks.push(Block::Charts(vec![(
        "why-apps-waited".to_string(),
        stacked_bars(&by, &used),
    )]));
    let mut header = vec!["queue".to_string(), "wait s".to_string()];
    header.extend(used.iter().map(|c| c.name().to_string()));
    let rows = by
        .iter()
        .map(|(q, v)| {
            let mut row = vec![q.clone(), secs(v.iter().sum())];
            row.extend(used.iter().map(|c| secs(v[c.index()])));
            row
        })
        .collect();
    blocks.push(Block::Table {
        caption: "Seconds of first-container wait per cause".to_string(),
        header,
        rows,
    });
    let mut meanings = String::new();
    for c in &used {
        let _ = writeln!(meanings, "{}: {}", c.name(), c.meaning());
    }
    blocks.push(Block::Pre {
        caption: "What the causes mean".to_string(),
        text: meanings,
    });
    blocks
}

/// ms as seconds with up to three decimals.
fn secs(ms: u64) -> String {
    let s = format!("{}.{:03}", ms / 1000, ms % 1000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A bar's total for a reader: whole seconds with thousands separators from 100 s on (the
/// milliseconds are in the bar's tooltip and in `explain.csv`), else up to three decimals.
fn bar_label(ms: u64) -> String {
    if ms < 100_000 {
        return format!("{} s", secs(ms));
    }
    let digits = ((ms + 500) / 1000).to_string();
    let mut grouped = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(d);
    }
    format!("{grouped} s")
}

/// Round tick steps (1, 2 or 5 times a power of ten, in ms) giving at most six ticks up to
/// `max_ms`, and never below one millisecond.
fn tick_step(max_ms: u64) -> u64 {
    let mut step = 1u64;
    loop {
        for m in [1, 2, 5] {
            let s = step.saturating_mul(m);
            if max_ms / s <= 5 {
                return s;
            }
        }
        step = step.saturating_mul(10);
    }
}

/// A horizontal bar per queue, its segments the causes in `used`, on one scale.
fn stacked_bars(by: &BTreeMap<String, [u64; 15]>, used: &[Cause]) -> String {
    const ROW: f64 = 16.0;
    const LABEL: f64 = 220.0;
    const PLOT: f64 = 560.0;
    const LEGEND_ROW: f64 = 16.0;
    let max = by
        .values()
        .map(|v| v.iter().sum::<u64>())
        .max()
        .unwrap_or(0)
        .max(1);
    let top = 30.0;
    let bars_h = ROW * by.len() as f64;
    let axis_y = top + bars_h + 4.0;
    let legend_top = axis_y + 44.0;
    let height = legend_top + LEGEND_ROW * used.len() as f64 + 10.0;
    let width = LABEL + PLOT + 90.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"11\">\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
         <text x=\"{LABEL}\" y=\"16\" font-size=\"13\">First-container wait per queue, by \
         cause</text>"
    );
    for (row, (q, v)) in by.iter().enumerate() {
        let y = top + ROW * row as f64;
        // Long names are cut from the left, where queue paths share their prefix.
        let shown: String = if q.chars().count() > 34 {
            let tail: String = q
                .chars()
                .rev()
                .take(33)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            format!("…{tail}")
        } else {
            q.clone()
        };
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\"><title>{}</title>{}</text>",
            LABEL - 6.0,
            y + ROW * 0.7,
            escape(q),
            escape(&shown)
        );
        let mut x = LABEL;
        for c in used {
            let ms = v[c.index()];
            if ms == 0 {
                continue;
            }
            let w = PLOT * ms as f64 / max as f64;
            let _ = write!(
                s,
                "<rect x=\"{x:.2}\" y=\"{:.2}\" width=\"{w:.2}\" height=\"{:.2}\" fill=\"{}\">\
                 <title>{}: {} {} s</title></rect>",
                y + 2.0,
                ROW - 4.0,
                COLOURS[c.index()],
                escape(q),
                c.name(),
                secs(ms)
            );
            x += w;
        }
        let _ = write!(
            s,
            "<text x=\"{:.2}\" y=\"{}\">{}</text>",
            x + 4.0,
            y + ROW * 0.7,
            bar_label(v.iter().sum())
        );
    }
    // The scale: round ticks in seconds, and what a bar's length is.
    let _ = write!(
        s,
        "<line x1=\"{LABEL}\" y1=\"{axis_y}\" x2=\"{}\" y2=\"{axis_y}\" stroke=\"#444\"/>",
        LABEL + PLOT
    );
    let step = tick_step(max);
    let mut t = 0u64;
    while t <= max {
        let x = LABEL + PLOT * t as f64 / max as f64;
        let _ = write!(
            s,
            "<line x1=\"{x:.2}\" y1=\"{axis_y}\" x2=\"{x:.2}\" y2=\"{:.2}\" stroke=\"#444\"/>\
             <text x=\"{x:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{}</text>",
            axis_y + 4.0,
            axis_y + 15.0,
            bar_label(t).trim_end_matches(" s")
        );
        t += step;
    }
    let _ = write!(
        s,
        "<text x=\"{:.2}\" y=\"{:.2}\" text-anchor=\"middle\">seconds waited for a first \
         container, summed over the queue's apps</text>",
        LABEL + PLOT / 2.0,
        axis_y + 30.0
    );
    for (k, c) in used.iter().enumerate() {
        let y = legend_top + LEGEND_ROW * k as f64;
        let _ = write!(
            s,
            "<rect x=\"{LABEL}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            y,
            COLOURS[c.index()],
            LABEL + 18.0,
            y + 10.0,
            c.name()
        );
    }
    s.push_str("</svg>");
    s
}

/// One stretch read back from `explain_timeline.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineRow {
    /// App index.
    pub app: u32,
    /// `am` or `tasks`.
    pub wait: String,
    /// Start, ms.
    pub from_ms: u64,
    /// End, ms.
    pub to_ms: u64,
    /// The cause.
    pub cause: Cause,
}

/// `explain_timeline.csv`'s rows; errors name the file, line and field.
pub fn read_timeline(text: &str, name: &str) -> Result<Vec<TimelineRow>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(h) if h.trim_end() == fairsim_sim::explain::TIMELINE_HEADER.trim_end() => {}
        _ => {
            return Err(format!(
                "{name}: line 1: the header is not {}",
                fairsim_sim::explain::TIMELINE_HEADER.trim_end()
            ));
        }
    }
    let mut out = Vec::new();
    for (k, line) in lines.enumerate() {
        let n = k + 2;
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 {
            return Err(format!(
                "{name}: line {n}: 5 fields expected, found {}",
                f.len()
            ));
        }
        let num = |i: usize, field: &str| {
            f[i].parse::<u64>().map_err(|_| {
                format!(
                    "{name}: line {n}: {field} is not a whole number: {:?}",
                    f[i]
                )
            })
        };
        let cause = Cause::from_name(f[4])
            .ok_or_else(|| format!("{name}: line {n}: cause: unknown cause {:?}", f[4]))?;
        out.push(TimelineRow {
            app: num(0, "app_index")? as u32,
            wait: f[1].to_string(),
            from_ms: num(2, "from_ms")?,
            to_ms: num(3, "to_ms")?,
            cause,
        });
    }
    Ok(out)
}

/// An app of `explain.csv`: index, name, queue, wait and tasks pending ms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainedApp {
    /// App index.
    pub index: u32,
    /// Its name.
    pub name: String,
    /// Its leaf queue.
    pub queue: String,
    /// Its first-container wait, ms.
    pub wait_ms: u64,
    /// Its time with task containers pending, ms.
    pub tasks_ms: u64,
}

/// `explain.csv`'s first five columns; errors name the file, line and field.
pub fn read_explained(text: &str, name: &str) -> Result<Vec<ExplainedApp>, String> {
    let mut rdr = csv::ReaderBuilder::new().from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (k, rec) in rdr.records().enumerate() {
        let n = k + 2;
        let rec = rec.map_err(|e| format!("{name}: line {n}: {e}"))?;
        let get = |i: usize| rec.get(i).unwrap_or("");
        let num = |i: usize, field: &str| {
            get(i).parse::<u64>().map_err(|_| {
                format!(
                    "{name}: line {n}: {field} is not a whole number: {:?}",
                    get(i)
                )
            })
        };
        out.push(ExplainedApp {
            index: num(0, "app_index")? as u32,
            name: get(1).to_string(),
            queue: get(2).to_string(),
            wait_ms: num(3, "wait_ms")?,
            tasks_ms: num(4, "tasks_pending_ms")?,
        });
    }
    Ok(out)
}

/// Seconds from ms for a timeline: three decimals, trailing zeros dropped.
fn at(ms: u64) -> String {
    format!("{} s", secs(ms))
}

/// App `app`'s timeline in words.
pub fn app_timeline(app: &ExplainedApp, rows: &[TimelineRow]) -> String {
    let mut s = format!(
        "{} (app {}, queue {}): waited {} for its first container, and {} with task containers \
         pending\n",
        app.name,
        app.index,
        app.queue,
        at(app.wait_ms),
        at(app.tasks_ms)
    );
    let mine: Vec<&TimelineRow> = rows.iter().filter(|r| r.app == app.index).collect();
    if mine.is_empty() {
        s.push_str("  it never waited\n");
    }
    for r in mine {
        let what = if r.wait == "am" {
            "waiting for its first container"
        } else {
            "task containers pending"
        };
        let _ = writeln!(
            s,
            "  {} to {} ({}): {what}, {}: {}",
            at(r.from_ms),
            at(r.to_ms),
            at(r.to_ms - r.from_ms),
            r.cause.name(),
            r.cause.meaning()
        );
    }
    s
}

/// Queue `queue`'s apps summed per cause, then each app's timeline.
pub fn queue_timeline(queue: &str, apps: &[ExplainedApp], rows: &[TimelineRow]) -> String {
    let mine: Vec<&ExplainedApp> = apps.iter().filter(|a| a.queue == queue).collect();
    let index: std::collections::BTreeSet<u32> = mine.iter().map(|a| a.index).collect();
    let mut am = [0u64; 15];
    let mut tasks = [0u64; 15];
    for r in rows.iter().filter(|r| index.contains(&r.app)) {
        let t = if r.wait == "am" { &mut am } else { &mut tasks };
        t[r.cause.index()] += r.to_ms - r.from_ms;
    }
    let mut s = format!(
        "queue {queue}: {} apps, {} of first-container wait, {} with task containers pending\n",
        mine.len(),
        at(am.iter().sum()),
        at(tasks.iter().sum())
    );
    for (label, v) in [
        ("first-container wait", &am),
        ("task containers pending", &tasks),
    ] {
        for c in Cause::ALL {
            if v[c.index()] > 0 {
                let _ = writeln!(
                    s,
                    "  {label}: {} {}: {}",
                    at(v[c.index()]),
                    c.name(),
                    c.meaning()
                );
            }
        }
    }
    for a in mine {
        s.push('\n');
        s.push_str(&app_timeline(a, rows));
    }
    s
}

#[cfg(test)]
mod chart_tests {
    use super::*;

    #[test]
    fn bar_labels_are_whole_seconds_with_separators_from_100_s() {
        assert_eq!(bar_label(20_794_718), "20,795 s");
        assert_eq!(bar_label(2_502_535), "2,503 s");
        assert_eq!(bar_label(100_000), "100 s");
        assert_eq!(bar_label(99_999), "99.999 s");
        assert_eq!(bar_label(1_500), "1.5 s");
        assert_eq!(bar_label(0), "0 s");
    }

    #[test]
    fn ticks_are_round_and_at_most_six() {
        assert_eq!(tick_step(25_453_174), 5_000_000);
        assert_eq!(tick_step(1), 1);
        assert_eq!(tick_step(12_000), 5_000);
        for max in [1u64, 7, 999, 1_000, 25_453_174, u64::MAX / 2] {
            let step = tick_step(max);
            assert!(max / step <= 5, "{max}: step {step}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeline_reads_back_and_says_each_stretch() {
        let text =
            "app_index,wait,from_ms,to_ms,cause\n0,am,1000,4500,am_limit\n0,am,4500,6000,no_room\n";
        let rows = read_timeline(text, "t.csv").unwrap();
        assert_eq!(rows.len(), 2);
        let app = ExplainedApp {
            index: 0,
            name: "a".into(),
            queue: "root.A".into(),
            wait_ms: 5000,
            tasks_ms: 0,
        };
        let t = app_timeline(&app, &rows);
        assert!(t.contains("waited 5 s for its first container"), "{t}");
        assert!(
            t.contains("1 s to 4.5 s (3.5 s): waiting for its first container, am_limit"),
            "{t}"
        );
        let bad = read_timeline(
            "app_index,wait,from_ms,to_ms,cause\n0,am,x,1,no_room\n",
            "t.csv",
        );
        assert_eq!(
            bad.unwrap_err(),
            "t.csv: line 2: from_ms is not a whole number: \"x\""
        );
    }

    #[test]
    fn secs_drop_trailing_zeros() {
        assert_eq!(secs(1500), "1.5");
        assert_eq!(secs(2000), "2");
        assert_eq!(secs(7), "0.007");
    }
}
