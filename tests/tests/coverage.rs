//! Every clause of a RULES.md that names a trace as its cover is reached by that trace:
//! replaying the trace runs a statement, option or procedure tagged with the clause's
//! rule reference (or the clause is about a declaration, in force in every game).

use frontier_interpreter::coverage;
use frontier_tests::*;

#[test]
fn the_traces_a_clause_names_reach_it() {
    let mut checked = 0;
    for name in ruleset_names() {
        let dir = workspace().join("rulesets").join(&name);
        let Ok(text) = std::fs::read_to_string(dir.join("RULES.md")) else {
            continue;
        };
        let mut failures = Vec::new();
        let game = load_ruleset(&name);
        let known = game
            .runnable_rules()
            .union(&game.declared_rules())
            .cloned()
            .collect();
        for clause in coverage::clauses(&text, &known) {
            let Some(reference) = &clause.reference else {
                continue;
            };
            for trace in &clause.traces {
                let path = dir.join(trace);
                assert!(
                    path.is_file(),
                    "{name}/RULES.md: {} names {trace}, which does not exist",
                    clause.text
                );
                let (game, mut ran) = rules_run_by(&path);
                ran.extend(game.declared_rules());
                if !coverage::reaches(reference, &ran) {
                    failures.push(format!(
                        "{trace} never reaches §{reference} ({})",
                        clause.text
                    ));
                }
                checked += 1;
            }
        }
        assert!(
            failures.is_empty(),
            "{name}/RULES.md names traces that do not cover their clause:\n{}",
            failures.join("\n")
        );
    }
    assert!(checked >= 20, "only {checked} clause covers found");
}
