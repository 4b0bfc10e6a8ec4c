//! The optimizer on whole loaded games: what it makes of the IR of rulesets and queries.

use crate::ir::Expr;

fn any(e: &Expr, is: fn(&Expr) -> bool) -> bool {
    is(e) || e.children().into_iter().any(|c| any(c, is))
}

fn searches() -> crate::Game {
    let text = include_str!("../../../tests/cases/searches/ruleset.yaml");
    let src = crate::RulesetSource {
        origin: "searches".into(),
        file: "ruleset.yaml".into(),
        text: text.into(),
        scripts: Vec::new(),
    };
    crate::load(&src, &|_| Err("no imports".into())).expect("the searches case loads")
}

/// Whether the optimized IR of `source` (a query on tests/cases/searches) has a node
/// that `is` accepts.
fn optimized_has(source: &str, is: fn(&Expr) -> bool) -> bool {
    let game = searches();
    let state = game
        .initial_state(vec!["p1".into(), "p2".into()])
        .expect("it starts");
    let query = crate::trace::Query::compile(&game, &state, source).expect("the query compiles");
    any(query.ir(), is)
}

#[test]
fn a_filter_by_a_column_equal_to_a_key_reads_an_index() {
    let rows_where = |e: &Expr| matches!(e, Expr::RowsWhere { .. });
    // (A search that reads only tables is folded into its value at load.)
    assert!(optimized_has(
        "map(towns, t => filter(towns, u => u.below == t and money[p1] > 0))",
        rows_where
    ));
    assert!(optimized_has(
        "map(towns, t => count_if(markets, m => t == m.town and owner[m] != none))",
        rows_where
    ));
    assert!(optimized_has(
        "any(towns, u => u.below == pick)",
        rows_where
    ));
    // Not an equality with the row's column first: every row is tested.
    assert!(!optimized_has(
        "map(towns, t => filter(towns, u => owner[@abilene-gold] == none and u.below == t))",
        rows_where
    ));
    // all() needs every row: no index.
    assert!(!optimized_has(
        "map(towns, t => all(towns, u => u.below == t and money[p1] > 0))",
        rows_where
    ));
}

#[test]
fn per_element_parts_that_do_not_read_the_element_are_lifted() {
    let with = |e: &Expr| matches!(e, Expr::With { .. });
    assert!(optimized_has(
        "filter(players, p => money[p] == max(players, q => money[q]))",
        with
    ));
    // The inner max reads p: nothing to lift.
    assert!(!optimized_has(
        "filter(players, p => money[p] == max(players, q => money[q] - money[p]))",
        with
    ));
    // A plain read is not worth lifting.
    assert!(!optimized_has(
        "filter(players, p => money[p] == money[p1])",
        with
    ));
}

#[test]
fn a_negation_goes_into_the_test_it_negates() {
    let not = |e: &Expr| matches!(e, Expr::Not(_));
    assert!(!optimized_has("not (money[p2] < 5)", not));
    assert!(optimized_has("not (money[p2] < 5)", |e| matches!(
        e,
        Expr::Compare {
            op: crate::ir::CmpOp::Ge,
            ..
        }
    )));
    assert!(!optimized_has("not (pick == none)", not));
    assert!(optimized_has("not (pick == none)", |e| matches!(
        e,
        Expr::IsNone { negate: true, .. }
    )));
    assert!(!optimized_has("not (not (money[p1] > 5))", not));
    // A zone search has no negated form: the negation stays.
    assert!(optimized_has("not (p1 in herd[@abilene])", not));
}

#[test]
fn a_constant_on_the_right_of_and_or_decides_once_the_left_is_read() {
    let and_or = |e: &Expr| matches!(e, Expr::And(..) | Expr::Or(..));
    let false_ = |e: &Expr| matches!(e, Expr::Const(crate::Value::Bool(false)));
    let true_ = |e: &Expr| matches!(e, Expr::Const(crate::Value::Bool(true)));
    // `x and true` is x, `x or false` is x.
    assert!(!optimized_has("money[p1] > 5 and true", and_or));
    assert!(!optimized_has("money[p1] > 5 or false", and_or));
    // `x and false` is false and `x or true` true when x cannot fail…
    assert!(optimized_has("money[p1] > 5 and false", false_));
    assert!(optimized_has("not (money[p1] > 5) or true", true_));
    // …but a division by zero in x must still be reported: x is read.
    assert!(optimized_has("money[p1] / money[p2] > 5 and false", and_or));
    assert!(optimized_has("money[p1] / money[p2] > 5 or true", and_or));
}

