//! Everything a run reads, turned into one [`scenario::Scenario`]: scenario files, allocation
//! files, yarn-site and sls-runner files, workloads and traces, the cluster's topology, users'
//! groups and the range of every number, and the importers of a ResourceManager's logs and
//! REST responses. Inputs depend on the model's types alone, never on
//! the engine, the state or the schedulers.

pub mod alloc;
pub mod groups;
pub mod hadoop_conf;
pub mod import;
pub mod json_lines;
pub mod key_lines;
pub mod limits;
pub mod monitor_policies;
pub mod scenario;
pub mod scenario_checks;
pub mod scenario_error;
pub mod settings;
pub mod start_state;
pub mod topology;
pub mod workload;
pub mod yarn_site;
