//! Exports of runs and diffs, one file per format behind one trait (as hyperfine does).

mod csv;
mod html;
mod http_tables;
mod json;
mod markdown;

pub use http_tables::{TextTable, http_tables};

use crate::analysis::{
    CellSummary, Diff, DiffRow, HeapSeries, HttpCell, Index, RunSummary, RuntimeSummary, Unit,
    heap_series, http_cells,
};
use crate::store::{RunMeta, SampleRow, SavedRun};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A duration in ns as a short human string (`1.23 ms`).
pub fn format_ns(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// A count as a short human string with its unit (`1.23G instr`).
pub fn format_count(n: f64, unit: &str) -> String {
    let (v, prefix) = if n >= 1e9 {
        (n / 1e9, "G")
    } else if n >= 1e6 {
        (n / 1e6, "M")
    } else if n >= 1e3 {
        (n / 1e3, "k")
    } else {
        (n, "")
    };
    format!("{v:.3}{prefix} {unit}")
}

/// A byte count as a short human string (`1.5 KiB`, `12.0 MiB`, `-300 B`).
pub fn format_bytes(b: f64) -> String {
    let a = b.abs();
    if a >= (1u64 << 30) as f64 {
        format!("{:.2} GiB", b / (1u64 << 30) as f64)
    } else if a >= (1 << 20) as f64 {
        format!("{:.1} MiB", b / (1 << 20) as f64)
    } else if a >= 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{b:.0} B")
    }
}

/// A rate per second as a short human string (`12.3k/s`).
pub fn format_rate(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.2}M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1}k/s", r / 1e3)
    } else {
        format!("{r:.0}/s")
    }
}

/// A memory size that is a whole number of KiB or MiB, as such (`64 KiB`, `16 MiB`).
pub fn format_size(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes >> 10)
    } else {
        format_bytes(bytes as f64)
    }
}

/// A value in its unit, shortly; times under 100 ns keep a decimal (a call takes ~10 ns).
pub fn format_value(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Ns if v.abs() < 100.0 => format!("{v:.1} ns"),
        Unit::Ns => format_ns(v),
        Unit::Bytes => format_bytes(v),
        Unit::PerSec => format_rate(v),
    }
}

/// Column titles of a diff as text, the same in the CLI, the TUI and Markdown.
pub const DIFF_HEADER: [&str; 7] = [
    "runtime",
    "test",
    "phase",
    "A",
    "B",
    "B/A [95% CI] ±noise",
    "verdict",
];

/// A diff row's verdict with why, when the row says (`insufficient data (1 invocation(s) in
/// A, 2 needed)`).
pub fn format_verdict(r: &DiffRow) -> String {
    match &r.note {
        Some(n) => format!("{} ({n})", r.verdict),
        None => r.verdict.to_string(),
    }
}

/// A diff row's ratio with its interval and the smallest change it could detect
/// (`1.034 [1.012, 1.057] ±2.2 %`), or why it has none; the same text in every front end.
pub fn format_ratio(r: &DiffRow) -> String {
    match (r.ratio, r.ci_low, r.ci_high, r.halfwidth_pct) {
        (Some(x), Some(lo), Some(hi), Some(h)) => format!("{x:.3} [{lo:.3}, {hi:.3}] ±{h:.1} %"),
        (Some(x), ..) => format!("{x:.3} (no interval)"),
        _ => "–".into(),
    }
}

/// A summary cell's median with its noise and relative time (`12.3 ms ±1.2 % (1.05×)`),
/// marked when partial; the same text in every front end.
pub fn format_cell(c: &CellSummary) -> String {
    let Some(st) = c.stats else {
        return if c.failure.is_some() {
            "failed".into()
        } else {
            "–".into()
        };
    };
    let mut text = if c.source == "instructions" {
        format_count(st.median, "instr")
    } else {
        format_ns(st.median)
    };
    if let Some(h) = c.halfwidth_pct {
        text.push_str(&format!(" ±{h:.1} %"));
    }
    if let Some(r) = c.relative {
        text.push_str(&format!(" ({r:.2}×)"));
    }
    if c.partial {
        text.push_str(" partial");
    }
    text
}

/// A runtime's geometric mean, naming how many tests it covers when that is not all of
/// them (`1.23×`, `1.23× (12 of 15 tests)`).
pub fn format_geomean(r: &RuntimeSummary) -> String {
    match r.geomean_relative {
        Some(g) if r.tests_total > 0 && r.tests_compared < r.tests_total => {
            format!("{g:.2}× ({} of {} tests)", r.tests_compared, r.tests_total)
        }
        Some(g) => format!("{g:.2}×"),
        None => "–".into(),
    }
}

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
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            "md" | "markdown" => Ok(Format::Markdown),
            "html" => Ok(Format::Html),
            other => Err(format!(
                "unknown format '{other}' (known: csv, json, md, html)"
            )),
        }
    }
}

impl Format {
    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Markdown => "md",
            Format::Html => "html",
        }
    }
}

/// One run as exported: its metadata, summary, per-iteration values and samples.
#[derive(Debug, Serialize)]
pub struct RunData<'a> {
    /// Metadata (flattened: id, label, suite, machine, runtimes, settings, ...).
    #[serde(flatten)]
    pub meta: &'a RunMeta,
    /// The summary.
    pub summary: RunSummary,
    /// Primary per-iteration values of each cell.
    pub distributions: Vec<Distribution>,
    /// Live samples (thinned to at most [`MAX_SAMPLES`]).
    pub samples: Vec<&'a SampleRow>,
    /// Lifecycle suite: each measurement against initial heap size, per runtime and fill.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub heap_series: Vec<HeapSeries>,
    /// HTTP suites: cold start, latency and the throughput curve of each cell.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub http: Vec<HttpCell>,
}

/// The primary values of one cell.
#[derive(Debug, Serialize)]
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

/// Everything an exporter writes.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// Title.
    pub title: String,
    /// wasmeter and its version.
    pub generated_by: String,
    /// One or two runs.
    pub runs: Vec<RunData<'a>>,
    /// The diff of the two runs, when there are two.
    pub diff: Option<Diff>,
}

impl<'a> Report<'a> {
    /// A report of runs with their summaries (and a diff when comparing two).
    pub fn new(runs: Vec<(&'a SavedRun, RunSummary)>, diff: Option<Diff>) -> Report<'a> {
        let runs = runs
            .into_iter()
            .map(|(run, summary)| {
                let index = Index::new(&run.measurements);
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
            diff,
        }
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
