//! Lines of keys in a TOML text, so that checks made after deserializing (ranges, queue
//! names, workload kinds) can name the line of the key that caused them.
//!
//! Keys are written as messages print them: dotted, a segment with dots in double quotes,
//! a list element as `[index]`: `queues."root.a".weight`, `workload.synthetic.queues[1].apps`.

use toml::Spanned;
use toml::de::{DeTable, DeValue};

/// A parsed TOML text that answers "on which line is this key?".
pub struct KeyLines<'i> {
    text: &'i str,
    root: Option<DeTable<'i>>,
}

enum Segment<'k> {
    Key(&'k str),
    Index(usize),
}

fn segments(key: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = key;
    while !rest.is_empty() {
        rest = rest.strip_prefix('.').unwrap_or(rest);
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            out.push(Segment::Key(&quoted[..end]));
            rest = quoted.get(end + 1..).unwrap_or("");
        } else if let Some(index) = rest.strip_prefix('[') {
            let end = index.find(']').unwrap_or(index.len());
            if let Ok(i) = index[..end].parse() {
                out.push(Segment::Index(i));
            }
            rest = index.get(end + 1..).unwrap_or("");
        } else {
            let end = rest.find(['.', '[']).unwrap_or(rest.len());
            out.push(Segment::Key(&rest[..end]));
            rest = &rest[end..];
        }
    }
    out
}

