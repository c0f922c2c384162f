//! The native CSV trace: one row per task group; consecutive rows with the same `app` form
//! one application.
//!
//! Columns (a header row is required; names must match, order must match):
//!
//! | column | meaning |
//! | --- | --- |
//! | `app` | application id (any text); rows of one app are consecutive |
//! | `arrival_ms` | submission time in ms; non-decreasing from app to app |
//! | `queue` | requested queue (`root.a`, `a`, or `default`), resolved by the placement policy |
//! | `user` | submitting user |
//! | `am_memory_mb` | AM container memory; 0 for an unmanaged app (no AM) |
//! | `am_vcores` | AM container vcores |
//! | `stage` | stage number from 0; stage k+1 asks when stage k has finished |
//! | `count` | containers in the group (0 allowed: an app with an AM only) |
//! | `memory_mb` | container memory |
//! | `vcores` | container vcores |
//! | `duration_ms` | run time of each container |
//! | `priority` | request priority (smaller first; one container size per priority: another size at an app's priority runs at the first, with a warning) |
//! | `hosts` | optional locality hints: node names separated by `;` (empty: anywhere) |
//! | `relax_locality` | optional column: `false` keeps the group on its hosts (YARN's `relaxLocality = false`); empty or `true`: the hosts are only preferred |
//!
//! The last column may be left out (a trace of the first 13 columns relaxes everywhere). A
//! group with `relax_locality = false` must name hosts, and the groups of one app at one
//! priority must agree on it (YARN's `AMRMClient` refuses to mix them).
//!
//! The app-level columns (`arrival_ms`, `queue`, `user`, `am_*`) must repeat the app's first
//! row on each of its rows, and an app id may not start again after other apps; a time going
//! backwards between apps is an error too. Each error names the line.

use super::budget::{AppCost, Budget, Exceeded};
use super::{TraceRead, WorkloadError};
use crate::app::{AppSpec, TaskGroup};
use crate::limits::limit;
use crate::time::SimTime;
use fairsim_core::Resource;
use std::collections::BTreeMap;
use std::path::Path;

/// The header the reader expects.
pub const CSV_COLUMNS: [&str; 13] = [
    "app",
    "arrival_ms",
    "queue",
    "user",
    "am_memory_mb",
    "am_vcores",
    "stage",
    "count",
    "memory_mb",
    "vcores",
    "duration_ms",
    "priority",
    "hosts",
];

/// The optional last column.
pub const RELAX_COLUMN: &str = "relax_locality";

