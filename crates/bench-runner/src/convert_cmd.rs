//! `fairsim convert`: a fair-scheduler.xml as the capacity-scheduler.xml Hadoop 3's `yarn
//! fs2cs` writes for it (`fairsim_sim::alloc::fs2cs`), checked by reading it back as a
//! capacity-scheduler.xml before it is written (its directory made if missing).

use fairsim_bench_runner::CliError;
use fairsim_core::Semantics;
use fairsim_sim::alloc::fs2cs::{Fs2csMode, convert};
use fairsim_sim::alloc::{load_any_file, parse_any_xml};
use fairsim_sim::tree::SchedulerKind;
use std::path::Path;

/// Converts `file` (read in `semantics`) and writes the result to `out`; the converter's
/// notes and the converted file's warnings are returned for stderr, the summary for stdout.
pub fn fs2cs(
    file: &Path,
    semantics: Semantics,
    mode: Fs2csMode,
    out: &Path,
) -> Result<(String, Vec<String>), CliError> {
    let loaded = load_any_file(file, semantics).map_err(|e| CliError::Input(e.to_string()))?;
    if loaded.tree.scheduler != SchedulerKind::Fair {
        return Err(CliError::Input(format!(
            "{}: is a capacity-scheduler.xml; fs2cs converts a fair-scheduler.xml",
            file.display()
        )));
    }
    let converted = convert(&loaded.tree, mode)
        .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
    // The weight form is Hadoop 3's: read the result back in the era that loads it.
    let read_era = match mode {
        Fs2csMode::Weight => Semantics::Hadoop33,
        Fs2csMode::Percentage => semantics,
    };
    let label = out.display().to_string();
    let back = parse_any_xml(&converted.xml, &label, read_era).map_err(|e| {
        // The lines it names are those of the text that would have been written.
        let e = e
            .to_string()
            .replacen(&label, &format!("{label} (as converted, not written)"), 1);
        CliError::Input(format!(
            "{}: the converted file does not load as a capacity-scheduler.xml, so nothing is \
             written: {e}",
            file.display()
        ))
    })?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("cannot create {}: {e}", dir.display())))?;
    }
    fairsim_sim::recorder::write_atomic(out, converted.xml.as_bytes())
        .map_err(|e| CliError::Failed(e.to_string()))?;
    let mut notes: Vec<String> = converted
        .notes
        .iter()
        .map(|n| format!("{}: {n}", file.display()))
        .collect();
    notes.extend(back.warnings);
    let leaves = back.tree.queues.iter().filter(|q| q.is_leaf).count();
    Ok((
        format!(
            "wrote {} ({} queues, {leaves} leaves, {} mode)\n",
            out.display(),
            back.tree.len(),
            match mode {
                Fs2csMode::Weight => "weight",
                Fs2csMode::Percentage => "percentage",
            }
        ),
        notes,
    ))
}
