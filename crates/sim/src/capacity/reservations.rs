//! The Capacity Scheduler's reservation books and arithmetic (Hadoop's `FiCaSchedulerApp`
//! reserved containers and `RegularContainerAllocator.shouldAllocOrReserveNewContainer`).
//!
//! A node holds at most one reservation (`cluster.nodes[n].reservation`, shared with the
//! Fair Scheduler); these books add what the Capacity Scheduler reads besides: the resources
//! reserved under each queue (a reservation is charged to its leaf and every ancestor as
//! used, `LeafQueue.allocateResource`, so it counts against queue limits, user limits and
//! the order of queues), and per app and priority the nodes it holds and how many times a
//! kept reservation was re-reserved since the last new reservation or release
//! (`getReReservations`).

use crate::tree::QueueId;
use fairsim_core::{Calculator, Resource};
use std::collections::{BTreeMap, BTreeSet};

/// One priority's reservations of an app.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PriorityReserved {
    /// The nodes reserved, by index.
    pub nodes: BTreeSet<u32>,
    /// Heartbeats that found a kept reservation still not fitting (`addReReservation`),
    /// since the last new reservation or release at this priority.
    pub re_reservations: u32,
}

/// An app's reservations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AppReserved {
    /// The leaf the reservations are charged to.
    pub leaf: u32,
    /// The sum of its reserved containers (`getCurrentReservation`).
    pub total: Resource,
    /// Its reservations per request priority.
    pub by_priority: BTreeMap<i32, PriorityReserved>,
}

/// Every reservation's charge (see the module text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reservations {
    /// Reserved resources under each queue, by queue index (missing: none).
    queue: Vec<Resource>,
    /// Per app holding at least one reservation.
    apps: BTreeMap<u32, AppReserved>,
}

impl Reservations {
    /// The resources reserved under queue `q`.
    pub fn queue(&self, q: QueueId) -> Resource {
        self.queue.get(q.idx()).copied().unwrap_or(Resource::ZERO)
    }

    /// The resources app `a` holds reserved.
    pub fn app(&self, a: u32) -> Resource {
        self.apps.get(&a).map_or(Resource::ZERO, |r| r.total)
    }

    /// App `a`'s reservations at `priority`, if any.
    pub fn at(&self, a: u32, priority: i32) -> Option<&PriorityReserved> {
        self.apps.get(&a)?.by_priority.get(&priority)
    }

    /// The leaf app `a`'s reservations are charged to, while it holds any.
    pub fn leaf_of(&self, a: u32) -> Option<QueueId> {
        self.apps.get(&a).map(|r| QueueId(r.leaf))
    }

    /// The nodes reserved for app `a` at `priority`.
    pub fn count(&self, a: u32, priority: i32) -> u32 {
        self.at(a, priority).map_or(0, |p| p.nodes.len() as u32)
    }

    /// The re-reservations of app `a` at `priority`.
    pub fn re_reservations(&self, a: u32, priority: i32) -> u32 {
        self.at(a, priority).map_or(0, |p| p.re_reservations)
    }

    /// Every node reserved for app `a`, ascending.
    pub fn nodes_of(&self, a: u32) -> Vec<u32> {
        let Some(r) = self.apps.get(&a) else {
            return Vec::new();
        };
        let mut v: Vec<u32> = r
            .by_priority
            .values()
            .flat_map(|p| p.nodes.iter().copied())
            .collect();
        v.sort_unstable();
        v
    }

    /// Whether any reservation is held.
    pub fn is_empty(&self) -> bool {
        self.apps.is_empty()
    }

    /// Apps holding reservations, with their books.
    pub fn iter(&self) -> impl Iterator<Item = (&u32, &AppReserved)> {
        self.apps.iter()
    }

