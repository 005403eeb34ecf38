//! `wasmeter diff A B` (two runs) or `wasmeter diff A --runtimes X,Y` (two runtimes).

use super::Ctx;
use crate::InputError;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{DEFAULT_NORMALIZE, Diff, DiffOptions, compare_runtimes, diff_runs};
use wasmeter_core::table::diff_table;

pub fn main(
    ctx: &Ctx,
    a: &str,
    b: Option<&str>,
    runtimes: &[String],
    threshold: f64,
    normalize: Option<&str>,
    json: bool,
) -> Result<ExitCode> {
    if normalize.is_some() && b.is_none() {
        return Err(InputError(
            "--normalize applies to a diff of two runs (both runtimes of one run share its baseline)"
                .into(),
        )
        .into());
    }
    let opts = DiffOptions::parse(threshold, normalize.unwrap_or(DEFAULT_NORMALIZE))
        .map_err(|e| InputError(e.to_string()))?;
    let run_a = super::load(ctx, a)?;
    let diff = match (b, runtimes) {
        (Some(b), []) => diff_runs(&run_a, &super::load(ctx, b)?, &opts),
        (None, [x, y]) => compare_runtimes(&run_a, x, y, opts.threshold_pct),
        _ => {
            return Err(InputError(
                "give two runs (diff A B) or one run and two runtimes (diff A --runtimes X,Y)"
                    .into(),
            )
            .into());
        }
    }
    .map_err(|e| InputError(e.to_string()))?;
    if json {
        super::print_json(&diff)?;
    } else {
        print!("{}", render(&diff));
    }
    Ok(ExitCode::SUCCESS)
}

/// The diff as text: warnings first, then how rows were compared, then the rows (those
/// only one side has at the end).
pub fn render(d: &Diff) -> String {
    let mut out = String::new();
    for w in &d.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    out.push_str(&format!(
        "{} → {}: {}\n{}\n",
        d.a,
        d.b,
        d.counts(),
        d.method()
    ));
    out.push_str(&diff_table(d).to_text());
    out
}
