//! `fairsim validate` of a yarn-site.xml, and of a scenario naming one: what is read, from
//! which file and line, what the scenario overrides, what is not modelled; bad values exit 2
//! naming file, line and property.

mod common;

use common::fixture::fairsim;
use std::process::Output;

const SITE: &str = "<?xml version=\"1.0\"?>
<configuration>
  <property>
    <name>yarn.resourcemanager.scheduler.class</name>
    <value>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler</value>
  </property>
  <property><name>yarn.scheduler.fair.assignmultiple</name><value>true</value></property>
  <property><name>yarn.scheduler.fair.sizebasedweight</name><value>true</value></property>
  <property><name>yarn.scheduler.fair.event-log-enabled</name><value>true</value></property>
  <property><name>yarn.scheduler.fair.dynamic.max.assign</name><value>false</value></property>
  <property><name>yarn.resourcemanager.hostname</name><value>rm</value></property>
</configuration>
";

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn validate_lists_what_a_yarn_site_gives() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path().join("yarn-site.xml");
    std::fs::write(&site, SITE).unwrap();
    let o = fairsim(&["validate", site.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    let at = |line: u32| format!("{}:{line}: ", site.display());
    let expected = [
        format!(
            "{}: a yarn-site.xml (hadoop configuration), read as hadoop-2.7 for the Fair \
             Scheduler (yarn.resourcemanager.scheduler.class at line 5)",
            site.display()
        ),
        format!(
            "{}yarn.resourcemanager.scheduler.class = \
             org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler -> \
             the scheduler (Fair or Capacity)",
            at(5)
        ),
        format!(
            "{}yarn.scheduler.fair.assignmultiple = true -> scheduler.assignmultiple",
            at(7)
        ),
        format!(
            "{}yarn.scheduler.fair.sizebasedweight = true -> scheduler.sizebasedweight",
            at(8)
        ),
        format!(
            "{}yarn.scheduler.fair.dynamic.max.assign = false: not read by hadoop-2.7",
            at(10)
        ),
        format!(
            "{}yarn.scheduler.fair.event-log-enabled = true: not modelled: \
             an event log for people: no effect on decisions",
            at(9)
        ),
        "1 other property ignored (not read by YARN's schedulers)".to_string(),
        "ok, 0 warning(s)".to_string(),
    ];
    assert_eq!(out.lines().collect::<Vec<_>>(), expected);
}

#[test]
fn validate_of_a_scenario_says_where_each_value_came_from() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("yarn-site.xml"), SITE).unwrap();
    std::fs::write(
        p.join("fair-scheduler.xml"),
        "<allocations><queue name=\"q\"/></allocations>\n",
    )
    .unwrap();
    std::fs::write(
        p.join("trace.csv"),
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
         a,0,q,u,0,0,0,1,1024,1,100,1,\n",
    )
    .unwrap();
    let s = p.join("s.toml");
    std::fs::write(
        &s,
        "[cluster]\nnodes = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n\
         [scheduler]\nyarn_site = \"yarn-site.xml\"\nsizebasedweight = false\n\
         [workload]\ncsv = \"trace.csv\"\n",
    )
    .unwrap();
    let o = fairsim(&["validate", s.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    assert!(
        out.contains(
            "yarn-site.xml:8: yarn.scheduler.fair.sizebasedweight = true -> \
             scheduler.sizebasedweight, overridden by the scenario (line 7)"
        ),
        "{out}"
    );
    assert!(
        out.contains("yarn-site.xml:7: yarn.scheduler.fair.assignmultiple = true -> scheduler.assignmultiple\n"),
        "{out}"
    );
    assert!(
        out.ends_with("ok, scenario `s`, 3 queues, 1 nodes\n"),
        "{out}"
    );
}

#[test]
fn a_bad_value_exits_2_naming_file_line_and_property() {
    let d = tempfile::tempdir().unwrap();
    let site = d.path().join("yarn-site.xml");
    std::fs::write(
        &site,
        SITE.replace(
            "<name>yarn.scheduler.fair.assignmultiple</name><value>true</value>",
            "<name>yarn.scheduler.fair.max.assign</name><value>3000000000</value>",
        ),
    )
    .unwrap();
    let o = fairsim(&["validate", site.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "fairsim: {}:7: yarn.scheduler.fair.max.assign: 3000000000 is out of range: the \
             limit is a Java int (-2147483648 to 2147483647), Hadoop reads it with getInt",
            site.display()
        )
    );
    assert!(out.is_empty());
}

#[test]
fn a_capacity_scheduler_xml_is_still_read_as_one() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("capacity-scheduler.xml");
    let xml = "<configuration>\n\
        <property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>\n\
        <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>\n\
        </configuration>\n";
    std::fs::write(&f, xml).unwrap();
    let o = fairsim(&["validate", f.to_str().unwrap()]);
    let (out, _) = text(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        out.starts_with(&format!(
            "{}: capacity-scheduler.xml, 2 queues",
            f.display()
        )),
        "{out}"
    );
}

#[test]
fn a_capacity_file_without_the_roots_queues_is_refused_as_a_run_refuses_it() {
    // Queue properties make it a capacity-scheduler.xml whatever its name: validate reads it
    // as the allocation file a run would, which exits 2, instead of calling it a yarn-site.
    let d = tempfile::tempdir().unwrap();
    let xml = "<configuration>\n\
        <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>\n\
        </configuration>\n";
    for name in ["capacity-scheduler.xml", "cs.xml"] {
        let f = d.path().join(name);
        std::fs::write(&f, xml).unwrap();
        let o = fairsim(&["validate", f.to_str().unwrap()]);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{out}");
        assert_eq!(
            err,
            format!(
                "fairsim: {}:1: <property> yarn.scheduler.capacity.root.queues: the file must \
                 list root's queues in this property\n",
                f.display()
            )
        );
    }
    // Other capacity keys alone are what a yarn-site.xml may hold: read as one, with a note.
    let f = d.path().join("yarn-site.xml");
    std::fs::write(
        &f,
        "<configuration>\n<property><name>yarn.scheduler.capacity.node-locality-delay</name>\
         <value>10</value></property>\n</configuration>\n",
    )
    .unwrap();
    let o = fairsim(&["validate", f.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(
        out.lines().nth(1),
        Some(
            "note: it holds yarn.scheduler.capacity.* properties but no \
             yarn.scheduler.capacity.root.queues: a capacity-scheduler.xml must name the root's queues"
        )
    );
}
