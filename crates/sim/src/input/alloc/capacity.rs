//! `capacity-scheduler.xml`: a Hadoop `<configuration>` of `<property>` name/value pairs,
//! read for the queue hierarchy and the per-queue settings fairsim simulates. Values are read
//! as Hadoop's `Configuration` getters read them (`${...}` substituted when a property is
//! read, Java's number syntax: `crate::hadoop_conf`), and the file is refused wherever the
//! ResourceManager would refuse to start on it.

use super::capacity_forms::{CapacityValue, Mode, SiblingForm, capacity_value, siblings_mode};
use super::xml::{Reader, parse_document};
use super::{AllocError, LoadedAlloc};
use crate::hadoop_conf::{expand, values};
use crate::model::cs_settings::CapacityForm;
use crate::tree::{OrderingPolicy, PlacementRule, QueueConf, QueueId, QueueTree, SchedulerKind};
use fairsim_core::{Calculator, Resource, Semantics};
use roxmltree::Node;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashSet};

mod auto_template;

const PREFIX: &str = "yarn.scheduler.capacity.";
const MAX_DEPTH: usize = 200;
/// `ParentQueue.PRECISION` (the same in hadoop-2.7 and 3.3): children's capacities, as
/// fractions of 1 summed in Java floats, may differ from 1 by this much.
const PRECISION: f32 = 0.0005;
/// Per-queue property suffixes checked against the queue list.
const QUEUE_SUFFIXES: &[&str] = &[
    "queues",
    "capacity",
    "maximum-capacity",
    "user-limit-factor",
    "minimum-user-limit-percent",
    "ordering-policy",
    "maximum-am-resource-percent",
    "maximum-applications",
    "max-parallel-apps",
    "state",
    "ordering-policy.fair.enable-size-based-weight",
    "allow-zero-capacity-sum",
];

/// Why a property fairsim does not read is ignored, by what its name holds; the warning
/// names the property and its line, so a run is never silently different from the cluster
/// the file describes.
const NOT_READ: &[(&str, &str)] = &[
    ("acl_", "queue ACLs are not modelled"),
    ("node-label", "node labels are not modelled"),
    ("accessible-node-labels", "node labels are not modelled"),
    (
        "auto-queue-creation",
        "flexible (v2) auto queue creation is Hadoop 3.4.0's: neither Hadoop 2.7 nor 3.3 \
         reads it (their ResourceManager, like fairsim, rejects an app naming a queue that \
         does not exist)",
    ),
    (
        "auto-expired-deletion-time",
        "the deletion of idle dynamic queues is Hadoop 3.4.0's: neither Hadoop 2.7 nor 3.3 \
         reads it (3.3's auto-created leaves are never deleted)",
    ),
    (
        "leaf-queue-template",
        "read only on a queue with auto-create-child-queue.enabled = true, and of its \
         template only capacity, maximum-capacity, user-limit-factor, \
         minimum-user-limit-percent, ordering-policy (with its size-based weight), \
         maximum-am-resource-percent and maximum-applications: the rest is not modelled",
    ),
    (
        "auto-create",
        "read only on a queue with auto-create-child-queue.enabled = true (with max-queues, \
         fail-on-exceeding-parent-capacity and management-policy); the rest is not modelled",
    ),
    (
        "preemption",
        "per-queue preemption switches are not modelled",
    ),
    (
        "maximum-allocation",
        "per-queue maximum allocations are not modelled (the scheduler's applies)",
    ),
    ("priority", "application priorities are not modelled"),
    ("lifetime", "application lifetimes are not modelled"),
    (
        "locality",
        "read from the scenario (`node_locality_delay`) or a yarn-site.xml, not from the allocation file",
    ),
    ("user-settings", "per-user weights are not modelled"),
    (
        "mapping-rule",
        "the JSON placement rules are Hadoop 3.4.0's: neither Hadoop 2.7 nor 3.3 reads them \
         (their ResourceManager, like fairsim, places an app by queue-mappings and the queue \
         it names)",
    ),
    (
        "reservations-continue-looking",
        "Hadoop reads no property of that name: the switch is \
         yarn.scheduler.capacity.reservations-continue-look-all-nodes",
    ),
    ("reservation", "reservations are not modelled"),
];

/// One `<property>`: its value (as written in the map; substituted and trimmed once read
/// with [`Props::get`]) and where it is.
#[derive(Clone)]
struct Prop<'a, 'i> {
    value: String,
    node: Node<'a, 'i>,
}

struct Props<'r, 'a, 'i> {
    r: &'r Reader<'a, 'i>,
    map: BTreeMap<String, Prop<'a, 'i>>,
    /// The era reading the file: the getters' syntax differs between them.
    semantics: Semantics,
    /// Every property looked up: the others are named in a warning.
    read: RefCell<BTreeSet<String>>,
    /// Warnings found while reading, with the property's element.
    notes: RefCell<Vec<(Node<'a, 'i>, String)>>,
}

