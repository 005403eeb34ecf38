//! Comparing two runs (or two runtimes of one run) cell by cell: ratio of medians with a
//! bootstrap interval and a verdict, plus a guard that says when the runs are not
//! comparable.

use super::stats::{median, ratio_interval, seed_for};
use super::summary::Index;
use crate::runtime::{Metric, Phase};
use crate::store::SavedRun;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashSet};

/// What a diff concludes for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// B is faster: the whole interval is below 1 and the change passes the threshold.
    #[serde(rename = "faster")]
    Faster,
    /// B is slower: the whole interval is above 1 and the change passes the threshold.
    #[serde(rename = "slower")]
    Slower,
    /// The interval straddles 1, or the change is within the noise threshold.
    #[serde(rename = "no change")]
    NoChange,
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::NoChange => "no change",
        })
    }
}

/// Decides a verdict from a ratio B/A, its interval and a threshold in percent.
pub fn verdict(ratio: f64, lo: f64, hi: f64, threshold_pct: f64) -> Verdict {
    let t = threshold_pct / 100.0;
    if lo > 1.0 && ratio > 1.0 + t {
        Verdict::Slower
    } else if hi < 1.0 && ratio < 1.0 - t {
        Verdict::Faster
    } else {
        Verdict::NoChange
    }
}

/// A row's identity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DiffKey {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Phase (`execute` is the primary, self-timed where available).
    pub phase: String,
}

/// One compared row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiffRow {
    /// Runtime id (for a runtime comparison: `A → B`).
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Phase.
    pub phase: String,
    /// Median in A, ns.
    pub a_median: f64,
    /// Median in B, ns.
    pub b_median: f64,
    /// b_median / a_median.
    pub ratio: f64,
    /// Lower end of the 95 % interval of the ratio.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
    /// Conclusion.
    pub verdict: Verdict,
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// A's run id (and runtime, for a runtime comparison).
    pub a: String,
    /// B's.
    pub b: String,
    /// Noise threshold, percent.
    pub threshold_pct: f64,
    /// Why the comparison may mislead (different machines, versions, sources).
    pub warnings: Vec<String>,
    /// Matched rows.
    pub rows: Vec<DiffRow>,
    /// Rows only A has (or that failed in B).
    pub only_a: Vec<DiffKey>,
    /// Rows only B has.
    pub only_b: Vec<DiffKey>,
}

impl Diff {
    /// Matches one cell's phase series of A and B into rows, or into only-A / only-B.
    fn pair(
        &mut self,
        sa: &[(String, Cow<[f64]>)],
        sb: &[(String, Cow<[f64]>)],
        key: impl Fn(&str) -> DiffKey,
    ) {
        for (phase, va) in sa {
            let k = key(phase);
            match sb.iter().find(|(p, _)| p == phase) {
                Some((_, vb)) => {
                    let seed = seed_for(&[&self.a, &self.b, &k.runtime, &k.test, phase]);
                    if let Some(r) = row(&k, va, vb, self.threshold_pct, seed) {
                        self.rows.push(r);
                    }
                }
                None => self.only_a.push(k),
            }
        }
        for (phase, _) in sb {
            if !sa.iter().any(|(p, _)| p == phase) {
                self.only_b.push(key(phase));
            }
        }
    }

    /// Rows with each verdict: (faster, slower, no change).
    pub fn counts(&self) -> (usize, usize, usize) {
        let c = |v| self.rows.iter().filter(|r| r.verdict == v).count();
        (c(Verdict::Faster), c(Verdict::Slower), c(Verdict::NoChange))
    }
}

/// Runs that cannot be compared at all.
#[derive(Debug, thiserror::Error)]
pub enum DiffError {
    /// A and B are the same run.
    #[error("cannot diff run {0} with itself")]
    SameRun(String),
    /// Different suites have different tests.
    #[error("runs of different suites cannot be diffed: {a} is '{a_suite}', {b} is '{b_suite}'")]
    DifferentSuites {
        /// A's id.
        a: String,
        /// A's suite.
        a_suite: String,
        /// B's id.
        b: String,
        /// B's suite.
        b_suite: String,
    },
    /// A runtime named for a comparison is not in the run.
    #[error("runtime '{0}' is not in run {1}")]
    NoRuntime(String, String),
}

