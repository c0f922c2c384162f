//! The table of Hadoop's scheduling test methods in docs/testing.md stays true: every
//! fairsim test it names exists, its rows are sorted by class then method with no repeats,
//! every row has a known era and status, a reproduced row names a test, no class loses
//! methods silently, and the counts by status the text gives are the table's.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const STATUSES: [&str; 7] = [
    "reproduced",
    "partly",
    "expressible",
    "in progress",
    "not expressible",
    "not scheduling",
    "differs",
];

/// Methods per (class, era) in the copies the table was made from (see the table's text).
const METHODS_PER_CLASS_AND_ERA: [(&str, &str, usize); 25] = [
    ("TestAbsoluteResourceConfiguration", "3.3", 7),
    ("TestAbsoluteResourceWithAutoQueue", "3.3", 3),
    ("TestApplicationLimits", "2.7", 5),
    ("TestApplicationLimits", "3.3", 6),
    ("TestAppRunnability", "3.3", 8),
    ("TestCapacitySchedulerAutoQueueCreation", "3.3", 15),
    ("TestCapacitySchedulerWeightMode", "3.3", 15),
    ("TestContinuousScheduling", "3.3", 7),
    ("TestFairScheduler", "2.7", 88),
    ("TestFairScheduler", "3.3", 100),
    ("TestFairSchedulerFairShare", "2.7", 6),
    ("TestFairSchedulerFairShare", "3.3", 6),
    ("TestFairSchedulerPreemption", "2.7", 1),
    ("TestFairSchedulerPreemption", "3.3", 9),
    ("TestFSAppStarvation", "3.3", 3),
    ("TestFSSchedulerNode", "3.3", 7),
    ("TestLeafQueue (Capacity Scheduler)", "3.3", 15),
    ("TestMaxRunningAppsEnforcer", "2.7", 6),
    ("TestMaxRunningAppsEnforcer", "3.3", 6),
    ("TestParentQueue (Capacity Scheduler)", "3.3", 11),
    ("TestQueueManagementDynamicEditPolicy", "3.3", 1),
    ("TestQueueStateHelper", "3.3", 5),
    ("TestReservations", "2.7", 10),
    ("TestReservations", "3.3", 10),
    ("TestSchedulingPolicy", "3.3", 6),
];

#[derive(Debug)]
struct Row {
    line: usize,
    class: String,
    method: String,
    eras: Vec<String>,
    status: String,
    note: String,
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn table_rows() -> Vec<Row> {
    let text = std::fs::read_to_string(workspace().join("docs/testing.md")).expect("docs");
    let mut in_section = false;
    let mut rows = vec![];
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            in_section = line.starts_with("## Hadoop's own tests");
            continue;
        }
        if !in_section || !line.starts_with("| ") || line.starts_with("| class |") {
            continue;
        }
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
        assert_eq!(cells.len(), 5, "docs/testing.md:{}: five cells", i + 1);
        rows.push(Row {
            line: i + 1,
            class: cells[0].into(),
            method: cells[1].into(),
            eras: cells[2].split(", ").map(String::from).collect(),
            status: cells[3].into(),
            note: cells[4].into(),
        });
    }
    rows
}

/// Every `file.rs::function` a note names.
fn references(note: &str) -> Vec<(String, String)> {
    note.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| code.split_once(".rs::"))
        .map(|(file, f)| (format!("{file}.rs"), f.to_string()))
        .collect()
}

/// The test sources of every crate, by file name.
fn test_sources() -> BTreeMap<String, Vec<String>> {
    let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for krate in ["core", "sim", "bench-runner"] {
        let dir = workspace().join("crates").join(krate).join("tests");
        for entry in std::fs::read_dir(&dir).expect("tests dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "rs") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).expect("source");
                files.entry(name).or_default().push(text);
            }
        }
    }
    files
}

#[test]
fn the_table_covers_the_classes_and_is_well_formed() {
    let rows = table_rows();
    assert!(
        rows.len() > 150,
        "the table was not found: {} rows",
        rows.len()
    );
    let key = |r: &Row| (r.class.to_lowercase(), r.method.to_lowercase());
    for pair in rows.windows(2) {
        assert!(
            key(&pair[0]) < key(&pair[1]),
            "docs/testing.md:{}: {} {} is out of order or repeated",
            pair[1].line,
            pair[1].class,
            pair[1].method
        );
    }
    let mut counts: BTreeMap<(String, String), usize> = BTreeMap::new();
    for r in &rows {
        assert!(
            STATUSES.contains(&r.status.as_str()),
            "docs/testing.md:{}: unknown status {:?}",
            r.line,
            r.status
        );
        for era in &r.eras {
            assert!(
                era == "2.7" || era == "3.3",
                "docs/testing.md:{}: unknown era {era:?}",
                r.line
            );
            *counts.entry((r.class.clone(), era.clone())).or_default() += 1;
        }
        assert!(!r.note.is_empty(), "docs/testing.md:{}: no note", r.line);
    }
    for (class, era, n) in METHODS_PER_CLASS_AND_ERA {
        let got = counts
            .get(&(class.to_string(), era.to_string()))
            .copied()
            .unwrap_or(0);
        assert_eq!(got, n, "{class} in {era}: rows in the table");
    }
}

#[test]
fn every_named_fairsim_test_exists() {
    let sources = test_sources();
    let mut named = BTreeSet::new();
    for r in table_rows() {
        let refs = references(&r.note);
        if r.status == "reproduced" || r.status == "partly" {
            assert!(
                !refs.is_empty(),
                "docs/testing.md:{}: {} is {} but names no test",
                r.line,
                r.method,
                r.status
            );
        }
        for (file, function) in refs {
            let texts = sources
                .get(&file)
                .unwrap_or_else(|| panic!("docs/testing.md:{}: no test file {file}", r.line));
            let decl = format!("fn {function}(");
            assert!(
                texts.iter().any(|t| t.contains(&decl)),
                "docs/testing.md:{}: {file} has no test {function}",
                r.line
            );
            named.insert((file, function));
        }
    }
    assert!(named.len() > 40, "only {} tests named", named.len());
}

#[test]
fn the_counts_by_status_are_the_tables() {
    let rows = table_rows();
    let count = |status: &str| rows.iter().filter(|r| r.status == status).count();
    let sentence = format!(
        "Of the {} rows, {} are reproduced, {} partly, {} not expressible and {} not scheduling;",
        rows.len(),
        count("reproduced"),
        count("partly"),
        count("not expressible"),
        count("not scheduling")
    );
    let text = std::fs::read_to_string(workspace().join("docs/testing.md")).expect("docs");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&sentence),
        "docs/testing.md should say: {sentence}"
    );
    let others = ["expressible", "in progress", "differs"];
    for status in others {
        assert_eq!(count(status), 0, "rows {status}: the text says none");
    }
}
