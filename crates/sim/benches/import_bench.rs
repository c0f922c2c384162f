//! `fairsim import logs` at a large cluster's scale: a generated day of ResourceManager logs,
//! 1,000,000 apps of one AM and 24 tasks each (25,000,000 containers: 50,000,000 audit
//! allocation and release lines) and their 1,000,000 application summary lines, in Hadoop
//! 3.x's formats, streamed from the generator into the importer (no file of the day is
//! written: it would be 14 GB of text). The trace goes to a sink that checks it; the spill
//! file is a temporary file.
//!
//! Prints the generator's time alone, the import's (generation included) and their
//! difference, lines per second, and the process's peak memory; asserts the apps, containers
//! and lines read, and that the trace's rows hold every task with its rounded run time, so the
//! benchmark is also a correctness test. `FAIRSIM_BENCH_SCALE` (a fraction, default 1) shrinks
//! the day; a gzip pass over a tenth of the day (compressed in memory first) gives the
//! decompression's cost per line.
//!
//! `cargo bench -p fairsim-sim --bench import_bench`

use fairsim_sim::import::logs::{LogOptions, LogSource, import_logs};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{BufReader, Read, Write};
use std::time::Instant;

const DAY_MS: u64 = 86_400_000;
const TASKS: u64 = 24;
/// 2024-03-01 00:00:00 UTC in epoch ms: the logs are in UTC.
const START_EPOCH_MS: u64 = 1_709_251_200_000;
const CLUSTER_TS: u64 = 1_709_000_000_000;

/// CPU time of this process so far, s: the machine may be shared, and the figure asked for
/// is the time on one core.
fn cpu_s() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

/// Peak resident memory of the process so far (VmHWM), in MiB.
fn peak_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// A reproducible pseudo-random number (splitmix64 of `i`).
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One line to come: (time, order among equal times, app, what).
type Pending = Reverse<(u64, u64, u64, u32)>;

/// What a line says: a container's allocation or release (its number, 1 = the AM), or the
/// app's summary.
const SUMMARY: u32 = u32::MAX;
const RELEASE: u32 = 1 << 31;

/// The day's log, made as it is read.
struct DayLog {
    apps: u64,
    next_app: u64,
    seq: u64,
    heap: BinaryHeap<Pending>,
    buf: Vec<u8>,
    at: usize,
    /// Time spent making lines, to take out of the import's.
    making: std::rc::Rc<std::cell::Cell<f64>>,
    /// Bytes made.
    bytes: std::rc::Rc<std::cell::Cell<u64>>,
}

impl DayLog {
    fn new(apps: u64) -> DayLog {
        DayLog {
            apps,
            next_app: 0,
            seq: 0,
            heap: BinaryHeap::new(),
            buf: Vec::with_capacity(1 << 20),
            at: 0,
            making: Default::default(),
            bytes: Default::default(),
        }
    }

    fn submit(&self, app: u64) -> u64 {
        app * DAY_MS / self.apps
    }

    fn push(&mut self, t: u64, app: u64, what: u32) {
        self.seq += 1;
        self.heap.push(Reverse((t, self.seq, app, what)));
    }

    /// App `app`'s lines: AM 200-1000 ms after submission, tasks from 500 ms later 10 ms
    /// apart, each running 5-120 s; the summary 100 ms after the last task, the AM's release
    /// 50 ms after the summary (the RM's threads race).
    fn schedule(&mut self, app: u64) {
        let r = mix(app);
        let s = self.submit(app);
        let am = s + 200 + r % 800;
        self.push(am, app, 1);
        let mut last = am;
        for k in 0..TASKS {
            let alloc = am + 500 + k * 10;
            let d = 5_000 + mix(app * 64 + k) % 115_000;
            self.push(alloc, app, 2 + k as u32);
            self.push(alloc + d, app, RELEASE | (2 + k as u32));
            last = last.max(alloc + d);
        }
        self.push(last + 100, app, SUMMARY);
        self.push(last + 150, app, RELEASE | 1);
    }

    fn stamp(&mut self, t: u64) {
        let ms = t % 1000;
        let s = t / 1000;
        let (h, mi, sec) = (s / 3600 % 24, s / 60 % 60, s % 60);
        let day = 1 + s / 86_400;
        let _ = write!(
            self.buf,
            "2024-03-{day:02} {h:02}:{mi:02}:{sec:02},{ms:03} INFO "
        );
    }

