//! `fairsim import logs`: ResourceManager application summary and audit lines into a native
//! CSV trace and the recorded times beside it, in one pass over the logs.
//!
//! Several files (a summary log, an audit log, rotated parts) are read together, line by
//! line in time order (a merge on the line time stamps), so an app's lines meet whatever file
//! holds them and only the apps open at a moment are held. An app is closed once its summary
//! line has come and all its containers are released, or `grace_ms` after its summary line:
//! the RM completes an attempt's containers and logs the app's summary on different threads,
//! so the AM's release often follows the summary. A closed app's rows go to a spill file
//! (its apps finish in another order than they arrived); the end of the input sorts a small
//! index of (submission, app id, offset) and writes the trace in arrival order. Memory grows
//! with the apps and containers open at once, not with the log's length.
//!
//! Times. Container run times are release minus allocation, from the two audit lines' time
//! stamps (the RM's wall clock, a zone the line does not name). Summary times are epoch ms.
//! The zone's offset is read off the first summary line (its time stamp minus its
//! `finishTime`, to the nearest quarter hour: the summary is logged as the app finishes)
//! unless given, and puts the audit times on the summary's clock.

use super::log_line::{
    LineKind, audit_pairs, classify, line_time, parse_app_id, parse_container_id, parse_i64,
    parse_resource, summary_pairs, unescape,
};
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};

/// A log line may be stamped up to this much before the line above it (log4j takes the time
/// when the event is made and appends under a lock, so threads interleave by a few ms); a
/// larger step back is refused.
pub const BACKWARDS_TOLERANCE_MS: i64 = 1_000;
/// The zone offset is a whole number of quarter hours.
const QUARTER_HOUR_MS: i64 = 900_000;

/// How to read the logs.
#[derive(Debug, Clone)]
pub struct LogOptions {
    /// Container run times are rounded to a multiple of this (half up), so that an app's
    /// containers of one size and about the same length share a row; 1 keeps them exact.
    pub round_ms: u64,
    /// How long after its summary line an app waits for its containers' release lines.
    pub grace_ms: i64,
    /// The logs' wall clock minus UTC, in ms; `None` reads it off the first summary line.
    pub zone_offset_ms: Option<i64>,
    /// The container size (MB, vcores) when an audit line has none (Hadoop 2.7) and the
    /// app's summary has no `memorySeconds` to estimate it from.
    pub default_size: (i64, i64),
}

impl Default for LogOptions {
    fn default() -> Self {
        LogOptions {
            round_ms: 1000,
            grace_ms: 60_000,
            zone_offset_ms: None,
            default_size: (1024, 1),
        }
    }
}

/// One input: a name for messages and its lines (already decompressed).
pub struct LogSource<'a> {
    /// The file's name, for messages.
    pub name: String,
    /// Its text.
    pub reader: Box<dyn BufRead + 'a>,
}

/// Input the import cannot use, with where it is.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// A line fairsim reads is unusable (cut mid-way, a bad value, time going backwards).
    #[error("{file}:{line}: {message}")]
    Bad {
        /// The file.
        file: String,
        /// Its line, from 1.
        line: u64,
        /// What is wrong, naming the field.
        message: String,
    },
    /// Reading an input or writing an output failed.
    #[error("{what}: {source}")]
    Io {
        /// The file or stream.
        what: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// What an import read, wrote and set aside (every count a warning names).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LogReport {
    /// Lines read, all files.
    pub lines: u64,
    /// Application summary lines.
    pub summary_lines: u64,
    /// Audit lines of a container allocation or release.
    pub container_lines: u64,
    /// Lines of other loggers (and continuation lines), skipped.
    pub other_lines: u64,
    /// Audit lines of other operations (submissions, kills, ...) or failures, skipped.
    pub other_audit_lines: u64,
    /// Apps written to the trace.
    pub apps: u64,
    /// Containers written to the trace (AMs included).
    pub containers: u64,
    /// Rows of the trace.
    pub rows: u64,
    /// Apps with container lines but no summary line (running when the log ends).
    pub apps_without_summary: u64,
    /// Apps with a summary line and no container line (the audit log not given, or an app
    /// killed before its AM was allocated).
    pub apps_without_containers: u64,
    /// Apps submitted before the logs' first line (their first containers are not in them).
    pub apps_before_log: u64,
    /// Release lines of containers never seen allocated (allocated before the log starts, or
    /// released after their app was closed).
    pub unmatched_releases: u64,
    /// Containers released after their app's finishTime (kept with their run times).
    pub containers_after_finish: u64,
    /// Containers still open when their app was closed, ended at the app's finishTime.
    pub containers_closed_at_finish: u64,
    /// Apps whose container sizes were estimated from memorySeconds and vcoreSeconds (audit
    /// lines without `RESOURCE`, as Hadoop 2.7 writes them).
    pub apps_sizes_estimated: u64,
    /// Apps whose sizes were the default (no `RESOURCE` and no memorySeconds).
    pub apps_sizes_defaulted: u64,
    /// Apps with containers of more than one attempt (later attempts' AMs run as tasks).
    pub apps_retried: u64,
    /// Lines stamped before the line above them, within the tolerance.
    pub lines_out_of_order: u64,
    /// Summary lines whose time stamp disagrees with the zone offset by more than 5 min.
    pub summary_zone_mismatches: u64,
    /// The zone offset used, ms.
    pub zone_offset_ms: i64,
    /// The epoch ms of the first app's submission: the trace's time 0.
    pub base_epoch_ms: i64,
}

