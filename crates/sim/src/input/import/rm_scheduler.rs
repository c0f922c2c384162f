//! The ResourceManager's `/ws/v1/cluster/scheduler` response (JSON) for the Fair Scheduler:
//! the queue tree with each queue's steady and instantaneous fair share as the RM computed
//! them, its demand, usage and active apps, and the cluster's size.
//!
//! Shapes read (Hadoop's `FairSchedulerInfo` and `FairSchedulerQueueInfo` DAOs): 3.x wraps a
//! queue's children as `"childQueues": {"queue": [...]}`, older releases write a bare array;
//! `demandResources` is 3.x only (without it a leaf's demand is taken as its usage, and the
//! reader says how many leaves that was); a resource is `{"memory": MB, "vCores": n}`, 3.x
//! adding `resourceInformations`, which is not read.

use fairsim_core::Resource;
use serde_json::Value;

/// Which scheduler wrote a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchedulerType {
    /// `fairScheduler`.
    Fair,
    /// `capacityScheduler`.
    Capacity,
    /// Any other `type` (`fifoScheduler`, ...).
    Other(String),
}

/// One queue as the RM reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RmQueue {
    /// Full name (`root.a.b`).
    pub name: String,
    /// No child queues.
    pub leaf: bool,
    /// `steadyFairResources`.
    pub steady: Option<Resource>,
    /// `fairResources`.
    pub fair: Option<Resource>,
    /// `demandResources`.
    pub demand: Option<Resource>,
    /// `usedResources`.
    pub used: Option<Resource>,
    /// `numActiveApps` (leaves).
    pub active_apps: Option<i64>,
}

/// A Fair Scheduler response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RmFairScheduler {
    /// The root's `clusterResources`.
    pub cluster: Resource,
    /// Every queue, root first, in the response's order (pre-order).
    pub queues: Vec<RmQueue>,
}

/// The `schedulerInfo.type` of a response, or why it is not a scheduler response.
pub fn scheduler_type(v: &Value, file: &str) -> Result<SchedulerType, String> {
    let info = v
        .get("scheduler")
        .and_then(|s| s.get("schedulerInfo"))
        .ok_or_else(|| {
            format!("{file}: no `scheduler.schedulerInfo`: not a /ws/v1/cluster/scheduler response")
        })?;
    Ok(match info.get("type").and_then(Value::as_str) {
        Some("fairScheduler") => SchedulerType::Fair,
        Some("capacityScheduler") => SchedulerType::Capacity,
        Some(other) => SchedulerType::Other(other.to_string()),
        None => {
            return Err(format!("{file}: `scheduler.schedulerInfo` has no `type`"));
        }
    })
}

/// Parses response text; a truncated or non-JSON file is refused with its line and column.
pub fn parse_json(text: &str, file: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| {
        format!(
            "{file}:{}:{}: not a complete JSON response ({e})",
            e.line(),
            e.column()
        )
    })
}

pub(crate) fn resource(
    q: &Value,
    key: &str,
    path: &str,
    file: &str,
) -> Result<Option<Resource>, String> {
    let Some(r) = q.get(key) else {
        return Ok(None);
    };
    let num = |k: &str| -> Result<i64, String> {
        r.get(k)
            .and_then(Value::as_i64)
            .filter(|v| *v >= 0)
            .ok_or_else(|| format!("{file}: {path}.{key}.{k}: not a non-negative integer"))
    };
    Ok(Some(Resource::new(num("memory")?, num("vCores")?)))
}

/// Reads a Fair Scheduler response.
pub fn read_fair(v: &Value, file: &str) -> Result<RmFairScheduler, String> {
    let root = v
        .pointer("/scheduler/schedulerInfo/rootQueue")
        .ok_or_else(|| format!("{file}: no `scheduler.schedulerInfo.rootQueue`"))?;
    let cluster = resource(root, "clusterResources", "rootQueue", file)?
        .ok_or_else(|| format!("{file}: rootQueue has no `clusterResources`"))?;
    let mut queues = Vec::new();
    walk(root, "rootQueue", file, &mut queues)?;
    Ok(RmFairScheduler { cluster, queues })
}

fn walk(q: &Value, path: &str, file: &str, out: &mut Vec<RmQueue>) -> Result<(), String> {
    let name = q
        .get("queueName")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{file}: {path}: no `queueName`"))?
        .to_string();
    let children: Vec<&Value> = match q.get("childQueues") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a.iter().collect(),
        Some(Value::Object(o)) => match o.get("queue") {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(one @ Value::Object(_)) => vec![one],
            _ => Vec::new(),
        },
        Some(_) => return Err(format!("{file}: {path}.childQueues: not a list of queues")),
    };
    out.push(RmQueue {
        leaf: children.is_empty(),
        steady: resource(q, "steadyFairResources", path, file)?,
        fair: resource(q, "fairResources", path, file)?,
        demand: resource(q, "demandResources", path, file)?,
        used: resource(q, "usedResources", path, file)?,
        active_apps: q.get("numActiveApps").and_then(Value::as_i64),
        name: name.clone(),
    });
    for (i, c) in children.into_iter().enumerate() {
        walk(c, &format!("{path}.childQueues[{i}]"), file, out)?;
    }
    Ok(())
}
