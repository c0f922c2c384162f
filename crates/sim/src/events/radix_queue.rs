//! A monotone radix heap: the pending events that are neither heartbeats nor arrivals.
//!
//! Simulated time only moves forward and every event is scheduled at or after the current
//! time, so the queue is *monotone*: no key pushed is smaller than the last key popped. A
//! radix heap uses that. Entries sit in buckets by the highest bit in which their time differs
//! from the time of the last pop (`last`): bucket 0 holds the entries at `last` itself, bucket
//! `i` those whose time agrees with `last` above bit `i - 1` and differs there. When bucket 0
//! is empty, the first non-empty bucket's smallest time becomes `last` and its entries move to
//! lower buckets: every entry moves at most once per bit of the time range (about 24 for
//! hours of milliseconds), with sequential memory traffic, where a binary heap of a hundred
//! thousand completions sifts through ~17 levels of cache misses on every pop.
//!
//! Bucket 0 is kept sorted by the full key (time, rank, tie, seq), so equal times pop in the
//! same order as from a binary heap: the two structures pop identical sequences (unit test
//! below and the scale benchmark's replay, which also measures them against each other).
//!
//! Peeking must not move `last`: another source (a heartbeat or an arrival) may pop first and
//! schedule an event earlier than this queue's minimum. The minimum found by a peek is cached
//! until the next push below it or the next pop.

use crate::event_key::EventKey;

/// A min-queue of `(EventKey, T)` for keys that never go below the last key popped.
#[derive(Debug, Clone)]
pub struct RadixQueue<T> {
    /// Time of the last refill (every entry's time is at or after it).
    last: u64,
    /// Entries at time `last`, sorted by key, largest first (pop from the end).
    now: Vec<(EventKey, T)>,
    /// `buckets[i - 1]`: entries whose time differs from `last` first at bit `i - 1`.
    buckets: [Vec<(EventKey, T)>; 64],
    /// Bit `i - 1` set when `buckets[i - 1]` is not empty.
    occupied: u64,
    len: usize,
    /// The smallest key and its value, when known (see the module docs).
    min: Option<(EventKey, T)>,
}

impl<T: Copy> Default for RadixQueue<T> {
    fn default() -> Self {
        RadixQueue {
            last: 0,
            now: Vec::new(),
            buckets: std::array::from_fn(|_| Vec::new()),
            occupied: 0,
            len: 0,
            min: None,
        }
    }
}

impl<T: Copy> RadixQueue<T> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every entry, in no particular order.
    pub fn entries(&self) -> impl Iterator<Item = &(EventKey, T)> {
        self.now.iter().chain(self.buckets.iter().flatten())
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `value` under `key`. `key.time` must not be before the last popped key's time
    /// (the engine never schedules in the past).
    pub fn push(&mut self, key: EventKey, value: T) {
        debug_assert!(key.time.0 >= self.last, "a radix queue is monotone");
        let time = key.time.0.max(self.last);
        self.len += 1;
        if let Some((m, _)) = self.min
            && key < m
        {
            self.min = Some((key, value));
        }
        if time == self.last {
            // Largest first: insert before the first entry smaller than `key`.
            let at = self.now.partition_point(|(k, _)| *k > key);
            self.now.insert(at, (key, value));
        } else {
            let b = bucket_of(time, self.last);
            self.buckets[b].push((key, value));
            self.occupied |= 1 << b;
        }
    }

    /// The smallest key.
    pub fn peek(&mut self) -> Option<EventKey> {
        self.peek_entry().map(|(k, _)| k)
    }

    /// The entry with the smallest key, left in the queue.
    pub fn peek_entry(&mut self) -> Option<(EventKey, T)> {
        if let Some(e) = self.now.last() {
            return Some(*e);
        }
        if self.min.is_none() && self.occupied != 0 {
            let b = self.occupied.trailing_zeros() as usize;
            let bucket = &self.buckets[b];
            // Keys only, then one copy: the scan is the heap's inner loop.
            let mut at = 0;
            for (i, (k, _)) in bucket.iter().enumerate().skip(1) {
                if *k < bucket[at].0 {
                    at = i;
                }
            }
            self.min = bucket.get(at).copied();
        }
        self.min
    }

    /// Removes and returns the entry with the smallest key.
    pub fn pop(&mut self) -> Option<(EventKey, T)> {
        if self.now.is_empty() {
            self.refill();
        }
        let e = self.now.pop()?;
        self.len -= 1;
        self.min = None;
        Some(e)
    }

    /// Moves the first non-empty bucket down around its smallest time.
    fn refill(&mut self) {
        if self.occupied == 0 {
            return;
        }
        let b = self.occupied.trailing_zeros() as usize;
        let mut moving = std::mem::take(&mut self.buckets[b]);
        self.occupied &= !(1 << b);
        // A peek since the last pop found the minimum (the engine peeks before every pop):
        // the bucket is not read twice for it.
        self.last = match self.min {
            Some((k, _)) => k.time.0,
            None => moving
                .iter()
                .map(|(k, _)| k.time.0)
                .min()
                .unwrap_or(self.last),
        };
        for e in moving.drain(..) {
            let t = e.0.time.0;
            if t == self.last {
                self.now.push(e);
            } else {
                let to = bucket_of(t, self.last);
                self.buckets[to].push(e);
                self.occupied |= 1 << to;
            }
        }
        // Keep the bucket's allocation for later pushes.
        self.buckets[b] = moving;
        self.now.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
    }
}

