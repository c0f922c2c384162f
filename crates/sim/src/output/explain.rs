//! Why apps waited: the causes a wait is attributed to, the book that attributes every
//! millisecond of a wait to exactly one of them, and the rows of `explain.csv`,
//! `explain_timeline.csv` and `starvation.csv` (docs/explain.md).
//!
//! The book is pure accounting: the scheduler says, at its decision points, what each
//! waiting app waits for (`scheduler::explain`); the book keeps per app the cause in force
//! and since when, and adds the elapsed time to that cause when the cause changes or the
//! wait ends. An app's causes therefore sum to its wait exactly, in integer ms, by
//! construction.

use crate::time::SimTime;
use std::fmt::Write as _;

/// What a waiting app waits for, in the order the schedulers check it. Each has a stable
/// snake_case name (the columns of `explain.csv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// Not runnable: its user is at the user's maxRunningApps (Fair) or the user's
    /// max-parallel-apps (Capacity).
    MaxRunningAppsUser,
    /// Not runnable: its leaf queue is at maxRunningApps (max-parallel-apps).
    MaxRunningAppsQueue,
    /// Not runnable: a parent queue is at maxRunningApps (max-parallel-apps).
    MaxRunningAppsParent,
    /// Its AM is refused by the leaf's AM limit: maxAMShare × the leaf's fair share (Fair);
    /// the leaf has not activated the app, for its queue's or its user's AM limit (Capacity).
    AmLimit,
    /// Its queue or a parent is at its maximum: maxResources (Fair), maximum-capacity or
    /// the limit its parent hands it (Capacity).
    QueueMax,
    /// Its user is at the Capacity Scheduler's user limit in its leaf.
    UserLimit,
    /// No node has room for its ask, and no app or queue ahead of it asks: the first
    /// container to finish makes room for it.
    NoRoom,
    /// Nodes have room, but none it may take yet: delay scheduling waits for a node or
    /// rack it prefers.
    LocalityDelay,
    /// The only nodes with room are reserved for other apps.
    NodeReserved,
    /// No node has room for its ask and apps or queues ahead of it in the scheduler's order
    /// ask too: freed room goes to them first.
    BehindInOrder,
    /// The cluster is full, its queue is below its fair share (Capacity: its guaranteed
    /// capacity), and preemption is off for it (off, or no preemption timeout set).
    PreemptionOff,
    /// The cluster is full and its queue (Hadoop 3.x: the app) is starved, but the
    /// preemption timeout has not passed yet.
    PreemptionTimeout,
    /// The cluster is full and its queue (Hadoop 3.x: the app) is below its fair share but
    /// above fairSharePreemptionThreshold × fair share: not starved, so preemption never
    /// acts for it (YARN-2026).
    AbovePreemptionThreshold,
    /// The cluster is full and preemption acts for it: containers are being taken from
    /// queues over their share.
    PreemptionUnderWay,
    /// Nothing holds it back: a node with room is offered to it at the next heartbeat (in
    /// Hadoop 3.3's Fair Scheduler, once the next update has seen its demand).
    NextOffer,
}

impl Cause {
    /// Every cause, in the order of the columns of `explain.csv`.
    pub const ALL: [Cause; 15] = [
        Cause::MaxRunningAppsUser,
        Cause::MaxRunningAppsQueue,
        Cause::MaxRunningAppsParent,
        Cause::AmLimit,
        Cause::QueueMax,
        Cause::UserLimit,
        Cause::NoRoom,
        Cause::LocalityDelay,
        Cause::NodeReserved,
        Cause::BehindInOrder,
        Cause::PreemptionOff,
        Cause::PreemptionTimeout,
        Cause::AbovePreemptionThreshold,
        Cause::PreemptionUnderWay,
        Cause::NextOffer,
    ];

