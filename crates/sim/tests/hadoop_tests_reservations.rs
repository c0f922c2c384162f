//! Hadoop's TestReservations (Capacity Scheduler), method by method, each written anew as a
//! capacity-scheduler.xml, a trace and a scenario with the numbers Hadoop's test asserts after
//! each of its steps: the queue's used resources (reservations included), what the app holds,
//! what is reserved and where, what each node runs. Hadoop calls `LeafQueue.assignContainers`
//! by hand for the node it picks, one container or reservation per call; fairsim runs the
//! cluster on its clock (node `i` of `n` beats at `i × 1000 / n` ms each second), where a
//! heartbeat ends at its first off-switch container or reservation but goes on after a
//! node-local one. Hadoop's asks are all "anywhere"; here some are kept to a node
//! (relaxLocality off) and the apps arrive at chosen times so that each step happens on the
//! node Hadoop's test offers, and the state after every step is read off the run's decisions.
//! An app whose ask is kept off the offered node goes on to its next priority there (Hadoop's
//! skipped priority), so an app offered a node before its kept asks' nodes may take a later
//! priority's container there: the arrival times choose each app's first offer. The table in
//! docs/testing.md maps each method here (checked by `hadoop_table.rs`).

mod common;

use common::apps::{GB, LONG_MS, pinned_group};
use common::capacity::scenario;
use common::outcomes::{Short, short_decisions};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::SimTime;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::scenario::Scenario;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// TestReservations' queue: `a` at 100 % of the cluster (under a parent at 100 % in Hadoop's
/// test, which changes nothing here), maximum 100 %. The test's apps have AMs of size 0, so no
/// AM limit ever holds one; the unmanaged apps here are charged the minimum allocation at
/// activation (Hadoop's rule for an app without an AM request), so the AM limit is lifted.
const QUEUE_A: [(&str, &str); 4] = [
    ("root.queues", "a"),
    ("root.a.capacity", "100"),
    ("root.a.maximum-capacity", "100"),
    ("maximum-am-resource-percent", "10"),
];

/// `reservations-continue-look-all-nodes` off, as Hadoop's tests turn it off
/// (`RESERVE_CONT_LOOK_ALL_NODES`, false).
const NO_CONTINUE_LOOK: (&str, &str) = ("reservations-continue-look-all-nodes", "false");

/// `count` containers of `mb` MB at `priority` that outlive the run: anywhere, or kept to
/// `host` (relaxLocality off).
fn ask(priority: i32, count: u32, mb: i64, host: Option<&str>) -> TaskGroup {
    pinned_group(priority, count, mb, LONG_MS, host)
}

/// An unmanaged app of `user` in queue a, submitted at `arrival`, asking `asks` at once.
fn app(arrival: u64, user: &str, asks: Vec<TaskGroup>) -> AppSpec {
    AppSpec {
        name: format!("{user}-{arrival}"),
        arrival: SimTime(arrival),
        queue: "a".into(),
        user: user.into(),
        am: None,
        stages: vec![asks],
        recorded: None,
    }
}

/// `apps` on `nodes` nodes of 8 GB under queue a (with `extra` properties), with
/// TestReservations' allocation bounds: minimum 1 GB, maximum 16 GB and 12 vcores.
fn reservations_scenario(
    era: Semantics,
    extra: &[(&str, &str)],
    nodes: u32,
    apps: Vec<AppSpec>,
) -> Scenario {
    let mut props = QUEUE_A.to_vec();
    props.extend_from_slice(extra);
    let mut sc = scenario(era, &props, nodes, Resource::new(8 * GB, 8), apps);
    sc.scheduler.minimum_allocation_mb = GB;
    sc.scheduler.maximum_allocation_mb = 16 * GB;
    sc.scheduler.maximum_allocation_vcores = 12;
    sc.end_ms = Some(30_000);
    sc
}

