//! A scene drawn as HTML: boards, hex maps and tracks as SVG, counters and zones as cards.
//! Everything a person may pick carries `data-key` (the scene's keys); the page makes the
//! elements whose key an option names clickable. Empty cells an option names are drawn
//! on the deciding player's board so that they can be clicked too.

use std::fmt::Write;

use frontier_interpreter::scene::{BoardShown, Card, HexMap, Scene, TrackShown, ZoneShown};

/// Cells of a board drawn at most, however far apart its pieces lie.
const MAX_BOARD_SPAN: i32 = 60;
const CELL: i32 = 36;
/// Face-up cards of a zone past which it is drawn folded.
const FOLDED_ZONE: usize = 12;
const HEX: f64 = 30.0;

/// The scene as an HTML fragment. `targets` are the cells (`cell:row,col`) the decision's
/// options name, drawn on the board of `decider` (or on the single board).
pub fn scene_html(scene: &Scene, decider: Option<u8>, targets: &[String]) -> String {
    let mut out = String::new();
    if !scene.counters.is_empty() {
        out.push_str("<div class=\"counters\">");
        for c in &scene.counters {
            let _ = write!(
                out,
                "<span class=\"counter\"><b>{}</b> {}</span>",
                esc(&c.name),
                esc(&c.value)
            );
        }
        out.push_str("</div>");
    }
    if let Some(map) = &scene.hexes {
        out.push_str(&hex_map(map));
    }
    if !scene.tracks.is_empty() {
        out.push_str(&tracks(&scene.tracks));
    }
    let single_board = scene.boards.len() == 1;
    let boards: Vec<String> = scene
        .boards
        .iter()
        .map(|b| {
            let takes_targets = single_board || (b.seat.is_some() && b.seat == decider);
            board(b, takes_targets.then_some(targets))
        })
        .collect();
    if !boards.is_empty() {
        let _ = write!(out, "<div class=\"boards\">{}</div>", boards.concat());
    }
    if !scene.zones.is_empty() {
        out.push_str("<div class=\"zones\">");
        for z in &scene.zones {
            out.push_str(&zone(z));
        }
        out.push_str("</div>");
    }
    out.push_str("<div class=\"players\">");
    for p in &scene.players {
        let current = if Some(p.seat) == decider {
            " current"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<section class=\"player{current}\" data-key=\"player:{}\"><h2><span class=\"dot\" style=\"background:{}\"></span>{}</h2>",
            p.seat,
            seat_colour(p.seat),
            esc(&p.name)
        );
        if !p.counters.is_empty() {
            out.push_str("<div class=\"counters\">");
            for c in &p.counters {
                let _ = write!(
                    out,
                    "<span class=\"counter\"><b>{}</b> {}</span>",
                    esc(&c.name),
                    esc(&c.value)
                );
            }
            out.push_str("</div>");
        }
        for z in &p.zones {
            out.push_str(&zone(z));
        }
        out.push_str("</section>");
    }
    out.push_str("</div>");
    out
}

fn zone(z: &ZoneShown) -> String {
    let mut out = String::new();
    let count = match z.count {
        Some(n) => format!(" ({n})"),
        None => " (hidden)".to_string(),
    };
    if z.cards.len() > 3 && z.cards.iter().all(|c| c.face_down) {
        // A pile the viewer cannot see into (a deck): one back, not one per card.
        let _ = write!(out, "<div class=\"zone\"><div class=\"zone-name\">{}{count}</div><div class=\"cards\"><div class=\"card face-down pile\"></div><span class=\"pile-count\">× {}</span></div></div>", esc(&z.name), z.cards.len());
        return out;
    }
    let cards: String = z.cards.iter().map(card).collect();
    if z.cards.len() > FOLDED_ZONE {
        // A long face-up pile (a discard pile) is folded, so that the page stays short;
        // the page opens it when a card in it can be picked.
        let _ = write!(
            out,
            "<details class=\"zone\"><summary class=\"zone-name\">{}{count}</summary><div class=\"cards\">{cards}</div></details>",
            esc(&z.name)
        );
        return out;
    }
    let _ = write!(
        out,
        "<div class=\"zone\"><div class=\"zone-name\">{}{count}</div><div class=\"cards\">{cards}</div></div>",
        esc(&z.name)
    );
    out
}

