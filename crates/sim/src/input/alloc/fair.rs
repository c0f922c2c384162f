//! `fair-scheduler.xml`: the `<allocations>` element, its scheduler-wide defaults, users,
//! the queue elements with their inheritance, and the placement policy.

use super::placement;
use super::resource_string::{Missing, parse_resource};
use super::xml::{Reader, parse_document};
use super::{AllocError, LoadedAlloc};
use crate::tree::{NewQueueDefaults, QueueConf, QueueId, QueueTree, ResourceSpec, SchedulerKind};
use fairsim_core::{Policy, Resource, Semantics};
use roxmltree::Node;
use std::collections::{BTreeMap, HashSet};

/// Deeper queue nesting than this is refused (it also bounds the reader's recursion).
const MAX_DEPTH: usize = 200;

/// Top-level defaults of the file (section 7.1 of the semantics notes).
struct Defaults {
    queue_max_apps: Option<u32>,
    queue_max_resources: Option<ResourceSpec>,
    queue_max_am_share: f32,
    min_share_timeout_ms: Option<u64>,
    fair_share_timeout_ms: Option<u64>,
    legacy_fair_share_timeout_ms: Option<u64>,
    fair_share_threshold: f32,
    policy: Policy,
}

/// One `<queue>` as written, before inheritance.
struct RawQueue<'a, 'i> {
    node: Node<'a, 'i>,
    full_name: String,
    /// The file names the queue (a `<queue>` element); false for the root and
    /// `root.default` that YARN builds when the file leaves them out.
    named: bool,
    parent_type: bool,
    reservable: bool,
    weight: Option<f32>,
    min: Option<ResourceSpec>,
    max: Option<ResourceSpec>,
    max_child: Option<ResourceSpec>,
    max_apps: Option<u32>,
    max_am_share: Option<(f32, Node<'a, 'i>)>,
    policy: Option<(Policy, Node<'a, 'i>)>,
    min_share_timeout_ms: Option<u64>,
    fair_share_timeout_ms: Option<u64>,
    fair_share_threshold: Option<f32>,
    allow_preemption_from: Option<bool>,
    children: Vec<RawQueue<'a, 'i>>,
}

impl<'a, 'i> RawQueue<'a, 'i> {
    fn synthetic(node: Node<'a, 'i>, full_name: &str) -> Self {
        RawQueue {
            node,
            full_name: full_name.to_string(),
            named: false,
            parent_type: false,
            reservable: false,
            weight: None,
            min: None,
            max: None,
            max_child: None,
            max_apps: None,
            max_am_share: None,
            policy: None,
            min_share_timeout_ms: None,
            fair_share_timeout_ms: None,
            fair_share_threshold: None,
            allow_preemption_from: None,
            children: Vec::new(),
        }
    }
}

/// Refuses a file declaring more queues than [`crate::limits::MAX_QUEUES`], before the
/// document is built (a 63 MB file can declare millions), naming the line of the first queue
/// past the limit.
pub(crate) fn check_queue_count(text: &str, file: &str) -> Result<(), AllocError> {
    let max = crate::limits::MAX_QUEUES as usize;
    let mut starts = text
        .match_indices("<queue")
        .chain(text.match_indices("<pool"))
        .filter(|(i, tag)| {
            text[i + tag.len()..]
                .starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
        })
        .map(|(i, _)| i)
        .collect::<Vec<_>>();
    if starts.len() <= max {
        return Ok(());
    }
    starts.sort_unstable();
    let at = starts[max];
    Err(AllocError::Invalid {
        file: file.to_string(),
        line: text[..at].matches('\n').count() as u32 + 1,
        element: "<queue>".into(),
        message: format!(
            "{} queues declared: the limit is {max} (docs/limits.md)",
            starts.len()
        ),
    })
}

