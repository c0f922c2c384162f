//! How a `nodes` variable grows or shrinks a cluster given as a `[[cluster.nodes]]` list,
//! such as the one `fairsim import rm` writes (one named entry per node).
//!
//! The question is the operator's: how many more nodes like mine? So growing keeps every
//! node of the base under its name (the start state and the events name them) and appends
//! copies of one *template* node (its size and rack), named `added0`, `added1`, ... (numbered
//! on past any `added{k}` the list already generates). The template is the plan's
//! `template` node, else the first node of the most common size (memory and vcores; ties to
//! the size listed first). A one-entry list of generated names grows its `count` instead, as
//! it always did: its nodes are all alike and keep their names.
//!
//! Shrinking removes nodes from the end of the list, skipping the nodes the base's start
//! state holds containers on and those a `[[cluster.events]]` entry loses or decommissions:
//! the cluster cannot drop a node that holds containers at 0 or that an event names. A range
//! reaching below the nodes that must stay is refused before anything runs. When the removed
//! nodes are the list's last ones, the entries are cut (a count lowered, entries dropped);
//! otherwise the kept nodes are written one named entry each, so no kept node changes name.

use fairsim_sim::topology::NodeSpec;
use fairsim_sim::topology::entries::{NodeEntry, expand};

/// The prefix of added nodes' names, unless the base's events add a node named with it
/// (see `added_prefix`).
pub const ADDED_PREFIX: &str = "added";

/// The prefix added nodes are named with: [`ADDED_PREFIX`], or `added_`, `added__`, ... when
/// a `[[cluster.events]]` entry of the base adds a node named `{prefix}{k}` (names are unique
/// over a run, and generated names number on past the list's own, not past the events').
fn added_prefix(cluster: &toml::Value) -> String {
    let named: Vec<&str> = cluster
        .get("events")
        .and_then(toml::Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|e| e.get("name").and_then(toml::Value::as_str))
        .map(|n| n.rsplit('/').next().unwrap_or(n))
        .collect();
    let clashes = |prefix: &str| {
        named.iter().any(|n| {
            n.strip_prefix(prefix)
                .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let mut prefix = ADDED_PREFIX.to_string();
    while clashes(&prefix) {
        prefix.push('_');
    }
    prefix
}

/// A base cluster's node list, and how a node count resizes it.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeList {
    /// The base's `[[cluster.nodes]]` entries as written.
    entries: Vec<toml::Value>,
    /// The base's nodes in list order.
    nodes: Vec<NodeSpec>,
    /// Each node's entry.
    entry_of: Vec<usize>,
    /// Whether each node must stay: the start state holds containers on it, or an event names it.
    must_stay: Vec<bool>,
    /// A one-entry list of generated names: the count is that entry's `count`.
    count_form: bool,
    /// The node added nodes copy.
    pub template: NodeSpec,
    /// Added nodes are named `{added_prefix}{k}`.
    pub added_prefix: String,
}

/// The nodes of the base scenario that must stay, as names (for [`NodeList::new`] and the
/// `nodes = N` form): those its start state holds containers on and those its events lose or
/// decommission, with why.
pub fn nodes_that_stay(scenario: &fairsim_sim::scenario::Scenario) -> Vec<(String, String)> {
    let initial = scenario.cluster.node_specs();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |name: &str, why: String| {
        if !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), why));
        }
    };
    if let Some(start) = &scenario.start {
        for row in &start.rows {
            push(
                &row.node,
                format!(
                    "the start state holds containers on it ({}:{})",
                    start.path.display(),
                    row.line
                ),
            );
        }
    }
    for e in &scenario.cluster.events.events {
        for &i in &e.nodes {
            if let Some(n) = initial.get(i as usize) {
                push(
                    &n.name,
                    format!("a [[cluster.events]] entry names it at {} ms", e.at_ms),
                );
            }
        }
    }
    out
}

