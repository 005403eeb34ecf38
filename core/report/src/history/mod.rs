//! History (`wasmeter history`): one cell's figure run after run, over every saved run of a
//! results directory (local or in S3), with the points where it changed level.
//!
//! Runs are chosen on their metadata (suite, machine, the cell in their plan), their
//! measurements read in lazy polars scans, and each run's figure made by the same summary
//! as `show` (one place for the statistics): the geometric mean over invocations with its
//! 95 % interval. A series is one cell on one machine, measured one way, at one problem
//! size, from one plan: runs that differ in any of these are other series, never mixed. A
//! point of a partial cell (a cancelled run's, with fewer invocations than planned) or of a
//! cell measured only on a busy machine is shown, marked, and left out of the search for
//! change points: either can move a figure by more than its interval holds. Busy
//! invocations of a cell with quiet ones are left out of its figure one by one, as `diff`
//! does ([`crate::analysis::busy_invocation`]). A local results
//! directory keeps each run's figures in an index (`.history/`, see [`index`]), added to
//! when a run ends ([`index_run`]), so a run is read once; an S3 prefix is read afresh,
//! only the cells asked for.

mod changes;
pub mod index;
mod remote;
mod scan;
mod source;
#[cfg(test)]
mod tests;

pub use changes::{ChangeOptions, ChangePoint, change_points};
pub use index::DIR as INDEX_DIR;
pub use source::{CONNECT_TIMEOUT, Results};

use crate::analysis::{busy_invocation, summarize};
use crate::store::{RunMeta, SavedRun, StoreError, load_run, quiet_polars_panics};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

/// Why a history could not be made.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// A local file could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The S3 endpoint or an object in it could not be read.
    #[error("{url}: {message}")]
    Remote {
        /// What was asked for.
        url: String,
        /// What went wrong, one line.
        message: String,
    },
    /// The question itself is wrong (a bad URL).
    #[error("{0}")]
    Query(String),
}

/// Which cells' history.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistoryQuery {
    /// Suite; any when `None`.
    pub suite: Option<String>,
    /// Test; any when `None`.
    pub test: Option<String>,
    /// Runtime id; any when `None`.
    pub runtime: Option<String>,
    /// Machine: a fingerprint prefix, or words of its CPU, architecture or OS.
    pub machine: Option<String>,
    /// How change points are found.
    pub changes: ChangeOptions,
}

/// One run's figure for a cell.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Point {
    /// Run id.
    pub run: String,
    /// When the run started, seconds since the Unix epoch.
    pub started_unix: f64,
    /// The typical time, ns: the geometric mean over invocations (the median of all values
    /// when there is a single invocation).
    pub value: f64,
    /// Low end of its 95 % interval, ns.
    pub low: Option<f64>,
    /// High end of its 95 % interval, ns.
    pub high: Option<f64>,
    /// Median of every value, ns.
    pub median: f64,
    /// Worker processes it came from.
    pub invocations: u32,
    /// The runtime's version in that run.
    pub version: Option<String>,
    /// Fewer invocations gave values than the run planned (a cancelled run): left out of
    /// change points.
    pub partial: bool,
    /// Other processes took more than [`crate::analysis::BUSY_SHARE`] of the machine during
    /// every invocation of the cell ([`busy_invocation`]): left out of change points. Busy
    /// invocations of a cell that had quiet ones are left out of its figures instead, one by
    /// one, as a diff leaves them out.
    pub busy: bool,
}

impl Point {
    /// Whether the search for change points leaves it out (partial or busy).
    pub fn left_out(&self) -> bool {
        self.partial || self.busy
    }
}

