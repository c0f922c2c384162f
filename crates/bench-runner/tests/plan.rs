//! `fairsim plan` on scenarios whose answer is known by construction (node count, min share, growth), a
//! non-monotone objective, determinism across thread counts, resumption, and bad plan files.

mod common;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use common::fixture::fairsim_in as fairsim;
use fairsim_bench_runner::plan::spec::PlanSpec;
use fairsim_bench_runner::plan::{PlanResult, output, plan_into};
use fairsim_bench_runner::sim_runner::SimRunner;
use fairsim_bench_runner::{RunError, RunOne};

/// Two leaves: A with a tiny weight (it gets nothing beyond its min share while B wants more), B with weight 1.
const ALLOC: &str = r#"<?xml version="1.0"?>
<allocations>
  <queue name="A"><weight>0.001</weight></queue>
  <queue name="B"><weight>1.0</weight></queue>
</allocations>
"#;

/// 37 one-container apps (1024 MB, no AM) that run for 10,000 s each, arriving over about three minutes: a
/// node of 8192 MB holds 8 of them, so ceil(37 / 8) = 5 nodes run every app at once and 4 nodes leave 5 apps
/// queued for 10,000 s. At twice the arrivals (74 apps), ceil(74 / 8) = 10 nodes.
const NODES_SCENARIO: &str = r#"
[cluster]
nodes = 2
node_memory_mb = 8192
node_vcores = 8

[allocation]
file = "fs.xml"

[[workload.synthetic.queues]]
queue = "B"
apps = 37
mean_interarrival_ms = 5000
tasks = { dist = "constant", value = 1 }
duration_ms = { dist = "constant", value = 10000000 }
am = false
"#;

const NODES_PLAN: &str = r#"
base = "scenario.toml"
seeds = [1, 2]
growth = [1.0, 2.0]

[variable]
kind = "nodes"
from = 1
to = 24

[[objective]]
metric = "wait_s_p99"
at_most = 60
"#;

/// At time 0, A submits ten one-container apps and B one app of 64 containers, on 32 slots of 1024 MB, all for
/// 600 s. A is served first while it is below its min share (usage < min(minShare, demand)) and never after
/// (its weight is tiny), so A runs k apps where k is the smallest count with k * 1024 >= minShare. All ten run
/// at once exactly when 9 * 1024 < minShare, so the smallest min share is 9217 MB.
const MIN_SHARE_SCENARIO: &str = r#"
[cluster]
nodes = 4
node_memory_mb = 8192
node_vcores = 8

[allocation]
file = "fs.xml"

[[workload.synthetic.queues]]
queue = "A"
apps = 10
mean_interarrival_ms = 0
tasks = { dist = "constant", value = 1 }
duration_ms = { dist = "constant", value = 600000 }
am = false

[[workload.synthetic.queues]]
queue = "B"
apps = 1
mean_interarrival_ms = 0
tasks = { dist = "constant", value = 64 }
duration_ms = { dist = "constant", value = 600000 }
am = false
"#;

const MIN_SHARE_PLAN: &str = r#"
base = "scenario.toml"
seeds = [1, 2]

[variable]
kind = "min_share"
queue = "A"
from = 0
to = 32768

[[objective]]
metric = "wait_s_p99"
queue = "A"
at_most = 60
"#;

/// Writes the allocation file, a scenario and a plan into a fresh directory.
fn fixture(scenario: &str, plan: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("fs.xml"), ALLOC).unwrap();
    std::fs::write(dir.path().join("scenario.toml"), scenario).unwrap();
    let file = dir.path().join("plan.toml");
    std::fs::write(&file, plan).unwrap();
    (dir, file)
}

fn answer_cell(spec: &PlanSpec, r: &PlanResult, g: usize) -> Option<String> {
    r.steps[g]
        .outcome
        .answer
        .map(|a| spec.variable.grid.cell(a))
}

fn evaluated(r: &PlanResult, spec: &PlanSpec, g: usize) -> Vec<(String, bool)> {
    r.candidates
        .iter()
        .filter(|c| c.growth_idx == g)
        .map(|c| (spec.variable.grid.cell(c.index), c.feasible))
        .collect()
}

