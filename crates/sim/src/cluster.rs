//! The cluster: nodes with a capacity, grouped in racks, and their heartbeat schedule.
//!
//! Mirrors YARN's `SchedulerNode`/`FSSchedulerNode`: a node knows its total capability, what
//! is allocated on it and at most one reservation.

use crate::time::SimTime;
use fairsim_core::Resource;

/// Index of a node in [`Cluster::nodes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

/// A container reserved on a node for an app that did not fit (Hadoop's reserved container).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reservation {
    /// Index of the reserving app.
    pub app: u32,
    /// Request priority the reservation is for.
    pub priority: i32,
    /// Size of the reserved container.
    pub size: Resource,
}

/// One NodeManager.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Host name (`node0`, `node1`, ...), as locality hints name it.
    pub name: String,
    /// Index of its rack in [`Cluster::racks`].
    pub rack: u32,
    /// Total capability.
    pub capacity: Resource,
    /// Sum of the containers running on it.
    pub allocated: Resource,
    /// Number of containers running on it.
    pub n_containers: u32,
    /// The reservation it holds, if any.
    pub reservation: Option<Reservation>,
    /// Offset of its heartbeats within the heartbeat interval, in ms.
    pub phase_ms: u64,
}

impl Node {
    /// Unallocated resource (`getUnallocatedResource`).
    pub fn available(&self) -> Resource {
        self.capacity.saturating_sub(self.allocated)
    }
}

/// All nodes and racks, and the cluster's total resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// Nodes, by index.
    pub nodes: Vec<Node>,
    /// Rack names, by index.
    pub racks: Vec<String>,
    /// Sum of node capacities.
    pub total: Resource,
    /// Heartbeat interval in ms.
    pub heartbeat_ms: u64,
}

impl Cluster {
    /// `n_nodes` identical nodes split evenly over `n_racks` racks in contiguous blocks
    /// (as SLS splits `num.nodes` over `num.racks`). Node `i` heartbeats at
    /// `i * heartbeat_ms / n_nodes + k * heartbeat_ms`: phases spread evenly and
    /// deterministically over the interval.
    pub fn uniform(n_nodes: u32, n_racks: u32, size: Resource, heartbeat_ms: u64) -> Cluster {
        let n_racks = n_racks.clamp(1, n_nodes.max(1));
        let racks = (0..n_racks).map(|r| format!("rack{r}")).collect();
        let heartbeat_ms = heartbeat_ms.max(1);
        let nodes = (0..n_nodes)
            .map(|i| Node {
                name: format!("node{i}"),
                rack: ((i as u64 * n_racks as u64) / n_nodes as u64) as u32,
                capacity: size,
                allocated: Resource::ZERO,
                n_containers: 0,
                reservation: None,
                phase_ms: (i as u64 * heartbeat_ms) / n_nodes as u64,
            })
            .collect();
        Cluster {
            nodes,
            racks,
            total: Resource::new(
                size.memory_mb * n_nodes as i64,
                size.vcores * n_nodes as i64,
            ),
            heartbeat_ms,
        }
    }

    /// The node named `host`; accepts SLS's `/rack/host` form by its last segment.
    pub fn find_node(&self, host: &str) -> Option<NodeId> {
        let name = host.rsplit('/').next().unwrap_or(host);
        self.nodes
            .iter()
            .position(|n| n.name == name)
            .map(|i| NodeId(i as u32))
    }

    /// The first heartbeat time of `node` at or after `t`.
    pub fn heartbeat_at_or_after(&self, node: NodeId, t: SimTime) -> SimTime {
        let phase = self.nodes[node.0 as usize].phase_ms;
        let hb = self.heartbeat_ms;
        if t.0 <= phase {
            return SimTime(phase);
        }
        let k = (t.0 - phase).div_ceil(hb);
        SimTime(phase + k * hb)
    }

    /// The largest node capability (a container larger than this can never run).
    pub fn largest_node(&self) -> Resource {
        self.nodes
            .iter()
            .fold(Resource::ZERO, |acc, n| acc.component_max(n.capacity))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_spread_and_heartbeats_align() {
        let c = Cluster::uniform(4, 2, Resource::new(1024, 1), 1000);
        let phases: Vec<u64> = c.nodes.iter().map(|n| n.phase_ms).collect();
        assert_eq!(phases, vec![0, 250, 500, 750]);
        let racks: Vec<u32> = c.nodes.iter().map(|n| n.rack).collect();
        assert_eq!(racks, vec![0, 0, 1, 1]);
        assert_eq!(c.heartbeat_at_or_after(NodeId(1), SimTime(0)), SimTime(250));
        assert_eq!(
            c.heartbeat_at_or_after(NodeId(1), SimTime(250)),
            SimTime(250)
        );
        assert_eq!(
            c.heartbeat_at_or_after(NodeId(1), SimTime(251)),
            SimTime(1250)
        );
        assert_eq!(c.find_node("/rack0/node3"), Some(NodeId(3)));
    }
}
