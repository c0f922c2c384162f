//! The valid range of every numeric input, as data: [`LIMITS`] is the table that
//! `docs/limits.md` prints (a test keeps the two equal), and the parsers check values against
//! it with [`Limit::check_int`] and [`Limit::check_float`], so a refusal names the key, the
//! value and the limit.
//!
//! Why these bounds: times stay below about ten years of milliseconds, so no sum of a time and
//! an interval can overflow and no run is asked to simulate further than a person would wait
//! for; sizes stay in the Java `int` Hadoop 2.7 keeps them in; floats that Hadoop stores as
//! Java `float` must be finite *as a float* (`1e39` is finite as a double but infinite as a
//! float); counts of nodes, apps and containers stay where a run fits in memory and finishes.

/// The largest allocation, scenario, sweep or plan file read (each is read whole): far above
/// any real cluster's, small enough to bound memory.
pub const MAX_TEXT_BYTES: u64 = 64 * 1024 * 1024;

/// The largest native CSV trace read (it is read whole): 2 GiB, three times a trace of
/// [`MAX_APPS`] one-row apps.
pub const MAX_CSV_TRACE_BYTES: u64 = 2 << 30;

/// Reads a UTF-8 text file whole, refusing one above [`MAX_TEXT_BYTES`] with an
/// `InvalidData` error that says so, where reading on would exhaust memory (a device such as
/// `/dev/zero` has no end).
pub fn read_text_file(path: &std::path::Path) -> std::io::Result<String> {
    read_text_file_within(path, MAX_TEXT_BYTES)
}

/// [`read_text_file`] with its own limit of `max_bytes`.
pub fn read_text_file_within(path: &std::path::Path, max_bytes: u64) -> std::io::Result<String> {
    read_text_within(std::fs::File::open(path)?, max_bytes)
}

/// Reads UTF-8 text whole from `reader` (a file, or standard input), refusing more than
/// `max_bytes` or text that is not UTF-8 with an `InvalidData` error that says so.
pub fn read_text_within(reader: impl std::io::Read, max_bytes: u64) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    reader.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "the input holds more than {max_bytes} bytes, the limit of a text input read whole"
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = 1 + good.iter().filter(|&&b| b == b'\n').count();
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("line {line} is not valid UTF-8"),
        )
    })
}

/// Ten years of milliseconds (3652.5 days): the latest time any input may name.
pub const MAX_TIME_MS: u64 = 315_576_000_000;
/// The longest heartbeat interval of a node or an AM: YARN's liveness monitors expire a
/// NodeManager or an AM not heard from for 600,000 ms by default, so a slower beat is not a
/// cluster YARN runs (and it would stretch a run's idle samples over weeks).
pub const MAX_HEARTBEAT_MS: u64 = 600_000;
/// Nodes in one cluster.
pub const MAX_NODES: u64 = 100_000;
/// `[[cluster.events]]` entries in one scenario.
pub const MAX_NODE_EVENTS: u64 = 100_000;
/// Apps in one run (after SLS `job.count` replication).
pub const MAX_APPS: u64 = 10_000_000;
/// Containers of one task group.
pub const MAX_GROUP_CONTAINERS: u64 = 100_000_000;
/// Containers of one run, summed over its apps (a run over more would take hours).
pub const MAX_RUN_CONTAINERS: u64 = 1_000_000_000;
/// Queues of one allocation file (real clusters have hundreds or thousands).
pub const MAX_QUEUES: u64 = 100_000;
/// Java's `Integer.MAX_VALUE`: Hadoop 2.7 keeps memory, vcores and priorities in an `int`.
pub const JAVA_INT_MAX: u64 = i32::MAX as u64;
/// Distinct users of one synthetic queue stream.
pub const MAX_USERS: u64 = 1_000_000;
/// The memory a run may plan to use (its estimate from the scenario), bytes.
pub const MAX_RUN_MEMORY_BYTES: u64 = 16 << 30;
/// `queues.csv` rows one run may write (queues × sample times up to `end_ms`): rows stream to
/// disk, so this bounds the file (about 60 to 100 bytes a row) and the time to write it.
pub const MAX_QUEUE_ROWS: u64 = 100_000_000;
/// Largest task count one SLS SYNTH draw may give (a larger draw is cut to this); also the
/// largest mean task count of a task entry.
pub const MAX_TASKS_PER_DRAW: f64 = 1_000_000.0;
/// Largest number of tasks a whole SLS SYNTH run is expected to draw (`num_jobs` times the
/// mean tasks of a job, over the weights): each drawn task is held until it runs, so this
/// bounds a run's memory at a few GiB.
pub const MAX_EXPECTED_TASKS: f64 = 20_000_000.0;