    /// Makes the next line; false at the end.
    fn line(&mut self) -> bool {
        // Every app submitted by the next line's time has its lines queued.
        while self.next_app < self.apps
            && self
                .heap
                .peek()
                .is_none_or(|Reverse(p)| self.submit(self.next_app) + 200 <= p.0)
        {
            self.schedule(self.next_app);
            self.next_app += 1;
        }
        let Some(Reverse((t, _, app, what))) = self.heap.pop() else {
            return false;
        };
        self.stamp(t);
        let user = app % 50;
        let queue = app % 7;
        let seq = app + 1;
        if what == SUMMARY {
            let s = START_EPOCH_MS + self.submit(app);
            let finish = START_EPOCH_MS + t - 100;
            let _ = writeln!(
                self.buf,
                "org.apache.hadoop.yarn.server.resourcemanager.RMAppManager$ApplicationSummary: \
                 appId=application_{CLUSTER_TS}_{seq:04},name=job {seq},user=user{user},queue=root.q{queue},\
                 state=FINISHED,trackingUrl=http://rm:8088/proxy/application_{CLUSTER_TS}_{seq:04}/,\
                 appMasterHost=node{h},submitTime={s},startTime={s},launchTime={l},finishTime={finish},\
                 finalStatus=SUCCEEDED,memorySeconds=1000,vcoreSeconds=100,preemptedMemorySeconds=0,\
                 preemptedVcoreSeconds=0,preemptedAMContainers=0,preemptedNonAMContainers=0,\
                 preemptedResources=<memory:0\\, vCores:0>,applicationType=MAPREDUCE,\
                 resourceSeconds=1000 MB-seconds\\, 100 vcore-seconds,preemptedResourceSeconds=0 MB-seconds\\, 0 vcore-seconds",
                h = app % 1000,
                l = s + 1500,
            );
        } else {
            let (op, n) = if what & RELEASE != 0 {
                ("AM Released Container", what & !RELEASE)
            } else {
                ("AM Allocated Container", what)
            };
            let mb = if n == 1 { 2048 } else { 1024 * (1 + app % 4) };
            let _ = writeln!(
                self.buf,
                "org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger: USER=user{user}\tIP=10.1.{a}.{b}\t\
                 OPERATION={op}\tTARGET=SchedulerApp\tRESULT=SUCCESS\tAPPID=application_{CLUSTER_TS}_{seq:04}\t\
                 CONTAINERID=container_e07_{CLUSTER_TS}_{seq:04}_01_{n:06}\tRESOURCE=<memory:{mb}, vCores:1>\tQUEUENAME=root.q{queue}",
                a = app % 256,
                b = app / 256 % 256,
            );
        }
        true
    }
}

