//! Shared helpers for the data-driven tests: finding rulesets on disk, loading them,
//! and driving games by option label.

use std::path::{Path, PathBuf};

pub mod generate;
pub mod playouts;

use frontier_interpreter::agent::{Agent, RandomAgent};
use frontier_interpreter::model::Domain;
use frontier_interpreter::runner::{self, GameRecord, Recording};
use frontier_interpreter::trace::evaluate;
use frontier_interpreter::{
    load, Choice, Game, GameRng, Journal, RulesetSource, State, Status, Stepper, Value,
};

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every ruleset folder under rulesets/, by name, sorted.
pub fn ruleset_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(workspace().join("rulesets"))
        .expect("rulesets/ exists")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("ruleset.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The variants shipped beside the rulesets, named as the CLI embeds them: the file
/// `rulesets/<game>/variants/NAME.yaml` is `<game>-NAME`.
pub fn variant_names() -> Vec<String> {
    let mut out = Vec::new();
    for game in ruleset_names() {
        let Ok(entries) =
            std::fs::read_dir(workspace().join("rulesets").join(&game).join("variants"))
        else {
            continue;
        };
        let mut stems: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
            .collect();
        stems.sort();
        out.extend(stems.into_iter().map(|s| format!("{game}-{s}")));
    }
    out
}

/// Every ruleset and every shipped variant, by name.
pub fn all_ruleset_names() -> Vec<String> {
    let mut names = ruleset_names();
    names.extend(variant_names());
    names
}

/// The file or folder of a ruleset or shipped variant name.
pub fn ruleset_path(name: &str) -> PathBuf {
    let dir = workspace().join("rulesets").join(name);
    if dir.is_dir() {
        return dir;
    }
    for game in ruleset_names() {
        if let Some(stem) = name.strip_prefix(&format!("{game}-")) {
            let file = workspace()
                .join("rulesets")
                .join(&game)
                .join("variants")
                .join(format!("{stem}.yaml"));
            if file.is_file() {
                return file;
            }
        }
    }
    dir
}

/// A ruleset written in the test itself, without scripts: `file` is the name its
/// diagnostics give.
pub fn text_source(origin: &str, file: &str, text: impl Into<String>) -> RulesetSource {
    RulesetSource {
        origin: origin.into(),
        file: file.into(),
        text: text.into(),
        scripts: Vec::new(),
    }
}

/// Reads a ruleset file (or folder) the way the CLI does.
pub fn source(path: &Path) -> RulesetSource {
    let (file, dir) = if path.is_dir() {
        (path.join("ruleset.yaml"), path.to_path_buf())
    } else {
        (path.to_path_buf(), path.parent().unwrap().to_path_buf())
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut scripts = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir.join("scripts")) {
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            scripts.push((
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    RulesetSource {
        origin: path.display().to_string(),
        file: name,
        text,
        scripts,
    }
}

/// Finds a ruleset or shipped variant by name (the resolver of `extends:`).
pub fn resolve(name: &str) -> Result<RulesetSource, String> {
    let path = ruleset_path(name);
    if path.exists() {
        Ok(source(&path))
    } else {
        Err(format!("no ruleset {name}"))
    }
}

pub fn load_source(src: &RulesetSource) -> Result<Game, frontier_interpreter::LoadError> {
    load(src, &resolve)
}

pub fn load_ruleset(name: &str) -> Game {
    let src = source(&ruleset_path(name));
    load_source(&src).unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

/// A ruleset (or shipped variant) with some parameters set, as a trace's `param` lines do.
pub fn load_ruleset_with(name: &str, params: &[(String, i64)]) -> Game {
    let src = source(&ruleset_path(name));
    frontier_interpreter::load_with_params(&src, &resolve, params, Default::default())
        .unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

pub fn names(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("p{i}")).collect()
}

/// Applies the option whose label is `label`, or panics listing the legal ones.
pub fn choose(game: &Game, state: &mut State, label: &str) {
    let labels = game.option_labels(state).expect("labels render");
    let Some(i) = labels.iter().position(|l| l == label) else {
        panic!("'{label}' is not legal here; options: {labels:?}");
    };
    game.apply(state, Choice::Option(i), &mut Journal::off())
        .expect("apply");
}

/// Dictates the outcome of the pending chance point, as a trace writes it (a die: "5"; a
/// shuffle: the elements in their new order).
pub fn chance(game: &Game, state: &mut State, outcome: &str) {
    assert!(
        matches!(game.status(state), Status::Chance(_)),
        "expected a chance point before '{outcome}', options: {:?}",
        options(game, state)
    );
    let c = game
        .parse_outcome(state, outcome)
        .unwrap_or_else(|| panic!("'{outcome}' is not a possible outcome"));
    game.apply(state, c, &mut Journal::off()).unwrap();
}

/// A full random game: agents and chance from `seed`.
pub fn random_game(
    game: &Game,
    players: usize,
    seed: u64,
    recording: Recording,
) -> (GameRecord, State) {
    let state = game.start(names(players)).expect("start");
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| Box::new(RandomAgent::new(GameRng::derived(seed, p as u64 + 1))) as Box<dyn Agent>)
        .collect();
    let mut rng = GameRng::new(seed);
    runner::run(game, state, &mut rng, &mut agents, recording, 200_000)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
}

/// A seeded random playout as `frontier bench` and `frontier simulate` play it: a
/// `RandomAgent` per seat from `GameRng::derived(seed, seat + 1)`, chance from
/// `GameRng::new(seed)`, players named p1, p2, ….
pub fn play_random(game: &Game, players: usize, seed: u64, recording: Recording) -> GameRecord {
    play_random_stepped(Stepper::walker(game), players, seed, recording)
}

/// [`play_random`], stepped by `stepper` (with compiled code, or the walker alone).
pub fn play_random_stepped(
    stepper: Stepper,
    players: usize,
    seed: u64,
    recording: Recording,
) -> GameRecord {
    let state = stepper.game().start(names(players)).expect("start");
    let mut agents: Vec<Box<dyn Agent>> = (0..players)
        .map(|p| Box::new(RandomAgent::new(GameRng::derived(seed, p as u64 + 1))) as Box<dyn Agent>)
        .collect();
    let mut rng = GameRng::new(seed);
    runner::run_stepped(
        stepper,
        state,
        &mut rng,
        &mut agents,
        recording,
        runner::MAX_STEPS,
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
    .0
}

/// The state after the first `decisions` decisions of the seeded random playout
/// `play_random` plays (or the final state, if the game ends before).
pub fn random_state(game: &Game, players: usize, seed: u64, decisions: u64) -> State {
    let mut state = game.start(names(players)).expect("start");
    let mut agents: Vec<RandomAgent> = (0..players)
        .map(|p| RandomAgent::new(GameRng::derived(seed, p as u64 + 1)))
        .collect();
    let mut rng = GameRng::new(seed);
    let mut taken = 0;
    loop {
        let choice = match game.status(&state) {
            Status::Over(_) => return state,
            Status::Decision { player, .. } => {
                if taken == decisions {
                    return state;
                }
                taken += 1;
                let view = game.view(&state).expect("a decision has a view");
                Choice::Option(
                    agents[player as usize]
                        .decide(&view)
                        .expect("random decision"),
                )
            }
            Status::Chance(c) => runner::sample_chance(&state, c, &mut rng),
        };
        game.apply(&mut state, choice, &mut Journal::off())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

/// The options of the pending decision, as labels.
pub fn options(game: &Game, state: &State) -> Vec<String> {
    match game.status(state) {
        Status::Decision { .. } => game.option_labels(state).unwrap(),
        _ => Vec::new(),
    }
}

/// A position with these players (`red, green, blue`); `vars` and `zones` are YAML lines
/// indented by two spaces, as a position file writes them.
pub fn position(game: &Game, players: &str, vars: &str, zones: &str) -> State {
    let text = format!("players: [{players}]\ninitial: rest\nvars:\n{vars}\nzones:\n{zones}\n");
    game.state_from_yaml(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A state variable's stored number for an index written as a player name or a row id
/// (players and rows are stored as seat and row numbers, none as -1).
pub fn var(game: &Game, state: &State, name: &str, index: &str) -> i64 {
    let (_, v) = game
        .var(name)
        .unwrap_or_else(|| panic!("no variable {name}"));
    let i = match v.per {
        Domain::Players => state
            .names()
            .iter()
            .position(|n| n == index)
            .unwrap_or_else(|| panic!("no player {index}")),
        Domain::Table(t) => game.tables[t.index()]
            .row_index(index)
            .unwrap_or_else(|| panic!("no row {index}")) as usize,
        Domain::Global => 0,
        Domain::Pair(..) => panic!("{name} has two keys: read it with eval(\"{name}[…, …]\")"),
    };
    state.ints()[v.base + i]
}

/// The value of an expression of the ruleset's language, the players' names bound.
pub fn eval(game: &Game, state: &State, source: &str) -> Value {
    evaluate(game, state, source).unwrap_or_else(|e| panic!("{e}"))
}

/// A number-valued expression.
pub fn int(game: &Game, state: &State, source: &str) -> i64 {
    match eval(game, state, source) {
        Value::Int(n) => n,
        other => panic!("{source} = {other:?}, not a number"),
    }
}

/// An expression's value written as players read it (ids, names, lists space-separated).
pub fn text(game: &Game, state: &State, source: &str) -> String {
    game.value_text(&eval(game, state, source), state.names())
}

/// The rule references a shipped trace's game runs through (its setup included), and the
/// game it was replayed with.
pub fn rules_run_by(trace_path: &Path) -> (Game, std::collections::BTreeSet<std::sync::Arc<str>>) {
    use frontier_interpreter::frontier_grammar::trace::{parse, RulesetRef, Start};
    use frontier_interpreter::trace::{replay_covering, starting_state};
    let text = std::fs::read_to_string(trace_path)
        .unwrap_or_else(|e| panic!("{}: {e}", trace_path.display()));
    let trace = parse(&text).unwrap_or_else(|e| panic!("{}: {e:?}", trace_path.display()));
    let RulesetRef::Name(name) = &trace.header.ruleset else {
        panic!(
            "{}: shipped traces name their ruleset",
            trace_path.display()
        )
    };
    let src = source(&ruleset_path(name));
    let game = frontier_interpreter::load_with_params(
        &src,
        &resolve,
        &trace.header.params,
        Default::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let dir = trace_path.parent().unwrap();
    let start = starting_state(&game, &trace, |p| {
        std::fs::read_to_string(dir.join(p)).map_err(|e| e.to_string())
    })
    .unwrap_or_else(|d| panic!("{d}"));
    let mut ran = std::collections::BTreeSet::new();
    if let Start::Setup = trace.header.start {
        let _ = game.start_logged(trace.header.players.clone(), &mut Journal::rules(&mut ran));
    }
    replay_covering(
        frontier_interpreter::Stepper::walker(&game),
        &trace,
        start,
        &mut ran,
    )
    .unwrap_or_else(|d| panic!("{}: {d}", trace_path.display()));
    (game, ran)
}

/// The files of a folder with this extension, sorted (the folder must exist).
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// A ruleset that names every kind of declaration `n` times: `n` rows referring to `n`
/// rows (`links[i].to` is `s{n-1-i}`), `n` functions calling one (`f{i}()` is `base() +
/// i`), `n` tables of one row `k{i}r` with a state variable of each type (`kv{i}`), `n`
/// state variables, `n` stat counters, `n` zones and `n` procedures, and `2n`
/// statements: `n` naming a row (the last sets `at` to `s{n-1}`) and `n` calls, procedure
/// `p{i}` setting `v{i}` to `v{n-1-i} + 1`, adding 1 to `c{i}` and putting `s{i}` in
/// `z{i}`. The `loading` bench times it at several sizes.
pub fn large_ruleset(n: usize) -> RulesetSource {
    let mut text =
        String::from("frontier: 1\nname: large\nplayers: 2\ntables:\n  spots:\n    rows:\n");
    text.extend((0..n).map(|i| format!("      - s{i}\n")));
    text.push_str("  links:\n    columns: { to: spots }\n    rows:\n");
    text.extend((0..n).map(|i| format!("      - [l{i}, s{}]\n", n - 1 - i)));
    text.extend((0..n).map(|i| format!("  k{i}: {{ rows: [k{i}r] }}\n")));
    text.push_str("state:\n  at: { type: spots, init: none }\n");
    text.extend((0..n).map(|i| format!("  v{i}: {{ init: {i} }}\n")));
    text.extend((0..n).map(|i| format!("  kv{i}: {{ type: k{i}, init: \"@k{i}r\" }}\n")));
    text.push_str("stats:\n");
    text.extend((0..n).map(|i| format!("  c{i}: {{ counter: true }}\n")));
    text.push_str("zones:\n");
    text.extend((0..n).map(|i| format!("  z{i}: {{ of: spots }}\n")));
    text.push_str("functions:\n  base: { returns: int, value: \"1\" }\n");
    text.extend((0..n).map(|i| format!("  f{i}: {{ returns: int, value: \"base() + {i}\" }}\n")));
    text.push_str("procedures:\n");
    text.extend((0..n).map(|i| {
        format!("  p{i}: [{{ set: {{ v{i}: \"v{} + 1\" }} }}, {{ add: {{ c{i}: 1 }} }}, {{ push: {{ to: z{i}, value: \"@s{i}\" }} }}]\n", n - 1 - i)
    }));
    text.push_str("play:\n");
    text.extend((0..n).map(|i| format!("  - set: {{ at: \"@s{i}\" }}\n")));
    text.extend((0..n).map(|i| format!("  - call: p{i}\n")));
    text.push_str("ranking:\n  score: \"f0()\"\n");
    text_source("large", "ruleset.yaml", text)
}