/// What kind of number a key holds and its inclusive range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Range {
    /// An integer in `min..=max`.
    Int {
        /// Smallest valid value.
        min: i64,
        /// Largest valid value.
        max: u64,
    },
    /// A number Hadoop stores as a Java `float`: finite as an `f32`, in `min..=max`.
    Float32 {
        /// Smallest valid value.
        min: f64,
        /// Largest valid value (`f32::MAX` when only finiteness is asked).
        max: f64,
    },
    /// A double: finite, in `min..=max`.
    Float64 {
        /// Smallest valid value.
        min: f64,
        /// Largest valid value.
        max: f64,
    },
}

/// One row of the limits table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limit {
    /// The input format (`scenario`, `csv trace`, ...).
    pub format: &'static str,
    /// The key, column or property.
    pub key: &'static str,
    /// Its valid range.
    pub range: Range,
    /// Why the bound is what it is.
    pub why: &'static str,
}

const fn int(
    format: &'static str,
    key: &'static str,
    min: i64,
    max: u64,
    why: &'static str,
) -> Limit {
    Limit {
        format,
        key,
        range: Range::Int { min, max },
        why,
    }
}

const fn f32_range(
    format: &'static str,
    key: &'static str,
    min: f64,
    max: f64,
    why: &'static str,
) -> Limit {
    Limit {
        format,
        key,
        range: Range::Float32 { min, max },
        why,
    }
}

const fn f64_range(
    format: &'static str,
    key: &'static str,
    min: f64,
    max: f64,
    why: &'static str,
) -> Limit {
    Limit {
        format,
        key,
        range: Range::Float64 { min, max },
        why,
    }
}

const F32_MAX: f64 = f32::MAX as f64;
const TIME: &str = "ten years of ms: sums of times cannot overflow and a run ends";
const JAVA_INT: &str = "Hadoop 2.7 keeps it in a Java int";
const JAVA_FLOAT: &str = "Hadoop keeps it in a Java float";
const INTERVAL: &str = "a periodic event: zero would never let time advance";
const NM_LIVENESS: &str = "a periodic event (zero would never let time advance); a node beating less often is lost to YARN's liveness monitor (yarn.nm.liveness-monitor.expiry-interval-ms, 600000 by default)";
const AM_LIVENESS: &str = "0 (off) or an interval in ms; an AM beating less often is expired by YARN (yarn.am.liveness-monitor.expiry-interval-ms, 600000 by default)";
const SLS_INT: &str = "SLS reads it with getInt (yarn.sls.container.* and yarn.sls.am.container.*)";
const QUEUE_RESOURCE: &str =
    "hadoop-2.7 keeps it in a Java int; hadoop-3.3 in a Java long (any TOML integer from 0)";