/// Reads a fair-scheduler.xml text.
pub fn parse(text: &str, file: &str, semantics: Semantics) -> Result<LoadedAlloc, AllocError> {
    check_queue_count(text, file)?;
    let doc = parse_document(text, file)?;
    let mut r = Reader::new(file, &doc);
    let top = doc.root_element();
    if top.tag_name().name() != "allocations" {
        return Err(r.invalid(top, "the root element must be <allocations>"));
    }
    let h33 = semantics == Semantics::Hadoop33;
    let mut d = Defaults {
        queue_max_apps: None,
        queue_max_resources: None,
        queue_max_am_share: 0.5,
        min_share_timeout_ms: None,
        fair_share_timeout_ms: None,
        legacy_fair_share_timeout_ms: None,
        fair_share_threshold: 0.5,
        policy: Policy::Fair,
    };
    let mut queue_nodes = Vec::new();
    let mut user_max_apps = BTreeMap::new();
    let mut user_max_apps_default = None;
    let mut placement_rules = None;
    for el in top.children().filter(|n| n.is_element()) {
        match el.tag_name().name() {
            "queue" | "pool" => queue_nodes.push(el),
            "user" => {
                let name = el.attribute("name").unwrap_or("").trim();
                if name.is_empty() {
                    return Err(r.invalid(el, "a user needs a name attribute"));
                }
                for f in el.children().filter(|n| n.is_element()) {
                    if f.tag_name().name() == "maxRunningApps" {
                        let v = max_apps(&mut r, f)?;
                        user_max_apps.insert(name.to_string(), v);
                    } else {
                        r.warn(
                            f,
                            "yarn reads only <maxRunningApps> in a <user>; this element is ignored",
                        );
                    }
                }
            }
            "userMaxAppsDefault" => user_max_apps_default = Some(max_apps(&mut r, el)?),
            "queueMaxAppsDefault" => d.queue_max_apps = Some(max_apps(&mut r, el)?),
            "queueMaxResourcesDefault" if h33 => {
                d.queue_max_resources = Some(resource(&r, el, semantics, Missing::Unbounded)?)
            }
            "queueMaxAMShareDefault" => d.queue_max_am_share = float(&r, el)?.min(1.0),
            "defaultMinSharePreemptionTimeout" => d.min_share_timeout_ms = Some(seconds(&r, el)?),
            "defaultFairSharePreemptionTimeout" => d.fair_share_timeout_ms = Some(seconds(&r, el)?),
            "fairSharePreemptionTimeout" => d.legacy_fair_share_timeout_ms = Some(seconds(&r, el)?),
            "defaultFairSharePreemptionThreshold" => {
                d.fair_share_threshold = float(&r, el)?.clamp(0.0, 1.0)
            }
            "defaultQueueSchedulingPolicy" | "defaultQueueSchedulingMode" => {
                d.policy = policy(&r, el)?;
                if h33 && d.policy == Policy::Fifo {
                    return Err(r.invalid(
                        el,
                        "fifo cannot be the default queue policy under hadoop-3.3 (it is for leaf queues only)",
                    ));
                }
            }
            "queuePlacementPolicy" => {
                placement_rules = Some(placement::parse_policy(&mut r, el, semantics)?)
            }
            "reservation-agent" | "reservation-policy" | "reservation-planner" => {}
            _ => r.warn(
                el,
                "bad element in allocations file: yarn ignores it, and so does fairsim",
            ),
        }
    }
    if d.fair_share_timeout_ms.is_none() {
        d.fair_share_timeout_ms = d.legacy_fair_share_timeout_ms;
    }

    // A top-level queue named root (any case) holds every queue; otherwise the top-level
    // queues are root's children.
    let explicit_root = queue_nodes.iter().position(|n| {
        n.attribute("name")
            .is_some_and(|s| s.trim().eq_ignore_ascii_case("root"))
    });
    let mut root = match explicit_root {
        Some(i) => {
            if queue_nodes.len() > 1 {
                let other = queue_nodes[if i == 0 { 1 } else { 0 }];
                return Err(r.invalid(
                    other,
                    "when a root queue is configured no other queue may stand beside it",
                ));
            }
            read_queue(&mut r, queue_nodes[i], None, semantics, 0)?
        }
        None => {
            let mut root = RawQueue::synthetic(top, "root");
            for n in &queue_nodes {
                root.children
                    .push(read_queue(&mut r, *n, Some("root"), semantics, 1)?);
            }
            root
        }
    };
    // root.default always exists, as a leaf, even when the file does not name it.
    if !root.children.iter().any(|c| c.full_name == "root.default") {
        root.children.push(RawQueue::synthetic(top, "root.default"));
    }

    let mut queues = Vec::new();
    let mut seen = HashSet::new();
    let mut warned_fifo_default = false;
    let mut b = Builder {
        r: &mut r,
        d: &d,
        semantics,
        queues: &mut queues,
        seen: &mut seen,
        warned_fifo_default: &mut warned_fifo_default,
    };
    b.flatten(&root, None)?;

    let placement_given = placement_rules.is_some();
    let tree = QueueTree {
        queues,
        user_max_apps,
        user_max_apps_default,
        placement: placement_rules.unwrap_or_else(placement::default_policy),
        scheduler: SchedulerKind::Fair,
        resource_calculator: fairsim_core::Calculator::MemoryOnly,
        new_queue_defaults: NewQueueDefaults {
            policy: d.policy,
            max_running_apps: d.queue_max_apps,
            max_am_share: d.queue_max_am_share,
            max_resources: d.queue_max_resources,
        },
    };
    Ok(LoadedAlloc {
        tree,
        warnings: r.warnings,
        placement_given,
    })
}

