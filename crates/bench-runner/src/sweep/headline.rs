//! A sweep's answer in the terminal: per point, the mean of a few headline metrics with its
//! 95% interval and, with a baseline, the paired difference from it (same seeds, so the
//! workloads cancel out). The rest stays in `summary.csv` and `report.html`.

use super::output::{RunsTable, SummaryOptions};
use super::spec::ChartSpec;
use crate::plot::labels;
use crate::plot::names::{MAX_NAME_CHARS, shorten};
use crate::plot::ticks::value_label;
use crate::stats::Moments;

/// The most points the table lists; the others are counted.
pub const MAX_POINTS: usize = 20;

/// The metrics the table shows: the charts' metric first, then the whole-run headline
/// metrics the runs have; at most two (the table stays narrow).
fn shown(table: &RunsTable, charts: &ChartSpec) -> Vec<usize> {
    let mut names: Vec<&str> = Vec::new();
    if let Some(m) = &charts.metric {
        names.push(m);
    }
    names.extend(["jain_index", "wait_s_p95", "util_memory"]);
    let mut out: Vec<usize> = Vec::new();
    for n in names {
        if let Some(i) = table.metric_index(n)
            && !out.contains(&i)
        {
            out.push(i);
        }
    }
    if out.is_empty() && !table.metrics.is_empty() {
        out.push(0);
    }
    out.truncate(2);
    out
}

/// The axes' column headers (`A's weight`), a queue name longer than
/// [`MAX_NAME_CHARS`] shortened from the left as charts shorten it (a 200-leaf cluster's
/// names would make the first column 60 characters wide), with `(short, full)` of each
/// name shortened, for a line under the table.
fn axis_headers(axes: &[String]) -> (Vec<String>, Vec<(String, String)>) {
    let queues: Vec<String> = axes
        .iter()
        .filter_map(|a| labels::queue_key(a).map(|(q, _)| q))
        .collect();
    let mut shortened: Vec<(String, String)> = Vec::new();
    let headers = axes
        .iter()
        .map(|a| {
            let header = labels::param_short(a);
            match labels::queue_key(a) {
                Some((q, _)) if q.chars().count() > MAX_NAME_CHARS => {
                    let short = shorten(&q, &queues, MAX_NAME_CHARS);
                    if !shortened.iter().any(|(s, _)| *s == short) {
                        shortened.push((short.clone(), q.clone()));
                    }
                    header.replacen(&q, &short, 1)
                }
                _ => header,
            }
        })
        .collect();
    (headers, shortened)
}

/// `mean [lo, hi]`, or the mean alone with a single run.
fn with_interval(m: &Moments, signed: bool) -> String {
    let v = |x: f64| {
        let s = value_label(x);
        if signed && x > 0.0 {
            format!("+{s}")
        } else {
            s
        }
    };
    match m.ci95 {
        Some((lo, hi)) => format!("{} [{}, {}]", v(m.mean), v(lo), v(hi)),
        None => v(m.mean),
    }
}

/// The table, one line per point (at most [`MAX_POINTS`]).
pub fn headline_table(table: &RunsTable, charts: &ChartSpec) -> String {
    let opts = SummaryOptions::from(charts);
    let points = table.summary_with(&opts);
    let metrics = shown(table, charts);
    if points.is_empty() || metrics.is_empty() {
        return String::new();
    }
    let (mut header, shortened) = axis_headers(&table.axes);
    header.push("runs".into());
    for &m in &metrics {
        header.push(labels::metric(&table.metrics[m]).axis());
        if opts.baseline.is_some() {
            header.push("vs baseline".into());
        }
    }
    let mut lines = vec![header];
    for p in points.iter().take(MAX_POINTS) {
        let mut line: Vec<String> = p
            .axis_values
            .iter()
            .map(|v| v.trim_matches('"').to_string())
            .collect();
        line.push(p.n.to_string());
        for &m in &metrics {
            line.push(with_interval(&p.moments[m], false));
            if let Some(d) = &p.diffs {
                line.push(if d[m].n == 0 {
                    "-".into()
                } else {
                    with_interval(&d[m], true)
                });
            }
        }
        lines.push(line);
    }
    let mut out = crate::text_table::aligned(&lines, 0);
    if points.len() > MAX_POINTS {
        out += &format!(
            "and {} more points (every point in summary.csv)\n",
            points.len() - MAX_POINTS
        );
    }
    for (short, full) in &shortened {
        out += &format!("{short}: {full}\n");
    }
    out += "means over the seeds with 95% intervals";
    if opts.baseline.is_some() {
        out += "; vs baseline: paired differences, seed for seed";
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::output::RunRow;

    #[test]
    fn each_point_has_its_interval_and_paired_difference() {
        // Two weights, seeds 1 and 2: p95 waits (1, 3) at weight 1, (2, 6) at weight 2.
        // Weight 1: mean 2, sd √2, t(0.975, 1) = 12.706, so 2 ± 12.706 → [0, 14.7] (a wait
        // is never negative). Weight 2: 4 ± 25.4 → [0, 29.4]; paired differences (1, 3):
        // +2 ± 12.706 → [-10.7, +14.7].
        let row = |i: u64, w: &str, seed: u64, v: f64| RunRow {
            run_index: i,
            axis_values: vec![w.to_string()],
            seed,
            metrics: vec![v],
        };
        let table = RunsTable {
            axes: vec!["queues.A.weight".into()],
            metrics: vec!["wait_s_p95".into()],
            rows: vec![
                row(0, "1", 1, 1.0),
                row(1, "1", 2, 3.0),
                row(2, "2", 1, 2.0),
                row(3, "2", 2, 6.0),
            ],
        };
        let charts = ChartSpec {
            baseline: Some(vec!["1".into()]),
            ..ChartSpec::default()
        };
        let t = headline_table(&table, &charts);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4, "{t}");
        assert!(lines[0].starts_with("A's weight  runs"), "{t}");
        assert!(lines[1].trim_start().starts_with("1     2"), "{t}");
        assert!(
            lines[1].contains("2 [0, 14.7]") && lines[1].ends_with("0 [0, 0]"),
            "{t}"
        );
        assert!(
            lines[2].contains("4 [0, 29.4]") && lines[2].ends_with("+2 [-10.7, +14.7]"),
            "{t}"
        );
    }

    #[test]
    fn a_long_queue_name_is_shortened_in_the_header_and_given_in_full_below() {
        // One run per point: means without intervals. The 54-character queue name becomes
        // its unique end, `…clickstream_ana_inter` (22 characters with the ellipsis).
        let axis = "queues.\"root.analytics.interactive_adhoc.clickstream_ana_inter\".weight";
        let row = |i: u64, w: &str, v: f64| RunRow {
            run_index: i,
            axis_values: vec![w.to_string()],
            seed: 1,
            metrics: vec![v],
        };
        let table = RunsTable {
            axes: vec![axis.into()],
            metrics: vec!["jain_index".into()],
            rows: vec![row(0, "1", 0.82), row(1, "2", 0.8)],
        };
        let t = headline_table(&table, &ChartSpec::default());
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines,
            [
                "…clickstream_ana_inter's weight  runs  Jain's fairness index",
                "                              1     1                   0.82",
                "                              2     1                    0.8",
                "…clickstream_ana_inter: root.analytics.interactive_adhoc.clickstream_ana_inter",
                "means over the seeds with 95% intervals",
            ],
            "{t}"
        );
    }
}