impl NodeList {
    /// The list of the base `cluster` table (`[[cluster.nodes]]` checked by the scenario
    /// reader), the nodes that must stay, and the template's name if the plan gives one.
    pub fn new(
        cluster: &toml::Value,
        stay: &[(String, String)],
        template: Option<&str>,
    ) -> Result<NodeList, String> {
        let entries: Vec<toml::Value> = cluster
            .get("nodes")
            .and_then(toml::Value::as_array)
            .cloned()
            .unwrap_or_default();
        let parsed: Vec<NodeEntry> = entries
            .iter()
            .map(|e| e.clone().try_into())
            .collect::<Result<_, _>>()
            .map_err(|e: toml::de::Error| e.to_string())?;
        let int = |k: &str| cluster.get(k).and_then(toml::Value::as_integer);
        let (nodes, entry_of) = expand(&parsed, int("node_memory_mb"), int("node_vcores"))
            .map_err(|(key, m)| format!("{key}: {m}"))?;
        let entry_of: Vec<usize> = entry_of.into_iter().map(|e| e as usize).collect();
        let must_stay = nodes
            .iter()
            .map(|n| stay.iter().any(|(s, _)| *s == n.name))
            .collect();
        let count_form = parsed.len() == 1 && parsed[0].name.is_none();
        let template = match template {
            Some(name) if count_form => {
                return Err(format!(
                    "`template = \"{name}\"`: the base's one [[cluster.nodes]] entry generates \
                     alike nodes, and a `nodes` variable sets its `count`; a template chooses \
                     the node added nodes copy in a list of several entries or of named hosts"
                ));
            }
            Some(name) => nodes
                .iter()
                .find(|n| n.name == name)
                .cloned()
                .ok_or_else(|| {
                    format!("`template = \"{name}\"` names no node of the base scenario's cluster")
                })?,
            None => most_common_size(&nodes).clone(),
        };
        Ok(NodeList {
            entries,
            nodes,
            entry_of,
            must_stay,
            count_form,
            template,
            added_prefix: added_prefix(cluster),
        })
    }

    /// The base's node count.
    pub fn base_count(&self) -> usize {
        self.nodes.len()
    }

    /// Whether added nodes are copies of the template named `added{k}` (rather than a
    /// one-entry list's own count).
    pub fn adds_copies(&self) -> bool {
        !self.count_form
    }

    /// The smallest node count the list shrinks to: the nodes that must stay, at least one.
    pub fn smallest(&self) -> usize {
        self.must_stay.iter().filter(|s| **s).count().max(1)
    }

    /// The `[[cluster.nodes]]` entries for `n` nodes (`n` at least [`NodeList::smallest`]).
    pub fn entries_for(&self, n: usize) -> Vec<toml::Value> {
        let base = self.nodes.len();
        if n >= base {
            let mut out = self.entries.clone();
            if self.count_form {
                set(&mut out[0], "count", toml::Value::Integer(n as i64));
            } else if n > base {
                let mut t = toml::Table::new();
                t.insert("prefix".into(), self.added_prefix.clone().into());
                t.insert("count".into(), toml::Value::Integer((n - base) as i64));
                t.insert("rack".into(), self.template.rack.clone().into());
                t.insert(
                    "memory_mb".into(),
                    toml::Value::Integer(self.template.capacity.memory_mb),
                );
                t.insert(
                    "vcores".into(),
                    toml::Value::Integer(self.template.capacity.vcores),
                );
                out.push(toml::Value::Table(t));
            }
            return out;
        }
        // Removed last first, skipping the nodes that must stay.
        let mut keep = vec![true; base];
        let mut to_remove = base - n;
        for i in (0..base).rev() {
            if to_remove == 0 {
                break;
            }
            if !self.must_stay[i] {
                keep[i] = false;
                to_remove -= 1;
            }
        }
        if keep.iter().take(n).all(|k| *k) {
            // The list's last nodes go: cut it after node n - 1.
            let last = self.entry_of[n - 1];
            let mut out = self.entries[..=last].to_vec();
            let in_last = self.entry_of[..n].iter().filter(|e| **e == last).count();
            if out[last].get("name").is_none() {
                set(
                    &mut out[last],
                    "count",
                    toml::Value::Integer(in_last as i64),
                );
            }
            return out;
        }
        self.nodes
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(node, _)| {
                let mut t = toml::Table::new();
                t.insert("name".into(), node.name.clone().into());
                t.insert("rack".into(), node.rack.clone().into());
                t.insert(
                    "memory_mb".into(),
                    toml::Value::Integer(node.capacity.memory_mb),
                );
                t.insert("vcores".into(), toml::Value::Integer(node.capacity.vcores));
                toml::Value::Table(t)
            })
            .collect()
    }

    /// The template in words: `h1 (4096 MB, 4 vcores, rack rack1)`.
    pub fn template_words(&self) -> String {
        let t = &self.template;
        format!(
            "{} ({} MB, {} vcores, rack {})",
            t.name, t.capacity.memory_mb, t.capacity.vcores, t.rack
        )
    }
}

fn set(entry: &mut toml::Value, key: &str, value: toml::Value) {
    if let Some(t) = entry.as_table_mut() {
        t.insert(key.into(), value);
    }
}

