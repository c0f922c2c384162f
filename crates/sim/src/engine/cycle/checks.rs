//! Debug builds: what the fingerprint leaves out is checked to be what it claims.

use crate::engine::Simulation;
use std::collections::BTreeMap;

impl Simulation<'_> {
    /// Debug builds: leaf `i`'s ordered sets are what its apps' fields give (see
    /// `write_queue`).
    #[cfg(debug_assertions)]
    pub(super) fn check_leaf_sets(&self, i: usize) {
        use std::collections::BTreeSet;
        let mut ordered = BTreeSet::new();
        let mut am_waiting = BTreeSet::new();
        let mut am_sizes: BTreeMap<(i64, i64), u32> = BTreeMap::new();
        for (a, app) in self.w.apps.iter().enumerate() {
            if app.queue.idx() != i || !app.in_set {
                continue;
            }
            let entry = (app.key, app.name_rank, a as u32);
            if app.in_am_set {
                am_waiting.insert(entry);
                if let Some(r) = self.w.specs[a].am {
                    *am_sizes.entry((r.memory_mb, r.vcores)).or_insert(0) += 1;
                }
            } else {
                ordered.insert(entry);
            }
        }
        let q = &self.w.queues[i];
        assert_eq!(q.ordered, ordered, "leaf {i}: ordered set");
        assert_eq!(q.am_waiting, am_waiting, "leaf {i}: am_waiting set");
        assert_eq!(q.am_sizes, am_sizes, "leaf {i}: AM sizes");
    }

    /// Debug builds: a closed app's text is the one first seen for it since the last arrival
    /// or completion.
    #[cfg(debug_assertions)]
    pub(super) fn check_closed(&self, i: usize, text: String) {
        let mut closed = self.cycle.closed.borrow_mut();
        let first = closed.entry(i).or_insert_with(|| text.clone());
        assert_eq!(*first, text, "closed app {i} changed");
    }
}
