//! Expressions of numbers and truth values compiled to machine code.
//!
//! A compiled expression is a function `(ctx, out) -> status`: `ctx` points at a [`Ctx`]
//! (the state's numbers and the walker's environment), the value goes to `*out`, and a
//! status other than [`DONE`] says "evaluate me with the walker" (the walker would
//! report an error here). Numbers and true/false are 64-bit integers (true is 1); a
//! seat or row is its code, none is -1.

use std::fmt;
use std::mem::ManuallyDrop;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, BlockCall, InstBuilder, JumpTableData, MemFlags, Signature,
    StackSlotData, StackSlotKind, Value as Reg,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};
use frontier_interpreter::eval::{Env, Result};
use frontier_interpreter::id::TableId;
use frontier_interpreter::ir::{
    ArithOp, CmpOp, Code, Expr, Key, Op, Quantifier, Slot, Total, ZoneRead,
};
use frontier_interpreter::model::Function;
use frontier_interpreter::value::Type;
use frontier_interpreter::value::{decode_element, layout, Element};
use frontier_interpreter::{State, Value};

/// What compiled code reads and writes: the state's numbers, the locals, and the
/// environment the walker needs for the nodes it evaluates (given, for an expression; made
/// from `run` and `base`, for statements). The layout is read by the generated code
/// (`repr(C)`).
#[repr(C)]
pub(crate) struct Ctx<'a> {
    pub ints: *mut i64,
    pub ints_len: u64,
    /// The walker's environment, for an expression on its own (null for statements).
    pub env: *const Env<'a>,
    /// The local an option's element is bound to while its condition is evaluated
    /// (-1: none), the element's code, and what it is (-1: a seat; a table's number: a
    /// row of it). Compiled code writes them; the walker's nodes read the binding.
    pub bound_slot: i64,
    pub bound_code: i64,
    pub bound_kind: i64,
    /// Where an option listing puts the options.
    pub options: *mut Vec<(u16, Value)>,
    pub state: *const State,
    /// The statements' run (a `BlockRun`), null for an expression on its own.
    pub run: *mut (),
    /// Where the locals of the statement running start (0 for an expression: its
    /// environment's locals are `locals`).
    pub base: i64,
    /// The locals, and how many (0: none read in place).
    pub locals: *mut Value,
    pub locals_len: u64,
    /// The statements run since the last suspension (statements only).
    pub steps: *mut u64,
    /// Whether the journal collects `rule:` references (statements only: 1 or 0).
    pub covering: i64,
    /// How many play.
    pub players: i64,
    /// Whether the journal keeps a log (statements only: 1 or 0).
    pub logging: i64,
    /// The arguments of the function whose compiled body calls the walker (as values
    /// the walker reads), and how many plus one (0: the call is not in a function's body).
    pub params: *const Value,
    pub params_len: i64,
    /// The error a helper met (statements only), located at its statement.
    pub failure: Option<frontier_interpreter::eval::RuntimeError>,
    /// The lists `for_each` loops run through, innermost last (statements only).
    pub lists: Vec<std::sync::Arc<Vec<Value>>>,
    /// The element codes of the lists a listing evaluated (listings only).
    pub codes: Vec<Vec<u16>>,
    /// A listing met a list of elements other than seats or rows (listings only).
    pub declined: bool,
}
const CTX_INTS: i32 = 0;
const CTX_INTS_LEN: i32 = 8;
pub(crate) const CTX_BOUND_SLOT: i32 = 24;
pub(crate) const CTX_BOUND_CODE: i32 = 32;
pub(crate) const CTX_BOUND_KIND: i32 = 40;
pub(crate) const CTX_BASE: i32 = 72;
pub(crate) const CTX_LOCALS: i32 = 80;
pub(crate) const CTX_LOCALS_LEN: i32 = 88;
pub(crate) const CTX_STEPS: i32 = 96;
pub(crate) const CTX_COVERING: i32 = 104;
pub(crate) const CTX_PLAYERS: i32 = 112;
pub(crate) const CTX_LOGGING: i32 = 120;
const CTX_PARAMS: i32 = 128;
const CTX_PARAMS_LEN: i32 = 136;
// The offsets generated code reads and writes are the layout's (on 64-bit targets, the
// ones Cranelift's JIT supports): a change to `Ctx` that moves a field fails to compile.
const _: () = {
    assert!(std::mem::offset_of!(Ctx, ints) == CTX_INTS as usize);
    assert!(std::mem::offset_of!(Ctx, ints_len) == CTX_INTS_LEN as usize);
    assert!(std::mem::offset_of!(Ctx, bound_slot) == CTX_BOUND_SLOT as usize);
    assert!(std::mem::offset_of!(Ctx, bound_code) == CTX_BOUND_CODE as usize);
    assert!(std::mem::offset_of!(Ctx, bound_kind) == CTX_BOUND_KIND as usize);
    assert!(std::mem::offset_of!(Ctx, base) == CTX_BASE as usize);
    assert!(std::mem::offset_of!(Ctx, locals) == CTX_LOCALS as usize);
    assert!(std::mem::offset_of!(Ctx, locals_len) == CTX_LOCALS_LEN as usize);
    assert!(std::mem::offset_of!(Ctx, steps) == CTX_STEPS as usize);
    assert!(std::mem::offset_of!(Ctx, covering) == CTX_COVERING as usize);
    assert!(std::mem::offset_of!(Ctx, players) == CTX_PLAYERS as usize);
    assert!(std::mem::offset_of!(Ctx, logging) == CTX_LOGGING as usize);
    assert!(std::mem::offset_of!(Ctx, params) == CTX_PARAMS as usize);
    assert!(std::mem::offset_of!(Ctx, params_len) == CTX_PARAMS_LEN as usize);
};

impl<'a> Ctx<'a> {
    /// The context of an expression evaluated in `env`.
    pub(crate) fn new(env: &Env<'a>) -> Ctx<'a> {
        Ctx {
            env,
            locals: env.locals.as_ptr().cast_mut(),
            // A local bound apart from the others is read by the walker: no local is
            // read in place.
            locals_len: if env.bound.is_some() {
                0
            } else {
                env.locals.len() as u64
            },
            ..Ctx::reading(env.state)
        }
    }

    /// A context that reads `state`'s numbers (expressions only read them), and nothing
    /// else yet: no environment, locals, run or binding.
    pub(crate) fn reading(state: &State) -> Ctx<'a> {
        let ints = state.ints();
        Ctx {
            ints: ints.as_ptr().cast_mut(),
            ints_len: ints.len() as u64,
            env: std::ptr::null(),
            bound_slot: -1,
            bound_code: -1,
            bound_kind: -1,
            options: std::ptr::null_mut(),
            state,
            run: std::ptr::null_mut(),
            base: 0,
            locals: std::ptr::null_mut(),
            locals_len: 0,
            steps: std::ptr::null_mut(),
            covering: 0,
            players: state.names().len() as i64,
            logging: 0,
            params: std::ptr::null(),
            params_len: 0,
            failure: None,
            lists: Vec::new(),
            codes: Vec::new(),
            declined: false,
        }
    }

    /// The element bound by an option listing, if any, as the walker holds it.
    pub(crate) fn bound(&self) -> Option<(Slot, Value)> {
        let slot = usize::try_from(self.bound_slot).ok()?;
        Some((Slot::at(slot), self.bound_value()))
    }

