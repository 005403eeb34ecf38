//! The lifecycle suite's measurements as shown, and "time against heap size": per runtime,
//! measurement and fill (dense, sparse), the median and p99 at each initial heap size,
//! read from a run's summary so every front end draws the same lines.

use super::{CellSummary, RunSummary, Stats};
use crate::format::Unit;
use crate::suite::{Fill, ModuleSpec};
use serde::Serialize;

/// One lifecycle measurement: a phase's wall time per operation, or another metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Measure {
    /// Phase name (times) or metric name (others), as stored.
    pub key: &'static str,
    /// Short label for tables.
    pub label: &'static str,
    /// Its unit.
    pub unit: Unit,
}

/// The lifecycle measurements, in the order of an instance's life.
pub const MEASURES: [Measure; 9] = [
    Measure {
        key: "compile",
        label: "compile",
        unit: Unit::Ns,
    },
    Measure {
        key: "load",
        label: "load",
        unit: Unit::Ns,
    },
    Measure {
        key: "instantiate",
        label: "instantiate",
        unit: Unit::Ns,
    },
    Measure {
        key: "first_instantiate",
        label: "first instantiate",
        unit: Unit::Ns,
    },
    Measure {
        key: "call",
        label: "call",
        unit: Unit::Ns,
    },
    Measure {
        key: "first_call",
        label: "first call",
        unit: Unit::Ns,
    },
    Measure {
        key: "teardown",
        label: "teardown",
        unit: Unit::Ns,
    },
    Measure {
        key: "rss_per_instance_bytes",
        label: "memory/instance",
        unit: Unit::Bytes,
    },
    Measure {
        key: "instances_per_sec",
        label: "instances/s",
        unit: Unit::PerSec,
    },
];

impl Measure {
    /// The measurement called `key`.
    pub fn get(key: &str) -> Option<Measure> {
        MEASURES.into_iter().find(|m| m.key == key)
    }

    /// Its statistics in a cell, if the cell has it.
    pub fn stats<'a>(&self, cell: &'a CellSummary) -> Option<&'a Stats> {
        match self.unit {
            Unit::Ns => cell.phase_stats.get(self.key),
            _ => cell.metrics.get(self.key),
        }
    }
}

/// One point of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeapPoint {
    /// Test (module) name.
    pub test: String,
    /// Initial heap, bytes.
    pub heap_bytes: u64,
    /// Median.
    pub median: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// One line: a runtime's measurement against heap size for one fill.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HeapSeries {
    /// Runtime id.
    pub runtime: String,
    /// Measurement key (see [`MEASURES`]).
    pub measure: String,
    /// Its unit.
    pub unit: Unit,
    /// `dense` or `sparse`.
    pub fill: String,
    /// Points by growing heap size.
    pub points: Vec<HeapPoint>,
}

/// Every series of a run whose tests are heap modules: per runtime, measurement and fill
/// (runtimes in run order, measurements as [`MEASURES`], dense before sparse). Series
/// without a point (failed cells, non-lifecycle runs) are left out.
pub fn heap_series(s: &RunSummary) -> Vec<HeapSeries> {
    let modules: Vec<(&String, ModuleSpec)> = s
        .tests
        .iter()
        .filter_map(|t| Some((t, ModuleSpec::parse(t).ok()?)))
        .collect();
    let mut out = Vec::new();
    for rt in &s.runtimes {
        for m in MEASURES {
            for fill in [Fill::Dense, Fill::Sparse] {
                let mut points: Vec<HeapPoint> = modules
                    .iter()
                    .filter(|(_, spec)| spec.fill() == Some(fill))
                    .filter_map(|(test, spec)| {
                        let cell = s.cell(rt, test).filter(|c| c.failure.is_none())?;
                        let st = m.stats(cell)?;
                        Some(HeapPoint {
                            test: test.to_string(),
                            heap_bytes: spec.heap_bytes(),
                            median: st.median,
                            p99: st.p99,
                        })
                    })
                    .collect();
                if points.is_empty() {
                    continue;
                }
                points.sort_by_key(|p| p.heap_bytes);
                out.push(HeapSeries {
                    runtime: rt.clone(),
                    measure: m.key.to_string(),
                    unit: m.unit,
                    fill: fill.as_str().to_string(),
                    points,
                });
            }
        }
    }
    out
}

/// Heap sizes of a run's heap modules, ascending, without repeats.
pub fn heap_sizes(s: &RunSummary) -> Vec<u64> {
    let mut v: Vec<u64> = s
        .tests
        .iter()
        .filter_map(|t| ModuleSpec::parse(t).ok())
        .map(|m| m.heap_bytes())
        .filter(|b| *b > 0)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
