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

/// The items of one weight: their maxes and mins sorted, with prefix sums of their casts.
#[derive(Debug, Clone)]
struct Class {
    weight: f64,
    n: u64,
    maxes: Vec<f64>,
    /// `max_sums[k]`: Σ cast(maxes[..k]).
    max_sums: Vec<i128>,
    mins: Vec<f64>,
    /// `min_sums[k]`: Σ cast(mins[..k]).
    min_sums: Vec<i128>,
}

/// At most this many distinct weights are grouped by a linear look-up; past it the items
/// are sorted by weight instead (sizebasedweight gives nearly every app its own weight).
const FEW_WEIGHTS: usize = 8;

/// Items grouped by weight (bits), as `(weight, mins, maxes)` per weight. Which weights form
/// the classes, and which items each holds, does not depend on the grouping: only the order
/// of the classes does, and the planned total's exact sum ignores it.
#[derive(Debug, Default)]
struct WeightGroups {
    few: Vec<(u32, Vec<f64>, Vec<f64>)>,
    /// Past [`FEW_WEIGHTS`]: every item, `(weight, min, max)`, to sort.
    many: Vec<(u32, f64, f64)>,
}

impl WeightGroups {
    fn push(&mut self, bits: u32, min: f64, max: f64) {
        if !self.many.is_empty() {
            self.many.push((bits, min, max));
            return;
        }
        if let Some(g) = self.few.iter_mut().find(|g| g.0 == bits) {
            g.1.push(min);
            g.2.push(max);
            return;
        }
        if self.few.len() < FEW_WEIGHTS {
            self.few.push((bits, vec![min], vec![max]));
            return;
        }
        for (b, mins, maxes) in std::mem::take(&mut self.few) {
            self.many
                .extend(mins.into_iter().zip(maxes).map(|(lo, hi)| (b, lo, hi)));
        }
        self.many.push((bits, min, max));
    }

    fn into_classes(self) -> Vec<(u32, Vec<f64>, Vec<f64>)> {
        if self.many.is_empty() {
            return self.few;
        }
        let mut all = self.many;
        all.sort_unstable_by_key(|e| e.0);
        all.chunk_by(|a, b| a.0 == b.0)
            .map(|c| {
                (
                    c[0].0,
                    c.iter().map(|e| e.1).collect(),
                    c.iter().map(|e| e.2).collect(),
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
    /// `items`: (weight, min, max) of each open item as the era reads them (min and max
    /// already as doubles); `cast`: the era's truncation of a share. `None` when a weight is
    /// not a positive finite number (the direct sum handles those).
    pub(super) fn new(
        items: impl Iterator<Item = (f32, f64, f64)>,
        cast: fn(f64) -> i64,
    ) -> Option<Planned> {
        let mut groups = WeightGroups::default();
        let mut constant = 0i128;
        for (w, min, max) in items {
            if !(w.is_finite() && w > 0.0) || min.is_nan() || max.is_nan() {
                return None;
            }
            if min >= max {
                constant += cast(max) as i128;
            } else {
                groups.push(w.to_bits(), min, max);
            }
        }
        let prefix = |v: &[f64]| {
            let mut out = Vec::with_capacity(v.len() + 1);
            let mut s = 0i128;
            out.push(s);
            for &x in v {
                s += cast(x) as i128;
                out.push(s);
            }
            out
        };
        let classes = groups
            .into_classes()
            .into_iter()
            .map(|(bits, mut mins, mut maxes)| {
                // Often already in order (equal maxes under one max share): a sorted slice
                // is recognised in one pass.
                maxes.sort_unstable_by(f64::total_cmp);
                mins.sort_unstable_by(f64::total_cmp);
                Class {
                    weight: f32::from_bits(bits) as f64,
                    n: maxes.len() as u64,
                    max_sums: prefix(&maxes),
                    min_sums: prefix(&mins),
                    maxes,
                    mins,
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
            let at_min = c.mins.len() - below_min;
            let between = c.n - at_max as u64 - at_min as u64;
            sum += c.max_sums[at_max];
            sum += c.min_sums[c.mins.len()] - c.min_sums[below_min];
            sum += between as i128 * (self.cast)(p) as i128;
        }
        sum
    }
}
