//! End-to-end tests of the wasmeter binary, one test binary: each module runs real runtimes, real files and real processes.
//!
//! One binary per crate keeps the heavy crates linked once (wasmtime's `tests/all` pattern);
//! `cargo test --test all MODULE::` runs one module. Tests named `timed_*` assert speeds or
//! rates; `scripts/test` runs them after the rest, one at a time, so no neighbour is measured.

mod apps;
mod cli;
mod cli_runtimes;
mod common;
mod compare;
mod container;
mod faults;
mod features;
mod gate;
mod history;
mod http;
mod http_rates;
mod http_saturation;
mod interrupt;
mod libsodium;
mod lifecycle;
mod modules;
mod plans;
mod profile;
mod report;
mod sweeps;
mod tui_tmux;
mod wasi_http;
