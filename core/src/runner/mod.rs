//! Plans runs (runtimes × tests × iterations), runs each cell in a worker process with a
//! timeout and a memory cap, samples it live, saves as it goes and streams typed events.

mod cross_check;
mod entry;
mod estimate;
mod execute;
pub mod instructions;
mod missing_features;
mod pair;
mod plan;
#[cfg(feature = "testing")]
mod plan_cases;
mod plan_file;
mod policy;
mod precision;
pub mod profiler;
mod request;
#[cfg(feature = "testing")]
mod stand_in;
mod worker;

pub use crate::runtime::{
    HOST_COMMANDS, SERVE_ECHO, SERVE_GATEWAY, WORKER, WorkerCommand, read_spec,
};
pub use crate::store::{Measure, RunOrder};
pub use entry::{run_host_command, worker_entry};
pub use estimate::{CONFIRM_ABOVE_SECS, Scope, scope};
pub use execute::{RunOutcome, SUITE_COPY, execute, resume};
pub use pair::{PAIR_GROUPS, check_pair_arms, parse_pair};
pub use plan::{Plan, PlanError};
#[cfg(feature = "testing")]
pub use plan_cases::{TimeoutCase, planned, timeout_cases};
pub use plan_file::{PLAN_VERSION, PlanFile, PlanFileError, PlanHeader};
pub use policy::{
    DEFAULT_BASELINE, DEFAULT_MEMORY_CAP_MIB, DEFAULT_PRECISION, DEFAULT_SAMPLE_INTERVAL_MS,
    DEFAULT_TIMEOUT_SECS, GATEWAY_DEFAULTS, NO_LIBRARY, NO_NATIVE, RunChoices, RunDefaults,
    TimeoutSource, applicability, in_default_run, preselected, resolve_timeout,
};
pub use precision::shortfalls;
pub use request::{Repetition, RunRequest};
#[cfg(feature = "testing")]
pub use stand_in::stand_in_run;
pub use worker::{CellSpec, CellWork, CheckJob, CommandJob, LifecycleJob, WorkerMsg, worker_main};

use crate::runtime::Failure;
use crate::store::{MeasurementRow, RunStatus, SampleRow};
use crate::suite::SuiteKind;

/// What the runner reports while it works; UIs drain these at their own pace. Serialised
/// as it is for the desktop page (tagged by `type`), whose TypeScript type is generated
/// from this one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Event {
    /// The plan is fixed and the run directory exists.
    Planned {
        /// Run id.
        run_id: String,
        /// The suite's name.
        suite: String,
        /// The suite's kind, so a front end shows the right views without guessing.
        suite_kind: SuiteKind,
        /// The runtime the run's ratios are taken against.
        baseline: String,
        /// Cells in order, as (runtime, test).
        cells: Vec<(String, String)>,
        /// Iterations per cell over all its invocations, warm-ups included.
        iterations_per_cell: u32,
        /// Invocations (worker processes) per cell.
        invocations: u32,
    },
    /// A worker of a cell started (once per invocation; a cell is finished only by
    /// [`Event::CellFinished`]).
    CellStarted {
        /// Index into the planned cells.
        index: usize,
        /// Which invocation, from 0.
        invocation: u32,
        /// It runs in the worker of the cell started just before (the arms of a
        /// `--pair-mode alternate` pair): that cell is still running too.
        beside: bool,
    },
    /// An iteration of the running cell finished.
    Progress {
        /// Cell index.
        index: usize,
        /// Iterations done in this cell, over all its invocations so far.
        done: u32,
    },
    /// Values of one iteration.
    Measurement {
        /// Tidy rows.
        rows: Vec<MeasurementRow>,
    },
    /// A live CPU/RSS sample of the running cell.
    Sample {
        /// The sample.
        sample: SampleRow,
    },
    /// A cell ended: its last invocation ended, or one failed.
    CellFinished {
        /// Cell index.
        index: usize,
        /// Why it failed, if it did, in words.
        #[serde(serialize_with = "failure_words")]
        #[cfg_attr(feature = "ts", ts(as = "Option<String>"))]
        failure: Option<Failure>,
        /// Wall time of the cell over its invocations, ms.
        wall_ms: f64,
    },
    /// The run ended and was saved.
    RunFinished {
        /// Final status.
        status: RunStatus,
        /// Cells that failed.
        failed: usize,
    },
    /// The run stopped on an error (saving failed, no worker): the last event, sent just
    /// before [`execute`] or [`resume`] returns that error. What was saved stays.
    Stopped {
        /// The error, one line.
        message: String,
    },
}

fn failure_words<S: serde::Serializer>(f: &Option<Failure>, s: S) -> Result<S::Ok, S::Error> {
    match f {
        Some(f) => s.serialize_some(&f.to_string()),
        None => s.serialize_none(),
    }
}

/// Errors that stop a whole run (cell failures do not).
#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    /// Saving failed; what was saved before is intact.
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The worker could not be started at all.
    #[error("cannot start worker '{program}': {source}")]
    Spawn {
        /// Worker program.
        program: String,
        /// Underlying error.
        source: std::io::Error,
    },
    /// The modules of a suite made from modules could not be copied into the run.
    #[error("cannot keep the modules with the run in {}: {source}", dir.display())]
    KeepSuite {
        /// The run's copy of the suite.
        dir: std::path::PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
}
