//! The bad-input catalogue, continued for configuration files read as Hadoop reads them
//! (`${...}` substitution, Java's number and boolean syntax, the Capacity Scheduler's
//! start-up checks), keys of the other scheduler, cluster forms in plans and `--out`'s
//! safety. Each case writes its own small files into a fresh directory, runs the `fairsim`
//! binary there and checks the exit code and what stderr must (and must not) hold; valid
//! inputs that were refused are cases too (exit 0). All mismatches are reported together.

mod common;

use std::path::Path;

/// A valid scenario; cases replace parts of it. `{ALLOC}` names the allocation file and
/// `{SCHED}` stands for extra `[scheduler]` lines.
const SCENARIO: &str = r#"name = "bad"
end_ms = 3600000
[cluster]
nodes = 4
racks = 1
node_memory_mb = 8192
node_vcores = 8
[scheduler]
heartbeat_ms = 1000
{SCHED}
[allocation]
file = "{ALLOC}"
[[workload.synthetic.queues]]
queue = "a"
apps = 2
mean_interarrival_ms = 1000
tasks = { dist = "constant", value = 2 }
duration_ms = { dist = "constant", value = 1000 }
container_mb = 1024
[outputs]
sample_interval_ms = 10000
"#;

fn scenario(alloc: &str, sched: &str) -> String {
    let sched = if sched.is_empty() {
        String::new()
    } else {
        format!("{sched}\n")
    };
    SCENARIO
        .replace("{ALLOC}", alloc)
        .replace("{SCHED}\n", &sched)
}

const FAIR_XML: &str = r#"<allocations>
  <queue name="a"><weight>1.0</weight></queue>
  <queue name="b"><weight>2.0</weight></queue>
</allocations>
"#;

/// A capacity-scheduler.xml of the given `<property>` name/value pairs (names without the
/// `yarn.scheduler.capacity.` prefix), one per line from line 2.
fn capacity_xml(props: &[(&str, &str)]) -> String {
    configuration(
        &props
            .iter()
            .map(|(n, v)| (format!("yarn.scheduler.capacity.{n}"), v.to_string()))
            .collect::<Vec<_>>(),
    )
}

/// A `<configuration>` of `<property>` pairs, one per line from line 2.
fn configuration(props: &[(String, String)]) -> String {
    let mut s = String::from("<configuration>\n");
    for (n, v) in props {
        s.push_str(&format!(
            "  <property><name>{n}</name><value>{v}</value></property>\n"
        ));
    }
    s.push_str("</configuration>\n");
    s
}

fn site(props: &[(&str, &str)]) -> String {
    configuration(
        &props
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect::<Vec<_>>(),
    )
}

const FAIR_CLASS: &str =
    "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler";

struct Case {
    what: &'static str,
    files: Vec<(&'static str, String)>,
    /// Commands run first, each of which must succeed (a sweep whose output a case breaks).
    setup: Vec<&'static [&'static str]>,
    /// What the case does to the directory after `setup`.
    after_setup: Option<fn(&Path)>,
    args: &'static [&'static str],
    code: i32,
    /// Substrings the output (stderr, then stdout) must hold.
    expect: Vec<String>,
    /// Substrings it must not hold.
    refuse: Vec<String>,
}

fn case(
    what: &'static str,
    files: Vec<(&'static str, String)>,
    args: &'static [&'static str],
    code: i32,
    expect: &[&str],
) -> Case {
    Case {
        what,
        files,
        setup: Vec::new(),
        after_setup: None,
        args,
        code,
        expect: expect.iter().map(|s| s.to_string()).collect(),
        refuse: Vec::new(),
    }
}

const RUN: &[&str] = &["run", "s.toml", "--out", "out"];
const VALIDATE: &[&str] = &["validate", "s.toml"];

/// A Fair Scheduler scenario reading `ys.xml`.
fn fair_site(props: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    let mut all = vec![("yarn.resourcemanager.scheduler.class", FAIR_CLASS)];
    all.extend_from_slice(props);
    vec![
        ("s.toml", scenario("fs.xml", "yarn_site = \"ys.xml\"")),
        ("fs.xml", FAIR_XML.into()),
        ("ys.xml", site(&all)),
    ]
}

