//! Why one runtime is slower than another: each test's profiles joined by function name
//! across runtimes, with each function's share of the samples, its estimated time per
//! iteration (the share of the cell's typical time) and its ratio to the baseline. The one
//! model the CLI, the terminal UI, the desktop app and the HTML report show.

use super::causes::{Causes, Counted, listed, say};
use crate::profile::MIN_SAMPLES;
use crate::profile::names::canonical;
use crate::profile::symbols::Outside;
use crate::store::ProfileRow;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A run's profiles, explained test by test.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Explanation {
    /// Run id.
    pub run: String,
    /// The runtime each ratio is against (native by default), if it was profiled.
    pub baseline: String,
    /// One per test that has a profile, in the run's order.
    pub tests: Vec<TestExplained>,
}

/// One test: its runtimes as columns, functions as rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TestExplained {
    /// Test name.
    pub test: String,
    /// The columns, in the run's order of runtimes.
    pub runtimes: Vec<RuntimeColumn>,
    /// Functions by name, hottest first (by their largest share in any column).
    pub functions: Vec<FunctionRow>,
    /// Samples outside the program's named functions, by kind: never hidden.
    pub outside: Vec<FunctionRow>,
    /// Every column's whole: 100 % of its samples and the cell's typical time.
    pub total: FunctionRow,
    /// What a reader should know to read the table (ambiguous names, few samples).
    pub notes: Vec<String>,
}

impl TestExplained {
    /// The same test with only these runtimes' columns (in its own order), and only the
    /// rows that have samples in one of them: a view comparing a few runtimes.
    pub fn only(&self, runtimes: &[&str]) -> TestExplained {
        let keep: Vec<usize> = self
            .runtimes
            .iter()
            .enumerate()
            .filter(|(_, c)| runtimes.contains(&c.runtime.as_str()))
            .map(|(k, _)| k)
            .collect();
        let row = |r: &FunctionRow| FunctionRow {
            cells: keep.iter().map(|&k| r.cells[k]).collect(),
            causes: keep
                .iter()
                .map(|&k| r.causes.get(k).cloned().flatten())
                .collect(),
            ..r.clone()
        };
        let rows = |v: &[FunctionRow]| -> Vec<FunctionRow> {
            v.iter()
                .map(row)
                .filter(|r| r.cells.iter().any(Option::is_some))
                .collect()
        };
        TestExplained {
            test: self.test.clone(),
            runtimes: keep.iter().map(|&k| self.runtimes[k].clone()).collect(),
            functions: rows(&self.functions),
            outside: rows(&self.outside),
            total: row(&self.total),
            notes: self
                .notes
                .iter()
                .filter(|n| {
                    n.split(':').next().is_none_or(|who| {
                        !self.runtimes.iter().any(|c| c.runtime == who) || runtimes.contains(&who)
                    })
                })
                .cloned()
                .collect(),
        }
    }
}

/// One runtime's profile of a test.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RuntimeColumn {
    /// Runtime id.
    pub runtime: String,
    /// Samples, over every invocation.
    pub samples: u64,
    /// Iterations sampled.
    pub iterations: u32,
    /// The cell's typical time per iteration, ns (what the matrix shows).
    pub typical_ns: Option<f64>,
    /// How it was sampled and named.
    pub method: String,
    /// Why it has no functions (an interpreter; a sampler that could not start).
    pub unattributed: Option<String>,
    /// Fewer than [`MIN_SAMPLES`]: too few to rank functions.
    pub few_samples: bool,
    /// Only the innermost frame of each sample is known, and why.
    pub leaf_only: Option<String>,
    /// What to know about its names.
    pub names: Option<String>,
    /// Samples the kernel dropped.
    pub lost: u64,
    /// Whether kernel code was sampled.
    pub kernel: bool,
}

/// A function (or a kind of code outside the program) across the columns.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FunctionRow {
    /// Its name, or a bracketed kind (`[engine & host]`).
    pub name: String,
    /// The C library it came from natively, if it did (`libc.so.6`).
    pub library: Option<String>,
    /// One per column: `None` where the function has no samples.
    pub cells: Vec<Option<FunctionCell>>,
    /// One per column: what the function did per iteration there, counted ([`Causes`]);
    /// `None` where nothing was counted (native code, a runtime with no counting run).
    pub causes: Vec<Option<Causes>>,
    /// Why it is missing or odd in some column, in words.
    pub note: Option<String>,
}

