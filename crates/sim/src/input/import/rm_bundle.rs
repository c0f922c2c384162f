//! A saved ResourceManager REST bundle (`/ws/v1/cluster/nodes` and `/ws/v1/cluster/apps`,
//! JSON as Hadoop 3.3 writes it) into fairsim's inputs: the nodes as `[[cluster.nodes]]`
//! entries, the apps open at the snapshot as a native CSV trace arriving at time 0, and the
//! containers the running ones hold as a start state (`start.csv`, `input::start_state`).
//!
//! Nodes (`NodeInfo`): capability = `usedMemoryMB + availMemoryMB` and `usedVirtualCores +
//! availableVirtualCores`, rack as given; nodes not `RUNNING` are left out and counted, as
//! the scheduler holds no resources of theirs.
//!
//! Apps (`AppInfo`) in state `RUNNING` or `ACCEPTED` (other states are history, counted).
//! The API gives an app's total allocation and its number of running containers, not each
//! container's size or node: a running app's containers are taken as alike
//! (`allocatedMB / runningContainers` each, truncated, counted when uneven), its AM one of
//! them. They are placed on the nodes by filling each node's reported usage, in the
//! response's order: the AM first, on its `amHostHttpAddress` node when that node's usage
//! has room, else on the first node whose remaining usage fits it, then the other
//! containers first fit; a container no node's usage has room for goes to the first node
//! with free space (counted). The REST API gives no remaining run times, so the start state
//! is an assumption, named in the report: each app's held tasks run the caller's
//! [`Remaining`], its AM until its last task ends. Pending `resourceRequests` at `*` are
//! asked at their own priorities (node and rack asks are the same containers' locality);
//! an app not running yet asks its priority-0 request as its AM. An app without
//! `resourceRequests` is refused (its demand cannot be known), naming it.

use crate::json_lines::JsonFault;
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
    /// Reported usage, MB (`usedMemoryMB`).
    pub used_memory_mb: i64,
    /// Reported usage, vcores (`usedVirtualCores`).
    pub used_vcores: i64,
}

fn num(v: &Value, key: &str, at: &str) -> Result<i64, JsonFault> {
    v.get(key)
        .and_then(Value::as_i64)
        .filter(|x| *x >= 0)
        .ok_or_else(|| {
            JsonFault::field(
                format!("{at}.{key}"),
                "missing or not a non-negative integer",
            )
        })
}

/// `key` of `v` as [`num`] reads it, held to the limit of the native CSV trace's `column`,
/// where the import writes it: a trace its own reader would refuse is refused here, naming
/// the response's field.
fn num_within(v: &Value, key: &str, at: &str, column: &str) -> Result<i64, JsonFault> {
    let x = num(v, key, at)?;
    crate::limits::limit("csv trace", column)
        .check_int(i128::from(x))
        .map_err(|e| JsonFault::field(format!("{at}.{key}"), e))?;
    Ok(x)
}

fn text<'a>(v: &'a Value, key: &str, at: &str) -> Result<&'a str, JsonFault> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| JsonFault::field(format!("{at}.{key}"), "missing or not a string"))
}

/// The list under `outer.inner` (`nodes.node`, `apps.app`); `null` (no items) is empty.
fn list<'a>(v: &'a Value, outer: &str, inner: &str) -> Result<Vec<&'a Value>, JsonFault> {
    match v.get(outer) {
        Some(Value::Null) => Ok(Vec::new()),
        Some(o) => match o.get(inner) {
            Some(Value::Array(a)) => Ok(a.iter().collect()),
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(_) => Err(JsonFault::new(
                format!("{outer}.{inner}"),
                format!("`{outer}.{inner}` is not a list"),
            )),
        },
        None => Err(JsonFault::new(
            outer,
            format!("no `{outer}`: not a /ws/v1/cluster/{outer} response"),
        )),
    }
}

