//! Native code of the ruleset `go-west`, generated from its optimized IR by
//! `frontier_interpreter::native::generate`. Do not edit: `FRONTIER_NATIVE_WRITE=1 cargo test
//! -p frontier-tests --test integration native_modules::` writes it again, and that test fails while it
//! is not what the generator makes of the ruleset.
#![allow(clippy::all, unused_parens, unreachable_code, non_upper_case_globals, while_true, unused_mut, unused_assignments, unused_variables)]

use frontier_interpreter::native::rt::*;

/// Calls of the walker's evaluator: 1 IR nodes. Deepest nesting: 13 frames.
pub fn play(cx: &mut Cx) -> Flow {
    p0(cx, [])?;
    p1(cx, [])?;
    Ok(())
}

/// procedures.setup
fn p0(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 2] = [NONE; 2];
    let [] = args;
    // setup[0]
    cx.tick()?;
    { let z = 0usize; cx.shuffle(z)?; }
    // setup[1]
    cx.tick()?;
    for p in 0..cx.state.names().len() {
        l[0] = Value::Player(p as u8);
        // setup[1].do[0]
        cx.tick()?;
        {
            let mut rounds = (7i64);
            let mut refilled = false;
            while rounds > 0 {
                let mut source = 0usize;
                refilled = false;
                if cx.state.zones()[source].is_empty() {
                    if !(false) { break; }
                } else {
                    let target = Cx::instance(2, 4, index(code(&l[0]))?)?;
                    cx.move_one(source, target);
                }
                rounds -= 1;
            }
        }
    }
    Ok(())
}

/// procedures.play
fn p1(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 0] = [NONE; 0];
    let [] = args;
    // play[0]
    cx.tick()?;
    while true {
        // play[0].do[0]
        cx.tick()?;
        p2(cx, [])?;
        // play[0].do[1]
        cx.tick()?;
        if ((cx.state.ints()[21] == (0i64)) && (cx.state.ints()[22] == (0i64))) {
            // play[0].do[1].then[0]
            cx.tick()?;
            // play[0].do[1].then[1]
            cx.tick()?;
            p10(cx, [])?;
            // play[0].do[1].then[2]
            cx.tick()?;
            return Err(Stop::End("play[0].do[1].then[2]"));
        }
        // play[0].do[2].set.active
        cx.tick()?;
        { let s = 0; let n = { let v = (match player(cx.state.ints()[0]) { Value::Player(p) => Value::Player(((p as usize + 1) % cx.state.names().len()) as u8), _ => return Err(Stop::Bail) }); cx.stored(0, &v)? }; cx.state.ints_mut()[s] = n; }
    }
    Ok(())
}

/// procedures.turn
fn p2(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 2] = [NONE; 2];
    let [] = args;
    // procedures.turn.do[0].let.actions
    cx.tick()?;
    l[0] = Value::Int((1i64));
    // procedures.turn.do[1]
    cx.tick()?;
    if (cx.at(17, stored_code(cx.state.ints()[0]))? != 0) {
        // procedures.turn.do[1].then[0]
        cx.tick()?;
        {
            let player = stored_code(cx.state.ints()[0]);
            let mut options = cx.options();
            if true { options.push((0, 0)); }
            if true { options.push((1, 0)); }
            let (group, chosen) = cx.decide(player, options)?;
            match group {
                0 => {
                }
                1 => {
                    // procedures.turn.do[1].then[0].choose.options[1].do[0].set.pawn[active]
                    cx.tick()?;
                    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 17 + k as usize }; let n = (false) as i64; cx.state.ints_mut()[s] = n; }
                    // procedures.turn.do[1].then[0].choose.options[1].do[0].set.actions
                    cx.tick()?;
                    l[0] = Value::Int((2i64));
                    // procedures.turn.do[1].then[0].choose.options[1].do[1]
                    cx.tick()?;
                }
                _ => return Err(Stop::Bail),
            }
        }
    }
    // procedures.turn.do[2]
    cx.tick()?;
    { let mut left = as_int(&l[0])?; while left > 0 { left -= 1;
        // procedures.turn.do[2].do[0]
        cx.tick()?;
        p3(cx, [])?;
    } }
    // procedures.turn.do[3]
    cx.tick()?;
    if !{ let mut found = false; for it in (0..cx.state.names().len()).map(|p| Value::Player(p as u8)) { let it = &it; if (cx.at(17, code(it))? != 0) == true { found = true; break; } } found } {
        // procedures.turn.do[3].then[0]
        cx.tick()?;
        // procedures.turn.do[3].then[1]
        cx.tick()?;
        for p in 0..cx.state.names().len() {
            l[1] = Value::Player(p as u8);
            // procedures.turn.do[3].then[1].do[0].set.pawn[p]
            cx.tick()?;
            { let s = { let k = index(code(&l[1]))?; if k >= 4 { return Err(Stop::Bail); } 17 + k as usize }; let n = (true) as i64; cx.state.ints_mut()[s] = n; }
        }
    }
    Ok(())
}

