//! `fairsim shares` and `fairsim rank` end to end: Hadoop's own answers through the binary,
//! exit codes, and error messages.

mod common;

use serde_json::{Value, json};

use common::fixture::fairsim_with_stdin as fairsim;

fn conformance(file: &str) -> Vec<Value> {
    let path = format!(
        "{}/../core/tests/data/conformance/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn res(v: &Value) -> Value {
    json!({"memory_mb": v["memory"], "vcores": v["vcores"]})
}

#[test]
fn shares_agree_with_hadoop_through_the_binary() {
    for (file, semantics) in [
        ("computeshares-v2.sample.jsonl", "hadoop-2.7"),
        ("computeshares-v3.sample.jsonl", "hadoop-3.3"),
    ] {
        let mut input = String::new();
        let mut expected = Vec::new();
        for case in &conformance(file) {
            for (kind, fair_key, drf_key) in [
                ("instantaneous", "instantaneous_memory", "instantaneous"),
                ("steady", "steady_memory", "steady"),
            ] {
                for policy in ["fair", "drf"] {
                    let schedulables: Vec<Value> = case["schedulables"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|s| {
                            json!({"name": s["name"], "weight": s["weight"], "min_share": res(&s["min_share"]),
                                   "max_share": res(&s["max_share"]), "demand": res(&s["demand"]), "active": s["active"]})
                        })
                        .collect();
                    let snap = json!({"semantics": semantics, "policy": policy, "kind": kind,
                                      "cluster": res(&case["cluster"]), "schedulables": schedulables});
                    input.push_str(&format!("{snap}\n"));
                    let want: Vec<(i64, Option<i64>)> = if policy == "fair" {
                        case["expected"]["fair"][fair_key]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| (v.as_i64().unwrap(), None))
                            .collect()
                    } else {
                        case["expected"]["drf"][drf_key]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| {
                                (
                                    v["memory"].as_i64().unwrap(),
                                    Some(v["vcores"].as_i64().unwrap()),
                                )
                            })
                            .collect()
                    };
                    expected.push((format!("{} {policy} {kind}", case["id"]), want));
                }
            }
        }
        let out = fairsim(&["shares", "--format", "jsonl", "-"], &input);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), expected.len());
        for (line, (label, want)) in lines.iter().zip(&expected) {
            let got: Vec<(i64, Option<i64>)> = line["shares"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    assert_eq!(s["index"], i);
                    let m = s["memory_mb"].as_i64().unwrap();
                    (m, want[i].1.map(|_| s["vcores"].as_i64().unwrap()))
                })
                .collect();
            assert_eq!(&got, want, "{label}");
        }
    }
}

#[test]
fn rank_agrees_with_hadoop_through_the_binary() {
    for (file, semantics, drf_key) in [
        ("comparator-v2.sample.jsonl", "hadoop-2.7", "drf"),
        ("comparator-v3.sample.jsonl", "hadoop-3.3", "drf_yarn11482"),
    ] {
        let mut input = String::new();
        let mut expected = Vec::new();
        for case in conformance(file) {
            for (policy, key) in [("fair", "fair"), ("drf", drf_key)] {
                let schedulables: Vec<Value> = case["schedulables"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        json!({"name": s["name"], "weight": s["weight"], "start_time_ms": s["start_time"],
                               "min_share": res(&s["min_share"]), "demand": res(&s["demand"]), "usage": res(&s["usage"])})
                    })
                    .collect();
                let snap = json!({"semantics": semantics, "policy": policy, "cluster": res(&case["cluster"]),
                                  "schedulables": schedulables});
                input.push_str(&format!("{snap}\n"));
                let order: Vec<u64> = case["expected"][key]["order"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap())
                    .collect();
                expected.push((format!("{} {policy}", case["id"]), order));
            }
        }
        let out = fairsim(&["rank", "--format", "jsonl", "-"], &input);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), expected.len());
        for (line, (label, want)) in text.lines().zip(&expected) {
            let v: Value = serde_json::from_str(line).unwrap();
            let got: Vec<u64> = v["order"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["index"].as_u64().unwrap())
                .collect();
            assert_eq!(&got, want, "{label}");
            assert!(
                v["order"][0]["reason"]
                    .as_str()
                    .is_some_and(|r| !r.is_empty())
            );
        }
    }
}