/// The running nodes, and how many were left out (not `RUNNING`).
pub fn read_nodes(v: &Value) -> Result<(Vec<NodeEntry>, usize), JsonFault> {
    let mut out = Vec::new();
    let mut skipped = 0;
    for (i, n) in list(v, "nodes", "node")?.into_iter().enumerate() {
        let at = format!("nodes.node[{i}]");
        if text(n, "state", &at)? != "RUNNING" {
            skipped += 1;
            continue;
        }
        let name = text(n, "nodeHostName", &at)?.to_string();
        let rack = text(n, "rack", &at)?.trim_start_matches('/').to_string();
        let (used_mb, used_vc) = (
            num(n, "usedMemoryMB", &at)?,
            num(n, "usedVirtualCores", &at)?,
        );
        out.push(NodeEntry {
            name,
            rack,
            memory_mb: used_mb + num(n, "availMemoryMB", &at)?,
            vcores: used_vc + num(n, "availableVirtualCores", &at)?,
            used_memory_mb: used_mb,
            used_vcores: used_vc,
        });
    }
    Ok((out, skipped))
}

/// What [`open_apps`] made of an apps response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpenApps {
    /// The open apps as a native CSV trace, all arriving at 0.
    pub trace: String,
    /// `start.csv`: the containers the running apps hold, node by node.
    pub start: String,
    /// Open apps (`RUNNING` or `ACCEPTED`).
    pub apps: usize,
    /// Apps in other states, left out.
    pub skipped: usize,
    /// Apps whose containers are placed in the start state.
    pub warm: usize,
    /// Containers placed.
    pub containers: u64,
    /// Containers placed past their node's reported usage (no node's usage had room).
    pub beyond_usage: u64,
    /// Apps whose allocation is not a whole multiple of their running containers (sizes
    /// truncated).
    pub uneven: usize,
    /// AMs not placed on their `amHostHttpAddress` node (unknown there, or no room).
    pub am_elsewhere: usize,
    /// Apps in a queue the allocation file lacks: they arrive at 0 and ask again what
    /// they hold, placement deciding (the Fair Scheduler creates the queue when its rules
    /// allow, the Capacity Scheduler rejects the app).
    pub unknown_queue: usize,
    /// Priority-0 asks of apps whose AM runs (a next attempt's AM), set aside.
    pub am_asks_dropped: usize,
}

/// Where the running apps' containers go: each node's reported usage is a budget the
/// containers fill, first fit in the response's order, an AM first on its own node.
struct Placer {
    budget: Vec<(i64, i64)>,
    free: Vec<(i64, i64)>,
}

impl Placer {
    fn new(nodes: &[NodeEntry]) -> Placer {
        Placer {
            budget: nodes
                .iter()
                .map(|n| (n.used_memory_mb, n.used_vcores))
                .collect(),
            free: nodes.iter().map(|n| (n.memory_mb, n.vcores)).collect(),
        }
    }

    /// The node for one container of `size`, and whether it went past the node's usage.
    fn place(&mut self, size: (i64, i64), preferred: Option<usize>) -> Option<(usize, bool)> {
        let fits = |r: (i64, i64)| size.0 <= r.0 && size.1 <= r.1;
        let within = preferred
            .filter(|&n| fits(self.budget[n]))
            .or_else(|| (0..self.budget.len()).find(|&n| fits(self.budget[n])));
        let (n, beyond) = match within {
            Some(n) => (n, false),
            None => ((0..self.free.len()).find(|&n| fits(self.free[n]))?, true),
        };
        let take = |r: &mut (i64, i64)| {
            r.0 = (r.0 - size.0).max(0);
            r.1 = (r.1 - size.1).max(0);
        };
        take(&mut self.budget[n]);
        take(&mut self.free[n]);
        Some((n, beyond))
    }
}

