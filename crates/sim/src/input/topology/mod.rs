//! Cluster topology: the nodes of a run, resolved once from `[cluster]` into a list of
//! [`NodeSpec`]s (name, rack, capability).
//!
//! Three forms, exactly one per scenario:
//! - `nodes = N` with `node_memory_mb`, `node_vcores` and `racks`: `N` identical nodes
//!   `node0..node{N-1}` in racks `rack0..` split in contiguous blocks (what SLS does with
//!   `num.nodes` / `num.racks`); results are those of fairsim before topologies existed.
//! - `[[cluster.nodes]]` entries ([`entries`]): a host `name` or a name `prefix` with a
//!   `count` of identical nodes, a `rack`, `memory_mb` and `vcores`.
//! - `nodes_file = "nodes.json"`: an SLS nodes file ([`sls_nodes`]).
//!
//! Trace host hints resolve against the names and racks ([`hints`]).

pub mod entries;
pub mod events;
pub mod hints;
pub mod sls_nodes;

use crate::scenario_error::ScenarioError;
use fairsim_core::{Resource, Semantics};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// One node of the cluster as the scenario describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeSpec {
    /// Host name, as locality hints name it (unique in a cluster).
    pub name: String,
    /// Rack (network location without the leading `/`, as SLS writes it).
    pub rack: String,
    /// Total capability.
    pub capacity: Resource,
}

/// `n` identical nodes `node0..` of `size` in `racks` racks `rack0..`, split evenly in
/// contiguous blocks: what `nodes = N` means.
pub fn uniform(n: u32, racks: u32, size: Resource) -> Vec<NodeSpec> {
    let racks = racks.clamp(1, n.max(1));
    (0..n)
        .map(|i| NodeSpec {
            name: format!("node{i}"),
            rack: format!("rack{}", (u64::from(i) * u64::from(racks)) / u64::from(n)),
            capacity: size,
        })
        .collect()
}

/// The sum of the nodes' capabilities.
pub fn total(nodes: &[NodeSpec]) -> Resource {
    nodes
        .iter()
        .fold(Resource::ZERO, |acc, n| acc.saturating_add(n.capacity))
}

/// Number of distinct racks.
pub fn rack_count(nodes: &[NodeSpec]) -> usize {
    let racks: std::collections::BTreeSet<&str> = nodes.iter().map(|n| n.rack.as_str()).collect();
    racks.len()
}

/// Cluster shape: `nodes = N` identical nodes, or an explicit list (`[[cluster.nodes]]`, an
/// SLS `nodes_file`; see the module docs). Deserializing one reads the `nodes = N` form;
/// scenarios read all three through `topology::RawCluster`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClusterSpec {
    /// Number of nodes.
    pub nodes: u32,
    /// Number of racks (`nodes = N`: nodes split evenly in contiguous blocks).
    #[serde(default = "one")]
    pub racks: u32,
    /// Memory per node, MB (`nodes = N`; a list's default size).
    pub node_memory_mb: i64,
    /// Vcores per node.
    pub node_vcores: i64,
    /// The nodes of a list; empty for `nodes = N`.
    #[serde(skip)]
    pub layout: Vec<NodeSpec>,
    /// Nodes joining and leaving during the run (`[[cluster.events]]`); none by default.
    #[serde(skip)]
    pub events: events::NodeEvents,
}

fn one() -> u32 {
    1
}

impl Default for ClusterSpec {
    fn default() -> Self {
        ClusterSpec {
            nodes: 1,
            racks: 1,
            node_memory_mb: 8192,
            node_vcores: 8,
            layout: Vec::new(),
            events: Default::default(),
        }
    }
}

impl ClusterSpec {
    /// `nodes = N` identical nodes of `node` in `racks` racks.
    pub fn uniform(nodes: u32, racks: u32, node: Resource) -> ClusterSpec {
        ClusterSpec {
            nodes,
            racks,
            node_memory_mb: node.memory_mb,
            node_vcores: node.vcores,
            layout: Vec::new(),
            events: Default::default(),
        }
    }

    /// One node's capability (`nodes = N`).
    pub fn node_size(&self) -> Resource {
        Resource::new(self.node_memory_mb, self.node_vcores)
    }

    /// Every node, in index order: the list, or what `nodes = N` expands to.
    pub fn node_specs(&self) -> std::borrow::Cow<'_, [NodeSpec]> {
        if self.layout.is_empty() {
            uniform(self.nodes, self.racks, self.node_size()).into()
        } else {
            self.layout.as_slice().into()
        }
    }

    /// The sum of the nodes' capabilities.
    pub fn total(&self) -> Resource {
        if self.layout.is_empty() {
            Resource::new(
                self.node_memory_mb.saturating_mul(self.nodes.into()),
                self.node_vcores.saturating_mul(self.nodes.into()),
            )
        } else {
            total(&self.layout)
        }
    }
}

