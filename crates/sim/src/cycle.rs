//! Exact detection of a run that repeats itself forever.
//!
//! Preemption can undo work: with every app arrived, a run can kill a container just before
//! it ends, give the node to the app it was taken for, whose container is in turn killed
//! before it ends, and so on (two queues each starved in turn, a task killed at 5,000 ms of
//! its 5,001). Reservations made and released can cycle the same way. No container
//! completes, no app finishes, yet decisions keep coming, so the quiescence rule (no
//! progress) never fires, and without `end_ms` the run would never end. YARN loops too.
//!
//! The rule: at an update tick after at least one whole tick interval with no arrival and
//! no container completion but some decision, the engine takes a *fingerprint* of its whole
//! state relative to now: every time becomes an age (clamped where only a comparison with a
//! timeout reads it), every container id becomes its distance to the next id, container
//! slots become their order, output-only counters are left out. Two equal fingerprints with
//! no completion or arrival between them mean the run is periodic from the first one on: the
//! engine is deterministic, so the same relative state gives the same events at the same
//! relative times, again and again, and no app can ever finish. The run stops there,
//! `stalled_at` now and `cycle_from` the time of the earlier state.
//!
//! # Amounts held by Hadoop 3.x preemption
//! Hadoop 3.x Fair Scheduler preemption holds what it frees on a node for the starved app
//! (`FSSchedulerNode.resourcesPreemptedForApp`); an app that cannot take it (its AM refused
//! by maxAMShare, a strict ask on another node) stays starved, and every round adds to the
//! amount held, so the whole state never repeats. The amount is read in one place only:
//! `assignPreemptedContainers` hands the app containers on the node until the amount is
//! covered, and it reads the amount only after a container was handed out (whether a hold
//! exists is read as its presence, and an amount is never zero). So the fingerprint holds
//! which nodes are held, not how much, and two states equal but for the amounts count as a
//! repeat when no container was handed out from a hold between them
//! (`Fs33::hold_allocations` unchanged): from the earlier state the run reached the later
//! without reading an amount, so from the later it makes the same decisions again, reaching
//! a third state equal but for amounts, and so on for ever. When a container was handed out
//! from a hold in between, the amounts must be equal as well, as for any other field.
//!
//! The fingerprint leaves nothing out by accident: it destructures [`Simulation`] field by
//! field (a new field does not compile until it is placed), and takes each part's `Debug`
//! text whole, so a field added to a part is in the fingerprint unless rebased here. A field
//! that is an age or an id and is not rebased only makes equal states look different (a
//! cycle found later or never), never the reverse.

use crate::app::Locality;
use crate::capacity::ideal::PcppState;
use crate::engine::Simulation;
use crate::event::Event;
use crate::preemption::round::{Fs27, Fs33};
use crate::preemption::starvation::{AppStarvation33, LeafStarvation27, LeafStarvation33};
use crate::preemption::victims::{Preemptor27, Search33};
use crate::scheduler::preempt::PreemptState;
use crate::time::SimTime;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Fingerprints kept at most (bytes) before the watch starts afresh.
const MAX_BYTES: usize = 64 << 20;

/// What the watch remembers since the last arrival or completion.
#[derive(Debug, Default)]
pub(crate) struct CycleWatch {
    /// Whether the watch runs (tests turn it off to check what it found).
    pub off: bool,
    /// Arrivals + completions at the last tick, and progress then.
    done: u64,
    progress: u64,
    /// Fingerprints seen since `done` last changed (several states may share one when only
    /// held amounts differ).
    seen: BTreeMap<String, Vec<Seen>>,
    bytes: usize,
}

/// What the watch keeps of one state besides its fingerprint.
#[derive(Debug)]
struct Seen {
    /// When it was seen.
    at: SimTime,
    /// The progress counter then.
    progress: u64,
    /// Containers handed out from held resources by then.
    hold_allocations: u64,
    /// The amounts held per node (Hadoop 3.x preemption), left out of the fingerprint.
    held: String,
}

