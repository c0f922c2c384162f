//! The workspace's import rules, read from the sources (ARCHITECTURE.md "What may import
//! what"): no import circle between the modules of a crate, and `fairsim-sim`'s layers import
//! only the layers below them. Every `crate::`, `super::` and `self::` path outside test
//! modules counts, in `use` trees and inline; the root's `pub use` re-exports are followed to
//! the module they name. A child module may use its ancestors' items (`scheduler::Sched` in
//! `scheduler::fair::assign`), so paths between a module and its ancestors are not edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// One crate's modules and the paths each of its files names.
struct Crate {
    /// Every module of the crate (a file), with its file.
    modules: BTreeMap<Module, PathBuf>,
    /// Root-level re-exports: `app` -> `model::app`.
    aliases: BTreeMap<String, Module>,
}

fn workspace_crate(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

fn read_crate(src: &Path) -> Crate {
    let mut modules = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("source folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                modules.insert(module_of(src, &path), path);
            }
        }
    }
    let root = modules
        .get(&Vec::new())
        .cloned()
        .expect("lib.rs or main.rs");
    let mut aliases = BTreeMap::new();
    for (path, _) in use_paths(&code_of(&root)) {
        if let Some(last) = path.last()
            && path.len() > 1
            && path[0] != "crate"
            && path[0] != "super"
            && path[0] != "std"
        {
            aliases.insert(last.clone(), path.clone());
        }
    }
    Crate { modules, aliases }
}

