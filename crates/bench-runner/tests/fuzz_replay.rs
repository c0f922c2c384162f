//! Every fuzz corpus file and every past crash, replayed on the stable toolchain: each input
//! of `fuzz/corpus/<target>/` and `fuzz/artifacts/<target>/` goes through the same code the
//! cargo-fuzz target runs (`fuzz/src/lib.rs`), so a crash found once stays fixed.

#[path = "../../../fuzz/src/lib.rs"]
mod harness;

use std::path::Path;

#[test]
fn every_corpus_file_and_past_crash_is_handled() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut replayed = 0;
    for (name, target) in harness::TARGETS {
        let mut files = Vec::new();
        for kind in ["corpus", "artifacts"] {
            if let Ok(entries) = std::fs::read_dir(fuzz.join(kind).join(name)) {
                files.extend(entries.flatten().map(|e| e.path()));
            }
        }
        files.sort();
        assert!(
            !files.is_empty() || *name == "simulate",
            "fuzz/corpus/{name} holds no seed"
        );
        for f in files {
            let data = std::fs::read(&f).unwrap();
            target(&data);
            replayed += 1;
        }
    }
    harness::remove_inputs_dir();
    assert!(replayed > 0);
}
