//! The charted run's charts, drawn from its files read one row at a time.
//!
//! A sweep's charted run writes `queues.csv` and `apps.csv` into `run-R/` as `fairsim run` does,
//! and those files grow with the run (queues.csv up to its 100-million-row limit). The charts
//! (and `fairsim plot`'s redraw) need far less, so [`DetailSeries::read`] streams the files into
//! compact series: per queue sample time kept, the memory usage, demand, steady, instantaneous
//! and ideal shares and the vcores used of each leaf queue (56 bytes a leaf), at most
//! [`MAX_TIMES`] kept times (when that many are held, every other one is dropped and later
//! times are taken one in two, as `fairsim run`'s charts do, so a long run keeps an even
//! spread); and per admitted app its queue, wait and completion time (24 bytes, no name; a
//! time that never came is NaN). A parent queue's points are dropped as soon as a child names
//! it. [`DetailSeries::charts`] turns them into the same [`RunCharts`] `fairsim run` draws.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::plot::cdf::Cdf;
use crate::plot::run::RunCharts;
use crate::plot::timeseries::{RunEnd, jain_index};
use crate::plot::usage::QueuePanel;
use crate::results::parse_f64;

use super::SweepError;

/// The most sample times the charts keep: `fairsim run`'s bound, so both draw alike.
pub const MAX_TIMES: usize = fairsim_sim::scenario_checks::CHART_SAMPLE_TIMES as usize;

/// One queue at one kept sample time.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point {
    /// The sample time's ordinal among every time of the file (kept or not).
    slot: u32,
    /// The row's place among the rows of its time (the order Jain's index sums in).
    row: u32,
    sample: Sample,
}

/// One leaf's numbers at one sample time, memory in MB; NaN for a column the file lacks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Memory used.
    pub usage_mb: f64,
    /// Vcores used.
    pub usage_vcores: f64,
    /// Memory asked for.
    pub demand_mb: f64,
    /// Steady fair share of memory.
    pub steady_mb: f64,
    /// Instantaneous fair share of memory.
    pub fair_mb: f64,
    /// Ideal share of memory (what the `jain_index` metric measures against).
    pub ideal_mb: f64,
}

impl Sample {
    /// A sample of usage and instantaneous fair share only.
    pub fn usage_and_fair(usage_mb: f64, fair_mb: f64) -> Sample {
        Sample {
            usage_mb,
            usage_vcores: f64::NAN,
            demand_mb: f64::NAN,
            steady_mb: f64::NAN,
            fair_mb,
            ideal_mb: f64::NAN,
        }
    }
}

/// A queue's kept points; none once the queue is known to be a parent.
#[derive(Debug, Clone, Default)]
struct QueueSeries {
    name: String,
    parent: bool,
    points: Vec<Point>,
}

/// What the charts need of one admitted app (NaN: the time never came).
#[derive(Debug, Clone, Copy, PartialEq)]
struct AppPoint {
    /// Index into [`DetailSeries::app_queues`].
    queue: u32,
    wait_s: f64,
    completion_s: f64,
}

/// The time of the rows being read and its slot.
#[derive(Debug, Clone, Copy)]
struct Current {
    time_s: f64,
    slot: u32,
    kept: bool,
    rows: u32,
}

/// What a sweep's run charts draw (usage against fair share, Jain's index over time, wait and
/// completion-time distributions), built row by row with bounded memory: see the module docs.
#[derive(Debug, Clone, Default)]
pub struct DetailSeries {
    /// Every queue named, in first-seen order.
    queues: Vec<QueueSeries>,
    by_name: HashMap<String, usize>,
    /// Every name some queue extends with a dot: the parents.
    prefixes: HashSet<String>,
    /// The kept times, `(slot, seconds)`, by increasing slot.
    times: Vec<(u32, f64)>,
    /// Keep one time in `stride` (a power of two).
    stride: u32,
    current: Option<Current>,
    apps: Vec<AppPoint>,
    app_queues: Vec<String>,
    /// The cluster's memory and vcores: the root queue's steady share at its first sample.
    cluster: Option<(f64, f64)>,
}

impl DetailSeries {
    /// An empty series.
    pub fn new() -> DetailSeries {
        DetailSeries {
            stride: 1,
            ..DetailSeries::default()
        }
    }

