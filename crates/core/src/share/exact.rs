//! The exact weighted max-min (water-filling) allocation, in real numbers, in O(n log n).
//!
//! Same definition as Hadoop's: find the ratio R at which
//! `sum(min(max(w*R, min), max)) = target`, with the same fixed shares and the same target
//! (`min(total - fixed, sum of max)`), but solved exactly instead of by 25 bisection steps
//! and truncation. The share function is piecewise linear in R, so sorting its breakpoints
//! and walking them finds R exactly.

use super::{ShareItem, ShareKind, fixed_share};

/// Exact fair shares of `total` for one resource type.
pub fn exact_shares(kind: ShareKind, items: &[ShareItem], total: f64) -> Vec<f64> {
    let mut out = vec![0.0f64; items.len()];
    let mut taken = 0.0f64;
    let mut open: Vec<usize> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match fixed_share(item, kind) {
            Some(v) => {
                out[i] = v as f64;
                taken += v as f64;
            }
            None => open.push(i),
        }
    }
    if open.is_empty() {
        return out;
    }
    let total_max: f64 = open.iter().map(|&i| items[i].max as f64).sum();
    let target = (total - taken).max(0.0).min(total_max);

    // f(R) = constant + slope * R between breakpoints.
    let mut constant = 0.0f64;
    let mut slope = 0.0f64;
    // (R, delta slope, delta constant)
    let mut events: Vec<(f64, f64, f64)> = Vec::with_capacity(2 * open.len());
    for &i in &open {
        let it = &items[i];
        let (w, lo, hi) = (it.weight as f64, it.min.max(0) as f64, it.max as f64);
        if hi <= lo {
            constant += hi;
            continue;
        }
        constant += lo;
        events.push((lo / w, w, -lo));
        events.push((hi / w, -w, hi));
    }
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut r = 0.0f64;
    if constant < target {
        let mut solved = false;
        for &(at, d_slope, d_const) in &events {
            if slope > 0.0 && constant + slope * at >= target {
                r = (target - constant) / slope;
                solved = true;
                break;
            }
            slope += d_slope;
            constant += d_const;
        }
        if !solved {
            r = events.last().map_or(0.0, |e| e.0);
        }
    }
    for &i in &open {
        let it = &items[i];
        let share = (it.weight as f64 * r)
            .max(it.min.max(0) as f64)
            .min(it.max as f64);
        out[i] = share;
    }
    out
}
