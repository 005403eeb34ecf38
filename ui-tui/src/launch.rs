//! Starting a run on a thread. The UI only ever holds the receiving end of the event
//! channel and the cancel flag, so drawing never waits for the runner.

use crossbeam_channel::Receiver;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::JoinHandle;
use wasmeter_core::runner::{Event, Plan, RunOutcome, WorkerCommand, execute};

/// A run in flight.
pub struct RunHandle {
    /// Events from the runner.
    pub events: Receiver<Event>,
    /// Set to cancel: the runner stops after killing the cell in flight; finished cells stay
    /// saved.
    pub cancel: Arc<AtomicBool>,
    /// The runner thread, when there is one.
    pub thread: Option<JoinHandle<Result<RunOutcome, String>>>,
}

/// Starts runs. The real one spawns a thread; tests substitute one they feed by hand.
pub trait Launcher {
    /// Starts `plan`, saving under `results`.
    fn launch(&mut self, plan: Plan, results: &Path) -> anyhow::Result<RunHandle>;
}

/// Runs plans on a thread with workers started from this executable.
pub struct ThreadLauncher;

impl Launcher for ThreadLauncher {
    fn launch(&mut self, plan: Plan, results: &Path) -> anyhow::Result<RunHandle> {
        use anyhow::Context;
        let worker = WorkerCommand::current_exe().context("cannot find the wasmeter executable")?;
        WorkerLauncher(worker).launch(plan, results)
    }
}

/// Runs plans on a thread with workers started by a given command: what
/// [`ThreadLauncher`] does with this executable, for a program whose executable is not
/// the worker (the UI's tests run real cells through their own test binary).
pub struct WorkerLauncher(pub WorkerCommand);

impl Launcher for WorkerLauncher {
    fn launch(&mut self, plan: Plan, results: &Path) -> anyhow::Result<RunHandle> {
        use anyhow::Context;
        let worker = self.0.clone();
        let (tx, rx) = crossbeam_channel::unbounded();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let results: PathBuf = results.to_path_buf();
        let thread = std::thread::Builder::new()
            .name("wasmeter-runner".into())
            .spawn(move || execute(&plan, &results, &worker, &tx, &flag).map_err(|e| e.to_string()))
            .context("cannot start the runner thread")?;
        Ok(RunHandle {
            events: rx,
            cancel,
            thread: Some(thread),
        })
    }
}
