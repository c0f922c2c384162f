//! `ComputeFairShares` with each era's integer arithmetic.
//!
//! Both eras fix some shares first (max share <= 0 gives 0, an inactive queue's
//! instantaneous share is 0, weight <= 0 gives the min share) and search a weight-to-resource
//! ratio R for the rest: double R from 1 while the planned total is below the target, then
//! exactly 25 bisection steps that stop early on an exact hit. Shares are truncated, so they
//! can sum above the total. 2.7 works in 32-bit ints (the planned total wraps on overflow);
//! 3.3 in longs with saturating sums.

use super::planned::Planned;
use super::{ShareItem, ShareKind, fixed_share};
use crate::Semantics;

const ITERATIONS: usize = 25;

/// From this many runs of identical open items on ([`runs`]), the planned total
/// ([`Planned`]) is summed instead of one share per run: below it, sorting costs more than
/// it saves. (Items are in runs when their caller lists alike items together, as the
/// simulator does with a parent's children of one configuration.)
const PLANNED_FROM: usize = 24;

/// How the search sums its planned totals: both give the same sums (see `planned`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Summing {
    /// Direct below [`PLANNED_FROM`] runs of identical open items, planned from there.
    Auto,
    /// One share per run of identical consecutive items, as Hadoop's loop adds them.
    Direct,
}

/// Hadoop's fair shares of `total` for one resource type.
///
/// Where Hadoop 2.7 would loop forever (a planned total that wraps below the target for
/// every R), the doubling stops when R reaches infinity and every share is its max.
pub fn hadoop_shares(
    semantics: Semantics,
    kind: ShareKind,
    items: &[ShareItem],
    total: i64,
) -> Vec<i64> {
    hadoop_shares_counted(semantics, kind, &once_each(items), total)
}

/// [`hadoop_shares`] of a list given as `(item, count)` entries: `count` identical items
/// for each entry, one share per entry (the share each of its items gets).
///
/// The shares are those of the list with every entry repeated `count` times, in any order:
/// identical items get identical shares, and every sum the computation makes (the fixed
/// shares taken, the open maxes, each planned total) is of non-negative terms with int wrap
/// (2.7) or long saturation (3.3), which do not depend on the order of the additions, so
/// `count` additions of one term are one product. A parent whose children fall in a few
/// configurations is split in O(configurations), however many children it has.
pub fn hadoop_shares_counted(
    semantics: Semantics,
    kind: ShareKind,
    entries: &[(ShareItem, u64)],
    total: i64,
) -> Vec<i64> {
    match semantics {
        Semantics::Hadoop27 => hadoop27(kind, entries, total, Summing::Auto),
        Semantics::Hadoop33 => hadoop33(kind, entries, total, Summing::Auto),
    }
}

/// [`hadoop_shares`] summing every planned total item by item (the reference the planned
/// sums are tested against).
#[doc(hidden)]
pub fn hadoop_shares_direct(
    semantics: Semantics,
    kind: ShareKind,
    items: &[ShareItem],
    total: i64,
) -> Vec<i64> {
    let entries = once_each(items);
    match semantics {
        Semantics::Hadoop27 => hadoop27(kind, &entries, total, Summing::Direct),
        Semantics::Hadoop33 => hadoop33(kind, &entries, total, Summing::Direct),
    }
}

fn once_each(items: &[ShareItem]) -> Vec<(ShareItem, u64)> {
    items.iter().map(|&i| (i, 1)).collect()
}

fn cast27(v: f64) -> i64 {
    v as i32 as i64
}

fn cast33(v: f64) -> i64 {
    v as i64
}

