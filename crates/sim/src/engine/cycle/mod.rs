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
//! amount held, so the whole state never repeats. An amount is read only when a container
//! of its app is allocated on its node (`FSSchedulerNode.allocateContainer` lowers it, and
//! `assignPreemptedContainers` stops handing out containers once it is covered); whether a
//! hold exists is read as its presence, and an amount is never zero. So the fingerprint holds
//! which nodes are held for which apps, not how much, and two states equal but for the
//! amounts count as a repeat when no container was allocated against a hold between them
//! (`Fs33::hold_allocations` unchanged): from the earlier state the run reached the later
//! without reading an amount, so from the later it makes the same decisions again, reaching
//! a third state equal but for amounts, and so on for ever.
//!
//! Containers handed out from a hold read its amount, but only to ask whether it is now
//! covered (`holds_covered` counts, per hold, the times it was): an amount only ever grows
//! by what is preempted for it and falls, never below zero, by what is handed out, and both
//! steps are monotone and read no other hold. So two states equal but for amounts also
//! repeat when every hold found covered between them is held in the same amount in both,
//! and no other hold is smaller in the later one: from the later state every hold of the
//! first kind follows the same amounts as from the earlier one, every other is at least
//! what it was at the same step and is again never found covered, the same decisions
//! follow, and the next state's amounts relate to the later one's in the same way. In any
//! other case the amounts must be equal, as for any other field.
//!
//! The victim search reads amounts too: a node's search starts from its unallocated
//! resources less its reservation and everything it holds (`getTotalReserved`), clamped at
//! zero per resource, adds the containers it takes and stops at the first fit. A larger
//! amount only lowers the start: it changes a read's answer only where the read stopped on
//! a fit that needed the start in a resource in which the amount is larger (the containers
//! taken fall short of the request there); a smaller one may change any read of a held node.
//! The search counts both kinds of reads ([`HeldReads`]), and two states equal but for
//! amounts repeat only when, between them, no read stopped on a fit needing the start in a
//! resource in which some hold is larger in the later state, and no held node was read at
//! all if some hold is smaller. From the later state every read then gives the answer it
//! gave (its start is lower or equal, the run's other inputs the same, and it found no fit
//! or a fit its containers alone make), and the amounts relate again in the same way.
//!
//! The fingerprint leaves nothing out by accident: it destructures [`Simulation`] field by
//! field (a new field does not compile until it is placed), and takes each part's `Debug`
//! text whole, so a field added to a part is in the fingerprint unless rebased here. A field
//! that is an age or an id and is not rebased only makes equal states look different (a
//! cycle found later or never), never the reverse.
//!
//! # Cost
//! A state's text grows with its apps (about 1.5 KB each), and formatting every app at every
//! watched tick cost 2.7 s of a 10,000-app run whose scheduling took 0.1 s. So the apps'
//! part is kept apart: each open app's text is interned and made again only when the app's
//! stored state or the relative values put into it changed since its last text
//! (`prints`), and a state keeps one id per open app. Equal ids are equal texts, so two
//! states compare exactly as their whole texts did. Closed apps (finished or rejected) are
//! left out: none reopens, so states with the same `n_closed` have the same closed apps, and
//! a closed app's state no longer changes (its last container was released when it closed);
//! debug builds check each closed app's text against the first one seen since the last
//! arrival or completion.
//!
//! Queues the same way: with 10,000 leaves, formatting every queue at every fingerprint was
//! 3.7% of a run (the fingerprints 9.2%), while between two fingerprints only the leaves a
//! decision, a completion or a share move touched change. Each queue's text is made again only when a field it
//! writes, or the fair share it reads, changed since its last text, and a state keeps one id
//! per queue.

//! # A completion ahead
//! A state in which a live task's completion is queued, in a run where nothing can kill a
//! container (preemption off, no node event left), equals no other state of its window, so
//! its fingerprint is not taken. Between two ticks of one window no container completes,
//! and none is killed, so every task live at the earlier tick is still live at the later
//! one with its completion still queued at the same absolute time; equal fingerprints
//! would list the same number of live tasks' completions, hence the same ones, each at a
//! time relative to now that differs by the ticks' distance. Such a state neither repeats
//! an earlier one nor is repeated by a later one, whose own fingerprints are taken as
//! before; what is found, and when, is unchanged. With 10,000 leaves the fingerprints of
//! the day's tail were 8.7% of a run (7 fingerprints of about 50 ms, the queue level's
//! state of every leaf among them), all with tasks in flight.

