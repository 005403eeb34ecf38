//! The HTTP suites' results as shown: per server variant and request, cold start, warm
//! latency percentiles, and the throughput curve (requests per second, latency, CPU per
//! 1,000 requests and memory at each concurrency level), read from a saved run so that
//! every front end and export draws the same numbers. A level at which no request
//! completed within the load's duration is *saturated*: kept apart with its bound
//! (throughput below 1 / duration), never drawn or compared as a rate.

use super::stats::{Stats, median};
use super::summary::Index;
use crate::model::{Metric, Phase};
use crate::store::SavedRun;
use serde::Serialize;

/// One concurrency level of one cell; medians over the measured iterations.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Iterations at which this level saturated (fewer than half of them, else it is a
    /// [`SaturatedLevel`]); the figures above are over the other iterations.
    pub saturated_iterations: usize,
}

/// A concurrency level at which fewer than one request completed within the load's
/// duration in at least half of the iterations: the server cannot keep up with this many
/// connections. A measurement with a bound, not a failure and not a rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SaturatedLevel {
    /// Concurrent connections.
    pub connections: u32,
    /// Throughput was below this many requests per second (1 / duration).
    pub below_rps: f64,
    /// Iterations at which the level saturated ...
    pub iterations: usize,
    /// ... of this many measured at this level.
    pub of: usize,
    /// Failed requests (timeouts), summed over iterations.
    pub errors: f64,
}

impl SaturatedLevel {
    /// How it reads wherever a rate would stand, so that every front end says the same:
    /// `saturated (< 0.50/s)`, with `, 2 of 3 runs` when not every iteration saturated.
    pub fn label(&self) -> String {
        let bound = crate::format::format_rate(self.below_rps);
        let of = if self.iterations < self.of {
            format!(", {} of {} runs", self.iterations, self.of)
        } else {
            String::new()
        };
        format!("saturated (< {bound}{of})")
    }
}

/// One offered rate of one cell (open model); medians over the measured iterations.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RatePoint {
    /// Offered requests per second.
    pub offered: u32,
    /// Achieved (successful) requests per second.
    pub achieved: Option<f64>,
    /// Latency percentiles corrected for coordinated omission, ns: p50, p90, p99, p99.9.
    pub corrected_ns: [Option<f64>; 4],
    /// The same timed from each request's actual write, ns.
    pub uncorrected_ns: [Option<f64>; 4],
    /// Failed requests, summed over iterations.
    pub errors: f64,
    /// Timed-out requests (among the errors), summed over iterations.
    pub timeouts: f64,
    /// Server CPU time per 1,000 requests, ns.
    pub cpu_ns_per_1k: Option<f64>,
    /// Peak resident memory of the server under this rate, bytes.
    pub rss_bytes: Option<f64>,
    /// The load generator could start only this many requests per second (in any
    /// iteration): the rate is beyond it, and says nothing of the server.
    pub generator_bound_rps: Option<f64>,
    /// Requests due in the measured phase but never started (the server held every
    /// connection past the end), per iteration on average; `None` when all were started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsent: Option<f64>,
    /// Its corrected p99 met the run's SLO (and it kept up without errors).
    pub met_slo: bool,
}

impl RatePoint {
    /// The corrected p99, ns.
    pub fn p99_ns(&self) -> Option<f64> {
        self.corrected_ns[2]
    }
}

/// The highest offered rate whose p99 met the SLO, median over iterations.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KneePoint {
    /// The knee, requests/s; `None` when even the lowest rate broke the SLO.
    pub rps: Option<f64>,
    /// When even the lowest rate broke it: that rate (the knee is below).
    pub below_rps: Option<f64>,
    /// No tested rate broke the SLO (the budget or the generator ran out first): the knee
    /// is at least `rps`.
    pub unbroken: bool,
    /// The SLO, p99 in ms.
    pub slo_p99_ms: f64,
}

