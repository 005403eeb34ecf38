//! `wasmeter`: benchmark WebAssembly runtimes against each other and against native code.

mod args;
mod cmd;

use clap::Parser;
use std::process::ExitCode;

/// An error in what the user asked for (exit code 2), as opposed to a failed run.
#[derive(Debug)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

fn main() -> ExitCode {
    let started = std::time::Instant::now();
    // A cell's worker or a gateway cell's server, started by the runner: core handles it.
    if let Some(code) = wasmeter_core::runner::worker_entry() {
        return code;
    }
    let cli = args::Cli::parse();
    match cmd::dispatch(cli, started) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("wasmeter: {e:#}");
            if e.downcast_ref::<InputError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
