//! What the command-line tests share: the `fairsim` binary run with arguments, and the
//! repository's files (the bundled scenarios).

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's `scenarios/` folder.
pub fn scenarios() -> PathBuf {
    repo().join("scenarios")
}

/// The `fairsim` binary as a command, for a test that sets more than its arguments (its
/// directory, environment or streams) or spawns it.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fairsim"))
}

/// `fairsim ARGS`, run to completion.
pub fn fairsim<S: AsRef<OsStr>>(args: &[S]) -> Output {
    command().args(args).output().expect("the binary runs")
}

/// `fairsim ARGS` run in `dir`.
pub fn fairsim_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    command()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `fairsim ARGS` with `stdin` as its standard input, run to completion.
pub fn fairsim_with_stdin<S: AsRef<OsStr>>(args: &[S], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(stdin.as_ref())
        .expect("stdin written");
    child.wait_with_output().expect("the binary runs")
}

/// `fairsim ARGS`, which must succeed; its standard output.
pub fn fairsim_ok<S: AsRef<OsStr>>(args: &[S]) -> String {
    let out = fairsim(args);
    let args: Vec<&OsStr> = args.iter().map(AsRef::as_ref).collect();
    assert!(
        out.status.success(),
        "fairsim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
