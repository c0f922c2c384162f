//! Delay scheduling in the Capacity Scheduler (Hadoop 2.x `LeafQueue.canAssign`, 3.x
//! `RegularContainerAllocator.canAssign`): which locality a container may take on a node,
//! given how many scheduling opportunities the app has missed at that priority.
//!
//! * node-local: the app asks for containers on this node (and on its rack);
//! * rack-local: it asks for this node's rack, and more opportunities were missed than
//!   min(cluster nodes, `node-locality-delay`) (default 40);
//! * off-switch: more opportunities were missed than (containers asked at ANY) × the
//!   locality wait factor, min(number of host and rack requests at the priority / cluster
//!   nodes, 1); Hadoop 3.x caps that product at the cluster's node count (so an app with
//!   many asks waits at most one offer per node). An app with no locality hints has factor 0
//!   and goes off-switch at once; small asks on a large cluster go off-switch before the
//!   rack delay runs out, as in 2.x.
//!
//! An opportunity is counted each time the app is offered a node at the priority (before
//! the test), and reset after a node- or rack-local assignment; off-switch assignments do
//! not reset it. Past [`opportunities_to_open`] a further count changes no answer: the
//! quiescence watch counts an opportunity as progress only below it.
//!
//! Not modelled: 3.x `rack-locality-additional-delay` (default -1, off: the off-switch delay
//! above) and `rack-locality-full-reset` (default true: a rack-local assignment resets the
//! count, as here).

pub use crate::app::Locality;
use fairsim_core::Semantics;

/// What an app asks for at one priority, seen from one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LocalityAsk {
    /// Containers asked on this node.
    pub on_node: u32,
    /// Containers asked on this node's rack.
    pub on_rack: u32,
    /// Containers asked in total (the ANY request).
    pub any: u32,
    /// Number of host and rack requests at this priority (the ANY one excluded).
    pub location_requests: u32,
    /// The rack and ANY requests have relaxLocality off: only node-local is allowed
    /// (`assignContainersOnNode` in 2.x, `RegularContainerAllocator` in 3.x skip the
    /// priority at the rack and off-switch steps).
    pub strict: bool,
}

/// The delays of one priority's asks, in missed opportunities: rack-local is allowed past
/// `rack`, off-switch past `off_switch` (compared as Java compares them: a long with an int,
/// a float with a long widened to float).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Delays {
    rack: i64,
    off_switch: f32,
}

fn delays(
    semantics: Semantics,
    any: u32,
    location_requests: u32,
    cluster_nodes: u32,
    node_locality_delay: i32,
) -> Delays {
    let factor = if cluster_nodes == 0 {
        1.0f32
    } else {
        (location_requests as f32 / cluster_nodes as f32).min(1.0)
    };
    let asked = any as f32 * factor;
    let off_switch = match semantics {
        Semantics::Hadoop27 => asked,
        // `Math.min(getNumClusterNodes(), requiredContainers * localityWaitFactor)`.
        Semantics::Hadoop33 => (cluster_nodes as f32).min(asked),
    };
    Delays {
        rack: i64::from(node_locality_delay).min(i64::from(cluster_nodes)),
        off_switch,
    }
}

/// The best locality allowed on this node, if any. `missed` is the count after this
/// offer was counted.
pub fn allowed_locality(
    semantics: Semantics,
    ask: LocalityAsk,
    missed: u64,
    cluster_nodes: u32,
    node_locality_delay: i32,
) -> Option<Locality> {
    if ask.any == 0 {
        return None;
    }
    // Hadoop tests the rack request before the node request: a node request without a
    // rack request is never served.
    if ask.on_node > 0 && ask.on_rack > 0 {
        return Some(Locality::NodeLocal);
    }
    if ask.strict {
        return None;
    }
    let d = delays(
        semantics,
        ask.any,
        ask.location_requests,
        cluster_nodes,
        node_locality_delay,
    );
    if ask.on_rack > 0 && d.rack < missed as i64 {
        return Some(Locality::RackLocal);
    }
    if d.off_switch < missed as f32 {
        return Some(Locality::OffSwitch);
    }
    None
}

