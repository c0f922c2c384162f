//! SLS nodes files (`nodes_file = "nodes.json"`): a stream of rack objects, one after the
//! other as SLS's `SLSUtils.parseNodesFromNodeFile` reads them with Jackson's `readValues`:
//!
//! ```json
//! {"rack": "default-rack", "nodes": [{"node": "a2115.smile.com"}, {"node": "a2117.smile.com"}]}
//! {"rack": "rack2", "nodes": [{"node": "b1.smile.com", "memory-mb": 4096, "vcores": 2}]}
//! ```
//!
//! Every node is `"/" + rack + "/" + node`, as SLS writes it: a node object without `node`
//! (Hadoop's own test file ends with `{}`, a 20th node for its TestSLSUtils) is the host
//! `null`, a rack object without `rack` the rack `null` (each counted in a warning). Sizes,
//! per era:
//! - hadoop-2.7: the file gives names only; every node has the NodeManager size of
//!   sls-runner.xml (`yarn.sls.nm.memory.mb`, 10240; `yarn.sls.nm.vcores`, 10). Per-node
//!   `memory-mb` / `vcores` are not read (counted in a warning).
//! - hadoop-3.3: a node's `memory-mb` and `vcores` (resource type names, numbers or digit
//!   strings) replace that default for the node.
//!
//! The default is the caller's: the scenario's `node_memory_mb` / `node_vcores`, else
//! sls-runner.xml's `yarn.sls.nm.*`, else SLS's 10240 MB / 10 vcores. SLS keeps the nodes in a hash set: a node listed twice
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
    /// Where each node is written: the line of its node object and its index in its rack
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
        // SLS names a node `"/" + rack + "/" + node` from whatever the keys hold, so a
        // missing (or null) rack or node is the text `null`, as Java prints it (Hadoop's own
        // test file ends with a `{}` node that its TestSLSUtils counts).
        let rack_text = name_text(obj.get("rack")).map_err(|v| {
            perr(
                stream.field_line("rack"),
                "rack",
                format!("`{v}` is not a rack name"),
            )
        })?;
        if rack_text.is_none() {
            ignored.add("racks without `rack` (rack `null`, as SLS names them)");
        }
        let rack_text = rack_text.unwrap_or_else(|| "null".into());
        let rack =
            check_rack(&rack_text).map_err(|m| perr(stream.field_line("rack"), "rack", m))?;
        let list = match obj.get("nodes") {
            Some(Value::Array(a)) => a,
            Some(other) => {
                return Err(perr(
                    stream.field_line("nodes"),
                    "nodes",
                    format!("`{other}` is not a list of nodes"),
                ));
            }
            None => return Err(perr(line, "nodes", "missing".into())),
        };
        for k in obj.keys().filter(|k| *k != "rack" && *k != "nodes") {
            ignored.add(format!("rack key `{k}`"));
        }
        let node_lines = stream.element_lines("nodes");
        for (i, n) in list.iter().enumerate() {
            let node_line = node_lines.get(i).copied().unwrap_or(line);
            let field = |f: &str| format!("nodes[{i}].{f}");
            let at = |f: &str| stream.field_line(&field(f));
            let Value::Object(n) = n else {
                return Err(perr(
                    node_line,
                    &format!("nodes[{i}]"),
                    format!("`{n}` is not a node object"),
                ));
            };
            let host_text = name_text(n.get("node")).map_err(|v| {
                perr(
                    at("node"),
                    &field("node"),
                    format!("`{v}` is not a host name"),
                )
            })?;
            if host_text.is_none() {
                ignored.add("nodes without `node` (host `null`, as SLS names them)");
            }
            let host_text = host_text.unwrap_or_else(|| "null".into());
            let host = check_host(&host_text).map_err(|m| perr(at("node"), &field("node"), m))?;
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
                let x = parsed.ok_or_else(|| {
                    perr(at(key), &field(key), format!("`{v}` is not an integer"))
                })?;
                let x = limit("sls nodes file", &format!("nodes[*].{key}"))
                    .check_int(x)
                    .map_err(|m| perr(at(key), &field(key), m))? as i64;
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
                        at("node"),
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
                    node_line,
                    &field("node"),
                    format!(
                        "more than {MAX_NODES} nodes: the limit of one cluster (docs/limits.md)"
                    ),
                ));
            }
            rack_of.insert(host.to_string(), rack.to_string());
            origins.push((node_line, i as u32));
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

