//! Snapshot files for `fairsim shares` and `fairsim rank`: a cluster and a list of
//! schedulables, as JSON (one document, or one per line).
//!
//! Errors name the input, the line and the field (`snap.jsonl:3: schedulables[1].weight: ...`).

use fairsim_bench_runner::CliError;
use fairsim_core::{Policy, Resource, Schedulable, Semantics, ShareKind};
use fairsim_sim::limits::limit;
use serde::de::{DeserializeSeed, Error as _, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A snapshot after validation.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The Hadoop era.
    pub semantics: Semantics,
    /// The policy that splits and orders.
    pub policy: Policy,
    /// Instantaneous or steady shares.
    pub kind: ShareKind,
    /// The total to split (and DRF's denominator).
    pub cluster: Resource,
    /// The schedulables, in input order.
    pub schedulables: Vec<Schedulable>,
}

#[derive(Deserialize)]
struct RawResource {
    memory_mb: i64,
    vcores: i64,
}

#[derive(Deserialize)]
struct RawSchedulable {
    name: String,
    #[serde(default = "one")]
    weight: f64,
    #[serde(default)]
    start_time_ms: i64,
    min_share: Option<RawResource>,
    max_share: Option<RawResource>,
    demand: Option<RawResource>,
    usage: Option<RawResource>,
    #[serde(default = "yes")]
    active: bool,
}

fn one() -> f64 {
    1.0
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
struct RawSnapshot {
    #[serde(default)]
    semantics: Option<String>,
    policy: String,
    #[serde(default)]
    kind: Option<String>,
    cluster: RawResource,
    #[serde(deserialize_with = "capped")]
    schedulables: Vec<RawSchedulable>,
}

/// The schedulables, refused at the first one past the limit, before it is read (memory
/// and time grow with them; docs/limits.md).
fn capped<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<RawSchedulable>, D::Error> {
    /// One element, knowing its index.
    struct Element(usize);
    impl<'de> DeserializeSeed<'de> for Element {
        type Value = RawSchedulable;
        fn deserialize<E: Deserializer<'de>>(self, d: E) -> Result<RawSchedulable, E::Error> {
            limit("snapshot", "schedulables")
                .check_int(self.0 as i128 + 1)
                .map_err(|m| E::Error::custom(format!("schedulable number {m}")))?;
            RawSchedulable::deserialize(d)
        }
    }
    struct Capped;
    impl<'de> Visitor<'de> for Capped {
        type Value = Vec<RawSchedulable>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of schedulables")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(s) = seq.next_element_seed(Element(out.len()))? {
                out.push(s);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(Capped)
}

/// Parses and validates one snapshot. `origin` names the input, `line` is the line the
/// document starts on (1-based).
pub fn parse_snapshot(text: &str, origin: &str, line: usize) -> Result<Snapshot, CliError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let raw: RawSnapshot = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let at = line + inner.line().saturating_sub(1);
        let field = if path == "." || path == "?" {
            String::new()
        } else {
            format!("{path}: ")
        };
        CliError::Input(format!(
            "{origin}:{at}: {field}{}",
            strip_position(&inner.to_string())
        ))
    })?;
    de.end().map_err(|e| {
        CliError::Input(format!(
            "{origin}:{}: trailing characters after the snapshot",
            line + e.line() - 1
        ))
    })?;
    // Checks made once the document is read name the line of the field at fault.
    let bad = |field: &str, msg: String| {
        let at = fairsim_sim::json_lines::value_line(text.as_bytes(), line as u64, field);
        CliError::Input(format!("{origin}:{at}: {field}: {msg}"))
    };

    let semantics = match &raw.semantics {
        None => Semantics::default(),
        Some(s) => s.parse().map_err(|m| bad("semantics", m))?,
    };
    let policy: Policy = raw.policy.parse().map_err(|m| bad("policy", m))?;
    let kind = match raw.kind.as_deref() {
        None | Some("instantaneous") => ShareKind::Instantaneous,
        Some("steady") => ShareKind::Steady,
        Some(other) => {
            return Err(bad(
                "kind",
                format!("unknown kind `{other}` (expected instantaneous or steady)"),
            ));
        }
    };
    let limit = semantics.resource_max();
    let resource = |field: &str, r: &RawResource| -> Result<Resource, CliError> {
        for (name, v) in [("memory_mb", r.memory_mb), ("vcores", r.vcores)] {
            if v < 0 {
                return Err(bad(
                    &format!("{field}.{name}"),
                    format!("must not be negative, got {v}"),
                ));
            }
            if v > limit {
                return Err(bad(
                    &format!("{field}.{name}"),
                    format!("{v} exceeds {semantics}'s 32-bit int range (max {limit})"),
                ));
            }
        }
        Ok(Resource::new(r.memory_mb, r.vcores))
    };
    let cluster = resource("cluster", &raw.cluster)?;
    let mut schedulables = Vec::with_capacity(raw.schedulables.len());
    for (i, s) in raw.schedulables.iter().enumerate() {
        let field = |f: &str| format!("schedulables[{i}].{f}");
        // Hadoop parses a double and stores it as a float.
        let weight = s.weight as f32;
        if !s.weight.is_finite() || s.weight < 0.0 || !weight.is_finite() {
            return Err(bad(
                &field("weight"),
                format!("must be a finite number >= 0, got {}", s.weight),
            ));
        }
        let opt = |f: &str, r: &Option<RawResource>, default: Resource| match r {
            Some(r) => resource(&field(f), r),
            None => Ok(default),
        };
        let mut max_share = opt("max_share", &s.max_share, Resource::UNBOUNDED)?;
        if semantics == Semantics::Hadoop27 {
            // Integer.MAX_VALUE is Hadoop 2.7's "unbounded".
            for v in [&mut max_share.memory_mb, &mut max_share.vcores] {
                if *v == i32::MAX as i64 {
                    *v = i64::MAX;
                }
            }
        }
        schedulables.push(Schedulable {
            name: s.name.clone(),
            weight,
            start_time_ms: s.start_time_ms,
            min_share: opt("min_share", &s.min_share, Resource::ZERO)?,
            max_share,
            demand: opt("demand", &s.demand, Resource::ZERO)?,
            usage: opt("usage", &s.usage, Resource::ZERO)?,
            active: s.active,
        });
    }
    Ok(Snapshot {
        semantics,
        policy,
        kind,
        cluster,
        schedulables,
    })
}

