//! Engines linked into wasmeter, run inside the worker process: one folder per engine
//! holding everything that engine does (command suites, lifecycle, gateway), and
//! [`Embedded`], parsed once from a runtime id, to reach them. Without the `engines`
//! feature (the fuzz targets build core that way) they are absent and listed unavailable.
//!
//! Adding a configuration of an engine: its variant in the engine's folder and a row in
//! [`EMBEDDED`]. Adding an engine: a folder like `wasmtime/`, an [`Embedded`] variant and
//! its rows.

mod code;
#[cfg(feature = "engines")]
mod invoke;
#[cfg(feature = "engines")]
mod wasi_ctx;
#[cfg(feature = "engines")]
mod wasm3;
mod wasmer;
mod wasmi;
mod wasmtime;

pub use self::code::EngineCode;
#[cfg(feature = "engines")]
pub use self::wasm3::Wasm3;
#[cfg(feature = "engines")]
pub use self::wasmer::Wasmer;
pub use self::wasmer::{WASMER_SETTINGS, WasmerCompiler};
#[cfg(feature = "engines")]
pub use self::wasmi::Wasmi;
pub use self::wasmi::{WASMI_SETTINGS, WasmiTranslation};
#[cfg(feature = "engines")]
pub use self::wasmtime::Wasmtime;
pub use self::wasmtime::{WASMTIME_SETTINGS, WasmtimeCompiler, WasmtimeOpt, WasmtimeVariant};

#[cfg(feature = "engines")]
use super::{Failure, Job, Runtime};
#[cfg(feature = "engines")]
use crate::runtime::suite_api::gateway::{Backend, GatewaySpec};
use crate::suite::SuiteKind;

use crate::model::CORE_MODULES_ONLY;

/// An embedded engine in one configuration: what an embedded runtime id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Embedded {
    /// wasmtime in one of its configurations.
    Wasmtime(WasmtimeVariant),
    /// wasmer with one of its compilers.
    Wasmer(WasmerCompiler),
    /// wasmi, an interpreter, translating to its bytecode eagerly or lazily.
    Wasmi(WasmiTranslation),
    /// wasm3, an interpreter.
    Wasm3,
    /// wasmtime serving a `wasi:http/proxy` component per request (wasmtime-wasi-http,
    /// pooling allocator): the gateway suite's production-shaped variant.
    WasmtimeHttp,
}

/// Every embedded runtime: its id, the engine configuration it stands for, and that
/// configuration in words. The one list of them; the registry and every suite read it.
pub const EMBEDDED: &[(&str, Embedded, &str)] = &[
    (
        "wasmtime",
        Embedded::Wasmtime(WasmtimeVariant::DEFAULT),
        "Cranelift, default configuration",
    ),
    (
        "wasmtime-pooling",
        Embedded::Wasmtime(WasmtimeVariant::POOLING),
        "Cranelift, pooling allocator, copy-on-write memory init",
    ),
    (
        "wasmtime-pooling-nocow",
        Embedded::Wasmtime(WasmtimeVariant::POOLING_NOCOW),
        "Cranelift, pooling allocator, data segments copied at instantiation (lifecycle suite only)",
    ),
    (
        "wasmtime-winch",
        Embedded::Wasmtime(WasmtimeVariant::WINCH),
        "Winch baseline compiler",
    ),
    (
        "wasmtime-o0",
        Embedded::Wasmtime(WasmtimeVariant::O0),
        "Cranelift, opt-level none",
    ),
    (
        "wasmtime-serial",
        Embedded::Wasmtime(WasmtimeVariant::SERIAL),
        "Cranelift, parallel compilation off: one thread compiles (lifecycle suite only)",
    ),
    (
        "wasmtime-http",
        Embedded::WasmtimeHttp,
        "wasi:http/proxy component per request (wasmtime-wasi-http), Cranelift, pooling allocator, copy-on-write (gateway and servers suites)",
    ),
    (
        "wasmer-cranelift",
        Embedded::Wasmer(WasmerCompiler::Cranelift),
        "Cranelift compiler, WASIX",
    ),
    (
        "wasmer-singlepass",
        Embedded::Wasmer(WasmerCompiler::Singlepass),
        "Singlepass compiler, WASIX",
    ),
    (
        "wasmi",
        Embedded::Wasmi(WasmiTranslation::Eager),
        "interpreter, eager translation to its bytecode, WASI preview 1 (wasmi_wasi)",
    ),
    (
        "wasmi-lazy",
        Embedded::Wasmi(WasmiTranslation::Lazy),
        "interpreter, lazy validation and translation: each function on its first call (lifecycle suite only)",
    ),
    (
        "wasm3",
        Embedded::Wasm3,
        "interpreter, lazy per-function compilation, WASI preview 1 (wasi-common), no SIMD",
    ),
];

/// Every engine that declares settings ([`crate::runtime::settings`]).
pub const SETTINGS: [crate::runtime::settings::EngineSettings; 3] =
    [WASMTIME_SETTINGS, WASMER_SETTINGS, WASMI_SETTINGS];

