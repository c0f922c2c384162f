//! A stream of top-level JSON objects (SLS job traces, Rumen job histories), read one object
//! at a time from any reader, so a trace is never held whole in memory and every object
//! knows its first line.
//!
//! SLS traces may carry `//` comments (Jackson's `ALLOW_COMMENTS`, as SLS's documentation
//! uses them); [`ObjectStream::with_comments`] blanks them outside strings before the JSON
//! parser sees the bytes. Lines are counted as bytes pass, so finding a line costs nothing
//! extra: reading is linear in the size of the input.

use serde::de::DeserializeOwned;
use std::io::{self, BufRead, Read};

/// Where a value failed to parse: the 1-based line, the field path (`mapTasks[3].startTime`,
/// or `json` for a syntax error) and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamError {
    /// 1-based line of the fault.
    pub line: u64,
    /// Path of the field at fault.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// The UTF-8 byte-order mark some editors write at the start of a file. It is not part of
/// the JSON; Jackson skips it when it reads bytes, and so do these readers.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Bytes of a reader with comments blanked and lines counted.
struct Cleaner<R> {
    inner: R,
    /// No byte read yet: a leading byte-order mark is still to be skipped.
    at_start: bool,
    comments: bool,
    in_str: bool,
    escaped: bool,
    peeked: Option<u8>,
    line: u64,
    /// The bytes of the value being read, kept to find a field's line after an error.
    captured: Vec<u8>,
}

impl<R: BufRead> Cleaner<R> {
    fn raw_byte(&mut self) -> io::Result<Option<u8>> {
        if self.at_start {
            self.at_start = false;
            if self.inner.fill_buf()?.starts_with(UTF8_BOM) {
                self.inner.consume(UTF8_BOM.len());
            }
        }
        let buf = self.inner.fill_buf()?;
        let Some(&b) = buf.first() else {
            return Ok(None);
        };
        self.inner.consume(1);
        Ok(Some(b))
    }

    /// The next byte as the JSON parser should see it.
    fn clean_byte(&mut self) -> io::Result<Option<u8>> {
        let Some(b) = self.raw_byte()? else {
            return Ok(None);
        };
        if self.in_str {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_str = false;
            }
            return Ok(Some(b));
        }
        if b == b'"' {
            self.in_str = true;
        } else if b == b'/' && self.comments && self.inner.fill_buf()?.first() == Some(&b'/') {
            // A comment runs to the end of the line; the newline itself stays.
            loop {
                let buf = self.inner.fill_buf()?;
                if buf.is_empty() {
                    return Ok(None);
                }
                if let Some(i) = buf.iter().position(|&c| c == b'\n') {
                    self.inner.consume(i);
                    return Ok(Some(b' '));
                }
                let n = buf.len();
                self.inner.consume(n);
            }
        }
        Ok(Some(b))
    }

    fn peek_byte(&mut self) -> io::Result<Option<u8>> {
        if self.peeked.is_none() {
            self.peeked = self.clean_byte()?;
        }
        Ok(self.peeked)
    }

    fn take_byte(&mut self) -> io::Result<Option<u8>> {
        let b = match self.peeked.take() {
            Some(b) => Some(b),
            None => self.clean_byte()?,
        };
        if let Some(b) = b {
            if b == b'\n' {
                self.line += 1;
            }
            self.captured.push(b);
        }
        Ok(b)
    }
}

impl<R: BufRead> Read for Cleaner<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < out.len() {
            match self.take_byte()? {
                Some(b) => {
                    out[n] = b;
                    n += 1;
                }
                None => break,
            }
        }
        Ok(n)
    }
}

/// What comes next in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// An object starting on this line.
    Object(u64),
    /// Something that is not an object (its first byte) on this line.
    Other(u8, u64),
    /// The end of the input.
    End,
}

/// Top-level JSON values read one after the other.
pub struct ObjectStream<R> {
    src: Cleaner<R>,
    /// The line the last value read started on.
    start: u64,
}

impl<R: BufRead> ObjectStream<R> {
    /// A stream of plain JSON.
    pub fn new(reader: R) -> Self {
        Self::build(reader, false)
    }

    /// A stream where `//` comments outside strings are blanked.
    pub fn with_comments(reader: R) -> Self {
        Self::build(reader, true)
    }

    fn build(reader: R, comments: bool) -> Self {
        ObjectStream {
            src: Cleaner {
                inner: reader,
                at_start: true,
                comments,
                in_str: false,
                escaped: false,
                peeked: None,
                line: 1,
                captured: Vec::new(),
            },
            start: 1,
        }
    }

    /// Skips whitespace (and comments) and says what comes next.
    pub fn next_start(&mut self) -> io::Result<Next> {
        loop {
            match self.src.peek_byte()? {
                None => return Ok(Next::End),
                Some(b' ' | b'\t' | b'\r' | b'\n') => {
                    self.src.take_byte()?;
                }
                Some(b'{') => return Ok(Next::Object(self.src.line)),
                Some(b) => return Ok(Next::Other(b, self.src.line)),
            }
        }
    }

