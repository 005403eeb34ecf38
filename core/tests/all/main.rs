//! Core's integration tests, one test binary (one link of wasmtime, wasmer and polars instead of one per file).
//!
//! One binary per crate keeps the heavy crates linked once (wasmtime's `tests/all` pattern);
//! `cargo test --test all MODULE::` runs one module.

mod compute_suite;
mod cpu_accounting;
mod features;
mod history_index;
mod http_levels;
mod kind_cost;
mod lifecycle;
mod module_cycles;
mod native_library;
mod room_sizes;
mod scale;
mod statistics;
mod store_roundtrip;
