//! Sample statistics for sweep summaries and plans: mean, standard deviation and Student-t intervals.
//!
//! Sums are exact (the correctly rounded sum of the samples, whatever their order), so a mean carries no
//! noise of the summation order: three seeds of 0.925 have mean 0.925, not 0.9250000000000002, and a zero
//! spread gives an interval of the value itself. The same samples give the same bits on every run.

/// Mean, spread and 95% interval of one metric over the seeds of one parameter point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moments {
    /// Number of samples.
    pub n: usize,
    /// Arithmetic mean (NaN when `n == 0`).
    pub mean: f64,
    /// Sample standard deviation (divisor `n - 1`); `None` when `n < 2`.
    pub sd: Option<f64>,
    /// Two-sided 95% confidence interval of the mean, `mean ± t(0.975, n-1) · sd / √n`; `None` when `n < 2`.
    pub ci95: Option<(f64, f64)>,
}

/// Describes a sample: see [`Moments`].
pub fn describe(xs: &[f64]) -> Moments {
    let n = xs.len();
    let mean = mean(xs);
    let Some(sd) = sd(xs, mean) else {
        return Moments {
            n,
            mean,
            sd: None,
            ci95: None,
        };
    };
    let half = student_t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt();
    Moments {
        n,
        mean,
        sd: Some(sd),
        ci95: Some((mean - half, mean + half)),
    }
}

/// The sum of `xs` correctly rounded to the nearest `f64` (Shewchuk's exact partials, as Python's `fsum`): the
/// same for any order of the samples, and free of the rounding noise a running sum gathers.
pub fn exact_sum(xs: &[f64]) -> f64 {
    // Non-overlapping partials whose exact sum is the exact sum of the samples seen so far, smallest first.
    let mut partials: Vec<f64> = Vec::new();
    for &x in xs {
        if !x.is_finite() {
            return xs.iter().sum();
        }
        let mut x = x;
        let mut kept = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[kept] = lo;
                kept += 1;
            }
            x = hi;
        }
        if !x.is_finite() {
            // An overflow of the running total: no exact partials to keep.
            return xs.iter().sum();
        }
        partials.truncate(kept);
        partials.push(x);
    }
    // Add the partials from the largest down, correcting the last rounding when the rest would tip it
    // (half-way cases), as fsum does.
    let Some(mut hi) = partials.pop() else {
        return 0.0;
    };
    let mut lo = 0.0;
    while let Some(y) = partials.pop() {
        let x = hi;
        hi = x + y;
        let yr = hi - x;
        lo = y - yr;
        if lo != 0.0 {
            break;
        }
    }
    if let Some(&next) = partials.last()
        && ((lo < 0.0 && next < 0.0) || (lo > 0.0 && next > 0.0))
    {
        let y = lo * 2.0;
        let x = hi + y;
        if y == x - hi {
            hi = x;
        }
    }
    hi
}

/// The mean of `xs` (NaN when empty). Identical samples give their value itself, and the mean never leaves
/// `[min, max]` of the samples.
///
/// Samples are read as the decimals they print as (the shortest text that reads back to them, the text of every
/// CSV cell): when each has at most 9 decimals, the mean is that of the decimals, summed as integers and
/// rounded once, so 1017.755, 718.721, 225.949, 758.167 and 1127.5 give 769.6184, as a person adding the
/// cells gets, rather than 769.6184000000001 (the mean of their binary approximations). Other samples are
/// summed exactly in binary ([`exact_sum`]) and divided once.
pub fn mean(xs: &[f64]) -> f64 {
    let Some(&first) = xs.first() else {
        return f64::NAN;
    };
    if xs.iter().all(|&x| x == first) {
        return first;
    }
    let m = decimal_mean(xs).unwrap_or_else(|| exact_sum(xs) / xs.len() as f64);
    if m.is_nan() {
        return m;
    }
    let (lo, hi) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    m.clamp(lo, hi)
}

/// Most decimals a sample may have for [`decimal_mean`].
const MAX_MEAN_DECIMALS: usize = 9;

