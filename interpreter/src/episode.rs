//! A game played one numbered action at a time, the way OpenSpiel plays games: a node is
//! a decision of one player, a chance node with its outcomes and their probabilities, or
//! the end; each step is a number of the game's [`ActionSpace`].
//!
//! A shuffle is not one chance node of n! orders but n − 1 nodes, each drawing the element
//! that comes next among those left, all equally likely (the same distribution). Each
//! player's information state is what they saw at each of their decisions and what they
//! chose there, then what they see now (the state as `render_state` shows it to them):
//! nothing the rules hide from them, and nothing of the others' choices but their visible
//! effects.

use std::sync::Arc;

use crate::actions::ActionSpace;
use crate::machine::Journal;
use crate::model::Game;
use crate::rng::GameRng;
use crate::runner::Step;
use crate::state::{Choice, Pending, State, Status};

/// What an episode waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    Decision { player: u8 },
    Chance,
    Over,
}

/// How a game's returns read (OpenSpiel's utility).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Utility {
    /// No `outcome:`: the seats ranked first share 1, the others get 0.
    Ranked,
    /// The ruleset's `outcome:`: each seat's return over the scale.
    Declared { scale: i64 },
}

impl Utility {
    pub fn of(game: &Game) -> Utility {
        match &game.outcome {
            Some(rule) => Utility::Declared { scale: rule.scale },
            None => Utility::Ranked,
        }
    }
}

/// A game under way, with its trace so far and what each player remembers.
#[derive(Clone)]
pub struct Episode {
    state: State,
    /// The positions (in the zone being shuffled) of the elements drawn so far.
    drawn: Vec<u16>,
    steps: Vec<Step>,
    memories: Vec<Memory>,
}

/// What one player saw at each of their decisions and chose there, latest first.
#[derive(Clone, Default)]
struct Memory(Option<Arc<Recollection>>);

struct Recollection {
    /// The state they decided in, shown to them the first time their information state
    /// is asked for (rendering it at every decision would slow every game played by
    /// numbers), then kept as text.
    seen: State,
    shown: std::sync::OnceLock<String>,
    chose: String,
    earlier: Memory,
}

