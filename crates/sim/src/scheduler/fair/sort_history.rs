//! Runs whose sorted lists remember their history (Hadoop 2.7's Fair Scheduler).
//!
//! Hadoop 2.7 keeps each parent's children and each leaf's runnable apps in a list and sorts
//! it in place (`Collections.sort`, a stable TimSort) in every `assignContainer` whose
//! precheck passes (usage within maxResources, node not reserved), whether or not anything
//! under the queue asks. With a comparator that is a total order the list's order after a
//! sort depends only on the values compared, so a descent may skip idle queues and an
//! ordered set may stand in for the list. Two things make the order depend on the list's
//! history instead:
//! * **NaN ratios**: usage / weight with weight 0 and no usage is 0 / 0 (and DRF divides by
//!   cluster × weight, by a minimum share or by a cluster without vcores); `(int)
//!   Math.signum(NaN)` is 0, so the comparison falls to start time and name and the
//!   comparator is not transitive. Weights are 0 for a queue configured so and, with
//!   sizebasedweight, for an app whose demand is 0 (one that arrived since the last update:
//!   `getAppWeight` reads the demand the update thread last computed).
//! * **DRF without a name tie-break**: equal shares and start times compare 0, and the
//!   stable sort keeps such schedulables in the order the last sorts left them.
//!
//! In such a run (`FairState::sorted_history`) every descent sorts the persisted lists
//! exactly where Hadoop does (`assign_queue` visits queues with nothing to ask too), both
//! orderings take that path (the incremental one's keys cannot express the history), and
//! no heartbeat is elided while the root may take a node (each one sorts). Hadoop 3.3 builds
//! a fresh `TreeSet` per descent from lists it never sorts, and its fair comparator has the
//! zero-weight rule and a name tie-break: no history. Its DRF comparator still divides by
//! weights (0 for a weight-0 queue, and with sizebasedweight for an app not updated yet) and
//! by the cluster's vcores, so NaN ties make the set's order that of the red-black tree its
//! insertions built: in a 3.3 run with DRF both orderings build that set
//! (`FairState::tree_sets`, `fairsim_core::tree_set_order`) from the lists in Hadoop's
//! order (children as created, runnable apps as they became runnable).

use crate::scenario::Scenario;
use crate::tree::SchedulerKind;
use fairsim_core::{Policy, Semantics};

/// Whether a Hadoop 3.3 Fair Scheduler run may compare NaN ratios under DRF, so that each
/// descent must build Hadoop's `TreeSet` (module docs).
pub(crate) fn descents_build_tree_sets(sc: &Scenario) -> bool {
    sc.scheduler.semantics == Semantics::Hadoop33
        && sc.tree.scheduler != SchedulerKind::Capacity
        && (sc.tree.new_queue_defaults.policy == Policy::Drf
            || sc.tree.queues.iter().any(|q| q.policy == Policy::Drf))
}

/// Whether the order of `sc`'s sorted lists depends on their history (module docs).
pub(crate) fn lists_keep_history(sc: &Scenario) -> bool {
    if sc.scheduler.semantics != Semantics::Hadoop27 || sc.tree.scheduler == SchedulerKind::Capacity
    {
        return false;
    }
    let tree = &sc.tree;
    sc.scheduler.sizebasedweight
        || tree.new_queue_defaults.policy == Policy::Drf
        || tree
            .queues
            .iter()
            .enumerate()
            .any(|(i, q)| q.policy == Policy::Drf || (i > 0 && q.weight == 0.0))
}
