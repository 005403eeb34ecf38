//! Peak resident memory per cell: what a program costs in memory on each runtime, beside
//! its time (the overhead study's memory column).

use crate::runtime::Metric;
use crate::store::SavedRun;
use serde::Serialize;

/// The highest resident memory seen for one cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PeakRss {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Bytes: for a program run as its own process (native, runtime CLIs) the kernel's
    /// maximum RSS of that process; otherwise (embedded engines) the largest live sample
    /// of the worker process running it.
    pub bytes: u64,
}

/// Each cell's peak resident memory, in the run's runtime × test order; cells with no
/// sample and no kernel figure are left out.
pub fn peak_rss(run: &SavedRun) -> Vec<PeakRss> {
    fn raise(peaks: &mut Vec<PeakRss>, runtime: &str, test: &str, bytes: u64) {
        match peaks
            .iter_mut()
            .find(|p| p.runtime == runtime && p.test == test)
        {
            Some(p) => p.bytes = p.bytes.max(bytes),
            None => peaks.push(PeakRss {
                runtime: runtime.to_string(),
                test: test.to_string(),
                bytes,
            }),
        }
    }
    // The kernel's figure of the program's own process, where there is one: the live
    // samples of such a cell include the worker that started it.
    let mut peaks: Vec<PeakRss> = Vec::new();
    for m in run
        .measurements
        .iter()
        .filter(|m| m.metric == Metric::MaxRssKib && m.value > 0.0)
    {
        raise(&mut peaks, &m.runtime, &m.test, (m.value * 1024.0) as u64);
    }
    let kernel = peaks.len();
    for s in &run.samples {
        if !peaks[..kernel]
            .iter()
            .any(|p| p.runtime == s.runtime && p.test == s.test)
        {
            raise(&mut peaks, &s.runtime, &s.test, s.rss_bytes);
        }
    }
    let order = |p: &PeakRss| {
        (
            run.meta.runtimes.iter().position(|r| r.id == p.runtime),
            run.meta.tests.iter().position(|t| t.name == p.test),
        )
    };
    peaks.sort_by_key(order);
    peaks
}
