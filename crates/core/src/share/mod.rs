//! Fair shares: Hadoop's `ComputeFairShares` per era, an exact solver, and the policies'
//! use of them (fair: memory only; DRF: each type on its own; FIFO: all to the earliest).
//!
//! Fair shares do not depend on demand in Hadoop (2.1 and later): only inactive queues are
//! left out of instantaneous shares, and max shares cap. [`ShareCap::Demand`] is fairsim's
//! own option that caps by demand as well, which gives the max-min allocations of the seed
//! documents' worked examples.

mod exact;
mod hadoop;
mod planned;

pub use exact::exact_shares;
pub use hadoop::{
    AtMaxSums, hadoop_shares, hadoop_shares_counted, hadoop_shares_direct, share_at_max,
};

use crate::resource::ResourceKind;
use crate::{Policy, Resource, Schedulable, Semantics};
use serde::{Deserialize, Serialize};

/// One schedulable as the share computation sees one resource type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShareItem {
    /// Weight (float32, as Hadoop stores it).
    pub weight: f32,
    /// Min share of this type.
    pub min: i64,
    /// Max share of this type (`i64::MAX` when unbounded).
    pub max: i64,
    /// False for an inactive queue: its instantaneous share is fixed at 0.
    pub active: bool,
}

/// Instantaneous shares leave inactive queues out; steady shares include every queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShareKind {
    /// `computeShares`: inactive queues get 0.
    #[default]
    Instantaneous,
    /// `computeSteadyShares`: all queues take part.
    Steady,
}

/// Hadoop's integer bisection or the exact real-valued answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rounding {
    /// Doubling, 25 bisection steps, truncation: exactly Hadoop's numbers.
    #[default]
    Hadoop,
    /// Exact water-filling in real numbers.
    Exact,
}

/// What caps a share from above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ShareCap {
    /// The max share only, as Hadoop does.
    #[default]
    MaxShare,
    /// min(max share, demand): demand-capped max-min fairness (not Hadoop).
    Demand,
}

/// Why a share is fixed rather than searched for; the rule is the same in 2.7 and 3.3.
pub(crate) fn fixed_share(item: &ShareItem, kind: ShareKind) -> Option<i64> {
    if item.max <= 0 {
        return Some(0);
    }
    if kind == ShareKind::Instantaneous && !item.active {
        return Some(0);
    }
    if item.weight <= 0.0 {
        return Some(item.min.max(0));
    }
    None
}

fn items_for(list: &[Schedulable], kind: ResourceKind, cap: ShareCap) -> Vec<ShareItem> {
    list.iter()
        .map(|s| {
            let max = match cap {
                ShareCap::MaxShare => s.max_share.get(kind),
                ShareCap::Demand => s.max_share.get(kind).min(s.demand.get(kind)),
            };
            ShareItem {
                weight: s.weight,
                min: s.min_share.get(kind),
                max,
                active: s.active,
            }
        })
        .collect()
}

/// The types a policy computes shares for: fair and FIFO memory only, DRF both.
fn kinds(policy: Policy) -> &'static [ResourceKind] {
    match policy {
        Policy::Drf => &ResourceKind::ALL,
        Policy::Fair | Policy::Fifo => &ResourceKind::ALL[..1],
    }
}

/// FIFO's computeShares: the earliest start (first on a tie) gets the whole total; the
/// others are left untouched by Hadoop, which fairsim reports as 0. Steady: nothing.
fn fifo_shares<T: Copy + Default>(list: &[Schedulable], kind: ShareKind, total: T) -> Vec<T> {
    let mut out = vec![T::default(); list.len()];
    if kind == ShareKind::Instantaneous {
        let mut earliest: Option<usize> = None;
        for (i, s) in list.iter().enumerate() {
            if earliest.is_none_or(|e| s.start_time_ms < list[e].start_time_ms) {
                earliest = Some(i);
            }
        }
        if let Some(e) = earliest {
            out[e] = total;
        }
    }
    out
}

/// A policy's fair shares of `total` among `list`, with Hadoop's arithmetic.
///
/// Under the fair policy only memory is computed (vcores stay 0, as in Hadoop).
pub fn policy_shares(
    semantics: Semantics,
    policy: Policy,
    kind: ShareKind,
    list: &[Schedulable],
    total: Resource,
    cap: ShareCap,
) -> Vec<Resource> {
    if policy == Policy::Fifo {
        return fifo_shares(list, kind, total);
    }
    let mut out = vec![Resource::ZERO; list.len()];
    for &k in kinds(policy) {
        let shares = hadoop_shares(semantics, kind, &items_for(list, k, cap), total.get(k));
        for (o, v) in out.iter_mut().zip(shares) {
            o.set(k, v);
        }
    }
    out
}

/// Alike active schedulables of one configuration, and how many there are (see
/// [`policy_shares_counted`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ItemClass {
    /// Weight (float32, as Hadoop stores it).
    pub weight: f32,
    /// Min share.
    pub min_share: Resource,
    /// Max share.
    pub max_share: Resource,
    /// How many active schedulables have this configuration.
    pub count: u64,
}

/// [`policy_shares`] with [`ShareCap::MaxShare`] over a list of active schedulables given by
/// configuration: the share of each of `count` alike schedulables per class, which is the
/// share each of them gets from the whole list (see [`hadoop_shares_counted`]). Demand,
/// usage and start times are not read under this cap by the fair and DRF policies; FIFO's
/// shares read start times, so it has no answer here (`None`).
pub fn policy_shares_counted(
    semantics: Semantics,
    policy: Policy,
    kind: ShareKind,
    classes: &[ItemClass],
    total: Resource,
) -> Option<Vec<Resource>> {
    if policy == Policy::Fifo {
        return None;
    }
    let mut out = vec![Resource::ZERO; classes.len()];
    let mut entries = Vec::with_capacity(classes.len());
    for &k in kinds(policy) {
        entries.clear();
        entries.extend(classes.iter().map(|c| {
            let item = ShareItem {
                weight: c.weight,
                min: c.min_share.get(k),
                max: c.max_share.get(k),
                active: true,
            };
            (item, c.count)
        }));
        let shares = hadoop_shares_counted(semantics, kind, &entries, total.get(k));
        for (o, v) in out.iter_mut().zip(shares) {
            o.set(k, v);
        }
    }
    Some(out)
}

/// A policy's fair shares as exact real numbers: `[memory, vcores]` per schedulable.
pub fn policy_shares_exact(
    policy: Policy,
    kind: ShareKind,
    list: &[Schedulable],
    total: Resource,
    cap: ShareCap,
) -> Vec<[f64; 2]> {
    if policy == Policy::Fifo {
        let t = [total.memory_mb as f64, 0.0];
        return fifo_shares(list, kind, t);
    }
    let mut out = vec![[0.0; 2]; list.len()];
    for (slot, &k) in kinds(policy).iter().enumerate() {
        let shares = exact_shares(kind, &items_for(list, k, cap), total.get(k) as f64);
        for (o, v) in out.iter_mut().zip(shares) {
            o[slot] = v;
        }
    }
    out
}