/// procedures.action
fn p3(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 2] = [NONE; 2];
    let [] = args;
    // procedures.action.do[0]
    cx.tick()?;
    {
        let player = stored_code(cx.state.ints()[0]);
        let mut options = cx.options();
        let mut m2: Option<i64> = None;
        {
            let (mut tested, mut held) = (0u64, 0u64);
            let z = Cx::instance(2, 4, index(stored_code(cx.state.ints()[0]))?)?;
            for &elem in cx.state.zones()[z].iter() {
                let elem = elem as u32;
                let k = column(&OF_ROW_0, elem as i64)? as usize;
                let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                let allowed = if tested & bit != 0 { held & bit != 0 } else {
                    let holds = match k {
                        0 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (0i64)) && (((0i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (0i64)) || (cx.at(5, stored_code(cx.state.ints()[0]))? >= (1i64))))),
                        1 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (1i64)) && (((1i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (1i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (1i64))? >= (1i64))))),
                        2 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (2i64)) && (((2i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (2i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (2i64))? >= (1i64))))),
                        3 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (3i64)) && (((3i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (3i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (3i64))? >= (1i64))))),
                        4 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (1i64)) && (((0i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (1i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (1i64))? >= (2i64))))),
                        5 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (2i64)) && (((1i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (2i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (2i64))? >= (2i64))))),
                        6 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (4i64)) && (((2i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (4i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (4i64))? >= (2i64))))),
                        7 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (3i64)) && (((1i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (3i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (3i64))? >= (2i64))))),
                        8 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (2i64)) && (((3i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (2i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (2i64))? >= (0i64))))),
                        9 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (3i64)) && (((4i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (3i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (3i64))? >= (0i64))))),
                        10 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (5i64)) && (((5i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (5i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (5i64))? >= (0i64))))),
                        11 => ((add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= (6i64)) && (((6i64) <= (match m2 { Some(v) => v, None => { let v = f2(cx)?; m2 = Some(v); v } })) && ((cx.at(5, stored_code(cx.state.ints()[0]))? <= (6i64)) || (sub(cx.at(5, stored_code(cx.state.ints()[0]))?, (6i64))? >= (0i64))))),
                        _ => return Err(Stop::Bail),
                    };
                    tested |= bit;
                    if holds { held |= bit; }
                    holds
                };
                if allowed { options.push((0, elem)); }
            }
        }
        if ((cx.at(13, stored_code(cx.state.ints()[0]))? < (6i64)) && (add(cx.at(5, stored_code(cx.state.ints()[0]))?, cx.at(1, stored_code(cx.state.ints()[0]))?)? >= column(&COLUMN_1, index({ let i = cx.at(13, stored_code(cx.state.ints()[0]))?; if i < 0 || i >= 6 { return Err(Stop::Bail); } i })?)?)) { options.push((1, 0)); }
        {
            let z = Cx::instance(2, 4, index(stored_code(cx.state.ints()[0]))?)?;
            for &elem in cx.state.zones()[z].iter() {
                let elem = elem as u32;
                if true { options.push((2, elem)); }
            }
        }
        let (group, chosen) = cx.decide(player, options)?;
        match group {
            0 => {
                l[0] = element_value(Element::Row(TableId::at(2)), chosen);
                // procedures.action.do[0].choose.options[0].do[0]
                cx.tick()?;
                p5(cx, [l[0].clone()])?;
            }
            1 => {
                // procedures.action.do[0].choose.options[1].do[0]
                cx.tick()?;
                p9(cx, [])?;
            }
            2 => {
                l[1] = element_value(Element::Row(TableId::at(2)), chosen);
                // procedures.action.do[0].choose.options[2].do[0]
                cx.tick()?;
                p8(cx, [l[1].clone()])?;
            }
            _ => return Err(Stop::Bail),
        }
    }
    Ok(())
}

