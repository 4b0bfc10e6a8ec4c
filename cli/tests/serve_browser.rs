//! `frontier serve` in a real browser: headless Chromium (Debian's `chromium`, never a
//! downloaded one) driven over the DevTools protocol. A person starts a Circle the Wagons
//! game against a bot from the start page and places cards by clicking the board until
//! the final scores show; plays Go West turns with the option buttons; replays a shipped
//! trace to its end with the keyboard; sees a tampered trace's failing line and the legal
//! options (scrolled into view); plays hot seat, whose screen is hidden only when another
//! person decides; lays a game out at 390, 1024 and 1440 px (the board first, the
//! decision and log beside or below it, never over it) with its decision announced in a
//! live region; finds every control of the start page labelled. Every wait is on a
//! condition of the page, never a fixed sleep.
//!
//! With `AXE_CORE` naming axe-core's `axe.min.js` (npm's axe-core package, not part of the
//! repository), every page is also checked by it: no violation of serious or critical
//! impact.
//!
//! Screenshots go to the test's scratch folder; with `UPDATE_SCREENSHOTS=1` also to
//! docs/serve-<ruleset>.png, the pictures the README shows. Skipped when no Chromium is
//! installed, except under CI (`.ci/run` installs it).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use headless_chrome::browser::tab::point::Point;
use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};

/// The longest a page condition is waited for (a slow CI machine, a bot's turn).
const PATIENCE: Duration = Duration::from_secs(90);

/// The Chromium binary: $CHROMIUM, else `chromium` or `chromium-browser` on PATH.
fn chromium() -> Option<PathBuf> {
    if let Some(c) = std::env::var_os("CHROMIUM").filter(|c| !c.is_empty()) {
        return Some(PathBuf::from(c));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
        .find(|p| p.is_file())
}

/// A `frontier serve` on a free port, stopped when dropped.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_frontier"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("frontier serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("its output"))
            .read_line(&mut first)
            .expect("it says where it listens");
        let url = first
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .expect("a URL on its first line")
            .trim_end_matches('/')
            .to_string();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn browser(profile: &Path) -> Browser {
    let options = LaunchOptions::default_builder()
        .path(chromium())
        .headless(true)
        .sandbox(false)
        .window_size(Some((1400, 1000)))
        .user_data_dir(Some(profile.to_path_buf()))
        .idle_browser_timeout(Duration::from_secs(300))
        .args(
            [
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ]
            .iter()
            .map(std::ffi::OsStr::new)
            .collect(),
        )
        .build()
        .expect("launch options");
    Browser::new(options).expect("chromium starts")
}

/// The value of a JavaScript expression in the page (carried back as JSON text, so that
/// arrays and objects arrive whole).
fn eval(tab: &Tab, js: &str) -> serde_json::Value {
    let wrapped = format!("JSON.stringify({js})");
    let value = tab
        .evaluate(&wrapped, false)
        .unwrap_or_else(|e| panic!("{js}: {e}"))
        .value;
    match value {
        Some(serde_json::Value::String(text)) => {
            serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
        }
        _ => serde_json::Value::Null,
    }
}

/// Waits until a JavaScript condition holds in the page; says what it waited for if not.
fn wait_until(tab: &Tab, condition: &str, what: &str) {
    let start = Instant::now();
    loop {
        if tab
            .evaluate(condition, false)
            .ok()
            .and_then(|r| r.value)
            .and_then(|v| v.as_bool())
            == Some(true)
        {
            return;
        }
        assert!(
            start.elapsed() < PATIENCE,
            "waited {PATIENCE:?} for {what} ({condition}); the page says: {}",
            eval(tab, "document.body.innerText.slice(0, 2000)")
        );
        std::thread::sleep(Duration::from_millis(40));
    }
}

/// A real mouse click in the middle of the element (an SVG cell as much as a button).
fn click(tab: &Tab, selector: &str) {
    let js = format!(
        "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center', inline: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
        sel = serde_json::to_string(selector).unwrap()
    );
    let at = eval(tab, &js);
    let at = at
        .as_array()
        .unwrap_or_else(|| panic!("nothing to click at {selector}"));
    tab.click_point(Point {
        x: at[0].as_f64().unwrap(),
        y: at[1].as_f64().unwrap(),
    })
    .expect("the click");
}

fn renders(tab: &Tab) -> u64 {
    eval(tab, "Number(document.body.dataset.renders || 0)")
        .as_u64()
        .unwrap_or(0)
}

/// Starts a game from the start page: the ruleset's form, one seat per entry of `seats`
/// (`human`, `random`…), a seed, and the mode (`tab` or `hotseat`); waits for the game
/// page's first drawing.
fn start_game(tab: &Tab, server: &Server, ruleset: &str, seats: &[&str], mode: &str, seed: u64) {
    tab.navigate_to(&format!("{}/", server.url))
        .expect("the start page")
        .wait_until_navigated()
        .expect("it loads");
    let form = format!("article[data-name=\"{ruleset}\"] form");
    let players = seats.len();
    wait_until(
        tab,
        &format!("!!document.querySelector('{form} .seat')"),
        "the start form",
    );
    eval(
        tab,
        &format!(
            "(() => {{ const f = document.querySelector('{form}'); const n = f.querySelector('.player-count'); n.value = '{players}'; n.dispatchEvent(new Event('change')); f.querySelector('.seed').value = '{seed}'; f.querySelector('.mode').value = '{mode}'; }})()"
        ),
    );
    wait_until(
        tab,
        &format!("document.querySelectorAll('{form} .seat').length === {players}"),
        "a seat per player",
    );
    let kinds = serde_json::to_string(seats).unwrap();
    eval(tab, &format!("[...document.querySelectorAll('{form} .seat')].forEach((s, i) => s.value = {kinds}[i])"));
    click(tab, &format!("{form} button.start"));
    wait_until(
        tab,
        "location.pathname.startsWith('/game/') && Number(document.body.dataset.renders || 0) > 0",
        "the game page",
    );
}

/// A seat of people then bots: `human` first, `random` for the others.
fn against_bots(players: usize) -> Vec<&'static str> {
    (0..players)
        .map(|i| if i == 0 { "human" } else { "random" })
        .collect()
}