    /// The element last bound, as a value: `bound_code` read as `bound_kind` says.
    pub(crate) fn bound_value(&self) -> Value {
        let code = self.bound_code as u16;
        match usize::try_from(self.bound_kind) {
            Ok(t) => decode_element(Element::Row(TableId::at(t)), code),
            Err(_) => decode_element(Element::Player, code),
        }
    }
}

/// Calls `f` with the environment the walker's nodes read: the expression's, with an
/// option's element bound when a listing has bound one; or, for statements, the one of
/// the locals they run with.
pub(crate) fn with_env<T>(cx: &Ctx, f: impl FnOnce(&Env) -> T) -> T {
    if cx.params_len > 0 {
        // SAFETY: compiled code set `params` to its arguments' values (plain values it
        // wrote in the layout `value::layout` gives), alive for this call.
        let params = unsafe { std::slice::from_raw_parts(cx.params, (cx.params_len - 1) as usize) };
        return with_caller_env(cx, |env| f(&env.for_function(params)));
    }
    with_caller_env(cx, f)
}

/// [`with_env`] outside a function's body.
fn with_caller_env<T>(cx: &Ctx, f: impl FnOnce(&Env) -> T) -> T {
    if cx.env.is_null() {
        // SAFETY: statements' code runs with `run` set to its run, alive for it, and
        // calls the walker between its own reads and writes of the state.
        let run = unsafe { &*(cx.run as *const frontier_interpreter::machine::BlockRun) };
        return f(&run.env(cx.base as usize));
    }
    // SAFETY: `cx.env` is the environment of the evaluation running, alive for it.
    let env = unsafe { &*cx.env };
    match cx.bound() {
        Some((slot, value)) => f(&env.with_bound(slot, &value)),
        None => f(env),
    }
}

/// Counts a call compiled in line as a step of work, as the walker counts its calls: 1
/// past the budget (the walker then reports it).
unsafe extern "C" fn charge_call(_cx: *const Ctx) -> i64 {
    frontier_interpreter::work::charge_work(1).is_err() as i64
}

/// The status of a finished evaluation.
pub(crate) const DONE: i64 = 0;
/// The walker is to evaluate the expression (it reports an error there).
pub(crate) const WALKER: i64 = 1;

pub(crate) type Entry = unsafe extern "C" fn(*mut Ctx, *mut i64) -> i64;
/// A walker evaluation called from compiled code: (ctx, node, out) -> status.
type Helper = unsafe extern "C" fn(*const Ctx, *const Expr, *mut i64) -> i64;

/// Why a set of expressions could not be compiled (the platform has no code generator,
/// or Cranelift refused a function).
#[derive(Debug)]
pub struct CompileError(pub(crate) String);

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot compile: {}", self.0)
    }
}

impl std::error::Error for CompileError {}

pub(crate) fn error(e: impl fmt::Display) -> CompileError {
    CompileError(e.to_string())
}

/// What an expression is compiled to give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Int,
    Bool,
}

/// The code generator and what the generated code points at, kept as long as the code.
pub(crate) struct Backend<'g> {
    /// Freed with its code's memory when the backend is dropped.
    pub module: ManuallyDrop<JITModule>,
    /// Constant columns read as numbers, and other constant tables of numbers compiled
    /// code reads: it holds their addresses.
    pub columns: Vec<Box<[i64]>>,
    /// Nodes made for the walker to evaluate (a key's read), which compiled code points
    /// at: boxed, so that they stay where they are when the list grows.
    #[allow(clippy::vec_box)]
    pub owned: Vec<Box<Expr>>,
    /// Constant lists of element codes that listings read.
    pub constants: Vec<Box<[u16]>>,
    pub nodes: NodeCount,
    /// Functions declared, for their names.
    pub count: usize,
    /// The ruleset's functions, which calls compile in line (none: calls are the
    /// walker's).
    pub functions: &'g [Function],
}

impl Backend<'_> {
    /// A code generator for the machine this runs on.
    pub fn new() -> std::result::Result<Self, CompileError> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").map_err(error)?;
        // Cranelift's verifier checks every function made: in debug builds (the tests);
        // a release build trusts them and loads a game in about half the time.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        flags.set("enable_verifier", verify).map_err(error)?;
        let isa = cranelift_native::builder()
            .map_err(error)?
            .finish(settings::Flags::new(flags))
            .map_err(error)?;
        Ok(Backend {
            module: ManuallyDrop::new(JITModule::new(JITBuilder::with_isa(
                isa,
                default_libcall_names(),
            ))),
            columns: Vec::new(),
            owned: Vec::new(),
            constants: Vec::new(),
            nodes: NodeCount::default(),
            count: 0,
            functions: &[],
        })
    }

    /// Makes the machine code of every function defined.
    pub fn finalize(&mut self) -> std::result::Result<(), CompileError> {
        self.module.finalize_definitions().map_err(error)
    }

    /// The address of function `id`'s code (after [`Backend::finalize`]).
    pub fn entry(&self, id: FuncId) -> *const u8 {
        self.module.get_finalized_function(id)
    }

    pub fn nodes(&self) -> NodeCount {
        self.nodes
    }

    /// Defines the function of one expression: `(ctx, out) -> status`.
    pub fn expression(
        &mut self,
        expr: &Expr,
        kind: Kind,
        builder: &mut FunctionBuilderContext,
    ) -> std::result::Result<FuncId, CompileError> {
        self.define("expr", 2, builder, |gen, params| {
            let v = match kind {
                Kind::Int => gen.int(expr),
                Kind::Bool => gen.bool(expr),
            };
            gen.b.ins().store(MemFlags::trusted(), v, params[1], 0);
        })
    }

    /// Defines a function of `pointers` pointer parameters (the first the [`Ctx`]) that
    /// returns a status: `body` generates what it does, then it returns [`DONE`]; the
    /// generated code's [`Gen::walker`] block returns [`WALKER`].
    pub fn define(
        &mut self,
        prefix: &str,
        pointers: usize,
        builder: &mut FunctionBuilderContext,
        body: impl FnOnce(&mut Gen, &[Reg]),
    ) -> std::result::Result<FuncId, CompileError> {
        self.define_returning(prefix, pointers, WALKER, builder, |gen, params| {
            body(gen, params);
            let done = gen.b.ins().iconst(types::I64, DONE);
            gen.b.ins().return_(&[done]);
        })
    }

    /// Defines a function of `pointers` pointer-sized parameters (the first the [`Ctx`])
    /// that returns a 64-bit integer: `body` generates it, returns included; the generated
    /// code's [`Gen::walker`] block returns `walker`.
    pub fn define_returning(
        &mut self,
        prefix: &str,
        pointers: usize,
        walker: i64,
        builder: &mut FunctionBuilderContext,
        body: impl FnOnce(&mut Gen, &[Reg]),
    ) -> std::result::Result<FuncId, CompileError> {
        let ptr = self.module.target_config().pointer_type();
        let mut ctx = self.module.make_context();
        for _ in 0..pointers {
            ctx.func.signature.params.push(AbiParam::new(ptr));
        }
        ctx.func.signature.returns.push(AbiParam::new(types::I64));
        let name = format!("{prefix}{}", self.count);
        self.count += 1;
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &ctx.func.signature)
            .map_err(error)?;
        {
            let mut b = FunctionBuilder::new(&mut ctx.func, builder);
            let entry = b.create_block();
            b.append_block_params_for_function_params(entry);
            b.switch_to_block(entry);
            b.seal_block(entry);
            let params = b.block_params(entry).to_vec();
            let walker_block = b.create_block();
            let mut gen = Gen {
                b,
                cx: params[0],
                ptr,
                walker: walker_block,
                bound: None,
                functions: self.functions,
                params: None,
                inline_depth: 0,
                inlined: 0,
                columns: &mut self.columns,
                owned: &mut self.owned,
                constants: &mut self.constants,
                nodes: &mut self.nodes,
            };
            body(&mut gen, &params);
            let b = &mut gen.b;
            b.switch_to_block(walker_block);
            b.seal_block(walker_block);
            let status = b.ins().iconst(types::I64, walker);
            b.ins().return_(&[status]);
            gen.b.finalize();
        }
        self.module
            .define_function(id, &mut ctx)
            .map_err(|e| CompileError(format!("{e:?}")))?;
        self.module.clear_context(&mut ctx);
        Ok(id)
    }

    /// The entry of expression function `id` (after [`Backend::finalize`]).
    pub fn expression_entry(&self, id: FuncId) -> Entry {
        // SAFETY: `expression` defined the function with the signature `Entry` spells:
        // two pointers in, one 64-bit integer out, the platform's convention.
        unsafe { std::mem::transmute::<*const u8, Entry>(self.entry(id)) }
    }
}

