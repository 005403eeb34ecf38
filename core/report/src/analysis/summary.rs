//! The summary of one run: per runtime × test, statistics of the primary time with the
//! interval of its typical value, time relative to a baseline with its interval, per-phase statistics,
//! start-up overhead; per runtime, the geometric mean of relative times.

use super::stats::{Groups, Stats, geomean, median_ratio, ratio_estimate};
use crate::model::{Metric, Phase};
use crate::store::{MeasurementRow, SavedRun};
use crate::suite::STARTUP_TEST;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// One cell of the summary table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellSummary {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Which measurement the primary time is: `self` (the guest's own timing), `wall` (the
    /// harness's time of the execute phase), `process` (of a whole process or iteration,
    /// start-up included) or `instructions`.
    pub source: String,
    /// The phase the primary time is of: `execute` for commands (left out of files then),
    /// `instantiate` for the lifecycle suite.
    #[serde(default = "execute_phase", skip_serializing_if = "is_execute_phase")]
    pub primary_phase: String,
    /// Statistics of the primary time (ns) over measured iterations.
    pub stats: Option<Stats>,
    /// The figure every front end shows for the cell: [`Stats::typical`], what its
    /// interval is of (for pages and scripts that read the JSON).
    #[serde(default)]
    pub typical: Option<f64>,
    /// Median time divided by the baseline's median time (2.0 = twice as slow).
    pub relative: Option<f64>,
    /// Lower end of the 95 % interval of `relative`.
    pub relative_low: Option<f64>,
    /// Upper end of the 95 % interval of `relative`.
    pub relative_high: Option<f64>,
    /// Everything but the measured region: median whole-iteration wall time minus median
    /// self-timed time (process start-up for CLIs and native; compile, instantiate and WASI
    /// start-up for embedded runtimes).
    pub startup_ns: Option<f64>,
    /// A CLI runtime's whole-process time less its start-up (its median time for the
    /// empty module of a run of modules, [`crate::suite::STARTUP_TEST`]): never the
    /// primary time, always labelled start-up corrected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup_corrected: Option<Corrected>,
    /// Median wall time per phase (ns).
    pub phases: BTreeMap<String, f64>,
    /// Statistics of each phase's wall time (ns).
    pub phase_stats: BTreeMap<String, Stats>,
    /// Statistics of measurements that are not times (lifecycle suite:
    /// `rss_per_instance_bytes`, `instances_per_sec`), by metric name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metrics: BTreeMap<String, Stats>,
    /// Why the cell failed, if it did.
    pub failure: Option<String>,
    /// Invocations (worker processes) its primary values came from.
    #[serde(default)]
    pub invocations: u32,
    /// Fewer invocations ended than the run planned (an interrupted or cancelled run): its
    /// values are shown but kept out of relative figures, geomeans and verdicts.
    #[serde(default)]
    pub partial: bool,
    /// Half the width of the median's 95 % interval, percent of the median: the smallest
    /// difference this cell could show.
    #[serde(default)]
    pub halfwidth_pct: Option<f64>,
    /// Why `relative` is missing when the cell has values (its baseline failed, timing
    /// sources differ, the cell is partial).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A time with another subtracted, and a 95 % interval that holds both intervals' noise:
/// from this one's low end less the other's high end, to this one's high end less the
/// other's low end (conservative: the two are measured apart).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Corrected {
    /// Median less the other median, ns (may be below zero: then the two cannot be told
    /// apart).
    pub ns: f64,
    /// Low end, ns.
    pub low: Option<f64>,
    /// High end, ns.
    pub high: Option<f64>,
}

impl Corrected {
    /// `a` less `b`, from their statistics.
    pub fn of(a: &Stats, b: &Stats) -> Corrected {
        Corrected {
            ns: a.median - b.median,
            low: a.ci_low.zip(b.ci_high).map(|(l, h)| l - h),
            high: a.ci_high.zip(b.ci_low).map(|(h, l)| h - l),
        }
    }
}

