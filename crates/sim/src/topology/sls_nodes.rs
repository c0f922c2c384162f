//! SLS nodes files (`nodes_file = "nodes.json"`): a stream of rack objects, one after the
//! other as SLS's `SLSUtils.parseNodesFromNodeFile` reads them with Jackson's `readValues`:
//!
//! ```json
//! {"rack": "default-rack", "nodes": [{"node": "a2115.smile.com"}, {"node": "a2117.smile.com"}]}
//! {"rack": "rack2", "nodes": [{"node": "b1.smile.com", "memory-mb": 4096, "vcores": 2}]}
//! ```
//!
//! Every node is `/rack/node`. Sizes, per era:
//! - hadoop-2.7: the file gives names only; every node has the NodeManager size of
//!   sls-runner.xml (`yarn.sls.nm.memory.mb`, 10240; `yarn.sls.nm.vcores`, 10). Per-node
//!   `memory-mb` / `vcores` are not read (counted in a warning).
//! - hadoop-3.3: a node's `memory-mb` and `vcores` (resource type names, numbers or digit
//!   strings) replace that default for the node.
//!
//! fairsim's default is the scenario's `node_memory_mb` / `node_vcores` when given, SLS's
//! 10240 MB / 10 vcores otherwise. SLS keeps the nodes in a hash set: a node listed twice
//! (same rack and name) is one node (counted in a warning); the same name in two racks is an
//! error here, since hints and events name hosts. Nodes keep the file's order (SLS's set has
//! none). Other per-node keys (`labels`, ...) are counted in a warning.

use super::NodeSpec;
use super::entries::{check_host, check_rack};
use crate::limits::{MAX_NODES, limit};
use crate::workload::json_stream::{Next, ObjectStream};
use crate::workload::{Ignored, WorkloadError};
use fairsim_core::{Resource, Semantics};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

/// SLS's NodeManager size where nothing else gives one (`yarn.sls.nm.memory.mb`,
/// `yarn.sls.nm.vcores`).
pub const SLS_NM_DEFAULT: Resource = Resource::new(10240, 10);

/// The nodes of a file and the warnings about what was read but not modelled.
#[derive(Debug, Clone, PartialEq)]
pub struct NodesRead {
    /// Nodes in file order, duplicates dropped.
    pub nodes: Vec<NodeSpec>,
    /// Where each node is written: the line of its rack object and its index in that
    /// object's `nodes` list (for messages about a node found wrong later).
    pub origins: Vec<(u64, u32)>,
    /// One line per kind of thing ignored.
    pub warnings: Vec<String>,
}

/// Reads the SLS nodes file at `path`.
pub fn read_sls_nodes(
    path: &Path,
    default: Resource,
    semantics: Semantics,
) -> Result<NodesRead, WorkloadError> {
    parse_sls_nodes(path, crate::workload::open(path)?, default, semantics)
}

