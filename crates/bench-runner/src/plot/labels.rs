//! What charts call metrics (from the metric catalogue, `fairsim_sim::catalogue`) and sweep
//! parameters: a human name, its unit and, for metrics, the range a value (and so an
//! interval band) can take.

/// How a chart speaks of one metric.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricText {
    /// Human name, e.g. `p95 wait of root.A`.
    pub name: String,
    /// Unit, e.g. `s`; empty for a plain number.
    pub unit: String,
    /// Lowest possible value.
    pub min: Option<f64>,
    /// Highest possible value.
    pub max: Option<f64>,
}

impl MetricText {
    /// `name (unit)`, or the name alone without a unit.
    pub fn axis(&self) -> String {
        with_unit(&self.name, &self.unit)
    }

    /// `v` clamped into the metric's range.
    pub fn clamp(&self, v: f64) -> f64 {
        let v = self.min.map_or(v, |lo| v.max(lo));
        self.max.map_or(v, |hi| v.min(hi))
    }
}

fn with_unit(name: &str, unit: &str) -> String {
    if unit.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({unit})")
    }
}

/// How charts speak of metric `name` (`wait_s_p95.root.A`, `jain_index`, ...), from the
/// metric catalogue. A name the catalogue does not hold keeps itself as its name and a unit
/// read from its suffix.
pub fn metric(name: &str) -> MetricText {
    use fairsim_sim::catalogue::{METRICS, lookup};
    // A per-queue metric named without its queue (a comparison chart's metric) is still known.
    let found = lookup(name).map(|r| (r.metric, r.title())).or_else(|| {
        METRICS
            .iter()
            .find(|m| m.name == name)
            .map(|m| (m, m.title.to_string()))
    });
    match found {
        Some((m, title)) => MetricText {
            name: title,
            unit: if m.unit.on_axis() {
                m.unit.symbol().to_string()
            } else {
                String::new()
            },
            min: m.min.is_finite().then_some(m.min),
            max: m.max.is_finite().then_some(m.max),
        },
        None => MetricText {
            name: name.to_string(),
            unit: unit_from_suffix(name).to_string(),
            min: None,
            max: None,
        },
    }
}

fn unit_from_suffix(name: &str) -> &'static str {
    if name.ends_with("_ms") {
        "ms"
    } else if name.ends_with("_s") {
        "s"
    } else if name.ends_with("_mb") {
        "MB"
    } else if name.ends_with("_vcores") {
        "vcores"
    } else {
        ""
    }
}

/// A sweep parameter's axis description with its unit: `queues.A.weight` is `weight of
/// queue A`, `queues.A.min_memory_mb` is `minShare memory of queue A (MB)`.
pub fn param(path: &str) -> String {
    let (name, unit) = param_parts(path);
    with_unit(&name, unit)
}

/// A parameter's short name for legends and titles (`A's weight`).
pub fn param_short(path: &str) -> String {
    match queue_key(path) {
        Some((queue, key)) => format!("{queue}'s {}", queue_setting(key).0),
        None => param_parts(path).0,
    }
}

/// A parameter at one value, for legends: `A's minShare memory = 8192 MB`.
pub fn param_value(path: &str, value: &str) -> String {
    let unit = param_parts(path).1;
    let value = value.trim_matches('"');
    if unit.is_empty() {
        format!("{} = {value}", param_short(path))
    } else {
        format!("{} = {value} {unit}", param_short(path))
    }
}

/// A parameter's value with its unit (`8192 MB`), for a legend headed by the parameter.
pub fn value_with_unit(path: &str, value: &str) -> String {
    let unit = param_parts(path).1;
    let value = value.trim_matches('"');
    if unit.is_empty() {
        value.to_string()
    } else {
        format!("{value} {unit}")
    }
}

/// `(queue, key)` of a `queues.<queue>.<key>` path (the queue may be quoted).
pub fn queue_key(path: &str) -> Option<(String, &str)> {
    let rest = path.strip_prefix("queues.")?;
    let (queue, key) = rest.rsplit_once('.')?;
    Some((queue.trim_matches('"').to_string(), key))
}

/// A queue setting's YARN name and unit.
fn queue_setting(key: &str) -> (&str, &'static str) {
    match key {
        "weight" => ("weight", ""),
        "min_memory_mb" => ("minShare memory", "MB"),
        "min_vcores" => ("minShare vcores", "vcores"),
        "max_memory_mb" => ("maxResources memory", "MB"),
        "max_vcores" => ("maxResources vcores", "vcores"),
        "max_running_apps" => ("maxRunningApps", "apps"),
        "max_am_share" => ("maxAMShare", "fraction"),
        "policy" => ("policy", ""),
        other => (other, unit_from_suffix(other)),
    }
}

fn param_parts(path: &str) -> (String, &'static str) {
    if let Some((queue, key)) = queue_key(path) {
        let (name, unit) = queue_setting(key);
        return (format!("{name} of queue {queue}"), unit);
    }
    let key = path.rsplit('.').next().unwrap_or(path);
    let unit = match key {
        "nodes" => "nodes",
        "racks" => "racks",
        k if k.contains("factor") || k.contains("threshold") || k.contains("share") => "",
        k => unit_from_suffix(k),
    };
    (path.to_string(), unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_read_as_words_with_units_and_ranges() {
        let m = metric("wait_s_p95.root.A");
        assert_eq!(m.axis(), "Wait time, p95: root.A (s)");
        assert_eq!(m.clamp(-3.0), 0.0);
        let j = metric("jain_index");
        assert_eq!(j.axis(), "Jain's fairness index");
        assert_eq!(j.clamp(1.2), 1.0);
        assert_eq!(metric("slowdown_p50").min, Some(1.0));
        assert_eq!(metric("apps_finished").axis(), "Apps finished (count)");
        assert_eq!(
            metric("starved_min_s").axis(),
            metric("starved_min_s.root.a")
                .axis()
                .replace(": root.a", "")
        );
        assert_ne!(metric("starved_min_s").axis(), "starved_min_s (s)");
        assert_eq!(metric("custom_ms").axis(), "custom_ms (ms)");
        assert_eq!(metric("custom").axis(), "custom");
    }

    #[test]
    fn parameters_read_as_yarn_settings() {
        assert_eq!(param("queues.A.weight"), "weight of queue A");
        assert_eq!(
            param("queues.\"root.B\".min_memory_mb"),
            "minShare memory of queue root.B (MB)"
        );
        assert_eq!(param_short("queues.A.min_memory_mb"), "A's minShare memory");
        assert_eq!(
            param_value("queues.A.min_memory_mb", "8192"),
            "A's minShare memory = 8192 MB"
        );
        assert_eq!(param_value("queues.A.weight", "0.5"), "A's weight = 0.5");
        assert_eq!(param("cluster.nodes"), "cluster.nodes (nodes)");
        assert_eq!(
            param("scheduler.update_interval_ms"),
            "scheduler.update_interval_ms (ms)"
        );
    }
}
