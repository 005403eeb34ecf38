//! wasm3, embedded: the interpreter that ends the published runtime tables, compiled from
//! the C sources vendored in assets/runtimes/wasm3 (the same files the `wasm3-cli`
//! runtime is built from), behind the command suites ([`command`]) and the gateway
//! ([`gateway`]). WASI is wasi-common's ([`wasi`]), not wasm3's own, so a guest is as
//! confined as on wasmi. wasm3 compiles each function lazily, on its first call: the
//! compile phase is parsing only and the rest of compilation lands in execute, which
//! `not_for` says of the lifecycle suite. No SIMD (0.4.7). Compiled only with the
//! `wasm3` feature.
#![allow(unsafe_code)]

#[cfg(feature = "wasm3")]
mod api;
#[cfg(feature = "wasm3")]
mod command;
#[cfg(feature = "wasm3")]
mod ffi;
#[cfg(feature = "wasm3")]
pub mod gateway;
#[cfg(feature = "wasm3")]
mod wasi;

#[cfg(feature = "wasm3")]
pub use api::{Ended, Loaded, Parsed, cap_pages, unknown_import, validate};
#[cfg(feature = "wasm3")]
pub use command::Wasm3;

use super::{Embedded, EmbeddedEngine, Feature, Preset, Registration};
use crate::profile::Method;
use crate::suite::Execution;

/// wasm3 (it has no configurations).
#[derive(Debug, Clone, Copy)]
pub struct Wasm3Engine;

/// wasm3's registration: one preset, no settings.
pub const ENGINE: Registration = Registration {
    presets: &[Preset {
        id: "wasm3",
        make: || Embedded::new(Wasm3Engine),
        description: "interpreter, lazy per-function compilation, WASI preview 1 (wasi-common), no SIMD",
    }],
    settings: None,
};

impl EmbeddedEngine for Wasm3Engine {
    fn version(&self) -> &'static str {
        env!("WASMETER_WASM3_VERSION")
    }

    fn feature(&self) -> Feature {
        Feature {
            name: "wasm3",
            on: cfg!(feature = "wasm3"),
        }
    }

    fn not_for(&self, how: Execution) -> Option<&'static str> {
        match how {
            Execution::InProcess => Some(
                "a wasm3 module belongs to the one runtime it is loaded into: each instance \
                 parses the module again, so it has no instantiation apart from its \
                 compilation for the lifecycle suite to measure",
            ),
            Execution::Commands | Execution::PerRequest | Execution::ServerPrograms => None,
        }
    }

    fn cannot_invoke(&self) -> Option<&'static str> {
        Some("wasm3 0.4.7's API takes arguments as raw bits in text and hands back no results")
    }

    fn profile_method(&self) -> Method {
        Method::EngineUnnamed {
            why: "wasm3 interprets (threaded code of shared operation handlers): no machine code belongs to one guest function".into(),
            pooled: crate::profile::symbols::Outside::Engine,
            marked: true,
        }
    }

    fn cannot_show_code(&self, runtime: &str) -> Option<String> {
        Some(format!(
            "{runtime} interprets: it compiles no machine code of the guest's functions"
        ))
    }

    #[cfg(feature = "wasm3")]
    fn runtime(&self) -> Result<Box<dyn crate::runtime::Runtime>, crate::runtime::Failure> {
        Ok(Box::new(Wasm3::new()?))
    }

    #[cfg(feature = "wasm3")]
    fn gateway(
        &self,
        spec: &crate::runtime::suite_api::gateway::GatewaySpec,
    ) -> Result<Box<dyn crate::runtime::suite_api::gateway::Backend>, String> {
        Ok(Box::new(gateway::Wasm3Backend::new(
            &spec.wasm,
            spec.threads,
            spec.memory_limit,
        )?))
    }
}
