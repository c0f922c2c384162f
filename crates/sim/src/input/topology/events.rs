//! `[[cluster.events]]`: nodes joining, being decommissioned and being lost during a run.
//!
//! ```toml
//! [[cluster.events]]
//! at_ms = 60000
//! kind = "lose"            # "add" | "decommission" | "lose"
//! node = "node3"           # or nodes = ["node3", "node4"]
//!
//! [[cluster.events]]
//! at_ms = 120000
//! kind = "add"
//! prefix = "extra"         # or name = "h9" (one node); default prefix "node"
//! count = 2                # default 1
//! rack = "r1"              # default "default-rack"
//! memory_mb = 8192         # default: cluster.node_memory_mb
//! vcores = 8               # default: cluster.node_vcores
//! ```
//!
//! Events are checked here, in time order (equal times in file order), against the nodes the
//! cluster has at that moment: a lost or decommissioned node must be in the cluster, an added
//! name must be new (names are what hints and events resolve, and a node that left does not
//! come back under its old name). Generated names of an `add` number on past the highest
//! `{prefix}{k}` any node had. What each kind does to a run is in docs/cluster.md.

use super::NodeSpec;
use super::entries::{Naming, NodeFields, checked_count};
use crate::limits::{MAX_NODES, limit};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// What happens to the nodes of an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeEventKind {
    /// Nodes register and begin heartbeating (`FairScheduler.addNode`).
    Add,
    /// Nodes are decommissioned: gracefully in hadoop-3.3 (no new containers, running ones
    /// finish, then the node leaves), at once in hadoop-2.7 (as a lost node).
    Decommission,
    /// Nodes are lost: their containers are killed and the cluster shrinks at once
    /// (`FairScheduler.removeNode`).
    Lose,
}

/// One `[[cluster.events]]` entry as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawNodeEvent {
    at_ms: i64,
    kind: NodeEventKind,
    node: Option<String>,
    nodes: Option<Vec<String>>,
    name: Option<String>,
    prefix: Option<String>,
    count: Option<i64>,
    rack: Option<String>,
    memory_mb: Option<i64>,
    vcores: Option<i64>,
}

/// A checked event: when, what, and the indices of its nodes in the run's node list (the
/// cluster's nodes first, then every added node in event order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeEvent {
    /// When, ms.
    pub at_ms: u64,
    /// What.
    pub kind: NodeEventKind,
    /// Indices of its nodes in the run's node list.
    pub nodes: Vec<u32>,
}

/// The checked events, in time order, and the nodes they add (in order, after the
/// cluster's own).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeEvents {
    /// Events by time (equal times in file order).
    pub events: Vec<NodeEvent>,
    /// Nodes that join during the run; node `initial + i` is `added[i]`.
    pub added: Vec<NodeSpec>,
}

impl NodeEvents {
    /// True when the run's cluster never changes.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }
}

/// Where a node stands while events are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Standing {
    Running,
    Decommissioning,
    Gone,
}

