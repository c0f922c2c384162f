//! Pieces of the random-scenario generators that the elision and bounded-time property tests
//! share: node events made valid against the nodes they name, and a fixed-seed runner
//! configuration (each test keeps its own seed, so its cases stay what they were), and the
//! era and ordering a generated case's flags pick.

use fairsim_core::{Resource, Semantics};
use fairsim_sim::scenario::Ordering;
use fairsim_sim::topology::NodeSpec;
use fairsim_sim::topology::events::{NodeEvent, NodeEventKind, NodeEvents};
use proptest::test_runner::{Config, RngAlgorithm, RngSeed};

/// Generated node events, `(time, kind, pick)`, made valid on a cluster of `nodes` nodes:
/// kind 0 adds a 4 GB / 4-vcore node `x{k}` in rack0, 1 loses a node and 2 decommissions one,
/// picked by `pick` among the nodes that can still take it (running ones; a loss may also
/// take a decommissioning one). A loss or decommission with no node to take it is dropped.
pub fn node_events(nodes: u32, generated: &[(u64, u8, u32)]) -> NodeEvents {
    let mut out = NodeEvents::default();
    // 0 running, 1 decommissioning, 2 gone.
    let mut standing: Vec<u8> = vec![0; nodes as usize];
    let mut events = generated.to_vec();
    events.sort_by_key(|e| e.0);
    for (t, kind, pick) in events {
        let kind = match kind {
            0 => NodeEventKind::Add,
            1 => NodeEventKind::Lose,
            _ => NodeEventKind::Decommission,
        };
        let node = if kind == NodeEventKind::Add {
            out.added.push(NodeSpec {
                name: format!("x{}", out.added.len()),
                rack: "rack0".into(),
                capacity: Resource::new(4096, 4),
            });
            standing.push(0);
            standing.len() - 1
        } else {
            let can: Vec<usize> = (0..standing.len())
                .filter(|&n| standing[n] == 0 || (standing[n] == 1 && kind == NodeEventKind::Lose))
                .collect();
            if can.is_empty() {
                continue;
            }
            let n = can[pick as usize % can.len()];
            standing[n] = if kind == NodeEventKind::Lose { 2 } else { 1 };
            n
        };
        out.events.push(NodeEvent {
            at_ms: t,
            kind,
            nodes: vec![node as u32],
        });
    }
    out
}

/// A runner configuration of `cases` cases drawn from the fixed seed `seed` (ChaCha), with no
/// failure file: the same cases on every run.
///
/// Two variables widen a run beyond the cases CI runs (docs/testing.md): `FAIRSIM_PROP_SEED`
/// (a number mixed into every test's seed, so each test draws other cases) and
/// `FAIRSIM_PROP_SCALE` (a factor on every test's case count). Unset, the cases are CI's.
pub fn fixed_config(cases: u32, seed: u64) -> Config {
    widened(Config {
        cases,
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    })
}

/// `config` widened by `FAIRSIM_PROP_SEED` and `FAIRSIM_PROP_SCALE` (see [`fixed_config`]),
/// the rest of it kept: a test that replays a regressions file keeps replaying it.
pub fn widened(config: Config) -> Config {
    let mix = env_u64("FAIRSIM_PROP_SEED").unwrap_or(0);
    let scale = env_u64("FAIRSIM_PROP_SCALE").unwrap_or(1).max(1);
    let cases = u32::try_from(u64::from(config.cases).saturating_mul(scale)).unwrap_or(u32::MAX);
    // Mixed through a multiply, so seeds one apart draw unrelated cases.
    let rng_seed = match config.rng_seed {
        RngSeed::Fixed(seed) => RngSeed::Fixed(seed ^ mix.wrapping_mul(0x9e37_79b9_7f4a_7c15)),
        random => random,
    };
    Config {
        cases,
        rng_seed,
        ..config
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

/// The era a generated case's flag picks: Hadoop 3.3 when set, else 2.7.
pub fn era(era33: bool) -> Semantics {
    if era33 {
        Semantics::Hadoop33
    } else {
        Semantics::Hadoop27
    }
}

/// The ordering a generated case's flag picks: Hadoop's re-sorting when set, else
/// fairsim's incremental one.
pub fn ordering(naive: bool) -> Ordering {
    if naive {
        Ordering::Naive
    } else {
        Ordering::Incremental
    }
}
