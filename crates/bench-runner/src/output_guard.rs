//! Nothing half-written: an [`OutputGuard`] notes what an output directory held before a
//! command, and when the command fails removes what the command added (the directory itself
//! if the command created it), so a failing `merge` or `plot` leaves no output files behind
//! (`run`, `compare`, `sweep` and `plan` stage theirs instead: `crate::staging`). Files that were there before are never touched; each output file is
//! also written atomically (a temporary file, then a rename).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Refuses, as bad input, an output directory that cannot be one: the path, or the nearest
/// of its ancestors that exists, is not a directory (`--out summary.csv` naming a file).
pub fn check_out_dir(dir: &Path) -> Result<(), crate::CliError> {
    let existing = dir
        .ancestors()
        .find(|a| !a.as_os_str().is_empty() && a.exists());
    match existing {
        Some(a) if !a.is_dir() => Err(crate::CliError::Input(format!(
            "--out {}: {} exists and is not a directory",
            dir.display(),
            a.display()
        ))),
        _ => Ok(()),
    }
}

/// What an output directory held before a command.
#[derive(Debug)]
pub struct OutputGuard {
    dir: PathBuf,
    existed: bool,
    before: BTreeSet<PathBuf>,
}

fn list(dir: &Path, out: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        out.insert(p.clone());
        if is_dir {
            list(&p, out);
        }
    }
}

impl OutputGuard {
    /// Notes what `dir` holds now.
    pub fn new(dir: &Path) -> OutputGuard {
        let existed = dir.exists();
        let mut before = BTreeSet::new();
        if existed {
            list(dir, &mut before);
        }
        OutputGuard {
            dir: dir.to_path_buf(),
            existed,
            before,
        }
    }

    /// Runs `f`; when it fails, removes what appeared in the directory meanwhile.
    pub fn run<T, E>(self, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let result = f();
        if result.is_err() {
            self.clean();
        }
        result
    }

    fn clean(&self) {
        // Best effort: the command's own error is what the user needs to see.
        if !self.existed {
            let _ = std::fs::remove_dir_all(&self.dir);
            return;
        }
        let mut now = BTreeSet::new();
        list(&self.dir, &mut now);
        // Deepest first, so directories are empty when their turn comes.
        let added: Vec<&PathBuf> = now.difference(&self.before).collect();
        for p in added.into_iter().rev() {
            if p.is_dir() {
                let _ = std::fs::remove_dir_all(p);
            } else {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_removes_only_what_it_added() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("keep.txt"), "old").unwrap();
        let r: Result<(), &str> = OutputGuard::new(&out).run(|| {
            std::fs::create_dir(out.join("sub")).unwrap();
            std::fs::write(out.join("sub/new.csv"), "x").unwrap();
            std::fs::write(out.join("new.csv"), "x").unwrap();
            Err("failed")
        });
        assert!(r.is_err());
        let mut left = BTreeSet::new();
        list(&out, &mut left);
        assert_eq!(left, BTreeSet::from([out.join("keep.txt")]));
    }

    #[test]
    fn a_failure_removes_a_directory_it_created_and_success_keeps_it() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("new");
        let r: Result<(), ()> = OutputGuard::new(&out).run(|| {
            std::fs::create_dir_all(out.join("a")).unwrap();
            Err(())
        });
        assert!(r.is_err() && !out.exists());
        let r: Result<(), ()> = OutputGuard::new(&out).run(|| {
            std::fs::create_dir_all(&out).unwrap();
            Ok(())
        });
        assert!(r.is_ok() && out.exists());
    }
}
