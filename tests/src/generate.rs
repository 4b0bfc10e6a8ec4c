//! A grammar of the ruleset language that writes rulesets from a seed: tables, state,
//! zones, statements, decisions, chance and typed expressions. The fuzzing campaign loads
//! and plays them (tests/tests/fuzz.rs); the engine's differential test plays them with
//! the walker and with compiled code. The same seed writes the same ruleset.

use std::fmt::Write as _;

use frontier_interpreter::GameRng;

/// The ruleset that `seed` writes.
pub fn ruleset(seed: u64) -> String {
    RulesetGen::generate(seed)
}

/// A small deterministic source of choices for building inputs.
pub struct Gen(GameRng);

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen(GameRng::derived(seed, 0xF022))
    }
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// What a generated expression may name where it stands.
#[derive(Clone)]
struct Scope {
    /// A local player (`for_each: { p: players }`).
    player: Option<&'static str>,
    /// A local row of `things` (an option's `for:`).
    thing: Option<&'static str>,
    /// Inside a per-element argument over players: `it` is a player.
    it_player: bool,
    /// Whether the expression may call the ruleset's functions with parameters (not in
    /// their own bodies: functions do not recurse).
    calls: bool,
}

impl Scope {
    /// Inside a per-element argument over `things`: `it` is a row.
    fn over_things(&self) -> Scope {
        Scope {
            thing: Some("it"),
            it_player: false,
            ..self.clone()
        }
    }
    /// Inside a per-element argument over players: `it` is a player.
    fn over_players(&self) -> Scope {
        Scope {
            thing: self.thing.filter(|t| *t != "it"),
            it_player: true,
            ..self.clone()
        }
    }
}

struct RulesetGen {
    g: Gen,
    rows: usize,
    min_players: usize,
}

impl RulesetGen {
    fn player(&mut self, s: &Scope) -> String {
        match (s.player, self.g.below(4)) {
            (Some(p), 0 | 1) => p.to_string(),
            _ if s.it_player && self.g.chance(30) => "it".into(),
            _ => format!("players[{}]", self.g.below(self.min_players)),
        }
    }

    fn row(&mut self, s: &Scope) -> String {
        match s.thing {
            Some(t) if self.g.chance(50) => t.to_string(),
            _ => format!("@t{}", self.g.below(self.rows)),
        }
    }

    fn int(&mut self, s: &Scope, depth: usize) -> String {
        let leaf = depth == 0 || self.g.chance(30);
        if leaf {
            return match self.g.below(9) {
                0 => ["0", "1", "2", "3", "7", "-4"][self.g.below(6)].to_string(),
                // Overflow now and then: a clean runtime error ends those games.
                1 if self.g.chance(20) => [
                    "9223372036854775807",
                    "-9223372036854775807",
                    "4611686018427387904",
                ][self.g.below(3)]
                .to_string(),
                1 => "5".into(),
                2 => "total".into(),
                3 => format!("score[{}]", self.player(s)),
                4 => "len(pool)".into(),
                5 => format!("len(hand[{}])", self.player(s)),
                6 => format!("{}.value", self.row(s)),
                7 => "len(players)".into(),
                _ => "len(spot)".into(),
            };
        }
        let d = depth - 1;
        match self.g.below(if s.calls { 18 } else { 17 }) {
            0..=2 => {
                let op = self.g.pick(&["+", "-", "*", "/", "%"]);
                format!("({} {op} {})", self.int(s, d), self.int(s, d))
            }
            3 => format!("-({})", self.int(s, d)),
            4 => format!("abs({})", self.int(s, d)),
            5 => format!(
                "sum(things, it.value * {})",
                self.int(
                    &Scope {
                        thing: None,
                        it_player: false,
                        ..s.clone()
                    },
                    0
                )
            ),
            6 => format!(
                "count_if(players, score[it] > {})",
                self.int(&s.over_players(), d)
            ),
            7 => format!(
                "(if {} then {} else {})",
                self.bool(s, d),
                self.int(s, d),
                self.int(s, d)
            ),
            8 => format!("max([{}, {}])", self.int(s, d), self.int(s, d)),
            // Searches and totals over a table's rows (constant lists the optimizer unrolls
            // and specializes), filters of them, row numbers and rows by number.
            9 => format!(
                "count_if({}, {})",
                self.rows(s, d),
                self.bool(&s.over_things(), d)
            ),
            10 => format!(
                "sum({}, {})",
                self.rows(s, d),
                self.int(&s.over_things(), d)
            ),
            11 => format!(
                "sum(filter(things, {}), it.value)",
                self.bool(&s.over_things(), d)
            ),
            12 => format!("len(filter(things, {}))", self.bool(&s.over_things(), d)),
            13 => format!("index_of(things, {})", self.row(s)),
            14 => format!("things[{}].value", self.int(s, d)),
            // The rows whose link is a given row: a search the loader indexes by column.
            15 => format!("count_if(things, it.link == {})", self.row(s)),
            16 => format!(
                "sum(filter(things, it.link == {} and {}), it.value)",
                self.row(s),
                self.bool(&s.over_things(), d)
            ),
            _ => format!("weigh({}, {})", self.row(s), self.int(s, d)),
        }
    }