/// serde_json appends " at line L column C"; the line is already in our prefix.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

/// Splits JSON-lines input into (line number, text) for each non-blank line.
pub fn jsonl_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        match parse_snapshot(text, "snap.json", 7) {
            Err(CliError::Input(m)) => m,
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    const OK: &str = r#"{"policy": "fair", "cluster": {"memory_mb": 8192, "vcores": 8},
        "schedulables": [{"name": "root.a"}]}"#;

    #[test]
    fn defaults_follow_yarn() {
        let s = parse_snapshot(OK, "snap.json", 1).unwrap();
        assert_eq!(s.semantics, Semantics::Hadoop27);
        assert_eq!(s.kind, ShareKind::Instantaneous);
        assert_eq!(s.schedulables[0].weight, 1.0);
        assert_eq!(s.schedulables[0].max_share, Resource::UNBOUNDED);
        assert!(s.schedulables[0].active);
    }

    #[test]
    fn weight_is_rounded_to_float32() {
        let s = parse_snapshot(
            &OK.replace(r#""root.a""#, r#""root.a", "weight": 0.1"#),
            "s",
            1,
        )
        .unwrap();
        assert_eq!(s.schedulables[0].weight.to_bits(), 0x3dcccccd);
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        assert_eq!(
            err(&OK.replace(r#""root.a""#, r#""root.a", "weight": -1"#)),
            "snap.json:8: schedulables[0].weight: must be a finite number >= 0, got -1"
        );
        assert!(
            err(r#"{"cluster": {"memory_mb": 1, "vcores": 1}, "schedulables": []}"#)
                .contains("missing field `policy`")
        );
        assert!(
            err(&OK.replace("\"memory_mb\": 8192, ", ""))
                .starts_with("snap.json:7: cluster: missing field `memory_mb`")
        );
        assert!(
            err(&OK.replace("fair", "lottery"))
                .starts_with("snap.json:7: policy: unknown policy `lottery`")
        );
        assert!(
            err(&format!(r#"{{"semantics": "hadoop-9", {}"#, &OK[1..]))
                .starts_with("snap.json:7: semantics: unknown semantics")
        );
        assert!(
            err("{\"policy\": \n\"fair\", oops}").starts_with("snap.json:8: key must be a string")
        );
        assert!(err(&OK.replace("8192", "4294967296")).contains("32-bit int range"));
        assert!(
            err(&OK.replace(r#""root.a""#, r#""root.a", "weight": NaN"#))
                .starts_with("snap.json:8: schedulables[0].weight: expected value")
        );
        assert!(
            err(&OK.replace(
                r#""root.a""#,
                r#""root.a", "usage": {"memory_mb": -5, "vcores": 0}"#
            ))
            .contains("schedulables[0].usage.memory_mb: must not be negative")
        );
    }

    #[test]
    fn integer_max_is_unbounded_in_hadoop27_only() {
        let text = OK.replace(
            r#""root.a""#,
            r#""root.a", "max_share": {"memory_mb": 2147483647, "vcores": 5}"#,
        );
        let s = parse_snapshot(&text, "s", 1).unwrap();
        assert_eq!(s.schedulables[0].max_share, Resource::new(i64::MAX, 5));
        let v3 = parse_snapshot(
            &text.replace("{\"policy\"", "{\"semantics\": \"hadoop-3.3\", \"policy\""),
            "s",
            1,
        )
        .unwrap();
        assert_eq!(
            v3.schedulables[0].max_share,
            Resource::new(i32::MAX as i64, 5)
        );
    }
}
