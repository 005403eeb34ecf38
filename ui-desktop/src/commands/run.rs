//! Starting and cancelling a run. The runner works on its own thread; a forwarder drains
//! its events and sends them to the page in batches through a `Channel`, so a burst of
//! measurements costs one IPC message, not one per value.

use crate::workbench::ActiveRun;
use crate::{CmdResult, CommandError, Workbench};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tauri::ipc::Channel;
use wasmeter_core::config::Config;
use wasmeter_core::http::HttpSettings;
use wasmeter_core::runner::{Event, Plan, RunChoices, RunRequest, execute};
use wasmeter_core::store::{MeasurementRow, RunStatus, SampleRow};
use wasmeter_core::suite::{Size, SuiteCatalog};

/// Run settings as the page sends them; a missing field is left to core's policy.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunSettingsView {
    /// Suite name.
    pub suite: String,
    /// Tests; empty means all.
    #[serde(default)]
    pub tests: Vec<String>,
    /// Runtime ids or groups; empty means every available runtime.
    #[serde(default)]
    pub runtimes: Vec<String>,
    /// Warm-up iterations per invocation.
    pub warmup: Option<u32>,
    /// Measured iterations per invocation.
    pub runs: Option<u32>,
    /// Fresh worker processes per cell; the suite kind's default when absent.
    pub invocations: Option<u32>,
    /// Order of the cells' invocations: `interleaved` or `sequential`.
    pub order: Option<String>,
    /// Per-iteration timeout, seconds; the suite's own, else core's default, when absent.
    pub timeout_secs: Option<u64>,
    /// Problem size.
    pub size: Option<Size>,
    /// Label of the saved run.
    pub label: Option<String>,
    /// Memory cap per cell, MiB.
    pub memory_cap_mib: Option<u64>,
    /// Live sampling interval, ms.
    pub sample_interval_ms: Option<u64>,
    /// Baseline runtime.
    pub baseline: Option<String>,
    /// Leave out unavailable runtimes instead of refusing.
    #[serde(default)]
    pub skip_missing: bool,
    /// HTTP suites: the load; the core's defaults when absent.
    #[serde(default)]
    pub http: Option<HttpSettingsArg>,
}

/// The load of an HTTP run as the page sends it; the rest of
/// [`wasmeter_core::http::HttpSettings`] keeps its defaults.
#[derive(Debug, Clone, Deserialize)]
pub struct HttpSettingsArg {
    /// Concurrency levels (connections) of the throughput phases.
    pub levels: Vec<u32>,
    /// Load per level, ms.
    #[serde(alias = "durationMs")]
    pub duration_ms: u64,
    /// Warm latency over one connection, ms.
    #[serde(alias = "latencyMs")]
    pub latency_ms: u64,
}

/// A runner event as the page receives it.
#[derive(Debug, Clone, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RunEventView {
    /// The plan is fixed: cells in order as `[runtime, test]`.
    Planned {
        /// Run id.
        run_id: String,
        /// Cells in order.
        cells: Vec<(String, String)>,
        /// Iterations per cell over its invocations, warm-ups included.
        iterations_per_cell: u32,
        /// Worker processes per cell.
        invocations: u32,
    },
    /// A worker of a cell started (once per invocation).
    CellStarted {
        /// Cell index.
        index: usize,
        /// Which invocation, from 0.
        invocation: u32,
        /// It runs in the worker of the cell started just before, which keeps running.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        beside: bool,
    },
    /// Iterations done in the running cell.
    Progress {
        /// Cell index.
        index: usize,
        /// Iterations done.
        done: u32,
    },
    /// Values of one iteration.
    Measurement {
        /// Tidy rows.
        rows: Vec<MeasurementRow>,
    },
    /// A live CPU/RSS sample.
    Sample {
        /// The sample.
        sample: SampleRow,
    },
    /// A cell ended; `failure` says why it failed, if it did.
    CellFinished {
        /// Cell index.
        index: usize,
        /// Failure in words.
        failure: Option<String>,
        /// Wall time, ms.
        wall_ms: f64,
    },
    /// The run ended and was saved.
    RunFinished {
        /// Final status.
        status: RunStatus,
        /// Cells that failed.
        failed: usize,
    },
    /// The run stopped on an error (saving failed, no worker); what was saved stays.
    Error {
        /// One line.
        message: String,
    },
}

impl From<Event> for RunEventView {
    fn from(e: Event) -> RunEventView {
        match e {
            Event::Planned {
                run_id,
                cells,
                iterations_per_cell,
                invocations,
            } => RunEventView::Planned {
                run_id,
                cells,
                iterations_per_cell,
                invocations,
            },
            Event::CellStarted {
                index,
                invocation,
                beside,
            } => RunEventView::CellStarted {
                index,
                invocation,
                beside,
            },
            Event::Progress { index, done } => RunEventView::Progress { index, done },
            Event::Measurement(rows) => RunEventView::Measurement { rows },
            Event::Sample(sample) => RunEventView::Sample { sample },
            Event::CellFinished {
                index,
                failure,
                wall_ms,
            } => RunEventView::CellFinished {
                index,
                failure: failure.map(|f| f.to_string()),
                wall_ms,
            },
            Event::RunFinished { status, failed } => RunEventView::RunFinished { status, failed },
        }
    }
}

