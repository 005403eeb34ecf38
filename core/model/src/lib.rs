//! wasmeter-model: the words every other crate of wasmeter speaks, and where runs are kept.
//!
//! The vocabulary of a request and a result ([`model`]), suites and their manifests
//! ([`suite`]), the user's config ([`config`]), the machine and its live samples
//! ([`machine`], [`sample`]), figures as text ([`format`]) and the run store ([`store`]).
//! It imports no other crate of wasmeter's but the HTTP kit (a process's CPU clock), so the
//! engines and the reports can both build on it without depending on each other.

pub mod cache;
pub mod config;
pub mod format;
pub mod machine;
pub mod model;
pub mod random;
pub mod sample;
pub mod store;
pub mod suite;
pub mod text;

/// Version of wasmeter itself, recorded with every run (one version for the workspace).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
