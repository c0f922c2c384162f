//! Resource strings of `minResources`, `maxResources`, `maxChildResources` and
//! `queueMaxResourcesDefault`, in the forms each Hadoop era accepts.
//!
//! - hadoop-2.7: an integer followed by `mb` and an integer followed by `vcores`, anywhere in
//!   the lower-cased text, with any separators ("1024 mb, 1 vcores", "1024mb,1vcores").
//! - hadoop-3.3 adds decimals in that form (only the integer part is kept), percentages
//!   ("50%", "50% memory, 25% cpu") and the new style ("memory-mb=1024, vcores=2" or
//!   "memory-mb=50%, vcores=25%").
//!
//! fairsim refuses negative numbers and numbers glued to a sign or a decimal point in every
//! era; Hadoop 2.7's regular expression would silently read "-1024 mb" as 1024 and
//! "1024.5 mb" as 5.

use crate::tree::ResourceSpec;
use fairsim_core::Resource;
use fairsim_core::Semantics;

/// What an unlisted resource type means in the new style: 0 for a minimum, unbounded for a
/// maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Unlisted types are 0 (`minResources`).
    Zero,
    /// Unlisted types are unbounded (`maxResources` and friends).
    Unbounded,
}

/// Parses a resource string as `semantics` does; the error is a message without position.
pub fn parse_resource(
    text: &str,
    semantics: Semantics,
    missing: Missing,
) -> Result<ResourceSpec, String> {
    let lower = text.trim().to_ascii_lowercase();
    if lower.is_empty() {
        return Err("empty resource string".into());
    }
    match semantics {
        Semantics::Hadoop27 => {
            if lower.contains('%') || lower.contains('=') {
                return Err(format!(
                    "\"{}\" is a hadoop-3 resource form; hadoop-2.7 reads only \"<n> mb, <n> vcores\"",
                    text.trim()
                ));
            }
            let memory = find_integer_before(&lower, "mb", i32::MAX as i64)?
                .ok_or("missing resource: mb")?;
            let vcores = find_integer_before(&lower, "vcores", i32::MAX as i64)?
                .ok_or("missing resource: vcores")?;
            Ok(ResourceSpec::Absolute(Resource::new(memory, vcores)))
        }
        Semantics::Hadoop33 => {
            if lower.contains('=') {
                new_style(&lower, missing)
            } else if lower.contains('%') {
                old_style_percent(&lower)
            } else {
                let memory = find_decimal_before(&lower, "mb")?.ok_or("missing resource: mb")?;
                let vcores =
                    find_decimal_before(&lower, "vcores")?.ok_or("missing resource: vcores")?;
                Ok(ResourceSpec::Absolute(Resource::new(memory, vcores)))
            }
        }
    }
}

/// Spans of maximal ASCII digit runs in `s`.
fn digit_runs(s: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = s.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && !b[i].is_ascii_digit() {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        Some((start, i))
    })
}

/// True when `rest` is optional whitespace followed by `unit`.
fn followed_by(rest: &str, unit: &str) -> bool {
    rest.trim_start().starts_with(unit)
}

/// The first integer followed by `unit` (Hadoop 2's `(\d+)\s*unit`), refusing a sign or a
/// decimal point glued to it.
fn find_integer_before(s: &str, unit: &str, limit: i64) -> Result<Option<i64>, String> {
    for (start, end) in digit_runs(s) {
        if !followed_by(&s[end..], unit) {
            continue;
        }
        let before = s[..start].chars().next_back();
        if before == Some('-') {
            return Err(format!("negative value for {unit}"));
        }
        if before == Some('.') {
            return Err(format!("malformed number before {unit}"));
        }
        let v: i64 = s[start..end]
            .parse()
            .ok()
            .filter(|&v| v <= limit)
            .ok_or_else(|| format!("value for {unit} is too large"))?;
        return Ok(Some(v));
    }
    Ok(None)
}

/// A number at the end of `s[..end]`: digits with an optional fraction and sign; returns
/// its start and value.
fn number_ending_at(s: &str, end: usize) -> Option<(usize, f64)> {
    let b = s.as_bytes();
    let mut start = end;
    while start > 0 && (b[start - 1].is_ascii_digit() || b[start - 1] == b'.') {
        start -= 1;
    }
    if start > 0 && b[start - 1] == b'-' {
        start -= 1;
    }
    let t = &s[start..end];
    let v: f64 = t.parse().ok()?;
    v.is_finite().then_some((start, v))
}

