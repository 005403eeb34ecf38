//! `wasmeter features`: which runtime supports which WebAssembly proposal and WASI call.
//! Probing is a run of the `features` suite (one invocation of one iteration a cell, in
//! workers with the suite's timeout and memory cap), saved like any run; a CLI runtime that
//! declares feature flags runs a second time with them on (`ID+flags`), so a feature it
//! supports only when asked reads "needs a flag".

use super::Ctx;
use crate::InputError;
use crate::args::FeaturesArgs;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::summarize;
use wasmeter_core::export::{Format, Report, exporter};
use wasmeter_core::features::{Matrix, SUITE, render_diff, table};
use wasmeter_core::runner::{Plan, RunChoices, RunRequest};
use wasmeter_core::runtime::{in_defaults, known_runtimes};
use wasmeter_core::store::{RunStatus, SavedRun};

/// What `--format` takes.
const FORMATS: [&str; 5] = ["text", "md", "csv", "html", "json"];

pub fn main(ctx: &Ctx, args: FeaturesArgs) -> Result<ExitCode> {
    let format = if args.json {
        "json"
    } else {
        args.format.as_str()
    };
    if !FORMATS.contains(&format) {
        return Err(InputError(format!(
            "--format: unknown format '{format}' (expected {})",
            FORMATS.join(", ")
        ))
        .into());
    }
    if let [a, b] = args.diff.as_slice() {
        let (a, b) = (saved(ctx, a)?, saved(ctx, b)?);
        let changes = a.diff(&b);
        let text = match format {
            "json" => {
                serde_json::to_string_pretty(&serde_json::json!({
                    "a": a.run, "b": b.run, "changes": changes,
                }))? + "\n"
            }
            "text" => render_diff(&a, &b, &changes),
            other => {
                return Err(InputError(format!("--diff writes text or json, not {other}")).into());
            }
        };
        return super::write_output(args.output.as_deref(), &text).map(|()| ExitCode::SUCCESS);
    }
    let (run, complete) = match &args.run {
        Some(spec) => (super::load(ctx, spec)?, true),
        None => probe(ctx, &super::ids(&args.runtimes))?,
    };
    let matrix = Matrix::from_run(&run).map_err(|e| InputError(e.to_string()))?;
    let text = match format {
        "json" => serde_json::to_string_pretty(&matrix)? + "\n",
        "text" => table(&matrix).to_text(),
        // The exports of a features run are its matrix (core's exporters, as `export`).
        other => {
            let format: Format = other.parse().map_err(InputError)?;
            let report = Report::new(vec![(&run, summarize(&run, None))], None);
            let mut out = Vec::new();
            exporter(format).write(&report, &mut out)?;
            String::from_utf8_lossy(&out).into_owned()
        }
    };
    super::write_output(args.output.as_deref(), &text)?;
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The matrix of a saved run; a run of another suite is an input error.
fn saved(ctx: &Ctx, spec: &str) -> Result<Matrix> {
    let run = super::load(ctx, spec)?;
    Matrix::from_run(&run).map_err(|e| InputError(e.to_string()).into())
}

/// Runs the probes on `runtimes` (default: every available runtime; core's plan adds each
/// CLI runtime's flagged variant); the saved run, and whether it completed.
fn probe(ctx: &Ctx, runtimes: &[String]) -> Result<(SavedRun, bool)> {
    let suite = ctx
        .catalog()?
        .get(SUITE)
        .map_err(|e| InputError(e.to_string()))?
        .clone();
    let config = ctx.config()?;
    let ids = if runtimes.is_empty() {
        known_runtimes(&config)
            .into_iter()
            .filter(|r| r.available() && in_defaults(&r.id))
            .map(|r| r.id)
            .collect()
    } else {
        runtimes.to_vec()
    };
    let choices = RunChoices {
        runtimes: ids,
        invocations: Some(1),
        runs: Some(1),
        warmup: Some(0),
        ..RunChoices::default()
    };
    let plan = Plan::new(RunRequest::from_choices(suite, choices, config))
        .map_err(|e| InputError(e.to_string()))?;
    let (outcome, run) = super::run::execute_plan(ctx, &plan, None)?;
    eprintln!(
        "wasmeter: features run {} ({}) saved in {}",
        outcome.run_id,
        outcome.status,
        outcome.dir.display()
    );
    Ok((run, outcome.status == RunStatus::Complete))
}
