//! Statements compiled to machine code: the blocks of a game's procedures, run by the
//! step machine through [`frontier_interpreter::CompiledCode::run_block`].
//!
//! The state stays the walker's: its frames, its locals (values read and written in
//! place, `value::layout`), its numbers. What compiled code adds is that the statements
//! of a frame's block run one after the other without the run loop, and that a statement
//! that cannot suspend the state, with every block it holds and every procedure it calls
//! (a *closed* statement), runs in line: its `if`, loops and calls are machine code, with
//! no frame pushed. A procedure called that way gets its locals on the state's list, as
//! the walker's call does, so that any node the compiler leaves to the walker finds them.
//!
//! A statement that is not closed (a decision, a chance point, a call of a procedure
//! that may suspend, a `return`) is run by the walker from the block's code
//! ([`BlockRun::exec_top`]), exactly as the run loop would run it; when it leaves the
//! frame where it was (a frame entered, a suspension), the code returns to the run loop,
//! which enters the code of whatever frame is on top. A block whose statements are none
//! of them closed has no code.
//!
//! One semantics: where an expression's compiled code would differ from the walker (an
//! overflow, a value of another kind, an index out of range), the walker evaluates it,
//! which gives its value or its error; an assignment or a zone's statement that the
//! compiler does not cover, or stops in, is run whole by the walker
//! ([`BlockRun::exec_leaf`]), before it has changed anything. Statements are counted
//! against the statement limit and covered (`check --coverage`) one by one, as the run
//! loop counts and covers them.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, InstBuilder, MemFlags, Signature, StackSlotData, StackSlotKind,
    Value as Reg,
};
use cranelift_frontend::FunctionBuilderContext;
use frontier_interpreter::eval::RuntimeError;
use frontier_interpreter::ir::{ArithOp, Code, Expr, Op};
use frontier_interpreter::machine::{is_leaf, BlockRan, BlockRun};
use frontier_interpreter::model::{AssignMode, BlockId, MoveAt, MoveWhat, Place, ProcId, StmtKind};
use frontier_interpreter::value::{layout, Element, Type};
use frontier_interpreter::{Game, Value};

use crate::expr::{
    node_count, Backend, CompileError, Ctx, Gen, CTX_BASE, CTX_COVERING, CTX_LOCALS_LEN,
    CTX_LOGGING, CTX_PLAYERS, CTX_STEPS,
};
use crate::options::MAX_NODES;

mod runtime;

use runtime::{
    cover, endless, enter_call, exec_leaf, exec_top, leave_call, list_begin, list_bind, list_end,
    move_code, push_code, set_local, walker_value, write_slow,
};

/// A block's code: `(cx, pc) -> how far it ran`: the statement the frame runs next, or
/// [`MOVED`] or [`FAILED`].
pub(crate) type BlockFn = unsafe extern "C" fn(*mut Ctx, i64) -> i64;

/// A block's code returned: the statements ran to this statement (0 and up), or…
/// …a statement the walker ran moved the frame (entered one, left it, suspended).
const MOVED: i64 = -1;
/// …an error stopped it (in `Ctx::failure`).
const FAILED: i64 = -2;
/// A status of helpers and of closed procedures' code: done.
const OK: i64 = 0;

/// What [`Ctx`]'s numbers mean for kinds of values written and read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Int,
    Bool,
    /// A seat or row code, -1 for none.
    Code,
}

/// Which statements, blocks and procedures are closed: they never suspend the state nor
/// push or pop a frame, with everything they run.
struct Closure<'g> {
    game: &'g Game,
    blocks: Vec<Option<bool>>,
    procs: Vec<Visit>,
}

#[derive(Clone, Copy)]
enum Visit {
    New,
    /// Being decided: a call back into it (recursion) is not closed.
    Open,
    Done(bool),
}

