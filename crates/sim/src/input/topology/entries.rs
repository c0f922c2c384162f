//! `[[cluster.nodes]]`: a list of node entries, each one host or a `count` of identical
//! hosts with generated names, beside the `nodes = N` shorthand.
//!
//! ```toml
//! [[cluster.nodes]]
//! prefix = "big"          # big0, big1 (default prefix: "node")
//! count = 2               # default 1
//! rack = "r1"             # default "default-rack", YARN's rack for unresolved hosts
//! memory_mb = 65536       # default: cluster.node_memory_mb
//! vcores = 32             # default: cluster.node_vcores
//!
//! [[cluster.nodes]]
//! name = "a2118.smile.com"
//! rack = "r2"
//! memory_mb = 8192
//! vcores = 8
//! ```
//!
//! Generated names number on from the last one of the same prefix, so two entries without a
//! name give `node0..` then `node{k}..`, the names `nodes = N` would give.

use super::NodeSpec;
use crate::limits::{MAX_NODES, limit};
use fairsim_core::Resource;
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::collections::BTreeMap;

/// YARN's rack of a host no topology script places (`NetworkTopology.DEFAULT_RACK`).
pub const DEFAULT_RACK: &str = "default-rack";

/// One `[[cluster.nodes]]` entry as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeEntry {
    /// One host's name.
    pub name: Option<String>,
    /// Generated names `{prefix}{k}` for `count` hosts.
    pub prefix: Option<String>,
    /// Rack.
    pub rack: Option<String>,
    /// Memory per node, MB.
    pub memory_mb: Option<i64>,
    /// Vcores per node.
    pub vcores: Option<i64>,
    /// Number of identical nodes.
    pub count: Option<i64>,
}

/// `cluster.nodes`: a count (the shorthand) or a list of entries.
#[derive(Debug, Clone, PartialEq)]
pub enum NodesKey {
    /// `nodes = N`.
    Count(i64),
    /// `[[cluster.nodes]]`.
    List(Vec<NodeEntry>),
}

