//! Saved runs: one directory per run under the results directory, written as the run goes
//! and compacted to Parquet when it ends.
//!
//! ```text
//! results/<run-id>/meta.json            run metadata (rewritten atomically)
//! results/<run-id>/cells.jsonl          one line per finished cell (ok or failed, with reason)
//! results/<run-id>/measurements.jsonl   tidy rows, appended and flushed as the run goes
//! results/<run-id>/samples.jsonl        live CPU/RSS samples
//! results/<run-id>/histograms.jsonl     latency histograms of open-model levels (kept)
//! results/<run-id>/measurements.parquet after compaction (the .jsonl is then removed)
//! results/<run-id>/samples.parquet
//! ```
//!
//! meta.json records the size and SHA-256 of each Parquet file, and a file that no longer
//! matches is refused before polars reads it: polars' reader can panic or abort the
//! process on damaged bytes (found by fuzzing), so only files as wasmeter wrote them reach it.

// Without the `parquet` feature (the fuzz build) a finished run stays in JSON lines.
#[cfg_attr(not(feature = "parquet"), path = "no_parquet.rs")]
mod columnar;
mod histogram;
mod http_settings;
mod lines;
mod location;
mod profiles;
mod reader;
#[cfg(feature = "testing")]
mod synthetic;
mod writer;

#[cfg(feature = "parquet")]
pub use columnar::{measurement_rows, polars_err, quiet_polars_panics};
pub use histogram::{HISTOGRAMS_FILE, HistogramRow, LevelHistogram, load_histograms};
pub use http_settings::{DEFAULT_SLO_P99_MS, HttpSettings, RATE_REQUEST_TIMEOUT_MS, RateOutcome};
pub use lines::digest;
pub use location::{Launched, default_results_dir};
pub use profiles::{CodeChecks, Counts, FunctionCounts, PROFILES_FILE, ProfileRow, read_profiles};
// For history, which reads runs through polars (the `parquet` feature).
#[cfg(feature = "parquet")]
pub use lines::verify;
#[cfg(feature = "parquet")]
pub use reader::meta_from_bytes;
pub use reader::{RunListing, SavedRun, list_runs, load_run, read_cells, resolve_run};
#[cfg(feature = "testing")]
pub use synthetic::{Synthetic, synthetic_runtime, write_synthetic};
pub use writer::{Done, RunWriter, check_writable, new_run_id, now_unix};

use crate::machine::Machine;
use crate::model::{Failure, Metric, Phase, RuntimeInfo};
use crate::suite::{Size, SuiteKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Version of the on-disk layout; bumped on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

/// Errors reading or writing saved runs; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// File or directory.
        path: PathBuf,
        /// Underlying error.
        source: std::io::Error,
    },
    /// A file exists but its content is not what it should be. One line whatever the
    /// message quotes from the file (escaped).
    #[error("{path}: {}", crate::text::one_line(.message.clone()))]
    Corrupt {
        /// File.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// No saved run matches what the user named.
    #[error("no saved run matches '{spec}' in {dir}")]
    NotFound {
        /// What the user asked for.
        spec: String,
        /// Results directory searched.
        dir: PathBuf,
    },
    /// More than one saved run matches a prefix.
    #[error("'{spec}' matches several runs: {matches}")]
    Ambiguous {
        /// What the user asked for.
        spec: String,
        /// Comma-separated run ids.
        matches: String,
    },
}

impl StoreError {
    /// An I/O error on `path`, naming the file.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> StoreError {
        StoreError::Io {
            path: path.into(),
            source,
        }
    }
}

/// State of a run as saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RunStatus {
    /// Being written by a live process.
    Running,
    /// Every planned cell ran (some may have failed).
    Complete,
    /// Stopped by the user; finished cells are kept.
    Cancelled,
    /// The process died before the end; found on load.
    Interrupted,
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RunStatus::Running => "running",
            RunStatus::Complete => "complete",
            RunStatus::Cancelled => "cancelled",
            RunStatus::Interrupted => "interrupted",
        })
    }
}

