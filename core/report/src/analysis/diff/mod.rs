//! Comparing two runs (or two runtimes of one run) cell by cell: ratio of the typical
//! values with a Student-t interval over invocations, a verdict corrected for the many rows of one diff, and
//! guards that say "insufficient data" or "not comparable" rather than guess (method and
//! sources in docs/statistics.md).
//! The types and the verdicts' vocabulary are here; [`decide`] turns estimates into verdicts,
//! [`sides`] reads a run's values, [`rows`] makes a row of two cells, [`runs`] diffs two
//! runs and [`in_run`] two arms of one run.

use super::stats::{
    Groups, LogMean, RatioEstimate, bh_adjust, median, median_ratio, paired_estimate,
    ratio_estimate,
};
use super::summary::{Index, ended_invocations};
use crate::model::{Metric, Phase};
use crate::store::SavedRun;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

mod decide;
mod in_run;
mod rows;
mod runs;
mod sides;
mod verdict;

pub use in_run::{compare_runtimes, compare_tests};
use rows::{Arm, Design, pair_cells};
pub use runs::diff_runs;
use runs::{busy_described, busy_warnings};
use sides::{Side, Values, too_little};
pub use verdict::Verdict;
/// The noise threshold every front end starts from, percent: a change must be bigger than
/// this, with its whole interval beyond it, to be called one.
pub const DEFAULT_THRESHOLD_PCT: f64 = 2.0;

/// How run diffs compare by default: `none` (times as measured) or a runtime id each side
/// is taken relative to. Chosen by measurement (docs/statistics.md, scripts/bench-truth).
pub const DEFAULT_NORMALIZE: &str = "none";

/// The false discovery rate the verdicts of one diff are held to (Benjamini–Hochberg).
pub const ALPHA: f64 = 0.05;

/// Rounds a run with `--pair` makes by default (command suites): a signed-rank test of 20
/// rounds can hold a change over a family of thousands of rows (its least p is 2⁻¹⁹), found
/// a planted +10 % on 1 row of 20 in 95 % of simulated trials at a 4 % paired spread
/// (docs/statistics.md §3b), and no single wild round sets an end of its interval (from 12).
pub const DEFAULT_PAIR_ROUNDS: u32 = 20;

/// Fewest measured values a side needs for a verdict.
pub const MIN_VALUES: usize = 3;

/// Fewest invocations (worker processes) a side needs for a verdict: with one, the noise
/// between processes is not in the data at all.
pub const MIN_INVOCATIONS: usize = 2;

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
    /// Keep the invocations measured while other processes took more than
    /// [`super::BUSY_SHARE`] of the CPUs (left out by default), saying so in the warnings.
    pub allow_busy: bool,
}

impl DiffOptions {
    /// Options from what a user typed: a threshold (checked) and `none` or a runtime id,
    /// [`DEFAULT_NORMALIZE`] when not given: the default is decided here, not by each front
    /// end.
    pub fn parse(threshold_pct: f64, normalize: Option<&str>) -> Result<DiffOptions, DiffError> {
        Self::with_default(threshold_pct, normalize, DEFAULT_NORMALIZE)
    }

    /// [`DiffOptions::parse`] for the diffs a comparison of several runs shows beside its
    /// table (`compare`): relative to [`super::COMPARE_NORMALIZE`] when not given, as the
    /// table is.
    pub fn parse_for_compare(
        threshold_pct: f64,
        normalize: Option<&str>,
    ) -> Result<DiffOptions, DiffError> {
        Self::with_default(threshold_pct, normalize, super::COMPARE_NORMALIZE)
    }

    fn with_default(
        threshold_pct: f64,
        normalize: Option<&str>,
        default: &str,
    ) -> Result<DiffOptions, DiffError> {
        Ok(DiffOptions {
            threshold_pct: check_threshold(threshold_pct)?,
            normalize: match normalize.unwrap_or(default).trim() {
                "" | "none" => None,
                rt => Some(rt.to_string()),
            },
            allow_busy: false,
        })
    }
}

impl Default for DiffOptions {
    fn default() -> DiffOptions {
        DiffOptions {
            threshold_pct: DEFAULT_THRESHOLD_PCT,
            normalize: None,
            allow_busy: false,
        }
    }
}

