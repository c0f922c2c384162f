//! Every command of README.md and docs/*.md runs as written. The rule (docs/testing.md, "Docs
//! that run"):
//!
//! - a fenced block tagged `sh` or `console` is commands, one a line (a trailing `\` joins the
//!   next line; `#` lines are comments); a `$ ` line of a `text` block is a command too, and
//!   the lines after it (to the next `$ ` line or the block's end) are its standard output,
//!   compared exactly;
//! - a second word after the tag says why a block is not run here: `placeholder` (names in
//!   capitals stand for the reader's own files), `ci` (`.ci/run` runs it), `external` (Slurm,
//!   Kubernetes, a nightly toolchain), `long`;
//! - cargo's own commands (`cargo build`, `test`, `bench`, `+nightly fuzz`, with or without
//!   `VAR=value` before them) are not run here: CI builds, tests and compiles the benches;
//!   `cargo run --release --bin fairsim --` is `fairsim`.
//!
//! Each block runs with `sh -c`, its lines in order, from a scratch directory holding the
//! repository's `scenarios/` and `scripts/`, so that what a command writes under `results/`
//! lands there; `fairsim` and `./target/release/fairsim` are the binary under test.

#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command of the docs, where it is written and the output the docs show for it.
#[derive(Debug)]
struct DocCommand {
    file: String,
    line: usize,
    text: String,
    expected: Option<Vec<String>>,
}

/// A fenced block: its info string, first line and lines.
struct Block {
    info: String,
    line: usize,
    lines: Vec<String>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim_start();
        match open.take() {
            None => {
                if let Some(info) = t.strip_prefix("```") {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        line: i + 1,
                        lines: Vec::new(),
                    });
                }
            }
            Some(mut b) => {
                if t.trim_end() == "```" {
                    out.push(b);
                } else {
                    b.lines.push(raw.to_string());
                    open = Some(b);
                }
            }
        }
    }
    assert!(open.is_none(), "an unclosed fenced block");
    out
}

const NOT_RUN: [&str; 4] = ["placeholder", "ci", "external", "long"];

/// Whether a command is cargo's own (not run here).
fn is_cargo(cmd: &str) -> bool {
    let mut words = cmd.split_whitespace().skip_while(|w| {
        w.contains('=') && !w.starts_with('-') && w.split('=').next().is_some_and(|k| !k.is_empty())
    });
    words.next() == Some("cargo")
}

/// The docs' commands, block by block; a mark this test does not know fails it.
fn commands(file: &str, text: &str) -> Vec<Vec<DocCommand>> {
    let mut out = Vec::new();
    for b in blocks(text) {
        let mut words = b.info.split_whitespace();
        let lang = words.next().unwrap_or("");
        let mark = words.next();
        if let Some(m) = mark {
            assert!(
                NOT_RUN.contains(&m) || !matches!(lang, "sh" | "console"),
                "{file}:{}: unknown mark `{m}` (one of {NOT_RUN:?})",
                b.line
            );
        }
        let mut block = Vec::new();
        match lang {
            "sh" | "console" if mark.is_none() => {
                let mut pending: Option<(usize, String)> = None;
                for (k, l) in b.lines.iter().enumerate() {
                    let line_no = b.line + 1 + k;
                    let (start, mut cmd) = pending.take().unwrap_or((line_no, String::new()));
                    let l = l.trim();
                    if let Some(head) = l.strip_suffix('\\') {
                        cmd.push_str(head);
                        pending = Some((start, cmd));
                        continue;
                    }
                    cmd.push_str(l);
                    let cmd = match cmd.strip_prefix("cargo run --release --bin fairsim --") {
                        Some(rest) => format!("fairsim{rest}"),
                        None => cmd,
                    };
                    if cmd.is_empty() || cmd.starts_with('#') || is_cargo(&cmd) {
                        continue;
                    }
                    block.push(DocCommand {
                        file: file.into(),
                        line: start,
                        text: cmd,
                        expected: None,
                    });
                }
                assert!(
                    pending.is_none(),
                    "{file}:{}: a `\\` ends the block",
                    b.line
                );
            }
            "text" | "" => {
                for (k, l) in b.lines.iter().enumerate() {
                    if let Some(cmd) = l.strip_prefix("$ ") {
                        block.push(DocCommand {
                            file: file.into(),
                            line: b.line + 1 + k,
                            text: cmd.trim().to_string(),
                            expected: Some(Vec::new()),
                        });
                    } else if let Some(last) = block.last_mut() {
                        last.expected.as_mut().expect("a $ command").push(l.clone());
                    }
                }
            }
            _ => {}
        }
        if !block.is_empty() {
            out.push(block);
        }
    }
    out
}

