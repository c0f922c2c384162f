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

#[cfg(test)]
mod tests {
    use super::*;

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
