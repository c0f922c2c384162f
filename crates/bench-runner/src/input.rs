//! Reading the input of a command: a file, or standard input for `-`.

use fairsim_bench_runner::CliError;
use std::path::Path;

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String, CliError> {
    use std::io::Read;
    if path == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| CliError::Failed(format!("<stdin>: cannot read: {e}")))?;
        Ok(text)
    } else {
        fairsim_sim::limits::read_text_file(Path::new(path)).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => CliError::Input(format!("{path}: no such file")),
            std::io::ErrorKind::InvalidData => CliError::Input(format!("{path}: {e}")),
            _ => CliError::Failed(format!("{path}: cannot read: {e}")),
        })
    }
}
