//! Generated inputs, run end to end: random *valid* scenarios over every input form (a Fair or
//! Capacity Scheduler tree, either era, three cluster forms with node events, a native CSV,
//! SLS, Rumen, SYNTH or synthetic workload with host hints that may name no node, preemption,
//! delay scheduling, a cut `end_ms`), and random mutations of one of their files.
//!
//! An unmutated case must run (exit 0): it is valid by construction, so a refusal is a wrong
//! refusal and a crash is a crash. A mutated case must exit 0 or 2. Every case must end within
//! [`TIME_LIMIT`] and within [`MEMORY_LIMIT`] of address space, and a refused run must leave no
//! `out` behind. Cases are drawn from a fixed seed, so a failure names a case that replays
//! (`FAIRSIM_ROBUST_FIRST=K FAIRSIM_ROBUST_CASES=1` runs case K alone, and
//! `FAIRSIM_ROBUST_KEEP=DIR` keeps its files). `FAIRSIM_ROBUST_CASES` sets the number of cases
//! (default 40); docs/testing.md gives the long run's command and figures.

mod common;

use common::mutate::{Draws, mutate, run_bounded_in};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// The CPU time one case may use (and ten times it in wall-clock time, for a case that waits
/// rather than computes). The generated runs are small (at most a few hundred containers on
/// at most 24 nodes, an hour of simulated time), so anything near this is a hang or work that
/// grows with a number rather than with the input. CPU time, not wall time, so that a long
/// run beside other work on the machine fails no case by waiting for a core.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// The address space one case may use: the runs hold kilobytes of state, so a case near this
/// is a blow-up.
const MEMORY_LIMIT: u64 = 4 << 30;

/// One generated case: its files, the command and a description for the failure message.
struct Case {
    files: Vec<(String, String)>,
    args: Vec<&'static str>,
    what: String,
}

/// The names a workload's tasks may ask for: the cluster's hosts, plus ones it lacks.
struct Hosts {
    names: Vec<String>,
    racks: Vec<String>,
}

impl Hosts {
    /// A host hint: usually a node of the cluster, sometimes a host or rack it lacks.
    fn hint(&self, d: &mut Draws) -> String {
        match d.below(6) {
            1 if !self.racks.is_empty() => self.racks[d.below(self.racks.len())].clone(),
            _ => self.host(d),
        }
    }

    /// A host name: usually a node of the cluster, sometimes one it lacks.
    fn host(&self, d: &mut Draws) -> String {
        match d.below(6) {
            0 => format!("ghost{}", d.below(5)),
            _ => self.names[d.below(self.names.len())].clone(),
        }
    }
}

fn pick<'a>(d: &mut Draws, items: &[&'a str]) -> &'a str {
    items[d.below(items.len())]
}

fn chance(d: &mut Draws, one_in: usize) -> bool {
    d.below(one_in) == 0
}