#[cfg(debug_assertions)]
mod checks;
mod parts;
mod prints;

use parts::{QueueFrom, app_text, queue_text, queue_unchanged};

use crate::app::AppPhase;
use crate::engine::Simulation;
use crate::event::Event;
use crate::preemption::victims::HeldReads;
use crate::time::SimTime;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Fingerprints and app texts kept at most (bytes) before the watch starts afresh.
const MAX_BYTES: usize = 64 << 20;

/// A state relative to now: the text of everything but the open apps and the queues, one
/// interned text id per open app, by index, and one per queue (see `prints`).
type Print = (String, Vec<u32>, Vec<u32>);

/// The open apps' and the queues' interned texts (see `prints`).
#[derive(Debug, Default)]
pub(crate) struct PartPrints {
    /// Per app: its state and the values put into it.
    apps: prints::Prints<(crate::engine::AppState, Vec<u64>)>,
    /// Per queue.
    queues: prints::Prints<QueueFrom>,
}

impl PartPrints {
    fn bytes(&self) -> usize {
        self.apps.bytes() + self.queues.bytes()
    }

    fn clear(&mut self) {
        self.apps.clear();
        self.queues.clear();
    }
}

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
    seen: BTreeMap<Print, Vec<Seen>>,
    /// Bytes of the fingerprints in `seen`.
    bytes: usize,
    /// The open apps' and the queues' texts, kept across ticks (and across arrivals and
    /// completions: an app or a queue unchanged since its last text costs a comparison, not
    /// a format).
    parts: PartPrints,
    /// Debug builds: each closed app's text, first seen since `done` last changed (a closed
    /// app is left out of the fingerprint because its state no longer changes; this checks it).
    #[cfg(debug_assertions)]
    closed: std::cell::RefCell<BTreeMap<usize, String>>,
    /// Fingerprints taken (for tests of their cost).
    #[cfg(test)]
    prints: u64,
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
    /// Times each hold was found covered by then.
    holds_covered: BTreeMap<(u32, u32), u64>,
    /// The amounts held per node (Hadoop 3.x preemption), left out of the fingerprint.
    held: String,
    /// The same amounts, by (node, app).
    amounts: BTreeMap<(u32, u32), fairsim_core::Resource>,
    /// The victim search's reads of held nodes by then.
    held_reads: HeldReads,
}

/// Whether the victim search's reads of held nodes between `earlier` and now could not tell
/// its amounts from `amounts` (see "Amounts held by Hadoop 3.x preemption"): where a hold is
/// larger now in a resource, no read between them stopped on a fit needing its start in that
/// resource; where one is smaller, no held node was read at all. The holds are the same: they
/// are in the fingerprint.
fn reads_repeat(
    earlier: &Seen,
    amounts: &BTreeMap<(u32, u32), fairsim_core::Resource>,
    reads: HeldReads,
) -> bool {
    let (mut larger_mb, mut larger_vc, mut smaller) = (false, false, false);
    for (e, n) in earlier.amounts.values().zip(amounts.values()) {
        larger_mb |= n.memory_mb > e.memory_mb;
        larger_vc |= n.vcores > e.vcores;
        smaller |= n.memory_mb < e.memory_mb || n.vcores < e.vcores;
    }
    let was = earlier.held_reads;
    (!larger_mb || reads.memory == was.memory)
        && (!larger_vc || reads.vcores == was.vcores)
        && (!smaller || reads.any == was.any)
}

