//! The Capacity Scheduler's reservations, both eras: a container that does not fit the node
//! it is offered reserves the node; the reserved node serves it first when it frees and
//! takes nothing else meanwhile; reservations count in the queue's used capacity; an app
//! allocating elsewhere gives back a reservation it no longer needs
//! (`shouldAllocOrReserveNewContainer`, reservations-continue-looking), and a reservation
//! whose app stopped asking is released at its node's next heartbeat; how the switch that
//! allows the give-back, reservations-continue-look-all-nodes, is read. Ported from Hadoop's
//! TestReservations where its numbers apply (docs/semantics.md, "The Capacity Scheduler's
//! reservations").

mod common;

use common::apps::{GB, LONG_MS, pinned_group};
use common::capacity::{load, scenario};
use common::outcomes::{Short, short_decisions};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::SimTime;
use fairsim_sim::app::{AppSpec, TaskGroup};
use fairsim_sim::scenario::Scenario;

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// An unmanaged app of user `user` in `queue`, arriving at `arrival`, asking `groups` at once.
fn app(arrival: u64, queue: &str, user: &str, groups: Vec<TaskGroup>) -> AppSpec {
    AppSpec {
        name: format!("{queue}-{user}-{arrival}"),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: user.into(),
        am: None,
        stages: vec![groups],
        recorded: None,
    }
}

/// One leaf `a` at 100 %. Its AM limit is lifted: the apps here are unmanaged, which Hadoop
/// charges the minimum allocation at activation, and TestReservations' apps charge nothing.
const ONE_LEAF: [(&str, &str); 4] = [
    ("root.queues", "a"),
    ("root.a.capacity", "100"),
    ("root.a.maximum-capacity", "100"),
    AM_LIMIT_LIFTED,
];

/// A maximum-am-resource-percent that no AM limit here reaches.
const AM_LIMIT_LIFTED: (&str, &str) = ("maximum-am-resource-percent", "10");

#[test]
fn a_large_container_reserves_its_node_and_gets_it_when_it_frees() {
    // Two 8 GB nodes (heartbeats at 0 and 500 ms each second), one leaf at 100 %. app 0 holds
    // 3 × 2 GB on node0 (from 1,000 to 11,000), app 1 2 × 2 GB on node1; app 2 asks 6 GB,
    // app 3 4 × 1 GB, in FIFO order. At 1,000 node0 has 2 GB free: app 2's 6 GB does not fit
    // it but fits the queue (10 + 6 ≤ 16 GB), so node0 is reserved and the queue's used is
    // 16 GB. From then on the reserved node takes nothing else, and node1's 4 GB are refused
    // to app 3 too: the queue is at its limit by the reservation (2.7: 16 + 1 > 16; 3.3:
    // 16 ≥ 16), while app 2 (which may look past its reservation) neither fits node1 nor
    // should take a second container (1 asked, 1 reserved). At 11,000 app 0's containers
    // end: the reservation becomes app 2's container. Hadoop 2.7 then schedules the rest of
    // the node on the same heartbeat (app 3's first 1 GB); Hadoop 3.3 assigns nothing else
    // on a heartbeat that served a reservation (`allocateContainerOnSingleNode`), so app 3
    // starts on node1 at 11,500. Before reservations were modelled app 3 took node1's room at
    // 1,500 and app 2 waited for a node with 6 GB free.
    for era in ERAS {
        let apps = vec![
            app(
                10,
                "a",
                "u0",
                vec![pinned_group(1, 3, 2 * GB, 10_000, Some("node0"))],
            ),
            app(
                15,
                "a",
                "u1",
                vec![pinned_group(1, 2, 2 * GB, LONG_MS, Some("node1"))],
            ),
            app(
                700,
                "a",
                "u2",
                vec![pinned_group(1, 1, 6 * GB, LONG_MS, None)],
            ),
            app(800, "a", "u3", vec![pinned_group(1, 4, GB, LONG_MS, None)]),
        ];
        let sc = scenario(era, &ONE_LEAF, 2, Resource::new(8 * GB, 8), apps);
        let got = short_decisions(&sc);
        let mut want: Vec<Short> = vec![
            (500, 1, 1, 2 * GB, "allocated"),
            (500, 1, 1, 2 * GB, "allocated"),
            (1_000, 0, 0, 2 * GB, "allocated"),
            (1_000, 0, 0, 2 * GB, "allocated"),
            (1_000, 0, 0, 2 * GB, "allocated"),
            (1_000, 0, 2, 6 * GB, "reserved"),
            (11_000, 0, 2, 6 * GB, "unreserved"),
            (11_000, 0, 2, 6 * GB, "allocated"),
        ];
        let app3: [(u64, u32); 4] = match era {
            Semantics::Hadoop27 => [(11_000, 0), (11_500, 1), (12_000, 0), (12_500, 1)],
            Semantics::Hadoop33 => [(11_500, 1), (12_000, 0), (12_500, 1), (13_000, 0)],
        };
        want.extend(app3.iter().map(|&(t, n)| (t, n, 3, GB, "allocated")));
        assert_eq!(got, want, "{era}");
    }
}