impl LogReport {
    /// The warnings, one line each, only those with a count.
    pub fn warnings(&self) -> Vec<String> {
        let items = [
            (
                self.apps_without_summary,
                "apps with containers but no summary line (running when the log ends), left out",
            ),
            (
                self.apps_without_containers,
                "apps with a summary but no container line (give the audit log, or killed before their AM), left out",
            ),
            (
                self.apps_before_log,
                "apps submitted before the logs begin, left out",
            ),
            (
                self.unmatched_releases,
                "container releases without their allocation (before the log begins or after the app closed), skipped",
            ),
            (
                self.containers_after_finish,
                "containers released after their app's finishTime, kept with their run times",
            ),
            (
                self.containers_closed_at_finish,
                "containers never released, ended at their app's finishTime",
            ),
            (
                self.apps_sizes_estimated,
                "apps whose container sizes were estimated from memorySeconds and vcoreSeconds (audit lines without RESOURCE, as Hadoop 2.7 writes them)",
            ),
            (
                self.apps_sizes_defaulted,
                "apps whose container sizes are the default (no RESOURCE and no memorySeconds)",
            ),
            (
                self.apps_retried,
                "apps with more than one attempt (later attempts' AM containers run as tasks)",
            ),
            (
                self.lines_out_of_order,
                "lines stamped before the line above them (within 1 s), read in file order",
            ),
            (
                self.summary_zone_mismatches,
                "summary lines more than 5 min off the zone offset (a clock or zone change)",
            ),
        ];
        items
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect()
    }
}

/// A multiply-shift hasher for integer keys: the maps here are looked up per line.
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(29) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// A container allocated and not yet released.
#[derive(Debug, Clone, Copy)]
struct OpenContainer {
    alloc_local: i64,
    size: Option<(i64, i64)>,
    am: bool,
}

/// A released container.
#[derive(Debug, Clone, Copy)]
struct DoneContainer {
    duration_ms: i64,
    size: Option<(i64, i64)>,
    am: bool,
}

/// What the summary line says.
#[derive(Debug, Clone)]
struct Summary {
    user: String,
    queue: String,
    state: String,
    final_status: String,
    submit: i64,
    launch: Option<i64>,
    finish: i64,
    memory_seconds: Option<i64>,
    vcore_seconds: Option<i64>,
    /// Where the summary line is, for a value the trace cannot hold.
    file: String,
    line: u64,
}

#[derive(Debug, Default)]
struct OpenApp {
    id: String,
    key: (u64, u64),
    open: IdMap<u64, OpenContainer>,
    done: Vec<DoneContainer>,
    first_alloc_local: Option<i64>,
    first_task_local: Option<i64>,
    /// The number of its first container in the logs (1: its first attempt's AM).
    first_number: u64,
    attempts: u32,
    summary: Option<Summary>,
}

/// One input being read: its current line.
struct Cursor<'a> {
    name: String,
    reader: Box<dyn BufRead + 'a>,
    buf: Vec<u8>,
    line_no: u64,
    time: i64,
    /// The current line opens with a time stamp.
    stamped: bool,
    done: bool,
}

