//! A gate a CI job can use: whether a diff's verdicts should fail the build. Like
//! Gungraun's limits or k6's thresholds, it turns a comparison into an exit code; unlike a
//! plain threshold it passes only what it has shown: "no change" means no change beyond the
//! threshold could be told, not that the change is small, so a row passes only when its
//! 95 % interval shows the change is within a stated margin (an equivalence test, as
//! TOST's confidence-interval form). A row that cannot show it, and rows the diff could not
//! judge, leave the gate undecided: a gate that was never able to see a regression cannot
//! go green silently.

use super::{Diff, DiffRow, Verdict};
use serde::{Deserialize, Serialize};

/// What fails the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FailOn {
    /// Any row B is slower in.
    Slower,
    /// Any row with a change, slower or faster (a refactoring that must not move figures).
    Change,
}

impl std::str::FromStr for FailOn {
    type Err = String;

    fn from_str(s: &str) -> Result<FailOn, String> {
        match s {
            "slower" => Ok(FailOn::Slower),
            "change" => Ok(FailOn::Change),
            other => Err(format!("--fail-on takes slower or change, not '{other}'")),
        }
    }
}

/// What a gate judges: which verdicts fail it, and how far a passing row's interval may
/// reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GateRule {
    /// Which verdicts fail.
    pub on: FailOn,
    /// The largest change, percent, a passing row's interval may reach: B at most this
    /// much slower (and, with [`FailOn::Change`], faster, as the ratio 1/(1 + margin)).
    pub margin_pct: f64,
}

impl GateRule {
    /// `on` with `--max-regression PCT`, or the diff's threshold when not given (the
    /// change a "no change" verdict already allows).
    pub fn new(on: FailOn, max_regression_pct: Option<f64>, d: &Diff) -> GateRule {
        GateRule {
            on,
            margin_pct: max_regression_pct.unwrap_or(d.threshold_pct),
        }
    }

    /// Checks `--max-regression`'s value: a percentage above 0 and below 100.
    pub fn check_margin(pct: f64) -> Result<f64, String> {
        if pct.is_finite() && pct > 0.0 && pct < 100.0 {
            Ok(pct)
        } else {
            Err(format!(
                "--max-regression takes a percentage above 0 and below 100, not {pct}"
            ))
        }
    }

    /// Whether `row`'s interval shows its change within the margin: the reason it does not
    /// when it does not.
    fn shown(&self, row: &DiffRow) -> Result<(), String> {
        let (Some(lo), Some(hi)) = (row.ci_low, row.ci_high) else {
            return Err("no interval".into());
        };
        let up = 1.0 + self.margin_pct / 100.0;
        let reach = if hi > up {
            Some(format!("+{:.1} %", (hi - 1.0) * 100.0))
        } else if self.on == FailOn::Change && lo < 1.0 / up {
            Some(format!("−{:.1} %", (1.0 - lo) * 100.0))
        } else {
            None
        };
        match reach {
            None => Ok(()),
            Some(r) => Err(format!(
                "its interval [{lo:.3}, {hi:.3}]{} reaches {r}, past the ±{} % margin",
                row.halfwidth_pct
                    .map(|h| format!(" (±{h:.1} %)"))
                    .unwrap_or_default(),
                self.margin_pct
            )),
        }
    }
}

/// What a gate decided, with the exit code that says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "lowercase")]
pub enum Gate {
    /// Every row has a verdict and none fails.
    Pass,
    /// A verdict fails the gate: the rows that did, as `runtime × test (phase): verdict`.
    Fail {
        /// The failing rows.
        rows: Vec<String>,
    },
    /// Nothing failed, but some rows could not be decided: passing would be a guess.
    Undecided {
        /// Why, one line per kind of row.
        why: Vec<String>,
    },
}

impl Gate {
    /// Exit 3 for a failing verdict, 4 for rows that could not be told, 0 otherwise
    /// (1 and 2 keep their meaning: failed cells, bad input).
    pub fn exit_code(&self) -> u8 {
        match self {
            Gate::Pass => 0,
            Gate::Fail { .. } => 3,
            Gate::Undecided { .. } => 4,
        }
    }

    /// One line for stderr.
    pub fn describe(&self) -> String {
        match self {
            Gate::Pass => {
                "gate passed: every row's interval shows its change within the margin".into()
            }
            Gate::Fail { rows } => {
                format!("gate failed: {} row(s): {}", rows.len(), rows.join("; "))
            }
            Gate::Undecided { why } => {
                format!("gate undecided (exit 4): {}", why.join("; "))
            }
        }
    }