/// Turns raw queues into resolved [`QueueConf`]s in pre-order.
struct Builder<'r, 'a, 'i> {
    r: &'r mut Reader<'a, 'i>,
    d: &'r Defaults,
    semantics: Semantics,
    queues: &'r mut Vec<QueueConf>,
    seen: &'r mut HashSet<String>,
    warned_fifo_default: &'r mut bool,
}

impl Builder<'_, '_, '_> {
    fn flatten(
        &mut self,
        raw: &RawQueue<'_, '_>,
        parent: Option<QueueId>,
    ) -> Result<QueueId, AllocError> {
        if !self.seen.insert(raw.full_name.clone()) {
            return Err(self.r.invalid(
                raw.node,
                format!("queue {} is configured twice", raw.full_name),
            ));
        }
        let h33 = self.semantics == Semantics::Hadoop33;
        let id = QueueId(self.queues.len() as u32);
        // Only the inherited settings, not the parent's (possibly long) child list.
        let parent_conf = parent.map(|p| {
            let pc = &self.queues[p.idx()];
            QueueConf {
                children: Vec::new(),
                ..QueueConf::new(pc.name.clone(), pc.parent)
            }
            .inherit_from(pc)
        });
        let mut q = QueueConf::new(raw.full_name.clone(), parent);
        // Hadoop 2.7's placement rules see only the queues the file names
        // (`AllocationConfiguration.configuredQueues`); Hadoop 3.3's see every queue that is
        // not dynamic, and the root is made static when the queue manager starts.
        q.configured = raw.named || (h33 && parent.is_none());
        q.is_leaf = raw.children.is_empty() && !raw.parent_type;
        q.reservable = raw.reservable;
        q.weight = raw.weight.unwrap_or(1.0);
        q.min_resources = raw.min.unwrap_or(ResourceSpec::Absolute(Resource::ZERO));
        q.max_resources = raw
            .max
            .or(self.d.queue_max_resources)
            .unwrap_or(ResourceSpec::Absolute(Resource::UNBOUNDED));
        q.max_child_resources = raw.max_child;
        q.max_running_apps = raw.max_apps.or(self.d.queue_max_apps);
        if let Some((v, node)) = raw.max_am_share {
            if h33 && !q.is_leaf {
                return Err(self.r.invalid(
                    node,
                    format!(
                        "maxAMShare is for leaf queues only and {} is a parent: Hadoop 3.3.1 \
                         and later refuse the file (YARN-10528; Hadoop's own example file has \
                         one, which 2.7 ignores); set it on the leaves, or run hadoop-2.7",
                        q.name
                    ),
                ));
            }
            if !q.is_leaf {
                // Hadoop 2.7 reads it and no parent checks it: said, not silently dropped.
                self.r.warn(
                    node,
                    format!(
                        "{} is a parent queue: hadoop-2.7 reads maxAMShare but checks it on \
                         leaves only, so it has no effect here (Hadoop 3.3.1 and later refuse \
                         the file, YARN-10528)",
                        q.name
                    ),
                );
            }
            q.max_am_share = v;
        } else {
            q.max_am_share = self.d.queue_max_am_share;
        }
        q.policy = match raw.policy {
            Some((Policy::Fifo, node)) if !q.is_leaf => {
                return Err(self.r.invalid(
                    node,
                    format!("fifo is for leaf queues only and {} is a parent", q.name),
                ));
            }
            Some((p, _)) => p,
            None if self.d.policy == Policy::Fifo && !q.is_leaf => {
                // Hadoop 2.7 refuses the policy on a parent, logs it and keeps fair.
                if !*self.warned_fifo_default {
                    *self.warned_fifo_default = true;
                    self.r.warn(
                        raw.node,
                        "the default policy fifo cannot apply to parent queues; they keep fair, as yarn does",
                    );
                }
                Policy::Fair
            }
            None => self.d.policy,
        };
        if let Some(pc) = &parent_conf
            && h33
            && q.policy == Policy::Drf
            && pc.policy == Policy::Fair
        {
            let (node, how) = match raw.policy {
                Some((_, node)) => (node, "uses"),
                None => (raw.node, "inherits from defaultQueueSchedulingPolicy"),
            };
            return Err(self.r.invalid(
                    node,
                    format!(
                        "{} {how} drf under the fair parent {}; hadoop-3.3 does not create such a queue, so fairsim refuses the file",
                        q.name, pc.name
                    ),
                ));
        }
        match &parent_conf {
            Some(pc) => {
                q.min_share_preemption_timeout_ms = raw
                    .min_share_timeout_ms
                    .or(pc.min_share_preemption_timeout_ms);
                q.fair_share_preemption_timeout_ms = raw
                    .fair_share_timeout_ms
                    .or(pc.fair_share_preemption_timeout_ms);
                q.fair_share_preemption_threshold = raw
                    .fair_share_threshold
                    .unwrap_or(pc.fair_share_preemption_threshold);
                q.allow_preemption_from =
                    pc.allow_preemption_from && raw.allow_preemption_from.unwrap_or(true);
            }
            None => {
                q.min_share_preemption_timeout_ms =
                    raw.min_share_timeout_ms.or(self.d.min_share_timeout_ms);
                q.fair_share_preemption_timeout_ms =
                    raw.fair_share_timeout_ms.or(self.d.fair_share_timeout_ms);
                q.fair_share_preemption_threshold = raw
                    .fair_share_threshold
                    .unwrap_or(self.d.fair_share_threshold);
                q.allow_preemption_from = raw.allow_preemption_from.unwrap_or(true);
            }
        }
        q.max_raised_to_min = h33;
        if let (ResourceSpec::Absolute(min), ResourceSpec::Absolute(max)) =
            (q.min_resources, q.max_resources)
            && !min.fits_in(max)
        {
            let msg = if h33 {
                format!(
                    "maxResources of {} is below its minResources: hadoop-3.3 raises the max to the min (FSQueue.getMaxShare), giving {} MB, {} vcores",
                    q.name,
                    max.memory_mb.max(min.memory_mb),
                    max.vcores.max(min.vcores)
                )
            } else {
                format!(
                    "minResources of {} does not fit in its maxResources (yarn only logs this; hadoop-2.7 keeps the max)",
                    q.name
                )
            };
            self.r.warn(raw.node, msg);
        }
        self.queues.push(q);
        if let Some(p) = parent {
            self.queues[p.idx()].children.push(id);
        }
        for c in &raw.children {
            self.flatten(c, Some(id))?;
        }
        Ok(id)
    }
}

