//! Why an app waits: the classifier of a waiting app's cause (`classify.rs`, in the order
//! each scheduler checks it), the attribution of every wait to causes as the run goes
//! (this file), and the diagnosis of a stalled run in words (`stall.rs`). docs/explain.md.
//!
//! Granularity: an app is classified when its wait begins (its submission, or the first
//! task ask after its first container; the hooks `Sched::explain_touch` in `submit` and
//! `pending_changed` tell the book which apps an event touched), and at every update tick
//! for every app with a wait in progress. A cause that changes between two ticks is seen at
//! the next one: the time in between goes to the cause before. A wait ends exactly when its
//! first container is allocated (the AM wait, read off the app) or when its last pending
//! task is allocated. The cost is one pass over the waiting apps per update tick, not per
//! heartbeat, plus the waits an event opens; the order's head and the nodes with room for
//! each ask size are computed once per pass.

mod classify;
pub(crate) mod stall;

use crate::app::AppPhase;
use crate::explain::{Cause, WaitBook, WaitKind};
use crate::scheduler::Sched;
use fairsim_core::Resource;
use std::collections::BTreeMap;

/// What one pass of the classifier computes once and reads for many apps: the head of each
/// queue's order (the child or app a descent would serve first), and which nodes have room
/// for each ask size.
pub(crate) struct Pass {
    /// Per queue: not computed yet, or the head (`None` when nothing in it asks).
    heads: Vec<Option<Option<u32>>>,
    /// Per ask size: the nodes with room for it, and whether one of them is not reserved.
    room: BTreeMap<(i64, i64), Room>,
    /// The leaves holding more than their fair share (Capacity: guaranteed capacity), from
    /// which preemption could take: computed once per pass.
    pub(crate) over_share: Option<Vec<u32>>,
}

/// The nodes in service with room for one ask size.
#[derive(Debug, Clone, Default)]
pub(crate) struct Room {
    /// Nodes with room for it.
    nodes: Vec<u32>,
    /// Whether one of them holds no reservation.
    unreserved: bool,
}

impl Pass {
    pub(crate) fn new(n_queues: usize) -> Pass {
        Pass {
            heads: vec![None; n_queues],
            room: BTreeMap::new(),
            over_share: None,
        }
    }
}

impl Sched<'_, '_> {
    /// App `a`'s requests, containers or phase changed: with explain on, the book looks at
    /// it after the current event. One predictable branch when explain is off.
    #[inline]
    pub(crate) fn explain_touch(&mut self, a: u32) {
        if let Some(book) = self.cx.explain.as_deref_mut() {
            book.touch(a);
        }
    }

    /// After an event with explain on: the apps it touched are looked at again, and at an
    /// update tick every app with a wait in progress (and each leaf's starvation).
    pub(crate) fn explain_after_event(&mut self, tick: bool) {
        let Some(mut book) = self.cx.explain.take() else {
            return;
        };
        if !tick && !book.any_touched() {
            self.cx.explain = Some(book);
            return;
        }
        let now = self.cx.now.0;
        let touched = book.take_touched();
        let mut pass = Pass::new(self.w.queues.len());
        if tick {
            for a in touched.into_iter().chain(book.open_apps()) {
                self.explain_settle(&mut book, &mut pass, a, now, true);
            }
        } else {
            for a in touched {
                self.explain_settle(&mut book, &mut pass, a, now, false);
            }
        }
        if tick {
            self.explain_starvation(&mut book, now);
        }
        self.cx.explain = Some(book);
    }

    /// Opens, re-classifies or closes app `a`'s waits as its state says at `now`. A wait
    /// that goes on is classified again only at an update tick (`tick`): between ticks an
    /// event classifies only the waits it opens.
    fn explain_settle(&self, book: &mut WaitBook, pass: &mut Pass, a: u32, now: u64, tick: bool) {
        let i = a as usize;
        let app = &self.w.apps[i];
        let live = matches!(app.phase, AppPhase::Runnable | AppPhase::Waiting);
        if live && !book.am_seen(a) && app.first_container.is_none() {
            let cause = self.wait_cause(a, pass);
            book.open(a, WaitKind::Am, self.w.specs[i].arrival.0, cause);
        }
        if book.is_open(a, WaitKind::Am) {
            match (app.first_container, app.finish) {
                (Some(t), _) | (None, Some(t)) => book.close(a, WaitKind::Am, t.0),
                (None, None) if !live => book.close(a, WaitKind::Am, now),
                (None, None) if !tick => {}
                (None, None) => {
                    let cause = self.wait_cause(a, pass);
                    book.set(a, WaitKind::Am, now, cause);
                }
            }
        }
        let tasks_pending = live && app.first_container.is_some() && app.requests.pending > 0;
        match (tasks_pending, book.is_open(a, WaitKind::Tasks)) {
            (true, false) => {
                let cause = self.wait_cause(a, pass);
                book.open(a, WaitKind::Tasks, now, cause);
            }
            (true, true) if tick => {
                let cause = self.wait_cause(a, pass);
                book.set(a, WaitKind::Tasks, now, cause);
            }
            (true, true) => {}
            (false, true) => book.close(a, WaitKind::Tasks, now),
            (false, false) => {}
        }
    }

