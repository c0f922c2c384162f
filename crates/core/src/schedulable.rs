//! The comparator's view of a queue or an application (Hadoop's `Schedulable`).

use crate::Resource;

/// What the comparators and the share computation read of a queue or an application.
///
/// For applications, `min_share` is zero and `max_share` unbounded, as in Hadoop.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedulable {
    /// Full queue name (`root.a.b`) or application attempt id; the last tie-break.
    pub name: String,
    /// Weight, already rounded to float32 as Hadoop stores it.
    pub weight: f32,
    /// Start time in ms (queues report 0).
    pub start_time_ms: i64,
    /// Configured minimum share (`minResources`).
    pub min_share: Resource,
    /// Configured maximum share (`maxResources`), [`Resource::UNBOUNDED`] when unset.
    pub max_share: Resource,
    /// Usage plus outstanding requests, capped at `max_share` for queues.
    pub demand: Resource,
    /// Resources currently allocated.
    pub usage: Resource,
    /// For queues: has runnable apps. Inactive queues get an instantaneous share of 0.
    pub active: bool,
}

impl Schedulable {
    /// A schedulable with weight 1, no min share, unbounded max and nothing used or asked.
    pub fn new(name: impl Into<String>) -> Schedulable {
        Schedulable {
            name: name.into(),
            weight: 1.0,
            start_time_ms: 0,
            min_share: Resource::ZERO,
            max_share: Resource::UNBOUNDED,
            demand: Resource::ZERO,
            usage: Resource::ZERO,
            active: true,
        }
    }
}