/// A row's identity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// A's typical value (geometric mean over its invocations), ns: what the ratio is of
    /// and what front ends show; `None` in diffs saved before it was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a_typical: Option<f64>,
    /// B's typical value, ns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b_typical: Option<f64>,
    /// B over A (normalised: each relative to its run's reference); `None` when the two
    /// are not comparable.
    pub ratio: Option<f64>,
    /// Lower end of the ratio's interval (none without enough data), at [`DiffRow::level`].
    pub ci_low: Option<f64>,
    /// Upper end.
    pub ci_high: Option<f64>,
    /// Half the interval's width, percent of the ratio: how far the true ratio may lie
    /// from this one (a verdict needs the whole interval past the threshold).
    pub halfwidth_pct: Option<f64>,
    /// The confidence the interval achieves (0.95 for Student t; a signed-rank interval's
    /// exact level, 0.969 over 6 rounds): printed beside it. `None` in diffs saved before
    /// it was recorded, which were at 95 % or above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
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
    /// Rounds paired (a comparison inside one run): the interval is a paired one over
    /// these rounds' differences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs: Option<usize>,
}

/// The comparison of two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
    /// Two cells of one run compared round by round (paired) rather than as independent
    /// samples.
    #[serde(default)]
    pub paired: bool,
    /// The two arms alternated iteration by iteration in one worker (`run --pair
    /// --pair-mode alternate`): each round's difference is of one process.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alternated: bool,
    /// The two arms' rounds were sized by Stein's rule from their paired differences
    /// (`--pair` with `--precision`), and the rows carry Stein's interval.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stein: bool,
    /// Invocations left out because the machine was busy during them (see warnings).
    #[serde(default)]
    pub busy_left_out: usize,
    /// Cells (or phases) that give no row at all, with why: failed in both runs, or values
    /// no ratio can be taken of. A gate never passes over them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<Dropped>,
}

/// A cell (or one phase of it) that a diff could not put in a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Dropped {
    /// Runtime (or `A → B`).
    pub runtime: String,
    /// Test.
    pub test: String,
    /// Phase, or empty for the whole cell.
    pub phase: String,
    /// Why it has no row.
    pub why: String,
}

/// How many rows have each verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Faster.
    pub faster: usize,
    /// Slower.
    pub slower: usize,
    /// Beyond the threshold on its own, not held over the diff's rows (either way).
    #[serde(default)]
    pub not_held: usize,
    /// No change.
    pub no_change: usize,
    /// Too few rounds for the level the family's correction needs.
    #[serde(default)]
    pub undecided: usize,
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
        if self.not_held > 0 {
            write!(f, ", {} beyond alone, not held", self.not_held)?;
        }
        if self.undecided > 0 {
            write!(f, ", {} undecided (too few rounds)", self.undecided)?;
        }
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
    /// Keeps only the rows of these phases, for a gate that judges the phases a change is
    /// about (`execute` for a kernel) and not microsecond phases whose noise under load
    /// can outrun any threshold. Verdicts stay as decided over every row (the false
    /// discovery rate over more rows is the stricter one). Empty keeps all.
    pub fn keep_phases(&mut self, phases: &[String]) -> Result<(), DiffError> {
        if phases.is_empty() {
            return Ok(());
        }
        let mut had: Vec<&str> = self.rows.iter().map(|r| r.phase.as_str()).collect();
        had.extend(
            self.only_a
                .iter()
                .chain(&self.only_b)
                .map(|k| k.phase.as_str()),
        );
        had.sort_unstable();
        had.dedup();
        if let Some(p) = phases.iter().find(|p| !had.contains(&p.as_str())) {
            return Err(DiffError::NoPhase(p.clone(), had.join(", ")));
        }
        let keep = |p: &str| phases.iter().any(|k| k == p);
        self.rows.retain(|r| keep(&r.phase));
        self.only_a.retain(|k| keep(&k.phase));
        self.only_b.retain(|k| keep(&k.phase));
        self.dropped
            .retain(|k| k.phase.is_empty() || keep(&k.phase));
        Ok(())
    }

    /// Rows with each verdict.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for r in &self.rows {
            *match r.verdict {
                Verdict::Faster => &mut c.faster,
                Verdict::Slower => &mut c.slower,
                Verdict::FasterNotHeld | Verdict::SlowerNotHeld => &mut c.not_held,
                Verdict::NoChange => &mut c.no_change,
                Verdict::Undecided => &mut c.undecided,
                Verdict::InsufficientData => &mut c.insufficient,
                Verdict::NotComparable => &mut c.not_comparable,
            } += 1;
        }
        c
    }

    /// Rows that carry an estimate: the family the false discovery rate is held over.
    pub fn family(&self) -> usize {
        self.rows.iter().filter(|r| r.p_adjusted.is_some()).count()
    }

    /// One line saying how the rows were compared, for every output format: the line
    /// written when the verdicts were decided, so a view that shows fewer rows (`--phases`)
    /// still names the family the correction ran over.
    pub fn method(&self) -> String {
        if self.method.is_empty() {
            self.describe_method()
        } else {
            self.method.clone()
        }
    }

    fn describe_method(&self) -> String {
        const PAIRED: &str = "paired by round over the rounds both ran (each round's difference of log means): from 6 rounds the Hodges–Lehmann centre with its signed-rank interval (Wilcoxon), whose exact level is at least 95 % (96.9 % at 6 rounds), below that the mean with a 95 % paired Student-t interval";
        let few = self.rows.iter().filter_map(|r| r.pairs).any(|n| {
            (crate::analysis::signed_rank::MIN_ROUNDS..crate::analysis::signed_rank::ROBUST_FROM)
                .contains(&n)
        });
        let robust = if few {
            format!(
                " (below {} rounds one wild round can set an end)",
                crate::analysis::signed_rank::ROBUST_FROM
            )
        } else {
            String::new()
        };
        let interval = if self.stein {
            "paired by round, the rounds sized by Stein's rule from the planned rounds' differences: the mean difference with Stein's 95 % interval (the first stage's spread, on its degrees of freedom)".to_string()
        } else if self.alternated {
            format!("{PAIRED}{robust}; the arms alternated in one worker")
        } else if self.paired {
            format!("{PAIRED}{robust}")
        } else {
            "95 % Student-t interval over invocations (Welch)".to_string()
        };
        let threshold = if self.threshold_pct > 0.0 {
            format!(
                "; \"no change\": none beyond ±{} % could be told (--threshold 0 asks if any)",
                self.threshold_pct
            )
        } else {
            "; threshold 0: any change the interval and the correction can tell".into()
        };
        let levels = self.levels();
        let level = match levels.as_slice() {
            [] => String::new(),
            // Student-t intervals say their 95 % already.
            [one] if (one - 0.95).abs() < 0.0005 => String::new(),
            [one] => format!("; every interval at {}", level_text(*one)),
            [lo, .., hi] => format!(
                "; intervals at {}–{} (each row says its own)",
                level_text(*lo),
                level_text(*hi)
            ),
        };
        format!(
            "B/A of geometric means over invocations, {interval}{level}; a change only when the whole interval lies beyond ±{} % and it holds at a false discovery rate of {} % over the {} rows with an estimate (Benjamini–Hochberg); beyond on its own but not held: \"not held\"; a row whose test cannot reach the level the correction needs at its rounds: \"undecided\"; {}{threshold}",
            self.threshold_pct,
            self.alpha * 100.0,
            self.family(),
            match &self.normalize {
                Some(rt) => format!("each side relative to its own run's {rt}"),
                None => "not normalised".into(),
            }
        )
    }

    /// The distinct confidence levels of the rows' intervals, ascending (to 0.1 %).
    pub fn levels(&self) -> Vec<f64> {
        let mut l: Vec<f64> = self
            .rows
            .iter()
            .filter(|r| r.ci_low.is_some())
            .filter_map(|r| r.level)
            .map(|l| (l * 1000.0).round() / 1000.0)
            .collect();
        l.sort_by(f64::total_cmp);
        l.dedup();
        l
    }
}