impl<'de> Deserialize<'de> for NodesKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NodesKey;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a node count or [[cluster.nodes]] entries")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<NodesKey, E> {
                if v < 0 {
                    return Err(E::invalid_value(de::Unexpected::Signed(v), &self));
                }
                Ok(NodesKey::Count(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<NodesKey, E> {
                Ok(NodesKey::Count(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NodesKey, A::Error> {
                let mut out = Vec::new();
                while let Some(e) = seq.next_element::<NodeEntry>()? {
                    out.push(e);
                }
                Ok(NodesKey::List(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// The nodes of `entries`, sizes defaulting to `default` (`None` where the scenario gives
/// no node size), each with the index of its entry. Errors are `(key, message)` with the
/// entry's index in the key.
pub fn expand(
    entries: &[NodeEntry],
    default_memory_mb: Option<i64>,
    default_vcores: Option<i64>,
) -> Result<(Vec<NodeSpec>, Vec<u32>), (String, String)> {
    if entries.is_empty() {
        return Err((
            "cluster.nodes".into(),
            "the list of nodes is empty: a cluster needs at least one node".into(),
        ));
    }
    let mut next_index: BTreeMap<&str, u64> = BTreeMap::new();
    let mut out: Vec<NodeSpec> = Vec::new();
    let mut entry_of: Vec<u32> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let key = |field: &str| format!("cluster.nodes[{i}].{field}");
        let count = checked_count(e.count, "cluster.nodes", &key)?;
        if out.len() as u64 + count > MAX_NODES {
            return Err((
                key("count"),
                format!(
                    "{} nodes in all: the limit is {MAX_NODES} (docs/limits.md)",
                    out.len() as u64 + count
                ),
            ));
        }
        let nodes = e.fields().describe(
            count,
            "cluster.nodes",
            &key,
            default_memory_mb,
            default_vcores,
        )?;
        match nodes.naming {
            Naming::One(name) => out.push(NodeSpec {
                name: name.to_string(),
                rack: nodes.rack,
                capacity: nodes.capacity,
            }),
            Naming::Prefix(prefix) => {
                let k = next_index.entry(prefix).or_insert(0);
                for j in *k..*k + count {
                    out.push(NodeSpec {
                        name: format!("{prefix}{j}"),
                        rack: nodes.rack.clone(),
                        capacity: nodes.capacity,
                    });
                }
                *k += count;
            }
        }
        entry_of.resize(out.len(), i as u32);
    }
    if let Some(dup) = super::duplicate_name(&out) {
        let at = entries
            .iter()
            .rposition(|e| e.name.as_deref() == Some(dup))
            .unwrap_or(entries.len() - 1);
        return Err((
            format!("cluster.nodes[{at}].name"),
            format!(
                "two nodes are named `{dup}`: hints and events name nodes, so names are unique"
            ),
        ));
    }
    Ok((out, entry_of))
}

impl NodeEntry {
    fn fields(&self) -> NodeFields<'_> {
        NodeFields {
            name: self.name.as_deref(),
            prefix: self.prefix.as_deref(),
            rack: self.rack.as_deref(),
            memory_mb: self.memory_mb,
            vcores: self.vcores,
        }
    }
}

/// The keys that describe nodes, alike in a `[[cluster.nodes]]` entry and an `add` event
/// (`[[cluster.events]]`): one `name` or a `prefix` for generated names, a rack and a size.
pub(crate) struct NodeFields<'a> {
    pub name: Option<&'a str>,
    pub prefix: Option<&'a str>,
    pub rack: Option<&'a str>,
    pub memory_mb: Option<i64>,
    pub vcores: Option<i64>,
}

/// How described nodes are named.
pub(crate) enum Naming<'a> {
    /// One node of this (checked) host name.
    One(&'a str),
    /// `count` nodes named `{prefix}{k}`; the caller numbers them.
    Prefix(&'a str),
}

/// Nodes as [`NodeFields`] describe them, checked.
pub(crate) struct DescribedNodes<'a> {
    pub capacity: Resource,
    pub rack: String,
    pub naming: Naming<'a>,
}

/// `count` (1 when not given) within the limit of `{section}[*].count`. `key` names a field
/// of the entry in errors.
pub(crate) fn checked_count(
    count: Option<i64>,
    section: &str,
    key: &dyn Fn(&str) -> String,
) -> Result<u64, (String, String)> {
    let count = count.unwrap_or(1);
    limit("scenario", &format!("{section}[*].count"))
        .check_int(count.into())
        .map_err(|m| (key("count"), m))?;
    Ok(count as u64)
}

impl<'a> NodeFields<'a> {
    /// Checks the size (each within the limit of `{section}[*].{field}`, defaulting to the
    /// cluster's node size), the rack (YARN's default rack when not given) and the naming of
    /// `count` nodes (a `name` names one node alone; the default prefix is `node`). `key`
    /// names a field of the entry in errors.
    pub(crate) fn describe(
        &self,
        count: u64,
        section: &str,
        key: &dyn Fn(&str) -> String,
        default_memory_mb: Option<i64>,
        default_vcores: Option<i64>,
    ) -> Result<DescribedNodes<'a>, (String, String)> {
        let size = |field: &str, own: Option<i64>, default: Option<i64>, fallback: &str| {
            let v = own.or(default).ok_or_else(|| {
                (
                    key(field),
                    format!("missing: give it here or as cluster.{fallback}"),
                )
            })?;
            limit("scenario", &format!("{section}[*].{field}"))
                .check_int(v.into())
                .map(|v| v as i64)
                .map_err(|m| (key(field), m))
        };
        let capacity = Resource::new(
            size(
                "memory_mb",
                self.memory_mb,
                default_memory_mb,
                "node_memory_mb",
            )?,
            size("vcores", self.vcores, default_vcores, "node_vcores")?,
        );
        let rack = match self.rack {
            Some(r) => check_rack(r).map_err(|m| (key("rack"), m))?.to_string(),
            None => DEFAULT_RACK.to_string(),
        };
        let naming = match (self.name, self.prefix) {
            (Some(_), Some(_)) => {
                return Err((key("prefix"), "give `name` or `prefix`, not both".into()));
            }
            (Some(name), None) => {
                if count != 1 {
                    return Err((
                        key("count"),
                        format!("{count} nodes cannot share the name `{name}`: use `prefix`"),
                    ));
                }
                Naming::One(check_host(name).map_err(|m| (key("name"), m))?)
            }
            (None, Some(prefix)) => {
                Naming::Prefix(check_host(prefix).map_err(|m| (key("prefix"), m))?)
            }
            (None, None) => Naming::Prefix("node"),
        };
        Ok(DescribedNodes {
            capacity,
            rack,
            naming,
        })
    }
}

/// A rack name without SLS's leading `/`; racks may nest (`core/tor1`).
pub(crate) fn check_rack(name: &str) -> Result<&str, String> {
    let t = name.trim().trim_start_matches('/');
    if t.is_empty() {
        return Err("must not be empty".into());
    }
    Ok(t)
}

/// A host name (or prefix): hints name a host by the last segment of `/rack/host`, so a
/// host name holds no `/`.
pub(crate) fn check_host(name: &str) -> Result<&str, String> {
    let t = name.trim();
    if t.is_empty() {
        return Err("must not be empty".into());
    }
    if t.contains('/') {
        return Err(format!(
            "`{t}` holds a `/`: give the host name alone and its rack in `rack`"
        ));
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(prefix: Option<&str>, count: i64, mb: i64) -> NodeEntry {
        NodeEntry {
            name: None,
            prefix: prefix.map(str::to_string),
            rack: None,
            memory_mb: Some(mb),
            vcores: Some(4),
            count: Some(count),
        }
    }

    #[test]
    fn generated_names_continue_per_prefix() {
        let (nodes, entry_of) = expand(
            &[
                entry(None, 2, 1024),
                entry(Some("big"), 1, 4096),
                entry(None, 1, 2048),
            ],
            None,
            None,
        )
        .unwrap();
        let names: Vec<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["node0", "node1", "big0", "node2"]);
        // Each node knows its entry, for messages about it found later.
        assert_eq!(entry_of, [0, 0, 1, 2]);
        assert_eq!(nodes[2].capacity, Resource::new(4096, 4));
        assert_eq!(nodes[0].rack, DEFAULT_RACK);
    }

    #[test]
    fn sizes_default_to_the_cluster_node_size_or_are_required() {
        let mut e = entry(None, 1, 1);
        e.memory_mb = None;
        assert_eq!(
            expand(&[e.clone()], Some(3072), None).unwrap().0[0]
                .capacity
                .memory_mb,
            3072
        );
        let (key, msg) = expand(&[e], None, None).unwrap_err();
        assert_eq!(key, "cluster.nodes[0].memory_mb");
        assert!(msg.contains("cluster.node_memory_mb"), "{msg}");
    }

    #[test]
    fn names_are_unique() {
        let mut a = entry(None, 1, 1024);
        a.name = Some("h1".into());
        a.prefix = None;
        let (key, msg) = expand(&[a.clone(), a], None, None).unwrap_err();
        assert_eq!(key, "cluster.nodes[1].name");
        assert!(msg.contains("`h1`"), "{msg}");
    }
}
