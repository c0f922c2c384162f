//! report.html of a run, a sweep, a comparison and a plan, opened in a real headless Chromium: no
//! console errors, nothing fetched from anywhere, every chart drawn, and a screenshot that is
//! not blank. Without Chromium the test says it skipped, except under CI=true, where it fails
//! (`.ci/run` installs Debian's `chromium`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::fixture::scenarios;
use common::svg::check_svg_text;

fn fairsim(args: &[&std::ffi::OsStr]) {
    common::fixture::fairsim_ok(args);
}

/// The Chromium binary, or `None` (and a note) when the machine has none.
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|d| d.join(name))
                    .find(|p| p.is_file())
            })
        });
    if found.is_none() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI=true and no Chromium on PATH: install Debian's `chromium` (.ci/run does)"
        );
        eprintln!("skipped: no Chromium on PATH (install Debian's `chromium` to run this test)");
    }
    found
}

/// Flags for a headless Chromium that cannot reach any host, so a page that tried to fetch
/// something would fail visibly.
fn headless(browser: &Path, profile: &Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--virtual-time-budget=5000",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// Put first into a copy of the page's head: records every error and console error.
const PROBE_HEAD: &str = r#"<script>
window.__errors = [];
window.addEventListener('error', e => window.__errors.push(String(e.message)));
const origError = console.error;
console.error = (...a) => { window.__errors.push(a.join(' ')); origError(...a); };
</script>"#;

/// Appended to the copy's body: once loaded, what Chromium drew and fetched.
const PROBE: &str = r#"<script>
window.addEventListener('load', () => {
  const figs = [...document.querySelectorAll('figure.chart')];
  const drawn = figs.filter(f => {
    const s = f.querySelector('svg');
    if (!s) return false;
    const r = s.getBoundingClientRect();
    return r.width > 300 && r.height > 200 && s.querySelectorAll('text').length > 3
      && s.querySelectorAll('polyline, path, rect, polygon').length > 3;
  }).length;
  const fetched = performance.getEntriesByType('resource').length;
  document.body.setAttribute('data-probe',
    JSON.stringify({charts: figs.length, drawn, fetched, errors: window.__errors}));
});
</script>"#;

/// Opens `report` in Chromium and checks it as a reader would see it.
fn check_in_chromium(browser: &Path, report: &Path, min_charts: usize) {
    let html = std::fs::read_to_string(report).unwrap();
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "{}: a link out",
        report.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let probed = dir.path().join("probed.html");
    std::fs::write(
        &probed,
        html.replacen("<head>", &format!("<head>\n{PROBE_HEAD}"), 1)
            .replace("</body>", &format!("{PROBE}\n</body>")),
    )
    .unwrap();
    let dom = headless(browser, &dir.path().join("profile"))
        .arg("--dump-dom")
        .arg(format!("file://{}", probed.display()))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&dom.stdout);
    let stderr = String::from_utf8_lossy(&dom.stderr);
    assert!(dom.status.success(), "chromium failed: {stderr}");
    let start = stdout.find("data-probe=\"").unwrap_or_else(|| {
        panic!(
            "{}: the probe did not run; stderr: {stderr}",
            report.display()
        )
    }) + "data-probe=\"".len();
    let end = stdout[start..].find('"').unwrap() + start;
    let probe: serde_json::Value =
        serde_json::from_str(&stdout[start..end].replace("&quot;", "\"")).unwrap();
    let name = report.display();
    assert_eq!(
        probe["errors"],
        serde_json::json!([]),
        "{name}: console errors"
    );
    assert_eq!(probe["fetched"], 0, "{name}: the page fetched something");
    let charts = probe["charts"].as_u64().unwrap() as usize;
    assert!(
        charts >= min_charts,
        "{name}: {charts} charts, expected {min_charts}"
    );
    assert_eq!(
        probe["drawn"], probe["charts"],
        "{name}: a chart was not drawn"
    );
    // The screenshot of the page itself, as a reader sees it, is not blank.
    let shot = dir.path().join("shot.png");
    let run = headless(browser, &dir.path().join("profile2"))
        .arg("--window-size=1280,2400")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", report.display()))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let (inked, colours) = ink(&shot);
    assert!(
        inked > 0.03,
        "{name}: the screenshot is nearly blank ({inked})"
    );
    assert!(colours > 20, "{name}: the screenshot has {colours} colours");
}

