//! Tauri's build step: embeds tauri.conf.json, the capability files and the built page.

fn main() {
    let dist = std::path::Path::new("web/dist/index.html");
    println!("cargo:rerun-if-changed=web/dist");
    if !dist.is_file() {
        panic!(
            "ui-desktop/web/dist is missing: build the page first with \
             `npm --prefix ui-desktop/web ci && npm --prefix ui-desktop/web run build` \
             (scripts/test and scripts/desktop do this)"
        );
    }
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(
        tauri_build::AppManifest::new().commands(&[
            "list_runtimes",
            "list_suites",
            "run_policy",
            "start_run",
            "plan_scope",
            "check_modules",
            "start_modules_run",
            "pick_paths",
            "cancel_run",
            "list_runs",
            "load_run",
            "diff_runs",
            "diff_runtimes",
            "compare_runs",
            "history",
            "delete_run",
            "export_report",
        ]),
    ))
    .expect("tauri build step failed");
}
