//! Many runs side by side (`wasmeter compare RUN…`): one matrix of runtime × test × run,
//! each figure relative to its own run's reference runtime (native by default), so runs
//! from different machines compare by how each runtime does against the same baseline
//! there, with each figure's 95 % interval. Runs of different suites are refused; runs
//! of different plans, machines or runtime versions are compared but said to differ.

use super::stats::Stats;
use super::summary::{Index, RunSummary, summarize};
use crate::model::{Metric, Phase};
use crate::store::SavedRun;
use serde::Serialize;

/// How a comparison is made.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareOptions {
    /// Each run's figures relative to this runtime of the same run; `None`: times as
    /// measured (only meaningful on one machine).
    pub normalize: Option<String>,
    /// Columns named by machine rather than by run.
    pub by_machine: bool,
}

/// The runtime each run's figures are taken relative to when the user names none: a
/// comparison spans machines, and each run's own native cancels what differs between them.
pub const COMPARE_NORMALIZE: &str = "native";

impl Default for CompareOptions {
    /// Each run relative to its own native, columns by run: `wasmeter compare`'s, the
    /// TUI's and the desktop page's until the user switches.
    fn default() -> CompareOptions {
        CompareOptions::new(None, None)
    }
}

impl CompareOptions {
    /// The options as every front end takes them: `normalize` a runtime or `none` (times
    /// as measured), [`COMPARE_NORMALIZE`] when absent; columns by machine or, when absent,
    /// by run.
    pub fn new(normalize: Option<&str>, by_machine: Option<bool>) -> CompareOptions {
        let normalize = normalize.unwrap_or(COMPARE_NORMALIZE);
        CompareOptions {
            normalize: (normalize != "none").then(|| normalize.to_string()),
            by_machine: by_machine.unwrap_or(false),
        }
    }
}

/// Runs that cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// Fewer than two runs.
    #[error("compare takes at least two runs, {0} given")]
    TooFew(usize),
    /// Runs of different suites.
    #[error("runs of different suites cannot be compared: {0}")]
    Suites(String),
}

/// One run as a column of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CompareColumn {
    /// The column's title: the run id, or the machine (CPU, architecture, OS).
    pub title: String,
    /// Run id.
    pub run: String,
    /// Machine fingerprint.
    pub machine: String,
    /// The plan the run came from, if any.
    pub plan_hash: Option<String>,
}

/// One runtime × test × run figure.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CompareCell {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Index into [`Comparison::columns`].
    pub column: usize,
    /// Relative to the column's reference runtime; without one, the typical time in ns (the
    /// geometric mean over invocations that the interval is of).
    pub value: Option<f64>,
    /// Low end of its 95 % interval.
    pub low: Option<f64>,
    /// High end of its 95 % interval.
    pub high: Option<f64>,
    /// Why there is no value (failed, not run, not comparable).
    pub note: Option<String>,
}

/// Many runs side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Comparison {
    /// The suite all runs are of.
    pub suite: String,
    /// What the values are: relative to a runtime of each run, or typical times.
    pub unit: String,
    /// One column per run, in the order given.
    pub columns: Vec<CompareColumn>,
    /// Runtimes in first-seen order.
    pub runtimes: Vec<String>,
    /// Tests in first-seen order.
    pub tests: Vec<String>,
    /// Cells, test-major then runtime then column.
    pub cells: Vec<CompareCell>,
    /// Per runtime and column: the geometric mean of the relative figures (normalised only).
    pub geomeans: Vec<(String, Vec<Option<f64>>)>,
    /// What differs between the runs: plans, machines, runtime versions.
    pub warnings: Vec<String>,
}

