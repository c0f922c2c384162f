//! The closed set of events and the queue that orders them.
//!
//! # Event ordering contract
//!
//! Every pending event is keyed by `(time, rank, tie, seq)` and the smallest key pops first:
//!
//! * `time`: the simulated millisecond ([`SimTime`]).
//! * `rank`: at equal times, events of a kind run in this fixed order:
//!   1. [`Event::ContainerFinished`] and [`Event::ContainerKilled`]: completed and killed
//!      containers are released first, as a NodeManager's heartbeat reports completions
//!      before the scheduler looks at the node;
//!   2. [`Event::AppArrived`]: new apps and their requests are visible to this millisecond's
//!      update and heartbeats;
//!   3. [`Event::UpdateTick`]: demands, fair shares and weights are refreshed;
//!   4. [`Event::NodeHeartbeat`]: nodes are offered to the scheduler;
//!   5. [`Event::Sample`]: the recorder samples queue state after all decisions of the
//!      millisecond;
//!   6. [`Event::End`]: the run stops.
//! * `tie`: the node index for heartbeats (so the order of two nodes beating in the same
//!   millisecond never depends on when their events were pushed), the app index for
//!   arrivals, 0 otherwise.
//! * `seq`: a counter incremented on every push: events equal on everything else pop in the
//!   order they were pushed (first in, first out).
//!
//! The key is a tuple of integers, so the order is total and the same on every machine.
//!
//! # Heartbeat lane
//!
//! Most events are node heartbeats, and a node's next heartbeat (pushed when it beats) has
//! the largest key of every pending heartbeat: heartbeats are pushed in key order. They go to
//! a FIFO lane instead of the heap whenever their key is above the lane's last one (others,
//! e.g. parked nodes re-armed out of order, go to the heap); `pop` takes the smaller of the
//! lane's front and the heap's top. The order is the same total order on keys as with the
//! heap alone; the heap stays small (one entry per running container) and a heartbeat costs
//! O(1) instead of O(log n).

use crate::time::SimTime;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

/// Something that happens at a point in simulated time. Events are facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A completed container is reported (at its node's first heartbeat at or after the
    /// container's end) and released.
    ContainerFinished {
        /// Slot of the container in the simulation's container table.
        container: u32,
    },
    /// A container marked for preemption is killed (Hadoop 3.x's kill timer). Ignored when
    /// the slot no longer holds container `id` (it finished first).
    ContainerKilled {
        /// Slot of the container in the simulation's container table.
        container: u32,
        /// The container's id.
        id: u64,
    },
    /// An application is submitted.
    AppArrived {
        /// Index of the app in the workload.
        app: u32,
    },
    /// The Fair Scheduler's update thread runs (every `update_interval_ms`).
    UpdateTick,
    /// A node heartbeats (every `heartbeat_ms`, phase-shifted per node).
    NodeHeartbeat {
        /// Index of the node.
        node: u32,
    },
    /// The recorder takes a sample of every queue.
    Sample,
    /// The simulation stops.
    End,
}

impl Event {
    /// The rank of the event's kind: the order at equal times (see the module docs).
    pub fn rank(&self) -> u8 {
        match self {
            Event::ContainerFinished { .. } | Event::ContainerKilled { .. } => 0,
            Event::AppArrived { .. } => 1,
            Event::UpdateTick => 2,
            Event::NodeHeartbeat { .. } => 3,
            Event::Sample => 4,
            Event::End => 5,
        }
    }

    /// The tie-break within a rank before the push sequence.
    pub fn tie(&self) -> u32 {
        match *self {
            Event::NodeHeartbeat { node } => node,
            Event::AppArrived { app } => app,
            _ => 0,
        }
    }
}

/// The full ordering key of a queued event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventKey {
    /// When.
    pub time: SimTime,
    /// Kind rank.
    pub rank: u8,
    /// Node or app index (see the module docs).
    pub tie: u32,
    /// Push counter.
    pub seq: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: EventKey,
    event: Event,
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        // seq is unique, so the key alone is a total order.
        self.key.cmp(&other.key)
    }
}

/// A min-queue of events ordered by [`EventKey`].
#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    /// Heartbeats pushed in increasing key order (see "Heartbeat lane").
    lane: VecDeque<Entry>,
    seq: u64,
}

impl EventQueue {
    /// An empty queue.
    pub fn new() -> EventQueue {
        EventQueue::default()
    }

    /// The key `event` would get if pushed at `time` now.
    pub fn key_for(&self, time: SimTime, event: &Event) -> EventKey {
        EventKey {
            time,
            rank: event.rank(),
            tie: event.tie(),
            seq: self.seq,
        }
    }

    /// Schedules `event` at `time`.
    pub fn push(&mut self, time: SimTime, event: Event) {
        let key = self.key_for(time, &event);
        self.seq += 1;
        let entry = Entry { key, event };
        if matches!(event, Event::NodeHeartbeat { .. })
            && self.lane.back().is_none_or(|b| b.key < key)
        {
            self.lane.push_back(entry);
        } else {
            self.heap.push(Reverse(entry));
        }
    }

    /// Removes and returns the earliest event.
    pub fn pop(&mut self) -> Option<(EventKey, Event)> {
        let from_lane = match (self.lane.front(), self.heap.peek()) {
            (Some(l), Some(Reverse(h))) => l.key < h.key,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let e = if from_lane {
            self.lane.pop_front()
        } else {
            self.heap.pop().map(|Reverse(e)| e)
        };
        e.map(|e| (e.key, e.event))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len() + self.lane.len()
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.lane.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Heartbeats pushed in and out of key order, mixed with other events, pop in key order.
    #[test]
    fn heartbeats_in_the_lane_and_the_heap_pop_in_key_order() {
        let mut q = EventQueue::new();
        let mut keys = Vec::new();
        let mut x = 7u64;
        for i in 0..500u32 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let t = SimTime(if i % 3 == 0 {
                (x >> 40) % 100
            } else {
                i as u64
            });
            let ev = match x >> 61 {
                0 => Event::ContainerFinished { container: i },
                1 => Event::UpdateTick,
                _ => Event::NodeHeartbeat { node: i % 17 },
            };
            keys.push(q.key_for(t, &ev));
            q.push(t, ev);
        }
        keys.sort();
        let popped: Vec<EventKey> = std::iter::from_fn(|| q.pop().map(|(k, _)| k)).collect();
        assert_eq!(popped, keys);
        assert!(q.is_empty());
    }

    #[test]
    fn equal_times_pop_by_rank_then_tie_then_push_order() {
        let mut q = EventQueue::new();
        let t = SimTime(10);
        q.push(t, Event::End);
        q.push(t, Event::NodeHeartbeat { node: 2 });
        q.push(t, Event::NodeHeartbeat { node: 1 });
        q.push(t, Event::UpdateTick);
        q.push(t, Event::ContainerFinished { container: 7 });
        q.push(t, Event::ContainerFinished { container: 3 });
        q.push(SimTime(9), Event::Sample);
        let order: Vec<Event> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(
            order,
            vec![
                Event::Sample,
                Event::ContainerFinished { container: 7 },
                Event::ContainerFinished { container: 3 },
                Event::UpdateTick,
                Event::NodeHeartbeat { node: 1 },
                Event::NodeHeartbeat { node: 2 },
                Event::End,
            ]
        );
    }
}
