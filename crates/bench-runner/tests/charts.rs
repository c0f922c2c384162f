//! Every chart kind drawn to PNG and SVG: the PNG has drawn pixels, the SVG holds the title,
//! every text of the SVG lies within the canvas and every number on it is a short decimal.

mod common;

use std::path::Path;

use common::svg::{check_svg_text, svg_texts};

use fairsim_bench_runner::plot::cdf::Cdf;
use fairsim_bench_runner::plot::heatmap::Heatmap;
use fairsim_bench_runner::plot::lines::LineChart;
use fairsim_bench_runner::plot::timeseries::TimeSeries;
use fairsim_bench_runner::plot::usage::UsageChart;
use fairsim_bench_runner::plot::{Chart, HEIGHT, WIDTH, save};
use fairsim_bench_runner::sweep::detail::DetailSeries;
use fairsim_bench_runner::sweep::fake::FakeRunner;
use fairsim_bench_runner::sweep::output::RunsTable;
use fairsim_bench_runner::sweep::plan::Plan;
use fairsim_bench_runner::sweep::{RunOne, Spec, exec};

/// Share of pixels that differ from the white background.
fn drawn_fraction(png: &Path) -> f64 {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (WIDTH, HEIGHT));
    let channels = info.color_type.samples();
    let pixels = buf[..info.buffer_size()].chunks(channels);
    let n = (info.width * info.height) as f64;
    pixels
        .filter(|p| p.iter().take(3).any(|&c| c < 250))
        .count() as f64
        / n
}

/// Draws `chart` as PNG and SVG under `dir/stem` and checks both.
fn check<C: Chart>(dir: &Path, stem: &str, chart: &C) {
    let [png, svg] = save(chart, &dir.join(stem)).unwrap();
    let drawn = drawn_fraction(&png);
    assert!(drawn > 0.02, "{stem}.png is almost blank: {drawn}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let title = chart
        .title()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\'', "&apos;");
    assert!(
        text.contains(&title),
        "{stem}.svg lacks its title {title:?}"
    );
    check_svg_text(stem, &text);
}

/// A small table from the fake runner: 3 weights x 2 minShares x 4 seeds.
fn table(dir: &Path) -> (RunsTable, FakeRunner, Spec) {
    std::fs::write(
        dir.join("scenario.toml"),
        "[queues.etl]\nweight = 1.0\nminshare = 0\n",
    )
    .unwrap();
    let sweep = "base = \"scenario.toml\"\nseeds = { count = 4 }\n[[axis]]\npath = \"queues.etl.weight\"\nvalues = [1, 2, 4]\n\
                 [[axis]]\npath = \"queues.etl.minshare\"\nvalues = [0, 2048]\n";
    std::fs::write(dir.join("sweep.toml"), sweep).unwrap();
    let spec = Spec::load(&dir.join("sweep.toml")).unwrap();
    let plan = Plan::new(&spec);
    let runner = FakeRunner::default();
    let ctx = exec::Context {
        plan: &plan,
        base: &spec.base,
        scenario_dir: dir,
        runner: &runner,
        journal: None,
        detail: None,
    };
    let pending: Vec<u64> = (0..plan.n_runs()).collect();
    let records = exec::execute(&ctx, &pending, Some(2), 0).unwrap();
    (exec::table(&plan, &records).unwrap(), runner, spec)
}