/// Whether the amounts held now repeat those of `earlier` as far as any decision can tell
/// (see "Amounts held by Hadoop 3.x preemption"): every hold found covered since is held
/// in the same amount, and no other is smaller. The holds are the same: they are in the
/// fingerprint.
fn amounts_repeat(
    earlier: &Seen,
    covered: &BTreeMap<(u32, u32), u64>,
    amounts: &BTreeMap<(u32, u32), fairsim_core::Resource>,
) -> bool {
    earlier.amounts.len() == amounts.len()
        && earlier
            .amounts
            .iter()
            .zip(amounts)
            .all(|((k, e), (k2, n))| {
                let read = covered.get(k) != earlier.holds_covered.get(k);
                k == k2
                    && if read {
                        e == n
                    } else {
                        n.memory_mb >= e.memory_mb && n.vcores >= e.vcores
                    }
            })
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
        if self.cycle.off || self.cx.n_arrived < self.w.apps.len() {
            return None;
        }
        let done = self.cx.n_arrived as u64 + self.completions;
        let busy = self.cx.progress != self.cycle.progress;
        self.cycle.progress = self.cx.progress;
        if done != self.cycle.done {
            self.cycle.done = done;
            self.cycle.seen.clear();
            self.cycle.bytes = 0;
            #[cfg(debug_assertions)]
            self.cycle.closed.get_mut().clear();
            // No state seen refers to the app texts now: drop them if they outgrew the bound.
            if self.cycle.parts.bytes() > MAX_BYTES {
                self.cycle.parts.clear();
            }
            return None;
        }
        // Without decisions, a pending completion or kill will make progress: only a state
        // with nothing pending can be frozen.
        if !busy
            && (self.cx.in_flight > 0
                || self
                    .cx
                    .events
                    .pending()
                    .iter()
                    .any(|(_, e)| matches!(e, Event::ContainerKilled { .. })))
        {
            return None;
        }
        // See "A completion ahead" in the module docs.
        if self.completion_ahead() {
            return None;
        }
        let mut parts = std::mem::take(&mut self.cycle.parts);
        let (print, held) = self.fingerprint(&mut parts);
        self.cycle.parts = parts;
        #[cfg(test)]
        {
            self.cycle.prints += 1;
        }
        let (hold_allocations, holds_covered, amounts, held_reads) =
            self.sched().preemption_holds();
        // See "Amounts held by Hadoop 3.x preemption" in the module docs.
        let earlier = self.cycle.seen.get(&print).and_then(|states| {
            states.iter().find(|e| {
                e.held == held
                    || (reads_repeat(e, &amounts, held_reads)
                        && (e.hold_allocations == hold_allocations
                            || amounts_repeat(e, &holds_covered, &amounts)))
            })
        });
        if let Some(e) = earlier {
            return Some(if e.progress == self.cx.progress {
                Repeat::Frozen
            } else {
                Repeat::Cycle(e.at)
            });
        }
        let bytes = print.0.len() + 4 * (print.1.len() + print.2.len()) + held.len();
        self.cycle.bytes += bytes;
        if self.cycle.bytes + self.cycle.parts.bytes() > MAX_BYTES {
            // Afresh from this state: its app and queue ids are made again from clear tables.
            self.cycle.seen.clear();
            self.cycle.parts.clear();
            let mut parts = std::mem::take(&mut self.cycle.parts);
            let (again, _) = self.fingerprint(&mut parts);
            self.cycle.parts = parts;
            debug_assert_eq!(again.0, print.0);
            self.cycle.bytes = bytes;
            self.cycle.seen.entry(again).or_default().push(Seen {
                at: self.cx.now,
                progress: self.cx.progress,
                hold_allocations,
                holds_covered,
                held,
                amounts,
                held_reads,
            });
            return None;
        }
        let seen = Seen {
            at: self.cx.now,
            progress: self.cx.progress,
            hold_allocations,
            holds_covered,
            held,
            amounts,
            held_reads,
        };
        self.cycle.seen.entry(print).or_default().push(seen);
        None
    }

    /// A live task's completion is pending and nothing can kill a container before it
    /// completes: no preemption and no node event left (see "A completion ahead").
    fn completion_ahead(&mut self) -> bool {
        if self.sched().preempts() || self.cx.node_events_left > 0 {
            return false;
        }
        // Every live task has its completion queued (`schedule_completion`, at its one
        // allocation site), and an AM none.
        let ahead = self.w.containers.iter().any(|c| c.live && !c.is_am);
        debug_assert_eq!(
            ahead,
            self.cx.events.pending().iter().any(|(_, e)| matches!(
                e,
                Event::ContainerFinished { container, .. } if self.w.containers[*container as usize].live
            )),
            "a live task without its completion queued, or the reverse"
        );
        ahead
    }

    /// Whether queue `i`'s list (children or runnable apps) is read only where its order
    /// cannot matter, so that the fingerprint may write it in index order (see
    /// `write_queue`). Checked for the queue's current members; the members stay (no queue is
    /// created once every app arrived, and an app joining or leaving a leaf's list is an
    /// arrival, a completion or a decision) and so do their weights: a queue's is
    /// configured, and an app's changes only with sizebasedweight or the booster.
    fn order_is_free(&self, i: usize, capacity: bool) -> bool {
        let q = &self.w.queues[i];
        let conf = &self.w.sc.scheduler;
        if self.w.tree.get(crate::tree::QueueId(i as u32)).is_leaf {
            // The Capacity Scheduler keeps its own order in the list, a FIFO leaf's app
            // shares read the list's order, and the booster marks apps in it.
            if capacity
                || q.comparator.policy == fairsim_core::Policy::Fifo
                || conf.booster.is_some()
            {
                return false;
            }
            let positive = !conf.sizebasedweight
                && q.runnable_apps
                    .iter()
                    .all(|&a| self.w.apps[a as usize].sched.weight > 0.0);
            q.comparator.orders_totally(positive)
        } else {
            let positive = q
                .child_list
                .iter()
                .all(|&c| self.w.queues[c as usize].sched.weight > 0.0);
            q.comparator.orders_totally(positive)
        }
    }

    /// The state relative to now (see the module docs), and apart from it the amounts that
    /// Hadoop 3.x preemption holds on nodes.
    fn fingerprint(&mut self, parts: &mut PartPrints) -> (Print, String) {
        // The scheduler's part of the state, written by the scheduler.
        let live_ids: Vec<u64> = {
            let mut v: Vec<u64> = (self.w.containers.iter())
                .filter(|c| c.live)
                .map(|c| c.id)
                .collect();
            v.sort_unstable();
            v
        };
        let own = self.sched().own_print(&live_ids);
        let Simulation {
            w,
            cx,
            scheduler: _,
            quiet,
            stalls_off: _,
            cycle_from: _,
            completions: _,
            cycle: _,
            // Outputs, not state.
            queue_rows: _,
            over_limit: _,
            stall: _,
            // A switch of the engine, not state.
            idle_ticks_kept: _,
        } = &*self;
        let crate::events::ctx::Ctx {
            now,
            current: _,
            events,
            recorder: _,
            counters: _,
            elide: _,
            node_events_left: _,
            n_closed,
            recorded: _,
            first_arrival: _,
            last_finish: _,
            in_flight,
            n_arrived,
            progress,
            stalled_at: _,
            // An output, not state.
            explain: _,
        } = cx;
        let crate::state::world::World {
            sc,
            semantics: _,
            cluster,
            tree,
            specs: _,
            apps,
            app_fair_shares,
            // A copy of each app's `sched.weight`.
            app_weights: _,
            queues,
            users,
            user_index,
            containers,
            free_slots,
            largest_node: _,
            integrals: _,
            incremental: _,
            next_container_id: _,
            dirty_apps,
            metered: _,
            queue_ids: _,
            // Fixed once the apps are read.
            unknown_hints: _,
            any_hints: _,
        } = w;
        let now = now.0;
        let conf = &sc.scheduler;
        let age = |t: u64| now.saturating_sub(t);
        // Ids are only compared (newer is larger) or matched: a live container's id becomes
        // its rank among the live ones, every later container being newer than all of them.
        let rel_id = |id: u64| live_ids.binary_search(&id).map_or(u64::MAX, |r| r as u64);
        // Slot → the container's relative id, for live slots (their order is the slots').
        let live_slot = |slot: u32| {
            containers
                .get(slot as usize)
                .filter(|c| c.live)
                .map(|c| rel_id(c.id))
        };
        let mut s = String::new();
        // The live containers' count first (redundant: the containers follow): states
        // that differ in it, as those of a filling cluster do, differ in the first bytes
        // rather than after a long list of equal containers.
        let _ = write!(
            s,
            "l{} n{n_closed} f{in_flight} a{n_arrived} q{:?}|",
            live_ids.len(),
            quiet.map(|(t, p)| (age(t.0), p == *progress))
        );
        // Events: sorted by key, so equal times keep their push order. Samples change
        // nothing, and the end comes when it comes (a cycle stops the run before it).
        for (key, event) in events.pending() {
            let ev = match event {
                Event::Sample | Event::End => continue,
                Event::ContainerFinished { container, .. } => {
                    format!("F{:?}", live_slot(container))
                }
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
            clock.armed_or_parked()
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
                c.marked_at().map(|t| age(t).min(wait))
            );
        }
        // Live slots below each slot, counted once: a count per free slot would cost the
        // free slots times the slots, which a draining large cluster makes quadratic.
        let mut live_below = Vec::with_capacity(containers.len() + 1);
        live_below.push(0usize);
        for c in containers.iter() {
            live_below.push(live_below[live_below.len() - 1] + usize::from(c.live));
        }
        let below: Vec<usize> = free_slots
            .iter()
            .map(|&f| live_below[(f as usize).min(containers.len())])
            .collect();
        let _ = write!(s, "|free{below:?}|{:?}|{}|", cluster.nodes, own.nodes);
        // Missed opportunities are read only in comparisons with a bound: beyond it every
        // count acts alike.
        let n_nodes = cluster.nodes.len() as u64;
        let mut app_ids = Vec::with_capacity(apps.len());
        let mut put_in = Vec::new();
        for (i, a) in apps.iter().enumerate() {
            let closed = matches!(a.phase, AppPhase::Finished | AppPhase::Rejected);
            // A closed app is left out (see below); release builds skip it before any work,
            // as a day of a million apps has nearly all of them closed at every fingerprint.
            #[cfg(not(debug_assertions))]
            if closed {
                continue;
            }
            // The values normalization puts in: the AM's container as its rank among the
            // live ones (`u64::MAX` for none), then per priority the clamped opportunities
            // and delay age.
            put_in.clear();
            put_in.push(a.am_container.map_or(u64::MAX, |slot| {
                live_slot(slot).map_or(u64::from(u32::MAX), |r| r)
            }));
            // How much of a request's locality state the scheduler ever reads.
            let bound = own.opportunity_bound(&self.w.specs[i], n_nodes);
            let arrival = self.w.specs[i].arrival.0;
            for p in &a.requests.by_priority {
                put_in.push(own.opportunities_read(p, bound));
                put_in.push(own.delay_age_read(age(p.last_scheduled.unwrap_or(arrival))));
            }
            // Its fair share, kept apart from its record (`World::app_fair_shares`), last.
            let share = app_fair_shares[i];
            put_in.push(share.memory_mb as u64);
            put_in.push(share.vcores as u64);
            // A closed app (finished or rejected) stays closed and its state no longer
            // changes: it is the same in every state compared (equal `n_closed` means the
            // same closed apps, as none reopens), so it is left out. Debug builds check it.
            if closed {
                #[cfg(debug_assertions)]
                self.check_closed(i, app_text(a, &put_in));
                continue;
            }
            app_ids.push(parts.apps.id(
                i,
                |(was, was_put_in)| *was_put_in == put_in && was == a,
                || ((a.clone(), put_in.clone()), app_text(a, &put_in)),
            ));
        }
        // Queues' texts likewise: most leaves of a large tree are unchanged from one
        // fingerprint to the next.
        let mut queue_ids = Vec::with_capacity(queues.len());
        for (i, q) in queues.iter().enumerate() {
            let id = crate::tree::QueueId(i as u32);
            let leaf = tree.get(id).is_leaf;
            let free_order = self.order_is_free(i, own.capacity);
            let fair = own.fair_shares[i];
            queue_ids.push(parts.queues.id(
                i,
                |was| queue_unchanged(was, q, fair, leaf, free_order),
                || queue_text(q, fair, leaf, free_order),
            ));
            #[cfg(debug_assertions)]
            if leaf {
                self.check_leaf_sets(i);
            }
        }
        let _ = write!(
            s,
            "|{} {users:?} {user_index:?} {dirty_apps:?} {}|",
            tree.len(),
            own.update
        );
        s.push_str(&own.preemption);
        ((s, app_ids, queue_ids), own.held)
    }
}