impl Drop for Backend<'_> {
    fn drop(&mut self) {
        // SAFETY: the module is taken once, here, and not used afterwards; the code's
        // owner (a compiled set, or a compiler that did not finish) is being dropped, so
        // nothing calls the code any more.
        unsafe { ManuallyDrop::take(&mut self.module).free_memory() };
    }
}

/// Compiles expressions of one loaded game; [`ExprCompiler::finish`] gives the code.
pub struct ExprCompiler<'g> {
    backend: Backend<'g>,
    builder: FunctionBuilderContext,
    functions: Vec<(FuncId, &'g Expr, Kind)>,
}

/// How many nodes were compiled, and how many are left to the walker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeCount {
    pub compiled: usize,
    pub walker: usize,
}

/// The compiled expressions, in the order they were added: each evaluated by number.
pub struct CompiledExpr<'g> {
    entries: Vec<(Entry, &'g Expr, Kind)>,
    nodes: NodeCount,
    // Declared last: the code is freed after nothing can call it.
    _backend: Backend<'g>,
}

impl<'g> ExprCompiler<'g> {
    /// A compiler for the machine this runs on.
    pub fn new() -> std::result::Result<Self, CompileError> {
        Ok(ExprCompiler {
            backend: Backend::new()?,
            builder: FunctionBuilderContext::new(),
            functions: Vec::new(),
        })
    }

    /// Adds a number-typed expression; its number in [`CompiledExpr`] is returned.
    pub fn add_int(&mut self, expr: &'g Expr) -> std::result::Result<usize, CompileError> {
        self.add(expr, Kind::Int)
    }

    /// Adds a truth-valued expression; its number in [`CompiledExpr`] is returned.
    pub fn add_bool(&mut self, expr: &'g Expr) -> std::result::Result<usize, CompileError> {
        self.add(expr, Kind::Bool)
    }

    fn add(&mut self, expr: &'g Expr, kind: Kind) -> std::result::Result<usize, CompileError> {
        let id = self.backend.expression(expr, kind, &mut self.builder)?;
        self.functions.push((id, expr, kind));
        Ok(self.functions.len() - 1)
    }

    /// The machine code of every expression added.
    pub fn finish(mut self) -> std::result::Result<CompiledExpr<'g>, CompileError> {
        self.backend.finalize()?;
        let entries = self
            .functions
            .iter()
            .map(|&(id, expr, kind)| (self.backend.expression_entry(id), expr, kind))
            .collect();
        Ok(CompiledExpr {
            entries,
            nodes: self.backend.nodes,
            _backend: self.backend,
        })
    }
}

impl CompiledExpr<'_> {
    /// How many nodes were compiled, and how many are evaluated by the walker.
    pub fn nodes(&self) -> NodeCount {
        self.nodes
    }

    /// The value of number-typed expression `i` in `env`, as [`Expr::int`] gives it.
    pub fn int(&self, i: usize, env: &Env) -> Result<i64> {
        let (entry, expr, kind) = self.entries[i];
        debug_assert_eq!(kind, Kind::Int);
        match run(entry, env) {
            Some(v) => Ok(v),
            None => expr.int(env),
        }
    }

    /// The value of truth-valued expression `i` in `env`, as [`Expr::bool`] gives it.
    pub fn bool(&self, i: usize, env: &Env) -> Result<bool> {
        let (entry, expr, kind) = self.entries[i];
        debug_assert_eq!(kind, Kind::Bool);
        match run(entry, env) {
            Some(v) => Ok(v != 0),
            None => expr.bool(env),
        }
    }
}

/// Runs compiled code; `None` when the walker is to evaluate the expression.
pub(crate) fn run(entry: Entry, env: &Env) -> Option<i64> {
    let mut cx = Ctx::new(env);
    let mut out = 0i64;
    // SAFETY: the code reads `cx` and the numbers it points at, within `ints_len`
    // (every read is checked), and writes `out`; helpers it calls get `cx` back.
    let status = unsafe { entry(&mut cx, &mut out) };
    (status == DONE).then_some(out)
}

/// The walker's value of a number-typed node.
unsafe extern "C" fn walker_int(cx: *const Ctx, expr: *const Expr, out: *mut i64) -> i64 {
    // SAFETY: compiled code passes its own `cx` (alive for the call) and a node of the
    // game it was compiled from (alive as long as the code, by its owner's lifetime).
    let (cx, expr) = unsafe { (&*cx, &*expr) };
    walker_result(with_env(cx, |env| expr.int(env)), out)
}

unsafe extern "C" fn walker_bool(cx: *const Ctx, expr: *const Expr, out: *mut i64) -> i64 {
    // SAFETY: as in `walker_int`.
    let (cx, expr) = unsafe { (&*cx, &*expr) };
    walker_result(with_env(cx, |env| expr.bool(env).map(i64::from)), out)
}

/// The walker's code of the seat or row a node stands for (-1 for none).
unsafe extern "C" fn walker_code(cx: *const Ctx, expr: *const Expr, out: *mut i64) -> i64 {
    // SAFETY: as in `walker_int`.
    let (cx, expr) = unsafe { (&*cx, &*expr) };
    walker_result(
        with_env(cx, |env| expr.code(env).map(|c| c.map_or(-1, i64::from))),
        out,
    )
}

fn walker_result(r: Result<i64>, out: *mut i64) -> i64 {
    match r {
        Ok(v) => {
            // SAFETY: `out` is the compiled code's stack slot for this call.
            unsafe { *out = v };
            DONE
        }
        Err(_) => WALKER,
    }
}

