//! Data-driven parser tests: each case is a source and its expected S-expression
//! (or the expected error), so precedence and structure are visible at a glance.

use super::*;
use proptest::prelude::*;

fn sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(n) => n.to_string(),
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::None => "none".into(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Name(n) => n.text.clone(),
        ExprKind::Field(b, n) => format!("(. {} {})", sexpr(b), n.text),
        ExprKind::Index(b, i) => format!("([] {} {})", sexpr(b), sexpr(i)),
        ExprKind::Call(n, args) => {
            let args: Vec<String> = args.iter().map(sexpr).collect();
            format!("({} {})", n.text, args.join(" ")).replace(" )", ")")
        }
        ExprKind::List(items) => format!(
            "[{}]",
            items.iter().map(sexpr).collect::<Vec<_>>().join(" ")
        ),
        ExprKind::Unary(UnaryOp::Neg, x) => format!("(neg {})", sexpr(x)),
        ExprKind::Unary(UnaryOp::Not, x) => format!("(not {})", sexpr(x)),
        ExprKind::Binary(op, a, b) => format!("({} {} {})", op.symbol(), sexpr(a), sexpr(b)),
        ExprKind::If(c, a, b) => format!("(if {} {} {})", sexpr(c), sexpr(a), sexpr(b)),
        ExprKind::Lambda(x, body) => format!("(=> {} {})", x.text, sexpr(body)),
        ExprKind::Let(x, value, body) => {
            format!("(let {} {} {})", x.text, sexpr(value), sexpr(body))
        }
        ExprKind::Row(table, id) => format!(
            "(@ {}{})",
            table
                .as_ref()
                .map(|t| format!("{} ", t.text))
                .unwrap_or_default(),
            id.text
        ),
    }
}

fn check(source: &str, expected: &str) {
    let actual = match parse_expr(source, Bounds::DEFAULT) {
        Ok(e) => sexpr(&e),
        Err(err) => format!("error at {}: {}", err.offset, err.message),
    };
    assert_eq!(actual, expected, "source: {source}");
}

#[test]
fn literals_and_names() {
    check("42", "42");
    check("-7", "-7");
    check("true", "true");
    check("none", "none");
    check("\"new-england\"", "\"new-england\"");
    check("players", "players");
    check("android", "android"); // a keyword prefix is still a name
    check("notes", "notes");
    check("ifs", "ifs");
}

#[test]
fn row_literals() {
    check("@deadwood", "(@ deadwood)");
    check("towns@dodge-city", "(@ towns dodge-city)");
    check("herd[@new-england]", "([] herd (@ new-england))");
    check("@gw-01.cost + 1", "(+ (. (@ gw-01) cost) 1)");
    check("[@a, towns@b]", "[(@ a) (@ towns b)]");
    check("it == @c07", "(== it (@ c07))");
    check("@", "error at 1: expected a row id");
}

#[test]
fn lambdas() {
    check(
        "map(players, p => money[p])",
        "(map players (=> p ([] money p)))",
    );
    // The body extends as far as it can.
    check(
        "filter(l, x => x > 1 and y)",
        "(filter l (=> x (and (> x 1) y)))",
    );
    check(
        "any(a, x => all(b, y => x == y))",
        "(any a (=> x (all b (=> y (== x y)))))",
    );
    check("x => 1", "(=> x 1)");
    check("f(=> 1)", "error at 2: expected ')' or a value");
}

#[test]
fn lets() {
    check("let n = 2 in n * n", "(let n 2 (* n n))");
    // The body extends as far as it can; the value ends at `in`.
    check(
        "let a = x + 1 in let b = a * 2 in a + b > 3 and ok",
        "(let a (+ x 1) (let b (* a 2) (and (> (+ a b) 3) ok)))",
    );
    check("(let a = 1 in a) + 1", "(+ (let a 1 a) 1)");
    check(
        "let ok = (x in l) in ok or y in l",
        "(let ok (in x l) (or ok (in y l)))",
    );
    check("f(let x = 1 in x, 2)", "(f (let x 1 x) 2)");
    check("let in = 1 in 2", "error at 4: expected a value");
    check("let x == 1 in x", "error at 6: expected '='");
    check(
        "let x = 1",
        "error at 9: expected 'in' or '.' or '[' or an operator",
    );
    check("let x = a in b in c", "(let x a (in b c))");
    check("letter + 1", "(+ letter 1)");
}