/// What Hadoop's test reads after a step, in GB: the queue's used resources (reservations
/// included, `a.getUsedResources()`), each app's containers (`getCurrentConsumption()`), the
/// queue's reserved resources (`getReservedMB()`), each node's containers
/// (`getAllocatedResource()` / `getUsedResource()`) and the node holding the reservation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Books {
    queue_used: i64,
    apps: Vec<i64>,
    reserved: i64,
    nodes: Vec<i64>,
    reserved_on: Option<u32>,
}

impl Books {
    fn new(n_apps: usize, n_nodes: usize) -> Books {
        Books {
            queue_used: 0,
            apps: vec![0; n_apps],
            reserved: 0,
            nodes: vec![0; n_nodes],
            reserved_on: None,
        }
    }

    /// The books after `d` (sizes in MB, books in GB).
    fn after(&self, d: &Short) -> Books {
        let mut b = self.clone();
        let (_, node, app, mb, kind) = *d;
        assert_eq!(mb % GB, 0, "{d:?}: whole GB only");
        let gb = mb / GB;
        match kind {
            "allocated" => {
                b.queue_used += gb;
                b.apps[app as usize] += gb;
                b.nodes[node as usize] += gb;
            }
            "reserved" => {
                b.queue_used += gb;
                b.reserved += gb;
                b.reserved_on = Some(node);
            }
            _ => {
                b.queue_used -= gb;
                b.reserved -= gb;
                b.reserved_on = None;
            }
        }
        b
    }
}

/// The books after each decision of `got`, starting empty.
fn books_after_each(got: &[Short], n_apps: usize, n_nodes: usize) -> Vec<Books> {
    let mut out = Vec::with_capacity(got.len());
    let mut b = Books::new(n_apps, n_nodes);
    for d in got {
        b = b.after(d);
        out.push(b.clone());
    }
    out
}

/// Hadoop's books for one step (GB; nodes as Hadoop names them, `node_0` first).
fn hadoop(
    queue_used: i64,
    apps: &[i64],
    reserved: i64,
    nodes: &[i64],
    reserved_on: Option<u32>,
) -> Books {
    Books {
        queue_used,
        apps: apps.to_vec(),
        reserved,
        nodes: nodes.to_vec(),
        reserved_on,
    }
}

/// `b` with its nodes (and reserved node) renamed to Hadoop's: fairsim's node `i` is
/// Hadoop's `to_hadoop[i]`.
fn as_hadoop(b: &Books, to_hadoop: &[u32]) -> Books {
    let mut nodes = vec![0; b.nodes.len()];
    for (i, &gb) in b.nodes.iter().enumerate() {
        nodes[to_hadoop[i] as usize] = gb;
    }
    Books {
        nodes,
        reserved_on: b.reserved_on.map(|n| to_hadoop[n as usize]),
        ..b.clone()
    }
}

/// testReservation's asks as `test_reservation_step_by_step` sets them out (the app arriving
/// at 400 ms on three nodes), under the capacity file's `extra` properties.
fn test_reservation_scenario(era: Semantics, extra: &[(&str, &str)]) -> Scenario {
    let apps = vec![app(
        400,
        "user_0",
        vec![
            ask(1, 1, 3 * GB, None),
            ask(2, 1, 2 * GB, Some("node0")),
            ask(5, 1, 3 * GB, Some("node0")),
            ask(10, 2, 5 * GB, None),
        ],
    )];
    reservations_scenario(era, extra, 3, apps)
}

