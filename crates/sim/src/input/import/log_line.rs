//! One line of a ResourceManager log, as log4j writes it: the time stamp that opens it, the
//! logger that wrote it, and the two kinds fairsim reads.
//!
//! * The application summary (`RMAppManager$ApplicationSummary`), one line per finished app:
//!   `key=value` pairs separated by commas, where a value's `,`, `=` and `\` are escaped
//!   with a backslash (Hadoop's `StringUtils.escapeString`), so a value such as
//!   `preemptedResources=<memory:0\, vCores:0>` holds a comma. Hadoop 2.7 writes `startTime`
//!   (the app's creation, its submission for our purpose) and no `submitTime`; 3.x adds
//!   `submitTime`, and later 3.x releases `launchTime` (the AM container's launch).
//! * The audit logger (`RMAuditLogger`): `KEY=value` pairs separated by tabs. The schedulers
//!   write `OPERATION=AM Allocated Container` and `AM Released Container` with `APPID` and
//!   `CONTAINERID`; Hadoop 2.8 and later add `RESOURCE=<memory:M, vCores:V>`, and 3.x the
//!   leaf's `QUEUENAME`. Hadoop 2.7's lines carry no size.
//!
//! Everything here works on bytes and borrows from the line: a day of logs is tens of
//! millions of lines, read once.

/// Where a log4j line's message starts for the loggers fairsim reads (the logger's name ends
/// with these, whatever `%c{n}` abbreviation the layout uses).
const SUMMARY_MARK: &[u8] = b"RMAppManager$ApplicationSummary: ";
const AUDIT_MARK: &[u8] = b"RMAuditLogger: ";

