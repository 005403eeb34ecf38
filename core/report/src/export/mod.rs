//! Exports of runs and diffs, one file per format behind one trait (as hyperfine does).

pub mod csv;
pub use crate::text::csv_field;
mod hgrm;
pub use hgrm::{hgrm_files, percentile_distribution};
pub use markdown::diff_markdown;
mod folded;
mod html;
mod json;
mod markdown;

use crate::analysis::{
    Comparison, Diff, HeapSeries, HttpCell, Index, RunSummary, heap_series, http_cells,
};
use crate::store::{RunMeta, SampleRow, SavedRun};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tidy summary, one row per run/runtime/test/phase.
    Csv,
    /// Every number.
    Json,
    /// Tables to paste into issues.
    Markdown,
    /// One self-contained, offline page with charts.
    Html,
    /// A profiled run's stacks, folded (`test;runtime;frame;… count`): what speedscope,
    /// inferno and flamegraph.pl open.
    Folded,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        if s == "markdown" {
            return Ok(Format::Markdown);
        }
        Format::ALL
            .into_iter()
            .find(|f| f.extension() == s)
            .ok_or_else(|| {
                let known: Vec<&str> = Format::ALL.iter().map(|f| f.extension()).collect();
                format!("unknown format '{s}' (known: {})", known.join(", "))
            })
    }
}

impl Format {
    /// Every format, in the order front ends offer them (the CLI's `--format`, the TUI's
    /// and the desktop page's export dialogs all list these).
    pub const ALL: [Format; 5] = [
        Format::Csv,
        Format::Html,
        Format::Markdown,
        Format::Json,
        Format::Folded,
    ];

    /// The usual file extension, without the dot; also its name on the command line.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Folded => "folded",
        }
    }

    /// Its name in a dialog.
    pub fn label(self) -> &'static str {
        match self {
            Format::Csv => "CSV",
            Format::Json => "JSON",
            Format::Markdown => "Markdown",
            Format::Html => "HTML",
            Format::Folded => "Folded stacks",
        }
    }

    /// What it holds, in a few words.
    pub fn what(self) -> &'static str {
        match self {
            Format::Csv => "tidy summary, one row per runtime/test/phase",
            Format::Json => "every number",
            Format::Markdown => "tables for an issue or a pull request",
            Format::Html => "one offline page with the matrix, charts and tables",
            Format::Folded => "a profiled run's stacks for speedscope, inferno or flamegraph.pl",
        }
    }
}

/// A format as a front end lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FormatInfo {
    /// What the export command takes (`csv`, `md`, …): also the file extension.
    pub id: String,
    /// Its name in a dialog.
    pub label: String,
    /// What it holds.
    pub what: String,
}

/// Every format as front ends list it, in [`Format::ALL`]'s order.
pub fn formats() -> Vec<FormatInfo> {
    Format::ALL
        .iter()
        .map(|f| FormatInfo {
            id: f.extension().into(),
            label: f.label().into(),
            what: f.what().into(),
        })
        .collect()
}

/// One run as exported: its metadata, summary, per-iteration values and samples.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunData<'a> {
    /// Metadata (flattened: id, label, suite, machine, runtimes, settings, ...).
    #[serde(flatten)]
    pub meta: &'a RunMeta,
    /// The summary.
    pub summary: RunSummary,
    /// The sentence to read first ([`crate::analysis::run_headline`]), the same in every
    /// front end.
    pub headline: String,
    /// Primary per-iteration values of each cell.
    pub distributions: Vec<Distribution>,
    /// Live samples (thinned to at most [`MAX_SAMPLES`]).
    pub samples: Vec<&'a SampleRow>,
    /// Lifecycle suite: each measurement against initial heap size, per runtime and fill.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heap_series: Vec<HeapSeries>,
    /// HTTP suites: cold start, latency and the throughput curve of each cell.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub http: Vec<HttpCell>,
    /// Each cell's peak resident memory and compiled artifact (beside the tests' module
    /// and native sizes in the metadata: the size tables).
    pub cell_sizes: Vec<crate::analysis::CellSizes>,
    /// A profiled run (`run --profile`): where each cell's time went, and its flame graphs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<crate::explain::report::ProfileReport>,
}

/// The primary values of one cell.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Distribution {
    /// Runtime id.
    pub runtime: String,
    /// Test name.
    pub test: String,
    /// Values, ns.
    pub values: Vec<f64>,
}

/// At most this many samples per run go into a report: enough for a smooth graph.
pub const MAX_SAMPLES: usize = 4000;

