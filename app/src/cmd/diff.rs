//! `wasmeter diff A B` (two runs) or `wasmeter diff A --runtimes X,Y` (two runtimes).

use super::Ctx;
use crate::InputError;
use crate::fmt::{duration_ns, table};
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{Diff, compare_runtimes, diff_runs};

pub fn main(
    ctx: &Ctx,
    a: &str,
    b: Option<&str>,
    runtimes: &[String],
    threshold: f64,
    json: bool,
) -> Result<ExitCode> {
    let run_a = super::load(ctx, a)?;
    let diff = match (b, runtimes) {
        (Some(b), []) => diff_runs(&run_a, &super::load(ctx, b)?, threshold),
        (None, [x, y]) => compare_runtimes(&run_a, x, y, threshold),
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

/// The diff as text: warnings first, then the rows and what only one side has.
pub fn render(d: &Diff) -> String {
    let mut out = String::new();
    for w in &d.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    let (f, s, n) = d.counts();
    out.push_str(&format!(
        "{} → {}: {f} faster, {s} slower, {n} no change (B/A with 95 % bootstrap interval; noise threshold {} %)\n",
        d.a, d.b, d.threshold_pct
    ));
    let rows: Vec<Vec<String>> = d
        .rows
        .iter()
        .map(|r| {
            vec![
                r.runtime.clone(),
                r.test.clone(),
                r.phase.clone(),
                duration_ns(r.a_median),
                duration_ns(r.b_median),
                format!("{:.3} [{:.3}, {:.3}]", r.ratio, r.ci_low, r.ci_high),
                r.verdict.to_string(),
            ]
        })
        .collect();
    let header = [
        "runtime",
        "test",
        "phase",
        "A",
        "B",
        "B/A [95% CI]",
        "verdict",
    ]
    .map(String::from);
    out.push_str(&table(&header, &rows, 3));
    for (keys, what) in [(&d.only_a, "only in A"), (&d.only_b, "only in B")] {
        for k in keys {
            out.push_str(&format!(
                "{what}: {} × {} ({})\n",
                k.runtime, k.test, k.phase
            ));
        }
    }
    out
}
