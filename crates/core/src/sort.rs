//! A stable sort that takes exactly the steps of Java's `List.sort` (TimSort) and never panics.
//!
//! Hadoop sorts schedulables with `Collections.sort` / `List.sort`, i.e. Java's TimSort.
//! Taking the same comparisons in the same order makes fairsim's order equal to Hadoop's
//! even where a comparator is inconsistent (Hadoop 2.7's NaN ratios), where the result
//! depends on the algorithm. Where Java would throw "Comparison method violates its general
//! contract!", this sort finishes the merge instead, keeping every element. Rust's own
//! `sort_by` may panic on an inconsistent comparator, so it is not used for Hadoop's orders.

use std::cmp::Ordering;

const MIN_MERGE: usize = 32;
const MIN_GALLOP: usize = 7;

/// Sorts `v` stably with `cmp`, as Java's `List.sort` does.
pub fn stable_sort_by<T, F>(v: &mut [T], mut cmp: F)
where
    T: Copy,
    F: FnMut(&T, &T) -> Ordering,
{
    let n = v.len();
    if n < 2 {
        return;
    }
    let c = &mut cmp;
    if n < MIN_MERGE {
        let run = count_run_and_make_ascending(v, 0, n, c);
        binary_sort(v, 0, n, run, c);
        return;
    }
    let mut ts = TimSort {
        runs: Vec::new(),
        min_gallop: MIN_GALLOP,
        tmp: Vec::new(),
    };
    let min_run = min_run_length(n);
    let (mut lo, mut remaining) = (0, n);
    while remaining != 0 {
        let mut run = count_run_and_make_ascending(v, lo, n, c);
        if run < min_run {
            let force = remaining.min(min_run);
            binary_sort(v, lo, lo + force, lo + run, c);
            run = force;
        }
        ts.runs.push((lo, run));
        ts.merge_collapse(v, c);
        lo += run;
        remaining -= run;
    }
    ts.merge_force_collapse(v, c);
}

fn min_run_length(mut n: usize) -> usize {
    let mut r = 0;
    while n >= MIN_MERGE {
        r |= n & 1;
        n >>= 1;
    }
    n + r
}

/// Length of the run starting at `lo`; a strictly descending run is reversed in place.
fn count_run_and_make_ascending<T, C>(v: &mut [T], lo: usize, hi: usize, c: &mut C) -> usize
where
    C: FnMut(&T, &T) -> Ordering,
{
    let mut run_hi = lo + 1;
    if run_hi == hi {
        return 1;
    }
    if c(&v[run_hi], &v[lo]).is_lt() {
        run_hi += 1;
        while run_hi < hi && c(&v[run_hi], &v[run_hi - 1]).is_lt() {
            run_hi += 1;
        }
        v[lo..run_hi].reverse();
    } else {
        run_hi += 1;
        while run_hi < hi && c(&v[run_hi], &v[run_hi - 1]).is_ge() {
            run_hi += 1;
        }
    }
    run_hi - lo
}

/// Binary insertion sort of `v[lo..hi]` whose prefix `v[lo..start]` is sorted.
fn binary_sort<T, C>(v: &mut [T], lo: usize, hi: usize, start: usize, c: &mut C)
where
    T: Copy,
    C: FnMut(&T, &T) -> Ordering,
{
    let start = if start == lo { start + 1 } else { start };
    for i in start..hi {
        let pivot = v[i];
        let (mut left, mut right) = (lo, i);
        while left < right {
            let mid = (left + right) / 2;
            if c(&pivot, &v[mid]).is_lt() {
                right = mid;
            } else {
                left = mid + 1;
            }
        }
        v.copy_within(left..i, left + 1);
        v[left] = pivot;
    }
}