/// Checks `raw` (in file order) against the cluster's `initial` nodes; beside the events,
/// the index in `raw` of the entry that adds each added node. Errors are `(key, message)`,
/// the key naming the entry by its index in the file.
pub fn check(
    raw: &[RawNodeEvent],
    initial: &[NodeSpec],
    default_memory_mb: Option<i64>,
    default_vcores: Option<i64>,
) -> Result<(NodeEvents, Vec<u32>), (String, String)> {
    limit("scenario", "cluster.events")
        .check_int(raw.len() as i128)
        .map_err(|m| ("cluster.events".to_string(), m))?;
    let mut order: Vec<usize> = (0..raw.len()).collect();
    for (i, e) in raw.iter().enumerate() {
        limit("scenario", "cluster.events[*].at_ms")
            .check_int(e.at_ms.into())
            .map_err(|m| (format!("cluster.events[{i}].at_ms"), m))?;
    }
    order.sort_by_key(|&i| (raw[i].at_ms, i));
    let mut index: HashMap<String, u32> = HashMap::with_capacity(initial.len());
    let mut standing: Vec<Standing> = Vec::with_capacity(initial.len());
    for (i, n) in initial.iter().enumerate() {
        index.insert(n.name.clone(), i as u32);
        standing.push(Standing::Running);
    }
    // Highest generated index per prefix, so added names number on.
    let mut highest: BTreeMap<String, u64> = BTreeMap::new();
    for n in initial {
        note_generated(&mut highest, &n.name);
    }
    let mut out = NodeEvents::default();
    let mut added_entry: Vec<u32> = Vec::new();
    for i in order {
        let e = &raw[i];
        let key = |field: &str| format!("cluster.events[{i}].{field}");
        let nodes = match e.kind {
            NodeEventKind::Add => {
                for (field, given) in [("node", e.node.is_some()), ("nodes", e.nodes.is_some())] {
                    if given {
                        return Err((
                            key(field),
                            "an `add` describes new nodes with name/prefix, count, rack, \
                             memory_mb and vcores"
                                .into(),
                        ));
                    }
                }
                let specs = added_nodes(e, &key, &mut highest, default_memory_mb, default_vcores)?;
                let mut ids = Vec::with_capacity(specs.len());
                for spec in specs {
                    if index.contains_key(&spec.name) {
                        let field = if e.name.is_some() { "name" } else { "prefix" };
                        return Err((
                            key(field),
                            format!(
                                "a node named `{}` is already in the cluster or was: names are \
                                 unique over the run",
                                spec.name
                            ),
                        ));
                    }
                    if (initial.len() + out.added.len()) as u64 >= MAX_NODES {
                        return Err((
                            key("count"),
                            format!("more than {MAX_NODES} nodes in all (docs/limits.md)"),
                        ));
                    }
                    let id = (initial.len() + out.added.len()) as u32;
                    index.insert(spec.name.clone(), id);
                    standing.push(Standing::Running);
                    out.added.push(spec);
                    added_entry.push(i as u32);
                    ids.push(id);
                }
                ids
            }
            NodeEventKind::Decommission | NodeEventKind::Lose => {
                for field in ["name", "prefix", "count", "rack", "memory_mb", "vcores"] {
                    let given = match field {
                        "name" => e.name.is_some(),
                        "prefix" => e.prefix.is_some(),
                        "count" => e.count.is_some(),
                        "rack" => e.rack.is_some(),
                        "memory_mb" => e.memory_mb.is_some(),
                        _ => e.vcores.is_some(),
                    };
                    if given {
                        return Err((
                            key(field),
                            "only an `add` describes nodes; name the nodes with `node` or `nodes`"
                                .into(),
                        ));
                    }
                }
                let names: Vec<(String, &str)> = match (&e.node, &e.nodes) {
                    (Some(n), None) => vec![(key("node"), n.as_str())],
                    (None, Some(list)) if !list.is_empty() => list
                        .iter()
                        .enumerate()
                        .map(|(j, n)| (format!("cluster.events[{i}].nodes[{j}]"), n.as_str()))
                        .collect(),
                    (None, Some(_)) => {
                        return Err((key("nodes"), "the list of nodes is empty".into()));
                    }
                    (Some(_), Some(_)) => {
                        return Err((key("nodes"), "give `node` or `nodes`, not both".into()));
                    }
                    (None, None) => {
                        return Err((
                            key("node"),
                            "missing: name the node (`node` or `nodes`)".into(),
                        ));
                    }
                };
                let mut ids = Vec::with_capacity(names.len());
                for (k, name) in names {
                    let host = super::hints::split(name.trim()).1;
                    let Some(&id) = index.get(host) else {
                        return Err((k, format!("no node is named `{host}`")));
                    };
                    let s = &mut standing[id as usize];
                    let next = match (e.kind, *s) {
                        (_, Standing::Gone) => {
                            return Err((k, format!("node `{host}` has already left the cluster")));
                        }
                        (NodeEventKind::Decommission, Standing::Decommissioning) => {
                            return Err((k, format!("node `{host}` is already decommissioning")));
                        }
                        (NodeEventKind::Decommission, _) => Standing::Decommissioning,
                        _ => Standing::Gone,
                    };
                    if ids.contains(&id) {
                        return Err((k, format!("node `{host}` is named twice")));
                    }
                    *s = next;
                    ids.push(id);
                }
                ids
            }
        };
        out.events.push(NodeEvent {
            at_ms: e.at_ms as u64,
            kind: e.kind,
            nodes,
        });
    }
    Ok((out, added_entry))
}

/// Records `name`'s generated index, if it is `{prefix}{digits}`.
fn note_generated(highest: &mut BTreeMap<String, u64>, name: &str) {
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 18 {
        return;
    }
    let (prefix, k) = name.split_at(name.len() - digits);
    if let Ok(k) = k.parse::<u64>() {
        let h = highest.entry(prefix.to_string()).or_insert(k);
        *h = (*h).max(k);
    }
}

