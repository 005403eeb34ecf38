//! Saved runs: the listing (broken runs included, with their error), one run's report,
//! the diff of two, and deletion. Runs are named by id and must live in the results
//! directory: the page cannot reach other files through these commands.

use crate::{CmdResult, CommandError, Workbench};
use serde::Serialize;
use std::path::PathBuf;
use wasmeter_core::analysis::{
    DEFAULT_THRESHOLD_PCT, DiffOptions, compare_runtimes, compare_tests, diff_headline,
    diff_runs as diff, summarize,
};
use wasmeter_core::export::Report;
use wasmeter_core::store::{
    RunMeta, SavedRun, list_runs as listing, load_run as load, resolve_run,
};

/// A run directory as listed: its metadata, or the error that names the broken file.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct RunListItem {
    /// Directory name (the run id).
    pub id: String,
    /// Metadata, when it could be read.
    pub meta: Option<RunMeta>,
    /// Why it could not be read.
    pub error: Option<String>,
}

/// Every saved run, newest first.
#[tauri::command(rename_all = "snake_case")]
pub async fn list_runs(state: tauri::State<'_, Workbench>) -> CmdResult<Vec<RunListItem>> {
    let mut items: Vec<RunListItem> = listing(&state.results)?
        .into_iter()
        .map(|l| {
            let id = l
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match l.meta {
                Ok(meta) => RunListItem {
                    id,
                    meta: Some(meta),
                    error: None,
                },
                Err(e) => RunListItem {
                    id,
                    meta: None,
                    error: Some(e.to_string()),
                },
            }
        })
        .collect();
    items.reverse();
    Ok(items)
}

/// The directory of run `id` (an id, unique prefix or `latest`) inside the results dir.
pub fn run_dir(state: &Workbench, id: &str) -> CmdResult<PathBuf> {
    if id.is_empty() || id.contains(['/', '\\']) || id.starts_with('.') {
        return Err(CommandError::new(
            "invalid_input",
            format!("'{id}' is not a run id"),
        ));
    }
    let dir = resolve_run(&state.results, id)?;
    let inside = |p: &std::path::Path| p.canonicalize().ok();
    if dir.parent().and_then(inside) != inside(&state.results) {
        return Err(CommandError::new(
            "not_found",
            format!("no saved run '{id}' in {}", state.results.display()),
        ));
    }
    Ok(dir)
}

/// Loads run `id` whole.
pub fn saved(state: &Workbench, id: &str) -> CmdResult<SavedRun> {
    Ok(load(&run_dir(state, id)?)?)
}

/// The report of one or two runs (two: with their diff), as the exporters see it.
pub fn build<'a>(
    runs: &'a [SavedRun],
    baseline: Option<&str>,
    threshold_pct: Option<f64>,
    normalize: Option<&str>,
    allow_busy: bool,
) -> CmdResult<Report<'a>> {
    let mut opts = DiffOptions::parse(threshold_pct.unwrap_or(DEFAULT_THRESHOLD_PCT), normalize)
        .map_err(|e| CommandError::new("invalid_input", e))?;
    opts.allow_busy = allow_busy;
    let d = match runs {
        [a, b] => Some(diff(a, b, &opts).map_err(|e| CommandError::new("invalid_input", e))?),
        _ => None,
    };
    Ok(Report::new(
        runs.iter().map(|r| (r, summarize(r, baseline))).collect(),
        d,
    ))
}

fn to_json(report: &Report) -> CmdResult<serde_json::Value> {
    serde_json::to_value(report).map_err(|e| CommandError::new("io", e))
}

/// One run's report: metadata, summary against `baseline`, distributions, samples.
#[tauri::command(rename_all = "snake_case")]
pub async fn load_run(
    state: tauri::State<'_, Workbench>,
    id: String,
    baseline: Option<String>,
) -> CmdResult<serde_json::Value> {
    let run = [saved(&state, &id)?];
    to_json(&build(&run, baseline.as_deref(), None, None, false)?)
}

/// Run `b` against run `a`: both reports and the diff with intervals and warnings.
/// `allow_busy`: verdicts from invocations measured on a busy machine too (`--allow-busy`).
#[tauri::command(rename_all = "snake_case")]
pub async fn diff_runs(
    state: tauri::State<'_, Workbench>,
    a: String,
    b: String,
    threshold_pct: Option<f64>,
    normalize: Option<String>,
    allow_busy: Option<bool>,
) -> CmdResult<serde_json::Value> {
    let runs = [saved(&state, &a)?, saved(&state, &b)?];
    let allow = allow_busy.unwrap_or(false);
    to_json(&build(
        &runs,
        None,
        threshold_pct,
        normalize.as_deref(),
        allow,
    )?)
}

/// Runtime `b` against runtime `a` inside run `id`, paired by round: `wasmeter diff RUN
/// --runtimes A,B`; with `of: "tests"`, test `b` against test `a` (`--tests A,B`). The
/// diff and its headline, in core's words.
#[tauri::command(rename_all = "snake_case")]
pub async fn diff_runtimes(
    state: tauri::State<'_, Workbench>,
    id: String,
    a: String,
    b: String,
    of: Option<String>,
    threshold_pct: Option<f64>,
) -> CmdResult<serde_json::Value> {
    let run = saved(&state, &id)?;
    let opts = DiffOptions::parse(threshold_pct.unwrap_or(DEFAULT_THRESHOLD_PCT), None)
        .map_err(|e| CommandError::new("invalid_input", e))?;
    let d = match of.as_deref() {
        None | Some("runtimes") => compare_runtimes(&run, &a, &b, &opts),
        Some("tests") => compare_tests(&run, &a, &b, &opts),
        Some(other) => {
            return Err(CommandError::new(
                "invalid_input",
                format!("a paired diff is of runtimes or tests, not '{other}'"),
            ));
        }
    }
    .map_err(|e| CommandError::new("invalid_input", e))?;
    Ok(serde_json::json!({ "diff_headline": diff_headline(&d), "diff": d }))
}

/// Deletes run `id` (the page asks for confirmation first). Refused for the run in flight.
#[tauri::command(rename_all = "snake_case")]
pub fn delete_run(state: tauri::State<'_, Workbench>, id: String) -> CmdResult<()> {
    let dir = run_dir(&state, &id)?;
    if state.busy() {
        return Err(CommandError::new(
            "busy",
            "cannot delete runs while a run is in progress",
        ));
    }
    std::fs::remove_dir_all(&dir)
        .map_err(|e| CommandError::new("io", format!("{}: {e}", dir.display())))
}