/// A Capacity Scheduler scenario of `cs.xml`.
fn capacity(props: &[(&str, &str)]) -> Vec<(&'static str, String)> {
    vec![
        ("s.toml", scenario("cs.xml", "")),
        ("cs.xml", capacity_xml(props)),
    ]
}

fn substitution_cases() -> Vec<Case> {
    // c0 -> c1 -> ... : reading `${c0}` takes `n` substitutions.
    let chain = |n: usize| -> Vec<(String, String)> {
        let mut p: Vec<(String, String)> = (0..n - 1)
            .map(|i| (format!("c{i}"), format!("${{c{}}}", i + 1)))
            .collect();
        p.push((format!("c{}", n - 1), "250".into()));
        p
    };
    let with_chain = |n: usize| {
        let mut props = vec![
            (
                "yarn.resourcemanager.scheduler.class".to_string(),
                FAIR_CLASS.to_string(),
            ),
            (
                "yarn.scheduler.fair.update-interval-ms".to_string(),
                "${c0}".to_string(),
            ),
        ];
        props.extend(chain(n));
        vec![
            ("s.toml", scenario("fs.xml", "yarn_site = \"ys.xml\"")),
            ("fs.xml", FAIR_XML.into()),
            ("ys.xml", configuration(&props)),
        ]
    };
    // Unread properties each referring 20 times to one large property: Hadoop substitutes
    // only what it reads, so these cost nothing (fairsim expanded every one, gigabytes).
    let big = "9".repeat(190_000);
    let refs = "${big}".repeat(20);
    let mut unread: Vec<(String, String)> = vec![
        (
            "yarn.resourcemanager.scheduler.class".into(),
            FAIR_CLASS.into(),
        ),
        ("big".into(), big),
    ];
    unread.extend((0..1450).map(|i| (format!("unread.{i}"), refs.clone())));
    let unread = configuration(&unread);
    vec![
        case(
            "a ${} cycle in a property the scheduler reads",
            fair_site(&[
                ("yarn.scheduler.fair.update-interval-ms", "${x}"),
                ("x", "${y}"),
                ("y", "${x}"),
            ]),
            RUN,
            2,
            &[
                "ys.xml:3: yarn.scheduler.fair.update-interval-ms: ${...} substitution does not end within Hadoop's 20 passes (x -> y -> x",
                "Variable substitution depth too large",
            ],
        ),
        case(
            "a property naming itself, in hadoop-2.7",
            fair_site(&[(
                "yarn.scheduler.fair.max.assign",
                "1${yarn.scheduler.fair.max.assign}",
            )]),
            RUN,
            2,
            &["ys.xml:3: yarn.scheduler.fair.max.assign: ${...} substitution does not end"],
        ),
        case(
            "a chain of exactly 20 substitutions (Hadoop fails in its 20th pass)",
            with_chain(20),
            VALIDATE,
            2,
            &[
                "ys.xml:3: yarn.scheduler.fair.update-interval-ms: ${...} substitution does not end within Hadoop's 20 passes (c0 -> c1",
            ],
        ),
        case(
            "a chain of 19 substitutions is read",
            with_chain(19),
            VALIDATE,
            0,
            &["yarn.scheduler.fair.update-interval-ms = 250 -> scheduler.update_interval_ms"],
        ),
        case(
            "a cycle in a property no scheduler reads is not read",
            fair_site(&[("x", "${y}"), ("y", "${x}")]),
            VALIDATE,
            0,
            &[],
        ),
        case(
            "a cycle in a property only the other scheduler reads is not read",
            fair_site(&[(
                "yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval",
                "${yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval}",
            )]),
            VALIDATE,
            0,
            &[],
        ),
        case(
            "2,900 unread properties referring 20 times to a 190 KB property are not expanded",
            vec![
                (
                    "s.toml",
                    scenario("fs.xml", "yarn_site = [\"y1.xml\", \"y2.xml\"]"),
                ),
                ("fs.xml", FAIR_XML.into()),
                ("y1.xml", unread.clone()),
                ("y2.xml", unread),
            ],
            VALIDATE,
            0,
            &[],
        ),
        case(
            "${} in a capacity-scheduler.xml",
            capacity(&[
                ("root.queues", "a,b"),
                ("half", "50"),
                ("root.a.capacity", "${yarn.scheduler.capacity.half}"),
                ("root.b.capacity", "${yarn.scheduler.capacity.half}"),
            ]),
            VALIDATE,
            0,
            &[],
        ),
        case(
            "a ${} cycle in a capacity-scheduler.xml",
            capacity(&[
                ("root.queues", "a,b"),
                (
                    "root.a.capacity",
                    "${yarn.scheduler.capacity.root.b.capacity}",
                ),
                (
                    "root.b.capacity",
                    "${yarn.scheduler.capacity.root.a.capacity}",
                ),
            ]),
            RUN,
            2,
            &[
                "cs.xml:3: <property> yarn.scheduler.capacity.root.a.capacity: ${...} substitution does not end",
            ],
        ),
    ]
}

