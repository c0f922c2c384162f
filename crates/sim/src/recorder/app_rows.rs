//! `apps.csv` rows in app-index order from rows that arrive in the order apps close.
//!
//! Apps finish out of index order, and an app still open at the end of a run holds back every
//! row after it, so no in-memory reorder buffer of bounded size is exact. Instead each row is
//! appended to a spill file as it arrives, and only its offset and length are kept (12 bytes an
//! app). At the end the rows are copied into the output in index order through a read buffer
//! that moves by `seek_relative`: rows that arrived nearly in order are read sequentially.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// No row for this index (yet).
const ABSENT: u64 = u64::MAX;

/// Rows spilled to a file, with where each index's row lies.
#[derive(Debug)]
pub(crate) struct AppRows {
    path: PathBuf,
    spill: BufWriter<File>,
    /// Bytes written to the spill so far.
    written: u64,
    /// Offset of each index's row in the spill, [`ABSENT`] when none came.
    offsets: Vec<u64>,
    /// Length of each index's row.
    lens: Vec<u32>,
}

impl AppRows {
    /// A spill file at `path` (created, truncated; read back at the end).
    pub(crate) fn create(path: &Path) -> io::Result<AppRows> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        Ok(AppRows {
            path: path.to_path_buf(),
            spill: BufWriter::with_capacity(1 << 16, file),
            written: 0,
            offsets: Vec::new(),
            lens: Vec::new(),
        })
    }

    /// The spill file's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The row of app `index` (a later row for the same index replaces it).
    pub(crate) fn push(&mut self, index: u32, row: &[u8]) -> io::Result<()> {
        let len = u32::try_from(row.len()).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidData, "an apps.csv row over 4 GiB")
        })?;
        let i = index as usize;
        if self.offsets.len() <= i {
            self.offsets.resize(i + 1, ABSENT);
            self.lens.resize(i + 1, 0);
        }
        self.spill.write_all(row)?;
        self.offsets[i] = self.written;
        self.lens[i] = len;
        self.written += u64::from(len);
        Ok(())
    }

    /// Writes every row into `out` by ascending index and removes the spill file.
    pub(crate) fn copy_in_order(self, out: &mut impl Write) -> io::Result<()> {
        let AppRows {
            path,
            spill,
            offsets,
            lens,
            ..
        } = self;
        let mut file = spill.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.seek(SeekFrom::Start(0))?;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        let mut pos: u64 = 0;
        let mut row = Vec::new();
        for (&offset, &len) in offsets.iter().zip(&lens) {
            if offset == ABSENT {
                continue;
            }
            // Within the read buffer this only moves the cursor.
            reader.seek_relative(offset as i64 - pos as i64)?;
            row.resize(len as usize, 0);
            reader.read_exact(&mut row)?;
            out.write_all(&row)?;
            pos = offset + u64::from(len);
        }
        drop(reader);
        std::fs::remove_file(&path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered(pushes: &[(u32, &str)]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let mut rows = AppRows::create(&dir.path().join("spill")).unwrap();
        for (i, r) in pushes {
            rows.push(*i, r.as_bytes()).unwrap();
        }
        let mut out = Vec::new();
        rows.copy_in_order(&mut out).unwrap();
        assert!(!dir.path().join("spill").exists(), "the spill is removed");
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn rows_come_out_by_index_whatever_order_they_came_in() {
        assert_eq!(
            ordered(&[(2, "c\n"), (0, "a\n"), (3, "\"d\nd\"\n"), (1, "b\n")]),
            "a\nb\nc\n\"d\nd\"\n"
        );
        assert_eq!(ordered(&[]), "");
        // A gap (an index that never came) is skipped.
        assert_eq!(ordered(&[(5, "f\n"), (1, "b\n")]), "b\nf\n");
    }

    /// Rows far apart in the spill (beyond one read buffer) are found by seeking both ways.
    #[test]
    fn rows_far_apart_in_the_spill_are_read_back_exactly() {
        let n = 20_000u32;
        // Indices in a scrambled order: 7919 is prime to n, so i*7919 mod n visits each once.
        let rows: Vec<(u32, String)> = (0..n)
            .map(|k| {
                let i = (k as u64 * 7919 % n as u64) as u32;
                (i, format!("{i},{}\n", "x".repeat((i % 97) as usize)))
            })
            .collect();
        let pushes: Vec<(u32, &str)> = rows.iter().map(|(i, r)| (*i, r.as_str())).collect();
        let expected: String = (0..n)
            .map(|i| format!("{i},{}\n", "x".repeat((i % 97) as usize)))
            .collect();
        assert_eq!(ordered(&pushes), expected);
    }
}
