//! Benchmarks of the core comparators and share computation.
fn main() {}
