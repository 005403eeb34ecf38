//! Embedded wasmi: the module translated once, then per request a fresh `Store`, WASI
//! context and instance, on a pool of guest threads (an interpreter blocks its thread for
//! the whole request, as the other engines do).

use super::{Host, WasmiTranslation, engine, limits, linker, unknown_import};
use crate::runtime::embedded::wasi_ctx::{self, take};
use crate::runtime::suite_api::gateway::{Backend, GuestPool};
use std::path::Path;
use wasmeter_http::guest::{GuestCall, GuestReply, parse_reply};
use wasmi::{Engine, Linker, Module, Store};

/// A pool of threads running the guest on one wasmi engine.
pub struct WasmiBackend {
    pool: GuestPool,
}

impl WasmiBackend {
    /// Translates the guest (as `translation` says) and starts `threads` guest threads.
    pub fn new(
        translation: WasmiTranslation,
        wasm: &Path,
        threads: usize,
        memory_limit: u64,
    ) -> Result<WasmiBackend, String> {
        let engine = engine(translation);
        let bytes = std::fs::read(wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
        let module = Module::new(&engine, &bytes)
            .map_err(|e| format!("{}: invalid module: {e}", wasm.display()))?;
        if let Some(why) = unknown_import(&module) {
            return Err(format!("{}: {why}", wasm.display()));
        }
        let linker = linker(&engine)?;
        let pool = GuestPool::new(threads, move || {
            let (engine, linker, module) = (engine.clone(), linker.clone(), module.clone());
            move |call: &GuestCall| run(&engine, &linker, &module, memory_limit, call)
        });
        Ok(WasmiBackend { pool })
    }
}

impl Backend for WasmiBackend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        self.pool.call(call)
    }
}

fn run(
    engine: &Engine,
    linker: &Linker<Host>,
    module: &Module,
    memory_limit: u64,
    call: &GuestCall,
) -> Result<GuestReply, String> {
    let (wasi, stdout) = wasi_ctx::for_call(call)?;
    let host = Host {
        wasi,
        limits: limits(memory_limit),
    };
    let mut store = Store::new(engine, host);
    store.limiter(|h| &mut h.limits);
    let instance = linker
        .instantiate_and_start(&mut store, module)
        .map_err(|e| e.to_string())?;
    let start = instance
        .get_typed_func::<(), ()>(&store, "_start")
        .map_err(|e| format!("no _start export: {e}"))?;
    let result = start.call(&mut store, ());
    drop(store);
    if let Err(e) = result {
        match e.i32_exit_status() {
            Some(0) => {}
            Some(code) => return Err(format!("guest exited {code}")),
            None => return Err(format!("guest failed: {e}")),
        }
    }
    parse_reply(&take(&stdout))
}