/// Run settings, recorded so a run can be understood and repeated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSettings {
    /// Warm-up iterations per cell (not summarised).
    pub warmup: u32,
    /// Measured iterations per invocation.
    pub runs: u32,
    /// Fresh worker processes per cell, each doing the warm-ups and runs: the noise between
    /// processes (layout, page cache, a slow moment of the machine) lands in the values
    /// instead of hiding between runs. Runs saved before invocations existed had one.
    #[serde(default = "one")]
    pub invocations: u32,
    /// In which order the cells' invocations ran.
    #[serde(default)]
    pub order: RunOrder,
    /// Seed of the interleaved order (and nothing else), so the order can be repeated.
    #[serde(default)]
    pub seed: u64,
    /// What the embedded runtimes' cells measure: time, or instructions under callgrind.
    #[serde(default, skip_serializing_if = "Measure::is_time")]
    pub measure: Measure,
    /// Seconds without progress before a cell is killed.
    pub timeout_secs: u64,
    /// Memory cap of a cell, bytes.
    pub memory_cap_bytes: u64,
    /// Live sampling interval, ms.
    pub sample_interval_ms: u64,
    /// Problem size.
    pub size: Size,
    /// Baseline runtime for relative figures.
    pub baseline: String,
    /// HTTP suites: concurrency levels, durations, threads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<HttpSettings>,
    /// The hash of the plan file the run was made from (`wasmeter run --plan`): runs of one
    /// plan, on any machine, are comparable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan_hash: Option<String>,
    /// Two or more arms (runtimes, or tests, of the run) whose invocations ran side by side,
    /// in an order drawn each round (`run --pair A,B[,C…]`): a diff of any two of them is
    /// paired by round. Runs saved before more arms could pair hold two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<Vec<String>>,
    /// What the arms of `pair` are, as the plan decided: readers take it from here rather
    /// than work it out again (runs saved before it was recorded: [`RunMeta::pair`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_of: Option<PairOf>,
    /// How the arms of `pair` ran: in one worker process, iteration by iteration, or in
    /// processes of their own side by side (runs saved before there was a choice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair_mode: Option<PairMode>,
    /// `run --precision PCT [--budget DURATION]`: rounds were added to the cells whose
    /// interval was still wider than this, so cells may have more invocations than
    /// `invocations` (never fewer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<Precision>,
    /// `run --profile[=HZ]`: the measured iterations' execute phase was sampled this many
    /// times a second of its CPU time, and the run holds their profiles (`profiles.jsonl`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<u32>,
}

fn one() -> u32 {
    1
}

impl RunSettings {
    /// Settings of `runs` iterations in each of `invocations` processes and the defaults of
    /// everything else (no warm-up, a 60 s timeout, a 1 GiB cap, `quick`, baseline native):
    /// the one place a run's settings are written out, for runs made outside a plan (stand-ins,
    /// synthetic and test runs; `RunSettings { warmup: 1, ..RunSettings::new(3, 1) }`).
    pub fn new(runs: u32, invocations: u32) -> RunSettings {
        RunSettings {
            warmup: 0,
            runs,
            invocations,
            order: RunOrder::default(),
            seed: 0,
            measure: Measure::default(),
            timeout_secs: 60,
            memory_cap_bytes: 1 << 30,
            sample_interval_ms: 100,
            size: Size::Quick,
            baseline: "native".into(),
            http: None,
            plan_hash: None,
            pair: None,
            pair_of: None,
            pair_mode: None,
            precision: None,
            profile: None,
        }
    }
}

/// The precision a run aims at: each cell's 95 % interval (or, for `--pair` arms, their
/// paired interval) within ±`pct` percent, by adding rounds until `budget_secs` of the run
/// are spent.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Precision {
    /// Half-width aimed at, percent (over 0, at most 100).
    pub pct: f64,
    /// Wall time the whole run may take, seconds; `None`: until the round cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_secs: Option<u64>,
}

impl Precision {
    /// Most invocations a cell gets while aiming at a precision: a cell that has not
    /// narrowed by then is noisy beyond what more rounds fix in reasonable time.
    pub const MAX_INVOCATIONS: u32 = 50;

    /// A precision as a user gives it: a percentage and maybe a budget (`90s`, `10m`,
    /// `1h30m`, or seconds), checked the same for every front end. The error names the
    /// value as `--precision` / `--budget` do.
    pub fn parse(pct: f64, budget: Option<&str>) -> Result<Precision, String> {
        let budget_secs = budget
            .map(|b| {
                parse_duration(b).ok_or_else(|| {
                    format!("--budget takes a duration such as 90s, 10m or 1h30m, not '{b}'")
                })
            })
            .transpose()?;
        let p = Precision { pct, budget_secs };
        p.check()?;
        Ok(p)
    }

