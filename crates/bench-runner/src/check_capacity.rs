//! `fairsim check rm` for a Capacity Scheduler cluster: every queue's absolute capacities,
//! effective minimum and maximum resources and each leaf's user limit, computed by fairsim
//! from the capacity-scheduler.xml on the RM's cluster, beside the RM's own numbers.

use fairsim_bench_runner::CliError;
use fairsim_core::{Resource, Semantics};
use fairsim_sim::capacity::Capacities;
use fairsim_sim::capacity::user_limit::{UserLimitInput, user_limit};
use fairsim_sim::import::rm_capacity::{RmCapacityScheduler, RmCsQueue};
use fairsim_sim::tree::QueueTree;
use std::fmt::Write as _;

/// A percentage agrees within this many points: the RM writes Java floats (its own web
/// service tests compare them to 1e-3).
const PERCENT_TOLERANCE: f64 = 1e-3;

/// What the comparison needs besides the two inputs.
pub struct CapacityCheck {
    /// The era.
    pub semantics: Semantics,
    /// `--cluster`, for responses without the root's effective resource (Hadoop 2.x).
    pub cluster: Option<Resource>,
    /// `yarn.scheduler.minimum-allocation-*`.
    pub minimum_allocation: Resource,
    /// A resource within this many MB (and vcores) of the RM's agrees.
    pub tolerance: i64,
}

