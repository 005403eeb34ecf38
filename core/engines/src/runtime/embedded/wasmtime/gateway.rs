//! Embedded wasmtime: the module compiled and linked once (`InstancePre`), then per request
//! a fresh `Store`, WASI context and instance — per-request isolation, made cheap by the
//! pooling allocator and copy-on-write memory in the `wasmtime-pooling` variant and by the
//! gateway's own non-blocking WASI subset ([`super::wasi`]).

use super::WasmtimeVariant;
use super::gateway_wasi::{self as wasi, Ctx, Exit};
use crate::runtime::suite_api::gateway::Backend;
use std::path::Path;
use wasmeter_http::guest::{GuestCall, GuestReply, parse_reply};
use wasmtime::{Engine, InstancePre, Linker, Module, StoreLimitsBuilder};

/// Most bytes a guest may write to stdout for one request.
const STDOUT_LIMIT: usize = 1 << 20;

/// A wasmtime engine with the guest ready to instantiate.
pub struct WasmtimeBackend {
    engine: Engine,
    pre: InstancePre<Ctx>,
    memory_limit: usize,
}

impl WasmtimeBackend {
    /// Compiles and links the guest once; `slots` sizes a pooling allocator (instances
    /// alive at once: one per request in flight).
    pub fn new(
        variant: WasmtimeVariant,
        wasm: &Path,
        slots: u32,
        memory_limit: u64,
    ) -> Result<WasmtimeBackend, String> {
        let engine = Engine::new(&variant.server_config(slots)).map_err(|e| format!("{e:#}"))?;
        let bytes = std::fs::read(wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
        let module = Module::new(&engine, &bytes)
            .map_err(|e| format!("{}: invalid module: {e:#}", wasm.display()))?;
        let mut linker: Linker<Ctx> = Linker::new(&engine);
        wasi::add_to_linker(&mut linker).map_err(|e| format!("{e:#}"))?;
        let pre = linker
            .instantiate_pre(&module)
            .map_err(|e| format!("cannot link {}: {e:#}", wasm.display()))?;
        Ok(WasmtimeBackend {
            engine,
            pre,
            memory_limit: usize::try_from(memory_limit).unwrap_or(usize::MAX),
        })
    }
}

impl Backend for WasmtimeBackend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        let limits = StoreLimitsBuilder::new()
            .memory_size(self.memory_limit)
            .trap_on_grow_failure(true)
            .build();
        let ctx = Ctx::new(&call.argv(), call.stdin.clone(), STDOUT_LIMIT, limits);
        let mut store = super::store(&self.engine, ctx);
        store.limiter(|c| &mut c.limits);
        let instance = self
            .pre
            .instantiate(&mut store)
            .map_err(|e| format!("instantiate: {e:#}"))?;
        store.data_mut().memory = instance.get_memory(&mut store, "memory");
        let start = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .map_err(|e| format!("no _start export: {e:#}"))?;
        if let Err(e) = start.call(&mut store, ()) {
            match e.downcast_ref::<Exit>() {
                Some(Exit(0)) => {}
                Some(Exit(code)) => return Err(format!("guest exited {code}")),
                None => return Err(format!("guest failed: {e:#}")),
            }
        }
        let out = std::mem::take(&mut store.data_mut().stdout);
        drop(store);
        parse_reply(&out)
    }
}