    /// Its position in [`Cause::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The stable snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Cause::MaxRunningAppsUser => "max_running_apps_user",
            Cause::MaxRunningAppsQueue => "max_running_apps_queue",
            Cause::MaxRunningAppsParent => "max_running_apps_parent",
            Cause::AmLimit => "am_limit",
            Cause::QueueMax => "queue_max",
            Cause::UserLimit => "user_limit",
            Cause::NoRoom => "no_room",
            Cause::LocalityDelay => "locality_delay",
            Cause::NodeReserved => "node_reserved",
            Cause::BehindInOrder => "behind_in_order",
            Cause::PreemptionOff => "preemption_off",
            Cause::PreemptionTimeout => "preemption_timeout",
            Cause::AbovePreemptionThreshold => "above_preemption_threshold",
            Cause::PreemptionUnderWay => "preemption_under_way",
            Cause::NextOffer => "next_offer",
        }
    }

    /// The cause named `name`.
    pub fn from_name(name: &str) -> Option<Cause> {
        Cause::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What it means, in words (the metric catalogue and docs/explain.md print it).
    pub fn meaning(self) -> &'static str {
        match self {
            Cause::MaxRunningAppsUser => {
                "not runnable: the user is at its maxRunningApps (Capacity: the user's max-parallel-apps)"
            }
            Cause::MaxRunningAppsQueue => {
                "not runnable: the leaf queue is at maxRunningApps (Capacity: max-parallel-apps)"
            }
            Cause::MaxRunningAppsParent => {
                "not runnable: a parent queue is at maxRunningApps (Capacity: max-parallel-apps)"
            }
            Cause::AmLimit => {
                "the AM is refused by the leaf's AM limit (Fair: maxAMShare x the leaf's fair share; Capacity: the leaf has not activated the app, for its queue's or its user's AM limit)"
            }
            Cause::QueueMax => {
                "the queue or a parent is at its maximum (Fair: maxResources; Capacity: maximum-capacity or its parent's limit)"
            }
            Cause::UserLimit => "the user is at the Capacity Scheduler's user limit in the leaf",
            Cause::NoRoom => {
                "no node has room for the ask and nothing ahead of it asks: the next container to finish makes room"
            }
            Cause::LocalityDelay => {
                "nodes have room but not where it asked: delay scheduling waits for a preferred node or rack"
            }
            Cause::NodeReserved => "the only nodes with room are reserved for other apps",
            Cause::BehindInOrder => {
                "no node has room and apps or queues ahead of it in the scheduler's order ask too"
            }
            Cause::PreemptionOff => {
                "the cluster is full, the queue is below its fair share (Capacity: guaranteed capacity) and preemption is off for it"
            }
            Cause::PreemptionTimeout => {
                "the cluster is full and the queue (Hadoop 3.x: the app) is starved, but its preemption timeout has not passed"
            }
            Cause::AbovePreemptionThreshold => {
                "the cluster is full and the queue (Hadoop 3.x: the app) is below its fair share but above the fair-share preemption threshold: preemption never acts for it"
            }
            Cause::PreemptionUnderWay => {
                "the cluster is full and preemption is taking containers back for it"
            }
            Cause::NextOffer => {
                "nothing holds it back: a node with room is offered to it at the next heartbeat (Hadoop 3.3 Fair: after the next update)"
            }
        }
    }
}

/// Which wait of an app: for its first container (its AM, as `apps.csv`'s `wait_ms`), or
/// for task containers once it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WaitKind {
    /// Submission to the first container (`wait_ms`).
    Am,
    /// Time with task containers asked for and not yet allocated, after the first container.
    Tasks,
}

impl WaitKind {
    /// The name in `explain_timeline.csv`.
    pub fn name(self) -> &'static str {
        match self {
            WaitKind::Am => "am",
            WaitKind::Tasks => "tasks",
        }
    }
}

/// One stretch of a wait with one cause: `[from_ms, to_ms)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stretch {
    /// The wait it belongs to.
    pub kind: WaitKind,
    /// Start, ms.
    pub from_ms: u64,
    /// End, ms.
    pub to_ms: u64,
    /// The cause in force.
    pub cause: Cause,
}

/// The wait of one kind in progress: its cause and since when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Open {
    cause: Cause,
    since: u64,
}

/// One app's attribution: the waits in progress, and the stretches closed so far.
#[derive(Debug, Clone, Default)]
struct AppBook {
    am: Option<Open>,
    tasks: Option<Open>,
    /// Whether its AM wait was opened (once per app).
    am_seen: bool,
    stretches: Vec<Stretch>,
    /// Listed in [`WaitBook::touched`].
    touched: bool,
    /// Listed in [`WaitBook::open`].
    listed: bool,
}