fn execute_phase() -> String {
    Phase::Execute.as_str().to_string()
}

fn is_execute_phase(p: &String) -> bool {
    p == Phase::Execute.as_str()
}

/// Metrics summarised besides times (as [`CellSummary::metrics`]), with the phase they are
/// recorded under.
pub const OTHER_METRICS: [(Phase, Metric); 2] = [
    (Phase::Instantiate, Metric::RssPerInstanceBytes),
    (Phase::Instantiate, Metric::InstancesPerSec),
];

/// Per-runtime line of the summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RuntimeSummary {
    /// Runtime id.
    pub runtime: String,
    /// Geometric mean of relative times over the tests both it and the baseline ran.
    pub geomean_relative: Option<f64>,
    /// Tests in that mean.
    pub tests_compared: usize,
    /// Tests in the run: a mean over fewer says so.
    #[serde(default)]
    pub tests_total: usize,
    /// Cells that failed.
    pub failed: usize,
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// How much of the machine other processes took during the run (`None` for runs saved
    /// before it was recorded): a busy run's figures carry that load.
    #[serde(default)]
    pub load: Option<super::RunLoad>,
}

#[cfg(test)]
impl CellSummary {
    /// Unit tests' cell: self-timed `execute` over 2 invocations, three values equal to
    /// `median` (none: no values), nothing relative, no noise, no note.
    pub fn fixture(runtime: &str, test: &str, median: Option<f64>) -> CellSummary {
        CellSummary {
            runtime: runtime.into(),
            test: test.into(),
            source: "self".into(),
            primary_phase: "execute".into(),
            stats: median.and_then(|m| Stats::describe(&[m, m, m])),
            typical: median,
            relative: None,
            relative_low: None,
            relative_high: None,
            startup_ns: None,
            startup_corrected: None,
            phases: Default::default(),
            phase_stats: Default::default(),
            metrics: Default::default(),
            failure: None,
            invocations: 2,
            partial: false,
            halfwidth_pct: None,
            note: None,
        }
    }
}

impl RunSummary {
    /// The cell for a runtime and test. Cells are test-major over `tests` × `runtimes`, so
    /// the cell is found by position (a matrix of 10,000 cells is drawn cell by cell); a
    /// summary built otherwise is searched.
    pub fn cell(&self, runtime: &str, test: &str) -> Option<&CellSummary> {
        let at = self.tests.iter().position(|t| t == test).and_then(|t| {
            let r = self.runtimes.iter().position(|r| r == runtime)?;
            self.cells.get(t * self.runtimes.len() + r)
        });
        at.filter(|c| c.runtime == runtime && c.test == test)
            .or_else(|| {
                self.cells
                    .iter()
                    .find(|c| c.runtime == runtime && c.test == test)
            })
    }
}

type Key = (u32, u32, Phase, Metric);

/// One key's values, each invocation's together, in invocation order.
#[derive(Default)]
pub(super) struct Series {
    values: Vec<f64>,
    starts: Vec<usize>,
    ids: Vec<u32>,
}

impl Series {
    /// `(invocation, value)` pairs in arrival order, grouped by invocation.
    pub(super) fn of(mut v: Vec<(u32, f64)>) -> Series {
        // Stable: values keep their iteration order inside an invocation.
        v.sort_by_key(|(inv, _)| *inv);
        let mut s = Series::default();
        let mut last = None;
        for (inv, value) in v {
            if last != Some(inv) {
                s.starts.push(s.values.len());
                s.ids.push(inv);
                last = Some(inv);
            }
            s.values.push(value);
        }
        s
    }

    pub(super) fn groups(&self, first_stage: usize) -> Groups<'_> {
        Groups {
            values: &self.values,
            starts: &self.starts,
            ids: &self.ids,
            first_stage,
        }
    }
}

/// Measured (non-warm-up) values of a run, indexed by runtime, test, phase and metric, and
/// grouped by invocation.
pub struct Index<'a> {
    names: HashMap<&'a str, u32>,
    map: HashMap<Key, Series>,
    /// The phases of each (runtime, test), sorted: a lookup, not a scan of every key.
    phases: HashMap<(u32, u32), Vec<Phase>>,
    /// [`Groups::first_stage`] of every group.
    first_stage: usize,
}

