//! fairsim-sim: the simulator around the core: the queue tree, allocation files, the
//! cluster, the schedulers, workloads and the event loop.
//!
//! Entry points: [`load_scenario`] reads a scenario file, [`run`] simulates it once for a
//! (seed, run index) into any [`Recorder`], [`run_to_dir`] writes the standard output files.

pub mod engine;
pub mod events;
pub mod input;
pub mod model;
pub mod output;
pub mod scheduler;
pub mod state;

// The scheduler math (Capacity Scheduler, Fair Scheduler preemption), as pure functions.
pub mod capacity;
pub mod preemption;

// Every module keeps the path it had before the layout above (`fairsim_sim::alloc`, ...).
pub(crate) use engine::cycle;
pub(crate) use events::bit_set;
pub use events::{event, event_key, heartbeat, radix_queue};
pub use input::{
    alloc, groups, hadoop_conf, import, json_lines, key_lines, limits, monitor_policies, scenario,
    scenario_checks, scenario_error, settings, start_state, topology, workload, yarn_site,
};
pub use model::{app, normalize, time, tree};
pub use output::{catalogue, explain, metrics, recorder};
pub use state::{cluster, host_hints};

pub use engine::{Counters, SimError, Simulation, run, run_with_progress};
pub use metrics::RunSummary;
pub use recorder::{FileRecorder, MemoryRecorder, NullRecorder, Recorder};
pub use scenario::{Scenario, ScenarioError, load_scenario};
pub use time::SimTime;

/// Runs `scenario` with `seed` and `run_index` (0 for a single run; a sweep's run index
/// reproduces that run) and writes `apps.csv`, `queues.csv`, `summary.json` and `summary.csv`
/// into `out_dir` (each file written atomically).
pub fn run_to_dir(
    scenario: &Scenario,
    seed: u64,
    run_index: u64,
    out_dir: impl AsRef<std::path::Path>,
) -> Result<RunSummary, SimError> {
    let mut rec = FileRecorder::new(out_dir.as_ref());
    run(scenario, seed, run_index, &mut rec)
}
