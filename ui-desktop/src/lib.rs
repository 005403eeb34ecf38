//! wasmeter's desktop app: a Tauri v2 shell over `wasmeter-core`. Every command is a few
//! lines calling core; run events stream to the page through `tauri::ipc::Channel`;
//! errors cross as `{code, message}`. The page lives in `web/` (TypeScript + Vite).

pub mod bindings;
pub mod commands;
mod error;
mod workbench;

pub use error::{CmdResult, CommandError};
pub use workbench::{Planner, Workbench};

/// The builder with every command, plugin and the shared state; the real app and the
/// mock-runtime tests both start from it.
pub fn builder<R: tauri::Runtime>(
    builder: tauri::Builder<R>,
    workbench: Workbench,
) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .manage(workbench)
        .invoke_handler(tauri::generate_handler![
            commands::catalog::list_runtimes,
            commands::catalog::list_suites,
            commands::catalog::run_policy,
            commands::run::start_run,
            commands::run::plan_scope,
            commands::modules::check_modules,
            commands::modules::start_modules_run,
            commands::modules::pick_paths,
            commands::run::cancel_run,
            commands::runs::list_runs,
            commands::runs::load_run,
            commands::runs::diff_runs,
            commands::runs::diff_runtimes,
            commands::compare::compare_runs,
            commands::history::history,
            commands::runs::delete_run,
            commands::export::export_report,
        ])
}

/// Opens the window and blocks until it closes.
pub fn run(workbench: Workbench) -> Result<(), tauri::Error> {
    builder(tauri::Builder::default(), workbench).run(tauri::generate_context!())
}
