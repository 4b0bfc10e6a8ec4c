//! Option listings compiled to machine code: for a `choose`, one function that runs
//! through its groups in order, reads each `for:` list's elements where they lie (a zone's
//! codes, the seats, a constant list), binds the element in a register, tests the group's
//! condition (or the condition the optimizer specialized for the element's row, each
//! tested once per listing, as the walker remembers them), and appends the options that
//! hold. The step machine asks for it through [`CompiledCode`].
//!
//! The filter of a constant list of rows that the optimizer took apart (`ByRow::filtered`)
//! is unrolled: for each row, its specialized filter, then its condition, in line.
//!
//! A listing the compiler does not cover (a group of several lists, another kind of
//! list) is left to the walker, whole; so is any listing whose code stops where the
//! walker would report an error: the walker lists it again from the start, which gives
//! the same options or the walker's error (listing changes nothing).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, InstBuilder, MemFlags, StackSlotData, StackSlotKind, Value as Reg,
};
use std::sync::atomic::{AtomicBool, Ordering};

use cranelift_frontend::FunctionBuilderContext;
use cranelift_module::FuncId;
use frontier_interpreter::eval::{Env, Memo, RuntimeError};
use frontier_interpreter::ir::{Expr, ZoneRead};
use frontier_interpreter::machine::{BlockRan, BlockRun};
use frontier_interpreter::model::{
    BlockId, ByRow, Choose, FilteredRows, OptionGroup, Place, StmtKind,
};
use frontier_interpreter::value::Element;
use frontier_interpreter::value::Type;
use frontier_interpreter::{CompiledCode, Game, Value};

use crate::blocks::Statements;

use crate::expr::{
    compiles_root, node_count, run, with_env, Backend, CompileError, Ctx, Entry, Gen, Kind,
    NodeCount, CTX_BOUND_CODE, CTX_BOUND_KIND, CTX_BOUND_SLOT, CTX_PLAYERS, DONE,
};

type Listing = unsafe extern "C" fn(*mut Ctx) -> i64;

/// A game's code compiled to machine code when it loads: its decisions' option listings,
/// its `if` conditions and its assignments of numbers, for the step machine
/// ([`frontier_interpreter::Game::apply_with`], [`frontier_interpreter::Stepper`]).
pub struct CompiledGame<'g> {
    _game: &'g Game,
    /// By block, by statement: the listing of the `choose` there, when it is compiled.
    listings: Vec<Vec<Option<Listing>>>,
    /// By block, by statement: whether the listing there met a list of elements other
    /// than seats and rows (positions, numbers): then the walker lists that decision
    /// from then on rather than after the listing's code every time. Either lists the
    /// same options.
    declined: Vec<Vec<AtomicBool>>,
    /// By block, by statement: the condition of the `if`, or the number of the
    /// assignment, there, when it is compiled.
    expressions: Vec<Vec<Option<Entry>>>,
    /// The statements of its blocks and closed procedures.
    statements: Statements,
    nodes: NodeCount,
    compiled: usize,
    chooses: usize,
    // Declared last: the code is freed after nothing can call it.
    _backend: Backend<'g>,
}