#[test]
fn sources_too_deep_or_too_long_are_refused_before_parsing() {
    let deep = format!("{}1{}", "(".repeat(20_000), ")".repeat(20_000));
    check(&deep, "error at 64: nested more than 64 deep (brackets, conditionals, lambdas; --limit nesting=N raises the limit)");
    let long = vec!["1"; 40_000].join("+");
    // The 257th '+' of "1+1+…" stands at offset 2 × 257 - 1.
    check(&long, "error at 513: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    // `not` and `.` nest as operators do: "not " is 4 characters, the 257th at 4 × 256.
    let nots = format!("{}x", "not ".repeat(5_000));
    check(&nots, "error at 1024: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    let fields = format!("a{}", ".b".repeat(5_000));
    check(&fields, "error at 513: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    // `and`, `or` and `in` are operators: "true and " is 9 characters, the 257th at 9 × 256 + 5.
    let ands = vec!["true"; 50_000].join(" and ");
    check(&ands, "error at 2309: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    let ors = vec!["a"; 50_000].join(" or ");
    check(&ors, "error at 1282: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    // An index is an operator ("[0]" is 3 characters after "players"), a list is not.
    let indexes = format!("players{}", "[0]".repeat(100_000));
    check(&indexes, "error at 775: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    let spaced = format!("(players) {} == a", "[0] ".repeat(100_000));
    check(&spaced, "error at 1034: more than 256 operators in one expression: split it (functions: can name its parts), or --limit operators=N raises the limit");
    let lists = format!("{}1{}", "[".repeat(60), "]".repeat(60));
    check(&lists, &lists);
    // A list's elements and a call's arguments are no operators: side by side, they nest
    // nothing (`len([1, … 300 ones])` was refused as more than 256 operators).
    let ones = format!("len([{}])", vec!["1"; 100_000].join(", "));
    match parse_expr(&ones, Bounds::DEFAULT).map(|e| e.kind) {
        Ok(ExprKind::Call(_, args)) => match &args[0].kind {
            ExprKind::List(items) => assert_eq!(items.len(), 100_000),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
    let arguments = format!("f({})", vec!["x"; 300].join(", "));
    match parse_expr(&arguments, Bounds::DEFAULT).map(|e| e.kind) {
        Ok(ExprKind::Call(_, args)) => assert_eq!(args.len(), 300),
        other => panic!("{other:?}"),
    }
    // A name containing "not" is no operator.
    check(
        &vec!["nothing"; 300].join(" "),
        "error at 8: expected '.' or '[' or an operator or the end of the expression",
    );
    // Brackets and operators inside texts do not count.
    let text = "((((+".repeat(500);
    check(&format!("\"{text}\""), &format!("{text:?}"));
    let nested_ok = format!("{}1{}", "(".repeat(64), ")".repeat(64));
    check(&nested_ok, "1");
}

#[test]
fn precedence() {
    check("1 + 2 * 3", "(+ 1 (* 2 3))");
    check("(1 + 2) * 3", "(* (+ 1 2) 3)");
    check("a - b - c", "(- (- a b) c)");
    check("a < b and c or d", "(or (and (< a b) c) d)");
    check("not a and b", "(and (not a) b)");
    check("not a == b", "(not (== a b))");
    check("-x.y", "(neg (. x y))");
    check("x in list and y", "(and (in x list) y)");
    check("10 % 3 / 2", "(/ (% 10 3) 2)");
}

#[test]
fn paths_calls_lists() {
    check("player.tokens", "(. player tokens)");
    check("wagons[r.west]", "([] wagons (. r west))");
    check("track[r][0]", "([] ([] track r) 0)");
    // Two indexes in one pair of brackets are two indexes in a row.
    check("supply[active, s]", "([] ([] supply active) s)");
    check(
        "supply[p, s.next][0]",
        "([] ([] ([] supply p) (. s next)) 0)",
    );
    check("supply[p,]", "error at 9: expected a value");
    check("count(track[r], it)", "(count ([] track r) it)");
    check("len()", "(len)");
    check("[1, 2, 3,]", "[1 2 3]");
    check(
        "sort_by(xs, -count(xs, it))",
        "(sort_by xs (neg (count xs it)))",
    );
    check("if a > 1 then b else c + 1", "(if (> a 1) b (+ c 1))");
    check("regions[\"east\"].track", "(. ([] regions \"east\") track)");
}

#[test]
fn errors_point_at_the_problem() {
    check("1 +", "error at 3: expected a value");
    check(
        "a b",
        "error at 2: expected '.' or '[' or an operator or the end of the expression",
    );
    check(
        "99999999999999999999",
        "error at 0: number 99999999999999999999 is too large",
    );
    check("f(1,,2)", "error at 4: expected ')' or a value");
    // What closes or continues the construct at hand comes first: the likeliest fix.
    check(
        "max(1, 2",
        "error at 8: expected ')' or ',' or '.' or '[' or an operator",
    );
    check(
        "len([1, 2)",
        "error at 9: expected ']' or ',' or '.' or '[' or an operator",
    );
    check(
        "(1 + 2",
        "error at 6: expected ')' or '.' or '[' or an operator",
    );
    check(
        "x[1",
        "error at 3: expected ']' or ',' or '.' or '[' or an operator",
    );
    check(
        "if v then 1",
        "error at 11: expected 'else' or '.' or '[' or an operator",
    );
    check(
        "if v 1 else 2",
        "error at 5: expected 'then' or '.' or '[' or an operator",
    );
    // A separator stands only after an item: `f(,)` and `[,]` are not empty calls or lists.
    check("f(,)", "error at 2: expected ')' or a value");
    check("[,]", "error at 1: expected ']' or a value");
    check("f(1,)", "(f 1)");
    check("", "error at 0: expected a value");
}

#[test]
fn spans_cover_the_source() {
    let e = parse_expr("  a + bc ", Bounds::DEFAULT).unwrap();
    assert_eq!((e.span.start, e.span.end), (2, 8));
    // A bracketed operand's span takes in its brackets: the text of the operation around
    // it, quoted in runtime errors, is `x / (y - 30)`, not `x / (y - 30`.
    let source = "x / (y - 30) == (0)";
    let e = parse_expr(source, Bounds::DEFAULT).unwrap();
    let ExprKind::Binary(_, division, zero) = &e.kind else {
        panic!("{e:?}")
    };
    assert_eq!(
        &source[division.span.start..division.span.end],
        "x / (y - 30)"
    );
    assert_eq!(&source[zero.span.start..zero.span.end], "(0)");
}

#[test]
fn templates() {
    let parts = parse_template("move wagon from:{r} {{x}}", Bounds::DEFAULT).unwrap();
    assert_eq!(parts.len(), 3);
    assert_eq!(parts[0], TemplatePart::Text("move wagon from:".into()));
    assert!(matches!(&parts[1], TemplatePart::Hole(e) if sexpr(e) == "r"));
    assert_eq!(parts[2], TemplatePart::Text(" {x}".into()));
    assert!(parse_template("broken {", Bounds::DEFAULT).is_err());
    let unclosed = parse_template("from:{r", Bounds::DEFAULT).unwrap_err();
    assert_eq!(
        (unclosed.offset, unclosed.message.as_str()),
        (7, "expected '}' or '.' or '[' or an operator")
    );
    assert_eq!(parse_template("", Bounds::DEFAULT).unwrap(), vec![]);
}

proptest! {
    #[test]
    fn never_panics_on_arbitrary_text(source in "\\PC{0,40}") {
        let _ = parse_expr(&source, Bounds::DEFAULT);
        let _ = parse_template(&source, Bounds::DEFAULT);
    }

    #[test]
    fn never_panics_on_expression_like_text(source in "[a-z0-9 ()\\[\\].,+*/%<>=!\"-]{0,40}") {
        if let Err(e) = parse_expr(&source, Bounds::DEFAULT) {
            prop_assert!(e.offset <= source.len());
        }
    }
}

#[test]
fn the_bounds_are_data() {
    let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
    assert!(parse_expr(&deep, Bounds::DEFAULT).is_err());
    assert!(parse_expr(
        &deep,
        Bounds {
            nesting: 100,
            ..Bounds::DEFAULT
        }
    )
    .is_ok());
    let long = vec!["1"; 300].join(" + ");
    assert!(parse_expr(&long, Bounds::DEFAULT).is_err());
    assert!(parse_expr(
        &long,
        Bounds {
            operators: 299,
            ..Bounds::DEFAULT
        }
    )
    .is_ok());
    assert!(parse_expr(
        &long,
        Bounds {
            operators: 298,
            ..Bounds::DEFAULT
        }
    )
    .is_err());
    // Conditionals and lambdas nest without brackets: each counts a level of nesting
    // until the bracket around it closes or a `,` ends its list element.
    let ifs = format!("{}1", "if true then 1 else ".repeat(70));
    check(&ifs, "error at 1280: nested more than 64 deep (brackets, conditionals, lambdas; --limit nesting=N raises the limit)");
    assert!(parse_expr(
        &ifs,
        Bounds {
            nesting: 70,
            ..Bounds::DEFAULT
        }
    )
    .is_ok());
    let lambdas = format!("map(players, {}1)", "x => ".repeat(70));
    assert!(parse_expr(&lambdas, Bounds::DEFAULT)
        .unwrap_err()
        .message
        .starts_with("nested more than 64 deep"));
    let listed = format!("[{}]", vec!["if true then 1 else 2"; 100].join(", "));
    assert!(
        parse_expr(&listed, Bounds::DEFAULT).is_ok(),
        "conditionals side by side do not nest"
    );
    // Names that only begin with `if` or `not` are not operators.
    let names = vec!["iffy"; 200].join(" + ") + " + " + &vec!["nothing"; 50].join(" + ");
    assert!(parse_expr(&names, Bounds::DEFAULT).is_ok());
}