impl QueueConf {
    /// This queue with `pc`'s inheritable settings copied in.
    fn inherit_from(mut self, pc: &QueueConf) -> QueueConf {
        self.policy = pc.policy;
        self.min_share_preemption_timeout_ms = pc.min_share_preemption_timeout_ms;
        self.fair_share_preemption_timeout_ms = pc.fair_share_preemption_timeout_ms;
        self.fair_share_preemption_threshold = pc.fair_share_preemption_threshold;
        self.allow_preemption_from = pc.allow_preemption_from;
        self
    }
}

/// Reads one `<queue>`/`<pool>` element and its subtree.
fn read_queue<'a, 'i>(
    r: &mut Reader<'a, 'i>,
    node: Node<'a, 'i>,
    parent: Option<&str>,
    semantics: Semantics,
    depth: usize,
) -> Result<RawQueue<'a, 'i>, AllocError> {
    if depth > MAX_DEPTH {
        return Err(r.invalid(node, format!("queues nest deeper than {MAX_DEPTH} levels")));
    }
    let h33 = semantics == Semantics::Hadoop33;
    let name = node.attribute("name").unwrap_or("").trim();
    if name.is_empty() {
        return Err(r.invalid(node, "queue name must not be empty or blank"));
    }
    if name.contains('.') {
        return Err(r.invalid(node, "queue name must not contain '.'"));
    }
    let full_name = match parent {
        Some(p) => format!("{p}.{name}"),
        None => "root".to_string(),
    };
    let mut q = RawQueue::synthetic(node, &full_name);
    q.named = true;
    q.parent_type = node.attribute("type") == Some("parent");
    for f in node.children().filter(|n| n.is_element()) {
        let tag = f.tag_name().name();
        match tag {
            "minResources" => {
                let spec = resource(r, f, semantics, Missing::Zero)?;
                if matches!(spec, ResourceSpec::Percent { .. }) {
                    return Err(r.invalid(
                        f,
                        "minResources must be absolute: yarn keeps no absolute value for a percentage",
                    ));
                }
                q.min = Some(spec);
            }
            "maxResources" => q.max = Some(resource(r, f, semantics, Missing::Unbounded)?),
            "maxChildResources" if h33 => {
                q.max_child = Some(resource(r, f, semantics, Missing::Unbounded)?)
            }
            "maxRunningApps" => q.max_apps = Some(max_apps(r, f)?),
            "maxAMShare" => q.max_am_share = Some((float(r, f)?.min(1.0), f)),
            "weight" => {
                let w = r.value(f, "a number", |s| {
                    s.parse::<f64>().ok().filter(|v| v.is_finite())
                })?;
                if w < 0.0 {
                    return Err(r.invalid(f, "weight must not be negative"));
                }
                // Parsed as a double, stored as a float, as YARN does: a weight beyond the
                // float range (1e39) would be infinite there, and is refused here.
                let w = crate::limits::limit("fair-scheduler.xml", "weight")
                    .check_float(w)
                    .map_err(|m| r.invalid(f, m))?;
                q.weight = Some(w as f32);
            }
            "minSharePreemptionTimeout" => q.min_share_timeout_ms = Some(seconds(r, f)?),
            "fairSharePreemptionTimeout" => q.fair_share_timeout_ms = Some(seconds(r, f)?),
            "fairSharePreemptionThreshold" => {
                q.fair_share_threshold = Some(float(r, f)?.clamp(0.0, 1.0))
            }
            "schedulingPolicy" | "schedulingMode" => q.policy = Some((policy(r, f)?, f)),
            "aclSubmitApps" | "aclAdministerApps" => {}
            "aclAdministerReservations" | "aclListReservations" | "aclSubmitReservations"
                if h33 => {}
            "reservation" => q.reservable = true,
            "allowPreemptionFrom" if h33 => {
                // Java's Boolean.parseBoolean.
                q.allow_preemption_from = Some(r.text(f).eq_ignore_ascii_case("true"));
            }
            "maxContainerAllocation" if h33 => {
                resource(r, f, semantics, Missing::Unbounded)?;
                r.warn(f, "fairsim does not model maxContainerAllocation; ignored");
            }
            "maxChildResources"
            | "allowPreemptionFrom"
            | "maxContainerAllocation"
            | "aclAdministerReservations"
            | "aclListReservations"
            | "aclSubmitReservations" => {
                r.warn(f, "hadoop-2.7 does not read this element; ignored")
            }
            // YARN's child test is "queue ends with the tag", so <e> or <ueue> are queues too.
            t if (!t.is_empty() && "queue".ends_with(t)) || t == "pool" => {
                if t != "queue" && t != "pool" {
                    r.warn(f, "yarn reads this element as a child queue (its tag is a suffix of \"queue\")");
                }
                let child = read_queue(r, f, Some(&full_name), semantics, depth + 1)?;
                q.children.push(child);
            }
            _ => r.warn(
                f,
                "unknown queue element: yarn ignores it, and so does fairsim",
            ),
        }
    }
    if q.reservable && (q.parent_type || !q.children.is_empty()) {
        return Err(r.invalid(
            node,
            "a queue with child queues or type=\"parent\" cannot also hold a <reservation> element",
        ));
    }
    Ok(q)
}

