//! Node heartbeats as a clock instead of queued events.
//!
//! Node `n` beats at `phase(n) + k × interval` for `k = 0, 1, ...`, whatever happens: the
//! sequence of every heartbeat in event-key order (time, then node index) is fixed by the
//! cluster. [`HeartbeatClock`] walks that sequence with a cursor, so a heartbeat costs no
//! queue operation and nothing is stored per pending heartbeat.
//!
//! # Elision
//!
//! The engine tells the clock at each step whether every node must beat (a heartbeat of an
//! ordinary node may change something) or only the *armed* nodes (those holding a
//! reservation or resources kept for an app, whose heartbeat acts even when nothing else
//! can). In the second case the clock jumps straight to the next armed node's beat; the
//! beats skipped are exactly those an unelided run would process as no-ops, since nothing
//! changes between two events. When the engine says "every node" again, the clock resumes
//! at the first beat after the current event, exactly the heartbeat an unelided run would
//! process next.
//!
//! The cursor always designates the first beat whose key comes after the last event popped
//! (a beat, or any other event: see [`HeartbeatClock::skip_to_after`]).
//!
//! # Parked nodes
//!
//! The engine may also *park* a node whose heartbeat would change nothing whatever the other
//! nodes do (in the Fair Scheduler, a node reserved for a container that does not fit it,
//! while the reservation stays valid: see `scheduler::fair::parking`). A parked node's beats are
//! skipped, in either mode, when they come up in key order (never ahead of time), until the
//! engine unparks it; its next beat is then the first after the current event, as for any
//! node.
//!
//! # Counting the beats elided
//!
//! The heartbeats an unelided run processes are the beats of nodes in the cluster (running
//! or decommissioning) before the run stalled. The clock counts every beat in key order, so
//! it also keeps the beats of nodes outside the cluster (not added yet, or gone; a
//! decommissioning node's last beat, at which it leaves, is not processed as a heartbeat
//! either) and the key where the run stalled, after which no run beats
//! ([`HeartbeatClock::beats_due`]).

use crate::bit_set::BitSet;
use crate::cluster::Cluster;
use crate::event_key::EventKey;
use crate::time::SimTime;
use std::collections::BTreeSet;

/// Rank of heartbeats among the event kinds (see `event`'s ordering contract).
const RANK: u8 = 3;

/// The longest heartbeat interval (ms) whose phases are indexed per millisecond: every event
/// that is not a beat moves the cursor past it (`first_after`), and the index makes that a
/// look-up instead of a binary search over the nodes (4 MiB at most).
const PHASE_INDEX_MAX: u64 = 1 << 20;

/// One heartbeat of the clock: `cycle` and position in the phase order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Beat {
    cycle: u64,
    pos: u32,
}

/// Every node's heartbeats, in event-key order (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct HeartbeatClock {
    interval: u64,
    /// Nodes sorted by (phase, index): the order of beats within a cycle.
    order: Vec<u32>,
    /// Phase of `order[i]`.
    phases: Vec<u64>,
    /// Node → its position in `order`.
    position: Vec<u32>,
    /// `phase_start[r]`: the first position whose phase is at least `r`, for `r` up to the
    /// interval (empty when the interval is over [`PHASE_INDEX_MAX`]: a binary search then).
    phase_start: Vec<u32>,
    /// First beat after the last event popped.
    cursor: Beat,
    /// Positions of nodes that beat even when others need not.
    armed: BitSet,
    /// Per position: the node is parked (its beats are skipped; never armed meanwhile).
    parked: Vec<bool>,
    /// Parked nodes.
    n_parked: usize,
    /// Per node: its beats through the key where it left the cluster (or 0 when it has not
    /// joined yet), while it is out; `None` while it is in.
    out_since: Vec<Option<u64>>,
    /// Beats of nodes while out of the cluster, over absences that ended.
    out_beats: u64,
    /// Where the run stalled: no run beats after it.
    stalled: Option<EventKey>,
}

