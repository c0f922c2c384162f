//! A saved ResourceManager REST bundle (`/ws/v1/cluster/nodes` and `/ws/v1/cluster/apps`,
//! JSON as Hadoop 3.3 writes it) into fairsim's inputs: the nodes as `[[cluster.nodes]]`
//! entries and the apps open at the snapshot as a native CSV trace arriving at time 0.
//!
//! Nodes (`NodeInfo`): capability = `usedMemoryMB + availMemoryMB` and `usedVirtualCores +
//! availableVirtualCores`, rack as given; nodes not `RUNNING` are left out and counted, as
//! the scheduler holds no resources of theirs.
//!
//! Apps (`AppInfo`) in state `RUNNING` or `ACCEPTED` (other states are history, counted):
//! the REST API gives no container run times, so the start state is an assumption, named in
//! the report: every app arrives at 0 asking its running containers again
//! (`runningContainers` of `allocatedMB / runningContainers` each, at priority 0 so they are
//! placed before any pending ask; the AM among them, as the API does not tell its size) plus
//! its pending `resourceRequests` at `*` at their own priorities, each container running
//! the caller's [`Remaining`]. The containers are placed by the simulated scheduler, not on the nodes
//! that hold them. An app without `resourceRequests` is refused (its demand cannot
//! be known), naming it.

use serde_json::Value;
use std::fmt::Write as _;

/// How long an open app's containers run from the snapshot: the REST API does not say, so
/// the caller chooses, and the scenario names the choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Remaining {
    /// Every container runs this many ms.
    Fixed(u64),
    /// An app's containers run as long as the app has run so far (`elapsedTime`): an app
    /// half-way through its life, on average, for a steady stream of apps.
    Elapsed,
    /// Each group of an app's containers runs an exponential draw of this mean (ms), from
    /// the workload stream of `seed` (`workload::synthetic::workload_rng`), one draw per row
    /// in the response's order.
    Exponential {
        /// The mean, ms.
        mean_ms: u64,
        /// The stream's seed.
        seed: u64,
    },
}

impl std::fmt::Display for Remaining {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Remaining::Fixed(ms) => write!(f, "every container runs {ms} ms from the snapshot"),
            Remaining::Elapsed => write!(
                f,
                "each app's containers run as long as it has run (elapsedTime)"
            ),
            Remaining::Exponential { mean_ms, seed } => write!(
                f,
                "each container group runs an exponential draw of mean {mean_ms} ms (seed {seed})"
            ),
        }
    }
}

impl std::str::FromStr for Remaining {
    type Err = String;
    /// `fixed:MS`, `elapsed` or `exp:MEAN_MS` (the seed is given apart).
    fn from_str(s: &str) -> Result<Remaining, String> {
        let ms = |v: &str| {
            v.parse::<u64>()
                .ok()
                .filter(|x| *x <= crate::limits::MAX_TIME_MS)
                .ok_or_else(|| {
                    format!(
                        "`{v}` is not a whole number of ms up to {}",
                        crate::limits::MAX_TIME_MS
                    )
                })
        };
        match s.split_once(':') {
            None if s == "elapsed" => Ok(Remaining::Elapsed),
            Some(("fixed", v)) => Ok(Remaining::Fixed(ms(v)?)),
            Some(("exp", v)) => Ok(Remaining::Exponential {
                mean_ms: ms(v)?,
                seed: 1,
            }),
            _ => Err(format!("`{s}`: give fixed:MS, elapsed or exp:MEAN_MS")),
        }
    }
}

/// One node as `[[cluster.nodes]]` takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeEntry {
    /// Host name.
    pub name: String,
    /// Rack, without the leading `/`.
    pub rack: String,
    /// Capability, MB.
    pub memory_mb: i64,
    /// Capability, vcores.
    pub vcores: i64,
}

fn num(v: &Value, key: &str, at: &str, file: &str) -> Result<i64, String> {
    v.get(key)
        .and_then(Value::as_i64)
        .filter(|x| *x >= 0)
        .ok_or_else(|| format!("{file}: {at}.{key}: missing or not a non-negative integer"))
}

fn text<'a>(v: &'a Value, key: &str, at: &str, file: &str) -> Result<&'a str, String> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("{file}: {at}.{key}: missing or not a string"))
}

/// The list under `outer.inner` (`nodes.node`, `apps.app`); `null` (no items) is empty.
fn list<'a>(v: &'a Value, outer: &str, inner: &str, file: &str) -> Result<Vec<&'a Value>, String> {
    match v.get(outer) {
        Some(Value::Null) => Ok(Vec::new()),
        Some(o) => match o.get(inner) {
            Some(Value::Array(a)) => Ok(a.iter().collect()),
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(_) => Err(format!("{file}: `{outer}.{inner}` is not a list")),
        },
        None => Err(format!(
            "{file}: no `{outer}`: not a /ws/v1/cluster/{outer} response"
        )),
    }
}

