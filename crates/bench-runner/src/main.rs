//! The `fairsim` command line.
fn main() {}
