//! Charts of sweeps and runs, each written as PNG and SVG, ready for a report: a title
//! saying what varies and over how many seeds, axes in words with units, round ticks, the
//! legend beside the plot, missing values drawn unlike zeros.
//!
//! Chart data are plain structs (`heatmap::Heatmap`, `lines::LineChart`, `usage::UsageChart`,
//! `timeseries::TimeSeries`, `cdf::Cdf`) built from tables, then drawn by one generic
//! [`Chart::draw`] onto either backend. `frame` (title, legend panel), `axes` and `ticks`
//! are shared by every chart; `labels` names metrics and parameters. Text uses the DejaVu
//! font compiled into the binary, registered once per process, so no system fonts are needed.

pub mod axes;
pub mod captions;
pub mod cdf;
pub mod frame;
pub mod heatmap;
pub mod labels;
pub mod lines;
pub mod names;
pub mod overlap;
pub mod run;
pub mod ticks;
pub mod timeseries;
pub mod usage;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Once, OnceLock};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::results::write_atomic;

/// Width of every chart, pixels.
pub const WIDTH: u32 = 1024;
/// Height of every chart, pixels.
pub const HEIGHT: u32 = 720;
/// The font family charts use (registered by [`register_fonts`]).
pub const FONT: &str = "sans-serif";

/// Errors while drawing charts.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The data cannot be charted as asked (unknown metric, unreadable CSV).
    #[error("{0}")]
    Input(String),
    /// The drawing backend failed.
    #[error("drawing {}: {message}", path.display())]
    Draw {
        /// The chart file.
        path: PathBuf,
        /// The backend's message.
        message: String,
    },
    /// Writing a chart file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The chart file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
}

/// A drawing failure without its file; [`save`] adds the file.
#[derive(Debug)]
pub struct DrawError(pub String);

impl From<std::io::Error> for DrawError {
    fn from(e: std::io::Error) -> DrawError {
        DrawError(e.to_string())
    }
}

/// Converts any backend error into a [`DrawError`].
pub(crate) fn de<E: std::fmt::Display>(e: E) -> DrawError {
    DrawError(e.to_string())
}

/// Something that draws itself onto any plotters backend.
pub trait Chart {
    /// The chart's title.
    fn title(&self) -> &str;
    /// Draws the whole chart onto `root` (already filled white).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>;
    /// `(text as drawn, full text)` of every shortened name: the SVG shows the full one on hover.
    fn tooltips(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// Whether XML 1.0 forbids `c` even as a character reference: control characters other
/// than tab, newline and carriage return, which a queue or user name read from a trace or
/// a scenario may hold.
fn not_xml(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `svg` with every character XML forbids replaced by U+FFFD: the renderer refuses the
/// whole chart over one, and the SVG would not load in a browser either.
fn xml_chars(svg: String) -> String {
    if !svg.chars().any(not_xml) {
        return svg;
    }
    svg.chars()
        .map(|c| if not_xml(c) { '\u{fffd}' } else { c })
        .collect()
}

/// `text` escaped as plotters writes SVG text.
fn xml_escape(text: &str) -> String {
    xml_chars(text.to_string())
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('\'', "&apos;")
        .replace('"', "&quot;")
}

/// `svg` with a `<title>` (a tooltip) in every text element that shows a shortened name,
/// or the first line of one that was wrapped.
pub fn with_tooltips(svg: &str, tooltips: &[(String, String)]) -> String {
    if tooltips.is_empty() {
        return svg.to_string();
    }
    let escaped: Vec<(String, String)> = tooltips
        .iter()
        .map(|(shown, full)| (xml_escape(shown), xml_escape(full)))
        .collect();
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find(">\n") {
        out += &rest[..i];
        rest = &rest[i..];
        let Some(end) = rest.find("\n</text>") else {
            break;
        };
        let content = &rest[2..end];
        let full = escaped
            .iter()
            .find(|(shown, _)| shown == content)
            .or_else(|| {
                let mut starts = escaped
                    .iter()
                    .filter(|(shown, _)| content.starts_with('…') && shown.starts_with(content));
                let first = starts.next();
                first.filter(|_| starts.next().is_none())
            });
        match full {
            Some((_, full)) if !content.is_empty() => {
                out += &format!("><title>{full}</title>\n{content}\n</text>");
                rest = &rest[end + "\n</text>".len()..];
            }
            _ => {
                out += ">\n";
                rest = &rest[2..];
            }
        }
    }
    out + rest
}

/// Registers the DejaVu fonts under [`FONT`]; runs once per process.
pub fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("the bundled DejaVu Sans font is valid"));
        plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold())
            .unwrap_or_else(|_| panic!("the bundled DejaVu Sans Bold font is valid"));
    });
}

/// The PNG's pixels per SVG pixel, as `f32` bits (1.0: [`WIDTH`] x [`HEIGHT`]).
static PNG_SCALE: AtomicU32 = AtomicU32::new(0x3f80_0000);

/// Sets the resolution of every PNG drawn from now on: `dpi` / 96 pixels per SVG pixel.
pub fn set_png_dpi(dpi: u32) {
    PNG_SCALE.store((dpi as f32 / 96.0).to_bits(), Ordering::Relaxed);
}

fn png_scale() -> f32 {
    f32::from_bits(PNG_SCALE.load(Ordering::Relaxed))
}