#[cfg(test)]
mod tests {
    use super::{HeldReads, Seen, reads_repeat};
    use crate::Simulation;
    use crate::app::{AppSpec, TaskGroup};
    use crate::recorder::MemoryRecorder;
    use crate::scenario::{ClusterSpec, Scenario, SchedulerConf, Workload};
    use crate::time::SimTime;
    use crate::tree::{QueueId, QueueTree};
    use fairsim_core::{Resource, Semantics};

    /// 20 apps in one leaf at time 0 on one 8 GB / 8-vcore node, each an AM of 1 GB and one
    /// 1 GB task of 100 s; maxAMShare 0.5.
    fn twenty_apps() -> Scenario {
        let mut tree = QueueTree::with_root();
        let q = tree.add_queue(QueueId::ROOT, "only", true);
        tree.get_mut(q).max_am_share = 0.5;
        let app = |i: u32| AppSpec {
            name: format!("app{i}"),
            arrival: SimTime(0),
            queue: "root.only".into(),
            user: "u".into(),
            am: Some(Resource::new(1024, 1)),
            stages: vec![vec![TaskGroup {
                count: 1,
                size: Resource::new(1024, 1),
                duration_ms: 100_000,
                priority: 10,
                hosts: vec![],
                relax_locality: true,
            }]],
            recorded: None,
        };
        let cluster = ClusterSpec::uniform(1, 1, Resource::new(8192, 8));
        let apps = Workload::Trace((0..20).map(app).collect());
        Scenario {
            scheduler: SchedulerConf {
                semantics: Semantics::Hadoop27,
                ..SchedulerConf::default()
            },
            end_ms: Some(20_000),
            check_invariants: true,
            ..Scenario::new("twenty", cluster, tree, apps)
        }
    }

