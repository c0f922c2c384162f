//! One CSV field as every file of a run writes it: plain, or quoted with its quotes doubled
//! when it holds a comma, a quote or a line break (RFC 4180, what pandas reads).

pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `s` as one CSV field when displayed, quoted as [`csv_field`] quotes it, without building
/// a string (rows of a million apps are written through it).
pub(crate) struct CsvField<'a>(pub &'a str);

impl std::fmt::Display for CsvField<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.0.contains([',', '"', '\n', '\r']) {
            return f.write_str(self.0);
        }
        f.write_str("\"")?;
        for (i, part) in self.0.split('"').enumerate() {
            if i > 0 {
                f.write_str("\"\"")?;
            }
            f.write_str(part)?;
        }
        f.write_str("\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field displayed in place is the field `csv_field` builds: plain, or quoted with
    /// its quotes doubled.
    #[test]
    fn csv_fields_displayed_in_place_match_the_built_ones() {
        for s in [
            "",
            "root.q0",
            "a,b",
            "say \"hi\"",
            "\"",
            "\"\"",
            "x\ny",
            "cr\r",
            "a\"b,c\"",
        ] {
            assert_eq!(CsvField(s).to_string(), csv_field(s), "{s:?}");
        }
        assert_eq!(CsvField("say \"hi\"").to_string(), "\"say \"\"hi\"\"\"");
    }
}