fn narrow(v: i64) -> i32 {
    v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

// Java's Math.max / Math.min on doubles: NaN wins.
fn java_max(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

fn java_min(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.min(b)
    }
}

fn share_f64(item: &ShareItem, r: f64, min: f64, max: f64) -> f64 {
    java_min(java_max(item.weight as f64 * r, min), max)
}

/// The open entries as runs of identical consecutive items: `(index of the first, number
/// of items)`.
///
/// Identical items get identical shares, and every share is non-negative, so a run adds
/// `length × share` to a planned total: with Java's int wrap (2.7) that is the same as
/// adding the share `length` times, and with long saturation (3.3) too. A leaf of many
/// apps of equal weight is then one run, and each bisection step costs one evaluation
/// instead of one per app.
fn runs(items: &[(ShareItem, u64)], open: &[usize]) -> Vec<(usize, u64)> {
    let same = |a: &ShareItem, b: &ShareItem| {
        a.weight.to_bits() == b.weight.to_bits()
            && a.min == b.min
            && a.max == b.max
            && a.active == b.active
    };
    let mut out: Vec<(usize, u64)> = Vec::new();
    for &i in open {
        let (item, count) = &items[i];
        match out.last_mut() {
            Some((first, n)) if same(&items[*first].0, item) => *n = n.saturating_add(*count),
            _ => out.push((i, *count)),
        }
    }
    out
}

/// Integers up to this are exact in a double (2^53).
const EXACT_IN_F64: i64 = 1 << 53;

/// Whether the search is known to end with every open item at its max, so that it need not
/// run: the target is the sum of the open maxes, summed without saturating (`total_max`
/// below the era's `limit`), and every open weight is finite. Then every share the search
/// tries lies between 0 (a positive weight times R >= 0, raised to the min) and its max, so
/// the planned total is the exact sum, neither wrapped nor saturated, and never above the
/// target; the search keeps as `right` an R whose total is not below the target (the
/// doubling's last R, or infinity), so at the R it returns the total equals the target and
/// each share equals its max. (3.3 casts a share from a double: its caller also requires
/// maxes exact in a double, so that the cast of a max is the max.)
fn every_max_reached<T: PartialEq>(
    items: &[(ShareItem, u64)],
    open: &[usize],
    target: T,
    total_max: T,
    limit: T,
) -> bool {
    target == total_max && total_max != limit && open.iter().all(|&i| items[i].0.weight.is_finite())
}

/// The doubling and bisection, generic over how a planned total is summed.
fn search(mut used: impl FnMut(f64) -> std::cmp::Ordering) -> f64 {
    use std::cmp::Ordering::*;
    let mut r_max = 1.0f64;
    while used(r_max) == Less {
        r_max *= 2.0;
        if r_max.is_infinite() {
            break;
        }
    }
    let (mut left, mut right) = (0.0f64, r_max);
    for _ in 0..ITERATIONS {
        let mid = (left + right) / 2.0;
        match used(mid) {
            Equal => {
                right = mid;
                break;
            }
            Less => left = mid,
            Greater => right = mid,
        }
    }
    right
}

/// `n` additions of the non-negative `v`, each capped at `cap` (Hadoop 2.7's capped int
/// sums, 3.3's saturating long sums): the exact sum capped, as `cap` is never passed once
/// reached.
fn capped_add(acc: i64, v: i64, n: u64, cap: i64) -> i64 {
    (acc as i128 + v as i128 * n as i128).min(cap as i128) as i64
}

fn hadoop27(kind: ShareKind, items: &[(ShareItem, u64)], total: i64, summing: Summing) -> Vec<i64> {
    let mut out = vec![0i64; items.len()];
    let mut taken: i32 = 0;
    let mut open: Vec<usize> = Vec::new();
    for (i, (item, n)) in items.iter().enumerate() {
        match fixed_share(item, kind) {
            Some(v) => {
                let v = narrow(v);
                out[i] = v as i64;
                taken = capped_add(taken as i64, v as i64, *n, i32::MAX as i64) as i32;
            }
            None => open.push(i),
        }
    }
    if open.is_empty() {
        return out;
    }
    // Open items have a positive max: the capped sum stops growing at the cap, where
    // Hadoop's loop breaks.
    let mut total_max: i32 = 0;
    for &i in &open {
        let (item, n) = &items[i];
        total_max = capped_add(
            total_max as i64,
            narrow(item.max) as i64,
            *n,
            i32::MAX as i64,
        ) as i32;
    }
    let target = (narrow(total).wrapping_sub(taken)).max(0).min(total_max);
    if summing == Summing::Auto && every_max_reached(items, &open, target, total_max, i32::MAX) {
        for &i in &open {
            out[i] = narrow(items[i].0.max) as i64;
        }
        return out;
    }
    let share = |i: usize, r: f64| -> i32 {
        let it = &items[i].0;
        share_f64(it, r, narrow(it.min) as f64, narrow(it.max) as f64) as i32
    };
    let groups = runs(items, &open);
    let planned = (summing == Summing::Auto && groups.len() >= PLANNED_FROM)
        .then(|| {
            let it = open.iter().map(|&i| {
                let (it, n) = &items[i];
                (it.weight, narrow(it.min) as f64, narrow(it.max) as f64, *n)
            });
            Planned::new(it, cast27)
        })
        .flatten();
    let r = match planned {
        // The exact sum modulo 2^32: the wrapped int Hadoop's loop ends with.
        Some(p) => search(|r| (p.total(r) as i32).cmp(&target)),
        None => {
            search(|r| {
                let mut used: i32 = 0;
                for &(i, n) in &groups {
                    // n additions of the same int wrap to n × share modulo 2^32.
                    used = used.wrapping_add(share(i, r).wrapping_mul(n as u32 as i32));
                }
                used.cmp(&target)
            })
        }
    };
    for &i in &open {
        out[i] = share(i, r) as i64;
    }
    out
}

fn hadoop33(kind: ShareKind, items: &[(ShareItem, u64)], total: i64, summing: Summing) -> Vec<i64> {
    let mut out = vec![0i64; items.len()];
    let mut taken: i64 = 0;
    let mut open: Vec<usize> = Vec::new();
    for (i, (item, n)) in items.iter().enumerate() {
        match fixed_share(item, kind) {
            Some(v) => {
                out[i] = v;
                taken = capped_add(taken, v, *n, i64::MAX);
            }
            None => open.push(i),
        }
    }
    if open.is_empty() {
        return out;
    }
    let mut total_max: i64 = 0;
    for &i in &open {
        let (item, n) = &items[i];
        total_max = capped_add(total_max, item.max, *n, i64::MAX);
    }
    let target = total.saturating_sub(taken).max(0).min(total_max);
    if summing == Summing::Auto
        && every_max_reached(items, &open, target, total_max, i64::MAX)
        && open.iter().all(|&i| items[i].0.max <= EXACT_IN_F64)
    {
        for &i in &open {
            out[i] = items[i].0.max;
        }
        return out;
    }
    let share = |i: usize, r: f64| -> i64 {
        let it = &items[i].0;
        share_f64(it, r, it.min as f64, it.max as f64) as i64
    };
    let groups = runs(items, &open);
    let planned = (summing == Summing::Auto && groups.len() >= PLANNED_FROM)
        .then(|| {
            let it = open.iter().map(|&i| {
                let (it, n) = &items[i];
                (it.weight, it.min as f64, it.max as f64, *n)
            });
            Planned::new(it, cast33)
        })
        .flatten();
    if let Some(p) = planned {
        // Shares are non-negative: the saturated sum is the exact one capped at the max.
        let r = search(|r| (p.total(r).min(i64::MAX as i128) as i64).cmp(&target));
        for &i in &open {
            out[i] = share(i, r);
        }
        return out;
    }
    let r = search(|r| {
        let mut used: i64 = 0;
        for &(i, n) in &groups {
            // Shares are non-negative: n saturating additions saturate the product.
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            used = used.saturating_add(share(i, r).saturating_mul(n));
            if used == i64::MAX {
                break;
            }
        }
        used.cmp(&target)
    });
    for &i in &open {
        out[i] = share(i, r);
    }
    out
}

/// Sums over a list's items that tell in O(1) whether the search would be skipped with every
/// open item at its max (the shortcut of [`hadoop_shares`]), kept as items join and leave
/// the list: the era's sums of the fixed shares and of the open maxes (non-negative terms,
/// so their capped or saturated sums are the exact sums capped), the open items, and those
/// that bar the shortcut (a weight that is not finite; 3.3: a max not exact in a double).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AtMaxSums {
    fixed: i128,
    open_max: i128,
    open: i64,
    barred: i64,
}