/// A scratch directory that looks like the repository root to the docs' commands.
fn scratch(bin_dir: &Path) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for dir in ["scenarios", "scripts"] {
        std::os::unix::fs::symlink(repo().join(dir), d.path().join(dir)).unwrap();
    }
    std::fs::create_dir_all(d.path().join("target/release")).unwrap();
    std::os::unix::fs::symlink(
        bin_dir.join("fairsim"),
        d.path().join("target/release/fairsim"),
    )
    .unwrap();
    d
}

#[test]
fn every_command_of_the_readme_and_docs_runs_as_written() {
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fairsim"), bin.path().join("fairsim")).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut files = vec![repo().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut failures = Vec::new();
    let mut ran = 0;
    for f in &files {
        let name = f
            .strip_prefix(repo())
            .unwrap_or(f)
            .display()
            .to_string()
            .trim_start_matches("/")
            .to_string();
        let text = std::fs::read_to_string(f).unwrap();
        for block in commands(&name, &text) {
            let dir = scratch(bin.path());
            for c in block {
                ran += 1;
                let o = Command::new("sh")
                    .arg("-c")
                    .arg(&c.text)
                    .current_dir(dir.path())
                    .env("PATH", &path)
                    .output()
                    .expect("sh runs");
                let stdout = String::from_utf8_lossy(&o.stdout);
                let at = format!("{}:{}: `{}`", c.file, c.line, c.text);
                if !o.status.success() {
                    failures.push(format!(
                        "{at}: exit {:?}: {}",
                        o.status.code(),
                        String::from_utf8_lossy(&o.stderr)
                    ));
                    continue;
                }
                if let Some(expected) = &c.expected {
                    let got: Vec<&str> = stdout.lines().map(str::trim_end).collect();
                    let want: Vec<&str> = expected.iter().map(|l| l.trim_end()).collect();
                    if got != want {
                        failures.push(format!(
                            "{at}: the docs show\n{}\nthe command prints\n{}",
                            want.join("\n"),
                            got.join("\n")
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{ran} commands of the docs ran");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The parser found the docs' commands (a change of fence style must not hide them).
    assert!(ran >= 12, "only {ran} commands found");
}

#[test]
fn the_rule_reads_blocks_marks_and_prompts() {
    let text = "```sh\nfairsim a \\\n  --b   # c\n# comment\ncargo build --release\nX=1 cargo test\ncargo run --release --bin fairsim -- d\n```\n\
                ```sh placeholder\nfairsim plan PLAN.toml\n```\n\
                ```text\n$ fairsim e\nout 1\nout 2\n```\n```toml\nx = 1\n```\n";
    type Found = (usize, String, Option<Vec<String>>);
    let found: Vec<Vec<Found>> = commands("d.md", text)
        .into_iter()
        .map(|b| {
            b.into_iter()
                .map(|c| (c.line, c.text, c.expected))
                .collect()
        })
        .collect();
    assert_eq!(
        found,
        [
            vec![
                (2, "fairsim a --b   # c".to_string(), None),
                (7, "fairsim d".to_string(), None)
            ],
            vec![(
                13,
                "fairsim e".to_string(),
                Some(vec!["out 1".to_string(), "out 2".to_string()])
            )],
        ]
    );
}
