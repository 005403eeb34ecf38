//! wasmi as wasmeter sees it: its registration and its [`EmbeddedEngine`]
//! implementation, one configuration per way of translating.

use super::{WASMI_SETTINGS, WasmiTranslation};
use crate::profile::Method;
use crate::runtime::embedded::{Embedded, EmbeddedEngine, Feature, Preset, Registration};
#[cfg(feature = "wasmi")]
use crate::runtime::suite_api::gateway::{Backend, GatewaySpec};
#[cfg(feature = "wasmi")]
use crate::runtime::{Failure, Runtime};

/// wasmi's registration: a preset per translation, and its one setting.
pub const ENGINE: Registration = Registration {
    presets: &[
        Preset {
            id: "wasmi",
            make: || Embedded::new(WasmiTranslation::Eager),
            description: "interpreter, eager translation to its bytecode, WASI preview 1 (wasmi_wasi)",
        },
        Preset {
            id: "wasmi-lazy",
            make: || Embedded::new(WasmiTranslation::Lazy),
            description: "interpreter, lazy validation and translation: each function on its first call (lifecycle suite only)",
        },
    ],
    settings: Some(&WASMI_SETTINGS),
};

impl EmbeddedEngine for WasmiTranslation {
    fn version(&self) -> &'static str {
        env!("WASMETER_WASMI_VERSION")
    }

    fn feature(&self) -> Feature {
        Feature {
            name: "wasmi",
            on: cfg!(feature = "wasmi"),
        }
    }

    fn set(&self, name: &str, value: &str) -> Result<Embedded, String> {
        WasmiTranslation::with(*self, name, value).map(Embedded::new)
    }

    fn profile_method(&self) -> Method {
        Method::EngineUnnamed {
            why: "wasmi interprets its own bytecode: every sample lands in the interpreter's loop, not in code of the guest's functions".into(),
            pooled: crate::profile::symbols::Outside::Engine,
            marked: false,
        }
    }

    fn cannot_show_code(&self, runtime: &str) -> Option<String> {
        Some(format!(
            "{runtime} interprets: it compiles no machine code of the guest's functions"
        ))
    }

    #[cfg(feature = "wasmi")]
    fn runtime(&self) -> Result<Box<dyn Runtime>, Failure> {
        Ok(Box::new(super::Wasmi::new(*self)?))
    }

    #[cfg(feature = "wasmi")]
    fn lifecycle(
        &self,
    ) -> Result<Box<dyn crate::runtime::suite_api::lifecycle::Engine>, Failure> {
        Ok(Box::new(super::lifecycle::WasmiEngine::new(*self)))
    }

    #[cfg(feature = "wasmi")]
    fn gateway(&self, spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
        Ok(Box::new(super::gateway::WasmiBackend::new(
            *self,
            &spec.wasm,
            spec.threads,
            spec.memory_limit,
        )?))
    }
}