/// Every app's attribution during a run. The engine holds one when `explain` is on.
#[derive(Debug, Clone, Default)]
pub struct WaitBook {
    apps: Vec<AppBook>,
    /// Apps whose requests, usage or phase changed since the book last looked at them.
    touched: Vec<u32>,
    /// Apps with a wait in progress (some may have closed since; compacted at each pass).
    open: Vec<u32>,
    /// Per queue id: the start of its starvation episode in progress.
    starved_since: Vec<Option<u64>>,
    /// Closed starvation episodes: (queue id, from, to).
    episodes: Vec<(u32, u64, u64)>,
}

impl WaitBook {
    /// A book for `n_apps` apps.
    pub fn new(n_apps: usize) -> WaitBook {
        WaitBook {
            apps: vec![AppBook::default(); n_apps],
            touched: Vec::new(),
            open: Vec::new(),
            starved_since: Vec::new(),
            episodes: Vec::new(),
        }
    }

    /// Queue `q` (a [`StarvationKind::key`]) is starved (or not) at `now`: an episode
    /// begins or ends.
    pub fn queue_starved(&mut self, q: u32, starved: bool, now: u64) {
        let i = q as usize;
        if self.starved_since.len() <= i {
            self.starved_since.resize(i + 1, None);
        }
        match (self.starved_since[i], starved) {
            (None, true) => self.starved_since[i] = Some(now),
            (Some(from), false) => {
                self.starved_since[i] = None;
                if now > from {
                    self.episodes.push((q, from, now));
                }
            }
            _ => {}
        }
    }

    /// Every starvation episode: (queue id, from, to, ended), those still in progress
    /// ending at `end`; by queue id, then start.
    pub fn episodes(&self, end: u64) -> Vec<(u32, u64, u64, bool)> {
        let mut out: Vec<(u32, u64, u64, bool)> = self
            .episodes
            .iter()
            .map(|&(q, f, t)| (q, f, t, true))
            .collect();
        for (q, since) in self.starved_since.iter().enumerate() {
            if let Some(f) = *since
                && end > f
            {
                out.push((q as u32, f, end, false));
            }
        }
        out.sort_unstable();
        out
    }

    /// App `a` changed: the book looks at it after the current event.
    #[inline]
    pub fn touch(&mut self, a: u32) {
        let b = &mut self.apps[a as usize];
        if !b.touched {
            b.touched = true;
            self.touched.push(a);
        }
    }

    /// Whether an app was touched since the last [`WaitBook::take_touched`].
    #[inline]
    pub fn any_touched(&self) -> bool {
        !self.touched.is_empty()
    }

    /// The apps touched since the last call, in the order they were touched.
    pub fn take_touched(&mut self) -> Vec<u32> {
        let t = std::mem::take(&mut self.touched);
        for &a in &t {
            self.apps[a as usize].touched = false;
        }
        t
    }

    /// The apps with a wait in progress, each once, in the order they opened.
    pub fn open_apps(&mut self) -> Vec<u32> {
        let apps = &mut self.apps;
        self.open.retain(|&a| {
            let b = &mut apps[a as usize];
            b.listed = b.am.is_some() || b.tasks.is_some();
            b.listed
        });
        self.open.clone()
    }

    /// Whether the wait `kind` of app `a` is in progress.
    pub fn is_open(&self, a: u32, kind: WaitKind) -> bool {
        self.slot(a, kind).is_some()
    }

    /// Whether app `a`'s AM wait was ever opened.
    pub fn am_seen(&self, a: u32) -> bool {
        self.apps[a as usize].am_seen
    }

    fn slot(&self, a: u32, kind: WaitKind) -> &Option<Open> {
        let b = &self.apps[a as usize];
        match kind {
            WaitKind::Am => &b.am,
            WaitKind::Tasks => &b.tasks,
        }
    }

    fn slot_mut(&mut self, a: u32, kind: WaitKind) -> &mut Option<Open> {
        let b = &mut self.apps[a as usize];
        match kind {
            WaitKind::Am => &mut b.am,
            WaitKind::Tasks => &mut b.tasks,
        }
    }

