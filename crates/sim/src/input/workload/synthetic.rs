//! The synthetic workload generator: per-queue Poisson arrivals, sizes and durations drawn
//! from constant, exponential, lognormal or Pareto distributions, on one `ChaCha8Rng` per
//! run seeded from the seed alone (see [`workload_rng`]), so every point of a sweep replays
//! the same workload for the same seed (common random numbers).
//!
//! Queues are generated one after the other from the same stream, then merged by arrival
//! (ties keep queue order), so a spec and a seed give the same apps on every machine.

use crate::app::{AppSpec, TaskGroup};
use crate::time::SimTime;
use fairsim_core::Resource;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;

/// The workload's random stream: ChaCha8 keyed by the seed alone (the key's 32 bytes are
/// `seed`, little-endian, then zeros). It does not depend on the run index: two sweep points
/// with the same seed draw the same apps, so their difference is the setting's effect alone.
pub fn workload_rng(seed: u64) -> ChaCha8Rng {
    run_rng(seed, 0)
}

/// A run's own random stream, keyed by the seed and the run index (the key's 32 bytes are
/// `seed` then `run_index`, little-endian, then zeros): for randomness of the scheduler
/// itself, which must differ between the runs of a sweep. No scheduler rule draws from it
/// today; workloads never do ([`workload_rng`]).
pub fn run_rng(seed: u64, run_index: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key[8..16].copy_from_slice(&run_index.to_le_bytes());
    ChaCha8Rng::from_seed(key)
}

const TASK_CAP: f64 = crate::limits::MAX_GROUP_CONTAINERS as f64;
const TIME_CAP: f64 = crate::limits::MAX_TIME_MS as f64;

/// A uniform draw in (0, 1).
pub(crate) fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A distribution of a positive quantity.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(tag = "dist", rename_all = "lowercase", deny_unknown_fields)]
pub enum Dist {
    /// Always `value`.
    Constant {
        /// The value.
        value: f64,
    },
    /// Exponential with mean `mean`.
    Exponential {
        /// Mean.
        mean: f64,
    },
    /// Lognormal with median `median` and log-space standard deviation `sigma`.
    Lognormal {
        /// Median (e^mu).
        median: f64,
        /// Sigma.
        sigma: f64,
        /// Optional cap.
        #[serde(default)]
        max: Option<f64>,
    },
    /// Pareto with minimum `scale` and tail index `shape`.
    Pareto {
        /// Minimum value.
        scale: f64,
        /// Tail index (alpha).
        shape: f64,
        /// Optional cap.
        #[serde(default)]
        max: Option<f64>,
    },
}

impl Dist {
    /// One draw.
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> f64 {
        match *self {
            Dist::Constant { value } => value,
            Dist::Exponential { mean } => -mean * uniform(rng).ln(),
            Dist::Lognormal { median, sigma, max } => {
                // Box-Muller, one normal per two uniforms.
                let (u1, u2) = (uniform(rng), uniform(rng));
                let z = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
                let x = median * (sigma * z).exp();
                max.map_or(x, |m| x.min(m))
            }
            Dist::Pareto { scale, shape, max } => {
                let x = scale / uniform(rng).powf(1.0 / shape);
                max.map_or(x, |m| x.min(m))
            }
        }
    }

    fn validate(&self) -> Result<(), String> {
        let ok = match *self {
            Dist::Constant { value } => value >= 0.0,
            Dist::Exponential { mean } => mean > 0.0,
            Dist::Lognormal { median, sigma, .. } => median > 0.0 && sigma >= 0.0,
            Dist::Pareto { scale, shape, .. } => scale > 0.0 && shape > 0.0,
        };
        if ok && self_finite(self) {
            Ok(())
        } else {
            Err(format!("bad distribution parameters: {self:?}"))
        }
    }
}

fn self_finite(d: &Dist) -> bool {
    match *d {
        Dist::Constant { value } => value.is_finite(),
        Dist::Exponential { mean } => mean.is_finite(),
        Dist::Lognormal { median, sigma, .. } => median.is_finite() && sigma.is_finite(),
        Dist::Pareto { scale, shape, .. } => scale.is_finite() && shape.is_finite(),
    }
}

/// One queue's stream of apps.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueStream {
    /// Queue to submit to.
    pub queue: String,
    /// User (default: the queue name).
    #[serde(default)]
    pub user: Option<String>,
    /// Several users named `<user>_<k>`, chosen uniformly (default 1: just `user`).
    #[serde(default = "one")]
    pub users: u32,
    /// Number of apps.
    pub apps: u32,
    /// Mean time between arrivals (Poisson process), ms.
    pub mean_interarrival_ms: f64,
    /// First arrival no earlier than this, ms.
    #[serde(default)]
    pub start_ms: u64,
    /// Tasks per app in the first stage (rounded, at least 1).
    pub tasks: Dist,
    /// Task duration, ms.
    pub duration_ms: Dist,
    /// Container memory, MB.
    #[serde(default = "default_mb")]
    pub container_mb: i64,
    /// Container vcores.
    #[serde(default = "one_i64")]
    pub container_vcores: i64,
    /// Whether apps have an AM (default true).
    #[serde(default = "yes")]
    pub am: bool,
    /// AM memory, MB.
    #[serde(default = "default_mb")]
    pub am_mb: i64,
    /// AM vcores.
    #[serde(default = "one_i64")]
    pub am_vcores: i64,
    /// Optional second stage: tasks per app.
    #[serde(default)]
    pub reduces: Option<Dist>,
    /// Second-stage task duration (default: `duration_ms`).
    #[serde(default)]
    pub reduce_duration_ms: Option<Dist>,
}