/// Reads a native CSV trace from `path`: its apps and what it warns about.
pub fn read_csv_trace(path: &Path) -> Result<TraceRead, WorkloadError> {
    let text = crate::limits::read_text_file_within(path, crate::limits::MAX_CSV_TRACE_BYTES)
        .map_err(|source| WorkloadError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    parse_csv_trace_read(&text, path)
}

/// Parses native CSV trace text (`path` is for messages), without its warnings.
pub fn parse_csv_trace(text: &str, path: &Path) -> Result<Vec<AppSpec>, WorkloadError> {
    parse_csv_trace_read(text, path).map(|t| t.apps)
}

/// Parses native CSV trace text (`path` is for messages): its apps and what it warns about.
pub fn parse_csv_trace_read(text: &str, path: &Path) -> Result<TraceRead, WorkloadError> {
    let mut warnings = Vec::new();
    let perr = |line: u64, field: String, message: String| WorkloadError::Parse {
        path: path.to_path_buf(),
        line,
        field,
        message,
    };
    let mut rdr = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(::csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| perr(1, "header".into(), e.to_string()))?
        .clone();
    let got: Vec<&str> = headers.iter().collect();
    let with_relax = got.len() == CSV_COLUMNS.len() + 1 && got.last() == Some(&RELAX_COLUMN);
    if got[..got.len().min(CSV_COLUMNS.len())] != CSV_COLUMNS
        || (got.len() != CSV_COLUMNS.len() && !with_relax)
    {
        return Err(perr(
            1,
            "header".into(),
            format!(
                "expected columns {} (and optionally {RELAX_COLUMN})",
                CSV_COLUMNS.join(",")
            ),
        ));
    }
    let mut apps: Vec<AppSpec> = Vec::new();
    let mut last_id: Option<String> = None;
    // The line each app starts at, and the app-level columns of the current app's first row.
    let mut first_lines: Vec<u64> = Vec::new();
    let mut first_row = AppRow::default();
    // Per priority of the current app: the first size asked and its line, and the
    // relaxLocality of its groups (maps: an app of many rows is read in linear time).
    let mut asking: BTreeMap<i32, (Resource, u64)> = BTreeMap::new();
    let mut relax_at: BTreeMap<i32, bool> = BTreeMap::new();
    let mut budget = Budget::default();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| p.line()).unwrap_or(0);
            perr(line, "row".into(), e.to_string())
        })?;
        let line = rec.position().map(|p| p.line()).unwrap_or(0);
        // Every number is read exactly (as an i128) and checked against its limit, so
        // nothing is truncated or wrapped on the way into the engine's types.
        let ranged = |i: usize| -> Result<i128, WorkloadError> {
            let field = || format!("column {} ({})", i + 1, CSV_COLUMNS[i]);
            let s = rec.get(i).unwrap_or("");
            let v = s
                .parse::<i128>()
                .map_err(|_| perr(line, field(), format!("`{s}` is not an integer")))?;
            limit("csv trace", CSV_COLUMNS[i])
                .check_int(v)
                .map_err(|m| perr(line, field(), m))
        };
        let id = rec.get(0).unwrap_or("").to_string();
        if last_id.as_deref() == Some(id.as_str()) {
            same_app_as_first_row(&rec, line, &first_row, &ranged, &perr)?;
        } else {
            if id.is_empty() {
                return Err(perr(
                    line,
                    "column 1 (app)".into(),
                    "empty: every row names its app".into(),
                ));
            }
            first_lines.push(line);
            asking.clear();
            relax_at.clear();
            first_row = AppRow {
                line,
                arrival: ranged(1)?,
                queue: rec.get(2).unwrap_or("").to_string(),
                user: rec.get(3).unwrap_or("").to_string(),
                am_memory_mb: ranged(4)?,
                am_vcores: ranged(5)?,
            };
            let arrival = ranged(1)? as u64;
            if let Some(prev) = apps.last()
                && arrival < prev.arrival.0
            {
                return Err(perr(
                    line,
                    "column 2 (arrival_ms)".into(),
                    format!(
                        "time goes backwards: {arrival} after {} (apps must be sorted by arrival)",
                        prev.arrival.0
                    ),
                ));
            }
            let am_mem = ranged(4)? as i64;
            let am_vc = ranged(5)? as i64;
            apps.push(AppSpec {
                name: id.clone(),
                arrival: SimTime(arrival),
                queue: rec.get(2).unwrap_or("").to_string(),
                user: rec.get(3).unwrap_or("").to_string(),
                am: (am_mem > 0).then_some(Resource::new(am_mem, am_vc)),
                stages: Vec::new(),
                recorded: None,
            });
            last_id = Some(id);
            budget.admit(1, AppCost::new()).map_err(|e| {
                let field = match e {
                    Exceeded::Apps(_) => "column 1 (app)",
                    _ => "row",
                };
                perr(line, field.into(), e.to_string())
            })?;
        }
        let stage = ranged(6)? as usize;
        let count = ranged(7)? as u32;
        let hosts: Vec<String> = rec
            .get(12)
            .unwrap_or("")
            .split(';')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let relax_field = || "column 14 (relax_locality)".to_string();
        let relax_locality = match rec.get(13).unwrap_or("") {
            "" | "true" => true,
            "false" => false,
            other => {
                return Err(perr(
                    line,
                    relax_field(),
                    format!("`{other}` is not true or false"),
                ));
            }
        };
        if !relax_locality && hosts.is_empty() {
            return Err(perr(
                line,
                relax_field(),
                "false needs hosts: a request kept to no host can never run".into(),
            ));
        }
        let priority = ranged(11)? as i32;
        if let Some(&other) = relax_at.get(&priority)
            && other != relax_locality
        {
            return Err(perr(
                line,
                relax_field(),
                format!(
                    "{relax_locality} at priority {priority}, where another group of the app has {other}: \
                     YARN refuses to mix relaxLocality at one priority",
                ),
            ));
        }
        relax_at.insert(priority, relax_locality);
        let size = Resource::new(ranged(8)? as i64, ranged(9)? as i64);
        // YARN keeps one ask per priority (and place): a second size at a priority runs at
        // the first's, as SLS packs a priority's tasks into one request of its first size. A
        // trace may do so (`fairsim trace` writes what SYNTH files draw), so it is said, not
        // refused.
        if let Some(&(there, first)) = asking.get(&priority)
            && there != size
            && count > 0
        {
            warnings.push(format!(
                "{}:{line}: column 9 (memory_mb): {} MB, {} vcores at priority {priority} run as {} MB, {} vcores, the size line {first} asks at that priority: YARN keeps one ask per priority (SLS asks a priority's tasks as one request of its first size); give the group another priority to keep its size",
                path.display(),
                size.memory_mb,
                size.vcores,
                there.memory_mb,
                there.vcores
            ));
        }
        if count > 0 {
            asking.entry(priority).or_insert((size, line));
        }
        let group = TaskGroup {
            count,
            size,
            duration_ms: ranged(10)? as u64,
            priority,
            hosts,
            relax_locality,
        };
        budget.add_group(&group).map_err(|e| {
            let field = match e {
                Exceeded::Containers(_) => "column 8 (count)",
                _ => "row",
            };
            perr(line, field.into(), e.to_string())
        })?;
        let app = apps.last_mut().expect("an app was pushed above");
        while app.stages.len() <= stage {
            app.stages.push(Vec::new());
        }
        app.stages[stage].push(group);
    }
    refuse_a_name_used_twice(&apps, &first_lines, &perr)?;
    Ok(TraceRead { apps, warnings })
}