impl Cursor<'_> {
    fn advance(&mut self, report: &mut LogReport) -> Result<(), LogError> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|source| LogError::Io {
                what: self.name.clone(),
                source,
            })?;
        if n == 0 {
            self.done = true;
            return Ok(());
        }
        self.line_no += 1;
        // A line without a stamp (a stack trace's) keeps the time of the line above it.
        let stamp = line_time(&self.buf);
        self.stamped = stamp.is_some();
        if let Some(t) = stamp {
            if self.line_no > 1 && t < self.time {
                if self.time - t > BACKWARDS_TOLERANCE_MS {
                    return Err(LogError::Bad {
                        file: self.name.clone(),
                        line: self.line_no,
                        message: format!(
                            "time goes backwards by {} ms (more than {} ms) from the line above; \
                             logs of one file must be in time order (a change of zone or clock?)",
                            self.time - t,
                            BACKWARDS_TOLERANCE_MS
                        ),
                    });
                }
                report.lines_out_of_order += 1;
            } else {
                self.time = t;
            }
        }
        Ok(())
    }
}

/// Spill records and the index that orders them.
struct Spill<'s, S> {
    file: &'s mut S,
    /// Records not yet written.
    buf: Vec<u8>,
    at: u64,
    index: Vec<(i64, (u64, u64), u64)>,
}

impl<S: Write> Spill<'_, S> {
    fn flush(&mut self) -> Result<(), LogError> {
        self.file
            .write_all(&self.buf)
            .map_err(|source| LogError::Io {
                what: "spill file".into(),
                source,
            })?;
        self.buf.clear();
        Ok(())
    }
}

/// An app ready for the trace.
struct AppRecord {
    id: String,
    queue: String,
    user: String,
    state: String,
    final_status: String,
    submit: i64,
    am: (i64, i64),
    am_alloc: Option<i64>,
    launch: Option<i64>,
    first_task: Option<i64>,
    finish: i64,
    containers: u64,
    /// (count, memory, vcores, duration, priority)
    groups: Vec<(u64, i64, i64, i64, i64)>,
    /// Where its summary line is.
    file: String,
    line: u64,
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

fn put_i64(out: &mut Vec<u8>, v: i64) {
    out.extend_from_slice(&v.to_le_bytes());
}

const NONE: i64 = i64::MIN;

impl AppRecord {
    fn encode(&self, out: &mut Vec<u8>) {
        for s in [
            &self.id,
            &self.queue,
            &self.user,
            &self.state,
            &self.final_status,
            &self.file,
        ] {
            put_str(out, s);
        }
        for v in [
            self.submit,
            self.am.0,
            self.am.1,
            self.am_alloc.unwrap_or(NONE),
            self.launch.unwrap_or(NONE),
            self.first_task.unwrap_or(NONE),
            self.finish,
            self.containers as i64,
            self.line as i64,
            self.groups.len() as i64,
        ] {
            put_i64(out, v);
        }
        for g in &self.groups {
            for v in [g.0 as i64, g.1, g.2, g.3, g.4] {
                put_i64(out, v);
            }
        }
    }

    fn decode(r: &mut impl Read) -> std::io::Result<AppRecord> {
        fn get_i64(r: &mut impl Read) -> std::io::Result<i64> {
            let mut b = [0; 8];
            r.read_exact(&mut b)?;
            Ok(i64::from_le_bytes(b))
        }
        fn get_str(r: &mut impl Read) -> std::io::Result<String> {
            let mut b = [0; 4];
            r.read_exact(&mut b)?;
            let mut s = vec![0; u32::from_le_bytes(b) as usize];
            r.read_exact(&mut s)?;
            Ok(String::from_utf8_lossy(&s).into_owned())
        }
        let opt = |v: i64| (v != NONE).then_some(v);
        let (id, queue, user, state, final_status, file) = (
            get_str(r)?,
            get_str(r)?,
            get_str(r)?,
            get_str(r)?,
            get_str(r)?,
            get_str(r)?,
        );
        let mut v = [0i64; 10];
        for x in &mut v {
            *x = get_i64(r)?;
        }
        let mut groups = Vec::with_capacity(v[9] as usize);
        for _ in 0..v[9] {
            groups.push((
                get_i64(r)? as u64,
                get_i64(r)?,
                get_i64(r)?,
                get_i64(r)?,
                get_i64(r)?,
            ));
        }
        Ok(AppRecord {
            id,
            queue,
            user,
            state,
            final_status,
            submit: v[0],
            am: (v[1], v[2]),
            am_alloc: opt(v[3]),
            launch: opt(v[4]),
            first_task: opt(v[5]),
            finish: v[6],
            containers: v[7] as u64,
            groups,
            file,
            line: v[8] as u64,
        })
    }
}

/// The import's state between lines.
struct Importer<'o> {
    opts: &'o LogOptions,
    report: LogReport,
    apps: IdMap<(u64, u64), u32>,
    slots: Vec<Option<OpenApp>>,
    free: Vec<u32>,
    /// (line time after which to close, slot, app key) in time order.
    deadlines: VecDeque<(i64, u32, (u64, u64))>,
    zone: Option<i64>,
    log_start_local: Option<i64>,
}