/// Java's `gallopLeft`: where `key` goes among `a[base..base + len]`, before equal elements.
/// Offsets are signed as in Java (one may reach -1 before the final increment).
fn gallop_left<T, C>(key: &T, a: &[T], base: usize, len: usize, hint: usize, c: &mut C) -> usize
where
    C: FnMut(&T, &T) -> Ordering,
{
    let (len, hint) = (len as isize, hint as isize);
    let at = |i: isize| &a[(base as isize + i) as usize];
    let (mut last_ofs, mut ofs): (isize, isize) = (0, 1);
    if c(key, at(hint)).is_gt() {
        let max_ofs = len - hint;
        while ofs < max_ofs && c(key, at(hint + ofs)).is_gt() {
            last_ofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max_ofs);
        last_ofs += hint;
        ofs += hint;
    } else {
        let max_ofs = hint + 1;
        while ofs < max_ofs && c(key, at(hint - ofs)).is_le() {
            last_ofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max_ofs);
        (last_ofs, ofs) = (hint - ofs, hint - last_ofs);
    }
    last_ofs += 1;
    while last_ofs < ofs {
        let m = last_ofs + (ofs - last_ofs) / 2;
        if c(key, at(m)).is_gt() {
            last_ofs = m + 1;
        } else {
            ofs = m;
        }
    }
    ofs as usize
}

/// Java's `gallopRight`: where `key` goes among `a[base..base + len]`, after equal elements.
fn gallop_right<T, C>(key: &T, a: &[T], base: usize, len: usize, hint: usize, c: &mut C) -> usize
where
    C: FnMut(&T, &T) -> Ordering,
{
    let (len, hint) = (len as isize, hint as isize);
    let at = |i: isize| &a[(base as isize + i) as usize];
    let (mut last_ofs, mut ofs): (isize, isize) = (0, 1);
    if c(key, at(hint)).is_lt() {
        let max_ofs = hint + 1;
        while ofs < max_ofs && c(key, at(hint - ofs)).is_lt() {
            last_ofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max_ofs);
        (last_ofs, ofs) = (hint - ofs, hint - last_ofs);
    } else {
        let max_ofs = len - hint;
        while ofs < max_ofs && c(key, at(hint + ofs)).is_ge() {
            last_ofs = ofs;
            ofs = (ofs << 1) + 1;
        }
        ofs = ofs.min(max_ofs);
        last_ofs += hint;
        ofs += hint;
    }
    last_ofs += 1;
    while last_ofs < ofs {
        let m = last_ofs + (ofs - last_ofs) / 2;
        if c(key, at(m)).is_lt() {
            ofs = m;
        } else {
            last_ofs = m + 1;
        }
    }
    ofs as usize
}

struct TimSort<T> {
    runs: Vec<(usize, usize)>,
    min_gallop: usize,
    tmp: Vec<T>,
}

