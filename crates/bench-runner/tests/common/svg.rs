//! Checks of SVG charts that a reviewer would otherwise make by eye.

use fairsim_bench_runner::plot::{FONT, HEIGHT, WIDTH};
use plotters::prelude::*;

/// One `<text>` element of an SVG written by plotters.
#[derive(Debug)]
pub struct SvgText {
    pub x: f64,
    pub y: f64,
    pub size: f64,
    pub anchor: String,
    /// The vertical offset of the text from `y` (plotters: `0.76em` top, `0.5ex` centre).
    pub dy: String,
    pub rotated: bool,
    pub bold: bool,
    pub text: String,
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[start..].find('"')? + start;
    Some(tag[start..end].to_string())
}

/// `content` without its `<title>` children (a tooltip is not drawn).
fn strip_titles(content: &str) -> String {
    let mut out = String::new();
    let mut rest = content;
    while let Some(i) = rest.find("<title>") {
        out += &rest[..i];
        let end = rest[i..].find("</title>").expect("a closed <title>") + i + "</title>".len();
        rest = &rest[end..];
    }
    out + rest
}

pub fn svg_texts(svg: &str) -> Vec<SvgText> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find("<text ") {
        let tag_end = rest[i..].find('>').unwrap() + i;
        let close = rest[tag_end..].find("</text>").unwrap() + tag_end;
        let tag = &rest[i..tag_end];
        let text = strip_titles(&rest[tag_end + 1..close])
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
/// writes SVG font sizes divided by 1.24): plotters' measure, and for bold text the width the
/// renderer lays it out at when that is wider (plotters measures bold with regular widths).
fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let estimate = plotters_width(text, size, bold);
    if bold {
        estimate.max(fairsim_bench_runner::plot::bold_text_width(
            text,
            size * 1.24,
        ))
    } else {
        estimate
    }
}