fn bad(file: &str, line: u64, message: impl Into<String>) -> LogError {
    LogError::Bad {
        file: file.to_string(),
        line,
        message: message.into(),
    }
}

/// `v` held to the limit of the native CSV trace's `column`, where the import writes it.
fn trace_limit(column: &str, v: i64) -> Result<(), String> {
    crate::limits::limit("csv trace", column)
        .check_int(i128::from(v))
        .map(|_| ())
}

fn text(v: &[u8]) -> String {
    String::from_utf8_lossy(v).into_owned()
}

impl<'o> Importer<'o> {
    fn slot_of(&mut self, key: (u64, u64), id: &[u8]) -> u32 {
        if let Some(&s) = self.apps.get(&key) {
            return s;
        }
        let app = OpenApp {
            id: text(id),
            key,
            ..OpenApp::default()
        };
        let s = match self.free.pop() {
            Some(s) => {
                self.slots[s as usize] = Some(app);
                s
            }
            None => {
                self.slots.push(Some(app));
                (self.slots.len() - 1) as u32
            }
        };
        self.apps.insert(key, s);
        s
    }

    fn summary_line(
        &mut self,
        msg: &[u8],
        now: i64,
        file: &str,
        line: u64,
    ) -> Result<Option<u32>, LogError> {
        self.report.summary_lines += 1;
        let mut f: [Option<&[u8]>; 12] = [None; 12];
        const KEYS: [&[u8]; 12] = [
            b"appId",
            b"user",
            b"queue",
            b"state",
            b"finalStatus",
            b"submitTime",
            b"startTime",
            b"launchTime",
            b"finishTime",
            b"memorySeconds",
            b"vcoreSeconds",
            b"applicationType",
        ];
        for (k, v) in summary_pairs(msg) {
            if let Some(i) = KEYS.iter().position(|&key| key == k) {
                f[i] = Some(v);
            }
        }
        let need = |i: usize| -> Result<&[u8], LogError> {
            f[i].ok_or_else(|| {
                bad(
                    file,
                    line,
                    format!(
                        "application summary without `{}` (a line cut mid-way?)",
                        text(KEYS[i])
                    ),
                )
            })
        };
        let time = |i: usize, v: &[u8]| -> Result<i64, LogError> {
            parse_i64(v).filter(|t| *t >= 0).ok_or_else(|| {
                bad(
                    file,
                    line,
                    format!(
                        "`{}`: `{}` is not a time in epoch ms",
                        text(KEYS[i]),
                        text(v)
                    ),
                )
            })
        };
        let id = need(0)?;
        let key = parse_app_id(id).ok_or_else(|| {
            bad(
                file,
                line,
                format!("`appId`: `{}` is not an application id", text(id)),
            )
        })?;
        let (user, queue) = (unescape(need(1)?), unescape(need(2)?));
        let finish = time(8, need(8)?)?;
        // Hadoop 2.7 writes no submitTime: its startTime is the app's creation at submission.
        let submit = match f[5] {
            Some(v) => time(5, v)?,
            None => time(6, need(6)?)?,
        };
        let launch = match f[7] {
            Some(v) => Some(time(7, v)?).filter(|t| *t > 0),
            None => None,
        };
        if finish < submit {
            return Err(bad(
                file,
                line,
                format!(
                    "`finishTime` {finish} is before the submission {submit}: time goes backwards"
                ),
            ));
        }
        if let Some(l) = launch
            && (l < submit || l > finish)
        {
            return Err(bad(
                file,
                line,
                format!("`launchTime` {l} is outside submission {submit} to finish {finish}"),
            ));
        }
        let raw = now - finish;
        match self.zone {
            None => {
                self.zone =
                    Some((raw as f64 / QUARTER_HOUR_MS as f64).round() as i64 * QUARTER_HOUR_MS)
            }
            Some(z) if (raw - z).abs() > 300_000 => self.report.summary_zone_mismatches += 1,
            Some(_) => {}
        }
        let summary = Summary {
            user,
            queue,
            state: f[3].map(unescape).unwrap_or_default(),
            final_status: f[4].map(unescape).unwrap_or_default(),
            submit,
            launch,
            finish,
            memory_seconds: f[9].and_then(parse_i64),
            vcore_seconds: f[10].and_then(parse_i64),
            file: file.to_string(),
            line,
        };
        let s = self.slot_of(key, id);
        let app = self.slots[s as usize].as_mut().expect("a live slot");
        app.summary = Some(summary);
        if app.open.is_empty() {
            return Ok(Some(s));
        }
        self.deadlines
            .push_back((now.saturating_add(self.opts.grace_ms), s, key));
        Ok(None)
    }