#[test]
fn test_reservation_step_by_step() {
    // testReservation: three 8 GB nodes (24 GB), one app of user_0 asking 1 × 2 GB ("AM"),
    // 2 × 3 GB (maps) and 2 × 5 GB (reduces), all anywhere. Hadoop offers node_0 (AM), node_0
    // (map), node_1 (map), node_0 (a reduce does not fit its 3 GB free: reserved), node_2 (a
    // reduce: 2 asked and 1 reserved, so `shouldAllocOrReserveNewContainer` says take a new
    // one: 0 + 2 − 1 > 0), node_1 (the last reduce: 1 asked, 1 reserved, 0 + 1 − 1 = 0, so
    // the app gives node_0's reservation back to allocate here).
    //
    // Here Hadoop's node_2 is fairsim's node1 (beats at 333 ms) and node_1 is node2 (666 ms),
    // so that the last two steps come in Hadoop's order; the AM and one map are kept to node0
    // and the other map, anywhere, is at a priority above the AM's. An app whose asks are
    // kept off the offered node goes on to its next priority, so any node with 5 GB free
    // offered before node0's steps would take a reduce: the app arrives at 400 ms, after
    // node1's first beat, and node2 at 666 is its first offer: the anywhere map there
    // (Hadoop's third step, on a node no earlier step touches; off-switch, the heartbeat
    // ends before a reduce). node0 at 1,000 takes its AM and map (node-local, the heartbeat
    // goes on) and reserves for a reduce; node1 at 1,333 takes a reduce (off-switch, the
    // heartbeat ends), node2 at 1,666 gives node0's reservation back and takes the last
    // reduce. From the reservation on, every step's numbers are Hadoop's; the queue totals
    // after its first two steps are 3 GB higher here (node_1's map came first).
    let to_hadoop = [0, 2, 1];
    for era in ERAS {
        let got = short_decisions(&test_reservation_scenario(era, &[]));
        assert_eq!(
            got,
            vec![
                (666, 2, 0, 3 * GB, "allocated"),
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_000, 0, 0, 5 * GB, "reserved"),
                (1_333, 1, 0, 5 * GB, "allocated"),
                (1_666, 0, 0, 5 * GB, "unreserved"),
                (1_666, 2, 0, 5 * GB, "allocated"),
            ],
            "{era}"
        );
        let books: Vec<Books> = books_after_each(&got, 1, 3)
            .iter()
            .map(|b| as_hadoop(b, &to_hadoop))
            .collect();
        // node_0 after Hadoop's first two steps: 2 GB, then 5 GB.
        assert_eq!((books[1].nodes[0], books[2].nodes[0]), (2, 5), "{era}");
        // Hadoop's third step: 8 GB used, all the app's, node_0 5 GB, node_1 3 GB.
        assert_eq!(books[2], hadoop(8, &[8], 0, &[5, 3, 0], None), "{era}");
        // Reserved on node_0: 13 GB used, 8 GB the app's, 5 GB reserved.
        assert_eq!(books[3], hadoop(13, &[8], 5, &[5, 3, 0], Some(0)), "{era}");
        // A reduce on node_2, node_0 still reserved: 18 GB used, 13 the app's.
        assert_eq!(books[4], hadoop(18, &[13], 5, &[5, 3, 5], Some(0)), "{era}");
        // node_1 heartbeat: node_0 unreserved, the reduce on node_1.
        assert_eq!(books[6], hadoop(18, &[18], 0, &[5, 8, 5], None), "{era}");
    }
}

