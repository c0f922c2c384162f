//! Which requests of a starved app the Hadoop 3.x preemption thread makes room for, and on
//! which nodes (`FSAppAttempt.getStarvedResourceRequests` with its
//! `VisitedResourceRequestTracker`, read by `FSPreemptionThread.identifyContainersToPreempt`).
//!
//! An app's asks at one priority are several `ResourceRequest`s: one per node it names, one
//! per rack, and the ANY (`*`) request. Hadoop walks them in the order its request map
//! (`LocalityAppPlacementAllocator`'s `ConcurrentHashMap` keyed by resource name) iterates,
//! and takes only the **first** locality level it meets for a (priority, size): a node
//! request blocks its rack and ANY, a rack request blocks its nodes and ANY, ANY blocks
//! everything else. The request taken decides the candidate nodes: the named node, the
//! rack's nodes, or every node. A rack or ANY request carries the ask's `relaxLocality`
//! (false keeps preemption on those nodes); a node request always relaxes (`AMRMClient`
//! builds it so), which lets the search look elsewhere when the named node would cost AM
//! containers. A node or rack request that names no node the cluster's node tracker holds
//! (a trace's host outside the cluster, a node gone or not joined yet) is skipped and marks
//! nothing visited, as `VisitedResourceRequestTracker` does when
//! `getNodesByResourceName` finds no node: the ask's rack or ANY request is then taken.
//!
//! The map's order is reproduced from Java's: `String.hashCode` over UTF-16 code units,
//! spread as `h ^ (h >>> 16)`, masked by the table size (16 buckets until 12 entries, then
//! doubling at three quarters full). Entries sharing a bucket keep fairsim's order (node,
//! rack, ANY; by index), where Java keeps insertion order. Node names are the cluster's host
//! names; rack names get Hadoop's leading `/` (a network location always starts with one).

use crate::preemption::starvation::sub_non_negative;
use crate::preemption::victims::StarvedRequest;
use fairsim_core::Resource;
use std::collections::BTreeSet;

/// The locality level of one `ResourceRequest`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A node request (node index, and its rack's index).
    Node {
        /// The node.
        node: u32,
        /// Its rack.
        rack: u32,
    },
    /// A rack request.
    Rack(u32),
    /// The ANY request.
    Any,
    /// A node or rack request whose name the node tracker holds no node for (a host no node
    /// has, a rack without a node in the cluster, a node that left or has not joined yet):
    /// Hadoop logs it as a request for a non-existent node or rack and skips it without
    /// marking anything visited, so a later rack or ANY request of the same ask is still
    /// taken.
    Absent,
}

/// One `ResourceRequest` at a priority: its resource name, level and container count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelAsk {
    /// Hadoop's resource name (`node7`, `/rack0`, `*`).
    pub name: String,
    /// Level and location.
    pub level: Level,
    /// Containers asked at this level.
    pub count: u32,
}

/// All requests of one priority of the starved app.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorityAsks {
    /// Container size at this priority.
    pub size: Resource,
    /// relaxLocality of the rack and ANY requests (node requests always relax).
    pub relax_locality: bool,
    /// The requests, in any order (they are put in the map's order here).
    pub asks: Vec<LevelAsk>,
}

/// Java's `String.hashCode`: 31-polynomial over UTF-16 code units, wrapping.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(i32::from(c)))
}

/// The bucket count of a `ConcurrentHashMap` created empty that received `entries` keys: 16,
/// doubled each time the count reaches three quarters of it.
fn table_size(entries: usize) -> usize {
    let mut size = 16usize;
    while entries >= size - size / 4 {
        size *= 2;
    }
    size
}

/// The order in which a `ConcurrentHashMap` holding `names` iterates them: by bucket
/// `(h ^ (h >>> 16)) & 0x7fffffff & (size − 1)`; a bucket keeps the given order.
pub fn hash_map_order(names: &[&str]) -> Vec<usize> {
    let mask = table_size(names.len()) - 1;
    let bucket = |s: &str| {
        let h = java_string_hash(s) as u32;
        ((h ^ (h >> 16)) & 0x7fff_ffff) as usize & mask
    };
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_key(|&i| bucket(names[i]));
    order
}