impl KneePoint {
    /// How it reads in every front end: `5.00k/s`, `≥ 20.0k/s`, `< 1.00k/s`.
    pub fn label(&self) -> String {
        match (self.rps, self.below_rps) {
            (Some(r), _) if self.unbroken => format!("≥ {}", crate::format::format_rate(r)),
            (Some(r), _) => crate::format::format_rate(r),
            (None, Some(b)) => format!("< {}", crate::format::format_rate(b)),
            (None, None) => "—".into(),
        }
    }
}

/// One server variant × request.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Throughput at each level that served requests, by connections.
    pub levels: Vec<LevelPoint>,
    /// Levels that saturated, by connections (not in `levels`).
    pub saturated: Vec<SaturatedLevel>,
    /// The level with the most requests per second, and that rate.
    pub best: Option<(u32, f64)>,
    /// Best requests per second over the baseline's best (2.0 = twice the baseline).
    pub best_vs_baseline: Option<f64>,
    /// Peak resident memory of the server over the whole iteration, KiB.
    pub peak_rss_kib: Option<f64>,
    /// Open-model levels by offered rate, ascending.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rates: Vec<RatePoint>,
    /// The knee of the rates, when any rate was offered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knee: Option<KneePoint>,
    /// How the cell was adapted to the host (the container's flags), each line once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Why the cell failed, if it did.
    pub failure: Option<String>,
}