    /// The percentage is over 0 and at most 100, and the budget in [`crate::model::limits::BUDGET_SECS`]:
    /// what every precision, however made, must hold before a run aims at it.
    pub fn check(&self) -> Result<(), String> {
        let pct = self.pct;
        if !(pct.is_finite() && pct > 0.0 && pct <= 100.0) {
            return Err(format!(
                "--precision must be a percentage over 0 and at most 100, got {pct}"
            ));
        }
        self.budget_secs.map_or(Ok(()), |b| {
            crate::model::limits::BUDGET_SECS.check(b).map(drop)
        })
    }
}

/// Seconds in `90s`, `10m`, `1h30m`, `2h` or `45` (seconds); `None` for anything else or 0.
pub fn parse_duration(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Ok(n) = s.parse::<u64>() {
        return (n > 0).then_some(n);
    }
    let (mut total, mut num) = (0u64, String::new());
    for c in s.chars() {
        if c.is_ascii_digit() {
            num.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
        total = total.checked_add(num.parse::<u64>().ok()?.checked_mul(unit)?)?;
        num.clear();
    }
    (num.is_empty() && total > 0).then_some(total)
}

/// The order in which a run's cells (each made of invocations) are run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RunOrder {
    /// Each cell's invocations back to back, cells test-major (runs saved before there
    /// were orders ran so).
    #[default]
    Sequential,
    /// Rounds: every cell's k-th invocation, shuffled by the run's seed, before any cell's
    /// (k+1)-th, so a slow phase of the machine spreads over every cell instead of landing
    /// on one (Abedi & Brecht's randomized multiple interleaved trials).
    Interleaved,
}

impl std::fmt::Display for RunOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RunOrder::Sequential => "sequential",
            RunOrder::Interleaved => "interleaved",
        })
    }
}

impl std::str::FromStr for RunOrder {
    type Err = String;
    fn from_str(s: &str) -> Result<RunOrder, String> {
        match s {
            "sequential" => Ok(RunOrder::Sequential),
            "interleaved" => Ok(RunOrder::Interleaved),
            _ => Err(format!(
                "unknown order '{s}' (expected interleaved or sequential)"
            )),
        }
    }
}

/// What the arms of a run's `--pair` are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum PairOf {
    /// Runtimes of the run: each test's cells of the arms ran side by side.
    Runtimes,
    /// Tests of the run: each runtime's cells of the arms ran side by side.
    Tests,
}

/// A run's `--pair` as its plan decided it: what the arms are, which they are, and how
/// they ran. The one model every reader of a saved run takes the pair from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pair<'a> {
    /// Whether the arms are runtimes or tests of the run.
    pub of: PairOf,
    /// The arms, as the run gave them (groups expanded).
    pub arms: &'a [String],
    /// How they ran (runs saved before there was a choice: none).
    pub mode: Option<PairMode>,
}

impl Pair<'_> {
    /// Whether `name` is one of the arms.
    pub fn has(&self, name: &str) -> bool {
        self.arms.iter().any(|a| a == name)
    }

    /// Whether `x` and `y` are two different arms.
    pub fn both(&self, x: &str, y: &str) -> bool {
        x != y && self.has(x) && self.has(y)
    }

    /// The (runtime, test) of `arm`'s cell beside `shared`: the test, for runtime arms;
    /// the runtime, for test arms.
    pub fn cell<'s>(&self, arm: &'s str, shared: &'s str) -> (&'s str, &'s str) {
        match self.of {
            PairOf::Runtimes => (arm, shared),
            PairOf::Tests => (shared, arm),
        }
    }

    /// The arm and what it shares with the other arms' cells, of cell (`runtime`, `test`).
    pub fn arm_of<'s>(&self, runtime: &'s str, test: &'s str) -> (&'s str, &'s str) {
        match self.of {
            PairOf::Runtimes => (runtime, test),
            PairOf::Tests => (test, runtime),
        }
    }
}

impl RunMeta {
    /// The run's `--pair`, if it had one. Runs saved before `pair_of` was recorded: the
    /// arms are runtimes when the run's runtimes name them all (the plan's own rule).
    pub fn pair(&self) -> Option<Pair<'_>> {
        let arms = self.settings.pair.as_deref()?;
        let of = self.settings.pair_of.unwrap_or_else(|| {
            if arms
                .iter()
                .all(|a| self.runtimes.iter().any(|r| &r.id == a))
            {
                PairOf::Runtimes
            } else {
                PairOf::Tests
            }
        });
        Some(Pair {
            of,
            arms,
            mode: self.settings.pair_mode,
        })
    }
}

