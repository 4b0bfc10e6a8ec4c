//! What a run sets for every ruleset it loads and every game it plays, passed as a value:
//! the bounds, whether rulesets are optimized, whether games are compiled.

use frontier_interpreter::model::Limits;
use frontier_interpreter::{load_with, Game, LoadError, Optimizer, Resolver, RulesetSource};

use crate::back_end::Compile;

/// The settings of a run (`--limit`, `--optimizer`, `--compile` on the command
/// line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The bounds a ruleset and its games are held to.
    pub limits: Limits,
    /// Whether rulesets are optimized as they load.
    pub optimizer: Optimizer,
    /// Whether games are compiled to machine code when they load, to run parts of their
    /// steps.
    pub compile: Compile,
}

impl Default for Settings {
    /// The default bounds, optimized rulesets, games compiled.
    fn default() -> Settings {
        Settings {
            limits: Limits::default(),
            optimizer: Optimizer::On,
            compile: Compile::On,
        }
    }
}

impl Settings {
    /// Loads `source` with `params` overridden, held to these bounds and optimized as these
    /// settings say; `resolve` finds the ruleset its `extends:` names.
    pub fn load(
        &self,
        source: &RulesetSource,
        resolve: Resolver,
        params: &[(String, i64)],
    ) -> Result<Game, LoadError> {
        load_with(source, resolve, params, self.limits, self.optimizer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ruleset_loads_held_to_the_settings_given() {
        let source = frontier_tests::source(&frontier_tests::ruleset_path("circle-the-wagons"));
        // (optimizer, bound on the operators of one expression, whether it loads): some
        // of its expressions have more than one operator.
        let cases = [
            (Optimizer::On, 256, true),
            (Optimizer::Off, 256, true),
            (Optimizer::On, 1, false),
        ];
        for (optimizer, operators, loads) in cases {
            let mut limits = Limits::default();
            limits.set("operators", operators).unwrap();
            let settings = Settings {
                limits,
                optimizer,
                compile: Compile::Off,
            };
            match settings.load(&source, &frontier_tests::resolve, &[]) {
                Ok(game) => {
                    assert!(loads, "{optimizer:?}, {operators} operators: it loads");
                    assert_eq!(game.optimizer, optimizer);
                    assert_eq!(game.limits, limits);
                }
                Err(e) => assert!(
                    !loads && e.to_string().contains("more than 1 operators"),
                    "{optimizer:?}, {operators} operators: {e}"
                ),
            }
        }
    }
}
