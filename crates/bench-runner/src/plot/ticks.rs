//! Axis ticks a reader can take in at a glance: round steps (1, 2, 2.5 or 5 times a power of
//! ten) and labels with exactly the decimals the step needs, so float noise such as
//! `0.6000000000000001` never reaches a chart.

/// Ticks covering `lo..=hi` at a round step, about `target` of them; returns the ticks and
/// the step. A degenerate range gives the single value.
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    if !lo.is_finite() || !hi.is_finite() || hi <= lo {
        return (vec![if lo.is_finite() { lo } else { 0.0 }], 1.0);
    }
    let step = nice_step((hi - lo) / target.max(1) as f64);
    (at_step(lo, hi, step), step)
}

/// [`nice_ticks`] for a quantity that takes whole values only (a node count): the step is a
/// whole number, 1 at least, and 2.5 becomes 2, so no tick falls between two values the
/// quantity can take (no "12.5 nodes").
pub fn whole_ticks(lo: f64, hi: f64, target: usize) -> (Vec<f64>, f64) {
    if !lo.is_finite() || !hi.is_finite() || hi <= lo {
        return nice_ticks(lo, hi, target);
    }
    let step = nice_step((hi - lo) / target.max(1) as f64).max(1.0).floor();
    (at_step(lo, hi, step), step)
}

/// The multiples of `step` within `lo..=hi`.
fn at_step(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The round number (1, 2, 2.5 or 5 times a power of ten) at or above `raw`.
fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 2.5 {
        2.5
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * mag
}

/// Decimals needed to tell ticks `step` apart (0 for a whole step; 2.5 needs one, or 7.5
/// would read as 8).
pub fn decimals_for(step: f64) -> usize {
    if !step.is_finite() || step <= 0.0 {
        return 0;
    }
    // 2.5e-1 needs two decimals: count until the scaled step is (nearly) whole.
    (0..=9)
        .find(|&d| {
            let s = step * 10f64.powi(d);
            (s - s.round()).abs() < 1e-6 * s.max(1.0)
        })
        .unwrap_or(9) as usize
}

/// `v` with at most `decimals` decimals, trailing zeros dropped, never `-0`.
pub fn short(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return String::new();
    }
    let mut s = format!("{v:.decimals$}");
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if s == "-0" { "0".to_string() } else { s }
}

/// A tick label at `step` spacing: short, with the decimals the step needs; thousands
/// separated by a thin space when the number is large (`80 000`).
pub fn tick_label(v: f64, step: f64) -> String {
    group_thousands(&short(v, decimals_for(step)))
}

/// A value shown on its own (heatmap cells, headlines): 3 significant digits, at most 2
/// decimals below 100, none above.
pub fn value_label(v: f64) -> String {
    if !v.is_finite() {
        return "n/a".to_string();
    }
    let a = v.abs();
    let decimals = if a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 0.01 || a == 0.0 {
        2
    } else {
        // Tiny values keep two significant digits.
        (-(a.log10().floor()) as usize + 1).min(9)
    };
    group_thousands(&short(v, decimals))
}

/// Separates thousands of the integer part with a thin space (U+2009), from 10 000 up.
fn group_thousands(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    if int.len() < 5 {
        return s.to_string();
    }
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_their_labels_short() {
        let (ticks, step) = nice_ticks(0.0, 2.0, 10);
        assert_eq!(step, 0.2);
        let labels: Vec<String> = ticks.iter().map(|&t| tick_label(t, step)).collect();
        assert_eq!(
            labels,
            [
                "0", "0.2", "0.4", "0.6", "0.8", "1", "1.2", "1.4", "1.6", "1.8", "2"
            ]
        );
        let (ticks, step) = nice_ticks(0.0, 82_000.0, 8);
        assert_eq!(step, 20_000.0);
        assert_eq!(tick_label(ticks[4], step), "80\u{2009}000");
        let (_, step) = nice_ticks(0.0, 1.05, 6);
        assert_eq!(step, 0.2);
        assert_eq!(decimals_for(0.25), 2);
        // A step of 2.5 puts ticks at 7.5 and 12.5: one decimal, not "8" and "12".
        assert_eq!(decimals_for(2.5), 1);
        assert_eq!(tick_label(7.5, 2.5), "7.5");
        assert_eq!(decimals_for(25.0), 0);
        assert_eq!(decimals_for(0.05), 2);
        assert_eq!(tick_label(-0.0, 0.5), "0");
    }

    #[test]
    fn values_keep_three_significant_digits() {
        assert_eq!(value_label(1585.4321), "1585");
        assert_eq!(value_label(26.449), "26.4");
        assert_eq!(value_label(0.9234), "0.92");
        assert_eq!(value_label(0.0), "0");
        assert_eq!(value_label(0.00123), "0.0012");
        assert_eq!(value_label(123_456.0), "123\u{2009}456");
        assert_eq!(value_label(f64::NAN), "n/a");
    }

    #[test]
    fn every_range_gets_a_handful_of_ticks_with_short_labels() {
        for (lo, hi) in [
            (0.0, 1.0),
            (0.1, 2.0),
            (-3.0, 7.5),
            (0.0, 1e6),
            (0.001, 0.0042),
        ] {
            let (ticks, step) = nice_ticks(lo, hi, 8);
            assert!((3..=16).contains(&ticks.len()), "{lo}..{hi}: {ticks:?}");
            for t in ticks {
                let l = tick_label(t, step);
                assert!(l.chars().count() <= 9, "{l}");
                assert!(!l.contains("000000"), "{l}");
            }
        }
    }

    #[test]
    fn whole_quantities_get_whole_steps() {
        // 3.5 to 25 nodes in about 10 steps: 2.15 rounds up to the step 2.5, which would put
        // ticks at 7.5 and 12.5 nodes; 2 instead, from 4 to 24.
        assert_eq!(nice_ticks(3.5, 25.0, 10).1, 2.5);
        let (ticks, step) = whole_ticks(3.5, 25.0, 10);
        assert_eq!(step, 2.0);
        assert_eq!(ticks, (2..=12).map(|k| 2.0 * k as f64).collect::<Vec<_>>());
        // A narrow range: steps of 1, not 0.5.
        assert_eq!(whole_ticks(0.5, 3.5, 10), (vec![1.0, 2.0, 3.0], 1.0));
        // Steps already whole stay as they are (25 nodes).
        assert_eq!(whole_ticks(0.0, 230.0, 10), nice_ticks(0.0, 230.0, 10));
    }
}
