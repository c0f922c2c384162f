//! Hadoop's SLS inputs end to end: small files written in the formats of hadoop-sls's
//! samples (a Rumen job history, SLS JSON traces with comments and a cluster header) are
//! loaded from a scenario and run; counts, sizes, queues, users, arrivals and hosts are
//! checked against values counted by hand from the files.

use fairsim_core::Resource;
use fairsim_sim::app::AppSpec;
use fairsim_sim::recorder::{DecisionKind, MemoryRecorder};
use fairsim_sim::scenario::{Scenario, Workload, load_scenario};
use fairsim_sim::{SimTime, run};
use std::path::Path;

fn load(name: &str) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/traces")
        .join(name);
    load_scenario(&p).unwrap_or_else(|e| panic!("{e}"))
}

fn apps(sc: &Scenario) -> &[AppSpec] {
    match &sc.workload {
        Workload::Trace(a) => a,
        other => panic!("not a trace: {other:?}"),
    }
}

/// (app, size) of every allocation.
fn allocations(sc: &Scenario) -> Vec<(u32, Resource)> {
    let mut rec = MemoryRecorder::default();
    let summary = run(sc, 1, 0, &mut rec).unwrap();
    assert_eq!(summary.stalled_at, None);
    rec.decisions
        .iter()
        .filter(|d| matches!(d.kind, DecisionKind::Allocated(_)))
        .map(|d| (d.app, d.size))
        .collect()
}

#[test]
fn rumen_history_runs_with_its_last_attempts_hosts_and_sls_sizes() {
    let sc = load("rumen.toml");
    let a = apps(&sc);
    assert_eq!(a.len(), 2);
    // Job 1 is the first submitted: time 0; job 2 came 15 s later.
    assert_eq!(
        a.iter()
            .map(|x| (
                x.name.as_str(),
                x.arrival,
                x.queue.as_str(),
                x.user.as_str()
            ))
            .collect::<Vec<_>>(),
        vec![
            ("job_1500000000000_0001", SimTime(0), "sls_queue_1", "alice"),
            (
                "job_1500000000000_0002",
                SimTime(15_000),
                "sls_queue_2",
                "bob"
            ),
        ]
    );
    // 3 maps and 1 reduce; the first map's last attempt ran 17 s on n2.
    let maps: Vec<(u64, &str)> = a[0].stages[0]
        .iter()
        .map(|g| (g.duration_ms, g.hosts[0].as_str()))
        .collect();
    assert_eq!(
        maps,
        vec![
            (17_000, "/default-rack/n2.example.com"),
            (12_000, "/default-rack/n3.example.com"),
            (8_000, "/default-rack/n1.example.com"),
        ]
    );
    assert_eq!(a[0].stages[1][0].duration_ms, 30_000);
    assert_eq!(
        a[0].stages[1][0].hosts,
        vec!["/default-rack/n4.example.com"]
    );
    assert_eq!((a[0].n_tasks(), a[1].n_tasks()), (4, 2));
    let rec: Vec<(u64, u64)> = a
        .iter()
        .map(|x| {
            let r = x.recorded.unwrap();
            (r.start_ms, r.finish_ms)
        })
        .collect();
    assert_eq!(rec, vec![(0, 60_000), (15_000, 45_000)]);
    // Every container (2 AMs + 6 tasks) is SLS's default 1024 MB / 1 vcore.
    let allocs = allocations(&sc);
    assert_eq!(allocs.len(), 8);
    assert!(allocs.iter().all(|(_, s)| *s == Resource::new(1024, 1)));
    assert_eq!(allocs.iter().filter(|(app, _)| *app == 0).count(), 5);
}