/// The first name that two nodes share, if any (names are what hints and events resolve).
pub fn duplicate_name(nodes: &[NodeSpec]) -> Option<&str> {
    let mut seen = std::collections::HashSet::with_capacity(nodes.len());
    nodes
        .iter()
        .find(|n| !seen.insert(n.name.as_str()))
        .map(|n| n.name.as_str())
}

/// `[cluster]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCluster {
    nodes: Option<entries::NodesKey>,
    racks: Option<u32>,
    node_memory_mb: Option<i64>,
    node_vcores: Option<i64>,
    nodes_file: Option<PathBuf>,
    events: Option<Vec<events::RawNodeEvent>>,
}

/// What reading `[cluster]` gives: the cluster, where each node was described and the
/// warnings about its files.
pub(crate) struct Resolved {
    pub cluster: ClusterSpec,
    pub origins: NodeOrigins,
    pub warnings: Vec<String>,
}

/// Where each node of a scenario was described, so that a check made once the scheduler is
/// known (a node below the minimum allocation) names the entry or the line at fault.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeOrigins {
    /// The cluster's own nodes.
    pub initial: InitialOrigin,
    /// Per added node (in [`events::NodeEvents::added`] order): its `[[cluster.events]]` entry.
    pub added_entry: Vec<u32>,
}

/// Where the cluster's own nodes come from.
#[derive(Debug, Clone, Default)]
pub(crate) enum InitialOrigin {
    /// `nodes = N` of `node_memory_mb` / `node_vcores`.
    #[default]
    Uniform,
    /// `[[cluster.nodes]]`: each node's entry.
    Entries(Vec<u32>),
    /// A nodes file: each node's line and index in its rack's `nodes` list.
    File(PathBuf, Vec<(u64, u32)>),
}

/// Where a node's size is written: a key of the scenario file, or a line of a nodes file.
pub(crate) enum SizePlace {
    /// A key of the scenario file (its line is found by key).
    Key(String),
    /// A nodes file, line and field.
    File(PathBuf, u64, String),
}

impl NodeOrigins {
    /// Where node `node` (the cluster's `n_initial` nodes first, then the added ones) has its
    /// `memory` (else vcores) written.
    pub(crate) fn size_place(&self, node: usize, n_initial: usize, memory: bool) -> SizePlace {
        let (scenario_field, file_field) = if memory {
            ("memory_mb", "memory-mb")
        } else {
            ("vcores", "vcores")
        };
        if node >= n_initial {
            return match self.added_entry.get(node - n_initial) {
                Some(i) => SizePlace::Key(format!("cluster.events[{i}].{scenario_field}")),
                None => SizePlace::Key("cluster.events".into()),
            };
        }
        match &self.initial {
            InitialOrigin::Uniform => SizePlace::Key(format!("cluster.node_{scenario_field}")),
            InitialOrigin::Entries(entry) => {
                SizePlace::Key(format!("cluster.nodes[{}].{scenario_field}", entry[node]))
            }
            InitialOrigin::File(path, lines) => {
                let (line, j) = lines[node];
                SizePlace::File(path.clone(), line, format!("nodes[{j}].{file_field}"))
            }
        }
    }
}

impl RawCluster {
    /// Whether the nodes come from an SLS nodes file (which SLS's NodeManager size applies to).
    pub(crate) fn has_nodes_file(&self) -> bool {
        self.nodes_file.is_some()
    }

    /// The SLS nodes file, if the cluster names one.
    pub(crate) fn nodes_file(&self) -> Option<&Path> {
        self.nodes_file.as_deref()
    }

