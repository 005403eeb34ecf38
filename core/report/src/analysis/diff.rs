//! Comparing two runs (or two runtimes of one run) cell by cell: ratio of the typical
//! values with a Student-t interval over invocations, a verdict corrected for the many rows of one diff, and
//! guards that say "insufficient data" or "not comparable" rather than guess (method and
//! sources in docs/statistics.md).

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

/// What a diff concludes for one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Verdict {
    /// B is faster: the whole interval lies below 1 − threshold and the change survives
    /// the correction for the diff's many rows.
    #[serde(rename = "faster")]
    Faster,
    /// B is slower: the whole interval lies above 1 + threshold, corrected likewise.
    #[serde(rename = "slower")]
    Slower,
    /// The row's interval lies wholly below 1 − threshold on its own, but the change does
    /// not hold over the diff's many rows: among that many, some rows lie beyond by chance.
    #[serde(rename = "faster, not held")]
    FasterNotHeld,
    /// The row's interval lies wholly above 1 + threshold on its own, not held over the
    /// diff's many rows.
    #[serde(rename = "slower, not held")]
    SlowerNotHeld,
    /// No change beyond the threshold can be told from the noise.
    #[serde(rename = "no change")]
    NoChange,
    /// The row's test cannot reach the level its family's correction needs at its number
    /// of rounds, whatever they show (a signed-rank test of 6 rounds gives no p below
    /// 0.031): neither a change nor "no change" can be told; the note says how many rounds
    /// it needs.
    #[serde(rename = "undecided")]
    Undecided,
    /// Too few values or invocations, or a partial cell: no verdict either way.
    #[serde(rename = "insufficient data")]
    InsufficientData,
    /// The two sides were not measured the same way (timing sources or problem sizes
    /// differ, the reference a side is normalised by failed, or every invocation of a side
    /// ran on a busy machine): no verdict.
    #[serde(rename = "not comparable")]
    NotComparable,
}

