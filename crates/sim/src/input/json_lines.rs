//! The line of a value in a JSON text, for errors found after the text was parsed (a number
//! out of range, a missing key, a value of the wrong kind): such a check sees a
//! `serde_json::Value` or a struct, which keep no positions, so the text is read again, once,
//! only when an error needs a line.
//!
//! Paths are written as messages print them: keys joined by `.`, list elements as `[index]`
//! (`nodes.node[3].availMemoryMB`). Keys may hold dots themselves (SLS's
//! `job.tasks[1].container.host`), so at each object a key is taken when it starts the rest of
//! the path followed by `.`, `[` or nothing and its value can hold the rest (an object for a
//! `.`, a list for a `[`); when two keys would (`a` and `a.b` for `a.b.c`, both over objects)
//! the first written is followed. A path that leaves the text (a missing key, an index past
//! the end, a key under a number) answers the line of the deepest value found: a missing key
//! names the object that lacks it.
//!
//! The scan streams: it reads each byte at most once, holds nothing but the rest of the path
//! and a line count, and so finds a line in a file of hundreds of MB read back from disk
//! without holding it. Text that is not JSON is scanned as far as it makes sense and never
//! panics; the line answered then is only a best guess.

use std::io::BufRead;

/// Path steps followed at most: a longer path answers the line reached (no reader names
/// one), so that the search is bounded whatever the path.
const MAX_PATH_DEPTH: usize = 1024;

/// A fault found in a JSON document after it was parsed: the path of the value at fault from
/// the document's root, to find its line, and the message naming it as the reader prints it
/// (which may name the value by a shorter path, `rootQueue.fairResources`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonFault {
    /// Path of the value at fault (or of the one that lacks a key) from the root.
    pub path: String,
    /// What is wrong, starting with the field as the reader names it.
    pub message: String,
}

impl JsonFault {
    /// A fault at `path` saying `message`.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> JsonFault {
        JsonFault {
            path: path.into(),
            message: message.into(),
        }
    }

    /// A fault at `path` whose message names that path: `path: what`.
    pub fn field(path: String, what: impl std::fmt::Display) -> JsonFault {
        let message = format!("{path}: {what}");
        JsonFault { path, message }
    }

    /// `file:LINE: message`, the line found in `text`, the document's whole text.
    pub fn at(&self, file: &str, text: impl BufRead) -> String {
        format!(
            "{file}:{}: {}",
            value_line(text, 1, &self.path),
            self.message
        )
    }
}

/// The 1-based line where the value at `path` starts in `text`, a JSON value whose first
/// byte is on line `first_line`; for a path that leaves the text, the line of the deepest
/// value found on the way.
pub fn value_line(text: impl BufRead, first_line: u64, path: &str) -> u64 {
    let mut s = Scan::new(text, first_line);
    s.descend(path).1
}

/// The 1-based line where each element of the list at `path` starts in `text` (a JSON value
/// starting on line `first_line`), in one scan; empty when `path` is not a list.
pub fn element_lines(text: impl BufRead, first_line: u64, path: &str) -> Vec<u64> {
    let mut s = Scan::new(text, first_line);
    let mut lines = Vec::new();
    if s.descend(path).0 && s.peek() == Some(b'[') {
        s.bump();
        while let Some(line) = s.next_element() {
            lines.push(line);
            s.skip_value();
        }
    }
    lines
}

/// Where a search step went: into the value that holds the rest of the path (answered), or
/// nowhere, with the line of a value passed over that came closest.
enum Step<'p> {
    Found(&'p str),
    Missing(Option<u64>),
}

/// A byte cursor over the text that counts lines as it goes.
struct Scan<R> {
    src: R,
    line: u64,
}

impl<R: BufRead> Scan<R> {
    fn new(mut src: R, first_line: u64) -> Scan<R> {
        // A leading byte-order mark is not part of the JSON.
        if src.fill_buf().is_ok_and(|b| b.starts_with(b"\xEF\xBB\xBF")) {
            src.consume(3);
        }
        Scan {
            src,
            line: first_line,
        }
    }