/// Where a group's elements come from, when the compiler reads them itself.
enum Source<'g> {
    Zone(&'g ZoneRead),
    Players,
    /// A constant list of seats or rows of one table: their codes, and what they are (as
    /// [`kind_of`] says).
    Constant {
        codes: Box<[u16]>,
        kind: i64,
    },
    /// A filter of a constant list of rows, taken apart by the optimizer.
    Filtered(&'g FilteredRows),
    /// Any other list, evaluated by the walker when the listing reaches it; its
    /// elements must be seats, or rows of one table (else the walker lists).
    Evaluated(&'g Expr),
}

impl<'g> CompiledGame<'g> {
    /// Compiles what the compiler covers of `game`: listings, conditions, numbers.
    pub fn new(game: &'g Game) -> Result<CompiledGame<'g>, CompileError> {
        let mut backend = Backend::new()?;
        backend.functions = &game.functions;
        let mut builder = FunctionBuilderContext::new();
        let (mut listing_ids, mut expression_ids) = (Vec::new(), Vec::new());
        let mut chooses = 0;
        for (b, block) in game.blocks.iter().enumerate() {
            for (pc, stmt) in block.iter().enumerate() {
                match &stmt.kind {
                    StmtKind::Choose(choose) => {
                        chooses += 1;
                        // A listing whose conditions are very large (rows of conditions
                        // the optimizer unrolled) stays the walker's: its code would take
                        // longer to make than it saves.
                        let plan = plan(choose).filter(|_| listing_size(choose) <= MAX_NODES);
                        if let Some(plan) = plan {
                            listing_ids
                                .push(((b, pc), backend.listing(choose, plan, &mut builder)?));
                        }
                    }
                    StmtKind::If { cond, .. }
                        if compiles_root(cond) && node_count(cond, MAX_NODES) <= MAX_NODES =>
                    {
                        let id = backend.expression(cond, Kind::Bool, &mut builder)?;
                        expression_ids.push(((b, pc), id));
                    }
                    StmtKind::Assign {
                        target: Place::Var { var, .. },
                        value,
                        ..
                    } if game.vars[var.index()].ty == Type::Int
                        && compiles_root(value)
                        && node_count(value, MAX_NODES) <= MAX_NODES =>
                    {
                        let id = backend.expression(value, Kind::Int, &mut builder)?;
                        expression_ids.push(((b, pc), id));
                    }
                    _ => {}
                }
            }
        }
        let mut statements = Statements::generate(game, &mut backend, &mut builder)?;
        backend.finalize()?;
        statements.finish(&backend);
        let mut expressions: Vec<Vec<Option<Entry>>> =
            game.blocks.iter().map(|b| vec![None; b.len()]).collect();
        for ((b, pc), id) in &expression_ids {
            expressions[*b][*pc] = Some(backend.expression_entry(*id));
        }
        let mut listings: Vec<Vec<Option<Listing>>> =
            game.blocks.iter().map(|b| vec![None; b.len()]).collect();
        for ((b, pc), id) in &listing_ids {
            let code = backend.entry(*id);
            // SAFETY: the listing was defined with the signature `Listing` spells: one
            // pointer in, one 64-bit integer out, the platform's convention.
            listings[*b][*pc] = Some(unsafe { std::mem::transmute::<*const u8, Listing>(code) });
        }
        Ok(CompiledGame {
            _game: game,
            declined: game
                .blocks
                .iter()
                .map(|b| b.iter().map(|_| AtomicBool::new(false)).collect())
                .collect(),
            listings,
            expressions,
            statements,
            nodes: backend.nodes(),
            compiled: listing_ids.len(),
            chooses,
            _backend: backend,
        })
    }

    /// How many decisions have a compiled listing, of how many.
    pub fn listings(&self) -> (usize, usize) {
        (self.compiled, self.chooses)
    }

    /// How many expression nodes were compiled, and how many the walker evaluates.
    pub fn nodes(&self) -> NodeCount {
        self.nodes
    }

    /// How many blocks have compiled statements, and how many procedures run in line.
    pub fn statements(&self) -> (usize, usize) {
        self.statements.counts()
    }
}

// SAFETY: after `new`, nothing changes a `CompiledGame`: its code and the tables it reads
// are only read, by any number of threads at once (each listing writes only the `Ctx` and
// the option list of its own call); the code generator it keeps is only dropped, which
// frees its memory from whichever thread drops it.
unsafe impl Sync for CompiledGame<'_> {}
// SAFETY: as for `Sync`: nothing in it is tied to the thread that made it.
unsafe impl Send for CompiledGame<'_> {}

impl CompiledCode for CompiledGame<'_> {
    fn list_options(
        &self,
        (block, pc): (BlockId, u32),
        env: &Env,
        options: &mut Vec<(u16, Value)>,
    ) -> Option<Result<(), RuntimeError>> {
        let listing = (*self.listings.get(block.index())?.get(pc as usize)?)?;
        let declined = &self.declined[block.index()][pc as usize];
        if declined.load(Ordering::Relaxed) {
            return None;
        }
        // As the walker does: functions without parameters computed once per listing.
        let memo = Memo::default();
        let env = env.with_memo(&memo);
        let mut cx = Ctx::new(&env);
        cx.options = options;
        // SAFETY: the listing reads `cx`, the state's numbers and zones within their
        // lengths (every read is checked) and appends to `options` through its helpers.
        let status = unsafe { listing(&mut cx) };
        if status == DONE {
            Some(Ok(()))
        } else {
            if cx.declined {
                declined.store(true, Ordering::Relaxed);
            }
            options.clear();
            None
        }
    }

    fn condition(&self, at: (BlockId, u32), env: &Env) -> Option<Result<bool, RuntimeError>> {
        self.expression(at, env).map(|n| Ok(n != 0))
    }

    fn number(&self, at: (BlockId, u32), env: &Env) -> Option<Result<i64, RuntimeError>> {
        self.expression(at, env).map(Ok)
    }

    fn run_block(&self, run: &mut BlockRun) -> Option<Result<BlockRan, RuntimeError>> {
        self.statements.run(run)
    }
}

impl CompiledGame<'_> {
    /// The value of the compiled expression of the statement at `at`; `None` when there
    /// is none, or the walker is to compute it.
    fn expression(&self, (block, pc): (BlockId, u32), env: &Env) -> Option<i64> {
        let entry = (*self.expressions.get(block.index())?.get(pc as usize)?)?;
        run(entry, env)
    }
}

/// The most nodes one compiled function is made of (conditions, by-row conditions).
pub(crate) const MAX_NODES: usize = 2_000;

/// The nodes of `choose`'s conditions (its groups' and their rows'), counted up to a
/// little past [`MAX_NODES`].
fn listing_size(choose: &Choose) -> usize {
    let mut size = 0;
    for group in &choose.groups {
        let by_row = group.by_row.iter().flat_map(|b| {
            b.conditions
                .iter()
                .chain(b.filtered.iter().flat_map(|f| f.pass.iter()))
        });
        for e in group.condition.iter().chain(by_row) {
            size += node_count(e, MAX_NODES);
            if size > MAX_NODES {
                return size;
            }
        }
    }
    size
}

/// The sources of a `choose`'s groups' lists, when the compiler covers every group.
fn plan(choose: &Choose) -> Option<Vec<Option<Source<'_>>>> {
    choose
        .groups
        .iter()
        .map(|group| match group.bindings.as_slice() {
            [] => Some(None),
            [(_, list)] => match group.by_row.as_ref().and_then(|b| b.filtered.as_ref()) {
                Some(filtered) => Some(Some(Source::Filtered(filtered))),
                None => source(list).map(Some),
            },
            _ => None,
        })
        .collect()
}

