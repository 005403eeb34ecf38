//! Engines linked into wasmeter, run inside the worker process. Without the `engines`
//! feature (the fuzz targets build core that way) they are absent and listed unavailable.

#[cfg(feature = "engines")]
mod wasmer;
#[cfg(feature = "engines")]
mod wasmtime;

#[cfg(feature = "engines")]
pub(crate) use self::wasmer::unknown_import;
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

#[cfg(all(test, feature = "engines"))]
mod tests {
    use super::*;
    use crate::runtime::Runtime;

    /// Every engine names an import nobody provides, the way wasmtime does.
    #[test]
    fn an_unknown_import_is_named_on_every_engine() {
        let tmp = tempfile::tempdir().unwrap();
        let program = tmp.path().join("nope.wasm");
        let wasm = ::wasmer::wat2wasm(
            br#"(module (import "env" "nope" (func)) (func (export "_start") call 0))"#,
        )
        .unwrap();
        std::fs::write(&program, &wasm).unwrap();
        let job = Job {
            program,
            name: "nope".into(),
            args: Vec::new(),
            env: Vec::new(),
            scratch: tmp.path().to_path_buf(),
            memory_limit: 1 << 30,
            stdout_limit: 1 << 20,
        };
        let engines: Vec<(&str, Box<dyn Runtime>)> = vec![
            (
                "wasmtime",
                Box::new(Wasmtime::new(WasmtimeVariant::Default).unwrap()),
            ),
            (
                "wasmer",
                Box::new(Wasmer::new(WasmerCompiler::Cranelift).unwrap()),
            ),
        ];
        for (name, engine) in engines {
            let err = engine.run(&job).unwrap_err().to_string();
            assert!(err.contains("unknown import: `env::nope`"), "{name}: {err}");
        }
    }
}