/// `src/a/b/mod.rs` and `src/a/b.rs` are `a::b`; `lib.rs` and `main.rs` the root.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file
        .strip_prefix(src)
        .expect("inside src")
        .with_extension("");
    let mut parts: Module = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A file's code without comments, string and character literals, and its test module.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("source file");
    let text = match text.find("#[cfg(test)]") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        let at = |i: usize, k: usize| c.get(i + k).copied();
        if c[i] == '/' && at(i, 1) == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && at(i, 1) == Some('*') {
            while i < c.len() && !(c[i] == '*' && at(i, 1) == Some('/')) {
                if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c[i] == 'r'
            && matches!(at(i, 1), Some('#' | '"'))
            && (i == 0 || !is_word(c[i - 1]))
        {
            let mut hashes = 0;
            while at(i, 1 + hashes) == Some('#') {
                hashes += 1;
            }
            if at(i, 1 + hashes) != Some('"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            i += 2 + hashes;
            while i < c.len() && !(c[i] == '"' && (0..hashes).all(|h| at(i, 1 + h) == Some('#'))) {
                if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1 + hashes;
            out.push_str("\"\"");
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                } else if c[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && at(i, 1) == Some('\\') {
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
        } else if c[i] == '\'' && at(i, 2) == Some('\'') {
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The full paths of every `use` tree in `code` (braces expanded), with the text's line.
fn use_paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut at = 0;
    while let Some(found) = code[at..].find("use ") {
        let start = at + found;
        at = start + 4;
        let word_start = start == 0 || !is_word(bytes[start - 1] as char);
        if !word_start {
            continue;
        }
        let Some(end) = code[at..].find(';') else {
            break;
        };
        // `as` renames become `@` before the blanks go, so `e as f` is not read as `easf`.
        let tree: String = code[at..at + end]
            .split_whitespace()
            .map(|t| if t == "as" { "@" } else { t })
            .collect();
        let line = code[..start].matches('\n').count() + 1;
        for path in expand(&tree) {
            out.push((path, line));
        }
        at += end;
    }
    out
}

/// `a::{b, c::{d, e}}` -> `a::b`, `a::c::d`, `a::c::e` (an `as` rename is dropped).
fn expand(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.trim_start_matches("::");
    match tree.find('{') {
        None => {
            let path = tree.split('@').next().unwrap_or(tree);
            vec![
                path.split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            ]
        }
        Some(open) => {
            let prefix: Vec<String> = tree[..open]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut parts = Vec::new();
            let (mut depth, mut from) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(&inner[from..i]);
                        from = i + 1;
                    }
                    _ => {}
                }
            }
            parts.push(&inner[from..]);
            let mut out = Vec::new();
            for part in parts.into_iter().filter(|p| !p.is_empty()) {
                for rest in expand(part) {
                    let mut full = prefix.clone();
                    if rest != ["self"] {
                        full.extend(rest);
                    }
                    out.push(full);
                }
            }
            out
        }
    }
}

/// The inline paths of `code` that start at `crate::`, `super::` or `self::`.
fn inline_paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let mut out = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for head in ["crate::", "super::", "self::"] {
            let mut at = 0;
            while let Some(found) = line[at..].find(head) {
                let start = at + found;
                at = start + head.len();
                let before = line[..start].chars().last();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let rest: String = line[start..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                let path: Vec<String> = rest
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                out.push((path, n + 1));
            }
        }
    }
    out
}

impl Crate {
    /// The module a path from `from` names: the longest module prefix of the absolute path.
    fn target(&self, from: &Module, path: &[String]) -> Option<Module> {
        let mut abs: Module = match path.first().map(String::as_str) {
            Some("crate") => path[1..].to_vec(),
            Some("super") => {
                let mut base = from.clone();
                let mut rest = path;
                while rest.first().map(String::as_str) == Some("super") {
                    base.pop();
                    rest = &rest[1..];
                }
                base.extend(rest.iter().cloned());
                base
            }
            Some("self") => {
                let mut base = from.clone();
                base.extend(path[1..].iter().cloned());
                base
            }
            _ => return None,
        };
        if let Some(first) = abs.first()
            && !self.modules.contains_key(&vec![first.clone()])
            && let Some(alias) = self.aliases.get(first)
        {
            let mut full = alias.clone();
            full.extend(abs.drain(1..));
            abs = full;
        }
        (0..=abs.len())
            .rev()
            .map(|n| abs[..n].to_vec())
            .find(|m| self.modules.contains_key(m))
    }

    /// Every edge `from -> to` between modules neither of which contains the other, with
    /// the line that makes it.
    fn edges(&self) -> BTreeMap<(Module, Module), (PathBuf, usize)> {
        let mut edges = BTreeMap::new();
        for (from, file) in &self.modules {
            let code = code_of(file);
            let mut paths = use_paths(&code);
            paths.extend(inline_paths(&code));
            for (path, line) in paths {
                let Some(to) = self.target(from, &path) else {
                    continue;
                };
                if to.starts_with(from) || from.starts_with(&to) {
                    continue;
                }
                edges
                    .entry((from.clone(), to))
                    .or_insert_with(|| (file.clone(), line));
            }
        }
        edges
    }
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(edges: &BTreeMap<(Module, Module), (PathBuf, usize)>) -> Vec<Vec<Module>> {
    let mut next: BTreeMap<&Module, Vec<&Module>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
        next.entry(to).or_default();
    }
    struct Walk<'m> {
        next: BTreeMap<&'m Module, Vec<&'m Module>>,
        index: BTreeMap<&'m Module, usize>,
        low: BTreeMap<&'m Module, usize>,
        stack: Vec<&'m Module>,
        on_stack: BTreeSet<&'m Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit<'m>(w: &mut Walk<'m>, v: &'m Module) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        w.on_stack.insert(v);
        for t in w.next[v].clone() {
            if !w.index.contains_key(t) {
                visit(w, t);
                let low = w.low[v].min(w.low[t]);
                w.low.insert(v, low);
            } else if w.on_stack.contains(t) {
                let low = w.low[v].min(w.index[t]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(t) = w.stack.pop() {
                w.on_stack.remove(t);
                component.push(t.clone());
                if t == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let nodes: Vec<&Module> = next.keys().copied().collect();
    let mut w = Walk {
        next,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in nodes {
        if !w.index.contains_key(v) {
            visit(&mut w, v);
        }
    }
    w.found
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

fn assert_no_circle(crate_name: &str) {
    let krate = read_crate(&workspace_crate(crate_name));
    assert!(krate.modules.len() > 5, "{crate_name}: modules not found");
    let edges = krate.edges();
    let found = circles(&edges);
    let mut report = String::new();
    for component in &found {
        report.push_str(&format!(
            "circle: {}\n",
            component.iter().map(name).collect::<Vec<_>>().join(", ")
        ));
        for ((from, to), (file, line)) in &edges {
            if component.contains(from) && component.contains(to) {
                report.push_str(&format!(
                    "  {} -> {} ({}:{line})\n",
                    name(from),
                    name(to),
                    file.display()
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{crate_name} has import circles:\n{report}"
    );
}

#[test]
fn no_import_circle_in_core() {
    assert_no_circle("core");
}

#[test]
fn no_import_circle_in_sim() {
    assert_no_circle("sim");
}

#[test]
fn no_import_circle_in_bench_runner() {
    assert_no_circle("bench-runner");
}

/// `fairsim-sim`'s layers (ARCHITECTURE.md): each top-level folder imports only the
/// folders listed for it.
#[test]
fn sim_layers_import_only_the_layers_below() {
    let allowed: &[(&str, &[&str])] = &[
        ("model", &[]),
        ("input", &["model"]),
        ("output", &["model"]),
        ("state", &["model", "input", "output"]),
        ("events", &["model", "state", "output"]),
        ("capacity", &["model", "input"]),
        ("preemption", &["model", "input"]),
        (
            "scheduler",
            &[
                "model",
                "input",
                "output",
                "state",
                "events",
                "capacity",
                "preemption",
            ],
        ),
    ];
    let krate = read_crate(&workspace_crate("sim"));
    let mut wrong = Vec::new();
    for ((from, to), (file, line)) in krate.edges() {
        let (Some(layer), Some(target)) = (from.first(), to.first()) else {
            continue;
        };
        if layer == target {
            continue;
        }
        if let Some((_, may)) = allowed.iter().find(|(l, _)| l == layer)
            && !may.contains(&target.as_str())
        {
            wrong.push(format!(
                "{} -> {} ({}:{line})",
                name(&from),
                name(&to),
                file.display()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers:\n{}",
        wrong.join("\n")
    );
}

/// The reader finds what it must: a circle made on purpose is reported, and the sim crate's
/// known edges (a Fair decision importing the world's state) are seen.
#[test]
fn the_reader_sees_edges_and_circles() {
    let krate = read_crate(&workspace_crate("sim"));
    let edges = krate.edges();
    let to = |a: &str, b: &str| {
        let a: Module = a.split("::").map(String::from).collect();
        let b: Module = b.split("::").map(String::from).collect();
        edges.contains_key(&(a, b))
    };
    assert!(to("scheduler::fair::assign", "state::world"));
    assert!(
        to("scheduler::fair::assign", "model::app"),
        "a re-export (crate::app) is followed"
    );
    let m = |s: &str| -> Module { s.split("::").map(String::from).collect() };
    let mut made = BTreeMap::new();
    made.insert((m("a"), m("b")), (PathBuf::from("a.rs"), 1));
    made.insert((m("b"), m("c")), (PathBuf::from("b.rs"), 1));
    made.insert((m("c"), m("a")), (PathBuf::from("c.rs"), 1));
    made.insert((m("c"), m("d")), (PathBuf::from("c.rs"), 2));
    assert_eq!(circles(&made), vec![vec![m("a"), m("b"), m("c")]]);
    assert_eq!(
        expand("a::{b,c::{d,e@f},self}"),
        vec![m("a::b"), m("a::c::d"), m("a::c::e"), m("a")]
    );
}
