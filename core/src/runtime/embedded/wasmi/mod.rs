//! wasmi, embedded: a Rust interpreter (the one a Rust user would first reach for instead of
//! a JIT), with WASI from `wasmi_wasi`, behind the command suites ([`command`]) and the
//! gateway ([`gateway`]). One configuration: Wasm is translated to wasmi's bytecode eagerly,
//! so that translation counts in the compile phase as other engines' compilation does, not
//! in the first call. No lifecycle engine: wasmi has no precompiled module format to load.
//! Compiled only with the `engines` feature.

mod command;
pub(crate) mod gateway;

pub use command::Wasmi;

use std::io::Write;
use std::sync::{Arc, RwLock};
use wasmi::{CompilationMode, Config, Engine, Linker, Module, StoreLimits, StoreLimitsBuilder};
use wasmi_wasi::WasiCtx;
use wasmi_wasi::wasi_common::pipe::WritePipe;

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

/// Captured output that refuses to grow past its limit: the guest's write fails, and the
/// cell fails as over the limit, as on the other engines.
struct Capped {
    bytes: Vec<u8>,
    limit: usize,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.limit.saturating_sub(self.bytes.len());
        if room == 0 && !buf.is_empty() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "output limit reached",
            ));
        }
        let n = buf.len().min(room);
        self.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Output captured in memory up to `limit` bytes: the shared buffer, and the pipe the
/// guest writes to.
fn capture(limit: usize) -> (Arc<RwLock<Capped>>, Box<WritePipe<Capped>>) {
    let shared = Arc::new(RwLock::new(Capped {
        bytes: Vec::new(),
        limit,
    }));
    (shared.clone(), Box::new(WritePipe::from_shared(shared)))
}

/// What the guest wrote so far.
fn take(c: &Arc<RwLock<Capped>>) -> Vec<u8> {
    std::mem::take(&mut c.write().unwrap_or_else(|p| p.into_inner()).bytes)
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
