//! `wasmeter explain RUN`: where each runtime spent a profiled run's time, function by
//! function, beside the baseline.

use super::Ctx;
use crate::InputError;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::explain::hot::{HotOptions, hot_code};
use wasmeter_core::explain::{ExplainOptions, explain};
use wasmeter_core::runtime::embedded::EngineCode;

fn check_format(format: &str) -> Result<()> {
    if matches!(format, "text" | "json") {
        Ok(())
    } else {
        Err(InputError(format!("--format: '{format}' is not text or json")).into())
    }
}

/// Prints the hot code of the run's wasmtime cells (or JSON).
pub fn hot(
    ctx: &Ctx,
    spec: &str,
    tests: Vec<String>,
    runtimes: Vec<String>,
    function: Option<String>,
    format: &str,
) -> Result<ExitCode> {
    check_format(format)?;
    let run = super::load(ctx, spec)?;
    let options = HotOptions {
        tests,
        runtimes: super::ids(&runtimes),
        function,
    };
    let code = hot_code(&run, &options, &EngineCode).map_err(|e| InputError(e.to_string()))?;
    if format == "json" {
        super::print_json(&code)?;
    } else {
        println!(
            "run {} — hot code: each function's wasm beside the machine code made of it",
            run.meta.id
        );
        for h in &code {
            println!();
            print!("{}", h.listing());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the run's explanation as tables (or JSON).
pub fn main(
    ctx: &Ctx,
    spec: &str,
    tests: Vec<String>,
    runtimes: Vec<String>,
    baseline: Option<String>,
    top: usize,
    format: &str,
) -> Result<ExitCode> {
    check_format(format)?;
    let run = super::load(ctx, spec)?;
    let options = ExplainOptions {
        tests,
        runtimes: super::ids(&runtimes),
        baseline,
    };
    let e = explain(&run, &options).map_err(|e| InputError(e.to_string()))?;
    if format == "json" {
        super::print_json(&e)?;
    } else {
        println!(
            "run {} — where the time goes, per function (ratios against {})",
            e.run, e.baseline
        );
        print!(
            "{}",
            super::show::tables_text(wasmeter_core::table::explain_tables(&e, top))
        );
    }
    Ok(ExitCode::SUCCESS)
}