fn resource(
    r: &Reader<'_, '_>,
    node: Node<'_, '_>,
    semantics: Semantics,
    missing: Missing,
) -> Result<ResourceSpec, AllocError> {
    parse_resource(r.text(node), semantics, missing).map_err(|m| r.invalid(node, m))
}

/// `maxRunningApps` and friends: a Java int. A negative limit lets no app run, which is the
/// same as 0.
fn max_apps(r: &mut Reader<'_, '_>, node: Node<'_, '_>) -> Result<u32, AllocError> {
    let v = r.value(node, "an integer", |s| s.parse::<i32>().ok())?;
    if v < 0 {
        r.warn(node, "a negative limit lets no application run; read as 0");
    }
    Ok(v.max(0) as u32)
}

/// A Java float that must be a number (NaN and infinities refused).
fn float(r: &Reader<'_, '_>, node: Node<'_, '_>) -> Result<f32, AllocError> {
    r.value(node, "a number", |s| {
        s.parse::<f32>().ok().filter(|v| v.is_finite())
    })
}

/// A timeout in whole seconds, returned in ms.
fn seconds(r: &Reader<'_, '_>, node: Node<'_, '_>) -> Result<u64, AllocError> {
    let s = r.value(node, "a whole number of seconds", |s| s.parse::<i64>().ok())?;
    if s < 0 {
        return Err(r.invalid(node, "a timeout must not be negative"));
    }
    Ok((s as u64).saturating_mul(1000))
}

