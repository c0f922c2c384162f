//! The forms a queue's `capacity` and `maximum-capacity` take in a capacity-scheduler.xml
//! Hadoop 3.3 loads, read as `CapacitySchedulerConfiguration` reads them, and the rule for
//! which forms siblings may mix (`ParentQueue.getCapacityConfigurationTypeForQueues`).
//!
//! * A percentage of the parent: `50`, `12.5` (Java's `Float.parseFloat`).
//! * A weight among the siblings: a number followed by `w` (`2w`, `1.5w`), 0 to 10000.
//! * An absolute resource: `[memory=10240,vcores=12]`. Each `key=value` pair names `memory`
//!   or `vcores`; a value is a Java long with optional units (`10Gi`), which Hadoop converts
//!   to `Mi` for every key alike (`UnitsConversionUtil.convert`); a key left out is 0, and a
//!   pair with another key is skipped (fairsim warns).
//!
//! Hadoop 2.7 reads `capacity` with `getFloat` alone, so the weight and absolute forms stop
//! its ResourceManager at start-up; the reader refuses them in that era.

use crate::yarn_site::values;
use fairsim_core::Resource;

/// How a queue's `capacity` is given.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum CapacityForm {
    /// A percentage of the parent, in `QueueConf::capacity_percent`.
    #[default]
    Percent,
    /// `Nw`: a weight, the queue's share of its parent being its weight over its siblings'.
    Weight(f32),
    /// `[memory=..,vcores=..]`: the configured minimum resource.
    Absolute(Resource),
}

/// The Capacity Scheduler settings of a queue beyond the 2.x percentages.
#[derive(Debug, Clone, PartialEq)]
pub struct CsQueueSettings {
    /// How `capacity` is given.
    pub form: CapacityForm,
    /// `maximum-capacity` as an absolute resource, when given so.
    pub maximum_resource: Option<Resource>,
    /// `maximum-applications` of the queue, when set (a negative value is unset, as Hadoop
    /// reads it).
    pub maximum_applications: Option<i32>,
    /// `yarn.scheduler.capacity.maximum-applications` (default 10,000): a leaf without its
    /// own limit may hold this × its absolute capacity applications.
    pub system_maximum_applications: i32,
    /// The queue or an ancestor is `STOPPED`: it accepts no application.
    pub stopped: bool,
    /// `ordering-policy.fair.enable-size-based-weight`.
    pub size_based_weight: bool,
}

impl Default for CsQueueSettings {
    fn default() -> Self {
        CsQueueSettings {
            form: CapacityForm::Percent,
            maximum_resource: None,
            maximum_applications: None,
            system_maximum_applications: 10_000,
            stopped: false,
            size_based_weight: false,
        }
    }
}

/// A `capacity` value as written.
#[derive(Debug, Clone, PartialEq)]
pub enum CapacityValue {
    /// A percentage.
    Percent(f64),
    /// A weight (`Nw`).
    Weight(f64),
    /// An absolute resource, with the keys Hadoop skipped.
    Absolute(Resource, Vec<String>),
}

/// Reads a `capacity` (or, without the weight form, `maximum-capacity`) value.
pub fn capacity_value(text: &str) -> Result<CapacityValue, String> {
    let t = values::java_trim(text);
    if t.starts_with('[') && t.ends_with(']') {
        let (r, skipped) = absolute_resource(t)?;
        return Ok(CapacityValue::Absolute(r, skipped));
    }
    if let Some(number) = t.strip_suffix('w') {
        let w = values::float(number)?;
        if w.is_nan() || !(0.0..=10_000.0).contains(&w) {
            return Err(format!(
                "weight {number} is outside 0 to 10000: YARN refuses to start (\"Illegal weight\")"
            ));
        }
        return Ok(CapacityValue::Weight(w));
    }
    values::float(t).map(CapacityValue::Percent)
}

/// `[key=value,...]` as `CapacitySchedulerConfiguration` reads it into a resource.
pub fn absolute_resource(text: &str) -> Result<(Resource, Vec<String>), String> {
    let inner = &text[1..text.len() - 1];
    let mut r = Resource::ZERO;
    let mut skipped = Vec::new();
    for pair in inner.split(',') {
        let Some((key, value)) = pair.split_once('=') else {
            if !pair.trim().is_empty() {
                skipped.push(pair.trim().to_string());
            }
            continue;
        };
        let key = key.trim();
        let value = value.trim();
        if key != "memory" && key != "vcores" {
            skipped.push(key.to_string());
            continue;
        }
        let v = with_units(value)?;
        if key == "memory" {
            r.memory_mb = v;
        } else {
            // `setVirtualCores(value.intValue())`: narrowed to a Java int.
            r.vcores = i64::from(v as i32);
        }
    }
    Ok((r, skipped))
}

