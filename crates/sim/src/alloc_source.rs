//! Where the scenario loader gets its queue tree: the one switch point between the
//! allocation-file readers and the engine.
//!
//! [`load_allocation`] uses the full readers of [`crate::alloc`] (fair-scheduler.xml in both
//! eras' forms, or capacity-scheduler.xml, told apart by the root element).
//! [`parse_allocation`] is the earlier reader of the subset of `fair-scheduler.xml` the first
//! scenarios used, kept for callers that parse text directly.

use crate::tree::{QueueId, QueueTree, ResourceSpec};
use fairsim_core::{Policy, Resource, Semantics};
use std::path::Path;

/// Reads the allocation file at `path` (a fair-scheduler.xml or a capacity-scheduler.xml,
/// told apart by its root element) into a queue tree and its warnings, with the full
/// readers of [`crate::alloc`].
pub fn load_allocation(
    path: &Path,
    semantics: Semantics,
) -> Result<(QueueTree, Vec<String>), String> {
    let loaded = crate::alloc::load_any_file(path, semantics).map_err(|e| e.to_string())?;
    Ok((loaded.tree, loaded.warnings))
}

fn parse_resource(s: &str) -> Option<Resource> {
    let mut mem = None;
    let mut vc = None;
    for part in s.split(',') {
        let p = part.trim().to_ascii_lowercase();
        let num: String = p
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let v: f64 = num.parse().ok()?;
        if p.ends_with("mb") {
            mem = Some(v as i64);
        } else if p.contains("vcore") {
            vc = Some(v as i64);
        } else if p.ends_with("gb") {
            mem = Some((v * 1024.0) as i64);
        }
    }
    Some(Resource::new(mem?, vc?))
}

/// Parses allocation-file text (see the module docs for the supported subset).
pub fn parse_allocation(text: &str, path: &Path) -> Result<(QueueTree, Vec<String>), String> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, opts)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let root_el = doc.root_element();
    let mut tree = QueueTree::with_root();
    let mut warnings = Vec::new();
    let mut am_default = 0.5f32;
    let err = |node: roxmltree::Node, msg: String| {
        let pos = doc.text_pos_at(node.range().start);
        format!("{}:{}:{}: {msg}", path.display(), pos.row, pos.col)
    };
    for child in root_el.children().filter(|n| n.is_element()) {
        if child.tag_name().name() == "queueMaxAMShareDefault" {
            am_default = child
                .text()
                .unwrap_or("")
                .trim()
                .parse()
                .map_err(|_| err(child, "queueMaxAMShareDefault: not a number".into()))?;
        }
    }
    fn walk(
        el: roxmltree::Node,
        parent: QueueId,
        tree: &mut QueueTree,
        warnings: &mut Vec<String>,
        am_default: f32,
        err: &dyn Fn(roxmltree::Node, String) -> String,
    ) -> Result<(), String> {
        let name = el
            .attribute("name")
            .ok_or_else(|| err(el, "queue without a name".into()))?;
        let short = name.strip_prefix("root.").unwrap_or(name);
        let id = if parent == QueueId::ROOT && short == "root" {
            QueueId::ROOT
        } else {
            let id = tree.add_queue(parent, short, true);
            tree.get_mut(id).max_am_share = am_default;
            id
        };
        if el.attribute("type") == Some("parent") {
            tree.get_mut(id).is_leaf = false;
        }
        for c in el.children().filter(|n| n.is_element()) {
            let text = c.text().unwrap_or("").trim();
            let tag = c.tag_name().name();
            let q = tree.get_mut(id);
            match tag {
                "queue" | "pool" => walk(c, id, tree, warnings, am_default, err)?,
                "weight" => {
                    q.weight = text
                        .parse::<f64>()
                        .map_err(|_| err(c, format!("weight: bad number `{text}`")))?
                        as f32
                }
                "minResources" => {
                    q.min_resources = ResourceSpec::Absolute(
                        parse_resource(text)
                            .ok_or_else(|| err(c, format!("minResources: bad value `{text}`")))?,
                    )
                }
                "maxResources" => {
                    q.max_resources = ResourceSpec::Absolute(
                        parse_resource(text)
                            .ok_or_else(|| err(c, format!("maxResources: bad value `{text}`")))?,
                    )
                }
                "maxRunningApps" => {
                    q.max_running_apps = Some(
                        text.parse()
                            .map_err(|_| err(c, format!("maxRunningApps: bad value `{text}`")))?,
                    )
                }
                "maxAMShare" => {
                    q.max_am_share = text
                        .parse()
                        .map_err(|_| err(c, format!("maxAMShare: bad value `{text}`")))?
                }
                "schedulingPolicy" | "schedulingMode" => {
                    q.policy = text.parse::<Policy>().map_err(|m| err(c, m))?
                }
                other => warnings.push(err(c, format!("element `{other}` not simulated"))),
            }
        }
        Ok(())
    }
    for child in root_el.children().filter(|n| n.is_element()) {
        let text = child.text().unwrap_or("").trim();
        match child.tag_name().name() {
            "queue" | "pool" => walk(
                child,
                QueueId::ROOT,
                &mut tree,
                &mut warnings,
                am_default,
                &err,
            )?,
            "userMaxAppsDefault" => {
                tree.user_max_apps_default =
                    Some(text.parse().map_err(|_| {
                        err(child, format!("userMaxAppsDefault: bad value `{text}`"))
                    })?)
            }
            "user" => {
                let user = child.attribute("name").unwrap_or("").to_string();
                for c in child.children().filter(|n| n.is_element()) {
                    if c.tag_name().name() == "maxRunningApps" {
                        let t = c.text().unwrap_or("").trim();
                        let v = t
                            .parse()
                            .map_err(|_| err(c, format!("maxRunningApps: bad value `{t}`")))?;
                        tree.user_max_apps.insert(user.clone(), v);
                    } else {
                        warnings.push(err(
                            c,
                            format!("user element `{}` ignored", c.tag_name().name()),
                        ));
                    }
                }
            }
            "queueMaxAMShareDefault" => {}
            other => warnings.push(err(child, format!("element `{other}` not simulated"))),
        }
    }
    if tree.find("root.default").is_none() {
        tree.add_queue(QueueId::ROOT, "default", true);
        let id = QueueId(tree.queues.len() as u32 - 1);
        tree.get_mut(id).max_am_share = am_default;
    }
    Ok((tree, warnings))
}
