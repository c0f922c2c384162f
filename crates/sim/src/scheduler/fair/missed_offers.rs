//! Hadoop 3.3 with count-based delay scheduling on: the missed scheduling opportunities of
//! the full nodes' beats that are skipped (`full_nodes`), counted in bulk before the next
//! event is processed.
//!
//! A beat skipped because its node's free space fits no ask while no app may reserve still
//! offers the node to every app its descent reaches, and each offer counts at the
//! priorities it reaches (`FSAppAttempt.assignContainer`: a priority with a container for
//! the node, `hasContainerForNode`, adds a scheduling opportunity; `getAllowedLocalityLevel`
//! then reads the count against the node-locality threshold times the cluster's nodes, or
//! the rack-locality one, and may relax the level and reset the count; the first priority
//! that reaches a try gets nothing, since nothing fits and nothing may be reserved, and the
//! offer ends). Counts and levels are all such a beat writes. They are read by later
//! offers, the cycle watch and the quiescence test, all of which come with events; so the
//! beats are kept in order as they are skipped and their offers counted before the next
//! event (`Sched::count_skipped_offers`), which leaves the state an unelided run reaches by
//! processing each of them.
//!
//! Which apps: the beats skipped between two events read one state, so each reaches the same
//! apps whatever its node: those the floor was read from (`full_nodes`: every app a descent
//! may reach with an ask), less those whose AM maxAMShare refuses, which
//! `isOverAMShareLimit` turns away before anything is counted. Nothing a skipped beat writes
//! changes that set: the floor, the descents' order and their stop rules read no count and
//! no level, and an offer that gives nothing lets the descent go on to the next app.
//!
//! How: an app's offers on two nodes differ only where its asks name nodes or racks, or
//! where a container fits one node's capability and not the other's. An app whose asks
//! name no node or rack counts each offer at one priority, the first whose container fits
//! the node's capability and its queues' maxResources (its locality relaxes to anywhere at
//! once); so the beats are counted per node capability, and that priority's count advances
//! by their number at once (`advance`: at most two level changes on the way, each found by
//! arithmetic). Different priorities' counts do not read one another, so the order of the
//! beats does not matter there. An app with node or rack requests has its offers replayed
//! beat by beat, in the order the beats came, as `assign_app` makes them.

use crate::app::Locality;
use crate::scheduler::Sched;
use fairsim_core::Resource;

/// The full nodes' beats skipped since the last event processed, whose offers are not
/// counted yet.
#[derive(Debug, Default)]
pub(crate) struct SkippedOffers {
    /// The nodes of the skipped beats, in the order the beats came.
    nodes: Vec<u32>,
    /// The apps each of them reached (the floor's apps, as the first was skipped).
    apps: Vec<u32>,
    /// Per node capability among `nodes`: one node of it and the beats of such nodes.
    by_capability: Vec<(Resource, u32, u64)>,
}

impl Sched<'_, '_> {
    /// Whether a missed scheduling opportunity is ever read: count-based delay scheduling is
    /// on (`getAllowedLocalityLevel` returns off-switch at once, reading nothing, while a
    /// threshold is negative): with it off no offer counts one (`assign_app`), so that an
    /// elided beat and a processed one leave the same counts.
    pub(crate) fn opportunities_read(&self) -> bool {
        let conf = &self.w.sc.scheduler;
        conf.locality_threshold_node.min(1.0) >= 0.0 && conf.locality_threshold_rack.min(1.0) >= 0.0
    }

    /// `node`'s beat was skipped as a full node's (`full_nodes`): its offers to the apps the
    /// floor was read from are counted before the next event.
    pub(crate) fn note_skipped_beat(&mut self, node: u32) {
        if !self.opportunities_read() {
            return;
        }
        let Some(f) = self.fair.as_deref_mut() else {
            return;
        };
        let s = &mut f.skipped_offers;
        if s.nodes.is_empty() {
            s.apps.clear();
            s.apps.extend_from_slice(f.full_nodes.reached());
        }
        s.nodes.push(node);
    }