/// The running nodes, and how many were left out (not `RUNNING`).
pub fn read_nodes(v: &Value, file: &str) -> Result<(Vec<NodeEntry>, usize), String> {
    let mut out = Vec::new();
    let mut skipped = 0;
    for (i, n) in list(v, "nodes", "node", file)?.into_iter().enumerate() {
        let at = format!("nodes.node[{i}]");
        if text(n, "state", &at, file)? != "RUNNING" {
            skipped += 1;
            continue;
        }
        let name = text(n, "nodeHostName", &at, file)?.to_string();
        let rack = text(n, "rack", &at, file)?
            .trim_start_matches('/')
            .to_string();
        out.push(NodeEntry {
            name,
            rack,
            memory_mb: num(n, "usedMemoryMB", &at, file)? + num(n, "availMemoryMB", &at, file)?,
            vcores: num(n, "usedVirtualCores", &at, file)?
                + num(n, "availableVirtualCores", &at, file)?,
        });
    }
    Ok((out, skipped))
}

/// The open apps as a native CSV trace (every app at time 0, its containers running as
/// `remaining` says), how many apps it holds and how many were left out (finished states).
pub fn open_apps_trace(
    v: &Value,
    file: &str,
    remaining: Remaining,
) -> Result<(String, usize, usize), String> {
    let mut rng = match remaining {
        Remaining::Exponential { seed, .. } => Some(crate::workload::synthetic::workload_rng(seed)),
        _ => None,
    };
    let mut csv = crate::workload::csv::CSV_COLUMNS.join(",");
    csv.push('\n');
    let (mut n, mut skipped) = (0, 0);
    for (i, a) in list(v, "apps", "app", file)?.into_iter().enumerate() {
        let at = format!("apps.app[{i}]");
        let state = text(a, "state", &at, file)?;
        if state != "RUNNING" && state != "ACCEPTED" {
            skipped += 1;
            continue;
        }
        let id = text(a, "id", &at, file)?;
        let (user, queue) = (text(a, "user", &at, file)?, text(a, "queue", &at, file)?);
        let running = num(a, "runningContainers", &at, file)?;
        let (mb, vc) = (
            num(a, "allocatedMB", &at, file)?,
            num(a, "allocatedVCores", &at, file)?,
        );
        let requests = match a.get("resourceRequests") {
            Some(Value::Array(r)) => r,
            _ => {
                return Err(format!(
                    "{file}: {at} ({id}): no `resourceRequests`: its pending demand is unknown \
                     (Hadoop writes them from 2.7; the response may have been filtered)"
                ));
            }
        };
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let head = format!("{},0,{},{},0,0,0", quote(id), quote(queue), quote(user));
        let elapsed = a
            .get("elapsedTime")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .max(0) as u64;
        let mut draw = || -> u64 {
            match (remaining, rng.as_mut()) {
                (Remaining::Fixed(ms), _) => ms,
                (Remaining::Elapsed, _) => elapsed.min(crate::limits::MAX_TIME_MS),
                (Remaining::Exponential { mean_ms, .. }, Some(r)) => {
                    let u = crate::workload::synthetic::uniform(r);
                    ((-(mean_ms as f64) * u.ln()).round() as u64).min(crate::limits::MAX_TIME_MS)
                }
                (Remaining::Exponential { mean_ms, .. }, None) => mean_ms,
            }
        };
        let mut rows = 0;
        if running > 0 {
            let _ = writeln!(
                csv,
                "{head},{running},{},{},{},0,",
                mb / running,
                vc / running,
                draw()
            );
            rows += 1;
        }
        for (k, r) in requests.iter().enumerate() {
            let rat = format!("{at}.resourceRequests[{k}]");
            if r.get("resourceName")
                .and_then(Value::as_str)
                .is_some_and(|s| s != "*")
            {
                continue;
            }
            let count = num(r, "numContainers", &rat, file)?;
            if count == 0 {
                continue;
            }
            let cap = r
                .get("capability")
                .ok_or_else(|| format!("{file}: {rat}.capability: missing"))?;
            let prio = r
                .get("priority")
                .and_then(|p| p.get("priority").and_then(Value::as_i64).or(p.as_i64()))
                .unwrap_or(20);
            let (mb, vc) = (
                num(cap, "memory", &rat, file)?,
                num(cap, "vCores", &rat, file)?,
            );
            let _ = writeln!(csv, "{head},{count},{mb},{vc},{},{prio},", draw());
            rows += 1;
        }
        if rows == 0 {
            let _ = writeln!(csv, "{head},0,0,0,0,20,");
        }
        n += 1;
    }
    Ok((csv, n, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_capability_is_used_plus_available() {
        let v: Value = serde_json::from_str(
            r#"{"nodes":{"node":[
              {"rack":"/r1","state":"RUNNING","nodeHostName":"h1","usedMemoryMB":3072,"availMemoryMB":5120,"usedVirtualCores":3,"availableVirtualCores":5},
              {"rack":"/r1","state":"LOST","nodeHostName":"h2","usedMemoryMB":0,"availMemoryMB":8192,"usedVirtualCores":0,"availableVirtualCores":8}]}}"#,
        )
        .unwrap();
        let (nodes, skipped) = read_nodes(&v, "nodes.json").unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(
            nodes,
            vec![NodeEntry {
                name: "h1".into(),
                rack: "r1".into(),
                memory_mb: 8192,
                vcores: 8
            }]
        );
    }

    #[test]
    fn open_apps_ask_again_what_they_hold_and_what_they_wait_for() {
        let v: Value = serde_json::from_str(
            r#"{"apps":{"app":[
              {"id":"application_1_0001","user":"u","queue":"root.a","state":"RUNNING","runningContainers":3,"allocatedMB":3072,"allocatedVCores":3,
               "resourceRequests":[{"capability":{"memory":2048,"vCores":1},"numContainers":4,"priority":{"priority":20},"resourceName":"*"},
                                   {"capability":{"memory":2048,"vCores":1},"numContainers":4,"priority":{"priority":20},"resourceName":"h1"}]},
              {"id":"application_1_0002","user":"u","queue":"root.b","state":"FINISHED","runningContainers":0,"allocatedMB":0,"allocatedVCores":0}]}}"#,
        )
        .unwrap();
        let (csv, n, skipped) = open_apps_trace(&v, "apps.json", Remaining::Fixed(60_000)).unwrap();
        assert_eq!((n, skipped), (1, 1));
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        assert_eq!(
            rows,
            [
                "application_1_0001,0,root.a,u,0,0,0,3,1024,1,60000,0,",
                "application_1_0001,0,root.a,u,0,0,0,4,2048,1,60000,20,"
            ]
        );
        let no_requests: Value = serde_json::from_str(
            r#"{"apps":{"app":[{"id":"application_1_0003","user":"u","queue":"root.a","state":"RUNNING","runningContainers":1,"allocatedMB":1024,"allocatedVCores":1}]}}"#,
        )
        .unwrap();
        let e = open_apps_trace(&no_requests, "apps.json", Remaining::Elapsed).unwrap_err();
        assert!(
            e.starts_with("apps.json: apps.app[0] (application_1_0003): no `resourceRequests`"),
            "{e}"
        );
    }
}