#[cfg(test)]
impl Diff {
    /// Unit tests' diff of `rows` between runs `a` and `b` at a 2 % threshold: nothing only
    /// on one side, no warnings.
    pub fn fixture(rows: Vec<DiffRow>) -> Diff {
        Diff {
            a: "a".into(),
            b: "b".into(),
            threshold_pct: 2.0,
            normalize: None,
            alpha: 0.05,
            method: String::new(),
            warnings: Vec::new(),
            rows,
            only_a: Vec::new(),
            only_b: Vec::new(),
            paired: false,
            alternated: false,
            stein: false,
            busy_left_out: 0,
            dropped: Vec::new(),
        }
    }
}

/// A confidence level as a report prints it: `95 %`, `96.9 %`.
pub fn level_text(level: f64) -> String {
    let pct = level * 100.0;
    if (pct - pct.round()).abs() < 0.05 {
        format!("{:.0} %", pct)
    } else {
        format!("{pct:.1} %")
    }
}

/// Adds `note` to a row's note, after what it says already.
fn push_note(row: &mut DiffRow, note: String) {
    row.note = Some(match row.note.take() {
        Some(n) => format!("{n}; {note}"),
        None => note,
    });
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
    /// A test named for a comparison is not in the run.
    #[error("test '{0}' is not in run {1} (it has: {2})")]
    NoTest(String, String, String),
    /// The two arms of a comparison inside one run are the same.
    #[error("the two arms of a comparison must differ, got '{0}' twice")]
    SameArms(String),
    /// A threshold that is not a percentage.
    #[error("--threshold must be a finite percentage from 0 to 100, got {0}")]
    Threshold(String),
    /// A phase named to keep that no row has.
    #[error("phase '{0}' is in no row of this diff (it has: {1})")]
    NoPhase(String, String),
}
