//! Every chart kind drawn to PNG and SVG: the PNG has drawn pixels, the SVG holds the title,
//! every text of the SVG lies within the canvas and every number on it is a short decimal.

use std::path::Path;
use std::process::Command;

use fairsim_bench_runner::plot::cdf::Cdf;
use fairsim_bench_runner::plot::heatmap::Heatmap;
use fairsim_bench_runner::plot::lines::LineChart;
use fairsim_bench_runner::plot::timeseries::TimeSeries;
use fairsim_bench_runner::plot::usage::UsageChart;
use fairsim_bench_runner::plot::{Chart, FONT, HEIGHT, WIDTH, save};
use fairsim_bench_runner::sweep::fake::FakeRunner;
use fairsim_bench_runner::sweep::output::RunsTable;
use fairsim_bench_runner::sweep::plan::Plan;
use fairsim_bench_runner::sweep::{RunOne, Spec, exec};
use plotters::prelude::*;

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

/// One `<text>` element of an SVG written by plotters.
#[derive(Debug)]
struct SvgText {
    x: f64,
    y: f64,
    size: f64,
    anchor: String,
    /// The vertical offset of the text from `y` (plotters: `0.76em` top, `0.5ex` centre).
    dy: String,
    rotated: bool,
    bold: bool,
    text: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].to_string())
}

fn svg_texts(svg: &str) -> Vec<SvgText> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text ") {
        let tag_end = rest[i..].find('>').unwrap() + i;
        let close = rest[tag_end..].find("</text>").unwrap() + tag_end;
        let tag = &rest[i..tag_end];
        let text = rest[tag_end + 1..close]
            .trim()
            .replace("&apos;", "'")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
        out.push(SvgText {
            x: attr(tag, "x").unwrap().parse().unwrap(),
            y: attr(tag, "y").unwrap().parse().unwrap(),
            size: attr(tag, "font-size").unwrap().parse().unwrap(),
            anchor: attr(tag, "text-anchor").unwrap_or_else(|| "start".into()),
            dy: attr(tag, "dy").unwrap_or_default(),
            rotated: attr(tag, "transform").is_some(),
            bold: attr(tag, "font-weight").is_some_and(|w| w == "bold"),
            text,
        });
        rest = &rest[close..];
    }
    out
}

/// The width in pixels of `text` at SVG font size `size`, as the PNG draws it (plotters
/// writes SVG font sizes divided by 1.24).
fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    fairsim_bench_runner::plot::register_fonts();
    let mut buf = vec![0u8; 3 * 4 * 4];
    let area = BitMapBackend::with_buffer(&mut buf, (4, 4)).into_drawing_area();
    let weight = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    let style = TextStyle::from((FONT, size * 1.24).into_font().style(weight));
    area.estimate_text_size(text, &style).unwrap().0 as f64
}

/// What a report reviewer checks by eye, mechanically: no text runs off the canvas and
/// every number is short, without float noise such as `0.6000000000000001`.
fn check_svg_text(name: &str, svg: &str) {
    let texts = svg_texts(svg);
    assert!(!texts.is_empty(), "{name}: no text at all");
    for t in texts {
        let len = text_width(&t.text, t.size, t.bold);
        let (lo, hi) = match t.anchor.as_str() {
            "middle" => (-len / 2.0, len / 2.0),
            "end" => (-len, 0.0),
            _ => (0.0, len),
        };
        // Across the text: from its anchor line, by plotters' vertical placement.
        let (a, b) = match t.dy.as_str() {
            "0.76em" => (0.0, t.size),
            "0.5ex" => (-t.size / 2.0, t.size / 2.0),
            _ => (-t.size, 0.3 * t.size),
        };
        let (x0, x1, y0, y1) = if t.rotated {
            (t.x + a, t.x + b, t.y - hi, t.y - lo)
        } else {
            (t.x + lo, t.x + hi, t.y + a, t.y + b)
        };
        assert!(
            x0 >= 0.0 && x1 <= WIDTH as f64 && y0 >= 0.0 && y1 <= HEIGHT as f64,
            "{name}: text {:?} runs off the canvas ({x0:.0}..{x1:.0}, {y0:.0}..{y1:.0})",
            t.text
        );
        let numeric = !t.text.is_empty()
            && t.text
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '-' || c == '\u{2009}');
        if numeric {
            let decimals = t.text.split_once('.').map_or(0, |(_, f)| f.len());
            assert!(
                decimals <= 4 && t.text.chars().count() <= 9,
                "{name}: the number {:?} is not a short decimal",
                t.text
            );
        }
    }
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
    let detail = runner
        .run_detailed(&spec.base, dir.path(), 1, 0)
        .unwrap()
        .detail
        .unwrap();
    check(dir.path(), "usage", &UsageChart::from_detail(&detail, 0));
    check(dir.path(), "jain", &TimeSeries::jain_over_time(&detail, 0));
    check(dir.path(), "wait-cdf", &Cdf::waits(&detail, 0));
    check(dir.path(), "completion-cdf", &Cdf::completions(&detail, 0));
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
    let status = Command::new(env!("CARGO_BIN_EXE_fairsim"))
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
