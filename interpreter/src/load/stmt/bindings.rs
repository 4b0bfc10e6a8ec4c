//! The names statements bind: a local's name, `{x: list}` (a name bound to each element
//! of a list), an option's `for:` (one or several such bindings), and the element type
//! of a list.

use serde_yaml::Value as Yaml;

use crate::ir::Expr as Ir;
use crate::load::{join, Builder, Decls};
use crate::value::Type;

/// Whether `s` may name a local: a letter or `_`, then letters, digits and `_`.
pub(super) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `{x: list}` compiled: the name, the list and the type of its elements.
pub(super) fn bound_list(
    b: &mut Builder,
    decls: &Decls,
    scope: &crate::load::Scope,
    arg: &Yaml,
    vpath: &str,
) -> Option<(String, Ir, Type)> {
    let (var, list_yaml) = single_binding(b, arg, vpath)?;
    let (list, ty) = b.expression(decls, &list_yaml, &join(vpath, &var), scope, None);
    let elem = list_element(b, &ty, &join(vpath, &var));
    Some((var, list, elem))
}

/// `{x: list}`: one name bound to each element of a list.
fn single_binding(b: &mut Builder, arg: &Yaml, path: &str) -> Option<(String, Yaml)> {
    match arg.as_mapping() {
        Some(m) if m.len() == 1 => {
            let (k, v) = m.iter().next()?;
            let name = b.key_name(k, path)?.to_string();
            if !is_identifier(&name) {
                b.error(path, format!("'{name}' is not a valid local name"));
                return None;
            }
            Some((name, v.clone()))
        }
        _ => {
            b.error(path, "expected one binding: {name: \"list expression\"}");
            None
        }
    }
}

/// An option's `for:`: `{x: list}`, or `{a: list1, b: list2, …}` for one option per
/// combination of elements (list1 outermost).
pub(super) fn option_bindings(
    b: &mut Builder,
    arg: &Yaml,
    path: &str,
) -> Option<Vec<(String, Yaml)>> {
    let shape = "expected bindings {name: \"list expression\", …}: one option per element, or per combination of elements of several lists";
    let Some(m) = arg.as_mapping().filter(|m| !m.is_empty()) else {
        b.error(path, shape);
        return None;
    };
    let mut names = Vec::new();
    for (k, v) in m {
        let Some(name) = k.as_str() else {
            b.error(path, shape);
            return None;
        };
        if !is_identifier(name) {
            b.error(path, format!("'{name}' is not a valid local name"));
            return None;
        }
        names.push((name.to_string(), v.clone()));
    }
    Some(names)
}

pub(super) fn list_element(b: &mut Builder, ty: &Type, path: &str) -> Type {
    match ty {
        Type::List(e) => (**e).clone(),
        Type::Any => Type::Any,
        _ => {
            b.error(path, "expected a list");
            Type::Any
        }
    }
}