/// The first number followed by `unit` in the 3.x old style; decimals keep their integer
/// part, negatives are an error.
fn find_decimal_before(s: &str, unit: &str) -> Result<Option<i64>, String> {
    let mut from = 0;
    while let Some(off) = s[from..].find(unit) {
        let at = from + off;
        from = at + unit.len();
        let end = s[..at].trim_end().len();
        if end == 0 || !s.as_bytes()[end - 1].is_ascii_digit() && s.as_bytes()[end - 1] != b'.' {
            continue;
        }
        let (_, v) =
            number_ending_at(s, end).ok_or_else(|| format!("malformed number before {unit}"))?;
        if v < 0.0 {
            return Err(format!("negative value for {unit}"));
        }
        if v >= i64::MAX as f64 {
            return Err(format!("value for {unit} is too large"));
        }
        return Ok(Some(v as i64));
    }
    Ok(None)
}

/// A percentage `X%` followed by `unit` (empty: any `X%`), as a fraction of 100.
fn find_percent(s: &str, unit: &str) -> Result<Option<f64>, String> {
    let mut from = 0;
    while let Some(off) = s[from..].find('%') {
        let at = from + off;
        from = at + 1;
        if !unit.is_empty() && !followed_by(&s[at + 1..], unit) {
            continue;
        }
        let end = s[..at].trim_end().len();
        let (_, v) = number_ending_at(s, end).ok_or("malformed percentage")?;
        if v < 0.0 {
            return Err("negative percentage".into());
        }
        return Ok(Some(v));
    }
    Ok(None)
}

fn old_style_percent(s: &str) -> Result<ResourceSpec, String> {
    // One comma-free part: a single percentage for every resource type.
    if !s.contains(',') {
        let p = find_percent(s, "")?.ok_or("malformed percentage")?;
        return Ok(ResourceSpec::Percent {
            memory: p,
            vcores: p,
        });
    }
    let memory = find_percent(s, "memory")?.ok_or("missing resource: memory percentage")?;
    let vcores = find_percent(s, "cpu")?.ok_or("missing resource: cpu percentage")?;
    Ok(ResourceSpec::Percent { memory, vcores })
}

fn new_style(s: &str, missing: Missing) -> Result<ResourceSpec, String> {
    let percent = s.contains('%');
    let mut memory: Option<f64> = None;
    let mut vcores: Option<f64> = None;
    for part in s.split(',') {
        let kv: Vec<&str> = part.split('=').collect();
        let [name, value] = kv[..] else {
            return Err(format!("\"{}\" is not of the form name=value", part.trim()));
        };
        let (name, value) = (name.trim(), value.trim());
        let v = if percent {
            let num = value
                .strip_suffix('%')
                .ok_or_else(|| format!("{name}: every value must be a percentage once one is"))?;
            parse_non_negative(num.trim(), name)?
        } else {
            let v: i64 = value
                .parse()
                .map_err(|_| format!("{name}: \"{value}\" is not a non-negative integer"))?;
            if v < 0 {
                return Err(format!("{name}: negative value"));
            }
            v as f64
        };
        let slot = match name {
            "memory-mb" | "memory" => &mut memory,
            "vcores" => &mut vcores,
            other => return Err(format!("unknown resource type \"{other}\"")),
        };
        *slot = Some(v);
    }
    if percent {
        let fill = match missing {
            Missing::Zero => 0.0,
            Missing::Unbounded => 100.0,
        };
        Ok(ResourceSpec::Percent {
            memory: memory.unwrap_or(fill),
            vcores: vcores.unwrap_or(fill),
        })
    } else {
        let fill = match missing {
            Missing::Zero => 0,
            Missing::Unbounded => i64::MAX,
        };
        Ok(ResourceSpec::Absolute(Resource::new(
            memory.map_or(fill, |v| v as i64),
            vcores.map_or(fill, |v| v as i64),
        )))
    }
}

