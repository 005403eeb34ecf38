//! The summary of one run: a runtime × test table of medians and relative times.

use super::stats::{Stats, geomean};
use crate::runtime::{Metric, Phase};
use crate::store::SavedRun;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One cell of the summary table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSummary {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Statistics of the primary time (ns), over measured iterations.
    pub time: Option<Stats>,
    /// Which measurement the primary time is: `self` (the guest's own timing) or `wall`.
    pub source: String,
    /// Median time divided by the baseline's median time (2.0 = twice as slow).
    pub relative: Option<f64>,
    /// Median per phase (ns, wall clock), for runtimes that time phases.
    pub phases: BTreeMap<String, f64>,
    /// Everything but the measured region: median whole-iteration wall time minus median
    /// self-timed time (process start-up for CLIs and native; compile, instantiate and WASI
    /// start-up for embedded runtimes).
    pub startup_ns: Option<f64>,
    /// Why the cell failed, if it did.
    pub failure: Option<String>,
}

/// Per-runtime line of the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuntimeSummary {
    /// Runtime id.
    pub runtime: String,
    /// Geometric mean of relative times over the tests both it and the baseline ran.
    pub geomean_relative: Option<f64>,
    /// Tests in that mean.
    pub tests_compared: usize,
    /// Cells that failed.
    pub failed: usize,
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Run id.
    pub run_id: String,
    /// Baseline runtime.
    pub baseline: String,
    /// Tests in plan order.
    pub tests: Vec<String>,
    /// Runtimes in plan order.
    pub runtimes: Vec<String>,
    /// Cells, test-major.
    pub cells: Vec<CellSummary>,
    /// One line per runtime.
    pub per_runtime: Vec<RuntimeSummary>,
}

impl RunSummary {
    /// The cell for a runtime and test.
    pub fn cell(&self, runtime: &str, test: &str) -> Option<&CellSummary> {
        self.cells
            .iter()
            .find(|c| c.runtime == runtime && c.test == test)
    }
}

/// Summarises a run. The primary time of a cell is the guest's self-timed execution when
/// it reported one (comparable across every runtime), else the harness's wall time of
/// `execute`, else of the whole iteration.
pub fn summarize(run: &SavedRun, baseline: Option<&str>) -> RunSummary {
    let baseline = baseline.unwrap_or(&run.meta.settings.baseline).to_string();
    let tests: Vec<String> = run.meta.tests.iter().map(|t| t.name.clone()).collect();
    let runtimes: Vec<String> = run.meta.runtimes.iter().map(|r| r.id.clone()).collect();
    let mut by_key: BTreeMap<(&str, &str, Phase, Metric), Vec<f64>> = BTreeMap::new();
    for m in run.measurements.iter().filter(|m| !m.warmup) {
        by_key
            .entry((&m.runtime, &m.test, m.phase, m.metric))
            .or_default()
            .push(m.value);
    }
    let primary = |rt: &str, test: &str| -> Option<(Stats, &'static str)> {
        [
            (Phase::Execute, Metric::SelfNs, "self"),
            (Phase::Execute, Metric::WallNs, "wall"),
            (Phase::Total, Metric::WallNs, "wall"),
        ]
        .into_iter()
        .find_map(|(p, m, src)| {
            by_key
                .get(&(rt, test, p, m))
                .and_then(|v| Stats::of(v))
                .map(|s| (s, src))
        })
    };
    let mut cells = Vec::new();
    for test in &tests {
        let base = primary(&baseline, test).map(|(s, _)| s.median);
        for rt in &runtimes {
            let failure = run
                .cells
                .iter()
                .find(|c| &c.runtime == rt && &c.test == test)
                .and_then(|c| c.failure.as_ref().map(|f| f.to_string()));
            let p = if failure.is_some() {
                None
            } else {
                primary(rt, test)
            };
            let phases: BTreeMap<String, f64> = Phase::ALL
                .into_iter()
                .filter_map(|ph| {
                    by_key
                        .get(&(rt.as_str(), test.as_str(), ph, Metric::WallNs))
                        .and_then(|v| super::stats::median(v))
                        .map(|m| (ph.as_str().to_string(), m))
                })
                .collect();
            let startup_ns = match (&p, phases.get("total")) {
                (Some((s, "self")), Some(total)) => Some(total - s.median),
                _ => None,
            };
            cells.push(CellSummary {
                startup_ns,
                runtime: rt.clone(),
                test: test.clone(),
                relative: match (p.as_ref(), base) {
                    (Some((s, _)), Some(b)) if b > 0.0 => Some(s.median / b),
                    _ => None,
                },
                source: p
                    .as_ref()
                    .map(|(_, src)| src.to_string())
                    .unwrap_or_default(),
                time: p.map(|(s, _)| s),
                phases,
                failure,
            });
        }
    }
    let per_runtime = runtimes
        .iter()
        .map(|rt| {
            let rel: Vec<f64> = cells
                .iter()
                .filter(|c| &c.runtime == rt)
                .filter_map(|c| c.relative)
                .collect();
            RuntimeSummary {
                runtime: rt.clone(),
                geomean_relative: geomean(&rel),
                tests_compared: rel.len(),
                failed: cells
                    .iter()
                    .filter(|c| &c.runtime == rt && c.failure.is_some())
                    .count(),
            }
        })
        .collect();
    RunSummary {
        run_id: run.meta.id.clone(),
        baseline,
        tests,
        runtimes,
        cells,
        per_runtime,
    }
}
