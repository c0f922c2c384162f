//! fairsim-sim: the simulator around the core: the queue tree, allocation files, the
//! cluster, the schedulers, workloads and the event loop.
//!
//! Entry points: [`load_scenario`] reads a scenario file, [`run`] simulates it once for a
//! (seed, run index) into any [`Recorder`], [`run_to_dir`] writes the standard output files.

pub mod alloc;
pub mod app;
pub(crate) mod bit_set;
pub mod capacity;
pub mod catalogue;
pub mod cluster;
pub(crate) mod cycle;
pub mod engine;
pub mod event;
pub mod event_key;
pub mod groups;
pub mod hadoop_conf;
pub mod heartbeat;
pub mod host_hints;
pub(crate) mod idle_ticks;
pub mod key_lines;
pub mod limits;
pub mod metrics;
pub mod normalize;
pub mod preemption;
pub mod radix_queue;
pub mod recorder;
pub mod scenario;
pub mod scenario_checks;
pub mod scenario_error;
pub mod scheduler;
pub mod settings;
pub mod time;
pub mod topology;
pub mod tree;
pub mod workload;
pub mod yarn_site;

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