impl<'a, 'i> Props<'_, 'a, 'i> {
    /// The property as Hadoop's `getTrimmed` returns it: `${...}` substituted, then trimmed;
    /// a substitution Hadoop fails on is refused at the property's line.
    fn get(&self, name: &str) -> Result<Option<Prop<'a, 'i>>, AllocError> {
        Ok(self.get_untrimmed(name)?.map(|p| Prop {
            value: values::java_trim(&p.value).to_string(),
            node: p.node,
        }))
    }

    /// The property as Hadoop's `get` returns it: `${...}` substituted, not trimmed (the
    /// queue state and the ordering policy's class name are read so).
    fn get_untrimmed(&self, name: &str) -> Result<Option<Prop<'a, 'i>>, AllocError> {
        self.read.borrow_mut().insert(name.to_string());
        let Some(p) = self.map.get(name) else {
            return Ok(None);
        };
        let value = expand::substitute(
            &p.value,
            |n| self.map.get(n).map(|q| q.value.as_str()),
            self.semantics,
        )
        .map_err(|e| self.invalid_at(p.node, name, e.message()))?;
        Ok(Some(Prop {
            value,
            node: p.node,
        }))
    }

    fn invalid(&self, name: &str, message: impl Into<String>) -> AllocError {
        match self.map.get(name) {
            Some(p) => self.invalid_at(p.node, name, message),
            None => AllocError::Invalid {
                file: self.r.file.to_string(),
                line: 1,
                element: format!("<property> {name}"),
                message: message.into(),
            },
        }
    }

    fn invalid_at(&self, node: Node<'_, '_>, name: &str, message: impl Into<String>) -> AllocError {
        AllocError::Invalid {
            file: self.r.file.to_string(),
            line: self.r.line(node),
            element: format!("<property> {name}"),
            message: message.into(),
        }
    }

    /// A float property checked against its row of the limits table (`row`).
    fn limited(&self, name: &str, row: &str) -> Result<Option<f64>, AllocError> {
        let Some(v) = self.float(name)? else {
            return Ok(None);
        };
        crate::limits::limit("capacity-scheduler.xml", row)
            .check_float(v)
            .map(Some)
            .map_err(|m| self.invalid(name, m))
    }

    /// `getFloat`: Java's `Float.parseFloat`. Hadoop's range checks let NaN through (every
    /// comparison with it is false) and then computes with it; fairsim refuses it rather than
    /// guess what those computations give.
    fn float(&self, name: &str) -> Result<Option<f64>, AllocError> {
        let Some(p) = self.get(name)? else {
            return Ok(None);
        };
        let v = values::float(&p.value).map_err(|m| self.invalid(name, m))?;
        if v.is_nan() {
            return Err(self.invalid(
                name,
                "NaN: Hadoop's range checks let it through and its capacity arithmetic then \
                 yields NaN; fairsim does not simulate that",
            ));
        }
        Ok(Some(v))
    }
}

/// Reads a capacity-scheduler.xml text as `semantics` reads it.
pub fn parse(text: &str, file: &str, semantics: Semantics) -> Result<LoadedAlloc, AllocError> {
    let doc = parse_document(text, file)?;
    let mut r = Reader::new(file, &doc);
    let top = doc.root_element();
    if top.tag_name().name() != "configuration" {
        return Err(r.invalid(top, "the root element must be <configuration>"));
    }
    let mut map = BTreeMap::new();
    for el in top.children().filter(|n| n.is_element()) {
        if el.tag_name().name() != "property" {
            r.warn(
                el,
                "only <property> elements are read in a hadoop configuration",
            );
            continue;
        }
        let field = |tag: &str| {
            el.children()
                .find(|n| n.is_element() && n.tag_name().name() == tag)
                .map(|n| n.text().unwrap_or("").to_string())
        };
        let Some(name) = field("name")
            .map(|n| values::java_trim(&n).to_string())
            .filter(|n| !n.is_empty())
        else {
            return Err(r.invalid(el, "a property needs a <name>"));
        };
        let value = field("value").unwrap_or_default();
        if map.contains_key(&name) {
            r.warn(
                el,
                format!("{name} is set twice; the last value wins, as in hadoop"),
            );
        }
        map.insert(name, Prop { value, node: el });
    }
    let props = Props {
        r: &r,
        map,
        semantics,
        read: RefCell::new(BTreeSet::new()),
        notes: RefCell::new(Vec::new()),
    };

    let calc_name = format!("{PREFIX}resource-calculator");
    let resource_calculator = match props.get(&calc_name)? {
        None => Calculator::MemoryOnly,
        Some(p) if p.value.ends_with("DominantResourceCalculator") => Calculator::Dominant,
        Some(p) if p.value.ends_with("DefaultResourceCalculator") => Calculator::MemoryOnly,
        Some(p) => {
            return Err(props.invalid(
                &calc_name,
                format!("unknown resource calculator \"{}\"", p.value),
            ));
        }
    };
    let am_name = format!("{PREFIX}maximum-am-resource-percent");
    let am_default = props
        .limited(&am_name, "maximum-am-resource-percent")?
        .unwrap_or(0.1);

    let root_queues = format!("{PREFIX}root.queues");
    let root = props.get(&root_queues)?;
    if root.is_none() && !props.map.keys().any(|k| k.starts_with(PREFIX)) {
        // A configuration file of another kind, given where an allocation file goes.
        return Err(r.invalid(
            top,
            format!(
                "holds no {PREFIX}* property: this is a yarn-site.xml or an sls-runner.xml, \
                 not a capacity-scheduler.xml (name it in the scenario with \
                 `scheduler.yarn_site`; an allocation file is a fair-scheduler.xml or a \
                 capacity-scheduler.xml)"
            ),
        ));
    }
    match root {
        None => {
            return Err(props.invalid(
                &root_queues,
                "the file must list root's queues in this property",
            ));
        }
        Some(p) if queue_names(&p.value).is_empty() => {
            return Err(props.invalid(
                &root_queues,
                "lists no queue: YARN refuses to start (\"Queue configuration missing child \
                 queue names for root\")",
            ));
        }
        Some(_) => {}
    }
    let system_apps_key = format!("{PREFIX}maximum-applications");
    let system_apps = match props.get(&system_apps_key)? {
        None => 10_000,
        Some(p) => values::int(&p.value).map_err(|m| props.invalid(&system_apps_key, m))? as i32,
    };
    let globals = Globals {
        am_default,
        system_apps,
        continue_looking: continue_looking(&props)?,
        parallel_default: parallel_apps(&props, &format!("{PREFIX}max-parallel-apps"))?,
        calc: resource_calculator,
    };
    let mut queues = Vec::new();
    build(&props, "root", None, None, &globals, &mut queues, 0)?;
    let (user_max_apps, user_max_apps_default) = user_parallel_apps(&props)?;

    // A per-queue property of a queue no `.queues` lists makes no queue in YARN, which never
    // reads it: warned (a misspelt path is a common slip), not refused.
    let known: HashSet<&str> = queues.iter().map(|q| q.name.as_str()).collect();
    for name in props.map.keys() {
        let Some(rest) = name.strip_prefix(PREFIX) else {
            continue;
        };
        // Templates' properties end as a queue's do (`...leaf-template.capacity`).
        if !rest.starts_with("root.")
            || rest.contains(".leaf-queue-template.")
            || rest.contains(".auto-queue-creation-v2.")
        {
            continue;
        }
        let Some((path, suffix)) = rest.rsplit_once('.') else {
            continue;
        };
        if QUEUE_SUFFIXES.contains(&suffix) && !known.contains(path) {
            props.note(
                name,
                format!(
                    "{name}: queue {path} is not listed in any {PREFIX}<parent>.queues \
                     property: YARN builds no such queue and never reads the property; ignored"
                ),
            );
            props.read.borrow_mut().insert(name.clone());
        }
    }
    // Apps name a leaf by its short name, so leaf names must be unique (as YARN requires).
    let mut leaves: BTreeMap<&str, &str> = BTreeMap::new();
    for q in queues.iter().filter(|q| q.is_leaf && q.parent.is_some()) {
        let short = q.name.rsplit('.').next().unwrap_or(&q.name);
        if let Some(first) = leaves.insert(short, &q.name) {
            let parent = q.name.rsplit_once('.').map_or("root", |(p, _)| p);
            return Err(props.invalid(
                &format!("{PREFIX}{parent}.queues"),
                format!(
                    "two leaf queues are named {short} ({first} and {}); leaf queue names must be distinct",
                    q.name
                ),
            ));
        }
    }
    let (placement, override_warning) = queue_mappings(&props, &queues)?;
    let mut notes = not_read(&props);
    notes.extend(props.notes.borrow_mut().drain(..));
    drop(props);
    for (node, message) in notes.into_iter().chain(override_warning) {
        r.warn(node, message);
    }
    let tree = QueueTree {
        queues,
        user_max_apps,
        user_max_apps_default,
        placement,
        scheduler: SchedulerKind::Capacity,
        resource_calculator,
        new_queue_defaults: Default::default(),
    };
    Ok(LoadedAlloc {
        tree,
        warnings: r.warnings,
        placement_given: true,
    })
}

