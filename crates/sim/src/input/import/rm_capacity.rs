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

use super::rm_scheduler::resource;
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

fn float(v: &Value, key: &str, at: &str, file: &str) -> Result<Option<f64>, String> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(x) => x
            .as_f64()
            .map(Some)
            .ok_or_else(|| format!("{file}: {at}.{key}: not a number")),
    }
}

/// The default partition's entry of `capacities.queueCapacitiesByPartition`.
fn default_partition(q: &Value) -> Option<&Value> {
    match q.pointer("/capacities/queueCapacitiesByPartition") {
        Some(Value::Array(a)) => a.iter().find(|p| {
            p.get("partitionName")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
        }),
        Some(one @ Value::Object(_)) => Some(one),
        _ => None,
    }
}

fn effective(
    q: &Value,
    partition_key: &str,
    queue_key: &str,
    at: &str,
    file: &str,
) -> Result<Option<Resource>, String> {
    if let Some(p) = default_partition(q)
        && let Some(r) = resource(p, partition_key, &format!("{at}.capacities"), file)?
    {
        return Ok(Some(r));
    }
    resource(q, queue_key, at, file)
}

fn children(q: &Value, at: &str, file: &str) -> Result<Vec<Value>, String> {
    match q.get("queues") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(o)) => match o.get("queue") {
            Some(Value::Array(a)) => Ok(a.clone()),
            Some(one @ Value::Object(_)) => Ok(vec![one.clone()]),
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(_) => Err(format!("{file}: {at}.queues.queue: not a list of queues")),
        },
        Some(_) => Err(format!("{file}: {at}.queues: not an object")),
    }
}

/// Reads a Capacity Scheduler response.
pub fn read_capacity(v: &Value, file: &str) -> Result<RmCapacityScheduler, String> {
    let info = v
        .pointer("/scheduler/schedulerInfo")
        .ok_or_else(|| format!("{file}: no `scheduler.schedulerInfo`"))?;
    let mut out = RmCapacityScheduler {
        cluster: None,
        queues: Vec::new(),
        missing: BTreeMap::new(),
    };
    let at = "schedulerInfo";
    let name = info
        .get("queueName")
        .and_then(Value::as_str)
        .unwrap_or("root")
        .to_string();
    let min = effective(
        info,
        "effectiveMinResource",
        "minEffectiveCapacity",
        at,
        file,
    )?;
    let max = effective(
        info,
        "effectiveMaxResource",
        "maxEffectiveCapacity",
        at,
        file,
    )?;
    if min.is_none() {
        *out.missing.entry("effectiveMinResource").or_default() += 1;
    }
    out.cluster = min;
    let kids = children(info, at, file)?;
    out.queues.push(RmCsQueue {
        path: name.clone(),
        leaf: kids.is_empty(),
        absolute_capacity: float(info, "capacity", at, file)?,
        absolute_max_capacity: float(info, "maxCapacity", at, file)?,
        effective_min: min,
        effective_max: max,
        used: None,
        minimum_user_limit_percent: None,
        user_limit_factor: None,
        active_apps: None,
        users: Vec::new(),
    });
    for (i, c) in kids.iter().enumerate() {
        walk(c, &name, &format!("{at}.queues.queue[{i}]"), file, &mut out)?;
    }
    Ok(out)
}

fn walk(
    q: &Value,
    parent: &str,
    at: &str,
    file: &str,
    out: &mut RmCapacityScheduler,
) -> Result<(), String> {
    let name = q
        .get("queueName")
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{file}: {at}: no `queueName`"))?;
    let path = match q.get("queuePath").and_then(Value::as_str) {
        Some(p) => p.to_string(),
        None => {
            *out.missing.entry("queuePath").or_default() += 1;
            format!("{parent}.{name}")
        }
    };
    let kids = children(q, at, file)?;
    let min = effective(q, "effectiveMinResource", "minEffectiveCapacity", at, file)?;
    let max = effective(q, "effectiveMaxResource", "maxEffectiveCapacity", at, file)?;
    if min.is_none() {
        *out.missing.entry("effectiveMinResource").or_default() += 1;
    }
    let leaf = kids.is_empty();
    let mut users = Vec::new();
    if leaf {
        let list = match q.pointer("/users/user") {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(one @ Value::Object(_)) => vec![one],
            _ => Vec::new(),
        };
        for (k, u) in list.into_iter().enumerate() {
            let uat = format!("{at}.users.user[{k}]");
            let uname = u
                .get("username")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("{file}: {uat}: no `username`"))?;
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
                used: resource(u, "resourcesUsed", &uat, file)?.unwrap_or(Resource::ZERO),
                active,
                limit: resource(u, "userResourceLimit", &uat, file)?,
                weight: float(u, "userWeight", &uat, file)?.unwrap_or(1.0),
            });
        }
    }
    out.queues.push(RmCsQueue {
        path: path.clone(),
        leaf,
        absolute_capacity: float(q, "absoluteCapacity", at, file)?,
        absolute_max_capacity: float(q, "absoluteMaxCapacity", at, file)?,
        effective_min: min,
        effective_max: max,
        used: resource(q, "resourcesUsed", at, file)?,
        minimum_user_limit_percent: float(q, "userLimit", at, file)?,
        user_limit_factor: float(q, "userLimitFactor", at, file)?,
        active_apps: q.get("numActiveApplications").and_then(Value::as_i64),
        users,
    });
    for (i, c) in kids.iter().enumerate() {
        walk(c, &path, &format!("{at}.queues.queue[{i}]"), file, out)?;
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
        let r = read_capacity(&v, "s.json").unwrap();
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
    fn a_percentage_that_is_not_a_number_is_refused() {
        let v: Value = serde_json::from_str(
            r#"{"scheduler":{"schedulerInfo":{"type":"capacityScheduler","queueName":"root","queues":{"queue":[{"queueName":"a","absoluteCapacity":"x"}]}}}}"#,
        )
        .unwrap();
        let e = read_capacity(&v, "s.json").unwrap_err();
        assert_eq!(
            e,
            "s.json: schedulerInfo.queues.queue[0].absoluteCapacity: not a number"
        );
    }
}
