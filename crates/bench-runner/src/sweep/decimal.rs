//! Grids of decimals as a person types them: `from`, `from + step`, ... computed in integers of the smallest
//! decimal unit the inputs use, then read as the decimal they are. `0.1` to `0.5` by `0.1` gives 0.3, not
//! `0.1 + 2 × 0.1` = 0.30000000000000004; a weight grid from 0.05 by 0.05 reaches 0.85, not
//! 0.8500000000000001.

/// Most decimals an input may have for the grid to be computed in integers.
const MAX_DECIMALS: usize = 15;

/// A decimal `units × 10^-scale`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fixed {
    units: i128,
    scale: u32,
}

/// `x` as the decimal it prints as (the shortest text that reads back to it), if it has at most
/// [`MAX_DECIMALS`] decimals and fits.
fn fixed(x: f64) -> Option<Fixed> {
    if !x.is_finite() {
        return None;
    }
    let text = format!("{}", x.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    if frac.len() > MAX_DECIMALS || int.len() > 20 {
        return None;
    }
    let units: i128 = format!("{int}{frac}").parse().ok()?;
    Some(Fixed {
        units: if x < 0.0 { -units } else { units },
        scale: frac.len() as u32,
    })
}

/// The integers of `xs` at their common scale (the largest number of decimals among them), and that scale.
fn common(xs: &[f64]) -> Option<(Vec<i128>, u32)> {
    let fs: Vec<Fixed> = xs.iter().map(|&x| fixed(x)).collect::<Option<_>>()?;
    let scale = fs.iter().map(|f| f.scale).max().unwrap_or(0);
    let units = fs
        .iter()
        .map(|f| f.units.checked_mul(10i128.checked_pow(scale - f.scale)?))
        .collect::<Option<_>>()?;
    Some((units, scale))
}

/// The `f64` nearest the decimal `units × 10^-scale`.
fn value(units: i128, scale: u32) -> f64 {
    format!("{units}e-{scale}")
        .parse()
        .expect("an integer with an exponent is a float")
}

/// The decimal grid `from, from + step, ...` up to `to` included: `(count, value of index i)`, computed in
/// integers; `None` when an input has too many decimals to do so (the caller then steps in floats). `count`
/// is 0 when `to < from`.
pub fn grid(from: f64, to: f64, step: f64) -> Option<(u128, impl Fn(u128) -> f64)> {
    let (units, scale) = common(&[from, to, step])?;
    let (f, t, s) = (units[0], units[1], units[2]);
    if s <= 0 {
        return None;
    }
    let count = if t < f { 0 } else { ((t - f) / s + 1) as u128 };
    Some((count, move |i: u128| value(f + i as i128 * s, scale)))
}

/// Like [`grid`], the last value being `to` itself when `to` is not on the grid (a resolution's grid): the
/// number of values is the steps needed to reach or pass `to`, plus one.
pub fn grid_to(from: f64, to: f64, step: f64) -> Option<(u128, impl Fn(u128) -> f64)> {
    let (units, scale) = common(&[from, to, step])?;
    let (f, t, s) = (units[0], units[1], units[2]);
    if s <= 0 || t < f {
        return None;
    }
    let steps = (t - f + s - 1) / s;
    Some((steps as u128 + 1, move |i: u128| {
        value((f + i as i128 * s).min(t), scale)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(from: f64, to: f64, step: f64) -> Vec<f64> {
        let (n, at) = grid(from, to, step).unwrap();
        (0..n).map(at).collect()
    }

    #[test]
    fn grids_are_the_decimals_typed() {
        assert_eq!(values(0.1, 0.5, 0.1), [0.1, 0.2, 0.3, 0.4, 0.5]);
        assert_eq!(values(0.0, 1.0, 0.25), [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(values(-0.3, 0.3, 0.3), [-0.3, 0.0, 0.3]);
        assert_eq!(values(1.0, 2.0, 0.3), [1.0, 1.3, 1.6, 1.9]);
        assert_eq!(values(2.0, 1.0, 0.5), Vec::<f64>::new());
        let (n, at) = grid_to(0.05, 1.0, 0.05).unwrap();
        assert_eq!((n, at(16), at(19)), (20, 0.85, 1.0));
        let (n, at) = grid_to(0.0, 1.0, 0.3).unwrap();
        assert_eq!((n, at(3), at(4)), (5, 0.9, 1.0));
        // Too many decimals to count in integers: the caller falls back to floats.
        assert!(grid(0.0, 1.0, 1.0 / 3.0).is_none());
    }
}
