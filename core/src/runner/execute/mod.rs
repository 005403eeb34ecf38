//! The runner's loop: one worker process per cell, watched for progress, memory and time.
//! Here the run is started and resumed and the cell's context is defined; the rounds (and
//! alternation) are in [`rounds`], the worker's spec per kind of test in [`spec`], and the
//! process supervision (timeout, memory cap, what the worker says) in [`supervise`].

mod rounds;
mod spec;
mod supervise;

use super::{Event, Plan, RunnerError};
use crate::machine::Machine;
use crate::runtime::{Failure, RuntimeInfo, WorkerCommand};
use crate::store::{
    Done, MeasurementRow, RunMeta, RunStatus, RunWriter, SCHEMA_VERSION, TestRecord, new_run_id,
};
use crate::suite::{Build, TestCase};
use crossbeam_channel::Sender;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    /// Run id.
    pub run_id: String,
    /// Run directory.
    pub dir: PathBuf,
    /// Final status.
    pub status: RunStatus,
    /// Cells that failed.
    pub failed: usize,
    /// Cells run.
    pub cells: usize,
}

/// Creates the run directory and metadata for a plan.
fn start_run(plan: &Plan, results: &Path) -> Result<RunWriter, RunnerError> {
    let bytes = |f: &Path| std::fs::metadata(f).ok().map(|m| m.len());
    let tests = plan
        .tests
        .iter()
        .map(|t| TestRecord {
            name: t.name.clone(),
            source_hash: plan
                .suite
                .source_hash(t)
                .unwrap_or_else(|_| "missing".into()),
            // Sizes of what is run as given or prebuilt (a module by path, the apps
            // suite's programs, a lifecycle test's file): the size tables read them.
            module_bytes: t
                .guest()
                .filter(|g| matches!(g.build, Build::Module(_) | Build::Prebuilt { .. }))
                .map(|g| g.wasm.as_path())
                .or(t.lifecycle_file())
                .and_then(bytes),
            native_bytes: match t.guest().map(|g| &g.build) {
                Some(Build::Module(run)) => run.native.as_deref().and_then(bytes),
                Some(Build::Prebuilt { native, .. }) => bytes(native),
                _ => None,
            },
            as_given: Some(
                t.guest()
                    .is_some_and(|g| matches!(g.build, Build::Module(_))),
            ),
        })
        .collect();
    let meta = RunMeta {
        schema_version: SCHEMA_VERSION,
        id: new_run_id(&plan.suite.name),
        label: plan.label.clone(),
        suite: plan.suite.name.clone(),
        suite_kind: plan.suite.kind,
        tests,
        runtimes: plan.runtimes.clone(),
        not_applicable: plan.not_applicable.clone(),
        settings: plan.settings.clone(),
        machine: Machine::detect(),
        wasmeter_version: crate::VERSION.to_string(),
        started_unix: crate::store::now_unix(),
        finished_unix: None,
        status: RunStatus::Running,
        pid: std::process::id(),
        files: Default::default(),
    };
    let writer = RunWriter::create(results, meta)?;
    if plan.suite.saved_with_run {
        let into = writer.dir().join(SUITE_COPY);
        copy_suite(&plan.suite.dir, &into)
            .map_err(|source| RunnerError::KeepSuite { dir: into, source })?;
    }
    Ok(writer)
}

/// The folder of a run that keeps the suite it was made with, when the suite was made
/// from modules given by path: a resumed run loads it from there.
pub const SUITE_COPY: &str = "suite";

/// Copies a suite made from modules (its manifest and `wasm/`) into a run.
fn copy_suite(from: &Path, into: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(into.join("wasm"))?;
    std::fs::copy(from.join("suite.toml"), into.join("suite.toml"))?;
    for e in std::fs::read_dir(from.join("wasm"))? {
        let e = e?;
        std::fs::copy(e.path(), into.join("wasm").join(e.file_name()))?;
    }
    Ok(())
}

/// Runs a plan to the end (or until `cancel` is set), saving into `results` and sending
/// events. Cell failures are recorded and the run goes on.
pub fn execute(
    plan: &Plan,
    results: &Path,
    worker: &WorkerCommand,
    events: &Sender<Event>,
    cancel: &AtomicBool,
) -> Result<RunOutcome, RunnerError> {
    let outcome = start_run(plan, results).and_then(|writer| {
        rounds::run_cells(plan, writer, &Done::default(), &[], worker, events, cancel)
    });
    stopped(outcome, events)
}

/// Sends [`Event::Stopped`] for a run that ends on an error, so a front end that only
/// reads events hears why.
fn stopped(
    outcome: Result<RunOutcome, RunnerError>,
    events: &Sender<Event>,
) -> Result<RunOutcome, RunnerError> {
    if let Err(e) = &outcome {
        let _ = events.send(Event::Stopped {
            message: e.to_string(),
        });
    }
    outcome
}

/// Finishes an interrupted or cancelled run in its own directory: invocations that ended
/// (other than by cancellation) are kept, the rest run now (none of a failed cell's). `plan` must be the run's own plan.
pub fn resume(
    plan: &Plan,
    dir: &Path,
    worker: &WorkerCommand,
    events: &Sender<Event>,
    cancel: &AtomicBool,
) -> Result<RunOutcome, RunnerError> {
    let (writer, done) = match RunWriter::resume(dir) {
        Ok(w) => w,
        Err(e) => return stopped(Err(e.into()), events),
    };
    // Aiming at a precision, the cells' intervals include what ran before the stop.
    let earlier = match plan.settings.precision {
        Some(_) => crate::store::load_run(dir)
            .map(|r| r.measurements)
            .unwrap_or_default(),
        None => Vec::new(),
    };
    stopped(
        rounds::run_cells(plan, writer, &done, &earlier, worker, events, cancel),
        events,
    )
}

/// Creates a cell's scratch directory.
fn make_scratch(dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| Failure::Other(format!("{}: {e}", dir.display())))
}

struct CellCtx<'a> {
    plan: &'a Plan,
    invocation: u32,
    /// The cell, and with `--pair-mode alternate` the other arms of its group, run in one
    /// worker.
    arms: Vec<Arm<'a>>,
    /// The arms the worker runs, by the arm number of its reports.
    live: Vec<usize>,
    writer: &'a mut RunWriter,
    events: &'a Sender<Event>,
    run_started: Instant,
    cancel: &'a AtomicBool,
}

/// How one arm's invocation ended, as its cell record and the run's state take it.
struct Ended {
    index: usize,
    iterations: u32,
    kept: Vec<MeasurementRow>,
    failure: Option<Failure>,
    notes: Vec<String>,
}

/// One cell of an invocation's worker.
struct Arm<'a> {
    index: usize,
    runtime: &'a RuntimeInfo,
    test: &'a TestCase,
    /// Iterations the cell's earlier invocations did (progress counts over all of them).
    iterations_before: u32,
    /// Iterations this invocation did.
    iterations: u32,
    /// The measured (not warm-up) rows of this invocation, kept for `--precision`.
    kept: Vec<MeasurementRow>,
    /// This arm's own failure, when the worker went on with the other.
    failure: Option<Failure>,
    /// The worker's notes of this invocation.
    notes: Vec<String>,
}

impl<'a> Arm<'a> {
    fn new(cell: (&'a RuntimeInfo, &'a TestCase), index: usize, before: u32) -> Arm<'a> {
        Arm {
            index,
            runtime: cell.0,
            test: cell.1,
            iterations_before: before,
            iterations: 0,
            kept: Vec::new(),
            failure: None,
            notes: Vec::new(),
        }
    }
}
