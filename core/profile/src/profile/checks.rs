//! The checks in an engine's machine code, counted per function from the code itself: every
//! branch to a trap (x86-64 `ud2`), classed by the wasm instruction the engine's address map
//! says it was made for. Counted, not guessed: a function whose loads compile to no branch
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

/// One function's checks: each conditional branch whose target is a `ud2`, and each `ud2`
/// no branch reaches (an `unreachable`), by the wasm instruction at that branch.
fn of_function(module: &[u8], f: &CompiledFunction, first_op: Option<usize>) -> CodeChecks {
    use iced_x86::{Code, Decoder, DecoderOptions, Mnemonic as M};
    let decoded: Vec<iced_x86::Instruction> =
        Decoder::with_ip(64, &f.code, 0, DecoderOptions::NONE)
            .into_iter()
            .collect();
    let traps: std::collections::BTreeSet<u64> = decoded
        .iter()
        .filter(|i| i.code() == Code::Ud2)
        .map(|i| i.ip())
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
        if jcc && traps.contains(&i.near_branch_target()) {
            reached.insert(i.near_branch_target());
            add(
                &mut checks,
                kind(module, wasm_at(f, i.ip() as u32), first_op),
            );
        }
    }
    // A `ud2` in the straight line of the code, not a branch's target: `unreachable`.
    checks.other += traps.iter().filter(|t| !reached.contains(t)).count() as u32;
    checks
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