/// Three 8 GB nodes (heartbeats at 0, 333 and 666 ms each second), leaf `a` at 100 % with
/// the maximum allocation raised to 16 GB as TestReservations sets it, and one app asking as
/// its testReservation does: 1 × 2 GB, 2 × 3 GB and 2 × 5 GB (reduces, anywhere). Here the
/// 2 GB and one 3 GB are kept to node0, the other 3 GB to node1, and the app comes at 900 ms,
/// so that node0 is offered first, as the test offers it.
fn test_reservation_scenario(era: Semantics) -> Scenario {
    let apps = vec![app(
        900,
        "a",
        "user_0",
        vec![
            pinned_group(1, 1, 3 * GB, LONG_MS, Some("node1")),
            pinned_group(2, 1, 2 * GB, LONG_MS, Some("node0")),
            pinned_group(3, 1, 3 * GB, LONG_MS, Some("node0")),
            pinned_group(10, 2, 5 * GB, LONG_MS, None),
        ],
    )];
    let mut sc = scenario(era, &ONE_LEAF, 3, Resource::new(8 * GB, 8), apps);
    sc.scheduler.maximum_allocation_mb = 16 * GB;
    sc.scheduler.maximum_allocation_vcores = 12;
    sc
}

#[test]
fn test_reservation_unreserves_to_use_a_node_with_room() {
    // testReservation's numbers. node0 at 1,000: the 3 GB kept to node1 skips its priority,
    // then the 2 GB and 3 GB, then the first 5 GB reduce (anywhere, no delay) does not fit
    // the 3 GB left: node0 is reserved (queue used 5 + 5 = 10 GB of 24). node1 at 1,333: its
    // 3 GB, then a reduce fits its 5 GB; 2 asked and 1 reserved, so the app should take a
    // new container (0 + 2 − 1 > 0). node2 at 1,666: one reduce asked and one reserved,
    // 0 + 1 − 1 = 0: the app should not take a new container without giving its reservation
    // back, so node0's 5 GB is unreserved (the first reservation at least the ask's size)
    // and the reduce allocated on node2. Hadoop's end state: node0 5 GB, node1 8 GB, node2
    // 5 GB, 18 GB used, nothing reserved.
    for era in ERAS {
        let got = short_decisions(&test_reservation_scenario(era));
        let want: Vec<Short> = vec![
            (1_000, 0, 0, 2 * GB, "allocated"),
            (1_000, 0, 0, 3 * GB, "allocated"),
            (1_000, 0, 0, 5 * GB, "reserved"),
            (1_333, 1, 0, 3 * GB, "allocated"),
            (1_333, 1, 0, 5 * GB, "allocated"),
            (1_666, 0, 0, 5 * GB, "unreserved"),
            (1_666, 2, 0, 5 * GB, "allocated"),
        ];
        assert_eq!(got, want, "{era}");
    }
}

/// Three 8 GB nodes (heartbeats at 0, 333 and 666 ms each second): app 0 holds 3 × 2 GB on
/// node0 (2 GB free), app 1 4 × 2 GB on node1 from 333 for `busy_ms`, app 2 2 × 2 GB on
/// node2 (4 GB free); app 3 asks one 6 GB container at 1,100. With the default maximum
/// allocation (8 GB) and minimum (1 GB): minimumAllocationFactor 7/8 and the 6 GB ask's node
/// factor 6/8, so each re-reservation of app 3's reservation adds (1 − 0.75) = 0.25 of a
/// container to its starvation allowance.
fn re_reservation_scenario(era: Semantics, busy_ms: u64) -> Scenario {
    let apps = vec![
        app(
            10,
            "a",
            "u0",
            vec![pinned_group(1, 3, 2 * GB, LONG_MS, Some("node0"))],
        ),
        app(
            10,
            "a",
            "u1",
            vec![pinned_group(1, 4, 2 * GB, busy_ms, Some("node1"))],
        ),
        app(
            10,
            "a",
            "u2",
            vec![pinned_group(1, 2, 2 * GB, LONG_MS, Some("node2"))],
        ),
        app(
            1_100,
            "a",
            "u3",
            vec![pinned_group(1, 1, 6 * GB, LONG_MS, None)],
        ),
    ];
    scenario(era, &ONE_LEAF, 3, Resource::new(8 * GB, 8), apps)
}

