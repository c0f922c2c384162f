//! The ResourceManager's `/ws/v1/cluster/scheduler` response (JSON) for the Fair Scheduler:
//! the queue tree with each queue's steady and instantaneous fair share as the RM computed
//! them, its demand, usage and active apps, and the cluster's size.
//!
//! Shapes read (Hadoop's `FairSchedulerInfo` and `FairSchedulerQueueInfo` DAOs): 3.x wraps a
//! queue's children as `"childQueues": {"queue": [...]}`, older releases write a bare array;
//! `demandResources` is 3.x only (without it a leaf's demand is taken as its usage, and the
//! reader says how many leaves that was); a resource is `{"memory": MB, "vCores": n}`, 3.x
//! adding `resourceInformations`, which is not read.

use crate::json_lines::JsonFault;
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

/// Where a value of a response is: as messages name it (`rootQueue.childQueues[1]`, the path
/// of the queue tree whichever era's shape wrote it) and its path from the response's root
/// (`scheduler.schedulerInfo.rootQueue.childQueues.queue[1]`), to find its line.
#[derive(Debug, Clone)]
pub(crate) struct At {
    pub(crate) shown: String,
    pub(crate) json: String,
}

impl At {
    pub(crate) fn new(shown: &str, json: &str) -> At {
        At {
            shown: shown.to_string(),
            json: json.to_string(),
        }
    }

    /// The value below this one at `shown` (as named) and `json` (as written).
    pub(crate) fn child(&self, shown: &str, json: &str) -> At {
        At {
            shown: format!("{}{shown}", self.shown),
            json: format!("{}{json}", self.json),
        }
    }

    /// This object lacks `key`.
    pub(crate) fn no(&self, key: &str) -> JsonFault {
        JsonFault::new(
            format!("{}.{key}", self.json),
            format!("{}: no `{key}`", self.shown),
        )
    }

    /// A fault of the value `tail` below this one (`.clusterResources.memory`).
    pub(crate) fn fault(&self, tail: &str, what: impl std::fmt::Display) -> JsonFault {
        JsonFault::new(
            format!("{}{tail}", self.json),
            format!("{}{tail}: {what}", self.shown),
        )
    }
}