/// `queue-mappings` as placement entries; each target must be a leaf (by its name) unless it
/// is `%user` or `%primary_group`, as YARN checks at start-up. With them, the warning for an
/// override flag Hadoop's `getBoolean` does not recognise (it keeps the default, false).
#[allow(clippy::type_complexity)]
fn queue_mappings<'a, 'i>(
    props: &Props<'_, 'a, 'i>,
    queues: &[QueueConf],
) -> Result<(Vec<PlacementRule>, Option<(Node<'a, 'i>, String)>), AllocError> {
    let key = format!("{PREFIX}queue-mappings");
    let override_key = format!("{PREFIX}queue-mappings-override.enable");
    let mut warning = None;
    let override_named = match props.get(&override_key)? {
        None => false,
        Some(p) => values::boolean(&p.value).unwrap_or_else(|| {
            warning = Some((
                p.node,
                format!(
                    "{override_key}: \"{}\" is neither true nor false: Hadoop's getBoolean keeps \
                     the default, false",
                    p.value
                ),
            ));
            false
        }),
    };
    let Some(p) = props.get(&key)? else {
        return Ok((Vec::new(), warning));
    };
    let mut rules = Vec::new();
    for entry in p.value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
        let parts: Vec<&str> = entry.split(':').map(str::trim).collect();
        let [kind, source, queue] = parts[..] else {
            return Err(props.invalid(
                &key,
                format!("mapping \"{entry}\" is not u:user:queue or g:group:queue"),
            ));
        };
        let group = match kind {
            "u" => false,
            "g" => true,
            _ => {
                return Err(props.invalid(
                    &key,
                    format!("mapping \"{entry}\" has type \"{kind}\" (expected u or g)"),
                ));
            }
        };
        if source.is_empty() || queue.is_empty() {
            return Err(props.invalid(&key, format!("mapping \"{entry}\" has an empty part")));
        }
        let is_leaf = queues
            .iter()
            .any(|q| q.is_leaf && q.name.rsplit('.').next() == Some(queue));
        // `parent.leaf`: a leaf the parent creates (Hadoop 3.3, a parent that auto-creates,
        // named by its short name or its path).
        let auto_created = queue.rsplit_once('.').is_some_and(|(parent, leaf)| {
            !leaf.is_empty()
                && queues.iter().any(|q| {
                    q.cs.auto_create.is_some()
                        && (q.name == parent || q.name.rsplit('.').next() == Some(parent))
                })
        });
        if !is_leaf && !auto_created && queue != "%user" && queue != "%primary_group" {
            return Err(props.invalid(
                &key,
                format!("mapping \"{entry}\" names {queue}, which is not a leaf queue"),
            ));
        }
        rules.push(PlacementRule::CapacityMapping {
            group,
            source: source.to_string(),
            queue: queue.to_string(),
            override_named,
        });
    }
    Ok((rules, warning))
}

/// `minimum-user-limit-percent` (default 100). Hadoop 3.3's
/// `CapacitySchedulerConfiguration.getUserLimit` reads it with `getFloat`, so a decimal such as
/// 50.1 is kept exactly (as a Java float); Hadoop 2.7's reads it with `getInt`, whose
/// `Integer.parseInt` throws on a decimal and stops the ResourceManager at start-up, so the
/// 2.7 era refuses it. Both eras check the 1 to 100 range of the limits table.
fn user_limit_percent(
    props: &Props<'_, '_, '_>,
    name: &str,
    semantics: Semantics,
) -> Result<f32, AllocError> {
    let Some(p) = props.get(name)? else {
        return Ok(100.0);
    };
    let text = p.value.as_str();
    let value = match semantics {
        Semantics::Hadoop27 => values::int(text).map(|v| v as f64).map_err(|_| {
            props.invalid(
                name,
                format!(
                    "\"{text}\" is not an integer: hadoop-2.7 reads minimum-user-limit-percent as a Java int and fails to start on it (hadoop-3.3 reads a float)"
                ),
            )
        })?,
        Semantics::Hadoop33 => {
            let v = values::float(text).map_err(|m| props.invalid(name, m))?;
            f64::from(v as f32)
        }
    };
    crate::limits::limit("capacity-scheduler.xml", "minimum-user-limit-percent")
        .check_float(value)
        .map(|v| v as f32)
        .map_err(|m| props.invalid(name, m))
}