    /// Each leaf's starvation, as the metrics define it, begins or ends at this tick: below
    /// min(min share, demand) (`starved_min_s`) and below the fair-share preemption
    /// threshold times its fair share (`starved_fair_s`).
    fn explain_starvation(&self, book: &mut WaitBook, now: u64) {
        use crate::explain::StarvationKind;
        for (i, q) in self.w.queues.iter().enumerate() {
            let conf = &self.w.tree.queues[i];
            if !conf.is_leaf {
                continue;
            }
            let leaf = crate::tree::QueueId(i as u32);
            let below_min = q.usage.memory_mb < q.min_share.memory_mb.min(q.demand.memory_mb);
            let below_fair = crate::scheduler::fair::queue_shares::starved_fair(
                q.usage.memory_mb,
                conf.fair_share_preemption_threshold as f64,
                self.fair_share_of(leaf).memory_mb,
            );
            book.queue_starved(StarvationKind::MinShare.key(leaf.0), below_min, now);
            book.queue_starved(StarvationKind::FairShare.key(leaf.0), below_fair, now);
        }
    }

    /// The nodes in service with room for `size` (once per pass and size).
    pub(crate) fn room_for<'p>(&self, pass: &'p mut Pass, size: Resource) -> &'p Room {
        let fit = self.container_fit();
        pass.room
            .entry((size.memory_mb, size.vcores))
            .or_insert_with(|| {
                let mut room = Room::default();
                for (n, node) in self.w.cluster.nodes.iter().enumerate() {
                    if node.state == crate::cluster::NodeState::Running
                        && fit.fits_in(size, node.available())
                    {
                        room.nodes.push(n as u32);
                        room.unreserved |= node.reservation.is_none();
                    }
                }
                room
            })
    }

    /// Whether app `a` would be served first by a descent from the root: at every level its
    /// queue (or itself) heads the order of those that ask.
    pub(crate) fn heads_the_order(&self, a: u32, pass: &mut Pass) -> bool {
        let leaf = self.w.apps[a as usize].queue;
        if self.head_of(leaf, pass) != Some(a) {
            return false;
        }
        let mut child = leaf;
        while let Some(parent) = self.w.tree.get(child).parent {
            if self.head_of(parent, pass) != Some(child.0) {
                return false;
            }
            child = parent;
        }
        true
    }

    /// The head of queue `q`'s order (once per pass and queue).
    fn head_of(&self, q: crate::tree::QueueId, pass: &mut Pass) -> Option<u32> {
        if let Some(h) = pass.heads[q.idx()] {
            return h;
        }
        let h = if self.capacity.is_some() {
            self.cs_head_of(q)
        } else {
            self.fair_head_of(q)
        };
        pass.heads[q.idx()] = Some(h);
        h
    }

    /// The cause app `a` waits for now.
    pub(crate) fn wait_cause(&self, a: u32, pass: &mut Pass) -> Cause {
        let app = &self.w.apps[a as usize];
        if app.phase == AppPhase::Waiting {
            return self.not_runnable_cause(a);
        }
        if self.capacity.is_some() {
            self.cs_wait_cause(a, pass)
        } else {
            self.fair_wait_cause(a, pass)
        }
    }

    /// Which maxRunningApps holds app `a` back, in `canAppBeRunnable`'s order: its user,
    /// its leaf, then the parents up to the root.
    fn not_runnable_cause(&self, a: u32) -> Cause {
        let app = &self.w.apps[a as usize];
        let u = &self.w.users[app.user as usize];
        if u.runnable >= u.max_running {
            return Cause::MaxRunningAppsUser;
        }
        let leaf = &self.w.queues[app.queue.idx()];
        if leaf.runnable >= leaf.max_running {
            return Cause::MaxRunningAppsQueue;
        }
        let mut q = self.w.tree.get(app.queue).parent;
        while let Some(id) = q {
            let qs = &self.w.queues[id.idx()];
            if qs.runnable >= qs.max_running {
                return Cause::MaxRunningAppsParent;
            }
            q = self.w.tree.get(id).parent;
        }
        // Below every limit, waiting for a runnable app of its queue to leave (Hadoop
        // promotes waiting apps only then).
        Cause::MaxRunningAppsQueue
    }
}

/// What `explain` writes at the end of a run: every app in the run by index (its waits
/// closed by [`WaitBook::close_all`]), and every leaf's starvation episodes with the causes
/// its apps waited for within them.
pub(crate) fn report(
    w: &crate::state::world::World<'_>,
    book: &WaitBook,
    end: u64,
) -> crate::explain::ExplainReport {
    use crate::explain::{AppCauses, ExplainRow, StarvationEpisode, causes_within};
    let mut apps = Vec::new();
    // Per leaf, its apps' indices, for the episodes.
    let mut by_leaf: Vec<Vec<u32>> = vec![Vec::new(); w.queues.len()];
    for (i, app) in w.apps.iter().enumerate() {
        if app.phase == AppPhase::Future {
            continue;
        }
        let stretches = book.stretches(i as u32).to_vec();
        by_leaf[app.queue.idx()].push(i as u32);
        apps.push(ExplainRow {
            index: i as u32,
            name: w.specs[i].name.clone(),
            queue: w.record_queue(i).to_string(),
            arrival_ms: w.specs[i].arrival.0,
            causes: AppCauses::of(&stretches),
            stretches,
        });
    }
    let starvation = book
        .episodes(end)
        .into_iter()
        .map(|(key, from, to, ended)| {
            let (q, kind) = crate::explain::StarvationKind::of_key(key);
            let mut causes_ms = [0u64; 15];
            for &a in &by_leaf[q as usize] {
                causes_within(book.stretches(a), from, to, &mut causes_ms);
            }
            StarvationEpisode {
                queue: w.tree.queues[q as usize].name.clone(),
                kind,
                from_ms: from,
                to_ms: to,
                ended,
                causes_ms,
            }
        })
        .collect();
    crate::explain::ExplainReport { apps, starvation }
}
