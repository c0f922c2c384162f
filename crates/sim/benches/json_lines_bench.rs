//! Finding a value's line in a ResourceManager response of a large cluster's size: a
//! generated `/ws/v1/cluster/apps` response of 400,000 apps as Hadoop 3.x writes it
//! (pretty-printed, each app with two pending requests: 365 MB), written to a temporary
//! file, then a fault in its last app located by reading the file back, as `fairsim import rm`
//! does when a check fails: the worst case, every byte scanned.
//!
//! Prints the scan's CPU time and rate and the process's peak memory before and after (the
//! scan streams, so the peak should not move by more than its read buffer); asserts the line
//! found is the one the generator wrote the value on, so the benchmark is also a correctness
//! test. `FAIRSIM_BENCH_SCALE` (a fraction, default 1) shrinks the response.
//!
//! `cargo bench -p fairsim-sim --bench json_lines_bench`

use fairsim_sim::json_lines::value_line;
use std::io::{BufReader, BufWriter, Write};

const APPS: u64 = 400_000;

/// CPU time of this process so far, s (the machine may be shared).
fn cpu_s() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// Peak resident memory of the process so far (VmHWM), in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Writes the response; answers its size in bytes and the line of the last app's second
/// request's `numContainers`.
fn generate(out: &mut impl Write, apps: u64) -> std::io::Result<(u64, u64)> {
    let mut bytes = 0u64;
    let mut line = 1u64;
    let mut target = 0;
    let mut put = |out: &mut dyn Write, text: &str, line: &mut u64| -> std::io::Result<()> {
        bytes += text.len() as u64;
        *line += text.matches('\n').count() as u64;
        out.write_all(text.as_bytes())
    };
    put(out, "{\n  \"apps\": {\n    \"app\": [\n", &mut line)?;
    for i in 0..apps {
        let head = format!(
            "      {{\n        \"id\": \"application_1700000000000_{i:06}\",\n        \"user\": \"u{}\",\n        \"name\": \"job {{with}} \\\"braces\\\" [{i}]\",\n        \"queue\": \"root.q{}\",\n        \"state\": \"RUNNING\",\n        \"runningContainers\": 3,\n        \"allocatedMB\": 3072,\n        \"allocatedVCores\": 3,\n        \"elapsedTime\": 120000,\n        \"amHostHttpAddress\": \"h{}:8042\",\n        \"resourceRequests\": [\n",
            i % 97,
            i % 13,
            i % 1000
        );
        put(out, &head, &mut line)?;
        for k in 0..2 {
            put(
                out,
                &format!(
                    "          {{\n            \"capability\": {{\n              \"memory\": 1024,\n              \"vCores\": 1\n            }},\n            \"priority\": {{\n              \"priority\": {}\n            }},\n            \"resourceName\": \"*\",\n",
                    k + 1
                ),
                &mut line,
            )?;
            if i == apps - 1 && k == 1 {
                target = line;
            }
            let close = if k == 0 {
                "          },\n"
            } else {
                "          }\n"
            };
            put(
                out,
                &format!("            \"numContainers\": {}\n{close}", 7 + k),
                &mut line,
            )?;
        }
        let close = if i + 1 < apps {
            "        ]\n      },\n"
        } else {
            "        ]\n      }\n"
        };
        put(out, close, &mut line)?;
    }
    put(out, "    ]\n  }\n}\n", &mut line)?;
    Ok((bytes, target))
}

fn main() {
    let scale: f64 = std::env::var("FAIRSIM_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let apps = ((APPS as f64 * scale) as u64).max(1);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("apps.json");
    let mut w = BufWriter::new(std::fs::File::create(&path).expect("create"));
    let (bytes, want) = generate(&mut w, apps).expect("write");
    w.into_inner().expect("flush").sync_all().expect("sync");

    let peak_before = peak_mib();
    let t0 = cpu_s();
    let file = std::fs::File::open(&path).expect("open");
    let path_in_doc = format!("apps.app[{}].resourceRequests[1].numContainers", apps - 1);
    let got = value_line(BufReader::with_capacity(1 << 16, file), 1, &path_in_doc);
    let secs = cpu_s() - t0;
    let peak_after = peak_mib();
    assert_eq!(got, want, "line of {path_in_doc}");
    println!(
        "json_lines: {apps} apps, {:.0} MB: {path_in_doc} found on line {got} in {secs:.2} s CPU \
         ({:.0} MB/s); peak memory {peak_before:.1} MiB before the scan, {peak_after:.1} MiB after",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs
    );
}