/// A Fair Scheduler allocation file: its text and its leaves' short names. Policies follow
/// Hadoop 3.3's rule that a fair parent's children are fair or FIFO (a DRF parent takes any).
fn fair_xml(d: &mut Draws) -> (String, Vec<String>) {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<allocations>\n");
    let root_policy = pick(d, &["fair", "drf"]);
    if root_policy == "drf" {
        xml.push_str("  <defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>\n");
    }
    let mut leaves = Vec::new();
    let children = 1 + d.below(4);
    for c in 0..children {
        let name = format!("q{c}");
        let nested = chance(d, 3);
        let _ = writeln!(xml, "  <queue name=\"{name}\">");
        let policy = queue_props(d, &mut xml, nested, root_policy, root_policy);
        if nested {
            for g in 0..1 + d.below(3) {
                let leaf = format!("{name}l{g}");
                let _ = writeln!(xml, "    <queue name=\"{leaf}\">");
                queue_props(d, &mut xml, false, policy, root_policy);
                xml.push_str("    </queue>\n");
                leaves.push(format!("{name}.{leaf}"));
            }
        } else {
            leaves.push(name);
        }
        xml.push_str("  </queue>\n");
    }
    if chance(d, 3) {
        let _ = writeln!(
            xml,
            "  <user name=\"u{}\"><maxRunningApps>{}</maxRunningApps></user>",
            d.below(3),
            1 + d.below(3)
        );
    }
    if chance(d, 2) {
        let _ = writeln!(
            xml,
            "  <defaultFairSharePreemptionTimeout>{}</defaultFairSharePreemptionTimeout>",
            1 + d.below(30)
        );
        let _ = writeln!(
            xml,
            "  <defaultFairSharePreemptionThreshold>{}</defaultFairSharePreemptionThreshold>",
            pick(d, &["0.5", "0.8", "1.0", "0.2"])
        );
    }
    if chance(d, 3) {
        let _ = writeln!(
            xml,
            "  <queueMaxAMShareDefault>{}</queueMaxAMShareDefault>",
            pick(d, &["0.5", "1.0", "-1.0", "0.1"])
        );
    }
    if chance(d, 3) {
        xml.push_str("  <queuePlacementPolicy>\n");
        let _ = writeln!(
            xml,
            "    <rule name=\"specified\" create=\"{}\"/>",
            pick(d, &["true", "false"])
        );
        // A creating user rule is terminal: nothing after it could be reached.
        if chance(d, 2) {
            xml.push_str("    <rule name=\"user\" create=\"true\"/>\n");
        } else {
            xml.push_str("    <rule name=\"default\"/>\n");
        }
        xml.push_str("  </queuePlacementPolicy>\n");
    }
    xml.push_str("</allocations>\n");
    (xml, leaves)
}

/// A queue's elements; gives the queue's policy (`default`: the file's
/// defaultQueueSchedulingPolicy, which a queue without its own inherits).
fn queue_props(
    d: &mut Draws,
    xml: &mut String,
    parent: bool,
    parent_policy: &str,
    default: &'static str,
) -> &'static str {
    let indent = "    ";
    let _ = writeln!(
        xml,
        "{indent}<weight>{}</weight>",
        pick(d, &["1.0", "2", "0.5", "3.5", "0"])
    );
    if chance(d, 2) {
        let _ = writeln!(
            xml,
            "{indent}<minResources>{} mb, {} vcores</minResources>",
            1024 * d.below(24),
            d.below(24)
        );
    }
    if chance(d, 3) {
        let _ = writeln!(
            xml,
            "{indent}<maxResources>{} mb, {} vcores</maxResources>",
            1024 * (4 + d.below(60)),
            4 + d.below(60)
        );
    }
    if chance(d, 3) {
        let _ = writeln!(
            xml,
            "{indent}<maxRunningApps>{}</maxRunningApps>",
            d.below(5)
        );
    }
    if !parent && chance(d, 3) {
        let _ = writeln!(
            xml,
            "{indent}<maxAMShare>{}</maxAMShare>",
            pick(d, &["0.5", "0.1", "1.0", "-1.0"])
        );
    }
    let policies: &[&'static str] = match (parent, parent_policy) {
        (true, "drf") => &["fair", "drf"],
        (true, _) => &["fair"],
        (false, "drf") => &["fair", "drf", "fifo"],
        (false, _) => &["fair", "fifo"],
    };
    let policy = if chance(d, 2) || !policies.contains(&default) {
        let policy = pick(d, policies);
        let _ = writeln!(xml, "{indent}<schedulingPolicy>{policy}</schedulingPolicy>");
        policy
    } else {
        default
    };
    if chance(d, 3) {
        let _ = writeln!(
            xml,
            "{indent}<minSharePreemptionTimeout>{}</minSharePreemptionTimeout>",
            1 + d.below(20)
        );
    }
    if chance(d, 3) {
        let _ = writeln!(
            xml,
            "{indent}<fairSharePreemptionTimeout>{}</fairSharePreemptionTimeout>",
            1 + d.below(20)
        );
    }
    policy
}

