//! The closed set of events and the queue that orders them.
//!
//! # Event ordering contract
//!
//! Every pending event is keyed by `(time, rank, tie, seq)` and the smallest key pops first:
//!
//! * `time`: the simulated millisecond ([`SimTime`]).
//! * `rank`: at equal times, events of a kind run in this fixed order:
//!   1. [`Event::ContainerFinished`], [`Event::ContainerKilled`] and
//!      [`Event::NodeChange`]: completed and killed containers are released first, as a
//!      NodeManager's heartbeat reports completions before the scheduler looks at the node;
//!      node changes are queued at the start, so they come first in their millisecond;
//!   2. [`Event::AppArrived`]: new apps and their requests are visible to this millisecond's
//!      update and heartbeats;
//!   3. [`Event::UpdateTick`]: demands, fair shares and weights are refreshed;
//!   4. [`Event::NodeHeartbeat`]: nodes are offered to the scheduler;
//!   5. [`Event::AmHeartbeat`]: an AM hears of what the node heartbeats of the millisecond
//!      allocated and asks (only with AM timing, `scheduler::am_heartbeat`);
//!   6. [`Event::ContinuousPass`]: the Fair Scheduler's continuous scheduling thread offers
//!      every node (only with `continuous_scheduling`), after the heartbeats of the
//!      millisecond;
//!   7. [`Event::Sample`]: the recorder samples queue state after all decisions of the
//!      millisecond;
//!   8. [`Event::End`]: the run stops.
//! * `tie`: the node index for heartbeats (so the order of two nodes beating in the same
//!   millisecond never depends on when their events were pushed), the app index for
//!   arrivals and AM heartbeats, 0 otherwise.
//! * `seq`: a counter incremented on every push: events equal on everything else pop in the
//!   order they were pushed (first in, first out).
//!
//! The key is a tuple of integers, so the order is total and the same on every machine.
//!
//! # Three sources
//!
//! Most events never enter the heap:
//! * node heartbeats come from a [`HeartbeatClock`] (every node beats on a fixed schedule;
//!   the clock walks it with a cursor and skips the beats that are elided, see `heartbeat`);
//! * arrivals come from the workload sorted by (time, app index), read with a cursor instead
//!   of being pushed at time 0;
//! * everything else (completions, kills, ticks, samples, the end) goes to a monotone radix
//!   heap ([`RadixQueue`]: no event is scheduled before the current time), which then holds
//!   about one entry per running container.
//!
//! `pop` takes the smallest key of the three. Heartbeats and arrivals are unique on (time,
//! rank, tie) (a node has one heartbeat per time, an app one arrival), so their `seq` is 0 and
//! the order is the same total order on keys as if every event were pushed in one heap.

pub use crate::event_key::EventKey;
use crate::heartbeat::HeartbeatClock;
use crate::radix_queue::RadixQueue;
use crate::time::SimTime;

/// Something that happens at a point in simulated time. Events are facts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A completed container is reported (at its node's first heartbeat at or after the
    /// container's end) and released.
    ContainerFinished {
        /// Slot of the container in the simulation's container table.
        container: u32,
        /// Index of the container's app (read ahead of the event, see the engine).
        app: u32,
    },
    /// A container marked for preemption is killed (Hadoop 3.x's kill timer). Ignored when
    /// the slot no longer holds container `id` (it finished first).
    ContainerKilled {
        /// Slot of the container in the simulation's container table.
        container: u32,
        /// The container's id.
        id: u64,
    },
    /// Nodes join or leave the cluster: entry `event` of the scenario's node events.
    NodeChange {
        /// Index in `ClusterSpec::events`.
        event: u32,
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
    /// An AM heartbeat that asks for stage `stage` of app `app` (or ends the app after its
    /// last stage).
    AmHeartbeat {
        /// Index of the app.
        app: u32,
        /// The stage to ask for.
        stage: u32,
    },
    /// One pass of the Fair Scheduler's continuous scheduling thread (every
    /// `continuous_scheduling_sleep_ms`).
    ContinuousPass,
    /// The recorder takes a sample of every queue.
    Sample,
    /// The simulation stops.
    End,
}

impl Event {
    /// The rank of the event's kind: the order at equal times (see the module docs).
    pub fn rank(&self) -> u8 {
        match self {
            Event::ContainerFinished { .. }
            | Event::ContainerKilled { .. }
            | Event::NodeChange { .. } => 0,
            Event::AppArrived { .. } => 1,
            Event::UpdateTick => 2,
            Event::NodeHeartbeat { .. } => 3,
            Event::AmHeartbeat { .. } => 4,
            Event::ContinuousPass => 5,
            Event::Sample => 6,
            Event::End => 7,
        }
    }

    /// The tie-break within a rank before the push sequence.
    pub fn tie(&self) -> u32 {
        match *self {
            Event::NodeHeartbeat { node } => node,
            Event::AppArrived { app } | Event::AmHeartbeat { app, .. } => app,
            _ => 0,
        }
    }
}

/// What one step of [`EventQueue::pop`] found.
enum Popped {
    Event(EventKey, Event),
    /// A parked node's beat, skipped.
    ParkedBeat,
    Nothing,
}

/// A min-queue of events ordered by [`EventKey`] (heap, arrivals and heartbeat clock).
#[derive(Debug, Default)]
pub struct EventQueue {
    heap: RadixQueue<Event>,
    /// Arrivals by (time, app index), and the next one to pop.
    arrivals: Vec<(SimTime, u32)>,
    next_arrival: usize,
    /// Node heartbeats.
    clock: HeartbeatClock,
    seq: u64,
}

impl EventQueue {
    /// An empty queue (no arrivals, no node).
    pub fn new() -> EventQueue {
        EventQueue::default()
    }

