//! What can be run and how by default: runtimes (with why one is unavailable or does not
//! apply to a suite), suites with their tests and run defaults, and the constants of the
//! policy. All of it is core's ([`wasmeter_core::runner::RunDefaults`],
//! [`applicability`]): the page mirrors none of it.

use crate::{CmdResult, Workbench};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
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
    /// Every runtime of `runtimes` with core's answers for each suite: where it does not
    /// apply (each asked once) and where it starts selected.
    pub fn all(runtimes: Vec<RuntimeInfo>, suites: &[Suite]) -> Vec<RuntimeView> {
        let not_applicable: Vec<BTreeMap<String, String>> = runtimes
            .iter()
            .map(|info| {
                suites
                    .iter()
                    .filter_map(|s| {
                        applicability(info, s)
                            .err()
                            .map(|why| (s.name.clone(), why))
                    })
                    .collect()
            })
            .collect();
        let index: HashMap<&str, usize> = runtimes
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();
        let applies = |r: &RuntimeInfo, suite: &str| {
            index
                .get(r.id.as_str())
                .is_some_and(|&i| !not_applicable[i].contains_key(suite))
        };
        let picked: Vec<(&str, Vec<String>)> = suites
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    preselected(&runtimes, |r| applies(r, &s.name)),
                )
            })
            .collect();
        let starts_in: Vec<Vec<String>> = runtimes
            .iter()
            .map(|info| {
                picked
                    .iter()
                    .filter(|(_, ids)| ids.contains(&info.id))
                    .map(|(suite, _)| suite.to_string())
                    .collect()
            })
            .collect();
        runtimes
            .into_iter()
            .zip(not_applicable)
            .zip(starts_in)
            .map(|((info, not_applicable), preselected)| RuntimeView {
                info,
                not_applicable,
                preselected,
            })
            .collect()
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
    Ok(RuntimeView::all(runtimes, &suites))
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