    fn audit_line(
        &mut self,
        msg: &[u8],
        now: i64,
        file: &str,
        line: u64,
    ) -> Result<Option<u32>, LogError> {
        let (mut op, mut result, mut app_id, mut cid, mut res) = (None, None, None, None, None);
        for (k, v) in audit_pairs(msg) {
            match k {
                b"OPERATION" => op = Some(v),
                b"RESULT" => result = Some(v),
                b"APPID" => app_id = Some(v),
                b"CONTAINERID" => cid = Some(v),
                b"RESOURCE" => res = Some(v),
                _ => {}
            }
        }
        let alloc = match op {
            Some(b"AM Allocated Container") => true,
            Some(b"AM Released Container") => false,
            _ => {
                self.report.other_audit_lines += 1;
                return Ok(None);
            }
        };
        if result != Some(b"SUCCESS") {
            self.report.other_audit_lines += 1;
            return Ok(None);
        }
        self.report.container_lines += 1;
        let missing = |k: &str| {
            bad(
                file,
                line,
                format!("container audit line without `{k}` (a line cut mid-way?)"),
            )
        };
        let app_id = app_id.ok_or_else(|| missing("APPID"))?;
        let cid = cid.ok_or_else(|| missing("CONTAINERID"))?;
        let key = parse_app_id(app_id).ok_or_else(|| {
            bad(
                file,
                line,
                format!("`APPID`: `{}` is not an application id", text(app_id)),
            )
        })?;
        let (attempt, number) = parse_container_id(cid).ok_or_else(|| {
            bad(
                file,
                line,
                format!("`CONTAINERID`: `{}` is not a container id", text(cid)),
            )
        })?;
        let size = match res {
            Some(v) => Some(
                parse_resource(v)
                    .filter(|(m, c)| *m >= 0 && *c >= 0)
                    .ok_or_else(|| {
                        bad(
                            file,
                            line,
                            format!("`RESOURCE`: `{}` is not <memory:M, vCores:V>", text(v)),
                        )
                    })?,
            ),
            None => None,
        };
        if let Some((m, c)) = size {
            for (what, v, column) in [("memory", m, "memory_mb"), ("vCores", c, "vcores")] {
                trace_limit(column, v)
                    .map_err(|e| bad(file, line, format!("`RESOURCE` {what}: {e}")))?;
            }
        }
        if alloc {
            let s = self.slot_of(key, app_id);
            let app = self.slots[s as usize].as_mut().expect("a live slot");
            let am = app.first_alloc_local.is_none();
            if am {
                app.first_alloc_local = Some(now);
                app.first_number = number;
            } else if app.first_task_local.is_none() {
                app.first_task_local = Some(now);
            }
            app.attempts = app.attempts.max(attempt);
            app.open.insert(
                number,
                OpenContainer {
                    alloc_local: now,
                    size,
                    am,
                },
            );
            return Ok(None);
        }
        let Some(&s) = self.apps.get(&key) else {
            self.report.unmatched_releases += 1;
            return Ok(None);
        };
        let app = self.slots[s as usize].as_mut().expect("a live slot");
        let Some(c) = app.open.remove(&number) else {
            self.report.unmatched_releases += 1;
            return Ok(None);
        };
        app.done.push(DoneContainer {
            duration_ms: now - c.alloc_local,
            size: c.size.or(size),
            am: c.am,
        });
        if let (Some(sum), Some(z)) = (&app.summary, self.zone)
            && now - z > sum.finish
        {
            self.report.containers_after_finish += 1;
        }
        Ok((app.summary.is_some() && app.open.is_empty()).then_some(s))
    }

