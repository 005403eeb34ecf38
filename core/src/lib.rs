//! wasmeter-core: everything that is not a screen.
//!
//! Suites are parsed from manifests ([`suite`]), run on runtimes ([`runtime`]) by the
//! [`runner`] in isolated worker processes that are sampled live ([`sample`]), saved as
//! they go ([`store`]), summarised ([`analysis`]), and shown as tables ([`table`]) whose
//! figures are written one way everywhere ([`format`]).

pub mod analysis;
pub mod config;
pub mod export;
pub mod format;
pub mod http;
pub mod lifecycle;
pub mod machine;
pub mod runner;
pub mod runtime;
pub mod sample;
pub mod store;
pub mod suite;
pub mod table;
pub(crate) mod text;

/// Version of wasmeter itself, recorded with every run.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