#[test]
fn reservation_no_continue_look_keeps_the_reservation() {
    // testReservationNoContinueLook: testReservation's steps with
    // reservations-continue-look-all-nodes off, the same run as `test_reservation_step_by_step`
    // up to Hadoop's last step. node2 at 1,666 (Hadoop's node_1, 5 GB free): one reduce
    // asked and one reserved, 0 + 1 − 1 = 0, so `shouldAllocOrReserveNewContainer` says no
    // and the priority is skipped (2.7's `assignContainers`, 3.3's
    // `preCheckForNodeCandidateSet`): node0's reservation is not given back, Hadoop's
    // "potentially stuck": 18 GB used, 13 the app's, 5 reserved on node_0.
    //
    // Hadoop's test stops there; the run goes on, and stays stuck. node0 re-reserves at each
    // heartbeat (2,000, 3,000: 2 re-reservations, starvation (int) (2 × (1 − 0.3125)) = 1,
    // so 1 + 1 − 1 > 0: the app may take a new container or reservation). node1 at 3,333
    // (Hadoop's node_2) has 3 GB free: the reduce reserves it, nothing given back first
    // (18 + 5 ≤ 24; 3.3: 6 GB of headroom): 23 GB used, 10 of them reserved. No reduce fits
    // the queue after that (2.7: 23 + 5 > 24; 3.3: 1 GB of headroom), whatever the
    // re-reservations say: both nodes re-reserve for the rest of the run.
    let to_hadoop = [0, 2, 1];
    for era in ERAS {
        let got = short_decisions(&test_reservation_scenario(era, &[NO_CONTINUE_LOOK]));
        assert_eq!(
            got,
            vec![
                (666, 2, 0, 3 * GB, "allocated"),
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_000, 0, 0, 5 * GB, "reserved"),
                (1_333, 1, 0, 5 * GB, "allocated"),
                (3_333, 1, 0, 5 * GB, "reserved"),
            ],
            "{era}"
        );
        let books: Vec<Books> = books_after_each(&got, 1, 3)
            .iter()
            .map(|b| as_hadoop(b, &to_hadoop))
            .collect();
        assert_eq!(books[3], hadoop(13, &[8], 5, &[5, 3, 0], Some(0)), "{era}");
        // Hadoop's last two steps: node_2 takes a reduce; node_1 gives nothing back.
        assert_eq!(books[4], hadoop(18, &[13], 5, &[5, 3, 5], Some(0)), "{era}");
        // The end: node_2 reserved as well, 23 GB used, 13 the app's.
        assert_eq!(
            books[5],
            hadoop(23, &[13], 10, &[5, 3, 5], Some(2)),
            "{era}"
        );
    }
}

/// TestReservations' testAssignContainersNeedToUnreserve set-up on two 8 GB nodes (16 GB):
/// user_0's app asks 1 × 2 GB ("AM", kept to node0 here so that the map follows it on the
/// same heartbeat), 2 × 3 GB (maps) and 2 × 5 GB (reduces) anywhere, under the capacity
/// file's `extra` properties.
fn need_to_unreserve_scenario(era: Semantics, extra: &[(&str, &str)]) -> Scenario {
    let apps = vec![app(
        600,
        "user_0",
        vec![
            ask(1, 1, 2 * GB, Some("node0")),
            ask(5, 2, 3 * GB, None),
            ask(10, 2, 5 * GB, None),
        ],
    )];
    reservations_scenario(era, extra, 2, apps)
}

#[test]
fn assign_containers_need_to_unreserve_gives_back_to_stay_within_the_queue() {
    // testAssignContainersNeedToUnreserve: node0 beats at 0 ms, node1 at 500 ms.
    // * 1,000, node0: the AM (node-local, the heartbeat goes on), a map (off-switch): 5 GB.
    // * 1,500, node1: the other map: 8 GB used.
    // * 2,000, node0: a reduce does not fit node0's 3 GB free: reserved; 13 GB used.
    // * 2,500, node1: a reduce fits node1's 5 GB, and 2 asked with 1 reserved says take a new
    //   container, but the queue (16 GB) would be at 18 GB: within its limit only without
    //   the app's 5 GB reserved (2.7 `canAssignToThisQueue`: 13 + 5 − 5 < 16, amount needed
    //   18 − 16 = 2 GB; 3.3 `checkHeadroom`: 3 GB headroom + 5 GB reserved ≥ 5 GB, amount
    //   5 − 3 = 2 GB). The first reservation at that priority of at least 2 GB, node0's, is
    //   given back and the reduce allocated: 13 GB used, all the app's, nothing reserved.
    // * The last reduce never fits: 13 + 5 > 16 with nothing reserved to give back.
    // With room in the queue the same ask takes its container without giving the
    // reservation back (testReservation's node_2 step, `test_reservation_step_by_step`).
    for era in ERAS {
        let got = short_decisions(&need_to_unreserve_scenario(era, &[]));
        assert_eq!(
            got,
            vec![
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_500, 1, 0, 3 * GB, "allocated"),
                (2_000, 0, 0, 5 * GB, "reserved"),
                (2_500, 0, 0, 5 * GB, "unreserved"),
                (2_500, 1, 0, 5 * GB, "allocated"),
            ],
            "{era}"
        );
        let books = books_after_each(&got, 1, 2);
        assert_eq!(books[0], hadoop(2, &[2], 0, &[2, 0], None), "{era}");
        assert_eq!(books[1], hadoop(5, &[5], 0, &[5, 0], None), "{era}");
        assert_eq!(books[2], hadoop(8, &[8], 0, &[5, 3], None), "{era}");
        assert_eq!(books[3], hadoop(13, &[8], 5, &[5, 3], Some(0)), "{era}");
        assert_eq!(books[5], hadoop(13, &[13], 0, &[5, 8], None), "{era}");
    }
}

