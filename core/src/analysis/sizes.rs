//! What a program costs besides time, per cell: peak resident memory and the engine's
//! compiled artifact (the overhead study's size columns).

use crate::runtime::Metric;
use crate::store::SavedRun;
use serde::Serialize;

/// One cell's sizes.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
    fn at<'a>(cells: &'a mut Vec<CellSizes>, runtime: &str, test: &str) -> &'a mut CellSizes {
        let i = match cells
            .iter()
            .position(|c| c.runtime == runtime && c.test == test)
        {
            Some(i) => i,
            None => {
                cells.push(CellSizes {
                    runtime: runtime.to_string(),
                    test: test.to_string(),
                    ..CellSizes::default()
                });
                cells.len() - 1
            }
        };
        &mut cells[i]
    }
    let mut cells: Vec<CellSizes> = Vec::new();
    for m in run.measurements.iter().filter(|m| m.value > 0.0) {
        match m.metric {
            // The kernel's figure of the program's own process, where there is one: the
            // live samples of such a cell include the worker that started it.
            Metric::MaxRssKib => {
                let cell = at(&mut cells, &m.runtime, &m.test);
                cell.peak_rss_bytes = cell.peak_rss_bytes.max(Some((m.value * 1024.0) as u64));
            }
            Metric::ArtifactBytes => {
                at(&mut cells, &m.runtime, &m.test).artifact_bytes = Some(m.value as u64);
            }
            _ => {}
        }
    }
    let kernel: Vec<(String, String)> = cells
        .iter()
        .filter(|c| c.peak_rss_bytes.is_some())
        .map(|c| (c.runtime.clone(), c.test.clone()))
        .collect();
    for s in &run.samples {
        if !kernel.iter().any(|(r, t)| *r == s.runtime && *t == s.test) {
            let cell = at(&mut cells, &s.runtime, &s.test);
            cell.peak_rss_bytes = cell.peak_rss_bytes.max(Some(s.rss_bytes));
        }
    }
    let order = |c: &CellSizes| {
        (
            run.meta.runtimes.iter().position(|r| r.id == c.runtime),
            run.meta.tests.iter().position(|t| t.name == c.test),
        )
    };
    cells.sort_by_key(order);
    cells
}