/// What the page's settings choose; a field the page left out is `None`, for core's
/// policy to decide (the suite's own timeout, its kind's repetition).
pub fn choices(s: RunSettingsView) -> CmdResult<RunChoices> {
    Ok(RunChoices {
        tests: s.tests,
        runtimes: s.runtimes,
        warmup: s.warmup,
        runs: s.runs,
        invocations: s.invocations,
        order: s
            .order
            .map(|o| o.parse())
            .transpose()
            .map_err(|e: String| CommandError::new("invalid_input", e))?,
        timeout_secs: s.timeout_secs,
        size: s.size,
        label: s.label,
        memory_cap_mib: s.memory_cap_mib,
        sample_interval_ms: s.sample_interval_ms,
        baseline: s.baseline,
        skip_missing: s.skip_missing,
        http: s.http.map(|h| HttpSettings {
            levels: h.levels,
            duration_ms: h.duration_ms,
            latency_ms: h.latency_ms,
            ..HttpSettings::default()
        }),
        ..RunChoices::default()
    })
}

/// The request the page's settings describe, against this machine's suites and config.
pub fn request(state: &Workbench, s: RunSettingsView) -> CmdResult<RunRequest> {
    let catalog = SuiteCatalog::discover(&state.suites)?;
    let suite = catalog.get(&s.suite)?.clone();
    Ok(RunRequest::from_choices(
        suite,
        choices(s)?,
        Config::load_default()?,
    ))
}

/// Checks the settings into a plan, the way `wasmeter run` does.
pub fn plan(state: &Workbench, s: RunSettingsView) -> CmdResult<Plan> {
    Ok(Plan::new(request(state, s)?)?)
}

/// Starts a run; its events arrive on `on_event` in batches. Refused while another runs.
/// Async so that planning (runtime detection runs every CLI's `--version`) happens off the
/// window's thread.
#[tauri::command]
pub async fn start_run(
    state: tauri::State<'_, Workbench>,
    settings: RunSettingsView,
    on_event: Channel<Vec<RunEventView>>,
) -> CmdResult<()> {
    launch(&state, |s| Ok(((s.planner)(s, settings)?, ())), on_event)
}

/// Plans with `make` and runs the plan on the runner thread, which holds what `make`
/// returns besides the plan (a suite's staging folder) until the run has ended. Refused
/// with `busy` while another run is in flight.
pub(crate) fn launch<K: Send + 'static>(
    state: &Workbench,
    make: impl FnOnce(&Workbench) -> CmdResult<(Plan, K)>,
    on_event: Channel<Vec<RunEventView>>,
) -> CmdResult<()> {
    let mut active = state.active.lock().map_err(|_| busy())?;
    if active.as_ref().is_some_and(|r| !r.thread.is_finished()) {
        return Err(busy());
    }
    let (plan, keep) = make(state)?;
    let (tx, rx) = crossbeam_channel::unbounded::<Event>();
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let (results, worker) = (state.results.clone(), state.worker.clone());
    let thread = std::thread::Builder::new()
        .name("wasmeter-runner".into())
        .spawn(move || {
            let forward = std::thread::spawn(move || forward(&rx, &on_event));
            let outcome = execute(&plan, &results, &worker, &tx, &flag);
            drop(keep);
            drop(tx);
            let on_event = forward.join().ok();
            if let (Err(e), Some(ch)) = (outcome, on_event) {
                let _ = ch.send(vec![RunEventView::Error {
                    message: e.to_string(),
                }]);
            }
        })
        .map_err(|e| CommandError::new("io", format!("cannot start the runner thread: {e}")))?;
    *active = Some(ActiveRun { cancel, thread });
    Ok(())
}

/// Sends events until the runner drops its end; returns the channel for a last word.
fn forward(
    rx: &crossbeam_channel::Receiver<Event>,
    ch: &Channel<Vec<RunEventView>>,
) -> Channel<Vec<RunEventView>> {
    while let Ok(first) = rx.recv() {
        let batch: Vec<RunEventView> = std::iter::once(first)
            .chain(rx.try_iter())
            .map(RunEventView::from)
            .collect();
        // A closed page is no reason to stop the run: it is saved either way.
        let _ = ch.send(batch);
    }
    ch.clone()
}

/// Cancels the run in flight: the cell running is killed, finished cells stay saved.
/// Returns false when nothing was running.
#[tauri::command]
pub fn cancel_run(state: tauri::State<'_, Workbench>) -> CmdResult<bool> {
    let active = state.active.lock().map_err(|_| busy())?;
    Ok(match active.as_ref() {
        Some(r) if !r.thread.is_finished() => {
            r.cancel.store(true, Ordering::SeqCst);
            true
        }
        _ => false,
    })
}

fn busy() -> CommandError {
    CommandError::new("busy", "a run is already in progress; cancel it or wait")
}