/// One cell on one machine over time.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Series {
    /// Suite.
    pub suite: String,
    /// Test.
    pub test: String,
    /// Runtime id.
    pub runtime: String,
    /// Machine fingerprint.
    pub machine: String,
    /// CPU, architecture and OS, for people.
    pub machine_label: String,
    /// The phase the figure is of.
    pub phase: String,
    /// How it was timed (`self`, `wall`, `process`, …).
    pub source: String,
    /// The runs' problem size (`quick`, `full`).
    pub size: String,
    /// The hash of the plan file the runs came from; `None`: runs made without one.
    pub plan_hash: Option<String>,
    /// Points, oldest first.
    pub points: Vec<Point>,
    /// Where the level changed, earliest first (indices into `points`; never a point
    /// [`Point::left_out`]).
    pub changes: Vec<ChangePoint>,
}

/// One run × cell as the index keeps it: its series and its point.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Suite name.
    pub suite: String,
    /// Test name.
    pub test: String,
    /// Runtime id.
    pub runtime: String,
    /// Machine fingerprint.
    pub machine: String,
    /// Machine in words.
    pub machine_label: String,
    /// Phase of the figure.
    pub phase: String,
    /// Where the run was read from (a results directory or S3 prefix).
    pub source: String,
    /// Suite size.
    pub size: String,
    /// Hash of the plan the run followed, when it followed one.
    pub plan_hash: Option<String>,
    /// The state of the run it was read from ([`source::Listed::stamp`]).
    pub stamp: f64,
    /// The run's figure for this cell.
    pub point: Point,
}

/// What keeps series apart: suite, test, runtime, machine, phase, timing source, size and
/// plan.
type SeriesKey = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    Option<String>,
);

impl Row {
    fn series_key(&self) -> SeriesKey {
        (
            self.suite.clone(),
            self.test.clone(),
            self.runtime.clone(),
            self.machine.clone(),
            self.phase.clone(),
            self.source.clone(),
            self.size.clone(),
            self.plan_hash.clone(),
        )
    }
}

/// Runs read at once: their measurements are in memory together.
const BATCH: usize = 100;