impl Verdict {
    /// Whether the row claims a change.
    pub fn is_change(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower)
    }

    /// Whether the row's interval lies beyond the threshold, held over the family or not:
    /// the rows a reader looks at first.
    pub fn is_beyond(self) -> bool {
        self.is_change() || matches!(self, Verdict::FasterNotHeld | Verdict::SlowerNotHeld)
    }

    /// Whether the row was judged (faster, slower or no change), not left without a
    /// verdict: what a gate and a headline read intervals from.
    pub fn is_decided(self) -> bool {
        matches!(self, Verdict::Faster | Verdict::Slower | Verdict::NoChange)
    }

    /// Whether the row has an estimate the correction ran over (every verdict but
    /// insufficient data and not comparable).
    pub fn is_estimated(self) -> bool {
        !matches!(self, Verdict::InsufficientData | Verdict::NotComparable)
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::FasterNotHeld => "faster, not held",
            Verdict::SlowerNotHeld => "slower, not held",
            Verdict::NoChange => "no change",
            Verdict::Undecided => "undecided",
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
            (super::signed_rank::MIN_ROUNDS..super::signed_rank::ROBUST_FROM).contains(&n)
        });
        let robust = if few {
            format!(
                " (below {} rounds one wild round can set an end)",
                super::signed_rank::ROBUST_FROM
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
            paired: false,
            alternated: false,
            stein: false,
            busy_left_out: 0,
            dropped: Vec::new(),
        }
    }

    /// Decides the verdicts of every row with an estimate, corrected together, so that each
    /// follows from the interval shown beside it: a change when the whole interval lies
    /// beyond the threshold and the change holds at the false discovery rate over the
    /// family (Benjamini–Hochberg); "not held" when the interval lies beyond on its own but
    /// the correction does not hold it; "undecided" when the row's test cannot reach the
    /// level its family needs at its rounds, whatever they show; else no change. A row
    /// whose interval lies beyond the threshold is never "no change".
    fn decide(&mut self, estimates: Vec<Option<RatioEstimate>>) {
        let t = self.threshold_pct;
        let which: Vec<usize> = (0..self.rows.len())
            .filter(|i| estimates[*i].is_some())
            .collect();
        let m = which.len();
        let p: Vec<f64> = which
            .iter()
            .map(|i| estimates[*i].as_ref().map_or(1.0, |e| e.p_beyond(t)))
            .collect();
        let adjusted = bh_adjust(&p);
        let side = |row: &DiffRow| -> Option<bool> {
            let (lo, hi) = (row.ci_low?, row.ci_high?);
            if lo > 1.0 + t / 100.0 {
                Some(true)
            } else if hi < 1.0 - t / 100.0 {
                Some(false)
            } else {
                None
            }
        };
        let held = which
            .iter()
            .zip(&adjusted)
            .filter(|(i, adj)| **adj <= self.alpha && side(&self.rows[**i]).is_some())
            .count();
        // The level a row not yet held would need to join them (BH's next step).
        let needed = self.alpha * (held + 1) as f64 / m.max(1) as f64;
        for (i, adj) in which.into_iter().zip(adjusted) {
            let Some(e) = estimates[i].as_ref() else {
                continue;
            };
            let row = &mut self.rows[i];
            row.p_adjusted = Some(adj);
            row.level = Some(e.level);
            let beyond = side(row);
            let alone = |slower: bool| {
                format!(
                    "its interval lies beyond {}{t} % on its own",
                    if slower { "+" } else { "−" }
                )
            };
            row.verdict = match beyond {
                Some(true) if adj <= self.alpha => Verdict::Slower,
                Some(false) if adj <= self.alpha => Verdict::Faster,
                _ if e.least_p() > needed => {
                    let rounds = e.rounds.as_ref().map_or(0, Vec::len);
                    let mut note = format!(
                        "undecided: needs ≥ {} rounds for a family of {m} (has {rounds}: its test gives no p below {:.3})",
                        super::signed_rank::rounds_for(needed),
                        e.least_p()
                    );
                    if let Some(slower) = beyond {
                        note.push_str(&format!("; {}", alone(slower)));
                    }
                    push_note(row, note);
                    Verdict::Undecided
                }
                Some(slower) => {
                    push_note(
                        row,
                        format!(
                            "{}, not held over {m} rows (adjusted p {adj:.3} > {})",
                            alone(slower),
                            self.alpha
                        ),
                    );
                    if slower {
                        Verdict::SlowerNotHeld
                    } else {
                        Verdict::FasterNotHeld
                    }
                }
                None => Verdict::NoChange,
            };
        }
        self.method = self.describe_method();
    }

    /// Withholds every verdict (the two sides measured different problems), saying why
    /// once in the warnings and on each row.
    fn withhold(&mut self, why: String, row_note: &str) {
        for r in &mut self.rows {
            if r.verdict.is_estimated() {
                r.verdict = Verdict::NotComparable;
                r.p_adjusted = None;
                r.note = Some(match r.note.take() {
                    Some(n) => format!("{row_note}; {n}"),
                    None => row_note.into(),
                });
            }
        }
        self.warnings.push(why);
        self.method = self.describe_method();
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

/// One measurement of a cell as a diff compares it.
struct Values<'a> {
    values: Cow<'a, [f64]>,
    starts: Cow<'a, [usize]>,
    ids: Cow<'a, [u32]>,
    /// How it was timed: `self` (the guest), `wall` (the harness) or `rps`.
    source: &'static str,
    /// Every invocation was busy: the values are kept to be shown, never to decide.
    all_busy: bool,
    /// [`Groups::first_stage`].
    first_stage: usize,
}

