//! The ResourceManager's `/ws/v1/cluster/scheduler` response (JSON) for the Capacity
//! Scheduler: the queue tree with each queue's absolute capacities and effective resources
//! as the RM computed them, each leaf's usage, user settings and users with the limit the RM
//! last gave them.
//!
//! Shapes read (Hadoop's `CapacitySchedulerInfo`, `CapacitySchedulerQueueInfo`,
//! `CapacitySchedulerLeafQueueInfo`, `UserInfo`, `QueueCapacitiesInfo`, `ResourceInfo`
//! DAOs): `schedulerInfo` is the root (`capacity`, `maxCapacity` in percent, `queues.queue`
//! its children, leaves listed before parents); a queue's percentages are `absoluteCapacity`
//! and `absoluteMaxCapacity`; 3.x adds `queuePath` (else the path is the parent's and
//! `queueName`), the effective resources per partition (`capacities.queueCapacitiesByPartition`,
//! the default partition's `effectiveMinResource` and `effectiveMaxResource`, also written as
//! the queue's `minEffectiveCapacity` / `maxEffectiveCapacity`) and each user's `isActive`.
//! A leaf's `userLimit` is its minimum-user-limit-percent, `userLimitFactor` its
//! user-limit-factor, `users.user` its users (`resourcesUsed`, `numActiveApplications`,
//! `userResourceLimit`).
//!
//! Fields an older release does not write are left `None` and counted in
//! [`RmCapacityScheduler::missing`]: without `isActive` (Hadoop 2.x) a user with active apps
//! is taken as active, as the RM's active-users manager counts users with apps asking; without
//! effective resources there is nothing of the RM's to compare them with.

use super::rm_scheduler::{At, resource};
use crate::json_lines::JsonFault;
use fairsim_core::Resource;
use serde_json::Value;
use std::collections::BTreeMap;

/// One user of a leaf as the RM reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct RmUser {
    /// `username`.
    pub name: String,
    /// `resourcesUsed`.
    pub used: Resource,
    /// `isActive` (3.x), else `numActiveApplications` > 0.
    pub active: bool,
    /// `userResourceLimit`: the limit the RM computed at this user's last allocation
    /// attempt (0 when it has made none).
    pub limit: Option<Resource>,
    /// `userWeight` (3.x; 1 when absent).
    pub weight: f64,
}

/// One queue as the RM reports it.
#[derive(Debug, Clone, PartialEq)]
pub struct RmCsQueue {
    /// Full path (`root.a.b`).
    pub path: String,
    /// No child queues.
    pub leaf: bool,
    /// `absoluteCapacity`, percent of the cluster (root: `capacity`).
    pub absolute_capacity: Option<f64>,
    /// `absoluteMaxCapacity`, percent (root: `maxCapacity`).
    pub absolute_max_capacity: Option<f64>,
    /// The default partition's effective minimum resource.
    pub effective_min: Option<Resource>,
    /// The default partition's effective maximum resource.
    pub effective_max: Option<Resource>,
    /// `resourcesUsed`.
    pub used: Option<Resource>,
    /// `userLimit` (minimum-user-limit-percent), leaves.
    pub minimum_user_limit_percent: Option<f64>,
    /// `userLimitFactor`, leaves.
    pub user_limit_factor: Option<f64>,
    /// `numActiveApplications`, leaves.
    pub active_apps: Option<i64>,
    /// The leaf's users.
    pub users: Vec<RmUser>,
}

/// A Capacity Scheduler response.
#[derive(Debug, Clone, PartialEq)]
pub struct RmCapacityScheduler {
    /// The root's effective minimum resource: the cluster (3.x; `None` before).
    pub cluster: Option<Resource>,
    /// Every queue, root first, parents before their children, siblings in the response's
    /// order.
    pub queues: Vec<RmCsQueue>,
    /// Fields absent from the response (an older release), with how many queues or users
    /// lacked each.
    pub missing: BTreeMap<&'static str, usize>,
}