#[test]
fn node_count_is_the_nodes_the_workload_needs_at_each_growth_step() {
    let (dir, file) = fixture(NODES_SCENARIO, NODES_PLAN);
    let spec = PlanSpec::load(&file).unwrap();
    let r = plan_into(&spec, &SimRunner, &dir.path().join("out"), Some(2), false).unwrap();
    assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("5"));
    assert_eq!(answer_cell(&spec, &r, 1).as_deref(), Some("10"));
    for (g, below, at, above) in [(0, "4", "5", "6"), (1, "9", "10", "11")] {
        let seen = evaluated(&r, &spec, g);
        for (v, ok) in [(below, false), (at, true), (above, true)] {
            assert!(
                seen.contains(&(v.to_string(), ok)),
                "growth step {g}: {v} nodes should be evaluated and {}: {seen:?}",
                if ok { "feasible" } else { "infeasible" }
            );
        }
        assert!(r.steps[g].outcome.monotone);
    }
    // Bisection: far fewer runs than the 2 growth steps x 24 values x 2 seeds of a full sweep.
    assert_eq!(r.full_sweep_runs, 96);
    assert!(r.runs <= 2 * 8 * 2, "{} runs", r.runs);
    let sentences = output::sentences(&spec, &r);
    assert!(
        sentences[0].starts_with(
            "at 1x arrivals: smallest cluster meeting all objectives: 5 nodes (binding: wait_s_p99 = "
        ),
        "{}",
        sentences[0]
    );
    assert!(
        sentences[1].contains("at 2x arrivals: smallest cluster meeting all objectives: 10 nodes")
    );
}

#[test]
fn min_share_is_one_mb_above_nine_containers() {
    let (dir, file) = fixture(MIN_SHARE_SCENARIO, MIN_SHARE_PLAN);
    let spec = PlanSpec::load(&file).unwrap();
    let out = dir.path().join("out");
    let r = plan_into(&spec, &SimRunner, &out, Some(2), false).unwrap();
    assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("9217"));
    let seen = evaluated(&r, &spec, 0);
    assert!(seen.contains(&("9216".into(), false)), "{seen:?}");
    assert!(seen.contains(&("9218".into(), true)), "{seen:?}");
    // 32,769 values, found in 2 ends + 15 halvings + 1 neighbour.
    assert!(r.candidates.len() <= 18, "{}", r.candidates.len());
    output::write_all(&spec, &r, &out).unwrap();
    let answer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("answer.json")).unwrap()).unwrap();
    let a = &answer["answers"][0];
    assert_eq!(a["status"], "feasible");
    assert_eq!(a["value"], 9217);
    assert_eq!(a["binding"]["metric"], "wait_s_p99");
    assert_eq!(a["binding"]["queue"], "root.A");
    assert!(a["binding"]["margin"].as_f64().unwrap() > 0.0);
    let csv = std::fs::read_to_string(out.join("plan.csv")).unwrap();
    assert!(csv.starts_with(
        "growth,min_memory_mb.root.A,stalled_runs,unfinished_runs,wait_s_p99.root.A_seed1,wait_s_p99.root.A_seed2,wait_s_p99.root.A_mean,wait_s_p99.root.A_bound,wait_s_p99.root.A_held,wait_s_p99.root.A_why,feasible\n"
    ));
    assert!(csv.contains("\n1,9217,0,0,"), "{csv}");
    for ext in ["png", "svg"] {
        let chart = out.join(format!("objective-wait_s_p99_root_A.{ext}"));
        assert!(
            std::fs::metadata(&chart).unwrap().len() > 1000,
            "{}",
            chart.display()
        );
    }
}

/// Memory utilisation of the 37 long one-container apps of `NODES_SCENARIO` on n nodes of 8 slots: they run in
/// ceil(37 / 8n) waves of 10,000 s, so utilisation is about 37 / (8n * waves): 0.925 on 1 node, 0.77 on 2 and 3,
/// 0.58 on 4, 0.925 on 5, then 37 / 8n. "At least 0.9" holds on 1 and 5 nodes only.
#[test]
fn an_objective_that_falls_back_to_infeasible_is_reported_as_not_monotone() {
    let plan = r#"
base = "scenario.toml"
seeds = [1, 2]
search = "full"

[variable]
kind = "nodes"
from = 1
to = 8

[[objective]]
metric = "util_memory"
at_least = 0.9
"#;
    let (dir, file) = fixture(NODES_SCENARIO, plan);
    let spec = PlanSpec::load(&file).unwrap();
    let r = plan_into(&spec, &SimRunner, &dir.path().join("full"), Some(2), false).unwrap();
    let o = &r.steps[0].outcome;
    assert!(!o.monotone);
    assert_eq!(o.feasible_intervals, vec![(0, 0), (4, 4)]);
    let s = output::sentences(&spec, &r);
    assert!(
        s[0].starts_with(
            "smallest cluster meeting all objectives: 1 node (binding: util_memory = "
        ),
        "{}",
        s[0]
    );
    assert!(
        s[0].ends_with(
            "; not monotone in nodes over the evaluated points: feasible on [1, 1], [5, 5]"
        ),
        "{}",
        s[0]
    );
    // Bisection sees a feasible bottom under an infeasible top and says so too.
    std::fs::write(
        &file,
        plan.replace("search = \"full\"", "search = \"bisect\""),
    )
    .unwrap();
    let spec = PlanSpec::load(&file).unwrap();
    let r = plan_into(
        &spec,
        &SimRunner,
        &dir.path().join("bisect"),
        Some(2),
        false,
    )
    .unwrap();
    assert!(!r.steps[0].outcome.monotone);
    assert_eq!(r.steps[0].outcome.feasible_intervals, vec![(0, 0)]);
}

