//! Embedded wasmer (WASIX): the module compiled once, then per request a fresh `Store`,
//! WASI environment and instance. wasmer-wasix drives its host side on tokio and blocks on
//! it, which it may not do on a server's async threads, so guests run on a pool of plain
//! threads of their own, each inside a small runtime kept for the purpose.

use super::WasmerCompiler;
use crate::runtime::suite_api::gateway::{Backend, GuestPool};
use std::io::Read;
use std::path::Path;
use wasmer::{Engine, Instance, Module, Store};
use wasmer_wasix::virtual_fs::StaticFile;
use wasmer_wasix::{Pipe, WasiEnv, WasiError};
use wasmeter_http::guest::{GuestCall, GuestReply, parse_reply};

/// A pool of threads running the guest on one wasmer engine.
pub struct WasmerBackend {
    pool: GuestPool,
    // wasmer-wasix's host tasks run here; guest threads hold its handle.
    _tokio: tokio::runtime::Runtime,
}

impl WasmerBackend {
    /// Compiles the guest and starts `threads` guest threads.
    pub fn new(
        compiler: WasmerCompiler,
        wasm: &Path,
        threads: usize,
    ) -> Result<WasmerBackend, String> {
        let engine = compiler.engine();
        let bytes = std::fs::read(wasm).map_err(|e| format!("{}: {e}", wasm.display()))?;
        let store = Store::new(engine.clone());
        let module = Module::new(&store, &bytes)
            .map_err(|e| format!("{}: invalid module: {e}", wasm.display()))?;
        let tokio = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start tokio: {e}"))?;
        let handle = tokio.handle().clone();
        let pool = GuestPool::new(threads, move || {
            let (engine, module, handle) = (engine.clone(), module.clone(), handle.clone());
            move |call: &GuestCall| {
                let _in_runtime = handle.enter();
                run(&engine, &module, call)
            }
        });
        Ok(WasmerBackend {
            pool,
            _tokio: tokio,
        })
    }
}

impl Backend for WasmerBackend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        self.pool.call(call)
    }
}

fn run(engine: &Engine, module: &Module, call: &GuestCall) -> Result<GuestReply, String> {
    let mut store = Store::new(engine.clone());
    let (out_tx, mut out_rx) = Pipe::channel();
    let argv = call.argv();
    let mut wasi = WasiEnv::builder(argv[0].clone())
        .engine(engine.clone())
        .args(&argv[1..])
        .stdin(Box::new(StaticFile::new(call.stdin.clone())))
        .stdout(Box::new(out_tx))
        .finalize(&mut store)
        .map_err(|e| e.to_string())?;
    if let Some(why) = super::unknown_import(module) {
        return Err(why);
    }
    let imports = wasi
        .import_object(&mut store, module)
        .map_err(|e| e.to_string())?;
    let instance = Instance::new(&mut store, module, &imports).map_err(|e| e.to_string())?;
    wasi.initialize(&mut store, instance.clone())
        .map_err(|e| e.to_string())?;
    let start = instance
        .exports
        .get_function("_start")
        .map_err(|e| format!("no _start export: {e}"))?
        .clone();
    let result = start.call(&mut store, &[]);
    wasi.on_exit(&mut store, None);
    drop(instance);
    drop(store);
    if let Err(e) = result {
        match e.downcast::<WasiError>() {
            Ok(WasiError::Exit(code)) if code.is_success() => {}
            Ok(WasiError::Exit(code)) => return Err(format!("guest exited {}", code.raw())),
            Ok(other) => return Err(format!("guest failed: {other}")),
            Err(rt) => return Err(format!("guest failed: {}", rt.message())),
        }
    }
    let mut out = Vec::new();
    let _ = out_rx.read_to_end(&mut out);
    parse_reply(&out)
}