    /// The next byte; `None` at the end (or on a read error, which ends the scan too).
    fn peek(&mut self) -> Option<u8> {
        self.src.fill_buf().ok()?.first().copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.src.consume(1);
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.bump();
        }
    }

    /// Walks from the value starting here to the one at `path`, and stops at its first
    /// byte: `(true, its line)`, or `(false, the line of the deepest value found)`.
    fn descend(&mut self, path: &str) -> (bool, u64) {
        let mut rest = path;
        for _ in 0..MAX_PATH_DEPTH {
            self.skip_space();
            let here = self.line;
            rest = rest.strip_prefix('.').unwrap_or(rest);
            if rest.is_empty() {
                return (true, here);
            }
            let step = match (self.peek(), rest.strip_prefix('[')) {
                (Some(b'{'), _) => {
                    self.bump();
                    self.find_key(rest)
                }
                (Some(b'['), Some(index)) => {
                    self.bump();
                    self.find_element(index)
                }
                _ => Step::Missing(None),
            };
            match step {
                Step::Found(after) => rest = after,
                Step::Missing(passed) => return (false, passed.unwrap_or(here)),
            }
        }
        (false, self.line)
    }

    /// Inside an object: reads members up to the first whose key starts `rest` and whose
    /// value can hold the rest of the path, and stops at that value.
    fn find_key<'p>(&mut self, rest: &'p str) -> Step<'p> {
        // A key that starts the path over a value that cannot hold the rest (`job` of
        // `job.tasks[0]` over a number, beside a `job.tasks` key) is passed over, its line
        // kept in case no other key does better.
        let mut passed = None;
        loop {
            self.skip_space();
            match self.peek() {
                None | Some(b'}' | b']') => return Step::Missing(passed),
                Some(b'"') => {}
                Some(_) => {
                    // A comma, or a stray byte of a text that is not JSON.
                    self.bump();
                    continue;
                }
            }
            let len = self.key_matching(rest);
            self.skip_space();
            if self.peek() == Some(b':') {
                self.bump();
            }
            if let Some(len) = len {
                let after = &rest[len..];
                let wants = after.as_bytes().first().copied();
                if matches!(wants, None | Some(b'.' | b'[')) {
                    self.skip_space();
                    let holds = match wants {
                        None => true,
                        Some(b'.') => self.peek() == Some(b'{'),
                        _ => self.peek() == Some(b'['),
                    };
                    if holds {
                        return Step::Found(after);
                    }
                    passed.get_or_insert(self.line);
                }
            }
            self.skip_value();
        }
    }

    /// Inside a list, with `index` the path after its `[`: skips to that element and stops
    /// at it, answering the rest of the path after `]`.
    fn find_element<'p>(&mut self, index: &'p str) -> Step<'p> {
        let Some((wanted, after)) = index
            .split_once(']')
            .and_then(|(digits, after)| Some((digits.parse::<usize>().ok()?, after)))
        else {
            return Step::Missing(None);
        };
        for _ in 0..wanted {
            if self.next_element().is_none() {
                return Step::Missing(None);
            }
            self.skip_value();
        }
        match self.next_element() {
            Some(_) => Step::Found(after),
            None => Step::Missing(None),
        }
    }

    /// Inside a list: moves to the start of the next element and answers its line, or
    /// `None` at the list's end.
    fn next_element(&mut self) -> Option<u64> {
        loop {
            self.skip_space();
            match self.peek()? {
                b']' | b'}' => return None,
                b',' | b':' => {
                    self.bump();
                }
                _ => return Some(self.line),
            }
        }
    }

    /// Reads the string key starting here, comparing it with the start of `rest` as it goes
    /// (escapes decoded): the key's length in bytes when `rest` starts with it.
    fn key_matching(&mut self, rest: &str) -> Option<usize> {
        let want = rest.as_bytes();
        let (mut len, mut same) = (0, true);
        let mut utf8 = [0; 4];
        self.bump(); // the opening quote
        while let Some(b) = self.bump() {
            let bytes: &[u8] = match b {
                b'"' => return same.then_some(len),
                b'\\' => match self.escaped_char() {
                    Some(c) => c.encode_utf8(&mut utf8).as_bytes(),
                    None => {
                        same = false;
                        continue;
                    }
                },
                _ => &[b],
            };
            same = same && want.get(len..len + bytes.len()) == Some(bytes);
            len += bytes.len();
        }
        None
    }

    /// The character an escape stands for, after its `\`; `None` for a malformed one (its
    /// bytes are still consumed so the scan goes on).
    fn escaped_char(&mut self) -> Option<char> {
        let unit = match self.bump()? {
            b'"' => return Some('"'),
            b'\\' => return Some('\\'),
            b'/' => return Some('/'),
            b'b' => return Some('\u{8}'),
            b'f' => return Some('\u{c}'),
            b'n' => return Some('\n'),
            b'r' => return Some('\r'),
            b't' => return Some('\t'),
            b'u' => self.hex4()?,
            _ => return None,
        };
        if !(0xD800..0xDC00).contains(&unit) {
            return char::from_u32(unit);
        }
        // A high surrogate: its low half follows as a second escape.
        if self.peek() != Some(b'\\') {
            return None;
        }
        self.bump();
        if self.bump()? != b'u' {
            return None;
        }
        let low = self.hex4()?;
        if !(0xDC00..0xE000).contains(&low) {
            return None;
        }
        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
    }

    fn hex4(&mut self) -> Option<u32> {
        let mut v = 0;
        for _ in 0..4 {
            // A non-hex byte is left for the string's own loop (it may be the closing quote).
            let d = char::from(self.peek()?).to_digit(16)?;
            self.bump();
            v = v * 16 + d;
        }
        Some(v)
    }

    /// Skips the string starting here (its opening quote included).
    fn skip_string(&mut self) {
        self.bump();
        while let Some(b) = self.bump() {
            match b {
                b'"' => return,
                b'\\' => {
                    self.bump();
                }
                _ => {}
            }
        }
    }

    /// Skips the value starting here, however deep, without recursion: brackets are only
    /// counted. Consumes at least one byte unless it stands at a closing bracket, a comma or
    /// the end.
    fn skip_value(&mut self) {
        self.skip_space();
        let mut depth = 0usize;
        loop {
            let Some(b) = self.peek() else { return };
            match b {
                b'"' => self.skip_string(),
                b'{' | b'[' => {
                    depth += 1;
                    self.bump();
                }
                b'}' | b']' => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                    self.bump();
                }
                b',' | b':' if depth == 0 => return,
                _ => {
                    self.bump();
                }
            }
            if depth == 0 && !matches!(self.peek(), Some(b) if is_scalar_byte(b)) {
                return;
            }
        }
    }
}

