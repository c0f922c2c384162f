//! The Capacity Scheduler settings a queue of the tree carries beyond the 2.x percentages:
//! the form its `capacity` was given in and the limits Hadoop 3.3 reads with it. Pure
//! values; `input::alloc::capacity_forms` reads them from a capacity-scheduler.xml.

use fairsim_core::Resource;

/// How a queue's `capacity` is given.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum CapacityForm {
    /// A percentage of the parent, in `QueueConf::capacity_percent`.
    #[default]
    Percent,
    /// `Nw`: a weight, the queue's share of its parent being its weight over its siblings'.
    Weight(f32),
    /// `[memory=..,vcores=..]`: the configured minimum resource.
    Absolute(Resource),
}

/// The Capacity Scheduler settings of a queue beyond the 2.x percentages.
#[derive(Debug, Clone, PartialEq)]
pub struct CsQueueSettings {
    /// How `capacity` is given.
    pub form: CapacityForm,
    /// `maximum-capacity` as an absolute resource, when given so.
    pub maximum_resource: Option<Resource>,
    /// `maximum-applications` of the queue, when set (a negative value is unset, as Hadoop
    /// reads it).
    pub maximum_applications: Option<i32>,
    /// `yarn.scheduler.capacity.maximum-applications` (default 10,000): a leaf without its
    /// own limit may hold this × its absolute capacity applications.
    pub system_maximum_applications: i32,
    /// The queue or an ancestor is `STOPPED`: it accepts no application.
    pub stopped: bool,
    /// `ordering-policy.fair.enable-size-based-weight`.
    pub size_based_weight: bool,
}

impl Default for CsQueueSettings {
    fn default() -> Self {
        CsQueueSettings {
            form: CapacityForm::Percent,
            maximum_resource: None,
            maximum_applications: None,
            system_maximum_applications: 10_000,
            stopped: false,
            size_based_weight: false,
        }
    }
}