/// What a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind<'a> {
    /// An application summary; the message after the logger's name.
    Summary(&'a [u8]),
    /// An audit line; the message after the logger's name.
    Audit(&'a [u8]),
    /// Any other logger's line (or a continuation line, such as a stack trace's).
    Other,
}

/// Finds `needle` in `hay` (short needles; the first byte is searched with `position`, which
/// the compiler vectorises).
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let first = needle[0];
    let mut from = 0;
    while from + needle.len() <= hay.len() {
        let i = from + hay[from..].iter().position(|&b| b == first)?;
        if hay.len() - i >= needle.len() && &hay[i..i + needle.len()] == needle {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

/// Sorts a line by its logger.
pub fn classify(line: &[u8]) -> LineKind<'_> {
    if let Some(i) = find(line, AUDIT_MARK) {
        return LineKind::Audit(&line[i + AUDIT_MARK.len()..]);
    }
    if let Some(i) = find(line, SUMMARY_MARK) {
        return LineKind::Summary(&line[i + SUMMARY_MARK.len()..]);
    }
    LineKind::Other
}

fn digits(b: &[u8]) -> Option<i64> {
    if b.is_empty() || b.len() > 18 {
        return None;
    }
    let mut v: i64 = 0;
    for &c in b {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(v)
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian; Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The time stamp log4j's ISO8601 layout opens a line with (`2024-03-01 12:00:05,123`, or
/// with `T` and `.`), in ms as if the wall clock were UTC: the log's zone is unknown here
/// (see `logs::zone_offset`). `None` when the line does not open with one.
pub fn line_time(line: &[u8]) -> Option<i64> {
    if line.len() < 23 {
        return None;
    }
    let b = &line[..23];
    let sep_ok = b[4] == b'-'
        && b[7] == b'-'
        && (b[10] == b' ' || b[10] == b'T')
        && b[13] == b':'
        && b[16] == b':'
        && (b[19] == b',' || b[19] == b'.');
    if !sep_ok {
        return None;
    }
    let (y, mo, d) = (digits(&b[0..4])?, digits(&b[5..7])?, digits(&b[8..10])?);
    let (h, mi, s, ms) = (
        digits(&b[11..13])?,
        digits(&b[14..16])?,
        digits(&b[17..19])?,
        digits(&b[20..23])?,
    );
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let days = days_from_civil(y, mo, d);
    Some(((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + ms)
}

/// The `key=value` pairs of a summary message, values still escaped.
pub fn summary_pairs(msg: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    let mut rest = trim_end(msg);
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        // The pair ends at the first comma no backslash escapes.
        let mut i = 0;
        let mut eq = None;
        while i < rest.len() {
            match rest[i] {
                b'\\' => i += 1,
                b',' => break,
                b'=' if eq.is_none() => eq = Some(i),
                _ => {}
            }
            i += 1;
        }
        let end = i.min(rest.len());
        let pair = &rest[..end];
        rest = if end < rest.len() {
            &rest[end + 1..]
        } else {
            &[]
        };
        Some(match eq {
            Some(e) if e < end => (&pair[..e], &pair[e + 1..]),
            _ => (pair, &[][..]),
        })
    })
}

/// A summary value with Hadoop's escapes undone (`\,`, `\=` and `\\`; other backslashes,
/// such as the `\n` a newline became, are kept as written).
pub fn unescape(v: &[u8]) -> String {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while i < v.len() {
        if v[i] == b'\\' && i + 1 < v.len() && matches!(v[i + 1], b',' | b'=' | b'\\') {
            out.push(v[i + 1]);
            i += 2;
        } else {
            out.push(v[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `KEY=value` pairs of an audit message.
pub fn audit_pairs(msg: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    trim_end(msg)
        .split(|&b| b == b'\t')
        .map(|p| match p.iter().position(|&b| b == b'=') {
            Some(e) => (&p[..e], &p[e + 1..]),
            None => (p, &[][..]),
        })
}

fn trim_end(b: &[u8]) -> &[u8] {
    let mut end = b.len();
    while end > 0 && matches!(b[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    &b[..end]
}

/// A whole number field (`submitTime=1700000000000`).
pub fn parse_i64(v: &[u8]) -> Option<i64> {
    match v.first() {
        Some(b'-') => digits(&v[1..]).map(|x| -x),
        _ => digits(v),
    }
}

/// An application id, `application_<cluster time stamp>_<sequence>`.
pub fn parse_app_id(v: &[u8]) -> Option<(u64, u64)> {
    let rest = v.strip_prefix(b"application_")?;
    let u = rest.iter().position(|&b| b == b'_')?;
    Some((digits(&rest[..u])? as u64, digits(&rest[u + 1..])? as u64))
}

/// A container id: `container_[e<epoch>_]<cluster ts>_<app seq>_<attempt>_<seq>`. Returns
/// (attempt, the container's number within its app: epoch and sequence together).
pub fn parse_container_id(v: &[u8]) -> Option<(u32, u64)> {
    let mut rest = v.strip_prefix(b"container_")?;
    let mut epoch = 0;
    if rest.first() == Some(&b'e') {
        let u = rest.iter().position(|&b| b == b'_')?;
        epoch = digits(&rest[1..u])?;
        rest = &rest[u + 1..];
    }
    let mut parts = rest.split(|&b| b == b'_');
    let _ts = digits(parts.next()?)?;
    let _app = digits(parts.next()?)?;
    let attempt = digits(parts.next()?)?;
    let seq = digits(parts.next()?)?;
    if parts.next().is_some() || attempt > i64::from(u32::MAX) || seq >= 1 << 40 {
        return None;
    }
    Some((attempt as u32, ((epoch as u64) << 40) | seq as u64))
}

/// A resource as `Resource.toString()` writes it: `<memory:1024, vCores:1>` (other resource
/// types after the two are ignored). Returns (memory MB, vcores).
pub fn parse_resource(v: &[u8]) -> Option<(i64, i64)> {
    let inner = v.strip_prefix(b"<")?.strip_suffix(b">")?;
    let (mut mem, mut vc) = (None, None);
    for part in inner.split(|&b| b == b',') {
        let part = part.trim_ascii();
        if let Some(m) = part.strip_prefix(b"memory:") {
            mem = digits(m);
        } else if let Some(c) = part.strip_prefix(b"vCores:") {
            vc = digits(c);
        }
    }
    Some((mem?, vc?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_stamps_read_as_wall_clock_ms() {
        // 2024-03-01 is day 19783 after the epoch (2024-01-01 is 19723, + 31 + 29).
        let t = line_time(b"2024-03-01 12:00:05,123 INFO x: y").unwrap();
        assert_eq!(t, 19_783 * 86_400_000 + 12 * 3_600_000 + 5_123);
        assert_eq!(line_time(b"2024-03-01T12:00:05.123 INFO"), Some(t));
        assert_eq!(line_time(b"\tat org.apache.Foo(Foo.java:1)"), None);
        assert_eq!(line_time(b"2024-13-01 12:00:05,123 INFO"), None);
    }

    #[test]
    fn summary_values_keep_escaped_commas() {
        let msg = br"appId=application_1_0002,name=a\,b\=c,preemptedResources=<memory:0\, vCores:0>,queue=root.x";
        let pairs: Vec<(String, String)> = summary_pairs(msg)
            .map(|(k, v)| (String::from_utf8_lossy(k).into(), unescape(v)))
            .collect();
        assert_eq!(
            pairs,
            vec![
                ("appId".into(), "application_1_0002".into()),
                ("name".into(), "a,b=c".into()),
                ("preemptedResources".into(), "<memory:0, vCores:0>".into()),
                ("queue".into(), "root.x".into()),
            ]
        );
    }

    #[test]
    fn ids_and_resources() {
        assert_eq!(
            parse_app_id(b"application_1700000000000_12345"),
            Some((1_700_000_000_000, 12_345))
        );
        assert_eq!(
            parse_container_id(b"container_1700000000000_0001_01_000001"),
            Some((1, 1))
        );
        assert_eq!(
            parse_container_id(b"container_e17_1700000000000_0001_02_000007"),
            Some((2, (17 << 40) | 7))
        );
        assert_eq!(parse_container_id(b"container_1700000000000_0001_01"), None);
        assert_eq!(
            parse_resource(b"<memory:2048, vCores:2, yarn.io/gpu: 1>"),
            Some((2048, 2))
        );
        assert_eq!(parse_resource(b"<memory:2048"), None);
    }

    #[test]
    fn loggers_are_told_apart() {
        let audit = b"2024-03-01 12:00:05,123 INFO org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger: USER=a\tOPERATION=x";
        assert_eq!(classify(audit), LineKind::Audit(b"USER=a\tOPERATION=x"));
        let sum = b"2024-03-01 12:00:05,123 INFO resourcemanager.RMAppManager$ApplicationSummary: appId=x";
        assert_eq!(classify(sum), LineKind::Summary(b"appId=x"));
        assert_eq!(
            classify(b"2024-03-01 12:00:05,123 INFO FairScheduler: x"),
            LineKind::Other
        );
    }
}