fn source(list: &Expr) -> Option<Source<'_>> {
    match list {
        Expr::Zone(z) if !matches!(z.index.as_deref(), Some(Expr::Pair { .. })) => {
            Some(Source::Zone(z))
        }
        Expr::Players => Some(Source::Players),
        Expr::Const(Value::List(items)) => {
            let kind = items.first().map(kind_of)?;
            items
                .iter()
                .map(|v| match v {
                    Value::Player(p) if kind_of(v) == kind => Some(*p as u16),
                    Value::Row(_, r) if kind_of(v) == kind => Some(*r),
                    _ => None,
                })
                .collect::<Option<Box<[u16]>>>()
                .map(|codes| Source::Constant { codes, kind })
        }
        list => Some(Source::Evaluated(list)),
    }
}

/// What an element is, as [`Ctx::bound_kind`] holds it: -1 for a seat, a table's number
/// for a row of it (-2 for anything else).
fn kind_of(v: &Value) -> i64 {
    match v {
        Value::Player(_) => -1,
        Value::Row(t, _) => t.index() as i64,
        _ => -2,
    }
}

fn element_kind(of: Element) -> i64 {
    match of {
        Element::Player => -1,
        Element::Row(t) => t.index() as i64,
    }
}

impl Backend<'_> {
    /// Generates the listing of `choose` from its plan.
    fn listing(
        &mut self,
        choose: &Choose,
        plan: Vec<Option<Source<'_>>>,
        builder: &mut FunctionBuilderContext,
    ) -> Result<FuncId, CompileError> {
        self.define("listing", 1, builder, |gen, _| {
            for (g, (group, source)) in choose.groups.iter().zip(plan).enumerate() {
                list_group(gen, g as u16, group, source);
            }
        })
    }
}

