//! `wasmeter compare RUN…`: many runs side by side, each relative to its own run's native.

use super::Ctx;
use crate::InputError;
use anyhow::{Context, Result};
use std::process::ExitCode;
use wasmeter_core::analysis::{CompareOptions, compare_runs};
use wasmeter_core::table::compare_table;

/// `--by` and `--normalize` as a comparison takes them (`compare`, `export RUN RUN RUN…`).
pub fn options(by: &str, normalize: &str) -> Result<CompareOptions> {
    let by_machine = match by {
        "machine" => true,
        "run" => false,
        other => {
            return Err(InputError(format!("--by takes machine or run, not '{other}'")).into());
        }
    };
    Ok(CompareOptions {
        normalize: (normalize != "none").then(|| normalize.to_string()),
        by_machine,
    })
}

pub fn main(
    ctx: &Ctx,
    specs: &[String],
    by: &str,
    normalize: &str,
    format: &str,
    output: Option<&std::path::Path>,
) -> Result<ExitCode> {
    let opts = options(by, normalize)?;
    let runs = specs
        .iter()
        .map(|s| super::load(ctx, s))
        .collect::<Result<Vec<_>>>()?;
    let c = compare_runs(&runs, &opts).map_err(|e| InputError(e.to_string()))?;
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
    match output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