/// The generation of one function.
pub(crate) struct Gen<'a, 'b> {
    pub b: FunctionBuilder<'a>,
    pub cx: Reg,
    pub ptr: types::Type,
    /// The block that returns [`WALKER`].
    pub walker: Block,
    /// The local an option's element is bound to, and the register holding its code.
    pub bound: Option<(Slot, Reg)>,
    pub columns: &'b mut Vec<Box<[i64]>>,
    #[allow(clippy::vec_box)]
    pub owned: &'b mut Vec<Box<Expr>>,
    /// Constant lists of element codes the code reads.
    pub constants: &'b mut Vec<Box<[u16]>>,
    pub nodes: &'b mut NodeCount,
    pub functions: &'b [Function],
    /// The arguments of the function whose body is being compiled in line.
    pub params: Option<Params>,
    /// How many calls deep in line that body is.
    pub inline_depth: usize,
    /// How many nodes of calls' bodies this function has compiled in line.
    pub inlined: usize,
}

/// The arguments of a function compiled in line: each in a register, and all as values
/// in a stack slot for the walker's nodes of its body.
pub(crate) struct Params {
    regs: Vec<(Reg, ParamKind)>,
    values: cranelift_codegen::ir::StackSlot,
}

/// What a parameter compiled in line holds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ParamKind {
    Int,
    Bool,
    Player,
    Row(TableId),
}

impl ParamKind {
    fn of(ty: &Type) -> Option<ParamKind> {
        match ty {
            Type::Int => Some(ParamKind::Int),
            Type::Bool => Some(ParamKind::Bool),
            Type::Player => Some(ParamKind::Player),
            Type::Row(t) => Some(ParamKind::Row(*t)),
            _ => None,
        }
    }
}

/// How deep calls compile in line (deeper ones are the walker's).
const MAX_INLINE: usize = 8;

/// The most nodes a call's body, with the calls it compiles in line, may have to be
/// compiled in line.
const INLINE_BUDGET: usize = 200;

/// The nodes of `e`, counted up to a little past `budget`.
pub(crate) fn node_count(e: &Expr, budget: usize) -> usize {
    // No functions: no call's body counted.
    inline_size(&[], e, 0, budget)
}

/// The most nodes of calls' bodies compiled in line into one function.
const INLINED_PER_FUNCTION: usize = 2_000;

/// The nodes of `e` with the bodies of the calls compiled in line at `depth` (a call
/// past [`MAX_INLINE`] counts as one node), counted up to a little past `budget`.
fn inline_size(functions: &[Function], e: &Expr, depth: usize, budget: usize) -> usize {
    let mut size = 1;
    if let (Expr::Function { id, .. }, true) = (e, depth < MAX_INLINE) {
        if let Some(f) = functions.get(id.index()) {
            size += inline_size(functions, &f.body, depth + 1, budget);
        }
    }
    for child in e.children() {
        if size > budget {
            break;
        }
        size += inline_size(functions, child, depth, budget - size.min(budget));
    }
    size
}

