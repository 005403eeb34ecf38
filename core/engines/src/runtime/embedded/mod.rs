//! Engines linked into wasmeter, run inside the worker process: one folder per engine
//! holding everything that engine does (its [`EmbeddedEngine`] implementation, command
//! suites, lifecycle, gateway) and its [`Registration`] (presets and settings), and
//! [`Embedded`], parsed once from a runtime id, to reach them. Each engine is compiled in
//! by its own Cargo feature (`wasmtime`, `wasmer`, `wasmi`, `wasm3`; `engines` is all of
//! them); an engine whose feature is off is listed, unavailable, saying so ([`Feature`]).
//! The fuzz targets build with none.
//!
//! Adding a configuration of an engine: a [`Preset`] in its folder's registration. Adding
//! an engine: a folder like `wasmi/` whose `ENGINE` registers it, its name in `engines!`
//! below, and its Cargo feature (core/engines/Cargo.toml: the feature, turning on
//! `embedded` and its crates, and its name in `engines`).
//! `trivial/` (compiled in this crate's tests only) is the whole of such an engine.

mod code;
mod engine;
// Helpers some engines share: a build with only some of the engines may leave one unused.
#[cfg(feature = "embedded")]
#[cfg_attr(not(feature = "engines"), allow(dead_code))]
mod invoke;
#[cfg(any(feature = "wasmi", feature = "wasm3"))]
mod wasi_ctx;

pub use self::code::EngineCode;
pub use self::engine::{EmbeddedEngine, Feature, Preset, Registration};

#[cfg(feature = "embedded")]
use super::{Failure, Job};
use crate::runtime::settings::EngineSettings;
use std::sync::{Arc, LazyLock};

/// Declares each engine's folder and registers its `ENGINE`, in the order `runtimes`
/// lists them: the one place an engine is named outside its folder. Engines after
/// `tests only:` exist in this crate's tests alone.
macro_rules! engines {
    ($($engine:ident),* ; tests only: $($test:ident),*) => {
        $(mod $engine;)*
        $(#[cfg(test)] mod $test;)*
        /// Every embedded engine's registration.
        const ENGINES: &[&Registration] = &[$(&$engine::ENGINE),*];
        /// The registrations of engines that exist in this crate's tests alone.
        #[cfg(test)]
        const TEST_ENGINES: &[&Registration] = &[$(&$test::ENGINE),*];
    };
}

engines!(wasmtime, wasmer, wasmi, wasm3; tests only: trivial);

#[cfg(not(test))]
const TEST_ENGINES: &[&Registration] = &[];

/// An embedded engine in one configuration: what an embedded runtime id stands for.
#[derive(Clone, Debug)]
pub struct Embedded(Arc<dyn EmbeddedEngine>);

impl std::ops::Deref for Embedded {
    type Target = dyn EmbeddedEngine;

    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

/// Every embedded runtime id, engine by engine: the one list of them; the registry and
/// every suite read it.
pub fn presets() -> impl Iterator<Item = &'static Preset> {
    ENGINES.iter().chain(TEST_ENGINES).flat_map(|e| e.presets)
}

/// Whether a runtime id is a preset of an engine that exists in tests alone (it has no
/// row in docs/runtimes.md).
pub fn test_only(id: &str) -> bool {
    TEST_ENGINES
        .iter()
        .flat_map(|e| e.presets)
        .any(|p| p.id == id)
}

/// Every engine's settings declaration ([`crate::runtime::settings`]).
pub fn settings() -> &'static [EngineSettings] {
    static ALL: LazyLock<Vec<EngineSettings>> =
        LazyLock::new(|| ENGINES.iter().filter_map(|e| e.settings).copied().collect());
    &ALL
}

impl Embedded {
    /// An engine's configuration as a handle.
    pub fn new(engine: impl EmbeddedEngine + 'static) -> Embedded {
        Embedded(Arc::new(engine))
    }

    /// The engine configuration an embedded runtime id stands for; `None` for any other id.
    pub fn parse(id: &str) -> Option<Embedded> {
        if let Some(p) = presets().find(|p| p.id == id) {
            return Some((p.make)());
        }
        // A settings id: the engine's base preset with the values it names.
        let (decl, pairs) = crate::runtime::settings::parse_id(id, settings())?.ok()?;
        Embedded::parse(decl.base)?.with_all(&pairs).ok()
    }

    /// This engine with each `NAME=VALUE` of `pairs` set, in order.
    pub fn with_all(self, pairs: &[(String, String)]) -> Result<Embedded, String> {
        pairs.iter().try_fold(self, |e, (k, v)| e.set(k, v))
    }
}

/// Runs and times an engine's execute phase. Never inlined and not generic, so it is one
/// symbol of this name: with `--measure instructions`, callgrind counts only while inside
/// it (`runner::instructions::REGION`). The timing after the call also keeps the call from
/// becoming a tail jump, which callgrind would take for leaving the function.
/// A profiled cell's sampler starts before the clock and stops after it.
#[cfg(feature = "embedded")]
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
#[cfg(feature = "embedded")]
#[cfg_attr(not(feature = "engines"), allow(dead_code))]
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
#[cfg(feature = "embedded")]
#[cfg_attr(not(feature = "engines"), allow(dead_code))]
#[derive(Default)]
struct ArtifactsSeen(std::sync::Mutex<std::collections::HashSet<std::path::PathBuf>>);

#[cfg(feature = "embedded")]
#[cfg_attr(not(feature = "engines"), allow(dead_code))]
impl ArtifactsSeen {
    /// True the first time a module is asked about.
    fn first(&self, program: &std::path::Path) -> bool {
        self.0
            .lock()
            .is_ok_and(|mut seen| seen.insert(program.to_path_buf()))
    }
}

/// Reads the module a job names; a missing file is its own failure kind.
#[cfg(feature = "embedded")]
fn read_module(job: &Job) -> Result<Vec<u8>, Failure> {
    std::fs::read(&job.program).map_err(|e| Failure::unreadable(&job.program, e))
}

#[cfg(all(test, feature = "engines"))]
mod tests {
    use super::wasm3::Wasm3;
    use super::wasmer::{Wasmer, WasmerCompiler};
    use super::wasmi::{Wasmi, WasmiTranslation};
    use super::wasmtime::{Wasmtime, WasmtimeVariant};
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
        let job = Job::plain(program, "nope", tmp.path());
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