/// Scheduler-wide settings every queue reads a default from.
struct Globals {
    /// `maximum-am-resource-percent`.
    am_default: f64,
    /// `maximum-applications`.
    system_apps: i32,
    /// `reservations-continue-look-all-nodes`.
    continue_looking: bool,
    /// `max-parallel-apps` (Hadoop 3.3).
    parallel_default: Option<u32>,
    /// `resource-calculator`, for the start-up comparisons of absolute resources.
    calc: Calculator,
}

/// `reservations-continue-look-all-nodes`, read by both eras with `getBoolean` (default
/// true): trimmed, `true` or `false` in any case; any other text keeps the default, with a
/// warning at its line, since a misspelt `false` would otherwise change the run unseen.
fn continue_looking(props: &Props<'_, '_, '_>) -> Result<bool, AllocError> {
    let key = format!("{PREFIX}reservations-continue-look-all-nodes");
    let Some(p) = props.get(&key)? else {
        return Ok(true);
    };
    Ok(values::boolean(&p.value).unwrap_or_else(|| {
        props.note(
            &key,
            format!(
                "{key}: \"{}\" is neither true nor false: Hadoop's getBoolean keeps the default, \
                 true",
                p.value
            ),
        );
        true
    }))
}

/// A `max-parallel-apps` property (Hadoop 3.3's `getInt`; `Integer.MAX_VALUE` or absent is no
/// limit). Hadoop 2.7 has no such property: it is left unread there (and warned about).
fn parallel_apps(props: &Props<'_, '_, '_>, name: &str) -> Result<Option<u32>, AllocError> {
    if props.semantics == Semantics::Hadoop27 {
        return Ok(None);
    }
    let Some(p) = props.get(name)? else {
        return Ok(None);
    };
    let v = values::int(&p.value).map_err(|m| props.invalid(name, m))?;
    if v < 0 {
        return Err(props.invalid(
            name,
            format!("{v} is negative: no application of the queue could ever run"),
        ));
    }
    Ok((v < i64::from(i32::MAX)).then_some(v as u32))
}

/// Hadoop 3.3's per-user `max-parallel-apps`: `user.<name>.max-parallel-apps`, else
/// `user.max-parallel-apps`.
#[allow(clippy::type_complexity)]
fn user_parallel_apps(
    props: &Props<'_, '_, '_>,
) -> Result<(BTreeMap<String, u32>, Option<u32>), AllocError> {
    let default = parallel_apps(props, &format!("{PREFIX}user.max-parallel-apps"))?;
    let mut users = BTreeMap::new();
    let names: Vec<String> = props.map.keys().cloned().collect();
    for name in names {
        let Some(user) = name
            .strip_prefix(PREFIX)
            .and_then(|r| r.strip_prefix("user."))
            .and_then(|r| r.strip_suffix(".max-parallel-apps"))
        else {
            continue;
        };
        if let Some(n) = parallel_apps(props, &name)? {
            users.insert(user.to_string(), n);
        } else if props.semantics == Semantics::Hadoop33 {
            users.insert(user.to_string(), u32::MAX);
        }
    }
    Ok((users, default))
}

/// Every `yarn.scheduler.capacity.*` property nothing looked up, with why it is ignored.
fn not_read<'a, 'i>(props: &Props<'_, 'a, 'i>) -> Vec<(Node<'a, 'i>, String)> {
    let read = props.read.borrow();
    let mut out = Vec::new();
    for (name, prop) in &props.map {
        if !name.starts_with(PREFIX) || read.contains(name) {
            continue;
        }
        let rest = &name[PREFIX.len()..];
        let why = if rest == "root.capacity" || rest == "root.maximum-capacity" {
            "the root's capacity is always 100 %"
        } else if rest.ends_with("max-parallel-apps") && props.semantics == Semantics::Hadoop27 {
            "hadoop-2.7 has no max-parallel-apps"
        } else if (rest.contains("auto-create") || rest.contains("leaf-queue-template"))
            && props.semantics == Semantics::Hadoop27
        {
            "hadoop-2.7 has no auto-created queues (they came with Hadoop 3.1)"
        } else if rest.contains(".ordering-policy") && props.semantics == Semantics::Hadoop27 {
            "hadoop-2.7 has no ordering policies (its leaves order applications by \
             application id; they came with Hadoop 2.8)"
        } else {
            NOT_READ
                .iter()
                .find(|(key, _)| rest.contains(key))
                .map_or("not simulated", |(_, why)| why)
        };
        out.push((prop.node, format!("{name}: {why}; ignored")));
    }
    out
}

impl<'a, 'i> Props<'_, 'a, 'i> {
    /// A warning about property `name` (at its line).
    fn note(&self, name: &str, message: String) {
        if let Some(p) = self.map.get(name) {
            self.notes.borrow_mut().push((p.node, message));
        }
    }
}

