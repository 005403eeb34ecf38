//! Many saved runs side by side, as `wasmeter compare RUN…` puts them: core decides every
//! figure, interval, geomean and warning; the page only lays them out.

use super::runs::saved;
use crate::{CmdResult, CommandError, Workbench};
use serde::Deserialize;
use wasmeter_core::analysis::{CompareOptions, Comparison, compare_runs as compare, summarize};
use wasmeter_core::export::Report;
use wasmeter_core::store::SavedRun;

/// How runs are compared when exported, as the compare screen asked for them.
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS)]
#[ts(optional_fields)]
pub struct CompareRequest {
    /// A runtime or `none`; native when absent.
    pub normalize: Option<String>,
    /// Columns by machine; by run when absent.
    pub by_machine: Option<bool>,
}

/// Loads runs `ids` in the order given; the comparison keeps that order for its columns.
pub fn load_all(state: &Workbench, ids: &[String]) -> CmdResult<Vec<SavedRun>> {
    ids.iter().map(|id| saved(state, id)).collect()
}

/// Core's comparison of `runs`; too few runs or runs of different suites are its one line.
pub fn comparison(runs: &[SavedRun], opts: &CompareOptions) -> CmdResult<Comparison> {
    compare(runs, opts).map_err(|e| CommandError::new("invalid_input", e))
}

/// The report of runs compared, as `wasmeter export RUN RUN RUN…` writes it: each run with
/// its summary against `baseline`, led by their comparison.
pub fn report<'a>(
    runs: &'a [SavedRun],
    baseline: Option<&str>,
    opts: &CompareOptions,
) -> CmdResult<Report<'a>> {
    let c = comparison(runs, opts)?;
    let with = runs.iter().map(|r| (r, summarize(r, baseline))).collect();
    Ok(Report::new(with, None).with_comparison(c))
}

/// Runs `runs` side by side: runtime × test × run, each relative to its own run's
/// `normalize` runtime with its 95 % interval, the geomeans and what differs between runs.
#[tauri::command(rename_all = "snake_case")]
pub async fn compare_runs(
    state: tauri::State<'_, Workbench>,
    runs: Vec<String>,
    normalize: Option<String>,
    by_machine: Option<bool>,
) -> CmdResult<Comparison> {
    let loaded = load_all(&state, &runs)?;
    comparison(
        &loaded,
        &CompareOptions::new(normalize.as_deref(), by_machine),
    )
}