/// The open apps as a native CSV trace and a start state: every app arrives at 0; a
/// running app's AM and other containers (`runningContainers` of `allocatedMB /
/// runningContainers` each: the API gives no sizes per container) are held on the nodes
/// `Placer` picks, the others running as `remaining` says; its pending `resourceRequests`
/// at `*` are asked at their own priorities. An app not yet running asks its AM (its
/// priority-0 ask) and the rest. `known_queue` tells the queues of the allocation file.
pub fn open_apps(
    v: &Value,
    remaining: Remaining,
    nodes: &[NodeEntry],
    known_queue: &dyn Fn(&str) -> bool,
) -> Result<OpenApps, JsonFault> {
    let mut rng = match remaining {
        Remaining::Exponential { seed, .. } => Some(crate::workload::synthetic::workload_rng(seed)),
        _ => None,
    };
    let mut out = OpenApps {
        trace: crate::workload::csv::CSV_COLUMNS.join(",") + "\n",
        start: crate::start_state::START_COLUMNS.join(",") + "\n",
        ..OpenApps::default()
    };
    let mut placer = Placer::new(nodes);
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    for (i, a) in list(v, "apps", "app")?.into_iter().enumerate() {
        let at = format!("apps.app[{i}]");
        let state = text(a, "state", &at)?;
        if state != "RUNNING" && state != "ACCEPTED" {
            out.skipped += 1;
            continue;
        }
        let id = text(a, "id", &at)?;
        let (user, queue) = (text(a, "user", &at)?, text(a, "queue", &at)?);
        let running = num_within(a, "runningContainers", &at, "count")?;
        let (mb, vc) = (num(a, "allocatedMB", &at)?, num(a, "allocatedVCores", &at)?);
        let Some(Value::Array(requests)) = a.get("resourceRequests") else {
            return Err(JsonFault::new(
                format!("{at}.resourceRequests"),
                format!(
                    "{at} ({id}): no `resourceRequests`: its pending demand is unknown \
                     (Hadoop writes them from 2.7; the response may have been filtered)"
                ),
            ));
        };
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
        // The pending asks at `*`: (priority, count, MB, vcores).
        let mut asks = Vec::new();
        for (k, r) in requests.iter().enumerate() {
            let rat = format!("{at}.resourceRequests[{k}]");
            if r.get("resourceName")
                .and_then(Value::as_str)
                .is_some_and(|s| s != "*")
            {
                continue;
            }
            let count = num_within(r, "numContainers", &rat, "count")?;
            if count == 0 {
                continue;
            }
            let cap = r
                .get("capability")
                .ok_or_else(|| JsonFault::field(format!("{rat}.capability"), "missing"))?;
            let cat = format!("{rat}.capability");
            let prio = r
                .get("priority")
                .and_then(|p| p.get("priority").and_then(Value::as_i64).or(p.as_i64()))
                .unwrap_or(20);
            let prio = i32::try_from(prio).map_err(|_| {
                JsonFault::field(
                    format!("{rat}.priority"),
                    format!("`{prio}` is not a Java int"),
                )
            })?;
            asks.push((
                prio,
                count,
                num_within(cap, "memory", &cat, "memory_mb")?,
                num_within(cap, "vCores", &cat, "vcores")?,
            ));
        }
        let held = running > 0;
        let am = if held {
            if mb % running != 0 || vc % running != 0 {
                out.uneven += 1;
            }
            let am_asks = asks.iter().filter(|x| x.0 == 0).count();
            out.am_asks_dropped += am_asks;
            asks.retain(|x| x.0 != 0);
            let each = (mb / running, vc / running);
            for (key, v, column) in [
                ("allocatedMB", each.0, "am_memory_mb"),
                ("allocatedVCores", each.1, "am_vcores"),
            ] {
                crate::limits::limit("csv trace", column)
                    .check_int(i128::from(v))
                    .map_err(|e| {
                        JsonFault::field(
                            format!("{at}.{key}"),
                            format!("each of its {running} containers: {e}"),
                        )
                    })?;
            }
            Some(each)
        } else {
            // Not running yet: its priority-0 ask is its AM.
            let pos = asks.iter().position(|x| x.0 == 0);
            pos.map(|p| {
                let x = asks.remove(p);
                if x.1 > 1 {
                    out.am_asks_dropped += 1;
                }
                (x.2, x.3)
            })
        };
        let (am_mb, am_vc) = am.unwrap_or((0, 0));
        let head = format!(
            "{},0,{},{},{am_mb},{am_vc},0",
            quote(id),
            quote(queue),
            quote(user)
        );
        // Held tasks run at the smallest priority from 1 their pending asks leave free.
        let held_prio = (1..).find(|p| asks.iter().all(|x| x.0 != *p)).unwrap_or(1);
        let mut rows = 0;
        let tasks = running.saturating_sub(1);
        if held && tasks > 0 {
            let (tmb, tvc) = am.unwrap_or((0, 0));
            let _ = writeln!(
                out.trace,
                "{head},{tasks},{tmb},{tvc},{},{held_prio},",
                draw()
            );
            rows += 1;
        }
        for (prio, count, mb, vc) in &asks {
            let _ = writeln!(out.trace, "{head},{count},{mb},{vc},{},{prio},", draw());
            rows += 1;
        }
        if rows == 0 {
            let _ = writeln!(out.trace, "{head},0,0,0,0,20,");
        }
        out.apps += 1;
        if !held {
            continue;
        }
        if !known_queue(queue) {
            out.unknown_queue += 1;
            continue;
        }
        let size = am.unwrap_or((0, 0));
        let am_host = a
            .get("amHostHttpAddress")
            .and_then(Value::as_str)
            .map(|h| h.split(':').next().unwrap_or(h));
        let preferred = am_host.and_then(|h| nodes.iter().position(|n| n.name == h));
        let no_room = || {
            JsonFault::new(
                at.clone(),
                format!(
                    "{at} ({id}): its {running} containers of {} MB, {} vcores do not fit \
                     the RUNNING nodes' free space",
                    size.0, size.1
                ),
            )
        };
        let (n, beyond) = placer.place(size, preferred).ok_or_else(no_room)?;
        if preferred != Some(n) {
            out.am_elsewhere += 1;
        }
        out.beyond_usage += u64::from(beyond);
        let _ = writeln!(out.start, "{},{},0,1", quote(id), quote(&nodes[n].name));
        let mut per_node: Vec<u32> = vec![0; nodes.len()];
        for _ in 0..tasks {
            let (n, beyond) = placer.place(size, None).ok_or_else(no_room)?;
            out.beyond_usage += u64::from(beyond);
            per_node[n] += 1;
        }
        for (n, c) in per_node.iter().enumerate().filter(|(_, c)| **c > 0) {
            let _ = writeln!(
                out.start,
                "{},{},{held_prio},{c}",
                quote(id),
                quote(&nodes[n].name)
            );
        }
        out.warm += 1;
        out.containers += running as u64;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, cap: i64, used: i64) -> NodeEntry {
        NodeEntry {
            name: name.into(),
            rack: "r1".into(),
            memory_mb: cap,
            vcores: cap / 1024,
            used_memory_mb: used,
            used_vcores: used / 1024,
        }
    }

    #[test]
    fn nodes_capability_is_used_plus_available() {
        let v: Value = serde_json::from_str(
            r#"{"nodes":{"node":[
              {"rack":"/r1","state":"RUNNING","nodeHostName":"h1","usedMemoryMB":3072,"availMemoryMB":5120,"usedVirtualCores":3,"availableVirtualCores":5},
              {"rack":"/r1","state":"LOST","nodeHostName":"h2","usedMemoryMB":0,"availMemoryMB":8192,"usedVirtualCores":0,"availableVirtualCores":8}]}}"#,
        )
        .unwrap();
        let (nodes, skipped) = read_nodes(&v).unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(nodes, vec![node("h1", 8192, 3072)]);
    }

    const APPS: &str = r#"{"apps":{"app":[
      {"id":"application_1_0001","user":"u","queue":"root.a","state":"RUNNING","runningContainers":3,"allocatedMB":3072,"allocatedVCores":3,"elapsedTime":120000,"amHostHttpAddress":"h2:8042",
       "resourceRequests":[{"capability":{"memory":2048,"vCores":1},"numContainers":4,"priority":{"priority":1},"resourceName":"*"},
                           {"capability":{"memory":2048,"vCores":1},"numContainers":4,"priority":{"priority":1},"resourceName":"h1"}]},
      {"id":"application_1_0002","user":"v","queue":"root.b","state":"ACCEPTED","runningContainers":0,"allocatedMB":0,"allocatedVCores":0,
       "resourceRequests":[{"capability":{"memory":1536,"vCores":1},"numContainers":1,"priority":{"priority":0},"resourceName":"*"}]},
      {"id":"application_1_0003","user":"u","queue":"root.b","state":"FINISHED","runningContainers":0,"allocatedMB":0,"allocatedVCores":0}]}}"#;

    #[test]
    fn running_apps_hold_their_containers_and_ask_what_they_wait_for() {
        let v: Value = serde_json::from_str(APPS).unwrap();
        // h1's usage has room for two of the three 1024 MB containers, h2's for one: the
        // AM goes to its own node h2, its two tasks to h1.
        let nodes = [node("h1", 8192, 2048), node("h2", 8192, 1024)];
        let o = open_apps(&v, Remaining::Fixed(60_000), &nodes, &|_| true).unwrap();
        assert_eq!((o.apps, o.skipped, o.warm, o.containers), (2, 1, 1, 3));
        assert_eq!((o.beyond_usage, o.uneven, o.am_elsewhere), (0, 0, 0));
        let rows: Vec<&str> = o.trace.lines().skip(1).collect();
        assert_eq!(
            rows,
            [
                // Held tasks at priority 2, the pending asks taking 1.
                "application_1_0001,0,root.a,u,1024,1,0,2,1024,1,60000,2,",
                "application_1_0001,0,root.a,u,1024,1,0,4,2048,1,60000,1,",
                // Not running: its priority-0 ask is its AM, nothing else asked.
                "application_1_0002,0,root.b,v,1536,1,0,0,0,0,0,20,",
            ]
        );
        let start: Vec<&str> = o.start.lines().collect();
        assert_eq!(
            start,
            [
                "app,node,priority,containers",
                "application_1_0001,h2,0,1",
                "application_1_0001,h1,2,2"
            ]
        );
        // No usage reported anywhere: every container past it, first fit by free space.
        let idle = [node("h1", 2048, 0), node("h2", 8192, 0)];
        let o = open_apps(&v, Remaining::Fixed(1), &idle, &|_| true).unwrap();
        assert_eq!((o.beyond_usage, o.am_elsewhere), (3, 1));
        assert_eq!(
            o.start.lines().skip(1).collect::<Vec<_>>(),
            [
                "application_1_0001,h1,0,1",
                "application_1_0001,h1,2,1",
                "application_1_0001,h2,2,1"
            ]
        );
        // A queue the allocation file lacks: asked again, not held.
        let o = open_apps(&v, Remaining::Fixed(1), &nodes, &|q| q != "root.a").unwrap();
        assert_eq!((o.warm, o.unknown_queue), (0, 1));
        assert_eq!(o.start.lines().count(), 1);
        // No room at all.
        let tiny = [node("h1", 1024, 0)];
        let e = open_apps(&v, Remaining::Fixed(1), &tiny, &|_| true).unwrap_err();
        assert_eq!(
            e.at("apps.json", APPS.as_bytes()),
            "apps.json:2: apps.app[0] (application_1_0001): its 3 containers of 1024 MB, 1 vcores do not fit the RUNNING nodes' free space"
        );
    }

    #[test]
    fn an_app_without_resource_requests_is_refused() {
        let text = r#"{"apps":{"app":[
            {"id":"application_1_0003","user":"u","queue":"root.a","state":"RUNNING",
             "runningContainers":1,"allocatedMB":1024,"allocatedVCores":1}]}}"#;
        let no_requests: Value = serde_json::from_str(text).unwrap();
        let e = open_apps(&no_requests, Remaining::Elapsed, &[], &|_| true).unwrap_err();
        // The app lacks the key: the line its object starts on.
        let e = e.at("apps.json", text.as_bytes());
        assert!(
            e.starts_with("apps.json:2: apps.app[0] (application_1_0003): no `resourceRequests`"),
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
            r#"{"apps":{"app":[{"id":"application_1_0001","user":"u","queue":"root.a","state":"RUNNING","elapsedTime":120000,"runningContainers":3,"allocatedMB":3072,"allocatedVCores":3,"resourceRequests":[]}]}}"#,
        )
        .unwrap();
        let nodes = [NodeEntry {
            name: "h1".into(),
            rack: "r".into(),
            memory_mb: 8192,
            vcores: 8,
            used_memory_mb: 3072,
            used_vcores: 3,
        }];
        let dur = |r: Remaining| -> u64 {
            let o = open_apps(&v, r, &nodes, &|_| true).unwrap();
            o.trace
                .lines()
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
