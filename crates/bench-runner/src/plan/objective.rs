//! Service-level objectives and the test that decides whether one holds at a candidate.
//!
//! The test is a one-sided Student-t confidence bound on the mean over the seeds: with `n` seeds of mean `m` and
//! sample standard deviation `s`, an `at_most B` objective holds when `m + t(c, n-1) · s / √n ≤ B` and an
//! `at_least B` objective when `m − t(c, n-1) · s / √n ≥ B`, `c` being the plan's confidence level. With one seed
//! the bound is that seed's value. An `equal` objective holds only when every seed gives exactly the value. A seed
//! whose run does not report the metric (a queue with no finished app has no wait percentiles) makes the
//! objective fail at that candidate: nothing is assumed about a number that was not measured.

use crate::results::fmt_f64;
use crate::stats::student_t_quantile;

/// How a metric is compared with its bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Comparison {
    /// The metric must not exceed the bound.
    AtMost,
    /// The metric must reach the bound.
    AtLeast,
    /// The metric must equal the bound on every seed.
    Equal,
}

impl Comparison {
    /// The operator as printed: `<=`, `>=`, `=`.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::AtMost => "<=",
            Comparison::AtLeast => ">=",
            Comparison::Equal => "=",
        }
    }

    /// The key that introduces it in a plan file.
    pub fn key(self) -> &'static str {
        match self {
            Comparison::AtMost => "at_most",
            Comparison::AtLeast => "at_least",
            Comparison::Equal => "equal",
        }
    }
}

/// One objective of a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Objective {
    /// The metric as the catalogue names it (`wait_s_p95`).
    pub metric: String,
    /// The queue's full name, or `None` for the whole cluster.
    pub queue: Option<String>,
    /// How the metric is compared.
    pub comparison: Comparison,
    /// The bound.
    pub bound: f64,
}

/// Whether an objective held at one candidate, and by how much.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// Mean over the seeds (NaN when a seed lacks the metric).
    pub mean: f64,
    /// The value compared with the bound: the one-sided confidence bound of the mean (the mean itself for
    /// `equal`); NaN when a seed lacks the metric.
    pub value: f64,
    /// Whether the objective held.
    pub held: bool,
    /// How far inside the bound `value` is (negative: outside). For `equal`: minus the largest distance of a
    /// seed from the bound.
    pub margin: f64,
}

impl Objective {
    /// The metric's name in run summaries: `wait_s_p95.root.etl`, or `jain_index` for the cluster.
    pub fn column(&self) -> String {
        match &self.queue {
            Some(q) => format!("{}.{q}", self.metric),
            None => self.metric.clone(),
        }
    }

    /// `wait_s_p95 of root.etl`, or `jain_index`.
    pub fn label(&self) -> String {
        match &self.queue {
            Some(q) => format!("{} of {q}", self.metric),
            None => self.metric.clone(),
        }
    }

    /// The objective as a formula: `wait_s_p95 of root.etl <= 300 s`.
    pub fn formula(&self) -> String {
        format!(
            "{} {} {}",
            self.label(),
            self.comparison.symbol(),
            with_unit(&self.metric, self.bound)
        )
    }

    /// Judges the per-seed values (`None`: the run did not report the metric) at `confidence`.
    pub fn judge(&self, samples: &[Option<f64>], confidence: f64) -> Verdict {
        let values: Option<Vec<f64>> = samples.iter().copied().collect();
        let Some(values) = values.filter(|v| !v.is_empty() && v.iter().all(|x| x.is_finite()))
        else {
            return Verdict {
                mean: f64::NAN,
                value: f64::NAN,
                held: false,
                margin: f64::NEG_INFINITY,
            };
        };
        let n = values.len();
        let mean = values.iter().sum::<f64>() / n as f64;
        let half = if n < 2 {
            0.0
        } else {
            let ss: f64 = values.iter().map(|x| (x - mean) * (x - mean)).sum();
            let sd = (ss / (n - 1) as f64).sqrt();
            student_t_quantile(confidence, (n - 1) as f64) * sd / (n as f64).sqrt()
        };
        let (value, margin) = match self.comparison {
            Comparison::AtMost => (mean + half, self.bound - (mean + half)),
            Comparison::AtLeast => (mean - half, (mean - half) - self.bound),
            Comparison::Equal => {
                let worst = values
                    .iter()
                    .map(|x| (x - self.bound).abs())
                    .fold(0.0, f64::max);
                (mean, -worst)
            }
        };
        let held = match self.comparison {
            Comparison::Equal => margin == 0.0,
            _ => margin >= 0.0,
        };
        Verdict {
            mean,
            value,
            held,
            margin,
        }
    }

