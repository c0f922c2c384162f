//! The tables the terminal prints: columns padded to their widest cell (counted in
//! characters, so `≥` and `…` take one), two spaces between columns, no trailing blanks.

/// `lines` (a header and its rows, every line as many cells as the header) as text, one
/// line each: the first `left` columns aligned left (names), the rest right (numbers).
pub fn aligned(lines: &[Vec<String>], left: usize) -> String {
    let columns = lines.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            lines
                .iter()
                .map(|l| l[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for line in lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                let pad = " ".repeat(w - cell.chars().count());
                if c < left {
                    format!("{cell}{pad}")
                } else {
                    format!("{pad}{cell}")
                }
            })
            .collect();
        out += cells.join("  ").trim_end();
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    #[test]
    fn names_go_left_and_numbers_right() {
        let t = lines(&[&["metric", "fair", "capacity"], &["Jain", "0.9", "0.75"]]);
        assert_eq!(
            aligned(&t, 1),
            "metric  fair  capacity\n\
             Jain     0.9      0.75\n"
        );
        // Every column right-aligned; a short last cell leaves no blanks at the line's end.
        assert_eq!(
            aligned(&t, 0),
            "metric  fair  capacity\n\
             \x20 Jain   0.9      0.75\n"
        );
        assert_eq!(
            aligned(&t, usize::MAX),
            "metric  fair  capacity\n\
             Jain    0.9   0.75\n"
        );
    }

    #[test]
    fn widths_count_characters_not_bytes() {
        // "≥ 12" is four characters (six bytes): "p95" is padded by one, not three.
        let t = lines(&[&["p95"], &["≥ 12"]]);
        assert_eq!(aligned(&t, 0), " p95\n≥ 12\n");
    }
}
