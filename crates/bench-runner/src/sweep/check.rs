//! Whole-sweep validation before the first run: every axis value on its own, then every
//! crossed point, is handed to the runner's [`RunOne::check_point`] with the metrics the sweep
//! file names, so an invalid point or an unknown metric fails with the sweep file's line and
//! key before any run and before any file is written.

use std::path::Path;

use super::spec::{NamedMetric, Spec, SpecError};
use super::{PointError, RunOne};

fn invalid(spec: &Spec, line: usize, key: &str, message: String) -> SpecError {
    SpecError::Invalid {
        file: spec.file.display().to_string(),
        line: Some(line),
        key: Some(key.to_string()),
        message,
    }
}

fn metric_error(spec: &Spec, m: &NamedMetric, message: &str) -> SpecError {
    invalid(
        spec,
        m.line,
        m.key,
        format!("metric `{}`: {message}", m.name),
    )
}

/// Checks every axis value alone (so an error points at the value's line), then every crossed
/// axis point with the named metrics.
pub fn check_points(spec: &Spec, runner: &dyn RunOne) -> Result<(), SpecError> {
    let dir = spec.base_path.parent().unwrap_or(Path::new(""));
    for axis in &spec.axes {
        for (value, &line) in axis.values.iter().zip(&axis.lines) {
            let mut scenario = spec.base.clone();
            axis.param.set(&mut scenario, value.clone());
            if let Err(PointError::Scenario(m)) = runner.check_point(&scenario, dir, &[]) {
                let v = super::param_path::value_cell(value);
                return Err(invalid(
                    spec,
                    line,
                    &axis.path,
                    format!("value {v} makes the scenario invalid: {m}"),
                ));
            }
        }
    }
    let names: Vec<&str> = spec.metrics.iter().map(|m| m.name.as_str()).collect();
    let n_points: usize = spec.axes.iter().map(|a| a.values.len()).product();
    for point in 0..n_points {
        let mut scenario = spec.base.clone();
        let mut rest = point;
        let mut described = Vec::with_capacity(spec.axes.len());
        for axis in spec.axes.iter().rev() {
            let value = &axis.values[rest % axis.values.len()];
            rest /= axis.values.len();
            axis.param.set(&mut scenario, value.clone());
            described.push(format!(
                "{}={}",
                axis.path,
                super::param_path::value_cell(value)
            ));
        }
        described.reverse();
        match runner.check_point(&scenario, dir, &names) {
            Ok(()) => {}
            Err(PointError::Metric { index, message }) => {
                return Err(metric_error(spec, &spec.metrics[index], &message));
            }
            Err(PointError::Scenario(m)) => {
                let key = spec.axes.first().map_or("base", |a| a.path.as_str());
                let at = if described.is_empty() {
                    "the base scenario".to_string()
                } else {
                    format!("the point {}", described.join(", "))
                };
                return Err(invalid(
                    spec,
                    spec.first_axis_line,
                    key,
                    format!("{at} is invalid: {m}"),
                ));
            }
        }
    }
    Ok(())
}