fn policy(r: &Reader<'_, '_>, node: Node<'_, '_>) -> Result<Policy, AllocError> {
    const PKG: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.";
    let text = r.text(node);
    if let Ok(p) = text.parse::<Policy>() {
        return Ok(p);
    }
    match text.strip_prefix(PKG) {
        Some("FairSharePolicy") => Ok(Policy::Fair),
        Some("DominantResourceFairnessPolicy") => Ok(Policy::Drf),
        Some("FifoPolicy") => Ok(Policy::Fifo),
        _ => Err(r.invalid(
            node,
            format!("unknown scheduling policy \"{text}\" (expected fair, drf or fifo)"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_queues_than_the_limit_are_refused_before_parsing() {
        let max = crate::limits::MAX_QUEUES as usize;
        let mut text = String::from("<allocations>\n");
        for i in 0..=max {
            text.push_str(&format!("<queue name=\"q{i}\"/>\n"));
        }
        text.push_str("<queueMaxAppsDefault>5</queueMaxAppsDefault>\n</allocations>\n");
        let e = parse(&text, "big.xml", Semantics::Hadoop27)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with(&format!(
                "big.xml:{}: <queue>: {} queues declared: the limit is {max}",
                max + 2,
                max + 1
            )),
            "{e}"
        );
        // At the limit the file is read.
        let at_limit = text.replacen("<queue name=\"q0\"/>\n", "", 1);
        if let Err(e) = parse(&at_limit, "big.xml", Semantics::Hadoop27) {
            panic!("{e}")
        }
    }
}
