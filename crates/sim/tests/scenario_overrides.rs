//! `[queues.NAME]` overrides in a scenario replace the allocation file's settings, so a sweep
//! can vary a queue's weight or minShare without editing XML.

use fairsim_core::{Policy, Resource};
use fairsim_sim::scenario::parse_scenario;
use fairsim_sim::tree::ResourceSpec;

const XML: &str = r#"<allocations>
  <queue name="etl"><weight>1</weight><minResources>1024 mb, 1 vcores</minResources></queue>
  <queue name="adhoc"><maxResources>50%</maxResources></queue>
</allocations>"#;

const WORKLOAD: &str = r#"[[workload.synthetic.queues]]
queue = "etl"
apps = 1
mean_interarrival_ms = 1000
tasks = { dist = "constant", value = 1 }
duration_ms = { dist = "constant", value = 1000 }
"#;

fn with(overrides: &str) -> Result<fairsim_sim::Scenario, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fs.xml"), XML).unwrap();
    let text = format!(
        "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n[scheduler]\nsemantics = \"hadoop-3.3\"\n\
         [allocation]\nfile = \"fs.xml\"\n{overrides}\n{WORKLOAD}"
    );
    parse_scenario(&text, &dir.path().join("s.toml")).map_err(|e| e.to_string())
}

#[test]
fn overrides_replace_weight_min_and_max() {
    let s = with("[queues.etl]\nweight = 2.5\nmin_memory_mb = 4096\n[queues.\"root.adhoc\"]\nmax_memory_mb = 2048\nmax_vcores = 2\npolicy = \"drf\"")
        .unwrap();
    let etl = s.tree.get(s.tree.find("root.etl").unwrap());
    assert_eq!(etl.weight, 2.5);
    // Only the memory component was given: vcores keep the file's value.
    assert_eq!(
        etl.min_resources,
        ResourceSpec::Absolute(Resource::new(4096, 1))
    );
    let adhoc = s.tree.get(s.tree.find("root.adhoc").unwrap());
    assert_eq!(
        adhoc.max_resources,
        ResourceSpec::Absolute(Resource::new(2048, 2))
    );
    assert_eq!(adhoc.policy, Policy::Drf);
}

#[test]
fn override_errors_name_the_key() {
    let err = with("[queues.nosuch]\nweight = 1").unwrap_err();
    assert!(
        err.contains("s.toml:9: queues.\"nosuch\": no such queue"),
        "{err}"
    );
    let err = with("[queues.etl]\nweight = -1").unwrap_err();
    assert!(
        err.contains("s.toml:10: queues.\"etl\".weight: -1 is out of range: the limit is a finite 32-bit float from 0 to 3.4e38"),
        "{err}"
    );
    // Finite as a double, infinite as the float Hadoop keeps a weight in.
    let err = with("[queues.etl]\nweight = 1e39").unwrap_err();
    assert!(
        err.contains("s.toml:10: queues.\"etl\".weight: 1e39 is not a finite 32-bit float"),
        "{err}"
    );
    // Half of a percentage cannot be replaced by an absolute value.
    let err = with("[queues.adhoc]\nmax_memory_mb = 1024").unwrap_err();
    assert!(
        err.contains("queues.\"adhoc\".max_memory_mb: the allocation file gives a percentage"),
        "{err}"
    );
    let err = with("[queues.root]\npolicy = \"fifo\"").unwrap_err();
    assert!(err.contains("fifo is allowed on leaf queues only"), "{err}");
    let err = with("[queues.etl]\nwieght = 2").unwrap_err();
    assert!(err.contains("s.toml:") && err.contains("wieght"), "{err}");
}

/// [`XML`] in a form both eras read (no percentage).
const XML_BOTH_ERAS: &str = r#"<allocations>
  <queue name="etl"><weight>1</weight><minResources>1024 mb, 1 vcores</minResources></queue>
  <queue name="adhoc"/>
</allocations>"#;

fn with_era(semantics: &str, overrides: &str) -> Result<fairsim_sim::Scenario, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fs.xml"), XML_BOTH_ERAS).unwrap();
    let text = format!(
        "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n[scheduler]\nsemantics = \"{semantics}\"\n\
         [allocation]\nfile = \"fs.xml\"\n{overrides}\n{WORKLOAD}"
    );
    parse_scenario(&text, &dir.path().join("s.toml")).map_err(|e| {
        e.to_string()
            .replace(&format!("{}/", dir.path().display()), "")
    })
}

