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
use fairsim_core::{Calculator, Resource};

/// `CSQueueUtils.EPSILON`: the slack of the policy's comparisons.
pub const EPSILON: f32 = 0.0001;

pub use crate::model::cs_settings::AutoTemplate;

/// `t` with its percentages derived from its absolute resources, when it has them
/// (`ManagedParentQueue.updateQueueCapacities`, at each leaf's creation): its capacity is
/// the template's minimum over the parent's configured minimum, its maximum the smaller (by
/// the calculator) of the template's maximum (else the parent's) and the parent's
/// configured maximum, over the latter, each a `ResourceCalculator.divide` (memory alone,
/// or the dominant shares of the cluster). A parent without a configured maximum leaves the
/// maximum at 100 % (the reader warns: Hadoop divides by a resource the parent lacks).
pub fn resolve(
    t: &AutoTemplate,
    calc: Calculator,
    cluster: Resource,
    parent_min: Resource,
    parent_max: Option<Resource>,
) -> AutoTemplate {
    let mut r = t.clone();
    let Some(a) = t.absolute else {
        return r;
    };
    r.capacity_percent = f64::from(divide(calc, cluster, a.min, parent_min)) * 100.0;
    r.maximum_capacity_percent = match parent_max {
        Some(pm) => {
            let own = calc.min(cluster, a.max.unwrap_or(pm), pm);
            f64::from(divide(calc, cluster, own, pm)) * 100.0
        }
        None => 100.0,
    };
    r
}

/// `ResourceCalculator.divide(cluster, a, b)`, 0 where a share's denominator is 0.
fn divide(calc: Calculator, cluster: Resource, a: Resource, b: Resource) -> f32 {
    let ratio = |x: f64, y: f64| if y == 0.0 { 0.0 } else { x / y };
    match calc {
        Calculator::MemoryOnly => ratio(a.memory_mb as f64, b.memory_mb as f64) as f32,
        Calculator::Dominant => {
            let share = |r: Resource| {
                ratio(r.memory_mb as f64, cluster.memory_mb as f64)
                    .max(ratio(r.vcores as f64, cluster.vcores as f64))
            };
            ratio(share(a), share(b)) as f32
        }
    }
}

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

    /// TestAbsoluteResourceWithAutoQueue.testAutoCreateLeafQueueCreation: queueD's
    /// template of [10 GB, 2 vcores] under its configured [25 GB, 5] with maximum
    /// [150 GB, 20], the template's maximum [150 GB, 20]: a leaf's capacity is 0.4 of the
    /// parent and its maximum 1.0, the same with either calculator on 250 GB and 40 vcores.
    #[test]
    fn an_absolute_template_is_a_share_of_the_parents_configured_resources() {
        const GB: i64 = 1024;
        let t = AutoTemplate {
            absolute: Some(crate::model::cs_settings::AbsoluteTemplate {
                min: Resource::new(10 * GB, 2),
                max: Some(Resource::new(150 * GB, 20)),
            }),
            ..AutoTemplate::default()
        };
        let cluster = Resource::new(250 * GB, 40);
        let (pmin, pmax) = (Resource::new(25 * GB, 5), Resource::new(150 * GB, 20));
        for calc in [Calculator::MemoryOnly, Calculator::Dominant] {
            let r = resolve(&t, calc, cluster, pmin, Some(pmax));
            assert!((r.capacity_percent - 40.0).abs() < 1e-4, "{calc:?}");
            assert!(
                (r.maximum_capacity_percent - 100.0).abs() < 1e-4,
                "{calc:?}"
            );
            // queueD's absolute capacity is 25/250 = 0.1: the leaf's is 0.04.
            assert!((r.absolute(0.1) - 0.04).abs() < 1e-6);
        }
        // A template maximum above the parent's is cut to it; none takes the parent's.
        let wide = AutoTemplate {
            absolute: Some(crate::model::cs_settings::AbsoluteTemplate {
                min: Resource::new(10 * GB, 2),
                max: Some(Resource::new(200 * GB, 30)),
            }),
            ..AutoTemplate::default()
        };
        let r = resolve(&wide, Calculator::MemoryOnly, cluster, pmin, Some(pmax));
        assert_eq!(r.maximum_capacity_percent, 100.0);
        // [75 GB] of a [150 GB] maximum: half.
        let half = AutoTemplate {
            absolute: Some(crate::model::cs_settings::AbsoluteTemplate {
                min: Resource::new(10 * GB, 2),
                max: Some(Resource::new(75 * GB, 10)),
            }),
            ..AutoTemplate::default()
        };
        let r = resolve(&half, Calculator::MemoryOnly, cluster, pmin, Some(pmax));
        assert_eq!(r.maximum_capacity_percent, 50.0);
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
