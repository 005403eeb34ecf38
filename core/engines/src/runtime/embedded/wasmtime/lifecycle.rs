//! wasmtime through the life cycle: one `Engine`, an `InstancePre` linked once (a module
//! file's imports as traps), a fresh `Store` per instance (the way wasmtime recommends
//! serving many short-lived instances).

use super::{WasmtimeVariant, other};
use crate::runtime::Failure;
use crate::runtime::suite_api::lifecycle::{
    CALL_EXPORT, Engine, LIVE_MAX, Live, PEEK_EXPORT, Source, timed_batch, timed_calls,
};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};
use wasmtime::{Instance, InstancePre, Linker, Module, Store};

/// A wasmtime engine configuration with the module it instantiates.
pub struct WasmtimeEngine {
    engine: wasmtime::Engine,
    pre: Option<InstancePre<()>>,
    live: Live<(Store<()>, Instance)>,
}

impl WasmtimeEngine {
    /// The engine of a variant, its pool (if any) sized for the harness's live instances.
    pub fn new(variant: WasmtimeVariant) -> Result<WasmtimeEngine, Failure> {
        // Room for the largest batch of live instances plus the one being called.
        let slots = LIVE_MAX as u32 + 8;
        let engine = wasmtime::Engine::new(&variant.config(slots)).map_err(other)?;
        Ok(WasmtimeEngine {
            engine,
            pre: None,
            live: Live::new(),
        })
    }

    fn pre(&self) -> Result<&InstancePre<()>, Failure> {
        self.pre
            .as_ref()
            .ok_or_else(|| Failure::Other("no module prepared".into()))
    }
}

#[allow(unsafe_code)]
fn deserialize(engine: &wasmtime::Engine, path: &Path) -> Result<Module, Failure> {
    // SAFETY: the file was written by `Module::serialize` of an engine with this very
    // configuration, in this cell's private scratch directory, and is not modified while
    // mapped; wasmtime checks its header against the engine before using it.
    unsafe { Module::deserialize_file(engine, path) }
        .map_err(|e| Failure::Other(format!("{}: {e:#}", path.display())))
}

impl Engine for WasmtimeEngine {
    fn compile(&mut self, wasm: &[u8], n: u64) -> Result<Duration, Failure> {
        timed_batch(n, || Module::new(&self.engine, wasm).map_err(other))
    }

    fn precompile(&mut self, wasm: &[u8], path: &Path) -> Result<(), Failure> {
        let bytes = Module::new(&self.engine, wasm)
            .and_then(|m| m.serialize())
            .map_err(other)?;
        std::fs::write(path, bytes).map_err(|e| Failure::Other(format!("{}: {e}", path.display())))
    }

    fn load(&mut self, path: &Path, n: u64) -> Result<Duration, Failure> {
        timed_batch(n, || deserialize(&self.engine, path))
    }

    fn prepare(&mut self, source: Source) -> Result<(), Failure> {
        let module = match source {
            Source::Wasm(bytes) => Module::new(&self.engine, bytes).map_err(other)?,
            Source::Precompiled(path) => deserialize(&self.engine, path)?,
        };
        let mut linker: Linker<()> = Linker::new(&self.engine);
        linker
            .define_unknown_imports_as_traps(&module)
            .map_err(|e| Failure::Other(format!("cannot link: {e:#}")))?;
        let pre = linker
            .instantiate_pre(&module)
            .map_err(|e| Failure::Other(format!("cannot link: {e:#}")))?;
        self.live.teardown();
        self.pre = Some(pre);
        Ok(())
    }

    fn instantiate(&mut self, n: u64) -> Result<Duration, Failure> {
        let pre = self.pre()?.clone();
        let engine = &self.engine;
        self.live.make(n, || {
            let mut store = super::store(engine, ());
            let instance = pre.instantiate(&mut store).map_err(other)?;
            Ok((store, instance))
        })
    }

    fn teardown(&mut self) -> (Duration, u64) {
        self.live.teardown()
    }

    fn call(&mut self, n: u64) -> Result<Duration, Failure> {
        let (store, instance) = self.live.oldest()?;
        let f = instance
            .get_typed_func::<(), i32>(&mut *store, CALL_EXPORT)
            .map_err(other)?;
        timed_calls(n, || f.call(&mut *store, ()).map_err(other))
    }

    fn cycle(&mut self, n: u64) -> Result<Duration, Failure> {
        let pre = self.pre()?.clone();
        let t = Instant::now();
        for _ in 0..n {
            let mut store = super::store(&self.engine, ());
            black_box(pre.instantiate(&mut store).map_err(other)?);
            drop(store);
        }
        Ok(t.elapsed())
    }

    fn peek(&mut self, addr: u32) -> Result<u8, Failure> {
        let (store, instance) = self.live.oldest()?;
        let f = instance
            .get_typed_func::<i32, i32>(&mut *store, PEEK_EXPORT)
            .map_err(other)?;
        let v = f.call(&mut *store, addr as i32).map_err(other)?;
        Ok(v as u8)
    }
}
