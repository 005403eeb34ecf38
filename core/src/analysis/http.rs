//! The HTTP suites' results as shown: per server variant and request, cold start, warm
//! latency percentiles, and the throughput curve (requests per second, latency, CPU per
//! 1,000 requests and memory at each concurrency level), read from a saved run so that
//! every front end and export draws the same numbers.

use super::stats::{Stats, median};
use super::summary::Index;
use crate::runtime::{Metric, Phase};
use crate::store::SavedRun;
use serde::Serialize;

/// One concurrency level of one cell; medians over the measured iterations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelPoint {
    /// Concurrent connections.
    pub connections: u32,
    /// Requests per second.
    pub rps: Stats,
    /// Median request latency under this load, ns.
    pub p50_ns: Option<f64>,
    /// 99th percentile latency under this load, ns.
    pub p99_ns: Option<f64>,
    /// Server CPU time per 1,000 requests, ns.
    pub cpu_ns_per_1k: Option<f64>,
    /// Peak resident memory of the server (and its children), bytes.
    pub rss_bytes: Option<f64>,
    /// Failed requests, summed over iterations.
    pub errors: f64,
}

/// One server variant × request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HttpCell {
    /// Runtime (variant) id.
    pub runtime: String,
    /// Test (request) name.
    pub test: String,
    /// Spawn to first 200 OK, ns.
    pub cold_start: Option<Stats>,
    /// Median latency over one connection, ns (median over iterations).
    pub p50_ns: Option<f64>,
    /// 90th percentile latency over one connection, ns.
    pub p90_ns: Option<f64>,
    /// 99th percentile latency over one connection, ns.
    pub p99_ns: Option<f64>,
    /// Throughput at each level, by connections.
    pub levels: Vec<LevelPoint>,
    /// The level with the most requests per second, and that rate.
    pub best: Option<(u32, f64)>,
    /// Best requests per second over the baseline's best (2.0 = twice the baseline).
    pub best_vs_baseline: Option<f64>,
    /// Peak resident memory of the server over the whole iteration, KiB.
    pub peak_rss_kib: Option<f64>,
    /// Why the cell failed, if it did.
    pub failure: Option<String>,
}

/// The HTTP view of a run, cells in plan order (test-major), against `baseline`.
pub fn http_cells(run: &SavedRun, baseline: &str) -> Vec<HttpCell> {
    let index = Index::new(&run.measurements);
    let med = |rt: &str, t: &str, p: Phase, m: Metric| index.get(rt, t, p, m).and_then(median);
    let mut out = Vec::new();
    for test in run.meta.tests.iter().map(|t| t.name.as_str()) {
        let mut cells: Vec<HttpCell> = Vec::new();
        for rt in run.meta.runtimes.iter().map(|r| r.id.as_str()) {
            let failure = run
                .cells
                .iter()
                .find(|c| c.runtime == rt && c.test == test)
                .and_then(|c| c.failure.as_ref().map(|f| f.to_string()));
            let levels: Vec<LevelPoint> = index
                .phases(rt, test)
                .into_iter()
                .filter_map(|p| {
                    let c = p.concurrency()?;
                    let rps = Stats::describe(index.get(rt, test, p, Metric::Rps)?)?;
                    Some(LevelPoint {
                        connections: c,
                        rps,
                        p50_ns: med(rt, test, p, Metric::WallNs),
                        p99_ns: med(rt, test, p, Metric::P99Ns),
                        cpu_ns_per_1k: med(rt, test, p, Metric::CpuNsPer1k),
                        rss_bytes: med(rt, test, p, Metric::RssBytes),
                        errors: index
                            .get(rt, test, p, Metric::Errors)
                            .map(|v| v.iter().sum())
                            .unwrap_or(0.0),
                    })
                })
                .collect();
            let best = levels
                .iter()
                .map(|l| (l.connections, l.rps.median))
                .max_by(|a, b| a.1.total_cmp(&b.1));
            cells.push(HttpCell {
                runtime: rt.to_string(),
                test: test.to_string(),
                cold_start: index
                    .get(rt, test, Phase::ColdStart, Metric::WallNs)
                    .and_then(Stats::describe),
                p50_ns: med(rt, test, Phase::Latency, Metric::WallNs),
                p90_ns: med(rt, test, Phase::Latency, Metric::P90Ns),
                p99_ns: med(rt, test, Phase::Latency, Metric::P99Ns),
                levels,
                best,
                best_vs_baseline: None,
                peak_rss_kib: med(rt, test, Phase::Total, Metric::MaxRssKib),
                failure,
            });
        }
        let base = cells
            .iter()
            .find(|c| c.runtime == baseline)
            .and_then(|c| c.best);
        for c in &mut cells {
            c.best_vs_baseline = match (c.best, base) {
                (Some((_, r)), Some((_, b))) if b > 0.0 => Some(r / b),
                _ => None,
            };
        }
        out.extend(cells);
    }
    out
}

/// The concurrency levels that appear in any cell, ascending.
pub fn levels_of(cells: &[HttpCell]) -> Vec<u32> {
    let mut v: Vec<u32> = cells
        .iter()
        .flat_map(|c| c.levels.iter().map(|l| l.connections))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
