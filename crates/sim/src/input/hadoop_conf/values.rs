//! Hadoop `Configuration`'s value syntax, as its getters read a property's text: every
//! getter trims as Java's `String.trim` does (every character up to the space); `getInt` and
//! `getLong` take `Integer.parseInt` / `Long.parseLong` syntax after Hadoop's own `0x` check;
//! `getFloat` is Java's `Float.parseFloat`; `getBoolean` compares `true` and `false` without
//! case and falls back to the default on anything else; the resource-types allocation keys
//! are `value [unit]`.

/// Java's `String.trim`: strips every character at or below U+0020 from both ends (and no
/// other whitespace).
pub fn java_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c <= ' ')
}

/// Java's `Integer.parseInt(s, radix)` / `Long.parseLong` syntax: an optional `+` or `-`, then
/// at least one digit of the radix.
fn java_integer(s: &str, radix: u32) -> Option<i128> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let v = i128::from_str_radix(digits, radix).ok()?;
    Some(if negative { -v } else { v })
}

/// `getLong`: Hadoop's `getHexDigits` takes a leading `-`, then `0x` or `0X`, and hands the
/// rest (with the `-` put back) to `Long.parseLong(s, 16)`, which takes a sign of its own
/// (so `0x-10` is -16 and `-0x-10` is refused); anything else goes to `Long.parseLong`.
pub fn long(text: &str) -> Result<i64, String> {
    let t = java_trim(text);
    let (negative, rest) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t),
    };
    let parsed = match rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
        Some(hex) => {
            let hex = if negative {
                format!("-{hex}")
            } else {
                hex.to_string()
            };
            java_integer(&hex, 16)
        }
        None => java_integer(t, 10),
    };
    let v = parsed.ok_or_else(|| format!("\"{t}\" is not an integer"))?;
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

/// Java's `Float.parseFloat` (`FloatingDecimal.readJavaFormatString`): after `String.trim`,
/// an optional sign, then `NaN` or `Infinity` alone, or a hexadecimal float
/// (`0x1.8p1`, the binary exponent required), or decimal digits with at most one `.` and at
/// least one digit, an optional exponent (`e` or `E`, an optional sign, digits); a number may
/// end in one `f`, `F`, `d` or `D`. The value as written, as an `f64` (callers narrow it to a
/// Java float where Hadoop's arithmetic needs one).
pub fn float(text: &str) -> Result<f64, String> {
    let t = java_trim(text);
    java_float(t).ok_or_else(|| format!("\"{t}\" is not a number"))
}

fn java_float(t: &str) -> Option<f64> {
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let sign = if negative { -1.0 } else { 1.0 };
    match body {
        "NaN" => return Some(f64::NAN),
        "Infinity" => return Some(sign * f64::INFINITY),
        _ => {}
    }
    let body = body.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(body);
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        return hex_float(hex).map(|v| sign * v);
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.len() + frac.len() == 0 || !digits(int) || !digits(frac) {
        return None;
    }
    if let Some(e) = exponent {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e.is_empty() || !digits(e) {
            return None;
        }
    }
    // Rust's grammar accepts everything left (and more, which was refused above).
    body.parse::<f64>().ok().map(|v| sign * v)
}

/// `HEX[.HEX]p[+-]DEC` (at least one hexadecimal digit), exactly when 64 bits of mantissa
/// hold it and rounded beyond.
fn hex_float(s: &str) -> Option<f64> {
    let (mantissa, exponent) = s.split_once(['p', 'P'])?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
    if int.len() + frac.len() == 0 || !hex(int) || !hex(frac) {
        return None;
    }
    let e_digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    if e_digits.is_empty() || !e_digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // A huge exponent only saturates (to 0 or infinity), as Java's does.
    let e: i64 = exponent.parse().unwrap_or(if exponent.starts_with('-') {
        i64::MIN / 2
    } else {
        i64::MAX / 2
    });
    let mut m: u64 = 0;
    let mut scale: i64 = 0;
    let mut sticky = false;
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = u64::from(c.to_digit(16).expect("checked hexadecimal"));
        if m >> 60 == 0 {
            m = m * 16 + d;
            if i >= int.len() {
                scale -= 4;
            }
        } else {
            sticky |= d != 0;
            if i < int.len() {
                scale += 4;
            }
        }
    }
    let m = m | u64::from(sticky);
    let e2 = e.saturating_add(scale).clamp(-2000, 2000) as i32;
    Some(m as f64 * 2f64.powi(e2))
}

/// `getBoolean`: `None` when the text is neither `true` nor `false` (Hadoop then takes the
/// default).
pub fn boolean(text: &str) -> Option<bool> {
    let t = java_trim(text);
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
    let t = java_trim(text);
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
        // Long.parseLong(s, 16) takes a sign of its own; Hadoop's 0x check takes only `-`.
        assert_eq!(long("0x-1"), Ok(-1));
        assert_eq!(long("0x+1f"), Ok(31));
        assert!(long("-0x-1").is_err());
        assert!(long("+0x10").is_err());
        assert!(long("0x").is_err());
        assert!(long("").is_err());
        assert_eq!(int("2147483647"), Ok(2_147_483_647));
        assert!(int("2147483648").unwrap_err().contains("Java int"));
    }

    #[test]
    fn floats_as_java_reads_them() {
        assert_eq!(float("0.8"), Ok(0.8));
        assert_eq!(float(" .5f "), Ok(0.5));
        assert_eq!(float("1e-1d"), Ok(0.1));
        assert_eq!(float("60f"), Ok(60.0));
        assert_eq!(float("40.0d"), Ok(40.0));
        assert_eq!(float("5."), Ok(5.0));
        assert_eq!(float("+1E+2"), Ok(100.0));
        assert!(float("NaN").unwrap().is_nan());
        assert!(float("-NaN").unwrap().is_nan());
        assert_eq!(float("-Infinity"), Ok(f64::NEG_INFINITY));
        assert_eq!(float("0x1.8p1"), Ok(3.0));
        assert_eq!(float("-0X.8P-1f"), Ok(-0.25));
        assert_eq!(float("0x10p0"), Ok(16.0));
        assert_eq!(float("0x1.00000000000000000001p0"), Ok(1.0));
        assert_eq!(float("\t60\n"), Ok(60.0));
        for bad in [
            "inf",
            "infinity",
            "nan",
            "NaNf",
            "Infinityd",
            "80%",
            "1e",
            "1e+",
            ".",
            "f",
            "1ff",
            "0x1.8",
            "0x.p1",
            "0x1p",
            "1_0",
            "1,5",
            "\u{a0}60",
            "++1",
            "60 f",
        ] {
            assert!(float(bad).is_err(), "{bad:?} was read");
        }
    }

    #[test]
    fn booleans_ignore_case_and_whitespace() {
        assert_eq!(boolean(" TRUE "), Some(true));
        assert_eq!(boolean("\u{a0}true"), None);
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