    #[test]
    fn an_app_text_is_made_only_when_the_app_changed() {
        let sc = twenty_apps();
        let mut rec = MemoryRecorder::default();
        let mut sim = Simulation::new(&sc, 1, 0, &mut rec).expect("valid");
        sim.run_to_end().expect("runs");
        let (prints, made) = (sim.cycle.prints, sim.cycle.parts.apps.made());
        drop(sim);
        let times: Vec<u64> = rec.decisions.iter().map(|d| d.time.0).collect();
        assert_eq!(times, vec![0, 1000, 2000, 3000, 4000, 5000, 6000, 7000]);
        // One container per heartbeat: AMs at 0 to 3,000 ms (maxAMShare 0.5 × 8 GB = 4
        // AMs), then their tasks at 4,000 to 7,000 ms; then the node is full. Every app
        // arrived at 0 and nothing completes before 104,000 ms, so the watch fingerprints
        // every tick from 500 to 4,000 ms (no task in flight: the frozen check), 8 of them;
        // from 4,500 ms a task's completion is ahead and nothing can kill it, so no state
        // can repeat (`completion_ahead`). The first makes all 20 apps' texts; each later
        // one only the text of the one app the decision before it changed: 20 + 3 = 23,
        // where formatting every app at every fingerprint made 8 × 20 = 160.
        assert_eq!((prints, made), (8, 23));
    }

