//! Trace host hints as the scenario reads them: a hint's host and rack ([`split`]), and the
//! one warning about hints whose host no node has. Resolving them to request indices of the
//! cluster is `crate::host_hints`.

use super::NodeSpec;
use crate::app::AppSpec;
use std::collections::BTreeMap;

/// `(rack, host)` of a hint: `/r1/h2` → (`r1`, `h2`); `h2` → (``, `h2`).
pub fn split(hint: &str) -> (&str, &str) {
    match hint.rfind('/') {
        Some(i) => (hint[..i].trim_start_matches('/'), &hint[i + 1..]),
        None => ("", hint),
    }
}

/// One warning for the hints of `apps` whose host no node of `nodes` has: how many hints,
/// how many distinct hosts and the first few of them. `None` when every hint resolves.
pub fn unknown_hints_warning(nodes: &[NodeSpec], apps: &[AppSpec]) -> Option<String> {
    let names: std::collections::HashSet<&str> = nodes.iter().map(|n| n.name.as_str()).collect();
    let mut unknown: BTreeMap<&str, u64> = BTreeMap::new();
    let mut first: Vec<&str> = Vec::new();
    let mut hints = 0u64;
    let mut missed = 0u64;
    for h in apps
        .iter()
        .flat_map(|a| a.stages.iter().flatten())
        .flat_map(|g| g.hosts.iter())
    {
        hints += 1;
        let host = split(h).1;
        if names.contains(host) {
            continue;
        }
        missed += 1;
        let seen = unknown.entry(host).or_insert(0);
        if *seen == 0 && first.len() < 5 {
            first.push(host);
        }
        *seen += 1;
    }
    if missed == 0 {
        return None;
    }
    Some(format!(
        "{missed} of {hints} task host hints name no node of the cluster ({} distinct hosts, first: {}); \
         YARN keeps such requests, which no node matches: with locality delays they wait like a busy \
         host's, then go off-switch (docs/traces.md)",
        unknown.len(),
        first.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::TaskGroup;
    use crate::time::SimTime;
    use fairsim_core::Resource;

    fn node(name: &str, rack: &str) -> NodeSpec {
        NodeSpec {
            name: name.into(),
            rack: rack.into(),
            capacity: Resource::new(1024, 1),
        }
    }

    #[test]
    fn one_warning_counts_unknown_hints() {
        let specs = [node("a", "r1")];
        let group = |hosts: &[&str]| TaskGroup {
            count: 1,
            size: Resource::new(1024, 1),
            duration_ms: 1,
            priority: 20,
            hosts: hosts.iter().map(|h| h.to_string()).collect(),
            relax_locality: true,
        };
        let app = AppSpec {
            name: "j".into(),
            arrival: SimTime(0),
            queue: "default".into(),
            user: "u".into(),
            am: None,
            stages: vec![vec![group(&["/r1/a", "/r1/x"]), group(&["/r1/x", "y"])]],
            recorded: None,
        };
        let w = unknown_hints_warning(&specs, std::slice::from_ref(&app)).unwrap();
        assert!(
            w.starts_with(
                "3 of 4 task host hints name no node of the cluster (2 distinct hosts, first: x, y)"
            ),
            "{w}"
        );
        assert_eq!(
            unknown_hints_warning(&[node("x", "r"), node("y", "r"), node("a", "r")], &[app]),
            None
        );
    }
}
