//! `fairsim shares` and `fairsim rank` on snapshots: the admin's "why does my queue get
//! nothing?" answered with YARN's own arithmetic.

use crate::input::read_input;
use crate::snapshot::{Snapshot, jsonl_lines, parse_snapshot};
use fairsim_bench_runner::CliError;
use fairsim_core::share::{policy_shares, policy_shares_exact};
use fairsim_core::{Comparator, Policy, Rounding, ShareCap, ShareKind};
use fairsim_sim::limits::limit;
use serde_json::json;
use std::fmt::Write as _;

/// Output format of the snapshot commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SnapshotFormat {
    /// A table for people (one snapshot).
    Table,
    /// One JSON answer for one snapshot.
    Json,
    /// One snapshot per input line, one JSON answer per output line, in input order.
    Jsonl,
}

/// Rounding as chosen on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum RoundingArg {
    /// Hadoop's doubling, 25 bisection steps and truncation.
    Hadoop,
    /// The exact real-valued water-filling answer.
    Exact,
}

/// What caps a fair share, as chosen on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CapArg {
    /// The max share only (YARN).
    MaxShare,
    /// min(max share, demand): demand-capped max-min fairness (not YARN).
    Demand,
}

/// Options of the snapshot form of `fairsim shares`.
#[derive(Debug, Clone, Copy)]
pub struct SharesOptions {
    /// Output format.
    pub format: SnapshotFormat,
    /// Hadoop's or exact arithmetic.
    pub rounding: Rounding,
    /// What caps a share.
    pub cap: ShareCap,
}

impl From<RoundingArg> for Rounding {
    fn from(r: RoundingArg) -> Rounding {
        match r {
            RoundingArg::Hadoop => Rounding::Hadoop,
            RoundingArg::Exact => Rounding::Exact,
        }
    }
}

impl From<CapArg> for ShareCap {
    fn from(c: CapArg) -> ShareCap {
        match c {
            CapArg::MaxShare => ShareCap::MaxShare,
            CapArg::Demand => ShareCap::Demand,
        }
    }
}

/// Reads every snapshot of the input before answering any: a bad line fails the whole
/// command and nothing is printed.
fn read_snapshots(input: &str, format: SnapshotFormat) -> Result<Vec<Snapshot>, CliError> {
    let text = read_input(input)?;
    let origin = if input == "-" { "<stdin>" } else { input };
    match format {
        SnapshotFormat::Jsonl => {
            // Every answer is built before the first is written: bound them all.
            let row = limit("snapshot", "schedulables (all lines of a jsonl input)");
            let mut total: i128 = 0;
            let mut out = Vec::new();
            for (line, l) in jsonl_lines(&text) {
                let s = parse_snapshot(l, origin, line)?;
                total += s.schedulables.len() as i128;
                row.check_int(total).map_err(|m| {
                    CliError::Input(format!("{origin}:{line}: schedulables: {m} in all lines"))
                })?;
                out.push(s);
            }
            Ok(out)
        }
        SnapshotFormat::Table | SnapshotFormat::Json => Ok(vec![parse_snapshot(&text, origin, 1)?]),
    }
}

/// One share as printed: integers under Hadoop's rounding, reals under the exact solver.
enum Share {
    Int(i64, i64),
    Real(f64, f64),
}

fn shares_of(s: &Snapshot, opts: SharesOptions) -> Vec<Share> {
    match opts.rounding {
        Rounding::Hadoop => policy_shares(
            s.semantics,
            s.policy,
            s.kind,
            &s.schedulables,
            s.cluster,
            opts.cap,
        )
        .into_iter()
        .map(|r| Share::Int(r.memory_mb, r.vcores))
        .collect(),
        Rounding::Exact => {
            policy_shares_exact(s.policy, s.kind, &s.schedulables, s.cluster, opts.cap)
                .into_iter()
                .map(|[m, v]| Share::Real(m, v))
                .collect()
        }
    }
}

fn shares_json(s: &Snapshot, opts: SharesOptions) -> serde_json::Value {
    let shares: Vec<_> = shares_of(s, opts)
        .into_iter()
        .zip(&s.schedulables)
        .enumerate()
        .map(|(index, (share, sched))| match share {
            Share::Int(m, v) => {
                json!({"index": index, "name": sched.name, "memory_mb": m, "vcores": v})
            }
            Share::Real(m, v) => {
                json!({"index": index, "name": sched.name, "memory_mb": m, "vcores": v})
            }
        })
        .collect();
    json!({ "shares": shares })
}

fn rank_json(s: &Snapshot) -> serde_json::Value {
    let order: Vec<_> = rank(s)
        .into_iter()
        .map(|(index, reason)| json!({"index": index, "name": s.schedulables[index].name, "reason": reason}))
        .collect();
    json!({ "order": order })
}

