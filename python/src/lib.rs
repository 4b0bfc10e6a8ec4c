//! `frontier._frontier`: Frontier rulesets played one numbered action at a time from
//! Python. A `Game` is a loaded ruleset for a number of players with its action
//! numbering; a `State` a game under way (`episode::Episode`). The Python package
//! (`frontier/__init__.py`) wraps them in OpenSpiel's game API and registers the
//! embedded rulesets with `pyspiel`.

use std::collections::BTreeMap;
use std::sync::Arc;

use frontier_engine::SharedCompiled;
use frontier_interpreter::actions::ActionSpace;
use frontier_interpreter::episode::{Episode, Node, Utility};
use frontier_interpreter::frontier_grammar::trace::RulesetRef;
use frontier_interpreter::model::Visibility;
use frontier_interpreter::roster::AgentSpec;
use frontier_interpreter::runner::{self, Recording};
use frontier_interpreter::trace::write_trace;
use frontier_interpreter::{GameRng, Stepper};
use frontier_study::Settings;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// OpenSpiel's player ids for the nodes that are not a player's.
const CHANCE_PLAYER: i64 = -1;
const TERMINAL_PLAYER: i64 = -4;

/// What identifies a loaded game: enough to load it again (pickling a state).
#[derive(Clone, PartialEq, Eq)]
struct GameKey {
    ruleset: String,
    variant: Option<String>,
    players: usize,
    params: BTreeMap<String, i64>,
}

/// A ruleset loaded for a number of players, compiled, with its numbering.
struct Loaded {
    key: GameKey,
    game: Arc<frontier_interpreter::Game>,
    code: Option<SharedCompiled>,
    space: ActionSpace,
    names: Vec<String>,
}

impl Loaded {
    fn stepper(&self) -> Stepper<'_> {
        match &self.code {
            Some(code) => code.stepper(),
            None => Stepper::walker(&self.game),
        }
    }

    /// Loads `key`'s ruleset, compiled; with no number of players in it (0), for its
    /// minimum.
    fn load(mut key: GameKey) -> Result<Loaded, String> {
        let game = load_ruleset(&key)?;
        let (min, max) = (
            game.meta.min_players as usize,
            game.meta.max_players as usize,
        );
        if key.players == 0 {
            key.players = min;
        }
        if key.players < min || key.players > max {
            return Err(game.player_count_message(key.players));
        }
        let names = frontier_study::games::seat_names(key.players);
        let first = Episode::start(&game, names.clone())?;
        let space = ActionSpace::new(&game, first.elements());
        let game = Arc::new(game);
        let code = SharedCompiled::new(game.clone()).ok();
        Ok(Loaded {
            key,
            game,
            code,
            space,
            names,
        })
    }
}

