//! The run half of `knows` (compile half: `builtins/knowledge.rs`).

use super::{Env, Result, RuntimeError};
use crate::ir::Expr;
use crate::value::Value;

pub(crate) fn eval_knows(args: &[Expr], env: &Env) -> Result<Value> {
    let viewer = match args[0].eval(env)? {
        Value::Player(p) => p,
        other => {
            return Err(RuntimeError::new(format!(
                "knows: expected a player, found {other:?}"
            )))
        }
    };
    let Value::Row(t, row) = args[1].eval(env)? else {
        return Ok(Value::Bool(false));
    };
    let (game, state) = (env.game, env.state);
    // What the viewer sees is evaluated in environments of its own: they count with this one.
    let _work = crate::work::Work::keep();
    for zone in &game.zones {
        if zone.of != crate::model::Element::Row(t) {
            continue;
        }
        // A row held in several places (the same card in two hands) is known where the
        // viewer sees any of them.
        for instance in zone.base..zone.base + game.domain_len(zone.per) {
            crate::work::charge_work(state.zones[instance].len() as u64)?;
            for (at, _) in state.zones[instance]
                .iter()
                .enumerate()
                .filter(|(_, e)| **e == row)
            {
                if game.sees(state, viewer, instance, at)? {
                    return Ok(Value::Bool(true));
                }
            }
        }
    }
    Ok(Value::Bool(false))
}