#[test]
fn a_table_indexed_by_position_reads_the_row_number() {
    assert!(optimized_has("markets[money[p1]]", |e| matches!(
        e,
        Expr::RowAt { .. }
    )));
    assert!(optimized_has("index_of(towns, pick)", |e| matches!(
        e,
        Expr::RowNumber { count: 4, .. }
    )));
}

#[test]
fn membership_and_counts_against_zero_search_in_place() {
    let contains = |e: &Expr| matches!(e, Expr::ZoneContains(..));
    assert!(optimized_has("map(towns, t => p1 in herd[t])", contains));
    assert!(optimized_has(
        "map(towns, t => count(herd[t], p1) > 0)",
        contains
    ));
    let count_if = |e: &Expr| {
        matches!(
            e,
            Expr::Call {
                op: crate::ir::Op::CountIf,
                ..
            }
        )
    };
    assert!(!optimized_has(
        "map(towns, t => count_if(players, money[it] > 5) == 0)",
        count_if
    ));
    assert!(optimized_has(
        "map(towns, t => count_if(players, money[it] > 5) == 2)",
        count_if
    ));
}

#[test]
fn an_option_condition_over_rows_is_specialized_per_row() {
    let game = searches();
    let choose = game
        .blocks
        .iter()
        .flatten()
        .find_map(|stmt| match &stmt.kind {
            crate::model::StmtKind::Choose(choose) => Some(choose),
            _ => None,
        })
        .expect("the case has a choose");
    let by_row = choose.groups[0]
        .by_row
        .as_ref()
        .expect("the condition is specialized");
    // One condition per market (4 towns × 2 goods), the function call inlined and its
    // branch on the good decided: a gold market reads its owner only, a cattle market
    // of a town of 4 spaces or fewer is false.
    assert_eq!(by_row.of_row.len(), 8);
    let conditions = &by_row.conditions;
    assert!(!conditions
        .iter()
        .any(|c| any(c, |e| matches!(e, Expr::Function { .. } | Expr::If { .. }))));
    let false_ = |e: &Expr| matches!(e, Expr::Const(crate::Value::Bool(false)));
    let of = |row: usize| &conditions[by_row.of_row[row] as usize];
    // abilene-cattle (4 spaces) and tombstone-cattle (3) are never open, and share
    // that condition; dodge-cattle (6 spaces) and deadwood-cattle (5) share theirs.
    assert!(false_(of(0)) && false_(of(6)));
    assert_eq!(by_row.of_row[0], by_row.of_row[6]);
    assert!(!false_(of(2)));
    assert_eq!(by_row.of_row[2], by_row.of_row[4]);
    // Four gold markets, each its own owner: 4 + 2 conditions in all.
    assert_eq!(conditions.len(), 6);
    assert!(by_row.filtered.is_none());
    // `filter(markets, owner[it] == players[0])` without a condition: the filter is
    // specialized per market, each reading that market's owner, and the condition is
    // true for all.
    let sell = choose.groups[1]
        .by_row
        .as_ref()
        .expect("the filter is specialized");
    let filtered = sell.filtered.as_ref().expect("the filter is taken apart");
    assert_eq!(filtered.pass.len(), 8);
    assert!(!filtered.pass.iter().any(|c| any(c, |e| matches!(
        e,
        Expr::It | Expr::VarAtKey { .. } | Expr::VarAt { .. }
    ))));
    assert!(matches!(
        sell.conditions.as_slice(),
        [Expr::Const(crate::Value::Bool(true))]
    ));
    // `filter(towns, len(herd[it]) > 0)` with `t.spaces > 4`: the condition folds to a
    // constant per town (abilene 4 and tombstone 3 false, dodge 6 and deadwood 5 true).
    let herd = choose.groups[2]
        .by_row
        .as_ref()
        .expect("the filter and condition are specialized");
    assert!(herd.filtered.is_some());
    assert!(
        herd.conditions.iter().all(|c| matches!(c, Expr::Const(_))),
        "{:?}",
        herd.conditions
    );
}

/// The optimized body of a function of tests/cases/searches.
fn function_body(game: &crate::Game, name: &str) -> Expr {
    game.functions
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.body.clone())
        .expect("the function exists")
}