impl<'g> Closure<'g> {
    fn new(game: &'g Game) -> Closure<'g> {
        Closure {
            game,
            blocks: vec![None; game.blocks.len()],
            procs: vec![Visit::New; game.procedures.len()],
        }
    }

    fn block(&mut self, b: BlockId) -> bool {
        if let Some(closed) = self.blocks[b.index()] {
            return closed;
        }
        let game = self.game;
        let closed = game.blocks[b.index()].iter().all(|s| self.stmt(&s.kind));
        self.blocks[b.index()] = Some(closed);
        closed
    }

    fn stmt(&mut self, kind: &StmtKind) -> bool {
        match kind {
            kind if is_leaf(kind) => true,
            StmtKind::If {
                then, otherwise, ..
            } => self.block(*then) && otherwise.is_none_or(|b| self.block(b)),
            StmtKind::ForEach { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::While { body, .. } => self.block(*body),
            StmtKind::Call {
                proc, into: None, ..
            } => self.proc(*proc),
            _ => false,
        }
    }

    fn proc(&mut self, p: ProcId) -> bool {
        match self.procs[p.index()] {
            Visit::Done(closed) => closed,
            Visit::Open => false,
            Visit::New => {
                self.procs[p.index()] = Visit::Open;
                let closed = self.block(self.game.procedures[p.index()].body);
                self.procs[p.index()] = Visit::Done(closed);
                closed
            }
        }
    }
}

/// The compiled statements of a game: a function per block that a frame runs, and one
/// per closed procedure, called from the code of closed calls.
pub(crate) struct Statements {
    /// By block: its code, when it has some.
    pub blocks: Vec<Option<BlockFn>>,
    /// By block, by statement: whether the code runs it in line (closed).
    closed: Vec<Vec<bool>>,
    /// By procedure: the address of its code when it is closed (0 otherwise). Compiled
    /// calls read it: boxed, it stays where the code points.
    procs: Box<[usize]>,
    /// Functions defined, procedures first, then blocks.
    ids: Vec<(Target, cranelift_module::FuncId)>,
}

#[derive(Clone, Copy)]
enum Target {
    Proc(usize),
    Block(usize),
}

impl Statements {
    /// Generates the code of `game`'s statements in `backend` (finished by
    /// [`Statements::finish`] once the backend has made its code).
    pub fn generate(
        game: &Game,
        backend: &mut Backend,
        builder: &mut FunctionBuilderContext,
    ) -> Result<Statements, CompileError> {
        let mut closure = Closure::new(game);
        let closed: Vec<Vec<bool>> = game
            .blocks
            .iter()
            .map(|block| block.iter().map(|s| closure.stmt(&s.kind)).collect())
            .collect();
        let procs_closed: Vec<bool> = (0..game.procedures.len())
            .map(|p| closure.proc(ProcId::at(p)))
            .collect();
        let procs = vec![0usize; game.procedures.len()].into_boxed_slice();
        let table = procs.as_ptr() as i64;
        let mut ids = Vec::new();
        for (p, proc) in game.procedures.iter().enumerate() {
            if !procs_closed[p] {
                continue;
            }
            let id = backend.define_returning("proc", 3, FAILED, builder, |gen, params| {
                let mut s = StmtGen::new(gen, game, &closed, table);
                let (base, depth) = (params[1], params[2]);
                s.stmts(proc.body, base, depth);
                let ok = s.gen.b.ins().iconst(types::I64, OK);
                s.gen.b.ins().return_(&[ok]);
                s.finish();
            })?;
            ids.push((Target::Proc(p), id));
        }
        for b in frame_blocks(game, &closed) {
            let id = backend.define_returning("block", 2, FAILED, builder, |gen, params| {
                let mut s = StmtGen::new(gen, game, &closed, table);
                s.top_block(BlockId::at(b), params[1]);
                s.finish();
            })?;
            ids.push((Target::Block(b), id));
        }
        Ok(Statements {
            blocks: vec![None; game.blocks.len()],
            closed,
            procs,
            ids,
        })
    }

    /// Takes the code's addresses from `backend`, whose code is made.
    pub fn finish(&mut self, backend: &Backend) {
        for &(target, id) in &self.ids {
            let code = backend.entry(id);
            match target {
                Target::Proc(p) => self.procs[p] = code as usize,
                Target::Block(b) => {
                    // SAFETY: a block's function was defined with the signature `BlockFn`
                    // spells: two pointer-sized integers in, one out.
                    self.blocks[b] =
                        Some(unsafe { std::mem::transmute::<*const u8, BlockFn>(code) })
                }
            }
        }
    }

    /// How many blocks have code, and how many procedures run in line.
    pub fn counts(&self) -> (usize, usize) {
        (
            self.blocks.iter().filter(|b| b.is_some()).count(),
            self.procs.iter().filter(|&&p| p != 0).count(),
        )
    }

    /// Runs the top frame's block from its next statement; `None` when it has no code.
    pub fn run(&self, run: &mut BlockRun) -> Option<Result<BlockRan, RuntimeError>> {
        let (block, pc) = (run.block().index(), run.pc() as usize);
        let code = (*self.blocks.get(block)?)?;
        // A statement the code would hand to the walker at once, the run loop runs
        // itself: the code is entered where it runs statements in line.
        if !self.closed[block].get(pc).copied().unwrap_or(false) {
            return None;
        }
        let pc = pc as i64;
        let mut cx = Ctx::for_statements(run);
        // SAFETY: the code reads and writes the run's state through `cx` (numbers and
        // locals within their lengths, every access checked or fixed by the layout) and
        // calls back into the walker through its helpers, which get `cx` back.
        let ran = unsafe { code(&mut cx, pc) };
        Some(match ran {
            MOVED => Ok(BlockRan::Moved),
            pc if pc >= 0 => Ok(BlockRan::At(pc as u32)),
            _ => Err(cx.failure.take().unwrap_or_else(|| {
                RuntimeError::new("compiled statements stopped without an error")
            })),
        })
    }
}

/// The blocks a frame may run in a compiled game: every block but those run only in
/// line (the blocks of closed statements and the bodies of closed procedures), when it
/// has a closed statement to run in line itself.
fn frame_blocks(game: &Game, closed: &[Vec<bool>]) -> Vec<usize> {
    let mut inline_only = vec![false; game.blocks.len()];
    for (b, block) in game.blocks.iter().enumerate() {
        for (pc, stmt) in block.iter().enumerate() {
            if closed[b][pc] {
                for inner in stmt.kind.blocks() {
                    inline_only[inner.index()] = true;
                }
                if let StmtKind::Call { proc, .. } = &stmt.kind {
                    inline_only[game.procedures[proc.index()].body.index()] = true;
                }
            }
        }
    }
    // The procedures the machine enters itself.
    for p in [game.setup, game.play] {
        inline_only[game.procedures[p.index()].body.index()] = false;
    }
    (0..game.blocks.len())
        .filter(|&b| !inline_only[b] && closed[b].iter().any(|&c| c))
        .collect()
}

/// The generation of statements in one function.
struct StmtGen<'x, 'a, 'b, 'g> {
    gen: &'x mut Gen<'a, 'b>,
    game: &'g Game,
    closed: &'g [Vec<bool>],
    /// The address of the closed procedures' code addresses.
    procs: i64,
    /// The block that returns [`FAILED`] (the error is in `Ctx::failure`).
    failed: Block,
}

impl<'x, 'a, 'b, 'g> StmtGen<'x, 'a, 'b, 'g> {
    fn new(gen: &'x mut Gen<'a, 'b>, game: &'g Game, closed: &'g [Vec<bool>], procs: i64) -> Self {
        let failed = gen.b.create_block();
        StmtGen {
            gen,
            game,
            closed,
            procs,
            failed,
        }
    }

    /// Generates the failure block (the function's code is otherwise complete).
    fn finish(&mut self) {
        let b = &mut self.gen.b;
        b.switch_to_block(self.failed);
        b.seal_block(self.failed);
        let failed = b.ins().iconst(types::I64, FAILED);
        b.ins().return_(&[failed]);
    }

    /// A frame's block from statement `pc` on: closed statements in line, the others by
    /// the walker.
    fn top_block(&mut self, block: BlockId, pc: Reg) {
        let stmts = &self.game.blocks[block.index()];
        let n = stmts.len();
        let at: Vec<Block> = (0..=n).map(|_| self.gen.b.create_block()).collect();
        // Read in the entry block: every statement's block uses this one register.
        let base = self
            .gen
            .b
            .ins()
            .load(types::I64, MemFlags::trusted(), self.gen.cx, CTX_BASE);
        self.gen.br_table(pc, &at, at[n]);
        for k in 0..n {
            self.gen.b.switch_to_block(at[k]);
            self.gen.b.seal_block(at[k]);
            if self.closed[block.index()][k] {
                let depth = self.gen.b.ins().iconst(types::I64, 0);
                self.stmt((block, k as u32), base, depth);
                self.gen.b.ins().jump(at[k + 1], &[]);
            } else {
                let k_reg = self.gen.b.ins().iconst(types::I64, k as i64);
                let r = self.helper(exec_top as *const u8, &[k_reg]);
                let (goes_on, stops) = (self.gen.b.create_block(), self.gen.b.create_block());
                let on = self.gen.b.ins().icmp_imm(IntCC::Equal, r, 1);
                self.gen.b.ins().brif(on, goes_on, &[], stops, &[]);
                self.gen.b.switch_to_block(stops);
                self.gen.b.seal_block(stops);
                // `exec_top` gives 0 (the frame moved) or FAILED.
                let moved = self.gen.b.ins().iconst(types::I64, MOVED);
                let failed = self.gen.b.ins().iconst(types::I64, FAILED);
                let is_moved = self.gen.b.ins().icmp_imm(IntCC::Equal, r, 0);
                let status = self.gen.b.ins().select(is_moved, moved, failed);
                self.gen.b.ins().return_(&[status]);
                self.gen.b.switch_to_block(goes_on);
                self.gen.b.seal_block(goes_on);
                self.gen.b.ins().jump(at[k + 1], &[]);
            }
        }
        self.gen.b.switch_to_block(at[n]);
        self.gen.b.seal_block(at[n]);
        let end = self.gen.b.ins().iconst(types::I64, n as i64);
        self.gen.b.ins().return_(&[end]);
    }

    /// The statements of a closed block, in line.
    fn stmts(&mut self, block: BlockId, base: Reg, depth: Reg) {
        for pc in 0..self.game.blocks[block.index()].len() {
            self.stmt((block, pc as u32), base, depth);
        }
    }

    /// A closed statement, in line, its locals from `base`, `depth` calls in line below
    /// its frame.
    fn stmt(&mut self, at: (BlockId, u32), base: Reg, depth: Reg) {
        let game = self.game;
        let stmt = &game.blocks[at.0.index()][at.1 as usize];
        self.count(at);
        self.gen
            .b
            .ins()
            .store(MemFlags::trusted(), base, self.gen.cx, CTX_BASE);
        match &stmt.kind {
            StmtKind::Assign {
                target,
                value,
                mode,
            } => self.assign(at, base, target, value, *mode),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let holds = self.value(cond, Kind::Bool, at);
                let (yes, no, join) = (
                    self.gen.b.create_block(),
                    self.gen.b.create_block(),
                    self.gen.b.create_block(),
                );
                self.gen.b.ins().brif(holds, yes, &[], no, &[]);
                self.gen.b.switch_to_block(yes);
                self.gen.b.seal_block(yes);
                self.stmts(*then, base, depth);
                self.gen.b.ins().jump(join, &[]);
                self.gen.b.switch_to_block(no);
                self.gen.b.seal_block(no);
                if let Some(otherwise) = otherwise {
                    self.stmts(*otherwise, base, depth);
                }
                self.gen.b.ins().jump(join, &[]);
                self.gen.b.switch_to_block(join);
                self.gen.b.seal_block(join);
            }
            StmtKind::ForEach { slot, list, body } => match list {
                Expr::Players => {
                    let n = self.gen.b.ins().load(
                        types::I64,
                        MemFlags::trusted(),
                        self.gen.cx,
                        CTX_PLAYERS,
                    );
                    let zero = self.gen.b.ins().iconst(types::I64, 0);
                    self.count_loop(zero, n, |s, p| {
                        s.store_base(base);
                        s.write_local(*slot, Kind::Code, layout::TAG_PLAYER, p);
                        s.stmts(*body, base, depth);
                    });
                }
                _ => {
                    let list_at = self
                        .gen
                        .b
                        .ins()
                        .iconst(self.gen.ptr, list as *const Expr as i64);
                    let (block_reg, pc_reg) = self.at_regs(at);
                    let n = self.helper(list_begin as *const u8, &[list_at, block_reg, pc_reg]);
                    self.fail_if_negative(n);
                    let zero = self.gen.b.ins().iconst(types::I64, 0);
                    let abs = self.gen.b.ins().iadd_imm(base, slot.index() as i64);
                    self.count_loop(zero, n, |s, i| {
                        s.helper(list_bind as *const u8, &[i, abs]);
                        s.stmts(*body, base, depth);
                    });
                    self.helper(list_end as *const u8, &[]);
                }
            },
            StmtKind::Repeat { count, body } => {
                let n = self.value(count, Kind::Int, at);
                let zero = self.gen.b.ins().iconst(types::I64, 0);
                self.count_loop(zero, n, |s, _| s.stmts(*body, base, depth));
            }
            StmtKind::While { cond, body } => {
                let (head, looped, exit) = (
                    self.gen.b.create_block(),
                    self.gen.b.create_block(),
                    self.gen.b.create_block(),
                );
                self.gen.b.ins().jump(head, &[]);
                self.gen.b.switch_to_block(head);
                self.store_base(base);
                let holds = self.value(cond, Kind::Bool, at);
                self.gen.b.ins().brif(holds, looped, &[], exit, &[]);
                self.gen.b.switch_to_block(looped);
                self.gen.b.seal_block(looped);
                self.stmts(*body, base, depth);
                self.gen.b.ins().jump(head, &[]);
                self.gen.b.seal_block(head);
                self.gen.b.switch_to_block(exit);
                self.gen.b.seal_block(exit);
            }
            StmtKind::Call { proc, args, .. } => self.call(at, base, depth, *proc, args),
            StmtKind::Move {
                from,
                to,
                what: MoveWhat::Item(item),
                at: MoveAt::Bottom,
            } if !contains_script(item) => self.leaf_or_walker(at, base, |s| {
                let (Some(source), Some(target)) =
                    (s.gen.zone_instance(from), s.gen.zone_instance(to))
                else {
                    return s.walker_now();
                };
                let code = s.gen.code(item);
                // None is in no zone: the walker's error.
                let none = s.gen.b.ins().icmp_imm(IntCC::SignedLessThan, code, 0);
                s.gen.bail_if(none);
                let moved = s.helper(move_code as *const u8, &[source, target, code]);
                let missing = s.gen.b.ins().icmp_imm(IntCC::Equal, moved, 0);
                s.gen.bail_if(missing);
            }),
            StmtKind::Push { to, value } if !contains_script(value) => {
                self.leaf_or_walker(at, base, |s| {
                    let Some(zone) = s.gen.zone_instance(to) else {
                        return s.walker_now();
                    };
                    let code = s.gen.code(value);
                    let none = s.gen.b.ins().icmp_imm(IntCC::SignedLessThan, code, 0);
                    s.gen.bail_if(none);
                    let (block_reg, pc_reg) = s.at_regs(at);
                    let status = s.helper(push_code as *const u8, &[block_reg, pc_reg, zone, code]);
                    s.fail_if_negative(status);
                })
            }
            // A log line is written only to a log.
            StmtKind::Log(_) => {
                let logging = self.gen.b.ins().load(
                    types::I64,
                    MemFlags::trusted(),
                    self.gen.cx,
                    CTX_LOGGING,
                );
                let (write, after) = (self.gen.b.create_block(), self.gen.b.create_block());
                self.gen.b.ins().brif(logging, write, &[], after, &[]);
                self.gen.b.switch_to_block(write);
                self.gen.b.seal_block(write);
                self.exec_leaf(at, base);
                self.gen.b.ins().jump(after, &[]);
                self.gen.b.switch_to_block(after);
                self.gen.b.seal_block(after);
            }
            _ => self.exec_leaf(at, base),
        }
    }

    /// Counts the statement at `at` against the limit, and covers it when the journal
    /// collects rules.
    fn count(&mut self, at: (BlockId, u32)) {
        let (cx, ptr) = (self.gen.cx, self.gen.ptr);
        let limit = self.game.limits.statements_between_steps;
        let b = &mut self.gen.b;
        let steps = b.ins().load(ptr, MemFlags::trusted(), cx, CTX_STEPS);
        let n = b.ins().load(types::I64, MemFlags::trusted(), steps, 0);
        let n = b.ins().iadd_imm(n, 1);
        b.ins().store(MemFlags::trusted(), n, steps, 0);
        let over = b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThan, n, limit as i64);
        let (endless_block, go_on) = (b.create_block(), b.create_block());
        b.set_cold_block(endless_block);
        b.ins().brif(over, endless_block, &[], go_on, &[]);
        b.switch_to_block(endless_block);
        b.seal_block(endless_block);
        let (block_reg, pc_reg) = self.at_regs(at);
        self.helper(endless as *const u8, &[block_reg, pc_reg]);
        self.gen.b.ins().jump(self.failed, &[]);
        self.gen.b.switch_to_block(go_on);
        self.gen.b.seal_block(go_on);
        let covering = self
            .gen
            .b
            .ins()
            .load(types::I64, MemFlags::trusted(), cx, CTX_COVERING);
        let (cover_block, after) = (self.gen.b.create_block(), self.gen.b.create_block());
        self.gen.b.set_cold_block(cover_block);
        self.gen
            .b
            .ins()
            .brif(covering, cover_block, &[], after, &[]);
        self.gen.b.switch_to_block(cover_block);
        self.gen.b.seal_block(cover_block);
        let (block_reg, pc_reg) = self.at_regs(at);
        self.helper(cover as *const u8, &[block_reg, pc_reg]);
        self.gen.b.ins().jump(after, &[]);
        self.gen.b.switch_to_block(after);
        self.gen.b.seal_block(after);
    }

