//! The terminal UI's tests, one test binary: snapshots of every screen, key flows, many runs compared, a cell's history, saturated HTTP levels, modules added by path.
//!
//! One binary per crate keeps the heavy crates linked once (wasmtime's `tests/all` pattern);
//! `cargo test --test all MODULE::` runs one module.

mod common;
mod compare;
mod flow;
mod history;
mod history_fixture;
mod http_rates;
mod http_saturated;
mod modules;
mod screens;