    /// Wait `kind` of app `a` begins at `at` with `cause` (nothing if it is in progress).
    pub fn open(&mut self, a: u32, kind: WaitKind, at: u64, cause: Cause) {
        if self.slot(a, kind).is_some() {
            return;
        }
        *self.slot_mut(a, kind) = Some(Open { cause, since: at });
        let b = &mut self.apps[a as usize];
        if kind == WaitKind::Am {
            b.am_seen = true;
        }
        if !b.listed {
            b.listed = true;
            self.open.push(a);
        }
    }

    /// The cause of wait `kind` of app `a` is `cause` from `at` on: the time since the
    /// previous cause took over goes to the previous cause.
    pub fn set(&mut self, a: u32, kind: WaitKind, at: u64, cause: Cause) {
        let Some(o) = *self.slot(a, kind) else {
            return;
        };
        if o.cause == cause {
            return;
        }
        let at = at.max(o.since);
        self.push(a, kind, o, at);
        *self.slot_mut(a, kind) = Some(Open { cause, since: at });
    }

    /// Wait `kind` of app `a` ends at `at`: its cause gets the time since it took over.
    pub fn close(&mut self, a: u32, kind: WaitKind, at: u64) {
        if let Some(o) = self.slot_mut(a, kind).take() {
            let at = at.max(o.since);
            self.push(a, kind, o, at);
        }
    }

    fn push(&mut self, a: u32, kind: WaitKind, o: Open, to_ms: u64) {
        if to_ms == o.since {
            return;
        }
        let s = &mut self.apps[a as usize].stretches;
        // A cause that comes back right after itself (a wait closed and reopened at once)
        // extends its stretch.
        if let Some(last) = s.last_mut()
            && last.kind == kind
            && last.cause == o.cause
            && last.to_ms == o.since
        {
            last.to_ms = to_ms;
            return;
        }
        s.push(Stretch {
            kind,
            from_ms: o.since,
            to_ms,
            cause: o.cause,
        });
    }

    /// Every wait still in progress ends at `at` (the end of the run).
    pub fn close_all(&mut self, at: u64) {
        for a in 0..self.apps.len() as u32 {
            self.close(a, WaitKind::Am, at);
            self.close(a, WaitKind::Tasks, at);
        }
    }

    /// App `a`'s closed stretches, in time order per kind.
    pub fn stretches(&self, a: u32) -> &[Stretch] {
        &self.apps[a as usize].stretches
    }

    /// The number of apps the book was made for.
    pub fn len(&self) -> usize {
        self.apps.len()
    }

    /// Whether the book was made for no app.
    pub fn is_empty(&self) -> bool {
        self.apps.is_empty()
    }
}

/// An app's attribution summed per cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppCauses {
    /// ms per cause of the wait for the first container, by [`Cause::index`].
    pub am_ms: [u64; 15],
    /// ms per cause of the time with task containers pending, by [`Cause::index`].
    pub tasks_ms: [u64; 15],
    /// The cause in force when its first-container wait began.
    pub first: Option<Cause>,
    /// The cause with the most ms of its first-container wait (the earliest in
    /// [`Cause::ALL`] among equals).
    pub dominant: Option<Cause>,
}

impl AppCauses {
    /// The sums of `stretches`.
    pub fn of(stretches: &[Stretch]) -> AppCauses {
        let mut c = AppCauses {
            am_ms: [0; 15],
            tasks_ms: [0; 15],
            first: None,
            dominant: None,
        };
        for s in stretches {
            let len = s.to_ms - s.from_ms;
            match s.kind {
                WaitKind::Am => {
                    c.first.get_or_insert(s.cause);
                    c.am_ms[s.cause.index()] += len;
                }
                WaitKind::Tasks => c.tasks_ms[s.cause.index()] += len,
            }
        }
        c.dominant = dominant(&c.am_ms);
        c
    }

    /// The whole first-container wait, ms.
    pub fn am_total(&self) -> u64 {
        self.am_ms.iter().sum()
    }

    /// The whole time with task containers pending, ms.
    pub fn tasks_total(&self) -> u64 {
        self.tasks_ms.iter().sum()
    }
}

/// The cause with the most ms in `ms` (the first among equals), `None` when all are 0.
pub fn dominant(ms: &[u64; 15]) -> Option<Cause> {
    let mut best: Option<(u64, Cause)> = None;
    for c in Cause::ALL {
        let v = ms[c.index()];
        if v > 0 && best.is_none_or(|(b, _)| v > b) {
            best = Some((v, c));
        }
    }
    best.map(|b| b.1)
}

