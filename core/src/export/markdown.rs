//! Markdown: tables to paste into an issue or a pull request, the same tables as `wasmeter
//! diff` and `wasmeter show --phases` print ([`crate::table`]), with the run's settings.

use super::{Exporter, Report};
use crate::analysis::RunSummary;
use crate::suite::SuiteKind;
use crate::table::{
    compare_table, diff_table, escape_markdown as cell, http_tables, lifecycle_tables,
    phases_table, startup_corrected_table, summary_table,
};
use std::io::Write;

/// Writes GitHub-flavoured Markdown.
pub struct MarkdownExporter;

impl Exporter for MarkdownExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(c) = &report.comparison {
            writeln!(
                out,
                "## {} runs of {} compared\n",
                c.columns.len(),
                cell(&c.suite)
            )?;
            write!(out, "{}", compare_table(c).to_markdown())?;
        }
        if let Some(d) = &report.diff {
            writeln!(out, "## Diff: {} → {}\n", cell(&d.a), cell(&d.b))?;
            for w in &d.warnings {
                writeln!(out, "> **Warning:** {}", cell(w))?;
            }
            if !d.warnings.is_empty() {
                writeln!(out)?;
            }
            writeln!(out, "{}\n\n{}\n", d.counts(), cell(&d.method()))?;
            write!(out, "{}", diff_table(d).to_markdown())?;
        }
        for run in &report.runs {
            let m = run.meta;
            let s = &run.summary;
            writeln!(
                out,
                "## Run {}{}\n",
                cell(&m.id),
                m.label
                    .as_deref()
                    .map(|l| format!(" — {}", cell(l)))
                    .unwrap_or_default()
            )?;
            writeln!(
                out,
                "Suite `{}` ({}), {} invocation(s) × ({} warm-up + {} runs), {} order, {}. Machine: {} ({} cores), {}, kernel {}.\n",
                cell(&m.suite),
                m.settings.size,
                m.settings.invocations,
                m.settings.warmup,
                m.settings.runs,
                m.settings.order,
                m.status,
                cell(&m.machine.cpu_model),
                m.machine.cores,
                cell(&m.machine.os),
                cell(&m.machine.kernel)
            )?;
            for na in &m.not_applicable {
                writeln!(out, "- {} — {}", cell(&na.runtime), cell(&na.why))?;
            }
            if !m.not_applicable.is_empty() {
                writeln!(out)?;
            }
            let tables = if m.suite_kind == SuiteKind::Lifecycle {
                writeln!(
                    out,
                    "Per operation: median (p99) over the samples; each sample times a batch of operations as one.\n"
                )?;
                lifecycle_tables(s, true)
            } else if m.suite_kind.is_http() {
                http_tables(&run.http, &s.baseline)
            } else {
                let mut t = vec![summary_table(s), phases_table(s, None)];
                t.extend(startup_corrected_table(s));
                t
            };
            for t in tables {
                write!(out, "{}", t.to_markdown())?;
            }
            write_failures(out, s)?;
        }
        Ok(())
    }
}

fn write_failures(out: &mut dyn Write, s: &RunSummary) -> std::io::Result<()> {
    let failed: Vec<_> = s.cells.iter().filter(|c| c.failure.is_some()).collect();
    if !failed.is_empty() {
        writeln!(out, "Failed cells:\n")?;
        for c in failed {
            writeln!(
                out,
                "- {} × {}: {}",
                cell(&c.runtime),
                cell(&c.test),
                cell(c.failure.as_deref().unwrap_or(""))
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}
