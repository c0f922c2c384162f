//! Library side of the `fairsim` command: parameter sweeps over many seeds, capacity plans, their statistics and
//! their charts.
//!
//! The simulator is reached only through the [`sweep::RunOne`] trait, so sweeps, shards, resumption and charts
//! work (and are tested) with any runner.

pub mod compare;
pub mod compare_paired;
pub mod error;
pub mod merge_cmd;
pub mod output_guard;
pub mod plan;
pub mod plot;
pub mod plot_cmd;
pub mod progress;
pub mod replay_table;
pub mod report_html;
pub mod results;
pub mod run_report;
pub mod sim_runner;
pub mod staging;
pub mod stats;
pub mod sweep;
pub mod sweep_cmd;
pub mod sweep_report;
pub mod text_table;
pub mod why_waited;

pub use error::CliError;
pub use sweep::{RunDetail, RunError, RunOne};