/// Every numeric input's valid range. Keys of scenario files are the TOML paths; `*` stands
/// for a queue name or a list index.
pub const LIMITS: &[Limit] = &[
    int("scenario", "end_ms", 0, MAX_TIME_MS, TIME),
    int(
        "scenario",
        "cluster.nodes",
        1,
        MAX_NODES,
        "a run holds every node in memory",
    ),
    int(
        "scenario",
        "cluster.racks",
        1,
        MAX_NODES,
        "at most one rack per node",
    ),
    int(
        "scenario",
        "cluster.node_memory_mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int("scenario", "cluster.node_vcores", 0, JAVA_INT_MAX, JAVA_INT),
    int(
        "scenario",
        "cluster.nodes[*].count",
        1,
        MAX_NODES,
        "a run holds every node in memory",
    ),
    int(
        "scenario",
        "cluster.nodes[*].memory_mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "cluster.nodes[*].vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "cluster.events",
        0,
        MAX_NODE_EVENTS,
        "each event is kept for the run and checked against every node",
    ),
    int("scenario", "cluster.events[*].at_ms", 0, MAX_TIME_MS, TIME),
    int(
        "scenario",
        "cluster.events[*].count",
        1,
        MAX_NODES,
        "a run holds every node in memory",
    ),
    int(
        "scenario",
        "cluster.events[*].memory_mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "cluster.events[*].vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "sls nodes file",
        "nodes[*].memory-mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "sls nodes file",
        "nodes[*].vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.update_interval_ms",
        1,
        MAX_TIME_MS,
        INTERVAL,
    ),
    int(
        "scenario",
        "scheduler.heartbeat_ms",
        1,
        MAX_HEARTBEAT_MS,
        NM_LIVENESS,
    ),
    int(
        "scenario",
        "scheduler.continuous_scheduling_sleep_ms",
        1,
        MAX_TIME_MS,
        INTERVAL,
    ),
    int(
        "scenario",
        "scheduler.am_launch_delay_ms",
        0,
        MAX_TIME_MS,
        "a time in ms",
    ),
    int(
        "scenario",
        "scheduler.am_heartbeat_ms",
        0,
        MAX_HEARTBEAT_MS,
        AM_LIVENESS,
    ),
    int(
        "scenario",
        "scheduler.locality_delay_node_ms",
        -(MAX_TIME_MS as i64),
        MAX_TIME_MS,
        "negative (off) or a delay in ms",
    ),
    int(
        "scenario",
        "scheduler.locality_delay_rack_ms",
        -(MAX_TIME_MS as i64),
        MAX_TIME_MS,
        "negative (off) or a delay in ms",
    ),
    f32_range(
        "scenario",
        "scheduler.locality_threshold_node",
        -F32_MAX,
        F32_MAX,
        JAVA_FLOAT,
    ),
    f32_range(
        "scenario",
        "scheduler.locality_threshold_rack",
        -F32_MAX,
        F32_MAX,
        JAVA_FLOAT,
    ),
    f64_range(
        "scenario",
        "scheduler.booster.factor",
        0.0,
        F32_MAX,
        "a weight multiplier: finite, not negative",
    ),
    int(
        "scenario",
        "scheduler.booster.duration_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    f32_range(
        "scenario",
        "scheduler.preemption_utilization_threshold",
        0.0,
        F32_MAX,
        JAVA_FLOAT,
    ),
    int(
        "scenario",
        "scheduler.preemption_interval_ms",
        1,
        MAX_TIME_MS,
        INTERVAL,
    ),
    int(
        "scenario",
        "scheduler.wait_before_kill_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    int(
        "scenario",
        "scheduler.wait_before_next_starvation_check_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    int(
        "scenario",
        "scheduler.monitoring_interval_ms",
        1,
        MAX_TIME_MS,
        INTERVAL,
    ),
    int(
        "scenario",
        "scheduler.queue_management_interval_ms",
        1,
        MAX_TIME_MS,
        INTERVAL,
    ),
    int(
        "scenario",
        "scheduler.max_wait_before_kill_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    f32_range(
        "scenario",
        "scheduler.total_preemption_per_round",
        0.0,
        F32_MAX,
        JAVA_FLOAT,
    ),
    f32_range(
        "scenario",
        "scheduler.max_ignored_over_capacity",
        0.0,
        F32_MAX,
        JAVA_FLOAT,
    ),
    f32_range(
        "scenario",
        "scheduler.natural_termination_factor",
        0.0,
        F32_MAX,
        JAVA_FLOAT,
    ),
    f32_range(
        "scenario",
        "scheduler.reservable_nodes",
        0.0,
        1.0,
        "3.3's share of the nodes (in the rack or cluster) an app may hold reserved",
    ),
    f64_range(
        "scenario",
        "scheduler.reservation_threshold_increment_multiple",
        0.0,
        1e6,
        "3.3's reservation threshold, in multiples of the minimum allocation",
    ),
    int(
        "scenario",
        "scheduler.node_locality_delay",
        -1,
        JAVA_INT_MAX,
        "-1 turns it off; a Java int",
    ),
    int(
        "scenario",
        "scheduler.minimum_allocation_mb",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.minimum_allocation_vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.maximum_allocation_mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.maximum_allocation_vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.increment_allocation_mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.increment_allocation_vcores",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "scheduler.max_allocation_wait_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    f32_range("scenario", "queues.*.weight", 0.0, F32_MAX, JAVA_FLOAT),
    int(
        "scenario",
        "queues.*.min_memory_mb",
        0,
        JAVA_INT_MAX,
        QUEUE_RESOURCE,
    ),
    int(
        "scenario",
        "queues.*.min_vcores",
        0,
        JAVA_INT_MAX,
        QUEUE_RESOURCE,
    ),
    int(
        "scenario",
        "queues.*.max_memory_mb",
        0,
        JAVA_INT_MAX,
        QUEUE_RESOURCE,
    ),
    int(
        "scenario",
        "queues.*.max_vcores",
        0,
        JAVA_INT_MAX,
        QUEUE_RESOURCE,
    ),
    int(
        "scenario",
        "queues.*.max_running_apps",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    f32_range(
        "scenario",
        "queues.*.max_am_share",
        -1.0,
        F32_MAX,
        "-1 disables; other negatives refused; above 1 acts as 1, as Hadoop's loader does",
    ),
    int(
        "scenario",
        "workload.sls_container_memory_mb",
        1,
        JAVA_INT_MAX,
        SLS_INT,
    ),
    int(
        "scenario",
        "workload.sls_container_vcores",
        1,
        JAVA_INT_MAX,
        SLS_INT,
    ),
    int(
        "scenario",
        "workload.sls_am_memory_mb",
        1,
        JAVA_INT_MAX,
        SLS_INT,
    ),
    int(
        "scenario",
        "workload.sls_am_vcores",
        1,
        JAVA_INT_MAX,
        SLS_INT,
    ),
    int(
        "scenario",
        "outputs.sample_interval_ms",
        0,
        MAX_TIME_MS,
        "0 turns sampling off",
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.apps",
        0,
        MAX_APPS,
        "apps of a run, summed over the streams",
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.users",
        1,
        MAX_USERS,
        "user names are kept per run",
    ),
    f64_range(
        "scenario",
        "workload.synthetic.queues.*.mean_interarrival_ms",
        0.0,
        MAX_TIME_MS as f64,
        "apps × mean must stay within the time limit",
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.start_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    f64_range(
        "scenario",
        "workload.synthetic.queues.*.tasks (value, mean, median, scale, max)",
        0.0,
        MAX_GROUP_CONTAINERS as f64,
        "containers of one group; draws are capped here",
    ),
    f64_range(
        "scenario",
        "workload.synthetic.queues.*.duration_ms (value, mean, median, scale, max)",
        0.0,
        MAX_TIME_MS as f64,
        "draws are capped at the time limit",
    ),
    f64_range(
        "scenario",
        "workload.synthetic.queues.*.* sigma, shape",
        0.0,
        1.0e3,
        "a log-space spread or tail index; larger overflows a draw",
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.container_mb",
        1,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.container_vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.am_mb",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int(
        "scenario",
        "workload.synthetic.queues.*.am_vcores",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int("csv trace", "arrival_ms", 0, MAX_TIME_MS, TIME),
    int("csv trace", "am_memory_mb", 0, JAVA_INT_MAX, JAVA_INT),
    int("csv trace", "am_vcores", 0, JAVA_INT_MAX, JAVA_INT),
    int(
        "csv trace",
        "stage",
        0,
        64,
        "stages run one after the other",
    ),
    int(
        "csv trace",
        "count",
        0,
        MAX_GROUP_CONTAINERS,
        "containers of one group",
    ),
    int("csv trace", "memory_mb", 0, JAVA_INT_MAX, JAVA_INT),
    int("csv trace", "vcores", 0, JAVA_INT_MAX, JAVA_INT),
    int("csv trace", "duration_ms", 0, MAX_TIME_MS, TIME),
    int(
        "csv trace",
        "priority",
        i32::MIN as i64,
        JAVA_INT_MAX,
        "a Java int (Hadoop's Priority)",
    ),
    int("sls trace", "job.start.ms", 0, MAX_TIME_MS, TIME),
    int("sls trace", "job.end.ms", 0, MAX_TIME_MS, TIME),
    int(
        "sls trace",
        "job.count",
        0,
        1_000_000,
        "replicas of one job, each a separate app",
    ),
    int("sls trace", "am.memory-mb", 0, JAVA_INT_MAX, JAVA_INT),
    int("sls trace", "am.vcores", 0, JAVA_INT_MAX, JAVA_INT),
    int(
        "sls trace",
        "count",
        0,
        MAX_GROUP_CONTAINERS,
        "containers of one group",
    ),
    int(
        "sls trace",
        "container.memory-mb",
        0,
        JAVA_INT_MAX,
        JAVA_INT,
    ),
    int("sls trace", "container.vcores", 0, JAVA_INT_MAX, JAVA_INT),
    int("sls trace", "container.duration.ms", 0, MAX_TIME_MS, TIME),
    int("sls trace", "duration.ms", 0, MAX_TIME_MS, TIME),
    int("sls trace", "container.start.ms", 0, MAX_TIME_MS, TIME),
    int("sls trace", "container.end.ms", 0, MAX_TIME_MS, TIME),
    int(
        "sls trace",
        "container.priority",
        i32::MIN as i64,
        JAVA_INT_MAX,
        "a Java int (Hadoop's Priority)",
    ),
    int(
        "rumen",
        "submitTime (after the first job's)",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    int(
        "rumen",
        "finishTime - submitTime (a job)",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    int(
        "rumen",
        "finishTime - startTime (a task attempt)",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    int("sls synth", "num_jobs", 0, MAX_APPS, "the apps of one run"),
    int(
        "sls synth",
        "time_distribution[*].time (s)",
        0,
        MAX_TIME_MS / 1000,
        TIME,
    ),
    f64_range(
        "sls synth",
        "workload_weight, class_weight, time_distribution and discrete weights",
        0.0,
        1e300,
        "finite, not negative; each list's weights sum above 0",
    ),
    f64_range(
        "sls synth",
        "val and std of a distribution",
        0.0,
        1e300,
        "a mean and a standard deviation: finite, not negative",
    ),
    f64_range(
        "sls synth",
        "discrete values of a distribution",
        0.0,
        1e300,
        "finite, not negative: a count, time or size",
    ),
    int(
        "sls synth",
        "tasks of one draw of count",
        0,
        1_000_000,
        "a larger draw is cut to it",
    ),
    int("trace (any)", "apps", 0, MAX_APPS, "apps of a run"),
    int(
        "trace (any)",
        "containers",
        0,
        MAX_RUN_CONTAINERS,
        "containers of a run (SLS `job.count` replicas and SYNTH draws included), counted before they are made: more would take hours",
    ),
    int(
        "snapshot",
        "schedulables",
        0,
        100_000,
        "an answer is built whole before it is written: 10^5 take seconds and about 160 MB, 10^6 took 30 s and 1.5 GB",
    ),
    int(
        "snapshot",
        "schedulables (all lines of a jsonl input)",
        0,
        1_000_000,
        "every line's answer is built before the first is written",
    ),
    f64_range(
        "sls synth",
        "mean task count of a task entry (`count`, `mtasks_avg`, `rtasks_avg`)",
        0.0,
        MAX_TASKS_PER_DRAW,
        "tasks of one job; a draw in the tail is cut to this",
    ),
    f64_range(
        "sls synth",
        "mean task time of a task entry (`time`, `mtime_avg`, `rtime_avg`)",
        0.0,
        MAX_TIME_MS as f64,
        TIME,
    ),
    f64_range(
        "sls synth",
        "mean task memory and vcores of a task entry (`max_memory`, `max_vcores`)",
        0.0,
        JAVA_INT_MAX as f64,
        "Hadoop 2.7 keeps them in a Java int; a draw in the tail is cut to it",
    ),
    int(
        "recorded.csv",
        "submit_ms, am_allocated_ms, launch_ms, finish_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    int(
        "apps.csv (check replay)",
        "wait_ms, jct_ms",
        0,
        MAX_TIME_MS,
        TIME,
    ),
    f64_range(
        "sls synth",
        "expected tasks of a run (`num_jobs` times a job's mean tasks)",
        0.0,
        MAX_EXPECTED_TASKS,
        "each drawn task is held until it runs",
    ),
    f32_range("fair-scheduler.xml", "weight", 0.0, F32_MAX, JAVA_FLOAT),
    int(
        "fair-scheduler.xml",
        "queues (<queue> and <pool> elements)",
        0,
        MAX_QUEUES,
        "real clusters have hundreds; a run holds each queue's state",
    ),
    f32_range(
        "capacity-scheduler.xml",
        "user-limit-factor",
        0.0,
        F32_MAX,
        JAVA_FLOAT,
    ),
    f32_range(
        "capacity-scheduler.xml",
        "minimum-user-limit-percent",
        1.0,
        100.0,
        "a percentage: hadoop-3.3 reads a Java float, hadoop-2.7 a Java int (a decimal fails its start-up)",
    ),
    f32_range(
        "capacity-scheduler.xml",
        "maximum-am-resource-percent",
        0.0,
        F32_MAX,
        JAVA_FLOAT,
    ),
    int(
        "run",
        "estimated memory (bytes)",
        0,
        MAX_RUN_MEMORY_BYTES,
        "what one run may hold: 2,560 bytes an app, 384 a task group, 64 and its name twice a host hint, 512 a node, kept samples; traces are priced as read and SYNTH draws as drawn, before the apps are made",
    ),
    int(
        "run",
        "queues.csv rows",
        0,
        MAX_QUEUE_ROWS,
        "queues times sample times up to end_ms: about 6 to 10 GB of queues.csv, streamed to disk",
    ),
];

/// The row of `key` in `format`.
///
/// # Panics
/// If the table has no such row: a programming error, caught by every test that parses.
pub fn limit(format: &str, key: &str) -> &'static Limit {
    LIMITS
        .iter()
        .find(|l| l.format == format && l.key == key)
        .unwrap_or_else(|| panic!("no limit for {format} {key}"))
}

impl Limit {
    /// The range as people read it (`1 to 100000`).
    pub fn describe(&self) -> String {
        match self.range {
            Range::Int { min, max } => format!("{min} to {max}"),
            Range::Float32 { min, max } | Range::Float64 { min, max } => {
                let kind = if matches!(self.range, Range::Float32 { .. }) {
                    "a finite 32-bit float"
                } else {
                    "a finite number"
                };
                format!("{kind} from {} to {}", fmt_bound(min), fmt_bound(max))
            }
        }
    }

    /// `v` if it lies in an integer range, else the message naming the value and the limit.
    pub fn check_int(&self, v: i128) -> Result<i128, String> {
        let Range::Int { min, max } = self.range else {
            return self.check_float(v as f64).map(|_| v);
        };
        if v < min as i128 || v > max as i128 {
            return Err(self.out_of_range(&v.to_string()));
        }
        Ok(v)
    }

    /// `v` if it is finite (as an `f32` where Hadoop stores a float) and in range.
    pub fn check_float(&self, v: f64) -> Result<f64, String> {
        let (min, max) = match self.range {
            Range::Int { min, max } => {
                if v.fract() != 0.0 || !v.is_finite() {
                    return Err(self.out_of_range(&fmt_value(v)));
                }
                (min as f64, max as f64)
            }
            Range::Float32 { min, max } => {
                if !(v as f32).is_finite() {
                    return Err(format!(
                        "{} is not a finite 32-bit float (Hadoop stores it as a Java float); the limit is {}",
                        fmt_value(v),
                        self.describe()
                    ));
                }
                (min, max)
            }
            Range::Float64 { min, max } => (min, max),
        };
        if !(v >= min && v <= max) {
            return Err(self.out_of_range(&fmt_value(v)));
        }
        Ok(v)
    }

    fn out_of_range(&self, value: &str) -> String {
        format!("{value} is out of range: the limit is {}", self.describe())
    }
}

/// A value as a person wrote it: `1e39`, not forty digits.
fn fmt_value(v: f64) -> String {
    if v != 0.0 && (v.abs() >= 1e16 || v.abs() < 1e-4) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn fmt_bound(v: f64) -> String {
    if v == F32_MAX {
        "3.4e38".into()
    } else if v == -F32_MAX {
        "-3.4e38".into()
    } else if v.abs() >= 1e16 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

/// The markdown table of [`LIMITS`] that `docs/limits.md` holds.
pub fn markdown_table() -> String {
    let mut out = String::from("| input | key | valid values | why |\n| --- | --- | --- | --- |\n");
    for l in LIMITS {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            l.format,
            l.key,
            l.describe(),
            l.why
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_checked_as_java_floats() {
        let w = limit("fair-scheduler.xml", "weight");
        assert_eq!(w.check_float(1e38), Ok(1e38));
        let e = w.check_float(1e39).unwrap_err();
        assert!(e.starts_with("1e39 is not a finite 32-bit float"), "{e}");
        assert!(w.check_float(f64::NAN).is_err());
        assert!(w.check_float(-0.5).is_err());
    }

    #[test]
    fn integers_name_value_and_limit() {
        let n = limit("scenario", "cluster.nodes");
        assert_eq!(n.check_int(100_000), Ok(100_000));
        assert_eq!(
            n.check_int(100_001).unwrap_err(),
            "100001 is out of range: the limit is 1 to 100000"
        );
        assert!(n.check_int(0).is_err());
        assert!(n.check_float(1.5).is_err());
    }

    #[test]
    fn every_key_is_listed_once() {
        for (i, a) in LIMITS.iter().enumerate() {
            for b in &LIMITS[i + 1..] {
                assert!(
                    !(a.format == b.format && a.key == b.key),
                    "{} {}",
                    a.format,
                    a.key
                );
            }
        }
    }
}