    /// The margin relative to the bound (absolute when the bound is 0), to compare objectives of different units.
    pub fn relative_margin(&self, v: &Verdict) -> f64 {
        if self.bound == 0.0 {
            v.margin
        } else {
            v.margin / self.bound.abs()
        }
    }
}

/// A metric value with the unit the catalogue gives it: `291 s`, `0.93`.
pub fn with_unit(metric: &str, x: f64) -> String {
    use fairsim_sim::catalogue::{Unit, lookup};
    let text = fmt_f64(round_for_text(x));
    let unit = match lookup(metric).map(|m| m.metric.unit) {
        Some(Unit::Seconds) => " s",
        Some(Unit::Milliseconds) => " ms",
        Some(Unit::Megabytes) => " MB",
        Some(Unit::Vcores) => " vcores",
        Some(Unit::AppsPerHour) => " apps/h",
        _ => "",
    };
    format!("{text}{unit}")
}

/// Four significant digits for sentences (files keep every digit).
fn round_for_text(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let digits = 4 - 1 - x.abs().log10().floor() as i32;
    let scale = 10f64.powi(digits.clamp(-300, 300));
    (x * scale).round() / scale
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(comparison: Comparison, bound: f64) -> Objective {
        Objective {
            metric: "wait_s_p95".into(),
            queue: Some("root.etl".into()),
            comparison,
            bound,
        }
    }

    #[test]
    fn at_most_uses_the_upper_confidence_bound_of_the_mean() {
        // mean 10, sd 2, n 4: t(0.95, 3) = 2.353363, half-width 2.353363.
        let s = [Some(8.0), Some(10.0), Some(10.0), Some(12.0)];
        let sd = (8.0f64 / 3.0).sqrt();
        let upper = 10.0 + 2.353_363_435 * sd / 2.0;
        let v = obj(Comparison::AtMost, 12.0).judge(&s, 0.95);
        assert!((v.value - upper).abs() < 1e-6, "{}", v.value);
        assert!(v.held);
        assert!(!obj(Comparison::AtMost, 11.9).judge(&s, 0.95).held);
        // A higher confidence needs more room.
        assert!(!obj(Comparison::AtMost, 12.0).judge(&s, 0.99).held);
        let low = obj(Comparison::AtLeast, 8.0).judge(&s, 0.95);
        assert!((low.value - (20.0 - upper)).abs() < 1e-6 && low.held);
    }

    #[test]
    fn equal_needs_every_seed_and_missing_metrics_fail() {
        let e = obj(Comparison::Equal, 0.0);
        assert!(e.judge(&[Some(0.0), Some(0.0)], 0.95).held);
        let v = e.judge(&[Some(0.0), Some(1.0)], 0.95);
        assert!(!v.held && v.margin == -1.0);
        let m = obj(Comparison::AtMost, 1e9).judge(&[Some(1.0), None], 0.95);
        assert!(!m.held && m.value.is_nan());
        let one = obj(Comparison::AtMost, 5.0).judge(&[Some(5.0)], 0.95);
        assert!(one.held && one.value == 5.0);
    }

    #[test]
    fn sentences_round_and_carry_units() {
        assert_eq!(
            obj(Comparison::AtMost, 300.0).formula(),
            "wait_s_p95 of root.etl <= 300 s"
        );
        assert_eq!(with_unit("wait_s_p95", 291.23456), "291.2 s");
        assert_eq!(with_unit("jain_index", 0.912345), "0.9123");
    }
}