    /// Adds one queue sample row; rows come by time (rows of one time together), then queue.
    /// An error says why the row cannot follow the rows before it.
    pub fn push_sample(&mut self, time_s: f64, queue: &str, sample: Sample) -> Result<(), String> {
        let cur = match self.current {
            Some(c) if c.time_s == time_s => c,
            Some(c) if time_s < c.time_s => {
                return Err(format!(
                    "time {} s is before the previous row's {} s: rows must be in time order",
                    time_s, c.time_s
                ));
            }
            prev => {
                let slot = match prev {
                    None => 0,
                    Some(c) => c.slot.checked_add(1).ok_or("more than 2^32 sample times")?,
                };
                self.thin_if_full();
                let kept = slot.is_multiple_of(self.stride);
                if kept {
                    self.times.push((slot, time_s));
                }
                Current {
                    time_s,
                    slot,
                    kept,
                    rows: 0,
                }
            }
        };
        let q = self.queue_index(queue);
        let series = &mut self.queues[q];
        if cur.kept && !series.parent {
            series.points.push(Point {
                slot: cur.slot,
                row: cur.rows,
                sample,
            });
        }
        self.current = Some(Current {
            rows: cur.rows.saturating_add(1),
            ..cur
        });
        Ok(())
    }

    /// Adds one admitted app (NaN for a time that never came).
    pub fn push_app(&mut self, queue: &str, wait_s: f64, completion_s: f64) {
        let q = match self.app_queues.iter().rposition(|n| n == queue) {
            Some(i) => i,
            None => {
                self.app_queues.push(queue.to_string());
                self.app_queues.len() - 1
            }
        } as u32;
        self.apps.push(AppPoint {
            queue: q,
            wait_s,
            completion_s,
        });
    }

    /// Ends the rows: thins the kept times as a further time would have.
    pub fn finish(&mut self) {
        self.thin_if_full();
    }

    /// With [`MAX_TIMES`] times kept, keeps every other one and takes one time in twice as many
    /// from now on.
    fn thin_if_full(&mut self) {
        if self.times.len() < MAX_TIMES {
            return;
        }
        self.stride *= 2;
        let stride = self.stride;
        self.times.retain(|&(slot, _)| slot.is_multiple_of(stride));
        for q in &mut self.queues {
            q.points.retain(|p| p.slot.is_multiple_of(stride));
        }
    }

    /// The queue's index, adding it (and marking the parents it names) when new.
    fn queue_index(&mut self, name: &str) -> usize {
        if let Some(&i) = self.by_name.get(name) {
            return i;
        }
        for (dot, _) in name.match_indices('.') {
            let parent = &name[..dot];
            if self.prefixes.insert(parent.to_string())
                && let Some(&p) = self.by_name.get(parent)
            {
                self.queues[p].parent = true;
                self.queues[p].points = Vec::new();
            }
        }
        let i = self.queues.len();
        self.queues.push(QueueSeries {
            name: name.to_string(),
            parent: self.prefixes.contains(name),
            points: Vec::new(),
        });
        self.by_name.insert(name.to_string(), i);
        i
    }

    /// Whether any queue sample was read.
    pub fn has_samples(&self) -> bool {
        !self.times.is_empty()
    }

    /// Whether any admitted app was read.
    pub fn has_apps(&self) -> bool {
        !self.apps.is_empty()
    }

