//! Counting what a guest executes, function by function, without an engine's help: a copy
//! of the module with a counter at the head of every straight run of code (a region: from
//! a branch target or the instruction after a branch to the next such point), and a
//! `_start` that, once the program is done (or calls `proc_exit`), writes the counters to
//! stdout after a marker. What each region holds is known from its code, so one counter
//! per region gives, per function, the instructions it executed, its entries, its calls to
//! each callee (helpers such as `__multi3` among them), its indirect calls, memory
//! accesses and `memory.grow`s.
//!
//! An engine whose machine code cannot be named (an interpreter's loop, Singlepass's
//! unnamed code) has its samples put on functions in proportion to the instructions each
//! executed ([`Counts::spread`]); an engine that is named gets the counts beside its
//! functions as causes. Every engine runs the same counting copy, so counts are the
//! guest's, not the engine's.

use std::collections::BTreeMap;
use wasmparser::{Operator, Parser, Payload, TypeRef};

use crate::store::{Counts, FunctionCounts};

/// What a counting run's output starts with, before the counter values.
const MARKER: &[u8; 8] = b"WMCOUNT1";
/// Where the dump writes in linear memory (the program has ended, so it may).
const IOVEC: i32 = 0;
const NWRITTEN: i32 = 8;
const HEADER: i32 = 16;
const VALUES: i32 = 32;

/// A module made to count, and what each of its counters counts.
#[derive(Debug, Clone)]
pub struct Counting {
    /// The counting copy of the module.
    pub module: Vec<u8>,
    /// Each counter's region, in counter order.
    regions: Vec<Region>,
    /// Every function's name by index, imports first.
    names: Vec<String>,
    /// Imported functions' count: indexes below it are the host's.
    imported: u32,
}

/// What one region holds, executed once each time its counter goes up.
#[derive(Debug, Clone, Default)]
struct Region {
    /// The function (index in the function space).
    function: u32,
    /// Whether it is the function's first: its count is the function's entries.
    entry: bool,
    /// Instructions, weighted as an engine spends time on them ([`weight`]).
    work: u64,
    /// Instructions, each one.
    instructions: u64,
    /// Loads and stores.
    memory: u64,
    /// `call_indirect`s (and `return_call_indirect`s).
    indirect: u64,
    /// `memory.grow`s.
    grows: u64,
    /// Direct calls, by callee index (repeated per call site).
    calls: Vec<u32>,
}

/// How much of an engine's time an instruction stands for: the structure of the code
/// (`block`, `loop`, `end`, `else`, `nop`) and reading a local are free in every engine
/// here (the interpreters fold `local.get` into the next instruction's operands, compilers
/// into a register); everything else is one.
fn weight(op: &Operator) -> u64 {
    match op {
        Operator::Block { .. }
        | Operator::Loop { .. }
        | Operator::End
        | Operator::Else
        | Operator::Nop
        | Operator::LocalGet { .. } => 0,
        _ => 1,
    }
}

/// Whether the instruction after `op` starts a region: `op` branches, or is branched to
/// (a loop's head, an `if`'s arms, the join after `end`).
fn ends_region(op: &Operator) -> bool {
    matches!(
        op,
        Operator::Loop { .. }
            | Operator::If { .. }
            | Operator::Else
            | Operator::End
            | Operator::Br { .. }
            | Operator::BrIf { .. }
            | Operator::BrTable { .. }
            | Operator::BrOnNull { .. }
            | Operator::BrOnNonNull { .. }
            | Operator::BrOnCast { .. }
            | Operator::BrOnCastFail { .. }
            | Operator::Return
            | Operator::ReturnCall { .. }
            | Operator::ReturnCallIndirect { .. }
            | Operator::ReturnCallRef { .. }
            | Operator::Unreachable
            | Operator::Throw { .. }
            | Operator::ThrowRef
            | Operator::Rethrow { .. }
            | Operator::Try { .. }
            | Operator::Catch { .. }
            | Operator::CatchAll
            | Operator::Delegate { .. }
            | Operator::TryTable { .. }
    )
}

fn uleb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn sleb(out: &mut Vec<u8>, mut v: i64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            return;
        }
    }
}