fn capacity_cases() -> Vec<Case> {
    vec![
        case(
            "a parent at 0% whose children sum to 100",
            capacity(&[
                ("root.queues", "p,b"),
                ("root.p.capacity", "0"),
                ("root.p.queues", "a"),
                ("root.p.a.capacity", "100"),
                ("root.b.capacity", "100"),
            ]),
            RUN,
            2,
            &[
                "cs.xml:4: <property> yarn.scheduler.capacity.root.p.queues: root.p: the queue's capacity is 0, so its children's must be 0 too; they sum to 100",
            ],
        ),
        case(
            "an empty list of root's queues",
            capacity(&[("root.queues", " , ")]),
            RUN,
            2,
            &[
                "cs.xml:2: <property> yarn.scheduler.capacity.root.queues: lists no queue",
                "Queue configuration missing child queue names for root",
            ],
        ),
        case(
            "children summing to 99.97 (within Hadoop's 0.05%)",
            capacity(&[
                ("root.queues", "a,b,c"),
                ("root.a.capacity", "33.33"),
                ("root.b.capacity", "33.33"),
                ("root.c.capacity", "33.31"),
            ]),
            VALIDATE,
            0,
            &[],
        ),
        case(
            "children summing to 99.9 (beyond Hadoop's 0.05%)",
            capacity(&[
                ("root.queues", "a,b"),
                ("root.a.capacity", "60"),
                ("root.b.capacity", "39.9"),
            ]),
            VALIDATE,
            2,
            &[
                "cs.xml:2: <property> yarn.scheduler.capacity.root.queues: root: the children's capacities sum to 99.9, not 100",
            ],
        ),
        case(
            "capacities written as Java floats (60f, 40.0d)",
            capacity(&[
                ("root.queues", "a,b"),
                ("root.a.capacity", " 60f "),
                ("root.b.capacity", "40.0d"),
                ("root.a.maximum-capacity", "0x1.9p6"),
            ]),
            VALIDATE,
            0,
            &[],
        ),
        case(
            "a capacity Java does not read as a float",
            capacity(&[
                ("root.queues", "a,b"),
                ("root.a.capacity", "60ff"),
                ("root.b.capacity", "40"),
            ]),
            VALIDATE,
            2,
            &[
                "cs.xml:3: <property> yarn.scheduler.capacity.root.a.capacity: \"60ff\" is not a number",
            ],
        ),
        case(
            "a NaN capacity (Hadoop's range check lets it through)",
            capacity(&[
                ("root.queues", "a,b"),
                ("root.a.capacity", "NaN"),
                ("root.b.capacity", "40"),
            ]),
            VALIDATE,
            2,
            &["cs.xml:3: <property> yarn.scheduler.capacity.root.a.capacity: NaN"],
        ),
        Case {
            refuse: vec!["error".into()],
            ..case(
                "queue-mappings-override.enable = yes (getBoolean keeps the default)",
                capacity(&[
                    ("root.queues", "a,b"),
                    ("root.a.capacity", "50"),
                    ("root.b.capacity", "50"),
                    ("queue-mappings", "u:alice:a"),
                    ("queue-mappings-override.enable", "yes"),
                ]),
                VALIDATE,
                0,
                &[
                    "cs.xml:6: <property>: yarn.scheduler.capacity.queue-mappings-override.enable: \"yes\" is neither true nor false: Hadoop's getBoolean keeps the default, false",
                ],
            )
        },
    ]
}