/// One function in one column.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FunctionCell {
    /// Samples whose innermost frame is it.
    pub samples: u64,
    /// Of the column's samples, 0–1.
    pub share: f64,
    /// Samples in which it is on the stack at all (itself or what it calls), where stacks
    /// are known.
    pub inclusive: Option<u64>,
    /// Estimated time per iteration, ns: share × the cell's typical time.
    pub ns: Option<f64>,
    /// `ns` over the baseline's `ns` for the same name.
    pub ratio: Option<f64>,
    /// Its part of the cell's difference from the baseline's cell: its time here less its
    /// time there (none where the baseline has no function of the name), over the cells'
    /// difference. Where one engine gains or loses against another, function by function.
    pub part: Option<f64>,
}

/// What to explain.
#[derive(Debug, Clone, Default)]
pub struct ExplainOptions {
    /// Tests to explain; empty: all that have profiles.
    pub tests: Vec<String>,
    /// Runtimes to show; empty: all that have profiles.
    pub runtimes: Vec<String>,
    /// The runtime ratios are against; `None`: the run's baseline (native by default).
    pub baseline: Option<String>,
}

/// Why a run cannot be explained as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    /// The run was not profiled.
    #[error(
        "run {0} has no profiles: run it with --profile (a command suite's execute phase is sampled)"
    )]
    NoProfiles(String),
    /// Its profiles cannot be read (the message names the file).
    #[error("{0}")]
    Unreadable(String),
    /// A test it does not have.
    #[error("run {run} has no profiled test '{test}' (profiled: {known})")]
    UnknownTest {
        /// Run id.
        run: String,
        /// What was asked.
        test: String,
        /// What there is.
        known: String,
    },
    /// A runtime it does not have.
    #[error("run {run} has no profiled runtime '{runtime}' (profiled: {known})")]
    UnknownRuntime {
        /// Run id.
        run: String,
        /// What was asked.
        runtime: String,
        /// What there is.
        known: String,
    },
}

/// One column's counts, merged over invocations.
struct Merged {
    row: ProfileRow,
    self_samples: HashMap<String, u64>,
    inclusive: HashMap<String, u64>,
    functions: BTreeSet<String>,
}

fn merge(rows: &[&ProfileRow]) -> Merged {
    let mut row = rows[0].clone();
    row.stacks.clear();
    row.iterations = 0;
    row.lost = 0;
    let mut functions = BTreeSet::new();
    for r in rows {
        row.iterations += r.iterations;
        row.lost += r.lost;
        row.kernel |= r.kernel;
        if row.unattributed.is_none() {
            row.unattributed.clone_from(&r.unattributed);
        }
        for (s, n) in &r.stacks {
            *row.stacks.entry(s.clone()).or_insert(0) += n;
        }
        row.libraries
            .extend(r.libraries.iter().map(|(k, v)| (k.clone(), v.clone())));
        // Counts and sizes are the program's, the same in every invocation: the first.
        if row.counts.is_none() {
            row.counts.clone_from(&r.counts);
            row.counts_note.clone_from(&r.counts_note);
        }
        if row.sizes.is_empty() {
            row.sizes.clone_from(&r.sizes);
        }
        // Checks are the program's too, but each row keeps only the functions its own
        // samples named: their union.
        for (f, c) in &r.checks {
            row.checks.entry(f.clone()).or_insert(*c);
        }
        if row.checks_note.is_none() {
            row.checks_note.clone_from(&r.checks_note);
        }
        functions.extend(r.functions.iter().map(|f| canonical(f).to_string()));
    }
    let mut self_samples = HashMap::new();
    let mut inclusive = HashMap::new();
    for (stack, n) in &row.stacks {
        let frames: Vec<&str> = stack.split(';').map(canonical).collect();
        if let Some(leaf) = frames.last() {
            *self_samples.entry(leaf.to_string()).or_insert(0) += n;
        }
        let distinct: BTreeSet<&str> = frames.iter().copied().collect();
        for f in distinct {
            *inclusive.entry(f.to_string()).or_insert(0) += n;
        }
    }
    Merged {
        row,
        self_samples,
        inclusive,
        functions,
    }
}

/// Explains a run's profiles (read from its folder): every test that has them, joined by
/// function name.
pub fn explain(
    run: &crate::store::SavedRun,
    options: &ExplainOptions,
) -> Result<Explanation, ExplainError> {
    let profiles = crate::store::read_profiles(&run.dir)
        .map_err(|e| ExplainError::Unreadable(e.to_string()))?;
    explain_rows(run, &profiles, options)
}

