//! What each fuzz target does with its input, shared by the cargo-fuzz targets (nightly, in
//! `fuzz/fuzz_targets/`) and by the replay test of the main workspace
//! (`crates/bench-runner/tests/fuzz_replay.rs`, stable), which feeds every corpus file and
//! every past crash through [`TARGETS`]. A target may refuse its input with an error; it must
//! never panic, abort or hang, and what it accepts must hold the promised invariants.

use fairsim_core::Semantics;
use fairsim_sim::alloc::Missing;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[allow(
    dead_code,
    reason = "only the snapshot parser is fuzzed; the rest of the module serves the binary"
)]
#[path = "../../crates/bench-runner/src/snapshot.rs"]
mod snapshot;

/// A fuzz target: the name of its corpus directory and what it does with one input.
pub type Target = (&'static str, fn(&[u8]));

/// Every target by name (the name of its corpus directory), for the replay test.
pub const TARGETS: &[Target] = &[
    ("scenario_toml", scenario_toml),
    ("sweep_toml", sweep_toml),
    ("fair_xml", fair_xml),
    ("capacity_xml", capacity_xml),
    ("csv_trace", csv_trace),
    ("sls_json", sls_json),
    ("rumen_json", rumen_json),
    ("synth_json", synth_json),
    ("snapshot_json", snapshot_json),
    ("resource_string", resource_string),
    ("simulate", simulate),
    ("yarn_site_xml", yarn_site_xml),
    ("sls_nodes_json", sls_nodes_json),
    ("rm_json", rm_json),
];

const FAIR_XML: &str = "<allocations><queue name=\"a\"><weight>1</weight></queue>\
     <queue name=\"b\"><weight>2</weight><minResources>1024 mb, 1 vcores</minResources></queue>\
     </allocations>";
const CAPACITY_XML: &str = "<configuration>\
     <property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>\
     <property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>\
     <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>\
     </configuration>";
const CSV: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n\
     j1,0,a,u,1024,1,0,2,1024,1,5000,20,\n";
const SLS: &str =
    "{\"job.start.ms\": 0, \"job.queue.name\": \"a\", \"job.tasks\": [{\"count\": 2}]}\n";

/// The directory of [`inputs_dir`], once made.
static DIR: OnceLock<PathBuf> = OnceLock::new();

/// A directory holding the files a fuzzed scenario or sweep may name (`fs.xml`, `cs.xml`,
/// `t.csv`, `j.json`), made once per process.
fn inputs_dir() -> &'static Path {
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fairsim-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        for (name, text) in [
            ("fs.xml", FAIR_XML),
            ("cs.xml", CAPACITY_XML),
            ("t.csv", CSV),
            ("j.json", SLS),
        ] {
            std::fs::write(dir.join(name), text).expect("a fuzz input file");
        }
        dir
    })
}