/// The figures of `listed`'s cells that `test`/`runtime` name (`None`: every cell), read
/// and summarised a batch at a time; runs that cannot be read go to `skipped`.
fn summarise(
    results: &Results,
    listed: &[&source::Listed],
    test: Option<&str>,
    runtime: Option<&str>,
    skipped: &mut Vec<String>,
) -> Result<Vec<Row>, HistoryError> {
    let wanted = |rt: &str, t: &str| test.is_none_or(|x| x == t) && runtime.is_none_or(|x| x == rt);
    let hint: Vec<&str> = [test, runtime].into_iter().flatten().collect();
    let mut out = Vec::new();
    for batch in listed.chunks(BATCH) {
        let mut ok = Vec::with_capacity(batch.len());
        for l in batch {
            match l.checked_cells(&wanted, &hint) {
                Ok(cells) => ok.push((*l, cells)),
                Err(why) => skipped.push(why),
            }
        }
        let files: Vec<String> = ok.iter().map(|(l, _)| l.measurements.clone()).collect();
        let mut rows = scan::scan(results, &files, test, runtime)?;
        // Each run's summary on its own core: summarising is most of the first history's
        // time (every cell of every run).
        let jobs: Vec<(&source::Listed, SavedRun)> = ok
            .into_iter()
            .map(|(l, cells)| {
                let run = SavedRun {
                    dir: l.measurements.clone().into(),
                    meta: l.meta.clone(),
                    cells,
                    measurements: rows.remove(&l.measurements).unwrap_or_default(),
                    samples: Vec::new(),
                };
                (l, run)
            })
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let chunk = jobs.len().div_ceil(threads).max(1);
        let parts: Vec<Vec<Row>> = std::thread::scope(|scope| {
            let handles: Vec<_> = jobs
                .chunks(chunk)
                .map(|part| {
                    let wanted = &wanted;
                    scope.spawn(move || {
                        part.iter()
                            .flat_map(|(l, run)| rows_of(l.stamp(), run, wanted))
                            .collect::<Vec<Row>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a summary thread panicked"))
                .collect()
        });
        out.extend(parts.into_iter().flatten());
    }
    Ok(out)
}

/// How many invocations each cell (runtime, test) lost as busy.
type Lost = HashMap<(String, String), u32>;

/// The run less its invocations measured on a busy machine, as a diff leaves them out one
/// by one; with how many each cell lost. `None` when none was busy.
fn without_busy(run: &SavedRun) -> Option<(SavedRun, Lost)> {
    let busy: HashSet<(&str, &str, u32)> = run
        .cells
        .iter()
        .filter(|c| busy_invocation(run, c))
        .map(|c| (c.runtime.as_str(), c.test.as_str(), c.invocation))
        .collect();
    if busy.is_empty() {
        return None;
    }
    let mut lost = Lost::new();
    for (rt, test, _) in &busy {
        *lost.entry((rt.to_string(), test.to_string())).or_default() += 1;
    }
    let mut quiet = run.clone();
    quiet
        .measurements
        .retain(|m| !busy.contains(&(m.runtime.as_str(), m.test.as_str(), m.invocation)));
    quiet
        .cells
        .retain(|c| !busy.contains(&(c.runtime.as_str(), c.test.as_str(), c.invocation)));
    Some((quiet, lost))
}

/// The figures of one run's cells that `wanted` keeps. Invocations measured on a busy
/// machine are left out one by one, as `diff` does; a cell with no quiet invocation is
/// shown from all of them, marked busy, and left out of change points.
fn rows_of(stamp: f64, run: &SavedRun, wanted: &dyn Fn(&str, &str) -> bool) -> Vec<Row> {
    let m = &run.meta;
    let quiet = without_busy(run);
    let mut cells = match &quiet {
        Some((q, _)) => summarize(q, None).cells,
        None => summarize(run, None).cells,
    };
    let mut all_busy = HashSet::new();
    if let Some((_, lost)) = &quiet {
        // Cells every invocation of which was busy: their figures from all of them.
        let have: HashSet<(String, String)> = cells
            .iter()
            .filter(|c| c.stats.is_some())
            .map(|c| (c.runtime.clone(), c.test.clone()))
            .collect();
        let missing: HashSet<&(String, String)> =
            lost.keys().filter(|k| !have.contains(*k)).collect();
        if !missing.is_empty() {
            cells.retain(|c| !missing.contains(&(c.runtime.clone(), c.test.clone())));
            for c in summarize(run, None).cells {
                let key = (c.runtime.clone(), c.test.clone());
                if missing.contains(&key) {
                    all_busy.insert(key);
                    cells.push(c);
                }
            }
        }
    }
    let lost = |rt: &str, test: &str| -> u32 {
        quiet.as_ref().map_or(0, |(_, lost)| {
            if all_busy.contains(&(rt.to_string(), test.to_string())) {
                0
            } else {
                lost.get(&(rt.to_string(), test.to_string()))
                    .copied()
                    .unwrap_or(0)
            }
        })
    };
    let mut out = Vec::new();
    for c in cells {
        if c.failure.is_some() || !wanted(&c.runtime, &c.test) {
            continue;
        }
        let Some(st) = c.stats else { continue };
        let (value, low, high) = (st.typical(), st.ci_low, st.ci_high);
        let busy = all_busy.contains(&(c.runtime.clone(), c.test.clone()));
        // Counted from the values, not the cells' records: runs saved without records
        // (the synthetic ones) are not partial. Busy invocations left out still ran.
        let ran = c.invocations + lost(&c.runtime, &c.test);
        out.push(Row {
            suite: m.suite.clone(),
            machine: m.machine.fingerprint.clone(),
            machine_label: machine_label(m),
            phase: c.primary_phase.clone(),
            source: c.source.clone(),
            size: m.settings.size.as_str().to_string(),
            plan_hash: m.settings.plan_hash.clone(),
            stamp,
            point: Point {
                run: m.id.clone(),
                started_unix: m.started_unix,
                value,
                low,
                high,
                median: st.median,
                invocations: c.invocations,
                version: m
                    .runtimes
                    .iter()
                    .find(|r| r.id == c.runtime)
                    .map(|r| r.version.clone()),
                partial: ran < m.settings.invocations,
                busy,
            },
            test: c.test,
            runtime: c.runtime,
        });
    }
    out
}

/// Every series asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct History {
    /// The results directory or URL read.
    pub results: String,
    /// Runs whose measurements were read.
    pub runs_read: usize,
    /// Runs left out, with why (unfinished, damaged).
    pub skipped: Vec<String>,
    /// How the history was read, when worth saying (an index made afresh), a line each.
    pub notes: Vec<String>,
    /// How change points were searched for.
    pub changes: ChangeOptions,
    /// One series per suite × test × runtime × machine × timing × size × plan.
    pub series: Vec<Series>,
}

/// Whether a machine matches what the user typed: a fingerprint prefix, or words found in
/// its CPU model, architecture and OS (case-insensitive).
pub fn machine_matches(meta: &RunMeta, want: &str) -> bool {
    let m = &meta.machine;
    if m.fingerprint.starts_with(want) {
        return true;
    }
    let label = machine_label(meta).to_lowercase();
    want.to_lowercase()
        .split_whitespace()
        .all(|w| label.contains(w))
}

fn machine_label(meta: &RunMeta) -> String {
    let m = &meta.machine;
    format!("{} {} ({})", m.cpu_model, m.arch, m.os)
}

/// The history of the cells `q` names in `results`.
pub fn history(results: &Results, q: &HistoryQuery) -> Result<History, HistoryError> {
    let keep = |m: &RunMeta| {
        q.suite.as_ref().is_none_or(|s| &m.suite == s)
            && q.test
                .as_ref()
                .is_none_or(|t| m.tests.iter().any(|x| &x.name == t))
            && q.runtime
                .as_ref()
                .is_none_or(|r| m.runtimes.iter().any(|x| &x.id == r))
            && q.machine.as_ref().is_none_or(|w| machine_matches(m, w))
    };
    let wanted = |rt: &str, test: &str| {
        q.test.as_ref().is_none_or(|t| t == test) && q.runtime.as_ref().is_none_or(|r| r == rt)
    };
    let hint: Vec<&str> = [q.test.as_deref(), q.runtime.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    let (listed, mut skipped) = list(results, &keep, &wanted, &hint)?;
    let mut notes = Vec::new();
    let rows = match results {
        Results::Local(dir) => {
            notes.extend(index::drop_stale(dir)?);
            // Runs the index lacks (or holds in an earlier state), every cell of them.
            let have = index::indexed(dir)?;
            let new: Vec<&source::Listed> = listed
                .iter()
                .filter(|l| have.get(&l.meta.id) != Some(&l.stamp()))
                .collect();
            if !new.is_empty() && !index::writable(dir) {
                // A results directory this user cannot write to (a colleague's, a
                // read-only mount): its runs are read afresh, only the cells asked for.
                let all: Vec<&source::Listed> = listed.iter().collect();
                summarise(
                    results,
                    &all,
                    q.test.as_deref(),
                    q.runtime.as_deref(),
                    &mut skipped,
                )?
            } else {
                for batch in new.chunks(BATCH * 10) {
                    let rows = summarise(results, batch, None, None, &mut skipped)?;
                    index::append(dir, rows)?;
                }
                index::rows(
                    dir,
                    q.suite.as_deref(),
                    q.test.as_deref(),
                    q.runtime.as_deref(),
                )?
            }
        }
        Results::S3 { .. } => {
            let all: Vec<&source::Listed> = listed.iter().collect();
            summarise(
                results,
                &all,
                q.test.as_deref(),
                q.runtime.as_deref(),
                &mut skipped,
            )?
        }
    };
    // Only the runs listed now, in the state they are in now.
    let current: std::collections::HashMap<&str, f64> = listed
        .iter()
        .map(|l| (l.meta.id.as_str(), l.stamp()))
        .collect();
    let mut read: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut series: BTreeMap<SeriesKey, Series> = BTreeMap::new();
    let mut rows: Vec<Row> = rows
        .into_iter()
        .filter(|r| current.get(r.point.run.as_str()) == Some(&r.stamp))
        .filter(|r| wanted(&r.runtime, &r.test))
        .collect();
    rows.sort_by(|a, b| a.point.started_unix.total_cmp(&b.point.started_unix));
    for r in rows {
        read.insert(r.point.run.clone());
        let s = series.entry(r.series_key()).or_insert_with(|| Series {
            suite: r.suite,
            test: r.test,
            runtime: r.runtime,
            machine: r.machine,
            machine_label: r.machine_label,
            phase: r.phase,
            source: r.source,
            size: r.size,
            plan_hash: r.plan_hash,
            points: Vec::new(),
            changes: Vec::new(),
        });
        s.points.push(r.point);
    }
    let runs_read = read.len();
    let mut series: Vec<Series> = series.into_values().collect();
    for s in &mut series {
        s.changes = changes_of(&s.points, &q.changes);
    }
    Ok(History {
        results: results.name(),
        runs_read,
        skipped,
        notes,
        changes: q.changes,
        series,
    })
}

/// The change points of `points` but those [`Point::left_out`], indexed into `points`.
fn changes_of(points: &[Point], o: &ChangeOptions) -> Vec<ChangePoint> {
    let counted: Vec<usize> = (0..points.len())
        .filter(|&i| !points[i].left_out())
        .collect();
    let values: Vec<f64> = counted.iter().map(|&i| points[i].value).collect();
    change_points(&values, o)
        .into_iter()
        .map(|c| ChangePoint {
            index: counted[c.index],
            ..c
        })
        .collect()
}

/// Adds a run that has just ended (complete or cancelled) to its results directory's index,
/// so that the first history of many runs reads the index rather than every run: one run's
/// summary, one small part. Called by the runner, it never fails the run: an index that
/// cannot be written (a read-only results directory, something else where `.history`
/// goes) or a run that cannot be read is left, silently, to the next history.
pub fn index_run(run_dir: &Path) {
    let _ = quiet_polars_panics(|| try_index_run(run_dir));
}

fn try_index_run(run_dir: &Path) -> Result<(), HistoryError> {
    let Some(results) = run_dir.parent() else {
        return Ok(());
    };
    if !index::writable(results) {
        return Ok(());
    }
    // Loaded whole rather than through history's lazy scan: for one run the scan's engine
    // costs more memory than the run (a run of 10,000 cells: 12 MiB against 31).
    let run = load_run(run_dir)?;
    let Ok(listed) = source::Listed::local(run.meta.clone(), run_dir.to_path_buf()) else {
        return Ok(());
    };
    index::append(results, rows_of(listed.stamp(), &run, &|_, _| true))
}

/// The finished runs (complete or cancelled, compacted to Parquet) that `keep` keeps, and
/// the others with why they were left out. Local runs are listed from their metadata alone
/// (their files are read, and checked against their digests, only when summarised); in S3
/// the cells asked for come with it, and the Parquet files are checked against their sizes.
fn list(
    results: &Results,
    keep: &dyn source::Keep,
    wanted: &(dyn Fn(&str, &str) -> bool + Sync),
    hint: &[&str],
) -> Result<(Vec<source::Listed>, Vec<source::Skipped>), HistoryError> {
    match results {
        Results::Local(dir) => source::list_local(dir, keep),
        Results::S3 { .. } => remote::list(results, keep, wanted, hint),
    }
}
