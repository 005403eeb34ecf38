//! A run's scope before it starts: its cells, invocations and iterations, and how long it
//! should take, from the wall times of earlier runs of the same suite and size on this
//! machine (each cell's newest, per iteration). A cell never run before takes the median
//! time per iteration of the cells that were; with no earlier run at all there is no
//! estimate, and the scope says so rather than guess.

use super::Plan;
use crate::store::{RunMeta, list_runs, read_cells};
use crate::suite::Size;
use std::collections::HashMap;
use std::path::Path;

/// Earlier runs read for an estimate, newest first: enough for a suite run now and then,
/// few enough that a results directory of thousands of runs answers at once.
const RUNS_READ: usize = 40;

/// What a run will do, and how long it should take.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Scope {
    /// Cells (runtime × test) planned.
    pub cells: usize,
    /// Worker processes per cell.
    pub invocations: u32,
    /// Iterations per invocation (warm-ups and runs).
    pub iterations: u32,
    /// Seconds the run should take; `None` without an earlier run to go by.
    pub estimate_secs: Option<f64>,
    /// Cells whose time came from an earlier run (the rest took their median).
    pub known: usize,
}

impl Scope {
    /// One line for a person: `171 cells × 3 invocations × 6 iterations, about 7 min (from
    /// earlier runs of 150 of them on this machine)`.
    pub fn describe(&self) -> String {
        let head = format!(
            "{} cell{} × {} invocation{} × {} iteration{}",
            self.cells,
            if self.cells == 1 { "" } else { "s" },
            self.invocations,
            if self.invocations == 1 { "" } else { "s" },
            self.iterations,
            if self.iterations == 1 { "" } else { "s" }
        );
        match self.estimate_secs {
            Some(s) => format!(
                "{head}, about {} (from earlier runs of {} of them on this machine)",
                duration(s),
                self.known
            ),
            None => {
                format!("{head}; no earlier run of this suite on this machine to estimate its time")
            }
        }
    }

    /// Whether a run this long should be confirmed before it starts.
    pub fn needs_confirmation(&self, above_secs: f64) -> bool {
        self.estimate_secs.is_some_and(|s| s > above_secs)
    }
}

/// Above this estimate a front end asks before starting (15 minutes).
pub const CONFIRM_ABOVE_SECS: f64 = 15.0 * 60.0;

/// `45 s`, `7 min`, `1 h 20 min`.
fn duration(secs: f64) -> String {
    if secs < 90.0 {
        format!("{:.0} s", secs.max(1.0))
    } else if secs < 3600.0 {
        format!("{:.0} min", secs / 60.0)
    } else {
        let m = (secs / 60.0).round() as u64;
        format!("{} h {} min", m / 60, m % 60)
    }
}

/// Each cell's seconds per iteration in the newest earlier run of `suite` at `size` on
/// the machine `fingerprint` that ran it.
fn per_iteration(
    results: &Path,
    suite: &str,
    size: Size,
    fingerprint: &str,
) -> HashMap<(String, String), f64> {
    let mut known = HashMap::new();
    let Ok(runs) = list_runs(results) else {
        return known;
    };
    let same = |m: &RunMeta| {
        m.suite == suite && m.settings.size == size && m.machine.fingerprint == fingerprint
    };
    for listing in runs
        .iter()
        .rev()
        .filter(|l| l.meta.as_ref().is_ok_and(same))
        .take(RUNS_READ)
    {
        let Ok(meta) = &listing.meta else { continue };
        let iterations = f64::from((meta.settings.warmup + meta.settings.runs).max(1));
        let Ok(cells) = read_cells(&listing.dir) else {
            continue;
        };
        for c in cells
            .iter()
            .filter(|c| c.failure.is_none() && c.wall_ms > 0.0)
        {
            known
                .entry((c.runtime.clone(), c.test.clone()))
                .or_insert(c.wall_ms / 1000.0 / iterations);
        }
    }
    known
}

/// The scope of `plan` on the machine `fingerprint`, its time from the runs in `results`.
pub fn scope(plan: &Plan, results: &Path, fingerprint: &str) -> Scope {
    let s = &plan.settings;
    let cells = plan.cells();
    let iterations = s.warmup + s.runs;
    let past = per_iteration(results, &plan.suite.name, s.size, fingerprint);
    let mine: Vec<Option<f64>> = cells
        .iter()
        .map(|(r, t)| past.get(&(r.id.clone(), t.name.clone())).copied())
        .collect();
    let mut seen: Vec<f64> = mine.iter().flatten().copied().collect();
    seen.sort_by(f64::total_cmp);
    let known = seen.len();
    let estimate_secs = (!seen.is_empty()).then(|| {
        let fill = seen[seen.len() / 2];
        let per_iteration: f64 = mine.iter().map(|m| m.unwrap_or(fill)).sum();
        per_iteration * f64::from(iterations) * f64::from(s.invocations)
    });
    Scope {
        cells: cells.len(),
        invocations: s.invocations,
        iterations,
        estimate_secs,
        known,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describes_with_and_without_an_estimate() {
        let mut s = Scope {
            cells: 171,
            invocations: 3,
            iterations: 6,
            estimate_secs: Some(420.0),
            known: 150,
        };
        assert_eq!(
            s.describe(),
            "171 cells × 3 invocations × 6 iterations, about 7 min (from earlier runs of 150 of them on this machine)"
        );
        assert!(!s.needs_confirmation(CONFIRM_ABOVE_SECS));
        s.estimate_secs = Some(4800.0);
        assert!(s.describe().contains("about 1 h 20 min"));
        assert!(s.needs_confirmation(CONFIRM_ABOVE_SECS));
        s.estimate_secs = None;
        s.cells = 1;
        s.invocations = 1;
        s.iterations = 1;
        assert_eq!(
            s.describe(),
            "1 cell × 1 invocation × 1 iteration; no earlier run of this suite on this machine to estimate its time"
        );
        assert!(!s.needs_confirmation(0.0));
        assert_eq!(duration(44.6), "45 s");
    }
}
