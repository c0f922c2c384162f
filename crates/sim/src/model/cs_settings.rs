//! The Capacity Scheduler settings a queue of the tree carries beyond the 2.x percentages:
//! the form its `capacity` was given in and the limits Hadoop 3.3 reads with it. Pure
//! values; `input::alloc::capacity_forms` reads them from a capacity-scheduler.xml.

use fairsim_core::Resource;

/// How a Capacity Scheduler leaf orders its applications (`ordering-policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OrderingPolicy {
    /// `fifo` (the default).
    #[default]
    Fifo,
    /// `fair`.
    Fair,
}

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
    /// `yarn.scheduler.capacity.reservations-continue-look-all-nodes` (default true): every
    /// queue reads the scheduler-wide switch for itself, as Hadoop's queues do
    /// (`AbstractCSQueue.reservationsContinueLooking`). With it off an app's reservations
    /// never make room under a limit and are never given back for a node with room
    /// (`scheduler::capacity_reserve`).
    pub continue_looking: bool,
    /// Hadoop 3.3: `auto-create-child-queue.enabled` and the parent's leaf template
    /// (`capacity::auto_queues`).
    pub auto_create: Option<Box<AutoTemplate>>,
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
            continue_looking: true,
            auto_create: None,
        }
    }
}

/// A managed parent's `leaf-queue-template` and its own auto-creation settings.
#[derive(Debug, Clone, PartialEq)]
pub struct AutoTemplate {
    /// `leaf-queue-template.capacity`, a percentage of the parent (default 0).
    pub capacity_percent: f64,
    /// `leaf-queue-template.maximum-capacity` (default 100).
    pub maximum_capacity_percent: f64,
    /// `leaf-queue-template.user-limit-factor` (default 1).
    pub user_limit_factor: f64,
    /// `leaf-queue-template.minimum-user-limit-percent` (default 100).
    pub minimum_user_limit_percent: f32,
    /// `leaf-queue-template.ordering-policy` (default fifo).
    pub ordering_policy: OrderingPolicy,
    /// `leaf-queue-template.ordering-policy.fair.enable-size-based-weight`.
    pub size_based_weight: bool,
    /// `leaf-queue-template.maximum-am-resource-percent`, as a fraction.
    pub am_fraction: f64,
    /// `leaf-queue-template.maximum-applications` (`None`: derived from the template's
    /// absolute capacity when the leaf is made).
    pub maximum_applications: Option<i32>,
    /// `auto-create-child-queue.max-queues` (default 1000).
    pub max_queues: i64,
    /// `auto-create-child-queue.fail-on-exceeding-parent-capacity` (default false).
    pub fail_on_exceeding: bool,
    /// `leaf-queue-template.capacity` as an absolute resource, under a parent whose own
    /// capacity is absolute: the percentages above are then derived from it
    /// (`capacity::auto_queues::resolve`) whenever a leaf is made or the policy runs.
    pub absolute: Option<AbsoluteTemplate>,
}

/// A leaf template given in absolute resources.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AbsoluteTemplate {
    /// `leaf-queue-template.capacity`.
    pub min: Resource,
    /// `leaf-queue-template.maximum-capacity` as an absolute resource, when given so.
    pub max: Option<Resource>,
}

impl Default for AutoTemplate {
    fn default() -> Self {
        AutoTemplate {
            capacity_percent: 0.0,
            maximum_capacity_percent: 100.0,
            user_limit_factor: 1.0,
            minimum_user_limit_percent: 100.0,
            ordering_policy: OrderingPolicy::Fifo,
            size_based_weight: false,
            am_fraction: 0.1,
            maximum_applications: None,
            max_queues: 1000,
            fail_on_exceeding: false,
            absolute: None,
        }
    }
}

impl AutoTemplate {
    /// The template's absolute capacity under a parent of absolute capacity `parent_abs`
    /// (`CSQueueUtils.loadUpdateAndCheckCapacities`: capacity ÷ 100 × the parent's, in
    /// floats).
    pub fn absolute(&self, parent_abs: f32) -> f32 {
        (self.capacity_percent as f32 / 100.0) * parent_abs
    }
}
