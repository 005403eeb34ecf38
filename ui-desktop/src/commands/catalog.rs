//! What can be run and how by default: runtimes (with why one is unavailable or does not
//! apply to a suite), suites with their tests and run defaults, and the constants of the
//! policy. All of it is core's ([`wasmeter_core::runner::RunDefaults`],
//! [`applicability`]): the page mirrors none of it.

use crate::{CmdResult, Workbench};
use serde::Serialize;
use std::collections::BTreeMap;
use wasmeter_core::analysis::{
    COMPARE_NORMALIZE, DEFAULT_THRESHOLD_PCT, MIN_INVOCATIONS, MIN_VALUES,
};
use wasmeter_core::export::{FormatInfo, formats};
use wasmeter_core::runner::{RunDefaults, applicability, preselected};
use wasmeter_core::runtime::{RuntimeInfo, known_runtimes};
use wasmeter_core::suite::{Suite, SuiteCatalog, SuiteKind};

/// A runtime as the page lists it.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct RuntimeView {
    /// What core knows of it.
    #[serde(flatten)]
    pub info: RuntimeInfo,
    /// The suites (by name) it cannot run, with why: the page shows it disabled there.
    pub not_applicable: BTreeMap<String, String>,
    /// The suites (by name) where it starts selected: core's [`preselected`], so the page
    /// keeps no rule of its own.
    pub preselected: Vec<String>,
}

impl RuntimeView {
    /// A runtime with core's answers for each suite; `all` is every runtime listed (what
    /// the preselection picks among).
    pub fn new(info: RuntimeInfo, suites: &[Suite], all: &[RuntimeInfo]) -> RuntimeView {
        let not_applicable = suites
            .iter()
            .filter_map(|s| {
                applicability(&info, s)
                    .err()
                    .map(|why| (s.name.clone(), why))
            })
            .collect();
        let starts_in = suites
            .iter()
            .filter(|s| preselected(all, |r| applicability(r, s).is_ok()).contains(&info.id))
            .map(|s| s.name.clone())
            .collect();
        RuntimeView {
            info,
            not_applicable,
            preselected: starts_in,
        }
    }
}

/// Every runtime wasmeter knows, available or not, with the suites it does not apply to.
#[tauri::command(rename_all = "snake_case")]
pub async fn list_runtimes(state: tauri::State<'_, Workbench>) -> CmdResult<Vec<RuntimeView>> {
    let runtimes = known_runtimes(&wasmeter_core::runtime::load_config()?);
    // A broken manifest is list_suites' error to report; the runtimes list regardless.
    let suites = SuiteCatalog::discover(&state.suites)
        .map(|c| c.suites)
        .unwrap_or_default();
    Ok(runtimes
        .iter()
        .map(|r| RuntimeView::new(r.clone(), &suites, &runtimes))
        .collect())
}

/// The constants of core's policy the page shows and checks against.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct PolicyView {
    /// The diff's noise threshold when the user sets none, percent.
    pub threshold_pct: f64,
    /// Fewest invocations a side a diff needs for a verdict.
    pub min_invocations: usize,
    /// Fewest values a side a diff needs for a verdict.
    pub min_values: usize,
    /// The runtime a comparison's figures are relative to until the user picks another.
    pub compare_normalize: String,
    /// The export formats, in the order they are offered.
    pub formats: Vec<FormatInfo>,
}

/// Core's policy constants (a run's defaults come with each suite from `list_suites`).
#[tauri::command(rename_all = "snake_case")]
pub fn run_policy() -> PolicyView {
    PolicyView {
        threshold_pct: DEFAULT_THRESHOLD_PCT,
        min_invocations: MIN_INVOCATIONS,
        min_values: MIN_VALUES,
        compare_normalize: COMPARE_NORMALIZE.into(),
        formats: formats(),
    }
}

/// A suite as the page lists it.
#[derive(Debug, Serialize, ts_rs::TS)]
pub struct SuiteView {
    /// Suite name.
    pub name: String,
    /// One line.
    pub description: String,
    /// What kind of tests it has (command, lifecycle, gateway, servers): how the page
    /// sets a run up and shows it.
    pub kind: SuiteKind,
    /// What a run of it does where the user changes nothing (repetition, the suite's own
    /// timeout or the default, load of an HTTP suite).
    pub defaults: RunDefaults,
    /// Tests in manifest order.
    pub tests: Vec<TestView>,
    /// Set for a suite whose manifest does not load: why, naming the file and line. It has
    /// no tests and cannot run; the page shows it as broken, the others list and run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A test as the page lists it.
#[derive(Debug, Serialize, ts_rs::TS)]
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
#[tauri::command(rename_all = "snake_case")]
pub async fn list_suites(state: tauri::State<'_, Workbench>) -> CmdResult<Vec<SuiteView>> {
    let catalog = SuiteCatalog::discover(&state.suites)?;
    let broken = catalog.broken.into_iter().map(|b| SuiteView {
        // What is shown of settings before anything can be run: a command suite's.
        defaults: RunDefaults::for_suite(&Suite::default()),
        name: b.name,
        description: String::new(),
        kind: SuiteKind::default(),
        tests: Vec::new(),
        error: Some(b.error),
    });
    Ok(catalog
        .suites
        .into_iter()
        .map(suite_view)
        .chain(broken)
        .collect())
}

/// A suite that loads, as the page lists it.
pub fn suite_view(s: Suite) -> SuiteView {
    SuiteView {
        defaults: RunDefaults::for_suite(&s),
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
    }
}
