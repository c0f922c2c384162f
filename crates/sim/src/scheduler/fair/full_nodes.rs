//! Hadoop 3.3: heartbeats of nodes too full for every ask, while no app may reserve, are
//! elided (the Fair Scheduler).
//!
//! Hadoop 2.7 reserves a full node for the first app whose container does not fit it
//! (bounded only by maxResources), and a reserved node whose container still does not fit
//! is parked (`parking`): a full cluster with apps asking parks. Hadoop 3.3 reserves only
//! for an app starved at that moment (`FSAppAttempt.isReservable`: below its fair share or
//! handed a min-share starvation), for a container of at least the reservation threshold,
//! and, for a rack-local or off-switch ask, while the app holds fewer reservations than
//! the reservable-nodes ratio of the rack's or cluster's nodes
//! (`reservationExceedsThreshold`, 5% by default). So a full node often stays unreserved,
//! unarmed and unparked, and while some leaf offers nodes (an app asking with pending
//! demand) it beats every interval and does nothing: every app the descent reaches has no
//! ask that fits its free space, and none may reserve.
//!
//! Such a beat writes nothing but missed scheduling opportunities: each app reached counts
//! one at the priorities its offer reaches, which only count-based delay scheduling reads
//! (`getAllowedLocalityLevel`, which returns at once while a threshold is negative, Hadoop's
//! default; no offer counts one then, in either engine), and which are counted in bulk
//! before the next event when it is on (`missed_offers`); its apps' shares, when it
//! computes them, are the last tick's (`app_shares`). So when such a beat comes up (in key
//! order, never ahead of time) and the state then shows it changes nothing else, it is
//! skipped, as the clock skips a parked node's beat: no wake-up is needed, since the test
//! reads the state at the beat itself.
//!
//! The test (`Sched::beat_changes_nothing`): the node is unarmed (no reservation, no
//! preempted resources held, not decommissioning) and its free space fits no container
//! asked by an app the descent may reach: an app counted in an open leaf's `offered`
//! (runnable, asking, pending demand not none) whose path from root passes the queues' own
//! precheck, less the apps whose AM maxAMShare refuses (`isOverAMShareLimit` returns before
//! anything is counted). The asks' componentwise minimum (the *floor*) decides it: no ask
//! fits a free space the floor does not fit. And no such app may reserve anywhere: not
//! starved, or every container it asks for below the threshold, or (an ask without node or
//! rack requests, so only off-switch) its reservations already at the ratio's cap. The
//! floor is computed when a beat first asks after an event was processed and kept while
//! beats are skipped: a skipped beat changes nothing the floor reads, so the next one reads
//! the same state.
//!
//! While apps churn through reservations (Hadoop 3.3 at scale: a starved app reserves full
//! nodes up to its cap, is served elsewhere, and the next starved app reserves the nodes it
//! released), nearly every evaluation finds an app that may reserve, and mostly the same
//! app as the evaluation before. So the app found is kept as a *witness*: the next
//! evaluation first checks it alone, every condition the walk would read of it (its path
//! from root passes the queues' precheck, its leaf offers it, its AM is not refused, it
//! asks a container of the threshold within its cap, it is starved), and only when it no
//! longer may reserve walks the apps. The answer is the walk's: some reachable app may
//! reserve, so no floor.
//!
//! Not used where a beat writes what is read: continuous scheduling,
//! Hadoop 2.7 (it reserves any such node), the lists that keep their sort's history
//! (`sort_history`: each beat sorts them), `heartbeats = "every"`, the Capacity Scheduler.

