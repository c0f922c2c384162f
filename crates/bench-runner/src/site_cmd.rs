//! `fairsim validate` of a yarn-site.xml or sls-runner.xml: every property fairsim reads
//! (with its value, file and line, and what becomes of it), every one it knows YARN has but
//! does not model, and how many others it ignores.

use crate::alloc_cmd::{CmdError, ValidateArgs};
use fairsim_sim::tree::SchedulerKind;
use fairsim_sim::yarn_site::{self, SiteProps, knobs};
use std::io::Write;

/// The file's properties when it is a Hadoop `<configuration>` other than a
/// capacity-scheduler.xml; `None` for an allocation file.
pub fn site_file(args: &ValidateArgs) -> Result<Option<SiteProps>, CmdError> {
    let text = fairsim_sim::alloc::read_xml_file(&args.file)?;
    let label = args.file.display().to_string();
    let doc = fairsim_sim::alloc::parse_xml_document(&text, &label)?;
    if doc.root_element().tag_name().name() != "configuration" {
        return Ok(None);
    }
    let mut props = SiteProps::default();
    props.add(&text, &args.file)?;
    if yarn_site::is_capacity_scheduler_file(&props) || meant_as_capacity_file(args, &props) {
        return Ok(None);
    }
    Ok(Some(props))
}

/// A `<configuration>` that names the root's queues is a capacity-scheduler.xml; so is one
/// that sets queue properties (`yarn.scheduler.capacity.root.*`, which only a
/// capacity-scheduler.xml gives fairsim) or goes by that file name, without them: it is
/// read as the allocation file a run would read, which refuses it, rather than reported as
/// a yarn-site.xml that validates.
fn meant_as_capacity_file(args: &ValidateArgs, props: &SiteProps) -> bool {
    args.file
        .file_name()
        .is_some_and(|n| n == "capacity-scheduler.xml")
        || props
            .props
            .keys()
            .any(|k| k.starts_with("yarn.scheduler.capacity.root."))
}

/// Prints what a yarn-site.xml or sls-runner.xml gives.
pub fn validate_site(
    args: &ValidateArgs,
    props: &SiteProps,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), CmdError> {
    let class = props.get(yarn_site::SCHEDULER_CLASS, args.era())?;
    let kind = class
        .as_ref()
        .map(knobs::scheduler_class)
        .transpose()?
        .unwrap_or(SchedulerKind::Capacity);
    let files = [args.file.clone()];
    let settings = knobs::settings(props, &files, args.era(), kind)?;
    let io = |e: std::io::Error| CmdError::Io(format!("cannot write the output: {e}"));
    for w in &props.warnings {
        writeln!(err, "warning: {w}").map_err(io)?;
    }
    let mut s = format!(
        "{}: a yarn-site.xml (hadoop configuration), read as {} for the {kind:?} Scheduler ({})\n",
        args.file.display(),
        args.era(),
        match class {
            Some(p) => format!("{} at line {}", p.name, p.line),
            None => format!("{} not set: YARN's default", yarn_site::SCHEDULER_CLASS),
        }
    );
    if props
        .props
        .keys()
        .any(|k| k.starts_with("yarn.scheduler.capacity."))
    {
        s.push_str(
            "note: it holds yarn.scheduler.capacity.* properties but no \
             yarn.scheduler.capacity.root.queues: a capacity-scheduler.xml must name the \
             root's queues\n",
        );
    }
    for line in settings.report.lines().iter().skip(1) {
        s.push_str(line);
        s.push('\n');
    }
    s.push_str(&format!("ok, {} warning(s)\n", props.warnings.len()));
    out.write_all(s.as_bytes()).map_err(io)
}
