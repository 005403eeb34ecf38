//! `wasmeter-desktop`: opens the desktop app. Also serves as the worker process of its own
//! runs (`wasmeter-desktop worker`), so a packaged app needs no second binary.

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("worker") {
        let code =
            wasmeter_core::runner::worker_main(std::io::stdin().lock(), std::io::stdout().lock());
        return std::process::ExitCode::from(code as u8);
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
