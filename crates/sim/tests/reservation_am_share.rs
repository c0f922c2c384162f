//! Hadoop 3.3 releases a reservation whose app may no longer start its AM
//! (`FSAppAttempt.assignReservedContainer` → `isValidReservation`: the reserved request is
//! still wanted on the node and the app is not over its leaf's maxAMShare). Hadoop 2.7's
//! check (`FairScheduler.attemptScheduling`) reads only the request and maxResources.
//!
//! One node of 4096 MB / 4 vcores, filled at 0 by `b`'s four 1 GB tasks that never finish.
//! At 1000 `y` arrives in `a` (maxAMShare 1.0) with a 2048 MB AM: `a`'s fair share is half
//! the cluster, 2048 MB, so the AM passes the gate, does not fit the full node, and the node
//! is reserved for it (2048 MB reaches the 2 x 1024 MB reservation threshold, and `y` is
//! below its fair share). At 5000 `z` arrives in `c`: three active leaves split 4096 MB,
//! `a`'s fair share becomes 1365 MB and its AM limit ceil(1365 x 1.0) = 1365 MB < 2048 MB.
//! Hadoop 3.3 releases the reservation at the node's first heartbeat after the update that
//! lowered the share (at the same instant, arrivals and the update tick come before
//! heartbeats); 2.7 keeps it to the end. Both with heartbeat elision and without: a 3.3
//! reservation of an app whose AM is not running is not parked.

mod common;

use common::apps::{GB, long_tasks, one_stage};
use common::outcomes::run_recorded;
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::recorder::DecisionKind;
use fairsim_sim::scenario::{Heartbeats, Scenario, SchedulerConf};

const XML: &str = r#"<allocations>
  <queue name="a"><maxAMShare>1.0</maxAMShare></queue>
  <queue name="b"/>
  <queue name="c"/>
</allocations>"#;

fn scenario(semantics: Semantics, heartbeats: Heartbeats) -> Scenario {
    let mut y = one_stage(1000, "a", "u", 1, Resource::new(GB, 1), 10_000);
    y.am = Some(Resource::new(2 * GB, 1));
    let apps = vec![long_tasks(0, "b", 4), y, long_tasks(5000, "c", 1)];
    Scenario {
        scheduler: SchedulerConf {
            semantics,
            heartbeats,
            assignmultiple: true,
            ..SchedulerConf::default()
        },
        end_ms: Some(20_000),
        ..trace_scenario(
            "am-reservation",
            fair_tree(XML, semantics),
            1,
            Resource::new(4 * GB, 4),
            apps,
        )
    }
}

/// `(time, kind)` of app `y`'s (app 1's) reservation decisions.
fn reservations(semantics: Semantics, heartbeats: Heartbeats) -> Vec<(u64, DecisionKind)> {
    let (rec, _) = run_recorded(&scenario(semantics, heartbeats));
    rec.decisions
        .iter()
        .filter(|d| {
            d.app == 1 && matches!(d.kind, DecisionKind::Reserved | DecisionKind::Unreserved)
        })
        .map(|d| (d.time.0, d.kind))
        .collect()
}

#[test]
fn hadoop33_releases_a_reservation_once_the_am_share_refuses_its_am() {
    for heartbeats in [Heartbeats::Elided, Heartbeats::Every] {
        let got = reservations(Semantics::Hadoop33, heartbeats);
        // Reserved at y's first heartbeat (1000); z arrives at 5000, the update tick at 5000
        // lowers a's fair share, and the node's heartbeat at 5000 (after the arrival and the
        // update tick of that instant) releases the node.
        assert_eq!(
            got,
            vec![
                (1000, DecisionKind::Reserved),
                (5000, DecisionKind::Unreserved)
            ],
            "{heartbeats:?}"
        );
    }
}

#[test]
fn hadoop27_keeps_the_reservation() {
    for heartbeats in [Heartbeats::Elided, Heartbeats::Every] {
        let got = reservations(Semantics::Hadoop27, heartbeats);
        assert_eq!(got, vec![(1000, DecisionKind::Reserved)], "{heartbeats:?}");
    }
}
