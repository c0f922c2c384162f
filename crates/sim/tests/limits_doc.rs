//! docs/limits.md prints `fairsim_sim::limits::LIMITS`: the table there is the table the
//! parsers check. `UPDATE_LIMITS_DOC=1 cargo test -p fairsim-sim --test limits_doc` rewrites it.

const BEGIN: &str = "<!-- limits table: generated from crates/sim/src/input/limits.rs -->\n";
const END: &str = "<!-- end of limits table -->\n";

#[test]
fn docs_limits_md_holds_the_table_the_parsers_check() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/limits.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc
        .find(BEGIN)
        .expect("docs/limits.md lacks the begin marker")
        + BEGIN.len();
    let end = doc.find(END).expect("docs/limits.md lacks the end marker");
    let table = fairsim_sim::limits::markdown_table();
    if std::env::var_os("UPDATE_LIMITS_DOC").is_some() {
        let updated = format!("{}{table}{}", &doc[..start], &doc[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        &doc[start..end],
        table,
        "docs/limits.md is stale: rerun with UPDATE_LIMITS_DOC=1"
    );
}
