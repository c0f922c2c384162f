//! Queues created at run time by placement rules take the allocation file's defaults for
//! queues it does not name (`AllocationConfiguration` getters, `QueueManager.createNewQueues`),
//! and users without an entry take `userMaxAppsDefault`: the defaults not pinned elsewhere
//! (queueMaxAppsDefault, queueMaxResourcesDefault, defaultQueueSchedulingPolicy and the
//! preemption settings are in `fidelity.rs`, maxChildResources in `hadoop_tests_fs.rs`).

mod common;

use common::apps::{GB, one_stage};
use common::outcomes::run_recorded;
use common::scenarios::{fair_tree, trace_scenario};
use fairsim_core::{Resource, Semantics};
use fairsim_sim::app::AppSpec;
use fairsim_sim::scenario::{Scenario, SchedulerConf};

const ERAS: [Semantics; 2] = [Semantics::Hadoop27, Semantics::Hadoop33];

/// An app of `user` in `queue` with one long 1 GB task, managed (1 GB AM) or not.
fn app(arrival: u64, queue: &str, user: &str, managed: bool, duration_ms: u64) -> AppSpec {
    let size = Resource::new(GB, 1);
    AppSpec {
        name: format!("{queue}-{user}-{arrival}"),
        am: managed.then_some(size),
        ..one_stage(arrival, queue, user, 1, size, duration_ms)
    }
}

/// First allocation time of each app (`None`: never ran), on eight 1 GB nodes.
fn first_allocations(semantics: Semantics, xml: &str, apps: Vec<AppSpec>) -> Vec<Option<u64>> {
    let n = apps.len();
    let tree = fair_tree(xml, semantics);
    let sc = Scenario {
        scheduler: SchedulerConf {
            semantics,
            ..SchedulerConf::default()
        },
        end_ms: Some(100_000),
        ..trace_scenario(
            "created-queue-defaults",
            tree,
            8,
            Resource::new(GB, 1),
            apps,
        )
    };
    common::outcomes::first_allocations(&run_recorded(&sc).0, n)
}

#[test]
fn a_queue_created_at_run_time_takes_queue_max_am_share_default() {
    // Three managed apps in `root.late`, which the file does not name; the queue's fair share
    // is the whole 8 GB. queueMaxAMShareDefault 0.25 lets AMs use 2 GB: two AMs run and the
    // third app never starts. YARN's own default (0.5) lets all three run.
    let apps = || {
        (0..3)
            .map(|k| app(k * 100, "late", "u", true, 1_000_000))
            .collect()
    };
    let capped = "<allocations><queueMaxAMShareDefault>0.25</queueMaxAMShareDefault></allocations>";
    for s in ERAS {
        let got = first_allocations(s, capped, apps());
        assert!(got[0].is_some() && got[1].is_some(), "{s}: {got:?}");
        assert_eq!(got[2], None, "{s}: {got:?}");
        let got = first_allocations(s, "<allocations/>", apps());
        assert!(got.iter().all(Option::is_some), "{s}: {got:?}");
    }
}

#[test]
fn users_without_an_entry_take_user_max_apps_default() {
    // userMaxAppsDefault 1: user a's second app waits until its first ends (10 s, reported
    // at its node's heartbeat), while user b, with its own entry of 2, runs two at once.
    let xml = "<allocations><userMaxAppsDefault>1</userMaxAppsDefault>\
               <user name=\"b\"><maxRunningApps>2</maxRunningApps></user></allocations>";
    for s in ERAS {
        let got = first_allocations(
            s,
            xml,
            vec![
                app(0, "late", "a", false, 10_000),
                app(100, "late", "a", false, 10_000),
                app(200, "late", "b", false, 10_000),
                app(300, "late", "b", false, 10_000),
            ],
        );
        let t = |k: usize| got[k].unwrap_or(u64::MAX);
        assert!(t(0) < 1_000 && t(2) < 1_000 && t(3) < 1_000, "{s}: {got:?}");
        assert!((10_000..11_000).contains(&t(1)), "{s}: {got:?}");
    }
}
