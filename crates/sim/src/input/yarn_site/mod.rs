//! `yarn-site.xml` and `sls-runner.xml`: Hadoop `<configuration>` files of
//! `<property><name>/<value>` pairs, read as Hadoop's `Configuration` reads a list of
//! resources (a later file overrides an earlier one, except a property marked `<final>`;
//! `${name}` refers to another property, substituted when the property is read:
//! [`expand`]), and mapped onto the scenario's scheduler keys by [`knobs`].
//! docs/yarn-site.md lists every property.

pub mod knobs;

pub use crate::hadoop_conf::{expand, values};

use crate::alloc::AllocError;
use crate::tree::SchedulerKind;
use fairsim_core::Semantics;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `scheduler.yarn_site`: one file or a list, later files overriding earlier ones.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum SiteFiles {
    /// One file.
    One(PathBuf),
    /// Several, in the order Hadoop would add them as resources.
    Many(Vec<PathBuf>),
}

impl SiteFiles {
    /// The files, relative to `base` (the scenario's directory).
    pub fn paths(&self, base: &Path) -> Vec<PathBuf> {
        match self {
            SiteFiles::One(p) => vec![base.join(p)],
            SiteFiles::Many(ps) => ps.iter().map(|p| base.join(p)).collect(),
        }
    }
}

/// One property as the files set it.
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// Its name.
    pub name: String,
    /// Its value: as written in [`SiteProps::props`], with `${...}` substituted once read
    /// with [`SiteProps::get`] (getters then trim it).
    pub value: String,
    /// The file that set it last.
    pub file: PathBuf,
    /// The line of its `<value>` (or of its `<property>` when it has none).
    pub line: u32,
    /// `<final>true</final>`: later files cannot override it.
    pub is_final: bool,
}

impl Property {
    /// `file:line`, as messages print it.
    pub fn at(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// The properties of one or more configuration files, by name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SiteProps {
    /// The effective properties.
    pub props: BTreeMap<String, Property>,
    /// What Hadoop would log (a `<final>` override, an element that is not a property).
    pub warnings: Vec<String>,
}

impl SiteProps {
    /// Reads `paths` in order.
    pub fn read(paths: &[PathBuf]) -> Result<SiteProps, AllocError> {
        let mut props = SiteProps::default();
        for p in paths {
            let text = crate::alloc::read_xml_file(p)?;
            props.add(&text, p)?;
        }
        Ok(props)
    }

    /// Adds the properties of one file's `text` (`path` names it in messages).
    pub fn add(&mut self, text: &str, path: &Path) -> Result<(), AllocError> {
        let label = path.display().to_string();
        let doc = crate::alloc::parse_xml_document(text, &label)?;
        let lines = crate::alloc::xml::LineIndex::new(&doc);
        let pos = |n: roxmltree::Node<'_, '_>| lines.line(n);
        let top = doc.root_element();
        if top.tag_name().name() != "configuration" {
            return Err(AllocError::Invalid {
                file: label,
                line: pos(top),
                element: format!("<{}>", top.tag_name().name()),
                message: "the root element of a yarn-site.xml must be <configuration>".into(),
            });
        }
        for prop in top.children().filter(|n| n.is_element()) {
            if prop.tag_name().name() != "property" {
                self.warnings.push(format!(
                    "{label}:{}: <{}>: not a <property>; Hadoop skips it",
                    pos(prop),
                    prop.tag_name().name()
                ));
                continue;
            }
            let child = |tag: &str| {
                prop.children()
                    .find(|c| c.is_element() && c.tag_name().name() == tag)
            };
            let Some(name) = child("name").and_then(|n| n.text()).map(str::trim) else {
                self.warnings.push(format!(
                    "{label}:{}: <property>: no <name>; Hadoop skips it",
                    pos(prop)
                ));
                continue;
            };
            let value_node = child("value");
            let Some(value) = value_node.and_then(|n| n.text()) else {
                // Hadoop sets nothing for a property without a value.
                continue;
            };
            let is_final = child("final")
                .and_then(|n| n.text())
                .is_some_and(|t| t.trim() == "true");
            let line = pos(value_node.unwrap_or(prop));
            if let Some(old) = self.props.get(name)
                && old.is_final
            {
                self.warnings.push(format!(
                    "{label}:{line}: {name}: final in {}; Hadoop keeps that value",
                    old.at()
                ));
                continue;
            }
            self.props.insert(
                name.to_string(),
                Property {
                    name: name.to_string(),
                    value: value.to_string(),
                    file: path.to_path_buf(),
                    line,
                    is_final,
                },
            );
        }
        Ok(())
    }

