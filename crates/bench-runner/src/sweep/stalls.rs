//! Where runs stalled, said in one line for the terminal: a stalled run's apps never finish, so its numbers
//! are lower bounds or counts of survivors, and whoever reads a sweep's or plan's results must know which
//! points they come from.

/// Most points a line names before it says how many more there are.
const MAX_POINTS: usize = 10;

/// `5 runs stalled (apps unfinished, nothing left to change): weight=0.1, minshare=0 (seeds 3, 7); ...`, or
/// `None` when no run stalled. `points` are the points with stalled runs, each with its stalled seeds, in the
/// order they should be read.
pub fn stalled_line(points: &[(String, Vec<u64>)]) -> Option<String> {
    let total: usize = points.iter().map(|p| p.1.len()).sum();
    if total == 0 {
        return None;
    }
    let mut named: Vec<String> = points
        .iter()
        .filter(|p| !p.1.is_empty())
        .take(MAX_POINTS)
        .map(|(point, seeds)| {
            let list: Vec<String> = seeds.iter().map(u64::to_string).collect();
            let noun = if seeds.len() == 1 { "seed" } else { "seeds" };
            format!("{point} ({noun} {})", list.join(", "))
        })
        .collect();
    let with_stalls = points.iter().filter(|p| !p.1.is_empty()).count();
    if with_stalls > MAX_POINTS {
        named.push(format!("and {} more points", with_stalls - MAX_POINTS));
    }
    Some(format!(
        "{total} run{} stalled (apps unfinished, nothing left to change): {}",
        if total == 1 { "" } else { "s" },
        named.join("; ")
    ))
}

/// Most sentences of a stalled run's diagnosis the terminal shows.
const MAX_WHY: usize = 3;

/// A point of a sweep named by its axis values, `weight=0.1, minshare=0`.
pub fn point_words(axes: &[String], values: &[String]) -> String {
    let named: Vec<String> = axes
        .iter()
        .zip(values)
        .map(|(a, v)| format!("{a}={v}"))
        .collect();
    if named.is_empty() {
        "the base scenario".to_string()
    } else {
        named.join(", ")
    }
}

/// The diagnosis of one stalled run, for the lines under [`stalled_line`]: which run, then
/// one line per group of its unfinished apps (at most `MAX_WHY`, then how many more), or
/// `None` when the runner gave none.
pub fn why_lines(point: &str, seed: u64, words: &[String]) -> Option<String> {
    if words.is_empty() {
        return None;
    }
    let mut lines = vec![format!(
        "why the first stalled run ({point}, seed {seed}) stalled:"
    )];
    lines.extend(words.iter().take(MAX_WHY).map(|w| format!("  - {w}")));
    if words.len() > MAX_WHY {
        lines.push(format!(
            "  - and {} more groups: `fairsim run` of that point and seed lists them all",
            words.len() - MAX_WHY
        ));
    }
    Some(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_why_lines_name_the_run_and_stop_after_three() {
        assert_eq!(why_lines("a=1", 3, &[]), None);
        let words: Vec<String> = (1..=5).map(|k| format!("group {k} waits")).collect();
        assert_eq!(
            why_lines("a=1, b=2", 3, &words).unwrap(),
            "why the first stalled run (a=1, b=2, seed 3) stalled:\n  - group 1 waits\n  - group 2 \
             waits\n  - group 3 waits\n  - and 2 more groups: `fairsim run` of that point and seed \
             lists them all"
        );
        assert_eq!(
            why_lines("a=1", 3, &words[..1]).unwrap(),
            "why the first stalled run (a=1, seed 3) stalled:\n  - group 1 waits"
        );
        assert_eq!(point_words(&[], &[]), "the base scenario");
    }

    #[test]
    fn the_line_names_each_point_and_its_seeds() {
        assert_eq!(stalled_line(&[("a=1".into(), vec![])]), None);
        let line = stalled_line(&[
            ("a=1".into(), vec![3, 7]),
            ("a=2".into(), vec![]),
            ("a=3".into(), vec![1]),
        ])
        .unwrap();
        assert_eq!(
            line,
            "3 runs stalled (apps unfinished, nothing left to change): a=1 (seeds 3, 7); a=3 (seed 1)"
        );
        let many: Vec<(String, Vec<u64>)> = (0..12).map(|i| (format!("a={i}"), vec![1])).collect();
        assert!(
            stalled_line(&many)
                .unwrap()
                .ends_with("a=9 (seed 1); and 2 more points")
        );
    }
}
