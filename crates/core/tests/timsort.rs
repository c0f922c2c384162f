//! `stable_sort_by` takes Java's TimSort steps: its order equals `List.sort`'s on comparators
//! that are inconsistent (NaN ratios compared as Hadoop 2.7 compares them), where the order
//! depends on the algorithm. Golden data from `tests/data/timsort/TimSortGolden.java`.

use fairsim_core::stable_sort_by;
use serde_json::Value;
use std::cmp::Ordering;

fn value(v: &Value) -> f64 {
    match v.as_str() {
        Some("NaN") => f64::NAN,
        Some("inf") => f64::INFINITY,
        _ => v.as_f64().unwrap(),
    }
}

#[test]
fn orders_equal_java_list_sort() {
    let path = format!(
        "{}/tests/data/timsort/timsort.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let (mut checked, mut long_inconsistent) = (0, 0);
    for (line, case) in text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .enumerate()
    {
        let vals: Vec<f64> = case["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(value)
            .collect();
        let tie = case["tie_by_index"].as_bool().unwrap();
        let mut idx: Vec<usize> = (0..vals.len()).collect();
        stable_sort_by(&mut idx, |&a, &b| {
            let d = vals[a] - vals[b];
            let r = if d > 0.0 {
                Ordering::Greater
            } else if d < 0.0 {
                Ordering::Less
            } else {
                Ordering::Equal
            };
            if r == Ordering::Equal && tie {
                a.cmp(&b)
            } else {
                r
            }
        });
        match case.get("order") {
            Some(order) => {
                let want: Vec<usize> = order
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize)
                    .collect();
                assert_eq!(idx, want, "case on line {}", line + 1);
                checked += 1;
                if vals.len() >= 32 && vals.iter().any(|v| v.is_nan()) {
                    long_inconsistent += 1;
                }
            }
            None => {
                // Java gave up ("Comparison method violates its general contract!"): fairsim
                // finishes with every element still there.
                let mut sorted = idx.clone();
                sorted.sort_unstable();
                assert_eq!(
                    sorted,
                    (0..vals.len()).collect::<Vec<_>>(),
                    "case on line {}",
                    line + 1
                );
            }
        }
    }
    assert!(checked > 100, "{checked} orders checked");
    assert!(
        long_inconsistent > 10,
        "{long_inconsistent} long inconsistent lists checked"
    );
}
