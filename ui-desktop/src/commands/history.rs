//! One cell's figure run after run, as `wasmeter history` gives it: core reads every saved
//! run of the results directory, summarises each (the geometric mean over invocations with
//! its 95 % interval) and finds where the level changed; the page only draws the series.

use crate::{CmdResult, CommandError, Workbench};
use wasmeter_core::history::{History, HistoryError, HistoryQuery, Results, history as read};

/// A filter as the page sends it: blank means any.
fn given(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// The query of the page's filters (blank or absent: any), core's change-point options.
pub fn query(
    suite: Option<String>,
    test: Option<String>,
    runtime: Option<String>,
    machine: Option<String>,
) -> HistoryQuery {
    HistoryQuery {
        suite: given(suite),
        test: given(test),
        runtime: given(runtime),
        machine: given(machine),
        ..HistoryQuery::default()
    }
}

impl From<HistoryError> for CommandError {
    fn from(e: HistoryError) -> CommandError {
        match e {
            HistoryError::Store(e) => e.into(),
            HistoryError::Query(_) => CommandError::new("invalid_input", e),
            HistoryError::Remote { .. } => CommandError::new("io", e),
        }
    }
}

/// Every series of the cells asked for (suite × test × runtime × machine × timing source),
/// points oldest first, with their change points; read off the async runtime's threads,
/// since a long history is many files.
#[tauri::command(rename_all = "snake_case")]
pub async fn history(
    state: tauri::State<'_, Workbench>,
    suite: Option<String>,
    test: Option<String>,
    runtime: Option<String>,
    machine: Option<String>,
) -> CmdResult<History> {
    let results = Results::Local(state.results.clone());
    let q = query(suite, test, runtime, machine);
    tauri::async_runtime::spawn_blocking(move || read(&results, &q))
        .await
        .map_err(|e| CommandError::new("io", format!("history stopped: {e}")))?
        .map_err(CommandError::from)
}