/// Parses an SLS nodes file from `reader` (`name` for messages).
pub fn parse_sls_nodes(
    name: &Path,
    reader: impl BufRead,
    default: Resource,
    semantics: Semantics,
) -> Result<NodesRead, WorkloadError> {
    let perr = |line: u64, field: &str, message: String| WorkloadError::Parse {
        path: name.to_path_buf(),
        line,
        field: field.to_string(),
        message,
    };
    let mut stream = ObjectStream::with_comments(reader);
    let mut nodes: Vec<NodeSpec> = Vec::new();
    let mut origins: Vec<(u64, u32)> = Vec::new();
    let mut rack_of: HashMap<String, String> = HashMap::new();
    let mut ignored = Ignored::default();
    loop {
        let next = stream.next_start().map_err(|source| WorkloadError::Io {
            path: name.to_path_buf(),
            source,
        })?;
        let line = match next {
            Next::End => break,
            Next::Object(line) => line,
            Next::Other(b, line) => {
                return Err(perr(
                    line,
                    "json",
                    format!(
                        "expected a rack object (`{{\"rack\": ..., \"nodes\": [...]}}`), found `{}`",
                        char::from(b).escape_default()
                    ),
                ));
            }
        };
        let obj: Map<String, Value> = stream
            .read()
            .map_err(|e| perr(e.line, &e.field, e.message))?;
        if !obj.contains_key("rack") && !obj.contains_key("nodes") {
            let what = crate::workload::looks_like(obj.keys().map(String::as_str))
                .unwrap_or("an object without `rack` and `nodes`");
            return Err(perr(
                line,
                "json",
                format!("not an SLS nodes file: this looks like {what}"),
            ));
        }
        let rack = match obj.get("rack") {
            Some(Value::String(r)) => check_rack(r).map_err(|m| perr(line, "rack", m))?,
            Some(other) => return Err(perr(line, "rack", format!("`{other}` is not a rack name"))),
            None => return Err(perr(line, "rack", "missing".into())),
        };
        let list = match obj.get("nodes") {
            Some(Value::Array(a)) => a,
            Some(other) => {
                return Err(perr(
                    line,
                    "nodes",
                    format!("`{other}` is not a list of nodes"),
                ));
            }
            None => return Err(perr(line, "nodes", "missing".into())),
        };
        for k in obj.keys().filter(|k| *k != "rack" && *k != "nodes") {
            ignored.add(format!("rack key `{k}`"));
        }
        for (i, n) in list.iter().enumerate() {
            let field = |f: &str| format!("nodes[{i}].{f}");
            let Value::Object(n) = n else {
                return Err(perr(
                    line,
                    &format!("nodes[{i}]"),
                    format!("`{n}` is not a node object"),
                ));
            };
            let host = match n.get("node") {
                Some(Value::String(h)) => {
                    check_host(h).map_err(|m| perr(line, &field("node"), m))?
                }
                Some(other) => {
                    return Err(perr(
                        line,
                        &field("node"),
                        format!("`{other}` is not a host name"),
                    ));
                }
                None => return Err(perr(line, &field("node"), "missing".into())),
            };
            let mut capacity = default;
            for (key, slot) in [("memory-mb", 0), ("vcores", 1)] {
                let Some(v) = n.get(key) else { continue };
                if semantics == Semantics::Hadoop27 {
                    ignored.add(format!(
                        "per-node `{key}` (hadoop-2.7's SLS gives every node yarn.sls.nm.*)"
                    ));
                    continue;
                }
                let parsed: Option<i128> = match v {
                    Value::Number(x) => x.as_i64().map(i128::from),
                    Value::String(s) => s.trim().parse().ok(),
                    _ => None,
                };
                let x = parsed
                    .ok_or_else(|| perr(line, &field(key), format!("`{v}` is not an integer")))?;
                let x = limit("sls nodes file", &format!("nodes[*].{key}"))
                    .check_int(x)
                    .map_err(|m| perr(line, &field(key), m))? as i64;
                if slot == 0 {
                    capacity.memory_mb = x;
                } else {
                    capacity.vcores = x;
                }
            }
            for k in n
                .keys()
                .filter(|k| !matches!(k.as_str(), "node" | "memory-mb" | "vcores"))
            {
                ignored.add(format!("node key `{k}`"));
            }
            match rack_of.get(host) {
                Some(r) if r == rack => {
                    ignored.add("nodes listed twice (one node, as SLS's set keeps)");
                    continue;
                }
                Some(r) => {
                    return Err(perr(
                        line,
                        &field("node"),
                        format!(
                            "`{host}` is already in rack `{r}`: hints and events name hosts, so a name is one node"
                        ),
                    ));
                }
                None => {}
            }
            if nodes.len() as u64 >= MAX_NODES {
                return Err(perr(
                    line,
                    &field("node"),
                    format!(
                        "more than {MAX_NODES} nodes: the limit of one cluster (docs/limits.md)"
                    ),
                ));
            }
            rack_of.insert(host.to_string(), rack.to_string());
            origins.push((line, i as u32));
            nodes.push(NodeSpec {
                name: host.to_string(),
                rack: rack.to_string(),
                capacity,
            });
        }
    }
    if nodes.is_empty() {
        return Err(perr(
            1,
            "nodes",
            "the file lists no node: a cluster needs at least one".into(),
        ));
    }
    let warnings = ignored
        .warning(name, "read but not modelled")
        .into_iter()
        .collect();
    Ok(NodesRead {
        nodes,
        origins,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_RACKS: &str = r#"{"rack": "default-rack", "nodes": [{"node": "a1.example.com"}, {"node": "a2.example.com", "memory-mb": "4096", "vcores": 2}]}
{"rack": "/rack2",
 "nodes": [{"node": "b1.example.com", "memory-mb": 2048, "labels": "x"}, {"node": "b1.example.com"}]}
"#;

    fn read(text: &str, s: Semantics) -> Result<NodesRead, WorkloadError> {
        parse_sls_nodes(
            Path::new("nodes.json"),
            text.as_bytes(),
            Resource::new(8192, 8),
            s,
        )
    }

    #[test]
    fn hadoop_33_reads_per_node_sizes_and_collapses_repeats() {
        let r = read(TWO_RACKS, Semantics::Hadoop33).unwrap();
        let got: Vec<(&str, &str, i64, i64)> = r
            .nodes
            .iter()
            .map(|n| {
                (
                    n.name.as_str(),
                    n.rack.as_str(),
                    n.capacity.memory_mb,
                    n.capacity.vcores,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("a1.example.com", "default-rack", 8192, 8),
                ("a2.example.com", "default-rack", 4096, 2),
                ("b1.example.com", "rack2", 2048, 8),
            ]
        );
        assert_eq!(r.warnings.len(), 1);
        assert!(
            r.warnings[0].contains("node key `labels` (1)"),
            "{:?}",
            r.warnings
        );
        assert!(r.warnings[0].contains("listed twice (one node, as SLS's set keeps) (1)"));
    }

    #[test]
    fn hadoop_27_gives_every_node_the_default_size() {
        let r = read(TWO_RACKS, Semantics::Hadoop27).unwrap();
        assert!(r.nodes.iter().all(|n| n.capacity == Resource::new(8192, 8)));
        assert!(
            r.warnings[0].contains("per-node `memory-mb`"),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn errors_name_line_and_field() {
        let e = read(
            "\n{\"rack\": \"r\", \"nodes\": [{\"node\": \"h\", \"vcores\": -1}]}",
            Semantics::Hadoop33,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "nodes.json:2: nodes[0].vcores: -1 is out of range: the limit is 0 to 2147483647"
        );
        let e = read(
            "{\"rack\": \"r\", \"nodes\": [{\"host\": \"h\"}]}",
            Semantics::Hadoop33,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "nodes.json:1: nodes[0].node: missing");
        let e = read("{\"job.tasks\": []}", Semantics::Hadoop33)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("not an SLS nodes file: this looks like an SLS JSON job trace"),
            "{e}"
        );
        let e = read("{\"rack\": \"r\", \"nodes\": [{\"node\": \"h\"}]}\n{\"rack\": \"s\", \"nodes\": [{\"node\": \"h\"}]}", Semantics::Hadoop33)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("nodes.json:2: nodes[0].node: `h` is already in rack `r`"),
            "{e}"
        );
        let e = read("  ", Semantics::Hadoop33).unwrap_err().to_string();
        assert!(e.contains("lists no node"), "{e}");
    }
}