    /// Counts the offers of the beats skipped since the last event processed (see the
    /// module docs): called before the next event is.
    pub(crate) fn count_skipped_offers(&mut self) {
        let Some(f) = self.fair.as_deref_mut() else {
            return;
        };
        if f.skipped_offers.nodes.is_empty() {
            return;
        }
        let mut s = std::mem::take(&mut f.skipped_offers);
        s.by_capability.clear();
        for &n in &s.nodes {
            let cap = self.w.cluster.nodes[n as usize].capacity;
            match s.by_capability.iter_mut().find(|e| e.0 == cap) {
                Some(e) => e.2 += 1,
                None => s.by_capability.push((cap, n, 1)),
            }
        }
        for &a in &s.apps {
            if self.over_am_share_limit_33(a) {
                continue;
            }
            if self.asks_anywhere(a) {
                for &(_, node, beats) in &s.by_capability {
                    let n_prio = self.w.apps[a as usize].requests.by_priority.len();
                    if let Some(idx) =
                        (0..n_prio).find(|&i| self.has_container_for_node(a, i, node))
                    {
                        self.advance(a, idx, beats);
                    }
                }
            } else {
                for &node in &s.nodes {
                    self.replay_offer(a, node);
                }
            }
        }
        s.nodes.clear();
        if let Some(f) = self.fair.as_deref_mut() {
            f.skipped_offers = s;
        }
    }

    /// App `a` asks for no node or rack at any priority with containers outstanding.
    fn asks_anywhere(&self, a: u32) -> bool {
        self.w.apps[a as usize]
            .requests
            .by_priority
            .iter()
            .all(|p| p.any == 0 || !p.has_local_requests())
    }

    /// One offer of `node` to app `a` that gives nothing, as `assign_app` makes it: each
    /// priority with a container for the node counts it and reads its allowed level, until
    /// one tries the node.
    fn replay_offer(&mut self, a: u32, node: u32) {
        let rack = self.w.cluster.nodes[node as usize].rack;
        let n_prio = self.w.apps[a as usize].requests.by_priority.len();
        for idx in 0..n_prio {
            if !self.has_container_for_node(a, idx, node) {
                continue;
            }
            let p = &mut self.w.apps[a as usize].requests.by_priority[idx];
            p.opportunities = p.opportunities.saturating_add(1);
            let allowed = self.allowed_locality(a, idx);
            if self.offer_locality(a, idx, node, rack, allowed).is_some() {
                return;
            }
        }
    }

    /// `offers` offers counted at priority `idx` of app `a`, each followed by a read of its
    /// allowed level (`allowed_locality`), at once (`after_offers`).
    fn advance(&mut self, a: u32, idx: usize, offers: u64) {
        let conf = &self.w.sc.scheduler;
        let thresholds = (
            conf.locality_threshold_node.min(1.0),
            conf.locality_threshold_rack.min(1.0),
        );
        // Hadoop's getNumClusterNodes: the nodes in the cluster now.
        let n_nodes = f64::from(self.w.cluster.live);
        let p = &mut self.w.apps[a as usize].requests.by_priority[idx];
        let (state, changes) =
            after_offers((p.opportunities, p.allowed), offers, n_nodes, thresholds);
        (p.opportunities, p.allowed) = state;
        // Each level set or relaxed is progress, as where an offer makes it.
        self.cx.progress += changes;
    }
}

/// A priority's delay-scheduling state: its missed opportunities and its allowed level
/// (`None` until first offered).
type Delay = (u32, Option<Locality>);