/// The missed-opportunity count from which [`allowed_locality`] gives every node the
/// answer it gives at any larger count, for asks of `any` containers at ANY with
/// `location_requests` host and rack requests, relaxing (`strict` false) or not: 0 for a
/// strict ask (only node-local, which reads no count), otherwise one past the larger delay.
/// An opportunity counted below it can open a level a later offer takes; one counted at or
/// past it changes nothing that is read (for the quiescence watch, see the engine).
pub fn opportunities_to_open(
    semantics: Semantics,
    any: u32,
    location_requests: u32,
    strict: bool,
    cluster_nodes: u32,
    node_locality_delay: i32,
) -> u64 {
    if strict || any == 0 {
        return 0;
    }
    let d = delays(
        semantics,
        any,
        location_requests,
        cluster_nodes,
        node_locality_delay,
    );
    // The smallest count above both delays: past `rack` as an integer, past `off_switch`
    // as a float (a count at most 2^24 past it is exact in a float; `any` is an int).
    let rack = (d.rack + 1).max(0) as u64;
    let off = if d.off_switch < 0.0 {
        0
    } else {
        d.off_switch.floor() as u64 + 1
    };
    rack.max(off)
}

/// Whether an assignment at `locality` resets the missed-opportunity count.
pub fn resets_opportunities(locality: Locality) -> bool {
    locality != Locality::OffSwitch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_hints_go_off_switch_at_the_first_offer() {
        let ask = LocalityAsk {
            any: 5,
            ..LocalityAsk::default()
        };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, ask, 1, 100, 40),
            Some(Locality::OffSwitch)
        );
    }

    #[test]
    fn node_local_at_once_rack_local_after_the_delay() {
        // 100 containers on node n1 (rack r1) of a 100-node cluster, with 100 location
        // requests at the priority: the wait factor is 1.
        let here = LocalityAsk {
            on_node: 100,
            on_rack: 100,
            any: 100,
            location_requests: 100,
            strict: false,
        };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, here, 1, 100, 40),
            Some(Locality::NodeLocal)
        );
        // Another node of the same rack: rack-local only after more than 40 misses.
        let rack = LocalityAsk { on_node: 0, ..here };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, rack, 40, 100, 40),
            None
        );
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, rack, 41, 100, 40),
            Some(Locality::RackLocal)
        );
        // The delay is capped by the cluster size: 10 nodes → more than 10 misses.
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, rack, 11, 10, 40),
            Some(Locality::RackLocal)
        );
        // A node elsewhere: off-switch once misses exceed 100 × 1.
        let away = LocalityAsk {
            on_node: 0,
            on_rack: 0,
            ..here
        };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, away, 100, 100, 40),
            None
        );
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, away, 101, 100, 40),
            Some(Locality::OffSwitch)
        );
        assert!(!resets_opportunities(Locality::OffSwitch));
        assert!(resets_opportunities(Locality::RackLocal));
    }

    #[test]
    fn small_asks_go_off_switch_before_the_rack_delay() {
        // 2 containers on n1/r1 on a 100-node cluster: factor 2/100, so off-switch is allowed
        // after one miss, long before the rack delay of 40 (YARN 2.x behaves so; 2.9 added
        // rack-locality-additional-delay for it).
        let rack = LocalityAsk {
            on_node: 0,
            on_rack: 2,
            any: 2,
            location_requests: 2,
            strict: false,
        };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, rack, 1, 100, 40),
            Some(Locality::OffSwitch)
        );
        // A node request without its rack request counts for nothing (Hadoop checks the
        // rack first).
        let odd = LocalityAsk {
            on_node: 1,
            on_rack: 0,
            any: 1,
            location_requests: 100,
            strict: false,
        };
        assert_eq!(allowed_locality(Semantics::Hadoop27, odd, 1, 100, 40), None);
    }

    /// Hadoop 3.x caps the off-switch delay at the cluster's node count; 2.x waits for
    /// (asks × wait factor) offers however many that is.
    #[test]
    fn hadoop33_waits_at_most_one_offer_per_node_before_off_switch() {
        // 96 maps on 4 hosts of one rack that no node of a 4-node cluster is: factor 1.
        let away = LocalityAsk {
            on_node: 0,
            on_rack: 0,
            any: 96,
            location_requests: 5,
            strict: false,
        };
        let at = |s, missed| allowed_locality(s, away, missed, 4, 40);
        assert_eq!(at(Semantics::Hadoop27, 96), None);
        assert_eq!(at(Semantics::Hadoop27, 97), Some(Locality::OffSwitch));
        assert_eq!(at(Semantics::Hadoop33, 4), None);
        assert_eq!(at(Semantics::Hadoop33, 5), Some(Locality::OffSwitch));
        // Below the cap the two eras agree: 2 asks × 5/100 on 100 nodes.
        let small = LocalityAsk { any: 2, ..away };
        for s in [Semantics::Hadoop27, Semantics::Hadoop33] {
            assert_eq!(
                allowed_locality(s, small, 1, 100, 40),
                Some(Locality::OffSwitch)
            );
        }
    }

    /// From `opportunities_to_open` on, a larger count gives every node the same answer,
    /// and the count just below it gives another answer to some node (it is the least such).
    #[test]
    fn past_opportunities_to_open_no_count_changes_an_answer() {
        let mut checked = 0;
        for s in [Semantics::Hadoop27, Semantics::Hadoop33] {
            for any in [1u32, 2, 3, 7, 20, 96] {
                for location_requests in [0u32, 1, 2, 5, 12] {
                    for nodes in [1u32, 3, 4, 12, 20, 50] {
                        for delay in [-1i32, 0, 1, 3, 40] {
                            for strict in [false, true] {
                                let to_open = opportunities_to_open(
                                    s,
                                    any,
                                    location_requests,
                                    strict,
                                    nodes,
                                    delay,
                                );
                                // The node views: on the node and its rack, on the rack only,
                                // elsewhere.
                                let views = [(1, 1), (0, 1), (0, 0)].map(|(on_node, on_rack)| {
                                    LocalityAsk {
                                        on_node,
                                        on_rack,
                                        any,
                                        location_requests,
                                        strict,
                                    }
                                });
                                let answers =
                                    |m: u64| views.map(|v| allowed_locality(s, v, m, nodes, delay));
                                let settled = answers(to_open.max(1));
                                for m in to_open.max(1)..to_open + 60 {
                                    assert_eq!(
                                        answers(m),
                                        settled,
                                        "{s} {any} {location_requests} {nodes} {delay} {strict} at {m}"
                                    );
                                }
                                if to_open > 1 {
                                    assert_ne!(answers(to_open - 1), settled);
                                }
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 2 * 6 * 5 * 6 * 5 * 2);
    }

    #[test]
    fn strict_asks_are_node_local_or_nothing() {
        let strict = LocalityAsk {
            on_node: 1,
            on_rack: 1,
            any: 1,
            location_requests: 2,
            strict: true,
        };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, strict, 1, 10, 40),
            Some(Locality::NodeLocal)
        );
        // However many offers another node of the rack, or a node elsewhere, has missed.
        let rack = LocalityAsk {
            on_node: 0,
            ..strict
        };
        let away = LocalityAsk { on_rack: 0, ..rack };
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, rack, 1_000_000, 10, 40),
            None
        );
        assert_eq!(
            allowed_locality(Semantics::Hadoop27, away, 1_000_000, 10, 40),
            None
        );
    }
}
