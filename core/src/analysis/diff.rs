//! Comparing two runs (or two runtimes of one run) cell by cell: ratio of the typical
//! values with a Student-t interval over invocations, a verdict corrected for the many rows of one diff, and
//! guards that say "insufficient data" or "not comparable" rather than guess (method and
//! sources in docs/statistics.md).

use super::stats::{Groups, RatioEstimate, bh_adjust, median, median_ratio, ratio_estimate};
use super::summary::{Index, ended_invocations};
use crate::runtime::{Metric, Phase};
use crate::store::SavedRun;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The noise threshold every front end starts from, percent: a change must be bigger than
/// this, with its whole interval beyond it, to be called one.
pub const DEFAULT_THRESHOLD_PCT: f64 = 2.0;

/// How run diffs compare by default: `none` (times as measured) or a runtime id each side
/// is taken relative to. Chosen by measurement (docs/statistics.md, scripts/bench-truth).
pub const DEFAULT_NORMALIZE: &str = "none";

/// The false discovery rate the verdicts of one diff are held to (Benjamini–Hochberg).
pub const ALPHA: f64 = 0.05;

/// Fewest measured values a side needs for a verdict.
pub const MIN_VALUES: usize = 3;

/// Fewest invocations (worker processes) a side needs for a verdict: with one, the noise
/// between processes is not in the data at all.
pub const MIN_INVOCATIONS: usize = 2;

/// What a diff concludes for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// B is faster: the whole interval lies below 1 − threshold and the change survives
    /// the correction for the diff's many rows.
    #[serde(rename = "faster")]
    Faster,
    /// B is slower: the whole interval lies above 1 + threshold, corrected likewise.
    #[serde(rename = "slower")]
    Slower,
    /// No change beyond the threshold can be told from the noise.
    #[serde(rename = "no change")]
    NoChange,
    /// Too few values or invocations, or a partial cell: no verdict either way.
    #[serde(rename = "insufficient data")]
    InsufficientData,
    /// The two sides were not measured the same way (timing sources differ: no ratio), or
    /// on a machine busy with other processes (ratio and interval kept, no verdict).
    #[serde(rename = "not comparable")]
    NotComparable,
}

impl Verdict {
    /// Whether the row claims a change.
    pub fn is_change(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::NoChange => "no change",
            Verdict::InsufficientData => "insufficient data",
            Verdict::NotComparable => "not comparable",
        })
    }
}

/// Checks a noise threshold given by a user: finite, 0 to 100 percent.
pub fn check_threshold(pct: f64) -> Result<f64, DiffError> {
    if pct.is_finite() && (0.0..=100.0).contains(&pct) {
        Ok(pct)
    } else {
        Err(DiffError::Threshold(pct.to_string()))
    }
}

/// How to compare.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffOptions {
    /// Noise threshold, percent.
    pub threshold_pct: f64,
    /// Compare each runtime relative to this runtime of its own run (run diffs only).
    pub normalize: Option<String>,
}

impl DiffOptions {
    /// Options from what a user typed: a threshold (checked) and `none` or a runtime id.
    pub fn parse(threshold_pct: f64, normalize: &str) -> Result<DiffOptions, DiffError> {
        Ok(DiffOptions {
            threshold_pct: check_threshold(threshold_pct)?,
            normalize: match normalize.trim() {
                "" | "none" => None,
                rt => Some(rt.to_string()),
            },
        })
    }
}