/// A state seen before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Repeat {
    /// Decisions were made since the earlier state, at this time: they will be made again
    /// and again (a cycle).
    Cycle(SimTime),
    /// Nothing happened since the earlier state: nothing ever will (a stall the quiescence
    /// test did not see, e.g. a request that keeps its locality level because no node is
    /// offered to it while a reservation holds the only one).
    Frozen,
}

impl Simulation<'_> {
    /// Called at the end of an update tick: whether this state, relative to now, was seen
    /// before with no arrival or completion since.
    pub(crate) fn repeats(&mut self) -> Option<Repeat> {
        if self.cycle.off || self.n_arrived < self.apps.len() {
            return None;
        }
        let done = self.n_arrived as u64 + self.completions;
        let busy = self.progress != self.cycle.progress;
        self.cycle.progress = self.progress;
        if done != self.cycle.done {
            self.cycle.done = done;
            self.cycle.seen.clear();
            self.cycle.bytes = 0;
            return None;
        }
        // Without decisions, a pending completion or kill will make progress: only a state
        // with nothing pending can be frozen.
        if !busy
            && (self.in_flight > 0
                || self
                    .events
                    .pending()
                    .iter()
                    .any(|(_, e)| matches!(e, Event::ContainerKilled { .. })))
        {
            return None;
        }
        let (print, held) = self.fingerprint();
        let hold_allocations = match &self.preempt {
            PreemptState::Fs33 { fs, .. } => fs.hold_allocations,
            _ => 0,
        };
        // See "Amounts held by Hadoop 3.x preemption" in the module docs.
        let earlier = self.cycle.seen.get(&print).and_then(|states| {
            states
                .iter()
                .find(|e| e.hold_allocations == hold_allocations || e.held == held)
        });
        if let Some(e) = earlier {
            return Some(if e.progress == self.progress {
                Repeat::Frozen
            } else {
                Repeat::Cycle(e.at)
            });
        }
        let bytes = print.len() + held.len();
        self.cycle.bytes += bytes;
        if self.cycle.bytes > MAX_BYTES {
            self.cycle.seen.clear();
            self.cycle.bytes = bytes;
        }
        let seen = Seen {
            at: self.now,
            progress: self.progress,
            hold_allocations,
            held,
        };
        self.cycle.seen.entry(print).or_default().push(seen);
        None
    }

    /// The state relative to now (see the module docs), and apart from it the amounts that
    /// Hadoop 3.x preemption holds on nodes.
    fn fingerprint(&self) -> (String, String) {
        let Simulation {
            sc,
            semantics: _,
            now,
            current: _,
            events,
            cluster,
            tree,
            specs: _,
            apps,
            queues,
            users,
            user_index,
            containers,
            free_slots,
            recorder: _,
            counters: _,
            elide: _,
            largest_node: _,
            node_events_left: _,
            n_closed,
            integrals: _,
            incremental: _,
            first_arrival: _,
            last_finish: _,
            next_container_id: _,
            preempt,
            held_for,
            capacity: _,
            in_flight,
            n_arrived,
            progress,
            quiet,
            stalled_at: _,
            cycle_from: _,
            share_scratch: _,
            reorder_scratch: _,
            changed_scratch: _,
            dirty_apps,
            queue_shares,
            share_work: _,
            app_share_leaves,
            metered: _,
            queue_ids: _,
            open_leaves: _,
            completions: _,
            cycle: _,
            continuous,
        } = self;
        let now = now.0;
        let conf = &sc.scheduler;
        let age = |t: u64| now.saturating_sub(t);
        // Ids are only compared (newer is larger) or matched: a live container's id becomes
        // its rank among the live ones, every later container being newer than all of them.
        let live_ids: Vec<u64> = {
            let mut v: Vec<u64> = containers.iter().filter(|c| c.live).map(|c| c.id).collect();
            v.sort_unstable();
            v
        };
        let rel_id = |id: u64| live_ids.binary_search(&id).map_or(u64::MAX, |r| r as u64);
        // Slot → the container's relative id, for live slots (their order is the slots').
        let live_slot = |slot: u32| {
            containers
                .get(slot as usize)
                .filter(|c| c.live)
                .map(|c| rel_id(c.id))
        };
        let mut s = String::new();
        let mut held = String::new();
        let _ = write!(
            s,
            "n{n_closed} f{in_flight} a{n_arrived} q{:?}|",
            quiet.map(|(t, p)| (age(t.0), p == *progress))
        );
        // Events: sorted by key, so equal times keep their push order. Samples change
        // nothing, and the end comes when it comes (a cycle stops the run before it).
        for (key, event) in events.pending() {
            let ev = match event {
                Event::Sample | Event::End => continue,
                Event::ContainerFinished { container } => format!("F{:?}", live_slot(container)),
                Event::ContainerKilled { container, id } => {
                    let live = live_slot(container).filter(|&r| r == rel_id(id));
                    format!("K{live:?}")
                }
                other => format!("{other:?}"),
            };
            let _ = write!(s, "{}:{ev},", key.time.0 as i128 - now as i128);
        }
        let clock = events.clock();
        let (next_beat, node) = clock.key(clock.cursor());
        let _ = write!(
            s,
            "|hb{} {} {node} {:?}|",
            now % cluster.heartbeat_ms.max(1),
            next_beat.time.0 as i128 - now as i128,
            clock.armed()
        );
        // Containers in slot order; a free slot by the number of live slots below it.
        let wait = conf
            .wait_before_kill_ms
            .max(conf.max_wait_before_kill_ms)
            .saturating_add(1);
        // A container's start is left out: it is read only for the work a kill loses (an
        // output), and a long-lived AM's age grows through every cycle.
        for c in containers.iter().filter(|c| c.live) {
            let _ = write!(
                s,
                "c{} {} {} {:?} {} {} {} {:?};",
                rel_id(c.id),
                c.app,
                c.node,
                c.size,
                c.is_am,
                c.priority,
                c.duration_ms,
                c.marked_at.map(|t| age(t).min(wait))
            );
        }
        let mut below = Vec::with_capacity(free_slots.len());
        for &f in free_slots {
            below.push(containers[..f as usize].iter().filter(|c| c.live).count());
        }
        let _ = write!(s, "|free{below:?}|{:?}|{held_for:?}|", cluster.nodes);
        // Missed opportunities are read only in comparisons with a bound: beyond it every
        // count acts alike.
        let n_nodes = cluster.nodes.len() as u64;
        let fair_bound = {
            let t = conf
                .locality_threshold_node
                .min(1.0)
                .max(conf.locality_threshold_rack.min(1.0));
            if conf.locality_threshold_node < 0.0 || conf.locality_threshold_rack < 0.0 {
                0
            } else {
                (n_nodes as f64 * t).floor() as u64 + 1
            }
        };
        let time_delay_bound = (conf.locality_delay_node_ms >= 0
            && conf.locality_delay_rack_ms >= 0)
            .then(|| conf.locality_delay_node_ms.max(conf.locality_delay_rack_ms) as u64 + 1);
        for (i, a) in apps.iter().enumerate() {
            let mut a = a.clone();
            a.am_container = a
                .am_container
                .map(|slot| live_slot(slot).map_or(u32::MAX, |r| r as u32));
            // Output counters.
            a.containers = 0;
            a.preempted = 0;
            a.lost_work_ms = 0;
            a.lost = 0;
            let bound = if self.capacity.is_some() {
                // Compared with the node-locality delay (at most the node count) and with
                // asks (at most the app's tasks), as f32: exact below 2^24.
                let tasks: u64 = self.specs[i]
                    .stages
                    .iter()
                    .flatten()
                    .map(|g| u64::from(g.count))
                    .sum::<u64>()
                    + 1;
                let b = 2 * n_nodes.max(tasks) + 2;
                if b < 1 << 24 { b } else { u64::MAX }
            } else {
                fair_bound
            };
            let arrival = self.specs[i].arrival.0;
            for p in &mut a.requests.by_priority {
                let off_switch = p.allowed == Some(Locality::OffSwitch) && self.capacity.is_none();
                let b = if off_switch { 0 } else { bound };
                p.opportunities = u64::from(p.opportunities).min(b) as u32;
                // Time-based delay: the wait since the level changed (or since the app
                // started) is read only against the delays.
                p.last_scheduled = Some(match time_delay_bound {
                    Some(d) => age(p.last_scheduled.unwrap_or(arrival)).min(d),
                    None => 0,
                });
            }
            let _ = write!(s, "{a:?};");
        }
        for q in queues {
            let mut q = q.clone();
            q.acc = Default::default();
            let _ = write!(s, "{q:?};");
        }
        let _ = write!(
            s,
            "|{} {users:?} {user_index:?} {dirty_apps:?} {queue_shares:?} {app_share_leaves:?} {:?}|",
            tree.len(),
            continuous.as_ref().map(|c| c.reported_at(now))
        );
        let clamp = |t: u64, timeout: Option<u64>| {
            // Read only as "older than the timeout".
            timeout.map_or(0, |to| age(t).min(to.saturating_add(1)))
        };
        let leaf = |i: usize| tree.get(crate::tree::QueueId(i as u32));
        match preempt {
            PreemptState::Off => s.push_str("off"),
            PreemptState::Fs27(fs) => {
                let Fs27 { clocks, preemptor } = &**fs;
                for (i, c) in clocks.iter().enumerate() {
                    let LeafStarvation27 {
                        last_time_at_min_share,
                        last_time_at_fair_share_threshold,
                    } = *c;
                    let q = leaf(i);
                    let _ = write!(
                        s,
                        "{} {};",
                        clamp(last_time_at_min_share, q.min_share_preemption_timeout_ms),
                        clamp(
                            last_time_at_fair_share_threshold,
                            q.fair_share_preemption_timeout_ms
                        )
                    );
                }
                let Preemptor27 {
                    last_check_ms,
                    warned,
                } = preemptor;
                // Warned containers no longer live are dropped before the list is read.
                let warned: Vec<(u32, u64)> = warned
                    .iter()
                    .filter(|c| live_ids.binary_search(&c.id).is_ok())
                    .map(|c| (c.app, rel_id(c.id)))
                    .collect();
                let _ = write!(
                    s,
                    "w{warned:?} {}",
                    age(*last_check_ms).min(conf.preemption_interval_ms)
                );
            }
            PreemptState::Fs33 { fs, search } => {
                let Fs33 {
                    leaves,
                    apps: starvation,
                    starved,
                    preempted_on_node,
                    hold_allocations: _,
                } = &**fs;
                for (i, l) in leaves.iter().enumerate() {
                    let LeafStarvation33 {
                        last_time_at_min_share,
                    } = *l;
                    let t = clamp(
                        last_time_at_min_share,
                        leaf(i).min_share_preemption_timeout_ms,
                    );
                    let _ = write!(s, "{t};");
                }
                for (i, a) in starvation.iter().enumerate() {
                    let AppStarvation33 {
                        last_time_at_fair_share,
                        fair_share_starvation,
                        min_share_starvation,
                        next_starvation_check,
                    } = *a;
                    let q = tree.get(apps[i].queue);
                    let t = clamp(last_time_at_fair_share, q.fair_share_preemption_timeout_ms);
                    let _ = write!(
                        s,
                        "{t} {fair_share_starvation:?} {min_share_starvation:?} {};",
                        next_starvation_check.saturating_sub(now)
                    );
                }
                // Only membership of live containers is ever asked.
                let Search33 { marked } = search;
                let marked: Vec<u64> = containers
                    .iter()
                    .filter(|c| c.live && marked.contains(&c.id))
                    .map(|c| rel_id(c.id))
                    .collect();
                let held_nodes: Vec<&u32> = preempted_on_node.keys().collect();
                let _ = write!(s, "{starved:?} {held_nodes:?} {marked:?}");
                held = format!("{preempted_on_node:?}");
            }
            PreemptState::Capacity { state, last_round } => {
                let PcppState { preempted } = state;
                // Entries of dead containers are never looked up again (they age out).
                let selected: Vec<(u64, u64)> = containers
                    .iter()
                    .filter(|c| c.live)
                    .filter_map(|c| preempted.get(&c.id).map(|&t| (rel_id(c.id), age(t))))
                    .collect();
                let interval = conf.pcpp_config().monitoring_interval_ms;
                let _ = write!(
                    s,
                    "{selected:?} {:?}",
                    last_round.map(|t| age(t).min(interval))
                );
            }
        }
        (s, held)
    }
}
