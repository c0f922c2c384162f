//! Service-level objectives and the test that decides whether one holds at a candidate.
//!
//! The test is a one-sided Student-t confidence bound on the mean over the seeds: with `n` seeds of mean `m` and
//! sample standard deviation `s`, an `at_most B` objective holds when `m + t(c, n-1) · s / √n ≤ B` and an
//! `at_least B` objective when `m − t(c, n-1) · s / √n ≥ B`, `c` being the plan's confidence level. With one seed
//! the bound is that seed's value. An `equal` objective holds only when every seed gives exactly the value.
//!
//! A number is trusted only where it measures what it names. A seed whose run does not report the metric (a
//! queue with no app has no wait percentiles) fails the objective: nothing is assumed about a number that was
//! not measured. A run that stalled fails every objective of its candidate: its apps never finish, whatever its
//! numbers say. So does a run that left apps unfinished, unless the plan allows it (`unfinished_apps`). A
//! percentile flagged censored is a lower bound: it cannot show that an `at_most` or `equal` objective holds
//! (the true value may be above the bound), though it can show that an `at_most` fails. A metric that counts
//! finished apps only (makespan, throughput) says nothing of a run with unfinished apps.

use crate::results::fmt_f64;
use crate::stats::{mean, sd, student_t_quantile};

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
    /// Why it did not hold (`None` when it held).
    pub why: Option<Why>,
    /// Whether the objective fails on its own numbers (missed, not reported, a lower bound, finished apps
    /// only), as opposed to only through the candidate's stalled or unfinished runs: the objectives that
    /// fail on their own at the answer's lower neighbour are those that decided it.
    pub failed_alone: bool,
}

/// Why an objective did not hold at a candidate. Counts are of the candidate's seeds (one run each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    /// The compared value is outside the bound.
    Missed,
    /// Seeds whose run did not report the metric.
    NotReported(usize),
    /// Runs that stalled: their apps never finish, so no objective is met.
    Stalled(usize),
    /// Runs that left apps unfinished, with `unfinished_apps = "fail"` (the default).
    Unfinished(usize),
    /// Seeds whose value is a censored percentile (a lower bound) where a lower bound could hide a violation.
    LowerBound(usize),
    /// Seeds whose value counts finished apps only while the run left apps unfinished.
    FinishedOnly(usize),
}

impl Why {
    /// A short account for tables and CSV cells: `3 of 5 runs stalled`, `a lower bound on 1 of 2 seeds`.
    pub fn text(self, n: usize) -> String {
        let seeds = |k: usize| format!("{k} of {n} seed{}", if n == 1 { "" } else { "s" });
        let runs = |k: usize| format!("{k} of {n} run{}", if n == 1 { "" } else { "s" });
        match self {
            Why::Missed => "bound missed".into(),
            Why::NotReported(k) => format!("not reported on {}", seeds(k)),
            Why::Stalled(k) => format!("{} stalled", runs(k)),
            Why::Unfinished(k) => format!("{} left apps unfinished", runs(k)),
            Why::LowerBound(k) => format!("a lower bound on {}", seeds(k)),
            Why::FinishedOnly(k) => format!(
                "counts finished apps only; {} left apps unfinished",
                runs(k)
            ),
        }
    }
}

/// What one seed's run says of an objective's metric.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Observation {
    /// The metric's value (`None`: the run did not report it).
    pub value: Option<f64>,
    /// The value is a censored percentile: a lower bound (`M_censored` = 1).
    pub lower_bound: bool,
    /// The run stalled.
    pub stalled: bool,
    /// The run left apps unfinished (`apps_unfinished` > 0).
    pub unfinished: bool,
}

impl Observation {
    /// A measured, exact value from a run that finished every app.
    pub fn exact(x: f64) -> Observation {
        Observation {
            value: Some(x),
            ..Observation::default()
        }
    }
}

/// Metrics that count finished apps only (the catalogue's "finished apps only"): with apps unfinished they
/// describe the survivors, not the workload.
pub const FINISHED_ONLY: [&str; 4] = [
    "makespan_s",
    "throughput_apps_per_hour",
    "runtime_ratio_p50",
    "runtime_ratio_p95",
];

impl Objective {
    /// The metric's name in run summaries: `wait_s_p95.root.etl`, or `jain_index` for the cluster.
    pub fn column(&self) -> String {
        match &self.queue {
            Some(q) => format!("{}.{q}", self.metric),
            None => self.metric.clone(),
        }
    }

