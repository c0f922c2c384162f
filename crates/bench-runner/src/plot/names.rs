//! Queue names short enough for a legend or a panel caption. Names on a real cluster share
//! long prefixes (`root.analytics.nightly_ingest_pipeline.…`) and differ at their end, so
//! they are shortened from the left: the fewest trailing dotted parts that no other name
//! shown ends with, then, if still too long, its last characters. A shortened name starts
//! with `…`; the SVG carries the full name as a tooltip (see [`super::Chart::tooltips`]).

/// The most characters a shortened name keeps, `…` included.
pub const MAX_NAME_CHARS: usize = 30;

/// Short forms of `names` (in order), each unique among them when the names are.
pub fn short_names(names: &[String]) -> Vec<String> {
    names
        .iter()
        .map(|n| shorten(n, names, MAX_NAME_CHARS))
        .collect()
}

/// `name` shortened from the left to at most `max` characters, keeping a suffix that no
/// other of `all` ends with where one fits.
pub fn shorten(name: &str, all: &[String], max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let parts: Vec<&str> = name.split('.').collect();
    let ends_alike = |suffix: &str| {
        all.iter().filter(|o| o.as_str() != name).any(|o| {
            o.ends_with(suffix) && (o.len() == suffix.len() || o.ends_with(&format!(".{suffix}")))
        })
    };
    let n = name.chars().count();
    for k in 1..parts.len() {
        let suffix = parts[parts.len() - k..].join(".");
        if ends_alike(&suffix) {
            continue;
        }
        if suffix.chars().count() < max {
            return format!("…{suffix}");
        }
        // The part that tells this name apart, cut, then the leaf: `…engineering_d….default`.
        let leaf = parts[parts.len() - 1];
        let room = max.saturating_sub(leaf.chars().count() + 3);
        if k > 1 && room >= 6 {
            let head: String = parts[parts.len() - k].chars().take(room).collect();
            return format!("…{head}….{leaf}");
        }
        break;
    }
    // The last characters, which is where names on a cluster differ.
    let tail: String = name.chars().skip(n - (max - 1)).collect();
    format!("…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn short_names_stay_as_they_are() {
        let all = names(&["root.A", "root.B"]);
        assert_eq!(short_names(&all), all);
    }

    #[test]
    fn long_names_keep_the_unique_end() {
        // Both end in `.ingest`, so the team is kept; 29 characters fit in 30.
        let all = names(&[
            "root.analytics.nightly_pipeline.team_a.ingest",
            "root.analytics.nightly_pipeline.team_b.ingest",
            "root.analytics.nightly_pipeline.clickstream",
        ]);
        assert_eq!(
            short_names(&all),
            ["…team_a.ingest", "…team_b.ingest", "…clickstream"]
        );
    }

    #[test]
    fn a_leaf_name_too_long_keeps_its_last_characters() {
        // The leaf alone is 41 characters: its last 29 follow the ellipsis.
        let all = names(&["root.a.an_extraordinarily_long_leaf_queue_name_x"]);
        assert_eq!(short_names(&all), ["…narily_long_leaf_queue_name_x"]);
    }

    #[test]
    fn a_leaf_shared_by_two_parents_keeps_the_part_that_differs() {
        // `streaming.shared_default` ends both; the department tells them apart but is too
        // long in full: its first 13 characters (30 - 14 - 3) stand for it.
        let all = names(&[
            "root.engineering_department.streaming.shared_default",
            "root.finance_department.streaming.shared_default",
        ]);
        assert_eq!(
            short_names(&all),
            [
                "…engineering_d….shared_default",
                "…finance_depar….shared_default"
            ]
        );
    }
}