/// The first node of the most common size (ties to the size listed first).
fn most_common_size(nodes: &[NodeSpec]) -> &NodeSpec {
    let mut sizes: Vec<(fairsim_core::Resource, usize, usize)> = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        match sizes.iter_mut().find(|s| s.0 == n.capacity) {
            Some(s) => s.1 += 1,
            None => sizes.push((n.capacity, 1, i)),
        }
    }
    let best = sizes
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)))
        .expect("a checked list has a node");
    &nodes[best.2]
}

/// Why a `nodes` value below `smallest` is refused: the nodes that must stay, with why.
pub fn below_smallest(
    value: usize,
    smallest: usize,
    stay: &[(String, String)],
    how: &str,
) -> String {
    let shown: Vec<String> = stay
        .iter()
        .take(3)
        .map(|(n, why)| format!("{n}: {why}"))
        .collect();
    let more = if stay.len() > 3 {
        format!("; and {} more", stay.len() - 3)
    } else {
        String::new()
    };
    let nodes = if value == 1 { "node" } else { "nodes" };
    format!(
        "the base cluster cannot shrink to {value} {nodes}: {how}, so it keeps at least \
         {smallest} ({}{more}); start the range at {smallest} or above",
        shown.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cluster(text: &str) -> toml::Value {
        toml::from_str::<toml::Value>(text).unwrap()["cluster"].clone()
    }

    fn names(entries: Vec<toml::Value>, base: &toml::Value) -> Vec<(String, String, i64)> {
        let mut c = base.clone();
        c.as_table_mut()
            .unwrap()
            .insert("nodes".into(), toml::Value::Array(entries));
        let l = NodeList::new(&c, &[], None).unwrap();
        l.nodes
            .iter()
            .map(|n| (n.name.clone(), n.rack.clone(), n.capacity.memory_mb))
            .collect()
    }

    const IMPORTED: &str = "[cluster]\n\
        [[cluster.nodes]]\nname = \"h1\"\nrack = \"r1\"\nmemory_mb = 4096\nvcores = 4\n\
        [[cluster.nodes]]\nname = \"h2\"\nrack = \"r2\"\nmemory_mb = 8192\nvcores = 8\n\
        [[cluster.nodes]]\nname = \"h3\"\nrack = \"r2\"\nmemory_mb = 8192\nvcores = 8\n\
        [[cluster.nodes]]\nname = \"h4\"\nrack = \"r1\"\nmemory_mb = 4096\nvcores = 4\n";

    /// An event of the base adds a node named `added0` (names are unique over a run): the
    /// plan's added nodes take the prefix `added_`, or `added__` if that one clashes too.
    #[test]
    fn added_nodes_keep_clear_of_names_the_events_add() {
        let event = |name: &str| {
            format!("[[cluster.events]]\nat_ms = 60000\nkind = \"add\"\nname = \"{name}\"\n")
        };
        let base = cluster(&format!("{IMPORTED}{}", event("added0")));
        let l = NodeList::new(&base, &[], None).unwrap();
        assert_eq!(l.added_prefix, "added_");
        let got = names(l.entries_for(6), &base);
        assert_eq!(got[4].0, "added_0");
        assert_eq!(got[5].0, "added_1");
        let both = cluster(&format!(
            "{IMPORTED}{}{}",
            event("/r1/added7"),
            event("added_12")
        ));
        assert_eq!(
            NodeList::new(&both, &[], None).unwrap().added_prefix,
            "added__"
        );
        // A name that merely starts with the prefix does not clash.
        let other = cluster(&format!("{IMPORTED}{}", event("added_host")));
        assert_eq!(
            NodeList::new(&other, &[], None).unwrap().added_prefix,
            "added"
        );
    }

    #[test]
    fn growth_copies_the_most_common_size_listed_first_and_keeps_every_name() {
        let c = cluster(IMPORTED);
        let l = NodeList::new(&c, &[], None).unwrap();
        // Two nodes of 4096/4 and two of 8192/8: the tie goes to the size listed first, h1's.
        assert_eq!(l.template.name, "h1");
        assert_eq!(l.template_words(), "h1 (4096 MB, 4 vcores, rack r1)");
        let got = names(l.entries_for(6), &c);
        let want = [
            ("h1", "r1", 4096),
            ("h2", "r2", 8192),
            ("h3", "r2", 8192),
            ("h4", "r1", 4096),
            ("added0", "r1", 4096),
            ("added1", "r1", 4096),
        ];
        let want: Vec<(String, String, i64)> = want
            .iter()
            .map(|(a, b, m)| (a.to_string(), b.to_string(), *m))
            .collect();
        assert_eq!(got, want);
        assert_eq!(l.entries_for(4), l.entries);
        // Three of the four nodes of 8192/8: the majority decides.
        let mut c3 = c.clone();
        c3["nodes"].as_array_mut().unwrap()[3] =
            toml::from_str("name = \"h4\"\nrack = \"r3\"\nmemory_mb = 8192\nvcores = 8").unwrap();
        assert_eq!(NodeList::new(&c3, &[], None).unwrap().template.name, "h2");
    }

    #[test]
    fn a_named_template_is_copied_and_an_unknown_one_refused() {
        let c = cluster(IMPORTED);
        let l = NodeList::new(&c, &[], Some("h3")).unwrap();
        let got = names(l.entries_for(5), &c);
        assert_eq!(got[4], ("added0".to_string(), "r2".to_string(), 8192));
        let e = NodeList::new(&c, &[], Some("h9")).unwrap_err();
        assert!(e.contains("`template = \"h9\"` names no node"), "{e}");
        let one =
            cluster("[cluster]\n[[cluster.nodes]]\ncount = 2\nmemory_mb = 1024\nvcores = 1\n");
        let e = NodeList::new(&one, &[], Some("node0")).unwrap_err();
        assert!(e.contains("sets its `count`"), "{e}");
    }

    #[test]
    fn added_names_number_on_past_the_list_own() {
        let c = cluster(
            "[cluster]\n[[cluster.nodes]]\nprefix = \"added\"\ncount = 2\nmemory_mb = 1024\nvcores = 1\n\
             [[cluster.nodes]]\nname = \"h\"\nmemory_mb = 2048\nvcores = 2\n",
        );
        let l = NodeList::new(&c, &[], None).unwrap();
        let got: Vec<String> = names(l.entries_for(4), &c)
            .into_iter()
            .map(|n| n.0)
            .collect();
        assert_eq!(got, ["added0", "added1", "h", "added2"]);
    }

    #[test]
    fn a_one_entry_list_of_generated_names_grows_and_shrinks_its_count() {
        let c = cluster("[cluster]\n[[cluster.nodes]]\ncount = 3\nmemory_mb = 1024\nvcores = 1\n");
        let l = NodeList::new(&c, &[], None).unwrap();
        assert!(!l.adds_copies());
        for n in [1, 3, 5] {
            let e = l.entries_for(n);
            assert_eq!(e.len(), 1);
            assert_eq!(e[0]["count"].as_integer(), Some(n as i64));
        }
    }

    #[test]
    fn shrinking_removes_the_last_nodes_that_hold_nothing() {
        let c = cluster(IMPORTED);
        let stay = [
            ("h1".to_string(), "start".to_string()),
            ("h4".to_string(), "start".to_string()),
        ];
        let l = NodeList::new(&c, &stay, None).unwrap();
        assert_eq!(l.smallest(), 2);
        // h4 must stay: h3 goes, then h2; the kept nodes keep their names.
        let n3: Vec<String> = names(l.entries_for(3), &c)
            .into_iter()
            .map(|n| n.0)
            .collect();
        assert_eq!(n3, ["h1", "h2", "h4"]);
        let n2: Vec<String> = names(l.entries_for(2), &c)
            .into_iter()
            .map(|n| n.0)
            .collect();
        assert_eq!(n2, ["h1", "h4"]);
        // Nothing held past node 1: the list is cut, entries as written.
        let l = NodeList::new(&c, &stay[..1], None).unwrap();
        assert_eq!(l.smallest(), 1);
        assert_eq!(l.entries_for(2), l.entries[..2].to_vec());
        // A generated entry cut inside keeps its first names.
        let c = cluster(
            "[cluster]\nnode_memory_mb = 1024\nnode_vcores = 1\n\
             [[cluster.nodes]]\nname = \"a\"\n[[cluster.nodes]]\nprefix = \"b\"\ncount = 4\n",
        );
        let l = NodeList::new(&c, &[], None).unwrap();
        let e = l.entries_for(3);
        assert_eq!(e.len(), 2);
        assert_eq!(e[1]["count"].as_integer(), Some(2));
        let got: Vec<String> = names(e, &c).into_iter().map(|n| n.0).collect();
        assert_eq!(got, ["a", "b0", "b1"]);
    }

    #[test]
    fn the_refusal_names_the_nodes_that_stay() {
        let stay: Vec<(String, String)> = (1..=5)
            .map(|i| (format!("h{i}"), format!("start.csv:{}", i + 1)))
            .collect();
        let m = below_smallest(2, 5, &stay, "the start state holds containers on 5 nodes");
        assert!(
            m.starts_with("the base cluster cannot shrink to 2 nodes: the start state holds containers on 5 nodes, so it keeps at least 5 (h1: start.csv:2; h2: start.csv:3; h3: start.csv:4; and 2 more); start the range at 5 or above"),
            "{m}"
        );
    }
}
