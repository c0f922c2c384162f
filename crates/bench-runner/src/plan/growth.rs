//! Workload growth: an arrival-rate multiplier applied to a synthetic workload.
//!
//! Growth `g` divides every stream's `mean_interarrival_ms` by `g` and multiplies its app count by `g` (rounded to
//! the nearest integer), so the same span of time sees `g` times the arrivals. Growth 1 leaves the scenario
//! untouched. Trace workloads (CSV, SLS) have no rate to scale and are refused when a factor other than 1 is given.

/// Checks that `base` has a synthetic workload whose streams growth can scale.
pub fn check_growth(base: &toml::Value) -> Result<(), String> {
    let streams = base
        .get("workload")
        .and_then(|w| w.get("synthetic"))
        .and_then(|s| s.get("queues"))
        .and_then(toml::Value::as_array);
    match streams {
        Some(s) if !s.is_empty() => Ok(()),
        _ => Err(
            "growth factors other than 1 need a synthetic workload ([[workload.synthetic.queues]]) in the base \
             scenario: a trace has no arrival rate to scale"
                .into(),
        ),
    }
}

/// Scales the arrival rate of every synthetic stream of `scenario` by `g`; nothing changes when `g` is 1.
pub fn apply_growth(scenario: &mut toml::Value, g: f64) {
    if g == 1.0 {
        return;
    }
    let Some(streams) = scenario
        .get_mut("workload")
        .and_then(|w| w.get_mut("synthetic"))
        .and_then(|s| s.get_mut("queues"))
        .and_then(toml::Value::as_array_mut)
    else {
        return;
    };
    for stream in streams.iter_mut().filter_map(toml::Value::as_table_mut) {
        if let Some(v) = stream.get_mut("mean_interarrival_ms") {
            let mean = v.as_float().or(v.as_integer().map(|i| i as f64));
            if let Some(mean) = mean {
                *v = toml::Value::Float(mean / g);
            }
        }
        if let Some(v) = stream.get_mut("apps")
            && let Some(n) = v.as_integer()
        {
            *v = toml::Value::Integer((n as f64 * g).round() as i64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_scales_rate_and_count_and_one_changes_nothing() {
        let base: toml::Value = toml::from_str(
            "[[workload.synthetic.queues]]\nqueue = \"a\"\napps = 40\nmean_interarrival_ms = 20000\n",
        )
        .unwrap();
        let mut s = base.clone();
        apply_growth(&mut s, 1.0);
        assert_eq!(s, base);
        apply_growth(&mut s, 1.25);
        let q = &s["workload"]["synthetic"]["queues"][0];
        assert_eq!(q["apps"].as_integer(), Some(50));
        assert_eq!(q["mean_interarrival_ms"].as_float(), Some(16000.0));
        assert!(check_growth(&base).is_ok());
        let trace: toml::Value = toml::from_str("[workload]\ncsv = \"t.csv\"\n").unwrap();
        assert!(check_growth(&trace).unwrap_err().contains("synthetic"));
    }
}