    /// Takes app `s` out of the open set and, when it can be replayed, spills its record.
    fn close<S: Write>(&mut self, s: u32, spill: &mut Spill<'_, S>) -> Result<(), LogError> {
        let mut app = self.slots[s as usize].take().expect("a live slot");
        self.apps.remove(&app.key);
        self.free.push(s);
        let Some(sum) = app.summary.take() else {
            self.report.apps_without_summary += 1;
            return Ok(());
        };
        let zone = self.zone.unwrap_or(0);
        let log_start = self.log_start_local.unwrap_or(i64::MIN / 2) - zone;
        // An app submitted before the log began whose first container in it is not its
        // first attempt's first (the AM) lost its start to an earlier log.
        if sum.submit < log_start && app.first_number & ((1 << 40) - 1) != 1 {
            self.report.apps_before_log += 1;
            return Ok(());
        }
        // Containers never released end with their app.
        let mut open: Vec<(u64, OpenContainer)> = app.open.drain().collect();
        open.sort_by_key(|(n, _)| *n);
        for (_, c) in open {
            self.report.containers_closed_at_finish += 1;
            app.done.push(DoneContainer {
                duration_ms: (sum.finish + zone - c.alloc_local).max(0),
                size: c.size,
                am: c.am,
            });
        }
        if app.done.is_empty() {
            self.report.apps_without_containers += 1;
            return Ok(());
        }
        if app.attempts > 1 {
            self.report.apps_retried += 1;
        }
        // Hadoop 2.7's audit lines carry no size: the app's memorySeconds over its
        // containers' run time is their mean size (exact when they are alike).
        let mut estimate = None;
        if app.done.iter().any(|c| c.size.is_none()) {
            let secs = app.done.iter().map(|c| c.duration_ms).sum::<i64>() as f64 / 1000.0;
            estimate = Some(match (sum.memory_seconds, sum.vcore_seconds) {
                (Some(m), Some(v)) if secs > 0.0 && m > 0 => {
                    self.report.apps_sizes_estimated += 1;
                    (
                        ((m as f64 / secs).round() as i64).max(1),
                        ((v as f64 / secs).round() as i64).max(1),
                    )
                }
                _ => {
                    self.report.apps_sizes_defaulted += 1;
                    self.opts.default_size
                }
            });
        }
        let round = self.opts.round_ms.max(1) as i64;
        let mut am = (0, 0);
        let mut sizes: Vec<(i64, i64)> = Vec::new();
        let mut tasks: Vec<((i64, i64), i64)> = Vec::new();
        for c in &app.done {
            let size = c.size.or(estimate).unwrap_or(self.opts.default_size);
            if c.am {
                am = size;
                continue;
            }
            if !sizes.contains(&size) {
                sizes.push(size);
            }
            let d = (c.duration_ms + round / 2) / round * round;
            tasks.push((size, d));
        }
        // One size per priority (YARN keeps one ask per priority): 20, 21, ... in the order
        // the sizes were first released.
        let mut groups: Vec<(u64, i64, i64, i64, i64)> = Vec::new();
        tasks.sort_by_key(|&(size, d)| (sizes.iter().position(|s| *s == size), d));
        for (size, d) in tasks {
            let prio = 20 + sizes.iter().position(|s| *s == size).unwrap_or(0) as i64;
            match groups.last_mut() {
                Some(g) if g.1 == size.0 && g.2 == size.1 && g.3 == d => g.0 += 1,
                _ => groups.push((1, size.0, size.1, d, prio)),
            }
        }
        // What the trace cannot hold is refused at the app's summary line: a trace the
        // import writes must read back.
        let at_summary = |what: String| bad(&sum.file, sum.line, format!("{}: {what}", app.id));
        if let Some((m, v)) = estimate {
            for (what, x, column) in [("MB", m, "memory_mb"), ("vcores", v, "vcores")] {
                trace_limit(column, x).map_err(|e| {
                    at_summary(format!(
                        "containers estimated from `memorySeconds` and `vcoreSeconds` at {x} {what} each: {e}"
                    ))
                })?;
            }
        }
        for g in &groups {
            trace_limit("duration_ms", g.3)
                .map_err(|e| at_summary(format!("a container ran {} ms: {e}", g.3)))?;
        }
        let epoch = |local: Option<i64>| local.map(|t| t - zone);
        let record = AppRecord {
            id: std::mem::take(&mut app.id),
            queue: sum.queue,
            user: sum.user,
            state: sum.state,
            final_status: sum.final_status,
            submit: sum.submit,
            am,
            am_alloc: epoch(app.first_alloc_local),
            launch: sum.launch,
            first_task: epoch(app.first_task_local),
            finish: sum.finish,
            containers: app.done.len() as u64,
            groups,
            file: sum.file,
            line: sum.line,
        };
        self.report.apps += 1;
        self.report.containers += record.containers;
        let before = spill.buf.len();
        record.encode(&mut spill.buf);
        spill.index.push((record.submit, app.key, spill.at));
        spill.at += (spill.buf.len() - before) as u64;
        if spill.buf.len() >= 1 << 20 {
            spill.flush()?;
        }
        Ok(())
    }
}

