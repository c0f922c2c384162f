//! The cluster: nodes with a capacity, grouped in racks, and their heartbeat schedule.
//!
//! Mirrors YARN's `SchedulerNode`/`FSSchedulerNode`: a node knows its total capability, what
//! is allocated on it and at most one reservation.

use crate::time::SimTime;
use crate::topology::NodeSpec;
use fairsim_core::Resource;
use std::collections::HashMap;

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

/// Where a node stands in the cluster (`[[cluster.events]]` move it; without events every
/// node is `Running` for the whole run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeState {
    /// Joins later in the run: not in the cluster yet.
    Pending,
    /// In the cluster.
    Running,
    /// Gracefully decommissioning (hadoop-3.3): in the cluster, its capability shrunk to
    /// what it runs at each heartbeat, taking no new container.
    Decommissioning,
    /// Left the cluster (lost or decommissioned): counts nowhere, never beats again.
    Gone,
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
    /// In the cluster or not (see [`NodeState`]).
    pub state: NodeState,
}

impl Node {
    /// In the cluster: counted in its capacity, offered to the scheduler.
    pub fn is_live(&self) -> bool {
        matches!(self.state, NodeState::Running | NodeState::Decommissioning)
    }

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
    /// Sum of the capacities of the nodes in the cluster (live nodes).
    pub total: Resource,
    /// Number of live nodes (what Hadoop's `getNumClusterNodes` counts).
    pub live: u32,
    /// Per rack: its live nodes (Hadoop 3.3's rack-local reservation cap reads it at every
    /// reservation; kept rather than counted).
    live_per_rack: Vec<u32>,
    /// Heartbeat interval in ms.
    pub heartbeat_ms: u64,
    /// Node name → index (lookups only: nothing iterates it).
    by_name: HashMap<String, u32>,
    /// Rack name → index.
    rack_by_name: HashMap<String, u32>,
}

impl Cluster {
    /// `n_nodes` identical nodes split evenly over `n_racks` racks in contiguous blocks
    /// (as SLS splits `num.nodes` over `num.racks`): `nodes = N`.
    pub fn uniform(n_nodes: u32, n_racks: u32, size: Resource, heartbeat_ms: u64) -> Cluster {
        Cluster::from_nodes(
            &crate::topology::uniform(n_nodes, n_racks, size),
            heartbeat_ms,
        )
    }

    /// The cluster of `nodes`, in their order; racks numbered in order of first appearance.
    /// Node `i` of `n` heartbeats at `i * heartbeat_ms / n + k * heartbeat_ms`: phases spread
    /// evenly and deterministically over the interval. Names are unique (checked when the
    /// scenario is read); a repeated name resolves to its first node.
    pub fn from_nodes(nodes: &[NodeSpec], heartbeat_ms: u64) -> Cluster {
        Cluster::with_joining(nodes, &[], heartbeat_ms)
    }

    /// The cluster of `nodes` (phased as [`Cluster::from_nodes`] phases them) followed by
    /// `joining`, nodes that join at the given times: they are `Pending` until then, and a
    /// joining node beats at its join time + k × `heartbeat_ms` (it starts heartbeating when
    /// it registers).
    pub fn with_joining(
        nodes: &[NodeSpec],
        joining: &[(NodeSpec, u64)],
        heartbeat_ms: u64,
    ) -> Cluster {
        let heartbeat_ms = heartbeat_ms.max(1);
        let n = nodes.len().max(1) as u64;
        let mut racks: Vec<String> = Vec::new();
        let mut rack_by_name: HashMap<String, u32> = HashMap::new();
        let mut by_name: HashMap<String, u32> = HashMap::with_capacity(nodes.len());
        let total = nodes
            .iter()
            .fold(Resource::ZERO, |t, spec| t.saturating_add(spec.capacity));
        let initial = nodes.iter().enumerate().map(|(i, spec)| {
            let phase_ms = (i as u64 * heartbeat_ms) / n;
            (spec, phase_ms, NodeState::Running)
        });
        let later = joining
            .iter()
            .map(|(spec, at_ms)| (spec, at_ms % heartbeat_ms, NodeState::Pending));
        let mut built = Vec::with_capacity(nodes.len() + joining.len());
        for (spec, phase_ms, state) in initial.chain(later) {
            let rack = *rack_by_name.entry(spec.rack.clone()).or_insert_with(|| {
                racks.push(spec.rack.clone());
                (racks.len() - 1) as u32
            });
            by_name
                .entry(spec.name.clone())
                .or_insert(built.len() as u32);
            built.push(Node {
                name: spec.name.clone(),
                rack,
                capacity: spec.capacity,
                allocated: Resource::ZERO,
                n_containers: 0,
                reservation: None,
                phase_ms,
                state,
            });
        }
        let mut live_per_rack = vec![0u32; racks.len()];
        for nd in built.iter().filter(|nd| nd.is_live()) {
            live_per_rack[nd.rack as usize] += 1;
        }
        Cluster {
            nodes: built,
            racks,
            total,
            live: nodes.len() as u32,
            live_per_rack,
            heartbeat_ms,
            by_name,
            rack_by_name,
        }
    }

    /// Node `n` joins the cluster: its capability counts from now on.
    pub fn join(&mut self, n: NodeId) {
        let node = &mut self.nodes[n.0 as usize];
        debug_assert_eq!(node.state, NodeState::Pending);
        node.state = NodeState::Running;
        self.total = self.total.saturating_add(node.capacity);
        self.live += 1;
        self.live_per_rack[node.rack as usize] += 1;
    }

    /// Node `n` leaves the cluster (its containers and reservation are gone already).
    pub fn leave(&mut self, n: NodeId) {
        let node = &mut self.nodes[n.0 as usize];
        debug_assert!(node.is_live());
        node.state = NodeState::Gone;
        self.total = self.total.saturating_sub(node.capacity);
        self.live -= 1;
        self.live_per_rack[node.rack as usize] -= 1;
    }

    /// Node `n`'s capability becomes `capacity` (Hadoop's `updateNodeResource`), the
    /// cluster's total with it.
    pub fn resize(&mut self, n: NodeId, capacity: Resource) {
        let node = &mut self.nodes[n.0 as usize];
        debug_assert!(node.is_live());
        self.total = self
            .total
            .saturating_sub(node.capacity)
            .saturating_add(capacity);
        node.capacity = capacity;
    }

    /// Number of live nodes in rack `rack`.
    pub fn live_in_rack(&self, rack: u32) -> usize {
        self.live_per_rack
            .get(rack as usize)
            .map_or(0, |&k| k as usize)
    }

    /// The node named `host`; accepts SLS's `/rack/host` form by its last segment.
    pub fn find_node(&self, host: &str) -> Option<NodeId> {
        let name = crate::topology::hints::split(host).1;
        self.by_name.get(name).map(|&i| NodeId(i))
    }

    /// The rack named `rack` (without SLS's leading `/`).
    pub fn find_rack(&self, rack: &str) -> Option<u32> {
        self.rack_by_name.get(rack.trim_start_matches('/')).copied()
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

    /// The largest capability of a live node, per resource (a container larger than this
    /// cannot run now); `None` when no node is in the cluster.
    pub fn largest_node(&self) -> Option<Resource> {
        self.nodes
            .iter()
            .filter(|n| n.is_live())
            .map(|n| n.capacity)
            .reduce(|a, b| a.component_max(b))
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