/// A Capacity Scheduler file: its text and its leaves' short names.
fn capacity_xml(d: &mut Draws) -> (String, Vec<String>) {
    let mut xml = String::from("<?xml version=\"1.0\"?>\n<configuration>\n");
    let prop = |xml: &mut String, name: &str, value: &str| {
        let _ = writeln!(
            xml,
            "  <property><name>yarn.scheduler.capacity.{name}</name><value>{value}</value></property>"
        );
    };
    let n = 1 + d.below(4);
    let names: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
    prop(&mut xml, "root.queues", &names.join(","));
    let caps = split_100(d, n);
    let mut leaves = Vec::new();
    for (name, cap) in names.iter().zip(caps) {
        prop(&mut xml, &format!("root.{name}.capacity"), &cap.to_string());
        if chance(d, 2) {
            let max = (cap + d.below(101 - cap as usize) as u32).max(cap);
            prop(
                &mut xml,
                &format!("root.{name}.maximum-capacity"),
                &max.to_string(),
            );
        }
        if chance(d, 3) {
            prop(
                &mut xml,
                &format!("root.{name}.user-limit-factor"),
                pick(d, &["1", "2", "0.5", "10"]),
            );
        }
        if chance(d, 3) {
            prop(
                &mut xml,
                &format!("root.{name}.minimum-user-limit-percent"),
                pick(d, &["100", "50", "25"]),
            );
        }
        if chance(d, 3) {
            prop(
                &mut xml,
                &format!("root.{name}.maximum-am-resource-percent"),
                pick(d, &["0.1", "0.5", "1.0"]),
            );
        }
        // A nested level under some queues with room for it.
        if cap > 0 && chance(d, 4) {
            let kids: Vec<String> = (0..2).map(|i| format!("{name}k{i}")).collect();
            prop(&mut xml, &format!("root.{name}.queues"), &kids.join(","));
            for (kid, kc) in kids.iter().zip(split_100(d, 2)) {
                prop(
                    &mut xml,
                    &format!("root.{name}.{kid}.capacity"),
                    &kc.to_string(),
                );
                leaves.push(kid.clone());
            }
        } else {
            leaves.push(name.clone());
        }
    }
    if chance(d, 2) {
        prop(
            &mut xml,
            "node-locality-delay",
            pick(d, &["-1", "0", "10", "40"]),
        );
    }
    if chance(d, 3) {
        prop(
            &mut xml,
            "maximum-am-resource-percent",
            pick(d, &["0.1", "0.5"]),
        );
    }
    xml.push_str("</configuration>\n");
    (xml, leaves)
}

/// `n` whole percentages summing to 100.
fn split_100(d: &mut Draws, n: usize) -> Vec<u32> {
    let mut left = 100u32;
    let mut caps = Vec::with_capacity(n);
    for i in 0..n {
        let c = if i + 1 == n {
            left
        } else {
            d.below(left as usize + 1) as u32
        };
        caps.push(c);
        left -= c;
    }
    caps
}

