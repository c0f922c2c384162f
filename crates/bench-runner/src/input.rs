//! Reading the input of a command: a file, or standard input for `-`.

use fairsim_bench_runner::CliError;
use std::path::Path;

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &str) -> Result<String, CliError> {
    if path == "-" {
        // Bounded as a file is: a stream without end (`< /dev/zero`) is refused, not read
        // until memory runs out, and text that is not UTF-8 is bad input, not an I/O failure.
        let limit = fairsim_sim::limits::MAX_TEXT_BYTES;
        fairsim_sim::limits::read_text_within(std::io::stdin(), limit).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => CliError::Input(format!("<stdin>: {e}")),
            _ => CliError::Failed(format!("<stdin>: cannot read: {e}")),
        })
    } else {
        fairsim_sim::limits::read_text_file(Path::new(path)).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => CliError::Input(format!("{path}: no such file")),
            std::io::ErrorKind::InvalidData => CliError::Input(format!("{path}: {e}")),
            _ => CliError::Failed(format!("{path}: cannot read: {e}")),
        })
    }
}

/// A fault found in the JSON file `path` after it was parsed, as bad input naming the line of
/// the value at fault. The file is read again to find it, so that the text of a good file
/// (a ResourceManager's responses run to hundreds of MB) is not kept beside its values.
pub fn json_fault(path: &Path, fault: fairsim_sim::json_lines::JsonFault) -> CliError {
    let file = path.display().to_string();
    CliError::Input(match std::fs::File::open(path) {
        Ok(f) => fault.at(&file, std::io::BufReader::with_capacity(1 << 16, f)),
        Err(_) => format!("{file}: {}", fault.message),
    })
}
