//! A stable sort that behaves as Java's `List.sort` does on short lists and never panics.
//!
//! Hadoop sorts schedulables with `List.sort`, i.e. TimSort. On lists shorter than 32 TimSort
//! reverses a strictly descending prefix and then runs a binary insertion sort; reproducing
//! those exact steps makes fairsim's order equal to Hadoop's even where a comparator is
//! inconsistent (Hadoop 2.7's NaN ratios). Longer lists use a stable merge sort, which agrees
//! with TimSort whenever the comparator is a strict weak order. Rust's own `sort_by` may panic
//! on an inconsistent comparator, so it is not used here.

use std::cmp::Ordering;

const JAVA_MIN_MERGE: usize = 32;

/// Sorts `v` stably with `cmp`, as described in the module documentation.
pub fn stable_sort_by<T, F>(v: &mut [T], mut cmp: F)
where
    F: FnMut(&T, &T) -> Ordering,
{
    let n = v.len();
    if n < 2 {
        return;
    }
    if n < JAVA_MIN_MERGE {
        let run = count_run_and_make_ascending(v, &mut cmp);
        binary_insertion_sort(v, run, &mut cmp);
    } else {
        merge_sort(v, &mut cmp);
    }
}

fn count_run_and_make_ascending<T, F>(v: &mut [T], cmp: &mut F) -> usize
where
    F: FnMut(&T, &T) -> Ordering,
{
    let n = v.len();
    let mut hi = 1;
    if hi == n {
        return 1;
    }
    if cmp(&v[1], &v[0]).is_lt() {
        hi = 2;
        while hi < n && cmp(&v[hi], &v[hi - 1]).is_lt() {
            hi += 1;
        }
        v[..hi].reverse();
    } else {
        hi = 2;
        while hi < n && !cmp(&v[hi], &v[hi - 1]).is_lt() {
            hi += 1;
        }
    }
    hi
}

fn binary_insertion_sort<T, F>(v: &mut [T], sorted_prefix: usize, cmp: &mut F)
where
    F: FnMut(&T, &T) -> Ordering,
{
    for start in sorted_prefix.max(1)..v.len() {
        let (mut left, mut right) = (0, start);
        while left < right {
            let mid = (left + right) / 2;
            if cmp(&v[start], &v[mid]).is_lt() {
                right = mid;
            } else {
                left = mid + 1;
            }
        }
        v[left..=start].rotate_right(1);
    }
}

fn merge_sort<T, F>(v: &mut [T], cmp: &mut F)
where
    F: FnMut(&T, &T) -> Ordering,
{
    // Sort a permutation of indices, then apply it: T need not be Clone.
    let n = v.len();
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf = vec![0usize; n];
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                // Take from the right only when strictly smaller: stability.
                if cmp(&v[idx[j]], &v[idx[i]]).is_lt() {
                    buf[k] = idx[j];
                    j += 1;
                } else {
                    buf[k] = idx[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&idx[i..mid]);
            k += mid - i;
            buf[k..k + (hi - j)].copy_from_slice(&idx[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    apply_permutation(v, idx);
}

fn apply_permutation<T>(v: &mut [T], mut perm: Vec<usize>) {
    // perm[k] = index of the element that must end at position k.
    for start in 0..perm.len() {
        let mut cur = start;
        while perm[cur] != start {
            let next = perm[cur];
            v.swap(cur, next);
            perm[cur] = cur;
            cur = next;
        }
        perm[cur] = cur;
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