#[cfg(test)]
mod remaining_tests {
    use super::*;

    #[test]
    fn each_assumption_gives_its_run_times() {
        let v: Value = serde_json::from_str(
            r#"{"apps":{"app":[{"id":"application_1_0001","user":"u","queue":"root.a","state":"RUNNING","elapsedTime":120000,"runningContainers":2,"allocatedMB":2048,"allocatedVCores":2,"resourceRequests":[]}]}}"#,
        )
        .unwrap();
        let dur = |r: Remaining| -> u64 {
            let (csv, _, _) = open_apps_trace(&v, "apps.json", r).unwrap();
            csv.lines()
                .nth(1)
                .unwrap()
                .split(',')
                .nth(10)
                .unwrap()
                .parse()
                .unwrap()
        };
        assert_eq!(dur("fixed:5000".parse().unwrap()), 5000);
        assert_eq!(dur("elapsed".parse().unwrap()), 120_000);
        // The exponential's draw: -mean ln(u) with u the stream's first uniform.
        let u =
            crate::workload::synthetic::uniform(&mut crate::workload::synthetic::workload_rng(7));
        let exp = Remaining::Exponential {
            mean_ms: 60_000,
            seed: 7,
        };
        assert_eq!(dur(exp), (-60_000.0 * u.ln()).round() as u64);
        assert_eq!(dur(exp), dur(exp));
        assert_ne!(
            dur(exp),
            dur(Remaining::Exponential {
                mean_ms: 60_000,
                seed: 8
            })
        );
        assert!("fixed:x".parse::<Remaining>().is_err());
        assert!("soon".parse::<Remaining>().is_err());
    }
}