#[test]
fn should_alloc_or_reserve_counts_re_reservations() {
    // node2 (4 GB free) is the first node app 3 is offered: reserved at 1,666 (the queue's
    // used is then 18 + 6 = 24 GB, its limit), re-reserved at 2,666, 3,666, 4,666, 5,666.
    // node0's 2 GB never fit it. node1 frees at 333 + busy_ms:
    // * at 5,333 (3 re-reservations): starvation (int) (3 × 0.25) = 0, 0 + 1 − 1 = 0: the
    //   app must give node2 back to take node1 (unreserved, then allocated, at 5,333);
    // * at 6,333 (4 re-reservations): starvation 1, 1 + 1 − 1 > 0: node1 is allocated
    //   without giving node2 back, and node2's reservation, no longer asked for, is released
    //   at node2's next heartbeat (6,666).
    for era in ERAS {
        let mine = |busy_ms| -> Vec<Short> {
            let got = short_decisions(&re_reservation_scenario(era, busy_ms));
            got.into_iter().filter(|d| d.2 == 3).collect()
        };
        assert_eq!(
            mine(5_000),
            vec![
                (1_666, 2, 3, 6 * GB, "reserved"),
                (5_333, 2, 3, 6 * GB, "unreserved"),
                (5_333, 1, 3, 6 * GB, "allocated"),
            ],
            "{era}"
        );
        assert_eq!(
            mine(6_000),
            vec![
                (1_666, 2, 3, 6 * GB, "reserved"),
                (6_333, 1, 3, 6 * GB, "allocated"),
                (6_666, 2, 3, 6 * GB, "unreserved"),
            ],
            "{era}"
        );
    }
}

#[test]
fn a_reservation_counts_in_its_queues_used_capacity() {
    // Two 8 GB nodes (heartbeats at 0 and 500 ms): leaf a at 50 % with maximum 50 % (8 GB),
    // leaf b at 50 % with maximum 100 %. b's app 0 asks 6 GB on node0 and 2 GB on node1
    // (kept there); a's app 1 one 2 GB container, app 2 one 6 GB, app 3 one 1 GB, anywhere.
    // * 500, node1: app 1's 2 GB.
    // * 1,000, node0: b (0 % used) first, its 6 GB; then a: app 2's 6 GB fits a's maximum
    //   (2 + 6 ≤ 8) but not node0's 2 GB free: reserved. a's used is now 8 GB, its maximum.
    // * 1,500, node1: b (75 %) first, its 2 GB; then a (100 %): app 2 may look past its
    //   reservation but fits neither node1's 4 GB free nor (1 asked, 1 reserved) should it
    //   take a second container; app 3's 1 GB is refused for a's maximum (2.7: 8 + 1 > 8;
    //   3.3: 8 ≥ 8). app 3 never runs while the reservation stands; counting only a's
    //   containers (2 GB), it would have had 1 GB on node1 at 1,500.
    let props = [
        ("root.queues", "a,b"),
        ("root.a.capacity", "50"),
        ("root.a.maximum-capacity", "50"),
        ("root.b.capacity", "50"),
        ("root.b.maximum-capacity", "100"),
        AM_LIMIT_LIFTED,
    ];
    for era in ERAS {
        let apps = vec![
            app(
                10,
                "b",
                "ub",
                vec![
                    pinned_group(1, 1, 6 * GB, LONG_MS, Some("node0")),
                    pinned_group(2, 1, 2 * GB, LONG_MS, Some("node1")),
                ],
            ),
            app(
                20,
                "a",
                "u1",
                vec![pinned_group(1, 1, 2 * GB, LONG_MS, None)],
            ),
            app(
                30,
                "a",
                "u2",
                vec![pinned_group(1, 1, 6 * GB, LONG_MS, None)],
            ),
            app(40, "a", "u3", vec![pinned_group(1, 1, GB, LONG_MS, None)]),
        ];
        let mut sc = scenario(era, &props, 2, Resource::new(8 * GB, 8), apps);
        sc.end_ms = Some(30_000);
        let got = short_decisions(&sc);
        let want: Vec<Short> = vec![
            (500, 1, 1, 2 * GB, "allocated"),
            (1_000, 0, 0, 6 * GB, "allocated"),
            (1_000, 0, 2, 6 * GB, "reserved"),
            (1_500, 1, 0, 2 * GB, "allocated"),
        ];
        assert_eq!(got, want, "{era}");
    }
}

