//! The feature matrix: which runtime supports which WebAssembly proposal or WASI call, read
//! from a run of the `features` suite (one probe module per feature), so the answer to "does
//! it run my module at all?" is a saved, diffable run measured like any other.

mod render;
mod uses;

pub use render::{render_csv, render_diff, table};
pub use uses::{PROPOSALS, used_by};

use crate::model::{FLAGGED, Failure, feature_flag};
use crate::store::SavedRun;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The suite of probes.
pub const SUITE: &str = "features";

/// A run that is not of the features suite.
#[derive(Debug, thiserror::Error)]
#[error("run {run} is of suite '{suite}', not '{SUITE}': run `wasmeter features` for a matrix")]
pub struct NotAFeaturesRun {
    /// Run id.
    pub run: String,
    /// Its suite.
    pub suite: String,
}

/// One runtime × feature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "support", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "FeatureSupport"))]
pub enum Support {
    /// The probe ran and printed its known answer.
    Yes,
    /// The probe failed; the engine's own message, one line.
    No {
        /// Why.
        message: String,
    },
    /// The probe failed as the runtime comes, and passed with this flag.
    NeedsFlag {
        /// The words that turn it on.
        flag: String,
        /// The failure without it.
        message: String,
    },
    /// The suite does not apply to the runtime.
    NotApplicable {
        /// Why.
        reason: String,
    },
    /// The run ended before this cell ran.
    NotRun,
}

impl Support {
    /// The grid's mark.
    pub fn mark(&self) -> &'static str {
        match self {
            Support::Yes => "✓",
            Support::No { .. } => "✗",
            Support::NeedsFlag { .. } => "flag",
            Support::NotApplicable { .. } => "n/a",
            Support::NotRun => "-",
        }
    }

    /// What a reader needs beside the mark: the message, the flag or the reason.
    pub fn detail(&self) -> String {
        match self {
            Support::Yes | Support::NotRun => String::new(),
            Support::No { message } => message.clone(),
            Support::NeedsFlag { flag, message } => format!("needs {flag} (without: {message})"),
            Support::NotApplicable { reason } => reason.clone(),
        }
    }
}

/// A runtime's column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "FeatureColumn"))]
pub struct Column {
    /// Runtime id.
    pub runtime: String,
    /// Its version as the run recorded it.
    pub version: String,
}

/// A feature's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "FeatureRow"))]
pub struct Row {
    /// The probe's name (`simd`, `wasi-poll`…), a test of the features suite.
    pub feature: String,
    /// One per column.
    pub cells: Vec<Support>,
}

/// The matrix of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "FeatureMatrix"))]
pub struct Matrix {
    /// The run it was read from.
    pub run: String,
    /// Where it ran: CPU, cores, OS.
    pub machine: String,
    /// When, seconds since the Unix epoch.
    pub started_unix: f64,
    /// Runtimes, in the run's order (the `+flags` variants folded into their runtime).
    pub columns: Vec<Column>,
    /// Features, in the suite's order.
    pub rows: Vec<Row>,
}

impl Matrix {
    /// Reads the matrix from a run of the features suite.
    pub fn from_run(run: &SavedRun) -> Result<Matrix, NotAFeaturesRun> {
        let meta = &run.meta;
        if meta.suite != SUITE {
            return Err(NotAFeaturesRun {
                run: meta.id.clone(),
                suite: meta.suite.clone(),
            });
        }
        let mut columns: Vec<Column> = meta
            .runtimes
            .iter()
            .filter(|r| !r.id.ends_with(FLAGGED))
            .map(|r| Column {
                runtime: r.id.clone(),
                version: r.version.clone(),
            })
            .collect();
        columns.extend(
            meta.not_applicable
                .iter()
                .filter(|n| n.test.is_none() && !n.runtime.ends_with(FLAGGED))
                .map(|n| Column {
                    runtime: n.runtime.clone(),
                    version: "-".into(),
                }),
        );
        let outcome = |rt: &str, test: &str| -> Option<Option<&Failure>> {
            let mut seen = run
                .cells
                .iter()
                .filter(|c| c.runtime == rt && c.test == test)
                .peekable();
            seen.peek()?;
            Some(seen.find_map(|c| c.failure.as_ref()))
        };
        let rows = meta
            .tests
            .iter()
            .map(|t| Row {
                feature: t.name.clone(),
                cells: columns
                    .iter()
                    .map(|c| {
                        if let Some(n) = meta
                            .not_applicable
                            .iter()
                            .find(|n| n.covers(&c.runtime, &t.name))
                        {
                            return Support::NotApplicable {
                                reason: n.why.clone(),
                            };
                        }
                        match outcome(&c.runtime, &t.name) {
                            None => Support::NotRun,
                            Some(None) => Support::Yes,
                            Some(Some(f)) => {
                                let message = one_line(f);
                                let flagged = format!("{}{FLAGGED}", c.runtime);
                                match (
                                    feature_flag(&c.runtime, &t.name),
                                    outcome(&flagged, &t.name),
                                ) {
                                    (Some(flag), Some(None)) => {
                                        Support::NeedsFlag { flag, message }
                                    }
                                    _ => Support::No { message },
                                }
                            }
                        }
                    })
                    .collect(),
            })
            .collect();
        let m = &meta.machine;
        Ok(Matrix {
            run: meta.id.clone(),
            machine: format!("{}, {} cores, {}", m.cpu_model, m.cores, m.os),
            started_unix: meta.started_unix,
            columns,
            rows,
        })
    }