/// A stand-in for the simulator: `wait_s_p95` is a function of the node count (and slightly of the seed).
struct Curve {
    f: fn(i64) -> f64,
    calls: AtomicU64,
}

impl RunOne for Curve {
    fn run_one(
        &self,
        scenario: &toml::Value,
        _dir: &Path,
        seed: u64,
        _run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let nodes = scenario["cluster"]["nodes"].as_integer().unwrap();
        Ok(vec![
            ("apps".into(), 1.0),
            ("wait_s_p95".into(), (self.f)(nodes) + seed as f64 * 0.01),
        ])
    }
}

const CURVE_SCENARIO: &str = "[cluster]\nnodes = 1\nnode_memory_mb = 8192\nnode_vcores = 8\n\n[allocation]\nfile = \"fs.xml\"\n\n[workload]\nsynthetic = { queues = [{ queue = \"A\", apps = 1, mean_interarrival_ms = 1, tasks = { dist = \"constant\", value = 1 }, duration_ms = { dist = \"constant\", value = 1 } }] }\n";

fn curve_plan(search: &str) -> String {
    format!(
        "base = \"scenario.toml\"\nseeds = [1, 2, 3]\nsearch = \"{search}\"\n\n[variable]\nkind = \"nodes\"\nfrom = 1\nto = 100\n\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 10\n"
    )
}

#[test]
fn a_full_search_reports_every_feasible_interval() {
    let (dir, file) = fixture(CURVE_SCENARIO, &curve_plan("full"));
    let spec = PlanSpec::load(&file).unwrap();
    // Feasible on 20..=29 and from 60 on.
    let runner = Curve {
        f: |n| {
            if (20..30).contains(&n) || n >= 60 {
                5.0
            } else {
                50.0
            }
        },
        calls: AtomicU64::new(0),
    };
    let r = plan_into(&spec, &runner, &dir.path().join("out"), Some(2), false).unwrap();
    let o = &r.steps[0].outcome;
    assert!(!o.monotone);
    let cells: Vec<(String, String)> = o
        .feasible_intervals
        .iter()
        .map(|&(a, b)| (spec.variable.grid.cell(a), spec.variable.grid.cell(b)))
        .collect();
    assert_eq!(
        cells,
        vec![("20".into(), "29".into()), ("60".into(), "100".into())]
    );
    assert_eq!(runner.calls.load(Ordering::Relaxed), 300);
}

#[test]
fn files_are_identical_for_any_jobs_and_after_resume() {
    let (dir, file) = fixture(CURVE_SCENARIO, &curve_plan("bisect"));
    let spec = PlanSpec::load(&file).unwrap();
    let curve = || Curve {
        f: |n| 500.0 / n as f64,
        calls: AtomicU64::new(0),
    };
    let write = |name: &str, jobs: usize, resume: bool, runner: &Curve| {
        let out = dir.path().join(name);
        let r = plan_into(&spec, runner, &out, Some(jobs), resume).unwrap();
        output::write_all(&spec, &r, &out).unwrap();
        assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("51"));
        (
            std::fs::read(out.join("plan.csv")).unwrap(),
            std::fs::read(out.join("answer.json")).unwrap(),
        )
    };
    let one = write("one", 1, false, &curve());
    let two = write("two", 2, false, &curve());
    assert!(
        one == two,
        "plan.csv or answer.json differ between 1 and 2 jobs"
    );

    // An interrupted plan leaves its journal; keep its first 9 lines (header and 8 runs) and resume.
    let resumed = dir.path().join("resumed");
    std::fs::create_dir_all(&resumed).unwrap();
    let partial = dir.path().join("partial");
    let runner = Failing {
        after: 8,
        inner: curve(),
        done: AtomicU64::new(0),
    };
    assert!(plan_into(&spec, &runner, &partial, Some(1), false).is_err());
    let journal = std::fs::read_to_string(partial.join("journal.jsonl")).unwrap();
    assert_eq!(journal.lines().count(), 9);
    std::fs::copy(partial.join("journal.jsonl"), resumed.join("journal.jsonl")).unwrap();
    let again = curve();
    let three = write("resumed", 2, true, &again);
    assert!(one == three, "a resumed plan wrote different files");
    let total = spec.seeds.len() as u64 * one.0.iter().filter(|&&b| b == b'\n').count() as u64
        - spec.seeds.len() as u64;
    assert_eq!(again.calls.load(Ordering::Relaxed), total - 8);
}