/// Refuses two apps of one name (rows of one id, apart): the rows of an app are consecutive,
/// so a name seen again is either an app's rows split by mistake or a second app under a
/// taken name, which apps.csv could not tell apart. Sorted once at the end, not kept in a map
/// while reading; the error names the first line where a taken name starts again.
fn refuse_a_name_used_twice(
    apps: &[AppSpec],
    first_lines: &[u64],
    perr: &dyn Fn(u64, String, String) -> WorkloadError,
) -> Result<(), WorkloadError> {
    let mut order: Vec<usize> = (0..apps.len()).collect();
    order.sort_by(|&a, &b| apps[a].name.cmp(&apps[b].name).then(a.cmp(&b)));
    let again = order
        .windows(2)
        .filter(|w| apps[w[0]].name == apps[w[1]].name)
        .min_by_key(|w| w[1]);
    match again {
        Some(w) => Err(perr(
            first_lines[w[1]],
            "column 1 (app)".into(),
            format!(
                "app `{}` already ended (its rows start at line {}): the rows of one app are consecutive, and two apps need two names",
                apps[w[1]].name, first_lines[w[0]]
            ),
        )),
        None => Ok(()),
    }
}

/// The app-level columns of an app's first row, which its other rows must repeat.
#[derive(Default)]
struct AppRow {
    line: u64,
    arrival: i128,
    queue: String,
    user: String,
    am_memory_mb: i128,
    am_vcores: i128,
}

/// Refuses a later row of an app whose app-level columns differ from the app's first row's:
/// which value is meant cannot be told, and reading the first silently would hide the mistake.
fn same_app_as_first_row(
    rec: &::csv::StringRecord,
    line: u64,
    first: &AppRow,
    ranged: &dyn Fn(usize) -> Result<i128, WorkloadError>,
    perr: &dyn Fn(u64, String, String) -> WorkloadError,
) -> Result<(), WorkloadError> {
    let text = |i: usize| rec.get(i).unwrap_or("").to_string();
    let columns = [
        (1, ranged(1)?.to_string(), first.arrival.to_string()),
        (2, text(2), first.queue.clone()),
        (3, text(3), first.user.clone()),
        (4, ranged(4)?.to_string(), first.am_memory_mb.to_string()),
        (5, ranged(5)?.to_string(), first.am_vcores.to_string()),
    ];
    for (i, here, there) in columns {
        if here != there {
            return Err(perr(
                line,
                format!("column {} ({})", i + 1, CSV_COLUMNS[i]),
                format!(
                    "`{here}` differs from `{there}` on line {}, the app's first row: the app-level columns (arrival_ms, queue, user, am_memory_mb, am_vcores) must be the same on every row of an app",
                    first.line
                ),
            ));
        }
    }
    Ok(())
}