    /// The column of the flag saying the metric is a censored percentile (`wait_s_p95_censored.root.etl`);
    /// runs report it for percentiles only.
    pub fn censored_column(&self) -> String {
        match &self.queue {
            Some(q) => format!("{}_censored.{q}", self.metric),
            None => format!("{}_censored", self.metric),
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

    /// Judges the seeds' observations at `confidence`; `require_finished` fails a run that left apps unfinished.
    pub fn judge(&self, obs: &[Observation], confidence: f64, require_finished: bool) -> Verdict {
        let count = |f: &dyn Fn(&Observation) -> bool| obs.iter().filter(|o| f(o)).count();
        let values: Option<Vec<f64>> = obs.iter().map(|o| o.value).collect();
        let values = values.filter(|v| !v.is_empty() && v.iter().all(|x| x.is_finite()));
        let (mean, value, margin) = match &values {
            None => (f64::NAN, f64::NAN, f64::NEG_INFINITY),
            Some(values) => self.compare(values, confidence),
        };
        let n_lower = count(&|o| o.lower_bound);
        let finished_only = FINISHED_ONLY.contains(&self.metric.as_str());
        let n_partial = if finished_only {
            count(&|o| o.unfinished)
        } else {
            0
        };
        // The objective's own failure, before the candidate's runs are looked at.
        let own = if values.is_none() {
            Some(Why::NotReported(count(&|o| {
                !o.value.is_some_and(f64::is_finite)
            })))
        } else if n_partial > 0 {
            Some(Why::FinishedOnly(n_partial))
        } else {
            match self.comparison {
                // A lower bound already above the bound is a certain miss.
                Comparison::AtMost if margin < 0.0 => Some(Why::Missed),
                Comparison::AtMost | Comparison::Equal if n_lower > 0 => {
                    Some(Why::LowerBound(n_lower))
                }
                Comparison::Equal if margin != 0.0 => Some(Why::Missed),
                Comparison::AtLeast if margin < 0.0 => Some(Why::Missed),
                _ => None,
            }
        };
        let n_stalled = count(&|o| o.stalled);
        let n_unfinished = count(&|o| o.unfinished);
        let runs = if n_stalled > 0 {
            Some(Why::Stalled(n_stalled))
        } else if require_finished && n_unfinished > 0 {
            Some(Why::Unfinished(n_unfinished))
        } else {
            None
        };
        let why = match own {
            Some(Why::NotReported(k)) => Some(Why::NotReported(k)),
            other => runs.or(other),
        };
        Verdict {
            mean,
            value,
            held: why.is_none(),
            margin,
            why,
            failed_alone: own.is_some(),
        }
    }

    /// `(mean, compared value, margin)` of finite per-seed values.
    fn compare(&self, values: &[f64], confidence: f64) -> (f64, f64, f64) {
        let n = values.len();
        let m = mean(values);
        // A zero spread gives the mean itself: identical seeds are exact, never t · 0 noise.
        let half = match sd(values, m) {
            Some(s) if s > 0.0 => {
                student_t_quantile(confidence, (n - 1) as f64) * s / (n as f64).sqrt()
            }
            _ => 0.0,
        };
        match self.comparison {
            Comparison::AtMost => (m, m + half, self.bound - (m + half)),
            Comparison::AtLeast => (m, m - half, (m - half) - self.bound),
            Comparison::Equal => {
                let worst = values
                    .iter()
                    .map(|x| (x - self.bound).abs())
                    .fold(0.0, f64::max);
                (m, m, -worst)
            }
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

    /// How close to holding the objective is, to rank candidates and objectives that fail: its relative margin
    /// when its value is trusted, minus infinity when it is not (stalled or unfinished runs, a lower bound,
    /// finished apps only, not reported), since such a number says nothing of how far the bound is.
    pub fn closeness(&self, v: &Verdict) -> f64 {
        match v.why {
            None | Some(Why::Missed) => {
                let m = self.relative_margin(v);
                if m.is_nan() { f64::NEG_INFINITY } else { m }
            }
            Some(_) => f64::NEG_INFINITY,
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
    // Divide or multiply by an exact power of ten (never by 0.1, which is not one), so the result is the
    // double nearest the rounded decimal and prints as it: 123500, not 123500.00000000001.
    if digits >= 0 {
        let scale = 10f64.powi(digits.min(300));
        (x * scale).round() / scale
    } else {
        let scale = 10f64.powi((-digits).min(300));
        (x / scale).round() * scale
    }
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

    fn exact(xs: &[f64]) -> Vec<Observation> {
        xs.iter().map(|&x| Observation::exact(x)).collect()
    }

    #[test]
    fn at_most_uses_the_upper_confidence_bound_of_the_mean() {
        // mean 10, sd 2, n 4: t(0.95, 3) = 2.353363, half-width 2.353363.
        let s = exact(&[8.0, 10.0, 10.0, 12.0]);
        let sd = (8.0f64 / 3.0).sqrt();
        let upper = 10.0 + 2.353_363_435 * sd / 2.0;
        let v = obj(Comparison::AtMost, 12.0).judge(&s, 0.95, true);
        assert!((v.value - upper).abs() < 1e-6, "{}", v.value);
        assert!(v.held);
        assert!(!obj(Comparison::AtMost, 11.9).judge(&s, 0.95, true).held);
        // A higher confidence needs more room.
        assert!(!obj(Comparison::AtMost, 12.0).judge(&s, 0.99, true).held);
        let low = obj(Comparison::AtLeast, 8.0).judge(&s, 0.95, true);
        assert!((low.value - (20.0 - upper)).abs() < 1e-6 && low.held);
    }

    #[test]
    fn equal_needs_every_seed_and_missing_metrics_fail() {
        let e = obj(Comparison::Equal, 0.0);
        assert!(e.judge(&exact(&[0.0, 0.0]), 0.95, true).held);
        let v = e.judge(&exact(&[0.0, 1.0]), 0.95, true);
        assert!(!v.held && v.margin == -1.0 && v.why == Some(Why::Missed));
        let missing = [Observation::exact(1.0), Observation::default()];
        let m = obj(Comparison::AtMost, 1e9).judge(&missing, 0.95, true);
        assert!(!m.held && m.value.is_nan() && m.why == Some(Why::NotReported(1)));
        let one = obj(Comparison::AtMost, 5.0).judge(&exact(&[5.0]), 0.95, true);
        assert!(one.held && one.value == 5.0);
    }

    /// Three seeds of 0.925 s: the mean and bound are 0.925 itself, so `at_most 0.925` holds with three seeds
    /// as with one (a running sum made them 0.9250000000000002 and 0.9250000000000004).
    #[test]
    fn identical_seeds_are_exact_ties() {
        let o = obj(Comparison::AtMost, 0.925);
        for n in [1, 3, 5] {
            let v = o.judge(&exact(&vec![0.925; n]), 0.95, true);
            assert_eq!(
                (v.mean, v.value, v.margin, v.held),
                (0.925, 0.925, 0.0, true),
                "{n} seeds"
            );
        }
        let v = obj(Comparison::AtLeast, 0.925).judge(&exact(&[0.925; 3]), 0.95, true);
        assert!(v.held && v.value == 0.925);
    }

    #[test]
    fn stalled_runs_and_lower_bounds_are_never_trusted() {
        let at_most = obj(Comparison::AtMost, 250.0);
        // The stalled run's 1.5 s is a censored lower bound, far under the bound.
        let stalled = Observation {
            value: Some(1.5),
            lower_bound: true,
            stalled: true,
            unfinished: true,
        };
        let v = at_most.judge(&[stalled], 0.95, true);
        assert_eq!(
            (v.held, v.why, v.failed_alone),
            (false, Some(Why::Stalled(1)), true)
        );
        // Without a stall, a lower bound cannot show an at_most holds, but one above the bound shows it fails.
        let cut = Observation {
            stalled: false,
            ..stalled
        };
        let v = at_most.judge(&[cut, Observation::exact(2.0)], 0.95, false);
        assert_eq!((v.held, v.why), (false, Some(Why::LowerBound(1))));
        let over = Observation {
            value: Some(300.0),
            ..cut
        };
        assert_eq!(at_most.judge(&[over], 0.95, false).why, Some(Why::Missed));
        // A lower bound at or above an at_least bound cannot hide a violation.
        let at_least = obj(Comparison::AtLeast, 1.0);
        assert!(at_least.judge(&[cut], 0.95, false).held);
        assert_eq!(
            at_least.judge(&[cut], 0.95, true).why,
            Some(Why::Unfinished(1))
        );
        // A runs-only failure: the objective's own numbers hold.
        let v = at_least.judge(&[cut], 0.95, true);
        assert!(!v.failed_alone);
    }

    #[test]
    fn finished_only_metrics_fail_with_unfinished_apps() {
        let makespan = Objective {
            metric: "makespan_s".into(),
            queue: None,
            comparison: Comparison::AtMost,
            bound: 250.0,
        };
        let partial = Observation {
            value: Some(0.0),
            unfinished: true,
            ..Observation::default()
        };
        let v = makespan.judge(&[partial], 0.95, false);
        assert_eq!((v.held, v.why), (false, Some(Why::FinishedOnly(1))));
        assert!(makespan.judge(&[Observation::exact(0.0)], 0.95, true).held);
        // The list is the catalogue's: every metric that counts finished apps only, and no other.
        let catalogued: Vec<&str> = fairsim_sim::catalogue::METRICS
            .iter()
            .filter(|m| m.unfinished.starts_with("finished apps"))
            .map(|m| m.name)
            .collect();
        assert_eq!(catalogued, FINISHED_ONLY);
    }

    #[test]
    fn sentences_round_and_carry_units() {
        assert_eq!(
            obj(Comparison::AtMost, 300.0).formula(),
            "wait_s_p95 of root.etl <= 300 s"
        );
        assert_eq!(with_unit("wait_s_p95", 291.23456), "291.2 s");
        assert_eq!(with_unit("jain_index", 0.912345), "0.9123");
        // Four significant digits of large values, scaled by an exact power of ten.
        for (x, text) in [
            (123_456.7, "123500 s"),
            (98_765.0, "98770 s"),
            (0.3, "0.3 s"),
        ] {
            assert_eq!(with_unit("wait_s_p95", x), text);
        }
    }
}
