//! `fairsim merge`: the command that joins a sweep's shards (the joining is `sweep::merge`).

use std::path::PathBuf;

use crate::error::CliError;
use crate::sweep::merge::merge_table;

/// `fairsim merge`: join the shard outputs of one sweep.
#[derive(Debug, Clone, clap::Args)]
pub struct MergeArgs {
    /// Directories holding shard outputs (runs.shard-K-of-N.csv and sweep.json); all N shards must be present.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write runs.csv, summary.csv and the charts [default: the first DIR].
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Merges shards; see [`crate::sweep::merge::merge`].
pub fn run_merge(args: &MergeArgs) -> Result<(), CliError> {
    let out = args.out.clone().unwrap_or_else(|| args.dirs[0].clone());
    let table = merge_table(&args.dirs, &out)?;
    eprintln!("{} runs merged into {}", table.rows.len(), out.display());
    if let Some(line) = crate::sweep::stalls::stalled_line(&table.stalled_points()) {
        eprintln!("{line}");
    }
    Ok(())
}