impl Gen<'_, '_> {
    pub fn int(&mut self, e: &Expr) -> Reg {
        self.nodes.compiled += 1;
        match e {
            Expr::Const(Value::Int(n)) => self.b.ins().iconst(types::I64, *n),
            Expr::Var {
                slot,
                code: Code::Int,
            } => self.load_slot(slot.index()),
            Expr::VarAtKey {
                base,
                code: Code::Int,
                key,
                ..
            } => self.var_at_key(base.index(), *key),
            Expr::Local(slot) if self.params.is_none() => self.local_int(*slot),
            Expr::Param(i) => match self.param(*i, ParamKind::Int) {
                Some(r) => r,
                None => self.walker(e, Kind::Int),
            },
            Expr::Function { id, args } => match self.function(id.index(), args, Kind::Int) {
                Some(r) => r,
                None => self.walker(e, Kind::Int),
            },
            Expr::ColumnKey { values, key, .. } => match column_numbers(values, Kind::Int) {
                Some(numbers) => self.column(numbers, *key),
                None => {
                    self.nodes.compiled -= 1;
                    self.walker(e, Kind::Int)
                }
            },
            Expr::Arith { op, a, b, .. } => {
                let (x, y) = (self.int(a), self.int(b));
                let (v, overflow) = match op {
                    ArithOp::Add => self.b.ins().sadd_overflow(x, y),
                    ArithOp::Sub => self.b.ins().ssub_overflow(x, y),
                    ArithOp::Mul => self.b.ins().smul_overflow(x, y),
                    // Euclidean division and remainder, and their errors: the walker's.
                    ArithOp::Div | ArithOp::Rem => {
                        self.nodes.compiled -= 1;
                        return self.walker(e, Kind::Int);
                    }
                };
                self.bail_if(overflow);
                v
            }
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.bool(cond);
                self.select(c, |g| g.int(then), |g| g.int(otherwise))
            }
            Expr::UnrolledTotal {
                op: Total::Sum,
                items,
            } => {
                let mut total = self.b.ins().iconst(types::I64, 0);
                for item in items {
                    let n = self.int(item);
                    let (sum, overflow) = self.b.ins().sadd_overflow(total, n);
                    self.bail_if(overflow);
                    total = sum;
                }
                total
            }
            Expr::UnrolledTotal {
                op: Total::Count,
                items,
            } => {
                let mut count = self.b.ins().iconst(types::I64, 0);
                for item in items {
                    let holds = self.bool(item);
                    count = self.b.ins().iadd(count, holds);
                }
                count
            }
            Expr::Neg(a, _) => {
                let x = self.int(a);
                // -(the smallest number) overflows: the walker's error.
                let overflow = self.b.ins().icmp_imm(IntCC::Equal, x, i64::MIN);
                self.bail_if(overflow);
                self.b.ins().ineg(x)
            }
            Expr::Call {
                op: op @ (Op::Min | Op::Max),
                args,
            } if !args.is_empty() => {
                let mut best = self.int(&args[0]);
                for arg in &args[1..] {
                    let v = self.int(arg);
                    best = match op {
                        Op::Min => self.b.ins().smin(best, v),
                        _ => self.b.ins().smax(best, v),
                    };
                }
                best
            }
            Expr::PlayerCount => {
                self.b
                    .ins()
                    .load(types::I64, MemFlags::trusted(), self.cx, CTX_PLAYERS)
            }
            Expr::ZoneLen(z) => match self.zone_instance(z) {
                Some(instance) => self.zone_elements(instance).1,
                None => {
                    self.nodes.compiled -= 1;
                    self.walker(e, Kind::Int)
                }
            },
            Expr::ZoneCount(z, x) => match self.zone_instance(z) {
                Some(instance) => {
                    let code = self.code(x);
                    let (at, count) = self.zone_elements_searched(instance);
                    // None is in no zone: count 0 (no code is -1).
                    self.count_code(at, count, code)
                }
                None => {
                    self.nodes.compiled -= 1;
                    self.walker(e, Kind::Int)
                }
            },
            _ => {
                self.nodes.compiled -= 1;
                self.walker(e, Kind::Int)
            }
        }
    }

    pub fn bool(&mut self, e: &Expr) -> Reg {
        self.nodes.compiled += 1;
        let flag = match e {
            Expr::Const(Value::Bool(v)) => return self.b.ins().iconst(types::I64, *v as i64),
            Expr::Var {
                slot,
                code: Code::Bool,
            } => {
                let n = self.load_slot(slot.index());
                self.b.ins().icmp_imm(IntCC::NotEqual, n, 0)
            }
            Expr::VarAtKey {
                base,
                code: Code::Bool,
                key,
                ..
            } => {
                let n = self.var_at_key(base.index(), *key);
                self.b.ins().icmp_imm(IntCC::NotEqual, n, 0)
            }
            Expr::Local(slot) if self.params.is_none() => return self.local_bool(*slot),
            Expr::Param(i) => {
                return match self.param(*i, ParamKind::Bool) {
                    Some(r) => r,
                    None => self.walker(e, Kind::Bool),
                }
            }
            Expr::Function { id, args } => {
                return match self.function(id.index(), args, Kind::Bool) {
                    Some(r) => r,
                    None => self.walker(e, Kind::Bool),
                }
            }
            Expr::ColumnKey { values, key, .. } => match column_numbers(values, Kind::Bool) {
                Some(numbers) => return self.column(numbers, *key),
                None => {
                    self.nodes.compiled -= 1;
                    return self.walker(e, Kind::Bool);
                }
            },
            Expr::Compare { op, a, b } => {
                let (x, y) = (self.int(a), self.int(b));
                let cc = match op {
                    CmpOp::Lt => IntCC::SignedLessThan,
                    CmpOp::Le => IntCC::SignedLessThanOrEqual,
                    CmpOp::Gt => IntCC::SignedGreaterThan,
                    CmpOp::Ge => IntCC::SignedGreaterThanOrEqual,
                    CmpOp::Eq => IntCC::Equal,
                    CmpOp::Ne => IntCC::NotEqual,
                };
                self.b.ins().icmp(cc, x, y)
            }
            Expr::IsNone { value, negate } => {
                let c = self.code(value);
                let cc = if *negate {
                    IntCC::NotEqual
                } else {
                    IntCC::Equal
                };
                self.b.ins().icmp_imm(cc, c, -1)
            }
            Expr::Same { a, b, negate } => {
                let (x, y) = (self.code(a), self.code(b));
                let cc = if *negate {
                    IntCC::NotEqual
                } else {
                    IntCC::Equal
                };
                self.b.ins().icmp(cc, x, y)
            }
            Expr::Not(a) => {
                let x = self.bool(a);
                return self.b.ins().bxor_imm(x, 1);
            }
            Expr::And(a, b) => {
                let x = self.bool(a);
                return self.select(x, |g| g.bool(b), |g| g.b.ins().iconst(types::I64, 0));
            }
            Expr::Or(a, b) => {
                let x = self.bool(a);
                return self.select(x, |g| g.b.ins().iconst(types::I64, 1), |g| g.bool(b));
            }
            Expr::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.bool(cond);
                return self.select(c, |g| g.bool(then), |g| g.bool(otherwise));
            }
            // The items in order, up to the first that decides.
            Expr::UnrolledTest { op, items } => return self.quantifier(*op, items),
            Expr::ZoneContains(z, x) => match self.zone_instance(z) {
                Some(instance) => {
                    let code = self.code(x);
                    let (at, count) = self.zone_elements_searched(instance);
                    let n = self.count_code(at, count, code);
                    self.b.ins().icmp_imm(IntCC::NotEqual, n, 0)
                }
                None => {
                    self.nodes.compiled -= 1;
                    return self.walker(e, Kind::Bool);
                }
            },
            _ => {
                self.nodes.compiled -= 1;
                return self.walker(e, Kind::Bool);
            }
        };
        self.b.ins().uextend(types::I64, flag)
    }

    /// `any` (`all`) of `items`: 1 (0) at the first item that holds (does not), else 0 (1).
    fn quantifier(&mut self, op: Quantifier, items: &[Expr]) -> Reg {
        let decides = match op {
            Quantifier::Any => 1,
            Quantifier::All => 0,
        };
        let Some((first, rest)) = items.split_first() else {
            return self.b.ins().iconst(types::I64, 1 - decides);
        };
        let holds = self.bool(first);
        let decided = self.b.ins().icmp_imm(IntCC::Equal, holds, decides);
        self.select(
            decided,
            |g| g.b.ins().iconst(types::I64, decides),
            |g| g.quantifier(op, rest),
        )
    }

    /// The code of the seat or row `e` stands for, -1 for none.
    pub fn code(&mut self, e: &Expr) -> Reg {
        if let (Expr::Local(slot), Some((bound, code)), None) = (e, self.bound, &self.params) {
            if *slot == bound {
                return code;
            }
        }
        match e {
            Expr::Const(Value::None) => self.b.ins().iconst(types::I64, -1),
            Expr::Const(Value::Player(p)) => self.b.ins().iconst(types::I64, *p as i64),
            Expr::Const(Value::Row(_, r)) => self.b.ins().iconst(types::I64, *r as i64),
            Expr::Local(slot) if self.params.is_none() => {
                self.nodes.compiled += 1;
                self.local_code(*slot)
            }
            Expr::Param(i) => match self.code_param(*i) {
                Some(r) => r,
                None => self.call_walker(walker_code, e),
            },
            Expr::ZoneFirst(z) | Expr::ZoneLast(z) => match self.zone_instance(z) {
                Some(instance) => {
                    self.nodes.compiled += 1;
                    let (at, count) = self.zone_elements(instance);
                    let end = match e {
                        Expr::ZoneFirst(_) => End::First,
                        _ => End::Last,
                    };
                    self.end_code(at, count, end)
                }
                None => self.call_walker(walker_code, e),
            },
            Expr::Call {
                op: Op::NextPlayer,
                args,
            } if args.len() == 1 => {
                self.nodes.compiled += 1;
                // A seat's code (none: the walker's error), then the next seat round.
                let p = self.code(&args[0]);
                let none = self.b.ins().icmp_imm(IntCC::SignedLessThan, p, 0);
                self.bail_if(none);
                let n = self
                    .b
                    .ins()
                    .load(types::I64, MemFlags::trusted(), self.cx, CTX_PLAYERS);
                let next = self.b.ins().iadd_imm(p, 1);
                self.b.ins().urem(next, n)
            }
            Expr::Var {
                slot,
                code: Code::Player | Code::Row(_),
            } => {
                self.nodes.compiled += 1;
                let n = self.load_slot(slot.index());
                self.stored_code(n)
            }
            _ => self.call_walker(walker_code, e),
        }
    }

    /// A seat or row code as a state slot holds it (-1 and below for none): the
    /// walker reads a negative number as none and a larger one as its low 16 bits, which
    /// no slot holds; such a slot goes to the walker.
    fn stored_code(&mut self, n: Reg) -> Reg {
        let too_large = self
            .b
            .ins()
            .icmp_imm(IntCC::SignedGreaterThan, n, u16::MAX as i64);
        self.bail_if(too_large);
        let negative = self.b.ins().icmp_imm(IntCC::SignedLessThan, n, 0);
        let none = self.b.ins().iconst(types::I64, -1);
        self.b.ins().select(negative, none, n)
    }

    /// The code a key holds; none goes to the walker (it is an error where a key indexes).
    fn key(&mut self, key: Key) -> Reg {
        if let (Key::Local(slot), Some((bound, code)), None) = (key, self.bound, &self.params) {
            // An option's element is never none.
            if slot == bound {
                return code;
            }
        }
        let param = match key {
            Key::Param(i) => self.code_param(i),
            _ => None,
        };
        let code = match (key, param) {
            (Key::Var(slot), _) => {
                let n = self.load_slot(slot.index());
                self.stored_code(n)
            }
            (Key::Param(_), Some(code)) => code,
            (Key::Local(slot), _) if self.params.is_none() => self.local_code(slot),
            (Key::Local(_) | Key::It | Key::Param(_), _) => {
                let read = key
                    .plain_read()
                    .expect("a key other than a variable reads as a node");
                // The node must live as long as the code: the compiled set keeps it
                // (a box does not move when the list grows).
                let node = Box::new(read);
                let at: *const Expr = &*node;
                self.owned.push(node);
                self.call_walker(walker_code, at)
            }
        };
        let none = self.b.ins().icmp_imm(IntCC::SignedLessThan, code, 0);
        self.bail_if(none);
        code
    }

    fn var_at_key(&mut self, base: usize, key: Key) -> Reg {
        let k = self.key(key);
        let i = self.b.ins().iadd_imm(k, base as i64);
        self.load_int(i)
    }

    fn column(&mut self, numbers: Box<[i64]>, key: Key) -> Reg {
        let k = self.key(key);
        let len = numbers.len() as i64;
        let at = numbers.as_ptr() as i64;
        self.columns.push(numbers);
        let outside = self
            .b
            .ins()
            .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, k, len);
        self.bail_if(outside);
        let base = self.b.ins().iconst(self.ptr, at);
        let offset = self.b.ins().imul_imm(k, 8);
        let addr = self.b.ins().iadd(base, offset);
        self.b.ins().load(types::I64, MemFlags::trusted(), addr, 0)
    }

    /// Argument `i` of the function compiled in line, when it is of `kind`.
    fn param(&mut self, i: u16, kind: ParamKind) -> Option<Reg> {
        let (reg, k) = *self.params.as_ref()?.regs.get(i as usize)?;
        (k == kind).then(|| {
            self.nodes.compiled += 1;
            reg
        })
    }

    /// Argument `i` of the function compiled in line, when it is a seat or row: its code.
    fn code_param(&mut self, i: u16) -> Option<Reg> {
        let (reg, k) = *self.params.as_ref()?.regs.get(i as usize)?;
        matches!(k, ParamKind::Player | ParamKind::Row(_)).then(|| {
            self.nodes.compiled += 1;
            reg
        })
    }

    /// A call of function `id` compiled in line (its body as `kind`), when its
    /// parameters are plain values: its arguments evaluated first, in order, as the
    /// walker does, each into a register and as a value for the walker's nodes of the body.
    fn function(&mut self, id: usize, args: &[Expr], kind: Kind) -> Option<Reg> {
        let functions = self.functions;
        let f = functions.get(id)?;
        if args.len() != f.params.len() || self.inline_depth >= MAX_INLINE {
            return None;
        }
        // Calls in a body compile in line too: a body that grows past the budget with
        // them stays one walker node (code that would grow exponentially otherwise).
        let size = inline_size(functions, &f.body, self.inline_depth + 1, INLINE_BUDGET);
        // And a function's code stays small: past its budget, calls are walker nodes.
        if size > INLINE_BUDGET || self.inlined + size > INLINED_PER_FUNCTION {
            return None;
        }
        let kinds: Vec<ParamKind> = f
            .params
            .iter()
            .map(|(_, ty)| ParamKind::of(ty))
            .collect::<Option<_>>()?;
        self.inlined += size;
        // A call is a step, as the walker counts it: past the limit, the walker reports it.
        let over = self.call_helper(charge_call as *const u8, &[]);
        self.bail_if(over);
        let regs: Vec<(Reg, ParamKind)> = args
            .iter()
            .zip(&kinds)
            .map(|(arg, &k)| {
                let r = match k {
                    ParamKind::Int => self.int(arg),
                    ParamKind::Bool => self.bool(arg),
                    ParamKind::Player | ParamKind::Row(_) => self.code(arg),
                };
                (r, k)
            })
            .collect();
        let values = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            (layout::SIZE * regs.len().max(1)) as u32,
            3,
        ));
        for (i, &(r, k)) in regs.iter().enumerate() {
            self.write_value(values, i, r, k);
        }
        let outer = self.params.replace(Params { regs, values });
        self.inline_depth += 1;
        let v = match kind {
            Kind::Int => self.int(&f.body),
            Kind::Bool => self.bool(&f.body),
        };
        self.inline_depth -= 1;
        self.params = outer;
        Some(v)
    }

    /// Writes `r` (of `k`) as value `i` of stack slot `values`.
    fn write_value(
        &mut self,
        values: cranelift_codegen::ir::StackSlot,
        i: usize,
        r: Reg,
        k: ParamKind,
    ) {
        let at = (i * layout::SIZE) as i32;
        let tag = |g: &mut Self, t: u8| g.b.ins().iconst(types::I8, t as i64);
        match k {
            ParamKind::Int => {
                let t = tag(self, layout::TAG_INT);
                self.b.ins().stack_store(t, values, at);
                self.b.ins().stack_store(r, values, at + layout::INT_AT);
            }
            ParamKind::Bool => {
                let t = tag(self, layout::TAG_BOOL);
                self.b.ins().stack_store(t, values, at);
                let byte = self.b.ins().ireduce(types::I8, r);
                self.b.ins().stack_store(byte, values, at + layout::BYTE_AT);
            }
            ParamKind::Player | ParamKind::Row(_) => {
                // None (-1) is the tag of none.
                let none = self.b.ins().icmp_imm(IntCC::SignedLessThan, r, 0);
                let some = match k {
                    ParamKind::Row(_) => layout::TAG_ROW,
                    _ => layout::TAG_PLAYER,
                };
                let (t_none, t_some) = (tag(self, layout::TAG_NONE), tag(self, some));
                let t = self.b.ins().select(none, t_none, t_some);
                self.b.ins().stack_store(t, values, at);
                match k {
                    ParamKind::Row(table) => {
                        let table = self.b.ins().iconst(types::I16, table.index() as i64);
                        self.b
                            .ins()
                            .stack_store(table, values, at + layout::ROW_TABLE_AT);
                        let row = self.b.ins().ireduce(types::I16, r);
                        self.b.ins().stack_store(row, values, at + layout::ROW_AT);
                    }
                    _ => {
                        let byte = self.b.ins().ireduce(types::I8, r);
                        self.b.ins().stack_store(byte, values, at + layout::BYTE_AT);
                    }
                }
            }
        }
    }

    /// The address of local `slot` of the statements running (of the expression's
    /// environment), checked against the locals' count: past it, the walker's.
    pub fn local_at(&mut self, slot: Slot) -> Reg {
        let base = self
            .b
            .ins()
            .load(types::I64, MemFlags::trusted(), self.cx, CTX_BASE);
        let i = self.b.ins().iadd_imm(base, slot.index() as i64);
        let len = self
            .b
            .ins()
            .load(types::I64, MemFlags::trusted(), self.cx, CTX_LOCALS_LEN);
        let outside = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
        self.bail_if(outside);
        let locals = self
            .b
            .ins()
            .load(self.ptr, MemFlags::trusted(), self.cx, CTX_LOCALS);
        let offset = self.b.ins().imul_imm(i, layout::SIZE as i64);
        self.b.ins().iadd(locals, offset)
    }

    /// The tag of the value at `at`, and the walker's when it is not `tag`.
    fn expect_tag(&mut self, at: Reg, tag: u8) -> Reg {
        let t = self.b.ins().uload8(types::I64, MemFlags::trusted(), at, 0);
        let other = self.b.ins().icmp_imm(IntCC::NotEqual, t, tag as i64);
        self.bail_if(other);
        t
    }

    /// A number local, read in place (a local holding anything else: the walker's).
    pub fn local_int(&mut self, slot: Slot) -> Reg {
        let at = self.local_at(slot);
        self.expect_tag(at, layout::TAG_INT);
        self.b
            .ins()
            .load(types::I64, MemFlags::trusted(), at, layout::INT_AT)
    }

    /// A true/false local, read in place (1 or 0).
    pub fn local_bool(&mut self, slot: Slot) -> Reg {
        let at = self.local_at(slot);
        self.expect_tag(at, layout::TAG_BOOL);
        self.b
            .ins()
            .uload8(types::I64, MemFlags::trusted(), at, layout::BYTE_AT)
    }

    /// A seat or row local's code, read in place (-1 for none).
    pub fn local_code(&mut self, slot: Slot) -> Reg {
        let at = self.local_at(slot);
        let t = self.b.ins().uload8(types::I64, MemFlags::trusted(), at, 0);
        let is_player = self
            .b
            .ins()
            .icmp_imm(IntCC::Equal, t, layout::TAG_PLAYER as i64);
        let is_row = self
            .b
            .ins()
            .icmp_imm(IntCC::Equal, t, layout::TAG_ROW as i64);
        let is_none = self
            .b
            .ins()
            .icmp_imm(IntCC::Equal, t, layout::TAG_NONE as i64);
        let code = self.b.ins().bor(is_player, is_row);
        let known = self.b.ins().bor(code, is_none);
        let other = self.b.ins().icmp_imm(IntCC::Equal, known, 0);
        self.bail_if(other);
        let seat = self
            .b
            .ins()
            .uload8(types::I64, MemFlags::trusted(), at, layout::BYTE_AT);
        let row = self
            .b
            .ins()
            .uload16(types::I64, MemFlags::trusted(), at, layout::ROW_AT);
        let none = self.b.ins().iconst(types::I64, -1);
        let row_or_none = self.b.ins().select(is_row, row, none);
        self.b.ins().select(is_player, seat, row_or_none)
    }

    /// `ints[slot]` for a slot known when compiling, checked against the state's length.
    fn load_slot(&mut self, slot: usize) -> Reg {
        let i = self.b.ins().iconst(types::I64, slot as i64);
        self.load_int(i)
    }

    /// Jumps to `targets[index]`, or to `default` past them.
    pub fn br_table(&mut self, index: Reg, targets: &[Block], default: Block) {
        let pool = &mut self.b.func.dfg.value_lists;
        let calls: Vec<BlockCall> = targets
            .iter()
            .map(|&b| BlockCall::new(b, std::iter::empty(), pool))
            .collect();
        let default = BlockCall::new(default, std::iter::empty(), pool);
        let table = self
            .b
            .create_jump_table(JumpTableData::new(default, &calls));
        let index = self.b.ins().ireduce(types::I32, index);
        self.b.ins().br_table(index, table);
    }

    /// Calls `helper(cx, args…)`, which returns one 64-bit integer.
    pub fn call_helper(&mut self, helper: *const u8, args: &[Reg]) -> Reg {
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        sig.params.push(AbiParam::new(self.ptr));
        for _ in args {
            sig.params.push(AbiParam::new(types::I64));
        }
        sig.returns.push(AbiParam::new(types::I64));
        let sig = self.b.import_signature(sig);
        let callee = self.b.ins().iconst(self.ptr, helper as i64);
        let mut all = vec![self.cx];
        all.extend_from_slice(args);
        let call = self.b.ins().call_indirect(sig, callee, &all);
        self.b.inst_results(call)[0]
    }

    /// The zone instance `z` names, when its index is a seat or row (none, or past the
    /// last instance: the walker's error); `None` for an index of two keys.
    pub fn zone_instance(&mut self, z: &ZoneRead) -> Option<Reg> {
        Some(match z.index.as_deref() {
            None => self.b.ins().iconst(types::I64, z.base.index() as i64),
            Some(Expr::Pair { .. }) => return None,
            Some(index) => {
                let i = self.code(index);
                let outside =
                    self.b
                        .ins()
                        .icmp_imm(IntCC::UnsignedGreaterThanOrEqual, i, z.len as i64);
                self.bail_if(outside);
                self.b.ins().iadd_imm(i, z.base.index() as i64)
            }
        })
    }

    /// The elements of zone instance `instance`: their codes' address and count.
    pub fn zone_elements(&mut self, instance: Reg) -> (Reg, Reg) {
        self.zone_elements_by(zone_at, instance)
    }

    /// [`Gen::zone_elements`] of a zone about to be searched (`count`, `in`): past
    /// `work::FREE_SCAN` elements, they are steps of work as the walker counts them (its
    /// helper gives no address past the budget: the walker reports it).
    pub fn zone_elements_searched(&mut self, instance: Reg) -> (Reg, Reg) {
        self.zone_elements_by(zone_searched, instance)
    }

    fn zone_elements_by(
        &mut self,
        helper: unsafe extern "C" fn(*mut Ctx, i64, i64) -> i64,
        instance: Reg,
    ) -> (Reg, Reg) {
        let slot =
            self.b
                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let count_at = self.b.ins().stack_addr(self.ptr, slot, 0);
        let at = self.call_helper(helper as *const u8, &[instance, count_at]);
        // A null address: no such instance (the walker's error).
        let null = self.b.ins().icmp_imm(IntCC::Equal, at, 0);
        self.bail_if(null);
        let count = self.b.ins().stack_load(types::I64, slot, 0);
        (at, count)
    }

    /// How many elements of the codes at `at` (`count` of them) are `code`.
    fn count_code(&mut self, at: Reg, count: Reg, code: Reg) -> Reg {
        let (head, looped, exit) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(head, types::I64);
        self.b.append_block_param(head, types::I64);
        self.b.append_block_param(exit, types::I64);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(head, &[zero.into(), zero.into()]);
        self.b.switch_to_block(head);
        let (i, n) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, i, count);
        self.b.ins().brif(more, looped, &[], exit, &[n.into()]);
        self.b.switch_to_block(looped);
        self.b.seal_block(looped);
        let offset = self.b.ins().imul_imm(i, 2);
        let addr = self.b.ins().iadd(at, offset);
        let e = self
            .b
            .ins()
            .uload16(types::I64, MemFlags::trusted(), addr, 0);
        let same = self.b.ins().icmp(IntCC::Equal, e, code);
        let same = self.b.ins().uextend(types::I64, same);
        let n = self.b.ins().iadd(n, same);
        let next = self.b.ins().iadd_imm(i, 1);
        self.b.ins().jump(head, &[next.into(), n.into()]);
        self.b.seal_block(head);
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        self.b.block_params(exit)[0]
    }

    /// The first (last) element's code of the codes at `at`, -1 when there is none (an
    /// empty zone's address is not read: it may point at no memory).
    fn end_code(&mut self, at: Reg, count: Reg, end: End) -> Reg {
        self.select(
            count,
            |g| {
                let i = match end {
                    End::First => g.b.ins().iconst(types::I64, 0),
                    End::Last => g.b.ins().iadd_imm(count, -1),
                };
                let offset = g.b.ins().imul_imm(i, 2);
                let addr = g.b.ins().iadd(at, offset);
                g.b.ins().uload16(types::I64, MemFlags::trusted(), addr, 0)
            },
            |g| g.b.ins().iconst(types::I64, -1),
        )
    }

    /// `ints[i] = v`, `i` checked against the state's length.
    pub fn store_int(&mut self, i: Reg, v: Reg) {
        let addr = self.int_at(i);
        self.b.ins().store(MemFlags::trusted(), v, addr, 0);
    }

    /// `ints[i]`, checked against the state's length.
    pub fn load_int(&mut self, i: Reg) -> Reg {
        let addr = self.int_at(i);
        self.b.ins().load(types::I64, MemFlags::trusted(), addr, 0)
    }

    /// The address of `ints[i]`; past the state's numbers, the walker's.
    fn int_at(&mut self, i: Reg) -> Reg {
        let len = self
            .b
            .ins()
            .load(types::I64, MemFlags::trusted(), self.cx, CTX_INTS_LEN);
        let outside = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
        self.bail_if(outside);
        let ints = self
            .b
            .ins()
            .load(self.ptr, MemFlags::trusted(), self.cx, CTX_INTS);
        let offset = self.b.ins().imul_imm(i, 8);
        self.b.ins().iadd(ints, offset)
    }

    /// Goes to the walker when `flag` holds.
    pub fn bail_if(&mut self, flag: Reg) {
        let go_on = self.b.create_block();
        self.b.ins().brif(flag, self.walker, &[], go_on, &[]);
        self.b.switch_to_block(go_on);
        self.b.seal_block(go_on);
    }

    /// `if c then (then) else (otherwise)`, each side generated in its own block.
    pub fn select(
        &mut self,
        c: Reg,
        then: impl FnOnce(&mut Self) -> Reg,
        otherwise: impl FnOnce(&mut Self) -> Reg,
    ) -> Reg {
        let (yes, no, join) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.append_block_param(join, types::I64);
        self.b.ins().brif(c, yes, &[], no, &[]);
        self.b.switch_to_block(yes);
        self.b.seal_block(yes);
        let v = then(self);
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(no);
        self.b.seal_block(no);
        let v = otherwise(self);
        self.b.ins().jump(join, &[v.into()]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.b.block_params(join)[0]
    }

    /// The node evaluated by the walker.
    fn walker(&mut self, e: &Expr, kind: Kind) -> Reg {
        match kind {
            Kind::Int => self.call_walker(walker_int, e),
            Kind::Bool => self.call_walker(walker_bool, e),
        }
    }

    pub fn call_walker(&mut self, helper: Helper, e: *const Expr) -> Reg {
        self.nodes.walker += 1;
        let mut sig = Signature::new(self.b.func.signature.call_conv);
        for _ in 0..3 {
            sig.params.push(AbiParam::new(self.ptr));
        }
        sig.returns.push(AbiParam::new(types::I64));
        let sig = self.b.import_signature(sig);
        let slot =
            self.b
                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let out = self.b.ins().stack_addr(self.ptr, slot, 0);
        // The walker reads the arguments of the function compiled in line, if any.
        let (params, len) = match &self.params {
            Some(p) => (
                self.b.ins().stack_addr(self.ptr, p.values, 0),
                self.b.ins().iconst(types::I64, p.regs.len() as i64 + 1),
            ),
            None => (
                self.b.ins().iconst(self.ptr, 0),
                self.b.ins().iconst(types::I64, 0),
            ),
        };
        self.b
            .ins()
            .store(MemFlags::trusted(), params, self.cx, CTX_PARAMS);
        self.b
            .ins()
            .store(MemFlags::trusted(), len, self.cx, CTX_PARAMS_LEN);
        let callee = self.b.ins().iconst(self.ptr, helper as usize as i64);
        let node = self.b.ins().iconst(self.ptr, e as i64);
        let call = self
            .b
            .ins()
            .call_indirect(sig, callee, &[self.cx, node, out]);
        let status = self.b.inst_results(call)[0];
        self.bail_if(status);
        self.b.ins().stack_load(types::I64, slot, 0)
    }
}

