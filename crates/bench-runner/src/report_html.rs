//! `report.html`: one self-contained page per run, sweep and comparison — the charts as
//! inline SVG, the summary tables, the scenario (or sweep) files and the command that made
//! them. No script, no style sheet, font or image from elsewhere: the page opens the same
//! offline, attached to a mail or checked into a wiki.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::plot::ticks::value_label;
use crate::results::write_atomic;

/// The file name of every report.
pub const REPORT_HTML: &str = "report.html";

/// One part of a report page.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A section heading.
    Heading(String),
    /// A paragraph of plain text.
    Para(String),
    /// Preformatted text (a headline, a file, a command) under a caption.
    Pre {
        /// What the text is.
        caption: String,
        /// The text.
        text: String,
    },
    /// A table; cells that read as numbers are right-aligned.
    Table {
        /// What the table shows.
        caption: String,
        /// Column names.
        header: Vec<String>,
        /// Rows of cells.
        rows: Vec<Vec<String>>,
    },
    /// Charts: `(name, SVG text)`, drawn inline.
    Charts(Vec<(String, String)>),
}

/// A report page.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The page's title.
    pub title: String,
    /// Its parts, in order.
    pub blocks: Vec<Block>,
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            c => s.push(c),
        }
    }
    s
}

const STYLE: &str = "body{font-family:'DejaVu Sans',Verdana,sans-serif;margin:2em auto;max-width:1100px;\
padding:0 1em;color:#222;line-height:1.4}h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;\
border-bottom:1px solid #ccc}table{border-collapse:collapse;margin:.5em 0 1.5em;font-size:.9em}\
caption{text-align:left;font-weight:bold;padding:.3em 0}th,td{padding:.25em .7em;border-bottom:1px solid #e4e4e4;\
text-align:left}th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:tabular-nums}\
tr:nth-child(even) td{background:#fafafa}pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:.85em}\
figure.chart{margin:1.5em 0}figure.chart svg{width:100%;height:auto;max-width:1024px;border:1px solid #eee}\
figcaption{font-size:.85em;color:#555}";

fn looks_numeric(cell: &str) -> bool {
    let t = cell.trim_start_matches(['≥', ' ', '-', '+']);
    !t.is_empty()
        && t.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '\u{2009}' | ' ' | '[' | ']' | ','))
}

impl Page {
    /// The page as HTML.
    pub fn render(&self) -> String {
        let mut h = String::new();
        let _ = write!(
            h,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
            escape(&self.title),
            escape(&self.title)
        );
        for b in &self.blocks {
            match b {
                Block::Heading(t) => {
                    let _ = writeln!(h, "<h2>{}</h2>", escape(t));
                }
                Block::Para(t) => {
                    let _ = writeln!(h, "<p>{}</p>", escape(t));
                }
                Block::Pre { caption, text } => {
                    let _ = writeln!(
                        h,
                        "<p><b>{}</b></p>\n<pre>{}</pre>",
                        escape(caption),
                        escape(text.trim_end())
                    );
                }
                Block::Table {
                    caption,
                    header,
                    rows,
                } => {
                    let _ = write!(h, "<table>\n<caption>{}</caption>\n<tr>", escape(caption));
                    for c in header {
                        let _ = write!(h, "<th>{}</th>", escape(c));
                    }
                    h.push_str("</tr>\n");
                    for r in rows {
                        h.push_str("<tr>");
                        for c in r {
                            let class = if looks_numeric(c) { " class=\"n\"" } else { "" };
                            let _ = write!(h, "<td{class}>{}</td>", escape(c));
                        }
                        h.push_str("</tr>\n");
                    }
                    h.push_str("</table>\n");
                }
                Block::Charts(charts) => {
                    for (name, svg) in charts {
                        let svg = svg.trim();
                        let svg = svg
                            .strip_prefix("<?xml")
                            .and_then(|s| s.split_once("?>").map(|p| p.1.trim()))
                            .unwrap_or(svg);
                        // Inline SVG in HTML needs no namespace; without it the page names
                        // no address at all.
                        let svg = svg.replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1);
                        let _ = writeln!(
                            h,
                            "<figure class=\"chart\" data-chart=\"{}\">\n{svg}\n<figcaption>{}</figcaption>\n</figure>",
                            escape(name),
                            escape(&crate::plot::captions::caption(name))
                        );
                    }
                }
            }
        }
        h.push_str("</body>\n</html>\n");
        h
    }

    /// Writes the page to `dir/report.html` atomically; returns the path.
    pub fn write(&self, dir: &Path) -> std::io::Result<PathBuf> {
        let path = dir.join(REPORT_HTML);
        write_atomic(&path, self.render().as_bytes())?;
        Ok(path)
    }
}