/// How the two arms of `run --pair A,B` share the machine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum PairMode {
    /// Each arm in a worker process of its own, the two side by side in every round.
    #[default]
    Processes,
    /// Both arms in one worker process, alternating iteration by iteration (which goes
    /// first by a coin of the run's seed): what differs between processes (code and data
    /// placement, the core it ran on, a slow moment of the host) is shared by both arms and
    /// cancels in their paired difference (tango-bench's and Duet's design).
    Alternate,
}

impl std::fmt::Display for PairMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            PairMode::Processes => "processes",
            PairMode::Alternate => "alternate",
        })
    }
}

impl std::str::FromStr for PairMode {
    type Err = String;
    fn from_str(s: &str) -> Result<PairMode, String> {
        match s {
            "processes" => Ok(PairMode::Processes),
            "alternate" => Ok(PairMode::Alternate),
            _ => Err(format!(
                "unknown pair mode '{s}' (expected alternate or processes)"
            )),
        }
    }
}

/// What a run measures in the cells of embedded runtimes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Measure {
    /// Time, as every runtime is measured.
    #[default]
    Time,
    /// Also instructions executed in the execute phase, counted by Valgrind's callgrind
    /// (embedded runtimes only; their times are then Valgrind's and not worth comparing).
    Instructions,
}

impl Measure {
    /// The default, left out of saved settings.
    pub fn is_time(&self) -> bool {
        *self == Measure::Time
    }
}

impl std::str::FromStr for Measure {
    type Err = String;
    fn from_str(s: &str) -> Result<Measure, String> {
        match s {
            "time" => Ok(Measure::Time),
            "instructions" => Ok(Measure::Instructions),
            _ => Err(format!(
                "unknown measure '{s}' (expected time or instructions)"
            )),
        }
    }
}

/// A test as recorded with a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TestRecord {
    /// Test name.
    pub name: String,
    /// Hash of its sources and flags (see `Suite::source_hash`).
    pub source_hash: String,
    /// Size of its module in bytes, for modules given by path and prebuilt programs (what
    /// size comparisons read); `None` for tests built from a source at run time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module_bytes: Option<u64>,
    /// Size of the native build beside the module (`--native`, or a suite script's), for
    /// the size comparison of wasm against native.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_bytes: Option<u64>,
    /// Whether the module ran as given, with no size argument; `None` in runs saved
    /// before it was recorded (then only modules as given had a size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub as_given: Option<bool>,
}

/// Everything about a run except its measurements.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunMeta {
    /// Layout version.
    pub schema_version: u32,
    /// Run id (directory name).
    pub id: String,
    /// User label.
    pub label: Option<String>,
    /// Suite name.
    pub suite: String,
    /// What kind of suite it ran; left out of the file for command suites, so runs saved
    /// before there were kinds read as what they are.
    #[serde(default, skip_serializing_if = "SuiteKind::is_command")]
    pub suite_kind: SuiteKind,
    /// Tests in plan order.
    pub tests: Vec<TestRecord>,
    /// Runtimes in plan order, with versions.
    pub runtimes: Vec<RuntimeInfo>,
    /// Runtimes selected but left out because the suite does not apply to them, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_applicable: Vec<NotApplicable>,
    /// Settings.
    pub settings: RunSettings,
    /// Where it ran.
    pub machine: Machine,
    /// wasmeter version.
    pub wasmeter_version: String,
    /// Start, seconds since the Unix epoch.
    pub started_unix: f64,
    /// End, seconds since the Unix epoch.
    pub finished_unix: Option<f64>,
    /// State.
    pub status: RunStatus,
    /// Process writing it while running (to detect interrupted runs).
    pub pid: u32,
    /// Size and SHA-256 of each Parquet file, by file name, as written at compaction. Runs
    /// saved before digests existed have none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, FileDigest>,
}

impl RunMeta {
    /// The problem size as a run's header says it: modules given by path take no size
    /// argument, so for them it says that instead.
    pub fn size_label(&self) -> String {
        let as_given = |t: &TestRecord| t.as_given.unwrap_or(t.module_bytes.is_some());
        if !self.tests.is_empty() && self.tests.iter().all(as_given) {
            "modules as given".into()
        } else {
            self.settings.size.to_string()
        }
    }
}

