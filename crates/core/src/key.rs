//! Ordering keys: a comparator's decision as a value that sorts on its own.
//!
//! A leaf with ten thousand apps cannot afford to re-sort on every container, so each
//! comparator can also produce an [`OrderKey`] per schedulable; ordered containers (a
//! `BTreeSet`) then keep the children in the comparator's order. Where the comparator is a
//! strict weak order, sorting by key and sorting by the comparator agree (a property test
//! pins this). The one case no key can reproduce is a ratio of 0/0 (NaN: weight 0 and no
//! usage, or a cluster of size 0), which Hadoop's subtraction makes "equal" to every other
//! ratio. Keys treat NaN as +inf: it ties with the other zero-weight ratios (x/0 = +inf), as
//! Hadoop does, and goes after every finite ratio, the deterministic rule fairsim documents
//! for that Hadoop bug.

/// Maps an `f64` to a `u64` whose unsigned order is the numeric order of the floats, with
/// `-0.0 == +0.0` and every NaN equal to `+inf`.
pub fn ord_f64(x: f64) -> u64 {
    if x.is_nan() {
        return ord_f64(f64::INFINITY);
    }
    // +0.0 and -0.0 must map together: adding 0.0 turns -0.0 into +0.0.
    let bits = (x + 0.0).to_bits();
    if bits >> 63 == 0 {
        bits | (1 << 63)
    } else {
        !bits
    }
}

/// A comparator's verdict for one schedulable, as a totally ordered value.
///
/// Compared field by field: `class` (bit-packed step outcomes such as "no demand" or "not
/// needy"; smaller is served first), the primary and secondary ratios (see [`ord_f64`]),
/// a third value, then the start time. The name tie-break is left to the caller (it is a string in
/// Hadoop; a simulator keeps a precomputed rank instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct OrderKey {
    /// Outcome of the comparator's discrete steps, most significant first.
    pub class: u32,
    /// The ratio compared first (min-share ratio, usage/weight or dominant share).
    pub primary: u64,
    /// The value compared on a tie of the first (DRF's non-dominant share; Hadoop 3.3
    /// fair: 1 for weight 0).
    pub secondary: u64,
    /// The value compared on a tie of the second (Hadoop 3.3 fair: usage / weight).
    pub tertiary: u64,
    /// Start time in ms.
    pub start_time_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ord_f64_is_monotone_and_merges_zeros() {
        let xs = [
            f64::NEG_INFINITY,
            -1e300,
            -1.0,
            -1e-300,
            0.0,
            1e-300,
            1.0,
            1e300,
            f64::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(ord_f64(w[0]) < ord_f64(w[1]), "{} < {}", w[0], w[1]);
        }
        assert_eq!(ord_f64(-0.0), ord_f64(0.0));
        assert_eq!(ord_f64(f64::NAN), ord_f64(f64::INFINITY));
    }
}
