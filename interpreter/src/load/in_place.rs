//! Built-ins over a zone that read it where it lies instead of copying it into a list:
//! `len(zone)`, `count(zone)`, `count(zone, x)`, `first(zone)`, `last(zone)`,
//! `contains(zone, x)` and `index_of(zone, x)`. Same results as the general built-ins;
//! they run inside option conditions and sort keys, where a copy per call dominated.

use std::sync::Arc;

use frontier_grammar::expr::Expr;

use super::expr::{name_and_index, Compiler, Scope};
use crate::eval::{Env, Eval, RuntimeError};
use crate::machine::{decode_element, encode_element, index_of};
use crate::model::{Domain, Element};
use crate::value::{Type, Value};

/// Reads which zone instance an argument names, at run time.
type InstanceEval = Arc<dyn Fn(&Env) -> Result<usize, RuntimeError> + Send + Sync>;

impl Compiler<'_> {
    /// The compiled call when `f` reads a zone named directly as its first argument;
    /// `None` leaves the call to the general built-in.
    pub(super) fn zone_in_place(&mut self, f: &str, args: &[Expr], scope: &Scope) -> Option<(Eval, Type)> {
        let arity_fits = match f {
            "len" | "first" | "last" => args.len() == 1,
            "count" => args.len() == 1 || args.len() == 2,
            "contains" | "index_of" => args.len() == 2,
            _ => false,
        };
        if !arity_fits {
            return None;
        }
        let (zone, of) = self.zone_instance(&args[0], scope)?;
        let element = of.value_type();
        let eval: Eval = match (f, args.get(1)) {
            ("len" | "count", None) => Arc::new(move |env: &Env| Ok(Value::Int(env.state.zones[zone(env)?].len() as i64))),
            ("first", _) => Arc::new(move |env: &Env| {
                Ok(env.state.zones[zone(env)?].first().map_or(Value::None, |e| decode_element(of, *e)))
            }),
            ("last", _) => Arc::new(move |env: &Env| {
                Ok(env.state.zones[zone(env)?].last().map_or(Value::None, |e| decode_element(of, *e)))
            }),
            (_, Some(x)) => {
                let x = self.expect(x, scope, &element);
                // The element's code (none is in no zone) and the zone instance.
                let search = move |env: &Env| -> Result<(Option<u16>, usize), RuntimeError> {
                    Ok((encode_element(&x(env)?), zone(env)?))
                };
                match f {
                    "count" => Arc::new(move |env: &Env| {
                        let (code, z) = search(env)?;
                        let items = &env.state.zones[z];
                        Ok(Value::Int(code.map_or(0, |c| items.iter().filter(|e| **e == c).count()) as i64))
                    }),
                    "contains" => Arc::new(move |env: &Env| {
                        let (code, z) = search(env)?;
                        let items = &env.state.zones[z];
                        Ok(Value::Bool(code.is_some_and(|c| items.contains(&c))))
                    }),
                    _ => Arc::new(move |env: &Env| {
                        let (code, z) = search(env)?;
                        let items = &env.state.zones[z];
                        Ok(Value::Int(code.and_then(|c| items.iter().position(|e| *e == c)).map_or(-1, |i| i as i64)))
                    }),
                }
            }
            _ => return None,
        };
        let ty = match f {
            "first" | "last" => element,
            "contains" => Type::Bool,
            _ => Type::Int,
        };
        Some((eval, ty))
    }

    /// `zone` or `zone[index]` when the name is a zone a local does not hide.
    fn zone_instance(&mut self, arg: &Expr, scope: &Scope) -> Option<(InstanceEval, Element)> {
        let (name, index) = name_and_index(arg)?;
        if name.text == "it" || scope.locals.iter().any(|(n, _, _)| *n == name.text) {
            return None;
        }
        let zone = self.decls.zones.iter().find(|z| z.name == name.text)?;
        let (base, of, per) = (zone.base, zone.of, zone.per);
        match (per, index) {
            (Domain::Global, None) => Some((Arc::new(move |_: &Env| Ok(base)), of)),
            (Domain::Global, Some(_)) | (_, None) => None, // the general path reports it
            (per, Some(index)) => {
                let index = self.expect(index, scope, &per.index_type().unwrap_or(Type::Any));
                let what = name.text.clone();
                let eval: InstanceEval = Arc::new(move |env: &Env| Ok(base + index_of(&index(env)?, &what)?));
                Some((eval, of))
            }
        }
    }
}
