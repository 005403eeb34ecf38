//! What the commands share: where suites and results live, how to start workers, and the
//! run in flight (at most one: runs measure, two at once would measure each other).

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use wasmeter_core::runner::{Plan, RunChoices, WorkerCommand};

use crate::CmdResult;

/// Turns the page's choices for a suite into a plan. The app's own checks them against the suites
/// and runtimes of this machine; a bench can put a stand-in plan in its place to measure the
/// app at a scale no machine's runtimes reach.
pub type Planner = Box<dyn Fn(&Workbench, &str, RunChoices) -> CmdResult<Plan> + Send + Sync>;

/// The app's state, managed by Tauri.
pub struct Workbench {
    /// Saved runs.
    pub results: PathBuf,
    /// Suites root.
    pub suites: PathBuf,
    /// How the runner starts a cell's worker process.
    pub worker: WorkerCommand,
    /// Plans runs in place of the app's own ([`crate::commands::run::plan`]) when set.
    pub(crate) planner: Option<Planner>,
    pub(crate) active: Mutex<Option<ActiveRun>>,
}

/// A run in flight: its cancel flag and the thread that drives it.
pub(crate) struct ActiveRun {
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) thread: JoinHandle<()>,
}

impl Workbench {
    /// A workbench over these directories, starting workers with `worker`.
    pub fn new(results: PathBuf, suites: PathBuf, worker: WorkerCommand) -> Workbench {
        Workbench {
            results,
            suites,
            worker,
            planner: None,
            active: Mutex::new(None),
        }
    }

    /// The same workbench planning runs with `planner` (benches of the app at scale).
    pub fn with_planner(mut self, planner: Planner) -> Workbench {
        self.planner = Some(planner);
        self
    }

    /// Directories from the environment (`WASMETER_RESULTS`, else `./results` when it
    /// exists, else the user's data dir; suites as the CLI finds them), workers started
    /// from this executable.
    pub fn from_env() -> std::io::Result<Workbench> {
        use wasmeter_core::store::{Launched, default_results_dir};
        Ok(Workbench::new(
            default_results_dir(Launched::FromDesktop),
            wasmeter_core::suite::default_suites_dir(),
            WorkerCommand::current_exe()?,
        ))
    }

    /// True while a run is in flight.
    pub fn busy(&self) -> bool {
        self.active
            .lock()
            .map(|a| a.as_ref().is_some_and(|r| !r.thread.is_finished()))
            .unwrap_or(false)
    }
}