/// A vector section's contents with `items` more entries appended.
fn append_items(contents: &[u8], added: u32, items: &[u8]) -> Result<Vec<u8>, String> {
    let (count, n) = super::names::leb128(contents).ok_or("a section's count is cut short")?;
    let mut out = Vec::with_capacity(contents.len() + items.len() + 5);
    uleb(&mut out, count + u64::from(added));
    out.extend_from_slice(&contents[n..]);
    out.extend_from_slice(items);
    Ok(out)
}

fn section(out: &mut Vec<u8>, id: u8, contents: &[u8]) {
    out.push(id);
    uleb(out, contents.len() as u64);
    out.extend_from_slice(contents);
}

/// The bytes of `global.get g; i64.const 1; i64.add; global.set g`.
fn increment(out: &mut Vec<u8>, global: u32) {
    out.push(0x23);
    uleb(out, u64::from(global));
    out.extend_from_slice(&[0x42, 0x01, 0x7c, 0x24]);
    uleb(out, u64::from(global));
}

fn i32_const(out: &mut Vec<u8>, v: i32) {
    out.push(0x41);
    sleb(out, i64::from(v));
}

fn call(out: &mut Vec<u8>, function: u32) {
    out.push(0x10);
    uleb(out, u64::from(function));
}

/// A function body: no locals, `code`, `end`.
fn body(code: &[u8]) -> Vec<u8> {
    let mut f = vec![0x00];
    f.extend_from_slice(code);
    f.push(0x0b);
    let mut out = Vec::new();
    uleb(&mut out, f.len() as u64);
    out.extend_from_slice(&f);
    out
}

/// What the instrumenter needs of the module before it rewrites the code.
#[derive(Default)]
struct Shape {
    imported_functions: u32,
    imported_globals: u32,
    defined_globals: u32,
    types: u32,
    /// Each function's type, imports first.
    function_types: Vec<u32>,
    names: BTreeMap<u32, String>,
    import_names: Vec<String>,
    fd_write: Option<u32>,
    proc_exit: Option<u32>,
    start: Option<u32>,
    memory: Option<bool>,
}

