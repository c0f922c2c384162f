//! A fair-scheduler.xml's queues as the capacity-scheduler.xml Hadoop 3's converter
//! (`yarn fs2cs`, `FSConfigToCSConfigConverter` and `FSQueueConverter`) writes for them, in
//! its percentage or its weight mode, so a migration can be previewed without a Hadoop
//! install. What the converter only warns about (minResources, maxResources, preemption
//! timeouts) is returned as notes.
//!
//! Per queue, in the tree's order:
//!
//! * `queues`: the children's short names;
//! * `capacity`: weight mode writes the weight (`0.25w`); percentage mode each child's
//!   weight over the siblings' total weight *truncated to an int*, rounded half up to five
//!   decimals, times 100 (three decimals); a lone child gets `100.000`, and when the
//!   children do not sum to exactly 100.000 the last takes 100 minus the others;
//! * `maximum-capacity`: `100` (the converter does not convert maxResources);
//! * `maximum-am-resource-percent`: a maxAMShare other than the default (−1 becomes 1.0);
//! * `max-parallel-apps`: maxRunningApps, when set;
//! * leaves' `ordering-policy`: `fair` for the fair and drf policies, `fifo` for fifo.
//!
//! Globally: the default maxAMShare (−1 as 1.0), userMaxAppsDefault and each user's
//! maxRunningApps as `user.max-parallel-apps` and `user.<name>.max-parallel-apps`, and the
//! dominant resource calculator when any queue uses drf.

use crate::tree::{QueueId, QueueTree};
use fairsim_core::Policy;

/// How `capacity` is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fs2csMode {
    /// Percentages (the converter's mode before weight mode existed, and its
    /// `--percentage` flag after).
    Percentage,
    /// Weights (`Nw`).
    Weight,
}

/// The converted file and the converter's notes.
#[derive(Debug, Clone, PartialEq)]
pub struct Fs2cs {
    /// The capacity-scheduler.xml text.
    pub xml: String,
    /// What the converter warns about, one line each.
    pub notes: Vec<String>,
}

const PREFIX: &str = "yarn.scheduler.capacity.";
/// Hadoop's default `queueMaxAMShareDefault`.
const FS_MAX_AM_SHARE_DEFAULT: f32 = 0.5;

/// Converts a Fair Scheduler tree. Fails where the converter itself would (children whose
/// weights sum below 1 in percentage mode, which its integer total divides by zero).
pub fn convert(tree: &QueueTree, mode: Fs2csMode) -> Result<Fs2cs, String> {
    let mut props: Vec<(String, String)> = Vec::new();
    let mut notes = Vec::new();
    let mut set = |k: String, v: String| props.push((format!("{PREFIX}{k}"), v));
    if tree.queues.iter().any(|q| q.policy == Policy::Drf) {
        set(
            "resource-calculator".into(),
            "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator".into(),
        );
    }
    set(
        "maximum-am-resource-percent".into(),
        java_float(FS_MAX_AM_SHARE_DEFAULT),
    );
    if let Some(n) = tree.user_max_apps_default {
        set("user.max-parallel-apps".into(), n.to_string());
    }
    for (user, n) in &tree.user_max_apps {
        set(format!("user.{user}.max-parallel-apps"), n.to_string());
    }
    for (i, q) in tree.queues.iter().enumerate() {
        let name = &q.name;
        if !q.children.is_empty() {
            let kids: Vec<&str> = q
                .children
                .iter()
                .map(|c| short(&tree.get(*c).name))
                .collect();
            set(format!("{name}.queues"), kids.join(","));
        }
        if q.max_am_share != FS_MAX_AM_SHARE_DEFAULT && q.max_am_share != 0.0 && q.is_leaf {
            let v = if q.max_am_share == -1.0 {
                1.0
            } else {
                q.max_am_share
            };
            set(format!("{name}.maximum-am-resource-percent"), java_float(v));
        }
        if let Some(n) = q.max_running_apps {
            set(format!("{name}.max-parallel-apps"), n.to_string());
        }
        for (child, capacity) in child_capacities(tree, QueueId(i as u32), mode)? {
            set(format!("{child}.capacity"), capacity);
        }
        set(format!("{name}.maximum-capacity"), "100".into());
        if q.is_leaf {
            let policy = match q.policy {
                Policy::Fair | Policy::Drf => "fair",
                Policy::Fifo => "fifo",
            };
            set(format!("{name}.ordering-policy"), policy.into());
        }
        if q.min_resources.resolve(fairsim_core::Resource::new(1, 1))
            != fairsim_core::Resource::ZERO
        {
            notes.push(format!(
                "{name}: minResources is not converted (the converter warns \"min resources \
                 ignored\")"
            ));
        }
        if q.max_resources.resolve(fairsim_core::Resource::new(1, 1))
            != fairsim_core::Resource::UNBOUNDED
            && q.parent.is_some()
        {
            notes.push(format!(
                "{name}: maxResources is not converted (maximum-capacity is 100; the converter \
                 warns \"max resources ignored\")"
            ));
        }
    }
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (k, v) in &props {
        xml.push_str(&format!(
            "  <property>\n    <name>{k}</name>\n    <value>{v}</value>\n  </property>\n"
        ));
    }
    xml.push_str("</configuration>\n");
    Ok(Fs2cs { xml, notes })
}