impl<'a> Index<'a> {
    /// Indexes measurement rows, leaving out warm-ups.
    pub fn new(rows: &'a [MeasurementRow]) -> Index<'a> {
        let mut names: HashMap<&'a str, u32> = HashMap::new();
        let mut by_invocation: HashMap<Key, Vec<(u32, f64)>> = HashMap::new();
        for m in rows.iter().filter(|m| !m.warmup) {
            let next = names.len() as u32;
            let rt = *names.entry(&m.runtime).or_insert(next);
            let next = names.len() as u32;
            let test = *names.entry(&m.test).or_insert(next);
            by_invocation
                .entry((rt, test, m.phase, m.metric))
                .or_default()
                .push((m.invocation, m.value));
        }
        let map: HashMap<Key, Series> = by_invocation
            .into_iter()
            .map(|(k, v)| (k, Series::of(v)))
            .collect();
        let mut phases: HashMap<(u32, u32), Vec<Phase>> = HashMap::new();
        for k in map.keys() {
            phases.entry((k.0, k.1)).or_default().push(k.2);
        }
        for v in phases.values_mut() {
            v.sort();
            v.dedup();
        }
        Index {
            names,
            map,
            phases,
            first_stage: 0,
        }
    }

    /// Indexes a saved run's measurements; a `--precision` run's groups carry its first
    /// stage (the planned invocations), so their intervals are Stein's.
    pub fn of_run(run: &'a SavedRun) -> Index<'a> {
        let mut index = Index::new(&run.measurements);
        if run.meta.settings.precision.is_some() {
            index.first_stage = run.meta.settings.invocations as usize;
        }
        index
    }

    /// Values of one key.
    pub fn get(&self, rt: &str, test: &str, phase: Phase, metric: Metric) -> Option<&[f64]> {
        self.groups(rt, test, phase, metric).map(|g| g.values)
    }

    /// Values of one key, grouped by invocation.
    pub fn groups(&self, rt: &str, test: &str, phase: Phase, metric: Metric) -> Option<Groups<'_>> {
        let (rt, test) = (*self.names.get(rt)?, *self.names.get(test)?);
        self.map
            .get(&(rt, test, phase, metric))
            .map(|s| s.groups(self.first_stage))
    }

    /// The phases a cell has values of, in order ([`Phase::Throughput`] levels included).
    pub fn phases(&self, rt: &str, test: &str) -> Vec<Phase> {
        let (Some(rt), Some(test)) = (self.names.get(rt), self.names.get(test)) else {
            return Vec::new();
        };
        self.phases.get(&(*rt, *test)).cloned().unwrap_or_default()
    }

    /// The primary measure of a cell: the first of [`crate::model::PRIMARY_SOURCES`] it has
    /// values of (instructions, self-timing, wall `execute`, the whole iteration — all
    /// reported as `execute` — then wall `instantiate`, then latency), as the live views
    /// take it. Returns the values, their source (`instructions`, `self`, `wall` or
    /// `process`), and the phase it is reported as.
    pub fn primary(&self, rt: &str, test: &str) -> Option<(Groups<'_>, &'static str, Phase)> {
        crate::model::PRIMARY_SOURCES.iter().find_map(|s| {
            (self.groups(rt, test, s.phase, s.metric)).map(|v| (v, s.source, s.shown))
        })
    }
}

/// The runtime a run's figures are relative to when none is asked for: the run's own
/// baseline where the run has it, else its first runtime — a suite run without native
/// would otherwise be relative to nothing, every cell empty. A kind shown in absolute
/// figures (the life cycle's: [`crate::model::SuiteShape::baseline`]) keeps its own.
pub fn default_baseline(run: &SavedRun) -> &str {
    let own = run.meta.settings.baseline.as_str();
    let relative = run.meta.suite_kind.shape().baseline;
    match run.meta.runtimes.first() {
        Some(first) if relative && !run.meta.runtimes.iter().any(|r| r.id == own) => &first.id,
        _ => own,
    }
}

/// Summarises a run against `baseline` (default: [`default_baseline`]).
pub fn summarize(run: &SavedRun, baseline: Option<&str>) -> RunSummary {
    let s = Summarizing::of(run, baseline.unwrap_or(default_baseline(run)));
    let tests: Vec<String> = run.meta.tests.iter().map(|t| t.name.clone()).collect();
    let runtimes: Vec<String> = run.meta.runtimes.iter().map(|r| r.id.clone()).collect();
    let mut cells = Vec::with_capacity(tests.len() * runtimes.len());
    for test in &tests {
        let base = s.base(test);
        cells.extend(runtimes.iter().map(|rt| s.cell(test, rt, &base)));
    }
    let per_runtime = runtimes
        .iter()
        .map(|rt| per_runtime(rt, &cells, &tests))
        .collect();
    RunSummary {
        run_id: run.meta.id.clone(),
        baseline: s.baseline.to_string(),
        tests,
        runtimes,
        cells,
        per_runtime,
        load: super::RunLoad::of(run),
    }
}

/// A runtime's row under the matrix: the geometric mean of its ratios, how many tests it
/// was compared on and how many failed.
fn per_runtime(rt: &str, cells: &[CellSummary], tests: &[String]) -> RuntimeSummary {
    let mine = cells.iter().filter(|c| c.runtime == rt);
    // The empty module measures start-up, not a program: no part of the mean.
    let rel: Vec<f64> = mine
        .clone()
        .filter(|c| c.test != STARTUP_TEST)
        .filter_map(|c| c.relative)
        .collect();
    RuntimeSummary {
        runtime: rt.to_string(),
        geomean_relative: geomean(&rel),
        tests_compared: rel.len(),
        tests_total: tests.iter().filter(|t| *t != STARTUP_TEST).count(),
        failed: mine.filter(|c| c.failure.is_some()).count(),
    }
}

/// A cell's primary values: the values, their source and the phase they are shown as
/// ([`Index::primary`]).
type Primary<'a> = (Groups<'a>, &'static str, Phase);

/// A ratio to the baseline and its interval, when it has one.
type Relative = (f64, Option<f64>, Option<f64>);

/// What every cell of a run is summarised against: its values, its failures and ended
/// invocations, the baseline, and the runtimes' start-ups.
struct Summarizing<'a> {
    run: &'a SavedRun,
    baseline: &'a str,
    index: Index<'a>,
    failures: HashMap<(&'a str, &'a str), String>,
    ended: HashMap<(&'a str, &'a str), u32>,
    planned: u32,
    /// Each CLI runtime's start-up: its whole-process time for the empty module.
    startup: HashMap<&'a str, Stats>,
    /// The baseline's own start-up (its whole-process time for the empty module), which a
    /// process-timed baseline less it makes comparable with an execute phase timed alone.
    base_startup: Option<Stats>,
    /// What a cell without values (a failed one) is compared by.
    default_primary: Phase,
}

