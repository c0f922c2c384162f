//! All or nothing: `run`, `compare`, `sweep` and `plan` write their outputs into a staging
//! directory beside `--out` (`.NAME.partial`, `.NAME.shard-K-of-N.partial` for a shard) and
//! move them into `--out` only once every file is written. A command that fails, or is
//! killed, leaves `--out` as it was: absent, or holding its earlier files untouched.
//!
//! Outputs never destroy what fairsim did not write: files of `--out` with other names are
//! left as they are, and a directory (or a file) of `--out` where fairsim writes a file (or a
//! directory) of the same name refuses the command, with exit code 2, before anything moves.
//!
//! What a killed command leaves is the staging directory alone. The next `run` or `compare`
//! into the same `--out` removes it first; a `sweep` or `plan` killed part way keeps its
//! journal there, which `--resume` continues (and a new start without `--resume` removes).
//! A failing `run` or `compare` removes its staging directory; a failing sweep or plan keeps
//! it only when its journal holds finished runs, so `--resume` can continue after the cause
//! is fixed. A command interrupted by Ctrl-C (SIGINT), SIGTERM or SIGHUP does the same before
//! it exits with 130 ([`clean_up_on_interrupt`]): only a hard kill leaves a staging directory
//! of large outputs behind.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The staging directories of commands in progress, for the interrupt handler.
static IN_PROGRESS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_progress() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    IN_PROGRESS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Installs the handler of SIGINT, SIGTERM and SIGHUP: every staging directory in progress
/// is removed (one whose journal holds finished runs is kept for `--resume`, and the message
/// says so), then the process exits with 130, as a shell reports an interrupted command.
/// `--out` is left as it was. Installing it twice keeps the first.
pub fn clean_up_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        // Held until exit: a command cannot start moving its outputs in meanwhile.
        let dirs = in_progress();
        for dir in dirs.iter() {
            if holds_a_journal(dir) {
                eprintln!(
                    "fairsim: interrupted; the runs finished so far are kept in {}; --resume with the same --out continues them",
                    dir.display()
                );
            } else {
                // Writers may still add files while it goes: try again a few times.
                for _ in 0..5 {
                    if std::fs::remove_dir_all(dir).is_ok() || !dir.exists() {
                        break;
                    }
                }
                eprintln!("fairsim: interrupted; nothing was written to --out");
            }
        }
        std::process::exit(130);
    });
}

/// The journal file name a sweep or plan keeps in its staging directory (with `.shard-...`
/// before `.jsonl` for a shard); a staging directory holding one is kept on failure.
const JOURNAL_PREFIX: &str = "journal";

/// Outputs being written beside their final place.
#[derive(Debug)]
pub struct Staged {
    target: PathBuf,
    dir: PathBuf,
}

/// The staging directory of `target` (`tag` tells concurrent writers of one target apart,
/// such as a sweep's shards): `.NAME[.tag].partial` beside it, or inside it when the target
/// has no name of its own (`.` or `/`).
pub fn staging_dir(target: &Path, tag: Option<&str>) -> PathBuf {
    let suffix = tag.map_or_else(|| ".partial".to_string(), |t| format!(".{t}.partial"));
    match (target.file_name(), target.parent()) {
        (Some(name), Some(parent)) => parent.join(format!(".{}{suffix}", name.to_string_lossy())),
        _ => target.join(format!(".fairsim{suffix}")),
    }
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> crate::CliError + '_ {
    move |source| crate::CliError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Staged {
    /// Starts writing towards `target`: checks that it can be a directory, and makes an empty
    /// staging directory, removing what a killed command left there unless `resume` (a sweep
    /// or plan continuing from its journal).
    pub fn begin(
        target: &Path,
        tag: Option<&str>,
        resume: bool,
    ) -> Result<Staged, crate::CliError> {
        crate::output_guard::check_out_dir(target)?;
        let dir = staging_dir(target, tag);
        if !resume && dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(io_err(&dir))?;
        }
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        in_progress().push(dir.clone());
        Ok(Staged {
            target: target.to_path_buf(),
            dir,
        })
    }

    /// Where the command writes.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `path` (under the staging directory) as it will be once moved into the target: for
    /// messages that name the files written.
    pub fn shown(&self, path: &Path) -> PathBuf {
        match path.strip_prefix(&self.dir) {
            Ok(rest) if rest.as_os_str().is_empty() => self.target.clone(),
            Ok(rest) => self.target.join(rest),
            Err(_) => path.to_path_buf(),
        }
    }

    /// Runs `f` on the staging directory; on success moves every output into the target, on
    /// failure removes the staging directory (a sweep's or plan's with a journal of finished
    /// runs is kept for `--resume`, and the error says so).
    pub fn run<T>(
        self,
        f: impl FnOnce(&Staged) -> Result<T, crate::CliError>,
    ) -> Result<T, crate::CliError> {
        let result = f(&self);
        // From here on the command itself decides what stays: an interrupt no longer does.
        in_progress().retain(|d| d != &self.dir);
        match result {
            Ok(v) => {
                self.commit()?;
                Ok(v)
            }
            Err(e) => {
                if self.holds_a_journal() {
                    eprintln!(
                        "fairsim: the runs finished so far are kept in {}; --resume with the same --out continues them",
                        self.dir.display()
                    );
                } else {
                    let _ = std::fs::remove_dir_all(&self.dir);
                }
                Err(e)
            }
        }
    }

    fn holds_a_journal(&self) -> bool {
        holds_a_journal(&self.dir)
    }

    /// Moves the staged outputs into the target: one rename when the target does not exist
    /// (or is empty), else file by file, each replacing its namesake atomically, so files of
    /// the target that the command did not write stay. A directory where an output file goes
    /// (or a file where an output directory goes) is not fairsim's: the command is refused
    /// before anything moves, and the target stays as it was.
    fn commit(self) -> Result<(), crate::CliError> {
        if let Some(clash) = clash(&self.dir, &self.target) {
            if !self.holds_a_journal() {
                let _ = std::fs::remove_dir_all(&self.dir);
            }
            return Err(clash);
        }
        if let Some(parent) = self.target.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        if self.dir.parent() == Some(self.target.as_path())
            || !rename_whole(&self.dir, &self.target)
        {
            merge_into(&self.dir, &self.target)?;
            std::fs::remove_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        }
        Ok(())
    }
}