    /// The twenty apps' run with `idle` more leaves that get no app: the fingerprints taken,
    /// the queue texts made, and the decision times.
    fn queue_texts(idle: u32) -> (u64, u64, Vec<u64>) {
        let mut sc = twenty_apps();
        for i in 0..idle {
            sc.tree.add_queue(QueueId::ROOT, &format!("idle{i}"), true);
        }
        watched(&sc)
    }

    /// `sc`'s run: the fingerprints taken, the queue texts made, and the decision times.
    fn watched(sc: &Scenario) -> (u64, u64, Vec<u64>) {
        let mut rec = MemoryRecorder::default();
        let mut sim = Simulation::new(sc, 1, 0, &mut rec).expect("valid");
        sim.run_to_end().expect("runs");
        let (prints, made) = (sim.cycle.prints, sim.cycle.parts.queues.made());
        drop(sim);
        (
            prints,
            made,
            rec.decisions.iter().map(|d| d.time.0).collect(),
        )
    }

    #[test]
    fn a_queue_text_is_made_only_when_the_queue_changed() {
        // Root and the one leaf: 2 texts at the first of the 8 fingerprints (500 to 4,000
        // ms). Each of the 3 decisions after it and before the last (1,000 to 3,000 ms, one
        // per heartbeat) changes the leaf's usage and root's, which are made again at the
        // next fingerprint; a fingerprint with no decision since the last one makes none:
        // 2 + 3 × 2 = 8, where formatting every queue made 8 × 2 = 16.
        let (prints, made, times) = queue_texts(0);
        assert_eq!((prints, made), (8, 8));
        // 100 idle leaves (inactive, fair share 0, nothing ever asked) change nothing of the
        // run, and each one's text is made once, at the first fingerprint: 100 more, where
        // formatting every queue at every fingerprint made 12 × 100 more.
        assert_eq!(queue_texts(100), (prints, made + 100, times));
    }

