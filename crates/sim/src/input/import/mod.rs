//! Bringing a real cluster in: a ResourceManager's logs and REST responses read into
//! fairsim's own inputs. Pure readers and converters: they hold no simulation state.

pub mod log_line;
pub mod logs;
pub mod replay;
pub mod rm_bundle;
pub mod rm_capacity;
pub mod rm_scheduler;
