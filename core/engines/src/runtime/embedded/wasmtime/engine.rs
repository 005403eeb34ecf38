//! wasmtime as wasmeter sees it: its registration (presets and settings) and its
//! [`EmbeddedEngine`] implementations, one per kind of configuration: a
//! [`WasmtimeVariant`], and [`WasmtimeHttp`] serving wasi:http components.

use super::{WASMTIME_SETTINGS, WasmtimeCompiler, WasmtimeVariant};
use crate::profile::Method;
use crate::runtime::embedded::{Embedded, EmbeddedEngine, Feature, Preset, Registration};
#[cfg(feature = "wasmtime")]
use crate::runtime::suite_api::gateway::{Backend, GatewaySpec};
#[cfg(feature = "wasmtime")]
use crate::runtime::{Failure, Runtime};
use crate::suite::Execution;

/// wasmtime's registration: its presets and its settings.
pub const ENGINE: Registration = Registration {
    presets: &[
        Preset {
            id: "wasmtime",
            make: || Embedded::new(WasmtimeVariant::DEFAULT),
            description: "Cranelift, default configuration",
        },
        Preset {
            id: "wasmtime-pooling",
            make: || Embedded::new(WasmtimeVariant::POOLING),
            description: "Cranelift, pooling allocator, copy-on-write memory init",
        },
        Preset {
            id: "wasmtime-pooling-nocow",
            make: || Embedded::new(WasmtimeVariant::POOLING_NOCOW),
            description: "Cranelift, pooling allocator, data segments copied at instantiation (lifecycle suite only)",
        },
        Preset {
            id: "wasmtime-winch",
            make: || Embedded::new(WasmtimeVariant::WINCH),
            description: "Winch baseline compiler",
        },
        Preset {
            id: "wasmtime-o0",
            make: || Embedded::new(WasmtimeVariant::O0),
            description: "Cranelift, opt-level none",
        },
        Preset {
            id: "wasmtime-serial",
            make: || Embedded::new(WasmtimeVariant::SERIAL),
            description: "Cranelift, parallel compilation off: one thread compiles (lifecycle suite only)",
        },
        Preset {
            id: "wasmtime-http",
            make: || Embedded::new(WasmtimeHttp),
            description: "wasi:http/proxy component per request (wasmtime-wasi-http), Cranelift, pooling allocator, copy-on-write (gateway and servers suites)",
        },
    ],
    settings: Some(&WASMTIME_SETTINGS),
};

impl EmbeddedEngine for WasmtimeVariant {
    fn version(&self) -> &'static str {
        env!("WASMETER_WASMTIME_VERSION")
    }

    fn feature(&self) -> Feature {
        FEATURE
    }

    fn set(&self, name: &str, value: &str) -> Result<Embedded, String> {
        WasmtimeVariant::with(*self, name, value).map(Embedded::new)
    }

    fn cannot_run_components(&self) -> Option<&'static str> {
        None
    }

    fn profile_method(&self) -> Method {
        match self.compiler {
            WasmtimeCompiler::Cranelift => Method::EnginePerfMap("wasmtime"),
            WasmtimeCompiler::Winch => Method::EnginePerfMap("wasmtime (Winch)"),
        }
    }

    fn cannot_show_code(&self, _runtime: &str) -> Option<String> {
        None
    }

    #[cfg(feature = "wasmtime")]
    fn check(&self) -> Result<(), String> {
        ::wasmtime::Engine::new(&self.config(16))
            .map(|_| ())
            .map_err(|e| format!("{e:#}"))
    }

    #[cfg(feature = "wasmtime")]
    fn runtime(&self) -> Result<Box<dyn Runtime>, Failure> {
        Ok(Box::new(super::Wasmtime::new(*self)?))
    }

    #[cfg(feature = "wasmtime")]
    fn lifecycle(
        &self,
    ) -> Result<Box<dyn crate::runtime::suite_api::lifecycle::Engine>, Failure> {
        Ok(Box::new(super::lifecycle::WasmtimeEngine::new(*self)?))
    }

    #[cfg(feature = "wasmtime")]
    fn gateway(&self, spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
        // Guests run on the server threads: one instance per thread is alive at most; a
        // few spare slots cost only address space.
        let slots = (spec.threads * 4).max(16) as u32;
        Ok(Box::new(super::gateway::WasmtimeBackend::new(
            *self,
            &spec.wasm,
            slots,
            spec.memory_limit,
        )?))
    }

    #[cfg(feature = "wasmtime")]
    fn module_code(
        &self,
        runtime: &str,
        module: &[u8],
    ) -> Result<Vec<crate::profile::code::CompiledFunction>, String> {
        super::code::module_code(*self, runtime, module)
    }
}

/// wasmtime's feature, which both its engines (the command one and wasmtime-http) need.
const FEATURE: Feature = Feature {
    name: "wasmtime",
    on: cfg!(feature = "wasmtime"),
};

/// wasmtime serving a `wasi:http/proxy` component per request (wasmtime-wasi-http,
/// pooling allocator): the gateway suite's production-shaped variant.
#[derive(Debug, Clone, Copy)]
pub struct WasmtimeHttp;

impl EmbeddedEngine for WasmtimeHttp {
    fn version(&self) -> &'static str {
        env!("WASMETER_WASMTIME_VERSION")
    }

    fn feature(&self) -> Feature {
        FEATURE
    }

    fn not_for(&self, how: Execution) -> Option<&'static str> {
        match how {
            Execution::Commands | Execution::InProcess => {
                Some("serves wasi:http components per request: the gateway and servers suites only")
            }
            Execution::PerRequest | Execution::ServerPrograms => None,
        }
    }

    fn cannot_run_components(&self) -> Option<&'static str> {
        None
    }

    fn profile_method(&self) -> Method {
        Method::Unattributed("not a command runtime".into())
    }

    #[cfg(feature = "wasmtime")]
    fn runtime(&self) -> Result<Box<dyn Runtime>, Failure> {
        Err(Failure::Unavailable(
            self.not_for(Execution::Commands).unwrap_or_default().into(),
        ))
    }

    #[cfg(feature = "wasmtime")]
    fn gateway(&self, spec: &GatewaySpec) -> Result<Box<dyn Backend>, String> {
        Ok(Box::new(super::gateway_http::WasmtimeHttpBackend::new(
            spec,
        )?))
    }
}
