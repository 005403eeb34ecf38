//! The checks in an engine's machine code, counted per function from the code itself: every
//! branch to a trap (x86-64 `ud2`, or Singlepass's `ud1`), classed by the wasm instruction
//! the engine's address map says it was made for, or by the trap's own code where it carries
//! one (Singlepass's). Counted, not guessed: a function whose loads compile to no branch
//! (wasmtime's guard pages) shows no bounds checks, and one whose `call_indirect` checks
//! its callee's signature shows those branches.

use super::code::{CompiledFunction, function_bodies};
use crate::store::CodeChecks;
use std::collections::BTreeMap;

/// Each function's checks, by name, from its machine code and the module it came from
/// (whose byte offsets the address maps give). `None` on an architecture this build cannot
/// decode.
pub fn count(
    module: &[u8],
    functions: &[CompiledFunction],
) -> Option<BTreeMap<String, CodeChecks>> {
    if functions.iter().any(|f| f.arch != "x86_64") {
        return None;
    }
    let bodies = function_bodies(module);
    Some(
        functions
            .iter()
            .map(|f| {
                let first_op = bodies.get(&f.index).and_then(|(_, op)| *op);
                (f.name.replace(';', ":"), of_function(module, f, first_op))
            })
            .collect(),
    )
}

/// One function's checks: each conditional branch whose target is a trap, and each trap no
/// branch reaches (an `unreachable`), by the wasm instruction at that branch.
fn of_function(module: &[u8], f: &CompiledFunction, first_op: Option<usize>) -> CodeChecks {
    use iced_x86::{Code, Decoder, DecoderOptions, Mnemonic as M};
    let decoded: Vec<iced_x86::Instruction> =
        Decoder::with_ip(64, &f.code, 0, DecoderOptions::NONE)
            .into_iter()
            .collect();
    // Where each trap is, and the trap's own code where it carries one: wasmtime and
    // Cranelift trap with `ud2`, Singlepass with `ud1`, whose registers hold wasmer's
    // trap code.
    let traps: BTreeMap<u64, Option<u32>> = decoded
        .iter()
        .filter_map(|i| match i.code() {
            Code::Ud2 => Some((i.ip(), None)),
            Code::Ud1_r16_rm16 | Code::Ud1_r32_rm32 | Code::Ud1_r64_rm64 => {
                Some((i.ip(), ud1_code(i, &f.code)))
            }
            _ => None,
        })
        .collect();
    let mut checks = CodeChecks::default();
    let mut reached = std::collections::BTreeSet::new();
    for i in &decoded {
        let jcc = matches!(
            i.mnemonic(),
            M::Jo
                | M::Jno
                | M::Jb
                | M::Jae
                | M::Je
                | M::Jne
                | M::Jbe
                | M::Ja
                | M::Js
                | M::Jns
                | M::Jp
                | M::Jnp
                | M::Jl
                | M::Jge
                | M::Jle
                | M::Jg
        );
        if let Some(code) = traps.get(&i.near_branch_target()).filter(|_| jcc) {
            reached.insert(i.near_branch_target());
            let at = i.ip() as u32;
            let k = match code {
                // A table's bounds: an indirect call's, or a table instruction's. Singlepass
                // maps only the instruction's own code, which follows its checks.
                Some(TABLE_BOUNDS) => match kind(module, wasm_at(f, at).or(wasm_next(f, at)), None)
                {
                    Kind::Indirect => Kind::Indirect,
                    _ => Kind::Other,
                },
                Some(code) => trap_kind(*code),
                None => kind(module, wasm_at(f, at), first_op),
            };
            add(&mut checks, k);
        }
    }
    // A trap in the straight line of the code, not a branch's target: `unreachable`. (A
    // Singlepass function ends in one trap of each kind it may branch to, reached or not:
    // only its `unreachable` code counts.)
    checks.other += traps
        .iter()
        .filter(|(t, code)| !reached.contains(*t) && code.is_none_or(|c| c == UNREACHABLE))
        .count() as u32;
    checks
}