/// `VisitedResourceRequestTracker` for one (priority, size).
#[derive(Debug, Default)]
struct Visited {
    racks_with_nodes: BTreeSet<u32>,
    racks: BTreeSet<u32>,
    any: bool,
}

impl Visited {
    /// True when `level` is the first visit across the locality levels.
    fn visit(&mut self, level: Level) -> bool {
        match level {
            Level::Absent => false,
            Level::Any => {
                if self.racks.is_empty() && self.racks_with_nodes.is_empty() {
                    self.any = true;
                }
                self.any
            }
            Level::Rack(r) => {
                if self.any || self.racks_with_nodes.contains(&r) {
                    return false;
                }
                self.racks.insert(r);
                true
            }
            Level::Node { rack, .. } => {
                if self.any || self.racks.contains(&rack) {
                    return false;
                }
                self.racks_with_nodes.insert(rack);
                true
            }
        }
    }
}

/// `getStarvedResourceRequests`: over the priorities in order and each priority's requests
/// in the map's order, the first visit of each (priority, size) that fits at least one
/// container in what remains of `starvation` (⌊remaining ÷ size⌋ by memory, the scheduler's
/// calculator, at most the request's count); stops once nothing remains. `nodes_in_rack`
/// gives a rack's nodes in the node tracker (live ones), in index order.
pub fn starved_requests_33(
    starvation: Resource,
    priorities: &[PriorityAsks],
    nodes_in_rack: impl Fn(u32) -> Vec<u32>,
) -> Vec<StarvedRequest> {
    let mut pending = starvation;
    let mut out = Vec::new();
    for p in priorities {
        let names: Vec<&str> = p.asks.iter().map(|a| a.name.as_str()).collect();
        let mut visited = Visited::default();
        for i in hash_map_order(&names) {
            if pending == Resource::ZERO {
                return out;
            }
            let ask = &p.asks[i];
            if !visited.visit(ask.level) || p.size.memory_mb <= 0 {
                continue;
            }
            let fit = (pending.memory_mb as f64 / p.size.memory_mb as f64).floor() as i64;
            let n = fit.min(i64::from(ask.count));
            if n <= 0 {
                continue;
            }
            let (nodes, relax_locality) = match ask.level {
                Level::Node { node, .. } => (Some(vec![node]), true),
                Level::Rack(r) => (Some(nodes_in_rack(r)), p.relax_locality),
                Level::Any => (None, p.relax_locality),
                // Never visited (above); no candidate nodes.
                Level::Absent => continue,
            };
            out.push(StarvedRequest {
                size: p.size,
                count: n as u32,
                nodes,
                relax_locality,
            });
            let taken = Resource::new(p.size.memory_mb * n, p.size.vcores * n);
            pending = sub_non_negative(pending, taken);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_hashes_match_the_jvm() {
        // "*" is 42; "node0" = 104993390 and "/rack0" = 1453839722, worked from
        // s[0]·31^(n−1) + … + s[n−1] in 32-bit arithmetic.
        assert_eq!(java_string_hash("*"), 42);
        assert_eq!(java_string_hash("node0"), 104_993_390);
        assert_eq!(java_string_hash("/rack0"), 1_453_839_722);
        // "/default-rack" wraps: 2693433490 − 2^32.
        assert_eq!(java_string_hash("/default-rack"), -1_601_533_806);
    }

    #[test]
    fn map_order_is_by_bucket() {
        // Buckets of 16: node2 → 2, "*" → 42 & 15 = 10, "/rack0" → 13, node0 → 12.
        assert_eq!(
            hash_map_order(&["*", "/rack0", "node0", "node2"]),
            vec![3, 0, 2, 1]
        );
        assert_eq!(table_size(11), 16);
        assert_eq!(table_size(12), 32);
        assert_eq!(table_size(24), 64);
    }

    fn node(n: u32, rack: u32) -> LevelAsk {
        LevelAsk {
            name: format!("node{n}"),
            level: Level::Node { node: n, rack },
            count: 1,
        }
    }

    fn rack(r: u32, count: u32) -> LevelAsk {
        LevelAsk {
            name: format!("/rack{r}"),
            level: Level::Rack(r),
            count,
        }
    }

    fn any(count: u32) -> LevelAsk {
        LevelAsk {
            name: "*".into(),
            level: Level::Any,
            count,
        }
    }

    const GB: i64 = 1024;

    #[test]
    fn the_first_level_met_decides_the_candidates() {
        // A strict ask for node2 (bucket 2) in rack0: the node comes before "*" (10) and
        // "/rack0" (13), so only node2 is a candidate; rack and ANY are then blocked.
        let p = PriorityAsks {
            size: Resource::new(GB, 1),
            relax_locality: false,
            asks: vec![any(1), rack(0, 1), node(2, 0)],
        };
        let got = starved_requests_33(Resource::new(4 * GB, 4), &[p], |_| vec![0, 1, 2]);
        assert_eq!(
            got,
            vec![StarvedRequest {
                size: Resource::new(GB, 1),
                count: 1,
                nodes: Some(vec![2]),
                relax_locality: true,
            }]
        );
    }

    #[test]
    fn any_first_takes_every_node_and_blocks_the_rest() {
        // node1 (13) and "/rack1" (12) come after "*" (10): ANY is visited first, its
        // relaxLocality false kept; 3 GB of starvation fits 2 of the 2 asked.
        let p = PriorityAsks {
            size: Resource::new(GB, 1),
            relax_locality: false,
            asks: vec![node(1, 1), rack(1, 2), any(2)],
        };
        let got = starved_requests_33(Resource::new(3 * GB, 3), &[p], |_| vec![1]);
        assert_eq!(
            got,
            vec![StarvedRequest {
                size: Resource::new(GB, 1),
                count: 2,
                nodes: None,
                relax_locality: false,
            }]
        );
    }

    #[test]
    fn a_rack_first_takes_its_nodes_and_keeps_the_asks_relax_flag() {
        // "/default-rack" is bucket 8, before "*" (10): the rack's nodes, relaxLocality of
        // the ask; 1.5 GB of starvation fits one 1 GB container.
        let p = PriorityAsks {
            size: Resource::new(GB, 1),
            relax_locality: false,
            asks: vec![
                any(3),
                LevelAsk {
                    name: "/default-rack".into(),
                    level: Level::Rack(0),
                    count: 3,
                },
            ],
        };
        let got = starved_requests_33(Resource::new(1536, 1), &[p], |_| vec![0, 1]);
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].count, got[0].nodes.clone(), got[0].relax_locality),
            (1, Some(vec![0, 1]), false)
        );
    }

    #[test]
    fn two_nodes_of_one_rack_are_both_visited() {
        // node2 (2) and node3 (3) share rack0: a node request blocks only the rack and ANY,
        // so both are taken, one container each, until the 2 GB of starvation is covered.
        let p = PriorityAsks {
            size: Resource::new(GB, 1),
            relax_locality: false,
            asks: vec![any(2), rack(0, 2), node(2, 0), node(3, 0)],
        };
        let got = starved_requests_33(Resource::new(2 * GB, 2), &[p], |_| vec![]);
        let nodes: Vec<_> = got.iter().map(|r| r.nodes.clone()).collect();
        assert_eq!(nodes, vec![Some(vec![2]), Some(vec![3])]);
    }

    #[test]
    fn a_name_without_a_node_is_skipped_and_blocks_nothing() {
        // "ghost" (bucket 3) and "/default-rack" (8) name no node: both are skipped before
        // "*" (10), which is then the first visit and takes every node.
        let absent = |name: &str| LevelAsk {
            name: name.into(),
            level: Level::Absent,
            count: 1,
        };
        let p = PriorityAsks {
            size: Resource::new(GB, 1),
            relax_locality: true,
            asks: vec![absent("ghost"), absent("/default-rack"), any(1)],
        };
        let got = starved_requests_33(Resource::new(GB, 1), &[p], |_| vec![0]);
        assert_eq!(
            got,
            vec![StarvedRequest {
                size: Resource::new(GB, 1),
                count: 1,
                nodes: None,
                relax_locality: true,
            }]
        );
    }
}