/// The `[cluster]` table (and a nodes file when the form needs one), and the cluster's hosts.
fn cluster(d: &mut Draws, files: &mut Vec<(String, String)>, toml: &mut String) -> Hosts {
    let mut hosts = Hosts {
        names: Vec::new(),
        racks: Vec::new(),
    };
    toml.push_str("[cluster]\n");
    match d.below(3) {
        0 => {
            let n = 1 + d.below(24);
            let racks = 1 + d.below(3.min(n));
            let _ = writeln!(
                toml,
                "nodes = {n}\nracks = {racks}\nnode_memory_mb = {}\nnode_vcores = {}",
                1024 * (4 + d.below(13)),
                2 + d.below(15)
            );
            hosts.names = (0..n).map(|i| format!("node{i}")).collect();
            hosts.racks = (0..racks).map(|r| format!("/rack{r}")).collect();
        }
        1 => {
            let _ = writeln!(toml, "node_memory_mb = 8192\nnode_vcores = 8");
            for e in 0..1 + d.below(3) {
                let count = 1 + d.below(6);
                let _ = writeln!(
                    toml,
                    "[[cluster.nodes]]\nprefix = \"h{e}x\"\ncount = {count}\nrack = \"r{}\"",
                    d.below(2)
                );
                if chance(d, 2) {
                    let _ = writeln!(
                        toml,
                        "memory_mb = {}\nvcores = {}",
                        1024 * (2 + d.below(30)),
                        1 + d.below(32)
                    );
                }
                hosts.names.extend((0..count).map(|i| format!("h{e}x{i}")));
            }
            hosts.racks = vec!["/r0".into(), "/r1".into()];
        }
        _ => {
            let mut json = String::new();
            for r in 0..1 + d.below(3) {
                let nodes: Vec<String> = (0..1 + d.below(5))
                    .map(|i| {
                        let name = format!("n{r}-{i}.example.com");
                        hosts.names.push(name.clone());
                        format!("{{\"node\": \"{name}\"}}")
                    })
                    .collect();
                let _ = writeln!(
                    json,
                    "{{\"rack\": \"rack{r}\", \"nodes\": [{}]}}",
                    nodes.join(", ")
                );
                hosts.racks.push(format!("/rack{r}"));
            }
            files.push(("nodes.json".into(), json));
            let _ = writeln!(
                toml,
                "nodes_file = \"nodes.json\"\nnode_memory_mb = {}\nnode_vcores = {}",
                1024 * (4 + d.below(13)),
                2 + d.below(15)
            );
        }
    }
    // Node events on the initial nodes, each node leaving at most once, and added nodes.
    if chance(d, 4) {
        let mut left = std::collections::BTreeSet::new();
        for e in 0..1 + d.below(3) {
            let at = 1000 * (1 + d.below(600));
            match d.below(3) {
                0 => {
                    let _ = writeln!(
                        toml,
                        "[[cluster.events]]\nat_ms = {at}\nkind = \"add\"\nname = \"extra{e}\""
                    );
                }
                k => {
                    let node = d.below(hosts.names.len());
                    if left.insert(node) {
                        let kind = if k == 1 { "lose" } else { "decommission" };
                        let _ = writeln!(
                            toml,
                            "[[cluster.events]]\nat_ms = {at}\nkind = \"{kind}\"\nnode = \"{}\"",
                            hosts.names[node]
                        );
                    }
                }
            }
        }
    }
    hosts
}

/// A queue an app asks for: a leaf, its full name, or one the tree lacks (rejected or
/// created at submission, both valid).
fn queue_for(d: &mut Draws, leaves: &[String]) -> String {
    match d.below(10) {
        0 => "default".into(),
        1 => format!("nosuch{}", d.below(2)),
        2 => format!("root.{}", leaves[d.below(leaves.len())]),
        _ => {
            let leaf = &leaves[d.below(leaves.len())];
            leaf.rsplit('.').next().unwrap_or(leaf).to_string()
        }
    }
}

fn csv_trace(d: &mut Draws, leaves: &[String], hosts: &Hosts) -> String {
    let mut csv = String::from(
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n",
    );
    let mut at = 0u64;
    for a in 0..1 + d.below(12) {
        at += 1000 * d.below(60) as u64;
        let queue = queue_for(d, leaves);
        let user = format!("u{}", d.below(3));
        let am = if chance(d, 6) {
            0
        } else {
            512 * (1 + d.below(4))
        };
        for g in 0..1 + d.below(3) {
            let hint = if chance(d, 3) {
                (0..1 + d.below(3))
                    .map(|_| hosts.hint(d))
                    .collect::<Vec<_>>()
                    .join(";")
            } else {
                String::new()
            };
            let _ = writeln!(
                csv,
                "a{a},{at},{queue},{user},{am},1,{},{},{},{},{},{},{hint}",
                g.min(1),
                d.below(15),
                1024 * (1 + d.below(6)),
                1 + d.below(4),
                1000 * (1 + d.below(120)),
                10 * (g + 1),
            );
        }
    }
    csv
}

