//! Users' groups for placement (Hadoop's `Groups` / `hadoop.security.group.mapping`), read
//! from an optional `groups.csv` with the header `user,primary_group,secondary_groups`
//! (secondary groups separated by `;`, possibly empty).
//!
//! Without the file, or for a user the file does not list, a user's primary group is the
//! user's own name and there are no secondary groups (the usual Linux layout of one personal
//! group per user, which Hadoop's shell-based mapping then reports).

use std::collections::BTreeMap;
use std::path::Path;

/// A user's groups: the primary first, then the secondary ones in file order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UserGroups {
    /// Primary group.
    pub primary: String,
    /// Secondary groups.
    pub secondary: Vec<String>,
}

/// The groups of every listed user.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Groups {
    users: BTreeMap<String, UserGroups>,
}

/// A broken groups file: file, line, column and what is wrong.
#[derive(Debug, thiserror::Error)]
#[error("{path}:{line}: {field}: {message}")]
pub struct GroupsError {
    /// File.
    pub path: String,
    /// 1-based line.
    pub line: u64,
    /// Column name.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

const HEADER: [&str; 3] = ["user", "primary_group", "secondary_groups"];

impl Groups {
    /// The primary group of `user`.
    pub fn primary<'a>(&'a self, user: &'a str) -> &'a str {
        self.users.get(user).map_or(user, |g| g.primary.as_str())
    }

    /// The secondary groups of `user`, in file order.
    pub fn secondary(&self, user: &str) -> &[String] {
        self.users.get(user).map_or(&[], |g| g.secondary.as_slice())
    }

    /// Number of users listed.
    pub fn len(&self) -> usize {
        self.users.len()
    }

    /// No user listed.
    pub fn is_empty(&self) -> bool {
        self.users.is_empty()
    }

    /// Parses groups CSV `text` (from `path`, for messages).
    pub fn parse(text: &str, path: &Path) -> Result<Groups, GroupsError> {
        let err = |line: u64, field: &str, message: String| GroupsError {
            path: path.display().to_string(),
            line,
            field: field.to_string(),
            message,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(text.as_bytes());
        let header = reader
            .headers()
            .map_err(|e| err(1, "header", e.to_string()))?
            .clone();
        if header.iter().collect::<Vec<_>>() != HEADER {
            return Err(err(1, "header", format!("expected `{}`", HEADER.join(","))));
        }
        let mut users = BTreeMap::new();
        for record in reader.records() {
            let record = record.map_err(|e| {
                let line = e.position().map_or(0, |p| p.line());
                err(line, "row", e.to_string())
            })?;
            let line = record.position().map_or(0, |p| p.line());
            let user = record[0].trim();
            let primary = record[1].trim();
            if user.is_empty() {
                return Err(err(line, "user", "must not be empty".into()));
            }
            if primary.is_empty() {
                return Err(err(line, "primary_group", "must not be empty".into()));
            }
            let secondary = record[2]
                .split(';')
                .map(str::trim)
                .filter(|g| !g.is_empty())
                .map(str::to_string)
                .collect();
            let groups = UserGroups {
                primary: primary.to_string(),
                secondary,
            };
            if users.insert(user.to_string(), groups).is_some() {
                return Err(err(line, "user", format!("`{user}` is listed twice")));
            }
        }
        Ok(Groups { users })
    }

    /// Reads the groups file at `path`.
    pub fn load(path: &Path) -> Result<Groups, GroupsError> {
        let text = crate::limits::read_text_file(path).map_err(|e| GroupsError {
            path: path.display().to_string(),
            line: 0,
            field: "file".into(),
            message: format!("cannot read: {e}"),
        })?;
        Groups::parse(&text, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Groups, String> {
        Groups::parse(text, Path::new("groups.csv")).map_err(|e| e.to_string())
    }

    #[test]
    fn listed_users_have_their_groups_and_others_their_own_name() {
        let g = parse("user,primary_group,secondary_groups\nalice,eng,ml;ops\nbob,sales,\n")
            .expect("valid");
        assert_eq!(g.primary("alice"), "eng");
        assert_eq!(g.secondary("alice"), ["ml".to_string(), "ops".to_string()]);
        assert_eq!(g.primary("bob"), "sales");
        assert!(g.secondary("bob").is_empty());
        assert_eq!(g.primary("carol"), "carol");
        assert!(g.secondary("carol").is_empty());
    }

    #[test]
    fn errors_name_the_file_line_and_field() {
        let e = parse("user,group\n").unwrap_err();
        assert!(e.starts_with("groups.csv:1: header: expected"), "{e}");
        let e = parse("user,primary_group,secondary_groups\nalice,,x\n").unwrap_err();
        assert_eq!(e, "groups.csv:2: primary_group: must not be empty");
        let e = parse("user,primary_group,secondary_groups\na,x,\na,y,\n").unwrap_err();
        assert_eq!(e, "groups.csv:3: user: `a` is listed twice");
        let e = parse("user,primary_group,secondary_groups\na,x\n").unwrap_err();
        assert!(e.starts_with("groups.csv:2: row:"), "{e}");
    }
}
