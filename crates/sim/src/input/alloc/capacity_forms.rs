//! The forms a queue's `capacity` and `maximum-capacity` take in a capacity-scheduler.xml
//! Hadoop 3.3 loads, read as `CapacitySchedulerConfiguration` reads them, and the rule for
//! which forms siblings may mix (`ParentQueue.getCapacityConfigurationTypeForQueues`).
//!
//! * A percentage of the parent: `50`, `12.5` (Java's `Float.parseFloat`).
//! * A weight among the siblings: a number followed by `w` (`2w`, `1.5w`), 0 to 10000.
//! * An absolute resource: `[memory=10240,vcores=12]`. Each `key=value` pair names `memory`
//!   or `vcores`, as written; a value is a Java long with optional units (`10Gi`), which
//!   Hadoop converts to `Mi` for every key alike (`UnitsConversionUtil.convert`); a key left
//!   out is 0, a pair with another key is skipped (fairsim warns), and no memory makes the
//!   whole resource none ([`absolute_resource`]).
//!
//! Hadoop 2.7 reads `capacity` with `getFloat` alone, so the weight and absolute forms stop
//! its ResourceManager at start-up; the reader refuses them in that era.

use crate::hadoop_conf::values;
use fairsim_core::Resource;

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

/// The characters Hadoop 3.3's `PATTERN_FOR_ABSOLUTE_RESOURCE` allows between the brackets
/// (`^\[[\w\.,\-_=\ /]+\]$`): a value with any other is not an absolute resource to it,
/// and its `Float.parseFloat` then stops the ResourceManager.
fn in_resource_pattern(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ',' | '-' | '=' | ' ' | '/')
}