/// One app of a run as `explain.csv` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainRow {
    /// App index.
    pub index: u32,
    /// Name from the workload.
    pub name: String,
    /// Its leaf queue.
    pub queue: String,
    /// Submission, ms.
    pub arrival_ms: u64,
    /// Its attribution.
    pub causes: AppCauses,
    /// Its stretches.
    pub stretches: Vec<Stretch>,
}

/// Which starvation an episode is, as the metrics count it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum StarvationKind {
    /// Usage below min(min share, demand) (`starved_min_s`; under the Capacity Scheduler the
    /// min share is the guaranteed capacity).
    MinShare,
    /// Usage below the fair-share preemption threshold times the fair share
    /// (`starved_fair_s`).
    FairShare,
}

impl StarvationKind {
    /// Both kinds, in the order of their episodes' rows.
    pub const ALL: [StarvationKind; 2] = [StarvationKind::MinShare, StarvationKind::FairShare];

    /// The stable name in `starvation.csv`.
    pub fn name(self) -> &'static str {
        match self {
            StarvationKind::MinShare => "min_share",
            StarvationKind::FairShare => "fair_share",
        }
    }

    /// The key the book tracks an episode of leaf `q` of this kind under.
    pub fn key(self, q: u32) -> u32 {
        q * 2 + self as u32
    }

    /// The leaf and kind of a book key.
    pub fn of_key(key: u32) -> (u32, StarvationKind) {
        let kind = if key.is_multiple_of(2) {
            StarvationKind::MinShare
        } else {
            StarvationKind::FairShare
        };
        (key / 2, kind)
    }
}

/// A queue's starvation episode and what its apps waited for during it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarvationEpisode {
    /// The leaf queue.
    pub queue: String,
    /// Which starvation.
    pub kind: StarvationKind,
    /// Start, ms.
    pub from_ms: u64,
    /// End, ms (the end of the run when it never ended).
    pub to_ms: u64,
    /// Whether it ended before the end of the run.
    pub ended: bool,
    /// ms per cause of its apps' waits within the episode, by [`Cause::index`].
    pub causes_ms: [u64; 15],
}

/// What `explain` adds to a run's outputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExplainReport {
    /// One row per app in the run, by index.
    pub apps: Vec<ExplainRow>,
    /// Starvation episodes, by queue, then kind (min share first), then start.
    pub starvation: Vec<StarvationEpisode>,
}

/// The header of `explain.csv`.
pub fn explain_header() -> String {
    let mut h =
        String::from("app_index,app,queue,wait_ms,tasks_pending_ms,first_cause,dominant_cause");
    for c in Cause::ALL {
        let _ = write!(h, ",wait_ms.{}", c.name());
    }
    for c in Cause::ALL {
        let _ = write!(h, ",tasks_ms.{}", c.name());
    }
    h.push('\n');
    h
}

/// The header of `explain_timeline.csv`.
pub const TIMELINE_HEADER: &str = "app_index,wait,from_ms,to_ms,cause\n";

/// The header of `starvation.csv`.
pub fn starvation_header() -> String {
    let mut h = String::from("queue,kind,from_ms,to_ms,ended,dominant_cause");
    for c in Cause::ALL {
        let _ = write!(h, ",ms.{}", c.name());
    }
    h.push('\n');
    h
}

impl ExplainReport {
    /// The `wait_cause_<cause>_s` metrics: per cause, the mean over the run's apps of the
    /// first-container wait attributed to it, seconds (NaN for a run without apps, as the
    /// other means).
    pub fn push_wait_cause_metrics(&self, out: &mut Vec<(String, f64)>) {
        let n = self.apps.len();
        for c in Cause::ALL {
            let ms: u64 = self.apps.iter().map(|a| a.causes.am_ms[c.index()]).sum();
            let mean = if n == 0 {
                f64::NAN
            } else {
                ms as f64 / 1000.0 / n as f64
            };
            out.push((format!("wait_cause_{}_s", c.name()), mean));
        }
    }

