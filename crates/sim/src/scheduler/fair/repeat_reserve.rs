//! Reservation churn without a descent per beat (both eras of the Fair Scheduler).
//!
//! When the app a batch of reserved nodes waited for is served elsewhere, each of those nodes
//! releases its reservation at its next beat and the descent from root reserves it for the
//! next app that reserves full nodes (2.7: the first app offered whose container does not
//! fit; 3.3: the first starved one under the reservable-nodes cap). These beats come one
//! after the other with no other event between them, and each makes the same descent: the
//! 3.3 day at 10,000 nodes processes 329 million of them, 2.7's 10,000 leaves 4.9 million.
//!
//! A descent that ends in a reservation is remembered, and the next beat repeats its outcome
//! without descending when the descent it would make provably reads what the remembered one
//! read:
//! - no event came between (the remembered beat, or one that repeated it, is the event just
//!   before: `Counters::events`, which skipped ticks advance too); beats elided or skipped
//!   in between change nothing;
//! - the node is offered as the remembered one was: the same capacity; the same free space,
//!   or one that fits none of the sizes the remembered descent tried on its node (the free
//!   space is read only by that test, and each of them failed it there); nothing held on it
//!   for an app (3.3's preempted resources); with no app naming hosts, every request asks
//!   anywhere and may relax, so neither the node nor its rack is read otherwise;
//! - the beats since wrote only reservations: the count of the app reserved (3.3 reads it
//!   against the cap, checked again here) and of the apps whose reservations were released.
//!   A 3.3 descent reads a released app's count only if the app is in its leaf's sets; then
//!   the beat descends. 2.7 reads no count;
//! - nothing a descent writes on its way is on: delay scheduling off (no missed
//!   opportunities counted, no locality level moved), no continuous scheduling, incremental
//!   ordering (the naive descent sorts lists that remember their order).
//!
//! The beat then writes what the descent would: the reservation, its count and decision.
//! The elided engine repeats; the unelided one (`Ctx::elide` off) always descends, and the
//! two are compared on every property-test case (tests/heartbeat_elision.rs).

use crate::scheduler::Sched;
use fairsim_core::{Resource, Semantics};

/// The last descent that reserved, while only beats that repeated it came since.
#[derive(Debug, Default)]
pub(crate) struct RepeatReserve {
    last: Option<Remembered>,
    /// The descent under way: the least memory and the least vcores of the sizes it tried
    /// on the node and found too big.
    tried: Resource,
}

#[derive(Debug, Clone, Copy)]
struct Remembered {
    /// `Counters::events` when it was made or last repeated.
    event: u64,
    /// Whether the node of a beat that made or repeated it, running, was parked after the
    /// beat (`Sched::idle_reserved`), once known: every such node reads the same there.
    parks: Option<bool>,
    /// The node's free space and capacity at the descent, and what it tried there.
    avail: Resource,
    capacity: Resource,
    tried: Resource,
    /// The reservation it made.
    app: u32,
    priority: i32,
    size: Resource,
}

impl Sched<'_, '_> {
    /// Whether this run's descents may be repeated at all (see the module docs).
    pub(crate) fn reserve_repeats(&self) -> bool {
        self.cx.elide
            && self.w.incremental
            && !self.w.any_hints
            && !self.opportunities_read()
            && !self.continuous_on()
            && self
                .fair
                .as_ref()
                .is_some_and(|f| !f.tree_sets && !f.sorted_history)
    }

    /// A descent that may be remembered begins.
    pub(crate) fn begin_descent(&mut self) {
        if let Some(f) = self.fair.as_deref_mut() {
            f.repeat_reserve.tried = Resource::new(i64::MAX, i64::MAX);
        }
    }

    /// The descent tried `size` on the node, and it did not fit.
    #[inline]
    pub(crate) fn tried_too_big(&mut self, size: Resource) {
        if let Some(f) = self.fair.as_deref_mut() {
            let t = &mut f.repeat_reserve.tried;
            *t = Resource::new(t.memory_mb.min(size.memory_mb), t.vcores.min(size.vcores));
        }
    }

