//! A sweep's parameter paths (`queues.etl.weight`, `cluster.racks[0].nodes`) and how a
//! swept value reads in a table cell and an error; shared by the sweep file's reader
//! (`spec`) and its plan (`plan`).

use std::fmt;

use crate::results::fmt_f64;

/// One step of a parameter path: a table key or an array index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Segment {
    /// A key in a table.
    Key(String),
    /// An index into an array.
    Index(usize),
}

/// A parsed parameter path such as `queues.etl.weight` or `cluster.racks[0].nodes`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamPath(pub Vec<Segment>);

impl ParamPath {
    /// Parses a dotted path; each part is a bare key or a double-quoted key (which may hold
    /// dots, as in `queues."root.B".weight`), optionally followed by `[index]` groups.
    pub fn parse(path: &str) -> Result<ParamPath, String> {
        let bad = |what: &str| format!("malformed parameter path `{path}`: {what}");
        let mut segments = Vec::new();
        let mut rest = path;
        loop {
            let key;
            if let Some(quoted) = rest.strip_prefix('"') {
                let close = quoted.find('"').ok_or_else(|| bad("unclosed quote"))?;
                key = &quoted[..close];
                rest = &quoted[close + 1..];
            } else {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                key = &rest[..end];
                if key.contains('"') {
                    return Err(bad("a quote inside a bare key"));
                }
                rest = &rest[end..];
            }
            if key.is_empty() {
                return Err(bad("empty key"));
            }
            segments.push(Segment::Key(key.to_string()));
            while let Some(after) = rest.strip_prefix('[') {
                let close = after.find(']').ok_or_else(|| bad("expected `[index]`"))?;
                let index = after[..close]
                    .parse::<usize>()
                    .map_err(|_| bad(&format!("bad index `{}`", &after[..close])))?;
                segments.push(Segment::Index(index));
                rest = &after[close + 1..];
            }
            if rest.is_empty() {
                return Ok(ParamPath(segments));
            }
            rest = rest
                .strip_prefix('.')
                .ok_or_else(|| bad("expected `.` or `[index]`"))?;
        }
    }

    /// The value at this path, if the path exists.
    pub fn get<'a>(&self, root: &'a toml::Value) -> Option<&'a toml::Value> {
        self.0.iter().try_fold(root, |v, seg| match seg {
            Segment::Key(k) => v.as_table()?.get(k),
            Segment::Index(i) => v.as_array()?.get(*i),
        })
    }

    /// The value at this path, mutably, if the path exists.
    pub fn get_mut<'a>(&self, root: &'a mut toml::Value) -> Option<&'a mut toml::Value> {
        self.0.iter().try_fold(root, |v, seg| match seg {
            Segment::Key(k) => v.as_table_mut()?.get_mut(k),
            Segment::Index(i) => v.as_array_mut()?.get_mut(*i),
        })
    }

    /// Writes `value` at this path, creating the tables of missing keys on the way (an axis over an
    /// allocation-file setting adds the queue's override table); `false` when the path crosses a value that
    /// is not a table, or an array index that does not exist.
    pub fn set(&self, root: &mut toml::Value, value: toml::Value) -> bool {
        let Some((last, path)) = self.0.split_last() else {
            return false;
        };
        let mut v = root;
        for seg in path {
            let next = match seg {
                Segment::Key(k) => v.as_table_mut().map(|t| {
                    t.entry(k.clone())
                        .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                }),
                Segment::Index(i) => v.as_array_mut().and_then(|a| a.get_mut(*i)),
            };
            let Some(next) = next else {
                return false;
            };
            v = next;
        }
        match last {
            Segment::Key(k) => match v.as_table_mut() {
                Some(t) => {
                    t.insert(k.clone(), value);
                    true
                }
                None => false,
            },
            Segment::Index(i) => match v.as_array_mut().and_then(|a| a.get_mut(*i)) {
                Some(slot) => {
                    *slot = value;
                    true
                }
                None => false,
            },
        }
    }
}

impl fmt::Display for ParamPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            let dot = if i == 0 { "" } else { "." };
            match seg {
                Segment::Key(k) if k.contains(['.', '[', ']']) => write!(f, "{dot}\"{k}\"")?,
                Segment::Key(k) => write!(f, "{dot}{k}")?,
                Segment::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// The TOML type name of a value, for messages.
pub fn type_name(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a float",
        toml::Value::Boolean(_) => "a boolean",
        toml::Value::Datetime(_) => "a datetime",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// How an axis value is written in a CSV cell: strings bare, floats as by [`fmt_f64`], others as TOML.
pub fn value_cell(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(x) => fmt_f64(*x),
        toml::Value::Boolean(b) => b.to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_parse_and_print() {
        for (text, segs) in [
            ("a", vec![Segment::Key("a".into())]),
            (
                "a.b",
                vec![Segment::Key("a".into()), Segment::Key("b".into())],
            ),
            (
                "c.racks[0].nodes",
                vec![
                    Segment::Key("c".into()),
                    Segment::Key("racks".into()),
                    Segment::Index(0),
                    Segment::Key("nodes".into()),
                ],
            ),
            (
                "queues.\"root.B\".weight",
                vec![
                    Segment::Key("queues".into()),
                    Segment::Key("root.B".into()),
                    Segment::Key("weight".into()),
                ],
            ),
        ] {
            let p = ParamPath::parse(text).unwrap();
            assert_eq!(p.0, segs);
            assert_eq!(p.to_string(), text);
        }
        for bad in [
            "", "a..b", "a[x]", "a[1", ".a", "a.\"b", "a.\"b\"c", "a.b\"c\"", "a.",
        ] {
            assert!(ParamPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn paths_reach_into_tables_and_arrays() {
        let v: toml::Value = toml::from_str("[c]\nracks = [{ nodes = 4 }, { nodes = 8 }]").unwrap();
        let p = ParamPath::parse("c.racks[1].nodes").unwrap();
        assert_eq!(p.get(&v), Some(&toml::Value::Integer(8)));
        assert_eq!(ParamPath::parse("c.racks[2].nodes").unwrap().get(&v), None);
    }
}