impl Embedded {
    /// The engine configuration an embedded runtime id stands for; `None` for any other id.
    pub fn parse(id: &str) -> Option<Embedded> {
        if let Some((_, e, _)) = EMBEDDED.iter().find(|(i, _, _)| *i == id) {
            return Some(*e);
        }
        // A settings id: the engine's base preset with the values it names.
        let (decl, pairs) = crate::runtime::settings::parse_id(id, &SETTINGS)?.ok()?;
        Embedded::parse(decl.base)?.with_all(&pairs).ok()
    }

    /// This engine with each `NAME=VALUE` of `pairs` set, in order.
    pub fn with_all(self, pairs: &[(String, String)]) -> Result<Embedded, String> {
        pairs.iter().try_fold(self, |e, (k, v)| e.with(k, v))
    }

    /// Whether the engine accepts this configuration (wasmtime refuses some combinations
    /// when the engine is made); the engine's own words when not.
    #[cfg(feature = "engines")]
    pub fn check(self) -> Result<(), String> {
        match self {
            Embedded::Wasmtime(v) => ::wasmtime::Engine::new(&v.config(16))
                .map(|_| ())
                .map_err(|e| format!("{e:#}")),
            _ => Ok(()),
        }
    }

    /// This engine with one setting changed.
    pub fn with(self, name: &str, value: &str) -> Result<Embedded, String> {
        Ok(match self {
            Embedded::Wasmtime(v) => Embedded::Wasmtime(v.with(name, value)?),
            Embedded::Wasmer(c) => Embedded::Wasmer(c.with(name, value)?),
            Embedded::Wasmi(t) => Embedded::Wasmi(t.with(name, value)?),
            e @ (Embedded::Wasm3 | Embedded::WasmtimeHttp) => {
                return Err(format!("{e:?} has no settings"));
            }
        })
    }

    /// The engine's version, read from Cargo.lock at build time.
    pub fn version(self) -> &'static str {
        match self {
            Embedded::Wasmtime(_) | Embedded::WasmtimeHttp => env!("WASMETER_WASMTIME_VERSION"),
            Embedded::Wasmer(_) => env!("WASMETER_WASMER_VERSION"),
            Embedded::Wasmi(_) => env!("WASMETER_WASMI_VERSION"),
            Embedded::Wasm3 => env!("WASMETER_WASM3_VERSION"),
        }
    }

    /// Why this engine cannot take part in a kind of suite, if it cannot: the suites that
    /// drive an engine through its API need what every engine does not offer.
    pub fn not_for(self, kind: SuiteKind) -> Option<&'static str> {
        match (self, kind) {
            (Embedded::WasmtimeHttp, SuiteKind::Command | SuiteKind::Lifecycle) => {
                Some("serves wasi:http components per request: the gateway and servers suites only")
            }
            (Embedded::Wasm3, SuiteKind::Lifecycle) => Some(
                "a wasm3 module belongs to the one runtime it is loaded into: each instance \
                 parses the module again, so it has no instantiation apart from its \
                 compilation for the lifecycle suite to measure",
            ),
            _ => None,
        }
    }

    /// Why this engine cannot call an exported function other than `_start` with
    /// arguments and print its results (`--invoke`), if it cannot.
    pub fn cannot_invoke(self) -> Option<&'static str> {
        match self {
            Embedded::Wasm3 => Some(
                "wasm3 0.4.7's API takes arguments as raw bits in text and hands back no results",
            ),
            _ => None,
        }
    }

    /// Why this engine cannot run a WASI preview 2 command component, if it cannot.
    pub fn cannot_run_components(self) -> Option<&'static str> {
        match self {
            Embedded::Wasmtime(_) | Embedded::WasmtimeHttp => None,
            _ => Some(CORE_MODULES_ONLY),
        }
    }

    /// The engine running command-suite jobs (in the worker process).
    #[cfg(feature = "engines")]
    pub fn runtime(self) -> Result<Box<dyn Runtime>, Failure> {
        Ok(match self {
            Embedded::Wasmtime(v) => Box::new(Wasmtime::new(v)?),
            Embedded::Wasmer(c) => Box::new(Wasmer::new(c)?),
            Embedded::Wasmi(t) => Box::new(Wasmi::new(t)?),
            Embedded::Wasm3 => Box::new(Wasm3::new()?),
            e @ Embedded::WasmtimeHttp => {
                return Err(Failure::Unavailable(
                    e.not_for(SuiteKind::Command).unwrap_or_default().into(),
                ));
            }
        })
    }

    /// The engine taken through the lifecycle suite's operations.
    #[cfg(feature = "engines")]
    pub fn lifecycle(
        self,
    ) -> Result<Box<dyn crate::runtime::suite_api::lifecycle::Engine>, Failure> {
        Ok(match self {
            Embedded::Wasmtime(v) => Box::new(wasmtime::lifecycle::WasmtimeEngine::new(v)?),
            Embedded::Wasmer(c) => Box::new(wasmer::lifecycle::WasmerEngine::new(c)),
            Embedded::Wasmi(t) => Box::new(self::wasmi::lifecycle::WasmiEngine::new(t)),
            e @ (Embedded::Wasm3 | Embedded::WasmtimeHttp) => {
                return Err(Failure::Unavailable(
                    e.not_for(SuiteKind::Lifecycle).unwrap_or_default().into(),
                ));
            }
        })
    }

    /// The gateway's backend on this engine: the guest compiled now, at start-up, so that
    /// it counts in the cold start and not in any request.
    #[cfg(feature = "engines")]
    pub fn gateway(self, spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
        Ok(match self {
            Embedded::Wasmtime(v) => {
                // Guests run on the server threads: one instance per thread is alive at
                // most; a few spare slots cost only address space.
                let slots = (spec.threads * 4).max(16) as u32;
                Box::new(wasmtime::gateway::WasmtimeBackend::new(
                    v,
                    &spec.wasm,
                    slots,
                    spec.memory_limit,
                )?)
            }
            Embedded::Wasmer(c) => Box::new(wasmer::gateway::WasmerBackend::new(
                c,
                &spec.wasm,
                spec.threads,
            )?),
            Embedded::Wasmi(t) => Box::new(self::wasmi::gateway::WasmiBackend::new(
                t,
                &spec.wasm,
                spec.threads,
                spec.memory_limit,
            )?),
            Embedded::Wasm3 => Box::new(self::wasm3::gateway::Wasm3Backend::new(
                &spec.wasm,
                spec.threads,
                spec.memory_limit,
            )?),
            Embedded::WasmtimeHttp => {
                Box::new(wasmtime::gateway_http::WasmtimeHttpBackend::new(spec)?)
            }
        })
    }
}

