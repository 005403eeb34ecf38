//! Markdown: tables to paste into an issue or a pull request.

use super::{
    Exporter, Report, format_cell, format_geomean, format_ns, format_ratio, format_value,
    format_verdict, http_tables,
};
use crate::analysis::{MEASURES, RunSummary};
use crate::suite::SuiteKind;
use std::io::Write;

/// Writes GitHub-flavoured Markdown.
pub struct MarkdownExporter;

/// Text safe inside a Markdown table cell: no column breaks, no raw HTML.
fn cell(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

impl Exporter for MarkdownExporter {
    fn write(&self, report: &Report, out: &mut dyn Write) -> std::io::Result<()> {
        if let Some(d) = &report.diff {
            writeln!(out, "## Diff: {} → {}\n", cell(&d.a), cell(&d.b))?;
            for w in &d.warnings {
                writeln!(out, "> **Warning:** {}", cell(w))?;
            }
            if !d.warnings.is_empty() {
                writeln!(out)?;
            }
            writeln!(out, "{}\n\n{}\n", d.counts(), cell(&d.method()))?;
            writeln!(
                out,
                "| runtime | test | phase | A | B | B/A [95 % CI] ±noise | verdict |"
            )?;
            writeln!(out, "| --- | --- | --- | ---: | ---: | ---: | --- |")?;
            for r in &d.rows {
                let verdict = cell(&format_verdict(r));
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} | {verdict} |",
                    cell(&r.runtime),
                    cell(&r.test),
                    r.phase,
                    format_ns(r.a_median),
                    format_ns(r.b_median),
                    format_ratio(r),
                )?;
            }
            for (keys, what) in [(&d.only_a, "only in A"), (&d.only_b, "only in B")] {
                for k in keys {
                    writeln!(
                        out,
                        "| {} | {} | {} | | | | {what} |",
                        cell(&k.runtime),
                        cell(&k.test),
                        k.phase
                    )?;
                }
            }
            writeln!(out)?;
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
            if m.suite_kind == SuiteKind::Lifecycle {
                write_lifecycle(out, s)?;
                write_failures(out, s)?;
                continue;
            }
            if m.suite_kind.is_http() {
                for t in http_tables(&run.http, &s.baseline) {
                    writeln!(out, "{}\n", cell(&t.title))?;
                    let head: Vec<String> = t.header.iter().map(|h| cell(h)).collect();
                    writeln!(out, "| {} |", head.join(" | "))?;
                    writeln!(out, "| --- |{}", " ---: |".repeat(t.header.len() - 1))?;
                    for r in &t.rows {
                        let r: Vec<String> = r.iter().map(|x| cell(x)).collect();
                        writeln!(out, "| {} |", r.join(" | "))?;
                    }
                    writeln!(out)?;
                }
                write_failures(out, s)?;
                continue;
            }
            writeln!(
                out,
                "Median time per iteration ± half its 95 % interval; in parentheses, time relative to `{}` (lower is faster).\n",
                cell(&s.baseline)
            )?;
            write!(out, "| test |")?;
            for rt in &s.runtimes {
                write!(out, " {} |", cell(rt))?;
            }
            writeln!(out)?;
            writeln!(out, "| --- |{}", " ---: |".repeat(s.runtimes.len()))?;
            for t in &s.tests {
                write!(out, "| {} |", cell(t))?;
                for rt in &s.runtimes {
                    let text = match s.cell(rt, t) {
                        Some(c) if c.failure.is_some() => "failed".to_string(),
                        Some(c) => format_cell(c),
                        None => "–".into(),
                    };
                    write!(out, " {text} |")?;
                }
                writeln!(out)?;
            }
            write!(out, "| **geomean** |")?;
            for r in &s.per_runtime {
                write!(out, " **{}** |", format_geomean(r))?;
            }
            writeln!(out, "\n")?;
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

/// One table per lifecycle measurement: modules down, runtimes across, median (p99).
fn write_lifecycle(out: &mut dyn Write, s: &RunSummary) -> std::io::Result<()> {
    writeln!(
        out,
        "Per operation: median (p99) over the samples; each sample times a batch of operations as one.\n"
    )?;
    for m in MEASURES {
        let has = |t: &String| {
            s.runtimes
                .iter()
                .any(|rt| s.cell(rt, t).and_then(|c| m.stats(c)).is_some())
        };
        if !s.tests.iter().any(has) {
            continue;
        }
        writeln!(out, "### {}\n", m.label)?;
        write!(out, "| module |")?;
        for rt in &s.runtimes {
            write!(out, " {} |", cell(rt))?;
        }
        writeln!(out)?;
        writeln!(out, "| --- |{}", " ---: |".repeat(s.runtimes.len()))?;
        for t in &s.tests {
            write!(out, "| {} |", cell(t))?;
            for rt in &s.runtimes {
                let text = match s.cell(rt, t) {
                    Some(c) if c.failure.is_some() => "failed".to_string(),
                    Some(c) => match m.stats(c) {
                        Some(st) => format!(
                            "{} ({})",
                            format_value(m.unit, st.median),
                            format_value(m.unit, st.p99)
                        ),
                        None => "–".into(),
                    },
                    None => "–".into(),
                };
                write!(out, " {text} |")?;
            }
            writeln!(out)?;
        }
        writeln!(out)?;
    }
    Ok(())
}
