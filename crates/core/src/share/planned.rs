//! The planned total of Hadoop's share search, `Σ share(i, R)`, in O(W log n) per R instead
//! of O(n) (W distinct weights among n open items).
//!
//! Hadoop's `resourceUsedWithWeightToResourceRatio` adds one truncated share per item,
//! `(int) min(max(w × R, min), max)`, in ints that wrap (2.7) or longs that saturate (3.3).
//! Both sums of the era's (non-negative) shares are independent of the order of the
//! additions: a wrapping sum is the exact sum modulo 2^32, and a saturating sum of
//! non-negative terms is the exact sum capped at `Long.MAX_VALUE`. So the items can be
//! regrouped freely. Within one weight, every item sees the same product `p = w × R`, and its
//! share is its max when `p >= max`, its min when `p <= min`, and `(int) p` in between (an
//! item whose min is not below its max always gets its max). With each weight's maxes and
//! mins sorted and their casts summed as prefixes, the items at their max or min are two
//! binary searches away and the rest are counted: the exact sum, so the search compares
//! exactly as Hadoop's loop does, for every R it tries.

/// The items of one weight: their maxes and mins sorted (each with the number of items it
/// stands for), with prefix sums of their casts and of the item counts.
#[derive(Debug, Clone)]
struct Class {
    weight: f64,
    n: u64,
    maxes: Vec<f64>,
    /// `max_sums[k]`: Σ cast(maxes[j]) × count over j < k.
    max_sums: Vec<i128>,
    /// `max_counts[k]`: Σ count over j < k.
    max_counts: Vec<u64>,
    mins: Vec<f64>,
    /// `min_sums[k]`: Σ cast(mins[j]) × count over j < k.
    min_sums: Vec<i128>,
    /// `min_counts[k]`: Σ count over j < k.
    min_counts: Vec<u64>,
}

/// At most this many distinct weights are grouped by a linear look-up; past it the items
/// are sorted by weight instead (sizebasedweight gives nearly every app its own weight).
const FEW_WEIGHTS: usize = 8;

/// Values (mins or maxes) of one weight, each with the number of items it stands for.
type Counted = Vec<(f64, u64)>;

/// Items grouped by weight (bits), as `(weight, mins, maxes)` per weight, each min and max
/// with its count. Which weights form
/// the classes, and which items each holds, does not depend on the grouping: only the order
/// of the classes does, and the planned total's exact sum ignores it.
#[derive(Debug, Default)]
struct WeightGroups {
    few: Vec<(u32, Counted, Counted)>,
    /// Past [`FEW_WEIGHTS`]: every item, `(weight, min, max, count)`, to sort.
    many: Vec<(u32, f64, f64, u64)>,
}

impl WeightGroups {
    fn push(&mut self, bits: u32, min: f64, max: f64, n: u64) {
        if !self.many.is_empty() {
            self.many.push((bits, min, max, n));
            return;
        }
        if let Some(g) = self.few.iter_mut().find(|g| g.0 == bits) {
            g.1.push((min, n));
            g.2.push((max, n));
            return;
        }
        if self.few.len() < FEW_WEIGHTS {
            self.few.push((bits, vec![(min, n)], vec![(max, n)]));
            return;
        }
        for (b, mins, maxes) in std::mem::take(&mut self.few) {
            self.many.extend(
                mins.into_iter()
                    .zip(maxes)
                    .map(|((lo, n), (hi, _))| (b, lo, hi, n)),
            );
        }
        self.many.push((bits, min, max, n));
    }

    fn into_classes(self) -> Vec<(u32, Counted, Counted)> {
        if self.many.is_empty() {
            return self.few;
        }
        let mut all = self.many;
        all.sort_unstable_by_key(|e| e.0);
        all.chunk_by(|a, b| a.0 == b.0)
            .map(|c| {
                (
                    c[0].0,
                    c.iter().map(|e| (e.1, e.3)).collect(),
                    c.iter().map(|e| (e.2, e.3)).collect(),
                )
            })
            .collect()
    }
}

/// The planned total of a fixed set of open items, for any ratio R.
#[derive(Debug, Clone)]
pub(super) struct Planned {
    classes: Vec<Class>,
    /// Σ over items whose min is not below their max: their max, whatever R.
    constant: i128,
    /// The era's cast of a share (`(int)` or `(long)` of a double).
    cast: fn(f64) -> i64,
}

impl Planned {
    /// `items`: (weight, min, max, count) of each open entry as the era reads them (min and
    /// max already as doubles), `count` alike items each; `cast`: the era's truncation of a
    /// share. `None` when a weight is not a positive finite number (the direct sum handles
    /// those).
    pub(super) fn new(
        items: impl Iterator<Item = (f32, f64, f64, u64)>,
        cast: fn(f64) -> i64,
    ) -> Option<Planned> {
        let mut groups = WeightGroups::default();
        let mut constant = 0i128;
        for (w, min, max, n) in items {
            if !(w.is_finite() && w > 0.0) || min.is_nan() || max.is_nan() {
                return None;
            }
            if min >= max {
                constant += cast(max) as i128 * n as i128;
            } else {
                groups.push(w.to_bits(), min, max, n);
            }
        }
        // Values sorted, then the prefix sums of their casts and of their counts.
        let prefix = |v: &mut Counted| {
            // Often already in order (equal maxes under one max share): a sorted slice is
            // recognised in one pass.
            v.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            let mut sums = Vec::with_capacity(v.len() + 1);
            let mut counts = Vec::with_capacity(v.len() + 1);
            let (mut s, mut c) = (0i128, 0u64);
            sums.push(s);
            counts.push(c);
            for &(x, n) in v.iter() {
                s += cast(x) as i128 * n as i128;
                c += n;
                sums.push(s);
                counts.push(c);
            }
            (sums, counts)
        };
        let classes = groups
            .into_classes()
            .into_iter()
            .map(|(bits, mut mins, mut maxes)| {
                let (max_sums, max_counts) = prefix(&mut maxes);
                let (min_sums, min_counts) = prefix(&mut mins);
                Class {
                    weight: f32::from_bits(bits) as f64,
                    n: max_counts[maxes.len()],
                    max_sums,
                    max_counts,
                    min_sums,
                    min_counts,
                    maxes: maxes.into_iter().map(|e| e.0).collect(),
                    mins: mins.into_iter().map(|e| e.0).collect(),
                }
            })
            .collect();
        Some(Planned {
            classes,
            constant,
            cast,
        })
    }

    /// The exact sum of every open item's share at ratio `r` (no wrap, no saturation).
    pub(super) fn total(&self, r: f64) -> i128 {
        let mut sum = self.constant;
        for c in &self.classes {
            let p = c.weight * r;
            // At their max: max <= p. At their min: min >= p (disjoint, as min < max).
            let at_max = c.maxes.partition_point(|&m| m <= p);
            let below_min = c.mins.partition_point(|&m| m < p);
            let at_min = c.min_counts[c.mins.len()] - c.min_counts[below_min];
            let between = c.n - c.max_counts[at_max] - at_min;
            sum += c.max_sums[at_max];
            sum += c.min_sums[c.mins.len()] - c.min_sums[below_min];
            sum += between as i128 * (self.cast)(p) as i128;
        }
        sum
    }
}