/// `[key=value,...]` as `CapacitySchedulerConfiguration.internalGetLabeledResourceRequirementForQueue`
/// reads it into a resource, with the keys it skipped:
///
/// * the text between the brackets is trimmed and split at commas; each pair is split at `=`
///   (Java's `split`, so `memory=` has no value and is skipped, and `memory=1=2` reads 1);
/// * a key is looked up as written: ` vcores` (after a comma and a space) is not `vcores`
///   and is skipped, as Hadoop skips it;
/// * a value is a Java long (`Long.valueOf`: no space allowed) with optional units;
/// * memory 0 (left out, or written 0) makes the whole resource none ("Memory has to be
///   configured always"): the caller reads such a queue as Hadoop does.
pub fn absolute_resource(text: &str) -> Result<(Resource, Vec<String>), String> {
    let inner = &text[1..text.len() - 1];
    if inner.is_empty() || !inner.chars().all(in_resource_pattern) {
        return Err(format!(
            "\"{text}\" is not an absolute resource as Hadoop 3.3 reads one (letters, digits and \
             _ . , - = space / between the brackets): YARN then reads it as a percentage and \
             fails to start (NumberFormatException)"
        ));
    }
    let mut r = Resource::ZERO;
    let mut skipped = Vec::new();
    for pair in inner.trim().split(',') {
        let mut parts = pair.split('=');
        let key = parts.next().unwrap_or("");
        let Some(value) = parts
            .next()
            .filter(|v| !v.is_empty() || parts.clone().next().is_some())
        else {
            if !pair.trim().is_empty() {
                skipped.push(pair.to_string());
            }
            continue;
        };
        if key != "memory" && key != "vcores" {
            skipped.push(format!("\"{key}\""));
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
    if r.memory_mb == 0 {
        return Ok((Resource::ZERO, skipped));
    }
    Ok((r, skipped))
}

/// Hadoop's `UnitsConversionUtil` units, each as (numerator, denominator) of its converter.
const UNITS: &[(&str, i64, i64)] = &[
    ("p", 1, 1_000_000_000_000),
    ("n", 1, 1_000_000_000),
    ("u", 1, 1_000_000),
    ("m", 1, 1_000),
    ("k", 1_000, 1),
    ("M", 1_000_000, 1),
    ("G", 1_000_000_000, 1),
    ("T", 1_000_000_000_000, 1),
    ("P", 1_000_000_000_000_000, 1),
    ("Ki", 1 << 10, 1),
    ("Mi", 1 << 20, 1),
    ("Gi", 1 << 30, 1),
    ("Ti", 1 << 40, 1),
    ("Pi", 1 << 50, 1),
];

/// A Java long with optional units, converted to `Mi` as `UnitsConversionUtil.convert` does:
/// the units are the letters from the first position whose rest is all letters (Hadoop's
/// `getUnits`); a unit Hadoop does not know (such as the `w` of a later Hadoop's capacity
/// vectors, `[memory=1w]`) stops its ResourceManager, and so does a number `Long.valueOf`
/// refuses.
fn with_units(value: &str) -> Result<i64, String> {
    // The start of the trailing run of letters, found from the end: testing the rest of the
    // value at every letter took quadratic time on a long run of letters before a digit.
    let split = value
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_alphabetic())
        .last()
        .map_or(value.len(), |(i, _)| i);
    let (number, units) = value.split_at(split);
    let n: i64 = number.parse().map_err(|_| {
        format!(
            "\"{value}\" is not a Java long with optional units: YARN fails to start on it \
             (NumberFormatException)"
        )
    })?;
    if n < 0 {
        return Err(format!("\"{value}\" is negative"));
    }
    if units.is_empty() || units == "Mi" {
        return Ok(n);
    }
    let Some(&(_, fnum, fden)) = UNITS.iter().find(|(u, _, _)| *u == units) else {
        let known: Vec<&str> = UNITS.iter().map(|(u, _, _)| *u).collect();
        return Err(format!(
            "unit \"{units}\" in \"{value}\" is not one Hadoop 3.3 knows ({}): YARN fails to \
             start on it (\"Unknown unit\"); weights and percentages inside brackets are a later \
             Hadoop's capacity vectors",
            known.join(", ")
        ));
    };
    // convert(units, "Mi", n), its branches and integer arithmetic as written.
    let (tnum, tden) = (1_i64 << 20, 1_i64);
    let numerator = fnum * tden;
    let denominator = fden * tnum;
    let limit = i64::MAX / numerator;
    let overflow = || format!("\"{value}\" in Mi overflows a Java long: YARN fails to start on it");
    if numerator < denominator {
        if limit < n {
            return Err(overflow());
        }
        return Ok(n * numerator / denominator);
    }
    if limit > n {
        return Ok(numerator * n / denominator);
    }
    let tmp = numerator / denominator;
    if i64::MAX / tmp < n {
        return Err(overflow());
    }
    Ok(n * tmp)
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
                vec!["\" gpu\"".to_string()]
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
            absolute_resource("[memory=1,vcores=1Gi]").unwrap().0,
            Resource::new(1, 1024)
        );
        // G is decimal: convert multiplies before it divides, (3 × 10^9) / 2^20 = 2861
        // (953 per G times 3 would be 2859).
        assert_eq!(
            absolute_resource("[memory=3G]").unwrap().0,
            Resource::new(2861, 0)
        );
        // k is below Mi: (5000 × 1000) / 2^20 = 4.77 → 4.
        assert_eq!(
            absolute_resource("[memory=5000k]").unwrap().0,
            Resource::new(4, 0)
        );
        assert!(absolute_resource("[memory=1Xi]").is_err());
        assert!(absolute_resource("[memory=-5]").is_err());
        let w = absolute_resource("[memory=1w]").unwrap_err();
        assert!(
            w.contains("unit \"w\"") && w.contains("Unknown unit"),
            "{w}"
        );
        // '%' is outside Hadoop's pattern.
        let p = absolute_resource("[memory=50%]").unwrap_err();
        assert!(p.contains("not an absolute resource"), "{p}");
        // Long.valueOf takes no space, nor a decimal.
        assert!(absolute_resource("[memory= 1024]").is_err());
        assert!(absolute_resource("[memory=1.5Gi]").is_err());
    }

    #[test]
    fn keys_are_read_as_written_and_memory_is_required() {
        // A key after ", " is " vcores": skipped, vcores stays 0.
        assert_eq!(
            absolute_resource("[memory=1024, vcores=4]").unwrap(),
            (Resource::new(1024, 0), vec!["\" vcores\"".to_string()])
        );
        // The text between the brackets is trimmed first, so its ends may have spaces.
        assert_eq!(
            absolute_resource("[ memory=1024,vcores=4 ]").unwrap().0,
            Resource::new(1024, 4)
        );
        // No memory: none at all, vcores dropped too.
        assert_eq!(absolute_resource("[vcores=4]").unwrap().0, Resource::ZERO);
        // `memory=` has no value in Java's split and is skipped; `memory=2=3` reads 2.
        assert_eq!(
            absolute_resource("[memory=,vcores=4]").unwrap().0,
            Resource::ZERO
        );
        assert_eq!(
            absolute_resource("[memory=2=3]").unwrap().0,
            Resource::new(2, 0)
        );
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
