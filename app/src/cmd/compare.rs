//! `wasmeter compare RUN…`: many runs side by side, each relative to its own run's native.

use super::Ctx;
use crate::InputError;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{
    CompareOptions, DiffOptions, Gate, GateRule, compare_runs, diff_runs, gate,
};
use wasmeter_core::table::compare_table;

/// `--by` and `--normalize` as a comparison takes them (`compare`, `export RUN RUN RUN…`);
/// core's defaults where they are not given.
pub fn options(by: &str, normalize: Option<&str>) -> Result<CompareOptions> {
    let by_machine = match by {
        "machine" => true,
        "run" => false,
        other => {
            return Err(InputError(format!("--by takes machine or run, not '{other}'")).into());
        }
    };
    Ok(CompareOptions::new(normalize, Some(by_machine)))
}

/// What `wasmeter compare` was given besides the runs.
pub struct Args<'a> {
    pub by: &'a str,
    pub normalize: Option<&'a str>,
    pub format: &'a str,
    pub output: Option<&'a std::path::Path>,
    pub baseline: Option<&'a str>,
    pub fail_on: Option<&'a str>,
    pub max_regression: Option<f64>,
    pub threshold: f64,
    pub allow_busy: bool,
}

pub fn main(ctx: &Ctx, specs: &[String], args: Args) -> Result<ExitCode> {
    let Args {
        by,
        normalize,
        format,
        output,
        ..
    } = args;
    let on = super::diff::fail_on(args.fail_on)?;
    let margin = super::diff::max_regression(args.max_regression)?;
    let opts = options(by, normalize)?;
    let runs = specs
        .iter()
        .map(|s| super::load(ctx, s))
        .collect::<Result<Vec<_>>>()?;
    let c = compare_runs(&runs, &opts).map_err(|e| InputError(e.to_string()))?;
    let base = args.baseline.map(|b| super::load(ctx, b)).transpose()?;
    let text = match format {
        "text" => compare_table(&c).to_text(),
        "md" => compare_table(&c).to_markdown(),
        "html" => compare_table(&c).to_html(&format!(
            "wasmeter: {} runs of {}",
            c.columns.len(),
            c.suite
        )),
        "json" => serde_json::to_string_pretty(&c)? + "\n",
        other => {
            return Err(InputError(format!(
                "--format takes text, md, html or json, not '{other}'"
            ))
            .into());
        }
    };
    super::write_output(output, &text)?;
    let Some(base) = base else {
        return Ok(ExitCode::SUCCESS);
    };
    // Each other run against the baseline, as `diff BASE RUN` would (same normalisation).
    let mut dopts = DiffOptions::parse_for_compare(args.threshold, normalize)
        .map_err(|e| InputError(e.to_string()))?;
    dopts.allow_busy = args.allow_busy;
    let mut gates = Vec::new();
    for run in runs.iter().filter(|r| r.meta.id != base.meta.id) {
        let d = diff_runs(&base, run, &dopts).map_err(|e| InputError(e.to_string()))?;
        eprintln!("{} → {}: {}", d.a, d.b, d.counts());
        for w in &d.warnings {
            eprintln!("warning: {w}");
        }
        if let Some(on) = on {
            gates.push(gate(&d, GateRule::new(on, margin, &d)));
        }
    }
    Ok(match on {
        Some(_) => {
            let g = Gate::all(gates);
            eprintln!("{}", g.describe());
            ExitCode::from(g.exit_code())
        }
        None => ExitCode::SUCCESS,
    })
}