impl Shape {
    fn read(bytes: &[u8]) -> Result<Shape, String> {
        let mut s = Shape::default();
        for payload in Parser::new(0).parse_all(bytes) {
            match payload.map_err(|e| e.to_string())? {
                Payload::TypeSection(r) => s.types = r.count(),
                Payload::ImportSection(r) => {
                    for import in r.into_imports() {
                        let import = import.map_err(|e| e.to_string())?;
                        match import.ty {
                            TypeRef::Func(t) | TypeRef::FuncExact(t) => {
                                let index = s.imported_functions;
                                if import.module.starts_with("wasi_snapshot_preview1")
                                    || import.module == "wasi_unstable"
                                {
                                    match import.name {
                                        "fd_write" => s.fd_write = Some(index),
                                        "proc_exit" => s.proc_exit = Some(index),
                                        _ => {}
                                    }
                                }
                                s.import_names.push(import.name.to_string());
                                s.function_types.push(t);
                                s.imported_functions += 1;
                            }
                            TypeRef::Global(_) => s.imported_globals += 1,
                            TypeRef::Memory(m) if s.memory.is_none() => s.memory = Some(m.memory64),
                            _ => {}
                        }
                    }
                }
                Payload::FunctionSection(r) => {
                    for t in r {
                        s.function_types.push(t.map_err(|e| e.to_string())?);
                    }
                }
                Payload::MemorySection(r) => {
                    for m in r {
                        let m = m.map_err(|e| e.to_string())?;
                        if s.memory.is_none() {
                            s.memory = Some(m.memory64);
                        }
                    }
                }
                Payload::GlobalSection(r) => s.defined_globals = r.count(),
                Payload::ExportSection(r) => {
                    for e in r {
                        let e = e.map_err(|e| e.to_string())?;
                        if e.name == "_start" && e.kind == wasmparser::ExternalKind::Func {
                            s.start = Some(e.index);
                        }
                    }
                }
                Payload::CustomSection(c) => {
                    if let wasmparser::KnownCustom::Name(names) = c.as_known() {
                        for n in names.flatten() {
                            if let wasmparser::Name::Function(map) = n {
                                for naming in map.into_iter().flatten() {
                                    s.names.insert(naming.index, naming.name.to_string());
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(s)
    }

    fn name(&self, index: u32) -> String {
        if let Some(import) = self.import_names.get(index as usize) {
            return import.clone();
        }
        self.names
            .get(&index)
            .cloned()
            .unwrap_or_else(|| format!("function[{index}]"))
    }
}

/// Why a module cannot be counted, in words after "cannot count: ".
fn refuse(why: &str) -> String {
    format!("cannot count its instructions: {why}")
}

impl Counting {
    /// The counting copy of a WASI command module.
    pub fn new(bytes: &[u8]) -> Result<Counting, String> {
        let shape = Shape::read(bytes)?;
        let start = shape
            .start
            .ok_or_else(|| refuse("it exports no _start (a WASI command's entry)"))?;
        let fd_write = shape
            .fd_write
            .ok_or_else(|| refuse("it imports no fd_write to write the counts with"))?;
        match shape.memory {
            None => return Err(refuse("it has no memory to write the counts from")),
            Some(true) => return Err(refuse("its memory is 64-bit")),
            Some(false) => {}
        }
        let defined = shape.function_types.len() as u32 - shape.imported_functions;
        if shape.types == 0 || defined == 0 {
            return Err(refuse("it has no functions of its own"));
        }
        // New functions after the module's own, new types and globals after its own: no
        // index the module uses moves.
        let dump = shape.imported_functions + defined;
        let wrap_start = dump + 1;
        let dump_exit = shape.proc_exit.map(|_| dump + 2);
        let void_type = shape.types;
        let first_counter = shape.imported_globals + shape.defined_globals;

        let mut regions: Vec<Region> = Vec::new();
        let mut code_items = Vec::new();
        let mut defined_seen = 0u32;
        let mut out = bytes[..8].to_vec();
        let mut globals_written = false;
        let mut sections: Vec<(u8, Vec<u8>)> = Vec::new();
        for payload in Parser::new(0).parse_all(bytes) {
            let payload = payload.map_err(|e| e.to_string())?;
            match &payload {
                Payload::CodeSectionEntry(b) => {
                    let function = shape.imported_functions + defined_seen;
                    defined_seen += 1;
                    let rewritten = rewrite(
                        bytes,
                        b,
                        function,
                        first_counter,
                        &mut regions,
                        shape.proc_exit.zip(dump_exit),
                    )?;
                    uleb(&mut code_items, rewritten.len() as u64);
                    code_items.extend_from_slice(&rewritten);
                    continue;
                }
                Payload::CodeSectionStart { .. } => {
                    sections.push((10, Vec::new()));
                    continue;
                }
                _ => {}
            }
            // Without its name section: wasm3 finds `_start` by a function's own name as
            // well as by export, and would find the one the counting `_start` wraps.
            if let Payload::CustomSection(c) = &payload
                && c.name() == "name"
            {
                continue;
            }
            if let Some((id, range)) = payload.as_section() {
                sections.push((id, bytes[range].to_vec()));
            }
        }
        let counters = regions.len() as u32;
        let done_flag = first_counter + counters;
        // The new functions' code: the dump, the wrapped start, the wrapped proc_exit.
        let mut new_bodies = Vec::new();
        new_bodies.extend(body(&dump_code(
            first_counter,
            counters,
            done_flag,
            fd_write,
        )));
        let mut code = Vec::new();
        call(&mut code, start);
        call(&mut code, dump);
        new_bodies.extend(body(&code));
        if let (Some(exit), Some(_)) = (shape.proc_exit, dump_exit) {
            let mut code = Vec::new();
            call(&mut code, dump);
            code.extend_from_slice(&[0x20, 0x00]);
            call(&mut code, exit);
            new_bodies.extend(body(&code));
        }
        let added_functions = 2 + u32::from(dump_exit.is_some());
        let mut global_items = Vec::new();
        for _ in 0..=counters {
            // mut i64 = 0
            global_items.extend_from_slice(&[0x7e, 0x01, 0x42, 0x00, 0x0b]);
        }
        let order = |id: u8| -> u8 {
            // Where a section goes among the known ones (custom sections keep their place).
            match id {
                1 => 1,
                2 => 2,
                3 => 3,
                4 => 4,
                5 => 5,
                13 => 6,
                6 => 7,
                7 => 8,
                8 => 9,
                9 => 10,
                12 => 11,
                10 => 12,
                11 => 13,
                _ => 0,
            }
        };
        for (id, contents) in sections {
            if !globals_written && id != 0 && order(id) > order(6) {
                let mut items = Vec::new();
                uleb(&mut items, u64::from(counters + 1));
                items.extend_from_slice(&global_items);
                section(&mut out, 6, &items);
                globals_written = true;
            }
            match id {
                1 => {
                    // () -> ()
                    section(
                        &mut out,
                        1,
                        &append_items(&contents, 1, &[0x60, 0x00, 0x00])?,
                    );
                }
                3 => {
                    let mut items = Vec::new();
                    uleb(&mut items, u64::from(void_type));
                    uleb(&mut items, u64::from(void_type));
                    if let Some(exit) = shape.proc_exit {
                        uleb(&mut items, u64::from(shape.function_types[exit as usize]));
                    }
                    section(
                        &mut out,
                        3,
                        &append_items(&contents, added_functions, &items)?,
                    );
                }
                6 => {
                    section(
                        &mut out,
                        6,
                        &append_items(&contents, counters + 1, &global_items)?,
                    );
                    globals_written = true;
                }
                7 => section(&mut out, 7, &exports(&contents, wrap_start)?),
                10 => {
                    let mut items = Vec::new();
                    uleb(&mut items, u64::from(defined + added_functions));
                    items.extend_from_slice(&code_items);
                    items.extend_from_slice(&new_bodies);
                    section(&mut out, 10, &items);
                }
                _ => section(&mut out, id, &contents),
            }
        }
        let names = (0..shape.function_types.len() as u32)
            .map(|i| shape.name(i))
            .collect();
        Ok(Counting {
            module: out,
            regions,
            names,
            imported: shape.imported_functions,
        })
    }

    /// The name of the module's function at `index` (imports first), as its counts name it.
    pub fn name(&self, index: u32) -> Option<&str> {
        self.names.get(index as usize).map(String::as_str)
    }

    /// Bytes the counting run writes after the program's own output.
    pub fn output_len(&self) -> usize {
        VALUES as usize + 8 * self.regions.len()
    }

    /// The counts a counting run wrote at the end of its stdout, by function.
    pub fn read(&self, stdout: &[u8]) -> Result<Counts, String> {
        let at = stdout
            .windows(MARKER.len())
            .rposition(|w| w == MARKER)
            .ok_or("the counting run wrote no counts (did it end before its _start returned?)")?;
        let rest = &stdout[at + 8..];
        let n = rest
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
            .ok_or("the counts are cut short")?;
        if n != self.regions.len() as u64 || rest.len() < 8 + 8 * self.regions.len() {
            return Err(format!(
                "the counting run wrote {} of {} counters",
                rest.len().saturating_sub(8) / 8,
                self.regions.len()
            ));
        }
        let mut functions: BTreeMap<String, FunctionCounts> = BTreeMap::new();
        for (k, region) in self.regions.iter().enumerate() {
            let at = 8 + 8 * k;
            let times = u64::from_le_bytes(rest[at..at + 8].try_into().unwrap_or_default());
            if times == 0 {
                continue;
            }
            let f = functions
                .entry(self.names[region.function as usize].replace(';', ":"))
                .or_default();
            if region.entry {
                f.entries += times;
            }
            f.work += times * region.work;
            f.instructions += times * region.instructions;
            f.memory += times * region.memory;
            f.indirect += times * region.indirect;
            f.grows += times * region.grows;
            for callee in &region.calls {
                let name = self.names[*callee as usize].replace(';', ":");
                if *callee < self.imported {
                    *f.host_calls.entry(name).or_insert(0) += times;
                } else {
                    *f.calls.entry(name).or_insert(0) += times;
                }
            }
        }
        Ok(Counts {
            functions,
            run_ns: 0,
        })
    }
}

/// Each function's weighted instructions: what [`spread`] shares by for a counted engine.
pub fn work(counts: &Counts) -> BTreeMap<String, u64> {
    counts
        .functions
        .iter()
        .map(|(name, f)| (name.clone(), f.work))
        .collect()
}

/// Puts the samples pooled under `pooled` (the pseudo-frame of an engine whose code has
/// no names) on the functions that ran, each in proportion to its weight (the weighted
/// instructions it executed, [`work`], or the ticks of the engine's mark, [`super::marks`]),
/// by largest remainders so that no sample is made or lost. Returns how many were spread.
pub fn spread(
    stacks: &mut BTreeMap<String, u64>,
    pooled: &str,
    weights: &BTreeMap<String, u64>,
) -> u64 {
    let total: u64 = weights.values().sum();
    let Some(samples) = stacks.get(pooled).copied().filter(|_| total > 0) else {
        return 0;
    };
    let mut shares: Vec<(&String, u64, u128)> = weights
        .iter()
        .filter(|(_, w)| **w > 0)
        .map(|(name, w)| {
            let exact = u128::from(samples) * u128::from(*w);
            let whole = (exact / u128::from(total)) as u64;
            (name, whole, exact % u128::from(total))
        })
        .collect();
    let given: u64 = shares.iter().map(|s| s.1).sum();
    shares.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    for s in shares.iter_mut().take((samples - given) as usize) {
        s.1 += 1;
    }
    stacks.remove(pooled);
    for (name, n, _) in shares {
        if n > 0 {
            *stacks.entry(name.clone()).or_insert(0) += n;
        }
    }
    samples
}

/// The export section with `_start` pointing at the counting start.
fn exports(contents: &[u8], wrap_start: u32) -> Result<Vec<u8>, String> {
    let reader = wasmparser::ExportSectionReader::new(wasmparser::BinaryReader::new(contents, 0))
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    uleb(&mut out, u64::from(reader.count()));
    for e in reader {
        let e = e.map_err(|e| e.to_string())?;
        uleb(&mut out, e.name.len() as u64);
        out.extend_from_slice(e.name.as_bytes());
        let kind = match e.kind {
            wasmparser::ExternalKind::Func | wasmparser::ExternalKind::FuncExact => 0,
            wasmparser::ExternalKind::Table => 1,
            wasmparser::ExternalKind::Memory => 2,
            wasmparser::ExternalKind::Global => 3,
            wasmparser::ExternalKind::Tag => 4,
        };
        out.push(kind);
        let index = if e.name == "_start" && kind == 0 {
            wrap_start
        } else {
            e.index
        };
        uleb(&mut out, u64::from(index));
    }
    Ok(out)
}

/// The dump: once, grow memory if it must, write the marker, the number of counters and
/// each counter after it, and hand them to `fd_write(1, …)`.
fn dump_code(first: u32, counters: u32, done: u32, fd_write: u32) -> Vec<u8> {
    let mut c = Vec::new();
    // if (done) return; done = 1
    c.push(0x23);
    uleb(&mut c, u64::from(done));
    c.extend_from_slice(&[0xa7, 0x04, 0x40, 0x0f, 0x0b]); // i32.wrap_i64; if; return; end
    c.extend_from_slice(&[0x42, 0x01, 0x24]);
    uleb(&mut c, u64::from(done));
    let bytes = VALUES as u64 + 8 * u64::from(counters);
    let pages = bytes.div_ceil(65536) as i32;
    // if (memory.size < pages) memory.grow(pages - memory.size)
    c.extend_from_slice(&[0x3f, 0x00]);
    i32_const(&mut c, pages);
    c.extend_from_slice(&[0x49, 0x04, 0x40]); // i32.lt_u; if
    i32_const(&mut c, pages);
    c.extend_from_slice(&[0x3f, 0x00, 0x6b, 0x40, 0x00, 0x1a, 0x0b]); // size; sub; grow; drop; end
    let store32 = |c: &mut Vec<u8>, at: i32, v: i32| {
        i32_const(c, at);
        i32_const(c, v);
        c.extend_from_slice(&[0x36, 0x02, 0x00]);
    };
    store32(&mut c, IOVEC, HEADER);
    store32(&mut c, IOVEC + 4, bytes as i32 - HEADER);
    i32_const(&mut c, HEADER);
    c.push(0x42);
    sleb(&mut c, i64::from_le_bytes(*MARKER));
    c.extend_from_slice(&[0x37, 0x03, 0x00]);
    i32_const(&mut c, HEADER + 8);
    c.push(0x42);
    sleb(&mut c, i64::from(counters));
    c.extend_from_slice(&[0x37, 0x03, 0x00]);
    for k in 0..counters {
        i32_const(&mut c, VALUES + 8 * k as i32);
        c.push(0x23);
        uleb(&mut c, u64::from(first + k));
        c.extend_from_slice(&[0x37, 0x03, 0x00]);
    }
    i32_const(&mut c, 1);
    i32_const(&mut c, IOVEC);
    i32_const(&mut c, 1);
    i32_const(&mut c, NWRITTEN);
    call(&mut c, fd_write);
    c.push(0x1a);
    c
}

/// Whether an instruction (its first byte, and the instruction) loads or stores: the core
/// loads and stores by opcode, without a string per instruction; SIMD's and the atomics'
/// (prefixed opcodes) by whether they take a memory argument.
fn is_memory_access(first: u8, op: &Operator) -> bool {
    match first {
        0x28..=0x3e => true,
        0xfd | 0xfe => format!("{op:?}").contains("memarg"),
        _ => false,
    }
}

/// One function's body with a counter at the head of each region, and its calls of
/// `proc_exit` sent through the dump first.
fn rewrite(
    module: &[u8],
    b: &wasmparser::FunctionBody,
    function: u32,
    first_counter: u32,
    regions: &mut Vec<Region>,
    exit: Option<(u32, u32)>,
) -> Result<Vec<u8>, String> {
    let range = b.range();
    let mut ops = b.get_operators_reader().map_err(|e| e.to_string())?;
    let code_start = ops.original_position();
    let mut out = module[range.start..code_start].to_vec();
    let mut copied = code_start;
    let mut open = true;
    let mut region = Region {
        function,
        entry: true,
        ..Region::default()
    };
    let mut depth = 0u32;
    // Instructions of the open region before its counter: free ones, which need none.
    let mut pending = 0u64;
    let mut entry = true;
    while !ops.eof() {
        let (op, at) = ops.read_with_offset().map_err(|e| e.to_string())?;
        let next = ops.original_position();
        pending += 1;
        // A region's counter goes before its first instruction that costs or is counted:
        // a region of a block's structure alone (an `end` after a branch) needs none.
        if open && (entry || weight(&op) > 0) {
            out.extend_from_slice(&module[copied..at]);
            copied = at;
            increment(&mut out, first_counter + regions.len() as u32);
            open = false;
            entry = false;
        }
        if !open {
            region.instructions += pending;
            pending = 0;
        }
        region.work += weight(&op);
        match &op {
            Operator::Call { function_index } => {
                region.calls.push(*function_index);
                if let Some((proc_exit, dump_exit)) = exit
                    && *function_index == proc_exit
                {
                    out.extend_from_slice(&module[copied..at]);
                    call(&mut out, dump_exit);
                    copied = next;
                }
            }
            Operator::ReturnCall { function_index } => region.calls.push(*function_index),
            Operator::CallIndirect { .. } | Operator::ReturnCallIndirect { .. } => {
                region.indirect += 1
            }
            Operator::MemoryGrow { .. } => region.grows += 1,
            Operator::Block { .. }
            | Operator::Loop { .. }
            | Operator::If { .. }
            | Operator::Try { .. }
            | Operator::TryTable { .. } => depth += 1,
            _ => {
                if is_memory_access(module[at], &op) {
                    region.memory += 1;
                }
            }
        }
        let end_of_function = matches!(op, Operator::End) && depth == 0;
        if matches!(op, Operator::End) {
            depth = depth.saturating_sub(1);
        }
        if ends_region(&op) && !end_of_function {
            let done = std::mem::replace(
                &mut region,
                Region {
                    function,
                    ..Region::default()
                },
            );
            if !open {
                regions.push(done);
            }
            open = true;
            pending = 0;
        }
    }
    // The last region runs to the function's `end`.
    if !open {
        regions.push(region);
    }
    out.extend_from_slice(&module[copied..range.end]);
    // The body's size prefix is the caller's: `out` is the locals and the code.
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command that calls `work` three times; `work` loops five times over a load and a
    /// call of `helper`, then `_start` exits through `proc_exit`.
    const COMMAND: &str = r#"(module
      (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
      (memory 1)
      (global $g (mut i32) (i32.const 0))
      (func $helper (param i64) (result i64) local.get 0 i64.const 3 i64.mul)
      (func $work (local $i i32)
        (loop $l
          i32.const 64
          i32.load
          drop
          i64.const 1
          call $helper
          drop
          local.get $i
          i32.const 1
          i32.add
          local.tee $i
          i32.const 5
          i32.lt_u
          br_if $l))
      (func $_start
        call $work call $work call $work
        i32.const 0
        call $proc_exit)
      (export "memory" (memory 0))
      (export "_start" (func $_start)))"#;

    #[test]
    fn a_counting_copy_validates_and_keeps_every_index() {
        let bytes = wat::parse_str(COMMAND).unwrap();
        let c = Counting::new(&bytes).unwrap();
        wasmparser::Validator::new()
            .validate_all(&c.module)
            .unwrap();
        // helper: one region; work: its entry and the loop's body (what follows the loop
        // is its structure alone, uncounted); _start: its entry.
        let per: Vec<u32> = c.regions.iter().map(|r| r.function).collect();
        assert_eq!(per, [2, 3, 3, 4], "{:?}", c.regions);
        assert_eq!(c.names[3], "work");
        assert_eq!(c.names[1], "proc_exit");
        // The loop's body: a load, a call of helper, and its branch back.
        let body = &c.regions[2];
        assert_eq!((body.memory, body.calls.as_slice()), (1, &[2u32][..]));
        // Its weight leaves out local.get (once) and counts the rest of its 13.
        assert_eq!((body.instructions, body.work), (13, 12));
    }

    #[test]
    fn counts_are_read_by_function_and_a_short_dump_is_refused() {
        let bytes = wat::parse_str(COMMAND).unwrap();
        let c = Counting::new(&bytes).unwrap();
        let mut out = b"the program's own output\n".to_vec();
        out.extend_from_slice(MARKER);
        out.extend_from_slice(&4u64.to_le_bytes());
        for v in [15u64, 3, 15, 1] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let counts = c.read(&out).unwrap();
        let work = &counts.functions["work"];
        assert_eq!(work.entries, 3);
        assert_eq!(work.calls["helper"], 15);
        assert_eq!(work.memory, 15);
        assert_eq!(counts.functions["helper"].entries, 15);
        assert_eq!(counts.functions["_start"].host_calls["proc_exit"], 1);
        let cut = &out[..out.len() - 8];
        assert!(c.read(cut).unwrap_err().contains("3 of 4"));
        assert!(c.read(b"no counts").is_err());
    }

    #[test]
    fn spreading_keeps_every_sample() {
        let mut counts = Counts::default();
        for (name, work) in [("a", 6u64), ("b", 3), ("c", 1)] {
            counts.functions.insert(
                name.into(),
                FunctionCounts {
                    work,
                    ..FunctionCounts::default()
                },
            );
        }
        let mut stacks: BTreeMap<String, u64> = [
            ("[engine & host]".to_string(), 101),
            ("[kernel]".to_string(), 4),
        ]
        .into();
        assert_eq!(spread(&mut stacks, "[engine & host]", &work(&counts)), 101);
        assert_eq!(stacks["a"] + stacks["b"] + stacks["c"], 101);
        assert_eq!((stacks["a"], stacks["b"], stacks["c"]), (61, 30, 10));
        assert_eq!(stacks["[kernel]"], 4);
        assert!(!stacks.contains_key("[engine & host]"));
    }

    #[test]
    fn the_suites_modules_count_and_a_module_that_cannot_is_named() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../suites");
        let mut counted = 0;
        for suite in ["compute", "calibration"] {
            for entry in std::fs::read_dir(root.join(suite).join("wasm")).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "wasm") {
                    let bytes = std::fs::read(&path).unwrap();
                    let c =
                        Counting::new(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    wasmparser::Validator::new()
                        .validate_all(&c.module)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    counted += 1;
                }
            }
        }
        assert!(counted > 20, "{counted}");
        let reactor = wat::parse_str("(module (memory 1) (func (export \"f\")))").unwrap();
        assert!(Counting::new(&reactor).unwrap_err().contains("no _start"));
    }

    #[test]
    fn leb_round_trips() {
        for v in [0u64, 1, 127, 128, 300, 1 << 40] {
            let mut b = Vec::new();
            uleb(&mut b, v);
            assert_eq!(crate::profile::names::leb128(&b), Some((v, b.len())));
        }
        let mut b = Vec::new();
        sleb(&mut b, -1);
        assert_eq!(b, [0x7f]);
        let mut b = Vec::new();
        sleb(&mut b, 64);
        assert_eq!(b, [0xc0, 0x00]);
    }
}