impl<'g> Values<'g> {
    /// The groups of `g` less the invocations in `drop` (busy ones); all of them, marked,
    /// when every one is to be dropped.
    fn of(g: Groups<'g>, source: &'static str, drop: Option<&HashSet<u32>>) -> Values<'g> {
        let dropped = |d: &HashSet<u32>, i: usize| d.contains(&g.id(i));
        let all_busy = drop.is_some_and(|d| (0..g.invocations()).all(|i| dropped(d, i)));
        let Some(drop) = drop.filter(|d| !all_busy && (0..g.invocations()).any(|i| dropped(d, i)))
        else {
            return Values {
                values: Cow::Borrowed(g.values),
                starts: Cow::Borrowed(g.starts),
                ids: Cow::Borrowed(g.ids),
                source,
                all_busy,
                first_stage: g.first_stage,
            };
        };
        let (mut values, mut starts, mut ids) = (Vec::new(), Vec::new(), Vec::new());
        for i in (0..g.invocations()).filter(|i| !drop.contains(&g.id(*i))) {
            starts.push(values.len());
            ids.push(g.id(i));
            values.extend_from_slice(g.group(i));
        }
        Values {
            values: Cow::Owned(values),
            starts: Cow::Owned(starts),
            ids: Cow::Owned(ids),
            source,
            all_busy: false,
            first_stage: g.first_stage,
        }
    }

    fn groups(&self) -> Groups<'_> {
        Groups {
            values: &self.values,
            starts: &self.starts,
            ids: &self.ids,
            first_stage: self.first_stage,
        }
    }

    /// The geometric mean over invocations: what the ratio is of.
    fn typical(&self) -> Option<f64> {
        LogMean::of(&self.groups()).map(|m| m.mean.exp())
    }
}

/// One run as a diff reads it: its measurements indexed, its failed cells, how many
/// invocations each cell finished, and which were measured on a busy machine, so each cell
/// is a lookup rather than a scan of the run.
struct Side<'a> {
    index: Index<'a>,
    failed: HashSet<(&'a str, &'a str)>,
    ended: HashMap<(&'a str, &'a str), u32>,
    planned: u32,
    /// Invocations left out of verdicts, per cell (none with `--allow-busy`).
    busy: HashMap<(&'a str, &'a str), HashSet<u32>>,
}

