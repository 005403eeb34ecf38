//! The table of runtimes wasmeter knows, and how to make one.

use super::embedded::{Wasmer, WasmerCompiler, Wasmtime, WasmtimeVariant, engine_version};
use super::{Failure, NativeCompiler, NativeRuntime, Runtime, RuntimeKind};
use serde::{Deserialize, Serialize};

/// What wasmeter knows about a runtime before running anything on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuntimeInfo {
    /// Stable id used on the command line and in saved runs.
    pub id: String,
    /// How it runs guests.
    pub kind: RuntimeKind,
    /// Version of the engine or compiler.
    pub version: String,
    /// The configuration in words (compiler, allocator, flags).
    pub config: String,
    /// Why it cannot run here, if it cannot.
    pub unavailable: Option<String>,
}

impl RuntimeInfo {
    /// True when it can run here.
    pub fn available(&self) -> bool {
        self.unavailable.is_none()
    }
}

const EMBEDDED: &[(&str, &str, &str)] = &[
    ("wasmtime", "wasmtime", "Cranelift, default configuration"),
    (
        "wasmtime-pooling",
        "wasmtime",
        "Cranelift, pooling allocator, copy-on-write memory init",
    ),
    ("wasmtime-winch", "wasmtime", "Winch baseline compiler"),
    ("wasmtime-o0", "wasmtime", "Cranelift, opt-level none"),
    ("wasmer-cranelift", "wasmer", "Cranelift compiler, WASIX"),
    ("wasmer-singlepass", "wasmer", "Singlepass compiler, WASIX"),
];

/// Every runtime wasmeter knows, native first, with availability checked now.
pub fn known_runtimes() -> Vec<RuntimeInfo> {
    let mut v = vec![native_info()];
    v.extend(EMBEDDED.iter().map(|(id, krate, config)| RuntimeInfo {
        id: id.to_string(),
        kind: RuntimeKind::Embedded,
        version: engine_version(krate).to_string(),
        config: config.to_string(),
        unavailable: None,
    }));
    v
}

fn native_info() -> RuntimeInfo {
    let (version, config, unavailable) = match NativeCompiler::detect() {
        Ok(c) => (
            c.version.clone(),
            format!("C sources built by '{}'", c.program),
            None,
        ),
        Err(e) => (
            "-".into(),
            "C sources built by the system compiler".into(),
            Some(e),
        ),
    };
    RuntimeInfo {
        id: "native".into(),
        kind: RuntimeKind::Native,
        version,
        config,
        unavailable,
    }
}

/// Information about one runtime id, if wasmeter knows it.
pub fn runtime_info(id: &str) -> Option<RuntimeInfo> {
    if id == "native" {
        return Some(native_info());
    }
    known_runtimes().into_iter().find(|r| r.id == id)
}

/// Makes the runtime with this id, ready to run jobs (in the worker process).
pub fn instantiate(id: &str) -> Result<Box<dyn Runtime>, Failure> {
    Ok(match id {
        "native" => Box::new(NativeRuntime),
        "wasmtime" => Box::new(Wasmtime::new(WasmtimeVariant::Default)?),
        "wasmtime-pooling" => Box::new(Wasmtime::new(WasmtimeVariant::Pooling)?),
        "wasmtime-winch" => Box::new(Wasmtime::new(WasmtimeVariant::Winch)?),
        "wasmtime-o0" => Box::new(Wasmtime::new(WasmtimeVariant::O0)?),
        "wasmer-cranelift" => Box::new(Wasmer::new(WasmerCompiler::Cranelift)?),
        "wasmer-singlepass" => Box::new(Wasmer::new(WasmerCompiler::Singlepass)?),
        other => return Err(Failure::Unavailable(format!("unknown runtime '{other}'"))),
    })
}
