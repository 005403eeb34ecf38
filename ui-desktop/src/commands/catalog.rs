//! What can be run: runtimes (with why one is unavailable) and suites with their tests.

use crate::{CmdResult, Workbench};
use serde::Serialize;
use wasmeter_core::config::Config;
use wasmeter_core::runtime::{RuntimeInfo, known_runtimes};
use wasmeter_core::suite::{SuiteCatalog, SuiteKind};

/// Every runtime wasmeter knows, available or not.
#[tauri::command]
pub async fn list_runtimes() -> CmdResult<Vec<RuntimeInfo>> {
    Ok(known_runtimes(&Config::load_default()?))
}

/// A suite as the page lists it.
#[derive(Debug, Serialize)]
pub struct SuiteView {
    /// Suite name.
    pub name: String,
    /// One line.
    pub description: String,
    /// What kind of tests it has (command, lifecycle, gateway, servers): how the page
    /// sets a run up and shows it.
    pub kind: SuiteKind,
    /// Tests in manifest order.
    pub tests: Vec<TestView>,
    /// Set for a suite whose manifest does not load: why, naming the file and line. It has
    /// no tests and cannot run; the page shows it as broken, the others list and run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A test as the page lists it.
#[derive(Debug, Serialize)]
pub struct TestView {
    /// Test name.
    pub name: String,
    /// One line.
    pub description: String,
    /// Category tags.
    pub tags: Vec<String>,
}

/// Every suite under the suites root, then those whose manifest does not load, with their
/// error (one broken suite must not hide the others).
#[tauri::command]
pub async fn list_suites(state: tauri::State<'_, Workbench>) -> CmdResult<Vec<SuiteView>> {
    let catalog = SuiteCatalog::discover(&state.suites)?;
    let broken = catalog.broken.into_iter().map(|b| SuiteView {
        name: b.name,
        description: String::new(),
        kind: SuiteKind::default(),
        tests: Vec::new(),
        error: Some(b.error),
    });
    Ok(catalog
        .suites
        .into_iter()
        .map(|s| SuiteView {
            name: s.name,
            description: s.description,
            kind: s.kind,
            tests: s
                .tests
                .into_iter()
                .map(|t| TestView {
                    name: t.name,
                    description: t.description,
                    tags: t.tags,
                })
                .collect(),
            error: None,
        })
        .chain(broken)
        .collect())
}
