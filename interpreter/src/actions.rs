//! Action numbers: every option of every decision of a ruleset gets an integer that the
//! ruleset alone fixes, and every outcome of a chance point one below a bound, so that
//! front ends which address steps by number (OpenSpiel) can play any ruleset.
//!
//! Each option group of each `choose` (a *site*) owns a range of numbers, in the order
//! the ruleset's blocks hold them. Within its range an option's number is the mixed-radix
//! number of its `for:` elements, the first list the most significant, each element
//! numbered by its type:
//!
//! | element | its digit | range |
//! |---|---|---|
//! | a seat | the seat, 0-based | the ruleset's most players |
//! | a row of a table | the row's place in its table | the table's rows |
//! | true/false | 0/1 | 2 |
//! | from a constant list | its first place in the list | the list's length |
//! | another number | how much it exceeds the smallest number that list gives at this decision | [`WINDOW`] |
//! | anything else (positions, texts) | its rank among the distinct elements the list gives at this decision, in listed order | [`WINDOW`] |
//!
//! So `play card:gw-13` is the same number in every state where it is legal; only the
//! last two kinds depend on the decision (a bid of "3 more than the lowest legal bid").
//!
//! Chance outcomes: a `random` outcome is numbered by its place in the outcome list; a
//! shuffle is resolved one element at a time (see `episode`), each outcome numbered by
//! the position in the zone of the element drawn next.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ir::Expr;
use crate::model::{BlockId, Game, StmtKind};
use crate::state::{Pending, State};
use crate::value::{Type, Value};

/// The room a site keeps for each element numbered by its offset or its rank at the
/// decision (and for the outcomes of a `random` whose list is not constant).
pub const WINDOW: u32 = 1024;

/// The numbering of a loaded game's options and chance outcomes.
pub struct ActionSpace {
    sites: Vec<Site>,
    /// The first site of each `choose`, by its block and statement.
    first_site: HashMap<(BlockId, u32), usize>,
    decisions: u64,
    chance: u64,
}

/// One option group of one `choose`: a range of numbers from `base`.
struct Site {
    base: u64,
    axes: Vec<Axis>,
    /// The `choose` (its file:line:column), for messages.
    place: Arc<str>,
}

/// How one `for:` element of an option is numbered (see the module's table).
#[derive(Clone)]
enum Axis {
    Seats(u32),
    Rows(u32),
    Bools,
    Listed(Arc<Vec<Value>>),
    Offset,
    Rank,
}

impl Axis {
    fn size(&self) -> u64 {
        match self {
            Axis::Seats(n) | Axis::Rows(n) => u64::from(*n).max(1),
            Axis::Bools => 2,
            Axis::Listed(values) => (values.len() as u64).max(1),
            Axis::Offset | Axis::Rank => u64::from(WINDOW),
        }
    }

    /// Whether the digit depends on the other options of the decision.
    fn relative(&self) -> bool {
        matches!(self, Axis::Offset | Axis::Rank)
    }
}

/// What one axis of one site reads from the options of a decision: the smallest number
/// listed, or the distinct elements in listed order.
enum Reference {
    None,
    Smallest(i64),
    Distinct(Vec<Value>),
}

impl ActionSpace {
    /// The numbering of `game`'s options and outcomes. `elements` is how many elements
    /// the game's zones hold (a shuffle draws among at most that many).
    pub fn new(game: &Game, elements: usize) -> ActionSpace {
        let mut sites = Vec::new();
        let mut first_site = HashMap::new();
        let mut next = 0u64;
        let mut chance = 0u64;
        for (b, block) in game.blocks.iter().enumerate() {
            for (pc, stmt) in block.iter().enumerate() {
                match &stmt.kind {
                    StmtKind::Choose(choose) => {
                        first_site.insert((BlockId::at(b), pc as u32), sites.len());
                        let place = game.location(&stmt.origin);
                        for group in &choose.groups {
                            let axes: Vec<Axis> = group
                                .bindings
                                .iter()
                                .zip(&group.element_types)
                                .map(|((_, list), ty)| axis(game, list, ty))
                                .collect();
                            let size = axes.iter().map(Axis::size).fold(1u64, u64::saturating_mul);
                            sites.push(Site {
                                base: next,
                                axes,
                                place: place.clone(),
                            });
                            next = next.saturating_add(size);
                        }
                    }
                    StmtKind::Random { outcomes, .. } => {
                        let n = match outcomes {
                            Expr::Const(Value::List(values)) => values.len() as u64,
                            _ => u64::from(WINDOW),
                        };
                        chance = chance.max(n);
                    }
                    StmtKind::Shuffle { .. } | StmtKind::Draw(_) => {
                        chance = chance.max(elements as u64);
                    }
                    _ => {}
                }
            }
        }
        ActionSpace {
            sites,
            first_site,
            decisions: next.max(1),
            chance,
        }
    }

    /// How many numbers the options use (OpenSpiel's `num_distinct_actions`): every
    /// option's number is below it.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// The bound of chance outcome numbers (OpenSpiel's `max_chance_outcomes`); 0 when
    /// the ruleset has no chance.
    pub fn chance(&self) -> u64 {
        self.chance
    }

