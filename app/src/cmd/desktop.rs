//! `wasmeter desktop`: replaces this process with the desktop app, which lives in its own
//! binary so the CLI and the terminal UI do not need WebKitGTK to build or start.

use super::Ctx;
use crate::InputError;
use anyhow::{Context, Result};
use std::os::unix::process::CommandExt;
use std::process::ExitCode;

/// Execs `wasmeter-desktop` from beside this executable with the same results and suites.
pub fn main(ctx: &Ctx) -> Result<ExitCode> {
    let me = std::env::current_exe().context("cannot find the wasmeter executable")?;
    let desktop = me.with_file_name("wasmeter-desktop");
    if !desktop.is_file() {
        return Err(InputError(format!(
            "{}: the desktop app is not built; build and open it with scripts/desktop",
            desktop.display()
        ))
        .into());
    }
    let results = std::path::absolute(&ctx.results).context("results directory")?;
    let suites = std::path::absolute(&ctx.suites).context("suites directory")?;
    let err = std::process::Command::new(&desktop)
        .env("WASMETER_RESULTS", results)
        .env("WASMETER_SUITES", suites)
        .exec();
    Err(err).with_context(|| format!("cannot start {}", desktop.display()))
}