impl<'a> Side<'a> {
    fn new(run: &'a SavedRun, allow_busy: bool) -> Side<'a> {
        let mut busy: HashMap<(&str, &str), HashSet<u32>> = HashMap::new();
        if !allow_busy {
            for c in run
                .cells
                .iter()
                .filter(|c| super::quiet::busy_invocation(run, c))
            {
                busy.entry((c.runtime.as_str(), c.test.as_str()))
                    .or_default()
                    .insert(c.invocation);
            }
        }
        Side {
            index: Index::of_run(run),
            failed: run
                .cells
                .iter()
                .filter(|c| c.failure.is_some())
                .map(|c| (c.runtime.as_str(), c.test.as_str()))
                .collect(),
            ended: ended_invocations(run),
            planned: run.meta.settings.invocations,
            busy,
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
    /// throughout. A process-timed cell's whole-process time is its primary and is not
    /// listed again as `total`: one measurement, one row of the family. Failed cells have
    /// none; busy invocations are left out.
    fn series(&self, rt: &str, test: &str) -> Vec<(String, Values<'_>)> {
        if self.failed.contains(&(rt, test)) {
            return Vec::new();
        }
        let index = &self.index;
        let drop = self.busy.get(&(rt, test));
        let of = |g, source| Values::of(g, source, drop);
        let mut out = Vec::new();
        let mut shown = Phase::Execute;
        let mut process = false;
        if let Some((g, source, phase)) = index.primary(rt, test) {
            out.push((phase.as_str().to_string(), of(g, source)));
            shown = phase;
            process = source == "process";
        }
        for ph in Phase::ALL {
            if ph == shown || ph == Phase::Execute || (process && ph == Phase::Total) {
                continue;
            }
            if let Some(g) = index.groups(rt, test, ph, Metric::WallNs) {
                out.push((ph.as_str().to_string(), of(g, "wall")));
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
                let mut v = of(g, "rps");
                v.values = Cow::Owned(v.values.iter().map(|r| 1e9 / r.max(1e-9)).collect());
                out.push((ph.as_str().to_string(), v));
            }
            // Latency at an offered rate: its corrected p99, the figure its SLO is about.
            // A rate beyond the load generator measured the generator, and is left out.
            if let Some(g) = index.groups(rt, test, ph, Metric::P99Ns)
                && ph.rate().is_some()
                && index
                    .groups(rt, test, ph, Metric::GeneratorBoundRps)
                    .is_none()
            {
                out.push((format!("{} p99", ph.as_str()), of(g, "p99")));
            }
        }
        out
    }

    /// Invocations left out as busy.
    fn busy_count(&self) -> usize {
        self.busy.values().map(HashSet::len).sum()
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

/// How the two sides of a row are related.
#[derive(Clone, Copy, PartialEq)]
enum Design {
    /// Two runs: independent samples (Welch).
    Independent,
    /// Two cells of one run: paired by round; with Stein's first stage when the run sized
    /// the pair's rounds by Stein's rule.
    Paired(Option<usize>),
}

/// Builds a row (its verdict decided later, with the others) and its estimate; why not,
/// when its values allow no ratio at all.
fn row(
    key: &DiffKey,
    a: &Part,
    b: &Part,
    refs: Option<(&Part, &Part)>,
    note: Option<String>,
    design: Design,
) -> Result<(DiffRow, Option<RatioEstimate>), String> {
    let (ga, gb) = (a.values.groups(), b.values.groups());
    let (Some(am), Some(bm)) = (median(ga.values), median(gb.values)) else {
        return Err("no values on one side".into());
    };
    if am <= 0.0 || !am.is_finite() || !bm.is_finite() {
        return Err(format!(
            "no ratio: A's median is {am}, B's {bm} (a ratio needs a positive, finite A)"
        ));
    }
    let mut r = DiffRow {
        runtime: key.runtime.clone(),
        test: key.test.clone(),
        phase: key.phase.clone(),
        a_median: am,
        b_median: bm,
        a_typical: a.values.typical(),
        b_typical: b.values.typical(),
        ratio: None,
        ci_low: None,
        ci_high: None,
        halfwidth_pct: None,
        level: None,
        p_adjusted: None,
        verdict: Verdict::InsufficientData,
        note,
        n: (ga.values.len(), gb.values.len()),
        invocations: (ga.invocations(), gb.invocations()),
        pairs: None,
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
        return Ok((r, None));
    }
    let (rga, rgb) = match refs {
        Some((ra, rb)) => (Some(ra.values.groups()), Some(rb.values.groups())),
        None => (None, None),
    };
    let estimate = match design {
        Design::Independent => ratio_estimate(&ga, &gb, rga.as_ref().zip(rgb.as_ref())),
        Design::Paired(stein) => paired_estimate(&ga, &gb, stein).map(|(e, n)| {
            r.pairs = Some(n);
            e
        }),
    };
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
        return Ok((r, None));
    }
    let Some(e) = estimate else {
        if design != Design::Independent {
            r.note = Some(format!(
                "fewer than {MIN_INVOCATIONS} rounds that both sides ran"
            ));
        }
        return Ok((r, None));
    };
    r.ci_low = Some(e.low);
    r.ci_high = Some(e.high);
    r.halfwidth_pct = Some(e.halfwidth_pct());
    r.level = Some(e.level);
    // A side measured only on a busy machine: its interval is shown, never decided on.
    if let Some(p) = parts.iter().map(|(p, _)| p).find(|p| p.values.all_busy) {
        r.verdict = Verdict::NotComparable;
        r.note = Some(format!(
            "not comparable: every invocation in {} was measured on a busy machine (see warnings)",
            p.name
        ));
        return Ok((r, None));
    }
    r.verdict = Verdict::NoChange;
    Ok((r, Some(e)))
}

/// One arm of a row: a side (run), a runtime and a test of it.
#[derive(Clone, Copy)]
struct Arm<'s> {
    side: &'s Side<'s>,
    runtime: &'s str,
    test: &'s str,
}

impl<'s> Arm<'s> {
    fn part<'v>(&self, name: &'static str, values: &'v Values<'v>) -> Part<'s, 'v> {
        Part {
            side: self.side,
            name,
            values,
            partial: self.side.partial(self.runtime, self.test),
        }
    }
}

/// A normalising reference of one side: its series, whether partial, whether failed.
type Reference<'s> = (Vec<(String, Values<'s>)>, Option<u32>, bool);