#[test]
fn assign_to_queue_with_continue_looking_off_counts_no_reservation() {
    // testAssignToQueue's answer with reservations-continue-look-all-nodes off, as a run: the
    // steps of testAssignContainersNeedToUnreserve up to the reservation (13 GB used of the
    // queue's 16, 8 the app's, 5 reserved on node0), then node1 at 2,500 offers its 5 GB
    // free to a reduce (2 asked, 1 reserved: the app may take a new container). The app's
    // reservation no longer counts as givable: 2.7's `canAssignToThisQueue` refuses
    // 13 + 5 > 16; 3.3's `checkHeadroom` refuses 16 − 13 = 3 GB < 5 (its
    // `canAssignToThisQueue` refuses too once the queue is at its limit, as Hadoop's call
    // with a 13 GB limit is). Nothing changes after: node0 re-reserves at each heartbeat,
    // node1 stays refused, 13 GB used for the rest of the run.
    for era in ERAS {
        let got = short_decisions(&need_to_unreserve_scenario(era, &[NO_CONTINUE_LOOK]));
        assert_eq!(
            got,
            vec![
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_500, 1, 0, 3 * GB, "allocated"),
                (2_000, 0, 0, 5 * GB, "reserved"),
            ],
            "{era}"
        );
        let books = books_after_each(&got, 1, 2);
        assert_eq!(books[2], hadoop(8, &[8], 0, &[5, 3], None), "{era}");
        assert_eq!(books[3], hadoop(13, &[8], 5, &[5, 3], Some(0)), "{era}");
    }
}

#[test]
fn a_user_over_its_limit_by_a_reservation_gives_it_back() {
    // testAssignToUser's numbers as a run: the user holds 8 GB and 5 GB reserved, 13 GB,
    // against a user limit of 12 GB; `canAssignToUser` lets it allocate (13 − 5 ≤ 12) once
    // 13 − 12 = 1 GB is given back. Three 8 GB nodes (24 GB) so that the queue is never the
    // limit; user-limit-factor 0.5 makes the user limit 24 × 0.5 = 12 GB (2.7's
    // `computeUserLimit` and 3.3's alike: one active user, the queue below its capacity).
    // The reduces are kept to node0 and node1 so that node2 (666 ms) never takes one. The
    // app arrives at 700 ms so that node0 at 1,000 is its first offer: node2 at 666 would
    // skip the AM (kept to node0) and take a map, the app going on to its next priority.
    // * 1,000, node0: the AM (node-local) and a map (off-switch); 1,333, node1: a map.
    // * 1,666, node2: nothing (the reduces are kept to node0 and node1).
    // * 2,000, node0: a reduce does not fit its 3 GB free: reserved (8 ≤ 12): 13 GB.
    // * 2,333, node1: a reduce fits its 5 GB; the user is at 13 GB, over 12 only by the
    //   reservation: node0's 5 GB (at least the 1 GB needed) is given back, the reduce
    //   allocated. The last reduce waits: 13 > 12 with nothing reserved.
    // With the user limit at the queue's 24 GB (factor 1) the same heartbeat allocates the
    // reduce and node0 stays reserved: 2 asked, 1 reserved says take a new container.
    for (factor, want_last) in [
        (
            "0.5",
            vec![
                (2_333, 0, 0, 5 * GB, "unreserved"),
                (2_333, 1, 0, 5 * GB, "allocated"),
            ],
        ),
        ("1", vec![(2_333, 1, 0, 5 * GB, "allocated")]),
    ] {
        for era in ERAS {
            let apps = vec![app(
                700,
                "user_0",
                vec![
                    ask(1, 1, 2 * GB, Some("node0")),
                    ask(5, 2, 3 * GB, None),
                    ask(10, 1, 5 * GB, Some("node0")),
                    ask(10, 1, 5 * GB, Some("node1")),
                ],
            )];
            let props = [("root.a.user-limit-factor", factor)];
            let got = short_decisions(&reservations_scenario(era, &props, 3, apps));
            let mut want = vec![
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_333, 1, 0, 3 * GB, "allocated"),
                (2_000, 0, 0, 5 * GB, "reserved"),
            ];
            want.extend(want_last.iter().copied());
            assert_eq!(got[..want.len()], want[..], "{era}, factor {factor}");
            let books = books_after_each(&got, 1, 3);
            assert_eq!(books[3], hadoop(13, &[8], 5, &[5, 3, 0], Some(0)), "{era}");
            if factor == "0.5" {
                assert_eq!(got.len(), want.len(), "{era}: the last reduce waits");
                assert_eq!(books[5], hadoop(13, &[13], 0, &[5, 8, 0], None), "{era}");
            }
        }
    }
}