#[test]
fn a_lost_node_takes_its_reservation_with_it() {
    // The first steps of the first test (node0 reserved for app 2's 6 GB at 1,000), node0
    // lost at 5,000: its reservation is released with it (and the queue's charge with it:
    // the run's invariants compare the books with the nodes after every event).
    for era in ERAS {
        let apps = vec![
            app(
                10,
                "a",
                "u0",
                vec![pinned_group(1, 3, 2 * GB, LONG_MS, Some("node0"))],
            ),
            app(
                15,
                "a",
                "u1",
                vec![pinned_group(1, 2, 2 * GB, LONG_MS, Some("node1"))],
            ),
            app(
                700,
                "a",
                "u2",
                vec![pinned_group(1, 1, 6 * GB, LONG_MS, None)],
            ),
        ];
        let mut sc = scenario(era, &ONE_LEAF, 2, Resource::new(8 * GB, 8), apps);
        sc.end_ms = Some(10_000);
        sc.cluster.events = common::generator::node_events(2, &[(5_000, 1, 0)]);
        let got = short_decisions(&sc);
        let mine: Vec<Short> = got.into_iter().filter(|d| d.2 == 2).collect();
        assert_eq!(
            mine,
            vec![
                (1_000, 0, 2, 6 * GB, "reserved"),
                (5_000, 0, 2, 6 * GB, "unreserved"),
            ],
            "{era}"
        );
    }
}

/// `yarn.scheduler.capacity.reservations-continue-look-all-nodes` as both eras read it
/// (`CapacitySchedulerConfiguration.getReservationContinueLook`, Hadoop's `getBoolean`,
/// default true): trimmed, `true` or `false` in any case, into every queue; any other text
/// keeps true with a warning at its line (line 6: after the configuration's opening line and
/// `ONE_LEAF`'s four properties). The name some write for it, `reservations-continue-looking`,
/// is no property Hadoop reads: warned, and the switch stays on.
#[test]
fn continue_looking_is_read_as_get_boolean_reads_it() {
    let key = "reservations-continue-look-all-nodes";
    for era in ERAS {
        for (value, on, warned) in [
            (None, true, false),
            (Some("true"), true, false),
            (Some("FALSE"), false, false),
            (Some(" false "), false, false),
            (Some("False"), false, false),
            (Some("no"), true, true),
            (Some("0"), true, true),
            (Some(""), true, true),
        ] {
            let mut props = ONE_LEAF.to_vec();
            props.extend(value.map(|v| (key, v)));
            let loaded = load(era, &props).unwrap_or_else(|e| panic!("{e}"));
            for q in &loaded.tree.queues {
                assert_eq!(q.cs.continue_looking, on, "{era} {value:?}: {}", q.name);
            }
            let w = loaded.warnings.join("\n");
            if warned {
                assert_eq!(loaded.warnings.len(), 1, "{era} {value:?}: {w}");
                assert!(
                    w.contains(":6:")
                        && w.contains(key)
                        && w.contains("Hadoop's getBoolean keeps the default, true"),
                    "{era} {value:?}: {w}"
                );
            } else {
                assert!(loaded.warnings.is_empty(), "{era} {value:?}: {w}");
            }
        }
        let mut props = ONE_LEAF.to_vec();
        props.push(("reservations-continue-looking", "false"));
        let loaded = load(era, &props).unwrap_or_else(|e| panic!("{e}"));
        assert!(loaded.tree.queues.iter().all(|q| q.cs.continue_looking));
        let w = loaded.warnings.join("\n");
        assert_eq!(loaded.warnings.len(), 1, "{era}: {w}");
        assert!(
            w.contains(":6:")
                && w.contains("Hadoop reads no property of that name")
                && w.contains(key),
            "{era}: {w}"
        );
    }
}