    /// The support of `runtime` for `feature`, if both are in the matrix.
    pub fn get(&self, runtime: &str, feature: &str) -> Option<&Support> {
        let c = self.columns.iter().position(|c| c.runtime == runtime)?;
        self.rows
            .iter()
            .find(|r| r.feature == feature)?
            .cells
            .get(c)
    }

    /// What changed from `self` to `other`: every runtime × feature in both whose mark
    /// differs, with both sides.
    pub fn diff<'a>(&'a self, other: &'a Matrix) -> Vec<Change<'a>> {
        let mut out = Vec::new();
        for row in &self.rows {
            for (c, a) in self.columns.iter().zip(&row.cells) {
                if let Some(b) = other.get(&c.runtime, &row.feature)
                    && a.mark() != b.mark()
                {
                    out.push(Change {
                        runtime: &c.runtime,
                        feature: &row.feature,
                        before: a,
                        after: b,
                    });
                }
            }
        }
        out
    }
}

/// The newest matrix saved in `results` (run ids start with their time, so the greatest
/// name of a features run), if any loads.
pub fn latest(results: &Path) -> Option<Matrix> {
    let marker = format!("-{SUITE}-");
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(results)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&marker))
        })
        .collect();
    dirs.sort();
    dirs.iter()
        .rev()
        .find_map(|d| Matrix::from_run(&crate::store::load_run(d).ok()?).ok())
}

impl Matrix {
    /// Why a cell of `runtime` on a module using `used` proposals may have failed: the
    /// used features this matrix says the runtime lacks (or needs a flag for), one clause.
    pub fn explain(&self, runtime: &str, used: &[&str]) -> Option<String> {
        let lacks: Vec<String> = used
            .iter()
            .filter_map(|f| match self.get(runtime, f)? {
                Support::No { .. } => Some((*f).to_string()),
                Support::NeedsFlag { flag, .. } => Some(format!("{f} (needs {flag})")),
                _ => None,
            })
            .collect();
        (!lacks.is_empty()).then(|| {
            format!(
                "the module uses {}, which {runtime} lacks in the feature matrix of run {}",
                lacks.join(", "),
                self.run
            )
        })
    }
}

/// One cell that differs between two matrices.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change<'a> {
    /// Runtime id.
    pub runtime: &'a str,
    /// Feature.
    pub feature: &'a str,
    /// In the first matrix.
    pub before: &'a Support,
    /// In the second.
    pub after: &'a Support,
}

/// A failure as one line, a module's path shortened to its file name (the probe is named by
/// its row already).
fn one_line(f: &Failure) -> String {
    let text = f.to_string();
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    first
        .split(' ')
        .map(|w| match w.rfind('/') {
            Some(i) if w.contains(".wasm") => &w[i + 1..],
            _ => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_one_line_without_the_modules_folder() {
        let f = Failure::Other(
            "/work/suites/features/wasm/gc.wasm: not a valid module: gc support is disabled\n  at offset 4".into(),
        );
        assert_eq!(
            one_line(&f),
            "error: gc.wasm: not a valid module: gc support is disabled"
        );
    }
}