#[test]
fn assign_to_user_with_continue_looking_off_counts_no_reservation() {
    // testAssignToUser's answer with reservations-continue-look-all-nodes off, as a run: the
    // run of `a_user_over_its_limit_by_a_reservation_gives_it_back` with the 12 GB user limit
    // (user-limit-factor 0.5). At 2,333 the user holds 13 GB, 5 of them reserved on node0:
    // over 12, and `canAssignToUser` no longer subtracts the reservation, so the app is
    // passed over with nothing to unreserve and node1 stays free of the reduce. The user
    // never falls back under its limit: node0 re-reserves for the rest of the run.
    for era in ERAS {
        let apps = vec![app(
            700,
            "user_0",
            vec![
                ask(1, 1, 2 * GB, Some("node0")),
                ask(5, 2, 3 * GB, None),
                ask(10, 1, 5 * GB, Some("node0")),
                ask(10, 1, 5 * GB, Some("node1")),
            ],
        )];
        let props = [("root.a.user-limit-factor", "0.5"), NO_CONTINUE_LOOK];
        let got = short_decisions(&reservations_scenario(era, &props, 3, apps));
        assert_eq!(
            got,
            vec![
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_333, 1, 0, 3 * GB, "allocated"),
                (2_000, 0, 0, 5 * GB, "reserved"),
            ],
            "{era}"
        );
        let books = books_after_each(&got, 1, 3);
        assert_eq!(books[3], hadoop(13, &[8], 5, &[5, 3, 0], Some(0)), "{era}");
    }
}