/// The mean of the samples' shortest decimals, correctly rounded; `None` when a sample has more than
/// [`MAX_MEAN_DECIMALS`] decimals, more than 20 integer digits, or is not finite.
fn decimal_mean(xs: &[f64]) -> Option<f64> {
    let parts: Vec<(bool, String, String)> = xs
        .iter()
        .map(|x| {
            if !x.is_finite() {
                return None;
            }
            let text = format!("{}", x.abs());
            let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
            (frac.len() <= MAX_MEAN_DECIMALS && int.len() <= 20)
                .then(|| (x.is_sign_negative(), int.to_string(), frac.to_string()))
        })
        .collect::<Option<_>>()?;
    let k = parts.iter().map(|p| p.2.len()).max().unwrap_or(0);
    let mut sum: i128 = 0;
    for (neg, int, frac) in &parts {
        let digits = format!("{int}{frac:0<k$}");
        let v: i128 = digits.parse().ok()?;
        sum = sum.checked_add(if *neg { -v } else { v })?;
    }
    // sum / n as decimal digits, long division, then scaled by 10^-k; a final sticky digit keeps a truncated
    // tail from reading as an exact half-way case, so the parse rounds as the exact quotient would.
    let n = xs.len() as i128;
    let (q, mut r) = (sum.abs() / n, sum.abs() % n);
    let mut text = format!("{}{q}.", if sum < 0 { "-" } else { "" });
    for _ in 0..40 {
        r *= 10;
        text.push(char::from(b'0' + (r / n) as u8));
        r %= n;
    }
    if r != 0 {
        text.push('1');
    }
    text += &format!("e-{k}");
    text.parse().ok()
}

/// The sample standard deviation (divisor `n - 1`) of `xs` around `mean`; `None` below two samples. Exactly 0
/// when every sample is the same.
pub fn sd(xs: &[f64], mean: f64) -> Option<f64> {
    let n = xs.len();
    if n < 2 {
        return None;
    }
    let squares: Vec<f64> = xs.iter().map(|x| (x - mean) * (x - mean)).collect();
    Some((exact_sum(&squares) / (n - 1) as f64).sqrt())
}

