//! Applications: what a workload submits ([`AppSpec`]) and what the scheduler tracks of a
//! running one ([`RequestTable`], Hadoop's `AppSchedulingInfo`).
//!
//! An app has an optional AM container (the first container of a managed app, Hadoop's
//! ApplicationMaster) and one or more stages of task groups; a stage's requests are made when
//! the previous stage has finished (map then reduce). A managed app asks for its first stage
//! once its AM runs; an unmanaged app (no AM) asks at submission. The AM is released when the
//! last task finishes.

use crate::time::SimTime;
use fairsim_core::Resource;
use std::collections::{BTreeMap, VecDeque};

/// Priority of the AM request (MapReduce asks for its AM at priority 0).
pub const AM_PRIORITY: i32 = 0;

/// A group of identical tasks.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskGroup {
    /// Number of containers.
    pub count: u32,
    /// Size of each container.
    pub size: Resource,
    /// Run time of each container, in ms.
    pub duration_ms: u64,
    /// Request priority: a smaller number is served first.
    pub priority: i32,
    /// Preferred hosts (locality hints); empty for "anywhere".
    pub hosts: Vec<String>,
    /// YARN's `relaxLocality`: false asks for the hosts only, never their racks or anywhere
    /// (the ANY and rack requests carry relaxLocality = false, as `AMRMClient` builds them
    /// for a `ContainerRequest` with nodes and relaxLocality off). Requires hosts.
    pub relax_locality: bool,
}

/// One application as a workload describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct AppSpec {
    /// Name in outputs (the trace's job id, or `app_N`).
    pub name: String,
    /// Submission time.
    pub arrival: SimTime,
    /// Requested queue (as submitted; the placement policy decides).
    pub queue: String,
    /// Submitting user.
    pub user: String,
    /// AM container size; `None` for an unmanaged app.
    pub am: Option<Resource>,
    /// Stages of task groups, run one after the other.
    pub stages: Vec<Vec<TaskGroup>>,
    /// Times the trace recorded for this job on the real cluster (Rumen, SLS `job.end.ms`),
    /// compared with the simulated ones in `apps.csv` and the summary.
    pub recorded: Option<Recorded>,
}

/// A job's submission and finish as the trace recorded them, in ms on the trace's clock
/// (shifted like the arrival, so `start_ms` is the arrival).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recorded {
    /// Recorded submission.
    pub start_ms: u64,
    /// Recorded finish.
    pub finish_ms: u64,
}

impl Recorded {
    /// Recorded run time (submission to finish), ms.
    pub fn runtime_ms(&self) -> u64 {
        self.finish_ms.saturating_sub(self.start_ms)
    }
}

impl AppSpec {
    /// Every container size the app will ask for.
    pub fn sizes(&self) -> impl Iterator<Item = Resource> + '_ {
        self.am
            .into_iter()
            .chain(self.stages.iter().flatten().map(|g| g.size))
    }

    /// Run time on an empty cluster: the sum over stages of the longest task (the AM adds
    /// nothing: it runs alongside).
    pub fn alone_ms(&self) -> u64 {
        self.stages
            .iter()
            .map(|s| s.iter().map(|g| g.duration_ms).max().unwrap_or(0))
            .sum()
    }

    /// Number of task containers (the AM excluded).
    pub fn n_tasks(&self) -> u64 {
        self.stages.iter().flatten().map(|g| g.count as u64).sum()
    }
}

/// Locality of an allocation, and the allowed level of delay scheduling (`NodeType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Locality {
    /// On a requested node.
    NodeLocal,
    /// On a requested rack.
    RackLocal,
    /// Anywhere.
    OffSwitch,
}

