//! A replay of imported logs against what the cluster recorded: a run's `apps.csv` joined by
//! app with the `recorded.csv` of `fairsim import logs`, per app and per queue.
//!
//! Three times, each from the app's submission (the trace's arrival, which is the recorded
//! submission on the same clock):
//! * **wait**: until the app's first container (its AM). Recorded: the AM container's
//!   allocation line; simulated: `wait_ms`.
//! * **AM launch delay**: until the AM runs. Recorded: the summary's `launchTime` (Hadoop
//!   3.x; apps without one are left out of this figure); simulated: the wait plus the
//!   scenario's `am_launch_delay_ms` (0 unless AM timing is modelled, when an AM runs as its
//!   container is allocated).
//! * **completion**: until the app finishes. Recorded: `finishTime`; simulated: `jct_ms`
//!   (apps unfinished in the run are left out of it and counted).

use std::collections::BTreeMap;
use std::io::Read;

/// A recorded and a simulated value of one time of one app, ms.
pub type Pair = (i64, i64);

/// One app's three times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppReplay {
    /// The app's id.
    pub app: String,
    /// Its queue as the run placed it.
    pub queue: String,
    /// Wait for the first container.
    pub wait: Option<Pair>,
    /// Delay until the AM ran.
    pub am_launch: Option<Pair>,
    /// Completion time.
    pub completion: Option<Pair>,
}

/// The error figures of one time over a set of apps.
#[derive(Debug, Clone, PartialEq)]
pub struct Errors {
    /// Apps counted.
    pub n: usize,
    /// Median recorded, ms.
    pub recorded_p50: i64,
    /// Median simulated, ms.
    pub simulated_p50: i64,
    /// Mean of simulated minus recorded, ms (positive: the simulation is slower).
    pub bias_ms: f64,
    /// Mean absolute difference, ms.
    pub mean_abs_ms: f64,
}

fn p50(mut v: Vec<i64>) -> i64 {
    v.sort_unstable();
    // Nearest rank.
    v[(v.len() - 1) / 2]
}

/// The error figures over `pairs`; `None` when empty.
pub fn errors(pairs: &[Pair]) -> Option<Errors> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len();
    let diff: Vec<i128> = pairs.iter().map(|(r, s)| i128::from(s - r)).collect();
    Some(Errors {
        n,
        recorded_p50: p50(pairs.iter().map(|p| p.0).collect()),
        simulated_p50: p50(pairs.iter().map(|p| p.1).collect()),
        bias_ms: diff.iter().sum::<i128>() as f64 / n as f64,
        mean_abs_ms: diff.iter().map(|d| d.abs()).sum::<i128>() as f64 / n as f64,
    })
}

/// A queue's (or all apps') figures.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueReplay {
    /// The queue, or `all`.
    pub queue: String,
    /// Apps of the queue in both files.
    pub apps: usize,
    /// Wait figures.
    pub wait: Option<Errors>,
    /// AM launch figures.
    pub am_launch: Option<Errors>,
    /// Completion figures.
    pub completion: Option<Errors>,
}

/// The join's result.
#[derive(Debug, Clone)]
pub struct Replay {
    /// Apps in both files, in the run's order.
    pub apps: Vec<AppReplay>,
    /// Per queue in name order, then `all`.
    pub queues: Vec<QueueReplay>,
    /// Recorded apps the run has no row for.
    pub missing_in_run: usize,
    /// Run rows the recording has no app for.
    pub missing_in_recording: usize,
    /// Apps the run did not finish (or rejected).
    pub unfinished: usize,
}

/// The index of column `name`; a file without it is refused at its header's line.
fn header_index(headers: &csv::StringRecord, name: &str, file: &str) -> Result<usize, String> {
    headers.iter().position(|h| h == name).ok_or_else(|| {
        let line = headers.position().map_or(1, csv::Position::line);
        format!("{file}:{line}: no `{name}` column")
    })
}