/// The `p` quantile (`0.5 < p < 1`) of Student's t distribution with `df > 0` degrees of freedom.
///
/// Found by bisection on the distribution function, to about 1e-12 relative precision.
pub fn student_t_quantile(p: f64, df: f64) -> f64 {
    assert!(
        p > 0.5 && p < 1.0 && df > 0.0,
        "student_t_quantile({p}, {df})"
    );
    // For t > 0: P(T > t) = I_{df/(df+t²)}(df/2, 1/2) / 2.
    let upper_tail = |t: f64| 0.5 * reg_inc_beta(df / 2.0, 0.5, df / (df + t * t));
    let target = 1.0 - p;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    while upper_tail(hi) > target {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if upper_tail(mid) > target {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-13 * hi {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// Natural log of the gamma function for `x > 0` (Lanczos, g = 7, n = 9).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    let t = x + 7.5;
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function `I_x(a, b)`.
fn reg_inc_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_continued_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b
    }
}

/// Lentz's continued fraction for the incomplete beta function.
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (qab, qap, qam) = (a + b, a + 1.0, a - 1.0);
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - qab * x / qap);
    let mut h = d;
    for m in 1..=500 {
        let m = m as f64;
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 / guard(1.0 + aa * d);
        c = guard(1.0 + aa / c);
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 / guard(1.0 + aa * d);
        c = guard(1.0 + aa / c);
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_tables() {
        // Two-sided 95% critical values from standard tables.
        for (df, t) in [
            (1.0, 12.706_204_736),
            (2.0, 4.302_652_730),
            (4.0, 2.776_445_105),
            (9.0, 2.262_157_163),
            (19.0, 2.093_024_054),
            (29.0, 2.045_229_642),
            (99.0, 1.984_216_952),
            (1e6, 1.959_966_0),
        ] {
            let got = student_t_quantile(0.975, df);
            assert!((got - t).abs() < 1e-6, "df {df}: {got} vs {t}");
        }
    }

    #[test]
    fn describe_gives_mean_sd_and_interval() {
        let m = describe(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(m.n, 5);
        assert_eq!(m.mean, 3.0);
        let sd = m.sd.unwrap();
        assert!((sd - 2.5_f64.sqrt()).abs() < 1e-12);
        let (lo, hi) = m.ci95.unwrap();
        let half = 2.776_445_105 * sd / 5f64.sqrt();
        assert!((lo - (3.0 - half)).abs() < 1e-6 && (hi - (3.0 + half)).abs() < 1e-6);
        let one = describe(&[7.0]);
        assert_eq!((one.n, one.mean, one.sd, one.ci95), (1, 7.0, None, None));
    }

    #[test]
    fn identical_samples_have_their_value_as_mean_and_a_zero_width_interval() {
        // A running sum gives 0.925 + 0.925 + 0.925 = 2.7750000000000004 and a mean of 0.9250000000000002.
        assert_eq!(
            [0.925f64; 3].iter().sum::<f64>() / 3.0,
            0.925_000_000_000_000_2
        );
        let m = describe(&[0.925; 3]);
        assert_eq!(
            (m.mean, m.sd, m.ci95),
            (0.925, Some(0.0), Some((0.925, 0.925)))
        );
        // Five seeds summed in order: 32.090599999999995 where the exact sum gives 32.0906.
        let xs = [103.568, 8.273, 29.723, 14.7, 4.189];
        assert_eq!(xs.iter().sum::<f64>() / 5.0, 32.090_599_999_999_995);
        assert_eq!(mean(&xs), 32.0906);
        // The exact binary mean of these is 769.6184000000001; the mean of the decimals is 769.6184.
        let xs = [1017.755, 718.721, 225.949, 758.167, 1127.5];
        assert_eq!(exact_sum(&xs) / 5.0, 769.618_400_000_000_1);
        assert_eq!(mean(&xs), 769.6184);
        assert_eq!(mean(&[-1.5, 0.25, 1e-9, 2.0]), 0.187_500_000_25);
        // More than 9 decimals: the exact binary sum.
        assert_eq!(mean(&[1.0 / 3.0, 2.0 / 3.0]), 0.5);
    }

    #[test]
    fn exact_sums_are_correctly_rounded_and_order_free() {
        assert_eq!(exact_sum(&[0.1; 10]), 1.0);
        assert_eq!(exact_sum(&[1e100, 1.0, -1e100]), 1.0);
        assert_eq!(exact_sum(&[]), 0.0);
        assert_eq!(exact_sum(&[1.0, f64::INFINITY]), f64::INFINITY);
        assert!(exact_sum(&[f64::MAX, f64::MAX]).is_infinite());
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, rng_seed: proptest::test_runner::RngSeed::Fixed(23), ..ProptestConfig::default() })]
        /// Multiples of 2^-30 below 2^40 add exactly in i128: the exact sum must be that integer sum rounded once.
        #[test]
        fn exact_sum_is_the_rounded_integer_sum(ks in prop::collection::vec(-(1i64 << 52)..(1i64 << 52), 0..40)) {
            let scale = (2.0f64).powi(-30);
            let xs: Vec<f64> = ks.iter().map(|&k| k as f64 * scale).collect();
            let exact: i128 = ks.iter().map(|&k| i128::from(k)).sum();
            prop_assert_eq!(exact_sum(&xs), exact as f64 * scale);
            let mut rev = xs.clone();
            rev.reverse();
            prop_assert_eq!(exact_sum(&rev).to_bits(), exact_sum(&xs).to_bits());
        }

        #[test]
        fn means_stay_within_the_samples(xs in prop::collection::vec(-1e12..1e12f64, 1..30), x in -1e12..1e12f64, n in 1usize..20) {
            let m = mean(&xs);
            let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
            prop_assert!(lo <= m && m <= hi);
            let same = vec![x; n];
            let d = describe(&same);
            prop_assert_eq!(d.mean, x);
            if n > 1 {
                prop_assert_eq!(d.ci95, Some((x, x)));
            }
        }
    }
}
