//! A built-in call's run half, chosen by its [`Op`]: one arm per op, so that an op added
//! to the IR without its evaluation does not compile.

use super::{board, geometry, knowledge, list, Env, Result};
use crate::ir::{Expr, Op};
use crate::value::Value;

/// Evaluates the built-in `op` on its (unevaluated) arguments. Inlined where a call node
/// is read, so that a call costs one jump on the op and one direct call, as a function
/// pointer in the node did.
#[inline]
pub(crate) fn run(op: Op, args: &[Expr], env: &Env) -> Result<Value> {
    match op {
        Op::Len | Op::CountAll => list::eval_len(args, env),
        Op::Count => list::eval_count(args, env),
        Op::CountIf => list::eval_count_if(args, env),
        Op::Any => list::eval_any(args, env),
        Op::All => list::eval_all(args, env),
        Op::Find => list::eval_find(args, env),
        Op::Map => list::eval_map(args, env),
        Op::SortBy => list::eval_sort_by(args, env),
        Op::Sum => list::eval_sum(args, env),
        Op::SumOf => list::eval_sum_of(args, env),
        Op::MinOf => list::eval_min_of(args, env),
        Op::MaxOf => list::eval_max_of(args, env),
        Op::Argmax => list::eval_argmax(args, env),
        Op::Argmin => list::eval_argmin(args, env),
        Op::MinOfList => list::eval_min_of_list(args, env),
        Op::MaxOfList => list::eval_max_of_list(args, env),
        Op::Min => list::eval_min(args, env),
        Op::Max => list::eval_max(args, env),
        Op::First => list::eval_first(args, env),
        Op::Last => list::eval_last(args, env),
        Op::Reverse => list::eval_reverse(args, env),
        Op::Take => list::eval_take(args, env),
        Op::Drop => list::eval_drop(args, env),
        Op::Contains => list::eval_contains(args, env),
        Op::IndexOf => list::eval_index_of(args, env),
        Op::Concat => list::eval_concat(args, env),
        Op::Range => list::eval_range(args, env),
        Op::NextPlayer => list::eval_next_player(args, env),
        Op::NextPlayerIf => list::eval_next_player_if(args, env),
        Op::SeatsFrom => list::eval_seats_from(args, env),
        Op::Abs => list::eval_abs(args, env),
        Op::Text => list::eval_text(args, env),
        Op::Colour => list::eval_colour(args, env),
        Op::Pad => list::eval_pad(args, env),
        Op::Cells => board::eval_cells(args, env),
        Op::Holes => board::eval_holes(args, env),
        Op::At => board::eval_at(args, env),
        Op::Groups => board::eval_groups(args, env),
        Op::Placements => board::eval_placements(args, env),
        Op::Pos => board::eval_pos(args, env),
        Op::Neighbours => board::eval_neighbours(args, env),
        Op::Rotate => board::eval_rotate(args, env),
        Op::HexNeighbours => geometry::eval_hex_neighbours(args, env),
        Op::Components => geometry::eval_components(args, env),
        Op::Lines => geometry::eval_lines(args, env),
        Op::OnEdge => geometry::eval_on_edge(args, env),
        Op::Distance => geometry::eval_distance(args, env),
        Op::CellAt => geometry::eval_cell_at(args, env),
        Op::Step => geometry::eval_step(args, env),
        Op::Ray => geometry::eval_ray(args, env),
        Op::Knows => knowledge::eval_knows(args, env),
    }
}
