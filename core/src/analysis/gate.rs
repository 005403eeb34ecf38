//! A gate a CI job can use: whether a diff's verdicts should fail the build. Like
//! Gungraun's limits or k6's thresholds, it turns a comparison into an exit code; unlike a
//! plain threshold it also refuses to pass when the diff could not tell (withheld or too
//! few data), so a gate that was never able to see a regression cannot go green silently.

use super::{Diff, Verdict};
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
            Gate::Pass => "gate passed: every row has a verdict and none fails".into(),
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

/// Decides the gate of one diff: a failing verdict wins; else rows without a verdict
/// (insufficient data, not comparable) or only in A (failed or missing in B) make it
/// undecided; a diff with no rows at all is undecided too.
pub fn gate(d: &Diff, on: FailOn) -> Gate {
    let fails = |v: Verdict| match on {
        FailOn::Slower => v == Verdict::Slower,
        FailOn::Change => v.is_change(),
    };
    let rows: Vec<String> = d
        .rows
        .iter()
        .filter(|r| fails(r.verdict))
        .map(|r| {
            format!(
                "{} × {} ({}): {}{}",
                r.runtime,
                r.test,
                r.phase,
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
    if d.rows.is_empty() {
        why.push(format!("{} → {}: no rows to compare", d.a, d.b));
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
    if why.is_empty() {
        Gate::Pass
    } else {
        Gate::Undecided { why }
    }
}