    #[test]
    fn a_state_with_a_task_ahead_is_fingerprinted_only_while_a_kill_may_come() {
        use crate::topology::events::{NodeEvent, NodeEventKind};
        let (prints, _, times) = watched(&twenty_apps());
        // The same run with the node lost at 30,000 ms, after the run's end (20,000 ms): the
        // loss never comes, but until it does a task may be killed before it completes,
        // so the ticks from 4,500 ms on are fingerprinted too: those at 4,500 to 7,500 that
        // follow a decision (the node is full from 7,000 ms on), 8 + 4 = 12.
        let mut sc = twenty_apps();
        sc.cluster.events.events.push(NodeEvent {
            at_ms: 30_000,
            kind: NodeEventKind::Lose,
            nodes: vec![0],
        });
        let (prints_kill, _, times_kill) = watched(&sc);
        assert_eq!(times_kill, times);
        assert_eq!((prints, prints_kill), (8, 12));
    }

    /// A state seen with one hold of 2 GB / 1 vcore on node 0, and `reads` by then.
    fn seen_with(reads: HeldReads) -> Seen {
        Seen {
            at: SimTime(0),
            progress: 0,
            hold_allocations: 0,
            holds_covered: Default::default(),
            held: String::new(),
            amounts: [((0, 1), Resource::new(2048, 1))].into_iter().collect(),
            held_reads: reads,
        }
    }

    #[test]
    fn a_larger_hold_repeats_only_if_no_fit_needed_the_start_in_its_resource() {
        let reads = HeldReads {
            memory: 3,
            vcores: 1,
            any: 9,
        };
        let earlier = seen_with(reads);
        let larger_mb = [((0, 1), Resource::new(3072, 1))].into_iter().collect();
        // Reads of held nodes since, none stopping on a fit that needed the start: a repeat.
        let quiet = HeldReads { any: 12, ..reads };
        assert!(reads_repeat(&earlier, &larger_mb, quiet));
        // One fit needed the start's vcores only: memory grew, still a repeat.
        let vc_read = HeldReads {
            vcores: 2,
            any: 12,
            ..reads
        };
        assert!(reads_repeat(&earlier, &larger_mb, vc_read));
        // One needed the start's memory: a larger memory hold could change it.
        let mb_read = HeldReads {
            memory: 4,
            any: 12,
            ..reads
        };
        assert!(!reads_repeat(&earlier, &larger_mb, mb_read));
        // A smaller hold: any read of a held node may tell.
        let smaller = [((0, 1), Resource::new(1024, 1))].into_iter().collect();
        assert!(!reads_repeat(&earlier, &smaller, quiet));
        assert!(reads_repeat(&earlier, &smaller, reads));
        // Equal amounts: whatever was read.
        assert!(reads_repeat(&earlier, &earlier.amounts.clone(), mb_read));
    }
}