fn sls_trace(d: &mut Draws, leaves: &[String], hosts: &Hosts) -> String {
    let mut json = String::new();
    for j in 0..1 + d.below(10) {
        let tasks: Vec<String> = (0..1 + d.below(4))
            .map(|t| {
                let mut task = format!(
                    "{{\"count\": {}, \"container.memory-mb\": {}, \"container.duration.ms\": {}, \"container.priority\": {}, \"container.type\": \"{}\"",
                    1 + d.below(10),
                    1024 * (1 + d.below(4)),
                    1000 * (1 + d.below(90)),
                    10 * (t + 1),
                    pick(d, &["map", "reduce"])
                );
                if chance(d, 3) {
                    let _ = write!(task, ", \"container.host\": \"/rack0/{}\"", hosts.host(d));
                }
                task + "}"
            })
            .collect();
        let _ = writeln!(
            json,
            "{{\"job.start.ms\": {}, \"job.end.ms\": {}, \"job.queue.name\": \"{}\", \"job.user\": \"u{}\", \"job.id\": \"job{j}\", \"job.count\": {}, \"job.tasks\": [{}]}}",
            1000 * d.below(300),
            1000 * (300 + d.below(300)),
            queue_for(d, leaves),
            d.below(3),
            1 + d.below(2),
            tasks.join(", ")
        );
    }
    json
}