fn rank(s: &Snapshot) -> Vec<(usize, String)> {
    let c = Comparator::new(s.semantics, s.policy, s.cluster);
    c.rank(&s.schedulables)
        .into_iter()
        .map(|p| {
            let reason = match p.ahead_by {
                Some(d) => format!("{}; ahead of the next: {}", p.standing, d.describe()),
                None => p.standing,
            };
            (p.index, reason)
        })
        .collect()
}

fn fmt_limit(v: i64) -> String {
    if v == i64::MAX || v == i32::MAX as i64 {
        "-".into()
    } else {
        v.to_string()
    }
}

fn header(s: &Snapshot) -> String {
    let kind = match s.kind {
        ShareKind::Instantaneous => "instantaneous",
        ShareKind::Steady => "steady",
    };
    format!(
        "{} policy, {}, {} fair shares of {} MB / {} vcores\n",
        s.policy, s.semantics, kind, s.cluster.memory_mb, s.cluster.vcores
    )
}

fn shares_table(s: &Snapshot, opts: SharesOptions) -> String {
    let shares = shares_of(s, opts);
    let name_w = s
        .schedulables
        .iter()
        .map(|x| x.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut out = header(s);
    if s.policy == Policy::Fair {
        out.push_str("(the fair policy splits memory only; vcores are not computed)\n");
    }
    let _ = writeln!(
        out,
        "{:>3}  {:<name_w$}  {:>7}  {:>15}  {:>15}  {:>15}  {:>15}  {:>6}  {:>13}  {:>9}  {:>8}",
        "#",
        "name",
        "weight",
        "min MB/vc",
        "max MB/vc",
        "demand MB/vc",
        "usage MB/vc",
        "active",
        "share MB",
        "share vc",
        "% memory"
    );
    for (i, (sched, share)) in s.schedulables.iter().zip(&shares).enumerate() {
        let pair = |a: String, b: String| format!("{a}/{b}");
        let (m, v, mem) = match *share {
            Share::Int(m, v) => (m.to_string(), v.to_string(), m as f64),
            Share::Real(m, v) => (format!("{m:.3}"), format!("{v:.3}"), m),
        };
        let pct = if s.cluster.memory_mb > 0 {
            100.0 * mem / s.cluster.memory_mb as f64
        } else {
            0.0
        };
        let _ = writeln!(
            out,
            "{:>3}  {:<name_w$}  {:>7}  {:>15}  {:>15}  {:>15}  {:>15}  {:>6}  {:>13}  {:>9}  {:>7.2}%",
            i,
            sched.name,
            sched.weight,
            pair(
                sched.min_share.memory_mb.to_string(),
                sched.min_share.vcores.to_string()
            ),
            pair(
                fmt_limit(sched.max_share.memory_mb),
                fmt_limit(sched.max_share.vcores)
            ),
            pair(
                sched.demand.memory_mb.to_string(),
                sched.demand.vcores.to_string()
            ),
            pair(
                sched.usage.memory_mb.to_string(),
                sched.usage.vcores.to_string()
            ),
            if sched.active { "yes" } else { "no" },
            m,
            v,
            pct
        );
    }
    out
}

fn rank_table(s: &Snapshot) -> String {
    let mut out = header(s).replace("fair shares of", "order on");
    let name_w = s
        .schedulables
        .iter()
        .map(|x| x.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "{:>5}  {:>5}  {:<name_w$}  why",
        "place", "input", "name"
    );
    for (place, (index, reason)) in rank(s).into_iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>5}  {:>5}  {:<name_w$}  {}",
            place + 1,
            index,
            s.schedulables[index].name,
            reason
        );
    }
    out
}

/// `fairsim shares SNAPSHOT`: the fair share of each schedulable.
pub fn shares(input: &str, opts: SharesOptions) -> Result<String, CliError> {
    let snaps = read_snapshots(input, opts.format)?;
    Ok(match opts.format {
        SnapshotFormat::Table => shares_table(&snaps[0], opts),
        SnapshotFormat::Json | SnapshotFormat::Jsonl => snaps
            .iter()
            .map(|s| format!("{}\n", shares_json(s, opts)))
            .collect(),
    })
}

/// `fairsim rank SNAPSHOT`: the order in which the policy offers resources, with reasons.
pub fn rank_cmd(input: &str, format: SnapshotFormat) -> Result<String, CliError> {
    let snaps = read_snapshots(input, format)?;
    Ok(match format {
        SnapshotFormat::Table => rank_table(&snaps[0]),
        SnapshotFormat::Json | SnapshotFormat::Jsonl => snaps
            .iter()
            .map(|s| format!("{}\n", rank_json(s)))
            .collect(),
    })
}