impl<T: Copy> TimSort<T> {
    fn merge_collapse<C: FnMut(&T, &T) -> Ordering>(&mut self, v: &mut [T], c: &mut C) {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            let len = |i: usize, r: &[(usize, usize)]| r[i].1;
            if (n > 0 && len(n - 1, &self.runs) <= len(n, &self.runs) + len(n + 1, &self.runs))
                || (n > 1 && len(n - 2, &self.runs) <= len(n, &self.runs) + len(n - 1, &self.runs))
            {
                if len(n - 1, &self.runs) < len(n + 1, &self.runs) {
                    n -= 1;
                }
            } else if len(n, &self.runs) > len(n + 1, &self.runs) {
                break;
            }
            self.merge_at(v, n, c);
        }
    }

    fn merge_force_collapse<C: FnMut(&T, &T) -> Ordering>(&mut self, v: &mut [T], c: &mut C) {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if n > 0 && self.runs[n - 1].1 < self.runs[n + 1].1 {
                n -= 1;
            }
            self.merge_at(v, n, c);
        }
    }

    fn merge_at<C: FnMut(&T, &T) -> Ordering>(&mut self, v: &mut [T], i: usize, c: &mut C) {
        let (mut base1, mut len1) = self.runs[i];
        let (base2, mut len2) = self.runs[i + 1];
        self.runs[i].1 = len1 + len2;
        self.runs.remove(i + 1);
        let k = gallop_right(&v[base2], v, base1, len1, 0, c);
        base1 += k;
        len1 -= k;
        if len1 == 0 {
            return;
        }
        len2 = gallop_left(&v[base1 + len1 - 1], v, base2, len2, len2 - 1, c);
        if len2 == 0 {
            return;
        }
        if len1 <= len2 {
            self.merge_lo(v, base1, len1, base2, len2, c);
        } else {
            self.merge_hi(v, base1, len1, base2, len2, c);
        }
    }

    fn merge_lo<C: FnMut(&T, &T) -> Ordering>(
        &mut self,
        a: &mut [T],
        base1: usize,
        mut len1: usize,
        base2: usize,
        mut len2: usize,
        c: &mut C,
    ) {
        self.tmp.clear();
        self.tmp.extend_from_slice(&a[base1..base1 + len1]);
        let tmp = std::mem::take(&mut self.tmp);
        let (mut c1, mut c2, mut dest) = (0usize, base2, base1);
        a[dest] = a[c2];
        dest += 1;
        c2 += 1;
        len2 -= 1;
        if len2 == 0 {
            a[dest..dest + len1].copy_from_slice(&tmp[c1..c1 + len1]);
            self.tmp = tmp;
            return;
        }
        if len1 == 1 {
            a.copy_within(c2..c2 + len2, dest);
            a[dest + len2] = tmp[c1];
            self.tmp = tmp;
            return;
        }
        let mut min_gallop = self.min_gallop as isize;
        'outer: loop {
            let (mut count1, mut count2) = (0usize, 0usize);
            loop {
                if c(&a[c2], &tmp[c1]).is_lt() {
                    a[dest] = a[c2];
                    dest += 1;
                    c2 += 1;
                    count2 += 1;
                    count1 = 0;
                    len2 -= 1;
                    if len2 == 0 {
                        break 'outer;
                    }
                } else {
                    a[dest] = tmp[c1];
                    dest += 1;
                    c1 += 1;
                    count1 += 1;
                    count2 = 0;
                    len1 -= 1;
                    if len1 == 1 {
                        break 'outer;
                    }
                }
                if ((count1 | count2) as isize) >= min_gallop {
                    break;
                }
            }
            loop {
                count1 = gallop_right(&a[c2], &tmp, c1, len1, 0, c);
                if count1 != 0 {
                    a[dest..dest + count1].copy_from_slice(&tmp[c1..c1 + count1]);
                    dest += count1;
                    c1 += count1;
                    len1 -= count1;
                    if len1 <= 1 {
                        break 'outer;
                    }
                }
                a[dest] = a[c2];
                dest += 1;
                c2 += 1;
                len2 -= 1;
                if len2 == 0 {
                    break 'outer;
                }
                count2 = gallop_left(&tmp[c1], a, c2, len2, 0, c);
                if count2 != 0 {
                    a.copy_within(c2..c2 + count2, dest);
                    dest += count2;
                    c2 += count2;
                    len2 -= count2;
                    if len2 == 0 {
                        break 'outer;
                    }
                }
                a[dest] = tmp[c1];
                dest += 1;
                c1 += 1;
                len1 -= 1;
                if len1 == 1 {
                    break 'outer;
                }
                min_gallop -= 1;
                if !(count1 >= MIN_GALLOP || count2 >= MIN_GALLOP) {
                    break;
                }
            }
            if min_gallop < 0 {
                min_gallop = 0;
            }
            min_gallop += 2;
        }
        self.min_gallop = min_gallop.max(1) as usize;
        if len1 == 1 {
            a.copy_within(c2..c2 + len2, dest);
            a[dest + len2] = tmp[c1];
        } else if len1 > 0 {
            a[dest..dest + len1].copy_from_slice(&tmp[c1..c1 + len1]);
        }
        // len1 == 0: Java throws on the broken contract; every element is already placed.
        self.tmp = tmp;
    }

    fn merge_hi<C: FnMut(&T, &T) -> Ordering>(
        &mut self,
        a: &mut [T],
        base1: usize,
        mut len1: usize,
        base2: usize,
        mut len2: usize,
        c: &mut C,
    ) {
        self.tmp.clear();
        self.tmp.extend_from_slice(&a[base2..base2 + len2]);
        let tmp = std::mem::take(&mut self.tmp);
        // Cursors are kept one past Java's (which can reach -1): c1 = index + 1, c2 = index + 1.
        let mut c1 = base1 + len1;
        let mut c2 = len2;
        let mut dest = base2 + len2;
        dest -= 1;
        c1 -= 1;
        a[dest] = a[c1];
        len1 -= 1;
        if len1 == 0 {
            a[dest - len2..dest].copy_from_slice(&tmp[..len2]);
            self.tmp = tmp;
            return;
        }
        if len2 == 1 {
            dest -= len1;
            c1 -= len1;
            a.copy_within(c1..c1 + len1, dest);
            a[dest - 1] = tmp[c2 - 1];
            self.tmp = tmp;
            return;
        }
        let mut min_gallop = self.min_gallop as isize;
        'outer: loop {
            let (mut count1, mut count2) = (0usize, 0usize);
            loop {
                if c(&tmp[c2 - 1], &a[c1 - 1]).is_lt() {
                    dest -= 1;
                    c1 -= 1;
                    a[dest] = a[c1];
                    count1 += 1;
                    count2 = 0;
                    len1 -= 1;
                    if len1 == 0 {
                        break 'outer;
                    }
                } else {
                    dest -= 1;
                    c2 -= 1;
                    a[dest] = tmp[c2];
                    count2 += 1;
                    count1 = 0;
                    len2 -= 1;
                    if len2 == 1 {
                        break 'outer;
                    }
                }
                if ((count1 | count2) as isize) >= min_gallop {
                    break;
                }
            }
            loop {
                count1 = len1 - gallop_right(&tmp[c2 - 1], a, base1, len1, len1 - 1, c);
                if count1 != 0 {
                    dest -= count1;
                    c1 -= count1;
                    len1 -= count1;
                    a.copy_within(c1..c1 + count1, dest);
                    if len1 == 0 {
                        break 'outer;
                    }
                }
                dest -= 1;
                c2 -= 1;
                a[dest] = tmp[c2];
                len2 -= 1;
                if len2 == 1 {
                    break 'outer;
                }
                count2 = len2 - gallop_left(&a[c1 - 1], &tmp, 0, len2, len2 - 1, c);
                if count2 != 0 {
                    dest -= count2;
                    c2 -= count2;
                    len2 -= count2;
                    a[dest..dest + count2].copy_from_slice(&tmp[c2..c2 + count2]);
                    if len2 <= 1 {
                        break 'outer;
                    }
                }
                dest -= 1;
                c1 -= 1;
                a[dest] = a[c1];
                len1 -= 1;
                if len1 == 0 {
                    break 'outer;
                }
                min_gallop -= 1;
                if !(count1 >= MIN_GALLOP || count2 >= MIN_GALLOP) {
                    break;
                }
            }
            if min_gallop < 0 {
                min_gallop = 0;
            }
            min_gallop += 2;
        }
        self.min_gallop = min_gallop.max(1) as usize;
        if len2 == 1 {
            dest -= len1;
            c1 -= len1;
            a.copy_within(c1..c1 + len1, dest);
            a[dest - 1] = tmp[c2 - 1];
        } else if len2 > 0 {
            a[dest - len2..dest].copy_from_slice(&tmp[..len2]);
        }
        // len2 == 0: Java throws on the broken contract; every element is already placed.
        self.tmp = tmp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_short_and_long_lists_stably() {
        for n in [0usize, 1, 2, 5, 31, 32, 33, 100, 257] {
            let mut v: Vec<(u32, usize)> = (0..n).map(|i| (((i * 7919) % 13) as u32, i)).collect();
            let mut expected = v.clone();
            expected.sort_by_key(|p| p.0);
            stable_sort_by(&mut v, |a, b| a.0.cmp(&b.0));
            assert_eq!(v, expected, "n = {n}");
        }
    }

    #[test]
    fn reverses_a_strictly_descending_prefix_like_timsort() {
        // Everything compares equal except 3 > 1: TimSort's run detection sees [3, 1] as a
        // descending run and reverses it; the equal elements then stay after it.
        let mut v = vec![3, 1, 2];
        let cmp = |a: &i32, b: &i32| match (a, b) {
            (3, 1) => Ordering::Greater,
            (1, 3) => Ordering::Less,
            _ => Ordering::Equal,
        };
        stable_sort_by(&mut v, cmp);
        assert_eq!(v, vec![1, 3, 2]);
    }

    #[test]
    fn survives_an_inconsistent_comparator() {
        let mut v: Vec<u32> = (0..100).collect();
        stable_sort_by(&mut v, |a, b| {
            if (a + b) % 3 == 0 {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        });
        let mut sorted = v.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    }
}