/// The baseline's cell of one test, as every runtime's cell of it is compared with.
struct Base<'a> {
    failed: bool,
    partial: bool,
    values: Option<Primary<'a>>,
}

impl<'a> Summarizing<'a> {
    fn of(run: &'a SavedRun, baseline: &'a str) -> Summarizing<'a> {
        let index = Index::of_run(run);
        let failures: HashMap<(&str, &str), String> = run
            .cells
            .iter()
            .filter_map(|c| {
                c.failure
                    .as_ref()
                    .map(|f| ((c.runtime.as_str(), c.test.as_str()), f.to_string()))
            })
            .collect();
        let startup: HashMap<&str, Stats> = run
            .meta
            .runtimes
            .iter()
            .filter(|r| r.kind == crate::model::RuntimeKind::Cli)
            .filter(|r| !failures.contains_key(&(r.id.as_str(), STARTUP_TEST)))
            .filter_map(|r| match index.primary(&r.id, STARTUP_TEST)? {
                (v, "process", _) => Some((r.id.as_str(), Stats::of(&v)?)),
                _ => None,
            })
            .collect();
        let base_startup = (!failures.contains_key(&(baseline, STARTUP_TEST)))
            .then(|| index.primary(baseline, STARTUP_TEST))
            .flatten()
            .and_then(|(v, src, _)| (src == "process").then(|| Stats::of(&v)).flatten());
        Summarizing {
            run,
            baseline,
            failures,
            ended: ended_invocations(run),
            planned: run.meta.settings.invocations,
            startup,
            base_startup,
            default_primary: run.meta.suite_kind.shape().primary,
            index,
        }
    }

    /// Invocations of a cell that ended.
    fn ended(&self, rt: &str, test: &str) -> u32 {
        self.ended.get(&(rt, test)).copied().unwrap_or(0)
    }

    fn base(&self, test: &str) -> Base<'_> {
        let failed = self.failures.contains_key(&(self.baseline, test));
        Base {
            failed,
            partial: self.ended(self.baseline, test) < self.planned,
            values: (!failed)
                .then(|| self.index.primary(self.baseline, test))
                .flatten(),
        }
    }

    fn cell(&self, test: &str, rt: &str, base: &Base<'_>) -> CellSummary {
        let failure = self.failures.get(&(rt, test)).cloned();
        let primary = if failure.is_some() {
            None
        } else {
            self.index.primary(rt, test)
        };
        let partial = failure.is_none() && primary.is_some() && self.ended(rt, test) < self.planned;
        let stats = primary.and_then(|(v, _, _)| Stats::of(&v));
        let halfwidth_pct = stats.and_then(|s| {
            let (lo, hi) = (s.ci_low?, s.ci_high?);
            (s.typical() > 0.0).then(|| 50.0 * (hi - lo) / s.typical())
        });
        let mut phases = BTreeMap::new();
        let mut phase_stats = BTreeMap::new();
        for ph in Phase::ALL {
            if let Some(v) = self.index.get(rt, test, ph, Metric::WallNs)
                && let Some(s) = Stats::describe(v)
            {
                phases.insert(ph.as_str().to_string(), s.median);
                phase_stats.insert(ph.as_str().to_string(), s);
            }
        }
        let mut metrics = BTreeMap::new();
        for (ph, m) in OTHER_METRICS {
            if let Some(v) = self.index.get(rt, test, ph, m)
                && let Some(s) = Stats::describe(v)
            {
                metrics.insert(m.as_str().to_string(), s);
            }
        }
        let (relative, mut note) = self.relative(test, rt, primary, base, partial);
        let startup_ns = match (&stats, primary, phases.get("total")) {
            (Some(s), Some((_, "self", _)), Some(total)) => Some(total - s.median),
            _ => None,
        };
        let startup_corrected = match (&stats, primary, self.startup.get(rt)) {
            (Some(s), Some((_, "process", _)), Some(empty)) if test != STARTUP_TEST => {
                Some(Corrected::of(s, empty))
            }
            _ => None,
        };
        if let Some(na) = self
            .run
            .meta
            .not_applicable
            .iter()
            .find(|n| n.test.is_some() && n.covers(rt, test))
        {
            note = Some(format!("n/a (not run): {}", na.why));
        }
        CellSummary {
            typical: stats.map(|s| s.typical()),
            runtime: rt.to_string(),
            test: test.to_string(),
            source: primary.map(|(_, s, _)| s.to_string()).unwrap_or_default(),
            primary_phase: primary
                .map(|(_, _, p)| p)
                .unwrap_or(self.default_primary)
                .as_str()
                .to_string(),
            invocations: primary.map(|(g, _, _)| g.invocations() as u32).unwrap_or(0),
            stats,
            relative: relative.map(|r| r.0),
            relative_low: relative.and_then(|r| r.1),
            relative_high: relative.and_then(|r| r.2),
            startup_ns,
            startup_corrected,
            phases,
            phase_stats,
            metrics,
            failure,
            partial,
            halfwidth_pct,
            note,
        }
    }

    /// A cell relative to the baseline, only when both are whole and timed alike, and
    /// the note that says why not (or how it was made comparable).
    fn relative(
        &self,
        test: &str,
        rt: &str,
        primary: Option<Primary<'_>>,
        base: &Base<'_>,
        partial: bool,
    ) -> (Option<Relative>, Option<String>) {
        let baseline = self.baseline;
        let why = |note: String| (None, Some(note));
        match (primary, base.values) {
            (None, _) => (None, None),
            _ if partial => why(format!(
                "partial: {} of {} invocations",
                self.ended(rt, test),
                self.planned
            )),
            _ if base.failed => why(format!("baseline {baseline} failed")),
            (Some(_), None) => (None, None),
            _ if rt != baseline && base.partial => why(format!("baseline {baseline} is partial")),
            (Some((v, "wall", _)), Some((b, "process", _)))
                if test != STARTUP_TEST && self.base_startup.is_some() =>
            {
                let corrected = less_startup(&v, &b, self.base_startup.as_ref());
                let note = match &corrected {
                    Some(_) => format!(
                        "relative to {baseline} less its start-up ({} for an empty program): its process time against this runtime's execute phase",
                        crate::format::format_ns(self.base_startup.map_or(0.0, |s| s.typical()))
                    ),
                    None => {
                        format!("not comparable: {baseline}'s process time is within its start-up")
                    }
                };
                (corrected, Some(note))
            }
            (Some((_, src, _)), Some((_, base_src, _))) if src != base_src => why(format!(
                "not comparable: timing sources differ ({src} vs {base_src})"
            )),
            _ if rt == baseline => (Some((1.0, Some(1.0), Some(1.0))), None),
            (Some((v, _, _)), Some((b, _, _))) => match ratio_estimate(&b, &v, None) {
                Some(e) => (Some((e.ratio, Some(e.low), Some(e.high))), None),
                // A side with a single value: the ratio, and no interval to claim.
                None => (
                    median_ratio(b.values, v.values).map(|r| (r, None, None)),
                    None,
                ),
            },
        }
    }
}

