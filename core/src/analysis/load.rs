//! Whether a run was measured on a quiet machine. Intervals over invocations hold the noise
//! a run saw, not the drift between two runs when other processes came and went: on this
//! project's 2-core VM an A/A diff of runs that shared the machine with builds (1.6 cores)
//! gave a verdict on 19.6 % of rows, against none on a quiet machine (docs/statistics.md
//! §6). So a diff says how busy each side was, and withholds its verdicts when either was
//! busy.

use crate::store::SavedRun;
use serde::{Deserialize, Serialize};

/// The share of the machine's cores other processes may take, on average over a run,
/// before a diff withholds its verdicts. Quiet runs here measured 0.01 cores of 2; the
/// threshold sits well below the busy runs (1.6 of 2) that made false verdicts, and no run
/// in between has been measured, so it errs towards saying less.
pub const BUSY_SHARE: f64 = 0.25;

/// How much of the machine other processes took during a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RunLoad {
    /// Cores' worth of CPU, the mean over the run's invocations weighted by their wall time.
    pub other_cores: f64,
    /// The machine's logical CPUs.
    pub cores: usize,
    /// Whether other processes took more than [`BUSY_SHARE`] of the machine: a diff with
    /// this run gives no verdicts (carried so that front ends need not know the rule).
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
        (wall > 0.0).then(|| RunLoad::new(cpu / wall, run.meta.machine.cores))
    }

    /// The load of `other_cores` on a machine of `cores`, busy or not.
    pub fn new(other_cores: f64, cores: usize) -> RunLoad {
        let (other_cores, cores) = (other_cores.max(0.0), cores.max(1));
        RunLoad {
            other_cores,
            cores,
            busy: other_cores > BUSY_SHARE * cores as f64,
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

/// Why verdicts between these runs are withheld, if they are: each busy run, described.
pub fn busy_reason(runs: &[&SavedRun]) -> Option<String> {
    let busy: Vec<String> = runs
        .iter()
        .filter_map(|r| {
            let l = RunLoad::of(r)?;
            l.busy.then(|| l.describe(&r.meta.id))
        })
        .collect();
    (!busy.is_empty()).then(|| {
        format!(
            "{} (more than {:.0} % of the machine): no verdicts, as such load moves results \
             by more than their intervals hold; rerun on a quiet machine",
            busy.join("; "),
            BUSY_SHARE * 100.0
        )
    })
}