/// The reference runtime `n`'s cell beside an arm.
fn reference<'s>(arm: Arm<'s>, n: &str) -> Reference<'s> {
    (
        arm.side.series(n, arm.test),
        arm.side.partial(n, arm.test),
        arm.side.failed.contains(&(n, arm.test)),
    )
}

/// Matches the cells of A and B into rows (verdicts undecided), or into only-A / only-B.
/// `label` names the row's runtime column, `test_label` its test column.
#[allow(clippy::too_many_arguments)]
fn pair_cells(
    d: &mut Diff,
    estimates: &mut Vec<Option<RatioEstimate>>,
    a: Arm,
    b: Arm,
    (label, test_label): (&str, &str),
    normalize: Option<&str>,
    design: Design,
) {
    let va = a.side.series(a.runtime, a.test);
    let vb = b.side.series(b.runtime, b.test);
    // References: the normalising runtime's series in each run (none for itself).
    let refs: Option<(Reference, Reference)> = normalize
        .filter(|n| *n != a.runtime && *n != b.runtime)
        .map(|n| (reference(a, n), reference(b, n)));
    let key = |phase: &str| DiffKey {
        runtime: label.to_string(),
        test: test_label.to_string(),
        phase: phase.to_string(),
    };
    for (phase, va) in &va {
        let k = key(phase);
        let Some((_, vb)) = vb.iter().find(|(p, _)| p == phase) else {
            d.only_a.push(k);
            continue;
        };
        let (pa, pb) = (a.part("A", va), b.part("B", vb));
        let mut note = None;
        let mut refused = None;
        let found = match (&refs, normalize) {
            (Some(((ra, pra, fa), (rb, prb, fb))), Some(n)) => {
                let ra = ra.iter().find(|(p, _)| p == phase);
                let rb = rb.iter().find(|(p, _)| p == phase);
                match (ra, rb) {
                    (Some((_, ra)), Some((_, rb))) => Some((
                        Part {
                            side: a.side,
                            name: "A's reference",
                            values: ra,
                            partial: *pra,
                        },
                        Part {
                            side: b.side,
                            name: "B's reference",
                            values: rb,
                            partial: *prb,
                        },
                    )),
                    // The reference failed: a raw ratio would answer another question
                    // silently, so the row gets none.
                    _ if *fa || *fb => {
                        let side = if *fa { "A" } else { "B" };
                        refused = Some(format!(
                            "not comparable: the reference {n} failed in {side}"
                        ));
                        None
                    }
                    // A phase the reference never has (native has no compile): compared as
                    // measured, and said.
                    _ => {
                        note = Some(format!("not normalised: {n} has no {phase}"));
                        None
                    }
                }
            }
            (None, Some(n)) if n == a.runtime => {
                note = Some(format!("not normalised: {n} is the reference"));
                None
            }
            _ => None,
        };
        let refs = found.as_ref().map(|(x, y)| (x, y));
        match row(&k, &pa, &pb, refs, note, design) {
            Ok((mut r, _)) if refused.is_some() => {
                r.verdict = Verdict::NotComparable;
                r.note = refused;
                d.rows.push(r);
                estimates.push(None);
            }
            Ok((r, e)) => {
                d.rows.push(r);
                estimates.push(e);
            }
            Err(why) => d.dropped.push(Dropped {
                runtime: k.runtime,
                test: k.test,
                phase: k.phase,
                why,
            }),
        }
    }
    // A cell that failed, with nothing on the other side either, gives no row and no
    // only-in-A/B key: said here, so no gate passes over it. (Neither failed: not run on
    // either side, as a cell that does not apply.)
    let failed = |arm: &Arm| arm.side.failed.contains(&(arm.runtime, arm.test));
    if va.is_empty() && vb.is_empty() && (failed(&a) || failed(&b)) {
        let why = match (failed(&a), failed(&b)) {
            (true, true) => "failed in both",
            (true, false) => "failed in A, no measurements in B",
            _ => "no measurements in A, failed in B",
        };
        d.dropped.push(Dropped {
            runtime: label.to_string(),
            test: test_label.to_string(),
            phase: String::new(),
            why: why.to_string(),
        });
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
    for m in [ma, mb] {
        if m.status != crate::store::RunStatus::Complete {
            w.push(format!("run {} is {}", m.id, m.status));
        }
    }
    w
}

/// Says, in the warnings, which invocations were left out as busy (or kept, with
/// `--allow-busy`), and for which runs.
fn busy_warnings(d: &mut Diff, runs: &[&SavedRun], sides: &[&Side], allow_busy: bool) {
    let left_out: usize = sides.iter().map(|s| s.busy_count()).sum();
    d.busy_left_out = left_out;
    for r in runs {
        if let Some(why) = &r.meta.machine.load_unreadable {
            d.warnings.push(if allow_busy {
                format!(
                    "--allow-busy: verdicts include run {}, whose load of other processes could not be measured ({why})",
                    r.meta.id
                )
            } else {
                format!(
                    "verdicts withheld from run {}: the load of other processes could not be measured ({why}), so no invocation can be shown quiet (--allow-busy gives them)",
                    r.meta.id
                )
            });
        }
    }
    let described = busy_described(runs);
    if described.is_empty() {
        return;
    }
    let share = super::quiet::BUSY_SHARE * 100.0;
    d.warnings.push(if allow_busy {
        format!(
            "--allow-busy: verdicts include invocations measured while other processes took more than {share:.0} % of the CPUs ({}); such load moves results by more than their intervals hold",
            described.join(", ")
        )
    } else {
        format!(
            "left out of the verdicts: invocations measured while other processes took more than {share:.0} % of the CPUs ({}); rows left with too few say insufficient data (--allow-busy keeps them)",
            described.join(", ")
        )
    });
}

/// How many invocations of each run were busy, as `N of M in run ID`, for runs with any.
fn busy_described(runs: &[&SavedRun]) -> Vec<String> {
    runs.iter()
        .filter(|r| r.meta.machine.load_unreadable.is_none())
        .filter_map(|r| {
            let n = r
                .cells
                .iter()
                .filter(|c| super::quiet::busy_invocation(r, c))
                .count();
            (n > 0).then(|| format!("{n} of {} in run {}", r.cells.len(), r.meta.id))
        })
        .collect()
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
    let (side_a, side_b) = (Side::new(a, opts.allow_busy), Side::new(b, opts.allow_busy));
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
            Arm {
                side: &side_a,
                runtime: rt,
                test,
            },
            Arm {
                side: &side_b,
                runtime: rt,
                test,
            },
            (rt.as_str(), test.as_str()),
            opts.normalize.as_deref(),
            Design::Independent,
        );
    }
    d.decide(estimates);
    busy_warnings(&mut d, &[a, b], &[&side_a, &side_b], opts.allow_busy);
    let (sa, sb) = (&a.meta.settings.size, &b.meta.settings.size);
    if sa != sb {
        d.withhold(
            format!(
                "problem size differs: {sa} vs {sb}: no verdicts, the runs measured different work"
            ),
            "not comparable: problem sizes differ",
        );
    }
    Ok(d)
}

