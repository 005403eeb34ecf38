//! `wasmeter suite build NAME`: runs a suite's build script and reports what it made.

use super::Ctx;
use crate::InputError;
use anyhow::{Context, Result};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;
use wasmeter_core::runtime::cache_root;
use wasmeter_core::suite::build_scripts;

pub fn main(ctx: &Ctx, name: &str, force: bool) -> Result<ExitCode> {
    let script = ctx.suites.join(name).join("build.sh");
    if !script.is_file() {
        let with_scripts: Vec<String> = build_scripts(&ctx.suites)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        return Err(InputError(format!(
            "{}: no build script for suite '{name}' (suites with one: {})",
            script.display(),
            with_scripts.join(", ")
        ))
        .into());
    }
    eprintln!(
        "wasmeter: building suite '{name}' with {}",
        script.display()
    );
    let started = Instant::now();
    let mut cmd = Command::new("bash");
    cmd.arg(&script);
    if force {
        cmd.arg("--force");
    }
    // The script's progress and errors go straight to the user; its stdout (the
    // directory it built into) is not needed here.
    let status = cmd
        .env("WASMETER_CACHE", cache_root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .with_context(|| format!("cannot run bash {}", script.display()))?;
    let secs = started.elapsed().as_secs_f64();
    if !status.success() {
        eprintln!(
            "wasmeter: building suite '{name}' failed after {secs:.0} s ({}; {status}); the command and its log are above",
            script.display()
        );
        // A script may register what did build (the apps suite does): say it is usable.
        if let Ok(catalog) = ctx.catalog()
            && let Ok(suite) = catalog.get(name)
        {
            eprintln!(
                "wasmeter: suite '{name}' is registered with {} tests, manifest {}",
                suite.tests.len(),
                suite.dir.join("suite.toml").display()
            );
        }
        return Ok(ExitCode::FAILURE);
    }
    let catalog = ctx.catalog()?;
    let suite = catalog.get(name).map_err(|e| {
        InputError(format!(
            "{}: finished but suite '{name}' is not registered: {e}",
            script.display()
        ))
    })?;
    println!(
        "suite '{name}': {} tests, built in {secs:.1} s, manifest {}",
        suite.tests.len(),
        suite.dir.join("suite.toml").display()
    );
    Ok(ExitCode::SUCCESS)
}