    /// Charges `size` to `leaf` and each of its `ancestors` (`sign` 1) or takes it back (-1).
    fn charge(&mut self, path: &[QueueId], size: Resource, sign: i64) {
        for q in path {
            if self.queue.len() <= q.idx() {
                self.queue.resize(q.idx() + 1, Resource::ZERO);
            }
            let r = &mut self.queue[q.idx()];
            *r = if sign > 0 {
                r.saturating_add(size)
            } else {
                r.saturating_sub(size)
            };
        }
    }

    /// A new reservation of `size` on `node` for app `a` at `priority`, charged along `path`
    /// (its leaf first, then the ancestors up to root). A new reservation resets the
    /// priority's re-reservations (`SchedulerApplicationAttempt.reserve`).
    pub fn reserve(&mut self, a: u32, priority: i32, node: u32, size: Resource, path: &[QueueId]) {
        self.charge(path, size, 1);
        let app = self.apps.entry(a).or_insert_with(|| AppReserved {
            leaf: path.first().map_or(0, |q| q.0),
            ..AppReserved::default()
        });
        app.total = app.total.saturating_add(size);
        let p = app.by_priority.entry(priority).or_default();
        p.nodes.insert(node);
        p.re_reservations = 0;
    }

    /// The reservation of `size` on `node` for app `a` at `priority` is released or became an
    /// allocation: its charge leaves `path`, and the priority's re-reservations are reset
    /// (`FiCaSchedulerApp.unreserve`).
    pub fn release(&mut self, a: u32, priority: i32, node: u32, size: Resource, path: &[QueueId]) {
        self.charge(path, size, -1);
        let Some(app) = self.apps.get_mut(&a) else {
            return;
        };
        app.total = app.total.saturating_sub(size);
        if let Some(p) = app.by_priority.get_mut(&priority) {
            p.nodes.remove(&node);
            p.re_reservations = 0;
            if p.nodes.is_empty() {
                app.by_priority.remove(&priority);
            }
        }
        if app.by_priority.is_empty() {
            self.apps.remove(&a);
        }
    }

    /// A kept reservation of app `a` at `priority` still does not fit its node.
    pub fn re_reserve(&mut self, a: u32, priority: i32) {
        if let Some(p) = self
            .apps
            .get_mut(&a)
            .and_then(|r| r.by_priority.get_mut(&priority))
        {
            p.re_reservations = p.re_reservations.saturating_add(1);
        }
    }
}

/// `Resources.ratio`: `a / b` as a Java float, memory alone for the memory-only calculator,
/// the larger of the two components' ratios for the dominant one.
pub fn ratio(calc: Calculator, a: Resource, b: Resource) -> f32 {
    let memory = a.memory_mb as f32 / b.memory_mb as f32;
    match calc {
        Calculator::MemoryOnly => memory,
        Calculator::Dominant => memory.max(a.vcores as f32 / b.vcores as f32),
    }
}