/// [`explain`] of rows already read.
pub fn explain_rows(
    run: &crate::store::SavedRun,
    profiles: &[ProfileRow],
    options: &ExplainOptions,
) -> Result<Explanation, ExplainError> {
    let run_id = run.meta.id.clone();
    if profiles.is_empty() {
        return Err(ExplainError::NoProfiles(run_id));
    }
    let order_tests: Vec<String> = run.meta.tests.iter().map(|t| t.name.clone()).collect();
    let order_runtimes: Vec<String> = run.meta.runtimes.iter().map(|r| r.id.clone()).collect();
    let profiled_tests: Vec<&String> = order_tests
        .iter()
        .filter(|t| profiles.iter().any(|p| &p.test == *t))
        .collect();
    let profiled_runtimes: Vec<&String> = order_runtimes
        .iter()
        .filter(|r| profiles.iter().any(|p| &p.runtime == *r))
        .collect();
    let list = |v: &[&String]| v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
    for t in &options.tests {
        if !profiled_tests.contains(&t) {
            return Err(ExplainError::UnknownTest {
                run: run_id,
                test: t.clone(),
                known: list(&profiled_tests),
            });
        }
    }
    for r in &options.runtimes {
        if !profiled_runtimes.contains(&r) {
            return Err(ExplainError::UnknownRuntime {
                run: run_id,
                runtime: r.clone(),
                known: list(&profiled_runtimes),
            });
        }
    }
    let baseline = options
        .baseline
        .clone()
        .unwrap_or_else(|| run.meta.settings.baseline.clone());
    if options.baseline.is_some() && !profiled_runtimes.contains(&&baseline) {
        return Err(ExplainError::UnknownRuntime {
            run: run_id,
            runtime: baseline,
            known: list(&profiled_runtimes),
        });
    }
    let summary = crate::analysis::summarize(run, None);
    let typical: HashMap<(&str, &str), f64> = summary
        .cells
        .iter()
        .filter_map(|c| Some(((c.runtime.as_str(), c.test.as_str()), c.typical?)))
        .collect();
    let mut tests = Vec::new();
    for test in profiled_tests {
        if !options.tests.is_empty() && !options.tests.contains(test) {
            continue;
        }
        let columns: Vec<&String> = profiled_runtimes
            .iter()
            .copied()
            .filter(|r| options.runtimes.is_empty() || options.runtimes.contains(r))
            .filter(|r| profiles.iter().any(|p| &p.test == test && &p.runtime == *r))
            .collect();
        let merged: Vec<Merged> = columns
            .iter()
            .map(|r| {
                let rows: Vec<&ProfileRow> = profiles
                    .iter()
                    .filter(|p| &p.test == test && &p.runtime == *r)
                    .collect();
                merge(&rows)
            })
            .collect();
        let typ: Vec<Option<f64>> = columns
            .iter()
            .map(|r| typical.get(&(r.as_str(), test.as_str())).copied())
            .collect();
        tests.push(explain_test(test, &merged, &typ, &baseline));
    }
    Ok(Explanation {
        run: run.meta.id.clone(),
        baseline,
        tests,
    })
}