/// Builds queue `path` and its subtree; `listed_in` is the `.queues` property naming it.
fn build(
    props: &Props<'_, '_, '_>,
    path: &str,
    parent: Option<QueueId>,
    listed_in: Option<&str>,
    globals: &Globals,
    out: &mut Vec<QueueConf>,
    depth: usize,
) -> Result<QueueId, AllocError> {
    let key = |suffix: &str| format!("{PREFIX}{path}.{suffix}");
    let queues_key = key("queues");
    if depth > MAX_DEPTH {
        return Err(props.invalid(
            &queues_key,
            format!("queues nest deeper than {MAX_DEPTH} levels"),
        ));
    }
    let era = props.semantics;
    let h33 = era == Semantics::Hadoop33;
    let id = QueueId(out.len() as u32);
    let mut q = QueueConf::new(path, parent);
    let children: Vec<String> = match props.get(&queues_key)? {
        Some(p) => queue_names(&p.value),
        None => Vec::new(),
    };
    q.is_leaf = children.is_empty();
    if let Some(t) = auto_template::auto_template(props, path)? {
        let enabled_key = key("auto-create-child-queue.enabled");
        if parent.is_none() {
            return Err(props.invalid(
                &enabled_key,
                "the root cannot create leaf queues: only a queue under it may",
            ));
        }
        if !children.is_empty() {
            // Hadoop 3.3 loads it (`CapacitySchedulerQueueManager.parseQueue` makes a
            // ManagedParentQueue of a queue with children too).
            props.note(
                &enabled_key,
                format!(
                    "{enabled_key}: {path} lists queues of its own and creates leaf queues: \
                     loaded as Hadoop 3.3 loads it, its listed queues ordinary leaves beside \
                     the created ones; how Hadoop's management policy treats the listed \
                     queues is not modelled (fairsim's manages only the leaves it created)"
                ),
            );
        }
        q.is_leaf = false;
        q.cs.auto_create = Some(t);
    }

    let (capacity, max_capacity) = match listed_in {
        None => (100.0, 100.0),
        Some(listing) => {
            let cap_key = key("capacity");
            let Some(p) = props.get(&cap_key)? else {
                return Err(props.invalid(
                    listing,
                    format!("queue {path} is listed here but has no {cap_key} property"),
                ));
            };
            let value = if h33 {
                capacity_value(&p.value).map_err(|m| props.invalid(&cap_key, m))?
            } else if p.value.ends_with('w') || p.value.starts_with('[') {
                return Err(props.invalid(
                    &cap_key,
                    "hadoop-2.7 reads capacity as a percentage only (getFloat): the weight and \
                     absolute forms are Hadoop 3's, and YARN 2.7 fails to start on them",
                ));
            } else {
                CapacityValue::Percent(props.float(&cap_key)?.unwrap_or(0.0))
            };
            let cap = match value {
                CapacityValue::Percent(c) => {
                    if c.is_nan() {
                        props.float(&cap_key)?;
                    }
                    c
                }
                CapacityValue::Weight(w) => {
                    q.cs.form = CapacityForm::Weight(w as f32);
                    0.0
                }
                CapacityValue::Absolute(r, skipped) if r == Resource::ZERO => {
                    // Hadoop reads no memory as no resource at all, and a queue whose
                    // capacity matches the absolute pattern as 0 %: a 0 % queue.
                    props.note(
                        &cap_key,
                        format!(
                            "{cap_key}: \"{}\" sets no memory, which Hadoop reads as no resource: \
                             the queue is a 0 % queue{}",
                            p.value,
                            if skipped.is_empty() {
                                String::new()
                            } else {
                                format!(" ({} skipped)", skipped.join(", "))
                            }
                        ),
                    );
                    0.0
                }
                CapacityValue::Absolute(r, skipped) => {
                    if !skipped.is_empty() {
                        props.note(
                            &cap_key,
                            format!(
                                "{cap_key}: {} skipped, as Hadoop skips keys other than memory \
                                 and vcores",
                                skipped.join(", ")
                            ),
                        );
                    }
                    q.cs.form = CapacityForm::Absolute(r);
                    0.0
                }
            };
            if !(0.0..=100.0).contains(&cap) {
                return Err(props.invalid(&cap_key, format!("capacity {cap} is outside 0-100")));
            }
            let max_key = key("maximum-capacity");
            let max_text = props.get(&max_key)?;
            let max = match max_text.as_ref().map(|p| p.value.as_str()) {
                Some(t) if h33 && t.starts_with('[') && t.ends_with(']') => {
                    let (r, _) = super::capacity_forms::absolute_resource(t)
                        .map_err(|m| props.invalid(&max_key, m))?;
                    if r == Resource::ZERO {
                        // No memory is no maximum resource: the queue is held to its
                        // parent's limit, as with none written.
                        props.note(
                            &max_key,
                            format!(
                                "{max_key}: \"{t}\" sets no memory, which Hadoop reads as no \
                                 maximum resource; the queue is held to its parent's limit"
                            ),
                        );
                    } else if !matches!(q.cs.form, CapacityForm::Absolute(_)) {
                        return Err(props.invalid(
                            &max_key,
                            "an absolute maximum-capacity needs an absolute capacity: YARN \
                             refuses to start (\"should use either percentage based capacity \
                             configuration or absolute resource\")",
                        ));
                    } else {
                        q.cs.maximum_resource = Some(r);
                    }
                    100.0
                }
                _ => match props.float(&max_key)? {
                    None => 100.0,
                    Some(-1.0) => 100.0,
                    Some(v) if !(0.0..=100.0).contains(&v) => {
                        return Err(props
                            .invalid(&max_key, format!("maximum-capacity {v} is outside 0-100")));
                    }
                    Some(v) if v < cap && q.cs.form == CapacityForm::Percent => {
                        return Err(props.invalid(
                            &max_key,
                            format!("maximum-capacity {v} is below the queue's capacity {cap}"),
                        ));
                    }
                    Some(v) => {
                        if matches!(q.cs.form, CapacityForm::Absolute(_)) {
                            props.note(
                                &max_key,
                                format!(
                                    "{max_key}: a percentage beside an absolute capacity: \
                                     Hadoop 3.3 holds the queue to its parent's limit instead; \
                                     ignored"
                                ),
                            );
                        }
                        v
                    }
                },
            };
            (cap, max)
        }
    };
    q.capacity_percent = Some(capacity);
    q.maximum_capacity_percent = Some(max_capacity);
    if let Some(t) = &q.cs.auto_create
        && t.absolute.is_some()
    {
        let cap_key = key("leaf-queue-template.capacity");
        if !matches!(q.cs.form, CapacityForm::Absolute(_)) {
            return Err(props.invalid(
                &cap_key,
                format!(
                    "an absolute leaf template under a parent whose capacity is not absolute: \
                     YARN fails to start (\"Managed Parent Queue {path} config type is \
                     different from leaf queue template config type\")"
                ),
            ));
        }
        if globals.calc == Calculator::Dominant {
            props.note(
                &cap_key,
                format!(
                    "{cap_key}: under the dominant resource calculator a leaf made from an \
                     absolute template is guaranteed its absolute capacity times the cluster, \
                     where Hadoop's effective minimum is the template's resources: not \
                     modelled (the two agree under the default calculator)"
                ),
            );
        }
        if q.cs.maximum_resource.is_none() {
            props.note(
                &cap_key,
                format!(
                    "{cap_key}: {path} has no absolute maximum-capacity, which Hadoop divides \
                     the leaves' maximum by: not modelled, each leaf may grow to its parent's \
                     limit (a maximum of 100 % of {path})"
                ),
            );
        }
    }
    let ulf_key = key("user-limit-factor");
    q.user_limit_factor = Some(match props.float(&ulf_key)? {
        // Hadoop 3.3 reads −1 as "no user limit" (the queue's maximum).
        Some(v) if h33 && v == -1.0 => -1.0,
        _ => props.limited(&ulf_key, "user-limit-factor")?.unwrap_or(1.0),
    });
    q.minimum_user_limit_percent = Some(user_limit_percent(
        props,
        &key("minimum-user-limit-percent"),
        props.semantics,
    )?);
    let op_key = key("ordering-policy");
    // Hadoop 2.7's leaves order their apps by application id and read no ordering policy
    // (the property, left unread, is warned about).
    q.ordering_policy = match (q.is_leaf, h33) {
        (true, true) => Some(app_ordering_policy(props, &op_key)?),
        (true, false) => Some(OrderingPolicy::Fifo),
        (false, true) => {
            queue_ordering_policy(props, &op_key, path)?;
            None
        }
        (false, false) => None,
    };
    let sbw_key = key("ordering-policy.fair.enable-size-based-weight");
    if let Some(p) = h33.then(|| props.get(&sbw_key)).transpose()?.flatten() {
        q.cs.size_based_weight = values::boolean(&p.value).unwrap_or_else(|| {
            props.note(
                &sbw_key,
                format!(
                    "{sbw_key}: \"{}\" is neither true nor false: Hadoop's getBoolean keeps the \
                     default, false",
                    p.value
                ),
            );
            false
        });
    }
    let am_key = key("maximum-am-resource-percent");
    q.maximum_am_resource_fraction = Some(
        props
            .limited(&am_key, "maximum-am-resource-percent")?
            .unwrap_or(globals.am_default),
    );
    let apps_key = key("maximum-applications");
    q.cs.maximum_applications = match props.get(&apps_key)? {
        None => None,
        Some(p) => {
            let v = values::int(&p.value).map_err(|m| props.invalid(&apps_key, m))?;
            (v >= 0).then_some(v as i32)
        }
    };
    q.cs.system_maximum_applications = globals.system_apps;
    q.cs.continue_looking = globals.continue_looking;
    q.max_running_apps = parallel_apps(props, &key("max-parallel-apps"))?.or(
        if props.map.contains_key(&key("max-parallel-apps")) {
            None
        } else {
            globals.parallel_default
        },
    );
    let parent_stopped = parent.is_some_and(|p| out[p.idx()].cs.stopped);
    let state_key = key("state");
    q.cs.stopped = match props.get_untrimmed(&state_key)? {
        None => parent_stopped,
        // `QueueState.valueOf(StringUtils.toUpperCase(value))`: any case, no spaces.
        Some(p) => match p.value.to_ascii_uppercase().as_str() {
            "STOPPED" => true,
            "RUNNING" if h33 && parent_stopped => {
                return Err(props.invalid(
                    &state_key,
                    format!(
                        "queue {path} is RUNNING under a STOPPED parent: YARN refuses to start \
                         (\"cannot be STOPPED as the child queue ... is in RUNNING state\")"
                    ),
                ));
            }
            // Hadoop 2.7 checks each queue up the path at submission: a STOPPED parent
            // refuses its RUNNING children's apps too.
            "RUNNING" => parent_stopped,
            "DRAINING" if h33 => {
                return Err(props.invalid(
                    &state_key,
                    "DRAINING is a state a queue passes through, not one it may be configured \
                     in: YARN refuses to start (\"Invalid queue state configuration. We can \
                     only use RUNNING or STOPPED.\"). A queue drains when a refresh of the \
                     configuration stops it while it holds applications, and becomes STOPPED \
                     when the last one finishes; a run has no refreshes",
                ));
            }
            _ => {
                let known = if h33 {
                    "RUNNING, STOPPED and DRAINING"
                } else {
                    "RUNNING and STOPPED"
                };
                return Err(props.invalid(
                    &state_key,
                    format!(
                        "\"{}\" is not a queue state: YARN fails to start (QueueState.valueOf \
                         of {era} knows {known}, in any case and without spaces)",
                        p.value
                    ),
                ));
            }
        },
    };
    out.push(q);
    if let Some(p) = parent {
        out[p.idx()].children.push(id);
    }

    let mut seen = HashSet::new();
    for c in &children {
        if c.contains('.') || !seen.insert(c.as_str()) {
            return Err(props.invalid(
                &queues_key,
                format!("queue name \"{c}\" contains '.' or is listed twice"),
            ));
        }
        build(
            props,
            &format!("{path}.{c}"),
            Some(id),
            Some(&queues_key),
            globals,
            out,
            depth + 1,
        )?;
    }
    if !children.is_empty() {
        let result = match era {
            Semantics::Hadoop27 => {
                let percents: Vec<f64> = out[id.idx()]
                    .children
                    .iter()
                    .map(|c| out[c.idx()].capacity_percent.unwrap_or(0.0))
                    .collect();
                children_sum_check(capacity, &percents)
            }
            Semantics::Hadoop33 => {
                let allow_zero_key = key("allow-zero-capacity-sum");
                let allow_zero = match props.get(&allow_zero_key)? {
                    None => false,
                    Some(p) => values::boolean(&p.value).unwrap_or(false),
                };
                children_check_33(out, id, allow_zero, globals.calc)
            }
        };
        result.map_err(|m| props.invalid(&queues_key, format!("{path}: {m}")))?;
    }
    Ok(id)
}

