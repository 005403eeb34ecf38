//! The user's own modules, as `wasmeter run FILE.wasm|DIR… [--env …] [-- ARGS]` takes them:
//! picked with the open-file dialog (opened here, so the page needs no dialog permission of
//! its own), checked into the suite `modules` by core, and run like any suite. The suite
//! is staged under the results directory and kept until its run has ended.

use super::catalog::{TestView, suite_view};
use super::run::{LiveBatch, launch};
use crate::{CmdResult, CommandError, Workbench};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use tauri::ipc::Channel;
use tauri_plugin_dialog::DialogExt;
use wasmeter_core::runner::{Plan, RunChoices, RunDefaults, RunRequest, applicability};
use wasmeter_core::runtime::known_runtimes;
use wasmeter_core::suite::{
    ModuleRun, ModuleStaging, Preopen, STARTUP_TEST, Suite, SuiteKind, env_var, find_modules,
    with_natives,
};

/// Modules and how they run, as the page sends them: the flags of `wasmeter run` for
/// modules, each value as the user typed it (core checks them).
#[derive(Debug, Clone, Default, Deserialize, ts_rs::TS)]
#[ts(optional_fields)]
pub struct ModulesView {
    /// `.wasm` files and folders of them.
    pub paths: Vec<PathBuf>,
    /// Arguments after the program name (`-- ARGS`).
    #[serde(default)]
    pub args: Vec<String>,
    /// `KEY=VALUE` environment variables (`--env`).
    #[serde(default)]
    pub env: Vec<String>,
    /// A file every module reads as its stdin (`--stdin`).
    pub stdin: Option<PathBuf>,
    /// The output every runtime must print (`--expect`).
    pub expect: Option<PathBuf>,
    /// Host folders the guests see, `HOST[::GUEST]` (`--dir`).
    #[serde(default)]
    pub dirs: Vec<String>,
    /// An exported function called instead of `_start` (`--invoke`).
    pub invoke: Option<String>,
    /// Native builds, `PROGRAM` or `TEST=PROGRAM` (`--native`).
    #[serde(default)]
    pub native: Vec<String>,
}

impl ModulesView {
    /// Each module with its run, as core finds and checks them; errors are one line
    /// naming the file or value.
    pub fn modules(&self) -> CmdResult<Vec<(PathBuf, ModuleRun)>> {
        let bad = |e: String| CommandError::new("invalid_input", e);
        if self.paths.is_empty() {
            return Err(bad("add a .wasm module or a folder of them".into()));
        }
        let run = ModuleRun {
            args: self.args.clone(),
            env: self
                .env
                .iter()
                .map(|kv| {
                    env_var(kv).ok_or_else(|| bad(format!("env takes KEY=VALUE, not '{kv}'")))
                })
                .collect::<CmdResult<_>>()?,
            stdin: self.stdin.clone(),
            expect: self.expect.clone(),
            dirs: self
                .dirs
                .iter()
                .map(|d| Preopen::parse(d).map_err(bad))
                .collect::<CmdResult<_>>()?,
            invoke: match self.invoke.as_deref() {
                Some("") => return Err(bad("invoke names an exported function".into())),
                f => f.map(str::to_string),
            },
            native: None,
        };
        with_natives(&find_modules(&self.paths).map_err(bad)?, &run, &self.native).map_err(bad)
    }

    /// The suite of these modules, staged under `results`: keep the staging until the run
    /// of the suite has ended.
    pub fn stage(&self, results: &std::path::Path) -> CmdResult<(ModuleStaging, Suite)> {
        ModuleStaging::stage(results, &self.modules()?)
            .map_err(|e| CommandError::new("invalid_input", e))
    }
}

/// The suite of modules as the page lists it before running: its tests and defaults as
/// for any suite, and the runtimes that cannot run these modules with these options.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct ModulesSuiteView {
    /// Always `modules`.
    pub name: String,
    /// One line.
    pub description: String,
    /// `command`.
    pub kind: SuiteKind,
    /// What a run does where the user changes nothing.
    pub defaults: RunDefaults,
    /// One test per module, named after its file (not core's empty module for start-up).
    pub tests: Vec<TestView>,
    /// Runtime id → why it cannot run these modules (no native build, no `--env`, …).
    pub not_applicable: BTreeMap<String, String>,
}

/// What the modules at `modules.paths` become with these options: their tests, or the
/// one-line error naming the path or value at fault.
#[tauri::command(rename_all = "snake_case")]
pub async fn check_modules(
    state: tauri::State<'_, Workbench>,
    modules: ModulesView,
) -> CmdResult<ModulesSuiteView> {
    let (_staging, suite) = modules.stage(&state.results)?;
    let not_applicable = known_runtimes(&wasmeter_core::runtime::load_config()?)
        .into_iter()
        .filter_map(|r| applicability(&r, &suite).err().map(|why| (r.id, why)))
        .collect();
    let view = suite_view(suite);
    Ok(ModulesSuiteView {
        name: view.name,
        description: view.description,
        kind: view.kind,
        defaults: view.defaults,
        // The empty module core adds for CLI runtimes' start-up is not the user's to pick.
        tests: view
            .tests
            .into_iter()
            .filter(|t| t.name != STARTUP_TEST)
            .collect(),
        not_applicable,
    })
}

/// Starts a run of the modules with `choices`, streaming events as `start_run` does; the
/// staged suite lives until the run has ended.
#[tauri::command(rename_all = "snake_case")]
pub async fn start_modules_run(
    state: tauri::State<'_, Workbench>,
    modules: ModulesView,
    choices: RunChoices,
    on_event: Channel<LiveBatch>,
) -> CmdResult<()> {
    launch(&state, |s| plan(s, &modules, choices), on_event)
}

/// The plan of a run of the modules, with their staging folder to keep while it runs.
pub fn plan(
    state: &Workbench,
    modules: &ModulesView,
    choices: RunChoices,
) -> CmdResult<(Plan, ModuleStaging)> {
    let (staging, suite) = modules.stage(&state.results)?;
    let request = RunRequest::from_choices(suite, choices, wasmeter_core::runtime::load_config()?);
    Ok((Plan::new(request)?, staging))
}

/// What the open-file dialog picks.
#[derive(Debug, Clone, Copy, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum PickKind {
    /// `.wasm` modules, several at once.
    Modules,
    /// A folder (of modules, or one a guest sees).
    Folder,
    /// Any one file (stdin, expected output, a native build).
    File,
}

/// Opens the open-file dialog; returns the paths picked, none when the user cancelled.
#[tauri::command(rename_all = "snake_case")]
pub async fn pick_paths<R: tauri::Runtime>(
    app: tauri::AppHandle<R>,
    what: PickKind,
) -> CmdResult<Vec<String>> {
    let dialog = app.dialog().file();
    let picked = match what {
        PickKind::Modules => dialog
            .add_filter("WebAssembly modules", &["wasm"])
            .blocking_pick_files(),
        PickKind::Folder => dialog.blocking_pick_folder().map(|f| vec![f]),
        PickKind::File => dialog.blocking_pick_file().map(|f| vec![f]),
    };
    picked
        .unwrap_or_default()
        .into_iter()
        .map(|p| {
            p.into_path()
                .map(|p| p.display().to_string())
                .map_err(|e| CommandError::new("invalid_input", e))
        })
        .collect()
}
