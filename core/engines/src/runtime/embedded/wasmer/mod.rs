//! wasmer, embedded: its compilers, and the engine behind the command suites
//! ([`command`]), the lifecycle suite ([`lifecycle`]) and the gateway ([`gateway`]). Adding
//! a wasmer configuration is a [`WasmerCompiler`] variant here and its row in
//! [`super::EMBEDDED`].

mod engine;
pub use engine::ENGINE;
#[cfg(feature = "wasmer")]
mod code;
#[cfg(feature = "wasmer")]
mod watched;

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
    /// A wasmer engine with this compiler: the same for every suite. A profiled worker's
    /// engine writes wasmer's perf map, naming the code it compiles in /tmp/perf-PID.map.
    pub fn engine(self) -> wasmer::Engine {
        if crate::profile::perf_maps_wanted() {
            self.watched(true, None)
        } else {
            match self {
                WasmerCompiler::Cranelift => wasmer::sys::Cranelift::default().into(),
                WasmerCompiler::Singlepass => wasmer::sys::Singlepass::default().into(),
            }
        }
    }

    /// The engine with its compiler watched ([`watched`]): the same code, wasmer's perf map
    /// when asked, and each function's code kept in `keep` when given.
    fn watched(self, perf_map: bool, keep: Option<(watched::Kept, String)>) -> wasmer::Engine {
        use wasmer::sys::EngineBuilder;
        match self {
            WasmerCompiler::Cranelift => EngineBuilder::new(watched::Watched {
                inner: wasmer::sys::Cranelift::default(),
                perf_map,
                keep,
            })
            .into(),
            WasmerCompiler::Singlepass => EngineBuilder::new(watched::Watched {
                inner: wasmer::sys::Singlepass::default(),
                perf_map,
                keep,
            })
            .into(),
        }
    }
}

/// A wasmer error as a failure.
#[cfg(feature = "wasmer")]
fn other(e: impl std::fmt::Display) -> crate::runtime::Failure {
    crate::runtime::Failure::Other(e.to_string())
}