/// procedures.pay
fn p4(cx: &mut Cx, args: [Value; 1]) -> Flow {
    let mut l: [Value; 2] = [NONE; 2];
    let [a0] = args;
    l[0] = a0;
    // procedures.pay.do[0].let.from_tokens
    cx.tick()?;
    l[1] = Value::Int(as_int(&l[0])?.min(cx.at(5, stored_code(cx.state.ints()[0]))?));
    // procedures.pay.do[1].add.tokens[active]
    cx.tick()?;
    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 5 + k as usize }; let n = add(cx.state.ints()[s], neg(as_int(&l[1])?)?)?; cx.state.ints_mut()[s] = n; }
    // procedures.pay.do[1].add.bank[active]
    cx.tick()?;
    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 9 + k as usize }; let n = add(cx.state.ints()[s], as_int(&l[1])?)?; cx.state.ints_mut()[s] = n; }
    // procedures.pay.do[1].add.vp[active]
    cx.tick()?;
    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 1 + k as usize }; let n = add(cx.state.ints()[s], sub(as_int(&l[1])?, as_int(&l[0])?)?)?; cx.state.ints_mut()[s] = n; }
    // procedures.pay.do[2]
    cx.tick()?;
    if (as_int(&l[0])? > as_int(&l[1])?) {
        // procedures.pay.do[2].then[0]
        cx.tick()?;
    }
    Ok(())
}