/// The recorded times' columns.
pub const RECORDED_COLUMNS: [&str; 12] = [
    "app",
    "queue",
    "user",
    "state",
    "final_status",
    "submit_ms",
    "am_allocated_ms",
    "launch_ms",
    "first_task_ms",
    "finish_ms",
    "containers",
    "submit_epoch_ms",
];

/// Reads `sources` together in time order and writes the native CSV trace to `trace` and the
/// recorded times (`RECORDED_COLUMNS`, on the trace's clock) to `recorded`, apps in arrival
/// order; `spill` holds closed apps until the end (any empty read-write file).
pub fn import_logs<S: Read + Write + Seek>(
    sources: Vec<LogSource<'_>>,
    opts: &LogOptions,
    spill: &mut S,
    trace: &mut dyn Write,
    recorded: &mut dyn Write,
) -> Result<LogReport, LogError> {
    let mut im = Importer {
        opts,
        report: LogReport::default(),
        apps: IdMap::default(),
        slots: Vec::new(),
        free: Vec::new(),
        deadlines: VecDeque::new(),
        zone: opts.zone_offset_ms,
        log_start_local: None,
    };
    let mut sp = Spill {
        file: spill,
        buf: Vec::with_capacity(1 << 20),
        at: 0,
        index: Vec::new(),
    };
    let mut cursors: Vec<Cursor<'_>> = sources
        .into_iter()
        .map(|s| Cursor {
            name: s.name,
            reader: s.reader,
            buf: Vec::with_capacity(512),
            line_no: 0,
            time: i64::MIN,
            stamped: false,
            done: false,
        })
        .collect();
    for c in &mut cursors {
        c.advance(&mut im.report)?;
        // A file's lines before its first stamp take the first stamp's time.
        if c.time == i64::MIN && !c.done {
            c.time = line_time(&c.buf).unwrap_or(i64::MIN);
        }
    }
    while let Some(i) = (0..cursors.len())
        .filter(|&i| !cursors[i].done)
        .min_by_key(|&i| (cursors[i].time, i))
    {
        let c = &mut cursors[i];
        let now = c.time;
        im.report.lines += 1;
        if im.log_start_local.is_none() && now != i64::MIN {
            im.log_start_local = Some(now);
        }
        while let Some(&(deadline, s, key)) = im.deadlines.front() {
            if deadline > now {
                break;
            }
            im.deadlines.pop_front();
            if im.apps.get(&key) == Some(&s) && im.slots[s as usize].is_some() {
                im.close(s, &mut sp)?;
            }
        }
        let closed = match classify(&c.buf) {
            LineKind::Other => {
                im.report.other_lines += 1;
                None
            }
            kind => {
                if !c.stamped {
                    return Err(bad(
                        &c.name,
                        c.line_no,
                        "a summary or audit line without its time stamp (a line cut mid-way?)",
                    ));
                }
                match kind {
                    LineKind::Summary(msg) => im.summary_line(msg, now, &c.name, c.line_no)?,
                    LineKind::Audit(msg) => im.audit_line(msg, now, &c.name, c.line_no)?,
                    LineKind::Other => None,
                }
            }
        };
        if let Some(s) = closed {
            im.close(s, &mut sp)?;
        }
        c.advance(&mut im.report)?;
    }
    // The end: what is still open closes (apps with a summary are written).
    let mut left: Vec<(u64, u64)> = im.apps.keys().copied().collect();
    left.sort_unstable();
    for key in left {
        let s = im.apps[&key];
        im.close(s, &mut sp)?;
    }
    im.report.zone_offset_ms = im.zone.unwrap_or(0);
    sp.flush()?;
    write_outputs(&mut im.report, sp, trace, recorded)?;
    Ok(im.report)
}