/// An override giving a max below the min is answered as the allocation file's reader answers
/// one: a warning at the override's line, and each era's max share (3.3 raises the max to the
/// min componentwise; 2.7 keeps it). root.etl's file min is 1024 MB, 1 vcore; the override's
/// max is 512 MB, 4 vcores, so 3.3's max share is (max(512, 1024), max(4, 1)) = 1024 MB,
/// 4 vcores and 2.7's stays 512 MB, 4 vcores.
#[test]
fn an_override_max_below_the_min_warns_at_its_line_in_both_eras() {
    let cluster = Resource::new(16384, 16);
    let over = "[queues.etl]\nmax_memory_mb = 512\nmax_vcores = 4";
    let s = with_era("hadoop-3.3", over).unwrap();
    let etl = s.tree.get(s.tree.find("root.etl").unwrap());
    assert_eq!(etl.max_share(cluster), Resource::new(1024, 4));
    let w = s.warnings.iter().find(|w| w.contains("queues.")).unwrap();
    assert!(
        w.ends_with(
            "s.toml:10: queues.\"etl\".max_memory_mb: the max (512 MB, 4 vcores) is below the min \
             (1024 MB, 1 vcores) of root.etl: hadoop-3.3 raises the max to the min \
             (FSQueue.getMaxShare), giving 1024 MB, 4 vcores"
        ),
        "{w}"
    );
    let s = with_era("hadoop-2.7", over).unwrap();
    let etl = s.tree.get(s.tree.find("root.etl").unwrap());
    assert_eq!(etl.max_share(cluster), Resource::new(512, 4));
    let w = s.warnings.iter().find(|w| w.contains("queues.")).unwrap();
    assert!(
        w.ends_with(
            "s.toml:10: queues.\"etl\".max_memory_mb: the min (1024 MB, 1 vcores) of root.etl \
             does not fit in its max (512 MB, 4 vcores) (yarn only logs this; hadoop-2.7 keeps \
             the max)"
        ),
        "{w}"
    );
    // A min that fits says nothing; a min raised above a max is blamed on the min, at its
    // line (13): the two tables name one queue, applied in key order ("etl", "root.etl").
    let s = with_era(
        "hadoop-2.7",
        "[queues.etl]\nweight = 1\nmin_memory_mb = 4096",
    )
    .unwrap();
    assert!(
        s.warnings.iter().all(|w| !w.contains("queues.")),
        "{:?}",
        s.warnings
    );
    let s = with_era(
        "hadoop-2.7",
        "[queues.etl]\nmax_memory_mb = 2048\nmax_vcores = 2\n[queues.\"root.etl\"]\nmin_memory_mb = 4096",
    )
    .unwrap();
    let w: Vec<&String> = s
        .warnings
        .iter()
        .filter(|w| w.contains("queues."))
        .collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].ends_with(
            "s.toml:13: queues.\"root.etl\".min_memory_mb: the min (4096 MB, 1 vcores) of \
             root.etl does not fit in its max (2048 MB, 2 vcores) (yarn only logs this; \
             hadoop-2.7 keeps the max)"
        ),
        "{}",
        w[0]
    );
}

/// Hadoop 2.7 keeps a queue's memory and vcores in a Java int, and its allocation file's
/// reader refuses a larger `minResources` / `maxResources`; an override is held to the same
/// bound. Hadoop 3.3 keeps them in a long: the same override is read.
#[test]
fn hadoop27_refuses_override_resources_beyond_a_java_int() {
    for (over, line, key) in [
        ("min_memory_mb = 2147483648", 10, "min_memory_mb"),
        ("max_memory_mb = 4294967296", 10, "max_memory_mb"),
        ("min_vcores = 2147483648", 10, "min_vcores"),
        (
            "max_memory_mb = 8192\nmax_vcores = 9223372036854775807",
            11,
            "max_vcores",
        ),
    ] {
        let err = with_era("hadoop-2.7", &format!("[queues.etl]\n{over}")).unwrap_err();
        let value = over.rsplit(" = ").next().unwrap();
        assert_eq!(
            err,
            format!(
                "s.toml:{line}: queues.\"etl\".{key}: {value} is out of range: the limit is 0 to \
                 2147483647 (hadoop-2.7 keeps it in a Java int, as its allocation file's reader does)"
            )
        );
        assert!(with_era("hadoop-3.3", &format!("[queues.etl]\n{over}")).is_ok());
    }
    // The largest Java int is read.
    let s = with_era("hadoop-2.7", "[queues.etl]\nmax_memory_mb = 2147483647").unwrap();
    let etl = s.tree.get(s.tree.find("root.etl").unwrap());
    match etl.max_resources {
        ResourceSpec::Absolute(r) => assert_eq!(r.memory_mb, 2147483647),
        other => panic!("{other:?}"),
    }
}