/// Runs and times an engine's execute phase. Never inlined and not generic, so it is one
/// symbol of this name: with `--measure instructions`, callgrind counts only while inside
/// it (`runner::instructions::REGION`). The timing after the call also keeps the call from
/// becoming a tail jump, which callgrind would take for leaving the function.
/// A profiled cell's sampler starts before the clock and stops after it.
#[cfg(feature = "engines")]
#[inline(never)]
pub fn wasmeter_measured_region(execute: &mut dyn FnMut()) -> std::time::Duration {
    let sampled = crate::profile::start_here();
    let t = std::time::Instant::now();
    execute();
    let took = t.elapsed();
    if let Some(s) = sampled {
        s.stop();
    }
    took
}

/// The end of an engine's iteration: runs `execute` on the store inside
/// [`wasmeter_measured_region`] (the execute phase), drops the store (teardown), and
/// records the whole iteration since `whole`. Returns what `execute` returned.
#[cfg(feature = "engines")]
fn execute_then_teardown<S, R>(
    it: &mut super::Iteration,
    whole: std::time::Instant,
    mut store: S,
    execute: impl FnOnce(&mut S) -> R,
) -> R {
    use super::Phase;
    let mut execute = Some(execute);
    let mut result = None;
    let took = wasmeter_measured_region(&mut || {
        if let Some(run) = execute.take() {
            result = Some(run(&mut store));
        }
    });
    it.wall(Phase::Execute, took);
    let t = std::time::Instant::now();
    drop(store);
    it.wall(Phase::Teardown, t.elapsed());
    it.wall(Phase::Total, whole.elapsed());
    result.expect("the execute phase ran")
}

/// The modules whose compiled artifact this process has measured: serializing copies the
/// machine code, so it is done once per module, not once per iteration.
#[cfg(feature = "engines")]
#[derive(Default)]
struct ArtifactsSeen(std::sync::Mutex<std::collections::HashSet<std::path::PathBuf>>);

#[cfg(feature = "engines")]
impl ArtifactsSeen {
    /// True the first time a module is asked about.
    fn first(&self, program: &std::path::Path) -> bool {
        self.0
            .lock()
            .is_ok_and(|mut seen| seen.insert(program.to_path_buf()))
    }
}

/// Reads the module a job names; a missing file is its own failure kind.
#[cfg(feature = "engines")]
fn read_module(job: &Job) -> Result<Vec<u8>, Failure> {
    std::fs::read(&job.program).map_err(|e| Failure::unreadable(&job.program, e))
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
            stdin: None,
            dirs: Vec::new(),
            invoke: None,
        };
        let engines: Vec<(&str, Box<dyn Runtime>)> = vec![
            (
                "wasmtime",
                Box::new(Wasmtime::new(WasmtimeVariant::DEFAULT).unwrap()),
            ),
            (
                "wasmer",
                Box::new(Wasmer::new(WasmerCompiler::Cranelift).unwrap()),
            ),
            (
                "wasmi",
                Box::new(Wasmi::new(WasmiTranslation::Eager).unwrap()),
            ),
            ("wasm3", Box::new(Wasm3::new().unwrap())),
        ];
        for (name, engine) in engines {
            let err = engine.run(&job).unwrap_err().to_string();
            assert!(err.contains("unknown import: `env::nope`"), "{name}: {err}");
        }
    }
}