/// Whether the staging directory `dir` holds a sweep's or plan's journal of finished runs.
fn holds_a_journal(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let name = e.file_name().to_string_lossy().into_owned();
        // A journal holds its header line and one line per finished run.
        name.starts_with(JOURNAL_PREFIX)
            && name.ends_with(".jsonl")
            && std::fs::read_to_string(e.path()).is_ok_and(|t| t.lines().count() > 1)
    })
}

/// The first entry of `to` that an entry of `from` cannot replace without destroying what
/// fairsim did not write: a directory (or anything else that is not a file) where `from` has
/// a file, a file where `from` has a directory; `None` when every output can move in.
fn clash(from: &Path, to: &Path) -> Option<crate::CliError> {
    let entries = std::fs::read_dir(from).ok()?;
    for entry in entries.flatten() {
        let src = entry.path();
        let dst = to.join(entry.file_name());
        let Ok(meta) = std::fs::symlink_metadata(&dst) else {
            continue;
        };
        let refuse = |what: &str, writes: &str| {
            Some(crate::CliError::Input(format!(
                "--out {}: {} is {what} fairsim did not write, where it writes {writes}: \
                 nothing was moved into --out (move it away, or choose another --out)",
                to.display(),
                dst.display()
            )))
        };
        let src_is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if src_is_dir {
            if meta.is_dir() {
                if let Some(c) = clash(&src, &dst) {
                    return Some(c);
                }
            } else {
                return refuse("a file", "a directory");
            }
        } else if meta.is_dir() {
            return refuse("a directory", "a file");
        } else if !meta.is_file() && !meta.file_type().is_symlink() {
            return refuse("a special file", "a file");
        }
    }
    None
}

/// Renames `from` to `to` when `to` is absent or an empty directory; false otherwise (another
/// writer, such as a shard, may have made it meanwhile: the caller then merges).
fn rename_whole(from: &Path, to: &Path) -> bool {
    std::fs::rename(from, to).is_ok()
}