fn card(c: &Card) -> String {
    if c.face_down {
        return "<div class=\"card face-down\"></div>".to_string();
    }
    let key = c
        .key
        .as_deref()
        .map(|k| format!(" data-key=\"{}\"", esc(k)))
        .unwrap_or_default();
    let fields: Vec<String> = c.fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let style = c
        .seat
        .map(|s| format!(" style=\"border-color:{}\"", seat_colour(s)))
        .unwrap_or_default();
    let body = if c.text.is_empty() {
        fields.join(", ")
    } else {
        c.text.clone()
    };
    format!(
        "<div class=\"card\"{key}{style} title=\"{}\"><b>{}</b><span>{}</span></div>",
        esc(&fields.join("\n")),
        esc(&c.id),
        esc(&body)
    )
}

fn tracks(list: &[TrackShown]) -> String {
    let slot_w = 56;
    // Titles are measured in characters (about 7 px each at the track font's size).
    let longest = list
        .iter()
        .map(|t| t.title.chars().count())
        .max()
        .unwrap_or(0) as i32;
    let title_w = (longest * 7 + 14).clamp(90, 520);
    let row_h = 34;
    let most = list.iter().map(|t| t.slots).max().unwrap_or(0).max(1) as i32;
    let width = title_w + most * (slot_w + 4) + 8;
    let height = list.len() as i32 * row_h + 6;
    let mut out = String::new();
    let _ = write!(out, "<svg class=\"tracks\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">");
    for (i, t) in list.iter().enumerate() {
        let y = i as i32 * row_h + 4;
        let key = t
            .key
            .as_deref()
            .map(|k| format!(" data-key=\"{}\"", esc(k)))
            .unwrap_or_default();
        let _ = write!(out, "<g class=\"track\"{key}><rect class=\"track-bg\" x=\"0\" y=\"{y}\" width=\"{width}\" height=\"{}\" rx=\"4\"/>", row_h - 4);
        let _ = write!(
            out,
            "<text x=\"6\" y=\"{}\" class=\"track-title\">{}</text>",
            y + 19,
            esc(&t.title)
        );
        for s in 0..t.slots as i32 {
            let x = title_w + s * (slot_w + 4);
            let piece = t.pieces.get(s as usize);
            let fill = piece
                .and_then(|p| p.seat)
                .map(seat_colour)
                .unwrap_or(if piece.is_some() {
                    "#e8dcc0"
                } else {
                    "#fffaf0"
                });
            let pkey = piece
                .and_then(|p| p.key.as_deref())
                .map(|k| format!(" data-key=\"{}\"", esc(k)))
                .unwrap_or_default();
            let _ = write!(out, "<rect class=\"slot\"{pkey} x=\"{x}\" y=\"{}\" width=\"{slot_w}\" height=\"{}\" rx=\"3\" fill=\"{fill}\"/>", y + 3, row_h - 10);
            if let Some(p) = piece {
                let label = if p.face_down { "?" } else { p.id.as_str() };
                let _ = write!(
                    out,
                    "<text x=\"{}\" y=\"{}\" class=\"slot-text{}\" text-anchor=\"middle\">{}</text>",
                    x + slot_w / 2,
                    y + 19,
                    ink_on(fill),
                    esc(label)
                );
            }
        }
        out.push_str("</g>");
    }
    out.push_str("</svg>");
    out
}

/// A board; `picks` are the cells the decision's options name, on the one board they are
/// taken on (none: the board's cells are not pickable, as an opponent's town whose cells
/// have the same coordinates as one's own).
fn board(b: &BoardShown, picks: Option<&[String]>) -> String {
    let mut target_cells: Vec<(i32, i32, &str)> = picks
        .unwrap_or_default()
        .iter()
        .filter_map(|k| {
            let (r, c) = k.strip_prefix("cell:")?.split_once(',')?;
            Some((r.parse().ok()?, c.parse().ok()?, k.as_str()))
        })
        .collect();
    // A cell several options name (a card upright or turned) is drawn once.
    target_cells.sort_unstable();
    target_cells.dedup();
    let points = b
        .cells
        .iter()
        .map(|c| (c.row as i32, c.col as i32))
        .chain(target_cells.iter().map(|(r, c, _)| (*r, *c)));
    let (mut top, mut left, mut bottom, mut right) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for (r, c) in points {
        top = top.min(r);
        bottom = bottom.max(r);
        left = left.min(c);
        right = right.max(c);
    }
    let mut out = String::new();
    let _ = write!(
        out,
        "<figure class=\"board\"><figcaption>{}</figcaption>",
        esc(&b.name)
    );
    if top == i32::MAX {
        out.push_str("<p class=\"empty\">(empty)</p></figure>");
        return out;
    }
    bottom = bottom.min(top + MAX_BOARD_SPAN);
    right = right.min(left + MAX_BOARD_SPAN);
    let margin = 18;
    let width = (right - left + 1) * CELL + margin + 2;
    let height = (bottom - top + 1) * CELL + margin + 2;
    let _ = write!(out, "<svg class=\"grid\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">");
    for col in left..=right {
        let _ = write!(
            out,
            "<text class=\"axis\" x=\"{}\" y=\"12\" text-anchor=\"middle\">{col}</text>",
            margin + (col - left) * CELL + CELL / 2
        );
    }
    for row in top..=bottom {
        let _ = write!(
            out,
            "<text class=\"axis\" x=\"2\" y=\"{}\">{row}</text>",
            margin + (row - top) * CELL + CELL / 2 + 4
        );
    }
    let inside = |r: i32, c: i32| r >= top && r <= bottom && c >= left && c <= right;
    for cell in b
        .cells
        .iter()
        .filter(|c| inside(c.row as i32, c.col as i32))
    {
        let (x, y) = (
            margin + (cell.col as i32 - left) * CELL,
            margin + (cell.row as i32 - top) * CELL,
        );
        let fill = cell.colour.as_deref().map(css_colour).unwrap_or("#f3ead7");
        let key = cell
            .key
            .as_deref()
            .map(|k| format!(" data-item=\"{}\"", esc(k)))
            .unwrap_or_default();
        let place = match picks {
            Some(_) => format!(" data-key=\"cell:{},{}\"", cell.row, cell.col),
            None => String::new(),
        };
        let _ = write!(
            out,
            "<g class=\"cell\"{place}{key}><rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" class=\"{}\">{}</text></g>",
            x + CELL / 2,
            y + CELL / 2 + 5,
            ink_on(fill).trim(),
            esc(&cell.text)
        );
    }
    for (r, c, key) in target_cells.iter().filter(|(r, c, _)| inside(*r, *c)) {
        if b.cells
            .iter()
            .any(|cell| cell.row as i32 == *r && cell.col as i32 == *c)
        {
            continue;
        }
        let (x, y) = (margin + (c - left) * CELL, margin + (r - top) * CELL);
        let _ = write!(out, "<g class=\"cell target\" data-key=\"{}\"><rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\"/></g>", esc(key));
    }
    out.push_str("</svg></figure>");
    out
}

fn hex_map(map: &HexMap) -> String {
    let sqrt3 = 3f64.sqrt();
    // A square grid's cells side by side, `y` growing upward.
    let square = map.layout == "square";
    let side = sqrt3 * HEX;
    let centre = |x: i64, y: i64| -> (f64, f64) {
        if square {
            return (side * x as f64, -side * y as f64);
        }
        let cx = 1.5 * HEX * x as f64;
        let shifted = match map.layout {
            "even-q" => x.rem_euclid(2) == 0,
            "odd-q" => x.rem_euclid(2) == 1,
            _ => false,
        };
        let cy = match map.layout {
            "axial" => sqrt3 * HEX * (y as f64 + x as f64 / 2.0),
            _ => sqrt3 * HEX * (y as f64 + if shifted { 0.5 } else { 0.0 }),
        };
        (cx, cy)
    };
    let centres: Vec<(f64, f64)> = map.hexes.iter().map(|h| centre(h.x, h.y)).collect();
    if centres.is_empty() {
        return String::new();
    }
    let min_x = centres.iter().map(|c| c.0).fold(f64::MAX, f64::min) - HEX;
    let min_y = centres.iter().map(|c| c.1).fold(f64::MAX, f64::min) - HEX;
    let max_x = centres.iter().map(|c| c.0).fold(f64::MIN, f64::max) + HEX;
    let max_y = centres.iter().map(|c| c.1).fold(f64::MIN, f64::max) + HEX;
    let (w, h) = (max_x - min_x + 4.0, max_y - min_y + 4.0);
    let mut out = String::new();
    let _ = write!(out, "<svg class=\"hexes\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" xmlns=\"http://www.w3.org/2000/svg\">");
    for (hex, (cx, cy)) in map.hexes.iter().zip(centres) {
        let (cx, cy) = (cx - min_x + 2.0, cy - min_y + 2.0);
        let corners: Vec<String> = if square {
            let half = side / 2.0;
            [(-half, -half), (half, -half), (half, half), (-half, half)]
                .iter()
                .map(|(dx, dy)| format!("{:.1},{:.1}", cx + dx, cy + dy))
                .collect()
        } else {
            (0..6)
                .map(|i| {
                    let a = std::f64::consts::PI / 3.0 * i as f64;
                    format!("{:.1},{:.1}", cx + HEX * a.cos(), cy + HEX * a.sin())
                })
                .collect()
        };
        let fill = hex.colour.as_deref().map(css_colour).unwrap_or("#efe6d2");
        let ink = ink_on(fill);
        let _ = write!(
            out,
            "<g class=\"hex\" data-key=\"{}\"><polygon points=\"{}\" fill=\"{fill}\"/><text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\" class=\"{ink}\">{}</text><text class=\"mark{ink}\" x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
            esc(&hex.key),
            corners.join(" "),
            cy - 3.0,
            esc(&hex.text),
            cy + 13.0,
            esc(&hex.mark)
        );
    }
    out.push_str("</svg>");
    out
}

/// A ruleset's colour name (as the terminal display takes them) as a CSS colour.
pub fn css_colour(name: &str) -> &str {
    match name {
        "black" => "#3a3a3a",
        "red" => "#d9776b",
        "green" => "#8cc084",
        "yellow" => "#f0d36b",
        "blue" => "#7fa7dc",
        "magenta" => "#c88bc8",
        "cyan" => "#7fcfd4",
        "white" => "#f7f7f2",
        "grey" | "gray" => "#b9b9b9",
        "bright_red" => "#f19a8f",
        "bright_green" => "#b4e0a8",
        "bright_yellow" => "#fff09a",
        "bright_blue" => "#a9c8f2",
        "bright_magenta" => "#e6b0e6",
        "bright_cyan" => "#aef0f0",
        "bright_white" => "#ffffff",
        // A CSS colour written out (#rgb, #rrggbb): kept when it holds nothing else.
        other
            if other.starts_with('#')
                && other.len() <= 7
                && other[1..].bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            other
        }
        _ => "#efe6d2",
    }
}

/// Each seat's colour, for its pieces and its panel.
pub fn seat_colour(seat: u8) -> &'static str {
    const COLOURS: [&str; 10] = [
        "#e4572e", "#3f88c5", "#f2a541", "#4caf50", "#9c6ade", "#17bebb", "#d1495b", "#8d6a4f",
        "#2e4057", "#b8b42d",
    ];
    COLOURS[seat as usize % COLOURS.len()]
}

