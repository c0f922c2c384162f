//! What a run writes: the recorders of its files, the metrics over its apps and queues, and
//! the catalogue of every metric and column. Outputs depend on the model's types alone.

pub mod catalogue;
pub(crate) mod csv_text;
pub mod explain;
pub mod metrics;
pub mod recorder;