fn plotters_width(text: &str, size: f64, bold: bool) -> f64 {
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

/// The canvas size written on the `<svg>` element.
pub fn canvas(svg: &str) -> (f64, f64) {
    let start = svg.find("<svg ").expect("an <svg> element");
    let tag = &svg[start..start + svg[start..].find('>').unwrap()];
    let num = |n| attr(tag, n).and_then(|v| v.parse().ok());
    (
        num("width").unwrap_or(WIDTH as f64),
        num("height").unwrap_or(HEIGHT as f64),
    )
}

/// A pixel box `(x0, x1, y0, y1)`.
pub type Box2 = (f64, f64, f64, f64);

/// Where the text is drawn, by plotters' anchors and the font's own widths.
pub fn text_box(t: &SvgText) -> Box2 {
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
    if t.rotated {
        (t.x + a, t.x + b, t.y - hi, t.y - lo)
    } else {
        (t.x + lo, t.x + hi, t.y + a, t.y + b)
    }
}

/// Whether two boxes share more than `slack` pixels both ways.
fn overlap(a: Box2, b: Box2, slack: f64) -> bool {
    a.0.max(b.0) + slack < a.1.min(b.1) && a.2.max(b.2) + slack < a.3.min(b.3)
}

/// One drawn shape (not text): its tag, colour, width and points.
#[derive(Debug, Clone)]
pub struct Shape {
    pub tag: String,
    pub stroke: String,
    pub fill: String,
    pub width: String,
    pub points: Vec<(f64, f64)>,
}

impl Shape {
    fn bbox(&self) -> Box2 {
        self.points.iter().fold(
            (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ),
            |b, p| (b.0.min(p.0), b.1.max(p.0), b.2.min(p.1), b.3.max(p.1)),
        )
    }
}

/// Every line, polyline, rectangle, polygon and circle of `svg`, as points.
pub fn svg_shapes(svg: &str) -> Vec<Shape> {
    let mut out = Vec::new();
    for piece in svg.split('<').skip(1) {
        let Some(tag_name) = piece.split([' ', '>', '/']).next() else {
            continue;
        };
        let tag = format!(" {}", &piece[..piece.find('>').unwrap_or(piece.len())]);
        let num = |n: &str| {
            attr(&tag, n)
                .and_then(|v| v.parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        let points = match tag_name {
            "polyline" | "polygon" => attr(&tag, "points")
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect(),
            "line" => vec![(num("x1"), num("y1")), (num("x2"), num("y2"))],
            "rect" => vec![
                (num("x"), num("y")),
                (num("x") + num("width"), num("y") + num("height")),
            ],
            "circle" => {
                let (x, y, r) = (num("cx"), num("cy"), num("r"));
                vec![(x - r, y - r), (x + r, y + r)]
            }
            _ => continue,
        };
        out.push(Shape {
            tag: tag_name.to_string(),
            stroke: attr(&tag, "stroke").unwrap_or_default(),
            fill: attr(&tag, "fill").unwrap_or_default(),
            width: attr(&tag, "stroke-width").unwrap_or_default(),
            points,
        });
    }
    out
}

/// The plotting areas of `svg`: each pair of black axis lines, the y axis and the x axis
/// meeting at its foot (how plotters draws a chart's frame).
pub fn plot_areas(shapes: &[Shape]) -> Vec<Box2> {
    let axis = |s: &&Shape| s.tag == "polyline" && s.stroke == "#000000" && s.points.len() == 2;
    let lines: Vec<&Shape> = shapes.iter().filter(axis).collect();
    let mut areas = Vec::new();
    for v in &lines {
        let (a, b) = (v.points[0], v.points[1]);
        if a.0 != b.0 || (a.1 - b.1).abs() < 20.0 {
            continue;
        }
        let (top, foot) = (a.1.min(b.1), a.1.max(b.1));
        let x_axis = lines.iter().find(|h| {
            let (c, d) = (h.points[0], h.points[1]);
            c.1 == d.1
                && (d.0 - c.0) > 20.0
                && (c.0 - a.0).abs() <= 2.0
                && (c.1 - foot).abs() <= 2.0
        });
        if let Some(h) = x_axis {
            areas.push((a.0, h.points[1].0, top, foot));
        }
    }
    areas
}

/// A legend entry: its text and the sample drawn just left of it.
#[derive(Debug)]
pub struct LegendItem {
    pub text: String,
    pub text_box: Box2,
    pub sample_box: Box2,
    /// The sample's shapes, relative to the text's anchor: equal signatures look the same.
    pub signature: String,
}

/// The legend entries of `svg`: left-anchored, vertically centred texts with a sample
/// (a line, box or marker) on the same row ending 6 to 12 pixels before them (a bar's value
/// label sits closer to its bar).
pub fn legend_items(texts: &[SvgText], shapes: &[Shape]) -> Vec<LegendItem> {
    let mut items = Vec::new();
    for t in texts {
        if t.anchor != "start" || t.dy != "0.5ex" || t.rotated {
            continue;
        }
        let sample: Vec<&Shape> = shapes
            .iter()
            .filter(|s| {
                let b = s.bbox();
                b.0 >= t.x - 48.0 && b.1 <= t.x - 2.0 && b.2 >= t.y - 12.0 && b.3 <= t.y + 12.0
            })
            .collect();
        let right = sample
            .iter()
            .map(|s| s.bbox().1)
            .fold(f64::NEG_INFINITY, f64::max);
        if sample.is_empty() || !(t.x - 12.0..=t.x - 6.0).contains(&right) {
            continue;
        }
        let mut parts: Vec<String> = sample
            .iter()
            .map(|s| {
                let pts: Vec<String> = s
                    .points
                    .iter()
                    .map(|p| format!("{},{}", p.0 - t.x, p.1 - t.y))
                    .collect();
                format!(
                    "{} {} {} {} {}",
                    s.tag,
                    s.stroke,
                    s.fill,
                    s.width,
                    pts.join(" ")
                )
            })
            .collect();
        parts.sort();
        let sample_box = sample.iter().map(|s| s.bbox()).fold(
            (
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
            ),
            |b, p| (b.0.min(p.0), b.1.max(p.1), b.2.min(p.2), b.3.max(p.3)),
        );
        items.push(LegendItem {
            text: t.text.clone(),
            text_box: text_box(t),
            sample_box,
            signature: parts.join(";"),
        });
    }
    items
}

/// What a report reviewer checks by eye, mechanically: no text runs off the canvas and
/// every number is short, without float noise such as `0.6000000000000001`.
pub fn check_svg_text(name: &str, svg: &str) {
    let texts = svg_texts(svg);
    let (w, h) = canvas(svg);
    assert!(!texts.is_empty(), "{name}: no text at all");
    for t in texts {
        let (x0, x1, y0, y1) = text_box(&t);
        assert!(
            x0 >= 0.0 && x1 <= w && y0 >= 0.0 && y1 <= h,
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

/// The layout a reviewer checks on a chart at scale, on top of [`check_svg_text`]: no two
/// texts overlap, no legend entry lies over a plotting area, and no two legend entries are
/// drawn alike (colour, dash and marker together tell every series apart).
pub fn check_chart_layout(name: &str, svg: &str) {
    check_svg_text(name, svg);
    let texts = svg_texts(svg);
    let boxes: Vec<Box2> = texts.iter().map(text_box).collect();
    for i in 0..texts.len() {
        for j in i + 1..texts.len() {
            assert!(
                !overlap(boxes[i], boxes[j], 1.0),
                "{name}: texts {:?} and {:?} overlap ({:?} and {:?})",
                texts[i].text,
                texts[j].text,
                boxes[i],
                boxes[j]
            );
        }
    }
    let shapes = svg_shapes(svg);
    let areas = plot_areas(&shapes);
    let items = legend_items(&texts, &shapes);
    for item in &items {
        for a in &areas {
            for b in [item.text_box, item.sample_box] {
                assert!(
                    !overlap(b, *a, 0.0),
                    "{name}: the legend entry {:?} lies over the plotting area {a:?}",
                    item.text
                );
            }
        }
    }
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            assert!(
                items[i].signature != items[j].signature,
                "{name}: legend entries {:?} and {:?} are drawn alike",
                items[i].text,
                items[j].text
            );
        }
    }
}