fn float(v: &Value, key: &str, at: &At) -> Result<Option<f64>, JsonFault> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => x
            .as_f64()
            .map(Some)
            .ok_or_else(|| at.fault(&format!(".{key}"), "not a number")),
    }
}

/// The default partition's entry of `capacities.queueCapacitiesByPartition`, with its path
/// below the queue as written.
fn default_partition(q: &Value) -> Option<(&Value, String)> {
    const LIST: &str = ".capacities.queueCapacitiesByPartition";
    match q.pointer("/capacities/queueCapacitiesByPartition") {
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .find(|(_, p)| {
                p.get("partitionName")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
            })
            .map(|(i, p)| (p, format!("{LIST}[{i}]"))),
        Some(one @ Value::Object(_)) => Some((one, LIST.to_string())),
        _ => None,
    }
}

fn effective(
    q: &Value,
    partition_key: &str,
    queue_key: &str,
    at: &At,
) -> Result<Option<Resource>, JsonFault> {
    if let Some((p, json)) = default_partition(q)
        && let Some(r) = resource(p, partition_key, &at.child(".capacities", &json))?
    {
        return Ok(Some(r));
    }
    resource(q, queue_key, at)
}

/// The elements of the one-or-many list `key.inner` of `v` (`queues.queue`, `users.user`),
/// each with its path below `v` as written (a lone object is not indexed).
fn one_or_many<'v>(v: &'v Value, key: &str, inner: &str) -> Option<Vec<(&'v Value, String)>> {
    match v.get(key)?.get(inner)? {
        Value::Array(a) => Some(
            a.iter()
                .enumerate()
                .map(|(i, c)| (c, format!(".{key}.{inner}[{i}]")))
                .collect(),
        ),
        one @ Value::Object(_) => Some(vec![(one, format!(".{key}.{inner}"))]),
        _ => None,
    }
}

fn children<'v>(q: &'v Value, at: &At) -> Result<Vec<(&'v Value, String)>, JsonFault> {
    match q.get("queues") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(o)) => match o.get("queue") {
            Some(Value::Array(_) | Value::Object(_)) => {
                Ok(one_or_many(q, "queues", "queue").unwrap_or_default())
            }
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(_) => Err(at.fault(".queues.queue", "not a list of queues")),
        },
        Some(_) => Err(at.fault(".queues", "not an object")),
    }
}

/// Reads a Capacity Scheduler response.
pub fn read_capacity(v: &Value) -> Result<RmCapacityScheduler, JsonFault> {
    let info = v
        .pointer("/scheduler/schedulerInfo")
        .ok_or_else(|| JsonFault::new("scheduler.schedulerInfo", "no `scheduler.schedulerInfo`"))?;
    let mut out = RmCapacityScheduler {
        cluster: None,
        queues: Vec::new(),
        missing: BTreeMap::new(),
    };
    let at = At::new("schedulerInfo", "scheduler.schedulerInfo");
    let name = info
        .get("queueName")
        .and_then(Value::as_str)
        .unwrap_or("root")
        .to_string();
    let min = effective(info, "effectiveMinResource", "minEffectiveCapacity", &at)?;
    let max = effective(info, "effectiveMaxResource", "maxEffectiveCapacity", &at)?;
    if min.is_none() {
        *out.missing.entry("effectiveMinResource").or_default() += 1;
    }
    out.cluster = min;
    let kids = children(info, &at)?;
    out.queues.push(RmCsQueue {
        path: name.clone(),
        leaf: kids.is_empty(),
        absolute_capacity: float(info, "capacity", &at)?,
        absolute_max_capacity: float(info, "maxCapacity", &at)?,
        effective_min: min,
        effective_max: max,
        used: None,
        minimum_user_limit_percent: None,
        user_limit_factor: None,
        active_apps: None,
        users: Vec::new(),
    });
    for (i, (c, json)) in kids.into_iter().enumerate() {
        let child = at.child(&format!(".queues.queue[{i}]"), &json);
        walk(c, &name, &child, &mut out)?;
    }
    Ok(out)
}