/// Loads the ruleset (or variant) of `key` with its parameters.
fn load_ruleset(key: &GameKey) -> Result<frontier_interpreter::Game, String> {
    let settings = Settings::default();
    let limits = settings.limits;
    let spec = key.variant.as_deref().unwrap_or(&key.ruleset);
    let source = frontier_sources::resolve(spec, None, &limits)?;
    let resolver = frontier_sources::extends_resolver(&source, limits);
    let params: Vec<(String, i64)> = key.params.clone().into_iter().collect();
    let game = settings
        .load(&source, &resolver, &params)
        .map_err(|e| e.to_string())?;
    if let Some(variant) = &key.variant {
        let extends = game.meta.variant.as_ref().map(|v| v.extends.as_str());
        if extends != Some(key.ruleset.as_str()) {
            return Err(format!(
                "the variant {variant} extends {}, not {}",
                extends.unwrap_or("no ruleset"),
                key.ruleset
            ));
        }
    }
    Ok(game)
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A Frontier ruleset loaded for a number of players.
#[pyclass(frozen, module = "frontier._frontier")]
struct Game {
    loaded: Arc<Loaded>,
}

impl Game {
    /// The action numbers that take `steps` (each with where it comes from, for
    /// messages) from a new game.
    fn follow(&self, steps: &[(String, runner::Step)]) -> PyResult<Vec<u64>> {
        let loaded = &self.loaded;
        let mut state = self.new_initial_state()?;
        let mut out = Vec::new();
        for (at, step) in steps {
            let actions = state
                .episode
                .actions_of_step(&loaded.game, &loaded.space, step)
                .map_err(|e| value_error(format!("{at}: {e}")))?;
            for a in actions {
                state.apply_action(a)?;
                out.push(a);
            }
        }
        Ok(out)
    }
}

#[pymethods]
impl Game {
    /// Loads `ruleset` (an embedded name or a path to a ruleset file or folder) for
    /// `players` players (default: its minimum), with `params` overriding its parameters
    /// and, with `variant` (an embedded variant name or a path), that variant of it.
    #[new]
    #[pyo3(signature = (ruleset, players=None, params=None, variant=None))]
    fn new(
        ruleset: String,
        players: Option<usize>,
        params: Option<BTreeMap<String, i64>>,
        variant: Option<String>,
    ) -> PyResult<Game> {
        if players == Some(0) {
            return Err(value_error("a game needs players: players=0"));
        }
        let key = GameKey {
            ruleset,
            variant,
            players: players.unwrap_or(0),
            params: params.unwrap_or_default(),
        };
        Ok(Game {
            loaded: Arc::new(Loaded::load(key).map_err(value_error)?),
        })
    }

    /// The ruleset's name (`meta.name`).
    #[getter]
    fn name(&self) -> String {
        self.loaded.game.meta.name.clone()
    }

    #[getter]
    fn title(&self) -> String {
        self.loaded.game.meta.title.clone()
    }

    #[getter]
    fn ruleset(&self) -> String {
        self.loaded.key.ruleset.clone()
    }

    #[getter]
    fn variant(&self) -> Option<String> {
        self.loaded.key.variant.clone()
    }

    #[getter]
    fn players(&self) -> usize {
        self.loaded.names.len()
    }

    #[getter]
    fn min_players(&self) -> u8 {
        self.loaded.game.meta.min_players
    }

    #[getter]
    fn max_players(&self) -> u8 {
        self.loaded.game.meta.max_players
    }

    /// The parameters' values in this game (defaults, then the ones given).
    #[getter]
    fn params(&self) -> BTreeMap<String, i64> {
        self.loaded
            .game
            .params
            .iter()
            .map(|p| (p.name.clone(), p.value))
            .collect()
    }

    /// How many action numbers options use: every option's number is below it.
    #[getter]
    fn num_distinct_actions(&self) -> u64 {
        self.loaded.space.decisions()
    }

    /// The bound of chance outcome numbers; 0 when the ruleset has no chance.
    #[getter]
    fn max_chance_outcomes(&self) -> u64 {
        self.loaded.space.chance()
    }

    /// Whether some zone hides its contents from some player.
    #[getter]
    fn hides_information(&self) -> bool {
        hides_information(&self.loaded.game)
    }

    /// `"ranked"` (no `outcome:`: the seats ranked first share 1, the others get 0) or
    /// `"declared"` (the ruleset's `outcome:`).
    #[getter]
    fn utility(&self) -> &'static str {
        utility_name(&self.loaded.game)
    }

    /// The seats' names, as traces write them: p1, p2, …
    #[getter]
    fn seat_names(&self) -> Vec<String> {
        self.loaded.names.clone()
    }

    /// The state of a new game: its setup run to the first decision or chance node.
    fn new_initial_state(&self) -> PyResult<State> {
        Ok(State {
            loaded: self.loaded.clone(),
            episode: Episode::start(&self.loaded.game, self.loaded.names.clone())
                .map_err(value_error)?,
            history: Vec::new(),
        })
    }

    /// The state the action numbers `actions` lead to from a new game.
    fn state_from_actions(&self, actions: Vec<u64>) -> PyResult<State> {
        let mut state = self.new_initial_state()?;
        for a in actions {
            state.apply_action(a)?;
        }
        Ok(state)
    }

    /// The action numbers of a trace's steps (a trace of this ruleset starting from its
    /// setup, with this many players).
    fn actions_of_trace(&self, trace: &str) -> PyResult<Vec<u64>> {
        let parsed = frontier_interpreter::frontier_grammar::trace::parse(trace).map_err(|e| {
            value_error(
                e.iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
            )
        })?;
        if parsed.header.players.len() != self.loaded.names.len() {
            return Err(value_error(format!(
                "the trace seats {} players, the game {}",
                parsed.header.players.len(),
                self.loaded.names.len()
            )));
        }
        let mut steps = Vec::new();
        for line in &parsed.body {
            use frontier_interpreter::frontier_grammar::trace::LineKind;
            let step = match &line.kind {
                LineKind::Decision { player, label } => {
                    let seat = parsed
                        .header
                        .players
                        .iter()
                        .position(|p| p == player)
                        .ok_or_else(|| {
                            value_error(format!("line {}: no player {player}", line.line))
                        })?;
                    runner::Step::Decision {
                        player: seat as u8,
                        label: label.clone(),
                    }
                }
                LineKind::Chance { label } => runner::Step::Chance {
                    label: label.clone(),
                },
                _ => continue,
            };
            steps.push((format!("line {}", line.line), step));
        }
        self.follow(&steps)
    }

    /// The action numbers of the game `frontier play RULESET --players N --seed SEED
    /// --agents A,…` plays, with these agents (default: random at every seat).
    #[pyo3(signature = (seed, agents=None))]
    fn seeded_actions(&self, seed: u64, agents: Option<Vec<String>>) -> PyResult<Vec<u64>> {
        let loaded = &self.loaded;
        let n = loaded.names.len();
        let specs = agents.unwrap_or_else(|| vec!["random".to_string(); n]);
        if specs.len() != n {
            return Err(value_error(format!(
                "{} agents for {n} players: give one per seat",
                specs.len()
            )));
        }
        let mut bots: Vec<Box<dyn frontier_interpreter::agent::Agent>> = Vec::new();
        for (seat, spec) in specs.iter().enumerate() {
            let spec = AgentSpec::parse(spec).map_err(value_error)?;
            bots.push(spec.agent(seed, seat, zero_clock));
        }
        let start = loaded
            .game
            .start(loaded.names.clone())
            .map_err(value_error)?;
        let (record, _) = runner::run_stepped(
            loaded.stepper(),
            start,
            &mut GameRng::new(seed),
            &mut bots,
            Recording::Steps,
            runner::MAX_STEPS,
        )
        .map_err(value_error)?;
        let steps: Vec<(String, runner::Step)> = record
            .steps
            .into_iter()
            .enumerate()
            .map(|(i, s)| (format!("step {}", i + 1), s))
            .collect();
        self.follow(&steps)
    }

    fn __repr__(&self) -> String {
        format!(
            "frontier.Game({:?}, players={})",
            self.loaded.key.ruleset,
            self.loaded.names.len()
        )
    }
}

