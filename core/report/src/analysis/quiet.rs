//! Whether a run was measured on a quiet machine. Intervals over invocations hold the noise
//! a run saw, not the drift between two runs when other processes came and went: on this
//! project's 2-core VM an A/A diff of runs that shared the machine with builds (1.6 cores)
//! gave a verdict on 19.6 % of rows, against none on a quiet machine (docs/statistics.md
//! §6). So each invocation records how busy the CPUs were, a summary says how busy the run
//! was, and a diff leaves busy invocations out of its verdicts.

use crate::store::{CellRecord, SavedRun};
use serde::{Deserialize, Serialize};

/// The share of the machine's cores other processes may take, on average over a run,
/// before a diff withholds its verdicts. Quiet runs here measured 0.01 cores of 2; the
/// threshold sits well below the busy runs (1.6 of 2) that made false verdicts, and no run
/// in between has been measured, so it errs towards saying less.
pub const BUSY_SHARE: f64 = 0.25;

/// How much of the machine other processes took during a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunLoad {
    /// Cores' worth of CPU, the mean over the run's invocations weighted by their wall time.
    pub other_cores: f64,
    /// The CPUs the run could use.
    pub cores: usize,
    /// Whether other processes took more than [`BUSY_SHARE`] of the CPUs on average over
    /// the run (carried so that front ends need not know the rule; a diff judges each
    /// invocation, [`busy_invocation`]).
    pub busy: bool,
}

impl RunLoad {
    /// The run's load, from the invocations that recorded one; `None` for runs saved
    /// before it was recorded.
    pub fn of(run: &SavedRun) -> Option<RunLoad> {
        let (mut cpu, mut wall) = (0.0, 0.0);
        for c in &run.cells {
            if let Some(o) = c.other_cores.filter(|o| o.is_finite()) {
                cpu += o * c.wall_ms;
                wall += c.wall_ms;
            }
        }
        let m = &run.meta.machine;
        let cpus = m.cpus_allowed.unwrap_or(m.cores);
        (wall > 0.0).then(|| RunLoad::against(cpu / wall, cpus, m.capacity()))
    }

    /// The load of `other_cores` on a machine of `cores`, busy or not.
    pub fn new(other_cores: f64, cores: usize) -> RunLoad {
        RunLoad::against(other_cores, cores, cores as f64)
    }

    /// The load of `other_cores` on `cores` CPUs of which a quota lets the run use
    /// `capacity` cores' worth: busy past [`BUSY_SHARE`] of the capacity.
    pub fn against(other_cores: f64, cores: usize, capacity: f64) -> RunLoad {
        let (other_cores, cores) = (other_cores.max(0.0), cores.max(1));
        RunLoad {
            other_cores,
            cores,
            busy: other_cores > BUSY_SHARE * capacity.max(0.01),
        }
    }

    /// "other processes took 1.60 of 2 cores during run X".
    pub fn describe(&self, run_id: &str) -> String {
        format!(
            "other processes took {:.2} of {} cores during run {run_id}",
            self.other_cores, self.cores
        )
    }
}

/// Whether one invocation was measured on a busy machine: other processes took more than
/// [`BUSY_SHARE`] of the CPUs the run could use while it ran. A diff leaves such
/// invocations out of its verdicts (unless `--allow-busy`): judged one invocation at a time,
/// so a build that ran for two minutes of a ten-minute run costs those two minutes' cells,
/// not every verdict, and cannot hide in the run's mean either.
///
/// Judged against the run's capacity (its CPUs, or fewer under a cgroup quota, which also
/// counts throttled time as load). A run whose load could not be read is busy throughout:
/// nothing says it was quiet.
pub fn busy_invocation(run: &SavedRun, cell: &CellRecord) -> bool {
    let m = &run.meta.machine;
    if m.load_unreadable.is_some() {
        return true;
    }
    let capacity = m.capacity();
    cell.other_cores
        .is_some_and(|o| o.is_finite() && o > BUSY_SHARE * capacity)
}
