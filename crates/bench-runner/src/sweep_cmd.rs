//! `fairsim sweep`: the command (arguments, staging, the report page and the printed table)
//! around the sweep machinery of `sweep`.

use std::path::{Path, PathBuf};

use crate::error::CliError;
use crate::sweep::{RunOne, Shard, Spec, headline, io_err, output, parse_jobs, sweep_into};

/// `fairsim sweep`: run a parameter sweep over many seeds.
#[derive(Debug, Clone, clap::Args)]
pub struct SweepArgs {
    /// The sweep file (TOML): a base scenario, axes and seeds.
    pub sweep_file: PathBuf,
    /// Worker threads, 1 to 1024 [default: one per CPU].
    #[arg(long, short = 'j', value_parser = parse_jobs)]
    pub jobs: Option<usize>,
    /// Output directory [default: results/NAME/, NAME being the sweep's name].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only the runs whose index is K modulo N, writing runs.shard-K-of-N.csv; join shards with `fairsim merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Skip the runs an interrupted invocation with the same sweep file and output directory already finished.
    #[arg(long)]
    pub resume: bool,
}

/// `fairsim sweep`: runs the sweep into `--out`; returns the headline table to print (empty
/// for a shard, whose answer comes with `merge`).
pub fn run_sweep(args: &SweepArgs, runner: &dyn RunOne) -> Result<String, CliError> {
    let spec = Spec::load(&args.sweep_file)?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("results").join(&spec.name));
    // Written beside --out and moved in whole at the end (crate::staging); a shard stages
    // apart from the other shards writing the same --out.
    let tag = args.shard.map(|s| s.tag());
    let staged = crate::staging::Staged::begin(&out, tag.as_deref(), args.resume)?;
    let staging = staged.dir().display().to_string();
    let summary = staged.run(|s| {
        let summary = sweep_into(&spec, runner, s.dir(), args.jobs, args.shard, args.resume)?;
        if args.shard.is_none() {
            let page = crate::sweep_report::sweep_page(&spec, s.dir())?;
            page.write(s.dir()).map_err(io_err(s.dir()))?;
        }
        Ok(summary)
    })?;
    eprintln!("{}", summary.replace(&staging, &out.display().to_string()));
    if args.shard.is_some() {
        return Ok(String::new());
    }
    let table = output::RunsTable::read(&out.join(output::RUNS_CSV), Some(spec.axes.len()))?;
    Ok(headline::headline_table(&table, &spec.charts))
}
