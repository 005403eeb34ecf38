//! Export through the system's save dialog: the only place the app writes outside the
//! results directory is a file the user picked.

use super::compare::{CompareRequest, load_all, report as compared};
use super::runs::build;
use crate::{CmdResult, CommandError, Workbench};
use tauri_plugin_dialog::DialogExt;
use wasmeter_core::analysis::CompareOptions;
use wasmeter_core::export::{Format, export_to, is_comparison};

/// Asks where to save, then writes the report of `runs`: one, two with their diff, or, with
/// `compare` (the default options implied by more than two runs), the runs compared as the
/// compare screen shows them. Returns the file written, or `None` when the user cancelled.
#[tauri::command(rename_all = "snake_case")]
pub async fn export_report<R: tauri::Runtime>(
    app: tauri::AppHandle<R>,
    state: tauri::State<'_, Workbench>,
    runs: Vec<String>,
    format: String,
    baseline: Option<String>,
    threshold_pct: Option<f64>,
    compare: Option<CompareRequest>,
) -> CmdResult<Option<String>> {
    let fmt: Format = format
        .parse()
        .map_err(|e| CommandError::new("invalid_input", e))?;
    let compare = match compare {
        None if is_comparison(runs.len(), false) => Some(CompareRequest::default()),
        c => c,
    };
    if runs.is_empty() {
        return Err(CommandError::new(
            "invalid_input",
            "export one run, two to diff, or two or more to compare",
        ));
    }
    let loaded = load_all(&state, &runs)?;
    // Built before asking: runs that cannot be diffed or compared should not cost a dialog.
    let (report, name) = if let Some(c) = compare {
        let opts = CompareOptions::new(c.normalize.as_deref(), c.by_machine);
        let r = compared(&loaded, baseline.as_deref(), &opts)?;
        let name = format!("{}-{}-runs-compared", loaded[0].meta.suite, loaded.len());
        (r, name)
    } else {
        let r = build(&loaded, baseline.as_deref(), threshold_pct, None, false)?;
        (r, runs.join("-vs-"))
    };
    let ext = fmt.extension();
    let Some(path) = app
        .dialog()
        .file()
        .set_file_name(format!("{name}.{ext}"))
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
