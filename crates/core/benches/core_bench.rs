//! Benchmarks of the core computations (placeholder until they are written).
fn main() {}
