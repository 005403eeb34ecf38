//! `wasmeter export RUN [RUN…] --format F -o FILE`: one run, the diff of two, or many runs
//! compared.

use super::Ctx;
use crate::InputError;
use anyhow::{Context, Result};
use std::io::Write;
use std::process::ExitCode;
use wasmeter_core::analysis::{DiffOptions, compare_runs, diff_runs, summarize};
use wasmeter_core::export::{Format, Report, export_to, exporter, is_comparison};

/// How runs are put together: the diff's threshold and normalisation, or a comparison.
pub struct Options<'a> {
    pub threshold: f64,
    pub normalize: Option<&'a str>,
    pub compare: bool,
    pub by: &'a str,
}

pub fn main(
    ctx: &Ctx,
    specs: &[String],
    format: &str,
    output: &str,
    baseline: Option<&str>,
    opts: Options,
) -> Result<ExitCode> {
    if format == "hgrm" {
        return histograms(ctx, specs, output);
    }
    let format: Format = format
        .parse()
        .map_err(|e: String| InputError(format!("{e}, or hgrm")))?;
    let compared = is_comparison(specs.len(), opts.compare);
    if compared && specs.len() < 2 {
        return Err(InputError("--compare takes at least two runs".into()).into());
    }
    // Options are checked before any run is read: a bad flag is the error, not a run.
    let copts = super::compare::options(opts.by, opts.normalize)?;
    let dopts = DiffOptions::parse(opts.threshold, opts.normalize)
        .map_err(|e| InputError(e.to_string()))?;
    let runs = specs
        .iter()
        .map(|s| super::load(ctx, s))
        .collect::<Result<Vec<_>>>()?;
    if format == Format::Folded
        && let Some(run) = runs.iter().find(|r| r.meta.settings.profile.is_none())
    {
        return Err(InputError(format!(
            "--format folded exports profiles; run {} has none: run it with --profile",
            run.meta.id
        ))
        .into());
    }
    let with = runs.iter().map(|r| (r, summarize(r, baseline))).collect();
    let report = if compared {
        let c = compare_runs(&runs, &copts).map_err(|e| InputError(e.to_string()))?;
        Report::new(with, None).with_comparison(c)
    } else {
        let diff = match runs.as_slice() {
            [a, b] => Some(diff_runs(a, b, &dopts).map_err(|e| InputError(e.to_string()))?),
            _ => None,
        };
        Report::new(with, diff)
    };
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

/// One run's open-model histograms as `.hgrm` files in the directory `output` (created), or
/// on stdout one after another, each after a `# file` line.
fn histograms(ctx: &Ctx, specs: &[String], output: &str) -> Result<ExitCode> {
    let [spec] = specs else {
        return Err(
            InputError("--format hgrm exports one run's histograms; give one run".into()).into(),
        );
    };
    let run = super::load(ctx, spec)?;
    let files = wasmeter_core::export::hgrm_files(&run).map_err(|e| InputError(e.to_string()))?;
    if files.is_empty() {
        return Err(InputError(format!(
            "run {} has no latency histograms: only HTTP runs with --rates (or a test's `rates`) save them",
            run.meta.id
        ))
        .into());
    }
    if output == "-" {
        let mut out = std::io::stdout().lock();
        for (name, text) in &files {
            writeln!(out, "# {name}")?;
            out.write_all(text.as_bytes())?;
        }
        out.flush()?;
        return Ok(ExitCode::SUCCESS);
    }
    let dir = std::path::Path::new(output);
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in &files {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!("wrote {} .hgrm files in {output}", files.len());
    Ok(ExitCode::SUCCESS)
}
