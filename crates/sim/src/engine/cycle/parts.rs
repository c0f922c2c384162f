//! Texts of the parts the fingerprint writes in its own way: a queue without a leaf's
//! ordered sets, an app with its relative values put in; and what a queue's text was made
//! from, to tell when it must be made again.

use std::fmt::Write as _;

/// A queue's text. A leaf's ordered sets (`ordered`, `am_waiting`, `am_sizes`) are left
/// out: they index its apps by the apps' own fields (key, name rank, `in_set`, `in_am_set`,
/// the AM size), which the apps' texts hold, so two states with equal apps have equal sets,
/// and writing them out made every fingerprint as long as the leaf's apps (debug builds check
/// that they are what the apps give). A parent's set is written: it holds its children.
/// The leaf's accumulators are outputs. `fair_share` is the queue's as it reads it (a leaf
/// under a parent split by class reads its class's, see `queue_shares`).
///
/// `free_order`: the queue's list (a parent's children, a leaf's runnable apps) is read
/// only where its order cannot matter (the naive descent's in-place sort, under a comparator
/// that orders the list totally, `Comparator::orders_totally`; sums and per-item shares), so
/// every sort gives the same order whatever the list held before: the list is written
/// sorted by index. Without this, a descent that sorts the list with keys changed since the
/// last sort (no decision, no progress) makes a frozen naive run look different from one
/// tick to the next, and it is found frozen later than an incremental run of the same
/// scenario, whose order lives in keyed sets.
pub(super) fn write_queue(
    s: &mut String,
    q: &crate::engine::QueueState,
    fair_share: fairsim_core::Resource,
    leaf: bool,
    free_order: bool,
) {
    let crate::engine::QueueState {
        usage,
        demand,
        fair_share: _,
        steady_share,
        ideal_share,
        min_share,
        max_share,
        am_usage,
        runnable,
        waiting,
        max_running,
        pending,
        runnable_apps,
        waiting_apps,
        sched,
        key,
        name_rank,
        comparator,
        child_list,
        ordered,
        // Whether the parent's `ordered` holds it: read there.
        in_parent_set: _,
        am_waiting,
        am_sizes,
        acc: _,
        app_shares_dirty,
        app_shares_listed,
        open,
        offered,
        app_demand,
    } = q;
    let (sorted_children, sorted_apps);
    let (child_list, runnable_apps) = if free_order {
        let by_index = |v: &Vec<u32>| {
            let mut v = v.clone();
            v.sort_unstable();
            v
        };
        sorted_children = by_index(child_list);
        sorted_apps = by_index(runnable_apps);
        (&sorted_children, &sorted_apps)
    } else {
        (child_list, runnable_apps)
    };
    let _ = write!(
        s,
        "{:?}",
        (
            (usage, demand, &fair_share, steady_share, ideal_share),
            (min_share, max_share, am_usage, app_demand),
            (runnable, waiting, max_running, pending),
            (runnable_apps, waiting_apps, child_list),
            (sched, key, name_rank, comparator),
            (app_shares_dirty, app_shares_listed, open, offered)
        )
    );
    if !leaf {
        let _ = write!(s, "{ordered:?}{am_waiting:?}{am_sizes:?}");
    }
    s.push(';');
}

/// An app's text: its state with the relative values put in (see `Simulation::fingerprint`)
/// and the output counters cleared.
pub(super) fn app_text(a: &crate::engine::AppState, put_in: &[u64]) -> String {
    // The app's fair share (memory, vcores) comes last.
    let (put_in, share) = put_in.split_at(put_in.len() - 2);
    let mut a = a.clone();
    a.am_container = match put_in[0] {
        u64::MAX => None,
        r => Some(r as u32),
    };
    // Output counters.
    a.containers = 0;
    a.preempted = 0;
    a.lost_work_ms = 0;
    a.lost = 0;
    for (p, v) in a.requests.by_priority.iter_mut().zip(put_in[1..].chunks(2)) {
        p.opportunities = v[0] as u32;
        p.last_scheduled = Some(v[1]);
    }
    format!("{a:?} share {share:?}")
}

/// What a queue's text was made from: its state as `write_queue` writes it (a leaf's
/// ordered sets left empty and the accumulators cleared, as neither is written) and the
/// values it was given.
#[derive(Debug)]
pub(super) struct QueueFrom {
    state: crate::engine::QueueState,
    leaf: bool,
    free_order: bool,
}

/// Queue `q`'s text and what it was made from (see [`write_queue`] for the arguments).
pub(super) fn queue_text(
    q: &crate::engine::QueueState,
    fair_share: fairsim_core::Resource,
    leaf: bool,
    free_order: bool,
) -> (QueueFrom, String) {
    let mut s = String::new();
    write_queue(&mut s, q, fair_share, leaf, free_order);
    let (ordered, am_waiting, am_sizes) = if leaf {
        Default::default()
    } else {
        (q.ordered.clone(), q.am_waiting.clone(), q.am_sizes.clone())
    };
    let state = crate::engine::QueueState {
        fair_share,
        runnable_apps: q.runnable_apps.clone(),
        waiting_apps: q.waiting_apps.clone(),
        sched: q.sched.clone(),
        child_list: q.child_list.clone(),
        ordered,
        am_waiting,
        am_sizes,
        acc: Default::default(),
        ..*q
    };
    let from = QueueFrom {
        state,
        leaf,
        free_order,
    };
    (from, s)
}

/// Whether queue `q`'s text, given these values, is the one made from `m`: every field
/// [`write_queue`] writes is equal (the weight, a float, compared by its bits, as its text
/// tells `-0.0` from `0.0`). Destructured whole, so a field added to a queue does not
/// compile until it is placed here as well.
pub(super) fn queue_unchanged(
    m: &QueueFrom,
    q: &crate::engine::QueueState,
    fair_share: fairsim_core::Resource,
    leaf: bool,
    free_order: bool,
) -> bool {
    let crate::engine::QueueState {
        usage,
        demand,
        fair_share: _,
        steady_share,
        ideal_share,
        min_share,
        max_share,
        am_usage,
        runnable,
        waiting,
        max_running,
        pending,
        runnable_apps,
        waiting_apps,
        sched,
        key,
        name_rank,
        comparator,
        child_list,
        ordered,
        // Whether the parent's `ordered` holds it: read there.
        in_parent_set: _,
        am_waiting,
        am_sizes,
        acc: _,
        app_shares_dirty,
        app_shares_listed,
        open,
        offered,
        app_demand,
    } = q;
    let was = &m.state;
    m.leaf == leaf
        && m.free_order == free_order
        && was.fair_share == fair_share
        && (*usage, *demand, *steady_share, *ideal_share)
            == (was.usage, was.demand, was.steady_share, was.ideal_share)
        && (*min_share, *max_share, *am_usage, *app_demand)
            == (was.min_share, was.max_share, was.am_usage, was.app_demand)
        && (*runnable, *waiting, *max_running, *pending)
            == (was.runnable, was.waiting, was.max_running, was.pending)
        && (*key, *name_rank, *comparator) == (was.key, was.name_rank, was.comparator)
        && (*app_shares_dirty, *app_shares_listed, *open, *offered)
            == (
                was.app_shares_dirty,
                was.app_shares_listed,
                was.open,
                was.offered,
            )
        && sched.weight.to_bits() == was.sched.weight.to_bits()
        && *sched == was.sched
        && *runnable_apps == was.runnable_apps
        && *waiting_apps == was.waiting_apps
        && *child_list == was.child_list
        && (leaf
            || (*ordered == was.ordered
                && *am_waiting == was.am_waiting
                && *am_sizes == was.am_sizes))
}
