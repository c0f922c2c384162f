//! `apps.csv` rows in app-index order from rows that arrive in the order apps close.
//!
//! Apps finish out of index order, and an app still open at the end of a run holds back every
//! row after it. Rows are therefore written through a reorder window: a row whose index is the
//! next one due goes straight to the output, together with the rows after it that were
//! already waiting; any other row waits in memory. A day's apps close within hours of their
//! arrival, so the window holds the rows of a few hours of closes (the 10,000-node day's
//! widest is a few tens of MB).
//!
//! When the window would pass its bound ([`WINDOW_BYTES`], a run with an app that stays open
//! while the others close), its rows move to a spill file, and so does every later row; only
//! each row's offset and length are kept (12 bytes an app). At the end the spilled rows are
//! copied into the output in index order through a read buffer that moves by
//! `seek_relative`. Reading back is random access, which is why it is the fallback: rows that
//! close hours apart lie far apart in the spill, and each one costs a buffer refill.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The most memory the reorder window takes, in bytes: the rows it holds plus 16 bytes per
/// index it spans. Past it, rows go to the spill file.
pub(crate) const WINDOW_BYTES: usize = 64 << 20;

/// What one index of the window costs besides its row: the slot itself.
const SLOT_BYTES: usize = std::mem::size_of::<Option<Box<[u8]>>>();

/// No row for this index (yet).
const ABSENT: u64 = u64::MAX;

/// Rows written to `out` in index order as their turn comes.
#[derive(Debug)]
pub(crate) struct AppRows<W: Write> {
    out: W,
    /// The lowest index not written to `out` yet (while the window is in use).
    next: u32,
    /// Rows waiting for their turn: slot `k` holds index `next + k`.
    window: VecDeque<Option<Box<[u8]>>>,
    /// Bytes of the rows in `window`.
    window_rows: usize,
    /// Bound of the window's memory (rows plus slots).
    window_limit: usize,
    spill_path: PathBuf,
    /// Once the window overflowed: every row from then on.
    spill: Option<Spill>,
}

/// Rows spilled to a file, with where each index's row lies.
#[derive(Debug)]
struct Spill {
    file: BufWriter<File>,
    /// Bytes written to the spill so far.
    written: u64,
    /// Offset of each index's row in the spill, [`ABSENT`] when none came.
    offsets: Vec<u64>,
    /// Length of each index's row.
    lens: Vec<u32>,
}

impl Spill {
    fn push(&mut self, index: u32, row: &[u8]) -> io::Result<()> {
        let len = u32::try_from(row.len()).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidData, "an apps.csv row over 4 GiB")
        })?;
        let i = index as usize;
        if self.offsets.len() <= i {
            self.offsets.resize(i + 1, ABSENT);
            self.lens.resize(i + 1, 0);
        }
        self.file.write_all(row)?;
        self.offsets[i] = self.written;
        self.lens[i] = len;
        self.written += u64::from(len);
        Ok(())
    }

    /// Writes every spilled row into `out` by ascending index.
    fn copy_in_order(self, out: &mut impl Write) -> io::Result<()> {
        let Spill {
            file,
            offsets,
            lens,
            ..
        } = self;
        let mut file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
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
        Ok(())
    }
}

impl<W: Write> AppRows<W> {
    /// Rows written to `out`, the window bounded by `window_limit` bytes; past it rows spill
    /// to a file at `spill_path` (created then, removed by [`AppRows::finish`]).
    pub(crate) fn new(out: W, spill_path: &Path, window_limit: usize) -> AppRows<W> {
        AppRows {
            out,
            next: 0,
            window: VecDeque::new(),
            window_rows: 0,
            window_limit,
            spill_path: spill_path.to_path_buf(),
            spill: None,
        }
    }

    /// The row of app `index`: one per index (a later row for an index still waiting replaces
    /// it; a row for an index already written is an error).
    pub(crate) fn push(&mut self, index: u32, row: &[u8]) -> io::Result<()> {
        if let Some(spill) = self.spill.as_mut() {
            if index < self.next {
                return Err(written_twice(index));
            }
            return spill.push(index, row);
        }
        let Some(k) = index.checked_sub(self.next) else {
            return Err(written_twice(index));
        };
        let k = k as usize;
        if k == 0 {
            // Its turn: no copy kept.
            self.out.write_all(row)?;
            if let Some(Some(old)) = self.window.pop_front() {
                self.window_rows -= old.len();
            }
            self.next += 1;
            return self.write_ready();
        }
        if self.window.len() <= k {
            self.window.resize(k + 1, None);
        }
        if let Some(old) = self.window[k].replace(row.into()) {
            self.window_rows -= old.len();
        }
        self.window_rows += row.len();
        if self.window_rows + self.window.len() * SLOT_BYTES > self.window_limit {
            self.overflow()?;
        }
        Ok(())
    }