/// The HTTP view of a run, cells in plan order (test-major), against `baseline`.
pub fn http_cells(run: &SavedRun, baseline: &str) -> Vec<HttpCell> {
    let index = Index::new(&run.measurements);
    let med = |rt: &str, t: &str, p: Phase, m: Metric| index.get(rt, t, p, m).and_then(median);
    let http = run.meta.settings.http.clone().unwrap_or_default();
    let slo = http.slo_p99_ms;
    let mut out = Vec::new();
    for test in run.meta.tests.iter().map(|t| t.name.as_str()) {
        let mut cells: Vec<HttpCell> = Vec::new();
        for rt in run.meta.runtimes.iter().map(|r| r.id.as_str()) {
            let failure = run
                .cells
                .iter()
                .find(|c| c.runtime == rt && c.test == test)
                .and_then(|c| c.failure.as_ref().map(|f| f.to_string()));
            let mut notes: Vec<String> = Vec::new();
            for n in run
                .cells
                .iter()
                .filter(|c| c.runtime == rt && c.test == test)
                .flat_map(|c| &c.notes)
            {
                if !notes.contains(n) {
                    notes.push(n.clone());
                }
            }
            let (levels, saturated) = level_points(&index, rt, test);
            let rates = rate_points(&index, rt, test, &http);
            let knee = index
                .get(rt, test, Phase::Knee, Metric::Unbroken)
                .map(|unbroken| KneePoint {
                    rps: med(rt, test, Phase::Knee, Metric::Rps),
                    below_rps: med(rt, test, Phase::Knee, Metric::SaturatedBelowRps),
                    unbroken: unbroken.iter().all(|u| *u > 0.0),
                    slo_p99_ms: slo,
                });
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
                saturated,
                best,
                best_vs_baseline: None,
                peak_rss_kib: med(rt, test, Phase::Total, Metric::MaxRssKib),
                rates,
                knee,
                notes,
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

/// A cell's closed-model levels: those measured, and those where at least half the
/// iterations saturated (the median is then below the bound).
fn level_points(index: &Index, rt: &str, test: &str) -> (Vec<LevelPoint>, Vec<SaturatedLevel>) {
    let med = |p: Phase, m: Metric| index.get(rt, test, p, m).and_then(median);
    let sum = |p, m| index.get(rt, test, p, m).map_or(0.0, |v| v.iter().sum());
    let mut levels: Vec<LevelPoint> = Vec::new();
    let mut saturated: Vec<SaturatedLevel> = Vec::new();
    for p in index.phases(rt, test) {
        let Some(c) = p.concurrency() else { continue };
        let rps = index.get(rt, test, p, Metric::Rps).unwrap_or_default();
        let bounds = index
            .get(rt, test, p, Metric::SaturatedBelowRps)
            .unwrap_or_default();
        let errors = sum(p, Metric::Errors);
        let of = rps.len() + bounds.len();
        // At least half below the bound: so is the median.
        if !bounds.is_empty() && 2 * bounds.len() >= of {
            saturated.push(SaturatedLevel {
                connections: c,
                below_rps: bounds.iter().copied().fold(0.0, f64::max),
                iterations: bounds.len(),
                of,
                errors,
            });
            continue;
        }
        let Some(rps) = Stats::describe(rps) else {
            continue;
        };
        levels.push(LevelPoint {
            connections: c,
            rps,
            p50_ns: med(p, Metric::WallNs),
            p99_ns: med(p, Metric::P99Ns),
            cpu_ns_per_1k: med(p, Metric::CpuNsPer1k),
            rss_bytes: med(p, Metric::RssBytes),
            errors,
            saturated_iterations: bounds.len(),
        });
    }
    (levels, saturated)
}

/// A cell's open-model rates, ascending, each with whether it met the SLO.
fn rate_points(
    index: &Index,
    rt: &str,
    test: &str,
    http: &crate::store::HttpSettings,
) -> Vec<RatePoint> {
    let med = |p: Phase, m: Metric| index.get(rt, test, p, m).and_then(median);
    let sum = |p, m| index.get(rt, test, p, m).map_or(0.0, |v| v.iter().sum());
    let slo = http.slo_p99_ms;
    let mut rates: Vec<RatePoint> = index
        .phases(rt, test)
        .into_iter()
        .filter_map(|p| {
            let offered = p.rate()?;
            let m = |metric| med(p, metric);
            let corrected_ns = [
                m(Metric::WallNs),
                m(Metric::P90Ns),
                m(Metric::P99Ns),
                m(Metric::P999Ns),
            ];
            let achieved = m(Metric::Rps);
            let errors = sum(p, Metric::Errors);
            let timeouts = sum(p, Metric::Timeouts);
            let generator_bound_rps = index
                .get(rt, test, p, Metric::GeneratorBoundRps)
                .and_then(|v| v.iter().copied().reduce(f64::min));
            let iterations = index
                .get(rt, test, p, Metric::Errors)
                .map_or(1, |v| v.len().max(1)) as f64;
            let met_slo = generator_bound_rps.is_none()
                && crate::store::RateOutcome {
                    offered: f64::from(offered),
                    achieved: achieved.unwrap_or(0.0),
                    p99_ns: corrected_ns[2],
                    errors: errors / iterations,
                    timeouts,
                    seconds: http.duration_ms as f64 / 1e3,
                }
                .meets(slo);
            Some(RatePoint {
                offered,
                achieved,
                corrected_ns,
                uncorrected_ns: [
                    m(Metric::UncorrectedP50Ns),
                    m(Metric::UncorrectedP90Ns),
                    m(Metric::UncorrectedP99Ns),
                    m(Metric::UncorrectedP999Ns),
                ],
                errors,
                timeouts,
                cpu_ns_per_1k: m(Metric::CpuNsPer1k),
                rss_bytes: m(Metric::RssBytes),
                generator_bound_rps,
                unsent: Some(sum(p, Metric::UnsentRequests) / iterations).filter(|n| *n > 0.0),
                met_slo,
            })
        })
        .collect();
    rates.sort_by_key(|r| r.offered);
    rates
}

/// The offered rates that appear in any cell, ascending.
pub fn rates_of(cells: &[HttpCell]) -> Vec<u32> {
    let mut v: Vec<u32> = cells
        .iter()
        .flat_map(|c| c.rates.iter().map(|r| r.offered))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The concurrency levels that appear in any cell, served or saturated, ascending.
pub fn levels_of(cells: &[HttpCell]) -> Vec<u32> {
    let mut v: Vec<u32> = cells
        .iter()
        .flat_map(|c| {
            c.levels
                .iter()
                .map(|l| l.connections)
                .chain(c.saturated.iter().map(|s| s.connections))
        })
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}
