//! What wasmeter asks of an embedded engine, as one trait each engine implements in its own
//! folder ([`EmbeddedEngine`]), and what an engine registers: its presets and its settings
//! ([`Registration`]). Nothing outside an engine's folder names the engine: the registry,
//! the suites, the profiler and the hot-code view reach it through this trait.

use super::Embedded;
use crate::model::CORE_MODULES_ONLY;
use crate::profile::Method;
use crate::profile::code::CompiledFunction;
use crate::runtime::settings::EngineSettings;
use crate::runtime::suite_api::gateway::{Backend, GatewaySpec};
use crate::runtime::suite_api::lifecycle::Engine as LifecycleEngine;
use crate::runtime::{Failure, Runtime};
use crate::suite::Execution;

/// An embedded engine in one configuration. The methods without a body are what every
/// engine must say; the others default to "can", or to the engine taking no part. The
/// engine's folder overrides the ones that run it (`runtime`, `lifecycle`, …) only when its
/// Cargo feature is on ([`Feature`]); without it they say which feature is missing.
pub trait EmbeddedEngine: std::fmt::Debug + Send + Sync {
    /// The engine's version, read from Cargo.lock (or its vendored source) at build time.
    fn version(&self) -> &'static str;

    /// The Cargo feature that compiles the engine in, and whether this build has it.
    fn feature(&self) -> Feature;

    /// This configuration with one setting changed; engines with settings declare them in
    /// their [`Registration`].
    fn set(&self, name: &str, value: &str) -> Result<Embedded, String> {
        let _ = value;
        Err(format!("{self:?} has no setting '{name}'"))
    }

    /// Why this engine cannot run cells that run this way ([`Execution`]), if it cannot:
    /// said by how a kind runs, never by its name, so a new kind costs no engine a word.
    fn not_for(&self, how: Execution) -> Option<&'static str> {
        let _ = how;
        None
    }

    /// Why it cannot call an exported function other than `_start` with arguments and
    /// print its results (`--invoke`), if it cannot.
    fn cannot_invoke(&self) -> Option<&'static str> {
        None
    }

    /// Why it cannot run a WASI preview 2 command component, if it cannot.
    fn cannot_run_components(&self) -> Option<&'static str> {
        Some(CORE_MODULES_ONLY)
    }

    /// How a profile attributes its execute phase's samples to the guest's functions.
    fn profile_method(&self) -> Method;

    /// Why the hot-code view cannot show the machine code it compiles for `runtime`, if
    /// it cannot.
    fn cannot_show_code(&self, runtime: &str) -> Option<String> {
        Some(format!(
            "{runtime}: this engine gives no compiled code per function, so its machine code is not shown"
        ))
    }

    /// Whether the engine accepts this configuration (some refuse combinations only when
    /// made); the engine's own words when not.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }

    /// The engine running command-suite jobs (in the worker process).
    fn runtime(&self) -> Result<Box<dyn Runtime>, Failure> {
        Err(Failure::Unavailable(
            self.feature()
                .missing()
                .unwrap_or_else(|| "this engine has no command runtime".into()),
        ))
    }

    /// The engine taken through the lifecycle suite's operations.
    fn lifecycle(&self) -> Result<Box<dyn LifecycleEngine>, Failure> {
        Err(Failure::Unavailable(
            self.feature().missing().unwrap_or_else(|| {
                self.not_for(Execution::InProcess)
                    .unwrap_or("this engine has no lifecycle implementation")
                    .into()
            }),
        ))
    }

    /// The gateway's backend: the guest compiled now, at start-up, so that it counts in
    /// the cold start and not in any request.
    fn gateway(&self, spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
        let _ = spec;
        Err(self.feature().missing().unwrap_or_else(|| {
            self.not_for(Execution::PerRequest)
                .unwrap_or("this engine has no gateway backend")
                .into()
        }))
    }

    /// The machine code of every function the module defines, for the hot-code view and
    /// the checks a profile counts in it.
    fn module_code(&self, runtime: &str, module: &[u8]) -> Result<Vec<CompiledFunction>, String> {
        let _ = module;
        Err(self.cannot_show_code(runtime).unwrap_or_default())
    }
}

/// The Cargo feature that compiles an engine in (`wasmi`, of the same name in
/// `wasmeter-engines`, `wasmeter-core` and the `wasmeter` CLI; `engines` turns on all of
/// them), and whether this build has it: a build may carry any engines
/// alone, and lists the others' runtimes as unavailable rather than not at all, so a run
/// or a saved run naming them says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// The feature's name.
    pub name: &'static str,
    /// Whether this build has it (`cfg!(feature = "…")`, in the engine's folder).
    pub on: bool,
}

impl Feature {
    /// Why the engine cannot run in this build, if its feature is off.
    pub fn missing(&self) -> Option<String> {
        (!self.on).then(|| {
            format!(
                "this build of wasmeter has no embedded {} (Cargo feature `{}`)",
                self.name, self.name
            )
        })
    }
}

/// One embedded runtime id: the configuration it stands for, in words.
pub struct Preset {
    /// The runtime id (`wasmtime-pooling`).
    pub id: &'static str,
    /// Makes the configuration.
    pub make: fn() -> Embedded,
    /// The configuration in words, as `runtimes` lists it.
    pub description: &'static str,
}

/// What an engine registers: its runtime ids, and the settings it takes (`--set`,
/// `ENGINE[NAME=VALUE]`).
pub struct Registration {
    /// Its presets, in the order `runtimes` lists them.
    pub presets: &'static [Preset],
    /// Its settings, if it takes any.
    pub settings: Option<&'static EngineSettings>,
}