/// A byte that continues a number, `true`, `false` or `null` (or a stray word).
fn is_scalar_byte(b: u8) -> bool {
    !matches!(
        b,
        b' ' | b'\t' | b'\r' | b'\n' | b',' | b':' | b'"' | b'{' | b'}' | b'[' | b']'
    )
}

#[cfg(test)]
mod tests {
    use super::{element_lines, value_line};

    const JOB: &str = r#"{ "job.start.ms": 0,
  "job.queue.name": "a",
  "job.tasks": [
    { "count": 2,
      "container.memory-mb": 1024 },
    {
      "count": -1
    }
  ],
  "am": { "nested": [ 1,
    2 ] }
}"#;

    fn line(text: &str, path: &str) -> u64 {
        value_line(text.as_bytes(), 1, path)
    }

    #[test]
    fn values_are_found_on_their_line() {
        let at = |p: &str| value_line(JOB.as_bytes(), 10, p);
        assert_eq!(at(""), 10);
        assert_eq!(at("job.start.ms"), 10);
        assert_eq!(at("job.queue.name"), 11);
        assert_eq!(at("job.tasks"), 12);
        assert_eq!(at("job.tasks[0]"), 13);
        assert_eq!(at("job.tasks[0].container.memory-mb"), 14);
        assert_eq!(at("job.tasks[1]"), 15);
        assert_eq!(at("job.tasks[1].count"), 16);
        assert_eq!(at("am.nested[1]"), 20);
    }

    #[test]
    fn a_missing_value_answers_the_deepest_one_found() {
        // A missing key: the object that lacks it.
        assert_eq!(line(JOB, "job.tasks[1].container.duration.ms"), 6);
        assert_eq!(line(JOB, "job.user"), 1);
        // An index past the end, or not an index: the list.
        assert_eq!(line(JOB, "job.tasks[7].count"), 3);
        assert_eq!(line(JOB, "job.tasks[*].count"), 3);
        assert_eq!(line(JOB, "job.tasks.count"), 3);
        // Below a number.
        assert_eq!(line(JOB, "job.tasks[1].count.x"), 7);
    }

    #[test]
    fn a_value_on_the_line_after_its_key_is_found_where_it_starts() {
        let text = "{\"nodes\":\n  {\"node\":\n [\n {\"a\": 1},\n\n {\"a\":\n 2}]}}";
        assert_eq!(line(text, "nodes"), 2);
        assert_eq!(line(text, "nodes.node"), 3);
        assert_eq!(line(text, "nodes.node[0].a"), 4);
        assert_eq!(line(text, "nodes.node[1]"), 6);
        assert_eq!(line(text, "nodes.node[1].a"), 7);
        assert_eq!(line(text, "nodes.node[1].b"), 6);
    }

    #[test]
    fn braces_quotes_and_escapes_inside_strings_do_not_lose_the_way() {
        let text = r#"{"a": "}]{[\"", "b\"c": {"x\\": "\n{"},
 "d": [ "\\", "]", {"e\u002ef": 1},
  {"\ud83d\ude00": 2}, "x"], "g": 3}"#;
        assert_eq!(line(text, "b\"c.x\\"), 1);
        assert_eq!(line(text, "d[2].e.f"), 2);
        assert_eq!(line(text, "d[3]"), 3);
        assert_eq!(line(text, "d[3].😀"), 3);
        assert_eq!(line(text, "d[4]"), 3);
        assert_eq!(line(text, "g"), 3);
        // `e\u002ef` is the key `e.f`, not `e`.
        assert_eq!(line(text, "d[2].e"), 2);
        let text = "{\"a\": \"x\\\"\n\", \"b\":\n 1}";
        assert_eq!(line(text, "b"), 3);
    }

    #[test]
    fn a_key_holding_dots_is_taken_whole() {
        let text = "{\"job\": 1,\n \"job.tasks\": [\n {\"container.host\": \"h\"}]}";
        assert_eq!(line(text, "job.tasks[0].container.host"), 3);
        assert_eq!(line(text, "job"), 1);
        // A key must end where a path segment does: `job.t` is not `job.tasks`.
        assert_eq!(line(text, "job.t"), 1);
    }

    #[test]
    fn a_lists_elements_are_found_in_one_scan() {
        assert_eq!(element_lines(JOB.as_bytes(), 1, "job.tasks"), [4, 6]);
        assert_eq!(element_lines(JOB.as_bytes(), 1, "am.nested"), [10, 11]);
        assert!(element_lines(JOB.as_bytes(), 1, "job.queue.name").is_empty());
        assert!(element_lines(JOB.as_bytes(), 1, "nope").is_empty());
        assert!(element_lines(&b"{\"a\": []}"[..], 1, "a").is_empty());
    }

    #[test]
    fn truncated_and_broken_texts_answer_without_panicking() {
        let text = "{\"a\\\"b\": {\"c\": 1}, \"d\":\n [ }";
        assert_eq!(line(text, "a\"b.c"), 1);
        assert_eq!(line(text, "d[0]"), 2);
        assert_eq!(line("", "a"), 1);
        assert_eq!(line("\n\n", "a"), 3);
        assert_eq!(line("{\"a\": \"\\ud800\"}", "a.b"), 1);
        assert_eq!(line("{\"\\ud800\\u0041\": 1, \"b\":\n2}", "b"), 2);
        assert_eq!(line("{\"a\\u12", "a"), 1);
        assert_eq!(line("[1, 2", "[5]"), 1);
        assert_eq!(line("\u{feff}{\"a\":\n 1}", "a"), 2);
        let deep = "[".repeat(5000) + "\n1";
        assert_eq!(line(&deep, &"[0]".repeat(5000)), 1);
        assert_eq!(element_lines(deep.as_bytes(), 1, ""), [1]);
    }

    mod generated {
        use super::super::value_line;
        use proptest::prelude::*;

        /// A JSON document laid out over many lines, with the line each value was put on.
        #[derive(Debug, Clone)]
        enum Doc {
            Scalar(String),
            Object(Vec<(String, Doc)>),
            List(Vec<Doc>),
        }

        fn key() -> impl Strategy<Value = String> {
            // Dots are left out: a dotted key may legitimately start another's path.
            prop::string::string_regex(r#"[a-z"\\{}\[\]/ é😀\n]{0,6}"#).unwrap()
        }

        fn doc() -> impl Strategy<Value = Doc> {
            let scalar = prop_oneof![
                Just("null".to_string()),
                Just("true".to_string()),
                (-1_000_000i64..1_000_000).prop_map(|v| v.to_string()),
                Just("-1.5e-3".to_string()),
                prop::string::string_regex(r#"[a-z"\\{}\[\]:, é\n]{0,8}"#)
                    .unwrap()
                    .prop_map(|s| serde_json::to_string(&s).unwrap()),
            ]
            .prop_map(Doc::Scalar);
            scalar.prop_recursive(5, 64, 6, |inner| {
                prop_oneof![
                    prop::collection::vec(inner.clone(), 0..6).prop_map(Doc::List),
                    prop::collection::vec((key(), inner), 0..6).prop_map(|fields| {
                        // Unique keys, as a path names one of them.
                        let mut seen = std::collections::BTreeSet::new();
                        Doc::Object(
                            fields
                                .into_iter()
                                .filter(|(k, _)| seen.insert(k.clone()))
                                .collect(),
                        )
                    }),
                ]
            })
        }

        /// Newlines (each after a space, before a tab) as `breaks` asks.
        fn gap(breaks: &mut impl Iterator<Item = u8>, out: &mut String, line: &mut u64) {
            for _ in 0..breaks.next().unwrap_or(0) {
                out.push_str(" \n\t");
                *line += 1;
            }
        }

        /// What [`write`] records of each value: its path as messages print it, its line,
        /// and whether the path reads back as itself (no key on the way is empty or holds
        /// a bracket, which a path could not tell from an index).
        type Seen = Vec<(String, u64, bool)>;

        /// Writes `d` with `breaks` deciding where newlines go, recording each value.
        fn write(
            d: &Doc,
            (path, clear): (&str, bool),
            breaks: &mut impl Iterator<Item = u8>,
            out: &mut String,
            line: &mut u64,
            seen: &mut Seen,
        ) {
            gap(breaks, out, line);
            seen.push((path.to_string(), *line, clear));
            match d {
                Doc::Scalar(s) => out.push_str(s),
                Doc::List(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        let p = format!("{path}[{i}]");
                        write(item, (&p, clear), breaks, out, line, seen);
                        gap(breaks, out, line);
                    }
                    out.push(']');
                }
                Doc::Object(fields) => {
                    out.push('{');
                    for (i, (k, v)) in fields.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        gap(breaks, out, line);
                        out.push_str(&serde_json::to_string(k).unwrap());
                        out.push(':');
                        let p = if path.is_empty() {
                            k.clone()
                        } else {
                            format!("{path}.{k}")
                        };
                        let clear = clear && !k.is_empty() && !k.contains(['[', ']']);
                        write(v, (&p, clear), breaks, out, line, seen);
                    }
                    gap(breaks, out, line);
                    out.push('}');
                }
            }
        }

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: 256,
                rng_seed: proptest::test_runner::RngSeed::Fixed(41),
                ..ProptestConfig::default()
            })]

            #[test]
            fn every_value_is_found_on_the_line_it_was_written(
                d in doc(),
                breaks in prop::collection::vec(0u8..3, 0..400),
                first in 1u64..1000,
            ) {
                let (mut out, mut line, mut seen) = (String::new(), first, Vec::new());
                let breaks = &mut breaks.into_iter().cycle();
                write(&d, ("", true), breaks, &mut out, &mut line, &mut seen);
                prop_assert!(serde_json::from_str::<serde_json::Value>(&out).is_ok());
                for (path, line, clear) in &seen {
                    if *clear {
                        prop_assert_eq!(value_line(out.as_bytes(), first, path), *line, "{}", path);
                    }
                }
            }

            #[test]
            fn any_text_and_path_answer_a_line_within_the_text(
                text in prop_oneof![
                    // JSON's own bytes, so that the scan goes deep; or any bytes at all.
                    prop::collection::vec(
                        prop::sample::select(b"{}[]\",:\\u0a9d8 \nx.".to_vec()), 0..300),
                    prop::collection::vec(any::<u8>(), 0..300),
                ],
                path in prop_oneof![
                    prop::string::string_regex(r"[a-z0-9\[\].]{0,12}").unwrap(),
                    any::<String>(),
                ],
            ) {
                let lines = 1 + text.iter().filter(|b| **b == b'\n').count() as u64;
                let at = value_line(&text[..], 1, &path);
                prop_assert!((1..=lines).contains(&at));
                let elements = super::super::element_lines(&text[..], 1, &path);
                prop_assert!(elements.iter().all(|l| (1..=lines).contains(l)));
            }
        }
    }
}