fn walk(q: &Value, parent: &str, at: &At, out: &mut RmCapacityScheduler) -> Result<(), JsonFault> {
    let name = q
        .get("queueName")
        .and_then(Value::as_str)
        .ok_or_else(|| at.no("queueName"))?;
    let path = match q.get("queuePath").and_then(Value::as_str) {
        Some(p) => p.to_string(),
        None => {
            *out.missing.entry("queuePath").or_default() += 1;
            format!("{parent}.{name}")
        }
    };
    let kids = children(q, at)?;
    let min = effective(q, "effectiveMinResource", "minEffectiveCapacity", at)?;
    let max = effective(q, "effectiveMaxResource", "maxEffectiveCapacity", at)?;
    if min.is_none() {
        *out.missing.entry("effectiveMinResource").or_default() += 1;
    }
    let leaf = kids.is_empty();
    let mut users = Vec::new();
    if leaf {
        let list = one_or_many(q, "users", "user").unwrap_or_default();
        for (k, (u, json)) in list.into_iter().enumerate() {
            let uat = at.child(&format!(".users.user[{k}]"), &json);
            let uname = u
                .get("username")
                .and_then(Value::as_str)
                .ok_or_else(|| uat.no("username"))?;
            let active = match u.get("isActive").and_then(Value::as_bool) {
                Some(a) => a,
                None => {
                    *out.missing.entry("isActive").or_default() += 1;
                    u.get("numActiveApplications")
                        .and_then(Value::as_i64)
                        .unwrap_or(0)
                        > 0
                }
            };
            users.push(RmUser {
                name: uname.to_string(),
                used: resource(u, "resourcesUsed", &uat)?.unwrap_or(Resource::ZERO),
                active,
                limit: resource(u, "userResourceLimit", &uat)?,
                weight: float(u, "userWeight", &uat)?.unwrap_or(1.0),
            });
        }
    }
    out.queues.push(RmCsQueue {
        path: path.clone(),
        leaf,
        absolute_capacity: float(q, "absoluteCapacity", at)?,
        absolute_max_capacity: float(q, "absoluteMaxCapacity", at)?,
        effective_min: min,
        effective_max: max,
        used: resource(q, "resourcesUsed", at)?,
        minimum_user_limit_percent: float(q, "userLimit", at)?,
        user_limit_factor: float(q, "userLimitFactor", at)?,
        active_apps: q.get("numActiveApplications").and_then(Value::as_i64),
        users,
    });
    for (i, (c, json)) in kids.into_iter().enumerate() {
        walk(
            c,
            &path,
            &at.child(&format!(".queues.queue[{i}]"), &json),
            out,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_effective_resources_and_users_are_read_per_era() {
        // A 3.x leaf (queuePath, partitions, isActive) beside a 2.x one (none of them).
        let v: Value = serde_json::from_str(
            r#"{"scheduler":{"schedulerInfo":{"type":"capacityScheduler","capacity":100.0,"maxCapacity":100.0,"queueName":"root",
              "capacities":{"queueCapacitiesByPartition":[{"partitionName":"","effectiveMinResource":{"memory":8192,"vCores":8},"effectiveMaxResource":{"memory":8192,"vCores":8}}]},
              "queues":{"queue":[
                {"type":"capacitySchedulerLeafQueueInfo","queuePath":"root.a","queueName":"a","absoluteCapacity":25.0,"absoluteMaxCapacity":50.0,
                 "capacities":{"queueCapacitiesByPartition":[{"partitionName":"x","effectiveMinResource":{"memory":1,"vCores":1}},
                                                            {"partitionName":"","effectiveMinResource":{"memory":2048,"vCores":2},"effectiveMaxResource":{"memory":4096,"vCores":4}}]},
                 "resourcesUsed":{"memory":1024,"vCores":1},"userLimit":100.0,"userLimitFactor":1.0,"numActiveApplications":1,
                 "users":{"user":[{"username":"u","resourcesUsed":{"memory":1024,"vCores":1},"numActiveApplications":1,"isActive":true,"userResourceLimit":{"memory":2048,"vCores":2}}]}},
                {"queueName":"b","absoluteCapacity":75.0,"absoluteMaxCapacity":100.0,"resourcesUsed":{"memory":0,"vCores":0},
                 "users":{"user":[{"username":"v","resourcesUsed":{"memory":0,"vCores":0},"numActiveApplications":1}]}}]}}}}"#,
        )
        .unwrap();
        let r = read_capacity(&v).unwrap();
        assert_eq!(r.cluster, Some(Resource::new(8192, 8)));
        let names: Vec<&str> = r.queues.iter().map(|q| q.path.as_str()).collect();
        assert_eq!(names, ["root", "root.a", "root.b"]);
        let a = &r.queues[1];
        assert_eq!(a.effective_min, Some(Resource::new(2048, 2)));
        assert_eq!(a.effective_max, Some(Resource::new(4096, 4)));
        assert_eq!(a.users[0].limit, Some(Resource::new(2048, 2)));
        assert!(a.users[0].active);
        let b = &r.queues[2];
        assert_eq!(b.effective_min, None);
        assert!(b.users[0].active, "active apps stand in for isActive");
        assert_eq!(r.missing.get("queuePath"), Some(&1));
        assert_eq!(r.missing.get("isActive"), Some(&1));
        assert_eq!(r.missing.get("effectiveMinResource"), Some(&1));
    }

    #[test]
    fn a_percentage_that_is_not_a_number_is_refused_at_its_line() {
        let text = r#"{"scheduler":{"schedulerInfo":{"type":"capacityScheduler","queueName":"root",
  "queues":{"queue":[{"queueName":"a","absoluteCapacity":10},
    {"queueName":"b",
     "absoluteCapacity":"x"}]}}}}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        let e = read_capacity(&v).unwrap_err();
        assert_eq!(
            e.at("s.json", text.as_bytes()),
            "s.json:4: schedulerInfo.queues.queue[1].absoluteCapacity: not a number"
        );
    }

    #[test]
    fn a_lone_queue_and_a_lone_user_are_found_unindexed() {
        // Jackson writes a one-element list as the element itself: the messages still index
        // it, the line is found where it is written.
        let text = r#"{"scheduler":{"schedulerInfo":{"type":"capacityScheduler","queueName":"root",
  "queues":{"queue":{"queueName":"a",
    "users":{"user":{"username":"u",
      "resourcesUsed":{"memory":-1,"vCores":1}}}}}}}}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        let e = read_capacity(&v).unwrap_err();
        assert_eq!(
            e.at("s.json", text.as_bytes()),
            "s.json:4: schedulerInfo.queues.queue[0].users.user[0].resourcesUsed.memory: not a non-negative integer"
        );
        // A user without a name: the line its object starts on.
        let text = text.replace(r#""username":"u","#, "");
        let v: Value = serde_json::from_str(&text).unwrap();
        let e = read_capacity(&v).unwrap_err();
        assert_eq!(
            e.at("s.json", text.as_bytes()),
            "s.json:3: schedulerInfo.queues.queue[0].users.user[0]: no `username`"
        );
    }

    #[test]
    fn the_default_partitions_resources_are_found_in_the_partition_list() {
        let text = r#"{"scheduler":{"schedulerInfo":{"type":"capacityScheduler","queueName":"root",
  "capacities":{"queueCapacitiesByPartition":[
    {"partitionName":"x","effectiveMinResource":{"memory":1,"vCores":1}},
    {"partitionName":"","effectiveMinResource":
       {"memory":1.5,"vCores":1}}]}}}}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        let e = read_capacity(&v).unwrap_err();
        assert_eq!(
            e.at("s.json", text.as_bytes()),
            "s.json:5: schedulerInfo.capacities.effectiveMinResource.memory: not a non-negative integer"
        );
    }
}