/// Search bots' time budgets are not used here: only seeded agents play.
fn zero_clock() -> std::time::Duration {
    std::time::Duration::ZERO
}

/// A game under way.
#[pyclass(module = "frontier._frontier")]
struct State {
    loaded: Arc<Loaded>,
    episode: Episode,
    /// The action numbers taken from the start.
    history: Vec<u64>,
}

impl State {
    fn game(&self) -> &frontier_interpreter::Game {
        &self.loaded.game
    }

    fn check_player(&self, player: i64) -> PyResult<u8> {
        if player < 0 || player as usize >= self.loaded.names.len() {
            return Err(PyIndexError::new_err(format!(
                "player {player}: this game has players 0 to {}",
                self.loaded.names.len() - 1
            )));
        }
        Ok(player as u8)
    }
}

#[pymethods]
impl State {
    /// The player to decide (0-based), -1 at a chance node, -4 at the end.
    fn current_player(&self) -> i64 {
        match self.episode.node(self.game()) {
            Node::Decision { player } => i64::from(player),
            Node::Chance => CHANCE_PLAYER,
            Node::Over => TERMINAL_PLAYER,
        }
    }

    fn is_chance_node(&self) -> bool {
        self.episode.node(self.game()) == Node::Chance
    }

    fn is_terminal(&self) -> bool {
        self.episode.node(self.game()) == Node::Over
    }

