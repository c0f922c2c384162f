//! How many applications a leaf accepts, in all and per user (`LeafQueue.setupQueueConfigs`,
//! and for absolute resources Hadoop 3.3's `deriveCapacityFromAbsoluteConfigurations`): a
//! submission beyond either is rejected (`LeafQueue.validateSubmitApplication`).
//!
//! ```text
//! maxApplications        = maximum-applications of the queue, when set (≥ 0)
//!                        = (int)(system maximum-applications × absoluteCapacity)   otherwise
//! maxApplicationsPerUser = (int)(maxApplications × (minimumUserLimitPercent / 100) × userLimitFactor)
//! ```
//!
//! The products are Java floats. Hadoop 3.3 caps the per-user figure at `maxApplications`
//! (and takes `maxApplications` itself for a user-limit-factor of −1); Hadoop 2.7 does not
//! cap it. A queue whose capacity is an absolute resource has both recomputed from the
//! derived absolute capacity whenever the cluster changes, its own maximum-applications
//! unread, as Hadoop 3.3 does.

use super::config::{CapacityForm, CsQueueSettings};
use fairsim_core::Semantics;

/// `(maxApplications, maxApplicationsPerUser)` of a leaf.
pub fn max_applications(
    era: Semantics,
    cs: &CsQueueSettings,
    absolute_capacity: f64,
    minimum_user_limit_percent: f32,
    user_limit_factor: f64,
) -> (i64, i64) {
    let derived = (cs.system_maximum_applications as f32 * absolute_capacity as f32) as i32;
    let apps = match (cs.form, cs.maximum_applications) {
        (CapacityForm::Absolute(_), _) | (_, None) => derived,
        (_, Some(n)) => n,
    };
    let per_user =
        (apps as f32 * (minimum_user_limit_percent / 100.0) * user_limit_factor as f32) as i32;
    let per_user = match era {
        Semantics::Hadoop27 => per_user,
        Semantics::Hadoop33 if user_limit_factor == -1.0 => apps,
        Semantics::Hadoop33 => per_user.min(apps),
    };
    (i64::from(apps), i64::from(per_user))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairsim_core::Resource;

    #[test]
    fn derived_from_the_system_limit_and_the_user_limit() {
        let cs = CsQueueSettings::default();
        // 10000 × 0.3 (as a float, 3000.0001) → 3000; per user 3000 × 0.5 × 2 = 3000.
        assert_eq!(
            max_applications(Semantics::Hadoop27, &cs, 0.3, 50.0, 2.0),
            (3000, 3000)
        );
        // 2.7 leaves the per-user figure above the queue's; 3.3 caps it.
        assert_eq!(
            max_applications(Semantics::Hadoop27, &cs, 0.3, 100.0, 3.0),
            (3000, 9000)
        );
        assert_eq!(
            max_applications(Semantics::Hadoop33, &cs, 0.3, 100.0, 3.0),
            (3000, 3000)
        );
        assert_eq!(
            max_applications(Semantics::Hadoop33, &cs, 0.3, 25.0, -1.0),
            (3000, 3000)
        );
        let set = CsQueueSettings {
            maximum_applications: Some(7),
            ..CsQueueSettings::default()
        };
        assert_eq!(
            max_applications(Semantics::Hadoop33, &set, 0.3, 50.0, 1.0),
            (7, 3)
        );
        // An absolute queue's own setting is not read: 10000 × 0.4.
        let abs = CsQueueSettings {
            form: CapacityForm::Absolute(Resource::new(1024, 1)),
            ..set
        };
        assert_eq!(
            max_applications(Semantics::Hadoop33, &abs, 0.4, 100.0, 1.0),
            (4000, 4000)
        );
    }
}
