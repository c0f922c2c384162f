//! What each chart shows and how to read it, in words: the captions under the charts of every
//! report, kept here in one place and chosen by the chart's file name.

use super::labels::metric;

/// The caption of the chart saved as `name` (a file stem such as `usage`, `wait-cdf`,
/// `heatmap-wait_s_p95`, or a sweep's `run 3: usage`).
pub fn caption(name: &str) -> String {
    if let Some((run, chart)) = name.split_once(": ") {
        return format!("The sweep's charted {run}. {}", caption(chart));
    }
    let metric_of = |stem: &str| {
        let m = metric(stem);
        if m.name == stem {
            format!("the metric {stem}")
        } else {
            m.name.to_string()
        }
    };
    match name {
        "usage" => "Memory each leaf queue used (solid) over simulated time, against its instantaneous \
                    (dashed) and steady (dotted) fair share and under its demand (grey). A queue \
                    below its instantaneous fair share while its demand is higher is waiting for \
                    what it is due."
            .to_string(),
        "jain" => "Jain's fairness index over time, of each leaf queue's usage divided by its share: \
                   1 when every queue holds the same fraction of its share, down to 1/n when one of \
                   n queues holds everything."
            .to_string(),
        "utilisation" => "The fraction of the cluster's memory and vcores allocated over time, to \
                          the run's end; its average over the run is the headline's utilisation, \
                          and the time it spends below 1 is capacity left idle."
            .to_string(),
        "wait-cdf" => "For each queue, the fraction of its apps whose first container came within \
                       the time on the x axis: a curve further left waits less, and a curve ending \
                       below 1 has apps that never started."
            .to_string(),
        "completion-cdf" => "For each queue, the fraction of its apps that finished within the \
                             time on the x axis from their arrival: a curve further left finishes \
                             sooner, and a curve ending below 1 has apps that never finished."
            .to_string(),
        _ => {
            if let Some(m) = name.strip_prefix("heatmap-") {
                format!(
                    "{} at each combination of the two swept parameters, one cell per point \
                     coloured by its mean over the seeds: cells of one colour did alike.",
                    capitalised(&metric_of(m))
                )
            } else if let Some(m) = name.strip_prefix("lines-") {
                format!(
                    "{} against the swept parameter: each point the mean over the seeds, the \
                     shaded band its confidence interval over them.",
                    capitalised(&metric_of(m))
                )
            } else if let Some(m) = name.strip_prefix("compare-") {
                format!(
                    "{} per leaf queue, one bar per scenario compared; the number at a bar's end \
                     is its value (with the apps behind a percentile), and n/a marks a queue \
                     with no value.",
                    capitalised(&metric_of(m))
                )
            } else if let Some(m) = name.strip_prefix("objective-") {
                format!(
                    "{} of each candidate cluster the plan evaluated, against the bound it must \
                     meet, the plan's answers marked.",
                    capitalised(&metric_of(m))
                )
            } else {
                name.to_string()
            }
        }
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chart_a_report_shows_has_a_caption_in_words() {
        for stem in ["usage", "jain", "utilisation", "wait-cdf", "completion-cdf"] {
            let c = caption(stem);
            assert!(c.ends_with('.') && c.len() > 80, "{stem}: {c}");
            assert!(!c.contains("-cdf") && !c.starts_with(stem), "{stem}: {c}");
        }
        // Metric charts name the metric from the catalogue, not by its file stem.
        let c = caption("heatmap-wait_s_p95");
        assert!(!c.contains("wait_s_p95"), "{c}");
        assert!(c.contains("swept parameters"), "{c}");
        assert!(caption("lines-jain_index").contains("confidence interval"));
        assert!(caption("compare-wait_s_p95").contains("n/a"));
        assert!(caption("objective-wait_s_p95").contains("bound"));
        assert!(
            caption("run 3: usage").starts_with("The sweep's charted run 3. Memory each leaf"),
            "{}",
            caption("run 3: usage")
        );
    }
}