impl Locality {
    /// Short name for outputs.
    pub fn name(self) -> &'static str {
        match self {
            Locality::NodeLocal => "node_local",
            Locality::RackLocal => "rack_local",
            Locality::OffSwitch => "off_switch",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Run {
    count: u32,
    duration_ms: u64,
    nodes: Vec<u32>,
    racks: Vec<u32>,
}

/// Outstanding requests at one priority (a `SchedulerRequestKey` with its ANY, rack and node
/// `ResourceRequest`s), plus its delay-scheduling state.
#[derive(Debug, Clone, PartialEq)]
pub struct PriorityRequests {
    /// The priority.
    pub priority: i32,
    /// Container size (one size per priority, as YARN assumes).
    pub size: Resource,
    /// Number of containers asked for anywhere (the ANY request).
    pub any: u32,
    /// Rack-level request counts.
    pub racks: BTreeMap<u32, u32>,
    /// Node-level request counts.
    pub nodes: BTreeMap<u32, u32>,
    /// Whether this is the AM request.
    pub is_am: bool,
    /// relaxLocality of the ANY and rack requests (the last ask at this priority decides, as
    /// a ResourceRequest update does in YARN; node requests always relax).
    pub relax_locality: bool,
    /// Scheduling opportunities missed since the last relaxation.
    pub opportunities: u32,
    /// Allowed locality level (`None` until first asked).
    pub allowed: Option<Locality>,
    /// Time-based delay scheduling: when the allowed level last changed (Hadoop's
    /// `lastScheduledContainer`), in ms; `None` until set.
    pub last_scheduled: Option<u64>,
    runs: VecDeque<Run>,
}

impl PriorityRequests {
    /// True when node- or rack-specific requests exist (`getResourceRequests(p).size() > 1`).
    pub fn has_local_requests(&self) -> bool {
        !self.racks.is_empty() || !self.nodes.is_empty()
    }

    /// `FSAppAttempt.hasContainerForNode`'s relaxLocality conditions for a node in `rack`: an
    /// ANY request that may not relax needs a rack request with containers there, and a rack
    /// request that may not relax needs a node request with containers on the node.
    pub fn locality_allows(&self, node: u32, rack: u32) -> bool {
        self.relax_locality
            || (self.rack_count(rack).unwrap_or(0) > 0 && self.node_count(node).unwrap_or(0) > 0)
    }

    /// Count of the rack request for `rack` (`None` when there is no such request).
    pub fn rack_count(&self, rack: u32) -> Option<u32> {
        self.racks.get(&rack).copied()
    }

    /// Count of the node request for `node`.
    pub fn node_count(&self, node: u32) -> Option<u32> {
        self.nodes.get(&node).copied()
    }

    /// Total containers asked at every locality level (Hadoop 2.7's demand counts them all).
    pub fn all_levels(&self) -> u64 {
        self.any as u64
            + self.racks.values().map(|&c| c as u64).sum::<u64>()
            + self.nodes.values().map(|&c| c as u64).sum::<u64>()
    }
}

/// A task taken from the request table for a new container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakenTask {
    /// Container size.
    pub size: Resource,
    /// Run time in ms.
    pub duration_ms: u64,
    /// Whether it is the AM.
    pub is_am: bool,
}

/// An app's outstanding requests, by ascending priority.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RequestTable {
    /// Per-priority requests, sorted by priority (smaller first).
    pub by_priority: Vec<PriorityRequests>,
    /// Sum of `any` over priorities.
    pub pending: u64,
}

