//! The one progress bar of a sweep: runs done, rate and ETA on stderr, hidden when nobody is watching.

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
