//! wasmi, embedded: a Rust interpreter (the one a Rust user would first reach for instead of
//! a JIT), with WASI from `wasmi_wasi`, behind the command suites ([`command`]) and the
//! gateway ([`gateway`]). One configuration: Wasm is translated to wasmi's bytecode eagerly,
//! so that translation counts in the compile phase as other engines' compilation does, not
//! in the first call. No lifecycle engine: wasmi has no precompiled module format to load.
//! Compiled only with the `engines` feature.

mod command;
pub(crate) mod gateway;

pub use command::Wasmi;

use wasmi::{CompilationMode, Config, Engine, Linker, Module, StoreLimits, StoreLimitsBuilder};
use wasmi_wasi::WasiCtx;

/// What a store holds: the guest's WASI context and its memory cap.
pub(crate) struct Host {
    wasi: WasiCtx,
    limits: StoreLimits,
}

/// The engine of every suite: eager translation (see the module's doc).
fn engine() -> Engine {
    let mut config = Config::default();
    config.compilation_mode(CompilationMode::Eager);
    Engine::new(&config)
}

/// A linker with WASI preview 1.
fn linker(engine: &Engine) -> Result<Linker<Host>, String> {
    let mut linker = Linker::new(engine);
    wasmi_wasi::add_to_linker(&mut linker, |h: &mut Host| &mut h.wasi)
        .map_err(|e| format!("cannot link WASI: {e}"))?;
    Ok(linker)
}

/// A memory cap: a refused `memory.grow` traps, so the cell ends as out of memory (as on
/// wasmtime) instead of the guest limping on with a NULL from malloc.
fn limits(memory_limit: u64) -> StoreLimits {
    StoreLimitsBuilder::new()
        .memory_size(usize::try_from(memory_limit).unwrap_or(usize::MAX))
        .trap_on_grow_failure(true)
        .build()
}

/// The first import outside WASI preview 1, said as wasmtime says it (wasmi's own words
/// are "cannot find definition for import …").
fn unknown_import(module: &Module) -> Option<String> {
    module
        .imports()
        .find(|i| i.module() != "wasi_snapshot_preview1")
        .map(|i| {
            format!(
                "unknown import: `{}::{}` has not been defined",
                i.module(),
                i.name()
            )
        })
}

/// A wasmi error as a failure.
fn other(e: impl std::fmt::Display) -> crate::runtime::Failure {
    crate::runtime::Failure::Other(e.to_string())
}