/// The nodes an `add` describes.
fn added_nodes(
    e: &RawNodeEvent,
    key: &dyn Fn(&str) -> String,
    highest: &mut BTreeMap<String, u64>,
    default_memory_mb: Option<i64>,
    default_vcores: Option<i64>,
) -> Result<Vec<NodeSpec>, (String, String)> {
    let count = checked_count(e.count, "cluster.events", key)?;
    let fields = NodeFields {
        name: e.name.as_deref(),
        prefix: e.prefix.as_deref(),
        rack: e.rack.as_deref(),
        memory_mb: e.memory_mb,
        vcores: e.vcores,
    };
    let nodes = fields.describe(
        count,
        "cluster.events",
        key,
        default_memory_mb,
        default_vcores,
    )?;
    let names: Vec<String> = match nodes.naming {
        Naming::One(name) => vec![name.to_string()],
        Naming::Prefix(prefix) => {
            let first = highest.get(prefix).map_or(0, |h| h + 1);
            (first..first + count)
                .map(|k| format!("{prefix}{k}"))
                .collect()
        }
    };
    for n in &names {
        note_generated(highest, n);
    }
    Ok(names
        .into_iter()
        .map(|name| NodeSpec {
            name,
            rack: nodes.rack.clone(),
            capacity: nodes.capacity,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::entries::DEFAULT_RACK;
    use fairsim_core::Resource;

    fn raw(text: &str) -> Vec<RawNodeEvent> {
        #[derive(Deserialize)]
        struct Doc {
            events: Vec<RawNodeEvent>,
        }
        toml::from_str::<Doc>(text).expect("valid").events
    }

    fn nodes(n: u32) -> Vec<NodeSpec> {
        super::super::uniform(n, 1, Resource::new(1024, 1))
    }

    #[test]
    fn events_sort_by_time_and_added_names_number_on() {
        let ev = check(
            &raw(
                "[[events]]\nat_ms = 50\nkind = \"add\"\ncount = 2\n\
                 [[events]]\nat_ms = 10\nkind = \"lose\"\nnode = \"node1\"\n\
                 [[events]]\nat_ms = 60\nkind = \"decommission\"\nnodes = [\"node2\", \"node3\"]\n",
            ),
            &nodes(2),
            Some(2048),
            Some(2),
        )
        .expect("valid events")
        .0;
        // node0, node1 exist: the add makes node2 and node3 (indices 2 and 3).
        assert_eq!(ev.added.len(), 2);
        assert_eq!(ev.added[0].name, "node2");
        assert_eq!(ev.added[1].capacity, Resource::new(2048, 2));
        assert_eq!(ev.added[1].rack, DEFAULT_RACK);
        let kinds: Vec<(u64, NodeEventKind, Vec<u32>)> = ev
            .events
            .iter()
            .map(|e| (e.at_ms, e.kind, e.nodes.clone()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (10, NodeEventKind::Lose, vec![1]),
                (50, NodeEventKind::Add, vec![2, 3]),
                (60, NodeEventKind::Decommission, vec![2, 3]),
            ]
        );
    }

    fn error(text: &str) -> (String, String) {
        check(&raw(text), &nodes(2), Some(1024), Some(1))
            .map(|(events, _)| events)
            .expect_err("refused")
    }

    #[test]
    fn bad_events_name_their_key() {
        let (k, m) = error("[[events]]\nat_ms = 5\nkind = \"lose\"\nnode = \"nope\"\n");
        assert_eq!(k, "cluster.events[0].node");
        assert!(m.contains("`nope`"), "{m}");
        let (k, m) = error(
            "[[events]]\nat_ms = 9\nkind = \"lose\"\nnode = \"node0\"\n\
             [[events]]\nat_ms = 5\nkind = \"lose\"\nnodes = [\"node1\", \"node0\"]\n",
        );
        // In time order the second entry loses node0 first; the first entry then finds it gone.
        assert_eq!(k, "cluster.events[0].node");
        assert!(m.contains("already left"), "{m}");
        let (k, m) = error("[[events]]\nat_ms = 5\nkind = \"add\"\nname = \"node1\"\n");
        assert_eq!(k, "cluster.events[0].name");
        assert!(m.contains("`node1`"), "{m}");
        let (k, _) = error("[[events]]\nat_ms = -1\nkind = \"lose\"\nnode = \"node0\"\n");
        assert_eq!(k, "cluster.events[0].at_ms");
        let (k, _) =
            error("[[events]]\nat_ms = 1\nkind = \"lose\"\nnode = \"node0\"\nvcores = 2\n");
        assert_eq!(k, "cluster.events[0].vcores");
        let (k, _) = error("[[events]]\nat_ms = 1\nkind = \"add\"\nnode = \"x\"\n");
        assert_eq!(k, "cluster.events[0].node");
        let (k, m) = error(
            "[[events]]\nat_ms = 1\nkind = \"decommission\"\nnode = \"node0\"\n\
             [[events]]\nat_ms = 2\nkind = \"decommission\"\nnode = \"node0\"\n",
        );
        assert_eq!(k, "cluster.events[1].node");
        assert!(m.contains("already decommissioning"), "{m}");
        // A decommissioning node may still be lost.
        assert!(
            check(
                &raw(
                    "[[events]]\nat_ms = 1\nkind = \"decommission\"\nnode = \"node0\"\n\
                     [[events]]\nat_ms = 2\nkind = \"lose\"\nnode = \"node0\"\n"
                ),
                &nodes(2),
                None,
                None
            )
            .is_ok()
        );
    }
}