    fn bool(&mut self, s: &Scope, depth: usize) -> String {
        if depth == 0 || self.g.chance(30) {
            return match self.g.below(6) {
                0 => "true".into(),
                1 => "flag".into(),
                2 => "len(pool) > 0".into(),
                3 => format!("contains(pool, {})", self.row(s)),
                // A row's column against a constant: per row (unrolled, or an option's row)
                // it folds to true or false, which decides a search or drops out of it.
                4 => format!(
                    "{}.value {} {}",
                    self.row(s),
                    self.g.pick(&["<", "<=", "==", ">", ">="]),
                    self.g.below(7) as i64 - 3
                ),
                _ => format!("{} == {}", self.player(s), self.player(s)),
            };
        }
        let d = depth - 1;
        match self.g.below(if s.calls { 14 } else { 13 }) {
            0 => format!(
                "{} {} {}",
                self.int(s, d),
                self.g.pick(&["<", "<=", "==", "!=", ">", ">="]),
                self.int(s, d)
            ),
            1 => format!("({} and {})", self.bool(s, d), self.bool(s, d)),
            2 => format!("({} or {})", self.bool(s, d), self.bool(s, d)),
            3 => format!("not ({})", self.bool(s, d)),
            4 => format!(
                "any(players, score[it] >= {})",
                self.int(&s.over_players(), d)
            ),
            5 | 6 => {
                let search = self.g.pick(&["any", "all"]);
                format!(
                    "{search}({}, {})",
                    self.rows(s, d),
                    self.bool(&s.over_things(), d)
                )
            }
            7 => format!(
                "{}(filter(things, {}), {})",
                self.g.pick(&["any", "all"]),
                self.bool(&s.over_things(), d),
                self.bool(&s.over_things(), d)
            ),
            8 => format!("{} in {}", self.row(s), self.zone(s)),
            9 => format!(
                "count({}, {}) {} {}",
                self.zone(s),
                self.row(s),
                self.g.pick(&[">", "==", ">="]),
                self.g.below(2)
            ),
            10 => format!(
                "count_if({}, {}) {} {}",
                self.zone(s),
                self.bool(&s.over_things(), d),
                self.g.pick(&[">", "==", ">="]),
                self.g.below(2)
            ),
            11 => format!(
                "{}.link {} {}",
                self.row(s),
                self.g.pick(&["==", "!="]),
                if self.g.chance(30) {
                    "none".to_string()
                } else {
                    self.row(s)
                }
            ),
            12 => format!(
                "any(things, it.link == {} and {})",
                self.row(s),
                self.bool(&s.over_things(), d)
            ),
            _ => format!("fits({})", self.row(s)),
        }
    }

    /// A list of rows to search: the table (a constant list), a filter of it, or a zone.
    fn rows(&mut self, s: &Scope, depth: usize) -> String {
        match self.g.below(10) {
            0..=3 => "things".into(),
            4..=6 => format!("filter(things, {})", self.bool(&s.over_things(), depth)),
            _ => self.zone(s),
        }
    }

    /// A zone of things.
    fn zone(&mut self, s: &Scope) -> String {
        match self.g.below(3) {
            0 => "pool".into(),
            1 => "spot".into(),
            _ => format!("hand[{}]", self.player(s)),
        }
    }

    /// A YAML string of an expression: always quoted (expressions hold `:` and `{`).
    fn q(text: String) -> String {
        format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
    }