fn pct(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

fn res(r: Resource) -> String {
    format!("{}/{}", r.memory_mb, r.vcores)
}

/// The limit fairsim computes for the leaf's active users from the RM's usage figures.
fn our_user_limit(
    tree: &QueueTree,
    caps: &Capacities,
    id: fairsim_sim::tree::QueueId,
    q: &RmCsQueue,
    c: &CapacityCheck,
) -> Resource {
    let conf = tree.get(id);
    let active: Vec<_> = q.users.iter().filter(|u| u.active).collect();
    let active_usage = active
        .iter()
        .fold(Resource::ZERO, |s, u| s.saturating_add(u.used));
    user_limit(&UserLimitInput {
        semantics: c.semantics,
        calc: tree.resource_calculator,
        cluster: caps.cluster,
        absolute_capacity: caps.absolute[id.idx()],
        // A snapshot holds no ask being placed: Hadoop 2.7's `required` is taken as the
        // minimum allocation, as 2.8 and later always use.
        required: c.minimum_allocation,
        queue_usage: q.used.unwrap_or(Resource::ZERO),
        active_users: active.len() as u32,
        active_users_usage: match c.semantics {
            Semantics::Hadoop27 => None,
            Semantics::Hadoop33 => Some(active_usage),
        },
        minimum_user_limit_percent: conf.minimum_user_limit_percent.unwrap_or(100.0),
        user_limit_factor: conf.user_limit_factor.unwrap_or(1.0),
        minimum_allocation: c.minimum_allocation,
        effective_capacity: Some(caps.guaranteed(id, caps.cluster)),
        effective_maximum: Some(caps.maximum(id, caps.cluster)),
    })
}

/// Compares and prints; `Err(Differs)` when any queue differs.
pub fn check(
    rm: &RmCapacityScheduler,
    file: &str,
    tree: &QueueTree,
    c: &CapacityCheck,
) -> Result<String, CliError> {
    let cluster = rm.cluster.or(c.cluster).ok_or_else(|| {
        CliError::Input(format!(
            "{file}: the response has no root effective resource (Hadoop 2.x): give the \
             cluster's size with --cluster MB,VCORES"
        ))
    })?;
    if !rm.missing.is_empty() {
        let list: Vec<String> = rm
            .missing
            .iter()
            .map(|(k, n)| format!("{k} ({n})"))
            .collect();
        eprintln!(
            "warning: fields an older release does not write, absent from {file}: {}",
            list.join(", ")
        );
    }
    let weighted = rm
        .queues
        .iter()
        .flat_map(|q| &q.users)
        .filter(|u| u.weight != 1.0)
        .count();
    if weighted > 0 {
        eprintln!(
            "warning: {weighted} users have a weight other than 1: fairsim's user limit \
             counts every active user once"
        );
    }
    let caps = Capacities::at(tree, cluster);
    let mut t = String::new();
    let _ = writeln!(
        t,
        "cluster {} MB, {} vcores; {}; capacities in % of the cluster, resources as MB/vcores; RM / fairsim",
        cluster.memory_mb, cluster.vcores, c.semantics
    );
    let _ = writeln!(
        t,
        "{:<20} {:<17} {:<17} {:<21} {:<23} {:<21} verdict",
        "queue", "abs capacity", "abs max capacity", "effective min", "effective max", "user limit"
    );
    let near_pct = |x: Option<f64>, y: f64| x.is_none_or(|x| (x - y).abs() <= PERCENT_TOLERANCE);
    let near = |x: Option<Resource>, y: Resource| {
        x.is_none_or(|x| {
            (x.memory_mb - y.memory_mb).abs() <= c.tolerance
                && (x.vcores - y.vcores).abs() <= c.tolerance
        })
    };
    let (mut differ, mut total, mut not_computed) = (0, 0, 0);
    for (i, conf) in tree.queues.iter().enumerate() {
        total += 1;
        let id = fairsim_sim::tree::QueueId(i as u32);
        let Some(q) = rm.queues.iter().find(|q| q.path == conf.name) else {
            differ += 1;
            let _ = writeln!(t, "{:<20} not in the RM", conf.name);
            continue;
        };
        let (abs, abs_max) = (caps.absolute[i] * 100.0, caps.absolute_max[i] * 100.0);
        let (min, max) = (caps.min[i], caps.max[i]);
        let mut agrees = near_pct(q.absolute_capacity, abs)
            && near_pct(q.absolute_max_capacity, abs_max)
            && near(q.effective_min, min)
            && near(q.effective_max, max);
        let mut limit_cell = "-".to_string();
        // A leaf in one and a parent in the other differs whatever the numbers.
        if q.leaf != conf.children.is_empty() {
            agrees = false;
        }
        if q.leaf && conf.children.is_empty() {
            // The leaf's own settings, as the RM reports them, must be the file's.
            let mulp = f64::from(conf.minimum_user_limit_percent.unwrap_or(100.0));
            let ulf = conf.user_limit_factor.unwrap_or(1.0);
            if !near_pct(q.minimum_user_limit_percent, mulp) || !near_pct(q.user_limit_factor, ulf)
            {
                agrees = false;
            }
            let rm_limits: Vec<Resource> = q
                .users
                .iter()
                .filter(|u| u.active)
                .filter_map(|u| u.limit)
                .collect();
            if !rm_limits.is_empty() {
                let ours = our_user_limit(tree, &caps, id, q, c);
                // The RM writes 0 for a user it has not yet computed a limit for (no
                // allocation attempted since the user became active): nothing to compare.
                let computed: Vec<Resource> = rm_limits
                    .iter()
                    .copied()
                    .filter(|r| *r != Resource::ZERO)
                    .collect();
                not_computed += rm_limits.len() - computed.len();
                let shown = computed.first().copied();
                if computed.iter().any(|r| !near(Some(*r), ours)) {
                    agrees = false;
                }
                limit_cell = format!(
                    "{} / {}",
                    shown.map_or("0 (none)".to_string(), res),
                    res(ours)
                );
            }
        }
        let cell_pct =
            |x: Option<f64>, y: f64| format!("{} / {}", x.map_or("-".into(), pct), pct(y));
        let cell = |x: Option<Resource>, y: Resource| {
            format!("{} / {}", x.map_or("-".into(), res), res(y))
        };
        if !agrees {
            differ += 1;
        }
        let _ = writeln!(
            t,
            "{:<20} {:<17} {:<17} {:<21} {:<23} {:<21} {}",
            conf.name,
            cell_pct(q.absolute_capacity, abs),
            cell_pct(q.absolute_max_capacity, abs_max),
            cell(q.effective_min, min),
            cell(q.effective_max, max),
            limit_cell,
            if agrees { "agrees" } else { "differs" }
        );
    }
    for q in &rm.queues {
        if tree.find(&q.path).is_none() {
            total += 1;
            differ += 1;
            let _ = writeln!(t, "{:<20} not in the capacity-scheduler.xml", q.path);
        }
    }
    if not_computed > 0 {
        eprintln!(
            "warning: {not_computed} active users whose userResourceLimit the RM has not \
             computed yet (0: no allocation attempted for them) are not compared"
        );
    }
    if differ > 0 {
        return Err(CliError::Differs {
            report: t,
            message: format!("{differ} of {total} queues differ from the RM's capacities"),
        });
    }
    let _ = writeln!(t, "all {total} queues agree with the RM's capacities");
    Ok(t)
}