/// procedures.play_card
fn p5(cx: &mut Cx, args: [Value; 1]) -> Flow {
    let mut l: [Value; 4] = [NONE; 4];
    let [a0] = args;
    l[0] = a0;
    // procedures.play_card.do[0]
    cx.tick()?;
    { let f = Cx::instance(2, 4, index(stored_code(cx.state.ints()[0]))?)?; let t = 1usize; let v = l[0].clone(); cx.move_item(f, t, Element::Row(TableId::at(2)), &v)?; }
    // procedures.play_card.do[1]
    cx.tick()?;
    p4(cx, [Value::Int(column(&COLUMN_2, index(code(&l[0]))?)?)])?;
    // procedures.play_card.do[2]
    cx.tick()?;
    if ((column(&COLUMN_3, index(code(&l[0]))?)? < 0) != true) {
        // procedures.play_card.do[2].then[0]
        cx.tick()?;
        { let mut left = column(&COLUMN_4, index(code(&l[0]))?)?; while left > 0 { left -= 1;
            // procedures.play_card.do[2].then[0].do[0]
            cx.tick()?;
            p6(cx, [column_value(&COLUMN_5, index(code(&l[0]))?)?])?;
        } }
        // procedures.play_card.do[2].then[1]
        cx.tick()?;
        if ((column(&COLUMN_6, index(code(&l[0]))?)? > (0i64)) && (cx.at(5, stored_code(cx.state.ints()[0]))? > (0i64))) {
            // procedures.play_card.do[2].then[1].then[0]
            cx.tick()?;
            {
                let player = stored_code(cx.state.ints()[0]);
                let mut options = cx.options();
                {
                    let (mut tested, mut held) = (0u64, 0u64);
                    if false {
                        let elem = 0u32;
                        let k = column(&OF_ROW_7, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (((1i64) == column(&COLUMN_8, index(code(&l[0]))?)?) != true) {
                        let elem = 1u32;
                        let k = column(&OF_ROW_7, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (((2i64) == column(&COLUMN_9, index(code(&l[0]))?)?) != true) {
                        let elem = 2u32;
                        let k = column(&OF_ROW_7, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (((3i64) == column(&COLUMN_10, index(code(&l[0]))?)?) != true) {
                        let elem = 3u32;
                        let k = column(&OF_ROW_7, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (((4i64) == column(&COLUMN_11, index(code(&l[0]))?)?) != true) {
                        let elem = 4u32;
                        let k = column(&OF_ROW_7, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if false {
                        let elem = 5u32;
                        let k = column(&OF_ROW_7, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                }
                let (group, chosen) = cx.decide(player, options)?;
                match group {
                    0 => {
                        l[1] = element_value(Element::Row(TableId::at(0)), chosen);
                        // procedures.play_card.do[2].then[1].then[0].choose.options[0].do[0]
                        cx.tick()?;
                        p6(cx, [l[1].clone()])?;
                    }
                    _ => return Err(Stop::Bail),
                }
            }
        }
    }
    // procedures.play_card.do[3]
    cx.tick()?;
    let (lo, hi) = ((1i64), column(&COLUMN_12, index(code(&l[0]))?)?);
    if hi.saturating_sub(lo) > 100000 { return Err(Stop::Bail); }
    for k in lo..=hi {
        l[2] = Value::Int(k);
        // procedures.play_card.do[3].do[0]
        cx.tick()?;
        if ((cx.state.ints()[21] > (0i64)) || (cx.state.ints()[22] > (0i64)) || (cx.state.ints()[23] > (0i64)) || (cx.state.ints()[24] > (0i64)) || (cx.state.ints()[25] > (0i64))) {
            // procedures.play_card.do[3].do[0].then[0]
            cx.tick()?;
            {
                let player = stored_code(cx.state.ints()[0]);
                let mut options = cx.options();
                {
                    let (mut tested, mut held) = (0u64, 0u64);
                    if (cx.state.ints()[21] > (0i64)) {
                        let elem = 0u32;
                        let k = column(&OF_ROW_13, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (cx.state.ints()[22] > (0i64)) {
                        let elem = 1u32;
                        let k = column(&OF_ROW_13, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (cx.state.ints()[23] > (0i64)) {
                        let elem = 2u32;
                        let k = column(&OF_ROW_13, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (cx.state.ints()[24] > (0i64)) {
                        let elem = 3u32;
                        let k = column(&OF_ROW_13, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if (cx.state.ints()[25] > (0i64)) {
                        let elem = 4u32;
                        let k = column(&OF_ROW_13, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                    if false {
                        let elem = 5u32;
                        let k = column(&OF_ROW_13, elem as i64)? as usize;
                        let bit = 1u64.checked_shl(k as u32).unwrap_or(0);
                        let allowed = if tested & bit != 0 { held & bit != 0 } else {
                            let holds = match k {
                                0 => true,
                                _ => return Err(Stop::Bail),
                            };
                            tested |= bit;
                            if holds { held |= bit; }
                            holds
                        };
                        if allowed { options.push((0, elem)); }
                    }
                }
                let (group, chosen) = cx.decide(player, options)?;
                match group {
                    0 => {
                        l[3] = element_value(Element::Row(TableId::at(0)), chosen);
                        // procedures.play_card.do[3].do[0].then[0].choose.options[0].do[0].add.wagons[r]
                        cx.tick()?;
                        { let s = { let k = index(code(&l[3]))?; if k >= 6 { return Err(Stop::Bail); } 21 + k as usize }; let n = add(cx.state.ints()[s], (-1i64))?; cx.state.ints_mut()[s] = n; }
                        // procedures.play_card.do[3].do[0].then[0].choose.options[0].do[0].add.wagons[r.west]
                        cx.tick()?;
                        { let s = { let k = index(column(&COLUMN_14, index(code(&l[3]))?)?)?; if k >= 6 { return Err(Stop::Bail); } 21 + k as usize }; let n = add(cx.state.ints()[s], (1i64))?; cx.state.ints_mut()[s] = n; }
                    }
                    _ => return Err(Stop::Bail),
                }
            }
        }
    }
    // procedures.play_card.do[4]
    cx.tick()?;
    p7(cx, [])?;
    Ok(())
}

/// procedures.place_token
fn p6(cx: &mut Cx, args: [Value; 1]) -> Flow {
    let mut l: [Value; 2] = [NONE; 2];
    let [a0] = args;
    l[0] = a0;
    // procedures.place_token.do[0]
    cx.tick()?;
    if (cx.at(5, stored_code(cx.state.ints()[0]))? > (0i64)) {
        // procedures.place_token.do[0].then[0]
        cx.tick()?;
        if (cx.len(Cx::instance(6, 6, index(code(&l[0]))?)?) >= (7i64)) {
            // procedures.place_token.do[0].then[0].then[0].let.oldest
            cx.tick()?;
            l[1] = { let z = Cx::instance(6, 6, index(code(&l[0]))?)?; if cx.state.zones()[z].is_empty() { Value::None } else { cx.element(z, 0, Element::Player) } };
            // procedures.place_token.do[0].then[0].then[1]
            cx.tick()?;
            { let z = Cx::instance(6, 6, index(code(&l[0]))?)?; let at = (0i64); cx.remove_at(z, at)?; }
            // procedures.place_token.do[0].then[0].then[2].add.tokens[oldest]
            cx.tick()?;
            { let s = { let k = index(code(&l[1]))?; if k >= 4 { return Err(Stop::Bail); } 5 + k as usize }; let n = add(cx.state.ints()[s], (1i64))?; cx.state.ints_mut()[s] = n; }
            // procedures.place_token.do[0].then[0].then[3]
            cx.tick()?;
        }
        // procedures.place_token.do[0].then[1]
        cx.tick()?;
        { let z = Cx::instance(6, 6, index(code(&l[0]))?)?; let v = player(cx.state.ints()[0]); cx.push(z, Element::Player, &v)?; }
        // procedures.place_token.do[0].then[2].add.tokens[active]
        cx.tick()?;
        { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 5 + k as usize }; let n = add(cx.state.ints()[s], (-1i64))?; cx.state.ints_mut()[s] = n; }
    }
    Ok(())
}

/// procedures.refill
fn p7(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 1] = [NONE; 1];
    let [] = args;
    // procedures.refill.do[0]
    cx.tick()?;
    {
        let mut rounds = sub((7i64), cx.len(Cx::instance(2, 4, index(stored_code(cx.state.ints()[0]))?)?))?;
        let mut refilled = false;
        while rounds > 0 {
            let mut source = 0usize;
            if !refilled && cx.state.zones()[source].is_empty() {
                let pile = 1usize;
                cx.move_all(pile, source);
                source = 0usize;
                if cx.state.zones()[source].len() > 1 {
                    cx.shuffle(source)?;
                    cx.tick()?;
                    refilled = true;
                    continue;
                }
            }
            refilled = false;
            if cx.state.zones()[source].is_empty() {
                if !(!cx.state.zones()[1usize].is_empty()) { break; }
            } else {
                let target = Cx::instance(2, 4, index(stored_code(cx.state.ints()[0]))?)?;
                cx.move_one(source, target);
            }
            rounds -= 1;
        }
    }
    Ok(())
}

/// procedures.sell_card
fn p8(cx: &mut Cx, args: [Value; 1]) -> Flow {
    let mut l: [Value; 2] = [NONE; 2];
    let [a0] = args;
    l[0] = a0;
    // procedures.sell_card.do[0]
    cx.tick()?;
    { let f = Cx::instance(2, 4, index(stored_code(cx.state.ints()[0]))?)?; let t = 1usize; let v = l[0].clone(); cx.move_item(f, t, Element::Row(TableId::at(2)), &v)?; }
    // procedures.sell_card.do[1].let.gain
    cx.tick()?;
    l[1] = Value::Int(column(&COLUMN_15, index(code(&l[0]))?)?.min(cx.at(9, stored_code(cx.state.ints()[0]))?));
    // procedures.sell_card.do[2].add.tokens[active]
    cx.tick()?;
    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 5 + k as usize }; let n = add(cx.state.ints()[s], as_int(&l[1])?)?; cx.state.ints_mut()[s] = n; }
    // procedures.sell_card.do[2].add.bank[active]
    cx.tick()?;
    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 9 + k as usize }; let n = add(cx.state.ints()[s], neg(as_int(&l[1])?)?)?; cx.state.ints_mut()[s] = n; }
    // procedures.sell_card.do[3]
    cx.tick()?;
    p7(cx, [])?;
    Ok(())
}

/// procedures.score_card
fn p9(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 1] = [NONE; 1];
    let [] = args;
    // procedures.score_card.do[0].let.cost
    cx.tick()?;
    l[0] = Value::Int(column(&COLUMN_16, index({ let i = cx.at(13, stored_code(cx.state.ints()[0]))?; if i < 0 || i >= 6 { return Err(Stop::Bail); } i })?)?);
    // procedures.score_card.do[1]
    cx.tick()?;
    // procedures.score_card.do[2].add.scorings[active]
    cx.tick()?;
    { let s = { let k = index(stored_code(cx.state.ints()[0]))?; if k >= 4 { return Err(Stop::Bail); } 13 + k as usize }; let n = add(cx.state.ints()[s], (1i64))?; cx.state.ints_mut()[s] = n; }
    // procedures.score_card.do[3]
    cx.tick()?;
    p4(cx, [l[0].clone()])?;
    // procedures.score_card.do[4]
    cx.tick()?;
    p10(cx, [])?;
    // procedures.score_card.do[5]
    cx.tick()?;
    if { let mut found = false; for it in (0..cx.state.names().len()).map(|p| Value::Player(p as u8)) { let it = &it; if (cx.at(1, code(it))? >= (50i64)) == true { found = true; break; } } found } {
        // procedures.score_card.do[5].then[0]
        cx.tick()?;
        // procedures.score_card.do[5].then[0]
        cx.tick()?;
        return Err(Stop::End("procedures.score_card.do[5].then[0]"));
    }
    Ok(())
}

/// procedures.score_all
fn p10(cx: &mut Cx, args: [Value; 0]) -> Flow {
    let mut l: [Value; 3] = [NONE; 3];
    let [] = args;
    // procedures.score_all.do[0]
    cx.tick()?;
    for item in as_list(cx.value(0, &l)?)?.iter() {
        l[0] = item.clone();
        // procedures.score_all.do[0].do[0].let.paid
        cx.tick()?;
        l[1] = take_list({ let mut keyed: Vec<(i64, Value)> = Vec::with_capacity(8); for it in { let z = Cx::instance(6, 6, index(code(&l[0]))?)?; let cx = &*cx; (0..cx.state.zones()[z].len()).map(move |at| cx.element(z, at, Element::Player)) } { let k = { let it = &it; neg({ let c = code(it); cx.count(Cx::instance(6, 6, index(code(&l[0]))?)?, c) })? }; keyed.push((k, it)); } keyed.sort_by_key(|(k, _)| *k); Value::list(keyed.into_iter().map(|(_, v)| v).collect()) }, cx.at(21, code(&l[0]))?)?;
        // procedures.score_all.do[0].do[1]
        cx.tick()?;
        if (cx.len(Cx::instance(6, 6, index(code(&l[0]))?)?) > (0i64)) {
            // procedures.score_all.do[0].do[1].then[0]
            cx.tick()?;
        }
        // procedures.score_all.do[0].do[2]
        cx.tick()?;
        for p in 0..cx.state.names().len() {
            l[2] = Value::Player(p as u8);
            // procedures.score_all.do[0].do[2].do[0].add.vp[p]
            cx.tick()?;
            { let s = { let k = index(code(&l[2]))?; if k >= 4 { return Err(Stop::Bail); } 1 + k as usize }; let n = add(cx.state.ints()[s], { let x = l[2].clone(); count_in(&l[1], &x) })?; cx.state.ints_mut()[s] = n; }
        }
    }
    Ok(())
}

/// functions.wagon_moves_left
fn f2(cx: &Cx) -> Result<i64, Stop> {
    let l: [Value; 0] = [];
    Ok({ let t = 0i64; let t = sum_add(t, mul(cx.state.ints()[21], (5i64))?)?; let t = sum_add(t, mul(cx.state.ints()[22], (4i64))?)?; let t = sum_add(t, mul(cx.state.ints()[23], (3i64))?)?; let t = sum_add(t, mul(cx.state.ints()[24], (2i64))?)?; let t = sum_add(t, cx.state.ints()[25])?; let t = sum_add(t, mul(cx.state.ints()[26], (0i64))?)?; t })
}

const OF_ROW_0: [u16; 56] = [0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 0, 0, 1, 1, 2, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 9, 10, 10, 11, 11];

const COLUMN_1: [i64; 6] = [(1i64), (3i64), (6i64), (10i64), (15i64), (16i64)];

const COLUMN_2: [i64; 56] = [(0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (2i64), (2i64), (3i64), (3i64), (5i64), (5i64), (6i64), (6i64)];

const COLUMN_3: [i64; 56] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1, -1, -1, -1, -1, -1, -1, -1];

const COLUMN_4: [i64; 56] = [(1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (2i64), (2i64), (2i64), (2i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (2i64), (2i64), (2i64), (2i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (2i64), (2i64), (2i64), (2i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (1i64), (2i64), (2i64), (2i64), (2i64), (1i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64)];

const COLUMN_5: [Value; 56] = [Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 1), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 2), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 3), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::Row(TableId::at(0), 4), Value::None, Value::None, Value::None, Value::None, Value::None, Value::None, Value::None, Value::None];

const COLUMN_6: [i64; 56] = [(0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (1i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (1i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (1i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (1i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64), (0i64)];

const OF_ROW_7: [u16; 6] = [0, 0, 0, 0, 0, 0];

const COLUMN_8: [i64; 56] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1, -1, -1, -1, -1, -1, -1, -1];

const COLUMN_9: [i64; 56] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1, -1, -1, -1, -1, -1, -1, -1];

const COLUMN_10: [i64; 56] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1, -1, -1, -1, -1, -1, -1, -1];

const COLUMN_11: [i64; 56] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, -1, -1, -1, -1, -1, -1, -1, -1];

const COLUMN_12: [i64; 56] = [(0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (0i64), (0i64), (1i64), (2i64), (1i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (0i64), (0i64), (1i64), (2i64), (1i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (0i64), (0i64), (1i64), (2i64), (1i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (0i64), (0i64), (1i64), (2i64), (1i64), (3i64), (3i64), (4i64), (4i64), (5i64), (5i64), (6i64), (6i64)];

const OF_ROW_13: [u16; 6] = [0, 0, 0, 0, 0, 0];

const COLUMN_14: [i64; 6] = [1, 2, 3, 4, 5, -1];

const COLUMN_15: [i64; 56] = [(0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (0i64), (0i64), (1i64), (1i64), (2i64), (2i64), (3i64), (1i64), (1i64), (2i64), (4i64), (3i64), (2i64), (2i64), (3i64), (3i64), (5i64), (5i64), (6i64), (6i64)];

const COLUMN_16: [i64; 6] = [(1i64), (3i64), (6i64), (10i64), (15i64), (16i64)];

pub const FINGERPRINT: u64 = 0x07e1a41200a107d0;