    fn block(&mut self, out: &mut String, indent: usize, s: &Scope, depth: usize) {
        let n = 1 + self.g.below(3);
        for _ in 0..n {
            self.statement(out, indent, s, depth);
        }
    }

    fn statement(&mut self, out: &mut String, indent: usize, s: &Scope, depth: usize) {
        let kind = self.g.below(if depth > 0 { 15 } else { 10 });
        self.statement_of(kind, out, indent, s, depth);
    }

    fn statement_of(
        &mut self,
        kind: usize,
        out: &mut String,
        indent: usize,
        s: &Scope,
        depth: usize,
    ) {
        let pad = " ".repeat(indent);
        let e = 2;
        match kind {
            0 => writeln!(out, "{pad}- set: {{ total: {} }}", Self::q(self.int(s, e))),
            1 => writeln!(out, "{pad}- add: {{ \"score[{}]\": {} }}", self.player(s), Self::q(self.int(s, e))),
            2 => writeln!(out, "{pad}- set: {{ flag: {} }}", Self::q(self.bool(s, e))),
            3 => {
                let (from, to) = if self.g.chance(50) {
                    ("pool".to_string(), format!("hand[{}]", self.player(s)))
                } else {
                    (format!("hand[{}]", self.player(s)), "pool".to_string())
                };
                let at = self.g.pick(&["", ", at: top", ", at: bottom", ", at: 0", ", at: \"len(pool)\""]);
                writeln!(out, "{pad}- move: {{ from: {}, to: {}, count: {}{at} }}", Self::q(from), Self::q(to), Self::q(self.int(s, 1)))
            }
            4 => writeln!(out, "{pad}- shuffle: pool"),
            5 => writeln!(out, "{pad}- log: \"total {{total}}, flag {{flag}}, pool {{len(pool)}}\""),
            6 => writeln!(out, "{pad}- if: \"len(pool) > 0\"\n{pad}  then:\n{pad}    - push: {{ to: spot, value: \"first(pool)\" }}"),
            7 => writeln!(out, "{pad}- clear: spot"),
            8 => {
                writeln!(out, "{pad}- random: {{ roll: \"range(1, {})\" }}", 1 + self.g.below(6)).ok();
                writeln!(out, "{pad}- add: {{ total: roll }}")
            }
            9 => {
                let who = self.player(s);
                writeln!(out, "{pad}- choose:\n{pad}    who: {}\n{pad}    options:", Self::q(who.clone())).ok();
                writeln!(out, "{pad}      - label: \"take {{t}}\"\n{pad}        for: {{ t: pool }}").ok();
                let cond = self.bool(&Scope { thing: Some("t"), ..s.clone() }, 1);
                writeln!(out, "{pad}        if: {}\n{pad}        do:", Self::q(cond)).ok();
                writeln!(out, "{pad}          - move: {{ from: pool, to: {}, item: t }}", Self::q(format!("hand[{who}]"))).ok();
                // An option per row of the table, and one per row of a filter of it: the
                // loader specializes both lists' conditions row by row.
                writeln!(out, "{pad}      - label: \"count {{r}}\"\n{pad}        for: {{ r: things }}").ok();
                let cond = self.bool(&Scope { thing: Some("r"), ..s.clone() }, 1);
                writeln!(out, "{pad}        if: {}\n{pad}        do:\n{pad}          - add: {{ total: r.value }}", Self::q(cond)).ok();
                let kept = self.bool(&s.over_things(), 1);
                writeln!(out, "{pad}      - label: \"keep {{r}}\"\n{pad}        for: {{ r: {} }}", Self::q(format!("filter(things, {kept})"))).ok();
                let cond = self.bool(&Scope { thing: Some("r"), ..s.clone() }, 1);
                writeln!(out, "{pad}        if: {}\n{pad}        do:\n{pad}          - add: {{ total: 1 }}", Self::q(cond)).ok();
                writeln!(out, "{pad}      - label: pass\n{pad}        do:").ok();
                let inner = Scope { thing: None, ..s.clone() };
                self.block(out, indent + 10, &inner, depth.saturating_sub(1));
                Ok(())
            }
            10 => {
                writeln!(out, "{pad}- if: {}\n{pad}  then:", Self::q(self.bool(s, e))).ok();
                self.block(out, indent + 4, s, depth - 1);
                if self.g.chance(50) {
                    writeln!(out, "{pad}  else:").ok();
                    self.block(out, indent + 4, s, depth - 1);
                }
                Ok(())
            }
            11 => {
                writeln!(out, "{pad}- for_each: {{ p: players }}\n{pad}  do:").ok();
                self.block(out, indent + 4, &Scope { player: Some("p"), ..s.clone() }, depth - 1);
                Ok(())
            }
            12 => {
                writeln!(out, "{pad}- repeat: {}\n{pad}  do:", 1 + self.g.below(3)).ok();
                self.block(out, indent + 4, s, depth - 1);
                Ok(())
            }
            13 => {
                writeln!(out, "{pad}- repeat: {{ up_to: {} }}\n{pad}  do:", 1 + self.g.below(3)).ok();
                writeln!(out, "{pad}    - choose:\n{pad}        who: {}\n{pad}        options:", Self::q(self.player(s))).ok();
                writeln!(out, "{pad}          - label: more\n{pad}            do:").ok();
                writeln!(out, "{pad}              - add: {{ total: 1 }}")
            }
            _ => writeln!(out, "{pad}- call: bump"),
        }
        .ok();
    }