#[test]
fn each_chart_kind_draws_to_png_and_svg() {
    let dir = tempfile::tempdir().unwrap();
    let (table, runner, spec) = table(dir.path());
    check(
        dir.path(),
        "heatmap",
        &Heatmap::from_table(&table, "jain", "queues.etl.weight", "queues.etl.minshare").unwrap(),
    );
    check(
        dir.path(),
        "lines",
        &LineChart::from_table(&table, "wait_p95_s", "queues.etl.weight").unwrap(),
    );
    let run_dir = dir.path().join("run-0");
    runner
        .run_detailed(&spec.base, dir.path(), 1, 0, &run_dir)
        .unwrap();
    let run = DetailSeries::read(&run_dir).unwrap().charts(None);
    let which = "run 0";
    check(
        dir.path(),
        "usage",
        &UsageChart::new(run.panels.clone(), which),
    );
    check(
        dir.path(),
        "jain",
        &TimeSeries::jain(run.jain.clone(), which, &run.jain_share),
    );
    check(
        dir.path(),
        "wait-cdf",
        &Cdf::wait_chart(run.waits.clone(), which, "admitted apps"),
    );
    check(
        dir.path(),
        "completion-cdf",
        &Cdf::completion_chart(run.completions.clone(), which, "admitted apps"),
    );
}

#[test]
fn the_png_is_the_svg_rendered_at_the_asked_resolution() {
    let dir = tempfile::tempdir().unwrap();
    let (table, _, _) = table(dir.path());
    let chart = LineChart::from_table(&table, "wait_p95_s", "queues.etl.weight").unwrap();
    let [png, svg] = save(&chart, &dir.path().join("lines")).unwrap();
    let svg = std::fs::read_to_string(svg).unwrap();
    // The PNG written is the SVG rendered at 96 dpi, byte for byte.
    let again = fairsim_bench_runner::plot::svg_to_png(&svg, 1.0).unwrap();
    assert_eq!(std::fs::read(&png).unwrap(), again);
    // At 192 dpi, twice as wide and high.
    let big = dir.path().join("big.png");
    std::fs::write(
        &big,
        fairsim_bench_runner::plot::svg_to_png(&svg, 2.0).unwrap(),
    )
    .unwrap();
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&big).unwrap()));
    let info = decoder.read_info().unwrap().info().clone();
    assert_eq!((info.width, info.height), (2 * WIDTH, 2 * HEIGHT));
}

#[test]
fn plot_redraws_the_charts_from_the_csv_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    let (_, runner, spec) = table(dir.path());
    let out = dir.path().join("out");
    fairsim_bench_runner::sweep::sweep_into(&spec, &runner, &out, Some(2), None, false).unwrap();
    let charts = [
        "heatmap-jain.png",
        "heatmap-jain.svg",
        "lines-jain.svg",
        "run-0/usage.png",
        "run-0/jain.svg",
        "run-0/wait-cdf.png",
        "run-0/completion-cdf.svg",
    ];
    for c in charts {
        assert!(out.join(c).exists(), "the sweep did not draw {c}");
        std::fs::remove_file(out.join(c)).unwrap();
    }
    let status = common::fixture::command()
        .arg("plot")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    for c in charts {
        assert!(out.join(c).exists(), "plot did not redraw {c}");
        if c.ends_with(".svg") {
            check_svg_text(c, &std::fs::read_to_string(out.join(c)).unwrap());
        }
    }
}

#[test]
fn missing_values_are_drawn_unlike_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let (mut table, _, _) = table(dir.path());
    // No runs at weight 4 with minShare 2048; zero everywhere else.
    table
        .rows
        .retain(|r| !(r.axis_values[0].starts_with('4') && r.axis_values[1] == "2048"));
    for r in &mut table.rows {
        r.metrics.iter_mut().for_each(|m| *m = 0.0);
    }
    let chart =
        Heatmap::from_table(&table, "jain", "queues.etl.weight", "queues.etl.minshare").unwrap();
    assert_eq!(chart.cells[1][2], None, "{:?}", chart.cells);
    assert_eq!(chart.cells[0][2], Some(0.0));
    let [_, svg] = save(&chart, &dir.path().join("holes")).unwrap();
    let svg = std::fs::read_to_string(svg).unwrap();
    check_svg_text("holes", &svg);
    assert!(
        svg.contains("hatched: no runs"),
        "the subtitle explains the hatching"
    );
    let zeros = svg_texts(&svg).iter().filter(|t| t.text == "0").count();
    assert!(zeros >= 5, "zero cells are annotated 0 ({zeros})");
}