/// Moves every entry of `from` into `to`, recursing into directories both hold.
fn merge_into(from: &Path, to: &Path) -> Result<(), crate::CliError> {
    std::fs::create_dir_all(to).map_err(io_err(to))?;
    for entry in std::fs::read_dir(from).map_err(io_err(from))? {
        let entry = entry.map_err(io_err(from))?;
        let src = entry.path();
        let dst = to.join(entry.file_name());
        if src.is_dir() && dst.is_dir() {
            merge_into(&src, &dst)?;
        } else {
            std::fs::rename(&src, &dst).map_err(io_err(&dst))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(_: &Staged) -> Result<(), crate::CliError> {
        Ok(())
    }

    #[test]
    fn staging_sits_beside_the_target_and_inside_a_nameless_one() {
        assert_eq!(
            staging_dir(Path::new("results/x"), None),
            Path::new("results/.x.partial")
        );
        assert_eq!(
            staging_dir(Path::new("out"), Some("shard-1-of-4")),
            Path::new(".out.shard-1-of-4.partial")
        );
        assert_eq!(
            staging_dir(Path::new("."), None),
            Path::new("./.fairsim.partial")
        );
    }

    #[test]
    fn a_new_target_appears_whole_and_an_old_one_keeps_what_was_not_rewritten() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| {
                std::fs::create_dir(s.dir().join("run-0")).unwrap();
                std::fs::write(s.dir().join("run-0/a.csv"), "1").unwrap();
                std::fs::write(s.dir().join("b.csv"), "1").unwrap();
                assert!(!out.exists(), "nothing appears before the end");
                assert_eq!(s.shown(&s.dir().join("b.csv")), out.join("b.csv"));
                Ok(())
            })
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("run-0/a.csv")).unwrap(),
            "1"
        );
        assert!(!staging_dir(&out, None).exists());
        std::fs::write(out.join("mine.txt"), "keep").unwrap();
        Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| {
                std::fs::create_dir(s.dir().join("run-0")).unwrap();
                std::fs::write(s.dir().join("run-0/a.csv"), "2").unwrap();
                Ok(())
            })
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(out.join("run-0/a.csv")).unwrap(),
            "2"
        );
        assert_eq!(std::fs::read_to_string(out.join("b.csv")).unwrap(), "1");
        assert_eq!(
            std::fs::read_to_string(out.join("mine.txt")).unwrap(),
            "keep"
        );
        Staged::begin(&out, None, false).unwrap().run(ok).unwrap();
        assert!(!staging_dir(&out, None).exists());
    }

    #[test]
    fn a_directory_where_an_output_file_goes_is_refused_and_left_whole() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        std::fs::create_dir_all(out.join("apps.csv")).unwrap();
        std::fs::write(out.join("apps.csv/mine.txt"), "keep").unwrap();
        std::fs::write(out.join("notes.txt"), "keep").unwrap();
        let e = Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| {
                std::fs::write(s.dir().join("summary.csv"), "1").unwrap();
                std::fs::write(s.dir().join("apps.csv"), "1").unwrap();
                Ok(())
            })
            .unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.to_string()
                .contains("is a directory fairsim did not write"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("apps.csv/mine.txt")).unwrap(),
            "keep"
        );
        assert!(!out.join("summary.csv").exists(), "nothing moves");
        assert!(!staging_dir(&out, None).exists());
        // A file where a run directory goes, one level down.
        std::fs::remove_dir_all(out.join("apps.csv")).unwrap();
        std::fs::create_dir(out.join("run-0")).unwrap();
        std::fs::write(out.join("run-0/detail"), "mine").unwrap();
        let e = Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| {
                std::fs::create_dir_all(s.dir().join("run-0/detail")).unwrap();
                std::fs::write(s.dir().join("run-0/detail/a.csv"), "1").unwrap();
                Ok(())
            })
            .unwrap_err();
        assert!(
            e.to_string().contains("is a file fairsim did not write"),
            "{e}"
        );
        assert_eq!(
            std::fs::read_to_string(out.join("run-0/detail")).unwrap(),
            "mine"
        );
    }

    #[test]
    fn a_failure_leaves_the_target_as_it_was_and_keeps_only_a_journal_of_runs() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let fail = |s: &Staged, journal: &str| {
            std::fs::write(s.dir().join("runs.csv"), "x").unwrap();
            std::fs::write(s.dir().join("journal.jsonl"), journal).unwrap();
            Err::<(), _>(crate::CliError::Failed("run 3 failed".into()))
        };
        let r = Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| fail(s, "{}\n"));
        assert!(r.is_err() && !out.exists() && !staging_dir(&out, None).exists());
        let r = Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| fail(s, "{}\n{\"run\":0}\n"));
        assert!(r.is_err() && !out.exists());
        assert!(staging_dir(&out, None).join("journal.jsonl").exists());
        // --resume keeps it; a fresh start removes it.
        Staged::begin(&out, None, true)
            .unwrap()
            .run(|s| {
                assert!(s.dir().join("journal.jsonl").exists());
                Ok(())
            })
            .unwrap();
        assert!(out.join("journal.jsonl").exists());
        std::fs::create_dir_all(staging_dir(&out, None)).unwrap();
        std::fs::write(staging_dir(&out, None).join("stale.csv"), "x").unwrap();
        Staged::begin(&out, None, false)
            .unwrap()
            .run(|s| {
                assert!(!s.dir().join("stale.csv").exists());
                Ok(())
            })
            .unwrap();
    }
}
