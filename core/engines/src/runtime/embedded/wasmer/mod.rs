//! wasmer, embedded: its compilers, and the engine behind the command suites
//! ([`command`]), the lifecycle suite ([`lifecycle`]) and the gateway ([`gateway`]). Adding
//! a wasmer configuration is a [`WasmerCompiler`] variant here and its row in
//! [`super::EMBEDDED`].

mod engine;
pub use engine::ENGINE;
#[cfg(feature = "wasmer")]
mod perf_map;

#[cfg(feature = "wasmer")]
mod command;
#[cfg(feature = "wasmer")]
pub mod gateway;
#[cfg(feature = "wasmer")]
pub mod lifecycle;

#[cfg(feature = "wasmer")]
pub use command::Wasmer;
#[cfg(feature = "wasmer")]
pub use command::unknown_import;

/// The wasmer compilers wasmeter compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WasmerCompiler {
    /// Cranelift, the default optimising compiler.
    Cranelift,
    /// Singlepass, a fast baseline compiler.
    Singlepass,
}

/// wasmer's settings, as `--set wasmer.NAME=…` and `wasmer[NAME=…]` take them.
pub const WASMER_SETTINGS: crate::runtime::settings::EngineSettings =
    crate::runtime::settings::EngineSettings {
        engine: "wasmer",
        base: "wasmer-cranelift",
        settings: &[crate::runtime::settings::Setting {
            name: "compiler",
            values: crate::runtime::settings::Values::OneOf(&["cranelift", "singlepass"]),
            default: "cranelift",
            what: "optimising compiler, or a single fast pass",
        }],
        cli: None,
    };

impl WasmerCompiler {
    /// This compiler with one setting changed (the only one: `compiler`).
    pub fn with(self, name: &str, value: &str) -> Result<WasmerCompiler, String> {
        match (name, value) {
            ("compiler", "singlepass") => Ok(WasmerCompiler::Singlepass),
            ("compiler", _) => Ok(WasmerCompiler::Cranelift),
            (other, _) => Err(format!("wasmer has no setting '{other}'")),
        }
    }
}

#[cfg(feature = "wasmer")]
impl WasmerCompiler {
    /// A wasmer engine with this compiler: the same for every suite.
    pub fn engine(self) -> wasmer::Engine {
        match self {
            WasmerCompiler::Cranelift => {
                let mut c = wasmer::sys::Cranelift::default();
                // A profiled worker names the code it compiles in /tmp/perf-PID.map.
                if crate::profile::perf_maps_wanted() {
                    use wasmer::sys::CompilerConfig;
                    c.enable_perfmap();
                }
                c.into()
            }
            WasmerCompiler::Singlepass => {
                let c = wasmer::sys::Singlepass::default();
                if crate::profile::perf_maps_wanted() {
                    wasmer::sys::EngineBuilder::new(perf_map::PerfMapped(c)).into()
                } else {
                    c.into()
                }
            }
        }
    }
}

/// A wasmer error as a failure.
#[cfg(feature = "wasmer")]
fn other(e: impl std::fmt::Display) -> crate::runtime::Failure {
    crate::runtime::Failure::Other(e.to_string())
}