    fn at_regs(&mut self, (block, pc): (BlockId, u32)) -> (Reg, Reg) {
        (
            self.gen.b.ins().iconst(types::I64, block.index() as i64),
            self.gen.b.ins().iconst(types::I64, pc as i64),
        )
    }

    fn store_base(&mut self, base: Reg) {
        self.gen
            .b
            .ins()
            .store(MemFlags::trusted(), base, self.gen.cx, CTX_BASE);
    }

    /// An assignment: numbers and plain locals in line, anything else (and anything
    /// the compiled code stops at) by the walker, whole.
    fn assign(
        &mut self,
        at: (BlockId, u32),
        base: Reg,
        target: &Place,
        value: &Expr,
        mode: AssignMode,
    ) {
        let game = self.game;
        let plan = match target {
            Place::Var { var, index } => {
                let decl = &game.vars[var.index()];
                let indexed = !matches!(index, Some(Expr::Pair { .. }));
                match (&decl.ty, mode) {
                    _ if !indexed => None,
                    (Type::Int, _) => Some(Kind::Int),
                    // A value of another type than its variable's comes only from a
                    // script (the loader checks the rest): the walker says so.
                    (_, AssignMode::Add) => None,
                    _ if contains_script(value) => None,
                    (Type::Bool, AssignMode::Set) => Some(Kind::Bool),
                    (Type::Player | Type::Row(_), AssignMode::Set) => Some(Kind::Code),
                    _ => None,
                }
            }
            Place::Local(_) => match mode {
                AssignMode::Add => Some(Kind::Int),
                AssignMode::Set => kind_of(game, value),
            },
        };
        let Some(kind) = plan.filter(|_| node_count(value, MAX_NODES) <= MAX_NODES) else {
            return self.exec_leaf(at, base);
        };
        self.leaf_or_walker(at, base, |s| {
            match target {
                Place::Var { var, index } => {
                    let decl = &game.vars[var.index()];
                    let i = match index {
                        None => s.gen.b.ins().iconst(types::I64, 0),
                        Some(index) => {
                            let code = s.gen.code(index);
                            // None, or past the variable's entries: the walker's error.
                            let len = game.domain_len(decl.per) as i64;
                            let outside = s.gen.b.ins().icmp_imm(
                                IntCC::UnsignedGreaterThanOrEqual,
                                code,
                                len,
                            );
                            s.gen.bail_if(outside);
                            code
                        }
                    };
                    let slot = s.gen.b.ins().iadd_imm(i, decl.base as i64);
                    let v = match kind {
                        Kind::Int => s.gen.int(value),
                        Kind::Bool => s.gen.bool(value),
                        Kind::Code => {
                            // A seat or row of the game (none is -1): past them, the walker's
                            // error.
                            let code = s.gen.code(value);
                            let outside = match decl.ty {
                                Type::Row(t) => s.gen.b.ins().icmp_imm(
                                    IntCC::SignedGreaterThanOrEqual,
                                    code,
                                    game.tables[t.index()].rows().len() as i64,
                                ),
                                _ => {
                                    let n = s.gen.b.ins().load(
                                        types::I64,
                                        MemFlags::trusted(),
                                        s.gen.cx,
                                        CTX_PLAYERS,
                                    );
                                    s.gen.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, code, n)
                                }
                            };
                            s.gen.bail_if(outside);
                            code
                        }
                    };
                    let v = match mode {
                        AssignMode::Set => v,
                        AssignMode::Add => {
                            let old = s.gen.load_int(slot);
                            let (sum, overflow) = s.gen.b.ins().sadd_overflow(old, v);
                            s.gen.bail_if(overflow);
                            sum
                        }
                    };
                    s.gen.store_int(slot, v);
                }
                Place::Local(slot) => {
                    let v = match kind {
                        Kind::Int => s.gen.int(value),
                        Kind::Bool => s.gen.bool(value),
                        Kind::Code => s.gen.code(value),
                    };
                    match (mode, kind) {
                        (AssignMode::Add, _) => {
                            let old = s.gen.local_int(*slot);
                            let (sum, overflow) = s.gen.b.ins().sadd_overflow(old, v);
                            s.gen.bail_if(overflow);
                            s.write_local(*slot, Kind::Int, layout::TAG_INT, sum);
                        }
                        (AssignMode::Set, Kind::Int) => {
                            s.write_local(*slot, kind, layout::TAG_INT, v)
                        }
                        (AssignMode::Set, Kind::Bool) => {
                            s.write_local(*slot, kind, layout::TAG_BOOL, v)
                        }
                        (AssignMode::Set, Kind::Code) => {
                            // A seat or a row of which table: known from the value's node.
                            let Some(tag) = code_tag(value) else {
                                unreachable!("kind_of gives Code only for a known tag")
                            };
                            s.write_code_local(*slot, tag, v);
                        }
                    }
                }
            }
        });
    }

    /// A leaf statement whose code `body` generates; wherever that code stops (its
    /// walker block), the walker runs the statement whole, before anything changed.
    fn leaf_or_walker(&mut self, at: (BlockId, u32), base: Reg, body: impl FnOnce(&mut Self)) {
        let (fallback, after) = (self.gen.b.create_block(), self.gen.b.create_block());
        let saved = std::mem::replace(&mut self.gen.walker, fallback);
        body(self);
        self.gen.b.ins().jump(after, &[]);
        self.gen.walker = saved;
        self.gen.b.switch_to_block(fallback);
        self.gen.b.seal_block(fallback);
        self.exec_leaf(at, base);
        self.gen.b.ins().jump(after, &[]);
        self.gen.b.switch_to_block(after);
        self.gen.b.seal_block(after);
    }

    /// Goes to the current walker block (what follows is not reached).
    fn walker_now(&mut self) {
        let always = self.gen.b.ins().iconst(types::I64, 1);
        self.gen.bail_if(always);
    }

    /// Writes `v` (of `kind`, with `tag`) to local `slot` of the statements running, in
    /// place; a local holding a value that owns memory is written by a helper, which
    /// drops it. The current block's `walker` is where a local out of range goes.
    fn write_local(&mut self, slot: frontier_interpreter::ir::Slot, kind: Kind, tag: u8, v: Reg) {
        let addr = self.gen.local_at(slot);
        let old = self
            .gen
            .b
            .ins()
            .uload8(types::I64, MemFlags::trusted(), addr, 0);
        let owning = self.gen.b.ins().icmp_imm(
            IntCC::UnsignedGreaterThanOrEqual,
            old,
            layout::TAG_OWNING as i64,
        );
        let (slow, fast, join) = (
            self.gen.b.create_block(),
            self.gen.b.create_block(),
            self.gen.b.create_block(),
        );
        self.gen.b.set_cold_block(slow);
        self.gen.b.ins().brif(owning, slow, &[], fast, &[]);
        self.gen.b.switch_to_block(slow);
        self.gen.b.seal_block(slow);
        let base = self
            .gen
            .b
            .ins()
            .load(types::I64, MemFlags::trusted(), self.gen.cx, CTX_BASE);
        let abs = self.gen.b.ins().iadd_imm(base, slot.index() as i64);
        let tag_reg = self.gen.b.ins().iconst(types::I64, tag as i64);
        self.helper(write_slow as *const u8, &[abs, tag_reg, v]);
        self.gen.b.ins().jump(join, &[]);
        self.gen.b.switch_to_block(fast);
        self.gen.b.seal_block(fast);
        let b = &mut self.gen.b;
        let t = b.ins().iconst(types::I8, tag as i64);
        b.ins().store(MemFlags::trusted(), t, addr, 0);
        match kind {
            Kind::Int => {
                b.ins().store(MemFlags::trusted(), v, addr, layout::INT_AT);
            }
            Kind::Bool | Kind::Code => {
                let byte = b.ins().ireduce(types::I8, v);
                b.ins()
                    .store(MemFlags::trusted(), byte, addr, layout::BYTE_AT);
            }
        }
        b.ins().jump(join, &[]);
        b.switch_to_block(join);
        b.seal_block(join);
    }

    /// Writes a seat or row code `v` (-1: none) to local `slot`, as `tag` says what it
    /// stands for (a seat, or a row of a table).
    fn write_code_local(&mut self, slot: frontier_interpreter::ir::Slot, tag: CodeTag, v: Reg) {
        // None is written by the walker (the statement again, whole): rare, and it keeps
        // one way of writing here.
        let none = self.gen.b.ins().icmp_imm(IntCC::SignedLessThan, v, 0);
        self.gen.bail_if(none);
        match tag {
            CodeTag::Player => self.write_local(slot, Kind::Code, layout::TAG_PLAYER, v),
            CodeTag::Row(table) => {
                // A row: its table and number, by the helper (rows are written rarely).
                let base =
                    self.gen
                        .b
                        .ins()
                        .load(types::I64, MemFlags::trusted(), self.gen.cx, CTX_BASE);
                let len = self.gen.b.ins().load(
                    types::I64,
                    MemFlags::trusted(),
                    self.gen.cx,
                    CTX_LOCALS_LEN,
                );
                let abs = self.gen.b.ins().iadd_imm(base, slot.index() as i64);
                let outside = self
                    .gen
                    .b
                    .ins()
                    .icmp(IntCC::UnsignedGreaterThanOrEqual, abs, len);
                self.gen.bail_if(outside);
                let tag_reg = self
                    .gen
                    .b
                    .ins()
                    .iconst(types::I64, layout::TAG_ROW as i64 | ((table as i64) << 8));
                self.helper(write_slow as *const u8, &[abs, tag_reg, v]);
            }
        }
    }

    /// The value of `e` (of `kind`): compiled, or where the compiled code stops, the
    /// walker's (its error located at `at`, which fails the run).
    fn value(&mut self, e: &Expr, kind: Kind, at: (BlockId, u32)) -> Reg {
        let (fallback, join) = (self.gen.b.create_block(), self.gen.b.create_block());
        self.gen.b.append_block_param(join, types::I64);
        if node_count(e, MAX_NODES) > MAX_NODES {
            // Too large to be worth its code: the walker's.
            self.gen.b.ins().jump(fallback, &[]);
        } else {
            let saved = std::mem::replace(&mut self.gen.walker, fallback);
            let v = match kind {
                Kind::Int => self.gen.int(e),
                Kind::Bool => self.gen.bool(e),
                Kind::Code => self.gen.code(e),
            };
            self.gen.walker = saved;
            self.gen.b.ins().jump(join, &[v.into()]);
        }
        self.gen.b.switch_to_block(fallback);
        self.gen.b.seal_block(fallback);
        let slot = self.gen.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            8,
            3,
        ));
        let out = self.gen.b.ins().stack_addr(self.gen.ptr, slot, 0);
        let node = self
            .gen
            .b
            .ins()
            .iconst(self.gen.ptr, e as *const Expr as i64);
        let kind_reg = self.gen.b.ins().iconst(types::I64, kind as i64);
        let (block_reg, pc_reg) = self.at_regs(at);
        let status = self.helper(
            walker_value as *const u8,
            &[node, kind_reg, block_reg, pc_reg, out],
        );
        self.fail_if_negative(status);
        let v = self.gen.b.ins().stack_load(types::I64, slot, 0);
        self.gen.b.ins().jump(join, &[v.into()]);
        self.gen.b.switch_to_block(join);
        self.gen.b.seal_block(join);
        self.gen.b.block_params(join)[0]
    }

    /// `for i in from..to { body(i) }`.
    fn count_loop(&mut self, from: Reg, to: Reg, body: impl FnOnce(&mut Self, Reg)) {
        let (head, looped, exit) = (
            self.gen.b.create_block(),
            self.gen.b.create_block(),
            self.gen.b.create_block(),
        );
        self.gen.b.append_block_param(head, types::I64);
        self.gen.b.ins().jump(head, &[from.into()]);
        self.gen.b.switch_to_block(head);
        let i = self.gen.b.block_params(head)[0];
        let more = self.gen.b.ins().icmp(IntCC::SignedLessThan, i, to);
        self.gen.b.ins().brif(more, looped, &[], exit, &[]);
        self.gen.b.switch_to_block(looped);
        self.gen.b.seal_block(looped);
        body(self, i);
        let next = self.gen.b.ins().iadd_imm(i, 1);
        self.gen.b.ins().jump(head, &[next.into()]);
        self.gen.b.seal_block(head);
        self.gen.b.switch_to_block(exit);
        self.gen.b.seal_block(exit);
    }

    /// A call of a closed procedure: its locals made, its arguments put in, its code
    /// run, its locals freed.
    fn call(&mut self, at: (BlockId, u32), base: Reg, depth: Reg, proc: ProcId, args: &[Expr]) {
        let (block_reg, pc_reg) = self.at_regs(at);
        let proc_reg = self.gen.b.ins().iconst(types::I64, proc.index() as i64);
        let inner = self.gen.b.ins().iadd_imm(depth, 1);
        let callee = self.helper(
            enter_call as *const u8,
            &[block_reg, pc_reg, proc_reg, inner],
        );
        self.fail_if_negative(callee);
        let p = &self.game.procedures[proc.index()];
        for (slot, arg) in p.params.iter().zip(args) {
            // Evaluated in the caller's frame, straight into the callee's slot.
            let node = self
                .gen
                .b
                .ins()
                .iconst(self.gen.ptr, arg as *const Expr as i64);
            let abs = self.gen.b.ins().iadd_imm(callee, slot.index() as i64);
            let (block_reg, pc_reg) = self.at_regs(at);
            let status = self.helper(set_local as *const u8, &[node, abs, block_reg, pc_reg]);
            self.fail_if_negative(status);
        }
        // Its code, through the table of closed procedures' addresses.
        let table = self.gen.b.ins().iconst(self.gen.ptr, self.procs);
        let code = self.gen.b.ins().load(
            self.gen.ptr,
            MemFlags::trusted(),
            table,
            (proc.index() * 8) as i32,
        );
        let mut sig = Signature::new(self.gen.b.func.signature.call_conv);
        for _ in 0..3 {
            sig.params.push(AbiParam::new(self.gen.ptr));
        }
        sig.returns.push(AbiParam::new(types::I64));
        let sig = self.gen.b.import_signature(sig);
        let call = self
            .gen
            .b
            .ins()
            .call_indirect(sig, code, &[self.gen.cx, callee, inner]);
        let status = self.gen.b.inst_results(call)[0];
        self.fail_if_negative(status);
        self.helper(leave_call as *const u8, &[callee]);
        self.store_base(base);
    }

    /// A statement run whole by the walker.
    fn exec_leaf(&mut self, at: (BlockId, u32), base: Reg) {
        let (block_reg, pc_reg) = self.at_regs(at);
        let status = self.helper(exec_leaf as *const u8, &[block_reg, pc_reg, base]);
        self.fail_if_negative(status);
    }

    /// Goes to the failure block when `r` is negative.
    fn fail_if_negative(&mut self, r: Reg) {
        let negative = self.gen.b.ins().icmp_imm(IntCC::SignedLessThan, r, 0);
        let go_on = self.gen.b.create_block();
        self.gen
            .b
            .ins()
            .brif(negative, self.failed, &[], go_on, &[]);
        self.gen.b.switch_to_block(go_on);
        self.gen.b.seal_block(go_on);
    }

    fn helper(&mut self, helper: *const u8, args: &[Reg]) -> Reg {
        self.gen.call_helper(helper, args)
    }
}

