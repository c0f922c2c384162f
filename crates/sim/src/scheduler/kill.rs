//! Containers killed before they end, by either scheduler's preemption or with their node:
//! released at once, their tasks asked for again; a preempted one's run time counts as lost
//! work. AM containers are never chosen by preemption (fairsim does not model restarting an
//! attempt for it; Hadoop takes them last).

use crate::app::AppPhase;
use crate::scheduler::Sched;

impl Sched<'_, '_> {
    /// Kills the container in `slot` for preemption: released now, its task asked for
    /// again, its run time counted as lost work.
    pub(crate) fn kill_container(&mut self, slot: u32) {
        self.kill_task(slot, false);
    }

    /// Kills the task container in `slot` (preempted, or `lost` with its node): released
    /// now, its task asked for again; a preempted one's run time counts as lost work. The
    /// slot is not reused (a queued completion finds it dead).
    pub(crate) fn kill_task(&mut self, slot: u32, lost: bool) {
        debug_assert!(!self.w.containers[slot as usize].is_am);
        let c = self.take_back_container(slot);
        let app = &mut self.w.apps[c.app as usize];
        if lost {
            app.lost += 1;
        } else {
            app.preempted += 1;
            app.lost_work_ms += self.cx.now.since(c.start);
        }
        // Its task is asked for again: usage and requests changed.
        let a = c.app;
        self.demand_changed(a);
        // Its hints are not kept (a documented deviation), except for an ask that may not
        // relax: that one is asked again on the node it ran on (one of its hosts), or it
        // could never run again.
        let strict = self.w.apps[a as usize]
            .requests
            .by_priority
            .iter()
            .find(|p| p.priority == c.priority)
            .is_some_and(|p| !p.relax_locality);
        let (nodes, racks) = if strict {
            (
                vec![c.node],
                vec![self.w.cluster.nodes[c.node as usize].rack],
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let app = &mut self.w.apps[a as usize];
        app.requests.add_strict(
            c.priority,
            c.size,
            1,
            c.duration_ms,
            nodes,
            racks,
            false,
            !strict,
        );
        let leaf = app.queue;
        let runnable = app.phase == AppPhase::Runnable;
        if lost {
            self.cx.counters.lost += 1;
        } else {
            self.cx.counters.preempted += 1;
        }
        self.add_usage(leaf, c.size, -1);
        if runnable {
            self.pending_changed(c.app, 1);
        }
        self.reorder_app(c.app);
    }
}