/// Which end of a zone.
#[derive(Clone, Copy)]
enum End {
    First,
    Last,
}

/// The address of zone instance `instance`'s codes (null when there is none), its length
/// written at `count`.
unsafe extern "C" fn zone_at(cx: *mut Ctx, instance: i64, count: i64) -> i64 {
    // SAFETY: compiled code passes its own `cx`, whose state is alive for the call;
    // `count` is the code's stack slot.
    let zones = unsafe { (*(*cx).state).zones() };
    match usize::try_from(instance).ok().and_then(|i| zones.get(i)) {
        Some(codes) => {
            unsafe { *(count as *mut i64) = codes.len() as i64 };
            // An empty zone's address may dangle: it is never read (counts are 0).
            codes.as_ptr() as i64
        }
        None => 0,
    }
}

/// [`zone_at`] for a search: its elements past `work::FREE_SCAN` counted as steps of
/// work, 0 (no address) past the budget.
unsafe extern "C" fn zone_searched(cx: *mut Ctx, instance: i64, count: i64) -> i64 {
    // SAFETY: as for `zone_at`, whose contract this is.
    let at = unsafe { zone_at(cx, instance, count) };
    // SAFETY: `zone_at` wrote the count to the code's stack slot.
    let n = unsafe { *(count as *const i64) } as usize;
    if at != 0
        && n > frontier_interpreter::work::FREE_SCAN
        && frontier_interpreter::work::charge_work(n as u64).is_err()
    {
        return 0;
    }
    at
}