/// `shouldAllocOrReserveNewContainer`: whether an app asking `required` more containers at a
/// priority where it holds `reserved` reservations, re-reserved `re_reservations` times,
/// should take a new container or reservation rather than wait for its reservations.
/// `node_factor` is the ask over the maximum allocation and `minimum_allocation_factor`
/// (maximum − minimum) over the maximum, both as `ratio` gives them: the re-reservations
/// per reservation, scaled down for large asks, add a starvation allowance (a Java `int`
/// truncation of a float product).
pub fn should_alloc_or_reserve(
    required: u32,
    reserved: u32,
    re_reservations: u32,
    node_factor: f32,
    minimum_allocation_factor: f32,
) -> bool {
    let starvation = if reserved > 0 {
        let per = re_reservations as f32 / reserved as f32;
        (per * (1.0f32 - node_factor.min(minimum_allocation_factor))) as i64
    } else {
        0
    };
    starvation + i64::from(required) - i64::from(reserved) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const GB: i64 = 1024;

    #[test]
    fn a_second_container_waits_for_the_first_reservation_until_re_reservations_mount() {
        // TestReservations' setup: minimum 1 GB, maximum 16 GB. minimumAllocationFactor =
        // 15/16 = 0.9375; a 5 GB ask's node factor 5/16 = 0.3125, so each re-reservation
        // per reservation adds 0.6875 of a container, truncated.
        let min = Resource::new(GB, 1);
        let max = Resource::new(16 * GB, 12);
        let c = Calculator::MemoryOnly;
        let maf = ratio(c, max.saturating_sub(min), max);
        assert_eq!(maf, 0.9375);
        let nf = ratio(c, Resource::new(5 * GB, 1), max);
        assert_eq!(nf, 0.3125);
        // testReservation: 2 reduces asked, 1 reserved, none re-reserved: 2 − 1 > 0.
        assert!(should_alloc_or_reserve(2, 1, 0, nf, maf));
        // One reduce left, one reserved: 0 + 1 − 1 = 0, so the app unreserves to allocate.
        assert!(!should_alloc_or_reserve(1, 1, 0, nf, maf));
        // One re-reservation: (int) 0.6875 = 0; two: (int) 1.375 = 1 → 1 + 1 − 1 > 0.
        assert!(!should_alloc_or_reserve(1, 1, 1, nf, maf));
        assert!(should_alloc_or_reserve(1, 1, 2, nf, maf));
        // A node-sized ask (16 GB, factor 1) is capped at the minimum allocation factor:
        // (1 − 0.9375) = 0.0625 per re-reservation, 16 of them make one container.
        let whole = ratio(c, max, max);
        assert!(!should_alloc_or_reserve(1, 1, 15, whole, maf));
        assert!(should_alloc_or_reserve(1, 1, 16, whole, maf));
    }

    #[test]
    fn the_dominant_ratio_takes_the_larger_component() {
        let max = Resource::new(8 * GB, 8);
        assert_eq!(
            ratio(Calculator::Dominant, Resource::new(2 * GB, 4), max),
            0.5
        );
        assert_eq!(
            ratio(Calculator::MemoryOnly, Resource::new(2 * GB, 4), max),
            0.25
        );
    }

    #[test]
    fn books_charge_the_path_and_forget_released_apps() {
        let mut r = Reservations::default();
        let path = [QueueId(3), QueueId(1), QueueId(0)];
        r.reserve(7, 10, 2, Resource::new(5 * GB, 1), &path);
        r.re_reserve(7, 10);
        r.reserve(7, 10, 4, Resource::new(5 * GB, 1), &path);
        assert_eq!(r.queue(QueueId(1)), Resource::new(10 * GB, 2));
        assert_eq!(r.count(7, 10), 2);
        assert_eq!(r.re_reservations(7, 10), 0);
        assert_eq!(r.nodes_of(7), vec![2, 4]);
        r.release(7, 10, 2, Resource::new(5 * GB, 1), &path);
        r.release(7, 10, 4, Resource::new(5 * GB, 1), &path);
        assert!(r.is_empty());
        assert_eq!(r.queue(QueueId(0)), Resource::ZERO);
        assert_eq!(r.queue(QueueId(9)), Resource::ZERO);
    }

    proptest! {
        #[test]
        fn more_re_reservations_never_withdraw_a_yes(
            required in 0u32..50,
            reserved in 0u32..20,
            re in 0u32..1000,
            ask_mb in 1i64..=16_384,
        ) {
            let max = Resource::new(16 * GB, 16);
            let min = Resource::new(GB, 1);
            let c = Calculator::MemoryOnly;
            let nf = ratio(c, Resource::new(ask_mb, 1), max);
            let maf = ratio(c, max.saturating_sub(min), max);
            if should_alloc_or_reserve(required, reserved, re, nf, maf) {
                prop_assert!(should_alloc_or_reserve(required, reserved, re + 1, nf, maf));
            }
            // Without reservations the answer is whether anything is asked.
            prop_assert_eq!(should_alloc_or_reserve(required, 0, re, nf, maf), required > 0);
            // More asked than reserved: always yes.
            if required > reserved {
                prop_assert!(should_alloc_or_reserve(required, reserved, re, nf, maf));
            }
        }
    }
}