    /// The legal action numbers, ascending (the outcomes' at a chance node).
    fn legal_actions(&self) -> PyResult<Vec<u64>> {
        self.episode
            .legal_actions(self.game(), &self.loaded.space)
            .map_err(value_error)
    }

    /// The chance node's outcomes with their probabilities.
    fn chance_outcomes(&self) -> PyResult<Vec<(u64, f64)>> {
        self.episode
            .chance_outcomes(&self.loaded.space)
            .map_err(value_error)
    }

    fn apply_action(&mut self, action: u64) -> PyResult<()> {
        let loaded = self.loaded.clone();
        self.episode
            .apply(loaded.stepper(), &loaded.space, action)
            .map_err(value_error)?;
        self.history.push(action);
        Ok(())
    }

    /// What `action` is here: an option's label or a chance outcome.
    fn action_to_string(&self, action: u64) -> String {
        self.episode
            .action_text(self.game(), &self.loaded.space, action)
    }

    /// Each seat's return: zero until the end.
    fn returns(&self) -> Vec<f64> {
        self.episode.returns(self.game())
    }

    /// What `player` knows: what they saw at each of their decisions and chose there,
    /// then what they see now. Nothing the rules hide from them.
    fn information_state_string(&self, player: i64) -> PyResult<String> {
        let p = self.check_player(player)?;
        Ok(self.episode.information_state(self.game(), p))
    }

    /// What `player` sees now.
    fn observation_string(&self, player: i64) -> PyResult<String> {
        let p = self.check_player(player)?;
        Ok(self.episode.observation(self.game(), p))
    }

    /// The action numbers taken from the start.
    fn history(&self) -> Vec<u64> {
        self.history.clone()
    }

    /// The game so far as a Frontier trace (`frontier check` checks it); at the end, with
    /// `expect over` and the scores.
    fn trace(&self) -> String {
        let game = self.game();
        let outcome = match game.status(self.episode.state()) {
            frontier_interpreter::Status::Over(o) => Some(o.clone()),
            _ => None,
        };
        let ruleset = if frontier_sources::embedded(&self.loaded.key.ruleset).is_some()
            && self.loaded.key.variant.is_none()
        {
            RulesetRef::Name(self.loaded.key.ruleset.clone())
        } else {
            RulesetRef::Path(
                self.loaded
                    .key
                    .variant
                    .clone()
                    .unwrap_or_else(|| self.loaded.key.ruleset.clone()),
            )
        };
        let mut trace = write_trace(
            ruleset,
            &self.loaded.names,
            None,
            self.episode.steps(),
            outcome.as_ref(),
        );
        trace.header.params = self.loaded.key.params.clone().into_iter().collect();
        trace.to_text()
    }

    /// A state `player` cannot tell from this one: what they do not see dealt again,
    /// from `seed`.
    fn resample(&self, player: i64, seed: u64) -> PyResult<State> {
        let p = self.check_player(player)?;
        let episode = self
            .episode
            .resample(self.game(), p, &mut GameRng::new(seed))
            .map_err(value_error)?;
        Ok(State {
            loaded: self.loaded.clone(),
            episode,
            history: self.history.clone(),
        })
    }