/// The bucket of `time` (after `last`): the index of the highest bit where they differ.
fn bucket_of(time: u64, last: u64) -> usize {
    63 - (time ^ last).leading_zeros() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimTime;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    fn key(time: u64, rank: u8, tie: u32, seq: u64) -> EventKey {
        EventKey {
            time: SimTime(time),
            rank,
            tie,
            seq,
        }
    }

    /// Random monotone pushes (including at the current time and far ahead), interleaved
    /// with peeks and pops: the same sequence as a binary heap, and every peeked entry is the
    /// one the heap would pop next, value included.
    #[test]
    fn pops_the_same_sequence_as_a_binary_heap() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..20u64 {
            let mut radix = RadixQueue::new();
            let mut heap = BinaryHeap::new();
            let (mut now, mut seq) = (0u64, 0u64);
            for _ in 0..5_000 {
                let r = next();
                if r % 5 < 3 || heap.is_empty() {
                    let ahead = match r >> 60 {
                        0..=3 => 0,
                        4..=9 => (r >> 20) % 1_000,
                        _ => (r >> 20) % (1 << (round + 10)),
                    };
                    let k = key(now + ahead, (r >> 8) as u8 % 6, (r >> 12) as u32 % 4, seq);
                    seq += 1;
                    radix.push(k, seq);
                    heap.push(Reverse((k, seq)));
                } else if r % 5 == 3 {
                    let want = heap.peek().map(|Reverse(e)| *e);
                    if r & 1 == 0 {
                        assert_eq!(radix.peek(), want.map(|(k, _)| k));
                    } else {
                        assert_eq!(radix.peek_entry(), want);
                    }
                } else {
                    let want = heap.pop().map(|Reverse(e)| e);
                    let got = radix.pop();
                    assert_eq!(got, want);
                    now = got.map_or(now, |(k, _)| k.time.0);
                }
                assert_eq!(radix.len(), heap.len());
            }
            while let Some(Reverse(e)) = heap.pop() {
                assert_eq!(radix.pop(), Some(e));
            }
            assert!(radix.is_empty() && radix.pop().is_none());
        }
    }

    /// A peek that finds the minimum far ahead, then a push earlier than it (another source
    /// popped in between): the earlier entry pops first.
    #[test]
    fn a_push_below_a_peeked_minimum_pops_first() {
        let mut q = RadixQueue::new();
        q.push(key(5_000, 0, 0, 0), 'a');
        assert_eq!(q.peek(), Some(key(5_000, 0, 0, 0)));
        q.push(key(40, 2, 0, 1), 'b');
        assert_eq!(q.peek_entry(), Some((key(40, 2, 0, 1), 'b')));
        assert_eq!(q.pop(), Some((key(40, 2, 0, 1), 'b')));
        q.push(key(40, 0, 0, 2), 'c');
        assert_eq!(q.pop(), Some((key(40, 0, 0, 2), 'c')));
        assert_eq!(q.pop(), Some((key(5_000, 0, 0, 0), 'a')));
        assert_eq!(q.pop(), None);
    }
}
