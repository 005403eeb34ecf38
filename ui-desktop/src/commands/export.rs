//! Export through the system's save dialog: the only place the app writes outside the
//! results directory is a file the user picked.

use super::runs::{build, saved};
use crate::{CmdResult, CommandError, Workbench};
use tauri_plugin_dialog::DialogExt;
use wasmeter_core::export::{Format, export_to};

/// Asks where to save, then writes the report of `runs` (one, or two with their diff).
/// Returns the file written, or `None` when the user cancelled.
#[tauri::command]
pub async fn export_report<R: tauri::Runtime>(
    app: tauri::AppHandle<R>,
    state: tauri::State<'_, Workbench>,
    runs: Vec<String>,
    format: String,
    baseline: Option<String>,
    threshold_pct: Option<f64>,
) -> CmdResult<Option<String>> {
    let fmt: Format = format
        .parse()
        .map_err(|e| CommandError::new("invalid_input", e))?;
    if runs.is_empty() || runs.len() > 2 {
        return Err(CommandError::new(
            "invalid_input",
            "export one run, or two to diff",
        ));
    }
    let loaded = runs
        .iter()
        .map(|id| saved(&state, id))
        .collect::<CmdResult<Vec<_>>>()?;
    // Built before asking: runs that cannot be diffed should not cost a dialog.
    let report = build(&loaded, baseline.as_deref(), threshold_pct, None)?;
    let ext = fmt.extension();
    let Some(path) = app
        .dialog()
        .file()
        .set_file_name(format!("{}.{ext}", runs.join("-vs-")))
        .add_filter(ext, &[ext])
        .blocking_save_file()
    else {
        return Ok(None);
    };
    let path = path
        .into_path()
        .map_err(|e| CommandError::new("invalid_input", e))?;
    export_to(fmt, &report, &path).map_err(|e| CommandError::new("io", e))?;
    Ok(Some(path.display().to_string()))
}