/// One run as a diff reads it: its measurements indexed, and its failed cells, so each
/// cell is a lookup rather than a scan of the run (two runs of 10,000 cells).
struct Side<'a> {
    index: Index<'a>,
    failed: HashSet<(&'a str, &'a str)>,
}

impl<'a> Side<'a> {
    fn new(run: &'a SavedRun) -> Side<'a> {
        Side {
            index: Index::new(&run.measurements),
            failed: run
                .cells
                .iter()
                .filter(|c| c.failure.is_some())
                .map(|c| (c.runtime.as_str(), c.test.as_str()))
                .collect(),
        }
    }

    /// The values of every comparable phase of a cell: the primary under its phase
    /// (`execute` for commands), then wall time of the other phases, then (HTTP suites) the
    /// time per request at each concurrency level, 1/throughput, so that lower is better
    /// throughout. Failed cells have none. Other measurements that are not times (memory
    /// per instance, instances per second) are not diffed.
    fn series(&self, rt: &str, test: &str) -> Vec<(String, Cow<'_, [f64]>)> {
        if self.failed.contains(&(rt, test)) {
            return Vec::new();
        }
        let index = &self.index;
        let mut out = Vec::new();
        let mut shown = Phase::Execute;
        if let Some((v, _, phase)) = index.primary(rt, test) {
            out.push((phase.as_str().to_string(), Cow::Borrowed(v)));
            shown = phase;
        }
        for ph in Phase::ALL {
            if ph == shown || ph == Phase::Execute {
                continue;
            }
            if let Some(v) = index.get(rt, test, ph, Metric::WallNs) {
                out.push((ph.as_str().to_string(), Cow::Borrowed(v)));
            }
        }
        for ph in index.phases(rt, test) {
            if let Some(v) = index.get(rt, test, ph, Metric::Rps)
                && ph.concurrency().is_some()
            {
                let per_request: Vec<f64> = v.iter().map(|r| 1e9 / r.max(1e-9)).collect();
                out.push((ph.as_str().to_string(), Cow::Owned(per_request)));
            }
        }
        out
    }
}

fn row(key: &DiffKey, a: &[f64], b: &[f64], threshold_pct: f64, seed: u64) -> Option<DiffRow> {
    let (am, bm) = (median(a)?, median(b)?);
    if am <= 0.0 {
        return None;
    }
    let ratio = bm / am;
    let (lo, hi) = ratio_interval(a, b, seed).unwrap_or((ratio, ratio));
    Some(DiffRow {
        runtime: key.runtime.clone(),
        test: key.test.clone(),
        phase: key.phase.clone(),
        a_median: am,
        b_median: bm,
        ratio,
        ci_low: lo,
        ci_high: hi,
        verdict: verdict(ratio, lo, hi, threshold_pct),
    })
}

/// What makes two runs incomparable, as warnings shown with every output format.
fn comparability(a: &SavedRun, b: &SavedRun) -> Vec<String> {
    let (ma, mb) = (&a.meta, &b.meta);
    let mut w = Vec::new();
    if ma.machine.fingerprint != mb.machine.fingerprint {
        w.push(format!(
            "machine differs: {} ({}, {} cores, {}) vs {} ({}, {} cores, {})",
            ma.machine.fingerprint,
            ma.machine.cpu_model,
            ma.machine.cores,
            ma.machine.kernel,
            mb.machine.fingerprint,
            mb.machine.cpu_model,
            mb.machine.cores,
            mb.machine.kernel
        ));
    }
    for ra in &ma.runtimes {
        if let Some(rb) = mb.runtimes.iter().find(|r| r.id == ra.id) {
            if ra.version != rb.version {
                w.push(format!(
                    "runtime {} version differs: {} vs {}",
                    ra.id, ra.version, rb.version
                ));
            } else if ra.config != rb.config || ra.command != rb.command {
                w.push(format!("runtime {} configuration differs", ra.id));
            }
        }
    }
    for ta in &ma.tests {
        if let Some(tb) = mb.tests.iter().find(|t| t.name == ta.name)
            && ta.source_hash != tb.source_hash
        {
            w.push(format!("test {} sources differ", ta.name));
        }
    }
    if ma.settings.size != mb.settings.size {
        w.push(format!(
            "problem size differs: {} vs {}",
            ma.settings.size, mb.settings.size
        ));
    }
    for m in [ma, mb] {
        if m.status != crate::store::RunStatus::Complete {
            w.push(format!("run {} is {}", m.id, m.status));
        }
    }
    w
}

/// Diffs run B against run A: for each runtime, test and phase both have, the ratio of
/// medians B/A with a 95 % bootstrap interval and a verdict.
pub fn diff_runs(a: &SavedRun, b: &SavedRun, threshold_pct: f64) -> Result<Diff, DiffError> {
    if a.meta.id == b.meta.id {
        return Err(DiffError::SameRun(a.meta.id.clone()));
    }
    if a.meta.suite != b.meta.suite {
        return Err(DiffError::DifferentSuites {
            a: a.meta.id.clone(),
            a_suite: a.meta.suite.clone(),
            b: b.meta.id.clone(),
            b_suite: b.meta.suite.clone(),
        });
    }
    let (side_a, side_b) = (Side::new(a), Side::new(b));
    let cells = |run: &SavedRun| -> BTreeSet<(String, String)> {
        run.meta
            .tests
            .iter()
            .flat_map(|t| {
                run.meta
                    .runtimes
                    .iter()
                    .map(move |r| (r.id.clone(), t.name.clone()))
            })
            .collect()
    };
    let all: BTreeSet<(String, String)> = cells(a).union(&cells(b)).cloned().collect();
    let mut d = Diff {
        a: a.meta.id.clone(),
        b: b.meta.id.clone(),
        threshold_pct,
        warnings: comparability(a, b),
        rows: Vec::new(),
        only_a: Vec::new(),
        only_b: Vec::new(),
    };
    for (rt, test) in &all {
        let sa = side_a.series(rt, test);
        let sb = side_b.series(rt, test);
        let key = |phase: &str| DiffKey {
            runtime: rt.clone(),
            test: test.clone(),
            phase: phase.to_string(),
        };
        d.pair(&sa, &sb, key);
    }
    Ok(d)
}

/// Compares two runtimes inside one run, test by test: B's time over A's.
pub fn compare_runtimes(
    run: &SavedRun,
    rt_a: &str,
    rt_b: &str,
    threshold_pct: f64,
) -> Result<Diff, DiffError> {
    for rt in [rt_a, rt_b] {
        if !run.meta.runtimes.iter().any(|r| r.id == rt) {
            return Err(DiffError::NoRuntime(rt.to_string(), run.meta.id.clone()));
        }
    }
    let side = Side::new(run);
    let mut d = Diff {
        a: format!("{}:{rt_a}", run.meta.id),
        b: format!("{}:{rt_b}", run.meta.id),
        threshold_pct,
        warnings: Vec::new(),
        rows: Vec::new(),
        only_a: Vec::new(),
        only_b: Vec::new(),
    };
    let label = format!("{rt_a} → {rt_b}");
    for t in &run.meta.tests {
        let sa = side.series(rt_a, &t.name);
        let sb = side.series(rt_b, &t.name);
        let key = |phase: &str| DiffKey {
            runtime: label.clone(),
            test: t.name.clone(),
            phase: phase.to_string(),
        };
        d.pair(&sa, &sb, key);
    }
    Ok(d)
}