fn one() -> u32 {
    1
}
fn one_i64() -> i64 {
    1
}
fn yes() -> bool {
    true
}
fn default_mb() -> i64 {
    1024
}

/// A synthetic workload: one stream per queue.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyntheticSpec {
    /// The streams.
    pub queues: Vec<QueueStream>,
}

impl SyntheticSpec {
    /// Checks parameters.
    pub fn validate(&self) -> Result<(), String> {
        if self.queues.is_empty() {
            return Err("no queues".into());
        }
        for q in &self.queues {
            if q.mean_interarrival_ms.is_nan() || q.mean_interarrival_ms < 0.0 {
                return Err(format!("{}: mean_interarrival_ms must be ≥ 0", q.queue));
            }
            if q.container_mb <= 0 || q.container_vcores < 0 || q.users == 0 {
                return Err(format!(
                    "{}: container size and users must be positive",
                    q.queue
                ));
            }
            q.tasks.validate()?;
            q.duration_ms.validate()?;
            if let Some(d) = &q.reduces {
                d.validate()?;
            }
            if let Some(d) = &q.reduce_duration_ms {
                d.validate()?;
            }
        }
        Ok(())
    }

    /// Draws the apps of one run, sorted by arrival.
    pub fn generate(&self, rng: &mut ChaCha8Rng) -> Vec<AppSpec> {
        let mut apps = Vec::new();
        for q in &self.queues {
            let mut t = q.start_ms as f64;
            let size = Resource::new(q.container_mb, q.container_vcores);
            let user = q.user.clone().unwrap_or_else(|| q.queue.clone());
            for _ in 0..q.apps {
                t += Dist::Exponential {
                    mean: q.mean_interarrival_ms.max(1e-9),
                }
                .sample(rng);
                // Draws of unbounded distributions are capped at the limits of their keys
                // (docs/limits.md), which the checked parameters keep far from typical draws.
                let n = q.tasks.sample(rng).round().clamp(1.0, TASK_CAP) as u32;
                let d = q.duration_ms.sample(rng).round().clamp(1.0, TIME_CAP) as u64;
                let mut stages = vec![vec![TaskGroup {
                    count: n,
                    size,
                    duration_ms: d,
                    priority: 20,
                    hosts: Vec::new(),
                    relax_locality: true,
                }]];
                if let Some(r) = &q.reduces {
                    let nr = r.sample(rng).round().clamp(1.0, TASK_CAP) as u32;
                    let dr = q
                        .reduce_duration_ms
                        .as_ref()
                        .unwrap_or(&q.duration_ms)
                        .sample(rng)
                        .round()
                        .clamp(1.0, TIME_CAP) as u64;
                    stages.push(vec![TaskGroup {
                        count: nr,
                        size,
                        duration_ms: dr,
                        priority: 10,
                        hosts: Vec::new(),
                        relax_locality: true,
                    }]);
                }
                let user = if q.users > 1 {
                    format!("{user}_{}", rng.next_u64() % q.users as u64)
                } else {
                    user.clone()
                };
                apps.push(AppSpec {
                    name: String::new(),
                    arrival: SimTime(t.round().min(TIME_CAP) as u64),
                    queue: q.queue.clone(),
                    user,
                    am: q.am.then_some(Resource::new(q.am_mb, q.am_vcores)),
                    stages,
                    recorded: None,
                });
            }
        }
        apps.sort_by_key(|a| a.arrival);
        for (i, a) in apps.iter_mut().enumerate() {
            a.name = format!("app_{i}");
        }
        apps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_apps_and_another_seed_changes_them() {
        let spec = SyntheticSpec {
            queues: vec![QueueStream {
                queue: "a".into(),
                user: None,
                users: 3,
                apps: 50,
                mean_interarrival_ms: 1000.0,
                start_ms: 0,
                tasks: Dist::Lognormal {
                    median: 5.0,
                    sigma: 1.0,
                    max: Some(100.0),
                },
                duration_ms: Dist::Pareto {
                    scale: 1000.0,
                    shape: 1.5,
                    max: None,
                },
                container_mb: 1024,
                container_vcores: 1,
                am: true,
                am_mb: 1024,
                am_vcores: 1,
                reduces: None,
                reduce_duration_ms: None,
            }],
        };
        let a = spec.generate(&mut workload_rng(7));
        let b = spec.generate(&mut workload_rng(7));
        let c = spec.generate(&mut workload_rng(8));
        assert_ne!(
            run_rng(7, 1).next_u64(),
            workload_rng(7).next_u64(),
            "the run's own stream depends on the run index"
        );
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.windows(2).all(|w| w[0].arrival <= w[1].arrival));
    }
}
