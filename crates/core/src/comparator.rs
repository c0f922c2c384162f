//! The Fair Scheduler's comparators (fair, DRF, FIFO) for each era, with Hadoop's arithmetic.
//!
//! `compare(a, b) < 0` means `a` is offered resources before `b`, as in Hadoop. Each era's
//! arithmetic is reproduced where it changes a decision: Hadoop 2.7 divides a 32-bit int
//! usage by a float32 weight (a float32 ratio), DRF 2.7 computes float32 shares and breaks
//! ties by an int cast of the start-time difference with no name tie-break; Hadoop 3.3 has
//! the demand step (memory only), the zero-weight rule, long arithmetic and DRF's
//! `Comparator2` with or without the YARN-11482 fix.

use crate::key::{OrderKey, ord_f64};
use crate::sort::stable_sort_by;
use crate::{Policy, Resource, Schedulable, Semantics};
use std::cmp::Ordering;

/// Which step of a comparator decided between two schedulables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DecidedBy {
    /// Hadoop 3.3: one has a memory demand of 0 and the other does not.
    Demand,
    /// One is below min(minShare, demand) and the other is not.
    Needy,
    /// Both needy: the smaller usage / min share ratio.
    MinShareRatio,
    /// Neither needy: the smaller usage / weight (fair) or weighted dominant share (DRF).
    FairShareRatio,
    /// Hadoop 3.3: exactly one has weight 0; the positive weight goes first.
    ZeroWeight,
    /// The earlier start time.
    StartTime,
    /// The name, by Java's string order.
    Name,
    /// Nothing decided; the stable sort kept the input order.
    InputOrder,
}

impl DecidedBy {
    /// A short phrase for reports.
    pub fn describe(self) -> &'static str {
        match self {
            DecidedBy::Demand => "has demand while the next has none",
            DecidedBy::Needy => "is needy (below its min share) while the next is not",
            DecidedBy::MinShareRatio => "both needy; lower usage / min-share ratio",
            DecidedBy::FairShareRatio => "lower usage / weight ratio",
            DecidedBy::ZeroWeight => "positive weight beats weight 0",
            DecidedBy::StartTime => "tied on ratios; started earlier",
            DecidedBy::Name => "tied on ratios and start time; name sorts first",
            DecidedBy::InputOrder => "tied on everything; input order kept",
        }
    }
}

/// One place in a ranking: the schedulable's input index and why it stands there.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// Index in the input list.
    pub index: usize,
    /// The schedulable's own standing (needy and its ratio, usage/weight, ...).
    pub standing: String,
    /// What put it ahead of the next one (`None` for the last place).
    pub ahead_by: Option<DecidedBy>,
}

/// A policy's comparator, bound to an era and a cluster size (DRF reads the cluster).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Comparator {
    /// The Hadoop era.
    pub semantics: Semantics,
    /// The policy.
    pub policy: Policy,
    /// The cluster's total resource (DRF's denominator).
    pub cluster: Resource,
    /// Hadoop 3.3 DRF: read the second schedulable's own usage for its neediness
    /// (YARN-11482). `false` reproduces the code before the fix.
    pub drf_yarn11482_fix: bool,
}