fn scheduler_key_cases() -> Vec<Case> {
    let cap = |line: &str| {
        vec![
            ("s.toml", scenario("cs.xml", line)),
            (
                "cs.xml",
                capacity_xml(&[
                    ("root.queues", "a,b"),
                    ("root.a.capacity", "50"),
                    ("root.b.capacity", "50"),
                ]),
            ),
        ]
    };
    let fair = |line: &str| {
        vec![
            ("s.toml", scenario("fs.xml", line)),
            ("fs.xml", FAIR_XML.into()),
        ]
    };
    vec![
        case(
            "continuous scheduling with a capacity-scheduler.xml",
            cap("continuous_scheduling = true"),
            RUN,
            2,
            &[
                "s.toml:10: scheduler.continuous_scheduling: a Fair Scheduler setting, but the allocation file cs.xml is a capacity-scheduler.xml",
            ],
        ),
        case(
            "assignmultiple with a capacity-scheduler.xml",
            cap("assignmultiple = true"),
            VALIDATE,
            2,
            &["s.toml:10: scheduler.assignmultiple: a Fair Scheduler setting"],
        ),
        case(
            "a booster with a capacity-scheduler.xml",
            cap("booster = { factor = 3.0, duration_ms = 300000, when = \"first\" }"),
            VALIDATE,
            2,
            &["s.toml:10: scheduler.booster: a Fair Scheduler setting"],
        ),
        case(
            "a locality threshold with a capacity-scheduler.xml",
            cap("locality_threshold_node = 0.5"),
            VALIDATE,
            2,
            &["s.toml:10: scheduler.locality_threshold_node: a Fair Scheduler setting"],
        ),
        case(
            "node-locality-delay with a fair-scheduler.xml",
            fair("node_locality_delay = 10"),
            VALIDATE,
            2,
            &[
                "s.toml:10: scheduler.node_locality_delay: a Capacity Scheduler setting, but the allocation file fs.xml is a fair-scheduler.xml",
            ],
        ),
        case(
            "keys both schedulers read",
            cap("preemption = true\nminimum_allocation_mb = 512"),
            VALIDATE,
            0,
            &[],
        ),
    ]
}

const SWEEP: &str = "name = \"sw\"\nbase = \"s.toml\"\nseeds = { count = 1, base = 1 }\n\
    [[axis]]\npath = \"cluster.nodes\"\nvalues = [4]\n";