/// The package of Hadoop's application ordering policies.
const POLICY_PACKAGE: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.";

/// A hadoop-3.3 leaf's `ordering-policy` as `getAppOrderingPolicy` reads it: the value
/// trimmed and equal (case and all) to `fifo`, `fair` or `fifo-with-partitions` names a
/// policy; any other value, untrimmed, is a class Hadoop constructs by name. Of Hadoop's own
/// classes fairsim runs each with the order it gives here: with no application priorities,
/// no recovered applications and no node partitions, `FifoOrderingPolicyForPendingApps` and
/// `FifoOrderingPolicyWithExclusivePartitions` order as `FifoOrderingPolicy`. Anything else
/// stops YARN at start-up (no such class), or is a class of the cluster's own, which is not
/// simulated; both are refused.
fn app_ordering_policy(
    props: &Props<'_, '_, '_>,
    name: &str,
) -> Result<OrderingPolicy, AllocError> {
    let Some(p) = props.get_untrimmed(name)? else {
        return Ok(OrderingPolicy::Fifo);
    };
    match values::java_trim(&p.value) {
        "fifo" | "fifo-with-partitions" => return Ok(OrderingPolicy::Fifo),
        "fair" => return Ok(OrderingPolicy::Fair),
        _ => {}
    }
    let class = p.value.as_str();
    match class.strip_prefix(POLICY_PACKAGE) {
        Some("FifoOrderingPolicy")
        | Some("FifoOrderingPolicyForPendingApps")
        | Some("FifoOrderingPolicyWithExclusivePartitions") => Ok(OrderingPolicy::Fifo),
        Some("FairOrderingPolicy") => Ok(OrderingPolicy::Fair),
        package => {
            let why = if package.is_some() {
                "Hadoop has no such policy class"
            } else {
                "a name Hadoop loads as a class: YARN fails to start unless the cluster has \
                 a class of that name (\"Unable to construct ordering policy for\"), and a \
                 policy of the cluster's own is not simulated"
            };
            Err(props.invalid(
                name,
                format!(
                    "\"{class}\" is not an application ordering policy hadoop-3.3 reads (fifo, \
                     fair, fifo-with-partitions, or the full name of FifoOrderingPolicy, \
                     FairOrderingPolicy, FifoOrderingPolicyForPendingApps or \
                     FifoOrderingPolicyWithExclusivePartitions; the names are case-sensitive): \
                     {why}"
                ),
            ))
        }
    }
}