#[test]
fn bad_input_exits_2_and_names_line_and_field() {
    let good = r#"{"policy": "fair", "cluster": {"memory_mb": 100, "vcores": 1}, "schedulables": [{"name": "a"}]}"#;
    let cases = [
        (format!("{good}\n{{\"policy\": \"fair\"\n"), "<stdin>:2:"),
        (
            format!("{good}\n\n{}", good.replace("\"fair\"", "\"lottery\"")),
            "<stdin>:3: policy: unknown policy `lottery`",
        ),
        (
            good.replace(r#"{"name": "a"}"#, r#"{"weight": 1}"#),
            "<stdin>:1: schedulables[0]: missing field `name`",
        ),
        (
            good.replace(r#""a""#, r#""a", "weight": -1"#),
            "<stdin>:1: schedulables[0].weight: must be a finite number >= 0",
        ),
        (
            good.replace(r#""policy""#, r#""semantics": "hadoop-4", "policy""#),
            "<stdin>:1: semantics: unknown semantics",
        ),
        (
            good.replace(r#""vcores": 1}"#, r#""vcores": "one"}"#),
            "<stdin>:1: cluster.vcores: invalid type",
        ),
    ];
    for (input, want) in cases {
        let out = fairsim(&["shares", "--format", "jsonl", "-"], &input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{err:?} should contain {want:?}");
        assert!(out.stdout.is_empty(), "no half-written answer");
    }
    let out = fairsim(&["rank", "does-not-exist.json"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = fairsim(&["shares", "--format", "xml", "-"], "");
    assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
}

#[test]
fn bundled_snapshot_runs() {
    let path = format!(
        "{}/../../scenarios/snapshot-seed004.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = fairsim(&["shares", &path], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("root.B") && text.contains("50.00%"), "{text}");
    let out = fairsim(&["rank", "--format", "json", &path], "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // root.A is below its min share: served first.
    assert_eq!(v["order"][0]["name"], "root.A");
}

#[test]
fn a_checked_field_is_named_on_its_own_line() {
    let text = "{\n  \"policy\": \"fair\",\n  \"cluster\": {\"memory_mb\": 100, \"vcores\": 1},\n  \"schedulables\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\",\n     \"weight\": -1}\n  ]\n}\n";
    let out = fairsim(&["rank", "-"], text);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "fairsim: <stdin>:7: schedulables[1].weight: must be a finite number >= 0, got -1"
    );
}

#[test]
fn more_schedulables_than_the_limit_are_refused_before_any_answer() {
    let one = r#"{"name": "q", "demand": {"memory_mb": 1024, "vcores": 1}}"#;
    let mut text = String::from(
        "{\"policy\": \"fair\", \"cluster\": {\"memory_mb\": 100, \"vcores\": 1}, \"schedulables\": [\n",
    );
    for i in 0..100_001 {
        if i > 0 {
            text.push_str(",\n");
        }
        text.push_str(one);
    }
    text.push_str("\n]}\n");
    let out = fairsim(&["rank", "--format", "json", "-"], &text);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "fairsim: <stdin>:100002: schedulables[100000]: schedulable number 100001 is out of range: the limit is 0 to 100000"
    );
}

#[test]
fn standard_input_that_is_not_utf8_is_bad_input() {
    // A snapshot cut mid-way through a multi-byte character, on line 2 of a JSON-lines input:
    // bad input (exit 2) naming the line, as the same bytes in a file are, not an I/O failure.
    let good = br#"{"policy": "fair", "cluster": {"memory_mb": 100, "vcores": 1}, "schedulables": [{"name": "a"}]}"#;
    let mut input = good.to_vec();
    input.extend_from_slice(b"\n{\"policy\": \"fair\", \"name\": \"\xe2\x82\"}\n");
    for args in [
        ["rank", "--format", "jsonl", "-"],
        ["shares", "--format", "jsonl", "-"],
    ] {
        let out = fairsim(&args, &input);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr).trim_end(),
            "fairsim: <stdin>: line 2 is not valid UTF-8"
        );
        assert!(out.stdout.is_empty());
    }
}