    /// Remembers the descent just made on `node`, which had `avail` free, when it reserved.
    pub(crate) fn remember_reservation(&mut self, node: u32, avail: Resource) {
        let nd = &self.w.cluster.nodes[node as usize];
        let (event, capacity) = (self.cx.counters.events, nd.capacity);
        let reservation = nd.reservation;
        if let Some(f) = self.fair.as_deref_mut() {
            let tried = f.repeat_reserve.tried;
            f.repeat_reserve.last = reservation.map(|r| Remembered {
                event,
                parks: None,
                avail,
                capacity,
                tried,
                app: r.app,
                priority: r.priority,
                size: r.size,
            });
        }
    }

    /// Repeats the remembered reservation on `node`, whose reservation for `released` (if
    /// any) this beat has just released and which holds nothing for an app, when its descent
    /// would read what the remembered one read; false when it must descend.
    pub(crate) fn repeat_reservation(&mut self, node: u32, released: Option<u32>) -> bool {
        let Some(m) = self.fair.as_ref().and_then(|f| f.repeat_reserve.last) else {
            return false;
        };
        if m.event + 1 != self.cx.counters.events {
            return false;
        }
        let nd = &self.w.cluster.nodes[node as usize];
        let avail = nd.available();
        // Every size the remembered descent tried did not fit; none fits here either when
        // the node has less of some resource than the least any of them asked.
        let fits_none = avail.memory_mb < m.tried.memory_mb || avail.vcores < m.tried.vcores;
        if nd.capacity != m.capacity || (avail != m.avail && !fits_none) {
            return false;
        }
        if self.w.semantics == Semantics::Hadoop33 {
            if released.is_some_and(|a| self.w.apps[a as usize].in_set) {
                return false;
            }
            let cap = self.reservable_nodes_cap(u64::from(self.w.cluster.live));
            if u64::from(self.reserved_by(m.app)) >= cap {
                return false;
            }
        }
        let rack = self.rack_counted(node);
        self.count_reservation(m.app, rack, 1);
        self.place_reservation(node, m.app, m.priority, m.size);
        self.cx.counters.reservations_repeated += 1;
        let event = self.cx.counters.events;
        if let Some(f) = self.fair.as_deref_mut()
            && let Some(last) = &mut f.repeat_reserve.last
        {
            last.event = event;
        }
        true
    }

    /// Whether `node`, running, whose beat just repeated the remembered reservation, is
    /// parked after it: what the beats before read in `Sched::idle_reserved`, when one of
    /// them did. It reads the node's state and holds (running, none), the reserved size
    /// against the node's free space (too big: the descent tried it there and it did not
    /// fit), the app's ask against the node's capacity (the remembered one) and in 3.3 its
    /// queues' maxResources and AM, none of which a reservation changes.
    pub(crate) fn repeated_park(&self, node: u32) -> Option<bool> {
        let m = self.fair.as_ref()?.repeat_reserve.last?;
        let running =
            self.w.cluster.nodes[node as usize].state == crate::cluster::NodeState::Running;
        // A descent made at this beat has no verdict yet (`note_park` gives it one).
        (m.event == self.cx.counters.events && running)
            .then_some(m.parks)
            .flatten()
    }

    /// Notes whether `node`, whose beat just ran, is parked after it, when the beat made or
    /// repeated the remembered reservation and the node is running.
    pub(crate) fn note_park(&mut self, node: u32, parks: bool) {
        let running =
            self.w.cluster.nodes[node as usize].state == crate::cluster::NodeState::Running;
        let event = self.cx.counters.events;
        if let Some(f) = self.fair.as_deref_mut()
            && let Some(last) = &mut f.repeat_reserve.last
            && last.event == event
            && running
        {
            last.parks = Some(parks);
        }
    }
}