/// Compares two runtimes inside one run, test by test: B's time over A's, paired by
/// round. Normalising does not apply (both sides ran in the same run).
pub fn compare_runtimes(
    run: &SavedRun,
    rt_a: &str,
    rt_b: &str,
    opts: &DiffOptions,
) -> Result<Diff, DiffError> {
    compare_in_run(run, [rt_a, rt_b], ArmKind::Runtime, opts)
}

/// Compares two tests inside one run, runtime by runtime: test B's time over test A's
/// (two builds of a module, say), paired by round.
pub fn compare_tests(
    run: &SavedRun,
    test_a: &str,
    test_b: &str,
    opts: &DiffOptions,
) -> Result<Diff, DiffError> {
    compare_in_run(run, [test_a, test_b], ArmKind::Test, opts)
}

/// What the two arms of a comparison inside one run are.
#[derive(Clone, Copy, PartialEq)]
enum ArmKind {
    Runtime,
    Test,
}

/// Two arms of one run, paired by round, over every value of the other dimension (tests
/// for two runtimes, runtimes for two tests).
fn compare_in_run(
    run: &SavedRun,
    [x, y]: [&str; 2],
    kind: ArmKind,
    opts: &DiffOptions,
) -> Result<Diff, DiffError> {
    check_threshold(opts.threshold_pct)?;
    if x == y {
        return Err(DiffError::SameArms(x.to_string()));
    }
    let runtimes: Vec<&str> = run.meta.runtimes.iter().map(|r| r.id.as_str()).collect();
    let tests: Vec<&str> = run.meta.tests.iter().map(|t| t.name.as_str()).collect();
    let (arms, others) = match kind {
        ArmKind::Runtime => (&runtimes, &tests),
        ArmKind::Test => (&tests, &runtimes),
    };
    if let Some(missing) = [x, y].into_iter().find(|a| !arms.contains(a)) {
        let id = run.meta.id.clone();
        return Err(match kind {
            ArmKind::Runtime => DiffError::NoRuntime(missing.to_string(), id),
            ArmKind::Test => DiffError::NoTest(missing.to_string(), id, tests.join(", ")),
        });
    }
    // Arms that alternated in one worker shared every moment, busy ones too: the load fell
    // on both alike and cancels in their paired difference (calibrated: statistics §6c).
    let exempt = alternated(run, x, y);
    let side = Side::new(run, opts.allow_busy || exempt);
    let mut d = Diff::new(
        format!("{}:{x}", run.meta.id),
        format!("{}:{y}", run.meta.id),
        &DiffOptions {
            normalize: None,
            ..opts.clone()
        },
    );
    d.paired = true;
    d.alternated = exempt;
    // Arms of a `--pair` run with `--precision` had their rounds sized from their paired
    // differences' first stage: Stein's interval is the one that holds 95 % for them.
    let stein = (run.meta.settings.precision.is_some() && both_arms(run, x, y))
        .then_some(run.meta.settings.invocations as usize);
    d.stein = stein.is_some();
    let label = format!("{x} → {y}");
    let mut estimates = Vec::new();
    for other in others {
        let arm = |a| match kind {
            ArmKind::Runtime => Arm {
                side: &side,
                runtime: a,
                test: other,
            },
            ArmKind::Test => Arm {
                side: &side,
                runtime: other,
                test: a,
            },
        };
        let labels = match kind {
            ArmKind::Runtime => (label.as_str(), *other),
            ArmKind::Test => (*other, label.as_str()),
        };
        pair_cells(
            &mut d,
            &mut estimates,
            arm(x),
            arm(y),
            labels,
            None,
            Design::Paired(stein),
        );
    }
    d.decide(estimates);
    if exempt && !opts.allow_busy {
        let described = busy_described(&[run]);
        if !described.is_empty() {
            d.warnings.push(format!(
                "the machine was busy during some invocations ({}); {x} and {y} alternated in one worker, so the load fell on both alike and the paired verdicts keep them",
                described.join(", ")
            ));
        }
    } else {
        busy_warnings(&mut d, &[run], &[&side], opts.allow_busy);
    }
    Ok(d)
}

