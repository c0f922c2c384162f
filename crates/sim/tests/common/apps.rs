//! Apps of one stage, the shape most tests submit.

use fairsim_core::Resource;
use fairsim_sim::SimTime;
use fairsim_sim::app::{AppSpec, TaskGroup};

/// Megabytes in a gigabyte: one container of the tests' usual size.
pub const GB: i64 = 1024;

/// How long a task of [`long_tasks`] runs: past the end of every test that uses it.
pub const LONG_MS: u64 = 1_000_000;

/// An unmanaged app (no AM) named `{queue}-{arrival}` with one stage of `count` tasks of
/// `size`, each `duration_ms` long, at priority 1 on any host.
pub fn one_stage(
    arrival: u64,
    queue: &str,
    user: &str,
    count: u32,
    size: Resource,
    duration_ms: u64,
) -> AppSpec {
    AppSpec {
        name: format!("{queue}-{arrival}"),
        arrival: SimTime(arrival),
        queue: queue.into(),
        user: user.into(),
        am: None,
        stages: vec![vec![TaskGroup {
            count,
            size,
            duration_ms,
            priority: 1,
            hosts: vec![],
            relax_locality: true,
        }]],
        recorded: None,
    }
}

/// User `u`'s app of `count` 1 GB / 1 vcore tasks that never finish within a test.
pub fn long_tasks(arrival: u64, queue: &str, count: u32) -> AppSpec {
    one_stage(arrival, queue, "u", count, Resource::new(GB, 1), LONG_MS)
}

/// User `user`'s unmanaged app named `app-{arrival}-{queue}-{user}`: one stage of `count`
/// tasks of `mb` MB and `vcores` vcores, each `duration_ms` long (the shape Hadoop's
/// scheduler tests submit).
pub fn app(
    arrival: u64,
    queue: &str,
    user: &str,
    count: u32,
    mb: i64,
    vcores: i64,
    duration_ms: u64,
) -> AppSpec {
    AppSpec {
        name: format!("app-{arrival}-{queue}-{user}"),
        ..one_stage(
            arrival,
            queue,
            user,
            count,
            Resource::new(mb, vcores),
            duration_ms,
        )
    }
}

/// `count` tasks of `mb` MB at `priority`, each `duration_ms` long: on `host` only when one
/// is given (relaxLocality off), anywhere otherwise.
pub fn pinned_group(
    priority: i32,
    count: u32,
    mb: i64,
    duration_ms: u64,
    host: Option<&str>,
) -> TaskGroup {
    TaskGroup {
        count,
        size: Resource::new(mb, 1),
        duration_ms,
        priority,
        hosts: host.map(|h| vec![h.to_string()]).unwrap_or_default(),
        relax_locality: host.is_none(),
    }
}