/// wasmer's trap code for `unreachable` (`TrapCode::UnreachableCodeReached`).
const UNREACHABLE: u32 = 9;
/// wasmer's trap code for a table's bounds (`TrapCode::TableAccessOutOfBounds`).
const TABLE_BOUNDS: u32 = 3;

/// The trap code Singlepass puts in a `ud1` (`emit_ud1_payload`): its ModRM byte's reg
/// field's low bit, then its register operand's three bits.
fn ud1_code(i: &iced_x86::Instruction, code: &[u8]) -> Option<u32> {
    let modrm = *code.get(i.ip() as usize + i.len() - 1)?;
    (modrm >> 6 == 0b11).then_some(u32::from(((modrm >> 3) & 1) << 3 | (modrm & 7)))
}

/// What a check guards, by wasmer's trap code (`wasmer_types::TrapCode`).
fn trap_kind(code: u32) -> Kind {
    match code {
        0 => Kind::Stack,
        // out of bounds, misaligned; an unaligned atomic
        1 | 2 | 10 => Kind::Bounds,
        // a null entry, a bad signature
        4 | 5 => Kind::Indirect,
        // overflow, division by zero, a bad conversion
        6..=8 => Kind::Arithmetic,
        _ => Kind::Other,
    }
}

/// What a check guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Stack,
    Bounds,
    Indirect,
    Arithmetic,
    Other,
}

fn add(c: &mut CodeChecks, k: Kind) {
    match k {
        Kind::Stack => c.stack += 1,
        Kind::Bounds => c.bounds += 1,
        Kind::Indirect => c.indirect += 1,
        Kind::Arithmetic => c.arithmetic += 1,
        Kind::Other => c.other += 1,
    }
}

/// The wasm byte offset of the instruction whose code holds `offset`, by the address map
/// (the last entry at or before it); `None` for code of no instruction.
fn wasm_at(f: &CompiledFunction, offset: u32) -> Option<u32> {
    let i = f.address_map.partition_point(|(o, _)| *o <= offset);
    i.checked_sub(1).and_then(|i| f.address_map[i].1)
}

/// The wasm byte offset of the first instruction whose code starts after `offset`.
fn wasm_next(f: &CompiledFunction, offset: u32) -> Option<u32> {
    let i = f.address_map.partition_point(|(o, _)| *o <= offset);
    f.address_map[i..].iter().find_map(|(_, w)| *w)
}

/// What the wasm instruction at `at` is, as a check guards it. Code of no instruction, or of
/// the function's entry before its first instruction (its locals), is the stack's check.
fn kind(module: &[u8], at: Option<u32>, first_op: Option<usize>) -> Kind {
    let Some(at) = at.map(|a| a as usize) else {
        return Kind::Stack;
    };
    if first_op.is_some_and(|op| at < op) {
        return Kind::Stack;
    }
    let Some(&op) = module.get(at) else {
        return Kind::Other;
    };
    let sub = || {
        module
            .get(at + 1..)
            .and_then(super::names::leb128)
            .map(|(v, _)| v)
    };
    match op {
        // call_indirect, return_call_indirect, call_ref, return_call_ref
        0x11 | 0x13 | 0x14 | 0x15 => Kind::Indirect,
        // loads and stores, memory.size/grow excluded
        0x28..=0x3e => Kind::Bounds,
        // i32/i64 div and rem; float-to-int truncations
        0x6d..=0x70 | 0x7f..=0x82 | 0xa8..=0xb1 => Kind::Arithmetic,
        // memory.init/copy/fill
        0xfc if matches!(sub(), Some(8 | 10 | 11)) => Kind::Bounds,
        // SIMD loads and stores, lane loads and stores
        0xfd if matches!(sub(), Some(0..=11 | 84..=93)) => Kind::Bounds,
        // atomics: every one but fence touches memory
        0xfe if sub().is_some_and(|s| s != 3) => Kind::Bounds,
        _ => Kind::Other,
    }
}
