//! Lines drawn over one another: where two or more series run along the same pixels, wholly
//! or for a stretch (two queues' CDFs both at 1, two sweep lines with equal means), the one
//! drawn last would hide the others. Over every line, each such shared stretch is redrawn in
//! short dashes that take turns among the series sharing it, so each series' colour shows
//! there in its turn and none hides another.
//!
//! Turns are counted along the line itself (the position on the line's direction, not along
//! each series' own path), so series that reach a shared stretch from different places still
//! agree on whose dash is whose.

use std::collections::HashMap;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axes::Chart2d;
use super::{DrawError, de};

/// Length of one dash of the turns, pixels.
pub const DASH: f64 = 7.0;

/// A straight piece of a path, pixel coordinates.
pub type Piece = [(f64, f64); 2];

/// The most series that take turns (a bit each of a `u64`); later ones are drawn as before.
const MAX_PATHS: usize = 64;

/// The pixel cells each path passes through, a bit per path: every point at most a pixel
/// apart along each segment.
fn cells(paths: &[Vec<(f64, f64)>]) -> HashMap<(i64, i64), u64> {
    let mut map: HashMap<(i64, i64), u64> = HashMap::new();
    for (i, path) in paths.iter().enumerate().take(MAX_PATHS) {
        let bit = 1u64 << i;
        let mut mark = |p: (f64, f64)| {
            *map.entry((p.0.round() as i64, p.1.round() as i64))
                .or_default() |= bit;
        };
        if let [only] = path.as_slice() {
            mark(*only);
        }
        for w in path.windows(2) {
            let (a, b) = (w[0], w[1]);
            let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil().max(1.0) as usize;
            for s in 0..=steps {
                let u = s as f64 / steps as f64;
                mark((a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u));
            }
        }
    }
    map
}

/// The paths within a pixel of `p` (a line is wider than one pixel: nearer than that, two
/// lines cover each other).
fn near(map: &HashMap<(i64, i64), u64>, p: (f64, f64)) -> u64 {
    let (x, y) = (p.0.round() as i64, p.1.round() as i64);
    let mut mask = 0;
    for dx in -1..=1 {
        for dy in -1..=1 {
            mask |= map.get(&(x + dx, y + dy)).copied().unwrap_or(0);
        }
    }
    mask
}

/// The `k`-th (from 0) set bit of `mask`.
fn nth_bit(mut mask: u64, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

/// For each path (points in pixels, in drawing order), the pieces of it to draw over all the
/// paths: on a stretch shared by `k` paths, the line is cut into dashes of [`DASH`] pixels
/// and the `j`-th dash goes to the `(j mod k)`-th of them (by index). Stretches no other path
/// shares give no piece.
pub fn turns(paths: &[Vec<(f64, f64)>]) -> Vec<Vec<Piece>> {
    let map = cells(paths);
    paths
        .iter()
        .enumerate()
        .map(|(i, path)| {
            if i >= MAX_PATHS {
                return Vec::new();
            }
            let mut pieces = Vec::new();
            for w in path.windows(2) {
                turns_on_segment(&map, i as u32, w[0], w[1], &mut pieces);
            }
            pieces
        })
        .collect()
}

/// The pieces of segment `a`..`b` of path `i` where it has the turn (see [`turns`]).
fn turns_on_segment(
    map: &HashMap<(i64, i64), u64>,
    i: u32,
    a: (f64, f64),
    b: (f64, f64),
    out: &mut Vec<Piece>,
) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = dx.hypot(dy);
    if len < 1e-9 {
        return;
    }
    // The line's direction, the same whichever way a path runs along it: positions along it
    // then agree between paths.
    let (ux, uy) = if dx > 1e-9 || (dx.abs() <= 1e-9 && dy > 0.0) {
        (dx / len, dy / len)
    } else {
        (-dx / len, -dy / len)
    };
    let pos = |p: (f64, f64)| p.0 * ux + p.1 * uy;
    let at = |u: f64| (a.0 + dx * u, a.1 + dy * u);
    let (ta, tb) = (pos(a), pos(b));
    // Cut where the position crosses a multiple of DASH.
    let (lo, hi) = (ta.min(tb), ta.max(tb));
    let mut cuts: Vec<f64> = vec![0.0, 1.0];
    let mut k = (lo / DASH).floor() + 1.0;
    while k * DASH < hi {
        cuts.push((k * DASH - ta) / (tb - ta));
        k += 1.0;
    }
    cuts.sort_by(f64::total_cmp);
    for c in cuts.windows(2) {
        let (u0, u1) = (c[0], c[1]);
        if u1 - u0 < 1e-9 {
            continue;
        }
        let mid = at((u0 + u1) / 2.0);
        let sharing = near(map, mid) | (1u64 << i);
        let k = sharing.count_ones();
        if k < 2 {
            continue;
        }
        let slot = (pos(mid) / DASH).floor().rem_euclid(k as f64) as u32;
        if nth_bit(sharing, slot) == i {
            out.push([at(u0), at(u1)]);
        }
    }
}