fn screenshot(tab: &Tab, name: &str) {
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screenshots");
    std::fs::create_dir_all(&scratch).unwrap();
    std::fs::write(scratch.join(format!("{name}.png")), &png).unwrap();
    if std::env::var_os("UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs")
            .join(format!("serve-{name}.png"));
        std::fs::write(docs, &png).unwrap();
    }
}

#[test]
fn play_watch_and_replay_in_headless_chromium() {
    if chromium().is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but no chromium is installed (.ci/run installs Debian's chromium)"
        );
        eprintln!("skipped: no chromium on PATH (set CHROMIUM to a Chromium binary)");
        return;
    }
    let server = Server::start();
    let profile = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("serve-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let browser = browser(&profile);
    let tab = browser.new_tab().expect("a tab");
    tab.set_default_timeout(PATIENCE);

    type Scenario = (&'static str, fn(&Tab, &Server));
    let scenarios: [Scenario; 9] = [
        (
            "circle the wagons by clicking the board",
            circle_the_wagons_by_clicking_the_board,
        ),
        ("go west with buttons", go_west_with_buttons),
        ("go west in hot seat", go_west_in_hot_seat),
        (
            "the start page's controls are labelled",
            the_start_page_s_controls_are_labelled,
        ),
        (
            "a game's layout at three widths",
            a_game_s_layout_at_three_widths,
        ),
        (
            "axe-core finds nothing serious",
            axe_core_finds_nothing_serious,
        ),
        (
            "every other game draws its board",
            every_other_game_draws_its_board,
        ),
        (
            "a shipped trace replays to its end",
            a_shipped_trace_replays_to_its_end,
        ),
        (
            "a tampered trace shows its failing line",
            a_tampered_trace_shows_its_failing_line,
        ),
    ];
    for (name, scenario) in scenarios {
        let start = Instant::now();
        scenario(&tab, &server);
        eprintln!("{name}: {:.1} s", start.elapsed().as_secs_f64());
    }

    drop(browser);
    let _ = std::fs::remove_dir_all(&profile);
}

/// Places cards by clicking the board (the cells an option names), takes cards by clicking
/// them in the circle, until the final scores show.
fn circle_the_wagons_by_clicking_the_board(tab: &Tab, server: &Server) {
    start_game(
        tab,
        server,
        "circle-the-wagons",
        &against_bots(2),
        "tab",
        11,
    );
    let mut clicks = 0;
    let mut board_clicks = 0;
    let mut shot = false;
    while eval(tab, "!!document.querySelector('#final-scores')") != serde_json::Value::Bool(true) {
        wait_until(tab, "!!document.querySelector('#final-scores') || document.querySelectorAll('#decision button.option:not([disabled])').length > 0", "a decision or the end");
        if eval(tab, "!!document.querySelector('#final-scores')") == serde_json::Value::Bool(true) {
            break;
        }
        let before = renders(tab);
        // A cell to place on (a dashed target) first, else a card to take, else a button.
        let target = eval(tab, "(() => { const t = document.querySelector('#board .cell.target.pick') || document.querySelector('#board .card.pick'); if (!t) return null; t.id = 'next-pick'; return t.classList.contains('cell'); })()");
        match target {
            serde_json::Value::Bool(is_cell) => {
                click(tab, "#next-pick");
                board_clicks += usize::from(is_cell);
                // Upright or turned: the click leaves the options of that cell.
                if eval(tab, "!!document.querySelector('#show-all')")
                    == serde_json::Value::Bool(true)
                {
                    click(tab, "#decision button.option:not(.hidden-option)");
                }
            }
            _ => click(tab, "#decision button.option"),
        }
        wait_until(
            tab,
            &format!("Number(document.body.dataset.renders) > {before}"),
            "the page after a choice",
        );
        clicks += 1;
        if clicks == 14 && !shot {
            screenshot(tab, "circle-the-wagons");
            shot = true;
        }
        assert!(
            clicks < 300,
            "Circle the Wagons did not end after {clicks} clicks"
        );
    }
    assert!(
        board_clicks >= 10,
        "only {board_clicks} cards were placed by clicking the board"
    );
    let rows = eval(tab, "document.querySelectorAll('#final-scores tr').length")
        .as_u64()
        .unwrap();
    assert_eq!(rows, 3, "a header and two players in the final scores");
    assert!(eval(tab, "document.querySelector('#status').innerText")
        .as_str()
        .unwrap()
        .contains("Game over"));
}

/// A few Go West turns with the option buttons against two bots.
fn go_west_with_buttons(tab: &Tab, server: &Server) {
    start_game(tab, server, "go-west", &against_bots(3), "tab", 5);
    let first_steps = eval(tab, "document.querySelector('#title').innerText")
        .as_str()
        .unwrap()
        .to_string();
    for turn in 0..8 {
        wait_until(
            tab,
            "document.querySelectorAll('#decision button.option:not([disabled])').length > 0",
            "a Go West decision",
        );
        let before = renders(tab);
        // The last button: an action other than the first (selling, scoring, a second card).
        let n = eval(
            tab,
            "document.querySelectorAll('#decision button.option').length",
        )
        .as_u64()
        .unwrap();
        eval(
            tab,
            &format!(
                "document.querySelectorAll('#decision button.option')[{}].id = 'chosen'",
                (turn as u64) % n
            ),
        );
        click(tab, "#chosen");
        wait_until(
            tab,
            &format!("Number(document.body.dataset.renders) > {before}"),
            "the page after a Go West choice",
        );
    }
    let title = eval(tab, "document.querySelector('#title').innerText")
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(title, first_steps, "the steps moved on");
    assert!(
        eval(tab, "document.querySelectorAll('#log li').length")
            .as_u64()
            .unwrap()
            > 10,
        "the log grows"
    );
    assert!(
        eval(
            tab,
            "document.querySelectorAll('#board svg.tracks .slot').length"
        )
        .as_u64()
        .unwrap()
            >= 28,
        "the tracks are drawn"
    );
    // The other players' hands are face down.
    assert!(
        eval(
            tab,
            "document.querySelectorAll('.player:not(:first-child) .card.face-down').length"
        )
        .as_u64()
        .unwrap()
            > 0
    );
    screenshot(tab, "go-west");
}

/// Hot seat: two people at one screen; a hand is shown only once its player asks, and
/// hidden again once another person is to decide (not when the same one goes on).
fn go_west_in_hot_seat(tab: &Tab, server: &Server) {
    start_game(tab, server, "go-west", &["human", "human"], "hotseat", 8);
    let face_up_hands = "document.querySelectorAll('.player .card:not(.face-down)').length";
    let options = "document.querySelectorAll('#decision button.option:not([disabled])').length > 0";
    let mut hidden = 0;
    for _ in 0..6 {
        wait_until(
            tab,
            &format!("!!document.querySelector('#show-hand') || {options}"),
            "the hot seat's button or the same person's next decision",
        );
        if eval(tab, "!!document.querySelector('#show-hand')") == serde_json::Value::Bool(true) {
            hidden += 1;
            assert_eq!(
                eval(tab, face_up_hands).as_u64(),
                Some(0),
                "a hand shows before its player asked"
            );
            assert_eq!(
                eval(
                    tab,
                    "document.querySelectorAll('#decision button.option').length"
                )
                .as_u64(),
                Some(0)
            );
            click(tab, "#show-hand");
            wait_until(tab, options, "the decider's options");
        }
        assert!(
            eval(tab, face_up_hands).as_u64().unwrap() > 0,
            "the decider sees their hand"
        );
        let decider = eval(tab, "document.body.dataset.decider");
        let before = renders(tab);
        click(tab, "#decision button.option");
        wait_until(
            tab,
            &format!("Number(document.body.dataset.renders) > {before} && (!!document.querySelector('#show-hand') || {options})"),
            "the next decision",
        );
        let now = eval(tab, "document.body.dataset.decider");
        let screen_hidden =
            eval(tab, "!!document.querySelector('#show-hand')") == serde_json::Value::Bool(true);
        assert_eq!(
            screen_hidden,
            now != decider,
            "the screen is hidden exactly when another person decides (p{decider} then p{now})"
        );
    }
    assert!(hidden >= 2, "the hand was hidden {hidden} times");
}

/// Every control of the start page has a name a screen reader can say.
fn the_start_page_s_controls_are_labelled(tab: &Tab, server: &Server) {
    tab.navigate_to(&format!("{}/", server.url))
        .expect("the start page")
        .wait_until_navigated()
        .expect("it loads");
    wait_until(
        tab,
        "!!document.querySelector('.new-game .seat')",
        "the start forms",
    );
    let controls = eval(
        tab,
        "document.querySelectorAll('input, select, textarea, button').length",
    )
    .as_u64()
    .unwrap();
    assert!(controls > 50, "{controls} controls");
    let unlabelled = eval(
        tab,
        "[...document.querySelectorAll('input, select, textarea, button')].filter(e => !(e.getAttribute('aria-label') || (e.labels && e.labels.length) || (e.tagName === 'BUTTON' && e.textContent.trim()))).map(e => e.outerHTML.slice(0, 120))",
    );
    assert_eq!(unlabelled, serde_json::json!([]), "unlabelled controls");
}

/// The page at a phone's, a tablet's and a desktop's width.
fn set_width(tab: &Tab, width: u32) {
    use headless_chrome::protocol::cdp::Emulation::SetDeviceMetricsOverride;
    tab.call_method(SetDeviceMetricsOverride {
        width,
        height: 900,
        device_scale_factor: 1.0,
        mobile: width < 600,
        scale: None,
        screen_width: None,
        screen_height: None,
        position_x: None,
        position_y: None,
        dont_set_visible_size: None,
        screen_orientation: None,
        viewport: None,
        display_feature: None,
        device_posture: None,
    })
    .expect("the width");
}

/// Gold West (the widest map) at 390, 1024 and 1440 px: the page does not scroll
/// sideways, the board comes first and the decision and log are beside or below it, never
/// over it; the decision is announced in the live region.
fn a_game_s_layout_at_three_widths(tab: &Tab, server: &Server) {
    start_game(tab, server, "gold-west", &against_bots(2), "tab", 4);
    wait_until(
        tab,
        "document.body.dataset.busy === 'false' && document.querySelectorAll('#decision button.option').length > 0",
        "p1's first decision",
    );
    let announced = eval(tab, "document.querySelector('#announce').textContent");
    assert!(
        announced
            .as_str()
            .unwrap_or_default()
            .contains("your decision"),
        "the live region says {announced}"
    );
    assert_eq!(
        eval(
            tab,
            "document.querySelector('#announce').getAttribute('aria-live')"
        ),
        serde_json::json!("polite")
    );
    for width in [390u32, 1024, 1440] {
        set_width(tab, width);
        wait_until(
            tab,
            &format!("window.innerWidth === {width}"),
            "the new width",
        );
        let layout = eval(
            tab,
            "(() => { const b = document.querySelector('#board').getBoundingClientRect(); const a = document.querySelector('main.game aside').getBoundingClientRect(); return { page: document.documentElement.scrollWidth, board: [b.left, b.top, b.right, b.bottom], aside: [a.left, a.top, a.right, a.bottom] }; })()",
        );
        let at = |k: &str, i: usize| layout[k][i].as_f64().unwrap();
        assert!(
            layout["page"].as_f64().unwrap() <= width as f64 + 1.0,
            "{width} px: the page scrolls sideways: {layout}"
        );
        let beside = at("board", 2) <= at("aside", 0) + 1.0;
        let below = at("aside", 1) >= at("board", 3) - 1.0;
        assert!(
            beside || below,
            "{width} px: the decision covers the board: {layout}"
        );
        if width < 600 {
            assert!(below, "{width} px: the board comes first: {layout}");
        }
        screenshot(tab, &format!("layout-{width}"));
    }
    set_width(tab, 1400);
}

fn every_other_game_draws_its_board(tab: &Tab, server: &Server) {
    for (ruleset, players, drawn) in [
        ("way-out-west", 3, "svg.tracks"),
        ("gold-west", 2, "svg.hexes .hex"),
        ("grand-junction", 5, ".player .counter"),
    ] {
        start_game(tab, server, ruleset, &against_bots(players), "tab", 3);
        wait_until(
            tab,
            &format!("!!document.querySelector('#board {drawn}') && document.body.dataset.busy === 'false'"),
            &format!("{ruleset}'s board"),
        );
        // A few decisions in, so that the board holds something.
        for _ in 0..4 {
            if eval(
                tab,
                "document.querySelectorAll('#decision button.option:not([disabled])').length > 0",
            ) != serde_json::Value::Bool(true)
            {
                break;
            }
            let before = renders(tab);
            click(tab, "#decision button.option");
            wait_until(
                tab,
                &format!("Number(document.body.dataset.renders) > {before} && document.body.dataset.busy === 'false'"),
                "the page after a choice and the bots' moves",
            );
        }
        screenshot(tab, ruleset);
    }
}

fn open_replay(tab: &Tab, server: &Server, trace: &str) {
    tab.navigate_to(&format!("{}/replay", server.url))
        .expect("the replay page")
        .wait_until_navigated()
        .expect("it loads");
    wait_until(
        tab,
        "!!document.querySelector('#trace-text')",
        "the replay page",
    );
    eval(
        tab,
        &format!(
            "document.querySelector('#trace-text').value = {}",
            serde_json::to_string(trace).unwrap()
        ),
    );
    click(tab, "#load-trace");
    wait_until(
        tab,
        "!document.querySelector('#player').hidden",
        "the replay",
    );
}

fn a_shipped_trace_replays_to_its_end(tab: &Tab, server: &Server) {
    let trace = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets/circle-the-wagons/traces/full-game.trace"),
    )
    .unwrap();
    open_replay(tab, server, &trace);
    let last = eval(tab, "Number(document.querySelector('#slider').max)")
        .as_u64()
        .unwrap();
    assert!(last > 3, "{last} steps");
    assert_eq!(
        eval(tab, "document.querySelector('#failure').hidden"),
        serde_json::Value::Bool(true)
    );
    // Step with the keyboard: → to the next step, End to the last, ← back one.
    tab.press_key("ArrowRight").unwrap();
    wait_until(
        tab,
        "document.querySelector('#position').dataset.step === '1'",
        "step 1",
    );
    tab.press_key("End").unwrap();
    wait_until(
        tab,
        &format!("document.querySelector('#position').dataset.step === '{last}'"),
        "the last step",
    );
    tab.press_key("ArrowLeft").unwrap();
    wait_until(
        tab,
        &format!(
            "document.querySelector('#position').dataset.step === '{}'",
            last - 1
        ),
        "one step back",
    );
    assert!(
        eval(tab, "!!document.querySelector('#lines li.current')") == serde_json::Value::Bool(true),
        "the step's line is marked"
    );
}