    /// Writes the waiting rows whose turn has come.
    fn write_ready(&mut self) -> io::Result<()> {
        while let Some(Some(_)) = self.window.front() {
            let row = self
                .window
                .pop_front()
                .flatten()
                .expect("the front slot holds a row");
            self.out.write_all(&row)?;
            self.window_rows -= row.len();
            self.next += 1;
        }
        Ok(())
    }

    /// Moves the window's rows to a new spill file, where every later row goes too.
    fn overflow(&mut self) -> io::Result<()> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&self.spill_path)?;
        let mut spill = Spill {
            file: BufWriter::with_capacity(1 << 16, file),
            written: 0,
            offsets: Vec::new(),
            lens: Vec::new(),
        };
        for (k, row) in std::mem::take(&mut self.window).into_iter().enumerate() {
            if let Some(row) = row {
                spill.push(self.next + k as u32, &row)?;
            }
        }
        self.window_rows = 0;
        self.spill = Some(spill);
        Ok(())
    }

    /// Writes the rows still waiting by ascending index (an index no row came for is
    /// skipped), removes the spill file and returns the output.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        match self.spill.take() {
            Some(spill) => {
                spill.copy_in_order(&mut self.out)?;
                std::fs::remove_file(&self.spill_path)?;
            }
            None => {
                for row in std::mem::take(&mut self.window).into_iter().flatten() {
                    self.out.write_all(&row)?;
                }
            }
        }
        Ok(self.out)
    }

    /// The file a failed [`AppRows::push`] was writing: the spill once rows go there.
    pub(crate) fn failed_path<'p>(&'p self, out_path: &'p Path) -> &'p Path {
        if self.spill.is_some() {
            &self.spill_path
        } else {
            out_path
        }
    }

    /// Whether rows went to the spill file (for tests).
    #[cfg(test)]
    fn spilled(&self) -> bool {
        self.spill.is_some()
    }
}

fn written_twice(index: u32) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("app {index}'s apps.csv row came after it was written"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows in index order, with the window bounded by `limit`; whether they spilled.
    fn ordered_with(pushes: &[(u32, &str)], limit: usize) -> (String, bool) {
        let dir = tempfile::tempdir().unwrap();
        let spill = dir.path().join("spill");
        let mut rows = AppRows::new(Vec::new(), &spill, limit);
        for (i, r) in pushes {
            rows.push(*i, r.as_bytes()).unwrap();
        }
        let spilled = rows.spilled();
        assert_eq!(
            spill.exists(),
            spilled,
            "a spill file exists while rows spill"
        );
        let out = rows.finish().unwrap();
        assert!(!spill.exists(), "the spill is removed");
        (String::from_utf8(out).unwrap(), spilled)
    }

    /// In the window and through the spill, the same bytes.
    fn ordered(pushes: &[(u32, &str)]) -> String {
        let (in_memory, spilled) = ordered_with(pushes, WINDOW_BYTES);
        assert!(!spilled);
        // A limit of 0 spills at the first row that has to wait.
        let (through_spill, _) = ordered_with(pushes, 0);
        assert_eq!(in_memory, through_spill);
        in_memory
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
        // A waiting row replaced by a later one for the same index.
        assert_eq!(ordered(&[(1, "x\n"), (1, "b\n"), (0, "a\n")]), "a\nb\n");
    }

    /// Rows go out as soon as their turn comes: what is left waiting is only what an open
    /// app holds back.
    #[test]
    fn rows_whose_turn_came_are_written_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut rows = AppRows::new(Vec::new(), &dir.path().join("spill"), WINDOW_BYTES);
        rows.push(1, b"b\n").unwrap();
        rows.push(3, b"d\n").unwrap();
        assert_eq!(rows.out, b"");
        rows.push(0, b"a\n").unwrap();
        // 0 and the waiting 1 went out; 3 waits for 2.
        assert_eq!(rows.out, b"a\nb\n");
        assert_eq!((rows.next, rows.window.len(), rows.window_rows), (2, 2, 2));
        rows.push(2, b"c\n").unwrap();
        assert_eq!(rows.out, b"a\nb\nc\nd\n");
        assert_eq!((rows.next, rows.window.len(), rows.window_rows), (4, 0, 0));
        // A row for an index already written is refused.
        assert!(rows.push(1, b"again\n").is_err());
    }

    /// The bound counts rows and slots: rows 1 and 2 (2 bytes each) waiting for 0 span three
    /// slots, 2 + 2 + 3 * 16 = 52 bytes, so a bound of 52 holds them and 51 spills.
    #[test]
    fn the_window_spills_past_its_bound_and_keeps_the_order() {
        let pushes = [(1, "b\n"), (2, "c\n"), (0, "a\n")];
        assert_eq!(SLOT_BYTES, 16);
        assert_eq!(ordered_with(&pushes[..2], 52), ("b\nc\n".into(), false));
        let (out, spilled) = ordered_with(&pushes, 51);
        assert!(spilled);
        assert_eq!(out, "a\nb\nc\n");
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