    fn clone(&self) -> State {
        State {
            loaded: self.loaded.clone(),
            episode: self.episode.clone(),
            history: self.history.clone(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Pickled as its game and its actions: unpickling loads the game (once per process)
    /// and replays them.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let restore = py.import("frontier._frontier")?.getattr("_restore")?;
        let key = &self.loaded.key;
        let args = (
            key.ruleset.clone(),
            key.players,
            key.params.clone(),
            key.variant.clone(),
            self.history.clone(),
        )
            .into_pyobject(py)?;
        Ok((restore, args))
    }

    /// The whole state, hidden contents included.
    fn __str__(&self) -> String {
        self.episode.full_text(self.game())
    }
}

/// Unpickles a state: its game loaded again, its actions replayed.
#[pyfunction]
fn _restore(
    ruleset: String,
    players: usize,
    params: BTreeMap<String, i64>,
    variant: Option<String>,
    actions: Vec<u64>,
) -> PyResult<State> {
    let game = Game {
        loaded: Arc::new(
            Loaded::load(GameKey {
                ruleset,
                variant,
                players,
                params,
            })
            .map_err(value_error)?,
        ),
    };
    game.state_from_actions(actions)
}

/// What OpenSpiel's registration needs to know of a ruleset (or variant), without
/// compiling it: title, numbers of players, parameters and their defaults, whether it
/// has chance and hides information, how its returns read.
#[pyfunction]
#[pyo3(signature = (ruleset, variant=None))]
fn describe(ruleset: String, variant: Option<String>) -> PyResult<BTreeMap<String, Py<PyAny>>> {
    let key = GameKey {
        ruleset,
        variant,
        players: 0,
        params: BTreeMap::new(),
    };
    let game = load_ruleset(&key).map_err(value_error)?;
    let names = frontier_study::games::seat_names(game.meta.min_players as usize);
    let first = Episode::start(&game, names).map_err(value_error)?;
    let space = ActionSpace::new(&game, first.elements());
    Python::attach(|py| {
        let mut out: BTreeMap<String, Py<PyAny>> = BTreeMap::new();
        let mut put = |k: &str, v: Bound<'_, PyAny>| {
            out.insert(k.to_string(), v.unbind());
        };
        put("name", game.meta.name.clone().into_pyobject(py)?.into_any());
        put(
            "title",
            game.meta.title.clone().into_pyobject(py)?.into_any(),
        );
        put(
            "min_players",
            game.meta.min_players.into_pyobject(py)?.into_any(),
        );
        put(
            "max_players",
            game.meta.max_players.into_pyobject(py)?.into_any(),
        );
        let params: BTreeMap<String, i64> = game
            .params
            .iter()
            .map(|p| (p.name.clone(), p.value))
            .collect();
        put("params", params.into_pyobject(py)?.into_any());
        put(
            "chance",
            (space.chance() > 0)
                .into_pyobject(py)?
                .to_owned()
                .into_any(),
        );
        put(
            "hides_information",
            hides_information(&game)
                .into_pyobject(py)?
                .to_owned()
                .into_any(),
        );
        put("utility", utility_name(&game).into_pyobject(py)?.into_any());
        Ok(out)
    })
}

fn hides_information(game: &frontier_interpreter::Game) -> bool {
    game.zones.iter().any(|z| z.visibility != Visibility::All)
}

fn utility_name(game: &frontier_interpreter::Game) -> &'static str {
    match Utility::of(game) {
        Utility::Ranked => "ranked",
        Utility::Declared { .. } => "declared",
    }
}

/// The rulesets embedded in the package (each variant as `<ruleset>-NAME`).
#[pyfunction]
fn rulesets() -> Vec<String> {
    frontier_sources::RULESETS
        .iter()
        .map(|e| e.name.to_string())
        .collect()
}

#[pymodule]
fn _frontier(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(rulesets, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    Ok(())
}