/// A cell timed without start-up (`wall`: its execute phase) relative to a process-timed
/// baseline less the baseline's start-up (its time for the empty program): the ratio of
/// the typical values, and a conservative interval from the three intervals' ends (they
/// are measured apart, so their noise adds). `None` when the baseline's time is not above
/// its start-up.
fn less_startup(
    v: &Groups,
    base: &Groups,
    startup: Option<&Stats>,
) -> Option<(f64, Option<f64>, Option<f64>)> {
    let (s, b, e) = (Stats::of(v)?, Stats::of(base)?, startup?);
    let program = b.typical() - e.typical();
    if program <= 0.0 {
        return None;
    }
    let ends = match (
        s.ci_low, s.ci_high, b.ci_low, b.ci_high, e.ci_low, e.ci_high,
    ) {
        (Some(sl), Some(sh), Some(bl), Some(bh), Some(el), Some(eh)) if bl - eh > 0.0 => {
            (Some(sl / (bh - el)), Some(sh / (bl - eh)))
        }
        _ => (None, None),
    };
    Some((s.typical() / program, ends.0, ends.1))
}

/// Invocations of each cell that ended without failing (a run saved before invocations
/// has one record per cell).
pub fn ended_invocations(run: &SavedRun) -> HashMap<(&str, &str), u32> {
    let mut seen: HashMap<(&str, &str), std::collections::BTreeSet<u32>> = HashMap::new();
    for c in run.cells.iter().filter(|c| c.failure.is_none()) {
        seen.entry((c.runtime.as_str(), c.test.as_str()))
            .or_default()
            .insert(c.invocation);
    }
    seen.into_iter().map(|(k, v)| (k, v.len() as u32)).collect()
}
