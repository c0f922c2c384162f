//! What the command-line tests share: the `fairsim` binary run with arguments, and the
//! bundled scenarios' folder.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's `scenarios/` folder.
pub fn scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// `fairsim ARGS`, run to completion.
pub fn fairsim<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `fairsim ARGS` run in `dir`.
pub fn fairsim_in<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fairsim"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("the binary runs")
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
