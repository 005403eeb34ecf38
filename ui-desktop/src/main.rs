//! `wasmeter-desktop`: opens the desktop app. Also serves as the worker program of its own
//! runs (`wasmeter-desktop worker`, `wasmeter-desktop serve-gateway`: core's
//! `worker_entry`), so a packaged app needs no second binary.

fn main() -> std::process::ExitCode {
    if let Some(code) = wasmeter_core::runner::worker_entry() {
        return code;
    }
    let result = wasmeter_desktop::Workbench::from_env()
        .map_err(|e| format!("cannot find the wasmeter-desktop executable: {e}"))
        .and_then(|wb| wasmeter_desktop::run(wb).map_err(|e| format!("desktop app: {e}")));
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wasmeter-desktop: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