/// The class of text drawn on `fill` (`#rrggbb` or `#rgb`): light ink (" light") on a
/// dark fill, the page's dark ink (none) on a light one, whichever has the higher WCAG
/// contrast.
pub fn ink_on(fill: &str) -> &'static str {
    let hex = fill.trim_start_matches('#');
    let channel = |i: usize, width: usize| {
        let text = hex.get(i * width..(i + 1) * width)?;
        let value = u8::from_str_radix(text, 16).ok()? as f64;
        Some(if width == 1 { value * 17.0 } else { value } / 255.0)
    };
    let width = if hex.len() == 3 { 1 } else { 2 };
    let (Some(r), Some(g), Some(b)) = (channel(0, width), channel(1, width), channel(2, width))
    else {
        return "";
    };
    let linear = |c: f64| {
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    // The page's ink, #2b2118, has a luminance of about 0.017; white, 1.
    let dark = (luminance + 0.05) / (0.017 + 0.05);
    let light = 1.05 / (luminance + 0.05);
    if light > dark {
        " light"
    } else {
        ""
    }
}

/// Text for HTML (element content and attribute values).
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{ink_on, zone};
    use frontier_interpreter::scene::{Card, ZoneShown};

    /// A long face-up pile is folded (its cards still there), a short one is not.
    #[test]
    fn a_long_pile_is_folded() {
        let pile = |n: usize| ZoneShown {
            name: "discard".into(),
            count: Some(n),
            cards: (0..n)
                .map(|i| Card {
                    key: Some(format!("cards:c{i}")),
                    id: format!("c{i}"),
                    text: String::new(),
                    fields: Vec::new(),
                    face_down: false,
                    seat: None,
                })
                .collect(),
        };
        let long = zone(&pile(13));
        assert!(
            long.starts_with(
                "<details class=\"zone\"><summary class=\"zone-name\">discard (13)</summary>"
            ),
            "{long}"
        );
        assert_eq!(long.matches("class=\"card\"").count(), 13);
        let short = zone(&pile(12));
        assert!(
            short.starts_with("<div class=\"zone\">") && !short.contains("<details"),
            "{short}"
        );
    }

    /// Text on a fill takes the ink of higher contrast (WCAG's relative luminance).
    #[test]
    fn text_on_a_dark_fill_is_light() {
        for (fill, ink) in [
            ("#ffffff", ""),
            ("#fff", ""),
            ("#f0d36b", ""),
            ("#e8dcc0", ""),
            ("#000000", " light"),
            ("#3a3a3a", " light"),
            ("#2e4057", " light"),
            // 4.2:1 with the page's ink, 3.8:1 with white.
            ("#3f88c5", ""),
            ("not a colour", ""),
        ] {
            assert_eq!(ink_on(fill), ink, "{fill}");
        }
    }
}