fn cell_i64(
    rec: &csv::StringRecord,
    i: usize,
    file: &str,
    col: &str,
) -> Result<Option<i64>, String> {
    let v = rec.get(i).unwrap_or("");
    if v.is_empty() {
        return Ok(None);
    }
    let line = || rec.position().map_or(0, |p| p.line());
    let ms: i64 = v.parse().map_err(|_| {
        format!(
            "{file}:{}: `{col}`: `{v}` is not a whole number of ms",
            line()
        )
    })?;
    // Times on the trace's clock (ms from the first submission) and a run's waits and
    // completions: from 0 to ten years, as the trace's own times, so no difference of two
    // of them can overflow.
    let max = crate::limits::MAX_TIME_MS;
    if !(0..=max as i64).contains(&ms) {
        return Err(format!(
            "{file}:{}: `{col}`: {ms} is out of range: the limit is 0 to {max}",
            line()
        ));
    }
    Ok(Some(ms))
}

/// A CSV reader's error in `file`, at its line when the reader knows it.
fn csv_message(file: &str, e: &csv::Error) -> String {
    match e.position() {
        Some(p) => format!("{file}:{}: {e}", p.line()),
        None => format!("{file}: {e}"),
    }
}

/// One app of a run as the join reads it: its id, queue, `wait_ms` and `jct_ms` (`None`
/// when it never started or did not finish).
pub type RunApp = (String, String, Option<i64>, Option<i64>);

/// Joins `recorded` (from `fairsim import logs`) with a run's `apps` by app id.
/// `am_launch_delay_ms` is the run's scenario setting.
pub fn replay(
    recorded: impl Read,
    recorded_name: &str,
    apps: impl Read,
    apps_name: &str,
    am_launch_delay_ms: i64,
) -> Result<Replay, String> {
    let mut run = csv::Reader::from_reader(apps);
    let h = run
        .headers()
        .map_err(|e| csv_message(apps_name, &e))?
        .clone();
    let col = |n: &str| header_index(&h, n, apps_name);
    let (aa, aq, aw, aj) = (col("app")?, col("queue")?, col("wait_ms")?, col("jct_ms")?);
    let mut rows = Vec::new();
    // One row per app: a second would be counted twice.
    let mut first_line: BTreeMap<String, u64> = BTreeMap::new();
    for r in run.records() {
        let r = r.map_err(|e| csv_message(apps_name, &e))?;
        let app = r.get(aa).unwrap_or("");
        let line = r.position().map_or(0, |p| p.line());
        if let Some(first) = first_line.insert(app.to_string(), line) {
            return Err(format!(
                "{apps_name}:{line}: app `{app}` again (first at line {first}): one row per app"
            ));
        }
        rows.push((
            r.get(aa).unwrap_or("").to_string(),
            r.get(aq).unwrap_or("").to_string(),
            cell_i64(&r, aw, apps_name, "wait_ms")?,
            cell_i64(&r, aj, apps_name, "jct_ms")?,
        ));
    }
    replay_apps(recorded, recorded_name, &rows, am_launch_delay_ms)
}