/// Removes this process's inputs directory, if it was made: a replay calls it when done (a
/// fuzzing process keeps it while it runs), so that runs leave nothing in the temporary
/// directory.
pub fn remove_inputs_dir() {
    if let Some(dir) = DIR.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The first byte picks the era, the rest is the input.
fn era_and_rest(data: &[u8]) -> (Semantics, &[u8]) {
    match data.split_first() {
        Some((b, rest)) if b % 2 == 1 => (Semantics::Hadoop33, rest),
        Some((_, rest)) => (Semantics::Hadoop27, rest),
        None => (Semantics::Hadoop27, data),
    }
}

/// A scenario file (its allocation file and traces are fixed, valid files).
pub fn scenario_toml(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let _ = fairsim_sim::scenario::parse_scenario(t, &inputs_dir().join("s.toml"));
}

/// A sweep file whose base scenario is a fixed valid scenario.
pub fn sweep_toml(data: &[u8]) {
    let dir = inputs_dir();
    let base = dir.join("base.toml");
    if !base.exists() {
        let scenario = "[cluster]\nnodes = 2\nnode_memory_mb = 8192\nnode_vcores = 8\n\
             [allocation]\nfile = \"fs.xml\"\n[workload]\ncsv = \"t.csv\"\n";
        std::fs::write(&base, scenario).expect("the base scenario");
    }
    let file = dir.join(format!("sweep-{:?}.toml", std::thread::current().id()));
    if std::fs::write(&file, data).is_ok() {
        let _ = fairsim_bench_runner::sweep::spec::Spec::load(&file);
    }
}

/// A fair-scheduler.xml in either era.
pub fn fair_xml(data: &[u8]) {
    let (era, rest) = era_and_rest(data);
    let Some(t) = text(rest) else { return };
    if let Ok(loaded) = fairsim_sim::alloc::parse_fair_scheduler_xml(t, "f.xml", era) {
        assert!(!loaded.tree.is_empty(), "an accepted file has a root");
    }
}

/// A capacity-scheduler.xml.
pub fn capacity_xml(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let _ = fairsim_sim::alloc::parse_capacity_scheduler_xml(t, "c.xml");
}

/// A native CSV trace: what is accepted is sorted by arrival and within the limits.
pub fn csv_trace(data: &[u8]) {
    let Some(t) = text(data) else { return };
    if let Ok(apps) = fairsim_sim::workload::csv::parse_csv_trace(t, Path::new("t.csv")) {
        assert!(apps.windows(2).all(|w| w[0].arrival <= w[1].arrival));
        assert!(
            apps.iter()
                .all(|a| a.arrival.0 <= fairsim_sim::limits::MAX_TIME_MS)
        );
    }
}

/// An SLS JSON job trace.
pub fn sls_json(data: &[u8]) {
    if large_count(data) {
        return;
    }
    let defaults = fairsim_sim::workload::SlsDefaults::default();
    let read =
        fairsim_sim::workload::sls::parse_sls(Path::new("j.json"), Cursor::new(data), defaults);
    if let Ok(read) = read {
        assert!(read.apps.windows(2).all(|w| w[0].arrival <= w[1].arrival));
    }
}

/// Whether a `count` key (`job.count`, a task's `count`) has a value of 10,000 or more.
/// Replicas are clones of one job or task: such a count makes one execution take up to a
/// second without reaching new code, and the fuzzer, rewarded for the new allocation sizes,
/// would spend most of its time on them. The limits on counts are pinned by the bad-input
/// catalogue instead.
fn large_count(data: &[u8]) -> bool {
    let key = b"count\"";
    data.windows(key.len()).enumerate().any(|(i, w)| {
        if w != key {
            return false;
        }
        let rest = &data[i + key.len()..];
        let start = rest
            .iter()
            .position(|b| !b.is_ascii_whitespace() && *b != b':')
            .unwrap_or(rest.len());
        let number: String = rest[start..]
            .iter()
            .take_while(|b| b.is_ascii_digit() || b"+-.eE".contains(b))
            .map(|&b| char::from(b))
            .collect();
        number.parse::<f64>().is_ok_and(|n| n >= 10_000.0)
    })
}

/// A Rumen job history.
pub fn rumen_json(data: &[u8]) {
    let (era, rest) = era_and_rest(data);
    let opts = fairsim_sim::workload::rumen::RumenOptions {
        defaults: fairsim_sim::workload::SlsDefaults::default(),
        semantics: era,
    };
    let _ = fairsim_sim::workload::rumen::parse_rumen(Path::new("r.json"), Cursor::new(rest), opts);
}

/// An SLS SYNTH file; what is accepted draws a run's jobs when it is small.
pub fn synth_json(data: &[u8]) {
    use fairsim_sim::workload::synth::{TaskTimeUnit, parse_synth};
    let defaults = fairsim_sim::workload::SlsDefaults::default();
    if let Ok(spec) = parse_synth(Path::new("s.json"), data, defaults, TaskTimeUnit::Ms)
        && spec.jobs() <= 100
        && spec.expected_tasks() <= 100_000.0
    {
        // A draw far in a tail may pass a run's limits: refused, never truncated.
        if let Ok(apps) = spec.generate(&mut fairsim_sim::workload::synthetic::run_rng(1, 0)) {
            assert_eq!(apps.len() as u64, spec.jobs());
        }
    }
}

/// A yarn-site.xml or sls-runner.xml (first byte picks the era), read as both schedulers read
/// it (each scheduler's reading substitutes `${...}` in what it reads, as Hadoop's getters do).
/// Written to a file first, as the files of a scenario are read.
pub fn yarn_site_xml(data: &[u8]) {
    use fairsim_sim::tree::SchedulerKind;
    use fairsim_sim::yarn_site::{SiteProps, knobs};
    let (era, rest) = era_and_rest(data);
    let file = inputs_dir().join(format!("yarn-site-{:?}.xml", std::thread::current().id()));
    if std::fs::write(&file, rest).is_err() {
        return;
    }
    let files = [file];
    if let Ok(props) = SiteProps::read(&files) {
        for kind in [SchedulerKind::Fair, SchedulerKind::Capacity] {
            let _ = knobs::settings(&props, &files, era, kind);
        }
    }
}

/// An SLS nodes file (first byte picks the era): what is accepted names each node once.
pub fn sls_nodes_json(data: &[u8]) {
    let (era, rest) = era_and_rest(data);
    let default = fairsim_core::Resource::new(10240, 10);
    let read = fairsim_sim::topology::sls_nodes::parse_sls_nodes(
        Path::new("n.json"),
        Cursor::new(rest),
        default,
        era,
    );
    if let Ok(read) = read {
        assert!(fairsim_sim::topology::duplicate_name(&read.nodes).is_none());
    }
}

/// A ResourceManager REST response read as each of `fairsim import rm`'s and `check rm`'s
/// readers reads one: every fault they find names a line of the text.
pub fn rm_json(data: &[u8]) {
    use fairsim_sim::import::{rm_bundle, rm_capacity, rm_scheduler};
    let Some(t) = text(data) else { return };
    let Ok(v) = rm_scheduler::parse_json(t, "r.json") else {
        return;
    };
    let lines = 1 + data.iter().filter(|b| **b == b'\n').count() as u64;
    let located = |f: fairsim_sim::json_lines::JsonFault| {
        let line = fairsim_sim::json_lines::value_line(data, 1, &f.path);
        assert!((1..=lines).contains(&line), "{} at line {line}", f.message);
    };
    let node = rm_bundle::NodeEntry {
        name: "h1".into(),
        rack: "r1".into(),
        memory_mb: 8192,
        vcores: 8,
        used_memory_mb: 4096,
        used_vcores: 4,
    };
    // Running apps' containers are placed one at a time: up to the trace's 100 million an
    // app, valid and slow, and so left to the bad-input catalogue's limits.
    let few_containers = v
        .pointer("/apps/app")
        .and_then(|a| a.as_array())
        .is_none_or(|apps| {
            apps.iter().all(|a| {
                a.get("runningContainers")
                    .and_then(|n| n.as_i64())
                    .is_none_or(|n| n < 10_000)
            })
        });
    let faults = [
        rm_scheduler::scheduler_type(&v).err(),
        rm_scheduler::read_fair(&v).err(),
        rm_capacity::read_capacity(&v).err(),
        rm_bundle::read_nodes(&v).err(),
        few_containers
            .then(|| {
                rm_bundle::open_apps(&v, rm_bundle::Remaining::Fixed(1), &[node], &|_| true).err()
            })
            .flatten(),
    ];
    faults.into_iter().flatten().for_each(located);
}

/// A snapshot of `fairsim shares` and `fairsim rank`.
pub fn snapshot_json(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let _ = snapshot::parse_snapshot(t, "snap.json", 1);
}

/// A resource string of either era (`1024 mb, 2 vcores`, `memory-mb=1024`, `50%`).
pub fn resource_string(data: &[u8]) {
    let (era, rest) = era_and_rest(data);
    let Some(t) = text(rest) else { return };
    for missing in [Missing::Zero, Missing::Unbounded] {
        let _ = fairsim_sim::alloc::parse_resource(t, era, missing);
    }
}

/// A scenario parsed and, when small, simulated to at most ten simulated minutes with the
/// engine's invariants checked after every event.
pub fn simulate(data: &[u8]) {
    let Some(t) = text(data) else { return };
    let Ok(mut sc) = fairsim_sim::scenario::parse_scenario(t, &inputs_dir().join("s.toml")) else {
        return;
    };
    let small = match &sc.workload {
        fairsim_sim::scenario::Workload::Synthetic(s) => {
            s.queues.iter().map(|q| u64::from(q.apps)).sum::<u64>() <= 50
        }
        fairsim_sim::scenario::Workload::Trace(apps) => apps.len() <= 50,
        _ => false,
    };
    if !small || sc.cluster.nodes > 20 {
        return;
    }
    sc.end_ms = Some(sc.end_ms.unwrap_or(u64::MAX).min(600_000));
    sc.check_invariants = true;
    let result = fairsim_sim::run(&sc, 1, 0, &mut fairsim_sim::NullRecorder);
    if let Err(e @ fairsim_sim::SimError::Invariant { .. }) = result {
        panic!("{e}");
    }
}
