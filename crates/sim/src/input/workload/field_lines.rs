//! The line of a field inside one JSON object, for errors found after the object was read
//! (a value out of range, a missing field, a value of the wrong kind): the text of the
//! object, as the stream passed it, is scanned only when an error needs a line.
//!
//! Paths are written as the readers print them: keys joined by `.`, list elements as
//! `[index]`; keys may hold dots themselves (`job.tasks[1].container.memory-mb`), so at each
//! object the longest key that starts the rest of the path is taken. A path that leaves the
//! text (a missing field) answers the line of the deepest part found.

/// A JSON value with the line of each key and element.
enum Node {
    Object(Vec<(String, u64, Node)>),
    Array(Vec<(u64, Node)>),
    Scalar,
}

struct Scanner<'t> {
    text: &'t [u8],
    pos: usize,
    line: u64,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
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

    fn string(&mut self) -> String {
        self.bump(); // the opening quote
        let mut out = Vec::new();
        while let Some(b) = self.bump() {
            match b {
                b'"' => break,
                b'\\' => {
                    if let Some(e) = self.bump() {
                        out.push(match e {
                            b'n' => b'\n',
                            b't' => b'\t',
                            other => other,
                        });
                    }
                }
                other => out.push(other),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// The value starting here (the text was already accepted by the JSON parser; anything
    /// unexpected ends the scan quietly).
    fn value(&mut self, depth: usize) -> Node {
        self.skip_space();
        match self.peek() {
            Some(b'{') if depth < 256 => {
                self.bump();
                let mut fields = Vec::new();
                loop {
                    self.skip_space();
                    match self.peek() {
                        Some(b'"') => {}
                        Some(b',') => {
                            self.bump();
                            continue;
                        }
                        _ => {
                            self.bump();
                            break;
                        }
                    }
                    let line = self.line;
                    let key = self.string();
                    self.skip_space();
                    if self.peek() == Some(b':') {
                        self.bump();
                    }
                    let v = self.value(depth + 1);
                    fields.push((key, line, v));
                }
                Node::Object(fields)
            }
            Some(b'[') if depth < 256 => {
                self.bump();
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match self.peek() {
                        Some(b']') | None => {
                            self.bump();
                            break;
                        }
                        Some(b',') => {
                            self.bump();
                            continue;
                        }
                        _ => {}
                    }
                    let line = self.line;
                    let before = self.pos;
                    items.push((line, self.value(depth + 1)));
                    if self.pos == before {
                        self.bump();
                    }
                }
                Node::Array(items)
            }
            Some(b'"') => {
                self.string();
                Node::Scalar
            }
            _ => {
                while let Some(b) = self.peek() {
                    if matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace() {
                        break;
                    }
                    self.bump();
                }
                Node::Scalar
            }
        }
    }
}

/// The 1-based line of `path` in `text`, a JSON value starting on line `start`.
pub fn field_line(text: &[u8], start: u64, path: &str) -> u64 {
    let (root, root_line) = scan(text, start);
    find(&root, root_line, path).1
}

/// The 1-based line of each element of the list at `path` in `text` (a JSON value starting
/// on line `start`), in one scan; empty when `path` is not a list.
pub fn element_lines(text: &[u8], start: u64, path: &str) -> Vec<u64> {
    let (root, root_line) = scan(text, start);
    match find(&root, root_line, path) {
        (Node::Array(items), _, true) => items.iter().map(|(l, _)| *l).collect(),
        _ => Vec::new(),
    }
}

fn scan(text: &[u8], start: u64) -> (Node, u64) {
    let mut s = Scanner {
        text,
        pos: 0,
        line: start,
    };
    s.skip_space();
    let root_line = s.line;
    (s.value(0), root_line)
}

/// The node at `path` and its line, or the deepest one found (then `false`).
fn find<'n>(root: &'n Node, root_line: u64, path: &str) -> (&'n Node, u64, bool) {
    let (mut node, mut line, mut rest) = (root, root_line, path);
    loop {
        rest = rest.strip_prefix('.').unwrap_or(rest);
        if rest.is_empty() {
            return (node, line, true);
        }
        match node {
            Node::Object(fields) => {
                let found = fields
                    .iter()
                    .filter(|(k, _, _)| {
                        rest.starts_with(k.as_str())
                            && matches!(rest.as_bytes().get(k.len()), None | Some(b'.' | b'['))
                    })
                    .max_by_key(|(k, _, _)| k.len());
                let Some((k, l, child)) = found else {
                    return (node, line, false);
                };
                (node, line, rest) = (child, *l, &rest[k.len()..]);
            }
            Node::Array(items) => {
                let Some(inner) = rest.strip_prefix('[') else {
                    return (node, line, false);
                };
                let Some(end) = inner.find(']') else {
                    return (node, line, false);
                };
                let Some((l, child)) = inner[..end]
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| items.get(i))
                else {
                    return (node, line, false);
                };
                (node, line, rest) = (child, *l, &inner[end + 1..]);
            }
            Node::Scalar => return (node, line, false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::field_line;

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

    #[test]
    fn fields_are_found_on_their_line() {
        let line = |p: &str| field_line(JOB.as_bytes(), 10, p);
        assert_eq!(line("job.start.ms"), 10);
        assert_eq!(line("job.queue.name"), 11);
        assert_eq!(line("job.tasks"), 12);
        assert_eq!(line("job.tasks[0].container.memory-mb"), 14);
        assert_eq!(line("job.tasks[1].count"), 16);
        assert_eq!(line("am.nested[1]"), 20);
    }

    #[test]
    fn a_missing_field_answers_its_nearest_ancestor() {
        let line = |p: &str| field_line(JOB.as_bytes(), 1, p);
        assert_eq!(line("job.tasks[1].container.duration.ms"), 6);
        assert_eq!(line("job.tasks[7].count"), 3);
        assert_eq!(line("job.user"), 1);
        assert_eq!(line(""), 1);
    }

    #[test]
    fn a_lists_elements_are_found_in_one_scan() {
        let lines = super::element_lines(JOB.as_bytes(), 1, "job.tasks");
        assert_eq!(lines, [4, 6]);
        assert!(super::element_lines(JOB.as_bytes(), 1, "job.queue.name").is_empty());
        assert!(super::element_lines(JOB.as_bytes(), 1, "nope").is_empty());
    }

    #[test]
    fn escaped_keys_and_truncated_text_do_not_lose_the_way() {
        let text = br#"{"a\"b": {"c": 1}, "d":
 [ }"#;
        assert_eq!(field_line(text, 1, "a\"b.c"), 1);
        assert_eq!(field_line(text, 1, "d[0]"), 2);
    }
}
