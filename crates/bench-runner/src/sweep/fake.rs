//! A deterministic stand-in runner for tests and benchmarks: metrics from a `ChaCha8Rng` and the scenario's
//! numbers, a fixed amount of CPU work per run, and an optional sleep.

use std::path::Path;
use std::time::Duration;

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::output::write_detail;
use super::{AppRecord, PointError, QueueSample, RunDetail, RunError, RunOne};

/// The metrics the fake runner reports, in order.
const METRICS: [&str; 3] = ["jain", "wait_p95_s", "checksum"];

/// Metrics that depend on the seed and on every number in the scenario, computed after `work` random draws.
#[derive(Debug, Clone, Default)]
pub struct FakeRunner {
    /// Random draws per run (CPU work): about 3 ns each in release.
    pub work: u64,
    /// Wall-clock sleep per run, to make runs slow without using CPU.
    pub sleep: Duration,
    /// A run index that fails, to test error paths.
    pub fail_run: Option<u64>,
}

/// Sum of every number in the document, each weighted by its place in key order, so each parameter matters.
fn scenario_signal(v: &toml::Value, place: &mut f64) -> f64 {
    match v {
        toml::Value::Integer(i) => {
            *place += 1.0;
            *i as f64 * *place
        }
        toml::Value::Float(x) => {
            *place += 1.0;
            x * *place
        }
        toml::Value::Array(a) => a.iter().map(|x| scenario_signal(x, place)).sum(),
        toml::Value::Table(t) => t.values().map(|x| scenario_signal(x, place)).sum(),
        _ => 0.0,
    }
}

impl FakeRunner {
    fn rng(seed: u64, run_index: u64) -> ChaCha8Rng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&run_index.to_le_bytes());
        ChaCha8Rng::from_seed(key)
    }

    fn metrics(
        &self,
        scenario: &toml::Value,
        seed: u64,
        run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        if self.fail_run == Some(run_index) {
            return Err(RunError::new("the fake runner fails this run on purpose"));
        }
        // The seed alone drives the noise, so runs that differ only by axis values share their noise.
        let mut rng = Self::rng(seed, 0);
        let mut acc = 0u64;
        for _ in 0..self.work {
            acc = acc.rotate_left(5) ^ rng.next_u64();
        }
        if !self.sleep.is_zero() {
            std::thread::sleep(self.sleep);
        }
        let x = scenario_signal(scenario, &mut 0.0);
        let noise: f64 = rng.random();
        let jain = (0.6 + 0.4 * (x * 0.37).sin().abs()) * (0.95 + 0.05 * noise);
        let wait = 30.0 + 10.0 * (x * 0.11).cos() + 8.0 * noise;
        Ok(METRICS
            .iter()
            .map(|m| m.to_string())
            .zip([jain, wait, (acc >> 11) as f64])
            .collect())
    }
}

impl RunOne for FakeRunner {
    fn check_point(&self, _: &toml::Value, _: &Path, metrics: &[&str]) -> Result<(), PointError> {
        match metrics.iter().position(|m| !METRICS.contains(m)) {
            Some(index) => Err(PointError::Metric {
                index,
                message: format!("not among the runs' metrics ({})", METRICS.join(", ")),
            }),
            None => Ok(()),
        }
    }

    fn run_one(
        &self,
        scenario: &toml::Value,
        _: &Path,
        seed: u64,
        run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        self.metrics(scenario, seed, run_index)
    }

    fn run_detailed(
        &self,
        scenario: &toml::Value,
        _: &Path,
        seed: u64,
        run_index: u64,
        detail_dir: &Path,
    ) -> Result<Vec<(String, f64)>, RunError> {
        let metrics = self.metrics(scenario, seed, run_index)?;
        let mut rng = Self::rng(seed, run_index + 1);
        let queues = ["root.etl", "root.adhoc", "root.ml"];
        let mut detail = RunDetail::default();
        for step in 0..=120 {
            let t = step as f64 * 5.0;
            for (q, name) in queues.iter().enumerate() {
                let fair = 4096.0 * (q as f64 + 1.0);
                let wobble =
                    (t / (60.0 + 20.0 * q as f64)).sin() * 0.4 + (rng.random::<f64>() - 0.5) * 0.2;
                detail.queues.push(QueueSample {
                    time_s: t,
                    queue: name.to_string(),
                    usage_mb: (fair * (1.0 + wobble)).max(0.0).round(),
                    fair_share_mb: fair,
                });
            }
        }
        for a in 0..90 {
            let q = a % queues.len();
            let wait = -(1.0 - rng.random::<f64>()).ln() * 20.0 * (q as f64 + 1.0);
            let run = 60.0 + rng.random::<f64>() * 240.0;
            detail.apps.push(AppRecord {
                app: format!("app_{a:04}"),
                queue: queues[q].to_string(),
                wait_s: wait,
                completion_s: wait + run,
            });
        }
        write_detail(detail_dir, &detail).map_err(|e| RunError::new(e.to_string()))?;
        Ok(metrics)
    }
}