    /// `explain.csv`.
    pub fn explain_csv(&self) -> String {
        let mut s = explain_header();
        for r in &self.apps {
            let c = &r.causes;
            let _ = write!(
                s,
                "{},{},{},{},{},{},{}",
                r.index,
                crate::output::csv_text::csv_field(&r.name),
                crate::output::csv_text::csv_field(&r.queue),
                c.am_total(),
                c.tasks_total(),
                c.first.map_or("", Cause::name),
                c.dominant.map_or("", Cause::name)
            );
            for v in c.am_ms.iter().chain(c.tasks_ms.iter()) {
                let _ = write!(s, ",{v}");
            }
            s.push('\n');
        }
        s
    }

    /// `explain_timeline.csv`: every stretch of every app, by app then time.
    pub fn timeline_csv(&self) -> String {
        let mut s = String::from(TIMELINE_HEADER);
        for r in &self.apps {
            for t in &r.stretches {
                let _ = writeln!(
                    s,
                    "{},{},{},{},{}",
                    r.index,
                    t.kind.name(),
                    t.from_ms,
                    t.to_ms,
                    t.cause.name()
                );
            }
        }
        s
    }

    /// `starvation.csv`.
    pub fn starvation_csv(&self) -> String {
        let mut s = starvation_header();
        for e in &self.starvation {
            let _ = write!(
                s,
                "{},{},{},{},{},{}",
                crate::output::csv_text::csv_field(&e.queue),
                e.kind.name(),
                e.from_ms,
                e.to_ms,
                e.ended,
                dominant(&e.causes_ms).map_or("", Cause::name)
            );
            for v in &e.causes_ms {
                let _ = write!(s, ",{v}");
            }
            s.push('\n');
        }
        s
    }
}

/// ms of `stretches` of queue apps that fall within `[from, to)`, per cause (both kinds of
/// wait: a starving queue's apps wait for AMs and for tasks alike).
pub fn causes_within(stretches: &[Stretch], from: u64, to: u64, into: &mut [u64; 15]) {
    for s in stretches {
        let (a, b) = (s.from_ms.max(from), s.to_ms.min(to));
        if b > a {
            into[s.cause.index()] += b - a;
        }
    }
}

/// One group of a stalled run's unfinished apps: same leaf, same cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StallGroup {
    /// The leaf queue.
    pub queue: String,
    /// What they wait for.
    pub cause: Cause,
    /// How many apps.
    pub apps: u64,
    /// How many of them wait for their first container (the others for tasks).
    pub waiting_for_am: u64,
    /// The sentence: what they wait for, the numbers, what would unblock them.
    pub words: String,
}

/// `ms` as seconds for sentences: whole seconds, or three decimals below 10 s.
pub fn secs_words(ms: u64) -> String {
    if ms >= 10_000 && ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else if ms >= 10_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{} s", SimTime(ms).secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_round_trip() {
        for (i, c) in Cause::ALL.into_iter().enumerate() {
            assert_eq!(c.index(), i);
            assert_eq!(Cause::from_name(c.name()), Some(c));
        }
        let mut names: Vec<&str> = Cause::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Cause::ALL.len());
    }

    #[test]
    fn a_wait_is_split_where_its_cause_changes_and_sums_to_its_length() {
        let mut b = WaitBook::new(1);
        b.open(0, WaitKind::Am, 1_000, Cause::AmLimit);
        b.set(0, WaitKind::Am, 4_000, Cause::AmLimit);
        b.set(0, WaitKind::Am, 5_500, Cause::BehindInOrder);
        b.close(0, WaitKind::Am, 7_000);
        let c = AppCauses::of(b.stretches(0));
        assert_eq!(c.am_ms[Cause::AmLimit.index()], 4_500);
        assert_eq!(c.am_ms[Cause::BehindInOrder.index()], 1_500);
        assert_eq!(c.am_total(), 6_000);
        assert_eq!(c.first, Some(Cause::AmLimit));
        assert_eq!(c.dominant, Some(Cause::AmLimit));
        assert!(!b.is_open(0, WaitKind::Am));
    }

    #[test]
    fn equal_causes_resolve_to_the_first_in_check_order() {
        let mut ms = [0u64; 15];
        ms[Cause::NoRoom.index()] = 10;
        ms[Cause::AmLimit.index()] = 10;
        assert_eq!(dominant(&ms), Some(Cause::AmLimit));
        assert_eq!(dominant(&[0; 15]), None);
    }
}