    /// The number of each option of the decision `state` waits for, in the order of its
    /// options. Two options with the same group and elements (the same effect) have the
    /// same number.
    pub fn option_numbers(&self, game: &Game, state: &State) -> Result<Vec<u64>, String> {
        let Pending::Decision {
            block, pc, options, ..
        } = &state.pending
        else {
            return Err("the game is not at a decision".into());
        };
        let first = *self
            .first_site
            .get(&(*block, *pc))
            .ok_or("the decision's `choose` has no numbers (a fault of the interpreter)")?;
        // The relative axes read all the options of their group first.
        let mut references: HashMap<(usize, usize), Reference> = HashMap::new();
        for (group, value) in options {
            let site = first + *group as usize;
            let Some(s) = self.sites.get(site) else {
                return Err("an option's group has no numbers".into());
            };
            for (k, axis) in s.axes.iter().enumerate() {
                if !axis.relative() {
                    continue;
                }
                let element = element_of(value, k, s.axes.len());
                let entry = references.entry((site, k)).or_insert(Reference::None);
                match (axis, element) {
                    (Axis::Offset, Value::Int(n)) => {
                        *entry = match entry {
                            Reference::Smallest(m) if *m <= n => Reference::Smallest(*m),
                            _ => Reference::Smallest(n),
                        }
                    }
                    (_, element) => {
                        if let Reference::None = entry {
                            *entry = Reference::Distinct(Vec::new());
                        }
                        if let Reference::Distinct(seen) = entry {
                            if !seen.contains(&element) {
                                seen.push(element);
                            }
                        }
                    }
                }
            }
        }
        let mut numbers = Vec::with_capacity(options.len());
        for (i, (group, value)) in options.iter().enumerate() {
            let site = first + *group as usize;
            let s = &self.sites[site];
            let mut number = 0u64;
            for (k, axis) in s.axes.iter().enumerate() {
                let element = element_of(value, k, s.axes.len());
                let digit = digit(game, state, axis, &element, references.get(&(site, k)))
                    .map_err(|why| {
                        format!(
                            "option {} ({}) of the decision at {}: {why}",
                            i + 1,
                            game.option_label(state, i).unwrap_or_default(),
                            s.place
                        )
                    })?;
                number = number * axis.size() + digit;
            }
            numbers.push(s.base + number);
        }
        Ok(numbers)
    }
}

/// The `k`-th element of an option's value (a group of several lists holds a list).
fn element_of(value: &Value, k: usize, of: usize) -> Value {
    match value {
        Value::List(items) if of > 1 => items.get(k).cloned().unwrap_or_default(),
        other => other.clone(),
    }
}

/// How a `for:` list of elements of type `ty` is numbered.
fn axis(game: &Game, list: &Expr, ty: &Type) -> Axis {
    if let Expr::Const(Value::List(values)) = list {
        return Axis::Listed(values.clone());
    }
    match ty {
        Type::Player => Axis::Seats(u32::from(game.meta.max_players)),
        Type::Row(t) => Axis::Rows(game.tables[t.index()].rows.len() as u32),
        Type::Bool => Axis::Bools,
        Type::Int => Axis::Offset,
        _ => Axis::Rank,
    }
}

/// The digit of one element of an option.
fn digit(
    game: &Game,
    state: &State,
    axis: &Axis,
    element: &Value,
    reference: Option<&Reference>,
) -> Result<u64, String> {
    let text = || game.value_text(element, &state.names);
    let within = |d: u64, n: u64| {
        if d < n {
            Ok(d)
        } else {
            Err(format!("{} is outside the {n} numbers kept for it", text()))
        }
    };
    match (axis, element) {
        (Axis::Seats(n), Value::Player(p)) => within(u64::from(*p), u64::from(*n)),
        (Axis::Rows(n), Value::Row(_, r)) => within(u64::from(*r), u64::from(*n)),
        (Axis::Bools, Value::Bool(b)) => Ok(u64::from(*b)),
        (Axis::Listed(values), element) => values
            .iter()
            .position(|v| v == element)
            .map(|d| d as u64)
            .ok_or_else(|| format!("{} is not in its constant list", text())),
        (Axis::Offset, Value::Int(n)) => match reference {
            Some(Reference::Smallest(m)) => {
                let d = n.checked_sub(*m).ok_or("the offset overflows")?;
                within(d as u64, u64::from(WINDOW)).map_err(|_| {
                    format!(
                        "{} exceeds the smallest number listed, {m}, by {d}: only {WINDOW} numbers are kept for it",
                        text()
                    )
                })
            }
            _ => Err("no smallest number was listed".into()),
        },
        (Axis::Rank, element) | (Axis::Offset, element) => match reference {
            Some(Reference::Distinct(seen)) => {
                let d = seen.iter().position(|v| v == element).unwrap_or(0) as u64;
                within(d, u64::from(WINDOW)).map_err(|_| {
                    format!(
                        "more than {WINDOW} different elements are listed: {} has no number",
                        text()
                    )
                })
            }
            _ => Err("its elements were not listed".into()),
        },
        (_, element) => Err(format!(
            "{} is not of the type its list was checked to hold",
            game.value_text(element, &state.names)
        )),
    }
}
