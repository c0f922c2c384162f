//! Sample statistics for sweep summaries: mean, standard deviation and Student-t 95% intervals.
//!
//! Everything is plain `f64` arithmetic in a fixed order, so the same samples give the same bits on every run.

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
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return Moments {
            n,
            mean,
            sd: None,
            ci95: None,
        };
    }
    let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
    let sd = (ss / (n - 1) as f64).sqrt();
    let half = student_t_quantile(0.975, (n - 1) as f64) * sd / (n as f64).sqrt();
    Moments {
        n,
        mean,
        sd: Some(sd),
        ci95: Some((mean - half, mean + half)),
    }
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
}