fn explain_test(
    test: &str,
    merged: &[Merged],
    typical: &[Option<f64>],
    baseline: &str,
) -> TestExplained {
    let runtimes: Vec<RuntimeColumn> = merged
        .iter()
        .zip(typical)
        .map(|(m, t)| {
            let samples = m.row.samples();
            RuntimeColumn {
                runtime: m.row.runtime.clone(),
                samples,
                iterations: m.row.iterations,
                typical_ns: *t,
                method: m.row.method.clone(),
                unattributed: m.row.unattributed.clone(),
                few_samples: m.row.unattributed.is_none() && samples < MIN_SAMPLES,
                leaf_only: m.row.leaf_only.clone(),
                names: m.row.names.clone(),
                lost: m.row.lost,
                kernel: m.row.kernel,
            }
        })
        .collect();
    let base = merged.iter().position(|m| m.row.runtime == baseline);
    let cell = |k: usize, name: &str| -> Option<FunctionCell> {
        let m = &merged[k];
        let samples = *m.self_samples.get(name)?;
        let total = m.row.samples();
        let share = samples as f64 / total.max(1) as f64;
        Some(FunctionCell {
            samples,
            share,
            inclusive: m
                .row
                .leaf_only
                .is_none()
                .then(|| m.inclusive.get(name).copied().unwrap_or(samples)),
            ns: typical[k].map(|t| share * t),
            ratio: None,
            part: None,
        })
    };
    let base_total = base.and_then(|b| typical[b]);
    let with_ratios = |mut cells: Vec<Option<FunctionCell>>| {
        let base_ns = base.and_then(|b| cells[b].and_then(|c| c.ns));
        for (k, c) in cells.iter_mut().enumerate() {
            let Some(c) = c else { continue };
            c.ratio = match (c.ns, base_ns) {
                (Some(n), Some(b)) if b > 0.0 => Some(n / b),
                _ => None,
            };
            c.part = match (c.ns, typical[k], base_total) {
                (Some(n), Some(t), Some(bt)) if Some(k) != base && (t - bt).abs() > 0.0 => {
                    Some((n - base_ns.unwrap_or(0.0)) / (t - bt))
                }
                _ => None,
            };
        }
        cells
    };
    let counted: Vec<Counted> = merged.iter().map(|m| Counted::new(&m.row)).collect();
    let causes_of = |name: &str| -> Vec<Option<Causes>> {
        let mut causes: Vec<Option<Causes>> = (0..merged.len())
            .map(|k| {
                let m = &merged[k];
                let total = m.row.samples().max(1) as f64;
                let share = |f: &str| m.self_samples.get(f).map(|n| *n as f64 / total);
                let baseline = base
                    .filter(|b| *b != k)
                    .and_then(|b| listed(&merged[b].functions));
                counted[k].causes(name, share, baseline)
            })
            .collect();
        say(&mut causes, base, baseline);
        causes
    };
    // Every named function with samples anywhere, hottest first.
    let mut names: BTreeMap<String, f64> = BTreeMap::new();
    for (k, m) in merged.iter().enumerate() {
        let total = m.row.samples().max(1) as f64;
        for (name, n) in &m.self_samples {
            if Outside::parse(name).is_some() {
                continue;
            }
            let share = *n as f64 / total;
            let e = names.entry(name.clone()).or_insert(0.0);
            *e = e.max(share);
            let _ = k;
        }
    }
    let mut order: Vec<(String, f64)> = names.into_iter().collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let attributable: Vec<bool> = merged
        .iter()
        .map(|m| m.row.unattributed.is_none() && m.row.samples() >= MIN_SAMPLES)
        .collect();
    let functions: Vec<FunctionRow> = order
        .into_iter()
        .map(|(name, _)| {
            let cells = with_ratios((0..merged.len()).map(|k| cell(k, &name)).collect());
            let library = merged
                .iter()
                .find_map(|m| m.row.libraries.get(&name).cloned());
            let note = match &library {
                Some(lib) => library_note(&name, lib, merged, &cells, &attributable),
                None => absence_note(&name, merged, &cells, &attributable),
            };
            FunctionRow {
                causes: causes_of(&name),
                name,
                library,
                cells,
                note,
            }
        })
        .collect();
    let outside: Vec<FunctionRow> = [
        Outside::Engine,
        Outside::Kernel,
        Outside::Startup,
        Outside::Compiled,
        Outside::Unknown,
    ]
    .into_iter()
    .filter_map(|o| {
        let label = o.label();
        let cells = with_ratios((0..merged.len()).map(|k| cell(k, label)).collect());
        cells.iter().any(Option::is_some).then(|| FunctionRow {
            name: label.to_string(),
            library: None,
            causes: vec![None; cells.len()],
            cells,
            note: None,
        })
    })
    .collect();
    let total = FunctionRow {
        name: "total".into(),
        library: None,
        cells: with_ratios(
            merged
                .iter()
                .zip(typical)
                .map(|(m, t)| {
                    let samples = m.row.samples();
                    (samples > 0).then_some(FunctionCell {
                        samples,
                        share: 1.0,
                        inclusive: None,
                        ns: *t,
                        ratio: None,
                        part: None,
                    })
                })
                .collect(),
        ),
        causes: vec![None; merged.len()],
        note: None,
    };
    // Each note once, with every runtime it is true of.
    let mut said: Vec<(String, Vec<String>)> = Vec::new();
    let mut say = |text: String, rt: &str| {
        let rt = rt.to_string();
        match said.iter_mut().find(|(t, _)| *t == text) {
            Some((_, rts)) => rts.push(rt),
            None => said.push((text, vec![rt])),
        }
    };
    for (c, m) in runtimes.iter().zip(merged) {
        let rt = m.row.runtime.as_str();
        if let Some(why) = &c.unattributed {
            say(format!("not attributable: {why}"), rt);
        } else if c.few_samples {
            say(
                format!(
                    "only {} samples, fewer than {MIN_SAMPLES}: too few to rank functions (run more iterations or a larger --size)",
                    c.samples
                ),
                rt,
            );
        }
        if let Some(n) = &c.names {
            say(n.clone(), rt);
        }
        if c.unattributed.is_none()
            && let Some(why) = &m.row.counts_note
        {
            say(format!("no causes counted: {why}"), rt);
        }
        if c.unattributed.is_none()
            && let Some(why) = &m.row.checks_note
        {
            say(format!("no checks counted in its machine code: {why}"), rt);
        }
    }
    let mut notes: Vec<String> = said
        .into_iter()
        .map(|(text, rts)| format!("{}: {text}", rts.join(", ")))
        .collect();
    let renamed: BTreeSet<&str> = merged
        .iter()
        .flat_map(|m| m.row.stacks.keys())
        .flat_map(|s| s.split(';'))
        .filter(|f| canonical(f) != *f)
        .collect();
    if !renamed.is_empty() {
        notes.push(format!(
            "main is {} in some builds (wasi-libc's and the library build's names for the C main): joined as main",
            renamed.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    TestExplained {
        test: test.to_string(),
        runtimes,
        functions,
        outside,
        total,
        notes,
    }
}

/// A C library's own routine natively (glibc's): the guest's libc (wasi-libc) is another
/// implementation, so where it is missing it was never a function of that name there.
fn library_note(
    name: &str,
    library: &str,
    merged: &[Merged],
    cells: &[Option<FunctionCell>],
    attributable: &[bool],
) -> Option<String> {
    let missing: Vec<&str> = merged
        .iter()
        .enumerate()
        .filter(|(k, m)| {
            cells[*k].is_none() && attributable[*k] && !m.row.libraries.contains_key(name)
        })
        .map(|(_, m)| m.row.runtime.as_str())
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{library}'s routine natively; the guest's own C library (wasi-libc) differs, and {} ran none by that name",
            missing.join(", ")
        )
    })
}

