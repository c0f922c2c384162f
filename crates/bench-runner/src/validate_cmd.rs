//! `fairsim validate` of an XML file: an allocation file (`alloc_cmd`) or a yarn-site.xml /
//! sls-runner.xml (`site_cmd`), told apart here so that neither module needs the other.

use std::io::Write;

use crate::alloc_cmd::{CmdError, ValidateArgs, refuse_json, run_validate};
use crate::site_cmd::{site_file, validate_site};

/// Runs `fairsim validate` on `args.file`: output to `out`, warnings to `err`.
pub fn validate(
    args: &ValidateArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), CmdError> {
    refuse_json(args)?;
    if let Some(props) = site_file(args)? {
        return validate_site(args, &props, out, err);
    }
    run_validate(args, out, err)
}