/// Share of pixels that are not white, and the number of distinct colours, of a PNG.
fn ink(png_path: &Path) -> (f64, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).unwrap(),
    ));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let mut colours = std::collections::BTreeSet::new();
    let mut inked = 0usize;
    let mut n = 0usize;
    for p in buf[..info.buffer_size()].chunks(channels) {
        n += 1;
        if p.iter().take(3).any(|&c| c < 245) {
            inked += 1;
        }
        colours.insert((p[0], p[1], p[2]));
    }
    (inked as f64 / n as f64, colours.len())
}

/// Checks the SVG charts inlined in a report as the chart tests check files.
fn check_inline_svgs(report: &Path) {
    let html = std::fs::read_to_string(report).unwrap();
    let mut rest = html.as_str();
    let mut n = 0;
    while let Some(i) = rest.find("<svg ") {
        let end = rest[i..].find("</svg>").unwrap() + i + "</svg>".len();
        check_svg_text(&format!("{} chart {n}", report.display()), &rest[i..end]);
        rest = &rest[end..];
        n += 1;
    }
    assert!(n > 0, "{}: no inline chart", report.display());
}

#[test]
fn reports_of_a_run_a_sweep_a_comparison_and_a_plan_open_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    fairsim(&[
        "run".as_ref(),
        scenarios().join("seed004-abc.toml").as_os_str(),
        "--out".as_ref(),
        run.as_os_str(),
    ]);
    let compare = dir.path().join("compare");
    fairsim(&[
        "compare".as_ref(),
        scenarios().join("compare/fair.toml").as_os_str(),
        scenarios().join("compare/capacity.toml").as_os_str(),
        "--out".as_ref(),
        compare.as_os_str(),
    ]);
    // A small sweep of the README's shape: two axes, three seeds.
    std::fs::write(
        dir.path().join("sweep.toml"),
        format!(
            "base = \"{}\"\nseeds = {{ count = 3 }}\nmetric = \"wait_s_p95.root.A\"\n\
             [[axis]]\npath = \"queues.A.weight\"\nvalues = [0.2, 1.0]\n\
             [[axis]]\npath = \"queues.A.min_memory_mb\"\nvalues = [0, 16384]\n",
            scenarios().join("seed004-abc.toml").display()
        ),
    )
    .unwrap();
    let sweep = dir.path().join("sweep");
    fairsim(&[
        "sweep".as_ref(),
        dir.path().join("sweep.toml").as_os_str(),
        "--jobs".as_ref(),
        "2".as_ref(),
        "--out".as_ref(),
        sweep.as_os_str(),
    ]);
    // A plan on the bundled workload: the smallest cluster for a p95 wait of at most five minutes.
    std::fs::write(
        dir.path().join("plan.toml"),
        format!(
            "base = \"{}\"\nseeds = [1, 2]\ngrowth = [1.0, 1.5]\n\
             [variable]\nkind = \"nodes\"\nfrom = 6\nto = 24\n\
             [[objective]]\nmetric = \"wait_s_p95\"\nat_most = 300\n",
            scenarios().join("sls_queues.toml").display()
        ),
    )
    .unwrap();
    let plan = dir.path().join("plan");
    fairsim(&[
        "plan".as_ref(),
        dir.path().join("plan.toml").as_os_str(),
        "--jobs".as_ref(),
        "2".as_ref(),
        "--out".as_ref(),
        plan.as_os_str(),
    ]);
    let reports = [(run, 5), (sweep, 6), (compare, 4), (plan, 1)];
    for (d, _) in &reports {
        let report = d.join("report.html");
        let html = std::fs::read_to_string(&report).unwrap();
        for part in [
            "How it was made",
            "Command",
            "<table>",
            "<figure class=\"chart\"",
        ] {
            assert!(html.contains(part), "{}: no {part}", report.display());
        }
        check_inline_svgs(&report);
    }
    let Some(browser) = chromium() else { return };
    for (d, min_charts) in &reports {
        check_in_chromium(&browser, &d.join("report.html"), *min_charts);
    }
}
