//! Allocation files read as YARN reads them: `fair-scheduler.xml` (both the Hadoop 2.7 and
//! the 3.3 forms) and `capacity-scheduler.xml`, into a [`QueueTree`].
//!
//! Every error names the file, the line and the element; what YARN would only log becomes a
//! warning in [`LoadedAlloc::warnings`]. No DOCTYPE is accepted, so entities are never
//! expanded, and files above [`MAX_FILE_BYTES`] are refused before parsing.

mod capacity;
pub mod capacity_forms;
mod error;
mod fair;
pub mod fs2cs;
mod placement;
mod resource_string;
pub(crate) mod xml;

pub use error::AllocError;
pub use placement::{default_policy, default_policy_with, is_terminal};
pub use resource_string::{Missing, parse_resource};
pub use xml::parse_document as parse_xml_document;

use crate::tree::QueueTree;
use fairsim_core::Semantics;
use std::io::Read;
use std::path::Path;

/// The largest allocation file read ([`crate::limits::MAX_TEXT_BYTES`]).
pub const MAX_FILE_BYTES: u64 = crate::limits::MAX_TEXT_BYTES;

/// A loaded allocation file: the queue tree and what YARN would have logged.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedAlloc {
    /// The queues, root first in pre-order, with inheritance applied.
    pub tree: QueueTree,
    /// One line per thing YARN ignores or logs (`file:line: <element>: message`).
    pub warnings: Vec<String>,
    /// The file has its own `queuePlacementPolicy` (else YARN builds one from
    /// `user-as-default-queue` and `allow-undeclared-pools`).
    pub placement_given: bool,
}

/// Reads and parses a fair-scheduler.xml.
pub fn load_fair_scheduler_file(
    path: &Path,
    semantics: Semantics,
) -> Result<LoadedAlloc, AllocError> {
    let text = read_capped(path)?;
    parse_fair_scheduler_xml(&text, &label(path), semantics)
}

/// Parses the text of a fair-scheduler.xml; `file_label` names it in messages.
pub fn parse_fair_scheduler_xml(
    text: &str,
    file_label: &str,
    semantics: Semantics,
) -> Result<LoadedAlloc, AllocError> {
    fair::parse(text, file_label, semantics)
}

/// Reads and parses a capacity-scheduler.xml as Hadoop 3.3 reads it (see
/// [`parse_capacity_scheduler_xml`]).
pub fn load_capacity_scheduler_file(path: &Path) -> Result<LoadedAlloc, AllocError> {
    let text = read_capped(path)?;
    parse_capacity_scheduler_xml(&text, &label(path))
}

/// Parses the text of a capacity-scheduler.xml as Hadoop 3.3 reads it (a decimal
/// `minimum-user-limit-percent` is accepted); `file_label` names it in messages. A scenario
/// reads the file in its own era through [`load_any_file`], which Hadoop 2.7 refuses a
/// decimal in.
pub fn parse_capacity_scheduler_xml(
    text: &str,
    file_label: &str,
) -> Result<LoadedAlloc, AllocError> {
    capacity::parse(text, file_label, Semantics::Hadoop33)
}

/// Reads either kind of file, told apart by the root element (`<allocations>` for the Fair
/// Scheduler, `<configuration>` for the Capacity Scheduler).
pub fn load_any_file(path: &Path, semantics: Semantics) -> Result<LoadedAlloc, AllocError> {
    let text = read_capped(path)?;
    parse_any_xml(&text, &label(path), semantics)
}

/// [`load_any_file`] with an era for each kind: a fair-scheduler.xml read in `fair`, a
/// capacity-scheduler.xml in `capacity` (the commands that read a file outside a scenario
/// read the Capacity Scheduler's in hadoop-3.3 unless told otherwise, as its 3.x forms
/// stop hadoop-2.7).
pub fn load_any_file_by_kind(
    path: &Path,
    fair: Semantics,
    capacity: Semantics,
) -> Result<LoadedAlloc, AllocError> {
    let text = read_capped(path)?;
    let file_label = label(path);
    fair::check_queue_count(&text, &file_label)?;
    let doc = xml::parse_document(&text, &file_label)?;
    if doc.root_element().tag_name().name() == "configuration" {
        capacity::parse(&text, &file_label, capacity)
    } else {
        fair::parse(&text, &file_label, fair)
    }
}

/// Parses either kind of file, told apart by the root element.
pub fn parse_any_xml(
    text: &str,
    file_label: &str,
    semantics: Semantics,
) -> Result<LoadedAlloc, AllocError> {
    // Before the document is built: it is what costs memory.
    fair::check_queue_count(text, file_label)?;
    let doc = xml::parse_document(text, file_label)?;
    if doc.root_element().tag_name().name() == "configuration" {
        capacity::parse(text, file_label, semantics)
    } else {
        fair::parse(text, file_label, semantics)
    }
}

/// The name a file goes by in messages: its path as given.
fn label(path: &Path) -> String {
    path.display().to_string()
}

/// Reads any Hadoop XML file (yarn-site.xml too) as the allocation files are read: UTF-8, at
/// most [`MAX_FILE_BYTES`].
pub fn read_xml_file(path: &Path) -> Result<String, AllocError> {
    read_capped(path)
}

/// Reads a UTF-8 file of at most [`MAX_FILE_BYTES`].
fn read_capped(path: &Path) -> Result<String, AllocError> {
    let io = |source| AllocError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    // Read one byte past the limit so a file that grows while being read is caught too.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        // A device or a pipe (`/dev/zero`) reports a length of 0: what was read is the
        // lower bound then.
        let size = std::fs::metadata(path)
            .map_or(0, |m| m.len())
            .max(bytes.len() as u64);
        return Err(AllocError::TooLarge {
            path: path.to_path_buf(),
            size,
            limit: MAX_FILE_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + good.iter().filter(|&&b| b == b'\n').count() as u32;
        AllocError::Xml {
            file: label(path),
            line,
            message: "the file is not valid utf-8".to_string(),
        }
    })
}
