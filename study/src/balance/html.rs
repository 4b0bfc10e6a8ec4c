//! The balance report as a self-contained HTML page: the JSON report's tables, and plots
//! drawn by hand as inline SVG (win rates with their intervals, score distributions,
//! game length). No script, no external file: it opens anywhere.

use std::fmt::Write as _;

use serde_json::Value;

use super::RulesetGames;
use crate::statistics::wilson;

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const COLOURS: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf",
];

fn colour(i: usize) -> &'static str {
    COLOURS[i % COLOURS.len()]
}

/// A "nice" step for about `ticks` ticks over `span`.
fn nice_step(span: f64, ticks: f64) -> f64 {
    let raw = (span / ticks).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    let m = raw / mag;
    mag * if m < 1.5 {
        1.0
    } else if m < 3.5 {
        2.0
    } else if m < 7.5 {
        5.0
    } else {
        10.0
    }
}

fn legend(out: &mut String, studies: &[&RulesetGames], x: f64, y: f64) {
    for (i, s) in studies.iter().enumerate() {
        let yy = y + 16.0 * i as f64;
        let _ = write!(
            out,
            r#"<rect x="{x}" y="{}" width="12" height="12" fill="{}"/><text x="{}" y="{}" font-size="12">{}</text>"#,
            yy - 10.0,
            colour(i),
            x + 16.0,
            yy,
            esc(&s.label)
        );
    }
}

/// Win rate per seat: a dot per ruleset with its 95% interval, the fair share dashed.
fn svg_win_rates(studies: &[&RulesetGames], n: usize) -> String {
    let (w, h, left, top, bottom) = (640.0, 300.0, 50.0, 20.0, 40.0);
    let legend_w = 170.0;
    let plot_w = w - left - legend_w;
    let plot_h = h - top - bottom;
    let y = |p: f64| top + plot_h * (1.0 - p);
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot" id="win-rates" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="Win rate per seat with 95% Wilson intervals">"#
    );
    for t in 0..=10 {
        let p = t as f64 / 10.0;
        let _ = write!(
            out,
            r##"<line x1="{left}" x2="{}" y1="{y}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" font-size="11" text-anchor="end">{}%</text>"##,
            left + plot_w,
            left - 4.0,
            y(p) + 4.0,
            t * 10,
            y = y(p)
        );
    }
    let fair = 1.0 / n as f64;
    let _ = write!(
        out,
        r##"<line x1="{left}" x2="{}" y1="{y}" y2="{y}" stroke="#555" stroke-dasharray="5,4"><title>fair share {:.1}%</title></line>"##,
        left + plot_w,
        100.0 * fair,
        y = y(fair)
    );
    let group = plot_w / n as f64;
    let k = studies.len() as f64;
    for p in 0..n {
        let gx = left + group * p as f64;
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">p{}</text>"#,
            gx + group / 2.0,
            h - bottom + 18.0,
            p + 1
        );
        for (i, s) in studies.iter().enumerate() {
            let g = s.summary.games as f64;
            let rate = s.summary.wins[p] / g;
            let (lo, hi) = wilson(s.summary.wins[p], g);
            let x = gx + group * (i as f64 + 1.0) / (k + 1.0);
            let c = colour(i);
            let _ = write!(
                out,
                r#"<g><title>{} p{}: {:.1}% [{:.1}%, {:.1}%]</title><line x1="{x}" x2="{x}" y1="{}" y2="{}" stroke="{c}" stroke-width="2"/><line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{c}"/><line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{c}"/><circle cx="{x}" cy="{}" r="4" fill="{c}"/></g>"#,
                esc(&s.label),
                p + 1,
                100.0 * rate,
                100.0 * lo,
                100.0 * hi,
                y(lo),
                y(hi),
                x - 5.0,
                x + 5.0,
                y(lo),
                y(lo),
                x - 5.0,
                x + 5.0,
                y(hi),
                y(hi),
                y(rate)
            );
        }
    }
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">seat</text>"#,
        left + plot_w / 2.0,
        h - 6.0
    );
    legend(&mut out, studies, left + plot_w + 20.0, top + 12.0);
    out.push_str("</svg>");
    out
}