impl Episode {
    /// A new game between `names` (the seats, in order), its setup run to the first
    /// decision or chance node.
    pub fn start(game: &Game, names: Vec<String>) -> Result<Episode, String> {
        let n = names.len();
        let state = game.start(names).map_err(|e| e.to_string())?;
        Ok(Episode {
            state,
            drawn: Vec::new(),
            steps: Vec::new(),
            memories: vec![Memory::default(); n],
        })
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// The trace steps taken so far (decisions by label, chance by outcome label).
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// How many elements the zones hold: the bound of a shuffle's outcomes.
    pub fn elements(&self) -> usize {
        self.state.zones.iter().map(Vec::len).sum()
    }

    pub fn node(&self, game: &Game) -> Node {
        match game.status(&self.state) {
            Status::Decision { player, .. } => Node::Decision { player },
            Status::Chance(_) => Node::Chance,
            Status::Over(_) => Node::Over,
        }
    }

    /// The legal numbers at a decision, ascending; the outcomes' numbers at a chance node;
    /// none at the end.
    pub fn legal_actions(&self, game: &Game, space: &ActionSpace) -> Result<Vec<u64>, String> {
        match self.node(game) {
            Node::Decision { .. } => {
                let mut numbers = space.option_numbers(game, &self.state)?;
                numbers.sort_unstable();
                numbers.dedup();
                Ok(numbers)
            }
            Node::Chance => Ok(self
                .chance_outcomes(space)?
                .into_iter()
                .map(|(a, _)| a)
                .collect()),
            Node::Over => Ok(Vec::new()),
        }
    }

    /// The outcomes of the chance node and their probabilities (which add up to 1), by
    /// number ascending.
    pub fn chance_outcomes(&self, space: &ActionSpace) -> Result<Vec<(u64, f64)>, String> {
        let outcomes: Vec<(u64, f64)> = match &self.state.pending {
            Pending::Chance(point) => {
                let total: u64 = point.weights.iter().sum();
                point
                    .weights
                    .iter()
                    .enumerate()
                    .filter(|(_, w)| **w > 0)
                    .map(|(i, w)| (i as u64, *w as f64 / total as f64))
                    .collect()
            }
            Pending::Shuffle { zone } => {
                let len = self.state.zones[*zone].len();
                let left = (len - self.drawn.len()) as f64;
                (0..len as u16)
                    .filter(|j| !self.drawn.contains(j))
                    .map(|j| (u64::from(j), 1.0 / left))
                    .collect()
            }
            _ => return Ok(Vec::new()),
        };
        if let Some((last, _)) = outcomes.last() {
            if *last >= space.chance() {
                return Err(format!(
                    "a chance node has {} outcomes, more than the {} its ruleset's numbering keeps",
                    last + 1,
                    space.chance()
                ));
            }
        }
        Ok(outcomes)
    }

    /// What `action` is at this node: an option's label, a chance outcome's, or
    /// `action N` when it names nothing here.
    pub fn action_text(&self, game: &Game, space: &ActionSpace, action: u64) -> String {
        let fallback = || format!("action {action}");
        match &self.state.pending {
            Pending::Decision { .. } => space
                .option_numbers(game, &self.state)
                .ok()
                .and_then(|numbers| numbers.iter().position(|n| *n == action))
                .and_then(|i| game.option_label(&self.state, i).ok())
                .unwrap_or_else(fallback),
            Pending::Chance(point) => match point.outcomes.get(action as usize) {
                Some(v) => game.value_text(v, &self.state.names),
                None => fallback(),
            },
            Pending::Shuffle { zone } => match self.state.zones[*zone].get(action as usize) {
                Some(e) => {
                    let of = game.zone_element(*zone);
                    let v = crate::eval::decode_element(of, *e);
                    format!("{} #{action}", game.value_text(&v, &self.state.names))
                }
                None => fallback(),
            },
            _ => fallback(),
        }
    }

    /// Takes the step `action` names; an illegal number changes nothing.
    pub fn apply(
        &mut self,
        stepper: crate::Stepper,
        space: &ActionSpace,
        action: u64,
    ) -> Result<(), String> {
        let game = stepper.game();
        match self.node(game) {
            Node::Over => Err("the game is over".into()),
            Node::Decision { player } => {
                let numbers = space.option_numbers(game, &self.state)?;
                let Some(i) = numbers.iter().position(|n| *n == action) else {
                    return Err(format!("action {action} is not legal at this decision"));
                };
                let label = game
                    .option_label(&self.state, i)
                    .map_err(|e| e.to_string())?;
                let seen = self.state.clone();
                self.take(stepper, Choice::Option(i))?;
                let memory = &mut self.memories[player as usize];
                memory.0 = Some(Arc::new(Recollection {
                    seen,
                    shown: Default::default(),
                    chose: label.clone(),
                    earlier: memory.clone(),
                }));
                self.steps.push(Step::Decision { player, label });
                Ok(())
            }
            Node::Chance => {
                if !self
                    .chance_outcomes(space)?
                    .iter()
                    .any(|(a, _)| *a == action)
                {
                    return Err(format!(
                        "action {action} is not an outcome of this chance node"
                    ));
                }
                let choice = match &self.state.pending {
                    Pending::Shuffle { zone } => {
                        let zone = &self.state.zones[*zone];
                        self.drawn.push(action as u16);
                        if self.drawn.len() + 1 < zone.len() {
                            return Ok(());
                        }
                        let last = (0..zone.len() as u16).find(|j| !self.drawn.contains(j));
                        let order: Vec<u16> = self
                            .drawn
                            .iter()
                            .chain(last.as_ref())
                            .map(|&j| zone[j as usize])
                            .collect();
                        Choice::Order(order)
                    }
                    _ => Choice::Outcome(action as usize),
                };
                let label = game.outcome_label(&self.state, &choice);
                self.take(stepper, choice)?;
                self.steps.push(Step::Chance { label });
                Ok(())
            }
        }
    }

    fn take(&mut self, stepper: crate::Stepper, choice: Choice) -> Result<(), String> {
        self.drawn.clear();
        stepper
            .apply(&mut self.state, choice, &mut Journal::off())
            .map_err(|e| e.to_string())
    }

    /// The numbers that take the trace step `step` from here: one for a decision or a
    /// `random` outcome, one per element but the last for a shuffle.
    pub fn actions_of_step(
        &self,
        game: &Game,
        space: &ActionSpace,
        step: &Step,
    ) -> Result<Vec<u64>, String> {
        match (step, &self.state.pending) {
            (Step::Decision { label, .. }, Pending::Decision { .. }) => {
                let labels = game.option_labels(&self.state).map_err(|e| e.to_string())?;
                let i = labels
                    .iter()
                    .position(|l| l == label)
                    .ok_or_else(|| format!("'{label}' is not an option here"))?;
                Ok(vec![space.option_numbers(game, &self.state)?[i]])
            }
            (Step::Chance { label }, Pending::Chance(_)) => {
                match game.parse_outcome(&self.state, label) {
                    Some(Choice::Outcome(i)) => Ok(vec![i as u64]),
                    _ => Err(format!("'{label}' is not an outcome here")),
                }
            }
            (Step::Chance { label }, Pending::Shuffle { zone }) => {
                let Some(Choice::Order(order)) = game.parse_outcome(&self.state, label) else {
                    return Err(format!("'{label}' is not an order of the zone here"));
                };
                let zone = &self.state.zones[*zone];
                let mut used = vec![false; zone.len()];
                let mut picks = Vec::new();
                for code in &order[..order.len().saturating_sub(1)] {
                    let j = (0..zone.len())
                        .find(|&j| !used[j] && zone[j] == *code)
                        .ok_or("an order names an element twice")?;
                    used[j] = true;
                    picks.push(j as u64);
                }
                Ok(picks[self.drawn.len().min(picks.len())..].to_vec())
            }
            _ => Err("the step is not of the kind the game waits for".into()),
        }
    }

    /// Each seat's return: zero until the game ends.
    pub fn returns(&self, game: &Game) -> Vec<f64> {
        let n = self.state.names.len();
        let Status::Over(outcome) = game.status(&self.state) else {
            return vec![0.0; n];
        };
        match &outcome.returns {
            Some(r) => (0..n).map(|p| r.value(p)).collect(),
            // The seats ranked first share 1, as a search's win reward counts it.
            None => crate::search::rewards(outcome, crate::search::Reward::Win),
        }
    }

    /// What `player` sees now: the state as shown to them, who is to act, and at their
    /// own decision its prompt.
    pub fn observation(&self, game: &Game, player: u8) -> String {
        observation(game, &self.state, player)
    }

    /// Everything `player` knows: what they saw at each of their decisions and what they
    /// chose, oldest first, then what they see now.
    pub fn information_state(&self, game: &Game, player: u8) -> String {
        let mut recollections = Vec::new();
        let mut at = &self.memories[player as usize];
        while let Some(r) = &at.0 {
            recollections.push(r);
            at = &r.earlier;
        }
        let mut out = format!("{}\n", self.state.names[player as usize]);
        for (i, r) in recollections.iter().rev().enumerate() {
            let seen = r.shown.get_or_init(|| observation(game, &r.seen, player));
            out.push_str(&format!("--- decision {}\n{seen}> {}\n", i + 1, r.chose));
        }
        out.push_str("--- now\n");
        out.push_str(&self.observation(game, player));
        out
    }

    /// The whole state, hidden contents included (OpenSpiel's `ToString`).
    pub fn full_text(&self, game: &Game) -> String {
        let mut out = game.render_state(&self.state, None);
        out.push_str(&self.waiting(game));
        if !self.drawn.is_empty() {
            let drawn: Vec<String> = self.drawn.iter().map(u16::to_string).collect();
            out.push_str(&format!("shuffle drawn so far: {}\n", drawn.join(" ")));
        }
        out
    }

    fn waiting(&self, game: &Game) -> String {
        waiting(game, &self.state)
    }

    /// A game `player` cannot tell from this one ([`Game::determinize`]): what they do
    /// not see dealt again with `rng`. Their memories and the trace stay.
    pub fn resample(&self, game: &Game, player: u8, rng: &mut GameRng) -> Result<Episode, String> {
        let state = game
            .determinize(&self.state, player, rng)
            .map_err(|e| e.to_string())?;
        Ok(Episode {
            state,
            ..self.clone()
        })
    }
}

/// What `player` sees of `state`: the state as shown to them, who is to act, and at their
/// own decision its prompt.
fn observation(game: &Game, state: &State, player: u8) -> String {
    let mut out = game.render_state(state, Some(player));
    out.push_str(&waiting(game, state));
    if let Pending::Decision { player: p, .. } = &state.pending {
        if *p == player {
            if let Ok(prompt) = game.prompt(state) {
                out.push_str(&format!("prompt: {prompt}\n"));
            }
        }
    }
    out
}

/// Who or what `state` waits for, as a line.
fn waiting(game: &Game, state: &State) -> String {
    match game.status(state) {
        Status::Decision { player, .. } => {
            format!("to decide: {}\n", state.names[player as usize])
        }
        Status::Chance(_) => "chance\n".to_string(),
        Status::Over(outcome) => {
            let ranks: Vec<String> = outcome.ranks.iter().map(u8::to_string).collect();
            format!("over: ranks {}\n", ranks.join(" "))
        }
    }
}