use crate::cluster::NodeState;
use crate::scheduler::Sched;
use crate::tree::QueueId;
use fairsim_core::{Resource, Semantics};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The hash of an (app, rack) pair: a rotate, a xor and a multiply per word. The map is
/// touched at every reservation and release and never iterated, so neither SipHash's
/// resistance to chosen keys nor an order is needed.
#[derive(Default)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u32(u32::from(b));
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.0 = (self.0.rotate_left(29) ^ u64::from(x)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// What the last evaluation found, kept until the next event is processed.
#[derive(Debug, Default)]
pub(crate) struct FullNodes {
    /// `None`: not evaluated since the last event processed. `Some(None)`: some unarmed
    /// node's beat may act whatever its free space. `Some(Some(floor))`: an unarmed node
    /// whose free space does not fit `floor` does nothing on its beat.
    floor: Option<Option<Resource>>,
    /// Per app: the nodes reserved for it (Hadoop's `FSAppAttempt.getNumReservations`
    /// summed over the app's priorities).
    reserved: Vec<u32>,
    /// Hadoop 3.3, per (app, rack) holding any: the nodes of the rack reserved for the app
    /// (the rack-local cap's count), kept so that no reservation scans the nodes.
    reserved_in_rack: HashMap<(u32, u32), u32, BuildHasherDefault<PairHasher>>,
    /// The apps a floor is read from, kept between evaluations (one is made after nearly
    /// every event while beats come up).
    scratch: Vec<u32>,
    /// The last app an evaluation found may reserve, checked first by the next one (see
    /// the module docs).
    witness: Option<u32>,
}

impl FullNodes {
    /// An event was processed: the state the floor was read from may have changed.
    #[inline]
    pub(crate) fn forget(&mut self) {
        self.floor = None;
    }

    /// The apps the last floor was read from: those a skipped beat offers its node to, with
    /// the apps whose AM maxAMShare refuses (`missed_offers`).
    pub(crate) fn reached(&self) -> &[u32] {
        &self.scratch
    }

    /// The nodes reserved for app `a`.
    pub(crate) fn reserved_by(&self, a: u32) -> u32 {
        self.reserved.get(a as usize).copied().unwrap_or(0)
    }

    /// The (app, rack) pairs counted (each holding a reservation).
    pub(crate) fn pairs_counted(&self) -> usize {
        self.reserved_in_rack.len()
    }

    /// The nodes of rack `rack` reserved for app `a`.
    pub(crate) fn reserved_in_rack(&self, a: u32, rack: u32) -> u32 {
        self.reserved_in_rack.get(&(a, rack)).copied().unwrap_or(0)
    }

    /// A node was reserved for app `a` (`+1`) or its reservation released (`-1`); its rack
    /// `rack` is counted too when given (Hadoop 3.3, whose rack-local cap reads it).
    pub(crate) fn count_reservation(&mut self, a: u32, rack: Option<u32>, delta: i32) {
        let i = a as usize;
        if self.reserved.len() <= i {
            self.reserved.resize(i + 1, 0);
        }
        self.reserved[i] = self.reserved[i].saturating_add_signed(delta);
        let Some(rack) = rack else {
            return;
        };
        let k = self.reserved_in_rack.entry((a, rack)).or_insert(0);
        *k = k.saturating_add_signed(delta);
        if *k == 0 {
            self.reserved_in_rack.remove(&(a, rack));
        }
    }
}

impl Sched<'_, '_> {
    /// Whether the run skips beats of full nodes at all (see the module docs).
    fn full_nodes_elided(&self) -> bool {
        self.cx.elide
            && self.capacity.is_none()
            && self.w.semantics == Semantics::Hadoop33
            && !self.continuous_on()
            && !self.sorted_history()
    }

    /// Whether `node`'s heartbeat, due now, changes nothing because its free space fits no
    /// ask of an app the descent may reach while none of them may reserve (see the module
    /// docs). Read on the state after the last event processed, which is the state at the
    /// beat: skipped beats change nothing.
    #[inline]
    pub(crate) fn beat_changes_nothing(&mut self, node: u32) -> bool {
        if !self.full_nodes_elided() || self.cx.stalled_at.is_some() {
            return false;
        }
        let n = node as usize;
        let nd = &self.w.cluster.nodes[n];
        if nd.state != NodeState::Running
            || nd.reservation.is_some()
            || !self.held_for(n).is_empty()
        {
            return false;
        }
        let avail = nd.available();
        let floor = match self.fair.as_ref().and_then(|f| f.full_nodes.floor) {
            Some(f) => f,
            None => {
                let f = self.asks_floor();
                if let Some(fs) = &mut self.fair {
                    fs.full_nodes.floor = Some(f);
                }
                f
            }
        };
        let skip = floor.is_some_and(|f| !f.fits_in(avail));
        if skip {
            self.note_skipped_beat(node);
        }
        skip
    }

    /// The componentwise minimum of the containers asked by the apps a descent may reach,
    /// or `None` when one of them may reserve (its beat may act on any node). With no such
    /// app, a floor no node fits.
    fn asks_floor(&mut self) -> Option<Resource> {
        let witness = self.fair.as_ref().and_then(|f| f.full_nodes.witness);
        if let Some(a) = witness
            && self.still_may_reserve(a)
        {
            // The walk would find an app that may reserve too (it reads app shares only
            // as the tick left them, so walking here changes nothing).
            debug_assert!(
                self.walk_floor().0.is_none(),
                "witness {a} may reserve where the walk finds none"
            );
            return None;
        }
        let (floor, found) = self.walk_floor();
        if let Some(f) = &mut self.fair {
            f.full_nodes.witness = found;
        }
        floor
    }

    /// [`Sched::asks_floor`] by walking every app a descent may reach, and the app found
    /// that may reserve.
    fn walk_floor(&mut self) -> (Option<Resource>, Option<u32>) {
        let floor = Resource::new(i64::MAX, i64::MAX);
        let mut apps = self
            .fair
            .as_mut()
            .map(|f| std::mem::take(&mut f.full_nodes.scratch))
            .unwrap_or_default();
        apps.clear();
        self.reachable_offered_apps(QueueId::ROOT, &mut apps);
        let out = self.floor_of(&apps, floor);
        if let Some(f) = &mut self.fair {
            f.full_nodes.scratch = apps;
        }
        out
    }

    /// [`Sched::asks_floor`] over `apps`, from `floor`, and the app found that may
    /// reserve.
    fn floor_of(&mut self, apps: &[u32], mut floor: Resource) -> (Option<Resource>, Option<u32>) {
        let threshold = self.reservation_threshold_33();
        let cap = self.reservable_nodes_cap(u64::from(self.w.cluster.live));
        // `canRunAppAM` reads the leaf and the AM's size only: asked once per leaf and size
        // (a leaf's waiting apps mostly share a few AM sizes).
        let mut am_verdicts: Vec<(QueueId, Resource, bool)> = Vec::new();
        for &a in apps {
            let i = a as usize;
            if let Some(am) = self.w.specs[i].am
                && !self.w.apps[i].am_running
            {
                if self.w.apps[i].requests.pending == 0 {
                    continue;
                }
                let leaf = self.w.apps[i].queue;
                let may_run = match am_verdicts
                    .iter()
                    .find(|&&(q, size, _)| q == leaf && size == am)
                {
                    Some(&(_, _, v)) => v,
                    None => {
                        let v = self.can_run_am(leaf, am);
                        am_verdicts.push((leaf, am, v));
                        v
                    }
                };
                // `isOverAMShareLimit`.
                if !may_run {
                    continue;
                }
            }
            if self.asks_reservable(a, threshold, cap, &mut floor) && self.is_starved_33(a) {
                return (None, Some(a));
            }
        }
        (Some(floor), None)
    }

    /// Lowers `floor` to app `a`'s asks, and whether one of them may reserve as far as its
    /// size and the app's reservations go: at least `threshold`, and for an ask that can
    /// only be placed off-switch, the app below `cap` reservations.
    fn asks_reservable(&self, a: u32, threshold: Resource, cap: u64, floor: &mut Resource) -> bool {
        let calc = self
            .w
            .tree
            .get(self.w.apps[a as usize].queue)
            .policy
            .calculator();
        let total = self.w.cluster.total;
        // Off-switch reservations count against the cluster's cap; an ask with node or
        // rack requests may reserve node-locally (no cap) or against its rack's.
        let mut big_local = false;
        let mut big_off_switch = false;
        for p in &self.w.apps[a as usize].requests.by_priority {
            if p.any == 0 {
                continue;
            }
            *floor = Resource::new(
                floor.memory_mb.min(p.size.memory_mb),
                floor.vcores.min(p.size.vcores),
            );
            if !calc.less_than(total, p.size, threshold) {
                if p.has_local_requests() {
                    big_local = true;
                } else {
                    big_off_switch = true;
                }
            }
        }
        let capped = u64::from(self.reserved_by(a)) >= cap;
        big_local || (big_off_switch && !capped)
    }

    /// Whether app `a` is still one that makes the floor `None`: [`Sched::floor_of`]
    /// would find it among [`Sched::reachable_offered_apps`] and stop there. Every
    /// condition the walk reads of it, in the walk's terms.
    fn still_may_reserve(&mut self, a: u32) -> bool {
        let i = a as usize;
        let app = &self.w.apps[i];
        // Offered by its leaf: runnable, asking, pending demand not none.
        if !app.offered_33 {
            return false;
        }
        let leaf = app.queue;
        // The walk reaches the leaf: every queue on the path passes the precheck (an
        // incremental parent's ordered set holds exactly its children that ask, and a leaf
        // that asks is in it while some app of it is offered: `World::requeue`).
        let mut q = Some(leaf);
        while let Some(id) = q {
            let qs = &self.w.queues[id.idx()];
            if !qs.usage.fits_in(qs.max_share) || qs.pending == 0 {
                return false;
            }
            q = self.w.tree.get(id).parent;
        }
        if self.w.queues[leaf.idx()].offered == 0 {
            return false;
        }
        // A waiting app is walked only while the leaf's AM gate is open, and counted only
        // when its own AM may start (`isOverAMShareLimit`).
        if app.in_am_set && self.am_gate_closed(leaf) {
            return false;
        }
        if let Some(am) = self.w.specs[i].am
            && !self.w.apps[i].am_running
            && (self.w.apps[i].requests.pending == 0 || !self.can_run_am(leaf, am))
        {
            return false;
        }
        let threshold = self.reservation_threshold_33();
        let cap = self.reservable_nodes_cap(u64::from(self.w.cluster.live));
        let mut floor = Resource::ZERO;
        self.asks_reservable(a, threshold, cap, &mut floor) && self.is_starved_33(a)
    }

    /// The apps below `q` that a descent from `q` may offer a node to: the queues' own
    /// precheck passes down the path, and the leaf counts them in `offered` (Hadoop 3.3's
    /// `fetchAppsWithDemand`, asking).
    fn reachable_offered_apps(&self, q: QueueId, out: &mut Vec<u32>) {
        let qs = &self.w.queues[q.idx()];
        if !qs.usage.fits_in(qs.max_share) || qs.pending == 0 {
            return;
        }
        let conf = self.w.tree.get(q);
        if conf.is_leaf {
            if qs.offered == 0 {
                return;
            }
            // Apps waiting for their AM are left out whole while maxAMShare refuses the
            // smallest of their AMs: each is over its AM share limit, which the floor skips
            // (`isOverAMShareLimit` is monotone in the AM's size). Reading them one by one made
            // every floor cost the leaf's waiting apps (10,000 in the one-leaf case).
            let waiting = if qs.am_waiting.is_empty() || self.am_gate_closed(q) {
                None
            } else {
                Some(&qs.am_waiting)
            };
            out.extend(
                qs.ordered
                    .iter()
                    .chain(waiting.into_iter().flatten())
                    .map(|e| e.2)
                    .filter(|&a| self.w.apps[a as usize].offered_33),
            );
            return;
        }
        // Incremental ordering keeps a parent's asking children in its ordered set: walk
        // those, not every child.
        if self.w.incremental {
            for e in &qs.ordered {
                self.reachable_offered_apps(QueueId(e.2), out);
            }
        } else {
            for &c in &conf.children {
                self.reachable_offered_apps(c, out);
            }
        }
    }
}