    /// A queue with the arrivals `arrivals` (time and app index, any order) and the
    /// heartbeats of `clock`.
    pub fn with_sources(mut arrivals: Vec<(SimTime, u32)>, clock: HeartbeatClock) -> EventQueue {
        arrivals.sort_unstable();
        EventQueue {
            arrivals,
            clock,
            ..EventQueue::default()
        }
    }

    /// Takes the next arrival when it is at `time` (a warm start processes the apps of its
    /// first instant before the run).
    pub(crate) fn take_arrival_at(&mut self, time: SimTime) -> Option<u32> {
        let &(t, app) = self.arrivals.get(self.next_arrival)?;
        if t != time {
            return None;
        }
        self.next_arrival += 1;
        Some(app)
    }

    /// The heartbeat clock (to arm or disarm nodes).
    pub fn clock_mut(&mut self) -> &mut HeartbeatClock {
        &mut self.clock
    }

    /// The heartbeat clock.
    pub fn clock(&self) -> &HeartbeatClock {
        &self.clock
    }

    /// The events waiting in the heap, in the order they will pop.
    pub(crate) fn pending(&self) -> Vec<(EventKey, Event)> {
        let mut v: Vec<(EventKey, Event)> = self.heap.entries().copied().collect();
        v.sort_unstable_by_key(|e| e.0);
        v
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
        self.heap.push(key, event);
    }

    /// Changes whenever the heap does (a push moves the sequence, a pop the length): the
    /// engine reads the next queued event again only then.
    pub(crate) fn queued_version(&self) -> (u64, usize) {
        (self.seq, self.heap.len())
    }

    /// The next event of the heap (neither a heartbeat nor an arrival), left in it: what the
    /// engine may fetch ahead of time.
    pub fn next_queued(&mut self) -> Option<Event> {
        self.heap.peek_entry().map(|(_, e)| e)
    }

    /// Removes and returns the earliest event. `every_node`: whether every node's heartbeat
    /// is due, or only armed nodes' (see `heartbeat`).
    pub fn pop(&mut self, every_node: bool) -> Option<(EventKey, Event)> {
        loop {
            match self.pop_one(every_node) {
                Popped::Event(key, event) => return Some((key, event)),
                Popped::ParkedBeat => {}
                Popped::Nothing => return None,
            }
        }
    }

    /// One step of `pop`: the earliest event, or a parked node's beat, skipped (see
    /// `heartbeat`'s "Parked nodes").
    fn pop_one(&mut self, every_node: bool) -> Popped {
        let mut best: Option<(EventKey, u8)> = self.heap.peek().map(|k| (k, 0));
        if let Some(&(time, app)) = self.arrivals.get(self.next_arrival) {
            let key = self.key_for(time, &Event::AppArrived { app });
            let key = EventKey { seq: 0, ..key };
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, 1));
            }
        }
        let beat = self.clock.peek(every_node);
        if let Some(b) = beat {
            let (key, _) = self.clock.key(b);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, 2));
            }
        }
        let Some((key, source)) = best else {
            return Popped::Nothing;
        };
        let event = match source {
            0 => match self.heap.pop() {
                Some((_, e)) => e,
                None => return Popped::Nothing,
            },
            1 => {
                let (_, app) = self.arrivals[self.next_arrival];
                self.next_arrival += 1;
                Event::AppArrived { app }
            }
            _ => {
                let Some(b) = beat else {
                    return Popped::Nothing;
                };
                self.clock.took(b);
                if self.clock.is_parked(b) {
                    return Popped::ParkedBeat;
                }
                return Popped::Event(
                    key,
                    Event::NodeHeartbeat {
                        node: self.clock.key(b).1,
                    },
                );
            }
        };
        self.clock.skip_to_after(key);
        Popped::Event(key, event)
    }

    /// The time of the earliest event `pop(every_node)` could return next: a bound, as a
    /// parked or skipped beat may come first and pop nothing.
    pub(crate) fn next_time(&mut self, every_node: bool) -> Option<SimTime> {
        let heap = self.heap.peek().map(|k| k.time);
        let arrival = self.arrivals.get(self.next_arrival).map(|&(t, _)| t);
        let beat = self
            .clock
            .peek(every_node)
            .map(|b| self.clock.key(b).0.time);
        [heap, arrival, beat].into_iter().flatten().min()
    }

    /// Number of events in the heap and arrivals not yet popped (heartbeats excluded).
    pub fn len(&self) -> usize {
        self.heap.len() + self.arrivals.len() - self.next_arrival
    }

    /// True when no heap event and no arrival is pending.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
                0 => Event::ContainerFinished {
                    container: i,
                    app: 0,
                },
                1 => Event::UpdateTick,
                _ => Event::NodeHeartbeat { node: i % 17 },
            };
            keys.push(q.key_for(t, &ev));
            q.push(t, ev);
        }
        keys.sort();
        let popped: Vec<EventKey> = std::iter::from_fn(|| q.pop(true).map(|(k, _)| k)).collect();
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
        q.push(
            t,
            Event::ContainerFinished {
                container: 7,
                app: 0,
            },
        );
        q.push(
            t,
            Event::ContainerFinished {
                container: 3,
                app: 0,
            },
        );
        q.push(SimTime(9), Event::Sample);
        let order: Vec<Event> = std::iter::from_fn(|| q.pop(true).map(|(_, e)| e)).collect();
        assert_eq!(
            order,
            vec![
                Event::Sample,
                Event::ContainerFinished {
                    container: 7,
                    app: 0
                },
                Event::ContainerFinished {
                    container: 3,
                    app: 0
                },
                Event::UpdateTick,
                Event::NodeHeartbeat { node: 1 },
                Event::NodeHeartbeat { node: 2 },
                Event::End,
            ]
        );
    }
}