#[test]
fn searches_and_totals_over_a_tables_rows_are_unrolled() {
    let game = searches();
    let unrolled = |e: &Expr| matches!(e, Expr::UnrolledTest { .. } | Expr::UnrolledTotal { .. });
    let loops = |e: &Expr| matches!(e, Expr::Call { .. } | Expr::Lambda(_) | Expr::Filter { .. });
    for name in [
        "herds_of",
        "spaces_of_cattle",
        "all_open",
        "fewer_cattle_pairs",
        "herded_and_large",
        "empty_with",
        "divides_at_abilene",
    ] {
        let body = function_body(&game, name);
        assert!(
            any(&body, unrolled) && !any(&body, loops),
            "{name}: {body:?}"
        );
    }
    // A town's column and the zone or variable it names are read as constants: no
    // element is bound, and `herd[t]` is one zone.
    let body = function_body(&game, "herds_of");
    assert!(
        !any(&body, |e| matches!(
            e,
            Expr::It | Expr::ColumnKey { .. } | Expr::Column { .. }
        )),
        "{body:?}"
    );
    assert!(
        any(
            &body,
            |e| matches!(e, Expr::ZoneContains(z, _) if z.index.is_none())
        ),
        "{body:?}"
    );
    // abilene's 4 spaces decide the search at load.
    assert!(matches!(
        function_body(&game, "stops_at_abilene"),
        Expr::Const(crate::value::Value::Bool(true))
    ));
    // Over a filter: one item per row, the filter's test first.
    assert!(
        matches!(function_body(&game, "herd_spaces"), Expr::UnrolledTotal { items, .. } if items.len() == 4)
    );
}

#[test]
fn a_map_over_a_constant_list_is_written_out_and_joined_to_the_lists_beside_it() {
    let game = searches();
    let lists = |e: &Expr| {
        matches!(
            e,
            Expr::Call {
                op: crate::ir::Op::Map | crate::ir::Op::Concat | crate::ir::Op::Range,
                ..
            } | Expr::Lambda(_)
        )
    };
    // index_of(concat(map(range(0, 2), k => p in herd[towns[k]]), [false]), false): the
    // range folds, the map is written out one item per town, each searching that town's
    // herd, and the concat joins it to [false]: four items, no list built.
    let body = function_body(&game, "herd_run");
    assert!(!any(&body, lists), "{body:?}");
    let Expr::Call {
        op: crate::ir::Op::IndexOf,
        args,
    } = &body
    else {
        panic!("{body:?}");
    };
    let Expr::List(items) = &args[0] else {
        panic!("{body:?}");
    };
    assert_eq!(items.len(), 4, "{body:?}");
    assert!(items[..3]
        .iter()
        .all(|i| matches!(i, Expr::ZoneContains(z, _) if z.index.is_none())));
    assert!(matches!(items[3], Expr::Const(crate::Value::Bool(false))));
    // money[players[0]] / k for k = 1 is money[players[0]]: no division left there.
    let body = function_body(&game, "stops_at_ten");
    let Expr::Call { args, .. } = &body else {
        panic!("{body:?}");
    };
    let Expr::List(items) = &args[0] else {
        panic!("{body:?}");
    };
    assert!(
        !any(&items[0], |e| matches!(e, Expr::Arith { .. })),
        "{body:?}"
    );
    assert!(
        any(&items[1], |e| matches!(e, Expr::Arith { .. })),
        "{body:?}"
    );
}

#[test]
fn lists_written_out_beside_constant_lists_are_one_list() {
    let concat = |e: &Expr| {
        matches!(
            e,
            Expr::Call {
                op: crate::ir::Op::Concat,
                ..
            }
        )
    };
    assert!(!optimized_has(
        "index_of(concat([money[p1], 2], [3]), 3)",
        concat
    ));
    assert!(!optimized_has("concat([1], [money[p1]])", concat));
    // A list read at run time stays a concat.
    assert!(optimized_has("concat(herd[@abilene], [p1])", concat));
}

#[test]
fn arithmetic_with_its_identity_is_its_other_operand() {
    let arith = |e: &Expr| matches!(e, Expr::Arith { .. });
    assert!(!optimized_has("money[p1] * 1 + 0", arith));
    assert!(!optimized_has("0 + 1 * (money[p1] - 0) / 1", arith));
    // Not an identity: kept.
    assert!(optimized_has("0 - money[p1]", arith));
    assert!(optimized_has("money[p1] * 0", arith));
}

#[test]
fn a_let_of_a_constant_is_put_in_and_what_it_makes_constant_folded() {
    let calls = |e: &Expr| matches!(e, Expr::Let { .. } | Expr::Call { .. });
    // Once the list is put in, len([1, 2, 3]) is 3: no let and no call is left beside
    // the read of the state.
    assert!(!optimized_has(
        "let line = [1, 2, 3] in len(line) + money[p1]",
        calls
    ));
    // A value read from the state stays a let.
    assert!(optimized_has("let m = money[p1] in m + m", |e| matches!(
        e,
        Expr::Let { .. }
    )));
}