fn rumen_trace(d: &mut Draws, leaves: &[String], hosts: &Hosts) -> String {
    let mut json = String::new();
    let base = 1_400_000_000_000u64;
    for j in 0..1 + d.below(6) {
        let submit = base + 1000 * d.below(300) as u64;
        let tasks = |d: &mut Draws, n: usize| -> String {
            (0..n)
                .map(|_| {
                    let start = submit + 1000 * d.below(60) as u64;
                    let finish = start + 1000 * (1 + d.below(60)) as u64;
                    format!(
                        "{{\"attempts\": [{{\"startTime\": {start}, \"finishTime\": {finish}, \"hostName\": \"/rack0/{}\"}}]}}",
                        hosts.host(d)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let (n_maps, n_reduces) = (1 + d.below(8), d.below(3));
        let maps = tasks(d, n_maps);
        let reduces = tasks(d, n_reduces);
        let _ = writeln!(
            json,
            "{{\"jobID\": \"job_{j}\", \"user\": \"u{}\", \"queue\": \"{}\", \"submitTime\": {submit}, \"finishTime\": {}, \"mapTasks\": [{maps}], \"reduceTasks\": [{reduces}]}}",
            d.below(3),
            queue_for(d, leaves),
            submit + 600_000
        );
    }
    json
}

fn synth_file(d: &mut Draws, leaves: &[String]) -> String {
    let workloads: Vec<String> = (0..1 + d.below(2))
        .map(|w| {
            format!(
                "{{\"workload_name\": \"w{w}\", \"workload_weight\": {}, \"queue_name\": \"{}\", \
                 \"time_distribution\": [{{\"time\": 0, \"weight\": 1}}, {{\"time\": {}, \"weight\": 1}}], \
                 \"job_classes\": [{{\"class_name\": \"c{w}\", \"user_name\": \"u{w}\", \"class_weight\": 1, \
                 \"tasks\": [{{\"type\": \"map\", \"priority\": 20, \"count\": {}, \"time\": {{\"val\": {}, \"std\": {}}}, \
                 \"max_memory\": {{\"val\": 1024}}, \"max_vcores\": {{\"val\": 1}}}}]}}]}}",
                1 + d.below(3),
                queue_for(d, leaves),
                10 + d.below(300),
                pick(
                    d,
                    &[
                        "{\"val\": 3}",
                        "{\"val\": 5, \"std\": 2}",
                        "{\"discrete\": [1, 2, 8], \"weights\": [1, 1, 1]}",
                        "{\"val\": 4, \"std\": 1, \"dist\": \"NORM\"}"
                    ]
                ),
                1000 * (1 + d.below(60)),
                100 * d.below(20)
            )
        })
        .collect();
    format!(
        "{{\"description\": \"generated\", \"num_nodes\": 4, \"nodes_per_rack\": 2, \"num_jobs\": {}, \"rand_seed\": 1, \"workloads\": [{}]}}\n",
        1 + d.below(10),
        workloads.join(", ")
    )
}

fn synthetic_queues(d: &mut Draws, leaves: &[String], toml: &mut String) {
    for _ in 0..1 + d.below(3) {
        let _ = writeln!(
            toml,
            "[[workload.synthetic.queues]]\nqueue = \"{}\"\napps = {}\nmean_interarrival_ms = {}\n\
             tasks = {}\nduration_ms = {}\ncontainer_mb = {}\nam = {}",
            queue_for(d, leaves),
            1 + d.below(8),
            1000 * (1 + d.below(60)),
            pick(
                d,
                &[
                    "{ dist = \"constant\", value = 3 }",
                    "{ dist = \"lognormal\", median = 4, sigma = 1.0, max = 30 }",
                    "{ dist = \"exponential\", mean = 5 }",
                ]
            ),
            pick(
                d,
                &[
                    "{ dist = \"constant\", value = 20000 }",
                    "{ dist = \"pareto\", scale = 5000, shape = 1.5, max = 600000 }",
                    "{ dist = \"exponential\", mean = 30000 }",
                ]
            ),
            1024 * (1 + d.below(4)),
            pick(d, &["true", "false"])
        );
    }
}

/// The `[scheduler]` table for the chosen scheduler and era.
fn scheduler(d: &mut Draws, fair: bool, toml: &mut String) {
    let era = pick(d, &["hadoop-2.7", "hadoop-3.3"]);
    let _ = writeln!(
        toml,
        "[scheduler]\nsemantics = \"{era}\"\nheartbeat_ms = {}\nupdate_interval_ms = {}\npreemption = {}",
        pick(d, &["1000", "500", "3000"]),
        pick(d, &["500", "1000", "250"]),
        pick(d, &["true", "false"])
    );
    if chance(d, 3) {
        let _ = writeln!(toml, "am_launch_delay_ms = {}", 100 * d.below(20));
    }
    if fair {
        if chance(d, 3) {
            let _ = writeln!(
                toml,
                "locality_threshold_node = {}\nlocality_threshold_rack = {}",
                pick(d, &["0.5", "1.0", "-1.0"]),
                pick(d, &["0.5", "1.0", "-1.0"])
            );
        }
        if chance(d, 4) {
            toml.push_str("assignmultiple = true\n");
        }
        if chance(d, 4) {
            toml.push_str("sizebasedweight = true\n");
        }
        if chance(d, 5) {
            toml.push_str("continuous_scheduling = true\n");
        }
    } else if chance(d, 2) {
        let _ = writeln!(
            toml,
            "node_locality_delay = {}",
            pick(d, &["-1", "0", "5", "40"])
        );
    }
}

/// A valid scenario of random form.
fn generate(d: &mut Draws) -> Case {
    let mut files = Vec::new();
    let mut toml = String::from("name = \"g\"\n");
    if chance(d, 3) {
        let _ = writeln!(toml, "end_ms = {}", 1000 * (1 + d.below(3600)));
    }
    let fair = d.below(5) < 3;
    let (xml, leaves) = if fair { fair_xml(d) } else { capacity_xml(d) };
    let hosts = cluster(d, &mut files, &mut toml);
    scheduler(d, fair, &mut toml);
    let alloc = if fair { "fs.xml" } else { "cs.xml" };
    let _ = writeln!(toml, "[allocation]\nfile = \"{alloc}\"");
    files.push((alloc.into(), xml));
    let form = pick(d, &["csv", "sls", "rumen", "synth", "synthetic"]);
    match form {
        "csv" => files.push(("t.csv".into(), csv_trace(d, &leaves, &hosts))),
        "sls" => files.push(("t.json".into(), sls_trace(d, &leaves, &hosts))),
        "rumen" => files.push(("t.json".into(), rumen_trace(d, &leaves, &hosts))),
        "synth" => files.push(("t.json".into(), synth_file(d, &leaves))),
        _ => {}
    }
    if form == "synthetic" {
        synthetic_queues(d, &leaves, &mut toml);
    } else {
        let file = if form == "csv" { "t.csv" } else { "t.json" };
        let _ = writeln!(toml, "[workload]\n{form} = \"{file}\"");
    }
    let _ = writeln!(
        toml,
        "[outputs]\nsample_interval_ms = {}",
        pick(d, &["0", "1000", "10000"])
    );
    files.push(("s.toml".into(), toml));
    let args = match d.below(10) {
        0 => vec!["validate", "s.toml"],
        1 => vec!["trace", "s.toml", "--out", "trace.csv"],
        _ => vec!["run", "s.toml", "--out", "out"],
    };
    Case {
        files,
        args,
        what: format!(
            "{} scheduler, {form} workload",
            if fair { "fair" } else { "capacity" }
        ),
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs case `case` of the stream seeded by `seed`: the exit code, or the failure.
fn run_case(seed: u64, case: usize, keep: Option<&Path>) -> Result<i32, String> {
    // Each case has its own stream, so case K replays alone.
    let mut d = Draws(seed ^ (case as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut c = generate(&mut d);
    let mutated = if chance(&mut d, 3) {
        let i = d.below(c.files.len());
        let (mutant, edit) = mutate(c.files[i].1.as_bytes(), &mut d);
        let name = c.files[i].0.clone();
        c.files[i].1 = String::from_utf8_lossy(&mutant).into_owned();
        c.what = format!("{}; {name} mutated: {edit}", c.what);
        true
    } else {
        false
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in &c.files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    if let Some(keep) = keep {
        let to = keep.join(format!("case-{case}"));
        let _ = std::fs::create_dir_all(&to);
        for (name, text) in &c.files {
            let _ = std::fs::write(to.join(name), text);
        }
    }
    let verdict = match run_bounded_in(dir.path(), &c.args, TIME_LIMIT, Some(MEMORY_LIMIT)) {
        Ok((0, _)) => Ok(0),
        Ok((2, _)) if mutated => Ok(2),
        Ok((code, err)) => Err(format!("exit {code} on a valid input: {}", err.trim())),
        Err(e) => Err(e),
    };
    verdict.map_err(|e| {
        let mut msg = format!("case {case} ({}; `{}`): {e}", c.what, c.args.join(" "));
        for (name, text) in &c.files {
            let _ = write!(msg, "\n  --- {name}\n{text}");
        }
        msg
    })
}

/// Runs cases `first..first + count` on `jobs` threads: the failures in case order, and how
/// many cases exited 0 and 2.
fn run_cases(seed: u64, first: usize, count: usize, jobs: usize) -> (Vec<String>, [usize; 3]) {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let keep = std::env::var_os("FAIRSIM_ROBUST_KEEP").map(std::path::PathBuf::from);
    let next = AtomicUsize::new(first);
    let results = Mutex::new((Vec::new(), [0usize; 3]));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let case = next.fetch_add(1, Ordering::Relaxed);
                    if case >= first + count {
                        break;
                    }
                    let outcome = run_case(seed, case, keep.as_deref());
                    let mut r = results.lock().unwrap();
                    match outcome {
                        Ok(code) => r.1[code as usize] += 1,
                        Err(e) => r.0.push((case, e)),
                    }
                    let done = r.1[0] + r.1[2] + r.0.len();
                    if done % 1000 == 0 {
                        eprintln!("{done} of {count} cases, {} failed", r.0.len());
                    }
                }
            });
        }
    });
    let (mut failures, codes) = results.into_inner().unwrap();
    failures.sort();
    (failures.into_iter().map(|(_, e)| e).collect(), codes)
}

#[test]
fn generated_scenarios_run_and_their_mutants_are_refused_never_a_crash() {
    let first = env_usize("FAIRSIM_ROBUST_FIRST", 0);
    let count = env_usize("FAIRSIM_ROBUST_CASES", 40);
    let jobs = env_usize(
        "FAIRSIM_ROBUST_JOBS",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    let (failures, codes) = run_cases(0x0b05_7e57, first, count, jobs);
    // The first failures whole (with their files), the rest by their first line.
    let shown: Vec<String> = failures
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if i < 10 {
                f.clone()
            } else {
                f.lines().next().unwrap_or_default().to_string()
            }
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        shown.join("\n\n")
    );
    // Both outcomes must occur, or the generator or the mutations test nothing.
    if count >= 40 {
        assert!(
            codes[0] > 0 && codes[2] > 0,
            "{} cases ran, {} were refused: expected both",
            codes[0],
            codes[2]
        );
    }
}
