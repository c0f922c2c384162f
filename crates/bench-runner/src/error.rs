//! The command line's errors and the exit codes scripts can rely on.

use std::process::ExitCode;

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The input is wrong (malformed file, missing field, impossible value): exit code 2.
    #[error("{0}")]
    Input(String),
    /// Reading or writing failed: exit code 1.
    #[error("{0}")]
    Io(String),
}

impl CliError {
    /// Exit code: 2 for bad input, 1 for a failure of the machine.
    pub fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Input(_) => ExitCode::from(2),
            CliError::Io(_) => ExitCode::from(1),
        }
    }
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String, CliError> {
    use std::io::Read;
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::Io(format!("<stdin>: cannot read: {e}")))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => CliError::Input(format!("{path}: no such file")),
            std::io::ErrorKind::InvalidData => CliError::Input(format!("{path}: not UTF-8 text")),
            _ => CliError::Io(format!("{path}: cannot read: {e}")),
        })
    }
}