/// Draws, over the lines already drawn on `chart`, the turns (see [`turns`]) of `lines` (each
/// a path in data coordinates and its colour) in strokes `width` pixels wide, onto `root`
/// (the drawing area `chart` lies in).
pub(crate) fn draw_turns<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart2d<'_, DB>,
    lines: &[(Vec<(f64, f64)>, RGBColor)],
    width: u32,
) -> Result<(), DrawError> {
    let base = root.get_base_pixel();
    let paths: Vec<Vec<(f64, f64)>> = lines
        .iter()
        .map(|(points, _)| {
            points
                .iter()
                .map(|p| {
                    let (x, y) = chart.backend_coord(p);
                    ((x - base.0) as f64, (y - base.1) as f64)
                })
                .collect()
        })
        .collect();
    let pixel = |p: (f64, f64)| (p.0.round() as i32, p.1.round() as i32);
    for ((_, c), pieces) in lines.iter().zip(turns(&paths)) {
        for [a, b] in pieces {
            root.draw(&PathElement::new(
                vec![pixel(a), pixel(b)],
                c.stroke_width(width),
            ))
            .map_err(de)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_lines_take_turns_dash_by_dash() {
        // Two equal lines from x = 0 to 28: dashes [0, 7), [7, 14), [14, 21), [21, 28) go to
        // the first, second, first, second.
        let line = vec![(0.0, 0.0), (28.0, 0.0)];
        let t = turns(&[line.clone(), line]);
        assert_eq!(t[0], [[(0.0, 0.0), (7.0, 0.0)], [(14.0, 0.0), (21.0, 0.0)]]);
        assert_eq!(
            t[1],
            [[(7.0, 0.0), (14.0, 0.0)], [(21.0, 0.0), (28.0, 0.0)]]
        );
    }

    #[test]
    fn a_shared_stretch_takes_turns_and_the_rest_is_left_alone() {
        // The second line joins the first at x = 14 and turns up at 28: only [14, 28) is
        // shared (the dash [7, 14) ends a pixel short of it). Positions count along the line,
        // so the second line, although it starts at 14, agrees: dash 2 ([14, 21)) is the
        // first's, dash 3 the second's. Its upward leg, away from the first, gives nothing.
        let first = vec![(0.0, 0.0), (28.0, 0.0)];
        let second = vec![(14.0, 0.0), (28.0, 0.0), (28.0, 10.0)];
        let t = turns(&[first, second]);
        assert_eq!(t[0], [[(14.0, 0.0), (21.0, 0.0)]]);
        assert_eq!(t[1], [[(21.0, 0.0), (28.0, 0.0)]]);
    }

    #[test]
    fn turns_agree_whichever_way_a_path_runs() {
        // The same line drawn right to left by the second path: the same dashes as above.
        let t = turns(&[vec![(0.0, 0.0), (28.0, 0.0)], vec![(28.0, 0.0), (0.0, 0.0)]]);
        assert_eq!(t[0], [[(0.0, 0.0), (7.0, 0.0)], [(14.0, 0.0), (21.0, 0.0)]]);
        assert_eq!(
            t[1],
            [[(28.0, 0.0), (21.0, 0.0)], [(14.0, 0.0), (7.0, 0.0)]]
        );
    }

    #[test]
    fn three_equal_lines_take_every_third_dash() {
        // Slanted: 3-4-5 triangle, so positions along it are 0, 5, 10 ... 35 at (21, 28).
        // Dash j of 7 (positions [7j, 7j+7)) goes to line j mod 3.
        let line = vec![(0.0, 0.0), (21.0, 28.0)];
        let t = turns(&[line.clone(), line.clone(), line]);
        let at = |s: f64| (s * 0.6, s * 0.8);
        let close =
            |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9;
        let expect = [vec![0.0, 21.0], vec![7.0, 28.0], vec![14.0]];
        for (j, starts) in expect.iter().enumerate() {
            assert_eq!(t[j].len(), starts.len(), "line {j}: {:?}", t[j]);
            for (piece, &s) in t[j].iter().zip(starts) {
                assert!(
                    close(piece[0], at(s)) && close(piece[1], at(s + 7.0)),
                    "line {j}: {piece:?}"
                );
            }
        }
    }

    #[test]
    fn lines_apart_or_crossing_briefly_are_left_alone() {
        // Parallel lines 3 pixels apart share no pixel; lines crossing at right angles share
        // only the pixels around the crossing.
        let t = turns(&[vec![(0.0, 0.0), (40.0, 0.0)], vec![(0.0, 3.0), (40.0, 3.0)]]);
        assert!(t.iter().all(Vec::is_empty), "{t:?}");
        let t = turns(&[
            vec![(0.0, 20.0), (40.0, 20.0)],
            vec![(20.0, 0.0), (20.0, 40.0)],
        ]);
        let drawn: f64 = t
            .iter()
            .flatten()
            .map(|p| (p[1].0 - p[0].0).hypot(p[1].1 - p[0].1))
            .sum();
        assert!(drawn <= 2.0 * DASH, "{t:?}");
    }
}