/// The `schedulerInfo.type` of a response, or why it is not a scheduler response.
pub fn scheduler_type(v: &Value) -> Result<SchedulerType, JsonFault> {
    let info = v
        .get("scheduler")
        .and_then(|s| s.get("schedulerInfo"))
        .ok_or_else(|| {
            JsonFault::new(
                "scheduler.schedulerInfo",
                "no `scheduler.schedulerInfo`: not a /ws/v1/cluster/scheduler response",
            )
        })?;
    Ok(match info.get("type").and_then(Value::as_str) {
        Some("fairScheduler") => SchedulerType::Fair,
        Some("capacityScheduler") => SchedulerType::Capacity,
        Some(other) => SchedulerType::Other(other.to_string()),
        None => {
            return Err(JsonFault::new(
                "scheduler.schedulerInfo.type",
                "`scheduler.schedulerInfo` has no `type`",
            ));
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

pub(crate) fn resource(q: &Value, key: &str, at: &At) -> Result<Option<Resource>, JsonFault> {
    let Some(r) = q.get(key) else {
        return Ok(None);
    };
    let num = |k: &str| -> Result<i64, JsonFault> {
        r.get(k)
            .and_then(Value::as_i64)
            .filter(|v| *v >= 0)
            .ok_or_else(|| at.fault(&format!(".{key}.{k}"), "not a non-negative integer"))
    };
    Ok(Some(Resource::new(num("memory")?, num("vCores")?)))
}

/// Reads a Fair Scheduler response.
pub fn read_fair(v: &Value) -> Result<RmFairScheduler, JsonFault> {
    let root = v
        .pointer("/scheduler/schedulerInfo/rootQueue")
        .ok_or_else(|| {
            JsonFault::new(
                "scheduler.schedulerInfo.rootQueue",
                "no `scheduler.schedulerInfo.rootQueue`",
            )
        })?;
    let at = At::new("rootQueue", "scheduler.schedulerInfo.rootQueue");
    let cluster = resource(root, "clusterResources", &at)?.ok_or_else(|| {
        JsonFault::new(
            format!("{}.clusterResources", at.json),
            "rootQueue has no `clusterResources`",
        )
    })?;
    let mut queues = Vec::new();
    walk(root, &at, &mut queues)?;
    Ok(RmFairScheduler { cluster, queues })
}

fn walk(q: &Value, at: &At, out: &mut Vec<RmQueue>) -> Result<(), JsonFault> {
    let name = q
        .get("queueName")
        .and_then(Value::as_str)
        .ok_or_else(|| at.no("queueName"))?
        .to_string();
    // Each child with its path as written: 3.x's `childQueues.queue[i]` (or one object
    // unlisted), older releases' bare `childQueues[i]`.
    let children: Vec<(&Value, String)> = match q.get("childQueues") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, c)| (c, format!(".childQueues[{i}]")))
            .collect(),
        Some(Value::Object(o)) => match o.get("queue") {
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(i, c)| (c, format!(".childQueues.queue[{i}]")))
                .collect(),
            Some(one @ Value::Object(_)) => vec![(one, ".childQueues.queue".to_string())],
            _ => Vec::new(),
        },
        Some(_) => return Err(at.fault(".childQueues", "not a list of queues")),
    };
    out.push(RmQueue {
        leaf: children.is_empty(),
        steady: resource(q, "steadyFairResources", at)?,
        fair: resource(q, "fairResources", at)?,
        demand: resource(q, "demandResources", at)?,
        used: resource(q, "usedResources", at)?,
        active_apps: q.get("numActiveApps").and_then(Value::as_i64),
        name: name.clone(),
    });
    for (i, (c, json)) in children.into_iter().enumerate() {
        walk(c, &at.child(&format!(".childQueues[{i}]"), &json), out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(text: &str) -> String {
        let v = parse_json(text, "s.json").unwrap();
        read_fair(&v).unwrap_err().at("s.json", text.as_bytes())
    }

    #[test]
    fn a_queues_fault_names_the_line_of_each_eras_shape() {
        // 3.x: children under `childQueues.queue`.
        let text = r#"{"scheduler":{"schedulerInfo":{"type":"fairScheduler","rootQueue":{
  "queueName":"root","clusterResources":{"memory":8192,"vCores":8},
  "childQueues":{"queue":[
    {"queueName":"root.a"},
    {"queueName":"root.b",
     "fairResources":{"memory":-5,"vCores":1}}]}}}}}"#;
        assert_eq!(
            fault(text),
            "s.json:6: rootQueue.childQueues[1].fairResources.memory: not a non-negative integer"
        );
        // 2.x: a bare list.
        let old = text
            .replace(r#"{"queue":["#, "[")
            .replace("}]}}}}}", "}]}}}}");
        assert_eq!(
            fault(&old),
            "s.json:6: rootQueue.childQueues[1].fairResources.memory: not a non-negative integer"
        );
        // A queue without a name: the line its object starts on.
        let unnamed = text.replace(r#""queueName":"root.b","#, "");
        assert_eq!(
            fault(&unnamed),
            "s.json:5: rootQueue.childQueues[1]: no `queueName`"
        );
    }

    #[test]
    fn a_response_of_another_kind_names_where_it_differs() {
        let v = parse_json("{\"scheduler\":\n {\"x\": 1}}", "s.json").unwrap();
        let e = scheduler_type(&v).unwrap_err();
        assert_eq!(
            e.at("s.json", &b"{\"scheduler\":\n {\"x\": 1}}"[..]),
            "s.json:2: no `scheduler.schedulerInfo`: not a /ws/v1/cluster/scheduler response"
        );
    }
}