#[test]
fn sls_traces_from_two_files_merge_sorted_with_replicas_and_sizes() {
    let sc = load("sls.toml");
    let a = apps(&sc);
    // job_b ×2 at 0, job_c at 2 s (second file), job_a at 5 s; the header is skipped.
    assert_eq!(
        a.iter()
            .map(|x| (
                x.name.as_str(),
                x.arrival.0,
                x.queue.as_str(),
                x.user.as_str()
            ))
            .collect::<Vec<_>>(),
        vec![
            ("job_b_0", 0, "sls_queue_2", "default"),
            ("job_b_1", 0, "sls_queue_2", "default"),
            ("job_c", 2000, "default", "dave"),
            ("job_a", 5000, "sls_queue_1", "carol"),
        ]
    );
    let job_a = &a[3];
    assert_eq!(job_a.stages[0][0].count, 2);
    assert_eq!(job_a.stages[0][0].size, Resource::new(2048, 2));
    assert_eq!(job_a.stages[0][0].duration_ms, 10_000);
    assert_eq!(
        job_a.stages[0][0].hosts,
        vec!["/default-rack/n1.example.com"]
    );
    assert_eq!(job_a.stages[1][0].size, Resource::new(1024, 1));
    assert_eq!(job_a.recorded.map(|r| r.runtime_ms()), Some(60_000));
    assert_eq!(a[0].am, Some(Resource::new(512, 1)));
    assert_eq!(a[2].recorded, None);
    // One warning for the unmodelled execution type.
    assert_eq!(
        sc.warnings
            .iter()
            .filter(|w| w
                .contains("container.execution.type other than GUARANTEED (run as guaranteed) (1)"))
            .count(),
        1,
        "{:?}",
        sc.warnings
    );
    // 4 AMs + job_a 3 tasks + job_b 3 tasks ×2 + job_c 1 task.
    let allocs = allocations(&sc);
    assert_eq!(allocs.len(), 4 + 3 + 6 + 1);
    let mb: i64 = allocs.iter().map(|(_, s)| s.memory_mb).sum();
    // The two 512 MB AMs are normalised up to YARN's 1024 MB minimum allocation.
    assert_eq!(mb, 2 * 1024 + 2 * 1024 + 2 * 2048 + 1024 + 6 * 1024 + 4096);
}

#[test]
fn a_rumen_file_given_as_sls_is_refused_naming_the_key_that_reads_it() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/traces/not-sls.toml");
    let e = load_scenario(&p).unwrap_err().to_string();
    assert!(
        e.contains("rumen-2jobs.json:1: json: not an SLS job trace"),
        "{e}"
    );
    assert!(e.contains("`rumen = ...`"), "{e}");
}

#[test]
fn synth_draws_workloads_classes_and_sizes_from_the_runs_seed() {
    let sc = load("synth.toml");
    let a = sc.workload.apps(5).unwrap();
    assert_eq!(a.len(), 6);
    assert_eq!(a, sc.workload.apps(5).unwrap(), "same seed, same jobs");
    assert_ne!(a, sc.workload.apps(6).unwrap(), "another seed, other jobs");
    // Arrivals: whole seconds in the bucket [10 s, 20 s), shifted so the first is 0.
    assert_eq!(a[0].arrival, SimTime(0));
    assert!(
        a.iter()
            .all(|x| x.arrival.0 % 1000 == 0 && x.arrival.0 <= 9000)
    );
    assert!(a.windows(2).all(|w| w[0].arrival <= w[1].arrival));
    let mut containers = 0;
    for (i, x) in a.iter().enumerate() {
        assert_eq!(x.am, Some(Resource::new(1024, 1)));
        containers += 1 + x.n_tasks();
        match x.user.as_str() {
            "alice" => {
                assert_eq!(
                    (x.queue.as_str(), x.name.clone()),
                    ("sls_queue_1", format!("sort_{i:06}"))
                );
                let m = &x.stages[0][0];
                assert_eq!(
                    (m.count, m.size, m.duration_ms, m.priority),
                    (3, Resource::new(2048, 2), 4000, 20)
                );
                // Memory and vcores are raised to SLS's minimum of 1024 MB and 1 vcore.
                let r = &x.stages[1][0];
                assert_eq!(
                    (r.count, r.size, r.duration_ms, r.priority),
                    (1, Resource::new(1024, 1), 6000, 10)
                );
            }
            "bob" => {
                assert_eq!(
                    (x.queue.as_str(), x.name.clone()),
                    ("sls_queue_2", format!("grep_{i:06}"))
                );
                assert_eq!(x.stages.len(), 1);
                assert_eq!(
                    (x.stages[0][0].count, x.stages[0][0].duration_ms),
                    (2, 1000)
                );
            }
            other => panic!("user {other}"),
        }
    }
    let allocs = allocations(&sc);
    let a5 = sc.workload.apps(1).unwrap();
    assert_eq!(
        allocs.len() as u64,
        a5.iter().map(|x| 1 + x.n_tasks()).sum::<u64>()
    );
    assert!(containers > 6);
    assert!(
        sc.warnings
            .iter()
            .any(|w| w.contains("rand_seed (jobs are drawn from the run's seed)"))
    );
}

