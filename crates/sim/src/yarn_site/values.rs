//! Hadoop `Configuration`'s value syntax, as its getters read a property's text: every
//! getter trims; `getInt` and `getLong` take an optional sign and `0x` hexadecimal;
//! `getFloat` is Java's `Float.parseFloat` (a trailing `f` or `d` allowed); `getBoolean`
//! compares `true` and `false` without case and falls back to the default on anything else;
//! the resource-types allocation keys are `value [unit]`.

/// Java's `Integer.parseInt` / `Long.parseLong` after Hadoop's hexadecimal check.
pub fn long(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let parsed = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) if !hex.starts_with(['+', '-']) => i128::from_str_radix(hex, 16).ok(),
        Some(_) => None,
        None if digits.starts_with(['+', '-']) => None,
        None => digits.parse::<i128>().ok(),
    };
    let v = parsed
        .map(|v| if negative { -v } else { v })
        .ok_or_else(|| format!("\"{t}\" is not an integer"))?;
    i64::try_from(v).map_err(|_| format!("{t} is out of range: the limit is a Java long"))
}

/// A Java `int` (`getInt`): as [`long`], then narrowed, refusing what `Integer.parseInt`
/// would.
pub fn int(text: &str) -> Result<i64, String> {
    let v = long(text)?;
    if i32::try_from(v).is_err() {
        return Err(format!(
            "{v} is out of range: the limit is a Java int ({} to {}), Hadoop reads it with getInt",
            i32::MIN,
            i32::MAX
        ));
    }
    Ok(v)
}

/// Java's `Float.parseFloat` (the value checked for finiteness as an `f32` by the limits).
pub fn float(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let body = t.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(t);
    // Rust also reads "inf" and "nan" in any case; Java spells them "Infinity" and "NaN".
    let java_word = matches!(body.trim_start_matches(['+', '-']), "Infinity" | "NaN");
    let letters = body
        .chars()
        .any(|c| c.is_ascii_alphabetic() && c != 'e' && c != 'E');
    if letters && !java_word {
        return Err(format!("\"{t}\" is not a number"));
    }
    let body = body.replace("Infinity", "inf");
    body.parse::<f64>()
        .map_err(|_| format!("\"{t}\" is not a number"))
}

/// `getBoolean`: `None` when the text is neither `true` nor `false` (Hadoop then takes the
/// default).
pub fn boolean(text: &str) -> Option<bool> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("true") {
        Some(true)
    } else if t.eq_ignore_ascii_case("false") {
        Some(false)
    } else {
        None
    }
}

/// Hadoop 3.x `yarn.resource-types.<type>.increment-allocation`: `value [unit]` (pattern
/// `^([0-9]+) ?([a-zA-Z]*)$`), converted to MB for memory (default unit `Mi`) or to vcores
/// (no unit).
pub fn resource_value(text: &str, memory: bool) -> Result<i64, String> {
    let t = text.trim();
    let digits_end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, rest) = t.split_at(digits_end);
    let unit = rest.strip_prefix(' ').unwrap_or(rest);
    if digits.is_empty() || !unit.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(format!("\"{t}\" is not in \"value [unit]\" format"));
    }
    let v: i64 = digits
        .parse()
        .map_err(|_| format!("{digits} is out of range: the limit is a Java long"))?;
    let scale: i64 = match (memory, unit) {
        (true, "" | "Mi") | (false, "") => 1,
        (true, "Gi") => 1 << 10,
        (true, "Ti") => 1 << 20,
        (true, "Pi") => 1 << 30,
        (true, _) => {
            return Err(format!(
                "unit \"{unit}\" is not read by fairsim: use Mi (the default), Gi, Ti or Pi"
            ));
        }
        (false, _) => return Err(format!("vcores take no unit, found \"{unit}\"")),
    };
    v.checked_mul(scale)
        .ok_or_else(|| format!("{t} is out of range: the limit is a Java long"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_as_hadoop_reads_them() {
        assert_eq!(long(" 42\n"), Ok(42));
        assert_eq!(long("+7"), Ok(7));
        assert_eq!(long("-0x10"), Ok(-16));
        assert_eq!(long("0XfF"), Ok(255));
        assert!(
            long("30s")
                .unwrap_err()
                .contains("\"30s\" is not an integer")
        );
        assert!(long("--1").is_err());
        assert!(long("0x-1").is_err());
        assert!(long("").is_err());
        assert_eq!(int("2147483647"), Ok(2_147_483_647));
        assert!(int("2147483648").unwrap_err().contains("Java int"));
    }

    #[test]
    fn floats_as_java_reads_them() {
        assert_eq!(float("0.8"), Ok(0.8));
        assert_eq!(float(" .5f "), Ok(0.5));
        assert_eq!(float("1e-1d"), Ok(0.1));
        assert!(float("NaN").unwrap().is_nan());
        assert_eq!(float("-Infinity"), Ok(f64::NEG_INFINITY));
        assert!(float("inf").is_err());
        assert!(float("80%").is_err());
    }

    #[test]
    fn booleans_ignore_case_and_whitespace() {
        assert_eq!(boolean(" TRUE "), Some(true));
        assert_eq!(boolean("False"), Some(false));
        assert_eq!(boolean("yes"), None);
    }

    #[test]
    fn resource_values_take_units() {
        assert_eq!(resource_value("512", true), Ok(512));
        assert_eq!(resource_value("1 Gi", true), Ok(1024));
        assert_eq!(resource_value("2Gi", true), Ok(2048));
        assert_eq!(resource_value("2", false), Ok(2));
        assert!(resource_value("1 G", true).is_err());
        assert!(resource_value("1k", false).is_err());
        assert!(resource_value("-1", true).is_err());
    }
}