/// A parent's `ordering-policy` in hadoop-3.3 (`getQueueOrderingPolicy`): the order of its
/// children, `utilization` (the default) or `priority-utilization`, the value trimmed and
/// compared case and all; anything else stops YARN at start-up. The two order alike here:
/// queue priorities are not modelled (a `priority` property is warned about), and with
/// equal priorities Hadoop's priority comparison is the utilization one.
fn queue_ordering_policy(
    props: &Props<'_, '_, '_>,
    name: &str,
    path: &str,
) -> Result<(), AllocError> {
    let Some(p) = props.get_untrimmed(name)? else {
        return Ok(());
    };
    match values::java_trim(&p.value) {
        "utilization" | "priority-utilization" => Ok(()),
        _ => Err(props.invalid(
            name,
            format!(
                "\"{}\" is not a queue ordering policy: on a parent queue hadoop-3.3 reads \
                 ordering-policy as the order of its children, utilization or \
                 priority-utilization, and fails to start on anything else (\"Unable to \
                 construct queue ordering policy={} queue={path}\"); fifo and fair order the \
                 applications of a leaf",
                p.value, p.value
            ),
        )),
    }
}

/// The form of queue `q` as a sibling (`capacity` as a fraction of 1 for a percentage).
fn sibling_form(q: &QueueConf) -> SiblingForm {
    match q.cs.form {
        CapacityForm::Percent => {
            SiblingForm::Percent(q.capacity_percent.unwrap_or(0.0) as f32 / 100.0)
        }
        CapacityForm::Weight(_) => SiblingForm::Weight,
        CapacityForm::Absolute(_) => SiblingForm::Absolute,
    }
}

