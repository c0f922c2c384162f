//! The XML layer shared by both readers: safe parsing (no DOCTYPE, a node limit), positions
//! for messages, element text, and the warnings list.

use super::AllocError;
use roxmltree::{Document, Node, ParsingOptions};

/// At most this many XML nodes are built: a queue is a handful of nodes, so this leaves
/// room for hundreds of thousands of queues while bounding memory on hostile input.
const NODES_LIMIT: u32 = 8_000_000;

/// Parses `text` without ever expanding entities: any DOCTYPE is refused, which also
/// defeats "billion laughs" files before any work is done.
pub fn parse_document<'input>(
    text: &'input str,
    file: &str,
) -> Result<Document<'input>, AllocError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let opts = ParsingOptions {
        allow_dtd: false,
        nodes_limit: NODES_LIMIT,
        ..ParsingOptions::default()
    };
    Document::parse_with_options(text, opts).map_err(|e| {
        let pos = e.pos();
        let message = match e {
            roxmltree::Error::DtdDetected => {
                "a DOCTYPE is not allowed in an allocation file (fairsim never expands entities)"
                    .to_string()
            }
            roxmltree::Error::NodesLimitReached => {
                format!("more than {NODES_LIMIT} xml nodes; refusing the file")
            }
            other => format!("malformed xml: {other}"),
        };
        AllocError::Xml {
            file: file.to_string(),
            line: pos.row,
            message,
        }
    })
}

/// The lines of a document's text, for positions: roxmltree's `text_pos_at` counts from the
/// start of the text on every call, which is quadratic over a file of many properties.
pub struct LineIndex {
    newlines: Vec<usize>,
}

impl LineIndex {
    /// The index of `doc`'s text.
    pub fn new(doc: &Document<'_>) -> LineIndex {
        let text = doc.input_text();
        LineIndex {
            newlines: text
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// 1-based line where `node` starts (as `text_pos_at` gives it).
    pub fn line(&self, node: Node<'_, '_>) -> u32 {
        let before = self.newlines.partition_point(|&i| i < node.range().start);
        u32::try_from(before + 1).unwrap_or(u32::MAX)
    }
}

/// Walks one document: knows the file label, turns nodes into positions, collects warnings.
pub struct Reader<'a, 'input> {
    /// File label used in messages.
    pub file: &'a str,
    lines: LineIndex,
    doc: std::marker::PhantomData<&'a Document<'input>>,
    /// Warnings so far, already formatted.
    pub warnings: Vec<String>,
}

impl<'a, 'input> Reader<'a, 'input> {
    /// A reader over `doc`, labelled `file` in messages.
    pub fn new(file: &'a str, doc: &'a Document<'input>) -> Self {
        Reader {
            file,
            lines: LineIndex::new(doc),
            doc: std::marker::PhantomData,
            warnings: Vec::new(),
        }
    }

    /// 1-based line where `node` starts.
    pub fn line(&self, node: Node<'_, '_>) -> u32 {
        self.lines.line(node)
    }

    /// An error at `node`.
    pub fn invalid(&self, node: Node<'_, '_>, message: impl Into<String>) -> AllocError {
        AllocError::Invalid {
            file: self.file.to_string(),
            line: self.line(node),
            element: describe(node),
            message: message.into(),
        }
    }

    /// Records a warning at `node`.
    pub fn warn(&mut self, node: Node<'_, '_>, message: impl AsRef<str>) {
        let w = format!(
            "{}:{}: {}: {}",
            self.file,
            self.line(node),
            describe(node),
            message.as_ref()
        );
        self.warnings.push(w);
    }

    /// The trimmed text of an element (YARN reads its first text child).
    pub fn text<'n>(&self, node: Node<'n, '_>) -> &'n str {
        node.text().unwrap_or("").trim()
    }

    /// Parses the element's text with `parse`, turning a failure into an error at `node`.
    pub fn value<T>(
        &self,
        node: Node<'_, '_>,
        what: &str,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<T, AllocError> {
        let text = self.text(node);
        if text.is_empty() {
            return Err(self.invalid(node, format!("empty value, expected {what}")));
        }
        parse(text).ok_or_else(|| self.invalid(node, format!("\"{text}\" is not {what}")))
    }
}

/// The element as an admin would find it in the file: `<queue name="a">` or `<weight>`.
pub fn describe(node: Node<'_, '_>) -> String {
    let tag = node.tag_name().name();
    match node.attribute("name") {
        Some(name) => format!("<{tag} name=\"{name}\">"),
        None => format!("<{tag}>"),
    }
}