/// Joins `recorded` with a run's apps given as [`RunApp`]s, in the run's order.
pub fn replay_apps(
    recorded: impl Read,
    recorded_name: &str,
    apps: &[RunApp],
    am_launch_delay_ms: i64,
) -> Result<Replay, String> {
    let csv_err = |file: &str| {
        let file = file.to_string();
        move |e: csv::Error| csv_message(&file, &e)
    };
    // The recorded times by app (the smaller file: one row per app).
    let mut rec = csv::Reader::from_reader(recorded);
    let h = rec.headers().map_err(csv_err(recorded_name))?.clone();
    let col = |n: &str| header_index(&h, n, recorded_name);
    let (ra, rs, ral, rl, rf) = (
        col("app")?,
        col("submit_ms")?,
        col("am_allocated_ms")?,
        col("launch_ms")?,
        col("finish_ms")?,
    );
    let mut recorded_times: BTreeMap<String, ([Option<i64>; 4], u64)> = BTreeMap::new();
    for r in rec.records() {
        let r = r.map_err(csv_err(recorded_name))?;
        let get = |i: usize, c: &str| cell_i64(&r, i, recorded_name, c);
        let times = [
            get(rs, "submit_ms")?,
            get(ral, "am_allocated_ms")?,
            get(rl, "launch_ms")?,
            get(rf, "finish_ms")?,
        ];
        // A time before the app's submission would enter the comparison as a negative
        // wait or completion: refused, as `import logs` refuses such a summary.
        if let Some(submit) = times[0] {
            let later = ["am_allocated_ms", "launch_ms", "finish_ms"];
            for (t, c) in times[1..].iter().zip(later) {
                if let Some(t) = t.filter(|t| *t < submit) {
                    let line = r.position().map_or(0, |p| p.line());
                    return Err(format!(
                        "{recorded_name}:{line}: `{c}` {t} is before the submission {submit} \
                         (`submit_ms`): time goes backwards"
                    ));
                }
            }
        }
        // One row per app: a second would silently replace the first.
        let app = r.get(ra).unwrap_or("").to_string();
        let line = r.position().map_or(0, |p| p.line());
        if let Some((_, first)) = recorded_times.get(&app) {
            return Err(format!(
                "{recorded_name}:{line}: app `{app}` again (first at line {first}): one row per app"
            ));
        }
        recorded_times.insert(app, (times, line));
    }
    let mut out = Replay {
        apps: Vec::new(),
        queues: Vec::new(),
        missing_in_run: 0,
        missing_in_recording: 0,
        unfinished: 0,
    };
    let mut seen = 0;
    for (app, queue, wait, jct) in apps {
        let Some(&([submit, am_alloc, launch, finish], _)) = recorded_times.get(app.as_str())
        else {
            out.missing_in_recording += 1;
            continue;
        };
        seen += 1;
        let Some(submit) = submit else { continue };
        let (wait, jct) = (*wait, *jct);
        if jct.is_none() {
            out.unfinished += 1;
        }
        out.apps.push(AppReplay {
            app: app.clone(),
            queue: queue.clone(),
            wait: am_alloc.zip(wait).map(|(a, w)| (a - submit, w)),
            am_launch: launch
                .zip(wait)
                .map(|(l, w)| (l - submit, w + am_launch_delay_ms)),
            completion: finish.zip(jct).map(|(f, j)| (f - submit, j)),
        });
    }
    out.missing_in_run = recorded_times.len().saturating_sub(seen);
    let mut by_queue: BTreeMap<&str, Vec<&AppReplay>> = BTreeMap::new();
    for a in &out.apps {
        by_queue.entry(a.queue.as_str()).or_default().push(a);
    }
    let all: Vec<&AppReplay> = out.apps.iter().collect();
    let figures = |q: &str, apps: &[&AppReplay]| {
        let pick = |f: fn(&AppReplay) -> Option<Pair>| -> Vec<Pair> {
            apps.iter().filter_map(|a| f(a)).collect()
        };
        QueueReplay {
            queue: q.to_string(),
            apps: apps.len(),
            wait: errors(&pick(|a| a.wait)),
            am_launch: errors(&pick(|a| a.am_launch)),
            completion: errors(&pick(|a| a.completion)),
        }
    };
    let mut queues: Vec<QueueReplay> = by_queue.iter().map(|(q, a)| figures(q, a)).collect();
    queues.push(figures("all", &all));
    out.queues = queues;
    Ok(out)
}