fn output_cases() -> Vec<Case> {
    let fair = || {
        vec![
            ("s.toml", scenario("fs.xml", "")),
            ("fs.xml", FAIR_XML.to_string()),
            ("sw.toml", SWEEP.to_string()),
        ]
    };
    let synth = {
        let head = scenario("fs.xml", "");
        let head = head.split("[[workload").next().unwrap().to_string();
        vec![
            (
                "s.toml",
                format!("{head}[workload]\nsynth = \"syn.json\"\n"),
            ),
            ("fs.xml", FAIR_XML.to_string()),
            (
                "syn.json",
                "{ \"num_jobs\": 2, \"rand_seed\": 1 }\n".to_string(),
            ),
        ]
    };
    vec![
        case(
            "a SYNTH file without workloads",
            synth,
            RUN,
            2,
            &["syn.json:1: json: missing field `workloads`"],
        ),
        Case {
            setup: vec![&["sweep", "sw.toml", "--out", "sh", "--shard", "0/1"]],
            after_setup: Some(|d: &Path| {
                let p = d.join("sh/runs.shard-0-of-1.csv");
                let t = std::fs::read_to_string(&p).unwrap();
                let mut lines: Vec<String> = t.lines().map(str::to_string).collect();
                let header: Vec<&str> = lines[0].split(',').collect();
                let at = header.iter().position(|h| *h == "apps_rejected").unwrap();
                let mut cells: Vec<String> = lines[1].split(',').map(str::to_string).collect();
                cells[at] = "x".into();
                lines[1] = cells.join(",");
                std::fs::write(&p, lines.join("\n") + "\n").unwrap();
            }),
            ..case(
                "merge of a shard with a cell that is not a number",
                fair(),
                &["merge", "sh", "--out", "out"],
                2,
                &["sh/runs.shard-0-of-1.csv:2: apps_rejected: `x` is not a number"],
            )
        },
        Case {
            setup: vec![
                &["sweep", "sw2.toml", "--out", "sh", "--shard", "0/2"],
                &["sweep", "sw2.toml", "--out", "sh", "--shard", "1/2"],
            ],
            after_setup: Some(|d: &Path| {
                let p = d.join("sh/runs.shard-1-of-2.csv");
                let t = std::fs::read_to_string(&p).unwrap();
                std::fs::write(&p, t.replacen("apps_rejected", "apps_refused", 1)).unwrap();
            }),
            ..case(
                "merge of shards whose metrics differ",
                {
                    let mut f = fair();
                    f.push(("sw2.toml", SWEEP.replace("[4]", "[4, 5]")));
                    f
                },
                &["merge", "sh", "--out", "out"],
                2,
                &["sh/runs.shard-1-of-2.csv:1: metrics differ between shards"],
            )
        },
        Case {
            setup: vec![&["sweep", "sw.toml", "--out", "o"]],
            after_setup: Some(|d: &Path| {
                let p = d.join("o/sweep.json");
                let t = std::fs::read_to_string(&p).unwrap();
                std::fs::write(&p, &t[..t.len() / 2]).unwrap();
            }),
            ..case(
                "plot of a sweep directory with a truncated sweep.json",
                fair(),
                &["plot", "o"],
                2,
                &["o/sweep.json:", "not a sweep.json fairsim wrote"],
            )
        },
        Case {
            after_setup: Some(|d: &Path| {
                std::fs::create_dir_all(d.join("keep/apps.csv")).unwrap();
                std::fs::write(d.join("keep/apps.csv/mine.txt"), "mine").unwrap();
            }),
            ..case(
                "run --out into a directory holding a directory named apps.csv",
                fair(),
                &["run", "s.toml", "--out", "keep"],
                2,
                &[
                    "--out keep: keep/apps.csv is a directory fairsim did not write, where it writes a file: nothing was moved",
                ],
            )
        },
    ]
}

/// A plan over `kind` from `from` to `to` of the scenario `s.toml`.
fn plan(kind: &str, from: u32, to: u32) -> String {
    format!(
        "base = \"s.toml\"\nseeds = {{ count = 1, base = 1 }}\n[variable]\nkind = \"{kind}\"\n\
         from = {from}\nto = {to}\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 120\n"
    )
}