/// Score distribution per seat: a box (quartiles, median) and whiskers (min, max) per ruleset.
fn svg_scores(studies: &[&RulesetGames], n: usize) -> String {
    let (w, h, left, top, bottom) = (640.0, 300.0, 50.0, 20.0, 40.0);
    let legend_w = 170.0;
    let plot_w = w - left - legend_w;
    let plot_h = h - top - bottom;
    let lo = studies
        .iter()
        .flat_map(|s| s.scores.iter().map(|d| d.min()))
        .min()
        .unwrap_or(0) as f64;
    let hi = studies
        .iter()
        .flat_map(|s| s.scores.iter().map(|d| d.max()))
        .max()
        .unwrap_or(1) as f64;
    let step = nice_step((hi - lo).max(1.0), 6.0);
    let (lo, hi) = (
        (lo / step).floor() * step,
        ((hi / step).ceil() * step).max(lo + step),
    );
    let y = |v: f64| top + plot_h * (1.0 - (v - lo) / (hi - lo));
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot" id="scores" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="Score distribution per seat">"#
    );
    let mut t = lo;
    while t <= hi + 1e-9 {
        let _ = write!(
            out,
            r##"<line x1="{left}" x2="{}" y1="{yy}" y2="{yy}" stroke="#ddd"/><text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>"##,
            left + plot_w,
            left - 4.0,
            y(t) + 4.0,
            t,
            yy = y(t)
        );
        t += step;
    }
    let group = plot_w / n as f64;
    let k = studies.len() as f64;
    let bw = (group / (k + 1.0) * 0.6).min(30.0);
    for p in 0..n {
        let gx = left + group * p as f64;
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">p{}</text>"#,
            gx + group / 2.0,
            h - bottom + 18.0,
            p + 1
        );
        for (i, s) in studies.iter().enumerate() {
            let d = &s.scores[p];
            let x = gx + group * (i as f64 + 1.0) / (k + 1.0);
            let c = colour(i);
            let (q1, med, q3) = (d.quantile(0.25), d.quantile(0.5), d.quantile(0.75));
            let _ = write!(
                out,
                r#"<g><title>{} p{}: min {} q1 {} median {} q3 {} max {} mean {:.2}</title><line x1="{x}" x2="{x}" y1="{}" y2="{}" stroke="{c}"/><rect x="{}" y="{}" width="{bw}" height="{}" fill="{c}" fill-opacity="0.3" stroke="{c}"/><line x1="{}" x2="{}" y1="{}" y2="{}" stroke="{c}" stroke-width="2"/></g>"#,
                esc(&s.label),
                p + 1,
                d.min(),
                q1,
                med,
                q3,
                d.max(),
                d.mean,
                y(d.max() as f64),
                y(d.min() as f64),
                x - bw / 2.0,
                y(q3),
                (y(q1) - y(q3)).max(1.0),
                x - bw / 2.0,
                x + bw / 2.0,
                y(med),
                y(med)
            );
        }
    }
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">seat (box: quartiles and median; whiskers: min and max)</text>"#,
        left + plot_w / 2.0,
        h - 6.0
    );
    legend(&mut out, studies, left + plot_w + 20.0, top + 12.0);
    out.push_str("</svg>");
    out
}

/// Game length: a histogram of decisions per game per ruleset (shares of games), as lines.
fn svg_lengths(studies: &[&RulesetGames]) -> String {
    let (w, h, left, top, bottom) = (640.0, 300.0, 50.0, 20.0, 40.0);
    let legend_w = 170.0;
    let plot_w = w - left - legend_w;
    let plot_h = h - top - bottom;
    let lo = studies.iter().map(|s| s.decisions.min()).min().unwrap_or(0) as f64;
    let hi = studies.iter().map(|s| s.decisions.max()).max().unwrap_or(1) as f64;
    let bins = 20usize;
    let width = ((hi - lo) / bins as f64).max(1.0);
    let shares: Vec<Vec<f64>> = studies
        .iter()
        .map(|s| {
            let mut c = vec![0.0; bins];
            for &(v, count) in s.decisions.counts() {
                let b = (((v as f64 - lo) / width) as usize).min(bins - 1);
                c[b] += count as f64;
            }
            c.iter().map(|x| x / s.decisions.n.max(1) as f64).collect()
        })
        .collect();
    let top_share = shares
        .iter()
        .flatten()
        .fold(0.0f64, |a, &b| a.max(b))
        .max(0.01);
    let ystep = nice_step(top_share, 5.0);
    let ymax = (top_share / ystep).ceil() * ystep;
    let x = |v: f64| left + plot_w * (v - lo) / (width * bins as f64);
    let y = |s: f64| top + plot_h * (1.0 - s / ymax);
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="plot" id="lengths" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="Decisions per game">"#
    );
    let mut t = 0.0;
    while t <= ymax + 1e-9 {
        let _ = write!(
            out,
            r##"<line x1="{left}" x2="{}" y1="{yy}" y2="{yy}" stroke="#ddd"/><text x="{}" y="{}" font-size="11" text-anchor="end">{:.0}%</text>"##,
            left + plot_w,
            left - 4.0,
            y(t) + 4.0,
            100.0 * t,
            yy = y(t)
        );
        t += ystep;
    }
    let xstep = nice_step(width * bins as f64, 6.0);
    let mut t = (lo / xstep).ceil() * xstep;
    while t <= lo + width * bins as f64 + 1e-9 {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" font-size="11" text-anchor="middle">{}</text>"#,
            x(t),
            h - bottom + 16.0,
            t
        );
        t += xstep;
    }
    for (i, s) in shares.iter().enumerate() {
        let mut points = String::new();
        for (b, &share) in s.iter().enumerate() {
            let (x0, x1) = (x(lo + width * b as f64), x(lo + width * (b + 1) as f64));
            let _ = write!(points, "{x0:.1},{:.1} {x1:.1},{:.1} ", y(share), y(share));
        }
        let _ = write!(
            out,
            r#"<polyline fill="none" stroke="{}" stroke-width="2" points="{}"><title>{}: mean {:.1} decisions</title></polyline>"#,
            colour(i),
            points.trim_end(),
            esc(&studies[i].label),
            studies[i].decisions.mean
        );
    }
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">decisions per game (share of games)</text>"#,
        left + plot_w / 2.0,
        h - 6.0
    );
    legend(&mut out, studies, left + plot_w + 20.0, top + 12.0);
    out.push_str("</svg>");
    out
}