/// Writes `apps` (sorted by arrival) as a native CSV trace that [`parse_csv_trace`] reads
/// back into the same apps: one row per task group, an AM-only app as one row of count 0.
/// An app named like an app before it gets `~2`, `~3`, … so that every name is one app's
/// (the reader refuses a name used twice). Recorded times (Rumen, SLS `job.end.ms`) have no column here; apps.csv has them.
/// (The reader trims fields, so a name's leading or trailing spaces do not survive.)
pub fn write_csv_trace(apps: &[AppSpec]) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    // The optional column is written only when a group needs it, so traces without strict
    // locality keep their 13-column form byte for byte.
    let with_relax = apps
        .iter()
        .flat_map(|a| a.stages.iter().flatten())
        .any(|g| !g.relax_locality);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut seen: std::collections::HashMap<&str, u32> = Default::default();
    for a in apps {
        let repeat = seen.entry(a.name.as_str()).or_insert(0);
        *repeat += 1;
        let name = if *repeat > 1 {
            format!("{}~{repeat}", a.name)
        } else {
            a.name.clone()
        };
        let (am_mb, am_vc) = a.am.map_or((0, 0), |r| (r.memory_mb, r.vcores));
        let head = |stage: usize, g: Option<&TaskGroup>| -> Vec<String> {
            let (count, mb, vc, dur, prio, hosts, relax) = match g {
                Some(g) => (
                    g.count,
                    g.size.memory_mb,
                    g.size.vcores,
                    g.duration_ms,
                    g.priority,
                    g.hosts.join(";"),
                    g.relax_locality,
                ),
                None => (0, 0, 0, 0, 20, String::new(), true),
            };
            let mut row = vec![
                name.clone(),
                a.arrival.0.to_string(),
                a.queue.clone(),
                a.user.clone(),
                am_mb.to_string(),
                am_vc.to_string(),
                stage.to_string(),
                count.to_string(),
                mb.to_string(),
                vc.to_string(),
                dur.to_string(),
                prio.to_string(),
                hosts,
            ];
            if with_relax {
                row.push(relax.to_string());
            }
            row
        };
        let before = rows.len();
        for (stage, groups) in a.stages.iter().enumerate() {
            for g in groups {
                rows.push(head(stage, Some(g)));
            }
        }
        if rows.len() == before {
            rows.push(head(0, None));
        }
    }
    let mut header = CSV_COLUMNS.to_vec();
    if with_relax {
        header.push(RELAX_COLUMN);
    }
    let _ = w.write_record(header);
    for r in &rows {
        let _ = w.write_record(r);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_trace_reads_back_as_the_same_apps() {
        let text = format!(
            "{HEADER}j1,0,a,u,1024,1,0,4,1024,1,5000,20,\nj1,0,a,u,1024,1,1,1,2048,1,9000,10,node1;node2\n\
             j2,5,\"b,c\",v,0,0,0,0,0,0,0,20,\nj3,7,a,u,512,1,1,2,1024,1,100,10,\n"
        );
        let apps = parse_csv_trace(&text, Path::new("t.csv")).unwrap();
        let again = write_csv_trace(&apps);
        assert_eq!(again, text);
        assert_eq!(parse_csv_trace(&again, Path::new("t.csv")).unwrap(), apps);
        // Two apps of one name in a row stay two apps.
        let mut twins = apps[..1].to_vec();
        twins.push(twins[0].clone());
        let back = parse_csv_trace(&write_csv_trace(&twins), Path::new("t.csv")).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[1].name, "j1~2");
    }

    const HEADER: &str = "app,arrival_ms,queue,user,am_memory_mb,am_vcores,stage,count,memory_mb,vcores,duration_ms,priority,hosts\n";

    #[test]
    fn reads_two_stage_app() {
        let text = format!(
            "{HEADER}j1,0,a,u,1024,1,0,4,1024,1,5000,20,\nj1,0,a,u,1024,1,1,1,2048,1,9000,10,node1;node2\n"
        );
        let apps = parse_csv_trace(&text, Path::new("t.csv")).unwrap();
        assert_eq!(apps.len(), 1);
        assert_eq!(apps[0].stages.len(), 2);
        assert_eq!(apps[0].stages[1][0].hosts, vec!["node1", "node2"]);
    }

    #[test]
    fn relax_locality_column_reads_writes_back_and_is_checked() {
        let head = format!("{}relax_locality\n", HEADER.trim_end().to_string() + ",");
        let text = format!(
            "{head}j1,0,a,u,0,0,0,2,1024,1,50,10,node1,false\nj1,0,a,u,0,0,1,1,1024,1,50,20,,\n"
        );
        let apps = parse_csv_trace(&text, Path::new("t.csv")).unwrap();
        assert!(!apps[0].stages[0][0].relax_locality);
        assert!(apps[0].stages[1][0].relax_locality);
        let again = write_csv_trace(&apps);
        assert_eq!(
            again,
            format!(
                "{head}j1,0,a,u,0,0,0,2,1024,1,50,10,node1,false\nj1,0,a,u,0,0,1,1,1024,1,50,20,,true\n"
            )
        );
        let check = |row: &str| {
            parse_csv_trace(&format!("{head}{row}"), Path::new("t.csv"))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            check("j1,0,a,u,0,0,0,2,1024,1,50,10,node1,no\n"),
            "t.csv:2: column 14 (relax_locality): `no` is not true or false"
        );
        assert_eq!(
            check("j1,0,a,u,0,0,0,2,1024,1,50,10,,false\n"),
            "t.csv:2: column 14 (relax_locality): false needs hosts: a request kept to no host can never run"
        );
        assert!(
            check("j1,0,a,u,0,0,0,2,1024,1,50,10,node1,false\nj1,0,a,u,0,0,0,1,1024,1,50,10,node2,true\n")
                .starts_with("t.csv:3: column 14 (relax_locality): true at priority 10"),
        );
    }

    #[test]
    fn broken_row_names_file_line_and_column() {
        let text =
            format!("{HEADER}j1,0,a,u,0,0,0,4,1024,1,5000,20,\nj2,10,a,u,0,0,0,x,1024,1,5,1,\n");
        let e = parse_csv_trace(&text, Path::new("t.csv"))
            .unwrap_err()
            .to_string();
        assert_eq!(e, "t.csv:3: column 8 (count): `x` is not an integer");
    }

    #[test]
    fn rows_of_one_app_that_disagree_are_refused_naming_both_lines() {
        let check = |rows: &str| {
            parse_csv_trace(&format!("{HEADER}{rows}"), Path::new("t.csv"))
                .unwrap_err()
                .to_string()
        };
        let first = "j1,0,a,u,1024,1,0,2,1024,1,50,20,\n";
        for (second, column, here, there) in [
            (
                "j1,5,a,u,1024,1,1,1,1024,1,50,10,",
                "2 (arrival_ms)",
                "5",
                "0",
            ),
            ("j1,0,b,u,1024,1,1,1,1024,1,50,10,", "3 (queue)", "b", "a"),
            ("j1,0,a,v,1024,1,1,1,1024,1,50,10,", "4 (user)", "v", "u"),
            (
                "j1,0,a,u,2048,1,1,1,1024,1,50,10,",
                "5 (am_memory_mb)",
                "2048",
                "1024",
            ),
            (
                "j1,0,a,u,1024,2,1,1,1024,1,50,10,",
                "6 (am_vcores)",
                "2",
                "1",
            ),
        ] {
            assert_eq!(
                check(&format!("{first}{second}\n")),
                format!(
                    "t.csv:3: column {column}: `{here}` differs from `{there}` on line 2, the app's \
                     first row: the app-level columns (arrival_ms, queue, user, am_memory_mb, \
                     am_vcores) must be the same on every row of an app"
                )
            );
        }
        // Numbers compare as numbers: `00` is 0.
        let apps = parse_csv_trace(
            &format!("{HEADER}{first}j1,00,a,u,1024,01,1,1,1024,1,50,10,\n"),
            Path::new("t.csv"),
        )
        .unwrap();
        assert_eq!(apps.len(), 1);
    }

    #[test]
    fn two_sizes_at_one_priority_are_said_and_an_empty_app_id_is_refused() {
        let read =
            |rows: &str| parse_csv_trace_read(&format!("{HEADER}{rows}"), Path::new("t.csv"));
        // Stage 1 asks 2048 MB at priority 20, where stage 0 asked 1024 MB (line 2): it runs
        // at 1024 MB (the request table keeps a priority's first size) and the reader says so.
        let t = read("j1,0,a,u,0,0,0,2,1024,1,50,20,\nj1,0,a,u,0,0,1,1,2048,1,50,20,\n").unwrap();
        assert_eq!(
            t.warnings,
            [
                "t.csv:3: column 9 (memory_mb): 2048 MB, 1 vcores at priority 20 run as 1024 MB, \
              1 vcores, the size line 2 asks at that priority: YARN keeps one ask per priority \
              (SLS asks a priority's tasks as one request of its first size); give the group \
              another priority to keep its size"
            ]
        );
        // Vcores count too; a group of no containers asks for nothing and is not compared,
        // nor are two apps' priorities.
        let t = read("j1,0,a,u,0,0,0,2,1024,1,50,20,\nj1,0,a,u,0,0,0,2,1024,2,50,20,\n").unwrap();
        assert_eq!(t.warnings.len(), 1);
        assert!(
            t.warnings[0]
                .starts_with("t.csv:3: column 9 (memory_mb): 1024 MB, 2 vcores at priority 20")
        );
        let t = read(
            "j1,0,a,u,0,0,0,0,0,0,0,20,\nj1,0,a,u,0,0,0,2,1024,1,50,20,\n\
             j1,0,a,u,0,0,1,2,1024,1,50,20,\nj2,1,a,u,0,0,0,1,4096,1,50,20,\n",
        )
        .unwrap();
        assert_eq!((t.apps.len(), t.warnings.len()), (2, 0));
        assert_eq!(
            read(",0,a,u,0,0,0,2,1024,1,50,20,\n")
                .unwrap_err()
                .to_string(),
            "t.csv:2: column 1 (app): empty: every row names its app"
        );
    }

    #[test]
    fn an_app_id_starting_again_after_other_apps_is_refused() {
        let text = format!(
            "{HEADER}j1,0,a,u,0,0,0,1,1,1,5,1,\nj2,1,a,u,0,0,0,1,1,1,5,1,\n\
             j3,2,a,u,0,0,0,1,1,1,5,1,\nj2,3,a,u,0,0,0,1,1,1,5,1,\nj1,4,a,u,0,0,0,1,1,1,5,1,\n"
        );
        let e = parse_csv_trace(&text, Path::new("t.csv"))
            .unwrap_err()
            .to_string();
        // j2 starts again at line 5, before j1 does at line 6.
        assert_eq!(
            e,
            "t.csv:5: column 1 (app): app `j2` already ended (its rows start at line 3): the rows \
             of one app are consecutive, and two apps need two names"
        );
        // The writer gives every repeat its own name, so its traces read back.
        let apps = parse_csv_trace(
            &format!("{HEADER}j1,0,a,u,0,0,0,1,1,1,5,1,\nj2,1,a,u,0,0,0,1,1,1,5,1,\n"),
            Path::new("t.csv"),
        )
        .unwrap();
        let mut three = apps.clone();
        three.push(AppSpec {
            arrival: SimTime(2),
            ..apps[0].clone()
        });
        let back = parse_csv_trace(&write_csv_trace(&three), Path::new("t.csv")).unwrap();
        let names: Vec<&str> = back.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["j1", "j2", "j1~2"]);
    }

    #[test]
    fn time_going_backwards_is_an_error() {
        let text = format!("{HEADER}j1,10,a,u,0,0,0,1,1,1,5,1,\nj2,5,a,u,0,0,0,1,1,1,5,1,\n");
        let e = parse_csv_trace(&text, Path::new("t.csv"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("t.csv:3: column 2 (arrival_ms): time goes backwards"),
            "{e}"
        );
    }
}