impl Default for DiffOptions {
    fn default() -> DiffOptions {
        DiffOptions {
            threshold_pct: DEFAULT_THRESHOLD_PCT,
            normalize: None,
        }
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
    /// B over A (normalised: each relative to its run's reference); `None` when the two
    /// are not comparable.
    pub ratio: Option<f64>,
    /// Lower end of the ratio's 95 % interval (none without enough data).
    pub ci_low: Option<f64>,
    /// Upper end.
    pub ci_high: Option<f64>,
    /// Half the interval's width, percent of the ratio: the smallest change this row
    /// could detect.
    pub halfwidth_pct: Option<f64>,
    /// The row's p-value of "no change beyond the threshold", adjusted for the diff's
    /// many rows (Benjamini–Hochberg).
    pub p_adjusted: Option<f64>,
    /// Conclusion.
    pub verdict: Verdict,
    /// Why there is no verdict, or how the row was compared when it differs from the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Measured values in A and B.
    pub n: (usize, usize),
    /// Invocations in A and B.
    pub invocations: (usize, usize),
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
    /// The runtime each side was taken relative to before comparing, if any.
    pub normalize: Option<String>,
    /// The false discovery rate of the verdicts (Benjamini–Hochberg over the rows).
    pub alpha: f64,
    /// Why the comparison may mislead (different machines, versions, sources).
    pub warnings: Vec<String>,
    /// Matched rows.
    pub rows: Vec<DiffRow>,
    /// Rows only A has (or that failed in B).
    pub only_a: Vec<DiffKey>,
    /// Rows only B has.
    pub only_b: Vec<DiffKey>,
    /// [`Diff::method`], saved with the diff so every reader (the desktop page, a JSON
    /// export) says how it was compared in core's words.
    #[serde(default)]
    pub method: String,
}

/// How many rows have each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Faster.
    pub faster: usize,
    /// Slower.
    pub slower: usize,
    /// No change.
    pub no_change: usize,
    /// Insufficient data.
    pub insufficient: usize,
    /// Not comparable.
    pub not_comparable: usize,
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} faster, {} slower, {} no change",
            self.faster, self.slower, self.no_change
        )?;
        if self.insufficient > 0 {
            write!(f, ", {} insufficient data", self.insufficient)?;
        }
        if self.not_comparable > 0 {
            write!(f, ", {} not comparable", self.not_comparable)?;
        }
        Ok(())
    }
}

impl Diff {
    /// Rows with each verdict.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.rows {
            *match r.verdict {
                Verdict::Faster => &mut c.faster,
                Verdict::Slower => &mut c.slower,
                Verdict::NoChange => &mut c.no_change,
                Verdict::InsufficientData => &mut c.insufficient,
                Verdict::NotComparable => &mut c.not_comparable,
            } += 1;
        }
        c
    }

    /// One line saying how the rows were compared, for every output format.
    pub fn method(&self) -> String {
        format!(
            "B/A of geometric means over invocations, 95 % Student-t interval over invocations (Welch); a change only when the whole interval lies beyond ±{} % and it holds at a false discovery rate of {} % over the {} rows (Benjamini–Hochberg); {}",
            self.threshold_pct,
            self.alpha * 100.0,
            self.rows.len(),
            match &self.normalize {
                Some(rt) => format!("each side relative to its own run's {rt}"),
                None => "not normalised".into(),
            }
        )
    }

    fn new(a: String, b: String, opts: &DiffOptions) -> Diff {
        Diff {
            a,
            b,
            threshold_pct: opts.threshold_pct,
            normalize: opts.normalize.clone(),
            alpha: ALPHA,
            warnings: Vec::new(),
            rows: Vec::new(),
            only_a: Vec::new(),
            only_b: Vec::new(),
            method: String::new(),
        }
    }

    /// Decides the verdicts of every row with an estimate, corrected together.
    fn decide(&mut self, estimates: Vec<Option<RatioEstimate>>) {
        let t = self.threshold_pct;
        let which: Vec<usize> = (0..self.rows.len())
            .filter(|i| estimates[*i].is_some())
            .collect();
        let p: Vec<f64> = which
            .iter()
            .map(|i| estimates[*i].as_ref().map_or(1.0, |e| e.p_beyond(t)))
            .collect();
        for (i, adj) in which.into_iter().zip(bh_adjust(&p)) {
            let row = &mut self.rows[i];
            let (lo, hi) = (row.ci_low.unwrap_or(0.0), row.ci_high.unwrap_or(f64::MAX));
            row.p_adjusted = Some(adj);
            row.verdict = if adj > self.alpha {
                Verdict::NoChange
            } else if lo > 1.0 + t / 100.0 {
                Verdict::Slower
            } else if hi < 1.0 - t / 100.0 {
                Verdict::Faster
            } else {
                Verdict::NoChange
            };
        }
        self.method = self.method();
    }

    /// Withholds every verdict (a run was measured on a busy machine), saying why once in
    /// the warnings and on each row.
    fn withhold(&mut self, why: String) {
        for r in &mut self.rows {
            if matches!(
                r.verdict,
                Verdict::Faster | Verdict::Slower | Verdict::NoChange
            ) {
                r.verdict = Verdict::NotComparable;
                let busy = "not comparable: the machine was busy (see warnings)";
                r.note = Some(match r.note.take() {
                    Some(n) => format!("{busy}; {n}"),
                    None => busy.into(),
                });
            }
        }
        self.warnings.push(why);
    }
}

