//! A hadoop-3.3 parent's `auto-create-child-queue.*` settings and its `leaf-queue-template.*`
//! (`CapacitySchedulerConfiguration`, `ManagedParentQueue.initializeLeafQueueConfigs`).
//!
//! An auto-created leaf reads its settings from the template alone: Hadoop builds its
//! configuration from the template's properties (`AbstractManagedParentQueue
//! .initializeLeafQueueConfigs`), so a scheduler-wide default such as
//! `maximum-am-resource-percent` does not reach it (the leaf keeps Hadoop's built-in 0.1).

use super::{PREFIX, Props, app_ordering_policy, user_limit_percent};
use crate::hadoop_conf::values;
use crate::input::alloc::AllocError;
use crate::input::alloc::capacity_forms::{CapacityValue, absolute_resource, capacity_value};
use crate::model::cs_settings::{AbsoluteTemplate, AutoTemplate};
use fairsim_core::Resource;
use fairsim_core::Semantics;

/// `GuaranteedOrZeroCapacityOverTimePolicy`, the one management policy fairsim runs.
const DEFAULT_POLICY: &str = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.\
                              queuemanagement.GuaranteedOrZeroCapacityOverTimePolicy";

/// Queue `path`'s auto-creation settings when `auto-create-child-queue.enabled` is true
/// (hadoop-3.3 only: 2.7 has no such property, and leaves it unread).
pub(super) fn auto_template(
    props: &Props<'_, '_, '_>,
    path: &str,
) -> Result<Option<Box<AutoTemplate>>, AllocError> {
    if props.semantics != Semantics::Hadoop33 {
        return Ok(None);
    }
    let key = |suffix: &str| format!("{PREFIX}{path}.{suffix}");
    let enabled_key = key("auto-create-child-queue.enabled");
    let Some(p) = props.get(&enabled_key)? else {
        return Ok(None);
    };
    let enabled = values::boolean(&p.value).unwrap_or_else(|| {
        props.note(
            &enabled_key,
            format!(
                "{enabled_key}: \"{}\" is neither true nor false: Hadoop's getBoolean keeps the \
                 default, false",
                p.value
            ),
        );
        false
    });
    if !enabled {
        return Ok(None);
    }
    let mut t = AutoTemplate::default();
    let policy_key = key("auto-create-child-queue.management-policy");
    if let Some(p) = props.get_untrimmed(&policy_key)?
        && p.value != DEFAULT_POLICY
    {
        return Err(props.invalid(
            &policy_key,
            format!(
                "\"{}\" is not GuaranteedOrZeroCapacityOverTimePolicy, the one management \
                 policy Hadoop 3.3 ships: YARN fails to start unless the cluster has such a \
                 class, and a policy of the cluster's own is not simulated",
                p.value
            ),
        ));
    }
    let max_key = key("auto-create-child-queue.max-queues");
    if let Some(p) = props.get(&max_key)? {
        t.max_queues = values::int(&p.value).map_err(|m| props.invalid(&max_key, m))?;
    }
    let fail_key = key("auto-create-child-queue.fail-on-exceeding-parent-capacity");
    if let Some(p) = props.get(&fail_key)? {
        t.fail_on_exceeding = values::boolean(&p.value).unwrap_or(false);
    }

    let tk = |suffix: &str| key(&format!("leaf-queue-template.{suffix}"));
    let cap_key = tk("capacity");
    let Some(p) = props.get(&cap_key)? else {
        return Err(props.invalid(
            &enabled_key,
            format!(
                "{path} creates leaf queues but sets no {cap_key}: YARN fails to start (\"Illegal \
                 capacity of -1.0\", the template's capacity being undefined)"
            ),
        ));
    };
    if p.value.trim_end().ends_with('w') {
        return Err(props.invalid(
            &cap_key,
            "a leaf template's capacity is a percentage or an absolute resource in Hadoop 3.3 \
             (ManagedParentQueue reads it with the percentage and absolute getters): a weight \
             fails the getter, and YARN does not start",
        ));
    }
    if let CapacityValue::Absolute(min, _) =
        capacity_value(&p.value).map_err(|m| props.invalid(&cap_key, m))?
    {
        // An absolute template without memory is no resource to Hadoop: the percentage
        // getter then reads the bracketed value as 0 %.
        if min != Resource::ZERO {
            t.absolute = Some(AbsoluteTemplate { min, max: None });
        }
        let tmax_key = tk("maximum-capacity");
        if let Some(m) = props.get(&tmax_key)?
            && m.value.trim_start().starts_with('[')
        {
            let (max, _) = absolute_resource(values::java_trim(&m.value))
                .map_err(|e| props.invalid(&tmax_key, e))?;
            if let Some(a) = t.absolute.as_mut()
                && max != Resource::ZERO
            {
                a.max = Some(max);
            }
        } else if props.get(&tmax_key)?.is_some() {
            props.note(
                &tmax_key,
                format!(
                    "{tmax_key}: a percentage beside an absolute template capacity: Hadoop \
                     derives the leaf's maximum from the parent's configured maximum; ignored"
                ),
            );
        }
        t.maximum_capacity_percent = 100.0;
        return finish(props, path, t).map(Some);
    }
    let cap = props.float(&cap_key)?.unwrap_or(0.0);
    if !(0.0..=100.0).contains(&cap) {
        return Err(props.invalid(&cap_key, format!("capacity {cap} is outside 0-100")));
    }
    t.capacity_percent = cap;
    let tmax_key = tk("maximum-capacity");
    t.maximum_capacity_percent = match props.float(&tmax_key)? {
        None | Some(-1.0) => 100.0,
        Some(v) if !(0.0..=100.0).contains(&v) => {
            return Err(props.invalid(&tmax_key, format!("maximum-capacity {v} is outside 0-100")));
        }
        Some(v) if v < cap => {
            return Err(props.invalid(
                &tmax_key,
                format!("maximum-capacity {v} is below the template's capacity {cap}"),
            ));
        }
        Some(v) => v,
    };
    finish(props, path, t).map(Some)
}

/// The template's settings other than its capacities.
fn finish(
    props: &Props<'_, '_, '_>,
    path: &str,
    mut t: AutoTemplate,
) -> Result<Box<AutoTemplate>, AllocError> {
    let key = |suffix: &str| format!("{PREFIX}{path}.{suffix}");
    let tk = |suffix: &str| key(&format!("leaf-queue-template.{suffix}"));
    let ulf_key = tk("user-limit-factor");
    t.user_limit_factor = match props.float(&ulf_key)? {
        Some(-1.0) => -1.0,
        _ => props.limited(&ulf_key, "user-limit-factor")?.unwrap_or(1.0),
    };
    t.minimum_user_limit_percent =
        user_limit_percent(props, &tk("minimum-user-limit-percent"), props.semantics)?;
    t.ordering_policy = app_ordering_policy(props, &tk("ordering-policy"))?;
    let sbw_key = tk("ordering-policy.fair.enable-size-based-weight");
    if let Some(p) = props.get(&sbw_key)? {
        t.size_based_weight = values::boolean(&p.value).unwrap_or(false);
    }
    t.am_fraction = props
        .limited(
            &tk("maximum-am-resource-percent"),
            "maximum-am-resource-percent",
        )?
        .unwrap_or(0.1);
    let apps_key = tk("maximum-applications");
    if let Some(p) = props.get(&apps_key)? {
        let v = values::int(&p.value).map_err(|m| props.invalid(&apps_key, m))?;
        t.maximum_applications = (v >= 0).then_some(v as i32);
    }
    Ok(Box::new(t))
}
