//! Schedulers. `fair` is YARN's Fair Scheduler (both eras, with its preemption), `capacity`
//! the Capacity Scheduler on the same state (`capacity_placement` its queue choice,
//! `capacity_activation` which of a leaf's apps its offers reach,
//! `capacity_preempt` its preemption monitor); `admission` validates and normalises asks at
//! submission for both; `kill` kills containers (either scheduler's preemption, lost nodes);
//! `node_events` makes nodes join and leave during a run (both schedulers);
//! `am_limit_blocks` counts the apps each leaf's AM limit holds back (both schedulers). `books` keeps what both schedulers keep as they decide (usage up the
//! tree, ordered sets, metric terms); `Sched` is a scheduler at work on one event.

pub(crate) mod admission;
pub(crate) mod am_heartbeat;
pub(crate) mod am_limit_blocks;
pub(crate) mod books;
pub(crate) mod capacity;
pub(crate) mod capacity_activation;
pub(crate) mod capacity_auto;
pub(crate) mod capacity_placement;
pub(crate) mod capacity_preempt;
pub(crate) mod capacity_reserve;
pub(crate) mod explain;
pub mod fair;
pub(crate) mod kill;
pub(crate) mod node_events;
pub(crate) mod print;

/// What one offer of a node produced (a Fair Scheduler offer, also made to a starved app
/// by preemption).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing.
    Nothing,
    /// A container of this size.
    Allocated(fairsim_core::Resource),
    /// The node was reserved.
    Reserved,
}

/// The scheduler a run configures, owning its state: the Fair Scheduler (either era, with
/// its preemption) or the Capacity Scheduler (with its preemption monitor), chosen by the
/// kind of the queue tree. The engine owns it and knows nothing of what is inside; a
/// static choice, measured against a trait object (docs/performance.md). One per run, built
/// once and never moved on the hot path, so the variants' sizes may differ.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Scheduler {
    /// The Fair Scheduler.
    Fair(fair::FairScheduler),
    /// The Capacity Scheduler.
    Capacity(capacity::CapacityScheduler),
}

/// A scheduler at work on one event: its own state, with the world and the context the
/// engine lends it for that event. Every scheduler decision is a method of this type.
/// Exactly one of `fair` and `capacity` is present: the lent scheduler's own state, its
/// preemption included.
pub(crate) struct Sched<'s, 'a> {
    pub(crate) w: &'s mut crate::state::world::World<'a>,
    pub(crate) cx: &'s mut crate::events::ctx::Ctx<'a>,
    /// What both schedulers keep (`books::Books`).
    pub(crate) books: &'s mut books::Books,
    /// The Fair Scheduler's own state, when it is the Fair Scheduler at work.
    pub(crate) fair: Option<&'s mut fair::FairState>,
    /// The Capacity Scheduler's own state, when it is the Capacity Scheduler at work.
    pub(crate) capacity: Option<&'s mut capacity::CapacityState>,
    /// The engine watches for repeated states (its cycle watch is on).
    pub(crate) cycles_watched: bool,
}

impl Scheduler {
    /// The scheduler `sc` configures, on `cluster` (its queues and preemption are set up by
    /// [`Sched::start`] and [`Sched::start_preemption`]).
    pub(crate) fn new(
        sc: &crate::scenario::Scenario,
        cluster: &crate::state::cluster::Cluster,
    ) -> Scheduler {
        if sc.tree.scheduler == crate::tree::SchedulerKind::Capacity {
            Scheduler::Capacity(capacity::CapacityScheduler::new(sc, cluster.total))
        } else {
            Scheduler::Fair(fair::FairScheduler::new(sc, cluster.nodes.len()))
        }
    }

    /// The scheduler at work on one event, lent `w` and `cx`; `cycles_watched` says whether
    /// the engine watches for repeated states.
    #[inline]
    pub(crate) fn lend<'s, 'a>(
        &'s mut self,
        w: &'s mut crate::state::world::World<'a>,
        cx: &'s mut crate::events::ctx::Ctx<'a>,
        cycles_watched: bool,
    ) -> Sched<'s, 'a> {
        match self {
            Scheduler::Fair(f) => Sched {
                w,
                cx,
                books: &mut f.books,
                fair: Some(&mut f.state),
                capacity: None,
                cycles_watched,
            },
            Scheduler::Capacity(c) => Sched {
                w,
                cx,
                books: &mut c.books,
                fair: None,
                capacity: Some(&mut c.state),
                cycles_watched,
            },
        }
    }
}