impl HeartbeatClock {
    /// The clock of `cluster`'s nodes. Phases must be below the heartbeat interval (as
    /// [`Cluster`] builds them).
    pub fn new(cluster: &Cluster) -> HeartbeatClock {
        let interval = cluster.heartbeat_ms.max(1);
        let mut order: Vec<u32> = (0..cluster.nodes.len() as u32).collect();
        order.sort_by_key(|&n| (cluster.nodes[n as usize].phase_ms, n));
        let phases: Vec<u64> = order
            .iter()
            .map(|&n| cluster.nodes[n as usize].phase_ms)
            .collect();
        debug_assert!(phases.iter().all(|&p| p < interval));
        let order_len = order.len();
        let mut position = vec![0u32; order.len()];
        for (i, &n) in order.iter().enumerate() {
            position[n as usize] = i as u32;
        }
        let mut phase_start = Vec::new();
        if interval <= PHASE_INDEX_MAX {
            let mut i = 0;
            for r in 0..=interval {
                while i < phases.len() && phases[i] < r {
                    i += 1;
                }
                phase_start.push(i as u32);
            }
        }
        HeartbeatClock {
            interval,
            order,
            phases,
            position,
            phase_start,
            cursor: Beat { cycle: 0, pos: 0 },
            armed: BitSet::new(order_len),
            parked: vec![false; order_len],
            n_parked: 0,
            out_since: cluster
                .nodes
                .iter()
                .map(|n| (n.state == crate::cluster::NodeState::Pending).then_some(0))
                .collect(),
            out_beats: 0,
            stalled: None,
        }
    }

    /// The first beat after the last event popped.
    pub(crate) fn cursor(&self) -> Beat {
        self.cursor
    }

    /// The node beating at `beat` and the beat's event key.
    pub fn key(&self, beat: Beat) -> (EventKey, u32) {
        let i = beat.pos as usize;
        let node = self.order[i];
        let key = EventKey {
            time: SimTime(self.phases[i] + beat.cycle * self.interval),
            rank: RANK,
            tie: node,
            seq: 0,
        };
        (key, node)
    }

    /// The next beat to process: the cursor when every node must beat, else the next armed
    /// node's beat (`None` when no node is armed).
    pub fn peek(&self, every_node: bool) -> Option<Beat> {
        if self.order.is_empty() {
            return None;
        }
        // With every node parked only armed nodes could beat, and none is.
        if every_node && self.n_parked < self.order.len() {
            return Some(self.cursor);
        }
        let c = self.cursor;
        if let Some(pos) = self.armed.first_from(c.pos) {
            return Some(Beat {
                cycle: c.cycle,
                pos,
            });
        }
        self.armed.first_from(0).map(|pos| Beat {
            cycle: c.cycle + 1,
            pos,
        })
    }

    /// `beat` was processed: the cursor moves to the beat after it.
    pub fn took(&mut self, beat: Beat) {
        self.cursor = if beat.pos as usize + 1 == self.order.len() {
            Beat {
                cycle: beat.cycle + 1,
                pos: 0,
            }
        } else {
            Beat {
                cycle: beat.cycle,
                pos: beat.pos + 1,
            }
        };
    }

    /// Another event with key `key` was processed: the cursor moves to the first beat after
    /// it (if it is not there yet).
    pub fn skip_to_after(&mut self, key: EventKey) {
        if !self.order.is_empty() && !after(self.key(self.cursor).0, key) {
            self.cursor = self.first_after(key);
        }
    }

