//! wasmi, embedded: a Rust interpreter (the one a Rust user would first reach for instead of
//! a JIT), with WASI from `wasmi_wasi`, behind the command suites ([`command`]), the
//! lifecycle suite ([`lifecycle`]; no precompiled module format, so no load phase) and the
//! gateway ([`gateway`]). By default Wasm is translated to wasmi's bytecode eagerly, so that
//! translation counts in the compile phase as other engines' compilation does, not in the
//! first call; [`WasmiTranslation::Lazy`] is the lifecycle suite's contrast. The engine
//! is compiled only with the `wasmi` feature.

mod engine;
pub use engine::ENGINE;

#[cfg(feature = "wasmi")]
mod command;
#[cfg(feature = "wasmi")]
pub mod gateway;
#[cfg(feature = "wasmi")]
pub mod lifecycle;

#[cfg(feature = "wasmi")]
pub use command::Wasmi;

#[cfg(feature = "wasmi")]
use wasmi::{CompilationMode, Config, Engine, Linker, Module, StoreLimits, StoreLimitsBuilder};
#[cfg(feature = "wasmi")]
use wasmi_wasi::WasiCtx;

/// When wasmi validates and translates a function to its bytecode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmiTranslation {
    /// Every function when the module is compiled.
    Eager,
    /// Each function on its first call: a big module starts at once, and a function never
    /// called is never translated.
    Lazy,
}

/// wasmi's settings, as `--set wasmi.NAME=…` and `wasmi[NAME=…]` take them.
pub const WASMI_SETTINGS: crate::runtime::settings::EngineSettings =
    crate::runtime::settings::EngineSettings {
        engine: "wasmi",
        base: "wasmi",
        settings: &[crate::runtime::settings::Setting {
            name: "translation",
            values: crate::runtime::settings::Values::OneOf(&["eager", "lazy"]),
            default: "eager",
            what: "functions translated to wasmi's bytecode when compiled, or on first call",
        }],
        cli: None,
    };

impl WasmiTranslation {
    /// This translation with one setting changed (the only one: `translation`).
    pub fn with(self, name: &str, value: &str) -> Result<WasmiTranslation, String> {
        match (name, value) {
            ("translation", "lazy") => Ok(WasmiTranslation::Lazy),
            ("translation", _) => Ok(WasmiTranslation::Eager),
            (other, _) => Err(format!("wasmi has no setting '{other}'")),
        }
    }
}

/// What a store holds: the guest's WASI context and its memory cap.
#[cfg(feature = "wasmi")]
pub struct Host {
    wasi: WasiCtx,
    limits: StoreLimits,
}

/// The engine translating as `translation` says.
#[cfg(feature = "wasmi")]
fn engine(translation: WasmiTranslation) -> Engine {
    let mut config = Config::default();
    config.compilation_mode(match translation {
        WasmiTranslation::Eager => CompilationMode::Eager,
        WasmiTranslation::Lazy => CompilationMode::Lazy,
    });
    Engine::new(&config)
}

#[cfg(feature = "wasmi")]
/// A linker with WASI preview 1.
fn linker(engine: &Engine) -> Result<Linker<Host>, String> {
    let mut linker = Linker::new(engine);
    wasmi_wasi::add_to_linker(&mut linker, |h: &mut Host| &mut h.wasi)
        .map_err(|e| format!("cannot link WASI: {e}"))?;
    Ok(linker)
}

#[cfg(feature = "wasmi")]
/// A memory cap: a refused `memory.grow` traps, so the cell ends as out of memory (as on
/// wasmtime) instead of the guest limping on with a NULL from malloc.
fn limits(memory_limit: u64) -> StoreLimits {
    StoreLimitsBuilder::new()
        .memory_size(usize::try_from(memory_limit).unwrap_or(usize::MAX))
        .trap_on_grow_failure(true)
        .build()
}

#[cfg(feature = "wasmi")]
/// The first import outside WASI preview 1, said as wasmtime says it (wasmi's own words
/// are "cannot find definition for import …").
fn unknown_import(module: &Module) -> Option<String> {
    module
        .imports()
        .find(|i| i.module() != "wasi_snapshot_preview1")
        .map(|i| {
            format!(
                "unknown import: `{}::{}` has not been defined",
                i.module(),
                i.name()
            )
        })
}

#[cfg(feature = "wasmi")]
/// A wasmi error as a failure.
fn other(e: impl std::fmt::Display) -> crate::runtime::Failure {
    crate::runtime::Failure::Other(e.to_string())
}
