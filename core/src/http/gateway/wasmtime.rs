//! Embedded wasmtime: the module compiled and linked once (`InstancePre`), then per request
//! a fresh `Store`, WASI context and instance — per-request isolation, made cheap by the
//! pooling allocator and copy-on-write memory in the `wasmtime-pooling` variant.

use super::Backend;
use crate::http::guest::{GuestCall, GuestReply, parse_reply};
use crate::runtime::embedded::WasmtimeVariant;
use std::path::Path;
use wasmtime::{Engine, InstancePre, Linker, Module, Store, StoreLimits, StoreLimitsBuilder};
use wasmtime_wasi::p1::{self, WasiP1Ctx};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::{I32Exit, WasiCtxBuilder};

/// Most bytes a guest may write to stdout for one request.
const STDOUT_LIMIT: usize = 1 << 20;

struct Host {
    wasi: WasiP1Ctx,
    limits: StoreLimits,
}

/// A wasmtime engine with the guest ready to instantiate.
pub struct WasmtimeBackend {
    engine: Engine,
    pre: InstancePre<Host>,
    memory_limit: usize,
}

impl WasmtimeBackend {
    /// Compiles and links the guest once; `slots` sizes a pooling allocator (instances
    /// alive at once: one per server thread is enough).
    pub fn new(
        variant: WasmtimeVariant,
        wasm: &Path,
        slots: u32,
        memory_limit: u64,
    ) -> Result<WasmtimeBackend, String> {
        let engine = Engine::new(&variant.config(slots)).map_err(|e| format!("{e:#}"))?;
        let bytes = std::fs::read(wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
        let module = Module::new(&engine, &bytes)
            .map_err(|e| format!("{}: invalid module: {e:#}", wasm.display()))?;
        let mut linker: Linker<Host> = Linker::new(&engine);
        p1::add_to_linker_sync(&mut linker, |h: &mut Host| &mut h.wasi)
            .map_err(|e| format!("{e:#}"))?;
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
        // wasmtime-wasi's synchronous WASI blocks on tokio internally, which may not
        // happen on a thread that is driving a runtime: step out of it first.
        match tokio::runtime::Handle::try_current() {
            Ok(h) if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
                tokio::task::block_in_place(|| self.run(call))
            }
            Ok(_) => std::thread::scope(|s| {
                s.spawn(|| self.run(call))
                    .join()
                    .unwrap_or_else(|_| Err("guest thread panicked".into()))
            }),
            Err(_) => self.run(call),
        }
    }
}

impl WasmtimeBackend {
    /// One request: a fresh store, WASI context and instance; the guest's reply.
    fn run(&self, call: &GuestCall) -> Result<GuestReply, String> {
        let stdout = MemoryOutputPipe::new(STDOUT_LIMIT);
        let mut b = WasiCtxBuilder::new();
        b.args(&call.argv())
            .stdin(MemoryInputPipe::new(call.stdin.clone()))
            .stdout(stdout.clone());
        let host = Host {
            wasi: b.build_p1(),
            limits: StoreLimitsBuilder::new()
                .memory_size(self.memory_limit)
                .trap_on_grow_failure(true)
                .build(),
        };
        let mut store = Store::new(&self.engine, host);
        store.limiter(|h| &mut h.limits);
        let instance = self
            .pre
            .instantiate(&mut store)
            .map_err(|e| format!("instantiate: {e:#}"))?;
        let start = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .map_err(|e| format!("no _start export: {e:#}"))?;
        match start.call(&mut store, ()) {
            Ok(()) => {}
            Err(e) => match e.downcast_ref::<I32Exit>() {
                Some(I32Exit(0)) => {}
                Some(I32Exit(code)) => return Err(format!("guest exited {code}")),
                None => return Err(format!("guest failed: {e:#}")),
            },
        }
        drop(store);
        parse_reply(&stdout.contents())
    }
}
