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
