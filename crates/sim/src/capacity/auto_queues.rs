//! Hadoop 3.3's legacy auto-created leaf queues: a parent with
//! `auto-create-child-queue.enabled` (a `ManagedParentQueue`) whose leaves a queue mapping
//! creates at submission from the parent's `leaf-queue-template`, and the capacities
//! `GuaranteedOrZeroCapacityOverTimePolicy`, the default management policy, gives them.
//!
//! * A new leaf is active, at the template's capacity, when what the parent's guaranteed
//!   (absolute) capacity has left after the active leaves still holds the template's
//!   absolute capacity (`getInitialLeafQueueConfiguration`, with Hadoop's `EPSILON` of
//!   slack); otherwise it starts at 0, with the template's maximum.
//! * Every run of the policy (`QueueManagementDynamicEditPolicy`, each monitoring interval,
//!   when the ResourceManager runs that monitor: `input::monitor_policies`)
//!   first deactivates each active leaf holding no application (capacity 0), then activates
//!   inactive leaves in the submission order of the parent's applications while the room
//!   lasts: at most `floor(available / template)` leaves and no more than the parent has
//!   applications, where `available` counts the capacity just freed; a leaf deactivated in
//!   this run is not activated again in it (`computeQueueManagementChanges`).
//! * The sums are Java floats, as Hadoop keeps them.

use crate::tree::QueueId;

/// `CSQueueUtils.EPSILON`: the slack of the policy's comparisons.
pub const EPSILON: f32 = 0.0001;

pub use crate::model::cs_settings::AutoTemplate;

/// The policy's state for one managed parent.
#[derive(Debug, Clone, PartialEq)]
pub struct ManagedParent {
    /// The parent queue.
    pub parent: QueueId,
    /// Each created leaf in creation order, and whether the policy holds it active.
    pub leaves: Vec<(QueueId, bool)>,
    /// `totalAbsoluteActivatedChildQueueCapacity`: the template's absolute capacity once
    /// per active leaf, summed as the activations and deactivations came.
    pub activated: f32,
}

/// What one run of the policy changed: leaves activated and deactivated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    /// Leaves given the template's capacity.
    pub activated: Vec<QueueId>,
    /// Leaves set to 0.
    pub deactivated: Vec<QueueId>,
}

impl ManagedParent {
    /// A parent with no leaf yet.
    pub fn new(parent: QueueId) -> ManagedParent {
        ManagedParent {
            parent,
            leaves: Vec::new(),
            activated: 0.0,
        }
    }

    /// Whether `leaf` is active.
    pub fn is_active(&self, leaf: QueueId) -> bool {
        self.leaves.iter().any(|&(q, a)| q == leaf && a)
    }

    /// A leaf just created: whether it starts active (`getInitialLeafQueueConfiguration`).
    pub fn admit(&mut self, leaf: QueueId, parent_abs: f32, template_abs: f32) -> bool {
        let available = parent_abs - self.activated + EPSILON;
        let active = available >= template_abs;
        if active {
            self.activated += template_abs;
        }
        self.leaves.push((leaf, active));
        active
    }

    /// One run of the policy. `apps` is the leaf of each of the parent's applications
    /// (waiting or running) in submission order; `held(leaf)` the applications a leaf holds.
    pub fn run(
        &mut self,
        parent_abs: f32,
        template_abs: f32,
        apps: &[QueueId],
        held: impl Fn(QueueId) -> u32,
    ) -> Changes {
        let mut changes = Changes::default();
        for &(q, active) in &self.leaves {
            if active && held(q) == 0 {
                changes.deactivated.push(q);
            }
        }
        let mut freed = 0.0f32;
        for _ in &changes.deactivated {
            freed += template_abs;
        }
        let available = parent_abs - self.activated + freed + EPSILON;
        if available >= template_abs && !apps.is_empty() {
            let most = if template_abs > 0.0 {
                ((available / template_abs).floor() as i64).min(apps.len() as i64)
            } else {
                0
            };
            for &leaf in apps {
                if changes.activated.len() as i64 >= most {
                    break;
                }
                if !self.is_active(leaf)
                    && !changes.deactivated.contains(&leaf)
                    && !changes.activated.contains(&leaf)
                {
                    changes.activated.push(leaf);
                }
            }
        }
        for (q, active) in &mut self.leaves {
            if changes.deactivated.contains(q) {
                *active = false;
                self.activated -= template_abs;
            } else if changes.activated.contains(q) {
                *active = true;
                self.activated += template_abs;
            }
        }
        changes
    }