fn write_outputs<S: Read + Write + Seek>(
    report: &mut LogReport,
    spill: Spill<'_, S>,
    trace: &mut dyn Write,
    recorded: &mut dyn Write,
) -> Result<(), LogError> {
    let io = |what: &str| {
        let what = what.to_string();
        move |source| LogError::Io { what, source }
    };
    let csv_io = |what: &str| {
        let what = what.to_string();
        move |e: csv::Error| LogError::Io {
            what,
            source: std::io::Error::other(e.to_string()),
        }
    };
    let Spill { file, index, .. } = spill;
    let trace = &mut std::io::BufWriter::with_capacity(1 << 16, trace);
    let mut index = index;
    index.sort_unstable();
    let base = index.first().map_or(0, |e| e.0);
    report.base_epoch_ms = base;
    file.flush().map_err(io("spill file"))?;
    // Records are read in arrival order, a jump back or ahead in the spill when apps finished
    // out of order: a small buffer, kept when the next record is inside it.
    let mut reader = BufReader::with_capacity(8 << 10, &mut *file);
    let mut rw = csv::Writer::from_writer(recorded);
    writeln!(trace, "{}", crate::workload::csv::CSV_COLUMNS.join(",")).map_err(io("trace"))?;
    let mut head: Vec<u8> = Vec::new();
    rw.write_record(RECORDED_COLUMNS)
        .map_err(csv_io("recorded times"))?;
    let mut pos: Option<u64> = None;
    let shifted = |t: Option<i64>| t.map_or(String::new(), |t| (t - base).to_string());
    for &(_, _, offset) in &index {
        match pos {
            Some(p) if p == offset => {}
            Some(p) => reader
                .seek_relative(offset as i64 - p as i64)
                .map_err(io("spill file"))?,
            None => {
                reader
                    .seek(SeekFrom::Start(offset))
                    .map_err(io("spill file"))?;
            }
        }
        let counted = &mut CountingRead {
            inner: &mut reader,
            n: 0,
        };
        let a = AppRecord::decode(counted).map_err(io("spill file"))?;
        pos = Some(offset + counted.n);
        trace_limit("arrival_ms", a.submit - base).map_err(|e| {
            bad(
                &a.file,
                a.line,
                format!(
                    "{}: `submitTime` {} is {} ms after the first app's, {base}: {e}",
                    a.id,
                    a.submit,
                    a.submit - base
                ),
            )
        })?;
        let arrival = (a.submit - base).to_string();
        // The app's columns once (quoted as CSV needs), then each group's numbers.
        head.clear();
        {
            let mut hw = csv::WriterBuilder::new()
                .terminator(csv::Terminator::Any(b','))
                .from_writer(&mut head);
            hw.write_record([&a.id, &arrival, &a.queue, &a.user])
                .map_err(csv_io("trace"))?;
            hw.flush().map_err(io("trace"))?;
        }
        let groups: &[(u64, i64, i64, i64, i64)] = if a.groups.is_empty() {
            // An app whose only container was its AM: a row of no containers.
            &[(0, 0, 0, 0, 20)]
        } else {
            &a.groups
        };
        for g in groups {
            trace.write_all(&head).map_err(io("trace"))?;
            writeln!(
                trace,
                "{},{},0,{},{},{},{},{},",
                a.am.0, a.am.1, g.0, g.1, g.2, g.3, g.4
            )
            .map_err(io("trace"))?;
            report.rows += 1;
        }
        rw.write_record([
            a.id.as_str(),
            &a.queue,
            &a.user,
            &a.state,
            &a.final_status,
            &arrival,
            &shifted(a.am_alloc),
            &shifted(a.launch),
            &shifted(a.first_task),
            &shifted(Some(a.finish)),
            &a.containers.to_string(),
            &a.submit.to_string(),
        ])
        .map_err(csv_io("recorded times"))?;
    }
    trace.flush().map_err(io("trace"))?;
    rw.flush().map_err(io("recorded times"))?;
    Ok(())
}

/// Counts the bytes a record takes, so the next one's read needs no seek.
struct CountingRead<'r, R> {
    inner: &'r mut R,
    n: u64,
}

impl<R: Read> Read for CountingRead<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n += k as u64;
        Ok(k)
    }
}

/// Opens a log file, gzip-compressed (told by its first two bytes, whatever its name) or
/// plain; a compressed file's lines are counted in its decompressed text.
pub fn open_source(path: &std::path::Path) -> std::io::Result<LogSource<'static>> {
    let mut file = std::fs::File::open(path)?;
    let mut magic = [0u8; 2];
    let n = file.read(&mut magic)?;
    file.seek(SeekFrom::Start(0))?;
    let reader: Box<dyn BufRead> = if n == 2 && magic == [0x1f, 0x8b] {
        Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::read::MultiGzDecoder::new(BufReader::with_capacity(1 << 16, file)),
        ))
    } else {
        Box::new(BufReader::with_capacity(1 << 16, file))
    };
    Ok(LogSource {
        name: path.display().to_string(),
        reader,
    })
}