/// The command line that started this process, quoted for a POSIX shell.
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().collect();
    let prog = args
        .first()
        .and_then(|a| Path::new(a).file_name())
        .map_or("fairsim".to_string(), |n| n.to_string_lossy().into_owned());
    std::iter::once(prog)
        .chain(args.into_iter().skip(1))
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a` as one shell word.
pub fn shell_quote(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// The charts among `files` (their SVG halves) as `(file stem, SVG text)`.
pub fn charts_of(files: &[PathBuf]) -> std::io::Result<Vec<(String, String)>> {
    files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
        .map(|f| {
            let name = f
                .file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into_owned());
            Ok((name, std::fs::read_to_string(f)?))
        })
        .collect()
}

/// A file's text for a report, or a note saying it could not be read.
pub fn file_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("({}: {e})", path.display()))
}

/// The allocation file (fair-scheduler.xml or capacity-scheduler.xml) a scenario file names
/// in `[allocation] file`, beside the scenario; `None` when it names none or cannot be read
/// (the run itself says why).
pub fn allocation_file(scenario: &Path) -> Option<std::path::PathBuf> {
    let text = std::fs::read_to_string(scenario).ok()?;
    let value: toml::Value = toml::from_str(&text).ok()?;
    let file = value.get("allocation")?.get("file")?.as_str()?;
    Some(scenario.parent().unwrap_or(Path::new("")).join(file))
}

/// A scenario file and the allocation file it names, each as a preformatted block.
pub fn scenario_blocks(scenario: &Path, label: &str) -> Vec<Block> {
    let mut out = vec![Block::Pre {
        caption: format!("{label} ({})", scenario.display()),
        text: file_text(scenario),
    }];
    if let Some(alloc) = allocation_file(scenario) {
        out.push(Block::Pre {
            caption: format!("Allocation file ({})", alloc.display()),
            text: file_text(&alloc),
        });
    }
    out
}

/// A metric's value for a table: short, `≥` before a censored percentile, `n/a` for none.
pub fn cell(value: Option<f64>, censored: bool) -> String {
    match value {
        Some(v) if v.is_finite() && censored => format!("≥ {}", value_label(v)),
        Some(v) => value_label(v),
        None => "n/a".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_charts_inlined() {
        let page = Page {
            title: "a <b> & 'c'".into(),
            blocks: vec![
                Block::Table {
                    caption: "t".into(),
                    header: vec!["queue".into(), "p95".into()],
                    rows: vec![vec!["root.<x>".into(), "≥ 12.5".into()]],
                },
                Block::Charts(vec![(
                    "usage".into(),
                    "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 10\" xmlns=\"http://www.w3.org/2000/svg\"></svg>".into(),
                )]),
            ],
        };
        let html = page.render();
        assert!(html.contains("<title>a &lt;b&gt; &amp; &#39;c&#39;</title>"));
        assert!(html.contains("<td>root.&lt;x&gt;</td><td class=\"n\">≥ 12.5</td>"));
        assert!(html.contains(
            "<figure class=\"chart\" data-chart=\"usage\">\n<svg viewBox=\"0 0 10 10\"></svg>"
        ));
        // The caption says in words what the chart shows, not its file name.
        assert!(
            html.contains("<figcaption>Memory each leaf queue used (solid)"),
            "{html}"
        );
        assert!(!html.contains("<figcaption>usage</figcaption>"));
        assert!(!html.contains("<?xml"));
        assert!(!html.contains("http:") && !html.contains("https:") && !html.contains("<script"));
    }

    #[test]
    fn commands_are_quoted_for_the_shell() {
        assert_eq!(shell_quote("scenarios/a.toml"), "scenarios/a.toml");
        assert_eq!(shell_quote("my dir/x"), "'my dir/x'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}