/// The options of group `g`, appended in order.
fn list_group(gen: &mut Gen, g: u16, group: &OptionGroup, source: Option<Source>) {
    let Some(source) = source else {
        // A group without a list: one option, if its condition holds.
        set_bound(gen, -1, -1);
        let holds = match &group.condition {
            Some(c) => gen.bool(c),
            None => gen.b.ins().iconst(types::I64, 1),
        };
        if_then(gen, holds, |gen| call_push(gen, push_plain, g));
        return;
    };
    let (slot, _) = &group.bindings[0];
    if let Source::Filtered(filtered) = source {
        return list_filtered(gen, g, group, *slot, filtered);
    }
    // The elements: where their codes start (none for the seats, whose codes count from
    // 0), how many, what they are (as `kind_of` says) and whether they are rows.
    let static_kind = |gen: &mut Gen, kind: i64| (gen.b.ins().iconst(types::I64, kind), kind >= 0);
    let (elements, count, (kind, rows)) = match source {
        Source::Zone(z) => {
            let Some(instance) = gen.zone_instance(z) else {
                return gen_walker(gen);
            };
            let (at, count) = gen.zone_elements(instance);
            (Some(at), count, static_kind(gen, element_kind(z.of)))
        }
        Source::Players => {
            let count = gen
                .b
                .ins()
                .load(types::I64, MemFlags::trusted(), gen.cx, CTX_PLAYERS);
            (None, count, static_kind(gen, element_kind(Element::Player)))
        }
        Source::Filtered(_) => unreachable!("listed above"),
        Source::Constant { codes, kind } => {
            let at = gen.b.ins().iconst(gen.ptr, codes.as_ptr() as i64);
            let count = gen.b.ins().iconst(types::I64, codes.len() as i64);
            gen.constants.push(codes);
            (Some(at), count, static_kind(gen, kind))
        }
        Source::Evaluated(list) => {
            // Evaluated without the binding, as the walker evaluates a `for:` list.
            set_bound(gen, -1, -1);
            let out = gen.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                16,
                3,
            ));
            let out_at = gen.b.ins().stack_addr(gen.ptr, out, 0);
            let node = gen.b.ins().iconst(gen.ptr, list as *const Expr as i64);
            let at = gen.call_helper(evaluated_codes as *const u8, &[node, out_at]);
            // A null address: a list of other values, or the walker's error.
            let null = gen.b.ins().icmp_imm(IntCC::Equal, at, 0);
            gen.bail_if(null);
            let count = gen.b.ins().stack_load(types::I64, out, 0);
            let kind = gen.b.ins().stack_load(types::I64, out, 8);
            // Rows when the optimizer specialized the condition by row (the list's type).
            (Some(at), count, (kind, group.by_row.is_some()))
        }
    };
    set_bound_kind(gen, slot.index() as i64, kind);
    // for i in 0..count, with the conditions tested and held so far (by row).
    let i = gen.b.declare_var(types::I64);
    let tested = gen.b.declare_var(types::I64);
    let held = gen.b.declare_var(types::I64);
    let zero = gen.b.ins().iconst(types::I64, 0);
    gen.b.def_var(i, zero);
    gen.b.def_var(tested, zero);
    gen.b.def_var(held, zero);
    let (head, body, exit) = (
        gen.b.create_block(),
        gen.b.create_block(),
        gen.b.create_block(),
    );
    gen.b.ins().jump(head, &[]);
    gen.b.switch_to_block(head);
    let n = gen.b.use_var(i);
    let more = gen.b.ins().icmp(IntCC::SignedLessThan, n, count);
    gen.b.ins().brif(more, body, &[], exit, &[]);
    gen.b.switch_to_block(body);
    gen.b.seal_block(body);
    let n = gen.b.use_var(i);
    let code = match elements {
        None => n,
        Some(elements) => {
            let offset = gen.b.ins().imul_imm(n, 2);
            let addr = gen.b.ins().iadd(elements, offset);
            gen.b
                .ins()
                .uload16(types::I64, MemFlags::trusted(), addr, 0)
        }
    };
    gen.b
        .ins()
        .store(MemFlags::trusted(), code, gen.cx, CTX_BOUND_CODE);
    gen.bound = Some((*slot, code));
    let holds = match (&group.by_row, rows) {
        (Some(by_row), true) => by_row_condition(gen, by_row, code, tested, held),
        _ => match &group.condition {
            Some(c) => gen.bool(c),
            None => gen.b.ins().iconst(types::I64, 1),
        },
    };
    gen.bound = None;
    if_then(gen, holds, |gen| call_push(gen, push_element, g));
    let n = gen.b.use_var(i);
    let next = gen.b.ins().iadd_imm(n, 1);
    gen.b.def_var(i, next);
    gen.b.ins().jump(head, &[]);
    gen.b.seal_block(head);
    gen.b.switch_to_block(exit);
    gen.b.seal_block(exit);
    set_bound(gen, -1, -1);
}

