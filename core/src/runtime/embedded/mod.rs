//! Engines linked into wasmeter, run inside the worker process. Without the `engines`
//! feature (the fuzz targets build core that way) they are absent and listed unavailable.

#[cfg(feature = "engines")]
mod wasmer;
#[cfg(feature = "engines")]
mod wasmtime;

#[cfg(feature = "engines")]
pub use self::wasmer::{Wasmer, WasmerCompiler};
#[cfg(feature = "engines")]
pub use self::wasmtime::{Wasmtime, WasmtimeVariant};

#[cfg(feature = "engines")]
use super::{Failure, Job};

/// The wasmtime configuration an embedded runtime id stands for.
#[cfg(feature = "engines")]
pub fn wasmtime_variant(id: &str) -> Option<WasmtimeVariant> {
    Some(match id {
        "wasmtime" => WasmtimeVariant::Default,
        "wasmtime-pooling" => WasmtimeVariant::Pooling,
        "wasmtime-pooling-nocow" => WasmtimeVariant::PoolingNoCow,
        "wasmtime-winch" => WasmtimeVariant::Winch,
        "wasmtime-o0" => WasmtimeVariant::O0,
        _ => return None,
    })
}

/// The wasmer compiler an embedded runtime id stands for.
#[cfg(feature = "engines")]
pub fn wasmer_compiler(id: &str) -> Option<WasmerCompiler> {
    Some(match id {
        "wasmer-cranelift" => WasmerCompiler::Cranelift,
        "wasmer-singlepass" => WasmerCompiler::Singlepass,
        _ => return None,
    })
}

/// Runs and times an engine's execute phase. Never inlined and not generic, so it is one
/// symbol of this name: with `--measure instructions`, callgrind counts only while inside
/// it (`runner::instructions::REGION`). The timing after the call also keeps the call from
/// becoming a tail jump, which callgrind would take for leaving the function.
#[cfg(feature = "engines")]
#[inline(never)]
pub fn wasmeter_measured_region(execute: &mut dyn FnMut()) -> std::time::Duration {
    let t = std::time::Instant::now();
    execute();
    t.elapsed()
}

/// Reads the module a job names; a missing file is its own failure kind.
#[cfg(feature = "engines")]
fn read_module(job: &Job) -> Result<Vec<u8>, Failure> {
    std::fs::read(&job.program).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Failure::MissingFile(job.program.display().to_string())
        } else {
            Failure::Other(format!("{}: {e}", job.program.display()))
        }
    })
}

/// Versions of the embedded engines, read from Cargo.lock at build time.
pub fn engine_version(crate_name: &str) -> &'static str {
    match crate_name {
        "wasmtime" => env!("WASMETER_WASMTIME_VERSION"),
        "wasmer" => env!("WASMETER_WASMER_VERSION"),
        _ => "unknown",
    }
}