/// Fails every run after the first `after`.
struct Failing {
    after: u64,
    inner: Curve,
    done: AtomicU64,
}

impl RunOne for Failing {
    fn run_one(
        &self,
        scenario: &toml::Value,
        dir: &Path,
        seed: u64,
        run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        if self.done.fetch_add(1, Ordering::SeqCst) >= self.after {
            return Err(RunError::new("interrupted"));
        }
        self.inner.run_one(scenario, dir, seed, run_index)
    }
}

#[test]
fn the_command_prints_the_answer_and_says_infeasible_in_range() {
    let (dir, _) = fixture(MIN_SHARE_SCENARIO, MIN_SHARE_PLAN);
    let out = fairsim(
        dir.path(),
        &["plan", "plan.toml", "--out", "o", "--jobs", "2"],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("smallest min share of root.A meeting all objectives: 9217 MB (binding: wait_s_p99 of root.A = "),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(" s <= 60 s at 95% over 2 seeds)\n"),
        "{stdout}"
    );

    let small = MIN_SHARE_PLAN.replace("to = 32768", "to = 8192");
    std::fs::write(dir.path().join("small.toml"), small).unwrap();
    let out = fairsim(dir.path(), &["plan", "small.toml", "--out", "s"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("infeasible in range: no min share of root.A from 0 MB to 8192 MB meets all objectives; best seen: 8192 MB"),
        "{stdout}"
    );
    let answer = std::fs::read_to_string(dir.path().join("s/answer.json")).unwrap();
    assert!(
        answer.contains("\"status\": \"infeasible in range\""),
        "{answer}"
    );
}

/// Runs `fairsim plan` on a plan file and returns its stderr, asserting exit code 2 and an empty stdout.
fn bad_plan(scenario: &str, plan: &str) -> String {
    let (dir, _) = fixture(scenario, plan);
    let out = fairsim(dir.path(), &["plan", "plan.toml", "--out", "o"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    stderr
}

#[test]
fn bad_plan_files_exit_2_naming_file_line_and_key() {
    for (plan, line, key, what) in [
        (
            MIN_SHARE_PLAN.replace("kind = \"min_share\"", "kind = \"cores\""),
            6,
            "variable.kind",
            "unknown variable kind `cores`",
        ),
        (
            MIN_SHARE_PLAN.replace("queue = \"A\"\nfrom", "queue = \"nope\"\nfrom"),
            7,
            "variable.queue",
            "no queue `root.nope`",
        ),
        (
            MIN_SHARE_PLAN.replace("at_most = 60", "at_most = 60\nat_least = 1"),
            12,
            "objective",
            "exactly one of",
        ),
        (
            MIN_SHARE_PLAN.replace("seeds = [1, 2]", "seeds = [1, 2]\nconfidence = 1.5"),
            4,
            "confidence",
            "above 0.5 and below 1",
        ),
        (
            MIN_SHARE_PLAN.replace("from = 0", "from = -5"),
            8,
            "variable.from",
            "at least 0",
        ),
        (
            MIN_SHARE_PLAN.replace("seeds = [1, 2]", "seeds = [1, 2]\ngrowth = [1.0, 0]"),
            4,
            "growth",
            "positive and at most 100",
        ),
        (
            MIN_SHARE_PLAN.replace(
                "seeds = [1, 2]",
                "seeds = { count = 400 }\nsearch = \"full\"",
            ),
            4,
            "search",
            "a full search needs 13107600 runs (32769 values x 400 seeds x 1 growth steps), above the limit of 10000000",
        ),
        (
            MIN_SHARE_PLAN.replace("queue = \"A\"\nat_most", "queue = \"root\"\nat_most"),
            13,
            "objective.queue",
            "`root` is a parent queue",
        ),
        (
            MIN_SHARE_PLAN.replace("metric = \"wait_s_p99\"", "metric = \"wiat_s_p99\""),
            12,
            "objective.metric",
            "`wiat_s_p99` is not a per-queue metric of the catalogue",
        ),
    ] {
        let stderr = bad_plan(MIN_SHARE_SCENARIO, &plan);
        let want = format!("plan.toml:{line}: key `{key}`: ");
        assert!(stderr.contains(&want), "want {want}: {stderr}");
        assert!(stderr.contains(what), "want {what}: {stderr}");
    }
    // A trace workload has no rate to grow.
    let trace = NODES_SCENARIO
        .split("[[workload")
        .next()
        .unwrap()
        .to_string()
        + "[workload]\ncsv = \"t.csv\"\n";
    let (dir, _) = fixture(&trace, NODES_PLAN);
    std::fs::write(
        dir.path().join("t.csv"),
        "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\na1,0,B,u,1024,1,0,1,1024,1,1000,20,\n",
    )
    .unwrap();
    let out = fairsim(dir.path(), &["plan", "plan.toml", "--out", "o"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("plan.toml:4: key `growth`: "), "{stderr}");
    assert!(stderr.contains("synthetic workload"), "{stderr}");
}

/// One queue on two nodes of 16 vcores; one app at 0 ms with a 1024 MB AM and ten 4096 MB / 1 vcore tasks of
/// 100 s (hadoop-2.7). Below 4096 MB a node holds no task and the run stalls at 1.5 s with the app unfinished;
/// from 12288 MB the two nodes hold the AM and ten tasks in two waves of five tasks or fewer (202.5 s).
const NODE_SIZE_SCENARIO: &str = r#"
[cluster]
nodes = 2
node_memory_mb = 8192
node_vcores = 16

[scheduler]
semantics = "hadoop-2.7"

[allocation]
file = "fs.xml"

[[workload.synthetic.queues]]
queue = "A"
apps = 1
mean_interarrival_ms = 0
tasks = { dist = "constant", value = 10 }
duration_ms = { dist = "constant", value = 100000 }
container_mb = 4096
"#;

fn node_size_plan(metric: &str, search: &str) -> String {
    format!(
        "base = \"scenario.toml\"\nsearch = \"{search}\"\n\n[variable]\nkind = \"node_memory_mb\"\nfrom = 1024\nto = 16384\nstep = 1024\n\n[[objective]]\nmetric = \"{metric}\"\nat_most = 250\n"
    )
}

/// A stalled run's 1.5 s p95 completion time is a lower bound and its makespan counts no app: neither may answer
/// "1024 MB". The answer is 12288 MB whatever the metric and the search.
#[test]
fn a_plan_never_rests_on_a_stalled_run_or_a_lower_bound() {
    for metric in ["jct_s_p95", "makespan_s"] {
        for search in ["bisect", "full"] {
            let (dir, file) = fixture(NODE_SIZE_SCENARIO, &node_size_plan(metric, search));
            std::fs::write(
                dir.path().join("fs.xml"),
                "<allocations><queue name=\"A\"/></allocations>\n",
            )
            .unwrap();
            let spec = PlanSpec::load(&file).unwrap();
            let r = plan_into(&spec, &SimRunner, &dir.path().join("out"), Some(2), false).unwrap();
            assert_eq!(
                answer_cell(&spec, &r, 0).as_deref(),
                Some("12288"),
                "{metric}, {search}"
            );
            assert!(r.steps[0].outcome.monotone, "{metric}, {search}");
            let s = output::sentences(&spec, &r);
            assert_eq!(
                s[0],
                format!(
                    "smallest node memory meeting all objectives: 12288 MB (binding: {metric} = 202.5 s <= 250 s on 1 seed)"
                )
            );
            let bottom = r.candidate(0, 0).unwrap();
            assert!(!bottom.feasible);
            assert_eq!(bottom.stalled_seeds, vec![1]);
            let csv = output::plan_csv(&spec, &r);
            let row = csv.lines().find(|l| l.starts_with("1,1024,")).unwrap();
            let value = if metric == "makespan_s" { "0" } else { "1.5" };
            assert_eq!(
                row,
                format!("1,1024,1,1,{value},{value},{value},false,1 of 1 run stalled,false")
            );
        }
    }
    // The command says where runs stalled.
    let (dir, _) = fixture(NODE_SIZE_SCENARIO, &node_size_plan("jct_s_p95", "full"));
    std::fs::write(
        dir.path().join("fs.xml"),
        "<allocations><queue name=\"A\"/></allocations>\n",
    )
    .unwrap();
    let out = fairsim(dir.path(), &["plan", "plan.toml", "--out", "o"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(
            "3 runs stalled (apps unfinished, nothing left to change): node_memory_mb=1024 (seed 1); node_memory_mb=2048 (seed 1); node_memory_mb=3072 (seed 1); a stalled run fails its candidate"
        ),
        "{stderr}"
    );
    // And why the first of them stalled.
    assert!(
        stderr.contains(
            "why the first stalled run (node_memory_mb=1024, seed 1) stalled:\n  - 1 app of root.A \
             waiting for task containers: no node has room for their 4 GB and 1 vcores asks (the \
             most free on a node is 1 GB and 16 vcores): the one container running in the \
             cluster's 2 GB and 32 vcores is an AM (1 GB and 1 vcores) waiting for task containers"
        ),
        "{stderr}"
    );
    let answer = std::fs::read_to_string(dir.path().join("o/answer.json")).unwrap();
    assert!(
        answer.contains(
            "\"stalled_runs\": [\n        {\n          \"value\": 1024,\n          \"seed\": 1\n"
        ),
        "{answer}"
    );
}

/// A stand-in runner whose metrics are a function of the scenario and the seed.
struct Metrics(fn(&toml::Value, u64) -> Vec<(String, f64)>);

impl RunOne for Metrics {
    fn run_one(
        &self,
        scenario: &toml::Value,
        _dir: &Path,
        seed: u64,
        _run_index: u64,
    ) -> Result<Vec<(String, f64)>, RunError> {
        Ok((self.0)(scenario, seed))
    }
}

fn nodes_of(s: &toml::Value) -> i64 {
    s["cluster"]["nodes"].as_integer().unwrap()
}

fn plan_with(plan: &str, runner: &dyn RunOne) -> (PlanSpec, PlanResult, tempfile::TempDir) {
    let (dir, file) = fixture(CURVE_SCENARIO, plan);
    let spec = PlanSpec::load(&file).unwrap();
    let r = plan_into(&spec, runner, &dir.path().join("out"), Some(2), false).unwrap();
    (spec, r, dir)
}

const NODES_1_TO_100: &str = "base = \"scenario.toml\"\nseeds = [1, 2, 3]\n\n[variable]\nkind = \"nodes\"\nfrom = 1\nto = 100\n";

/// `apps_unfinished = 0` holds everywhere with margin 0; the wait objective is what rules out 50 nodes, so it is
/// the binding one (the `equal` objective was named for its zero margin).
#[test]
fn the_binding_objective_is_one_that_ruled_out_the_value_below() {
    let plan = format!(
        "{NODES_1_TO_100}\n[[objective]]\nmetric = \"apps_unfinished\"\nequal = 0\n\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 10\n"
    );
    let runner = Metrics(|s, seed| {
        vec![
            ("apps_unfinished".into(), 0.0),
            (
                "wait_s_p95".into(),
                500.0 / nodes_of(s) as f64 + seed as f64 * 0.01,
            ),
        ]
    });
    let (spec, r, _dir) = plan_with(&plan, &runner);
    assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("51"));
    let s = output::sentences(&spec, &r);
    assert!(
        s[0].starts_with(
            "smallest cluster meeting all objectives: 51 nodes (binding: wait_s_p95 = "
        ),
        "{}",
        s[0]
    );
    let answer = output::answer_json(&spec, &r);
    assert_eq!(answer["answers"][0]["binding"]["metric"], "wait_s_p95");

    // When the value below fails through its runs alone (they stall), the binding is said to be them.
    let plan = format!("{NODES_1_TO_100}\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 10\n");
    let runner = Metrics(|s, _| {
        let stalled = nodes_of(s) < 5;
        vec![
            ("stalled".into(), if stalled { 1.0 } else { 0.0 }),
            ("apps_unfinished".into(), if stalled { 1.0 } else { 0.0 }),
            ("wait_s_p95".into(), 1.0),
        ]
    });
    let (spec, r, _dir) = plan_with(&plan, &runner);
    assert_eq!(
        output::sentences(&spec, &r)[0],
        "smallest cluster meeting all objectives: 5 nodes (binding: at 4 nodes, 3 of 3 runs stalled)"
    );
}

/// Three seeds of exactly 0.925 s meet `at_most = 0.925` as one seed does: their mean and bound are 0.925.
#[test]
fn identical_seeds_meet_a_bound_equal_to_their_value() {
    let plan =
        format!("{NODES_1_TO_100}\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 0.925\n");
    let runner = Metrics(|_, _| vec![("wait_s_p95".into(), 0.925)]);
    let (spec, r, _dir) = plan_with(&plan, &runner);
    assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("1"));
    let csv = output::plan_csv(&spec, &r);
    assert!(
        csv.contains("\n1,1,0,0,0.925,0.925,0.925,0.925,0.925,true,,true\n"),
        "{csv}"
    );
}

/// A weight searched from 0.05 by 0.05 answers 0.85, not 0.8500000000000001, in the sentence, CSV and JSON.
#[test]
fn weight_answers_are_the_decimals_of_the_resolution() {
    let plan = "base = \"scenario.toml\"\nsearch = \"full\"\n\n[variable]\nkind = \"weight\"\nqueue = \"A\"\nfrom = 0.05\nto = 1\nresolution = 0.05\n\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 10\n";
    let runner = Metrics(|s, _| {
        let w = s["queues"]["root.A"]["weight"].as_float().unwrap();
        vec![("wait_s_p95".into(), if w >= 0.85 { 1.0 } else { 100.0 })]
    });
    let (spec, r, _dir) = plan_with(plan, &runner);
    assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("0.85"));
    assert!(
        output::sentences(&spec, &r)[0]
            .starts_with("smallest weight of root.A meeting all objectives: 0.85 (binding: "),
        "{}",
        output::sentences(&spec, &r)[0]
    );
    assert_eq!(output::answer_json(&spec, &r)["answers"][0]["value"], 0.85);
    let csv = output::plan_csv(&spec, &r);
    for v in ["0.3", "0.7", "0.85", "0.95"] {
        assert!(csv.contains(&format!("\n1,{v},")), "{v}: {csv}");
    }
}

/// Runs cut short with apps unfinished (no stall): by default they fail their candidate; with `unfinished_apps
/// = "allow"` a censored p95 still cannot meet an `at_most`, as it is only a lower bound.
#[test]
fn unfinished_runs_fail_by_default_and_lower_bounds_fail_when_allowed() {
    let runner = Metrics(|s, _| {
        let cut = nodes_of(s) < 10;
        vec![
            ("stalled".into(), 0.0),
            ("apps_unfinished".into(), if cut { 2.0 } else { 0.0 }),
            ("wait_s_p95".into(), 5.0),
            ("wait_s_p95_censored".into(), if cut { 1.0 } else { 0.0 }),
        ]
    });
    for (extra, why) in [
        ("", "3 of 3 runs left apps unfinished"),
        (
            "unfinished_apps = \"allow\"\n",
            "a lower bound on 3 of 3 seeds",
        ),
    ] {
        let plan = format!(
            "{extra}{NODES_1_TO_100}\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 10\n"
        );
        let (spec, r, _dir) = plan_with(&plan, &runner);
        assert_eq!(answer_cell(&spec, &r, 0).as_deref(), Some("10"), "{extra}");
        let below = r.candidate(0, 8).unwrap();
        assert_eq!(below.verdicts[0].why.unwrap().text(3), why);
        let csv = output::plan_csv(&spec, &r);
        assert!(csv.contains(&format!(",false,{why},false\n")), "{csv}");
    }
    // A bad value of the key names it.
    let stderr = bad_plan(
        CURVE_SCENARIO,
        &format!(
            "unfinished_apps = \"ignore\"\n{NODES_1_TO_100}\n[[objective]]\nmetric = \"wait_s_p95\"\nat_most = 10\n"
        ),
    );
    assert!(
        stderr.contains(
            "plan.toml:1: key `unfinished_apps`: unknown value `ignore`, expected `fail` or `allow`"
        ),
        "{stderr}"
    );
}

/// The Fair Scheduler bundle of docs/import.md imported: two nodes of 4096 MB (h1 in rack1, h2
/// in rack2) and one open app in root.a holding its AM and two 1024 MB containers (one on h1,
/// two on h2: both nodes must stay), asking seven more. With `exp:600000` and seed 1 the held
/// containers run 578,203 ms and the asked ones 732,616 ms (open-apps.csv). On 2 nodes 5 of
/// the 7 fit the 5120 MB left, and 2 wait for the held ones: the app ends no earlier than
/// 578.203 + 732.616 = 1310.819 s. One added 4096 MB node holds all seven from the start: the
/// app ends 732.616 s in (plus heartbeats), under 800 s.
#[test]
fn an_imported_cluster_grows_by_copies_of_its_nodes_and_keeps_those_the_start_state_holds() {
    let bundle = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/import/fair-bundle");
    let dir = tempfile::tempdir().unwrap();
    let file = |f: &str| bundle.join(f).display().to_string();
    let out = fairsim(
        dir.path(),
        &[
            "import",
            "rm",
            "--scheduler",
            &file("scheduler.json"),
            "--nodes",
            &file("nodes.json"),
            "--apps",
            &file("apps.json"),
            "--alloc",
            &file("fair-scheduler.xml"),
            "--remaining",
            "exp:600000",
            "--seed",
            "1",
            "--out",
            "cluster",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan = "base = \"scenario.toml\"\nsearch = \"full\"\n[variable]\nkind = \"nodes\"\n\
                from = 2\nto = 4\n[[objective]]\nmetric = \"makespan_s\"\nat_most = 800\n";
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join("cluster").join(name), text).unwrap()
    };
    write("plan.toml", plan);
    let out = fairsim(dir.path(), &["plan", "cluster/plan.toml", "--out", "p"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(
            "smallest cluster meeting all objectives: 3 nodes (1 added like h1 (4096 MB, 4 vcores, \
             rack rack1)) (binding: makespan_s = "
        ),
        "{stdout}"
    );
    let csv = std::fs::read_to_string(dir.path().join("p/plan.csv")).unwrap();
    let makespan: Vec<f64> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(4).unwrap().parse().unwrap())
        .collect();
    assert_eq!(makespan.len(), 3, "{csv}");
    assert!((1310.819..1320.0).contains(&makespan[0]), "{csv}");
    assert!((732.616..800.0).contains(&makespan[1]), "{csv}");
    let answer = std::fs::read_to_string(dir.path().join("p/answer.json")).unwrap();
    assert!(answer.contains("\"node\": \"h1\""), "{answer}");

    // A named template: the added node is h2's size in h2's rack.
    write(
        "plan.toml",
        &plan.replace("to = 4\n", "to = 4\ntemplate = \"h2\"\n"),
    );
    let out = fairsim(dir.path(), &["plan", "cluster/plan.toml", "--out", "p2"]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(": 3 nodes (1 added like h2 (4096 MB, 4 vcores, rack rack2))"),
        "{stdout}"
    );

    // Both nodes hold containers at the start: one node is refused before anything runs.
    write("plan.toml", &plan.replace("from = 2", "from = 1"));
    let out = fairsim(dir.path(), &["plan", "cluster/plan.toml", "--out", "p3"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "cluster/plan.toml:5: key `variable.from`: the base cluster cannot shrink to 1 node: a \
             `nodes` variable removes the list's last nodes, but never one the start state holds \
             containers on or an event names, so it keeps at least 2 (h1: the start state holds \
             containers on it (cluster/start.csv:2); h2: the start state holds containers on it \
             (cluster/start.csv:4)); start the range at 2 or above"
        ),
        "{stderr}"
    );
    assert!(!dir.path().join("p3").exists());
}

/// A start state on `nodes = N`'s node2 (names node0..node{N-1}: fewer than 3 nodes drop it),
/// and a list whose last node an event loses (the list's other nodes go first, down to it).
#[test]
fn a_node_count_never_drops_a_node_the_start_state_or_an_event_names() {
    let trace = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,\
                 duration_ms,priority,hosts\nx,0,root.B,u,1024,1,0,1,1024,1,100000,20,\n";
    let scenario = "[cluster]\nnodes = 3\nnode_memory_mb = 4096\nnode_vcores = 4\n\
                    [allocation]\nfile = \"fs.xml\"\n\
                    [workload]\ncsv = \"trace.csv\"\nstart = \"start.csv\"\n";
    let plan = "base = \"scenario.toml\"\n[variable]\nkind = \"nodes\"\nfrom = 2\nto = 4\n\
                [[objective]]\nmetric = \"wait_s_p95\"\nat_most = 30\n";
    let (dir, _) = fixture(scenario, plan);
    std::fs::write(dir.path().join("trace.csv"), trace).unwrap();
    std::fs::write(
        dir.path().join("start.csv"),
        "app,node,priority,containers\nx,node2,0,1\n",
    )
    .unwrap();
    let out = fairsim(dir.path(), &["plan", "plan.toml", "--out", "o"]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "plan.toml:4: key `variable.from`: the base cluster cannot shrink to 2 nodes: \
             `nodes = N` names its nodes node0..node{N-1}, and node2 must stay, so it keeps at \
             least 3 (node2: the start state holds containers on it ("
        ),
        "{stderr}"
    );
    // From 3 the plan runs: the start state's node is there at every count.
    std::fs::write(
        dir.path().join("plan.toml"),
        plan.replace("from = 2", "from = 3"),
    )
    .unwrap();
    let out = fairsim(dir.path(), &["plan", "plan.toml", "--out", "o"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let list = "[cluster]\nnode_memory_mb = 4096\nnode_vcores = 4\n\
                [[cluster.nodes]]\nname = \"h1\"\n[[cluster.nodes]]\nname = \"h2\"\n\
                [[cluster.nodes]]\nname = \"h3\"\n\
                [[cluster.events]]\nat_ms = 60000\nkind = \"lose\"\nnode = \"h3\"\n\
                [allocation]\nfile = \"fs.xml\"\n\
                [[workload.synthetic.queues]]\nqueue = \"B\"\napps = 2\nmean_interarrival_ms = 1000\n\
                tasks = { dist = \"constant\", value = 1 }\n\
                duration_ms = { dist = \"constant\", value = 1000 }\n";
    let e = bad_plan(
        list,
        &plan
            .replace("from = 2", "from = 0")
            .replace("to = 4", "to = 3"),
    );
    assert!(e.contains("`from` must be at least 1"), "{e}");
    // Down to one node: h2 and then h1 go, h3 stays.
    let (dir, _) = fixture(list, &plan.replace("from = 2", "from = 1"));
    let spec = PlanSpec::load(&dir.path().join("plan.toml")).unwrap();
    let names = |i: u64| -> Vec<String> {
        let s = spec.variable.apply(&spec.base, i);
        s["cluster"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e.get("name")
                    .and_then(toml::Value::as_str)
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    };
    assert_eq!(names(0), ["h3"]);
    assert_eq!(names(1), ["h1", "h3"]);
    assert_eq!(names(2), ["h1", "h2", "h3"]);
    assert_eq!(names(3), ["h1", "h2", "h3", ""]);
}