/// Puts `runs` side by side.
pub fn compare_runs(runs: &[SavedRun], opts: &CompareOptions) -> Result<Comparison, CompareError> {
    if runs.len() < 2 {
        return Err(CompareError::TooFew(runs.len()));
    }
    let suite = runs[0].meta.suite.clone();
    let others: Vec<String> = runs
        .iter()
        .filter(|r| r.meta.suite != suite)
        .map(|r| format!("{} is '{}'", r.meta.id, r.meta.suite))
        .collect();
    if !others.is_empty() {
        return Err(CompareError::Suites(format!(
            "{} is '{suite}', {}",
            runs[0].meta.id,
            others.join(", ")
        )));
    }
    let summaries: Vec<RunSummary> = runs
        .iter()
        .map(|r| summarize(r, opts.normalize.as_deref()))
        .collect();
    let columns = columns_of(runs, opts.by_machine);
    let mut runtimes: Vec<String> = Vec::new();
    let mut tests: Vec<String> = Vec::new();
    for s in &summaries {
        for rt in &s.runtimes {
            if !runtimes.contains(rt) {
                runtimes.push(rt.clone());
            }
        }
        for t in &s.tests {
            if !tests.contains(t) {
                tests.push(t.clone());
            }
        }
    }
    let mut cells = Vec::new();
    for test in &tests {
        for rt in &runtimes {
            for (column, s) in summaries.iter().enumerate() {
                let c = s.cell(rt, test);
                let (value, low, high, note) = match c {
                    None => (None, None, None, Some("not in this run".to_string())),
                    Some(c) if c.failure.is_some() => (None, None, None, c.failure.clone()),
                    Some(c) if opts.normalize.is_some() => (
                        c.relative,
                        c.relative_low,
                        c.relative_high,
                        c.relative.is_none().then(|| {
                            c.note
                                .clone()
                                .unwrap_or_else(|| format!("no {} in this run", s.baseline))
                        }),
                    ),
                    Some(c) => match c.stats {
                        Some(st) => (Some(st.typical()), st.ci_low, st.ci_high, None),
                        None => (None, None, None, Some("no values".to_string())),
                    },
                };
                cells.push(CompareCell {
                    runtime: rt.clone(),
                    test: test.clone(),
                    column,
                    value,
                    low,
                    high,
                    note,
                });
            }
        }
    }
    // HTTP runs: latency at each offered rate is a row of its own, like any other figure
    // (kept out of the geometric means, which are of the tests' primary figures).
    rate_rows(
        runs,
        &runtimes,
        &mut tests,
        &mut cells,
        opts.normalize.as_deref(),
    );
    let geomeans = if opts.normalize.is_some() {
        runtimes
            .iter()
            .map(|rt| {
                let per: Vec<Option<f64>> = summaries
                    .iter()
                    .map(|s| {
                        s.per_runtime
                            .iter()
                            .find(|r| &r.runtime == rt)
                            .and_then(|r| r.geomean_relative)
                    })
                    .collect();
                (rt.clone(), per)
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Comparison {
        suite,
        unit: match &opts.normalize {
            Some(n) => format!("relative to {n} of the same run"),
            None => "typical time (geometric mean over invocations; the median where there is one invocation)".into(),
        },
        columns,
        runtimes,
        tests,
        cells,
        geomeans,
        warnings: differences(runs, opts),
    })
}

/// One column per run, titled by run id or machine; two runs of one machine keep apart by
/// their run ids.
fn columns_of(runs: &[SavedRun], by_machine: bool) -> Vec<CompareColumn> {
    let mut columns = Vec::new();
    for r in runs {
        let m = &r.meta.machine;
        let title = if by_machine {
            format!("{} {} ({})", m.cpu_model, m.arch, m.os)
        } else {
            r.meta.id.clone()
        };
        columns.push(CompareColumn {
            title,
            run: r.meta.id.clone(),
            machine: m.fingerprint.clone(),
            plan_hash: r.meta.settings.plan_hash.clone(),
        });
    }
    let titles: Vec<String> = columns.iter().map(|c| c.title.clone()).collect();
    for c in &mut columns {
        if titles.iter().filter(|t| **t == c.title).count() > 1 && c.title != c.run {
            c.title = format!("{} {}", c.title, c.run);
        }
    }
    columns
}

/// The rows of an HTTP run's latency at each offered rate, added after the tests'.
fn rate_rows(
    runs: &[SavedRun],
    runtimes: &[String],
    tests: &mut Vec<String>,
    cells: &mut Vec<CompareCell>,
    normalize: Option<&str>,
) {
    let indexes: Vec<Index> = runs.iter().map(Index::of_run).collect();
    for test in tests.clone() {
        let mut rates: Vec<u32> = indexes
            .iter()
            .flat_map(|ix| runtimes.iter().flat_map(|rt| ix.phases(rt, &test)))
            .filter_map(|p| p.rate())
            .collect();
        rates.sort_unstable();
        rates.dedup();
        for rate in rates {
            let row = format!(
                "{test} p99 at {}",
                crate::format::format_rate(f64::from(rate))
            );
            for rt in runtimes {
                for (column, ix) in indexes.iter().enumerate() {
                    let (value, low, high, note) =
                        rate_figure(ix, rt, &test, Phase::Rate(rate), normalize);
                    cells.push(CompareCell {
                        runtime: rt.clone(),
                        test: row.clone(),
                        column,
                        value,
                        low,
                        high,
                        note,
                    });
                }
            }
            tests.push(row);
        }
    }
}

/// What differs between the runs, each said once.
fn differences(runs: &[SavedRun], opts: &CompareOptions) -> Vec<String> {
    let mut out = Vec::new();
    let plans: Vec<String> = runs
        .iter()
        .map(|r| {
            r.meta
                .settings
                .plan_hash
                .clone()
                .unwrap_or_else(|| "none".into())
        })
        .collect();
    if plans.iter().any(|p| *p != plans[0]) {
        out.push(format!(
            "the runs come from different plans ({}): their settings may differ",
            runs.iter()
                .zip(&plans)
                .map(|(r, p)| format!("{}: {p}", r.meta.id))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let machines: Vec<&str> = runs
        .iter()
        .map(|r| r.meta.machine.fingerprint.as_str())
        .collect();
    if machines.iter().any(|m| *m != machines[0]) {
        out.push(if opts.normalize.is_some() {
            "the runs are from different machines: each figure is relative to its own run's reference, times are not compared".into()
        } else {
            "the runs are from different machines and times are compared as measured (--normalize none): they say as much about the machines as about the runtimes".into()
        });
    }
    let mut versions: Vec<String> = Vec::new();
    for r in runs {
        for info in &r.meta.runtimes {
            let other = runs.iter().find_map(|o| {
                o.meta
                    .runtimes
                    .iter()
                    .find(|i| i.id == info.id && i.version != info.version)
            });
            if let Some(o) = other {
                let line = format!(
                    "{} differs in version between runs ({} and {})",
                    info.id, info.version, o.version
                );
                if !versions
                    .iter()
                    .any(|v| v.starts_with(&format!("{} ", info.id)))
                {
                    versions.push(line);
                }
            }
        }
    }
    out.extend(versions);
    out
}

/// A cell's corrected p99 at an offered rate: typical value and interval, relative to
/// `normalize` of the same run when given; or why there is none.
fn rate_figure(
    ix: &Index,
    rt: &str,
    test: &str,
    phase: Phase,
    normalize: Option<&str>,
) -> (Option<f64>, Option<f64>, Option<f64>, Option<String>) {
    let p99 = |rt: &str| {
        ix.groups(rt, test, phase, Metric::P99Ns)
            .and_then(|g| Stats::of(&g))
    };
    if ix.get(rt, test, phase, Metric::GeneratorBoundRps).is_some() {
        return (None, None, None, Some("beyond the load generator".into()));
    }
    let Some(st) = p99(rt) else {
        return (None, None, None, Some("not offered this rate".into()));
    };
    let scale = match normalize {
        None => 1.0,
        Some(base) => match p99(base) {
            Some(b) if b.typical() > 0.0 => b.typical(),
            _ => return (None, None, None, Some(format!("no {base} at this rate"))),
        },
    };
    (
        Some(st.typical() / scale),
        st.ci_low.map(|v| v / scale),
        st.ci_high.map(|v| v / scale),
        None,
    )
}
