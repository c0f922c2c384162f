//! A run's start state (`[workload] start`): the containers the trace's apps already hold
//! on named nodes when the run begins, as `fairsim import rm` writes them from a cluster's
//! REST responses (docs/import.md).
//!
//! `start.csv` has the columns `app,node,priority,containers`: `containers` containers of
//! app `app`'s request at `priority` run on node `node` at time 0. Priority 0 is the AM
//! (one container); the others name a task row of the trace (its size and run time). An
//! app's rows come together, its AM row first, and every app named arrives at time 0.
//! The engine places them (`engine::warm_start`) before the first event.

use crate::workload::WorkloadError;
use std::path::{Path, PathBuf};

/// Containers of one app on one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartRow {
    /// The trace's app name.
    pub app: String,
    /// Node name.
    pub node: String,
    /// Request priority (0: the AM).
    pub priority: i32,
    /// How many containers.
    pub containers: u32,
    /// Line in the file (for messages).
    pub line: u64,
}

/// A start state: rows in file order, and where they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartState {
    /// The file.
    pub path: PathBuf,
    /// Its rows.
    pub rows: Vec<StartRow>,
}

/// The header `start.csv` must have.
pub const START_COLUMNS: [&str; 4] = ["app", "node", "priority", "containers"];

fn err(path: &Path, line: u64, field: &str, message: String) -> WorkloadError {
    WorkloadError::Parse {
        path: path.to_path_buf(),
        line,
        field: field.into(),
        message,
    }
}

/// Reads `start.csv` from text.
pub fn parse_start_state(text: &str, path: &Path) -> Result<StartState, WorkloadError> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(text.as_bytes());
    let header: Vec<String> = r
        .headers()
        .map_err(|e| err(path, 1, "header", e.to_string()))?
        .iter()
        .map(str::to_string)
        .collect();
    if header != START_COLUMNS {
        return Err(err(
            path,
            1,
            "header",
            format!("expected columns {}", START_COLUMNS.join(",")),
        ));
    }
    let mut rows: Vec<StartRow> = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            err(path, line, "row", e.to_string())
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let field = |i: usize| rec.get(i).unwrap_or("").trim();
        let name = |i: usize| -> Result<String, WorkloadError> {
            let v = field(i);
            if v.is_empty() {
                return Err(err(
                    path,
                    line,
                    &format!("column {} ({})", i + 1, START_COLUMNS[i]),
                    "empty".into(),
                ));
            }
            Ok(v.to_string())
        };
        let priority: i32 = field(2).parse().map_err(|_| {
            err(
                path,
                line,
                "column 3 (priority)",
                format!("`{}` is not a whole number", field(2)),
            )
        })?;
        let containers: u32 = field(3)
            .parse()
            .ok()
            .filter(|c| *c >= 1 && *c <= crate::limits::MAX_GROUP_CONTAINERS as u32)
            .ok_or_else(|| {
                err(
                    path,
                    line,
                    "column 4 (containers)",
                    format!(
                        "`{}` is not a whole number from 1 to {}",
                        field(3),
                        crate::limits::MAX_GROUP_CONTAINERS
                    ),
                )
            })?;
        let row = StartRow {
            app: name(0)?,
            node: name(1)?,
            priority,
            containers,
            line,
        };
        if priority == crate::app::AM_PRIORITY && containers != 1 {
            return Err(err(
                path,
                line,
                "column 4 (containers)",
                "an AM row (priority 0) holds one container".into(),
            ));
        }
        let starts_app = rows.last().is_none_or(|p| p.app != row.app);
        if starts_app && rows.iter().any(|p| p.app == row.app) {
            return Err(err(
                path,
                line,
                "column 1 (app)",
                format!("`{}`'s rows are not together", row.app),
            ));
        }
        if !starts_app && priority == crate::app::AM_PRIORITY {
            return Err(err(
                path,
                line,
                "column 3 (priority)",
                format!("`{}`'s AM row (priority 0) must come first", row.app),
            ));
        }
        rows.push(row);
    }
    Ok(StartState {
        path: path.to_path_buf(),
        rows,
    })
}

/// Reads `start.csv` from `path`.
pub fn read_start_state(path: &Path) -> Result<StartState, WorkloadError> {
    let text = crate::limits::read_text_file(path).map_err(|source| WorkloadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    parse_start_state(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_and_misplaced_ones_refused_with_their_line() {
        let p = Path::new("start.csv");
        let s = parse_start_state(
            "app,node,priority,containers\nA,h1,0,1\nA,h1,1,2\nA,h2,1,1\nB,h2,0,1\n",
            p,
        )
        .unwrap();
        assert_eq!(s.rows.len(), 4);
        assert_eq!(
            s.rows[1],
            StartRow {
                app: "A".into(),
                node: "h1".into(),
                priority: 1,
                containers: 2,
                line: 3
            }
        );
        let e = |text: &str| parse_start_state(text, p).unwrap_err().to_string();
        assert_eq!(
            e("app,node,priority,containers\nA,h1,0,1\nB,h1,0,1\nA,h1,1,1\n"),
            "start.csv:4: column 1 (app): `A`'s rows are not together"
        );
        assert_eq!(
            e("app,node,priority,containers\nA,h1,1,1\nA,h1,0,1\n"),
            "start.csv:3: column 3 (priority): `A`'s AM row (priority 0) must come first"
        );
        assert_eq!(
            e("app,node,priority,containers\nA,h1,0,2\n"),
            "start.csv:2: column 4 (containers): an AM row (priority 0) holds one container"
        );
        assert!(e("app,node,prio,containers\n").starts_with("start.csv:1: header:"));
        assert!(e("app,node,priority,containers\nA,h1,x,1\n").contains("column 3 (priority)"));
        assert!(e("app,node,priority,containers\nA,,1,1\n").contains("column 2 (node): empty"));
    }
}
