//! A replay's figures per queue as text: `fairsim check replay` prints it, and a replay
//! run's report shows it.

use fairsim_sim::import::replay::{Errors, Replay};
use std::fmt::Write as _;

fn secs(ms: f64) -> String {
    format!("{:.1}", ms / 1000.0)
}

fn cells(e: &Option<Errors>) -> [String; 4] {
    match e {
        Some(e) => [
            secs(e.recorded_p50 as f64),
            secs(e.simulated_p50 as f64),
            secs(e.bias_ms),
            secs(e.mean_abs_ms),
        ],
        None => std::array::from_fn(|_| "-".to_string()),
    }
}

/// The table: per queue, then all apps, each time's recorded median, simulated median,
/// mean difference and mean absolute difference, in seconds.
pub fn replay_table(r: &Replay) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "seconds: recorded median / simulated median / mean (sim - rec) / mean |sim - rec|"
    );
    let _ = writeln!(
        t,
        "{:<24} {:>6}  {:<30} {:<30} {:<30}",
        "queue", "apps", "wait", "AM launch delay", "completion"
    );
    for q in &r.queues {
        let cols = [&q.wait, &q.am_launch, &q.completion].map(|e| cells(e).join(" / "));
        let _ = writeln!(
            t,
            "{:<24} {:>6}  {:<30} {:<30} {:<30}",
            q.queue, q.apps, cols[0], cols[1], cols[2]
        );
    }
    t
}

/// What the join left out, when it left anything: recorded apps not in the run, run apps
/// not recorded, apps unfinished in the run.
pub fn replay_gaps(r: &Replay) -> Option<String> {
    (r.missing_in_run + r.missing_in_recording + r.unfinished > 0).then(|| {
        format!(
            "{} recorded apps not in the run, {} run apps not recorded, {} apps unfinished in \
             the run (left out of completion)",
            r.missing_in_run, r.missing_in_recording, r.unfinished
        )
    })
}
