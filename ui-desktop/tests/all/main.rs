//! The desktop app's tests, one test binary: commands through Tauri's mock runtime, and the real app end to end.
//!
//! One binary per crate keeps the heavy crates linked once (wasmtime's `tests/all` pattern);
//! `cargo test --test all MODULE::` runs one module.

mod bindings;
mod commands;
mod compare;
mod e2e;
mod format;
mod headline;
mod history;
mod live_batches;
mod modules;
