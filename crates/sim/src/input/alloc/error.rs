//! Errors of the allocation-file readers: every message names the file, the line and the
//! element (or property) at fault, so an admin can go straight to it.

use std::path::PathBuf;

/// Why an allocation file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum AllocError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying failure.
        #[source]
        source: std::io::Error,
    },
    /// The file is larger than the reader accepts.
    #[error("{}: file holds {size} bytes or more; the limit is {limit} bytes", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size, or for a stream without one (`/dev/zero`) the bytes read before stopping.
        size: u64,
        /// The limit ([`super::MAX_FILE_BYTES`]).
        limit: u64,
    },
    /// The text is not well-formed XML, or holds a DOCTYPE.
    #[error("{file}:{line}: {message}")]
    Xml {
        /// File label.
        file: String,
        /// 1-based line.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// An element of the file holds a value or a structure YARN (or fairsim) refuses.
    #[error("{file}:{line}: {element}: {message}")]
    Invalid {
        /// File label.
        file: String,
        /// 1-based line of the element.
        line: u32,
        /// The element as written, e.g. `<queue name="a.b">` or, in a capacity-scheduler.xml,
        /// `<property> yarn.scheduler.capacity.root.a.capacity`.
        element: String,
        /// What is wrong.
        message: String,
    },
}

impl AllocError {
    /// True for failures of the input itself (as opposed to failing to read it).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, AllocError::Io { .. })
    }
}
