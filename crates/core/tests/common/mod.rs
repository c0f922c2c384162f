//! What the core's property tests share: a fixed-seed runner configuration (each test keeps
//! its own seed, so its cases stay what they were).

use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

/// A runner configuration of `cases` cases drawn from the fixed seed `seed` (ChaCha), with no
/// failure file: the same cases on every run.
pub fn fixed_config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}