/// `state` after `offers` offers, each counted and followed by count-based
/// `getAllowedLocalityLevel` on `n_nodes` nodes with the node and rack thresholds (both at
/// least 0, at most 1), and how many of them set or relaxed the level: the first offer sets
/// the level to node-local; a later one bringing the count above the level's threshold
/// times `n_nodes` relaxes it (node-local to rack-local to off-switch) and resets the count.
/// At most three steps, whatever `offers`.
fn after_offers(
    (mut count, mut allowed): Delay,
    mut offers: u64,
    n_nodes: f64,
    (node_threshold, rack_threshold): (f64, f64),
) -> (Delay, u64) {
    let mut changes = 0;
    let add = |count: u32, n: u64| count.saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
    while offers > 0 {
        let level = match allowed {
            None => {
                count = add(count, 1);
                allowed = Some(Locality::NodeLocal);
                changes += 1;
                offers -= 1;
                continue;
            }
            Some(Locality::OffSwitch) => return ((add(count, offers), allowed), changes),
            Some(level) => level,
        };
        let threshold = if level == Locality::NodeLocal {
            node_threshold
        } else {
            rack_threshold
        };
        // The least count above n × threshold: the offer bringing the count there relaxes
        // the level (the next one, when the count is there already, as after nodes left).
        let relaxes_at = (n_nodes * threshold).floor() as u64 + 1;
        let to_relax = relaxes_at.saturating_sub(u64::from(count)).max(1);
        if offers < to_relax {
            return ((add(count, offers), allowed), changes);
        }
        offers -= to_relax;
        allowed = Some(if level == Locality::NodeLocal {
            Locality::RackLocal
        } else {
            Locality::OffSwitch
        });
        count = 0;
        changes += 1;
    }
    ((count, allowed), changes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One offer as `assign_app` and `allowed_locality` make it, step by step.
    fn one_offer((count, allowed): Delay, n_nodes: f64, (tn, tr): (f64, f64)) -> (Delay, u64) {
        let count = count.saturating_add(1);
        match allowed {
            None => ((count, Some(Locality::NodeLocal)), 1),
            Some(Locality::OffSwitch) => ((count, allowed), 0),
            Some(level) => {
                let t = if level == Locality::NodeLocal { tn } else { tr };
                if f64::from(count) > n_nodes * t {
                    let next = if level == Locality::NodeLocal {
                        Locality::RackLocal
                    } else {
                        Locality::OffSwitch
                    };
                    ((0, Some(next)), 1)
                } else {
                    ((count, allowed), 0)
                }
            }
        }
    }

    #[test]
    fn worked_by_hand() {
        // 10 nodes, thresholds 0.5 and 0.3: node-local relaxes at the 6th count (6 > 5), rack
        // at the 4th (4 > 3). 12 offers from nothing: the 1st sets node-local (count 1), the
        // 6th relaxes to rack-local (count 0), the 10th to off-switch (count 0), 2 more.
        let t = (0.5, 0.3);
        assert_eq!(
            after_offers((0, None), 12, 10.0, t),
            ((2, Some(Locality::OffSwitch)), 3)
        );
        // 5 offers: count 5, not above 5.
        assert_eq!(
            after_offers((0, None), 5, 10.0, t),
            ((5, Some(Locality::NodeLocal)), 1)
        );
        // A count already past the threshold (nodes left): the next offer relaxes.
        assert_eq!(
            after_offers((9, Some(Locality::NodeLocal)), 1, 4.0, t),
            ((0, Some(Locality::RackLocal)), 1)
        );
        // Threshold 0: every offer after the first relaxes a level.
        assert_eq!(
            after_offers((0, None), 3, 7.0, (0.0, 0.0)),
            ((0, Some(Locality::OffSwitch)), 3)
        );
    }

    /// Offers counted at once leave the state, and count the level changes, that counting
    /// them one by one does.
    #[test]
    fn offers_at_once_equal_offers_one_by_one() {
        use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestRunner};
        let config = Config {
            cases: 2_000,
            rng_algorithm: RngAlgorithm::ChaCha,
            rng_seed: RngSeed::Fixed(0x0ff3_2a11),
            failure_persistence: None,
            ..Config::default()
        };
        let levels = vec![
            None,
            Some(Locality::NodeLocal),
            Some(Locality::RackLocal),
            Some(Locality::OffSwitch),
        ];
        let case = (
            0u32..40,
            prop::sample::select(levels),
            0u64..120,
            0u32..40,
            prop::sample::select(vec![0.0, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.7, 1.0]),
            prop::sample::select(vec![0.0, 0.2, 0.5, 0.9, 1.0]),
        );
        TestRunner::new(config)
            .run(&case, |(count, allowed, offers, n_nodes, tn, tr)| {
                let n = f64::from(n_nodes);
                let mut one = ((count, allowed), 0);
                for _ in 0..offers {
                    let (state, c) = one_offer(one.0, n, (tn, tr));
                    one = (state, one.1 + c);
                }
                prop_assert_eq!(after_offers((count, allowed), offers, n, (tn, tr)), one);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{e}"));
    }
}