/// The text SLS makes of a rack or node value (`"/" + value`): a string as written, an
/// integer or a boolean as Java prints it; `Ok(None)` for a missing or null value (Java's
/// `null`); `Err` with the value for anything else (a list, an object, a fraction, whose
/// Java text fairsim does not reproduce).
fn name_text(v: Option<&Value>) -> Result<Option<String>, &Value> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Bool(b)) => Ok(Some(b.to_string())),
        Some(v @ Value::Number(n)) => match n.as_i64() {
            Some(i) => Ok(Some(i.to_string())),
            None => Err(v),
        },
        Some(other) => Err(other),
    }
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
            "{\"rack\": \"r\",\n \"nodes\": [{\"node\": \"h\"},\n  {\"node\": [\"g\"]}]}",
            Semantics::Hadoop33,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "nodes.json:3: nodes[1].node: `[\"g\"]` is not a host name"
        );
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

    /// Hadoop's own nodes.json (hadoop-sls's test resources) in its shape: five racks of
    /// four nodes, pretty-printed, the last node an empty object. TestSLSUtils reads 20
    /// nodes from it, in both eras: the empty one is `/rack5/null`.
    fn hadoop_test_shape() -> String {
        let mut text = String::new();
        for r in 1..=5 {
            text.push_str(&format!("{{\n  \"rack\": \"rack{r}\",\n  \"nodes\": [\n"));
            for k in 1..=4 {
                let n = (r - 1) * 4 + k;
                let body = if n == 20 {
                    String::new()
                } else {
                    format!("      \"node\": \"node{n}\"\n")
                };
                let comma = if k < 4 { "," } else { "" };
                text.push_str(&format!("    {{\n{body}    }}{comma}\n"));
            }
            text.push_str("  ]\n}\n");
        }
        text
    }

    #[test]
    fn an_empty_node_object_is_the_host_null_as_sls_names_it() {
        for era in [Semantics::Hadoop27, Semantics::Hadoop33] {
            let r = read(&hadoop_test_shape(), era).unwrap();
            assert_eq!(r.nodes.len(), 20);
            let last = &r.nodes[19];
            assert_eq!((last.name.as_str(), last.rack.as_str()), ("null", "rack5"));
            assert_eq!(last.capacity, Resource::new(8192, 8));
            // The empty object opens on line 81 of the file (17 lines a rack).
            assert_eq!(r.origins[19], (81, 3));
            assert_eq!(r.origins[0], (4, 0));
            assert_eq!(
                r.warnings,
                [
                    "nodes.json: read but not modelled: nodes without `node` (host `null`, as SLS names them) (1)"
                ]
            );
        }
        // Two empty nodes of one rack are one node, as in SLS's set; a missing rack is `null`.
        let r = read(
            "{\"nodes\": [{}, {\"node\": null}, {\"node\": 7}]}",
            Semantics::Hadoop33,
        )
        .unwrap();
        let names: Vec<(&str, &str)> = r
            .nodes
            .iter()
            .map(|n| (n.name.as_str(), n.rack.as_str()))
            .collect();
        assert_eq!(names, [("null", "null"), ("7", "null")]);
    }

    #[test]
    fn a_bad_node_is_named_at_its_own_line() {
        let text = hadoop_test_shape().replacen("{\n    }", "{\n      \"vcores\": \"x\"\n    }", 1);
        let e = read(&text, Semantics::Hadoop33).unwrap_err().to_string();
        assert_eq!(
            e,
            "nodes.json:82: nodes[3].vcores: `\"x\"` is not an integer"
        );
    }
}