/// Whether an export of `runs` runs is their comparison rather than one run or a diff of
/// two: when asked for, and always for more than two (every front end's one rule).
pub fn is_comparison(runs: usize, asked: bool) -> bool {
    asked || runs > 2
}

/// Everything an exporter writes.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Report<'a> {
    /// Title.
    pub title: String,
    /// wasmeter and its version.
    pub generated_by: String,
    /// One or two runs.
    pub runs: Vec<RunData<'a>>,
    /// The diff of the two runs, when there are two.
    pub diff: Option<Diff>,
    /// The diff's sentence to read first ([`crate::analysis::diff_headline`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff_headline: Option<String>,
    /// Many runs side by side (`export RUN RUN RUN…`), each relative to its own run's
    /// reference runtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Comparison>,
    /// One run of the features suite: what it answers, the support matrix, which the CSV,
    /// Markdown and HTML exports write instead of times.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<crate::features::Matrix>,
    /// One run with a sweep (`run --set`): its parameter scan, which the Markdown and HTML
    /// exports draw after the run's tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<crate::analysis::Sweep>,
}

impl<'a> Report<'a> {
    /// A report of runs with their summaries (and a diff when comparing two).
    pub fn new(runs: Vec<(&'a SavedRun, RunSummary)>, diff: Option<Diff>) -> Report<'a> {
        let (features, sweep) = match runs.as_slice() {
            [(run, summary)] => (
                crate::features::Matrix::from_run(run).ok(),
                crate::analysis::sweep(run, summary),
            ),
            _ => (None, None),
        };
        let runs = runs
            .into_iter()
            .map(|(run, summary)| {
                let index = Index::of_run(run);
                let distributions = summary
                    .cells
                    .iter()
                    .filter(|c| c.failure.is_none())
                    .filter_map(|c| {
                        index
                            .primary(&c.runtime, &c.test)
                            .map(|(v, _, _)| Distribution {
                                runtime: c.runtime.clone(),
                                test: c.test.clone(),
                                values: v.values.to_vec(),
                            })
                    })
                    .collect();
                let step = run.samples.len().div_ceil(MAX_SAMPLES).max(1);
                let http = if run.meta.suite_kind.is_http() {
                    http_cells(run, &summary.baseline)
                } else {
                    Vec::new()
                };
                RunData {
                    meta: &run.meta,
                    headline: crate::analysis::run_headline(&summary),
                    profile: crate::explain::report::report(run),
                    cell_sizes: crate::analysis::cell_sizes(run),
                    http,
                    heap_series: heap_series(&summary),
                    summary,
                    distributions,
                    samples: run.samples.iter().step_by(step).collect(),
                }
            })
            .collect();
        Report {
            title: "wasmeter report".into(),
            generated_by: format!("wasmeter {}", crate::VERSION),
            runs,
            diff_headline: diff.as_ref().map(crate::analysis::diff_headline),
            diff,
            comparison: None,
            features,
            sweep,
        }
    }

    /// The report with the runs' comparison, which every format then leads with.
    pub fn with_comparison(mut self, comparison: Comparison) -> Report<'a> {
        self.title = format!(
            "wasmeter: {} runs of {} compared",
            comparison.columns.len(),
            comparison.suite
        );
        self.comparison = Some(comparison);
        self
    }
}

/// Writes a report in one format.
pub trait Exporter {
    /// Writes the whole report.
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()>;
}

/// The exporter of a format.
pub fn exporter(format: Format) -> Box<dyn Exporter> {
    match format {
        Format::Csv => Box::new(csv::CsvExporter),
        Format::Json => Box::new(json::JsonExporter),
        Format::Markdown => Box::new(markdown::MarkdownExporter),
        Format::Html => Box::new(html::HtmlExporter),
        Format::Folded => Box::new(folded::FoldedExporter),
    }
}

/// Why an export could not be written.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct ExportError {
    /// Output file.
    pub path: PathBuf,
    /// Underlying error.
    pub source: std::io::Error,
}

/// Writes a report to `path` atomically: a reader never sees half a file, and an existing
/// file is replaced only by a complete one.
pub fn export_to(format: Format, report: &Report, path: &Path) -> Result<(), ExportError> {
    let err = |source| ExportError {
        path: path.to_path_buf(),
        source,
    };
    let mut buf = Vec::with_capacity(1 << 16);
    exporter(format).write(report, &mut buf).map_err(err)?;
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, &buf).map_err(err)?;
    std::fs::rename(&tmp, path).map_err(err)
}