/// `(child's full name, capacity text)` for the children of `parent`.
fn child_capacities(
    tree: &QueueTree,
    parent: QueueId,
    mode: Fs2csMode,
) -> Result<Vec<(String, String)>, String> {
    let kids = &tree.get(parent).children;
    let weights: Vec<f32> = kids.iter().map(|c| tree.get(*c).weight).collect();
    let names: Vec<String> = kids.iter().map(|c| tree.get(*c).name.clone()).collect();
    if mode == Fs2csMode::Weight {
        return Ok(names
            .into_iter()
            .zip(weights)
            .map(|(n, w)| (n, format!("{}w", java_float(w))))
            .collect());
    }
    match kids.len() {
        0 => return Ok(vec![]),
        1 => return Ok(vec![(names[0].clone(), "100.000".into())]),
        _ => {}
    }
    // `(int) sum` of the weights as doubles.
    let total = weights.iter().map(|&w| f64::from(w)).sum::<f64>() as i64;
    if total == 0 {
        return Err(format!(
            "{}: its children's weights sum to less than 1: the converter divides by their \
             integer total, 0, and fails",
            tree.get(parent).name
        ));
    }
    // Thousandths of a percent: weight / total rounded half up to 1e-5, times 100.
    let thousandths: Vec<i64> = weights
        .iter()
        .map(|&w| {
            let exact = f64::from(w) * 100_000.0 / total as f64;
            (exact + 0.5).floor() as i64
        })
        .collect();
    let mut out = thousandths.clone();
    if thousandths.iter().sum::<i64>() != 100_000 {
        let others: i64 = thousandths[..thousandths.len() - 1].iter().sum();
        *out.last_mut().expect("two children or more") = 100_000 - others;
    }
    Ok(names
        .into_iter()
        .zip(out)
        .map(|(n, t)| {
            (
                n,
                format!("{}.{:03}", t.div_euclid(1000), t.rem_euclid(1000)),
            )
        })
        .collect())
}

fn short(name: &str) -> &str {
    name.rsplit('.').next().unwrap_or(name)
}

/// Java's `Float.toString` for the plain values weights and shares take (`0.25`, `1.0`).
fn java_float(v: f32) -> String {
    format!("{v:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alloc::parse_fair_scheduler_xml;
    use fairsim_core::Semantics;

    fn tree(xml: &str) -> QueueTree {
        parse_fair_scheduler_xml(xml, "fs.xml", Semantics::Hadoop33)
            .unwrap()
            .tree
    }

    #[test]
    fn percentages_divide_by_the_integer_total_and_fix_the_last() {
        // Under the root the file's three queues and root.default, weight 1 each: 25 %.
        let t = tree(
            "<allocations><queue name=\"a\"/><queue name=\"b\"/><queue name=\"c\"/></allocations>",
        );
        let caps = child_capacities(&t, QueueId::ROOT, Fs2csMode::Percentage).unwrap();
        let values: Vec<&str> = caps.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(values, vec!["25.000"; 4], "{caps:?}");
        // Weights 1, 1, 1 under p: 33.333 each, 99.999 in all, so the last becomes 33.334.
        let t = tree(
            "<allocations><queue name=\"p\"><queue name=\"a\"/><queue name=\"b\"/>\
             <queue name=\"c\"/></queue></allocations>",
        );
        let p = QueueId(t.queues.iter().position(|q| q.name == "root.p").unwrap() as u32);
        let caps = child_capacities(&t, p, Fs2csMode::Percentage).unwrap();
        let values: Vec<&str> = caps.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(values, vec!["33.333", "33.333", "33.334"]);
        // Weights 2 and 1: 66.667 and 33.333.
        let t = tree(
            "<allocations><queue name=\"p\"><queue name=\"a\"><weight>2</weight></queue>\
             <queue name=\"b\"/></queue></allocations>",
        );
        let p = QueueId(t.queues.iter().position(|q| q.name == "root.p").unwrap() as u32);
        let caps = child_capacities(&t, p, Fs2csMode::Percentage).unwrap();
        assert_eq!(
            caps,
            vec![
                ("root.p.a".to_string(), "66.667".to_string()),
                ("root.p.b".to_string(), "33.333".to_string())
            ]
        );
        // 0.3 and 0.3: the integer total is 0, where the converter fails.
        let t = tree(
            "<allocations><queue name=\"p\"><queue name=\"a\"><weight>0.3</weight></queue>\
             <queue name=\"b\"><weight>0.3</weight></queue></queue></allocations>",
        );
        let p = QueueId(t.queues.iter().position(|q| q.name == "root.p").unwrap() as u32);
        assert!(child_capacities(&t, p, Fs2csMode::Percentage).is_err());
        let caps = child_capacities(&t, p, Fs2csMode::Weight).unwrap();
        assert_eq!(caps[0].1, "0.3w");
    }
}
