//! What the core's property tests share: a fixed-seed runner configuration (each test keeps
//! its own seed, so its cases stay what they were).

use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

/// A runner configuration of `cases` cases drawn from the fixed seed `seed` (ChaCha), with no
/// failure file: the same cases on every run.
///
/// `FAIRSIM_PROP_SEED` (mixed into every seed) and `FAIRSIM_PROP_SCALE` (a factor on every
/// count) widen a run beyond CI's cases, as in the engine's tests (docs/testing.md).
pub fn fixed_config(cases: u32, seed: u64) -> Config {
    let mix = env_u64("FAIRSIM_PROP_SEED").unwrap_or(0);
    let scale = env_u64("FAIRSIM_PROP_SCALE").unwrap_or(1).max(1);
    let cases = u32::try_from(u64::from(cases).saturating_mul(scale)).unwrap_or(u32::MAX);
    // Mixed through a multiply, so seeds one apart draw unrelated cases.
    let seed = seed ^ mix.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A numeric environment variable; a set value that is not a number stops the run, since a
/// widened run that silently ran CI's cases would prove nothing more.
fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    match v.trim().parse() {
        Ok(n) => Some(n),
        Err(_) => panic!("{name}={v:?}: expected a whole number"),
    }
}
