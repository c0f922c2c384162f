//! An application's weight: 1, or log2(1 + demand in MB) with `sizebasedweight`, times its
//! priority (always 1 under the Fair Scheduler), optionally boosted while young.
//!
//! The booster is the seeds' "factor 3 for 5 minutes" (Hadoop's `NewAppWeightBooster`).
//! Hadoop's class boosts apps *younger* than the duration ([`BoostWhen::First`], the default);
//! the seed documents read it as boosting apps that have run *longer* than it
//! ([`BoostWhen::After`]). YARN itself never wires the booster in; fairsim offers it as an
//! option for experiments.

use crate::Semantics;
use serde::{Deserialize, Serialize};

/// When the booster multiplies the weight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoostWhen {
    /// While the app is younger than the duration (Hadoop's `NewAppWeightBooster`).
    #[default]
    First,
    /// Once the app is at least the duration old (the seed documents' reading).
    After,
}

/// The weight booster: multiply by `factor` during one phase of an app's life.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Booster {
    /// Multiplier (Hadoop's default 3).
    #[serde(default = "Booster::default_factor")]
    pub factor: f64,
    /// Duration in ms (Hadoop's default 300 000 = 5 minutes).
    #[serde(default = "Booster::default_duration_ms")]
    pub duration_ms: u64,
    /// Which phase is boosted.
    #[serde(default)]
    pub when: BoostWhen,
}

impl Booster {
    fn default_factor() -> f64 {
        3.0
    }
    fn default_duration_ms() -> u64 {
        300_000
    }

    /// Whether an app of age `age_ms` is boosted.
    pub fn applies(&self, age_ms: u64) -> bool {
        match self.when {
            BoostWhen::First => age_ms < self.duration_ms,
            BoostWhen::After => age_ms >= self.duration_ms,
        }
    }
}

impl Default for Booster {
    fn default() -> Self {
        Booster {
            factor: 3.0,
            duration_ms: 300_000,
            when: BoostWhen::First,
        }
    }
}

/// The settings that make an app's weight.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AppWeight {
    /// The era (2.7 computes in double and rounds once; 3.3 rounds the log before the
    /// priority product).
    pub semantics: Semantics,
    /// `yarn.scheduler.fair.sizebasedweight`.
    pub size_based: bool,
    /// The optional booster.
    pub booster: Option<Booster>,
}

impl AppWeight {
    /// The weight of an app with `demand_mb` of memory demand, `priority` and age `age_ms`.
    pub fn weight(&self, demand_mb: i64, priority: i32, age_ms: u64) -> f32 {
        let base = if self.size_based {
            (demand_mb.max(0) as f64).ln_1p() / std::f64::consts::LN_2
        } else {
            1.0
        };
        let boost = match self.booster {
            Some(b) if b.applies(age_ms) => b.factor,
            _ => 1.0,
        };
        match self.semantics {
            Semantics::Hadoop27 => (base * priority as f64 * boost) as f32,
            Semantics::Hadoop33 => (base as f32) * priority as f32 * boost as f32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_based_weight_is_log2_of_one_plus_demand() {
        let w = AppWeight {
            size_based: true,
            ..AppWeight::default()
        };
        assert_eq!(w.weight(1023, 1, 0), 10.0);
        assert_eq!(w.weight(0, 1, 0), 0.0);
        assert_eq!(AppWeight::default().weight(123_456, 1, 0), 1.0);
    }

    #[test]
    fn booster_first_boosts_young_apps_and_after_boosts_old_ones() {
        let first = AppWeight {
            booster: Some(Booster::default()),
            ..AppWeight::default()
        };
        assert_eq!(first.weight(0, 1, 299_999), 3.0);
        assert_eq!(first.weight(0, 1, 300_000), 1.0);
        let after = AppWeight {
            booster: Some(Booster {
                when: BoostWhen::After,
                ..Booster::default()
            }),
            ..AppWeight::default()
        };
        assert_eq!(after.weight(0, 1, 299_999), 1.0);
        assert_eq!(after.weight(0, 1, 300_000), 3.0);
    }
}