/// Why a function has no samples in some columns: not in that build at all (its code was
/// inlined into its callers there), or present but never sampled.
fn absence_note(
    name: &str,
    merged: &[Merged],
    cells: &[Option<FunctionCell>],
    attributable: &[bool],
) -> Option<String> {
    let mut inlined = Vec::new();
    let mut unsampled = Vec::new();
    for (k, m) in merged.iter().enumerate() {
        if cells[k].is_some() || !attributable[k] {
            continue;
        }
        if m.functions.is_empty() {
            continue;
        }
        if m.functions.contains(name) {
            if !m.inclusive.contains_key(name) {
                unsampled.push(m.row.runtime.as_str());
            }
        } else {
            inlined.push(m.row.runtime.as_str());
        }
    }
    let mut words = Vec::new();
    if !inlined.is_empty() {
        words.push(format!(
            "no function of that name in the build on {}: inlined into its callers there, or the guest's own C library's",
            inlined.join(", ")
        ));
    }
    if !unsampled.is_empty() {
        words.push(format!(
            "present but not sampled on {}",
            unsampled.join(", ")
        ));
    }
    (!words.is_empty()).then(|| words.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::CodeChecks;

    /// Each invocation's row keeps the checks of the functions its samples named; merged,
    /// a function any invocation sampled has its checks, and the first note stands.
    #[test]
    fn merged_rows_keep_every_rows_checks() {
        let checks = |f: &str, indirect| {
            [(
                f.to_string(),
                CodeChecks {
                    indirect,
                    ..CodeChecks::default()
                },
            )]
            .into()
        };
        let a = ProfileRow {
            checks: checks("fe_mul", 1),
            ..ProfileRow::default()
        };
        let b = ProfileRow {
            checks: checks("__multi3", 2),
            checks_note: Some("why".into()),
            ..ProfileRow::default()
        };
        let m = merge(&[&a, &b]);
        assert_eq!(m.row.checks.len(), 2, "{:?}", m.row.checks);
        assert_eq!(m.row.checks["__multi3"].indirect, 2);
        assert_eq!(m.row.checks_note.as_deref(), Some("why"));
    }
}