#[test]
fn synth_flat_fields_are_lognormal_maps_and_reduces_with_sls_priorities() {
    let sc = load("synth-flat.toml");
    let a = sc.workload.apps(1).unwrap();
    assert_eq!(a.len(), 20);
    let maps: u64 = a
        .iter()
        .map(|x| x.stages[0].iter().map(|g| g.count as u64).sum::<u64>())
        .sum();
    // 20 jobs of log-normal(mean 5, sd 1) maps: about 100.
    assert!((80..=120).contains(&maps), "{maps}");
    for x in &a {
        assert_eq!(
            (x.queue.as_str(), x.user.as_str()),
            ("sls_queue_1", "foobar")
        );
        for g in &x.stages[0] {
            assert_eq!((g.size, g.priority), (Resource::new(1024, 1), 20));
            assert_eq!(g.duration_ms % 1000, 0, "task times read as seconds");
        }
        for g in x.stages.get(1).into_iter().flatten() {
            assert_eq!((g.size, g.priority), (Resource::new(2048, 2), 10));
        }
    }
    assert!(allocations(&sc).len() > 100);
}

#[test]
fn apps_csv_and_summary_set_recorded_times_beside_simulated_ones() {
    let sc = load("rumen.toml");
    let d = tempfile::tempdir().unwrap();
    let summary = fairsim_sim::run_to_dir(&sc, 1, 0, d.path()).unwrap();
    let text = std::fs::read_to_string(d.path().join("apps.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    let headers = rows.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut ratios = Vec::new();
    let mut recorded = Vec::new();
    for r in rows.records() {
        let r = r.unwrap();
        let get = |c: &str| r[col(c)].parse::<f64>().unwrap();
        recorded.push((
            get("recorded_start_ms"),
            get("recorded_finish_ms"),
            get("recorded_runtime_ms"),
        ));
        ratios.push(get("jct_ms") / get("recorded_runtime_ms"));
    }
    assert_eq!(
        recorded,
        vec![(0.0, 60_000.0, 60_000.0), (15_000.0, 45_000.0, 30_000.0)]
    );
    ratios.sort_by(f64::total_cmp);
    let metric = |k: &str| summary.metrics.iter().find(|(n, _)| n == k).unwrap().1;
    // Nearest rank over two apps: p50 is the smaller ratio, p95 the larger.
    assert_eq!(metric("runtime_ratio_p50"), ratios[0]);
    assert_eq!(metric("runtime_ratio_p95"), ratios[1]);
    assert!(ratios[0] > 0.0);
}

#[test]
fn a_gzipped_rumen_history_reads_as_the_plain_one() {
    use std::io::Write as _;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/traces");
    let d = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&std::fs::read(src.join("rumen-2jobs.json")).unwrap())
        .unwrap();
    std::fs::write(d.path().join("h.json.gz"), gz.finish().unwrap()).unwrap();
    std::fs::copy(src.join("queues.xml"), d.path().join("queues.xml")).unwrap();
    let toml = std::fs::read_to_string(src.join("rumen.toml"))
        .unwrap()
        .replace("rumen-2jobs.json", "h.json.gz");
    std::fs::write(d.path().join("s.toml"), toml).unwrap();
    let zipped = load_scenario(d.path().join("s.toml")).unwrap();
    assert_eq!(apps(&zipped), apps(&load("rumen.toml")));
}