/// The options of a group whose list is a filter of constant rows (`filtered`), one
/// row after the other in line: the row's filter (read without the binding, as the walker
/// reads it), then its condition.
fn list_filtered(
    gen: &mut Gen,
    g: u16,
    group: &OptionGroup,
    slot: frontier_interpreter::ir::Slot,
    filtered: &FilteredRows,
) {
    let Some(by_row) = &group.by_row else {
        return gen_walker(gen);
    };
    let tested = gen.b.declare_var(types::I64);
    let held = gen.b.declare_var(types::I64);
    let zero = gen.b.ins().iconst(types::I64, 0);
    gen.b.def_var(tested, zero);
    gen.b.def_var(held, zero);
    for item in filtered.rows.iter() {
        let Value::Row(table, r) = item else {
            // The walker's error: a filtered row that is not a row.
            return gen_walker(gen);
        };
        let Some(pass) = filtered.pass.get(*r as usize) else {
            return gen_walker(gen);
        };
        set_bound(gen, -1, -1);
        let passes = gen.bool(pass);
        if_then(gen, passes, |gen| {
            set_bound(gen, slot.index() as i64, table.index() as i64);
            let code = gen.b.ins().iconst(types::I64, *r as i64);
            gen.b
                .ins()
                .store(MemFlags::trusted(), code, gen.cx, CTX_BOUND_CODE);
            gen.bound = Some((slot, code));
            let holds = by_row_condition(gen, by_row, code, tested, held);
            gen.bound = None;
            if_then(gen, holds, |gen| call_push(gen, push_element, g));
        });
    }
    set_bound(gen, -1, -1);
}

/// Goes to the walker from here on (what follows is not reached).
fn gen_walker(gen: &mut Gen) {
    let always = gen.b.ins().iconst(types::I64, 1);
    gen.bail_if(always);
}

/// The condition the optimizer specialized for the element's row, tested once per
/// listing for the first 64 conditions (`tested`, `held`: one bit each), as the walker
/// does.
fn by_row_condition(
    gen: &mut Gen,
    by_row: &ByRow,
    code: Reg,
    tested: cranelift_frontend::Variable,
    held: cranelift_frontend::Variable,
) -> Reg {
    // k = of_row[code], or past the conditions: the walker's error.
    let of_row: Box<[i64]> = by_row.of_row.iter().map(|&k| k as i64).collect();
    let len = of_row.len() as i64;
    let table = gen.b.ins().iconst(gen.ptr, of_row.as_ptr() as i64);
    gen.columns.push(of_row);
    let outside = gen
        .b
        .ins()
        .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, code, len);
    gen.bail_if(outside);
    let offset = gen.b.ins().imul_imm(code, 8);
    let addr = gen.b.ins().iadd(table, offset);
    let k = gen.b.ins().load(types::I64, MemFlags::trusted(), addr, 0);
    let unknown = gen.b.ins().icmp_imm(
        IntCC::UnsignedGreaterThanOrEqual,
        k,
        by_row.conditions.len() as i64,
    );
    gen.bail_if(unknown);
    // bit = 1 << k below 64, else 0 (never remembered).
    let small = gen.b.ins().icmp_imm(IntCC::UnsignedLessThan, k, 64);
    let one = gen.b.ins().iconst(types::I64, 1);
    let shifted = gen.b.ins().ishl(one, k);
    let zero = gen.b.ins().iconst(types::I64, 0);
    let bit = gen.b.ins().select(small, shifted, zero);
    let t = gen.b.use_var(tested);
    let known = gen.b.ins().band(t, bit);
    let h = gen.b.use_var(held);
    let was = gen.b.ins().band(h, bit);
    let was = gen.b.ins().icmp_imm(IntCC::NotEqual, was, 0);
    let was = gen.b.ins().uextend(types::I64, was);
    let conditions = &by_row.conditions;
    gen.select(
        known,
        |_| was,
        |gen| {
            let holds = nth_condition(gen, conditions, k);
            let t = gen.b.use_var(tested);
            let t = gen.b.ins().bor(t, bit);
            gen.b.def_var(tested, t);
            let h = gen.b.use_var(held);
            let add = gen.b.ins().imul(holds, bit);
            let h = gen.b.ins().bor(h, add);
            gen.b.def_var(held, h);
            holds
        },
    )
}

