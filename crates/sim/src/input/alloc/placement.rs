//! `queuePlacementPolicy`: its rules, YARN's default policy, and the checks YARN makes on
//! load (a rule after a terminal one, a last rule that can be passed, an unknown rule).

use super::AllocError;
use super::xml::Reader;
use crate::tree::PlacementRule;
use fairsim_core::Semantics;
use roxmltree::Node;

/// YARN's policy when the file has none, with the yarn-site defaults
/// (`user-as-default-queue` and `allow-undeclared-pools` both true): specified, then user.
pub fn default_policy() -> Vec<PlacementRule> {
    vec![
        PlacementRule::Specified { create: true },
        PlacementRule::User { create: true },
    ]
}

/// YARN's policy when the file has none (`QueuePlacementPolicy.fromConfiguration`):
/// `specified` (creating queues when undeclared pools are allowed), then `user` if users'
/// queues are the default, then `default` (which creates) unless both properties are true.
pub fn default_policy_with(
    user_as_default_queue: bool,
    allow_undeclared_pools: bool,
) -> Vec<PlacementRule> {
    let create = allow_undeclared_pools;
    let mut rules = vec![PlacementRule::Specified { create }];
    if user_as_default_queue {
        rules.push(PlacementRule::User { create });
    }
    if !user_as_default_queue || !create {
        rules.push(PlacementRule::Default {
            queue: "root.default".into(),
            create: true,
        });
    }
    rules
}

/// True when the rule always places or rejects, so no rule after it can run.
///
/// Hadoop 2.7's `QueuePlacementRule.isTerminal`: a `nestedUserQueue` never is. Hadoop 3.3
/// builds the rules through the placement framework since YARN-8967 and counts a
/// `nestedUserQueue` that may create its queue under a parent rule that always answers as
/// terminal too (a user rule with a parent), so a rule after it can never be reached:
/// Hadoop's own test resource `fair-scheduler-invalidplacementrules.xml` (specified,
/// nestedUserQueue under default, default) loads in 2.7 and is refused in 3.3.
pub fn is_terminal(rule: &PlacementRule, semantics: Semantics) -> bool {
    match rule {
        PlacementRule::Specified { .. }
        | PlacementRule::SecondaryGroupExistingQueue { .. }
        | PlacementRule::CapacityMapping { .. } => false,
        PlacementRule::NestedUserQueue { create, inner } => {
            semantics == Semantics::Hadoop33 && *create && is_terminal(inner, semantics)
        }
        PlacementRule::User { create } | PlacementRule::PrimaryGroup { create } => *create,
        PlacementRule::Default { .. } | PlacementRule::Reject => true,
    }
}

/// Reads a `queuePlacementPolicy` element.
pub fn parse_policy(
    r: &mut Reader<'_, '_>,
    policy: Node<'_, '_>,
    semantics: Semantics,
) -> Result<Vec<PlacementRule>, AllocError> {
    let mut rules = Vec::new();
    let mut nodes = Vec::new();
    for child in policy.children().filter(|n| n.is_element()) {
        if child.tag_name().name() != "rule" {
            r.warn(child, "only <rule> elements are read inside <queuePlacementPolicy>; yarn ignores this one");
            continue;
        }
        rules.push(parse_rule(r, child)?);
        nodes.push(child);
    }
    for (i, rule) in rules.iter().enumerate() {
        if is_terminal(rule, semantics) && i + 1 < rules.len() {
            return Err(r.invalid(
                nodes[i + 1],
                format!(
                    "rules after rule {} (\"{}\") can never be reached",
                    i + 1,
                    rule_name(rule)
                ),
            ));
        }
    }
    match rules.last() {
        None => Err(r.invalid(policy, "a placement policy needs at least one rule".to_string())),
        Some(last) if !is_terminal(last, semantics) => Err(r.invalid(
            nodes[nodes.len() - 1],
            format!(
                "an application could get past the last placement rule (\"{}\") without a queue; end with a terminal rule such as default or reject",
                rule_name(last)
            ),
        )),
        Some(_) => Ok(rules),
    }
}

fn rule_name(rule: &PlacementRule) -> &'static str {
    match rule {
        PlacementRule::Specified { .. } => "specified",
        PlacementRule::User { .. } => "user",
        PlacementRule::PrimaryGroup { .. } => "primaryGroup",
        PlacementRule::SecondaryGroupExistingQueue { .. } => "secondaryGroupExistingQueue",
        PlacementRule::NestedUserQueue { .. } => "nestedUserQueue",
        PlacementRule::Default { .. } => "default",
        PlacementRule::Reject => "reject",
        PlacementRule::CapacityMapping { .. } => "queue-mappings",
    }
}

fn parse_rule(r: &mut Reader<'_, '_>, node: Node<'_, '_>) -> Result<PlacementRule, AllocError> {
    let create = match node.attribute("create") {
        None => true,
        // Java's Boolean.parseBoolean: "true" in any case is true, anything else false.
        Some(v) => v.trim().eq_ignore_ascii_case("true"),
    };
    let name = node.attribute("name").unwrap_or("");
    Ok(match name {
        "specified" => PlacementRule::Specified { create },
        "user" => PlacementRule::User { create },
        "primaryGroup" => PlacementRule::PrimaryGroup { create },
        "secondaryGroupExistingQueue" => PlacementRule::SecondaryGroupExistingQueue { create },
        "nestedUserQueue" => {
            let inner = node
                .children()
                .find(|n| n.is_element() && n.tag_name().name() == "rule")
                .ok_or_else(|| {
                    r.invalid(node, "nestedUserQueue needs a nested <rule>".to_string())
                })?;
            let inner_rule = parse_rule(r, inner)?;
            if matches!(inner_rule, PlacementRule::Reject) {
                return Err(r.invalid(
                    inner,
                    "the rule nested in nestedUserQueue cannot be reject".to_string(),
                ));
            }
            PlacementRule::NestedUserQueue {
                create,
                inner: Box::new(inner_rule),
            }
        }
        "default" => {
            let q = node.attribute("queue").map(str::trim).unwrap_or("");
            let queue = if q.is_empty() {
                "root.default".to_string()
            } else if q == "root" || q.starts_with("root.") {
                q.to_string()
            } else {
                format!("root.{q}")
            };
            PlacementRule::Default { queue, create }
        }
        "reject" => PlacementRule::Reject,
        "" => return Err(r.invalid(node, "a rule needs a name attribute".to_string())),
        other => return Err(r.invalid(node, format!("no placement rule named \"{other}\""))),
    })
}
