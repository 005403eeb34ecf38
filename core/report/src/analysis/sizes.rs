//! What a program costs besides time, per cell: peak resident memory and the engine's
//! compiled artifact (the overhead study's size columns).

use crate::model::Metric;
use crate::store::SavedRun;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// One cell's sizes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellSizes {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Peak resident memory, bytes: for a program run as its own process (native,
    /// runtime CLIs) the kernel's maximum RSS of that process; otherwise (embedded
    /// engines) the largest live sample of the worker process running it.
    pub peak_rss_bytes: Option<u64>,
    /// The compiled artifact's bytes, where the engine makes one (wasmtime's and wasmer's
    /// serialized module, a CLI's precompiled file).
    pub artifact_bytes: Option<u64>,
}

/// Each cell's sizes, in the run's runtime × test order; cells with none are left out.
pub fn cell_sizes(run: &SavedRun) -> Vec<CellSizes> {
    type Cells<'r> = BTreeMap<(&'r str, &'r str), CellSizes>;
    fn at<'r, 'm>(cells: &'m mut Cells<'r>, runtime: &'r str, test: &'r str) -> &'m mut CellSizes {
        cells.entry((runtime, test)).or_insert_with(|| CellSizes {
            runtime: runtime.to_string(),
            test: test.to_string(),
            ..CellSizes::default()
        })
    }
    let mut cells = Cells::new();
    for m in run.measurements.iter().filter(|m| m.value > 0.0) {
        match m.metric {
            Metric::MaxRssKib => {
                let cell = at(&mut cells, &m.runtime, &m.test);
                cell.peak_rss_bytes = cell.peak_rss_bytes.max(Some((m.value * 1024.0) as u64));
            }
            Metric::ArtifactBytes => {
                at(&mut cells, &m.runtime, &m.test).artifact_bytes = Some(m.value as u64)
            }
            _ => {}
        }
    }
    // The kernel's figure of the program's own process, where there is one: the live
    // samples of such a cell include the worker that started it.
    let kernel: BTreeSet<(&str, &str)> = cells
        .iter()
        .filter(|(_, c)| c.peak_rss_bytes.is_some())
        .map(|(k, _)| *k)
        .collect();
    for s in &run.samples {
        if !kernel.contains(&(s.runtime.as_str(), s.test.as_str())) {
            let cell = at(&mut cells, &s.runtime, &s.test);
            cell.peak_rss_bytes = cell.peak_rss_bytes.max(Some(s.rss_bytes));
        }
    }
    let mut cells: Vec<CellSizes> = cells.into_values().collect();
    cells.sort_by_key(|c| {
        (
            run.meta.runtimes.iter().position(|r| r.id == c.runtime),
            run.meta.tests.iter().position(|t| t.name == c.test),
        )
    });
    cells
}
