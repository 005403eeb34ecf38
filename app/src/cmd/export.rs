//! `wasmeter export RUN [RUN2] --format F -o FILE`.

use super::Ctx;
use crate::InputError;
use anyhow::{Context, Result};
use std::io::Write;
use std::process::ExitCode;
use wasmeter_core::analysis::{DiffOptions, diff_runs, summarize};
use wasmeter_core::export::{Format, Report, export_to, exporter};

pub fn main(
    ctx: &Ctx,
    run: &str,
    run2: Option<&str>,
    format: &str,
    output: &str,
    baseline: Option<&str>,
    (threshold, normalize): (f64, &str),
) -> Result<ExitCode> {
    let format: Format = format.parse().map_err(InputError)?;
    let opts = DiffOptions::parse(threshold, normalize).map_err(|e| InputError(e.to_string()))?;
    let a = super::load(ctx, run)?;
    let b = run2.map(|r| super::load(ctx, r)).transpose()?;
    let diff = match &b {
        Some(b) => Some(diff_runs(&a, b, &opts).map_err(|e| InputError(e.to_string()))?),
        None => None,
    };
    let mut runs = vec![(&a, summarize(&a, baseline))];
    if let Some(b) = &b {
        runs.push((b, summarize(b, baseline)));
    }
    let report = Report::new(runs, diff);
    if output == "-" {
        let mut out = std::io::stdout().lock();
        exporter(format).write(&report, &mut out)?;
        out.flush()?;
    } else {
        export_to(format, &report, std::path::Path::new(output))
            .context("cannot write the export")?;
        eprintln!("wrote {output}");
    }
    Ok(ExitCode::SUCCESS)
}