/// The replay's figures as a run's metrics (`metric` for all apps, `metric.<queue>` per
/// queue; the catalogue's `replay_*`), in seconds: for each of wait, AM launch delay and
/// completion the mean of simulated minus recorded and the mean absolute difference; NaN
/// when no app has the pair.
pub fn replay_metrics(r: &Replay) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for q in &r.queues {
        let suffix = if q.queue == "all" {
            String::new()
        } else {
            format!(".{}", q.queue)
        };
        for (what, e) in [
            ("wait", &q.wait),
            ("am_launch", &q.am_launch),
            ("completion", &q.completion),
        ] {
            let (bias, abs) = e.as_ref().map_or((f64::NAN, f64::NAN), |e| {
                (e.bias_ms / 1000.0, e.mean_abs_ms / 1000.0)
            });
            out.push((format!("replay_{what}_bias_s{suffix}"), bias));
            out.push((format!("replay_{what}_abs_s{suffix}"), abs));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_worked_by_hand() {
        // Differences 10, -20, 40: bias 10, mean abs 70 / 3.
        let e = errors(&[(100, 110), (200, 180), (300, 340)]).unwrap();
        assert_eq!((e.n, e.recorded_p50, e.simulated_p50), (3, 200, 180));
        assert_eq!(e.bias_ms, 10.0);
        assert!((e.mean_abs_ms - 70.0 / 3.0).abs() < 1e-12);
        assert_eq!(errors(&[]), None);
    }

    #[test]
    fn join_by_app_per_queue() {
        let recorded = "app,queue,user,state,final_status,submit_ms,am_allocated_ms,launch_ms,first_task_ms,finish_ms,containers,submit_epoch_ms\n\
            a1,root.x,u,FINISHED,SUCCEEDED,0,500,900,1000,10000,3,7\n\
            a2,root.y,u,FINISHED,SUCCEEDED,1000,3000,,4000,21000,2,8\n\
            a3,root.y,u,FINISHED,SUCCEEDED,2000,2100,2200,,3000,1,9\n";
        let apps = "app_index,app,queue,user,arrival_ms,first_container_ms,finish_ms,wait_ms,runtime_ms,jct_ms\n\
            0,a1,root.x,u,0,200,8000,200,7800,8000\n\
            1,a2,root.y,u,1000,1500,,500,,\n\
            2,zz,root.y,u,1000,1500,2000,500,500,1000\n";
        let r = replay(recorded.as_bytes(), "rec", apps.as_bytes(), "apps", 100).unwrap();
        assert_eq!(
            (r.missing_in_run, r.missing_in_recording, r.unfinished),
            (1, 1, 1)
        );
        assert_eq!(r.apps[0].wait, Some((500, 200)));
        assert_eq!(r.apps[0].am_launch, Some((900, 300)));
        assert_eq!(r.apps[0].completion, Some((10_000, 8000)));
        assert_eq!(r.apps[1].wait, Some((2000, 500)));
        assert_eq!(r.apps[1].am_launch, None);
        assert_eq!(r.apps[1].completion, None);
        let names: Vec<&str> = r.queues.iter().map(|q| q.queue.as_str()).collect();
        assert_eq!(names, ["root.x", "root.y", "all"]);
        let all = &r.queues[2];
        assert_eq!(all.wait.as_ref().unwrap().bias_ms, (-300.0 - 1500.0) / 2.0);
        assert_eq!(all.completion.as_ref().unwrap().n, 1);
        // As metrics, in seconds: root.x's one app waited 0.3 s less than recorded and
        // finished 2 s sooner; root.y's app has no launch time nor completion.
        let m = replay_metrics(&r);
        let get = |k: &str| m.iter().find(|(n, _)| n == k).unwrap().1;
        assert_eq!(get("replay_wait_bias_s.root.x"), -0.3);
        assert_eq!(get("replay_wait_abs_s.root.x"), 0.3);
        assert_eq!(get("replay_completion_bias_s.root.x"), -2.0);
        assert!(get("replay_completion_bias_s.root.y").is_nan());
        assert_eq!(get("replay_wait_bias_s"), -0.9);
        assert_eq!(get("replay_wait_abs_s"), 0.9);
        assert_eq!(m.len(), 3 * 6);
    }
}
