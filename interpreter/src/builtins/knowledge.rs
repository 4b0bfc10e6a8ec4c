//! Built-ins over what players know (`knowledge.rs`): `knows`.

use super::{Builtin, CallSite, Form};
use crate::eval::{Env, Result, RuntimeError};
use crate::ir::Expr;
use crate::load::{nothing, Compiled, Compiler};
use crate::value::{Type, Value};

pub const KNOWS: Builtin = Builtin {
    name: "knows",
    forms: &[Form {
        call: "knows(p, x)",
        result: "bool",
        meaning: "Whether player `p` sees row `x` where it lies: its zone's visibility shows it, its `visible_if` holds for `p`, or a `reveal` showed it to `p` since it last moved. False when `x` is in no zone.",
    }],
    lower: lower_knows,
    reduce: None,
    // Reads the zones.
    pure: false,
    unroll: None,
};

fn lower_knows(c: &mut Compiler, site: &CallSite) -> Compiled {
    if !c.arity(site.span, site.name(), site.args, &[2]) {
        return nothing();
    }
    let p = c.expect(&site.args[0], site.scope, &Type::Player);
    let (x, ty) = c.compile(&site.args[1], site.scope);
    if !matches!(ty, Type::Row(_) | Type::Any) {
        let message = format!("knows needs a row of a table, found {}", c.type_name(&ty));
        c.report(site.args[1].span, message);
    }
    (site.call(eval_knows, vec![p, x]), Type::Bool)
}

fn eval_knows(args: &[Expr], env: &Env) -> Result<Value> {
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
    for zone in &game.zones {
        if zone.of != crate::model::Element::Row(t) {
            continue;
        }
        for instance in zone.base..zone.base + game.domain_len(zone.per) {
            if let Some(at) = state.zones[instance].iter().position(|e| *e == row) {
                return Ok(Value::Bool(game.sees(state, viewer, instance, at)?));
            }
        }
    }
    Ok(Value::Bool(false))
}