    /// Whether a run now would change anything (the update tick is then not idle).
    pub fn would_change(
        &self,
        parent_abs: f32,
        template_abs: f32,
        apps: &[QueueId],
        held: impl Fn(QueueId) -> u32,
    ) -> bool {
        let mut probe = self.clone();
        probe.run(parent_abs, template_abs, apps, held) != Changes::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TestCapacitySchedulerAutoCreatedQueueBase: root.c at 20 %, its template at 50 %: a
    /// leaf's absolute capacity is 0.1, so two leaves fit and the third starts at 0.
    #[test]
    fn two_leaves_fit_a_parent_at_twice_the_template() {
        let t = AutoTemplate {
            capacity_percent: 50.0,
            ..AutoTemplate::default()
        };
        let parent_abs = 0.2f32;
        let abs = t.absolute(parent_abs);
        assert!((abs - 0.1).abs() < 1e-7);
        let mut p = ManagedParent::new(QueueId(1));
        assert!(p.admit(QueueId(10), parent_abs, abs));
        assert!(p.admit(QueueId(11), parent_abs, abs));
        assert!(!p.admit(QueueId(12), parent_abs, abs));
        assert!((p.activated - 0.2).abs() < 1e-6);
    }

    /// An idle leaf gives its capacity back at the next run, and the waiting leaf whose
    /// application came first takes it; a leaf with applications stays active.
    #[test]
    fn a_run_deactivates_idle_leaves_and_activates_in_submission_order() {
        let (a, b, c, d) = (QueueId(10), QueueId(11), QueueId(12), QueueId(13));
        let mut p = ManagedParent::new(QueueId(1));
        for q in [a, b, c, d] {
            p.admit(q, 0.2, 0.1);
        }
        // a is idle; b holds one app; c and d wait, d's app submitted before c's.
        let held = |q: QueueId| if q == a { 0 } else { 1 };
        let ch = p.run(0.2, 0.1, &[b, d, c], held);
        assert_eq!(ch.deactivated, vec![a]);
        assert_eq!(ch.activated, vec![d]);
        assert!(p.is_active(b) && p.is_active(d) && !p.is_active(a) && !p.is_active(c));
        // Nothing more to do: the parent is full.
        assert!(!p.would_change(0.2, 0.1, &[b, d, c], held));
    }

    /// No more leaves than the parent has applications, and none for a leaf the same run
    /// deactivated.
    #[test]
    fn activations_are_bounded_by_room_and_by_applications() {
        let (a, b, c) = (QueueId(10), QueueId(11), QueueId(12));
        let mut p = ManagedParent::new(QueueId(1));
        p.admit(a, 1.0, 0.3);
        p.admit(b, 1.0, 0.3);
        p.admit(c, 1.0, 0.3);
        p.leaves[1].1 = false;
        p.leaves[2].1 = false;
        p.activated = 0.3;
        // a idle, one app in b: 1.0 - 0.3 + 0.3 = 1.0 of room, floor(1.0/0.3) = 3 leaves,
        // but one app: b alone.
        let ch = p.run(1.0, 0.3, &[b], |q| u32::from(q == b));
        assert_eq!(ch.activated, vec![b]);
        assert_eq!(ch.deactivated, vec![a]);
        assert!(!p.is_active(c));
    }
}
