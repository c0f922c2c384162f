//! What happens to an app's asks at submission, in both schedulers: validation against the
//! maximum allocation in force (an ask above it rejects the app) and normalisation of every
//! container size (`crate::normalize`). An ask larger than every node but within the maximum
//! allocation is kept: it stays pending and counts in demand, as in YARN.
//!
//! YARN validates the AM request at submission and task requests at the AM's allocate
//! call (where an invalid one fails the app); fairsim checks every ask at submission against
//! the maximum in force then, so such an app is rejected before it runs rather than after
//! its AM started.

use crate::normalize::{AllocationLimits, Normalizer, max_allowed, normalize, validate};
use crate::scheduler::Sched;
use crate::tree::SchedulerKind;
use fairsim_core::{Calculator, Resource};

impl Sched<'_, '_> {
    /// The scheduler's minimum, maximum and rounding step.
    pub(crate) fn allocation_limits(&self) -> AllocationLimits {
        let c = &self.w.sc.scheduler;
        let minimum = Resource::new(c.minimum_allocation_mb, c.minimum_allocation_vcores);
        let maximum = Resource::new(c.maximum_allocation_mb, c.maximum_allocation_vcores);
        let (step, normalizer) = match self.w.tree.scheduler {
            // FairScheduler.allocate: the dominant resource calculator, the increment.
            SchedulerKind::Fair => (
                Resource::new(c.increment_allocation_mb, c.increment_allocation_vcores),
                Normalizer::Dominant,
            ),
            // CapacityScheduler.allocate: its own calculator, the minimum as the step.
            SchedulerKind::Capacity => (
                minimum,
                match self.w.tree.resource_calculator {
                    Calculator::MemoryOnly => Normalizer::MemoryOnly,
                    Calculator::Dominant => Normalizer::Dominant,
                },
            ),
        };
        AllocationLimits {
            minimum,
            maximum,
            step,
            normalizer,
            wait_ms: c.max_allocation_wait_ms,
        }
    }

    /// Validates and normalises the asks of app `a` now; `Err` with the reason to reject it.
    pub(crate) fn admit(&mut self, a: u32) -> Result<(), String> {
        let limits = self.allocation_limits();
        let max = max_allowed(&limits, self.cx.now.0, self.w.largest_node);
        let spec = &self.w.specs[a as usize];
        if let Some(am) = spec.am {
            validate(am, max).map_err(|m| format!("AM container: {m}"))?;
        }
        for g in spec.stages.iter().flatten() {
            validate(g.size, max).map_err(|m| format!("task container: {m}"))?;
        }
        let semantics = self.w.semantics;
        let spec = &mut self.w.specs[a as usize];
        if let Some(am) = &mut spec.am {
            *am = normalize(*am, &limits, max, semantics);
        }
        for g in spec.stages.iter_mut().flatten() {
            g.size = normalize(g.size, &limits, max, semantics);
        }
        Ok(())
    }
}