#[test]
fn reservation_limit_other_users_serves_the_next_user() {
    // testReservationLimitOtherUsers: three 8 GB nodes, user-limit 25 % and user-limit-factor
    // 0.25, so each user's limit is 24 × 0.25 = 6 GB (2.7: min(max(24 / 2, 24 × 25 %),
    // 6); 3.3 alike). user_0's app asks a 2 GB "AM" and 2 × 8 GB (maps), user_1's a 2 GB AM
    // and 2 × 2 GB. Hadoop adds the maps after the AMs run; here the maps are kept to the
    // nodes Hadoop offers them (user_0's to node0, user_1's to node1), so they wait for them.
    // * 1,000, node0: user_0's AM (off-switch); 1,333, node1: user_1's AM. 4 GB used.
    // * 2,000, node0: user_0's 8 GB map does not fit its 6 GB free: reserved (user_0 at 2 GB,
    //   within 6): 12 GB used, 8 reserved.
    // * 2,333, node1: user_0 is at 10 GB, over its 6 GB only by its reservation, so it could
    //   allocate by giving it back, but its map is for node0 (kept there, it would be passed
    //   over here whatever its user's standing); user_1 (2 GB) takes a 2 GB map
    //   on node1: 14 GB used, user_1's app 4 GB, 8 GB still reserved (Hadoop's last step),
    //   and, the heartbeat going on after a node-local container, its second (6 GB, user_1
    //   at its limit).
    let props = [
        ("root.a.minimum-user-limit-percent", "25"),
        ("root.a.user-limit-factor", "0.25"),
    ];
    for era in ERAS {
        let apps = vec![
            app(
                900,
                "user_0",
                vec![ask(1, 1, 2 * GB, None), ask(5, 2, 8 * GB, Some("node0"))],
            ),
            app(
                950,
                "user_1",
                vec![ask(1, 1, 2 * GB, None), ask(5, 2, 2 * GB, Some("node1"))],
            ),
        ];
        let got = short_decisions(&reservations_scenario(era, &props, 3, apps));
        assert_eq!(
            got,
            vec![
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_333, 1, 1, 2 * GB, "allocated"),
                (2_000, 0, 0, 8 * GB, "reserved"),
                (2_333, 1, 1, 2 * GB, "allocated"),
                (2_333, 1, 1, 2 * GB, "allocated"),
            ],
            "{era}"
        );
        let books = books_after_each(&got, 2, 3);
        assert_eq!(books[0], hadoop(2, &[2, 0], 0, &[2, 0, 0], None), "{era}");
        assert_eq!(books[1], hadoop(4, &[2, 2], 0, &[2, 2, 0], None), "{era}");
        assert_eq!(
            books[2],
            hadoop(12, &[2, 2], 8, &[2, 2, 0], Some(0)),
            "{era}"
        );
        assert_eq!(
            books[3],
            hadoop(14, &[2, 4], 8, &[2, 4, 0], Some(0)),
            "{era}"
        );

        // The same with user_0's maps kept to node0 or node1, so that at node1 user_0 is passed
        // over for its user limit alone, Hadoop's path: at 10 GB it may only allocate by giving
        // 4 GB back, its 8 GB does not fit node1's free room, and an app that must give back
        // may not reserve. user_0's map for node1 would take node1 at any offer before its
        // reservation (its asks kept to node0 are skipped there and the app goes on to its
        // next priority), so user_0 must not be offered node1 before its reservation: user_1's
        // app is submitted first (10 ms, app 0) and takes its AM on node1 at 333 ms (off-switch,
        // the heartbeat ends before user_0, 20 ms, app 1, is offered it); node2 at 666 has
        // nothing for either (both kept off it); node0 at 1,000 takes user_0's AM (node-local,
        // the heartbeat goes on) and reserves for its 8 GB map (6 GB free; user_0 at 2 GB).
        // At 1,333 node1 offers user_1 first (FIFO): its two 2 GB maps (node-local; user_1 at
        // 4 then 6 GB), then user_0, over its limit only by its reservation, is passed over (8
        // GB does not fit node1's 2 GB free, and it would have to give back to reserve).
        // Hadoop offers user_0 before user_1 on node_1 (its app comes first), with the same
        // outcome for user_0; from the reservation on, Hadoop's amounts. With the user limit
        // at 24 GB (factor 1; user_0 the only user still asking) user_0 reserves node1 as
        // well: 2 asked, 1 reserved, nothing to give back.
        for (factor, user_0_at_node1) in [
            ("0.25", None),
            ("1", Some((1_333, 1, 1, 8 * GB, "reserved"))),
        ] {
            let apps = vec![
                app(
                    10,
                    "user_1",
                    vec![ask(1, 1, 2 * GB, None), ask(5, 2, 2 * GB, Some("node1"))],
                ),
                app(
                    20,
                    "user_0",
                    vec![
                        ask(1, 1, 2 * GB, Some("node0")),
                        ask(5, 1, 8 * GB, Some("node0")),
                        ask(5, 1, 8 * GB, Some("node1")),
                    ],
                ),
            ];
            let props = [
                ("root.a.minimum-user-limit-percent", "25"),
                ("root.a.user-limit-factor", factor),
            ];
            let got = short_decisions(&reservations_scenario(era, &props, 3, apps));
            let mut want = vec![
                (333, 1, 0, 2 * GB, "allocated"),
                (1_000, 0, 1, 2 * GB, "allocated"),
                (1_000, 0, 1, 8 * GB, "reserved"),
                (1_333, 1, 0, 2 * GB, "allocated"),
                (1_333, 1, 0, 2 * GB, "allocated"),
            ];
            want.extend(user_0_at_node1);
            assert_eq!(got, want, "{era}, factor {factor}: user_0 may use node1");
            // The apps in Hadoop's order (user_0's first).
            let books: Vec<Books> = books_after_each(&got, 2, 3)
                .into_iter()
                .map(|b| Books {
                    apps: vec![b.apps[1], b.apps[0]],
                    ..b
                })
                .collect();
            assert_eq!(books[1], hadoop(4, &[2, 2], 0, &[2, 2, 0], None), "{era}");
            assert_eq!(
                books[2],
                hadoop(12, &[2, 2], 8, &[2, 2, 0], Some(0)),
                "{era}"
            );
            assert_eq!(
                books[3],
                hadoop(14, &[2, 4], 8, &[2, 4, 0], Some(0)),
                "{era}"
            );
        }
    }
}