/// What a columnar file was when wasmeter wrote it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FileDigest {
    /// Length in bytes.
    pub bytes: u64,
    /// SHA-256, lowercase hex.
    pub sha256: String,
}

/// A runtime left out of a run because the suite, or one of its tests, does not apply to it
/// (shown as n/a: never run, never a failure).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NotApplicable {
    /// Runtime id.
    pub runtime: String,
    /// The one test left out when the rest of the suite applies (`wasmtime serve` has no
    /// host to keep the gateway's `state` counter); none: the whole suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub test: Option<String>,
    /// Why.
    pub why: String,
}

impl NotApplicable {
    /// Whether it leaves out the runtime's cell of `test`.
    pub fn covers(&self, runtime: &str, test: &str) -> bool {
        self.runtime == runtime && self.test.as_deref().is_none_or(|t| t == test)
    }

    /// What is left out, as every front end names it: `native`, `wasmtime-serve × state`.
    pub fn what(&self) -> String {
        match &self.test {
            Some(t) => format!("{} × {t}", self.runtime),
            None => self.runtime.clone(),
        }
    }
}

/// One value: a tidy row (runtime, test, phase, iteration, metric).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MeasurementRow {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Phase.
    pub phase: Phase,
    /// The worker process (invocation) of the cell it came from, from 0.
    #[serde(default)]
    pub invocation: u32,
    /// Iteration index within the invocation (warm-ups first).
    pub iteration: u32,
    /// True for warm-up iterations.
    pub warmup: bool,
    /// Metric.
    pub metric: Metric,
    /// Value in the metric's unit.
    pub value: f64,
}

/// One live sample of a cell's process tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SampleRow {
    /// Milliseconds since the run started.
    pub t_ms: f64,
    /// Runtime id of the cell sampled.
    pub runtime: String,
    /// Test of the cell sampled.
    pub test: String,
    /// CPU, percent of one core.
    pub cpu_pct: f32,
    /// Resident memory, bytes.
    pub rss_bytes: u64,
}

/// How one invocation of a cell ended (a cell of one invocation: how the cell ended). A
/// cell failed when any of its invocations did; the rest of its invocations are not run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellRecord {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Which invocation of the cell, from 0.
    #[serde(default)]
    pub invocation: u32,
    /// Why it failed; `None` when every iteration succeeded.
    pub failure: Option<Failure>,
    /// Wall time of the invocation, ms.
    pub wall_ms: f64,
    /// Cores' worth of CPU other processes took during the invocation (see
    /// [`crate::sample::LoadMeter`]); `None` in runs saved before it was recorded or where
    /// it cannot be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_cores: Option<f64>,
    /// What the cell had to adapt to on this host, one line each (the container variant's
    /// flags, for one), so a reader of the run sees how it was measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The host probe timed right before the invocation's worker started
    /// ([`crate::sample::probe`]): what the host was doing then. `None` in runs saved
    /// before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<crate::sample::HostProbe>,
    /// When the invocation's worker started, ms from the run's start: the order in which
    /// invocations ran, so what ran just before one can be told. `None` in runs saved
    /// before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
}

#[cfg(test)]
mod precision_tests {
    use super::{Precision, parse_duration};

    #[test]
    fn budgets_are_durations() {
        assert_eq!(parse_duration("90s"), Some(90));
        assert_eq!(parse_duration("10m"), Some(600));
        assert_eq!(parse_duration("1h30m"), Some(5400));
        assert_eq!(parse_duration("45"), Some(45));
        for bad in ["", "0", "0s", "10x", "m", "1.5h", "-3s", "10m5"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_precision_is_a_percentage_with_maybe_a_budget() {
        assert_eq!(
            Precision::parse(5.0, Some("8m")),
            Ok(Precision {
                pct: 5.0,
                budget_secs: Some(480)
            })
        );
        assert_eq!(Precision::parse(2.5, None).unwrap().budget_secs, None);
        for bad in [0.0, -1.0, 100.5, f64::NAN] {
            assert!(
                Precision::parse(bad, None)
                    .unwrap_err()
                    .starts_with("--precision must be")
            );
        }
        assert_eq!(
            Precision::parse(5.0, Some("10x")).unwrap_err(),
            "--budget takes a duration such as 90s, 10m or 1h30m, not '10x'"
        );
    }
}
