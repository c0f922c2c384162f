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

pub fn svg_texts(svg: &str) -> Vec<SvgText> {
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
pub fn check_svg_text(name: &str, svg: &str) {
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