fn plan_cases() -> Vec<Case> {
    let cluster = |nodes: &str| {
        let text = scenario("fs.xml", "").replace(
            "nodes = 4\nracks = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n",
            nodes,
        );
        vec![("s.toml", text), ("fs.xml", FAIR_XML.to_string())]
    };
    let with = |nodes: &str, kind: &str, from: u32, to: u32| {
        let mut f = cluster(nodes);
        f.push(("pl.toml", plan(kind, from, to)));
        f
    };
    const PLAN: &[&str] = &["plan", "pl.toml", "--out", "out"];
    vec![
        case(
            "plan of a node count over a one-entry list of 16 GB nodes",
            with(
                "[[cluster.nodes]]\ncount = 4\nmemory_mb = 16384\nvcores = 8\n",
                "nodes",
                1,
                4,
            ),
            PLAN,
            0,
            &[],
        ),
        case(
            "plan of a node count over a list of two entries, copying a node it lacks",
            {
                let mut f = with(
                    "node_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\ncount = 2\n\
                     [[cluster.nodes]]\ncount = 2\nmemory_mb = 16384\n",
                    "nodes",
                    1,
                    8,
                );
                let plan = &mut f.last_mut().expect("the plan").1;
                *plan = plan.replace("to = 8\n", "to = 8\ntemplate = \"h9\"\n");
                f
            },
            PLAN,
            2,
            &[
                "pl.toml:7: key `variable.template`: `template = \"h9\"` names no node of the base scenario's cluster",
            ],
        ),
        case(
            "plan of a node size over entries that give their own",
            with(
                "node_memory_mb = 8192\nnode_vcores = 8\n[[cluster.nodes]]\ncount = 2\n\
                 memory_mb = 16384\n",
                "node_memory_mb",
                4096,
                32768,
            ),
            PLAN,
            2,
            &[
                "pl.toml:4: key `variable.kind`: [[cluster.nodes]] entry 0 of the base scenario sets its own `memory_mb` (s.toml:8)",
            ],
        ),
        case(
            "plan of a node count over a nodes file",
            {
                let mut f = with("nodes_file = \"nodes.json\"\n", "nodes", 1, 8);
                f.push((
                    "nodes.json",
                    "{\"rack\": \"r1\", \"nodes\": [{\"node\": \"h1\"}, {\"node\": \"h2\"}]}\n"
                        .into(),
                ));
                f
            },
            PLAN,
            2,
            &[
                "pl.toml:4: key `variable.kind`: the base scenario's nodes come from `nodes_file` (s.toml:4)",
            ],
        ),
        case(
            "plan of a node size over a hadoop-3.3 nodes file giving a node its own",
            {
                let mut f = with(
                    "nodes_file = \"nodes.json\"\nnode_memory_mb = 8192\n",
                    "node_memory_mb",
                    4096,
                    16384,
                );
                f[0].1 = f[0].1.replace(
                    "heartbeat_ms = 1000",
                    "heartbeat_ms = 1000\nsemantics = \"hadoop-3.3\"",
                );
                f.push((
                    "nodes.json",
                    "{\"rack\": \"r1\", \"nodes\": [{\"node\": \"h1\"}, \
                     {\"node\": \"h2\", \"memory-mb\": 4096}]}\n"
                        .into(),
                ));
                f
            },
            PLAN,
            2,
            &[
                "pl.toml:6: key `variable.to`: the base scenario with node_memory_mb = 16384 is invalid: ",
                "a node still has 4096 MB of memory",
            ],
        ),
    ]
}

/// Runs one case; `None` when it behaved, else what went wrong.
fn check(c: &Case) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in &c.files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, text).unwrap();
    }
    for args in &c.setup {
        let out = common::fixture::command()
            .args(*args)
            .current_dir(dir.path())
            .env("CI", "true")
            .output()
            .unwrap();
        if !out.status.success() {
            return Some(format!(
                "setup {args:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    if let Some(f) = c.after_setup {
        f(dir.path());
    }
    let out = common::fixture::command()
        .args(c.args)
        .current_dir(dir.path())
        .env("CI", "true")
        .output()
        .unwrap();
    // What a valid input prints (`validate`) goes to stdout; messages to stderr.
    let err = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let mut wrong = Vec::new();
    if out.status.code() != Some(c.code) {
        wrong.push(format!("exit {:?}, expected {}", out.status.code(), c.code));
    }
    for e in &c.expect {
        if !err.contains(e.as_str()) {
            wrong.push(format!("no `{e}`"));
        }
    }
    for e in &c.refuse {
        if err.contains(e.as_str()) {
            wrong.push(format!("`{e}` said"));
        }
    }
    if c.code != 0 && exists(dir.path(), "out") {
        wrong.push("left `out` behind".into());
    }
    // What the user had in --out stays.
    if exists(dir.path(), "keep")
        && std::fs::read_to_string(dir.path().join("keep/apps.csv/mine.txt")).ok()
            != Some("mine".into())
    {
        wrong.push("a file of --out was removed".into());
    }
    let short: String = err.trim().chars().take(2000).collect();
    (!wrong.is_empty()).then(|| format!("{}\n    stderr: {short}", wrong.join("; ")))
}

fn exists(dir: &Path, name: &str) -> bool {
    dir.join(name).exists()
}

#[test]
fn configuration_inputs_are_read_as_hadoop_reads_them() {
    let cases: Vec<Case> = substitution_cases()
        .into_iter()
        .chain(capacity_cases())
        .chain(scheduler_key_cases())
        .chain(output_cases())
        .chain(plan_cases())
        .collect();
    common::catalogue::assert_every_case(&cases, |c| c.what, check);
}
