//! Delay scheduling in the Capacity Scheduler (Hadoop 2.x `LeafQueue.canAssign`): which
//! locality a container may take on a node, given how many scheduling opportunities the
//! app has missed at that priority.
//!
//! * node-local: the app asks for containers on this node (and on its rack);
//! * rack-local: it asks for this node's rack, and more opportunities were missed than
//!   min(cluster nodes, `node-locality-delay`) (default 40);
//! * off-switch: more opportunities were missed than (containers asked at ANY) × the
//!   locality wait factor, min(number of host and rack requests at the priority / cluster
//!   nodes, 1). An app with no locality hints has factor 0 and goes off-switch at once;
//!   small asks on a large cluster go off-switch before the rack delay runs out, as in 2.x.
//!
//! An opportunity is counted each time the app is offered a node at the priority (before
//! the test), and reset after a node- or rack-local assignment; off-switch assignments do
//! not reset it.

pub use crate::app::Locality;

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

/// The best locality allowed on this node, if any. `missed` is the count after this
/// offer was counted.
pub fn allowed_locality(
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
    if ask.on_rack > 0 {
        let delay = i64::from(node_locality_delay).min(i64::from(cluster_nodes));
        if delay < missed as i64 {
            return Some(Locality::RackLocal);
        }
    }
    let factor = if cluster_nodes == 0 {
        1.0f32
    } else {
        (ask.location_requests as f32 / cluster_nodes as f32).min(1.0)
    };
    if (ask.any as f32 * factor) < missed as f32 {
        return Some(Locality::OffSwitch);
    }
    None
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
        assert_eq!(allowed_locality(ask, 1, 100, 40), Some(Locality::OffSwitch));
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
            allowed_locality(here, 1, 100, 40),
            Some(Locality::NodeLocal)
        );
        // Another node of the same rack: rack-local only after more than 40 misses.
        let rack = LocalityAsk { on_node: 0, ..here };
        assert_eq!(allowed_locality(rack, 40, 100, 40), None);
        assert_eq!(
            allowed_locality(rack, 41, 100, 40),
            Some(Locality::RackLocal)
        );
        // The delay is capped by the cluster size: 10 nodes → more than 10 misses.
        assert_eq!(
            allowed_locality(rack, 11, 10, 40),
            Some(Locality::RackLocal)
        );
        // A node elsewhere: off-switch once misses exceed 100 × 1.
        let away = LocalityAsk {
            on_node: 0,
            on_rack: 0,
            ..here
        };
        assert_eq!(allowed_locality(away, 100, 100, 40), None);
        assert_eq!(
            allowed_locality(away, 101, 100, 40),
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
            allowed_locality(rack, 1, 100, 40),
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
        assert_eq!(allowed_locality(odd, 1, 100, 40), None);
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
            allowed_locality(strict, 1, 10, 40),
            Some(Locality::NodeLocal)
        );
        // However many offers another node of the rack, or a node elsewhere, has missed.
        let rack = LocalityAsk {
            on_node: 0,
            ..strict
        };
        let away = LocalityAsk { on_rack: 0, ..rack };
        assert_eq!(allowed_locality(rack, 1_000_000, 10, 40), None);
        assert_eq!(allowed_locality(away, 1_000_000, 10, 40), None);
    }
}
