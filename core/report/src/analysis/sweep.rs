//! A sweep read back: the runtimes of a run that are one engine at several settings
//! (`wasmtime[allocator=pooling,cow=off]`…) as a parameter scan per test — each cell's
//! figure (the primary time, lower is better) with its interval, against the first swept
//! setting's values, one line per combination of the others — with the best combination
//! per test and which settings moved a figure beyond noise (a verdict of the in-run,
//! round-paired comparison of two combinations that differ in that setting alone).

use super::{DiffOptions, RunSummary, Verdict, compare_runtimes};
use crate::model::settings_pairs;
use crate::store::SavedRun;
use serde::Serialize;

/// A settings runtime of the run: its id, its engine and its `NAME=VALUE` pairs.
type Combo = (String, String, Vec<(String, String)>);

/// One combination's figure on one test.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ScanPoint {
    /// The runtime id (the combination).
    pub runtime: String,
    /// Its value of the scanned setting.
    pub x: String,
    /// Its values of the other swept settings, `NAME=VALUE,…` (empty with one setting).
    pub line: String,
    /// The typical value (ns), if the cell has one.
    pub typical: Option<f64>,
    /// Its 95 % interval.
    pub low: Option<f64>,
    /// Its 95 % interval.
    pub high: Option<f64>,
}

/// One test's scan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ScanTest {
    /// Test name.
    pub test: String,
    /// The phase the figure is of (`execute`, `instantiate`…).
    pub phase: String,
    /// Every combination that has a figure.
    pub points: Vec<ScanPoint>,
    /// The fastest combination.
    pub best: Option<String>,
}

/// What one setting did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SettingEffect {
    /// The setting.
    pub setting: String,
    /// Tests where changing it alone gave a faster or slower verdict.
    pub changed: Vec<String>,
    /// Tests where every such comparison said "no change" (within noise).
    pub within_noise: Vec<String>,
    /// Tests where no comparison could tell (too few invocations, or invocations left out
    /// because the machine was busy): neither a change nor its absence is claimed.
    pub undecided: Vec<String>,
}

/// A run's sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Sweep {
    /// The engine swept.
    pub engine: String,
    /// The settings that vary across its runtimes, in id order; the first is scanned.
    pub settings: Vec<String>,
    /// The scanned setting's values, in the order they first appear.
    pub x_values: Vec<String>,
    /// The lines: each combination of the other settings, in the order it first appears.
    pub lines: Vec<String>,
    /// Per test.
    pub tests: Vec<ScanTest>,
    /// Per varying setting.
    pub effects: Vec<SettingEffect>,
}

/// The sweep in a run: its settings ids of one engine (the first engine with two or more),
/// `None` when there is none.
pub fn sweep(run: &SavedRun, summary: &RunSummary) -> Option<Sweep> {
    // Each settings runtime: (id, engine, pairs).
    let parsed: Vec<Combo> = summary
        .runtimes
        .iter()
        .filter_map(|id| {
            let (engine, pairs) = settings_pairs(id)?.ok()?;
            Some((id.clone(), engine.to_string(), pairs))
        })
        .collect();
    let engine = parsed
        .iter()
        .map(|(_, e, _)| e)
        .find(|e| parsed.iter().filter(|(_, x, _)| x == *e).count() >= 2)?
        .clone();
    let mine: Vec<&Combo> = parsed.iter().filter(|(_, e, _)| *e == engine).collect();
    let value = |pairs: &[(String, String)], name: &str| -> String {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let mut settings: Vec<String> = Vec::new();
    for (_, _, pairs) in &mine {
        for (k, _) in pairs {
            if !settings.contains(k) {
                settings.push(k.clone());
            }
        }
    }
    // Only the settings whose value differs between the engine's runtimes are swept.
    settings.retain(|s| {
        let first = value(&mine[0].2, s);
        mine.iter().any(|(_, _, p)| value(p, s) != first)
    });
    let x_name = settings.first()?.clone();
    let line_of = |pairs: &[(String, String)]| -> String {
        settings[1..]
            .iter()
            .map(|s| format!("{s}={}", value(pairs, s)))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut x_values: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    for (_, _, pairs) in &mine {
        let x = value(pairs, &x_name);
        if !x_values.contains(&x) {
            x_values.push(x);
        }
        let l = line_of(pairs);
        if !lines.contains(&l) {
            lines.push(l);
        }
    }
    let tests = summary
        .tests
        .iter()
        .map(|test| {
            let points: Vec<ScanPoint> = mine
                .iter()
                .filter_map(|(id, _, pairs)| {
                    let c = summary.cell(id, test)?;
                    let st = c.stats.as_ref();
                    Some(ScanPoint {
                        runtime: id.clone(),
                        x: value(pairs, &x_name),
                        line: line_of(pairs),
                        typical: c.typical,
                        low: st.and_then(|s| s.ci_low),
                        high: st.and_then(|s| s.ci_high),
                    })
                })
                .collect();
            let best = points
                .iter()
                .filter_map(|p| Some((p.typical?, &p.runtime)))
                .min_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, r)| r.clone());
            let phase = mine
                .iter()
                .find_map(|(id, _, _)| summary.cell(id, test))
                .map(|c| c.primary_phase.clone())
                .unwrap_or_else(|| "execute".into());
            ScanTest {
                test: test.clone(),
                phase,
                points,
                best,
            }
        })
        .collect::<Vec<_>>();
    let effects = settings
        .iter()
        .map(|s| effect(run, &mine, s, &tests))
        .collect();
    Some(Sweep {
        engine,
        settings,
        x_values,
        lines,
        tests,
        effects,
    })
}

/// Which tests setting `s` changed: any pair of combinations that differ in `s` alone,
/// compared in the run, with a faster or slower verdict on the test's primary phase.
fn effect(run: &SavedRun, mine: &[&Combo], s: &str, tests: &[ScanTest]) -> SettingEffect {
    let others = |pairs: &[(String, String)]| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = pairs.iter().filter(|(k, _)| k != s).cloned().collect();
        v.sort();
        v
    };
    let mut changed: Vec<String> = Vec::new();
    let mut told: Vec<String> = Vec::new();
    for (i, (a, _, pa)) in mine.iter().enumerate() {
        for (b, _, pb) in &mine[i + 1..] {
            if others(pa) != others(pb) {
                continue;
            }
            let Ok(d) = compare_runtimes(run, a, b, &DiffOptions::default()) else {
                continue;
            };
            for t in tests {
                let rows = d
                    .rows
                    .iter()
                    .filter(|r| r.test == t.test && r.phase == t.phase);
                for r in rows {
                    if r.verdict.is_change() && !changed.contains(&t.test) {
                        changed.push(t.test.clone());
                    }
                    if r.verdict == Verdict::NoChange && !told.contains(&t.test) {
                        told.push(t.test.clone());
                    }
                }
            }
        }
    }
    let rest = |told_it: bool| -> Vec<String> {
        tests
            .iter()
            .map(|t| t.test.clone())
            .filter(|t| !changed.contains(t) && told.contains(t) == told_it)
            .collect()
    };
    SettingEffect {
        setting: s.to_string(),
        within_noise: rest(true),
        undecided: rest(false),
        changed,
    }
}