impl RequestTable {
    /// Adds `count` containers of `size` at `priority`, with resolved host and rack hints
    /// (relaxLocality on; see [`RequestTable::add_strict`]).
    /// The size of an existing priority is kept (callers validate one size per priority).
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        priority: i32,
        size: Resource,
        count: u32,
        duration_ms: u64,
        nodes: Vec<u32>,
        racks: Vec<u32>,
        is_am: bool,
    ) {
        self.add_strict(
            priority,
            size,
            count,
            duration_ms,
            nodes,
            racks,
            is_am,
            true,
        );
    }

    /// [`RequestTable::add`] with the ask's relaxLocality: false keeps the containers on
    /// `nodes` (the ANY and rack requests may not relax).
    #[allow(clippy::too_many_arguments)]
    pub fn add_strict(
        &mut self,
        priority: i32,
        size: Resource,
        count: u32,
        duration_ms: u64,
        nodes: Vec<u32>,
        racks: Vec<u32>,
        is_am: bool,
        relax_locality: bool,
    ) {
        if count == 0 {
            return;
        }
        let pos = match self
            .by_priority
            .binary_search_by_key(&priority, |p| p.priority)
        {
            Ok(i) => i,
            Err(i) => {
                self.by_priority.insert(
                    i,
                    PriorityRequests {
                        priority,
                        size,
                        any: 0,
                        racks: BTreeMap::new(),
                        nodes: BTreeMap::new(),
                        is_am,
                        relax_locality,
                        opportunities: 0,
                        allowed: None,
                        last_scheduled: None,
                        runs: VecDeque::new(),
                    },
                );
                i
            }
        };
        let p = &mut self.by_priority[pos];
        p.relax_locality = relax_locality;
        p.any += count;
        for &n in &nodes {
            *p.nodes.entry(n).or_insert(0) += count;
        }
        for &r in &racks {
            *p.racks.entry(r).or_insert(0) += count;
        }
        p.runs.push_back(Run {
            count,
            duration_ms,
            nodes,
            racks,
        });
        self.pending += count as u64;
    }

    /// A new attempt asks these afresh: every priority's delay-scheduling state (missed
    /// opportunities, allowed level, last scheduled time) starts over, as a new
    /// `FSAppAttempt`'s does.
    pub fn forget_delay_state(&mut self) {
        for p in &mut self.by_priority {
            p.opportunities = 0;
            p.allowed = None;
            p.last_scheduled = None;
        }
    }

    /// Takes one task at priority index `idx` for a container on `node` (in `rack`) at
    /// `locality`, lowering the counts as Hadoop's `AppSchedulingInfo` (2.7) and
    /// `LocalityAppPlacementAllocator` (3.x) do: node-local lowers the node's request, its
    /// rack's and ANY; rack-local the rack's and ANY; off-switch ANY alone. A node or rack
    /// request that reaches zero is removed (ANY never is). The other hosts and racks of the
    /// task keep their counts: the RM does not know which task a container serves, and SLS's
    /// AM simulators never resend their asks. The task (its run time) is one that asked for
    /// this node (node-local) or rack (rack-local), else the oldest.
    pub fn take(&mut self, idx: usize, node: u32, rack: u32, locality: Locality) -> TakenTask {
        let p = &mut self.by_priority[idx];
        let run_idx = match locality {
            Locality::NodeLocal => p.runs.iter().position(|r| r.nodes.contains(&node)),
            Locality::RackLocal => p.runs.iter().position(|r| r.racks.contains(&rack)),
            Locality::OffSwitch => None,
        }
        .unwrap_or(0);
        let run = &mut p.runs[run_idx];
        run.count -= 1;
        let duration_ms = run.duration_ms;
        if run.count == 0 {
            p.runs.remove(run_idx);
        }
        if locality == Locality::NodeLocal {
            decrement_level(&mut p.nodes, node);
        }
        if locality <= Locality::RackLocal {
            decrement_level(&mut p.racks, rack);
        }
        p.any -= 1;
        self.pending -= 1;
        TakenTask {
            size: p.size,
            duration_ms,
            is_am: p.is_am,
        }
    }

    /// Outstanding resources: Σ size × count over ANY requests (Hadoop 3.x), or over every
    /// locality level (Hadoop 2.7).
    pub fn outstanding(&self, all_levels: bool) -> Resource {
        let mut r = Resource::ZERO;
        for p in &self.by_priority {
            let n = if all_levels {
                p.all_levels()
            } else {
                p.any as u64
            } as i64;
            r = r.saturating_add(Resource::new(p.size.memory_mb * n, p.size.vcores * n));
        }
        r
    }
}

/// Lowers the node or rack request `key` by one, removing it at zero as Hadoop's
/// `decResourceRequest` does (the scheduler allocates there only while it is positive).
fn decrement_level(levels: &mut BTreeMap<u32, u32>, key: u32) {
    if let Some(c) = levels.get_mut(&key) {
        *c = c.saturating_sub(1);
        if *c == 0 {
            levels.remove(&key);
        }
    }
}

/// Where an app is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppPhase {
    /// Not yet submitted.
    Future,
    /// Submitted, runnable: offered nodes.
    Runnable,
    /// Submitted but held back by maxRunningApps.
    Waiting,
    /// All containers done.
    Finished,
    /// Refused at submission (placement found no queue, or a container can never fit).
    Rejected,
}

/// What outputs need of an app at the end of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct AppRecord {
    /// App index.
    pub index: u32,
    /// Name from the workload.
    pub name: String,
    /// Queue it ran in (or the requested queue if rejected).
    pub queue: String,
    /// User.
    pub user: String,
    /// Submission.
    pub arrival: SimTime,
    /// First container.
    pub first_container: Option<SimTime>,
    /// Last container released.
    pub finish: Option<SimTime>,
    /// Containers allocated (AM included).
    pub containers: u64,
    /// Run time alone on an empty cluster, in ms.
    pub alone_ms: u64,
    /// Why it was rejected.
    pub rejected: Option<String>,
    /// Containers killed by preemption.
    pub preempted_containers: u64,
    /// Work lost to preemption (Σ kill − start of its killed containers), ms.
    pub lost_work_ms: u64,
    /// The trace's recorded times, when it has them.
    pub recorded: Option<Recorded>,
}

