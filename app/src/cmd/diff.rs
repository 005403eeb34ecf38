//! `wasmeter diff A B` (two runs), `wasmeter diff A --runtimes X,Y` (two runtimes) or
//! `wasmeter diff A --tests X,Y` (two tests), optionally as a CI gate (`--fail-on`).

use super::Ctx;
use crate::InputError;
use anyhow::Result;
use std::process::ExitCode;
use wasmeter_core::analysis::{
    Diff, DiffOptions, FailOn, GateRule, compare_runtimes, compare_tests, diff_headline, diff_runs,
    gate,
};
use wasmeter_core::export::diff_markdown;
use wasmeter_core::table::diff_table;

/// What `wasmeter diff` was given.
pub struct Args<'a> {
    pub a: &'a str,
    pub b: Option<&'a str>,
    pub runtimes: &'a [String],
    pub tests: &'a [String],
    pub phases: &'a [String],
    pub threshold: f64,
    pub normalize: Option<&'a str>,
    pub fail_on: Option<&'a str>,
    pub max_regression: Option<f64>,
    pub allow_busy: bool,
    pub format: &'a str,
}

/// `--max-regression`'s value, checked.
pub fn max_regression(pct: Option<f64>) -> Result<Option<f64>> {
    pct.map(|p| GateRule::check_margin(p).map_err(|e| InputError(e).into()))
        .transpose()
}

/// `--fail-on`'s word, checked.
pub fn fail_on(word: Option<&str>) -> Result<Option<FailOn>> {
    word.map(|w| w.parse().map_err(|e: String| InputError(e).into()))
        .transpose()
}

pub fn main(ctx: &Ctx, args: Args) -> Result<ExitCode> {
    if args.normalize.is_some() && args.b.is_none() {
        return Err(InputError(
            "--normalize applies to a diff of two runs (both arms of one run share its baseline)"
                .into(),
        )
        .into());
    }
    if !matches!(args.format, "text" | "md" | "json") {
        return Err(InputError(format!(
            "--format takes text, md or json, not '{}'",
            args.format
        ))
        .into());
    }
    let on = fail_on(args.fail_on)?;
    let margin = max_regression(args.max_regression)?;
    let mut opts = DiffOptions::parse(args.threshold, args.normalize)
        .map_err(|e| InputError(e.to_string()))?;
    opts.allow_busy = args.allow_busy;
    let run_a = super::load(ctx, args.a)?;
    let mut diff = match (args.b, args.runtimes, args.tests) {
        (Some(b), [], []) => diff_runs(&run_a, &super::load(ctx, b)?, &opts),
        (None, [x, y], []) => compare_runtimes(&run_a, x, y, &opts),
        (None, [], [x, y]) => compare_tests(&run_a, x, y, &opts),
        _ => {
            return Err(InputError(
                "give two runs (diff A B), or one run and two runtimes (diff A --runtimes X,Y) or two tests (diff A --tests X,Y)"
                    .into(),
            )
            .into());
        }
    }
    .map_err(|e| InputError(e.to_string()))?;
    diff.keep_phases(args.phases)
        .map_err(|e| InputError(e.to_string()))?;
    match args.format {
        "json" => super::print_json(&diff)?,
        "md" => print!("{}", diff_markdown(&diff)),
        _ => print!("{}", render(&diff)),
    }
    Ok(match on {
        Some(on) => {
            let g = gate(&diff, GateRule::new(on, margin, &diff));
            eprintln!("{}", g.describe());
            ExitCode::from(g.exit_code())
        }
        None => ExitCode::SUCCESS,
    })
}

/// The diff as text: the headline, warnings, then how rows were compared, then the rows (those
/// only one side has at the end).
pub fn render(d: &Diff) -> String {
    let mut out = format!("{}\n", diff_headline(d));
    for w in &d.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    for k in &d.dropped {
        let phase = if k.phase.is_empty() {
            String::new()
        } else {
            format!(" ({})", k.phase)
        };
        out.push_str(&format!(
            "no row: {} × {}{phase}: {}\n",
            k.runtime, k.test, k.why
        ));
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
