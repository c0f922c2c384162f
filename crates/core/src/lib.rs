//! fairsim-core: what YARN's Fair Scheduler computes, without the scheduler around it.
//!
//! This crate holds the pure decision functions of the Fair Scheduler for two Hadoop eras
//! ([`Semantics::Hadoop27`] and [`Semantics::Hadoop33`]): the fair, DRF and FIFO comparators
//! (also as [`OrderKey`]s for ordered containers), `computeShares` with Hadoop's exact
//! arithmetic, an exact water-filling solver, and the application weight with its booster.
//!
//! It does no I/O, draws no random numbers and starts no threads; nothing here can fail
//! except through a caller's broken invariant, which is asserted.

mod comparator;
mod key;
mod resource;
mod schedulable;
mod semantics;
pub mod share;
mod sort;
mod tree_set;
mod weight;

pub use comparator::{Comparator, DecidedBy, Placement};
pub use key::{OrderKey, ord_f64};
pub use resource::{Calculator, Resource};
pub use schedulable::Schedulable;
pub use semantics::{Policy, Semantics};
pub use share::{Rounding, ShareCap, ShareItem, ShareKind};
pub use sort::stable_sort_by;
pub use tree_set::tree_set_order;
pub use weight::{AppWeight, BoostWhen, Booster};