/// What the engine asks of the scheduler: one method per event it hands over, and the
/// questions its heartbeat elision, idle-tick skipping, quiescence and cycle watches ask.
impl Sched<'_, '_> {
    /// Sets up the queues' order and shares and the preemption state; with continuous
    /// scheduling, its first pass. An error says why the scenario cannot run.
    pub(crate) fn start(&mut self) -> Result<(), String> {
        self.rerank_queues();
        self.w.compute_steady_shares();
        Ok(())
    }

    /// Preemption, once the apps are read (the Capacity Scheduler's monitor is chosen when
    /// it is made; its queues' guarantees are their min shares from now on).
    pub(crate) fn start_preemption(&mut self) {
        if self.capacity.is_some() {
            self.cs_start_guarantees();
            self.cs_cluster_resource_updated();
        } else {
            self.init_preemption();
        }
    }

    /// Continuous scheduling's first pass, when it is on, queued after the first update
    /// tick.
    pub(crate) fn start_passes(&mut self) -> Result<(), String> {
        if self.w.sc.scheduler.continuous_scheduling {
            if self.capacity.is_some() {
                return Err(
                    "scheduler.continuous_scheduling is a Fair Scheduler setting; the allocation \
                     file is a capacity-scheduler.xml"
                        .into(),
                );
            }
            let n_nodes = self.w.cluster.nodes.len();
            if let Some(f) = &mut self.fair {
                f.continuous = Some(fair::continuous::Continuous::new(n_nodes));
            }
            self.cx.events.push(
                crate::time::SimTime::ZERO,
                crate::event::Event::ContinuousPass,
            );
        }
        Ok(())
    }

    /// A live container completed.
    #[inline]
    pub(crate) fn on_completion(&mut self, container: u32) {
        let node = self.w.containers[container as usize].node;
        self.note_completion(node);
        self.on_container_finished(container);
    }

    /// The update thread's tick: preemption's clocks before, the update, preemption after
    /// (the Fair Scheduler's, or the Capacity Scheduler's monitors).
    pub(crate) fn on_update(&mut self) {
        self.before_update();
        self.update();
        self.after_update();
        self.cs_preemption_monitor();
        self.cs_manage_auto_queues();
    }

    /// After every event: what held only for the event is forgotten, and parked nodes whose
    /// heartbeat inputs it touched are checked again.
    #[inline]
    pub(crate) fn after_event(&mut self) {
        if let Some(f) = &mut self.fair {
            f.full_nodes.forget();
        }
        self.settle_parked();
    }

    /// The scheduler's part of an idle update tick (see `engine::idle_ticks`): no
    /// preemption, no booster, and nothing marked for its update.
    pub(crate) fn update_is_idle(&self) -> bool {
        !self.preempts()
            && self.w.sc.scheduler.booster.is_none()
            && (!self.app_shares_kept() || self.books.app_share_leaves.is_empty())
            && self.books.queue_shares.nothing_touched()
            && !self.cs_auto_queues_pending()
    }

    /// Whether a container may be killed other than by a node event (preemption is on).
    #[inline]
    pub(crate) fn preempts(&self) -> bool {
        match (&self.fair, &self.capacity) {
            (Some(f), _) => !matches!(f.preempt, fair::preempt::FairPreempt::Off),
            (None, Some(c)) => c.monitor.is_some(),
            (None, None) => false,
        }
    }

    /// The preemption the scheduler at work runs, read.
    pub(crate) fn preemption(&self) -> Preemption<'_> {
        use fair::preempt::FairPreempt;
        match (&self.fair, &self.capacity) {
            (Some(f), _) => match &f.preempt {
                FairPreempt::Off => Preemption::Off,
                FairPreempt::Fs27(fs) => Preemption::Fs27(fs),
                FairPreempt::Fs33 { fs, search } => Preemption::Fs33 { fs, search },
            },
            (None, Some(c)) => c
                .monitor
                .as_ref()
                .map_or(Preemption::Off, Preemption::Capacity),
            (None, None) => Preemption::Off,
        }
    }
}

/// The preemption a scheduler runs, as its readers (the cycle fingerprint, the explanation
/// of waits) see it; each scheduler owns its own (`fair::preempt::FairPreempt`,
/// `capacity_preempt::ProportionalPreemption`).
pub(crate) enum Preemption<'p> {
    /// Off.
    Off,
    /// The Fair Scheduler's, Hadoop 2.7.
    Fs27(&'p crate::preemption::round::Fs27),
    /// The Fair Scheduler's, Hadoop 3.3.
    Fs33 {
        /// Starvation state.
        fs: &'p crate::preemption::round::Fs33,
        /// Marked containers.
        search: &'p crate::preemption::victims::Search33,
    },
    /// The Capacity Scheduler's proportional preemption monitor.
    Capacity(&'p capacity_preempt::ProportionalPreemption),
}