impl AppRecord {
    /// Arrival to first container, ms. An app that finished without asking for any
    /// container waited for nothing: its wait is its completion time.
    pub fn wait_ms(&self) -> Option<u64> {
        self.started().map(|f| f.since(self.arrival))
    }

    /// When it started: its first container, or its finish when it finished without one.
    pub fn started(&self) -> Option<SimTime> {
        self.first_container.or(self.finish)
    }

    /// First container (or start, see [`AppRecord::started`]) to finish, ms.
    pub fn runtime_ms(&self) -> Option<u64> {
        Some(self.finish?.since(self.started()?))
    }
    /// Arrival to finish (job completion time), ms.
    pub fn jct_ms(&self) -> Option<u64> {
        self.finish.map(|f| f.since(self.arrival))
    }
    /// Simulated over recorded job run time (`jct / recorded run time`), for a finished app
    /// whose trace recorded a non-zero run time.
    pub fn runtime_ratio(&self) -> Option<f64> {
        let recorded = self.recorded?.runtime_ms();
        let jct = self.jct_ms()?;
        (recorded > 0).then(|| jct as f64 / recorded as f64)
    }

    /// Bounded slowdown: `max(1, jct / max(alone, 10 s))`.
    pub fn slowdown(&self) -> Option<f64> {
        self.jct_ms()
            .map(|j| (j as f64 / self.alone_ms.max(10_000) as f64).max(1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_table_counts_and_takes_local_first() {
        let mut t = RequestTable::default();
        t.add(20, Resource::new(1024, 1), 2, 100, vec![], vec![], false);
        t.add(10, Resource::new(2048, 1), 1, 50, vec![3], vec![1], false);
        assert_eq!(t.pending, 3);
        assert_eq!(t.by_priority[0].priority, 10);
        assert_eq!(t.outstanding(false), Resource::new(4096, 3));
        assert_eq!(t.outstanding(true), Resource::new(8192, 5));
        let task = t.take(0, 3, 1, Locality::NodeLocal);
        assert_eq!(task.duration_ms, 50);
        // The node request fell to zero and was removed, as Hadoop removes it.
        assert_eq!(t.by_priority[0].node_count(3), None);
        assert_eq!(t.by_priority[0].rack_count(1), None);
        assert_eq!(t.pending, 2);
    }

    /// Three tasks asked on hosts 1 and 2 (racks 0 and 1): ANY 3, nodes 1 and 2: 3 each,
    /// racks 0 and 1: 3 each. Off-switch on node 7 lowers ANY alone (2; the rest stay 3);
    /// rack-local on node 5 of rack 0 lowers rack 0 and ANY (2, 1); node-local on node 2
    /// (rack 1) lowers node 2, rack 1 and ANY (2, 2, 0). Node 1 keeps 3 and rack 0 2: Hadoop
    /// 2.7's demand counts them all, 1 + 2 (racks 0, 1 at 2 each: 4) + node 1 at 3 and node
    /// 2 at 2 (5) = 0 + 4 + 5 = 9 containers of 1024 MB, 3.3's the ANY count alone (0).
    #[test]
    fn allocations_lower_only_their_own_locality_levels() {
        let mut t = RequestTable::default();
        t.add(
            10,
            Resource::new(1024, 1),
            3,
            100,
            vec![1, 2],
            vec![0, 1],
            false,
        );
        t.take(0, 7, 3, Locality::OffSwitch);
        let p = &t.by_priority[0];
        assert_eq!(
            (p.any, p.node_count(1), p.node_count(2)),
            (2, Some(3), Some(3))
        );
        assert_eq!((p.rack_count(0), p.rack_count(1)), (Some(3), Some(3)));
        t.take(0, 5, 0, Locality::RackLocal);
        let p = &t.by_priority[0];
        assert_eq!(
            (p.any, p.rack_count(0), p.rack_count(1)),
            (1, Some(2), Some(3))
        );
        assert_eq!((p.node_count(1), p.node_count(2)), (Some(3), Some(3)));
        t.take(0, 2, 1, Locality::NodeLocal);
        let p = &t.by_priority[0];
        assert_eq!(
            (p.any, p.node_count(1), p.node_count(2)),
            (0, Some(3), Some(2))
        );
        assert_eq!((p.rack_count(0), p.rack_count(1)), (Some(2), Some(2)));
        assert_eq!(t.pending, 0);
        assert_eq!(t.outstanding(true), Resource::new(9 * 1024, 9));
        assert_eq!(t.outstanding(false), Resource::ZERO);
    }
}
