//! Builders and readers shared by the simulator's integration tests: apps of one stage, trace
//! scenarios on identical nodes, queue trees from allocation text, Capacity Scheduler runs
//! saturated per queue, and what a run allocated.
//! Each test binary declares `mod common;` and takes the parts it needs.

#![allow(dead_code, reason = "each test binary uses a different part")]

pub mod apps;
pub mod capacity;
pub mod generator;
pub mod outcomes;
pub mod scenarios;
pub mod trees;
