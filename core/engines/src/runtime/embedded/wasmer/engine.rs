//! wasmer as wasmeter sees it: its registration and its [`EmbeddedEngine`]
//! implementation, one configuration per compiler.

use super::{WASMER_SETTINGS, WasmerCompiler};
use crate::profile::Method;
use crate::runtime::embedded::{Embedded, EmbeddedEngine, Feature, Preset, Registration};
#[cfg(feature = "wasmer")]
use crate::runtime::suite_api::gateway::{Backend, GatewaySpec};
#[cfg(feature = "wasmer")]
use crate::runtime::{Failure, Runtime};

/// wasmer's registration: a preset per compiler, and its one setting.
pub const ENGINE: Registration = Registration {
    presets: &[
        Preset {
            id: "wasmer-cranelift",
            make: || Embedded::new(WasmerCompiler::Cranelift),
            description: "Cranelift compiler, WASIX",
        },
        Preset {
            id: "wasmer-singlepass",
            make: || Embedded::new(WasmerCompiler::Singlepass),
            description: "Singlepass compiler, WASIX",
        },
    ],
    settings: Some(&WASMER_SETTINGS),
};

impl EmbeddedEngine for WasmerCompiler {
    fn version(&self) -> &'static str {
        env!("WASMETER_WASMER_VERSION")
    }

    fn feature(&self) -> Feature {
        Feature {
            name: "wasmer",
            on: cfg!(feature = "wasmer"),
        }
    }

    fn set(&self, name: &str, value: &str) -> Result<Embedded, String> {
        WasmerCompiler::with(*self, name, value).map(Embedded::new)
    }

    fn profile_method(&self) -> Method {
        // Both write wasmer's perf map in a profiled worker, through the watched compiler
        // that asks for it (`watched.rs`).
        match self {
            WasmerCompiler::Cranelift => Method::EnginePerfMap("wasmer"),
            WasmerCompiler::Singlepass => Method::EnginePerfMap("wasmer (Singlepass)"),
        }
    }

    fn cannot_show_code(&self, _runtime: &str) -> Option<String> {
        None
    }

    #[cfg(feature = "wasmer")]
    fn module_code(
        &self,
        runtime: &str,
        module: &[u8],
    ) -> Result<Vec<crate::profile::code::CompiledFunction>, String> {
        super::code::module_code(*self, runtime, module)
    }

    #[cfg(feature = "wasmer")]
    fn runtime(&self) -> Result<Box<dyn Runtime>, Failure> {
        Ok(Box::new(super::Wasmer::new(*self)?))
    }

    #[cfg(feature = "wasmer")]
    fn lifecycle(
        &self,
    ) -> Result<Box<dyn crate::runtime::suite_api::lifecycle::Engine>, Failure> {
        Ok(Box::new(super::lifecycle::WasmerEngine::new(*self)))
    }

    #[cfg(feature = "wasmer")]
    fn gateway(&self, spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
        Ok(Box::new(super::gateway::WasmerBackend::new(
            *self,
            &spec.wasm,
            spec.threads,
        )?))
    }
}