    /// The kept sample times, seconds.
    pub fn times(&self) -> impl Iterator<Item = f64> + '_ {
        self.times.iter().map(|t| t.1)
    }

    /// Points held over every queue (what grows with the file if nothing is dropped).
    pub fn points_held(&self) -> usize {
        self.queues.iter().map(|q| q.points.len()).sum()
    }

    fn time_of(&self, slot: u32) -> f64 {
        let i = self
            .times
            .binary_search_by_key(&slot, |t| t.0)
            .expect("a kept point's time is kept");
        self.times[i].1
    }

    /// The leaf queues (names no other name extends with a dot), in first-seen order, each with
    /// its kept `(time s, usage MB, fair share MB)` points in file order.
    pub fn leaves(&self) -> impl Iterator<Item = (&str, Vec<(f64, f64, f64)>)> + '_ {
        self.queues.iter().filter(|q| !q.parent).map(|q| {
            let points = q
                .points
                .iter()
                .map(|p| (self.time_of(p.slot), p.sample.usage_mb, p.sample.fair_mb))
                .collect();
            (q.name.as_str(), points)
        })
    }

    /// Per kept time, the usage / fair share of the leaves with a fair share, in row order.
    pub fn leaf_ratios(&self) -> Vec<(f64, Vec<f64>)> {
        let mut all: Vec<(u32, u32, f64)> = self
            .queues
            .iter()
            .filter(|q| !q.parent)
            .flat_map(|q| q.points.iter())
            .filter(|p| p.sample.fair_mb > 0.0)
            .map(|p| (p.slot, p.row, p.sample.usage_mb / p.sample.fair_mb))
            .collect();
        all.sort_unstable_by_key(|&(slot, row, _)| (slot, row));
        let mut out: Vec<(f64, Vec<f64>)> = Vec::new();
        let mut last = None;
        for (slot, _, x) in all {
            if last != Some(slot) {
                out.push((self.time_of(slot), Vec::new()));
                last = Some(slot);
            }
            out.last_mut().expect("just pushed").1.push(x);
        }
        out
    }

    /// `(queue, seconds)` of every admitted app's wait (`completion` false) or completion
    /// time, in file order; `None` for a time that never came.
    pub fn app_values(&self, completion: bool) -> impl Iterator<Item = (String, Option<f64>)> + '_ {
        self.apps.iter().map(move |a| {
            let v = if completion { a.completion_s } else { a.wait_s };
            (
                self.app_queues[a.queue as usize].clone(),
                v.is_finite().then_some(v),
            )
        })
    }

    /// What the run's charts draw, as `fairsim run` draws them: per leaf, every kept time (0
    /// before the leaf existed); Jain's index against the ideal share (the instantaneous fair
    /// share when the file has no ideal share) summed over the leaves in first-seen order;
    /// utilisation of the cluster the root's first sample gives.
    pub fn charts(&self, end: Option<RunEnd>) -> RunCharts {
        let leaves: Vec<&QueueSeries> = self.queues.iter().filter(|q| !q.parent).collect();
        let times: Vec<f64> = self.times().collect();
        // grid[k][l]: leaf l at kept time k.
        let mut grid: Vec<Vec<Option<Sample>>> = vec![vec![None; leaves.len()]; times.len()];
        for (l, q) in leaves.iter().enumerate() {
            for p in &q.points {
                let k = self
                    .times
                    .binary_search_by_key(&p.slot, |t| t.0)
                    .expect("a kept point's time is kept");
                grid[k][l] = Some(p.sample);
            }
        }
        let zero = |v: f64| if v.is_finite() { v } else { 0.0 };
        let known = |f: fn(&Sample) -> f64| {
            leaves
                .iter()
                .any(|q| q.points.iter().any(|p| f(&p.sample).is_finite()))
        };
        let has_steady = known(|s| s.steady_mb);
        let has_demand = known(|s| s.demand_mb);
        let has_ideal = known(|s| s.ideal_mb);
        let panels = leaves
            .iter()
            .enumerate()
            .map(|(l, q)| {
                let col = |f: fn(&Sample) -> f64| -> Vec<f64> {
                    grid.iter()
                        .map(|r| r[l].map_or(0.0, |s| zero(f(&s))))
                        .collect()
                };
                QueuePanel {
                    queue: q.name.clone(),
                    times: times.clone(),
                    usage: col(|s| s.usage_mb),
                    fair_share: col(|s| s.fair_mb),
                    steady_fair_share: has_steady.then(|| col(|s| s.steady_mb)),
                    demand: has_demand.then(|| col(|s| s.demand_mb)),
                }
            })
            .collect();
        let share = |s: &Sample| if has_ideal { s.ideal_mb } else { s.fair_mb };
        let jain = times
            .iter()
            .zip(&grid)
            .filter_map(|(&t, row)| {
                let xs: Vec<f64> = row
                    .iter()
                    .flatten()
                    .filter(|s| share(s) > 0.0)
                    .map(|s| s.usage_mb / share(s))
                    .collect();
                jain_index(&xs).map(|j| (t, j))
            })
            .collect();
        let utilisation = self
            .cluster
            .filter(|c| c.0 > 0.0 && c.1.is_finite())
            .map(|(mem, vc)| {
                times
                    .iter()
                    .zip(&grid)
                    .map(|(&t, row)| {
                        let used: f64 = row.iter().flatten().map(|s| s.usage_mb).sum();
                        let cores: f64 = row.iter().flatten().map(|s| zero(s.usage_vcores)).sum();
                        (t, used / mem.max(1.0), cores / vc.max(1.0))
                    })
                    .collect()
            });
        RunCharts {
            panels: if times.is_empty() { Vec::new() } else { panels },
            jain,
            jain_share: if has_ideal {
                "ideal share"
            } else {
                "instantaneous fair share"
            }
            .to_string(),
            utilisation,
            end,
            waits: Cdf::per_queue(self.app_values(false)),
            completions: Cdf::per_queue(self.app_values(true)),
        }
    }

    /// Reads `dir/queues.csv` and `dir/apps.csv` when present, by column name (a run's full
    /// files or the sweep's own): `time_ms,queue,usage_mb,fair_share_mb` and, when there,
    /// `usage_vcores,demand_mb,steady_fair_share_mb,steady_fair_share_vcores,ideal_share_mb`;
    /// `app,queue,wait_ms,jct_ms` and, when there, `status` (rejected apps are left out, as
    /// `fairsim run`'s charts leave them; an empty time never came). Times become seconds.
    pub fn read(dir: &Path) -> Result<DetailSeries, SweepError> {
        let mut series = DetailSeries::new();
        let queues = dir.join("queues.csv");
        if queues.exists() {
            let names = [
                ("time_ms", true),
                ("queue", true),
                ("usage_mb", true),
                ("fair_share_mb", true),
                ("usage_vcores", false),
                ("demand_mb", false),
                ("steady_fair_share_mb", false),
                ("ideal_share_mb", false),
                ("steady_fair_share_vcores", false),
            ];
            for_each_row(&queues, &names, |cells| {
                let time_s = number(cells[0])? / 1000.0;
                let opt = |c: &str| {
                    if c.is_empty() {
                        Ok(f64::NAN)
                    } else {
                        number(c)
                    }
                };
                let sample = Sample {
                    usage_mb: number(cells[2])?,
                    usage_vcores: opt(cells[4])?,
                    demand_mb: opt(cells[5])?,
                    steady_mb: opt(cells[6])?,
                    fair_mb: number(cells[3])?,
                    ideal_mb: opt(cells[7])?,
                };
                if cells[1] == "root" && series.cluster.is_none() && sample.steady_mb.is_finite() {
                    // The root's steady share is the whole cluster.
                    series.cluster = Some((sample.steady_mb, opt(cells[8])?));
                }
                series.push_sample(time_s, cells[1], sample)
            })?;
            series.finish();
        }
        let apps = dir.join("apps.csv");
        if apps.exists() {
            let names = [
                ("app", true),
                ("queue", true),
                ("wait_ms", true),
                ("jct_ms", true),
                ("status", false),
            ];
            for_each_row(&apps, &names, |cells| {
                if cells[4].starts_with("rejected") {
                    return Ok(());
                }
                let secs = |c: &str| -> Result<f64, String> {
                    if c.is_empty() {
                        Ok(f64::NAN)
                    } else {
                        Ok(number(c)? / 1000.0)
                    }
                };
                series.push_app(cells[1], secs(cells[2])?, secs(cells[3])?);
                Ok(())
            })?;
        }
        Ok(series)
    }
}