fn a_tampered_trace_shows_its_failing_line(tab: &Tab, server: &Server) {
    let trace = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets/circle-the-wagons/traces/full-game.trace"),
    )
    .unwrap();
    let tampered = trace.replacen(
        "p1: place c13 upright at (0,0)",
        "p1: place c13 upright at (5,5)",
        1,
    );
    let line = tampered.lines().position(|l| l.contains("(5,5)")).unwrap() + 1;
    open_replay(tab, server, &tampered);
    wait_until(
        tab,
        "!!document.querySelector('#lines li.failing')",
        "the failing line",
    );
    assert_eq!(
        eval(
            tab,
            "document.querySelector('#lines li.failing').dataset.line"
        )
        .as_str(),
        Some(line.to_string().as_str())
    );
    // Scrolled into view in the list of lines.
    wait_until(
        tab,
        "(() => { const l = document.querySelector('#lines li.failing').getBoundingClientRect(); const box = document.querySelector('#lines').getBoundingClientRect(); return l.top >= box.top - 1 && l.bottom <= box.bottom + 1; })()",
        "the failing line in view",
    );
    let legal = eval(
        tab,
        "[...document.querySelectorAll('#legal li')].map(li => li.textContent)",
    );
    assert!(
        legal
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o == "place c13 upright at (0,0)"),
        "{legal}"
    );
    screenshot(tab, "replay-failing");
}