/// The fonts the PNG renderer knows: the DejaVu faces compiled in, as `sans-serif`.
fn font_db() -> Arc<resvg::usvg::fontdb::Database> {
    static DB: OnceLock<Arc<resvg::usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = resvg::usvg::fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

/// How wide `text` is drawn in bold at plotters font size `size`, pixels, as the SVG and the
/// PNG render it: plotters measures every style with the regular face's widths, and bold
/// DejaVu Sans runs 4 to 7% past that (a title measured to fit the canvas was cut at both
/// edges). Laid out by the renderer that draws the PNG, so the two agree.
pub fn bold_text_width(text: &str, size: f64) -> f64 {
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"8000\" height=\"200\">\
         <text x=\"0\" y=\"100\" font-family=\"{FONT}\" font-size=\"{}\" \
         font-weight=\"bold\">{}</text></svg>",
        size / SVG_FONT_SCALE,
        xml_escape(text)
    );
    let options = resvg::usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: font_db(),
        ..resvg::usvg::Options::default()
    };
    resvg::usvg::Tree::from_str(&svg, &options)
        .map(|tree| f64::from(tree.root().abs_bounding_box().width()))
        .unwrap_or(0.0)
}

/// plotters writes a font size of `s` into the SVG as `s / 1.24`.
const SVG_FONT_SCALE: f64 = 1.24;

/// Renders `svg` (a chart drawn here) to PNG bytes at `scale` pixels per SVG pixel: the PNG
/// is the SVG, text and all, drawn by one renderer.
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, DrawError> {
    let options = resvg::usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: font_db(),
        ..resvg::usvg::Options::default()
    };
    let tree = resvg::usvg::Tree::from_str(svg, &options).map_err(de)?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| DrawError(format!("cannot scale the chart by {scale}")))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| DrawError(format!("a {}x{} image", size.width(), size.height())))?;
    pixmap.fill(resvg::tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(de)
}

/// Draws `chart` to `STEM.svg`, and renders that to `STEM.png` (see [`svg_to_png`] and
/// [`set_png_dpi`]), each written atomically; returns both paths.
pub fn save<C: Chart>(chart: &C, stem: &Path) -> Result<[PathBuf; 2], PlotError> {
    register_fonts();
    let png = stem.with_extension("png");
    let svg = stem.with_extension("svg");
    fn draw_err(path: &Path) -> impl FnOnce(DrawError) -> PlotError + '_ {
        move |e| PlotError::Draw {
            path: path.to_path_buf(),
            message: e.0,
        }
    }
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(de).map_err(draw_err(&svg))?;
        chart.draw(&root).map_err(draw_err(&svg))?;
        root.present().map_err(de).map_err(draw_err(&svg))?;
    }
    let text = with_tooltips(&xml_chars(text), &chart.tooltips());
    let bytes = svg_to_png(&text, png_scale()).map_err(draw_err(&png))?;
    write_atomic(&png, &bytes).map_err(|source| PlotError::Io {
        path: png.clone(),
        source,
    })?;
    write_atomic(&svg, text.as_bytes()).map_err(|source| PlotError::Io {
        path: svg.clone(),
        source,
    })?;
    Ok([png, svg])
}

/// The palette of series, grey left out: grey is the pooled "other queues".
const COLORS: [RGBColor; 9] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of the series that pools the queues not drawn one by one.
pub const OTHERS_GREY: RGBColor = RGBColor(120, 120, 120);

/// The most series a chart draws one by one; beyond, the rest are pooled.
pub const MAX_SERIES: usize = 10;

/// The colour of series `i`.
pub(crate) fn series_color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// How series `i` is drawn: its colour, and past the palette a dash, then dots, so that no
/// two series of a chart look alike.
pub(crate) fn series_mark(i: usize) -> frame::Mark {
    match (i / COLORS.len()) % 3 {
        0 => frame::Mark::Line,
        1 => frame::Mark::Dashed,
        _ => frame::Mark::Dotted,
    }
}

/// Draws `points` as series `i` (see [`series_mark`]) onto `chart`.
pub(crate) fn draw_series_line<DB: DrawingBackend>(
    chart: &mut axes::Chart2d<'_, DB>,
    points: Vec<(f64, f64)>,
    color: RGBColor,
    mark: frame::Mark,
) -> Result<(), DrawError> {
    let style = color.stroke_width(2);
    match mark {
        frame::Mark::Dashed => chart
            .draw_series(DashedLineSeries::new(points, 9, 6, style))
            .map(|_| ()),
        frame::Mark::Dotted => chart
            .draw_series(DashedLineSeries::new(points, 2, 5, style))
            .map(|_| ()),
        _ => chart
            .draw_series(LineSeries::new(points, style))
            .map(|_| ()),
    }
    .map_err(de)
}

/// `(lo, hi)` padded by 5%, or widened around a single value, so data never sits on the frame.
pub(crate) fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        let d = if lo.abs() > 1e-12 {
            lo.abs() * 0.1
        } else {
            1.0
        };
        return (lo - d, hi + d);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// "10 seeds", or "4 to 10 seeds" when points ran different numbers of seeds.
pub fn seeds_phrase(counts: &[usize]) -> String {
    let lo = counts.iter().copied().min().unwrap_or(0);
    let hi = counts.iter().copied().max().unwrap_or(0);
    let noun = |n: usize| if n == 1 { "seed" } else { "seeds" };
    if lo == hi {
        format!("{lo} {}", noun(lo))
    } else {
        format!("{lo} to {hi} seeds")
    }
}

/// A metric name made safe for a file name.
pub fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