/// What a local set to `e` holds, when the compiler writes it in place: a number, a
/// true/false, or a seat or row (as [`code_tag`] says).
fn kind_of(game: &Game, e: &Expr) -> Option<Kind> {
    match e {
        Expr::Const(Value::Int(_))
        | Expr::Var {
            code: Code::Int, ..
        }
        | Expr::VarAtKey {
            code: Code::Int, ..
        }
        | Expr::Arith {
            op: ArithOp::Add | ArithOp::Sub | ArithOp::Mul,
            ..
        }
        | Expr::Neg(..)
        | Expr::Call {
            op: Op::Min | Op::Max,
            ..
        }
        | Expr::ZoneLen(_)
        | Expr::ZoneCount(..)
        | Expr::PlayerCount
        | Expr::UnrolledTotal { .. } => Some(Kind::Int),
        Expr::Const(Value::Bool(_))
        | Expr::Var {
            code: Code::Bool, ..
        }
        | Expr::VarAtKey {
            code: Code::Bool, ..
        }
        | Expr::Compare { .. }
        | Expr::IsNone { .. }
        | Expr::Same { .. }
        | Expr::Not(_)
        | Expr::And(..)
        | Expr::Or(..)
        | Expr::ZoneContains(..)
        | Expr::UnrolledTest { .. } => Some(Kind::Bool),
        // A column's values, all of one kind.
        Expr::ColumnKey { values, .. } => match values.first() {
            Some(Value::Int(_)) if values.iter().all(|v| matches!(v, Value::Int(_))) => {
                Some(Kind::Int)
            }
            Some(Value::Bool(_)) if values.iter().all(|v| matches!(v, Value::Bool(_))) => {
                Some(Kind::Bool)
            }
            _ => None,
        },
        Expr::Function { id, .. } => match game.functions[id.index()].returns {
            Type::Int => Some(Kind::Int),
            Type::Bool => Some(Kind::Bool),
            _ => None,
        },
        e if code_tag(e).is_some() => Some(Kind::Code),
        _ => None,
    }
}

/// Whether `e` calls a script (whose values have no type the loader knows).
fn contains_script(e: &Expr) -> bool {
    matches!(e, Expr::Script { .. }) || e.children().into_iter().any(contains_script)
}

/// A seat or a row of a table: what a code written to a local stands for.
#[derive(Clone, Copy)]
enum CodeTag {
    Player,
    Row(usize),
}

/// What the seat-or-row node `e` stands for, when its node says it.
fn code_tag(e: &Expr) -> Option<CodeTag> {
    let element = |of: Element| match of {
        Element::Player => CodeTag::Player,
        Element::Row(t) => CodeTag::Row(t.index()),
    };
    match e {
        Expr::Var {
            code: Code::Player, ..
        }
        | Expr::VarAtKey {
            code: Code::Player, ..
        }
        | Expr::Call {
            op: Op::NextPlayer, ..
        } => Some(CodeTag::Player),
        Expr::Var {
            code: Code::Row(t), ..
        }
        | Expr::VarAtKey {
            code: Code::Row(t), ..
        } => Some(CodeTag::Row(t.index())),
        Expr::ZoneFirst(z) | Expr::ZoneLast(z) => Some(element(z.of)),
        _ => None,
    }
}
