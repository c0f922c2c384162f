//! `fairsim plot`: a sweep's charts redrawn from the files in its directory.

use std::path::PathBuf;

use crate::sweep::charts::draw_sweep;
use crate::sweep::output::{Manifest, RunsTable};

/// `fairsim plot`: redraw a sweep's charts from the CSV files in its directory.
#[derive(Debug, Clone, clap::Args)]
pub struct PlotArgs {
    /// A sweep output directory (holding runs.csv, and sweep.json for the chart choices).
    pub dir: PathBuf,
}

/// Redraws the charts of a sweep directory from `runs.csv` (and the run detail CSVs), running nothing.
pub fn run_plot(args: &PlotArgs) -> Result<(), crate::CliError> {
    // Without sweep.json the charts take their default choices; a sweep.json that cannot be
    // read is refused rather than replaced by them.
    let manifest = if args.dir.join(crate::sweep::output::MANIFEST).exists() {
        Some(Manifest::read(&args.dir)?)
    } else {
        None
    };
    let n_axes = manifest.as_ref().map(|m| m.axes.len());
    let table = RunsTable::read(&args.dir.join(crate::sweep::output::RUNS_CSV), n_axes)?;
    if let Some(m) = &manifest {
        if table.axes != m.axes {
            return Err(crate::sweep::SweepError::Shards(format!(
                "{}:1: axes differ from sweep.json",
                args.dir.join(crate::sweep::output::RUNS_CSV).display()
            ))
            .into());
        }
        m.check_metrics(&args.dir, &table)?;
    }
    let charts = manifest.map(|m| m.charts).unwrap_or_default();
    let written = draw_sweep(&args.dir, &table, &charts)?;
    eprintln!(
        "{} chart files written to {}",
        written.len(),
        args.dir.display()
    );
    Ok(())
}