    /// Deserializes the value that starts here (after [`ObjectStream::next_start`]); errors
    /// name the line of the fault and the path of the field.
    pub fn read<T: DeserializeOwned>(&mut self) -> Result<T, StreamError> {
        let start = self.src.line;
        self.start = start;
        self.src.captured.clear();
        let mut de = serde_json::Deserializer::from_reader(&mut self.src);
        let read = serde_path_to_error::deserialize(&mut de);
        read.map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            // A value of the wrong kind or an object missing a field is found where serde
            // stands, after it (a missing field: at the object's closing brace, maybe many
            // lines on): name the line where the value starts instead.
            let line = match inner.classify() {
                serde_json::error::Category::Data => {
                    crate::json_lines::value_line(&self.src.captured[..], start, &path)
                }
                _ => start + (inner.line() as u64).saturating_sub(1),
            };
            let message = strip_position(&inner.to_string());
            let field = if path.is_empty() || path == "." {
                "json".to_string()
            } else {
                path
            };
            StreamError {
                line,
                field,
                message,
            }
        })
    }
}

impl<R> ObjectStream<R> {
    /// The line of `path` (`job.tasks[1].count`) in the value last read, for errors found
    /// after reading it; a field that is absent answers the line of its nearest ancestor.
    pub fn field_line(&self, path: &str) -> u64 {
        crate::json_lines::value_line(&self.src.captured[..], self.start, path)
    }

    /// The line of each element of the list at `path` in the value last read (one scan of
    /// its text); empty when there is no such list.
    pub fn element_lines(&self, path: &str) -> Vec<u64> {
        crate::json_lines::element_lines(&self.src.captured[..], self.start, path)
    }
}

/// serde_json's messages end with " at line L column C"; the caller gives the line itself.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn objects_know_their_first_line_and_comments_vanish() {
        let text = b"// head\n{ \"a\": \"x//y\", // note\n \"b\": 1 }\n\n  {\"c\": 2}\n";
        let mut s = ObjectStream::with_comments(&text[..]);
        assert_eq!(s.next_start().unwrap(), Next::Object(2));
        let v: Value = s.read().unwrap();
        assert_eq!(v["a"], "x//y");
        assert_eq!(v["b"], 1);
        assert_eq!(s.next_start().unwrap(), Next::Object(5));
        let v: Value = s.read().unwrap();
        assert_eq!(v["c"], 2);
        assert_eq!(s.next_start().unwrap(), Next::End);
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_only_there() {
        let text = b"\xEF\xBB\xBF{\"a\": 1}\n{\"b\": 2}\n";
        let mut s = ObjectStream::with_comments(&text[..]);
        assert_eq!(s.next_start().unwrap(), Next::Object(1));
        let v: Value = s.read().unwrap();
        assert_eq!(v["a"], 1);
        assert_eq!(s.next_start().unwrap(), Next::Object(2));
        let v: Value = s.read().unwrap();
        assert_eq!(v["b"], 2);
        // Anywhere else it is a stray byte, reported where it stands.
        let text = b"{\"a\": 1}\n\xEF\xBB\xBF{\"b\": 2}\n";
        let mut s = ObjectStream::new(&text[..]);
        s.next_start().unwrap();
        let _: Value = s.read().unwrap();
        assert_eq!(s.next_start().unwrap(), Next::Other(0xEF, 2));
    }

    #[test]
    fn a_syntax_error_names_its_absolute_line() {
        let text = b"{\"a\": 1}\n{\n \"b\": ,\n}\n";
        let mut s = ObjectStream::new(&text[..]);
        s.next_start().unwrap();
        let _: Value = s.read().unwrap();
        assert_eq!(s.next_start().unwrap(), Next::Object(2));
        let e = s.read::<Value>().unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.field, "b");
    }

    #[test]
    fn a_missing_field_names_the_line_its_object_starts_on() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code, reason = "only its reading is tested")]
        struct Task {
            count: u64,
            size: u64,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code, reason = "only its reading is tested")]
        struct Job {
            tasks: Vec<Task>,
        }
        let text = b"{\"tasks\": [\n {\"count\": 1,\n  \"size\": 2},\n {\"count\": 1\n\n }\n]}\n";
        let mut s = ObjectStream::new(&text[..]);
        s.next_start().unwrap();
        let e = s.read::<Job>().unwrap_err();
        // serde stands at the second task's closing brace, line 6; the task starts on 4.
        assert_eq!((e.line, e.field.as_str()), (4, "tasks[1]"));
        assert!(e.message.contains("missing field `size`"), "{}", e.message);
        // A value of the wrong kind, on the line after its key.
        let text = b"\n{\"tasks\":\n \"many\"}";
        let mut s = ObjectStream::new(&text[..]);
        s.next_start().unwrap();
        let e = s.read::<Job>().unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "tasks"));
    }

    #[test]
    fn an_array_is_not_an_object() {
        let mut s = ObjectStream::new(&b"\n [1]"[..]);
        assert_eq!(s.next_start().unwrap(), Next::Other(b'[', 2));
    }
}