/// The end of the run whose `summary.json` is in `dir`, if it can be read.
pub fn run_end(dir: &Path) -> Option<RunEnd> {
    let text = std::fs::read_to_string(dir.join("summary.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let metrics = json.get("metrics")?;
    let get = |m: &str| metrics.get(m).and_then(|v| v.as_f64()).unwrap_or(f64::NAN);
    Some(RunEnd {
        sim_time_s: get("sim_time_s"),
        makespan_s: get("makespan_s"),
        util_memory: get("util_memory"),
        util_vcores: get("util_vcores"),
    })
}

fn number(cell: &str) -> Result<f64, String> {
    parse_f64(cell).ok_or_else(|| format!("bad number `{cell}`"))
}

/// Calls `row` with the named columns of each record of a CSV file, in the order asked, one
/// record at a time; an error names the file and the line.
fn for_each_row<const N: usize>(
    path: &Path,
    names: &[(&str, bool); N],
    mut row: impl FnMut(&[&str]) -> Result<(), String>,
) -> Result<(), SweepError> {
    let bad = |message: String| SweepError::Csv {
        path: path.to_path_buf(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|source| SweepError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    let mut r = csv::Reader::from_reader(std::io::BufReader::with_capacity(1 << 16, file));
    let header = r.headers().map_err(|e| bad(e.to_string()))?.clone();
    // A column the file lacks and may lack reads as empty.
    let idx: Vec<Option<usize>> = names
        .iter()
        .map(|&(n, required)| match header.iter().position(|h| h == n) {
            Some(i) => Ok(Some(i)),
            None if !required => Ok(None),
            None => Err(SweepError::CsvAt {
                path: path.to_path_buf(),
                line: header.position().map_or(1, csv::Position::line),
                message: format!("no `{n}` column"),
            }),
        })
        .collect::<Result<_, _>>()?;
    let mut record = csv::StringRecord::new();
    loop {
        match r.read_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => {}
            Err(e) => return Err(bad(e.to_string())),
        }
        let line = record.position().map_or(0, |p| p.line());
        let mut cells = [""; N];
        for (cell, &i) in cells.iter_mut().zip(&idx) {
            *cell = i.and_then(|i| record.get(i)).unwrap_or("");
        }
        row(&cells).map_err(|m| bad(format!("line {line}: {m}")))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_run_keeps_at_most_max_times_evenly_spread() {
        // 10,000 sample times of a parent and two leaves. Whenever 2,048 times are held the
        // stride doubles (at slots 2,048, 4,095 and 8,189, to 2, 4 and 8), so slot s stays
        // when s % 8 = 0: slots 0, 8, ..., 9,992, that is 1,250 times, 2 leaves each.
        let mut s = DetailSeries::new();
        for t in 0..10_000u32 {
            let time = t as f64 * 10.0;
            s.push_sample(time, "root", Sample::usage_and_fair(3.0, 6.0))
                .unwrap();
            s.push_sample(time, "root.a", Sample::usage_and_fair(1.0, 2.0))
                .unwrap();
            s.push_sample(time, "root.b", Sample::usage_and_fair(2.0, 4.0))
                .unwrap();
        }
        s.finish();
        let times: Vec<f64> = s.times().collect();
        assert_eq!(times.len(), 1_250);
        assert_eq!((times[0], times[1], times[1_249]), (0.0, 80.0, 99_920.0));
        assert!(s.times.len() < MAX_TIMES);
        // Memory is the kept times times the leaves, not the rows read (30,000).
        assert_eq!(s.points_held(), 2 * 1_250);
        let leaves: Vec<&str> = s.leaves().map(|l| l.0).collect();
        assert_eq!(leaves, ["root.a", "root.b"]);
    }

    #[test]
    fn thinning_matches_fairsim_runs_charts() {
        // `fairsim run` drops every other kept time as soon as it holds MAX_TIMES: 2,048
        // times leave 1,024 (slots 0, 2, ..., 2,046), 2,047 times all 2,047.
        for (n, kept, last) in [(2_047u32, 2_047usize, 2_046.0), (2_048, 1_024, 2_046.0)] {
            let mut s = DetailSeries::new();
            for t in 0..n {
                s.push_sample(t as f64, "root.a", Sample::usage_and_fair(1.0, 1.0))
                    .unwrap();
            }
            s.finish();
            let times: Vec<f64> = s.times().collect();
            assert_eq!(
                (times.len(), *times.last().unwrap()),
                (kept, last),
                "{n} times"
            );
        }
    }

    #[test]
    fn a_parent_is_dropped_when_a_child_names_it() {
        let mut s = DetailSeries::new();
        s.push_sample(0.0, "root.users", Sample::usage_and_fair(5.0, 10.0))
            .unwrap();
        s.push_sample(1.0, "root.users", Sample::usage_and_fair(5.0, 10.0))
            .unwrap();
        assert_eq!(s.points_held(), 2);
        // A queue created during the run makes root.users a parent: its points go.
        s.push_sample(2.0, "root.users", Sample::usage_and_fair(5.0, 10.0))
            .unwrap();
        s.push_sample(2.0, "root.users.alice", Sample::usage_and_fair(5.0, 10.0))
            .unwrap();
        assert_eq!(s.points_held(), 1);
        let leaves: Vec<_> = s.leaves().collect();
        assert_eq!(leaves, [("root.users.alice", vec![(2.0, 5.0, 10.0)])]);
    }

    #[test]
    fn jain_ratios_follow_the_rows_of_each_time() {
        // Two leaves at two times; a leaf without a fair share is left out of its time.
        let mut s = DetailSeries::new();
        for (t, q, u, f) in [
            (0.0, "root.b", 2.0, 4.0),
            (0.0, "root.a", 1.0, 0.0),
            (5.0, "root.a", 3.0, 4.0),
            (5.0, "root.b", 1.0, 4.0),
        ] {
            s.push_sample(t, q, Sample::usage_and_fair(u, f)).unwrap();
        }
        s.finish();
        assert_eq!(s.leaf_ratios(), [(0.0, vec![0.5]), (5.0, vec![0.75, 0.25])]);
    }

    #[test]
    fn a_time_going_backwards_is_refused() {
        let mut s = DetailSeries::new();
        s.push_sample(5.0, "root.a", Sample::usage_and_fair(1.0, 1.0))
            .unwrap();
        let e = s
            .push_sample(4.0, "root.a", Sample::usage_and_fair(1.0, 1.0))
            .unwrap_err();
        assert!(
            e.contains("time 4 s is before the previous row's 5 s"),
            "{e}"
        );
    }
}