#[test]
fn reservations_none_available_cannot_reserve_past_the_queue() {
    // testReservationsNoneAvailable, its steps under the cluster's limit: three 8 GB nodes,
    // user_0 asks a 2 GB AM (kept to node0), 2 × 3 GB maps, 1 × 5 GB and 2 × 8 GB anywhere,
    // arriving at 700 ms so that node0 at 1,000 is its first offer (node2 at 666 would skip
    // the AM, kept to node0, and take a map: the app goes on to its next priority).
    // * 1,000, node0: AM and a map; 1,333, node1: a map (8 GB used).
    // * 1,666, node2: the 5 GB (Hadoop's "let it assign 5G to node_2"): 13 GB used.
    // * 2,000, node0: an 8 GB does not fit its 3 GB free: reserved: 21 GB used, 8 reserved.
    // * node1 and node2 from then on (Hadoop's last step on node_2): the other 8 GB fits
    //   neither, and reserving it would take the queue to 29 GB of 24, within its limit only
    //   by giving the reservation back, which a reservation may not do: nothing changes.
    // Hadoop's two steps handed a 10 GB limit by the caller are not run (see the table).
    for era in ERAS {
        let apps = vec![app(
            700,
            "user_0",
            vec![
                ask(1, 1, 2 * GB, Some("node0")),
                ask(5, 2, 3 * GB, None),
                ask(10, 1, 5 * GB, None),
                ask(12, 2, 8 * GB, None),
            ],
        )];
        let got = short_decisions(&reservations_scenario(era, &[], 3, apps));
        assert_eq!(
            got,
            vec![
                (1_000, 0, 0, 2 * GB, "allocated"),
                (1_000, 0, 0, 3 * GB, "allocated"),
                (1_333, 1, 0, 3 * GB, "allocated"),
                (1_666, 2, 0, 5 * GB, "allocated"),
                (2_000, 0, 0, 8 * GB, "reserved"),
            ],
            "{era}"
        );
        let books = books_after_each(&got, 1, 3);
        assert_eq!(books[2], hadoop(8, &[8], 0, &[5, 3, 0], None), "{era}");
        assert_eq!(books[3], hadoop(13, &[13], 0, &[5, 3, 5], None), "{era}");
        assert_eq!(books[4], hadoop(21, &[13], 8, &[5, 3, 5], Some(0)), "{era}");
    }
}