/// Hadoop 3.3's `ParentQueue.setChildQueues` and the absolute-resource checks of
/// `updateConfigurableResourceRequirement`, for parent `id`'s children:
///
/// * siblings may not mix modes ([`siblings_mode`]); under any parent but the root, a parent
///   and its children are both absolute or neither;
/// * a queue's minimum is at most its maximum, which is at most its parent's configured
///   maximum (checked first, as each queue is set up before its parent takes its children),
///   and a parent's configured minimum resource is at least its children's sum (compared as
///   YARN does at start-up, with no cluster yet: memory alone for the default calculator,
///   else one resource smaller and none larger);
/// * percentages sum to 100 (within `PRECISION`) or to 0; 0 only under a parent in weight
///   mode, at capacity 0, or with `allow-zero-capacity-sum`; 100 not under a percentage
///   parent at 0 unless it allows a zero sum.
fn children_check_33(
    out: &[QueueConf],
    id: QueueId,
    allow_zero: bool,
    calc: Calculator,
) -> Result<(), String> {
    let parent = &out[id.idx()];
    let kids: Vec<&QueueConf> = parent.children.iter().map(|c| &out[c.idx()]).collect();
    let forms: Vec<SiblingForm> = kids.iter().map(|q| sibling_form(q)).collect();
    let mode = siblings_mode(&forms)?;
    let is_root = parent.parent.is_none();
    let parent_mode = if is_root {
        Mode::Percent
    } else {
        siblings_mode(&[sibling_form(parent)])?
    };
    if (mode == Mode::Absolute || parent_mode == Mode::Absolute) && mode != parent_mode && !is_root
    {
        return Err(
            "a parent and its children must all use absolute resources or none: YARN refuses \
             to start (\"When absolute minResource is used, we must make sure both parent and \
             child all use absolute minResource\")"
                .into(),
        );
    }
    let no_cluster_less = |a: Resource, b: Resource| {
        let smaller = a.memory_mb < b.memory_mb || a.vcores < b.vcores;
        let larger = a.memory_mb > b.memory_mb || a.vcores > b.vcores;
        smaller && !larger
    };
    let less = |a: Resource, b: Resource| match calc {
        Calculator::MemoryOnly => a.memory_mb < b.memory_mb,
        Calculator::Dominant => no_cluster_less(a, b),
    };
    for q in &kids {
        if let (CapacityForm::Absolute(min), Some(max)) = (q.cs.form, q.cs.maximum_resource) {
            if less(max, min) {
                return Err(format!(
                    "{}'s minimum resource {} is greater than its maximum {}: YARN refuses to \
                     start (\"Min resource configuration ... is greater than its max value\")",
                    q.name,
                    show(min),
                    show(max)
                ));
            }
            if let Some(parent_max) = parent.cs.maximum_resource
                && less(parent_max, max)
            {
                return Err(format!(
                    "{}'s maximum resource {} is greater than its parent's {}: YARN refuses to \
                     start (\"Max resource configuration ... is greater than parents max value\")",
                    q.name,
                    show(max),
                    show(parent_max)
                ));
            }
        }
    }
    let sum = kids.iter().fold(Resource::ZERO, |s, q| match q.cs.form {
        CapacityForm::Absolute(r) => s.saturating_add(r),
        _ => s,
    });
    if let CapacityForm::Absolute(parent_min) = parent.cs.form
        && mode == Mode::Absolute
        && less(parent_min, sum)
    {
        return Err(format!(
            "its minimum resource {} is less than its children's sum {}: YARN refuses to start \
             (\"Parent Queues capacity ... is less than to its children\")",
            show(parent_min),
            show(sum)
        ));
    }
    if mode != Mode::Percent {
        return Ok(());
    }
    let sum: f32 = forms
        .iter()
        .map(|f| match f {
            SiblingForm::Percent(c) => *c,
            _ => 0.0,
        })
        .sum();
    let parent_capacity = if is_root {
        1.0
    } else {
        parent.capacity_percent.unwrap_or(0.0) as f32 / 100.0
    };
    let shown = (f64::from(sum) * 1e6).round() / 1e4;
    if (1.0 - sum).abs() > PRECISION {
        if sum.abs() > PRECISION {
            return Err(format!(
                "the children's capacities sum to {shown}, not 100 or 0: YARN refuses to start \
                 (\"Illegal capacity sum ... It should be either 0 or 1.0\"); it allows a \
                 difference of {}%",
                PRECISION * 100.0
            ));
        }
        if parent_mode == Mode::Percent && parent_capacity.abs() > PRECISION && !allow_zero {
            return Err(
                "the children's capacities sum to 0 under a parent above 0 that does not set \
                 allow-zero-capacity-sum: YARN refuses to start (\"Illegal capacity sum\")"
                    .into(),
            );
        }
    } else if parent_mode == Mode::Percent && parent_capacity <= 0.0 && !allow_zero {
        return Err(format!(
            "the queue's capacity is 0 but its children's sum to {shown}: YARN refuses to start \
             (\"has zero capacity, but child queues have positive capacities\")"
        ));
    }
    Ok(())
}

fn show(r: Resource) -> String {
    format!("[memory={},vcores={}]", r.memory_mb, r.vcores)
}

/// `ParentQueue.setChildQueues`' check, in Java floats: each capacity a fraction of 1
/// (`percent / 100`), summed in listed order; the sum must be within [`PRECISION`] of 1
/// unless the parent's capacity is 0, and must be 0 when it is.
fn children_sum_check(parent_percent: f64, children_percents: &[f64]) -> Result<(), String> {
    let parent = parent_percent as f32 / 100.0;
    let sum: f32 = children_percents.iter().map(|&c| c as f32 / 100.0).sum();
    let shown = children_percents.iter().sum::<f64>();
    let shown = (shown * 1e6).round() / 1e6;
    if parent > 0.0 && (1.0 - sum).abs() > PRECISION {
        return Err(format!(
            "the children's capacities sum to {shown}, not 100: YARN refuses to start \
             (\"Illegal capacity ... for children of queue\"); it allows a difference of \
             {}% (|1 - sum| <= {PRECISION} in fractions of 1)",
            PRECISION * 100.0
        ));
    }
    if parent == 0.0 && sum > 0.0 {
        return Err(format!(
            "the queue's capacity is 0, so its children's must be 0 too; they sum to {shown}: \
             YARN refuses to start (\"Illegal capacity ... for children of queue\")"
        ));
    }
    Ok(())
}

/// `getQueues`: the comma-separated names, each trimmed, empty ones dropped.
fn queue_names(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(values::java_trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_may_miss_100_by_hadoops_precision_in_java_floats() {
        assert!(children_sum_check(100.0, &[50.0, 50.0]).is_ok());
        assert!(children_sum_check(100.0, &[33.33, 33.33, 33.31]).is_ok());
        assert!(children_sum_check(100.0, &[60.0, 40.04]).is_ok());
        let e = children_sum_check(100.0, &[60.0, 39.9]).unwrap_err();
        assert!(e.contains("sum to 99.9, not 100"), "{e}");
        assert!(children_sum_check(100.0, &[60.0, 40.1]).is_err());
        assert!(children_sum_check(100.0, &[0.0, 0.0]).is_err());
    }

    #[test]
    fn a_parent_at_zero_takes_only_children_at_zero() {
        assert!(children_sum_check(0.0, &[0.0, 0.0]).is_ok());
        let e = children_sum_check(0.0, &[100.0]).unwrap_err();
        assert!(e.contains("capacity is 0"), "{e}");
        assert!(children_sum_check(0.0, &[0.01]).is_err());
    }
}