/// Runs that cannot be compared at all, or a comparison asked for wrongly.
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
    /// A threshold that is not a percentage.
    #[error("--threshold must be a finite percentage from 0 to 100, got {0}")]
    Threshold(String),
}

/// One measurement of a cell as a diff compares it.
struct Values<'a> {
    values: Cow<'a, [f64]>,
    starts: Cow<'a, [usize]>,
    /// How it was timed: `self` (the guest), `wall` (the harness) or `rps`.
    source: &'static str,
}

impl<'g> Values<'g> {
    fn borrowed(g: Groups<'g>, source: &'static str) -> Values<'g> {
        Values {
            values: Cow::Borrowed(g.values),
            starts: Cow::Borrowed(g.starts),
            source,
        }
    }

    fn groups(&self) -> Groups<'_> {
        Groups {
            values: &self.values,
            starts: &self.starts,
        }
    }
}

/// One run as a diff reads it: its measurements indexed, its failed cells, and how many
/// invocations each cell finished, so each cell is a lookup rather than a scan of the run.
struct Side<'a> {
    index: Index<'a>,
    failed: HashSet<(&'a str, &'a str)>,
    ended: HashMap<(&'a str, &'a str), u32>,
    planned: u32,
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
            ended: ended_invocations(run),
            planned: run.meta.settings.invocations,
        }
    }

    /// Invocations of a cell that ended, when fewer than planned.
    fn partial(&self, rt: &str, test: &str) -> Option<u32> {
        let ended = self.ended.get(&(rt, test)).copied().unwrap_or(0);
        (ended < self.planned).then_some(ended)
    }

    /// The values of every comparable phase of a cell: the primary under its phase
    /// (`execute` for commands), then wall time of the other phases, then (HTTP suites) the
    /// time per request at each concurrency level, 1/throughput, so that lower is better
    /// throughout. Failed cells have none. Other measurements that are not times (memory
    /// per instance, instances per second) are not diffed.
    fn series(&self, rt: &str, test: &str) -> Vec<(String, Values<'_>)> {
        if self.failed.contains(&(rt, test)) {
            return Vec::new();
        }
        let index = &self.index;
        let borrowed = Values::borrowed;
        let mut out = Vec::new();
        let mut shown = Phase::Execute;
        if let Some((g, source, phase)) = index.primary(rt, test) {
            out.push((phase.as_str().to_string(), borrowed(g, source)));
            shown = phase;
        }
        for ph in Phase::ALL {
            if ph == shown || ph == Phase::Execute {
                continue;
            }
            if let Some(g) = index.groups(rt, test, ph, Metric::WallNs) {
                out.push((ph.as_str().to_string(), borrowed(g, "wall")));
            }
        }
        for ph in index.phases(rt, test) {
            // A level that saturated in any iteration has no rate there, only a bound:
            // the rates of the other iterations alone would compare as a faster server.
            if let Some(g) = index.groups(rt, test, ph, Metric::Rps)
                && ph.concurrency().is_some()
                && index
                    .groups(rt, test, ph, Metric::SaturatedBelowRps)
                    .is_none()
            {
                let per_request: Vec<f64> = g.values.iter().map(|r| 1e9 / r.max(1e-9)).collect();
                out.push((
                    ph.as_str().to_string(),
                    Values {
                        values: Cow::Owned(per_request),
                        starts: Cow::Borrowed(g.starts),
                        source: "rps",
                    },
                ));
            }
        }
        out
    }
}

/// Why a side of a row cannot carry a verdict, if it cannot.
fn too_little(side: &str, g: &Groups, partial: Option<u32>, planned: u32) -> Option<String> {
    if let Some(ended) = partial {
        return Some(format!(
            "partial cell in {side}: {ended} of {planned} invocations"
        ));
    }
    if g.values.len() < MIN_VALUES {
        return Some(format!(
            "{} value(s) in {side}, {MIN_VALUES} needed",
            g.values.len()
        ));
    }
    if g.invocations() < MIN_INVOCATIONS {
        return Some(format!(
            "{} invocation(s) in {side}, {MIN_INVOCATIONS} needed (--invocations)",
            g.invocations()
        ));
    }
    None
}