/// Whether the compiler computes `e`'s own node (its operands may still be the walker's):
/// an expression whose root the walker would compute gains nothing from being compiled.
pub(crate) fn compiles_root(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Const(Value::Int(_) | Value::Bool(_))
            | Expr::Local(_)
            | Expr::Var {
                code: Code::Int | Code::Bool,
                ..
            }
            | Expr::VarAtKey {
                code: Code::Int | Code::Bool,
                ..
            }
            | Expr::ColumnKey { .. }
            | Expr::Arith {
                op: ArithOp::Add | ArithOp::Sub | ArithOp::Mul,
                ..
            }
            | Expr::Compare { .. }
            | Expr::IsNone { .. }
            | Expr::Same { .. }
            | Expr::Not(_)
            | Expr::And(..)
            | Expr::Or(..)
            | Expr::If { .. }
            | Expr::UnrolledTest { .. }
            | Expr::UnrolledTotal { .. }
    )
}

/// A constant column's values as numbers (true is 1), when they all are of `kind`
/// (the walker reads a column of another type as an error).
fn column_numbers(values: &[Value], kind: Kind) -> Option<Box<[i64]>> {
    values
        .iter()
        .map(|v| match (v, kind) {
            (Value::Int(n), Kind::Int) => Some(*n),
            (Value::Bool(b), Kind::Bool) => Some(*b as i64),
            _ => None,
        })
        .collect()
}