/// Condition `k` of `conditions` (k is known to be in range): a jump to its code.
fn nth_condition(gen: &mut Gen, conditions: &[Expr], k: Reg) -> Reg {
    let join = gen.b.create_block();
    gen.b.append_block_param(join, types::I64);
    let blocks: Vec<_> = conditions.iter().map(|_| gen.b.create_block()).collect();
    // Past the conditions (unreachable: `k` in range was checked): the walker's.
    let outside = gen.b.create_block();
    gen.br_table(k, &blocks, outside);
    for (condition, &block) in conditions.iter().zip(&blocks) {
        gen.b.switch_to_block(block);
        gen.b.seal_block(block);
        let holds = gen.bool(condition);
        gen.b.ins().jump(join, &[holds.into()]);
    }
    gen.b.switch_to_block(outside);
    gen.b.seal_block(outside);
    gen_walker(gen);
    let none = gen.b.ins().iconst(types::I64, 0);
    gen.b.ins().jump(join, &[none.into()]);
    gen.b.switch_to_block(join);
    gen.b.seal_block(join);
    gen.b.block_params(join)[0]
}

/// [`set_bound`] with the elements' kind in a register.
fn set_bound_kind(gen: &mut Gen, slot: i64, kind: Reg) {
    let s = gen.b.ins().iconst(types::I64, slot);
    gen.b
        .ins()
        .store(MemFlags::trusted(), s, gen.cx, CTX_BOUND_SLOT);
    gen.b
        .ins()
        .store(MemFlags::trusted(), kind, gen.cx, CTX_BOUND_KIND);
}

/// Binds local `slot` (-1: none) to the element the listing goes through, of `kind` (as
/// [`kind_of`] says), for the walker's nodes of its conditions.
fn set_bound(gen: &mut Gen, slot: i64, kind: i64) {
    let kind = gen.b.ins().iconst(types::I64, kind);
    set_bound_kind(gen, slot, kind);
}

/// Runs `then` when `flag` (0 or 1) holds.
fn if_then(gen: &mut Gen, flag: Reg, then: impl FnOnce(&mut Gen)) {
    let (yes, after) = (gen.b.create_block(), gen.b.create_block());
    gen.b.ins().brif(flag, yes, &[], after, &[]);
    gen.b.switch_to_block(yes);
    gen.b.seal_block(yes);
    then(gen);
    gen.b.ins().jump(after, &[]);
    gen.b.switch_to_block(after);
    gen.b.seal_block(after);
}

fn call_push(gen: &mut Gen, helper: unsafe extern "C" fn(*mut Ctx, i64) -> i64, g: u16) {
    let g = gen.b.ins().iconst(types::I64, g as i64);
    gen.call_helper(helper as *const u8, &[g]);
}

/// The codes of the list `e` evaluates to, in the listing's environment, kept for the
/// listing: their address (null when the walker is to list: an error, or elements other
/// than seats or rows of one table), their count and what they are (as [`kind_of`] says)
/// at `out`.
unsafe extern "C" fn evaluated_codes(cx: *mut Ctx, e: *const Expr, out: *mut i64) -> i64 {
    // SAFETY: a listing passes its own `cx`, a node of its game and its stack slot.
    let (cx, e) = unsafe { (&mut *cx, &*e) };
    let Ok(Value::List(items)) = with_env(cx, |env| e.eval(env)) else {
        return 0;
    };
    let kind = items.first().map_or(-1, kind_of);
    let codes: Option<Vec<u16>> = items
        .iter()
        .map(|v| match v {
            Value::Player(p) if kind == -1 => Some(*p as u16),
            Value::Row(t, r) if t.index() as i64 == kind => Some(*r),
            _ => None,
        })
        .collect();
    let Some(codes) = codes else {
        cx.declined = true;
        return 0;
    };
    // SAFETY: `out` is the listing's 16-byte stack slot.
    unsafe {
        *out = codes.len() as i64;
        *out.add(1) = kind;
    }
    // A vector's address is never null, even empty; it stays put while kept.
    let at = codes.as_ptr() as i64;
    cx.codes.push(codes);
    at
}

/// Appends option (g, none).
unsafe extern "C" fn push_plain(cx: *mut Ctx, g: i64) -> i64 {
    // SAFETY: a listing passes its own `cx`, whose `options` is the list being filled.
    let options = unsafe { &mut *(*cx).options };
    options.push((g as u16, Value::None));
    DONE
}

/// Appends option (g, the element bound).
unsafe extern "C" fn push_element(cx: *mut Ctx, g: i64) -> i64 {
    // SAFETY: as in `push_plain`.
    let cx = unsafe { &mut *cx };
    let value = cx.bound_value();
    // SAFETY: as in `push_plain`.
    unsafe { &mut *cx.options }.push((g as u16, value));
    DONE
}
