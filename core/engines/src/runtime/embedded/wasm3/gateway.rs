//! Embedded wasm3: the module validated once, then per request a fresh environment,
//! runtime and WASI context on a pool of guest threads. wasm3 has no compiled form to
//! share: each request parses the module and compiles what it calls, which is this
//! engine's per-request cost.

use super::{Ended, Loaded, Parsed, cap_pages, unknown_import, validate};
use crate::runtime::embedded::wasi_ctx::{self, take};
use crate::runtime::suite_api::gateway::{Backend, GuestPool};
use std::path::Path;
use std::sync::Arc;
use wasmeter_http::guest::{GuestCall, GuestReply, parse_reply};

/// A pool of threads running the guest on wasm3.
pub struct Wasm3Backend {
    pool: GuestPool,
}

impl Wasm3Backend {
    /// Checks the guest and starts `threads` guest threads.
    pub fn new(wasm: &Path, threads: usize, memory_limit: u64) -> Result<Wasm3Backend, String> {
        let bytes: Arc<[u8]> = std::fs::read(wasm)
            .map_err(|e| format!("{}: {e}", wasm.display()))?
            .into();
        validate(&bytes).map_err(|e| format!("{}: invalid module: {e}", wasm.display()))?;
        if let Some(why) = unknown_import(&bytes) {
            return Err(format!("{}: {why}", wasm.display()));
        }
        // Parsed once here too, so a module wasm3 cannot read fails at start-up.
        Parsed::new(bytes.clone()).map_err(|e| format!("{}: {e}", wasm.display()))?;
        let pool = GuestPool::new(threads, move || {
            let bytes = bytes.clone();
            move |call: &GuestCall| run(&bytes, memory_limit, call)
        });
        Ok(Wasm3Backend { pool })
    }
}

impl Backend for Wasm3Backend {
    fn call(&self, call: &GuestCall) -> Result<GuestReply, String> {
        self.pool.call(call)
    }
}

fn run(bytes: &Arc<[u8]>, memory_limit: u64, call: &GuestCall) -> Result<GuestReply, String> {
    let (wasi, stdout) = wasi_ctx::for_call(call)?;
    let mut instance = Parsed::new(bytes.clone())?
        .instantiate(wasi, cap_pages(memory_limit))
        .map_err(|e| match e {
            Loaded::OverCap(b) => format!("linear memory over the cap ({} MiB)", b >> 20),
            Loaded::Error(why) => why,
        })?;
    let ended = instance.start();
    drop(instance);
    match ended {
        Ended::Done => parse_reply(&take(&stdout)),
        Ended::Exit(code) => Err(format!("guest exited {code}")),
        Ended::Trap(why) | Ended::Error(why) => Err(format!("guest failed: {why}")),
    }
}