fn parse_non_negative(text: &str, name: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite())
        .ok_or_else(|| format!("{name}: \"{text}\" is not a number"))?;
    if v < 0.0 {
        return Err(format!("{name}: negative percentage"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Semantics::{Hadoop27, Hadoop33};

    fn abs(m: i64, v: i64) -> ResourceSpec {
        ResourceSpec::Absolute(Resource::new(m, v))
    }

    fn check(text: &str, sem: Semantics, missing: Missing, expected: Result<ResourceSpec, &str>) {
        let got = parse_resource(text, sem, missing);
        match expected {
            Ok(e) => assert_eq!(got, Ok(e), "{text:?} under {sem}"),
            Err(part) => {
                let msg = got.expect_err(text);
                assert!(msg.contains(part), "{text:?}: {msg:?} lacks {part:?}");
            }
        }
    }

    #[test]
    fn old_style_in_both_eras() {
        for sem in [Hadoop27, Hadoop33] {
            check("1024 mb, 1 vcores", sem, Missing::Zero, Ok(abs(1024, 1)));
            check("1024mb,1vcores", sem, Missing::Zero, Ok(abs(1024, 1)));
            check("2 vcores 4096 MB", sem, Missing::Zero, Ok(abs(4096, 2)));
            check(
                "1024 mb",
                sem,
                Missing::Zero,
                Err("missing resource: vcores"),
            );
            check("-1024 mb, 1 vcores", sem, Missing::Zero, Err("negative"));
            check("", sem, Missing::Zero, Err("empty"));
            check(
                "lots of mb",
                sem,
                Missing::Zero,
                Err("missing resource: mb"),
            );
        }
        check(
            "1024.5 mb, 1 vcores",
            Hadoop33,
            Missing::Zero,
            Ok(abs(1024, 1)),
        );
        check(
            "1024.5 mb, 1 vcores",
            Hadoop27,
            Missing::Zero,
            Err("malformed"),
        );
    }

    #[test]
    fn percent_forms_are_hadoop3_only() {
        let p = |m, v| ResourceSpec::Percent {
            memory: m,
            vcores: v,
        };
        check("50%", Hadoop33, Missing::Unbounded, Ok(p(50.0, 50.0)));
        check(
            "50% memory, 25% cpu",
            Hadoop33,
            Missing::Unbounded,
            Ok(p(50.0, 25.0)),
        );
        check(
            "25% cpu, 50% memory",
            Hadoop33,
            Missing::Unbounded,
            Ok(p(50.0, 25.0)),
        );
        check(
            "50% memory, 1 vcores",
            Hadoop33,
            Missing::Unbounded,
            Err("cpu"),
        );
        check("-5%", Hadoop33, Missing::Unbounded, Err("negative"));
        check("50%", Hadoop27, Missing::Unbounded, Err("hadoop-2.7"));
        check(
            "memory-mb=50%",
            Hadoop33,
            Missing::Unbounded,
            Ok(p(50.0, 100.0)),
        );
        check(
            "memory-mb=50%, vcores=10%",
            Hadoop33,
            Missing::Zero,
            Ok(p(50.0, 10.0)),
        );
    }

    #[test]
    fn new_style() {
        check(
            "memory-mb=1024, vcores=2",
            Hadoop33,
            Missing::Zero,
            Ok(abs(1024, 2)),
        );
        check("vcores=2", Hadoop33, Missing::Zero, Ok(abs(0, 2)));
        check(
            "vcores=2",
            Hadoop33,
            Missing::Unbounded,
            Ok(abs(i64::MAX, 2)),
        );
        check(
            "memory-mb=1024mb",
            Hadoop33,
            Missing::Zero,
            Err("not a non-negative integer"),
        );
        check("memory-mb=-1", Hadoop33, Missing::Zero, Err("negative"));
        check(
            "gpu=1",
            Hadoop33,
            Missing::Zero,
            Err("unknown resource type"),
        );
        check("memory-mb=1=2", Hadoop33, Missing::Zero, Err("name=value"));
        check(
            "memory-mb=50%, vcores=2",
            Hadoop33,
            Missing::Zero,
            Err("percentage"),
        );
        check("memory-mb=1024", Hadoop27, Missing::Zero, Err("hadoop-2.7"));
    }
}