impl AtMaxSums {
    /// Adds `item` to the list (`sign` 1) or takes it out (`sign` -1).
    pub fn add(&mut self, semantics: Semantics, kind: ShareKind, item: &ShareItem, sign: i64) {
        let wide = sign as i128;
        match fixed_share(item, kind) {
            Some(v) => self.fixed += wide * era_value(semantics, v) as i128,
            None => {
                self.open_max += wide * era_value(semantics, item.max) as i128;
                self.open += sign;
                let barred = !item.weight.is_finite()
                    || (semantics == Semantics::Hadoop33 && item.max > EXACT_IN_F64);
                self.barred += sign * i64::from(barred);
            }
        }
    }

    /// Whether [`hadoop_shares`] of the list's items and `total` gives every item
    /// [`share_at_max`]: no open item, or the shortcut's test passes, as the era computes it.
    pub fn every_max_reached(&self, semantics: Semantics, total: i64) -> bool {
        if self.open == 0 {
            return true;
        }
        if self.barred > 0 {
            return false;
        }
        match semantics {
            Semantics::Hadoop27 => {
                let cap = |v: i128| v.min(i32::MAX as i128) as i32;
                let (taken, total_max) = (cap(self.fixed), cap(self.open_max));
                let target = (narrow(total).wrapping_sub(taken)).max(0).min(total_max);
                target == total_max && total_max != i32::MAX
            }
            Semantics::Hadoop33 => {
                let cap = |v: i128| v.min(i64::MAX as i128) as i64;
                let (taken, total_max) = (cap(self.fixed), cap(self.open_max));
                let target = total.saturating_sub(taken).max(0).min(total_max);
                target == total_max && total_max != i64::MAX
            }
        }
    }
}

/// A value as the era's computation holds it: an int in 2.7, a long in 3.3.
fn era_value(semantics: Semantics, v: i64) -> i64 {
    match semantics {
        Semantics::Hadoop27 => narrow(v) as i64,
        Semantics::Hadoop33 => v,
    }
}

/// The share `item` gets when every open item gets its max: its fixed share, or its max
/// (as the era holds them).
pub fn share_at_max(semantics: Semantics, kind: ShareKind, item: &ShareItem) -> i64 {
    era_value(semantics, fixed_share(item, kind).unwrap_or(item.max))
}