fn signum_f64(x: f64) -> i32 {
    // Java's (int) Math.signum: NaN and both zeros give 0.
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Java's `String.compareTo`: UTF-16 code units, lexicographic.
fn java_string_cmp(a: &str, b: &str) -> Ordering {
    if a.is_ascii() && b.is_ascii() {
        return a.as_bytes().cmp(b.as_bytes());
    }
    a.encode_utf16().cmp(b.encode_utf16())
}

fn start_sign(a: &Schedulable, b: &Schedulable) -> i32 {
    signum_f64(a.start_time_ms.wrapping_sub(b.start_time_ms) as f64)
}

fn ord_of(sign: i32) -> Ordering {
    sign.cmp(&0)
}

// ---- Hadoop 2.7 fair -------------------------------------------------------------------

struct Fair27 {
    needy: bool,
    min_share_ratio: f64,
    use_to_weight: f64,
}

fn fair27(s: &Schedulable) -> Fair27 {
    // Resources.min / lessThan / max with the memory-only calculator.
    let min_share = s.min_share.memory_mb.min(s.demand.memory_mb);
    let usage = s.usage.memory_mb as i32;
    Fair27 {
        needy: (usage as i64) < min_share,
        min_share_ratio: usage as f64 / min_share.max(1) as f64,
        // int / float is float division in Java.
        use_to_weight: (usage as f32 / s.weight) as f64,
    }
}

// ---- Hadoop 3.3 fair -------------------------------------------------------------------

struct Fair33 {
    no_demand: bool,
    needy: bool,
    min_share_ratio: f64,
    zero_weight: bool,
    use_to_weight: f64,
}

fn fair33(s: &Schedulable) -> Fair33 {
    let min_share = s.min_share.memory_mb.min(s.demand.memory_mb);
    let usage = s.usage.memory_mb;
    let mut ratio = usage as f64;
    if min_share > 1 {
        ratio /= min_share as f64;
    }
    let weight = s.weight as f64;
    Fair33 {
        no_demand: s.demand.memory_mb == 0,
        needy: usage < min_share,
        min_share_ratio: ratio,
        zero_weight: weight <= 0.0,
        use_to_weight: if weight > 0.0 {
            usage as f64 / weight
        } else {
            usage as f64
        },
    }
}

// ---- DRF ---------------------------------------------------------------------------------

/// Shares of one schedulable under DRF: `shares[0]` memory, `shares[1]` vcores, already
/// weighted; `dominant` the index compared first.
struct Drf<T> {
    shares: [T; 2],
    min_ratios: [T; 2],
    dominant: usize,
}

/// What DRF compares of one schedulable, in f64 whatever the era computed in.
struct DrfView {
    needy: bool,
    dominant: usize,
    shares: [f64; 2],
    min_ratios: [f64; 2],
}

fn drf27(s: &Schedulable, cluster: Resource) -> Drf<f32> {
    let um = s.usage.memory_mb as i32 as f32;
    let uv = s.usage.vcores as i32 as f32;
    // pool * weight is int * float: the int is rounded to float first.
    let sm = um / (cluster.memory_mb as i32 as f32 * s.weight);
    let sv = uv / (cluster.vcores as i32 as f32 * s.weight);
    let mm = um / (s.min_share.memory_mb as i32 as f32 * 1.0f32);
    let mv = uv / (s.min_share.vcores as i32 as f32 * 1.0f32);
    // Memory comes first only when its share is strictly larger: ties put vcores first.
    let dominant = if sm > sv { 0 } else { 1 };
    Drf {
        shares: [sm, sv],
        min_ratios: [mm, mv],
        dominant,
    }
}

fn drf33(s: &Schedulable, cluster: Resource) -> Drf<f64> {
    let w = s.weight as f64;
    let sm = s.usage.memory_mb as f64 / cluster.memory_mb as f64;
    let sv = s.usage.vcores as f64 / cluster.vcores as f64;
    // Ties put memory first (the opposite of 2.7).
    let dominant = if sv > sm { 1 } else { 0 };
    let mm = s.usage.memory_mb as f64 / s.min_share.memory_mb as f64;
    let mv = s.usage.vcores as f64 / s.min_share.vcores as f64;
    Drf {
        shares: [sm / w, sv / w],
        min_ratios: [mm, mv],
        dominant,
    }
}

fn get(r: Resource, i: usize) -> i64 {
    if i == 0 { r.memory_mb } else { r.vcores }
}

impl Comparator {
    /// A comparator for `policy` under `semantics` on a cluster of `cluster` (with the
    /// YARN-11482 fix on, as current Hadoop has it).
    pub fn new(semantics: Semantics, policy: Policy, cluster: Resource) -> Comparator {
        Comparator {
            semantics,
            policy,
            cluster,
            drf_yarn11482_fix: true,
        }
    }

    /// Whether the last tie-break is the name (false only for Hadoop 2.7 DRF).
    pub fn breaks_ties_by_name(&self) -> bool {
        !(self.semantics == Semantics::Hadoop27 && self.policy == Policy::Drf)
    }

    /// Whether `compare` is a strict total order on schedulables with distinct names,
    /// whatever their usage, demand, shares and start times, given whether every weight is
    /// positive: then sorting a list gives one order whatever the list's order before.
    ///
    /// Fair and FIFO compare per-schedulable values in a fixed sequence and end on the name,
    /// except that Hadoop 2.7's fair step divides by the weight, and 0 / 0 is NaN, which ties
    /// with every ratio (not transitive). DRF is left out: 2.7 has no name step, 3.3 before
    /// YARN-11482 judges one side's neediness on the other's usage, and its shares divide by
    /// the cluster's resources, which may be 0 vcores.
    pub fn orders_totally(&self, weights_positive: bool) -> bool {
        match (self.semantics, self.policy) {
            (_, Policy::Fifo) | (Semantics::Hadoop33, Policy::Fair) => true,
            (Semantics::Hadoop27, Policy::Fair) => weights_positive,
            (_, Policy::Drf) => false,
        }
    }

    /// Hadoop's `compare(a, b)`: `Less` means `a` is served first.
    pub fn compare(&self, a: &Schedulable, b: &Schedulable) -> Ordering {
        self.compare_detailed(a, b).0
    }

    /// Like [`Comparator::compare`], with the step that decided.
    pub fn compare_detailed(&self, a: &Schedulable, b: &Schedulable) -> (Ordering, DecidedBy) {
        let (sign, step) = match (self.semantics, self.policy) {
            (_, Policy::Fifo) => (0, DecidedBy::InputOrder),
            (Semantics::Hadoop27, Policy::Fair) => self.fair27_sign(a, b),
            (Semantics::Hadoop33, Policy::Fair) => self.fair33_sign(a, b),
            (_, Policy::Drf) => self.drf_sign(a, b),
        };
        if sign != 0 {
            return (ord_of(sign), step);
        }
        if self.semantics == Semantics::Hadoop27 && self.policy == Policy::Drf {
            // (int)(start1 - start2): the long difference narrowed to 32 bits, no name step.
            let diff = a.start_time_ms.wrapping_sub(b.start_time_ms) as i32;
            return if diff != 0 {
                (ord_of(diff.signum()), DecidedBy::StartTime)
            } else {
                (Ordering::Equal, DecidedBy::InputOrder)
            };
        }
        let s = start_sign(a, b);
        if s != 0 {
            return (ord_of(s), DecidedBy::StartTime);
        }
        match java_string_cmp(&a.name, &b.name) {
            Ordering::Equal => (Ordering::Equal, DecidedBy::InputOrder),
            o => (o, DecidedBy::Name),
        }
    }

    fn fair27_sign(&self, a: &Schedulable, b: &Schedulable) -> (i32, DecidedBy) {
        let (x, y) = (fair27(a), fair27(b));
        match (x.needy, y.needy) {
            (true, false) => (-1, DecidedBy::Needy),
            (false, true) => (1, DecidedBy::Needy),
            (true, true) => (
                signum_f64(x.min_share_ratio - y.min_share_ratio),
                DecidedBy::MinShareRatio,
            ),
            (false, false) => (
                signum_f64(x.use_to_weight - y.use_to_weight),
                DecidedBy::FairShareRatio,
            ),
        }
    }

    fn fair33_sign(&self, a: &Schedulable, b: &Schedulable) -> (i32, DecidedBy) {
        let (x, y) = (fair33(a), fair33(b));
        if x.no_demand && b.demand.memory_mb > 0 {
            return (1, DecidedBy::Demand);
        }
        if y.no_demand && a.demand.memory_mb > 0 {
            return (-1, DecidedBy::Demand);
        }
        match (x.needy, y.needy) {
            (true, false) => return (-1, DecidedBy::Needy),
            (false, true) => return (1, DecidedBy::Needy),
            (true, true) => {
                let s = signum_f64(x.min_share_ratio - y.min_share_ratio);
                if s != 0 {
                    return (s, DecidedBy::MinShareRatio);
                }
            }
            (false, false) => {}
        }
        // The fair-share step runs whenever the earlier steps tied, needy or not.
        let (wa, wb) = (a.weight as f64, b.weight as f64);
        if wa > 0.0 && wb > 0.0 || wa == wb {
            (
                signum_f64(x.use_to_weight - y.use_to_weight),
                DecidedBy::FairShareRatio,
            )
        } else {
            (signum_f64(-wa - -wb), DecidedBy::ZeroWeight)
        }
    }

    /// DRF's view of one schedulable in this era; `needy_usage` is the usage its neediness is
    /// judged on (its own, except in 3.3 before YARN-11482).
    fn drf_view(&self, s: &Schedulable, needy_usage: Resource) -> DrfView {
        match self.semantics {
            Semantics::Hadoop27 => {
                let d = drf27(s, self.cluster);
                // Widening f32 to f64 keeps every comparison's outcome, NaN and inf included.
                let widen = |v: [f32; 2]| [v[0] as f64, v[1] as f64];
                DrfView {
                    needy: d.min_ratios[d.dominant] < 1.0,
                    dominant: d.dominant,
                    shares: widen(d.shares),
                    min_ratios: widen(d.min_ratios),
                }
            }
            Semantics::Hadoop33 => {
                let d = drf33(s, self.cluster);
                DrfView {
                    needy: get(needy_usage, d.dominant) < get(s.min_share, d.dominant),
                    dominant: d.dominant,
                    shares: d.shares,
                    min_ratios: d.min_ratios,
                }
            }
        }
    }

    fn drf_sign(&self, a: &Schedulable, b: &Schedulable) -> (i32, DecidedBy) {
        let x = self.drf_view(a, a.usage);
        // Before YARN-11482 the second test read the first schedulable's usage.
        let buggy = self.semantics == Semantics::Hadoop33 && !self.drf_yarn11482_fix;
        let y = self.drf_view(b, if buggy { a.usage } else { b.usage });
        let positional = |p: &[f64; 2], q: &[f64; 2]| {
            let s = signum_f64(p[x.dominant] - q[y.dominant]);
            if s != 0 {
                s
            } else {
                signum_f64(p[1 - x.dominant] - q[1 - y.dominant])
            }
        };
        match (x.needy, y.needy) {
            (false, false) => (positional(&x.shares, &y.shares), DecidedBy::FairShareRatio),
            (true, false) => (-1, DecidedBy::Needy),
            (false, true) => (1, DecidedBy::Needy),
            (true, true) => (
                positional(&x.min_ratios, &y.min_ratios),
                DecidedBy::MinShareRatio,
            ),
        }
    }

    /// The ordering key of `s`: sorting by `(key, name)` (by key alone for Hadoop 2.7 DRF)
    /// gives the comparator's order wherever the comparator is a strict weak order, but for
    /// Hadoop 2.7 fair lists holding a weight-0 schedulable with no memory used: its
    /// usage / weight is NaN, which ties with every ratio (so the start time decides against
    /// any other), and no key can; likewise a DRF share of 0 / 0 (a weight of 0, a cluster
    /// without memory or vcores). The engine builds Hadoop's own order for such runs instead.
    ///
    /// Hadoop 3.3 DRF without the YARN-11482 fix has no key (its neediness of one side
    /// depends on the other); the key follows the fixed comparator.
    pub fn key(&self, s: &Schedulable) -> OrderKey {
        let start_time_ms = s.start_time_ms;
        match (self.semantics, self.policy) {
            (_, Policy::Fifo) => OrderKey {
                start_time_ms,
                ..OrderKey::default()
            },
            (Semantics::Hadoop27, Policy::Fair) => {
                let f = fair27(s);
                let ratio = if f.needy {
                    f.min_share_ratio
                } else {
                    f.use_to_weight
                };
                OrderKey {
                    class: u32::from(!f.needy),
                    primary: ord_f64(ratio),
                    start_time_ms,
                    ..OrderKey::default()
                }
            }
            (Semantics::Hadoop33, Policy::Fair) => {
                let f = fair33(s);
                // Needy ones compare by min-share ratio and, on a tie, fall through to the
                // fair-share step; the others go straight to it.
                OrderKey {
                    class: (u32::from(f.no_demand) << 1) | u32::from(!f.needy),
                    primary: if f.needy {
                        ord_f64(f.min_share_ratio)
                    } else {
                        0
                    },
                    secondary: u64::from(f.zero_weight),
                    tertiary: ord_f64(f.use_to_weight),
                    start_time_ms,
                }
            }
            (_, Policy::Drf) => {
                let d = self.drf_view(s, s.usage);
                let v = if d.needy { d.min_ratios } else { d.shares };
                OrderKey {
                    class: u32::from(!d.needy),
                    primary: ord_f64(v[d.dominant]),
                    secondary: ord_f64(v[1 - d.dominant]),
                    tertiary: 0,
                    start_time_ms,
                }
            }
        }
    }

    /// A one-line account of where `s` stands under this comparator.
    pub fn standing(&self, s: &Schedulable) -> String {
        match (self.semantics, self.policy) {
            (_, Policy::Fifo) => format!("fifo: start time {} ms", s.start_time_ms),
            (Semantics::Hadoop27, Policy::Fair) => {
                let f = fair27(s);
                if f.needy {
                    format!(
                        "needy: usage {} MB < min(minShare, demand) {} MB; min-share ratio {:.6}",
                        s.usage.memory_mb,
                        s.min_share.memory_mb.min(s.demand.memory_mb),
                        f.min_share_ratio
                    )
                } else {
                    format!(
                        "usage/weight {} ({} MB / weight {})",
                        fmt_ratio(f.use_to_weight),
                        s.usage.memory_mb,
                        s.weight
                    )
                }
            }
            (Semantics::Hadoop33, Policy::Fair) => {
                let f = fair33(s);
                let demand = if f.no_demand {
                    "no memory demand (served last); "
                } else {
                    ""
                };
                if f.needy {
                    format!(
                        "{demand}needy: usage {} MB < min(minShare, demand) {} MB; min-share ratio {:.6}",
                        s.usage.memory_mb,
                        s.min_share.memory_mb.min(s.demand.memory_mb),
                        f.min_share_ratio
                    )
                } else if f.zero_weight {
                    format!(
                        "{demand}weight 0: after every positive weight; usage {} MB",
                        s.usage.memory_mb
                    )
                } else {
                    format!(
                        "{demand}usage/weight {} ({} MB / weight {})",
                        fmt_ratio(f.use_to_weight),
                        s.usage.memory_mb,
                        s.weight
                    )
                }
            }
            (_, Policy::Drf) => {
                let d = self.drf_view(s, s.usage);
                let (needy, dominant) = (d.needy, d.dominant);
                let v = if needy { d.min_ratios } else { d.shares };
                let dom = if dominant == 0 { "memory" } else { "vcores" };
                if needy {
                    format!(
                        "needy on dominant {dom}: usage/minShare {} then {}",
                        fmt_ratio(v[dominant]),
                        fmt_ratio(v[1 - dominant])
                    )
                } else {
                    format!(
                        "dominant {dom}: weighted share {} then {}",
                        fmt_ratio(v[dominant]),
                        fmt_ratio(v[1 - dominant])
                    )
                }
            }
        }
    }

    /// Sorts `items` as Hadoop's `List.sort` would with this comparator and explains each
    /// place. First served first.
    pub fn rank(&self, items: &[Schedulable]) -> Vec<Placement> {
        let mut order: Vec<usize> = (0..items.len()).collect();
        stable_sort_by(&mut order, |&i, &j| self.compare(&items[i], &items[j]));
        let mut out = Vec::with_capacity(order.len());
        for (pos, &i) in order.iter().enumerate() {
            let ahead_by = order
                .get(pos + 1)
                .map(|&j| self.compare_detailed(&items[i], &items[j]).1);
            out.push(Placement {
                index: i,
                standing: self.standing(&items[i]),
                ahead_by,
            });
        }
        out
    }
}

fn fmt_ratio(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sched(name: &str, usage: i64, min: i64, demand: i64, weight: f32) -> Schedulable {
        Schedulable {
            usage: Resource::new(usage, 0),
            min_share: Resource::new(min, 0),
            demand: Resource::new(demand, 0),
            weight,
            ..Schedulable::new(name)
        }
    }

    #[test]
    fn java_string_order_is_utf16() {
        assert_eq!(java_string_cmp("a", "b"), Ordering::Less);
        // U+FF61 (one UTF-16 unit 0xFF61) sorts after U+1F600 (surrogates 0xD83D...) in Java,
        // although its UTF-8 bytes sort first.
        assert_eq!(java_string_cmp("\u{FF61}", "\u{1F600}"), Ordering::Greater);
    }

    #[test]
    fn a_hadoop27_zero_weight_breaks_the_total_order() {
        // Nobody below its min share (0). y: 0 MB at weight 0, ratio 0 / 0 = NaN, tied on the
        // ratio with everyone and ordered by name; x and z: 2,048 and 1,024 MB at weight 1.
        // z < x by ratio, x < y and y < z by name: a cycle, so a sorted list's order
        // depends on the order it had.
        let c = Comparator::new(Semantics::Hadoop27, Policy::Fair, Resource::new(100, 10));
        let (x, y, z) = (
            sched("x", 2048, 0, 4096, 1.0),
            sched("y", 0, 0, 4096, 0.0),
            sched("z", 1024, 0, 4096, 1.0),
        );
        assert_eq!(c.compare(&z, &x), Ordering::Less);
        assert_eq!(c.compare(&x, &y), Ordering::Less);
        assert_eq!(c.compare(&y, &z), Ordering::Less);
        assert!(!c.orders_totally(false));
        assert!(c.orders_totally(true));
        // Hadoop 3.3 puts a zero weight after the positive ones instead: total either way.
        let c33 = Comparator::new(Semantics::Hadoop33, Policy::Fair, Resource::new(100, 10));
        assert_eq!(c33.compare(&z, &x), Ordering::Less);
        assert_eq!(c33.compare(&x, &y), Ordering::Less);
        assert_eq!(c33.compare(&z, &y), Ordering::Less);
        assert!(c33.orders_totally(false));
        for semantics in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let drf = Comparator::new(semantics, Policy::Drf, Resource::new(100, 10));
            assert!(!drf.orders_totally(true));
            let fifo = Comparator::new(semantics, Policy::Fifo, Resource::new(100, 10));
            assert!(fifo.orders_totally(false));
        }
    }

    #[test]
    fn hadoop27_zero_weight_and_zero_usage_ties_on_ratio() {
        let c = Comparator::new(Semantics::Hadoop27, Policy::Fair, Resource::new(100, 10));
        let a = Schedulable {
            start_time_ms: 5,
            ..sched("a", 0, 0, 10, 0.0)
        };
        let b = Schedulable {
            start_time_ms: 1,
            ..sched("b", 50, 0, 10, 1.0)
        };
        // 0/0 is NaN: the fairness step ties and the earlier start wins.
        assert_eq!(
            c.compare_detailed(&a, &b),
            (Ordering::Greater, DecidedBy::StartTime)
        );
    }
}
