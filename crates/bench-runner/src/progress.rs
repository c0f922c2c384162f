//! Progress bars on stderr, hidden when nobody is watching: a sweep's runs, and a single long
//! run's simulated time.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Whether progress should be drawn: stderr is a terminal and the `CI` environment variable is not set.
pub fn visible() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// A progress bar over `len` runs, of which `done` are already finished (resumed runs).
///
/// Hidden when [`visible`] is false. Tick it once per finished run with `inc(1)`.
pub fn runs_bar(len: u64, done: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    if visible() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {per_sec}  ETA {eta}")
            .expect("the progress template is valid"),
    );
    bar.set_position(done);
    bar.reset_eta();
    bar
}

/// A progress bar of one run's simulated time, in simulated seconds against the run's
/// horizon (its end time or last arrival; the bar grows when a run goes past it).
///
/// Hidden when [`visible`] is false. Feed it with [`sim_progress`].
pub fn sim_bar() -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden());
    if visible() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} simulated s  {elapsed} elapsed  ETA {eta}",
        )
        .expect("the progress template is valid"),
    );
    bar
}

/// Moves `bar` to simulated time `now_ms` (extending it past `horizon_ms` if needed).
pub fn sim_progress(bar: &ProgressBar, now_ms: u64, horizon_ms: u64) {
    let (now, len) = (now_ms / 1000, horizon_ms.max(now_ms) / 1000);
    if bar.length() != Some(len) {
        bar.set_length(len);
    }
    bar.set_position(now);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tests run off a terminal: the bar exists, draws nothing, and follows simulated time,
    /// growing when the run goes past its horizon.
    #[test]
    fn the_run_bar_is_hidden_off_a_terminal_and_follows_simulated_time() {
        let bar = sim_bar();
        if !visible() {
            assert!(bar.is_hidden());
        }
        sim_progress(&bar, 30_000, 3_600_000);
        assert_eq!((bar.position(), bar.length()), (30, Some(3_600)));
        sim_progress(&bar, 4_000_000, 3_600_000);
        assert_eq!((bar.position(), bar.length()), (4_000, Some(4_000)));
    }
}