    /// The first beat whose key comes after `key`.
    fn first_after(&self, key: EventKey) -> Beat {
        let cycle = key.time.0 / self.interval;
        let r = key.time.0 % self.interval;
        // Beats of this cycle at or before `key` form a prefix of the phase order.
        let at_or_before =
            |i: usize| (self.phases[i], RANK, self.order[i]) <= (r, key.rank, key.tie);
        let (mut lo, mut hi) = (0usize, self.order.len());
        if !self.phase_start.is_empty() {
            // Beats of an earlier phase come before `key`, of a later one after it: only
            // the nodes of phase `r` (a few) are compared.
            lo = self.phase_start[r as usize] as usize;
            hi = self.phase_start[r as usize + 1] as usize;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if at_or_before(mid) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == self.order.len() {
            Beat {
                cycle: cycle + 1,
                pos: 0,
            }
        } else {
            Beat {
                cycle,
                pos: lo as u32,
            }
        }
    }

    /// Node `node` beats even when others need not (unless it is parked).
    pub fn arm(&mut self, node: u32) {
        let pos = self.position[node as usize];
        if !self.parked[pos as usize] {
            self.armed.insert(pos);
        }
    }

    /// Node `node` beats no more, in either mode, until [`HeartbeatClock::unpark`].
    pub fn park(&mut self, node: u32) {
        let pos = self.position[node as usize];
        self.armed.remove(pos);
        if !std::mem::replace(&mut self.parked[pos as usize], true) {
            self.n_parked += 1;
        }
    }

    /// Node `node` beats again from its first beat after the current event; true when it
    /// was parked (the caller arms it again if it must be).
    pub fn unpark(&mut self, node: u32) -> bool {
        let pos = self.position[node as usize] as usize;
        let was = std::mem::replace(&mut self.parked[pos], false);
        if was {
            self.n_parked -= 1;
        }
        was
    }

    /// Node `node`, parked and still to beat when others need not (it holds a
    /// reservation), beats again from its first beat after the current event: what
    /// [`HeartbeatClock::unpark`] then [`HeartbeatClock::arm`] do, with one look-up.
    pub fn unpark_armed(&mut self, node: u32) {
        let pos = self.position[node as usize];
        let was = std::mem::replace(&mut self.parked[pos as usize], false);
        debug_assert!(was, "node {node} was not parked");
        if was {
            self.n_parked -= 1;
        }
        self.armed.insert(pos);
    }

    /// Whether node `node` is parked.
    pub(crate) fn is_node_parked(&self, node: u32) -> bool {
        self.parked[self.position[node as usize] as usize]
    }

    /// Whether `beat` is a parked node's (skipped when it comes up).
    pub(crate) fn is_parked(&self, beat: Beat) -> bool {
        self.parked[beat.pos as usize]
    }

    /// Positions of the nodes armed or parked: the nodes an engine that parks none would
    /// have armed (a parked node is one it would arm).
    pub(crate) fn armed_or_parked(&self) -> BTreeSet<u32> {
        let mut s: BTreeSet<u32> = self.armed.iter().collect();
        if self.n_parked > 0 {
            s.extend((0..self.parked.len() as u32).filter(|&p| self.parked[p as usize]));
        }
        s
    }

    /// Node `node` no longer needs to beat when others need not.
    pub fn disarm(&mut self, node: u32) {
        self.armed.remove(self.position[node as usize]);
    }

    /// Number of beats whose key is at or before `key`, of every node.
    pub fn beats_through(&self, key: EventKey) -> u64 {
        if self.order.is_empty() {
            return 0;
        }
        let b = self.first_after(key);
        b.cycle * self.order.len() as u64 + b.pos as u64
    }

    /// Number of node `node`'s beats whose key is at or before `key`.
    fn node_beats_through(&self, node: u32, key: EventKey) -> u64 {
        let phase = self.phases[self.position[node as usize] as usize];
        if key.time.0 < phase {
            return 0;
        }
        let (cycle, r) = (
            (key.time.0 - phase) / self.interval,
            (key.time.0 - phase) % self.interval,
        );
        // The beat of cycle `cycle` is at or before `key` unless it is at `key`'s time and
        // comes after it there.
        let last_counts = r > 0 || (RANK, node) <= (key.rank, key.tie);
        cycle + u64::from(last_counts)
    }

    /// Node `node` joined the cluster at the event `key`: its later beats count.
    pub(crate) fn node_joined(&mut self, node: u32, key: EventKey) {
        if let Some(since) = self.out_since[node as usize].take() {
            self.out_beats += self.node_beats_through(node, key).saturating_sub(since);
        }
    }

    /// Node `node` left the cluster at the event `key`: its later beats do not count, nor
    /// the beat at `key` when `key` is its own (a decommissioning node leaving at its beat).
    pub(crate) fn node_left(&mut self, node: u32, key: EventKey) {
        let own = key.rank == RANK && key.tie == node;
        let through = self.node_beats_through(node, key) - u64::from(own);
        self.out_since[node as usize].get_or_insert(through);
    }

    /// The run stalled at the event `key`: no run beats after it.
    pub(crate) fn stalled_at(&mut self, key: EventKey) {
        self.stalled.get_or_insert(key);
    }

    /// The heartbeats an unelided run processes through `key`: the beats of nodes in the
    /// cluster, up to the stall (see "Counting the beats elided").
    pub fn beats_due(&self, key: EventKey) -> u64 {
        let key = self.stalled.map_or(key, |s| s.min(key));
        let out_now: u64 = self
            .out_since
            .iter()
            .enumerate()
            .filter_map(|(n, s)| {
                s.map(|since| self.node_beats_through(n as u32, key).saturating_sub(since))
            })
            .sum();
        self.beats_through(key)
            .saturating_sub(self.out_beats)
            .saturating_sub(out_now)
    }
}

/// True when `beat` (a heartbeat key) comes after `key` (comparing time, rank and tie:
/// heartbeats are unique on these).
fn after(beat: EventKey, key: EventKey) -> bool {
    (beat.time, beat.rank, beat.tie) > (key.time, key.rank, key.tie)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairsim_core::Resource;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    fn key(time: u64, rank: u8, tie: u32) -> EventKey {
        EventKey {
            time: SimTime(time),
            rank,
            tie,
            seq: 0,
        }
    }

    /// Every beat, in the order a heap of one pending heartbeat per node pops them.
    #[test]
    fn the_clock_walks_the_heartbeats_a_heap_would_pop() {
        for (nodes, hb) in [(7u32, 1000u64), (10, 3), (1, 50), (13, 13)] {
            let cluster = Cluster::uniform(nodes, 2, Resource::new(1024, 1), hb);
            let mut clock = HeartbeatClock::new(&cluster);
            let mut heap = BinaryHeap::new();
            for n in &cluster.nodes {
                let i = cluster.find_node(&n.name).map(|id| id.0).unwrap_or(0);
                heap.push(Reverse((n.phase_ms, i)));
            }
            for _ in 0..5 * nodes {
                let Reverse((t, n)) = heap.pop().unwrap_or(Reverse((0, 0)));
                heap.push(Reverse((t + hb, n)));
                let beat = clock.peek(true).unwrap_or_default();
                assert_eq!(clock.key(beat), (key(t, RANK, n), n));
                clock.took(beat);
            }
        }
    }

    /// The phase index finds the beat the binary search over every node finds, for keys of
    /// every rank around every phase, in clusters with shared and with distinct phases.
    #[test]
    fn the_phase_index_finds_the_first_beat_after_a_key_as_the_search_does() {
        for (nodes, hb) in [(7u32, 1000u64), (10, 3), (1, 50), (13, 13), (40, 7), (5, 1)] {
            let cluster = Cluster::uniform(nodes, 2, Resource::new(1024, 1), hb);
            let indexed = HeartbeatClock::new(&cluster);
            assert_eq!(indexed.phase_start.len() as u64, hb + 1);
            let searched = HeartbeatClock {
                phase_start: Vec::new(),
                ..indexed.clone()
            };
            for t in 0..3 * hb + 2 {
                for rank in 0..8u8 {
                    for tie in 0..nodes + 1 {
                        let k = key(t, rank, tie);
                        let (a, b) = (indexed.first_after(k), searched.first_after(k));
                        assert_eq!(a, b, "{nodes} nodes every {hb} ms, key {k:?}");
                        // The beat found comes after the key, and the one before it does not.
                        assert!(after(indexed.key(a).0, k));
                        if a.pos > 0 || a.cycle > 0 {
                            let before = if a.pos > 0 {
                                Beat {
                                    cycle: a.cycle,
                                    pos: a.pos - 1,
                                }
                            } else {
                                Beat {
                                    cycle: a.cycle - 1,
                                    pos: nodes - 1,
                                }
                            };
                            assert!(!after(indexed.key(before).0, k));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn skipping_resumes_at_the_first_beat_after_the_event() {
        // 4 nodes at phases 0, 250, 500, 750 of a 1000 ms interval.
        let cluster = Cluster::uniform(4, 1, Resource::new(1024, 1), 1000);
        let mut clock = HeartbeatClock::new(&cluster);
        // A completion (rank 0) at 1250 comes before node 1's beat at 1250.
        clock.skip_to_after(key(1250, 0, 0));
        assert_eq!(clock.key(clock.peek(true).unwrap_or_default()).1, 1);
        assert_eq!(clock.beats_through(key(1250, 0, 0)), 5);
        // An AM heartbeat (rank 4) at 1250 comes after it.
        clock.skip_to_after(key(1250, 4, 0));
        let next = clock.peek(true).unwrap_or_default();
        assert_eq!(clock.key(next), (key(1500, RANK, 2), 2));
        assert_eq!(clock.beats_through(key(1250, 4, 0)), 6);
        // Skipping to an earlier key never moves the cursor back.
        clock.skip_to_after(key(10, 0, 0));
        assert_eq!(clock.peek(true), Some(next));
    }

    #[test]
    fn beats_due_count_nodes_in_the_cluster_before_the_stall() {
        // 4 nodes at phases 0, 250, 500, 750 of a 1000 ms interval; node 3 joins later.
        let mut cluster = Cluster::uniform(4, 1, Resource::new(1024, 1), 1000);
        cluster.nodes[3].state = crate::cluster::NodeState::Pending;
        let mut clock = HeartbeatClock::new(&cluster);
        // Node 3 joins at 2,000 (its beats at 750 and 1,750 are outside); node 1 leaves at
        // its own beat at 3,250 (a drained decommissioning node): 250, 1,250 and 2,250
        // count.
        clock.node_joined(3, key(2000, 1, 0));
        clock.node_left(1, key(3250, RANK, 1));
        // Through 4,999: node 0 beats 5 times, node 1 3, node 2 5 (500 … 4,500), node 3 3
        // (2,750 … 4,750): 16 of the 20 beats.
        assert_eq!(clock.beats_through(key(4999, 0, 0)), 20);
        assert_eq!(clock.beats_due(key(4999, 0, 0)), 16);
        // Stalled at an event of rank 2 at 4,500: node 2's beat then comes after it, and so
        // does node 3's at 4,750: 5 + 3 + 4 + 2.
        clock.stalled_at(key(4500, 2, 0));
        assert_eq!(clock.beats_due(key(9999, 0, 0)), 14);
    }

    #[test]
    fn only_armed_nodes_beat_when_others_need_not() {
        let cluster = Cluster::uniform(4, 1, Resource::new(1024, 1), 1000);
        let mut clock = HeartbeatClock::new(&cluster);
        assert_eq!(clock.peek(false), None);
        clock.arm(1);
        clock.skip_to_after(key(600, 0, 0));
        // Node 1's next beat is in the next cycle.
        let b = clock.peek(false).unwrap_or_default();
        assert_eq!(clock.key(b), (key(1250, RANK, 1), 1));
        clock.took(b);
        clock.arm(3);
        assert_eq!(clock.key(clock.peek(false).unwrap_or_default()).1, 3);
        clock.disarm(3);
        clock.disarm(1);
        assert_eq!(clock.peek(false), None);
        // Every node beats again from the beat after the last one taken.
        assert_eq!(clock.key(clock.peek(true).unwrap_or_default()).1, 2);
    }
}