    fn generate(seed: u64) -> String {
        let mut g = Gen::new(seed);
        let rows = 1 + g.below(6);
        let min_players = 1 + g.below(3);
        let max_players = min_players + g.below(3);
        let mut r = RulesetGen {
            g,
            rows,
            min_players,
        };
        let mut out = String::new();
        writeln!(out, "name: fuzz-{seed}\nplayers: [{min_players}, {max_players}]\ntables:\n  things:\n    columns: {{ value: int, link: \"things?\" }}\n    rows:").ok();
        for i in 0..rows {
            let link = if r.g.chance(25) {
                "none".to_string()
            } else {
                format!("t{}", r.g.below(rows))
            };
            writeln!(out, "      - [t{i}, {}, {link}]", r.g.below(11) as i64 - 3).ok();
        }
        let vis = r.g.pick(&["all", "count", "none", "top"]);
        let top = Scope {
            player: None,
            thing: None,
            it_player: false,
            calls: true,
        };
        let body = Scope {
            calls: false,
            ..top.clone()
        };
        writeln!(out, "state:\n  total: {{ init: {} }}", r.g.below(5)).ok();
        writeln!(out, "  flag: {{ type: bool, init: {} }}", r.g.chance(50)).ok();
        writeln!(out, "  score: {{ per: players, init: {} }}", r.g.below(3)).ok();
        writeln!(
            out,
            "zones:\n  pool: {{ of: things, init: all, visibility: {vis} }}"
        )
        .ok();
        writeln!(out, "  hand: {{ of: things, per: players, visibility: owner }}\n  spot: {{ of: things, visibility: top }}").ok();
        writeln!(
            out,
            "functions:\n  lead:\n    returns: int\n    value: {}",
            Self::q(r.int(&body, 2))
        )
        .ok();
        let weigh = r.int(
            &Scope {
                thing: Some("t"),
                ..body.clone()
            },
            2,
        );
        writeln!(
            out,
            "  weigh:\n    params: {{ t: things, n: int }}\n    returns: int\n    value: {}",
            Self::q(format!("t.value * n + {weigh}"))
        )
        .ok();
        let fits = r.bool(
            &Scope {
                thing: Some("t"),
                ..body.clone()
            },
            2,
        );
        writeln!(
            out,
            "  fits:\n    params: {{ t: things }}\n    returns: bool\n    value: {}",
            Self::q(fits)
        )
        .ok();
        writeln!(
            out,
            "procedures:\n  bump:\n    do:\n      - add: {{ total: \"lead()\" }}"
        )
        .ok();
        writeln!(
            out,
            "setup:\n  - shuffle: pool\nplay:\n  - repeat: {}\n    do:",
            1 + r.g.below(4)
        )
        .ok();
        // Each round begins with a decision, so that games ask for some.
        r.statement_of(9, &mut out, 6, &top, 3);
        r.block(&mut out, 6, &top, 3);
        let score = r.int(
            &Scope {
                it_player: true,
                ..top.clone()
            },
            1,
        );
        writeln!(
            out,
            "ranking:\n  score: {}\n  tiebreak: [\"len(hand[it])\"]",
            Self::q(score)
        )
        .ok();
        out
    }
}