/// The violations of serious or critical impact axe-core finds in the page (its rule, how
/// many elements, the first ones).
fn axe_violations(tab: &Tab, axe: &str) -> Vec<serde_json::Value> {
    tab.evaluate(axe, false).expect("axe-core loads");
    let found = tab
        .evaluate(
            "axe.run(document, {resultTypes: ['violations']}).then(r => JSON.stringify(r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => [v.id, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' '))])))",
            true,
        )
        .expect("axe-core runs");
    match found.value {
        Some(serde_json::Value::String(text)) => serde_json::from_str(&text).unwrap_or_default(),
        other => panic!("axe-core answered {other:?}"),
    }
}

/// The start page, a game page of each shipped board game and the replay page pass
/// axe-core's checks of serious and critical impact (when `AXE_CORE` names axe.min.js).
fn axe_core_finds_nothing_serious(tab: &Tab, server: &Server) {
    let Some(path) = std::env::var_os("AXE_CORE").filter(|p| !p.is_empty()) else {
        eprintln!("axe-core check skipped: set AXE_CORE to axe-core's axe.min.js");
        return;
    };
    let axe = std::fs::read_to_string(&path).expect("AXE_CORE is readable");
    let mut found = Vec::new();
    tab.navigate_to(&format!("{}/", server.url))
        .expect("the start page")
        .wait_until_navigated()
        .expect("it loads");
    wait_until(
        tab,
        "!!document.querySelector('.new-game .seat')",
        "the start forms",
    );
    found.push(("start page", axe_violations(tab, &axe)));
    for (ruleset, players) in [
        ("circle-the-wagons", 2),
        ("go-west", 3),
        ("gold-west", 2),
        ("way-out-west", 3),
        ("grand-junction", 5),
    ] {
        start_game(tab, server, ruleset, &against_bots(players), "tab", 4);
        wait_until(
            tab,
            "document.body.dataset.busy === 'false'",
            "the first person's decision",
        );
        found.push((ruleset, axe_violations(tab, &axe)));
    }
    let trace = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../rulesets/circle-the-wagons/traces/full-game.trace"),
    )
    .unwrap();
    open_replay(tab, server, &trace);
    found.push(("replay page", axe_violations(tab, &axe)));
    let serious: Vec<_> = found.iter().filter(|(_, v)| !v.is_empty()).collect();
    assert!(serious.is_empty(), "axe-core: {serious:?}");
}