/// One side of a row: its values, whether its cell is partial, and its reference (the
/// same phase of the normalising runtime in the same run) when normalising.
struct Part<'s, 'v> {
    side: &'s Side<'s>,
    name: &'static str,
    values: &'v Values<'v>,
    partial: Option<u32>,
}

/// Builds a row (its verdict decided later, with the others) and its estimate.
fn row(
    key: &DiffKey,
    a: &Part,
    b: &Part,
    refs: Option<(&Part, &Part)>,
    note: Option<String>,
) -> Option<(DiffRow, Option<RatioEstimate>)> {
    let (ga, gb) = (a.values.groups(), b.values.groups());
    let (am, bm) = (median(ga.values)?, median(gb.values)?);
    if am <= 0.0 {
        return None;
    }
    let mut r = DiffRow {
        runtime: key.runtime.clone(),
        test: key.test.clone(),
        phase: key.phase.clone(),
        a_median: am,
        b_median: bm,
        ratio: None,
        ci_low: None,
        ci_high: None,
        halfwidth_pct: None,
        p_adjusted: None,
        verdict: Verdict::InsufficientData,
        note,
        n: (ga.values.len(), gb.values.len()),
        invocations: (ga.invocations(), gb.invocations()),
    };
    let mut sources = vec![(a.values.source, b.values.source)];
    if let Some((ra, rb)) = refs {
        sources.push((a.values.source, ra.values.source));
        sources.push((b.values.source, rb.values.source));
    }
    if let Some((x, y)) = sources.iter().find(|(x, y)| x != y) {
        r.verdict = Verdict::NotComparable;
        r.note = Some(format!(
            "not comparable: timing sources differ ({x} vs {y})"
        ));
        return Some((r, None));
    }
    let (rga, rgb) = match refs {
        Some((ra, rb)) => (Some(ra.values.groups()), Some(rb.values.groups())),
        None => (None, None),
    };
    let estimate = ratio_estimate(&ga, &gb, rga.as_ref().zip(rgb.as_ref()));
    r.ratio = estimate
        .as_ref()
        .map(|e| e.ratio)
        .or_else(|| median_ratio(ga.values, gb.values));
    let mut parts: Vec<(&Part, Groups)> = vec![(a, ga), (b, gb)];
    if let (Some((ra, rb)), Some(x), Some(y)) = (refs, rga, rgb) {
        parts.push((ra, x));
        parts.push((rb, y));
    }
    let lacking = parts
        .iter()
        .find_map(|(p, g)| too_little(p.name, g, p.partial, p.side.planned));
    if let Some(why) = lacking {
        r.note = Some(why);
        return Some((r, None));
    }
    let Some(e) = estimate else {
        return Some((r, None));
    };
    r.ci_low = Some(e.low);
    r.ci_high = Some(e.high);
    r.halfwidth_pct = Some(e.halfwidth_pct());
    r.verdict = Verdict::NoChange;
    Some((r, Some(e)))
}