fn pct(v: &Value) -> String {
    format!("{:.1}%", 100.0 * f(v))
}

/// The page of report `r` (the JSON of [`super::Balance::report`]) over `studies`, the
/// base then the variants.
pub fn page(r: &Value, studies: &[&RulesetGames]) -> String {
    let n = r["players"].as_u64().unwrap_or(1) as usize;
    let mut out = String::new();
    let title = format!("Balance report: {}", r["base"].as_str().unwrap_or(""));
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}}table{{border-collapse:collapse;margin:1em 0}}th,td{{border:1px solid #ccc;padding:.25em .6em;text-align:right}}th{{background:#f4f4f4}}td:first-child,th:first-child{{text-align:left}}.sig{{font-weight:bold;color:#b00}}svg.plot{{display:block;margin:1em 0}}</style>
</head><body>
<h1>{}</h1>
<p>{} players, {} games per ruleset, seed {}, agents {}. Every ruleset plays the same seeds. Shared victories are split between the winners. Intervals are 95% Wilson score intervals; differences are called significant when the two-sided p-value is below {}.</p>
"#,
        esc(&title),
        esc(&title),
        n,
        r["games"],
        r["seed"],
        esc(&r["agents"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a.as_str())
            .collect::<Vec<_>>()
            .join(", ")),
        r["alpha"]
    );
    out.push_str("<h2>Win rate per seat</h2>\n");
    out.push_str(&svg_win_rates(studies, n));
    for rs in r["rulesets"].as_array().into_iter().flatten() {
        let _ = write!(
            out,
            "\n<h2>{} <small>({})</small></h2>\n",
            esc(rs["name"].as_str().unwrap_or("")),
            esc(rs["role"].as_str().unwrap_or(""))
        );
        out.push_str(r#"<table class="seats"><tr><th>seat</th><th>agent</th><th>wins</th><th>win rate</th><th>95% interval</th><th>mean score</th><th>sd</th><th>min</th><th>q1</th><th>median</th><th>q3</th><th>max</th></tr>"#);
        for s in rs["seats"].as_array().into_iter().flatten() {
            let sc = &s["score"];
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} – {}</td><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(s["seat"].as_str().unwrap_or("")),
                esc(s["agent"].as_str().unwrap_or("")),
                s["wins"],
                pct(&s["win_rate"]),
                pct(&s["ci_low"]),
                pct(&s["ci_high"]),
                f(&sc["mean"]),
                f(&sc["sd"]),
                sc["min"],
                sc["q1"],
                sc["median"],
                sc["q3"],
                sc["max"]
            );
        }
        out.push_str("</table>\n");
        if let Some(ends) = rs["ends"].as_object() {
            let g = rs["games"].as_f64().unwrap_or(1.0).max(1.0);
            let list: Vec<String> = ends
                .iter()
                .map(|(why, k)| format!("{} ({:.1}%)", esc(why), 100.0 * f(k) / g))
                .collect();
            let _ = writeln!(
                out,
                "<p class=\"ends\">How games ended: {}.</p>",
                list.join("; ")
            );
        }
        if let Some(stats) = rs["stats"].as_object().filter(|m| !m.is_empty()) {
            out.push_str(r#"<table class="stats"><tr><th>statistic (the ruleset's stats:)</th><th>true in</th><th>95% interval</th><th>mean</th><th>sd</th><th>min</th><th>median</th><th>max</th></tr>"#);
            for (name, st) in stats {
                if st["kind"] == "bool" {
                    let _ = write!(out, "<tr><td>{}</td><td>{}</td><td>{} – {}</td><td></td><td></td><td></td><td></td><td></td></tr>", esc(name), pct(&st["rate"]), pct(&st["ci_low"]), pct(&st["ci_high"]));
                } else {
                    let _ = write!(out, "<tr><td>{}</td><td></td><td></td><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td></tr>", esc(name), f(&st["mean"]), f(&st["sd"]), st["min"], st["median"], st["max"]);
                }
            }
            out.push_str("</table>\n");
        }
        let fp = &rs["first_player"];
        let d = &rs["length"]["decisions"];
        let _ = writeln!(
            out,
            "<p>First-player advantage: p1 wins {} (95% interval {} – {}) against a fair share of {}: {:+.1} points, z = {:.2}, p = {:.4}{}.<br>Game length: {:.1} decisions a game on average (sd {:.1}, median {}, {} – {}); {:.1} chance steps; {} shared victories.</p>",
            pct(&fp["win_rate"]),
            pct(&fp["ci_low"]),
            pct(&fp["ci_high"]),
            pct(&fp["fair_share"]),
            100.0 * f(&fp["advantage"]),
            f(&fp["z"]),
            f(&fp["p_value"]),
            if fp["significant"].as_bool() == Some(true) { r#" <span class="sig">(significant)</span>"# } else { "" },
            f(&d["mean"]),
            f(&d["sd"]),
            d["median"],
            d["min"],
            d["max"],
            f(&rs["length"]["chances"]["mean"]),
            rs["shared_victories"]
        );
    }
    if let Some(cs) = r["comparisons"].as_array().filter(|c| !c.is_empty()) {
        out.push_str("\n<h2>Variants against the base</h2>\n<p>Win rates: two-proportion z-test per seat (pooled). Scores and game length: difference of means, Welch's z (large samples).</p>\n");
        for c in cs {
            let _ = writeln!(
                out,
                "<h3>{} vs {}</h3>",
                esc(c["variant"].as_str().unwrap_or("")),
                esc(c["base"].as_str().unwrap_or(""))
            );
            out.push_str(r#"<table class="comparison"><tr><th>seat</th><th>base win rate</th><th>variant win rate</th><th>difference</th><th>z</th><th>p</th><th>mean score difference</th><th>p (scores)</th></tr>"#);
            for s in c["seats"].as_array().into_iter().flatten() {
                let sig = |b: &Value| {
                    if b.as_bool() == Some(true) {
                        r#" class="sig""#
                    } else {
                        ""
                    }
                };
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td{}>{:+.1} points</td><td>{:.2}</td><td{}>{:.4}</td><td>{:+.2}</td><td{}>{:.4}</td></tr>",
                    esc(s["seat"].as_str().unwrap_or("")),
                    pct(&s["base_win_rate"]),
                    pct(&s["variant_win_rate"]),
                    sig(&s["significant"]),
                    100.0 * f(&s["difference"]),
                    f(&s["z"]),
                    sig(&s["significant"]),
                    f(&s["p_value"]),
                    f(&s["mean_score_difference"]),
                    sig(&s["score_significant"]),
                    f(&s["score_p_value"])
                );
            }
            let d = &c["decisions"];
            let _ = write!(
                out,
                "</table>\n<p>Decisions per game: {:.1} → {:.1} ({:+.1}, z = {:.2}, p = {:.4}{}).</p>\n",
                f(&d["base_mean"]),
                f(&d["variant_mean"]),
                f(&d["difference"]),
                f(&d["z"]),
                f(&d["p_value"]),
                if d["significant"].as_bool() == Some(true) { r#", <span class="sig">significant</span>"# } else { "" }
            );
            if let Some(stats) = c["stats"].as_object().filter(|m| !m.is_empty()) {
                out.push_str(r#"<table class="stats-comparison"><tr><th>statistic</th><th>base</th><th>variant</th><th>difference</th><th>z</th><th>p</th></tr>"#);
                for (name, st) in stats {
                    let sig = if st["significant"].as_bool() == Some(true) {
                        r#" class="sig""#
                    } else {
                        ""
                    };
                    let shown = |v: &Value| {
                        if st["kind"] == "bool" {
                            pct(v)
                        } else {
                            format!("{:.2}", f(v))
                        }
                    };
                    let diff = if st["kind"] == "bool" {
                        format!("{:+.1} points", 100.0 * f(&st["difference"]))
                    } else {
                        format!("{:+.2}", f(&st["difference"]))
                    };
                    let _ = write!(out, "<tr><td>{}</td><td>{}</td><td>{}</td><td{sig}>{diff}</td><td>{:.2}</td><td{sig}>{:.4}</td></tr>", esc(name), shown(&st["base"]), shown(&st["variant"]), f(&st["z"]), f(&st["p_value"]));
                }
                out.push_str("</table>\n");
            }
        }
    }
    out.push_str("\n<h2>Score distribution</h2>\n");
    out.push_str(&svg_scores(studies, n));
    out.push_str("\n<h2>Game length</h2>\n");
    out.push_str(&svg_lengths(studies));
    out.push_str("\n</body></html>\n");
    out
}
