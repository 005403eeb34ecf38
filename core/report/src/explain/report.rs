//! A profiled run's part of a report: its explanation and a flame graph per profiled cell
//! (each runtime's coloured against the baseline's where there is one), for the HTML page,
//! the desktop app and the JSON export alike.

use super::flame::{FlameOptions, flame_graph};
use super::functions::{ExplainOptions, Explanation};
use crate::store::read_profiles;
use serde::Serialize;
use std::collections::BTreeMap;

/// What a report shows of a profiled run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProfileReport {
    /// The run's explanation; `None` when it could not be made (`error` says why).
    pub explanation: Option<Explanation>,
    /// One flame graph per profiled cell that has samples.
    pub flames: Vec<Flame>,
    /// Each profiled cell's stacks, merged over its invocations (the folded export).
    pub stacks: Vec<CellStacks>,
    /// Why the profiles could not be read, in one line naming the file.
    pub error: Option<String>,
}

impl ProfileReport {
    /// A report that says why the profiles cannot be shown.
    fn failed(error: String) -> ProfileReport {
        ProfileReport {
            explanation: None,
            flames: Vec::new(),
            stacks: Vec::new(),
            error: Some(error),
        }
    }
}

/// One cell's folded stacks.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CellStacks {
    /// Test name.
    pub test: String,
    /// Runtime id.
    pub runtime: String,
    /// Outermost frame first, `;`-joined, with sample counts.
    pub stacks: BTreeMap<String, u64>,
}

/// One cell's flame graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Flame {
    /// Test name.
    pub test: String,
    /// Runtime id.
    pub runtime: String,
    /// The runtime its colours compare against (the baseline), if any.
    pub against: Option<String>,
    /// The graph, a standalone SVG.
    pub svg: String,
}

/// The profile part of a run's report; `None` for a run made without `--profile`.
pub fn report(run: &crate::store::SavedRun) -> Option<ProfileReport> {
    run.meta.settings.profile?;
    let rows = match read_profiles(&run.dir) {
        Ok(r) => r,
        Err(e) => {
            return Some(ProfileReport::failed(e.to_string()));
        }
    };
    let explanation = match super::functions::explain_rows(run, &rows, &ExplainOptions::default()) {
        Ok(e) => e,
        Err(e) => {
            return Some(ProfileReport::failed(e.to_string()));
        }
    };
    let flames = flames(&explanation, &rows);
    let stacks = merged(&rows)
        .into_iter()
        .map(|((test, runtime), stacks)| CellStacks {
            test: test.to_string(),
            runtime: runtime.to_string(),
            stacks,
        })
        .collect();
    Some(ProfileReport {
        explanation: Some(explanation),
        flames,
        stacks,
        error: None,
    })
}

/// Every cell's stacks merged over its invocations, by (test, runtime).
fn merged(rows: &[crate::store::ProfileRow]) -> BTreeMap<(&str, &str), BTreeMap<String, u64>> {
    let mut m: BTreeMap<(&str, &str), BTreeMap<String, u64>> = BTreeMap::new();
    for r in rows {
        let cell = m.entry((r.test.as_str(), r.runtime.as_str())).or_default();
        for (s, n) in &r.stacks {
            *cell.entry(s.clone()).or_insert(0) += n;
        }
    }
    m
}

fn flames(e: &Explanation, rows: &[crate::store::ProfileRow]) -> Vec<Flame> {
    let stacks = merged(rows);
    let mut out = Vec::new();
    for t in &e.tests {
        let base = stacks.get(&(t.test.as_str(), e.baseline.as_str()));
        for c in &t.runtimes {
            let Some(s) = stacks.get(&(t.test.as_str(), c.runtime.as_str())) else {
                continue;
            };
            if s.is_empty() {
                continue;
            }
            let against = base
                .filter(|b| !b.is_empty() && c.runtime != e.baseline)
                .map(|b| (e.baseline.as_str(), b));
            let title = match against {
                Some((b, _)) => format!("{} × {} (coloured against {b})", t.test, c.runtime),
                None => format!("{} × {}", t.test, c.runtime),
            };
            out.push(Flame {
                test: t.test.clone(),
                runtime: c.runtime.clone(),
                against: against.map(|(b, _)| b.to_string()),
                svg: flame_graph(
                    s,
                    &FlameOptions {
                        title,
                        width: 1000.0,
                        against,
                    },
                ),
            });
        }
    }
    out
}