    /// The cluster of one of the three forms (a nodes file read relative to `base`; its
    /// nodes that give no size take `node_memory_mb` / `node_vcores`, else `sls_nm` (SLS's
    /// `yarn.sls.nm.memory.mb` / `yarn.sls.nm.vcores` from the configuration files), else
    /// SLS's defaults).
    pub(crate) fn resolve(
        self,
        base: &Path,
        semantics: Semantics,
        sls_nm: (Option<i64>, Option<i64>),
        invalid: &dyn Fn(&str, &str) -> ScenarioError,
    ) -> Result<Resolved, ScenarioError> {
        let forms = [
            matches!(self.nodes, Some(entries::NodesKey::Count(_))),
            matches!(self.nodes, Some(entries::NodesKey::List(_))),
            self.nodes_file.is_some(),
        ];
        if forms.iter().filter(|f| **f).count() != 1 {
            return Err(invalid(
                "cluster",
                "give exactly one of `nodes = N`, [[cluster.nodes]] entries or `nodes_file`",
            ));
        }
        let mut warnings = Vec::new();
        let mut origin = InitialOrigin::Uniform;
        let layout = match (self.nodes, &self.nodes_file) {
            (Some(entries::NodesKey::Count(n)), _) => {
                let required = |key: &str, v: Option<i64>| {
                    v.ok_or_else(|| {
                        invalid(
                            &format!("cluster.{key}"),
                            "missing: `nodes = N` needs the node size",
                        )
                    })
                };
                let node_memory_mb = required("node_memory_mb", self.node_memory_mb)?;
                let node_vcores = required("node_vcores", self.node_vcores)?;
                // Out of range counts are refused by the range checks, naming the key.
                let nodes = u32::try_from(n).unwrap_or(u32::MAX);
                let cluster = ClusterSpec {
                    nodes,
                    racks: self.racks.unwrap_or(1),
                    node_memory_mb,
                    node_vcores,
                    layout: Vec::new(),
                    events: Default::default(),
                };
                return with_events(cluster, self.events, invalid, warnings, origin);
            }
            (Some(entries::NodesKey::List(list)), _) => {
                let (nodes, entry) = entries::expand(&list, self.node_memory_mb, self.node_vcores)
                    .map_err(|(key, m)| invalid(&key, &m))?;
                origin = InitialOrigin::Entries(entry);
                nodes
            }
            (None, Some(file)) => {
                let default = Resource::new(
                    self.node_memory_mb
                        .or(sls_nm.0)
                        .unwrap_or(sls_nodes::SLS_NM_DEFAULT.memory_mb),
                    self.node_vcores
                        .or(sls_nm.1)
                        .unwrap_or(sls_nodes::SLS_NM_DEFAULT.vcores),
                );
                let path = base.join(file);
                let read = sls_nodes::read_sls_nodes(&path, default, semantics)?;
                warnings.extend(read.warnings);
                origin = InitialOrigin::File(path, read.origins);
                read.nodes
            }
            (None, None) => unreachable!("one form was checked above"),
        };
        if self.racks.is_some() {
            return Err(invalid(
                "cluster.racks",
                "racks come from the node list here; `racks` goes with `nodes = N`",
            ));
        }
        let first = layout[0].capacity;
        let cluster = ClusterSpec {
            nodes: layout.len() as u32,
            racks: rack_count(&layout) as u32,
            node_memory_mb: self.node_memory_mb.unwrap_or(first.memory_mb),
            node_vcores: self.node_vcores.unwrap_or(first.vcores),
            layout,
            events: Default::default(),
        };
        with_events(cluster, self.events, invalid, warnings, origin)
    }
}

/// `cluster` with its `[[cluster.events]]` checked against its nodes. A count out of range
/// is left to the range checks (which name `cluster.nodes`), so events are checked only
/// when the node list is one a run could hold.
fn with_events(
    mut cluster: ClusterSpec,
    raw: Option<Vec<events::RawNodeEvent>>,
    invalid: &dyn Fn(&str, &str) -> ScenarioError,
    warnings: Vec<String>,
    initial_origin: InitialOrigin,
) -> Result<Resolved, ScenarioError> {
    let mut origins = NodeOrigins {
        initial: initial_origin,
        added_entry: Vec::new(),
    };
    if let Some(raw) = raw
        && u64::from(cluster.nodes) <= crate::limits::MAX_NODES
    {
        let initial = cluster.node_specs().into_owned();
        (cluster.events, origins.added_entry) = events::check(
            &raw,
            &initial,
            Some(cluster.node_memory_mb),
            Some(cluster.node_vcores),
        )
        .map_err(|(key, m)| invalid(&key, &m))?;
    }
    Ok(Resolved {
        cluster,
        origins,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_is_what_nodes_n_always_meant() {
        let n = uniform(5, 2, Resource::new(1024, 1));
        let racks: Vec<&str> = n.iter().map(|n| n.rack.as_str()).collect();
        assert_eq!(racks, ["rack0", "rack0", "rack0", "rack1", "rack1"]);
        assert_eq!(n[4].name, "node4");
        assert_eq!(total(&n), Resource::new(5120, 5));
        assert_eq!(rack_count(&n), 2);
        assert_eq!(duplicate_name(&n), None);
    }
}