/// A Java long with optional units (the letters after the digits), converted to `Mi` when
/// units are given, as `UnitsConversionUtil.convert` does (integer arithmetic).
fn with_units(value: &str) -> Result<i64, String> {
    let split = value
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(value.len());
    let (number, units) = value.split_at(split);
    let n: i64 = number
        .parse()
        .map_err(|_| format!("\"{value}\" is not a number with optional units"))?;
    if n < 0 {
        return Err(format!("\"{value}\" is negative"));
    }
    if units.is_empty() {
        return Ok(n);
    }
    // (numerator, denominator) of each unit, as Hadoop's converters hold them.
    let unit = |u: &str| -> Option<(i64, i64)> {
        Some(match u {
            "p" => (1, 1_000_000_000_000),
            "n" => (1, 1_000_000_000),
            "u" => (1, 1_000_000),
            "m" => (1, 1_000),
            "k" => (1_000, 1),
            "M" => (1_000_000, 1),
            "G" => (1_000_000_000, 1),
            "T" => (1_000_000_000_000, 1),
            "P" => (1_000_000_000_000_000, 1),
            "Ki" => (1 << 10, 1),
            "Mi" => (1 << 20, 1),
            "Gi" => (1 << 30, 1),
            "Ti" => (1 << 40, 1),
            "Pi" => (1 << 50, 1),
            _ => return None,
        })
    };
    let Some((fnum, fden)) = unit(units) else {
        return Err(format!(
            "\"{units}\" in \"{value}\" is not a unit Hadoop knows"
        ));
    };
    let (tnum, tden) = (1_i64 << 20, 1_i64);
    let numerator = fnum.saturating_mul(tden);
    let denominator = fden.saturating_mul(tnum);
    let overflow = || format!("\"{value}\" in Mi overflows a Java long");
    if numerator < denominator {
        let product = n.checked_mul(numerator).ok_or_else(overflow)?;
        return Ok(product / denominator);
    }
    n.checked_mul(numerator / denominator).ok_or_else(overflow)
}

/// What each sibling's `capacity` is, for [`siblings_mode`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SiblingForm {
    /// A percentage (the value as a fraction of 1).
    Percent(f32),
    /// A weight.
    Weight,
    /// An absolute resource.
    Absolute,
}

/// The mode of a group of siblings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Percentages.
    Percent,
    /// Weights.
    Weight,
    /// Absolute resources.
    Absolute,
}

/// `getCapacityConfigurationTypeForQueues`: walks the siblings in listed order; a percentage
/// above 0 sets the percentage flag, a weight the weight flag, an absolute resource the
/// absolute flag and clears the percentage flag (so a percentage listed before an absolute
/// sibling goes unnoticed). More than one flag left set is refused. The group's mode is
/// absolute if that flag is set, else percentage if set, else weight if set, else
/// percentage.
pub fn siblings_mode(forms: &[SiblingForm]) -> Result<Mode, String> {
    let (mut percent, mut weight, mut absolute) = (false, false, false);
    for f in forms {
        match *f {
            SiblingForm::Percent(c) if c > 0.0 => percent = true,
            SiblingForm::Percent(_) => {}
            SiblingForm::Weight => weight = true,
            SiblingForm::Absolute => {
                absolute = true;
                percent = false;
            }
        }
    }
    if u8::from(percent) + u8::from(weight) + u8::from(absolute) > 1 {
        return Err(
            "children mix weight, percentage and absolute capacities: YARN refuses to start \
             (\"have children queue used mixed of weight mode, percentage and absolute mode\")"
                .into(),
        );
    }
    Ok(if absolute {
        Mode::Absolute
    } else if percent {
        Mode::Percent
    } else if weight {
        Mode::Weight
    } else {
        Mode::Percent
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_forms() {
        assert_eq!(capacity_value(" 50 "), Ok(CapacityValue::Percent(50.0)));
        assert_eq!(capacity_value("2w"), Ok(CapacityValue::Weight(2.0)));
        assert_eq!(capacity_value("1.5w"), Ok(CapacityValue::Weight(1.5)));
        assert_eq!(
            capacity_value("[memory=10240,vcores=12]"),
            Ok(CapacityValue::Absolute(Resource::new(10_240, 12), vec![]))
        );
        // A key left out is 0; another key is skipped.
        assert_eq!(
            capacity_value("[memory=125, gpu=2]"),
            Ok(CapacityValue::Absolute(
                Resource::new(125, 0),
                vec!["gpu".to_string()]
            ))
        );
        assert!(capacity_value("20000w").unwrap_err().contains("0 to 10000"));
        assert!(capacity_value("-1w").is_err());
        assert!(capacity_value("abc").is_err());
    }

    #[test]
    fn units_convert_to_mi_for_every_key() {
        assert_eq!(
            absolute_resource("[memory=10Gi,vcores=4]").unwrap().0,
            Resource::new(10_240, 4)
        );
        // 1 G = 10^9 / 2^20 Mi = 953.67 → 953 (integer division).
        assert_eq!(
            absolute_resource("[memory=1G]").unwrap().0,
            Resource::new(953, 0)
        );
        // Hadoop converts whatever key carries units, vcores too.
        assert_eq!(
            absolute_resource("[vcores=1Gi]").unwrap().0,
            Resource::new(0, 1024)
        );
        assert!(absolute_resource("[memory=1Xi]").is_err());
        assert!(absolute_resource("[memory=-5]").is_err());
    }

    #[test]
    fn sibling_mixes_follow_hadoops_flags() {
        use SiblingForm::*;
        // TestCapacitySchedulerWeightMode: 50 % beside 1w is refused.
        assert!(siblings_mode(&[Percent(0.5), Weight]).is_err());
        // 0 % beside weights is a weight group (testZeroWeightAndZeroPercentSiblingsAccepted).
        assert_eq!(
            siblings_mode(&[Percent(0.0), Weight, Weight, Weight]),
            Ok(Mode::Weight)
        );
        // Absolute then percentage is refused; percentage then absolute is accepted
        // (testAbsoluteAndPercentageSiblingsDependOnDeclarationOrder).
        assert!(siblings_mode(&[Absolute, Percent(0.5)]).is_err());
        assert_eq!(siblings_mode(&[Percent(0.5), Absolute]), Ok(Mode::Absolute));
        assert!(siblings_mode(&[Absolute, Weight]).is_err());
        assert_eq!(siblings_mode(&[Percent(0.0)]), Ok(Mode::Percent));
        assert_eq!(
            siblings_mode(&[Percent(0.5), Percent(0.5)]),
            Ok(Mode::Percent)
        );
    }
}
