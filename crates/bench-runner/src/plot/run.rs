//! The charts of one run, whichever command ran it: `fairsim run` builds [`RunCharts`] from
//! what it kept while the run went on, a sweep's charted run and `fairsim plot` from the run's
//! files; both then draw through [`RunCharts::draw`], so the same run gives the same charts.

use std::path::{Path, PathBuf};

use super::cdf::{Cdf, CdfSeries};
use super::timeseries::{RunEnd, TimeSeries};
use super::usage::{QueuePanel, UsageChart};
use super::{PlotError, save};

/// What a run's charts draw.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RunCharts {
    /// One panel per leaf queue (usage, shares, demand).
    pub panels: Vec<QueuePanel>,
    /// Jain's index of usage / `jain_share` over the leaves with one, `(time s, index)`.
    pub jain: Vec<(f64, f64)>,
    /// The share Jain's index is taken against (`ideal share`, as the `jain_index` metric).
    pub jain_share: String,
    /// `(time s, memory, vcores)` fractions of the cluster, when its size is known.
    pub utilisation: Option<Vec<(f64, f64, f64)>>,
    /// The run's end and mean utilisation, from its summary.
    pub end: Option<RunEnd>,
    /// Each admitted app's wait, per queue (`None`: never started).
    pub waits: Vec<CdfSeries>,
    /// Each admitted app's completion time, per queue (`None`: never finished).
    pub completions: Vec<CdfSeries>,
}

impl RunCharts {
    /// Draws the charts into `dir` (`usage`, `jain`, `utilisation`, `wait-cdf`,
    /// `completion-cdf`, each `.png` and `.svg`); `which` names the run in titles.
    pub fn draw(&self, which: &str, dir: &Path) -> Result<Vec<PathBuf>, PlotError> {
        let mut out = Vec::new();
        if !self.panels.is_empty() {
            out.extend(save(
                &UsageChart::new(self.panels.clone(), which).to_end(self.end),
                &dir.join("usage"),
            )?);
            out.extend(save(
                &TimeSeries::jain(self.jain.clone(), which, &self.jain_share).to_end(self.end),
                &dir.join("jain"),
            )?);
            if let Some(u) = &self.utilisation {
                out.extend(save(
                    &TimeSeries::utilisation(u, self.end, which),
                    &dir.join("utilisation"),
                )?);
            }
        }
        if self.waits.iter().any(|s| s.total > 0) {
            out.extend(save(
                &Cdf::wait_chart(self.waits.clone(), which, "admitted apps"),
                &dir.join("wait-cdf"),
            )?);
            out.extend(save(
                &Cdf::completion_chart(self.completions.clone(), which, "admitted apps"),
                &dir.join("completion-cdf"),
            )?);
        }
        Ok(out)
    }
}