/// Matches the cells of A and B into rows (verdicts undecided), or into only-A / only-B.
#[allow(clippy::too_many_arguments)]
fn pair_cells<'s>(
    d: &mut Diff,
    estimates: &mut Vec<Option<RatioEstimate>>,
    (sa, rt_a): (&'s Side<'s>, &str),
    (sb, rt_b): (&'s Side<'s>, &str),
    test: &str,
    label: &str,
    normalize: Option<&str>,
) {
    let va = sa.series(rt_a, test);
    let vb = sb.series(rt_b, test);
    // References: the normalising runtime's series in each run (none for itself).
    let refs = normalize.filter(|n| *n != rt_a && *n != rt_b).map(|n| {
        (
            (
                sa.series(n, test),
                sa.partial(n, test),
                sa.failed.contains(&(n, test)),
            ),
            (
                sb.series(n, test),
                sb.partial(n, test),
                sb.failed.contains(&(n, test)),
            ),
        )
    });
    let key = |phase: &str| DiffKey {
        runtime: label.to_string(),
        test: test.to_string(),
        phase: phase.to_string(),
    };
    for (phase, a) in &va {
        let k = key(phase);
        let Some((_, b)) = vb.iter().find(|(p, _)| p == phase) else {
            d.only_a.push(k);
            continue;
        };
        let pa = Part {
            side: sa,
            name: "A",
            values: a,
            partial: sa.partial(rt_a, test),
        };
        let pb = Part {
            side: sb,
            name: "B",
            values: b,
            partial: sb.partial(rt_b, test),
        };
        let mut note = None;
        let found = match (&refs, normalize) {
            (Some(((ra, pra, fa), (rb, prb, fb))), Some(n)) => {
                let ra = ra.iter().find(|(p, _)| p == phase);
                let rb = rb.iter().find(|(p, _)| p == phase);
                match (ra, rb) {
                    (Some((_, ra)), Some((_, rb))) => Some((
                        Part {
                            side: sa,
                            name: "A's reference",
                            values: ra,
                            partial: *pra,
                        },
                        Part {
                            side: sb,
                            name: "B's reference",
                            values: rb,
                            partial: *prb,
                        },
                    )),
                    _ => {
                        note = Some(if *fa || *fb {
                            format!("not normalised: {n} failed")
                        } else {
                            format!("not normalised: {n} has no {phase}")
                        });
                        None
                    }
                }
            }
            (None, Some(n)) if n == rt_a => {
                note = Some(format!("not normalised: {n} is the reference"));
                None
            }
            _ => None,
        };
        let refs = found.as_ref().map(|(x, y)| (x, y));
        if let Some((r, e)) = row(&k, &pa, &pb, refs, note) {
            d.rows.push(r);
            estimates.push(e);
        }
    }
    for (phase, _) in &vb {
        if !va.iter().any(|(p, _)| p == phase) {
            d.only_b.push(key(phase));
        }
    }
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
            w.push(match (ta.module_bytes, tb.module_bytes) {
                (Some(x), Some(y)) => format!(
                    "module {} differs: another build ({x} vs {y} bytes)",
                    ta.name
                ),
                _ => format!("test {} sources differ", ta.name),
            });
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

/// Diffs run B against run A: for each runtime, test and phase both have, the ratio B/A
/// of the typical values with its 95 % interval over invocations and a verdict.
pub fn diff_runs(a: &SavedRun, b: &SavedRun, opts: &DiffOptions) -> Result<Diff, DiffError> {
    check_threshold(opts.threshold_pct)?;
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
    if let Some(n) = &opts.normalize {
        for run in [a, b] {
            if !run.meta.runtimes.iter().any(|r| &r.id == n) {
                return Err(DiffError::NoRuntime(n.clone(), run.meta.id.clone()));
            }
        }
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
    let mut d = Diff::new(a.meta.id.clone(), b.meta.id.clone(), opts);
    d.warnings = comparability(a, b);
    let mut estimates = Vec::new();
    for (rt, test) in &all {
        pair_cells(
            &mut d,
            &mut estimates,
            (&side_a, rt),
            (&side_b, rt),
            test,
            rt,
            opts.normalize.as_deref(),
        );
    }
    d.decide(estimates);
    if let Some(why) = super::load::busy_reason(&[a, b]) {
        d.withhold(why);
    }
    Ok(d)
}

/// Compares two runtimes inside one run, test by test: B's time over A's. Normalising
/// does not apply (both sides ran in the same run).
pub fn compare_runtimes(
    run: &SavedRun,
    rt_a: &str,
    rt_b: &str,
    threshold_pct: f64,
) -> Result<Diff, DiffError> {
    check_threshold(threshold_pct)?;
    for rt in [rt_a, rt_b] {
        if !run.meta.runtimes.iter().any(|r| r.id == rt) {
            return Err(DiffError::NoRuntime(rt.to_string(), run.meta.id.clone()));
        }
    }
    let side = Side::new(run);
    let opts = DiffOptions {
        threshold_pct,
        normalize: None,
    };
    let mut d = Diff::new(
        format!("{}:{rt_a}", run.meta.id),
        format!("{}:{rt_b}", run.meta.id),
        &opts,
    );
    let label = format!("{rt_a} → {rt_b}");
    let mut estimates = Vec::new();
    for t in &run.meta.tests {
        pair_cells(
            &mut d,
            &mut estimates,
            (&side, rt_a),
            (&side, rt_b),
            &t.name,
            &label,
            None,
        );
    }
    d.decide(estimates);
    if let Some(why) = super::load::busy_reason(&[run]) {
        d.withhold(why);
    }
    Ok(d)
}
