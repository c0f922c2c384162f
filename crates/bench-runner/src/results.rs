//! Deterministic number formatting and atomic file writes for everything under `results/`.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Formats a float for a CSV cell: the shortest text that parses back to the same `f64`.
///
/// Plain decimal notation for magnitudes in `[1e-5, 1e16)` and zero, exponent notation (`1.5e-7`) otherwise;
/// `NaN`, `inf` and `-inf` for the non-finite values. [`parse_f64`] reads every output back exactly.
pub fn fmt_f64(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let a = x.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Parses a float written by [`fmt_f64`] (or any text Rust's `f64::from_str` accepts).
pub fn parse_f64(s: &str) -> Option<f64> {
    s.trim().parse().ok()
}

/// The directory a file lives in, `.` for a bare file name.
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temporary file beside `path`, created readable by all as an ordinary file would be
/// (mode 0666 less the umask, so 0644 usually) rather than the 0600 of a private temporary.
fn temp_beside(path: &Path, suffix: &str) -> io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(".fairsim-").suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(parent_dir(path))
}

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, synced, then renamed over `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = temp_beside(path, ".tmp")?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Copies `from` to `to` atomically, a buffer at a time: a temporary file beside `to`,
/// synced, then renamed over it.
pub fn copy_atomic(from: &Path, to: &Path) -> io::Result<()> {
    let mut src = std::fs::File::open(from)?;
    let mut tmp = temp_beside(to, ".tmp")?;
    io::copy(&mut src, &mut tmp)?;
    tmp.as_file().sync_all()?;
    tmp.persist(to).map_err(|e| e.error)?;
    Ok(())
}

/// Lets `write` fill a temporary file (whose name ends in `suffix`, e.g. `.png`, for writers that pick the
/// format from the extension), then renames it over `path`. Nothing appears at `path` if `write` fails.
pub fn write_atomic_with<E: From<io::Error>>(
    path: &Path,
    suffix: &str,
    write: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    let tmp = temp_beside(path, suffix)?;
    let tmp_path: PathBuf = tmp.path().to_path_buf();
    write(&tmp_path)?;
    std::fs::File::open(&tmp_path)?.sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_round_trip_through_their_text() {
        for x in [
            0.0,
            -0.0,
            1.0,
            0.1,
            1.0 / 3.0,
            2.5e-7,
            1e-5,
            9.99e15,
            1e16,
            1e300,
            -4.25,
            f64::MAX,
            f64::MIN_POSITIVE,
        ] {
            let s = fmt_f64(x);
            assert_eq!(parse_f64(&s).unwrap().to_bits(), x.to_bits(), "{x} -> {s}");
        }
        assert_eq!(fmt_f64(1.0), "1");
        assert_eq!(fmt_f64(2.5e-7), "2.5e-7");
        assert!(parse_f64(&fmt_f64(f64::NAN)).unwrap().is_nan());
        assert_eq!(parse_f64(&fmt_f64(f64::INFINITY)), Some(f64::INFINITY));
    }

    #[test]
    fn atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.csv");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// Output files get an ordinary file's mode (0666 less the umask), like `File::create`,
    /// not a private temporary's 0600; charts written through a closure too.
    #[cfg(unix)]
    #[test]
    fn written_files_have_an_ordinary_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let plain = dir.path().join("plain");
        std::fs::File::create(&plain).unwrap();
        let a = dir.path().join("a.csv");
        write_atomic(&a, b"x").unwrap();
        let b = dir.path().join("b.png");
        write_atomic_with::<io::Error>(&b, ".png", |p| std::fs::write(p, b"y")).unwrap();
        assert_eq!(mode(&a), mode(&plain));
        assert_eq!(mode(&b), mode(&plain));
    }
}