impl<'i> KeyLines<'i> {
    /// Parses `text` (a text that does not parse answers line 1 for every key).
    pub fn new(text: &'i str) -> KeyLines<'i> {
        let root = DeTable::parse(text).ok().map(Spanned::into_inner);
        KeyLines { text, root }
    }

    /// Whether `key` itself is written in the text.
    pub fn has(&self, key: &str) -> bool {
        self.find(key).1
    }

    /// The 1-based line of `key`, or of its deepest ancestor present in the text, or 1.
    pub fn line(&self, key: &str) -> usize {
        self.find(key).0
    }

    /// The line of `key` (or of its deepest present ancestor) and whether `key` itself is there.
    fn find(&self, key: &str) -> (usize, bool) {
        let Some(root) = &self.root else {
            return (1, false);
        };
        let segs = segments(key);
        let mut matched = 0;
        let mut offset = None;
        let mut table = Some(root);
        let mut array: Option<&[Spanned<DeValue<'i>>]> = None;
        for seg in segs.iter() {
            let found = match seg {
                Segment::Key(k) => table.and_then(|t| {
                    t.iter()
                        .find(|(name, _)| name.get_ref().as_ref() == *k)
                        .map(|(name, v)| (name.span().start, v))
                }),
                Segment::Index(i) => array.and_then(|a| a.get(*i)).map(|v| (v.span().start, v)),
            };
            let Some((start, value)) = found else { break };
            matched += 1;
            offset = Some(start);
            table = None;
            array = None;
            match value.get_ref() {
                DeValue::Table(t) => table = Some(t),
                DeValue::Array(a) => array = Some(a),
                _ => {}
            }
        }
        let line = offset.map_or(1, |o| {
            self.text[..o.min(self.text.len())].matches('\n').count() + 1
        });
        (line, matched == segs.len() && !segs.is_empty())
    }
}

/// The key whose value starts at byte `offset` (`nodes` in `nodes = -1`, `factor` in
/// `booster = { factor = nan }`), for messages about a value of the wrong type.
pub fn key_of_value_at(text: &str, offset: usize) -> Option<&str> {
    let before = text.get(..offset)?;
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let left = line.trim_end().strip_suffix('=')?;
    let key = left[left.rfind(['{', ',']).map_or(0, |i| i + 1)..].trim();
    (!key.is_empty()).then_some(key)
}

/// The dotted path of the value that starts at byte `offset`, through inline tables, arrays
/// and the table header above it: `seeds.base` in `seeds = { count = 3, base = 1e99 }`,
/// `axis.values` in `[[axis]]` / `values = [4, x]`. Best effort, for messages about a value
/// the TOML reader refused (brackets inside strings may mislead it; it then answers less).
pub fn key_path_of_value_at(text: &str, offset: usize) -> Option<String> {
    let before = text.get(..offset)?;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let mut keys: Vec<&str> = Vec::new();
    let mut p = line.len();
    loop {
        let left = line[..p].trim_end();
        if let Some(rest) = left.strip_suffix('=') {
            let start = rest.rfind(['{', ',']).map_or(0, |i| i + 1);
            let key = rest[start..].trim();
            if key.is_empty() {
                return None;
            }
            keys.push(key);
            p = start;
        }
        // The bracket or brace that holds position `p`, if any.
        let mut depth = 0usize;
        let opener = line[..p].char_indices().rev().find(|&(_, c)| match c {
            ']' | '}' => {
                depth += 1;
                false
            }
            '[' | '{' if depth > 0 => {
                depth -= 1;
                false
            }
            '[' | '{' => true,
            _ => false,
        });
        match opener {
            Some((q, _)) if !line[..q].trim().is_empty() => p = q,
            _ => break,
        }
    }
    if keys.is_empty() {
        return None;
    }
    keys.reverse();
    let header = text[..line_start].lines().rev().find_map(|l| {
        let l = l.trim();
        let inner = l.strip_prefix("[[").and_then(|r| r.split("]]").next());
        inner
            .or_else(|| l.strip_prefix('[').and_then(|r| r.split(']').next()))
            .map(str::trim)
    });
    let path = keys.join(".");
    Some(match header {
        Some(h) if !h.is_empty() => format!("{h}.{path}"),
        _ => path,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_key_of_a_value() {
        let text = "[cluster]\nnodes = -1\nbooster = { factor = nan, x = 1 }\n";
        let at = |v: &str| key_of_value_at(text, text.find(v).unwrap());
        assert_eq!(at("-1"), Some("nodes"));
        assert_eq!(at("nan"), Some("factor"));
        assert_eq!(at("cluster"), None);
    }

    #[test]
    fn finds_the_path_of_a_value() {
        let text = "name = 1\nseeds = { count = 3, base = 99 }\nlist = [1, [2, 3]]\n\
                    [[axis]]\nvalues = [4, 5]\n";
        let at = |v: &str| key_path_of_value_at(text, text.find(v).unwrap());
        assert_eq!(at("99").as_deref(), Some("seeds.base"));
        assert_eq!(at("3,").as_deref(), Some("seeds.count"));
        assert_eq!(at("3]").as_deref(), Some("list"));
        assert_eq!(at("5]").as_deref(), Some("axis.values"));
        assert_eq!(at("1\n").as_deref(), Some("name"));
        assert_eq!(at("[[axis"), None);
    }

    #[test]
    fn finds_nested_quoted_and_indexed_keys() {
        let text = "end_ms = 5\n[cluster]\nnodes = 0\n[queues.\"root.a\"]\nweight = 1\n\
                    [[workload.synthetic.queues]]\napps = 1\n[[workload.synthetic.queues]]\n\
                    queue = \"b\"\napps = 2\n";
        let k = KeyLines::new(text);
        assert_eq!(k.line("end_ms"), 1);
        assert_eq!(k.line("cluster.nodes"), 3);
        assert_eq!(k.line("queues.\"root.a\".weight"), 5);
        assert_eq!(k.line("workload.synthetic.queues[1].apps"), 10);
        assert_eq!(k.line("workload.synthetic.queues[0].apps"), 7);
        // An absent key answers its deepest present ancestor.
        assert_eq!(k.line("cluster.racks"), 2);
        assert_eq!(k.line("nosuch"), 1);
        assert!(k.has("cluster.nodes") && k.has("queues.\"root.a\".weight"));
        assert!(!k.has("cluster.racks") && !k.has("nosuch"));
    }
}