impl Read for DayLog {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.buf.len() {
            let t = cpu_s();
            self.buf.clear();
            self.at = 0;
            while self.buf.len() < (1 << 20) - 4096 && self.line() {}
            self.making.set(self.making.get() + cpu_s() - t);
            self.bytes.set(self.bytes.get() + self.buf.len() as u64);
        }
        let n = out.len().min(self.buf.len() - self.at);
        out[..n].copy_from_slice(&self.buf[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The trace's sink: counts bytes and rows, and sums count × duration over the rows.
#[derive(Default)]
struct TraceCheck {
    bytes: u64,
    rows: u64,
    containers: u64,
    task_ms: u64,
    partial: Vec<u8>,
}

impl Write for TraceCheck {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len() as u64;
        self.partial.extend_from_slice(buf);
        let mut start = 0;
        while let Some(i) = self.partial[start..].iter().position(|&b| b == b'\n') {
            let line = &self.partial[start..start + i];
            start += i + 1;
            if line.starts_with(b"app,") {
                continue;
            }
            let cols: Vec<&[u8]> = line.split(|&b| b == b',').collect();
            let num = |c: &[u8]| -> u64 { std::str::from_utf8(c).unwrap().parse().unwrap() };
            self.rows += 1;
            let count = num(cols[7]);
            self.containers += count;
            self.task_ms += count * num(cols[10]);
        }
        self.partial.drain(..start);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Σ over tasks of the run time rounded to 1 s (half up), as `DayLog::schedule` draws them:
/// what the trace must hold.
fn task_ms_rounded(apps: u64) -> u64 {
    let mut sum = 0;
    for app in 0..apps {
        for k in 0..TASKS {
            let d = 5_000 + mix(app * 64 + k) % 115_000;
            sum += (d + 500) / 1000 * 1000;
        }
    }
    sum
}

fn main() {
    let scale: f64 = std::env::var("FAIRSIM_BENCH_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let apps = ((1_000_000.0 * scale) as u64).max(10);

    let lines = apps * (2 * (TASKS + 1) + 1);
    // Generator and import.
    let dir = tempfile::tempdir().unwrap();
    let mut spill = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(dir.path().join("spill"))
        .unwrap();
    let mut check = TraceCheck::default();
    let mut recorded = std::io::sink();
    let day = DayLog::new(apps);
    let (making, bytes) = (day.making.clone(), day.bytes.clone());
    let (t1, w1) = (cpu_s(), Instant::now());
    let report = import_logs(
        vec![LogSource {
            name: "day.log".into(),
            reader: Box::new(BufReader::with_capacity(1 << 16, day)),
        }],
        &LogOptions::default(),
        &mut spill,
        &mut check,
        &mut recorded,
    )
    .unwrap();
    let (total_s, wall_s) = (cpu_s() - t1, w1.elapsed().as_secs_f64());
    let gen_s = making.get();
    let import_s = total_s - gen_s;
    let spill_mb = spill.metadata().unwrap().len() as f64 / 1e6;
    let generated = bytes.get();
    println!(
        "day: {apps} apps, {lines} lines ({:.1} GB of text); import {total_s:.1} s of CPU \
         ({wall_s:.1} s wall), of which {gen_s:.1} s making the lines: {import_s:.1} s importing, {:.2} M lines/s, {:.0} MB/s \
         of log text; trace {:.1} MB in {} rows; spill file {spill_mb:.0} MB; peak memory \
         {:.0} MiB (generator included)",
        generated as f64 / 1e9,
        lines as f64 / import_s / 1e6,
        generated as f64 / import_s / 1e6,
        check.bytes as f64 / 1e6,
        check.rows,
        peak_mib().unwrap_or(f64::NAN),
    );
    assert_eq!(report.lines, lines);
    assert_eq!(report.summary_lines, apps);
    assert_eq!(report.container_lines, apps * 2 * (TASKS + 1));
    assert_eq!((report.apps, report.containers), (apps, apps * (TASKS + 1)));
    // Each AM is released 50 ms after its app's finishTime, as the generator writes it.
    assert_eq!(report.containers_after_finish, apps);
    assert_eq!(report.warnings().len(), 1);
    assert_eq!(check.rows, report.rows);
    assert_eq!(check.containers, apps * TASKS);
    // Every task's run time, rounded to 1 s as the import rounds it.
    assert_eq!(check.task_ms, task_ms_rounded(apps));

    // Decompression's cost: a tenth of the day gzipped in memory, then imported.
    let tenth = (apps / 10).max(10);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::copy(&mut DayLog::new(tenth), &mut gz).unwrap();
    let gz = gz.finish().unwrap();
    let path = dir.path().join("tenth.log.gz");
    std::fs::write(&path, &gz).unwrap();
    let t2 = cpu_s();
    let mut spill2 = tempfile::tempfile().unwrap();
    let r = import_logs(
        vec![fairsim_sim::import::logs::open_source(&path).unwrap()],
        &LogOptions::default(),
        &mut spill2,
        &mut std::io::sink(),
        &mut std::io::sink(),
    )
    .unwrap();
    let gz_s = cpu_s() - t2;
    assert_eq!(r.apps, tenth);
    let gz_lines = tenth * (2 * (TASKS + 1) + 1);
    println!(
        "gzip: {tenth} apps ({:.0} MB compressed) imported in {gz_s:.1} s of CPU: {:.2} M lines/s",
        gz.len() as f64 / 1e6,
        gz_lines as f64 / gz_s / 1e6
    );
}
