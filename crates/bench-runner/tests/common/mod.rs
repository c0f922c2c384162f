//! Helpers shared by the integration tests.

#![allow(dead_code, reason = "each test binary uses a different part")]

pub mod catalogue;
pub mod fixture;
pub mod mutate;
pub mod svg;