    /// The property `name` as the files write it, if set.
    pub fn raw(&self, name: &str) -> Option<&Property> {
        self.props.get(name)
    }

    /// The property `name` as Hadoop's `Configuration.get` returns it in `semantics`: `${...}`
    /// substituted, or the refusal Hadoop fails with (at the property's file and line).
    pub fn get(&self, name: &str, semantics: Semantics) -> Result<Option<Property>, AllocError> {
        let Some(p) = self.props.get(name) else {
            return Ok(None);
        };
        let value = expand::substitute(
            &p.value,
            |n| self.props.get(n).map(|q| q.value.as_str()),
            semantics,
        )
        .map_err(|e| AllocError::Invalid {
            file: p.file.display().to_string(),
            line: p.line,
            element: p.name.clone(),
            message: e.message(),
        })?;
        Ok(Some(Property { value, ..p.clone() }))
    }
}

/// The property naming the ResourceManager's scheduler.
pub const SCHEDULER_CLASS: &str = "yarn.resourcemanager.scheduler.class";
/// The property naming the Fair Scheduler's allocation file.
pub const ALLOCATION_FILE: &str = "yarn.scheduler.fair.allocation.file";

fn conf_dir(file: &Path) -> PathBuf {
    file.parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// The allocation file YARN reads when the scenario names none: for the Fair Scheduler
/// `yarn.scheduler.fair.allocation.file` (default `fair-scheduler.xml`), for the Capacity
/// Scheduler (YARN's default class) `capacity-scheduler.xml`; a relative name is taken in
/// the directory of the file that names it, else of the last configuration file (Hadoop
/// looks in the configuration directory on its classpath).
pub fn allocation_path(
    props: &SiteProps,
    files: &[PathBuf],
    semantics: Semantics,
) -> Result<PathBuf, AllocError> {
    let class = props
        .get(SCHEDULER_CLASS, semantics)?
        .map(|p| knobs::scheduler_class(&p))
        .transpose()?;
    let dir = files.last().map(|f| conf_dir(f)).unwrap_or_default();
    Ok(match class.unwrap_or(SchedulerKind::Capacity) {
        SchedulerKind::Capacity => dir.join("capacity-scheduler.xml"),
        SchedulerKind::Fair => match props.get(ALLOCATION_FILE, semantics)? {
            Some(p) => conf_dir(&p.file).join(p.value.trim()),
            None => dir.join("fair-scheduler.xml"),
        },
    })
}

/// Refuses a scheduler class other than the one the allocation file selects.
pub fn check_class(
    props: &SiteProps,
    kind: SchedulerKind,
    alloc: &Path,
    semantics: Semantics,
) -> Result<(), AllocError> {
    let Some(p) = props.get(SCHEDULER_CLASS, semantics)? else {
        return Ok(());
    };
    let named = knobs::scheduler_class(&p)?;
    if named == kind {
        return Ok(());
    }
    let file = match kind {
        SchedulerKind::Fair => "fair-scheduler.xml",
        SchedulerKind::Capacity => "capacity-scheduler.xml",
    };
    Err(AllocError::Invalid {
        file: p.file.display().to_string(),
        line: p.line,
        element: p.name.clone(),
        message: format!(
            "names the {named:?} Scheduler, but the scenario's allocation file {} is a {file}",
            alloc.display()
        ),
    })
}

/// The scenario's `[scheduler]` with the files' values under its own keys: `explicit` is
/// the scenario's `[scheduler]` table as written; `line` gives a key's line. The report
/// records which values the scenario overrides. `T` is the scenario's `[scheduler]` type
/// (`crate::scenario::SchedulerConf`), which holds this module's reports.
pub fn merge<T: serde::de::DeserializeOwned>(
    settings: &mut knobs::Settings,
    explicit: &toml::Table,
    explicit_workload: &toml::Table,
    line: &dyn Fn(&str) -> usize,
) -> Result<T, String> {
    let mut merged = settings.scheduler.clone();
    for (k, v) in explicit {
        merged.insert(k.clone(), v.clone());
    }
    for r in &mut settings.report.readings {
        let given = match r.target {
            knobs::Target::Scheduler(k) => explicit.contains_key(k),
            knobs::Target::Workload(k) => explicit_workload.contains_key(k),
            _ => false,
        };
        if given && r.status == knobs::Status::Applied {
            let key = r.target.describe();
            r.status = knobs::Status::ByScenario(line(&key));
            settings.origin.remove(&key);
            if let knobs::Target::Workload(k) = r.target {
                settings.workload.remove(k);
            }
        }
    }
    toml::Value::Table(merged)
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())
}

/// True when a `<configuration>` file is a capacity-scheduler.xml (it defines the root
/// queue's children) rather than a yarn-site.xml or sls-runner.xml.
pub fn is_capacity_scheduler_file(props: &SiteProps) -> bool {
    props
        .props
        .contains_key("yarn.scheduler.capacity.root.queues")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(files: &[(&str, &str)]) -> SiteProps {
        let mut p = SiteProps::default();
        for (name, text) in files {
            p.add(text, Path::new(name)).unwrap();
        }
        p
    }

    fn conf(props: &str) -> String {
        format!("<?xml version=\"1.0\"?>\n<configuration>\n{props}</configuration>\n")
    }

    #[test]
    fn later_files_override_earlier_ones_except_final() {
        let a = conf(
            "<property><name>x</name><value>1</value></property>\n\
             <property><name>y</name><value>2</value><final>true</final></property>\n",
        );
        let b = conf(
            "<property><name>x</name>\n<value>10</value></property>\n\
             <property><name>y</name><value>20</value></property>\n",
        );
        let p = read(&[("a.xml", &a), ("b.xml", &b)]);
        let x = p.raw("x").unwrap();
        assert_eq!((x.value.as_str(), x.at().as_str()), ("10", "b.xml:4"));
        assert_eq!(p.raw("y").unwrap().value, "2");
        assert_eq!(p.warnings.len(), 1);
        assert!(
            p.warnings[0].starts_with("b.xml:5: y: final in a.xml:4"),
            "{:?}",
            p.warnings
        );
    }

    #[test]
    fn variables_are_substituted_when_read() {
        let a = conf(
            "<property><name>base</name><value>2048</value></property>\n\
             <property><name>max</name><value>${base}</value></property>\n\
             <property><name>loop</name><value>${loop}</value></property>\n\
             <property><name>unknown</name><value>${nope}</value></property>\n",
        );
        let p = read(&[("a.xml", &a)]);
        let get = |n: &str, s| {
            p.get(n, s)
                .map(|p| p.unwrap().value)
                .map_err(|e| e.to_string())
        };
        assert_eq!(get("max", Semantics::Hadoop27), Ok("2048".into()));
        assert_eq!(get("unknown", Semantics::Hadoop27), Ok("${nope}".into()));
        // A property naming itself: 3.x returns it as written, 2.7 fails where it is.
        assert_eq!(get("loop", Semantics::Hadoop33), Ok("${loop}".into()));
        let e = get("loop", Semantics::Hadoop27).unwrap_err().to_string();
        assert!(
            e.starts_with("a.xml:5: loop: ${...} substitution does not end"),
            "{e}"
        );
        // Read as written until read.
        assert_eq!(p.raw("loop").unwrap().value, "${loop}");
    }

    #[test]
    fn a_file_that_is_not_a_configuration_is_refused_with_its_line() {
        let mut p = SiteProps::default();
        let e = p
            .add(
                "<?xml version=\"1.0\"?>\n<allocations/>\n",
                Path::new("s.xml"),
            )
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "s.xml:2: <allocations>: the root element of a yarn-site.xml must be <configuration>"
        );
    }
}