    /// The gate over many diffs (a comparison against one baseline run): the first that
    /// fails, else the first undecided, else pass.
    pub fn all(gates: impl IntoIterator<Item = Gate>) -> Gate {
        let mut undecided = Vec::new();
        let mut failed = Vec::new();
        for g in gates {
            match g {
                Gate::Pass => {}
                Gate::Fail { rows } => failed.extend(rows),
                Gate::Undecided { why } => undecided.extend(why),
            }
        }
        if !failed.is_empty() {
            Gate::Fail { rows: failed }
        } else if !undecided.is_empty() {
            Gate::Undecided { why: undecided }
        } else {
            Gate::Pass
        }
    }
}

/// Decides the gate of one diff: a failing verdict wins; else rows whose interval reaches
/// past the margin, rows beyond the threshold but not held over the family, rows too few
/// rounds could not decide, rows without a verdict (insufficient data, not comparable),
/// cells that gave no row (failed in both runs), rows only in A (failed or missing in B) or
/// only in B (failed or missing in A: no base) make it undecided; a diff with no rows at
/// all is undecided too.
pub fn gate(d: &Diff, rule: GateRule) -> Gate {
    let fails = |v: Verdict| match rule.on {
        FailOn::Slower => v == Verdict::Slower,
        FailOn::Change => v.is_change(),
    };
    let name = |r: &DiffRow| format!("{} × {} ({})", r.runtime, r.test, r.phase);
    let rows: Vec<String> = d
        .rows
        .iter()
        .filter(|r| fails(r.verdict))
        .map(|r| {
            format!(
                "{}: {}{}",
                name(r),
                r.verdict,
                r.ratio.map(|x| format!(" {x:.3}×")).unwrap_or_default()
            )
        })
        .collect();
    if !rows.is_empty() {
        return Gate::Fail { rows };
    }
    let c = d.counts();
    let mut why = Vec::new();
    if d.rows.is_empty() && d.dropped.is_empty() {
        why.push(format!("{} → {}: no rows to compare", d.a, d.b));
    }
    let wide: Vec<String> = d
        .rows
        .iter()
        .filter(|r| r.verdict.is_decided())
        .filter_map(|r| rule.shown(r).err().map(|e| format!("{}: {e}", name(r))))
        .collect();
    if !wide.is_empty() {
        why.push(format!(
            "{} row(s) could not show a change within ±{} %: {}",
            wide.len(),
            rule.margin_pct,
            wide.join(", ")
        ));
    }
    let named = |v: fn(Verdict) -> bool| -> Vec<String> {
        d.rows
            .iter()
            .filter(|r| v(r.verdict))
            .map(|r| {
                format!(
                    "{}: {}",
                    name(r),
                    r.note.as_deref().unwrap_or(&r.verdict.to_string())
                )
            })
            .collect()
    };
    let alone = named(|v| matches!(v, Verdict::SlowerNotHeld | Verdict::FasterNotHeld));
    if !alone.is_empty() {
        why.push(format!(
            "{} row(s) beyond ±{} % on their own but not held over the diff's {} rows: {}",
            alone.len(),
            d.threshold_pct,
            d.family(),
            alone.join(", ")
        ));
    }
    let few = named(|v| v == Verdict::Undecided);
    if !few.is_empty() {
        why.push(format!(
            "{} row(s) undecided at their rounds: {}",
            few.len(),
            few.join(", ")
        ));
    }
    for k in &d.dropped {
        let phase = if k.phase.is_empty() {
            String::new()
        } else {
            format!(" ({})", k.phase)
        };
        why.push(format!(
            "{} × {}{phase}: no row, {}",
            k.runtime, k.test, k.why
        ));
    }
    if c.insufficient > 0 {
        why.push(format!("{} row(s) with insufficient data", c.insufficient));
    }
    if c.not_comparable > 0 {
        why.push(format!("{} row(s) not comparable", c.not_comparable));
    }
    if !d.only_a.is_empty() {
        why.push(format!(
            "{} row(s) only in A (failed or missing in B)",
            d.only_a.len()
        ));
    }
    if !d.only_b.is_empty() {
        why.push(format!(
            "{} row(s) only in B (failed or missing in A: nothing to compare with)",
            d.only_b.len()
        ));
    }
    if why.is_empty() {
        Gate::Pass
    } else {
        Gate::Undecided { why }
    }
}

/// What a diff's intervals show at most, for a headline that says what was shown rather
/// than what was not: the largest slowdown any row's 95 % interval allows, percent, with
/// that row. `None` when no row has an interval.
pub fn shown_bound(d: &Diff) -> Option<(f64, String)> {
    d.rows
        .iter()
        .filter(|r| r.verdict.is_decided())
        .filter_map(|r| {
            r.ci_high
                .map(|hi| ((hi - 1.0) * 100.0, format!("{} × {}", r.runtime, r.test)))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
}
