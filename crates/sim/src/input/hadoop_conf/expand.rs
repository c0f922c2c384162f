//! `${name}` in a Hadoop configuration value, substituted as `Configuration.get` substitutes
//! it: only when the property is read, left-most reference first, each step replacing one
//! reference with the raw value of the property it names.
//!
//! Both eras make at most `MAX_SUBST` (20) passes, and the pass that finds no reference
//! returns; a value still substituting in its 20th pass fails, so at most 19 substitutions
//! succeed and a cycle always fails ("Variable substitution depth too large"; the
//! ResourceManager does not start). A reference to a name no property has stops the
//! substitution and the value is returned as it is then. Hadoop 3.x (HADOOP-6871) adds one
//! check, before each substitution: when the value replacing `${v}` itself holds `${v}`,
//! the value is returned exactly as written (a property naming itself, `a = x${a}`, reads
//! as `x${a}` there and fails in 2.7).
//!
//! Hadoop looks a name up in the JVM's system properties (and 3.x an `env.` name in the
//! environment) before the configuration. fairsim reads neither, so that a run depends on its
//! files alone: a system property is unknown (the reference stays as written unless a
//! property of that name exists), and the environment is empty, so 3.x's `${env.X-d}` and
//! `${env.X:-d}` read their default `d`.

use fairsim_core::Semantics;

/// Hadoop's `Configuration.MAX_SUBST`.
pub const MAX_SUBST: usize = 20;

/// Why a value cannot be substituted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep {
    /// The names substituted, in order (the first 20).
    pub chain: Vec<String>,
}

impl TooDeep {
    /// The message, naming the chain.
    pub fn message(&self) -> String {
        let mut names: Vec<&str> = self.chain.iter().map(String::as_str).take(6).collect();
        if self.chain.len() > names.len() {
            names.push("...");
        }
        format!(
            "${{...}} substitution does not end within Hadoop's {MAX_SUBST} passes ({}): \
             Hadoop's Configuration fails on it (\"Variable substitution depth too large\") \
             and the ResourceManager does not start",
            names.join(" -> ")
        )
    }
}

/// The left-most `${name}` of `s` whose name is not empty and holds no `}`, `$` or space
/// (Hadoop's pattern `\$\{[^\}\$ ]+\}`): the byte range of the name.
fn find_reference(s: &str) -> Option<std::ops::Range<usize>> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(at) = s[from..].find("${") {
        let start = from + at + 2;
        let mut end = start;
        while end < b.len() && !matches!(b[end], b'}' | b'$' | b' ') {
            end += 1;
        }
        if end < b.len() && b[end] == b'}' && end > start {
            return Some(start..end);
        }
        // No valid reference starts here; the next may start at the `$` that stopped this one.
        from = if end < b.len() && b[end] == b'$' {
            end
        } else {
            start
        };
    }
    None
}

/// Hadoop 3.x's `env.NAME-default` / `env.NAME:-default` with an empty environment: the
/// default, after the first `-` (with or without the `:` before it, both mean the same when
/// the variable is unset).
fn env_default(name: &str) -> Option<String> {
    let v = name.strip_prefix("env.").filter(|v| !v.is_empty())?;
    let dash = v.find('-')?;
    Some(v[dash + 1..].to_string())
}

/// `expr` with its references substituted, each name looked up with `raw` (a property's
/// value as written, `None` when no property has that name).
pub fn substitute<'a>(
    expr: &str,
    raw: impl Fn(&str) -> Option<&'a str>,
    semantics: Semantics,
) -> Result<String, TooDeep> {
    let mut eval = expr.to_string();
    let mut chain = Vec::new();
    for _ in 0..MAX_SUBST {
        let Some(name) = find_reference(&eval) else {
            return Ok(eval);
        };
        let env_default = match semantics {
            Semantics::Hadoop33 => env_default(&eval[name.clone()]),
            Semantics::Hadoop27 => None,
        };
        let Some(value) = env_default.or_else(|| raw(&eval[name.clone()]).map(str::to_string))
        else {
            return Ok(eval);
        };
        let reference = name.start - 2..name.end + 1;
        if semantics == Semantics::Hadoop33 && value.contains(&eval[reference.clone()]) {
            return Ok(expr.to_string());
        }
        chain.push(eval[name].to_string());
        eval.replace_range(reference, &value);
    }
    Err(TooDeep { chain })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Semantics::{Hadoop27, Hadoop33};
    use std::collections::BTreeMap;

    fn props(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    fn sub(p: &BTreeMap<String, String>, expr: &str, s: Semantics) -> Result<String, TooDeep> {
        substitute(expr, |n| p.get(n).map(String::as_str), s)
    }

    /// Properties `c0 -> c1 -> ... -> c{n-1} = end`: `${c0}` takes `n` substitutions.
    fn chain(n: usize) -> BTreeMap<String, String> {
        let mut p = BTreeMap::new();
        for i in 0..n - 1 {
            p.insert(format!("c{i}"), format!("${{c{}}}", i + 1));
        }
        p.insert(format!("c{}", n - 1), "end".into());
        p
    }

    #[test]
    fn at_most_nineteen_substitutions_succeed_in_both_eras() {
        for s in [Hadoop27, Hadoop33] {
            assert_eq!(sub(&chain(19), "${c0}", s), Ok("end".into()));
            let e = sub(&chain(20), "${c0}", s).unwrap_err();
            assert_eq!(e.chain.len(), MAX_SUBST);
            assert!(e.message().contains("c0 -> c1 -> c2"), "{}", e.message());
        }
    }

    #[test]
    fn a_cycle_fails_and_a_self_reference_is_returned_as_written_in_3x() {
        let p = props(&[("a", "${b}"), ("b", "${a}"), ("s", "x${s}")]);
        for s in [Hadoop27, Hadoop33] {
            assert!(sub(&p, "${a}", s).is_err());
        }
        assert!(sub(&p, "${s}", Hadoop27).is_err());
        assert_eq!(sub(&p, "1${s}", Hadoop33), Ok("1${s}".into()));
        // The original expression, not the partly substituted one.
        let p = props(&[("a", "${b}"), ("b", "y${b}")]);
        assert_eq!(sub(&p, "${a}", Hadoop33), Ok("${a}".into()));
    }

    #[test]
    fn an_unknown_name_stops_the_substitution_where_it_is() {
        let p = props(&[("a", "1"), ("b", "2")]);
        assert_eq!(
            sub(&p, "${a}${nope}${b}", Hadoop27),
            Ok("1${nope}${b}".into())
        );
    }

    #[test]
    fn only_names_hadoop_matches_are_references() {
        let p = props(&[("a", "1"), ("a b", "2")]);
        assert_eq!(
            sub(&p, "${}${a b}$${a}", Hadoop27),
            Ok("${}${a b}$1".into())
        );
        assert_eq!(sub(&p, "${x${a}", Hadoop27), Ok("${x1".into()));
        assert_eq!(sub(&p, "${a", Hadoop27), Ok("${a".into()));
        assert_eq!(find_reference("ab${"), None);
    }

    #[test]
    fn the_environment_is_empty_so_3x_env_references_read_their_default() {
        let p = props(&[("env.HOME", "set")]);
        assert_eq!(
            sub(&p, "${env.X:-5}${env.Y-a:b}", Hadoop33),
            Ok("5a:b".into())
        );
        assert_eq!(sub(&p, "${env.HOME}", Hadoop33), Ok("set".into()));
        assert_eq!(sub(&p, "${env.X-5}", Hadoop27), Ok("${env.X-5}".into()));
    }
}
