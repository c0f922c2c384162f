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
    let doc = Document::parse_with_options(text, opts).map_err(|e| {
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
    })?;
    check_declaration(text).map_err(|message| AllocError::Xml {
        file: file.to_string(),
        line: 1,
        message: format!("malformed xml: {message}"),
    })?;
    Ok(doc)
}

/// The values of the XML declaration (`<?xml version="1.0" ...?>`), whose syntax the parser
/// has checked but whose values it takes as given. Hadoop reads these files with Java's
/// parser, which refuses a version other than 1.0 or 1.1, a declaration without one, an
/// encoding name that is not a name, and a standalone other than yes or no.
fn check_declaration(text: &str) -> Result<(), String> {
    let Some(rest) = text.strip_prefix("<?xml") else {
        return Ok(());
    };
    // `<?xml-stylesheet ...?>` and the like are processing instructions, not the declaration.
    if !rest.starts_with(|c: char| c.is_ascii_whitespace() || c == '?') {
        return Ok(());
    }
    let Some(end) = rest.find("?>") else {
        return Ok(());
    };
    let mut pairs = Vec::new();
    let mut body = rest[..end].trim_start();
    while !body.is_empty() {
        let Some((name, after)) = body.split_once('=') else {
            return Err(format!(
                "the XML declaration's `{body}` is not a name=\"value\" pair"
            ));
        };
        let after = after.trim_start();
        let quote = after.chars().next().filter(|&q| q == '"' || q == '\'');
        let Some(q) = quote else {
            return Err(format!(
                "the XML declaration's {} has no quoted value",
                name.trim()
            ));
        };
        let Some((value, tail)) = after[1..].split_once(q) else {
            return Err(format!(
                "the XML declaration's {} is not closed",
                name.trim()
            ));
        };
        pairs.push((name.trim(), value));
        body = tail.trim_start();
    }
    let names: Vec<&str> = pairs.iter().map(|(n, _)| *n).collect();
    if names.first() != Some(&"version") {
        return Err("the XML declaration has no version first (Java's parser requires it)".into());
    }
    for (name, value) in &pairs {
        match *name {
            "version" if !matches!(*value, "1.0" | "1.1") => {
                return Err(format!(
                    "XML version \"{value}\" is not supported: 1.0 or 1.1, as Java's parser reads them"
                ));
            }
            "encoding" => {
                let mut chars = value.chars();
                let name_like = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                    && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
                if !name_like {
                    return Err(format!(
                        "the XML declaration's encoding \"{value}\" is not an encoding name"
                    ));
                }
            }
            "standalone" if !matches!(*value, "yes" | "no") => {
                return Err(format!(
                    "the XML declaration's standalone \"{value}\" is neither yes nor no"
                ));
            }
            "version" | "standalone" => {}
            other => {
                return Err(format!(
                    "the XML declaration holds `{other}`: only version, encoding and standalone"
                ));
            }
        }
    }
    let order = |n: &str| {
        ["version", "encoding", "standalone"]
            .iter()
            .position(|x| *x == n)
    };
    if !names.windows(2).all(|w| order(w[0]) < order(w[1])) {
        return Err(
            "the XML declaration's version, encoding and standalone are out of order".into(),
        );
    }
    Ok(())
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

#[cfg(test)]
mod declaration_tests {
    use super::check_declaration;

    #[test]
    fn the_declaration_is_read_as_javas_parser_reads_it() {
        for ok in [
            "<?xml version=\"1.0\"?><a/>",
            "<?xml version='1.1' encoding='UTF-8' standalone='yes'?><a/>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>",
            "<a/>",
            "<?xml-stylesheet href=\"x\"?><a/>",
        ] {
            assert_eq!(check_declaration(ok), Ok(()), "{ok}");
        }
        for (bad, says) in [
            (
                "<?xml version=\"2.0\"?><a/>",
                "XML version \"2.0\" is not supported",
            ),
            ("<?xml?><a/>", "no version first"),
            ("<?xml encoding=\"UTF-8\"?><a/>", "no version first"),
            (
                "<?xml version=\"1.0\" encoding=\"8bit\"?><a/>",
                "is not an encoding name",
            ),
            (
                "<?xml version=\"1.0\" standalone=\"maybe\"?><a/>",
                "neither yes nor no",
            ),
            (
                "<?xml version=\"1.0\" standalone=\"no\" encoding=\"UTF-8\"?><a/>",
                "out of order",
            ),
            (
                "<?xml version=\"1.0\" flavour=\"x\"?><a/>",
                "only version, encoding and standalone",
            ),
        ] {
            let e = check_declaration(bad).unwrap_err();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