/// Whether `x` and `y` are both arms of the run's `--pair`, alternated in one worker.
fn alternated(run: &SavedRun, x: &str, y: &str) -> bool {
    run.meta.settings.pair_mode == Some(crate::store::PairMode::Alternate) && both_arms(run, x, y)
}

/// Whether `x` and `y` are two arms of the run's `--pair`.
fn both_arms(run: &SavedRun, x: &str, y: &str) -> bool {
    x != y
        && run
            .meta
            .settings
            .pair
            .as_ref()
            .is_some_and(|arms| arms.iter().any(|a| a == x) && arms.iter().any(|a| a == y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::t_quantile;

    /// A row and its Student-t estimate (10 degrees of freedom) with this interval.
    fn row(ratio: f64, lo: f64, hi: f64) -> (DiffRow, Option<RatioEstimate>) {
        let se = (hi.ln() - lo.ln()) / 2.0 / t_quantile(0.975, 10.0);
        let r = DiffRow {
            runtime: "wasmtime".into(),
            test: "t".into(),
            phase: "execute".into(),
            a_median: 1.0,
            b_median: ratio,
            a_typical: None,
            b_typical: None,
            ratio: Some(ratio),
            ci_low: Some(lo),
            ci_high: Some(hi),
            halfwidth_pct: Some(50.0 * (hi - lo) / ratio),
            level: Some(0.95),
            p_adjusted: None,
            verdict: Verdict::NoChange,
            note: None,
            n: (6, 6),
            invocations: (6, 6),
            pairs: None,
        };
        let e = RatioEstimate {
            ratio,
            low: lo,
            high: hi,
            log_se: se,
            df: 10.0,
            rounds: None,
            level: 0.95,
        };
        (r, Some(e))
    }

    #[test]
    fn beyond_alone_is_not_held_over_many_rows_and_never_no_change() {
        let (mut rows, mut est): (Vec<_>, Vec<_>) = std::iter::once(row(1.11, 1.03, 1.20)).unzip();
        for _ in 0..39 {
            let (r, e) = row(1.0, 0.99, 1.01);
            rows.push(r);
            est.push(e);
        }
        let mut d = Diff::fixture(rows.clone());
        d.decide(est.clone());
        let r = &d.rows[0];
        assert_eq!(r.verdict, Verdict::SlowerNotHeld, "{r:?}");
        let note = r.note.as_deref().unwrap();
        assert!(
            note.starts_with(
                "its interval lies beyond +2 % on its own, not held over 40 rows (adjusted p "
            ),
            "{note}"
        );
        assert_eq!(d.counts().not_held, 1);
        assert_eq!(d.counts().no_change, 39);
        assert!(d.method().contains("not held"), "{}", d.method());
        // The same row alone: held.
        let mut one = Diff::fixture(rows[..1].to_vec());
        one.decide(est[..1].to_vec());
        assert_eq!(one.rows[0].verdict, Verdict::Slower);
        // Faster, likewise.
        let (r, e) = row(0.9, 0.83, 0.97);
        rows[0] = r;
        est[0] = e;
        let mut d = Diff::fixture(rows);
        d.decide(est);
        assert_eq!(d.rows[0].verdict, Verdict::FasterNotHeld);
        assert!(d.rows[0].note.as_deref().unwrap().contains("beyond −2 %"));
    }

    #[test]
    fn level_text_says_the_level_achieved() {
        assert_eq!(level_text(0.95), "95 %");
        assert_eq!(level_text(0.96875), "96.9 %");
        assert_eq!(level_text(0.9522), "95.2 %");
    }
}
