//! The forms a queue's `capacity` and `maximum-capacity` take, under the path the
//! Capacity Scheduler's math has always named them by: the settings a queue carries live in
//! the model (`model::cs_settings`), their reading with the allocation file
//! (`input::alloc::capacity_forms`), so neither the model nor the input imports the
//! scheduler math.

pub use crate::input::alloc::capacity_forms::{
    CapacityValue, Mode, SiblingForm, absolute_resource, capacity_value, siblings_mode,
};
pub use crate::model::cs_settings::{CapacityForm, CsQueueSettings};
