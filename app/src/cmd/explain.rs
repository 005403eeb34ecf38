//! `wasmeter explain RUN`: where each runtime spent a profiled run's time, function by
//! function, beside the baseline.

use super::Ctx;
use crate::InputError;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::profile::explain::{ExplainOptions, explain};

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
    if !matches!(format, "text" | "json") {
        return Err(InputError(format!("--format: '{format}' is not text or json")).into());
    }
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
