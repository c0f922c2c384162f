//! The plan of a sweep: axes crossed with each other, then with seeds, flattened into run indices `0..n_runs`.
//!
//! Run `i` belongs to axis point `i / n_seeds` and uses seed `seeds[i % n_seeds]`; axis points are numbered in
//! mixed radix with the first axis varying slowest. The numbering depends only on the sweep file, so shards and
//! resumed sweeps agree on what run `i` is.

use super::param_path::{type_name, value_cell};
use super::spec::{Axis, Spec};

/// The runs of a sweep, by index.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The axes, first varying slowest.
    pub axes: Vec<Axis>,
    /// The seeds of every axis point.
    pub seeds: Vec<u64>,
    /// Identifies the sweep's runs (base scenario, axes, seeds): shards and journals of different sweeps never mix.
    pub fingerprint: String,
}

impl Plan {
    /// The plan of a validated sweep.
    pub fn new(spec: &Spec) -> Plan {
        let mut h = Fnv1a::default();
        h.write(spec.base_text.as_bytes());
        for axis in &spec.axes {
            h.write(b"\0axis\0");
            h.write(axis.path.as_bytes());
            for v in &axis.values {
                h.write(b"\0");
                h.write(type_name(v).as_bytes());
                h.write(value_cell(v).as_bytes());
            }
        }
        h.write(b"\0seeds\0");
        for s in &spec.seeds {
            h.write(&s.to_le_bytes());
        }
        Plan {
            axes: spec.axes.clone(),
            seeds: spec.seeds.clone(),
            fingerprint: format!("{:016x}", h.0),
        }
    }

    /// Number of axis points (1 when there are no axes).
    pub fn n_points(&self) -> u64 {
        self.axes.iter().map(|a| a.values.len() as u64).product()
    }

    /// Number of runs: axis points times seeds.
    pub fn n_runs(&self) -> u64 {
        self.n_points() * self.seeds.len() as u64
    }

    /// The seed of run `run_index`.
    pub fn seed(&self, run_index: u64) -> u64 {
        self.seeds[(run_index % self.seeds.len() as u64) as usize]
    }

    /// For each axis, the index of the value run `run_index` uses.
    pub fn value_indices(&self, run_index: u64) -> Vec<usize> {
        let mut point = run_index / self.seeds.len() as u64;
        let mut idx = vec![0; self.axes.len()];
        for (slot, axis) in idx.iter_mut().zip(&self.axes).rev() {
            let n = axis.values.len() as u64;
            *slot = (point % n) as usize;
            point /= n;
        }
        idx
    }

    /// The axis values of run `run_index`, as CSV cells.
    pub fn value_cells(&self, run_index: u64) -> Vec<String> {
        self.value_indices(run_index)
            .iter()
            .zip(&self.axes)
            .map(|(&i, a)| value_cell(&a.values[i]))
            .collect()
    }

    /// The scenario of run `run_index`: the base with each axis value written at its path.
    pub fn scenario(&self, base: &toml::Value, run_index: u64) -> toml::Value {
        let mut scenario = base.clone();
        for (&i, axis) in self.value_indices(run_index).iter().zip(&self.axes) {
            let written = axis.param.set(&mut scenario, axis.values[i].clone());
            assert!(written, "axis paths were checked against the base scenario");
        }
        scenario
    }
}

/// 64-bit FNV-1a, a small stable hash for fingerprints (std's hashers are not promised stable).
#[derive(Debug)]
pub(crate) struct Fnv1a(pub(crate) u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
